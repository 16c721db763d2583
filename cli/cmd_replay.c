/* placeholder until this subcommand group lands */
#include <stdio.h>
#include "cli.h"
int react_cmd_replay(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "react: 'replay' is not available in this build\n"); return 2; }
