/* Options and helpers shared by the scenario commands (cmd_sim.c,
 * cmd_oracle.c). */
#ifndef REACT_CLI_SIMOPTS_H
#define REACT_CLI_SIMOPTS_H

#include <stddef.h>

#include "progress.h" /* cli_now_s, cli_fmt_dur */
#include "react/backend.h"
#include "react/oracle.h"
#include "react/scenario.h"

typedef struct common_opts {
	const char *path;
	const char *backend;   /* --backend, or NULL */
	const char *sets[64];  /* --set KEY=VALUE */
	int nsets;
} common_opts_t;

/* Handles --backend and --set; returns 1 when argv[*i] was one of them
 * (consuming its value), 0 when not, -1 on a malformed option (printed). */
int cli_common_opt(const char *cmd, common_opts_t *o, int argc, char **argv, int *i);
/* The scenario o->path with o's --set overrides; NULL after printing the error. */
react_scenario_t *cli_load_scenario(const char *cmd, const common_opts_t *o);
/* The backend of a configuration: --backend wins over the scenario's field;
 * NULL after printing the error, also when the configuration uses congestion
 * the backend cannot model (react_config_check_backend).  cfg->backend
 * becomes the chosen backend's name (what config.txt and the fingerprint
 * record). */
const react_backend_ops_t *cli_backend_of(const char *cmd, const react_scenario_t *s,
                                          const common_opts_t *o, react_config_t *cfg);
/* --progress SECONDS: 0 <= s <= 1e6 into *every; -1 after printing the error. */
int cli_parse_progress(const char *cmd, const char *v, double *every);
/* An integer >= min for option opt; -1 after printing the error. */
int cli_parse_count(const char *cmd, const char *opt, const char *v, long *out, long min);
/* The header of `react run`: scenario, configuration, topology, jobs and
 * their hosts, external flows, degraded links (cmd_sim.c). */
void cli_print_config(const react_scenario_t *s, const react_config_t *cfg, const char *be);
/* --oracle-opt KEY=VALUE into oo; -1 after printing the error (cmd_oracle.c). */
int cli_oracle_opt(const char *cmd, react_oracle_opts_t *oo, const char *kv);
/* The oracle's files for cfg (cmd_oracle.c): reused from dir or from
 * cache/<fingerprint>/ when a stored result has the oracle fingerprint of
 * cfg and oo (*from: dir or cache), else searched (progress on stderr unless
 * quiet; *from = NULL) and, with a cache, stored there.  dir and cache may
 * be NULL.  *res_out (may be NULL): the search result when one ran.
 * Returns 0, or 2 after printing the error. */
int cli_oracle_files(const char *cmd, const react_backend_ops_t *be, const react_config_t *cfg,
                     const react_oracle_opts_t *oo, const char *dir, const char *cache, int quiet,
                     react_oracle_files_t **out, react_oracle_result_t **res_out,
                     const char **from);
/* cli_oracle_files after a stored result of cfg turned out to be searched
 * against another baseline than the run's (why says how; said on stderr):
 * *files is destroyed, the oracle.csv in dir and in the cache (either may
 * be NULL) removed, and the oracle searched again, the other arguments and
 * the return as cli_oracle_files' (2 also when a file could not be
 * removed, after printing why). */
int cli_oracle_search_again(const char *cmd, const react_backend_ops_t *be,
                            const react_config_t *cfg, const react_oracle_opts_t *oo,
                            const char *dir, const char *cache, int quiet, const char *why,
                            react_oracle_files_t **files, react_oracle_result_t **res_out,
                            const char **from);

#endif
