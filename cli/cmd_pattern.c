/* placeholder until this subcommand group lands */
#include <stdio.h>
#include "cli.h"
int react_cmd_pattern(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'pattern' is not available in this build\n"); return 2; }
int react_cmd_verify(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'verify' is not available in this build\n"); return 2; }
int react_cmd_show(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'show' is not available in this build\n"); return 2; }
