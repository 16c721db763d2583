/* cmd_run.c - react-gpu run SCENARIO (being written). */
#include <stdio.h>

#include "gpu_cmds.h"

int react_gpu_cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "react-gpu run: not available in this build yet\n");
	return 1;
}
