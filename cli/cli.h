/* Subcommands of build/react.  Each gets argv starting at its own name and
 * returns the process exit code (0 ok, 1 a negative verdict, 2 bad input). */
#ifndef REACT_CLI_H
#define REACT_CLI_H

struct react_cmd {
	const char *name;
	const char *help;
	int (*fn)(int argc, char **argv);
};

int react_cmd_pattern(int argc, char **argv);          /* cmd_pattern.c */
int react_cmd_verify(int argc, char **argv);           /* cmd_pattern.c */
int react_cmd_show(int argc, char **argv);             /* cmd_pattern.c */
int react_cmd_replay(int argc, char **argv);           /* cmd_replay.c */
int react_cmd_run(int argc, char **argv);              /* cmd_sim.c */
int react_cmd_sweep(int argc, char **argv);            /* cmd_sim.c */
int react_cmd_regress(int argc, char **argv);          /* cmd_sim.c */
int react_cmd_compare(int argc, char **argv);          /* cmd_sim.c */
int react_cmd_compare_backends(int argc, char **argv); /* cmd_backends.c */
int react_cmd_oracle(int argc, char **argv);           /* cmd_oracle.c */

#endif
