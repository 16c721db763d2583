/* react - the one command-line program: subcommands dispatch to cmd_*.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct react_cmd cmds[] = {
	{"pattern", "generate a collective pattern", react_cmd_pattern},
	{"verify", "check a pattern file against its collective's semantics", react_cmd_verify},
	{"show", "print a pattern step by step (or as Graphviz with --dot)", react_cmd_show},
	{"replay", "feed a recorded FCT trace through the controller", react_cmd_replay},
	{"run", "run one scenario configuration, baseline and REACT", react_cmd_run},
	{"oracle", "run one configuration: baseline, REACT and the best fixed pattern", react_cmd_oracle},
	{"sweep", "run every configuration of a scenario, write results/", react_cmd_sweep},
	{"regress", "rerun a regression set and compare with stored results", react_cmd_regress},
	{"compare", "put per-epoch results of two runs side by side", react_cmd_compare},
	{"compare-backends", "run a scenario on a flow-level backend and ns-3, side by side", react_cmd_compare_backends},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: react <command> [options]   (react <command> --help)\n\ncommands:\n");
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		fprintf(f, "  %-17s %s\n", cmds[i].name, cmds[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("react %s\n", REACT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "react: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
