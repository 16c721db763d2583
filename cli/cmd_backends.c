/* placeholder until this subcommand group lands */
#include <stdio.h>
#include "cli.h"
int react_cmd_compare_backends(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'compare_backends' is not available in this build\n"); return 2; }
