/* placeholder until this subcommand group lands */
#include <stdio.h>
#include "cli.h"
int react_cmd_run(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'run' is not available in this build\n"); return 2; }
int react_cmd_sweep(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'sweep' is not available in this build\n"); return 2; }
int react_cmd_regress(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'regress' is not available in this build\n"); return 2; }
int react_cmd_compare(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'compare' is not available in this build\n"); return 2; }
