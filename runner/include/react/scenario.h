/*
 * react/scenario.h - scenario files: parse, expand sweeps, resolve runs.
 *
 * A scenario is a YAML file (docs/scenarios.md describes every field).  Any
 * scalar field may instead hold a list of values, or for integer fields a
 * range "a..b" (inclusive); such a field is a sweep axis.  The scenario's
 * configurations are the cross product of its axes, enumerated like nested
 * loops in file order: the first axis varies slowest, the last fastest.
 *
 * Resolving configuration i builds its topology and draws every random choice
 * (job placement, external flows, degraded links) from the configuration's
 * seed with gsl_rng_mt19937, in that order, so a configuration is the same bit
 * for bit every time it is resolved.  The network fields (the topology and
 * congestion sections, ecmp_ports, mtu: react/netconfig.h lists them) and
 * the jobs' placement are resolved on the simulators' side
 * (react_net_open/place/finish), from the values the configuration picked.
 * The backend's own draws (ECMP source ports and hashing) use run.seed: the
 * `ecmp_seed` field, by default the configuration's seed.  A job's `pattern`
 * file is read and semantically checked when its configuration is resolved
 * (react_pattern_read_json, react_pattern_check); errors name the scenario
 * file and the line of the `pattern` field, then the pattern file's own
 * error.
 *
 * Errors: every function that reads user input fills `err` (size errlen) with
 * "FILE:LINE: field 'x': expected ..., got ..." and returns REACT_EPARSE (bad
 * syntax, unknown field, wrong type), REACT_EINVAL (an impossible value:
 * ranks < 2, a placement that does not fit, hosts beyond the topology,
 * a collective/algorithm pair without a generator) or REACT_EIO (a file that
 * cannot be read).  Values given with react_scenario_set() are named
 * "--set KEY" instead of FILE:LINE.
 */
#ifndef REACT_SCENARIO_H
#define REACT_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "react/backend.h"
#include "react/controller.h"
#include "react/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct react_scenario react_scenario_t;

/* Read and validate a scenario file.  out: the new scenario. */
react_status_t react_scenario_load(const char *path, react_scenario_t **out, char *err,
                                   size_t errlen);
/* The same from memory; `path` (in) names the text in errors and anchors
 * relative file names (topology files). */
react_status_t react_scenario_parse(const char *text, size_t len, const char *path,
                                    react_scenario_t **out, char *err, size_t errlen);
void react_scenario_destroy(react_scenario_t *s);

/* Override one field before resolution (the CLI's --set key=value).
 * key (in): dotted path of the field, jobs by name or index, e.g. "seed",
 * "congestion.external.p", "jobs.tree.message", "jobs.0.ranks", "react.B",
 * "topology.k".  value (in): YAML, so a list "[1, 2]" or a range "1..4"
 * makes the field a sweep axis.  The whole scenario is validated again; on
 * failure the scenario is unchanged. */
react_status_t react_scenario_set(react_scenario_t *s, const char *key, const char *value,
                                  char *err, size_t errlen);

const char *react_scenario_name(const react_scenario_t *s);
const char *react_scenario_path(const react_scenario_t *s);
/* The `backend` field ("flow" when absent) and where it was written
 * ("FILE:LINE", or the file name alone when absent): for the CLI's error
 * about an unknown or missing backend. */
const char *react_scenario_backend(const react_scenario_t *s);
const char *react_scenario_backend_where(const react_scenario_t *s);
/* Relative tolerance for `react regress` (the `tolerance` field; 0 = exact). */
double react_scenario_tolerance(const react_scenario_t *s);
int32_t react_scenario_njobs(const react_scenario_t *s);
const char *react_scenario_job_name(const react_scenario_t *s, int32_t job);

/* Number of configurations: the product of the axis lengths (1 without axes). */
size_t react_scenario_nconfigs(const react_scenario_t *s);
/* Sweep axes (fields holding more than one value), in file order. */
size_t react_scenario_naxes(const react_scenario_t *s);
/* Column name of an axis: the field's key ("seed", "congested_pairs", "p"),
 * prefixed with its section when two axes would share a name
 * ("tree.message", "ring.message"). */
const char *react_scenario_axis_name(const react_scenario_t *s, size_t axis);
size_t react_scenario_axis_len(const react_scenario_t *s, size_t axis);
/* Plot axes from the `plot: {x, series}` field, else x = the first axis that
 * is not "seed" and series = the next such axis.  SIZE_MAX when none. */
size_t react_scenario_plot_x(const react_scenario_t *s);
size_t react_scenario_plot_series(const react_scenario_t *s);
/* The plots beyond the mean improvement that `plot: {also: [p95, algbw]}`
 * asks for: REACT_PLOT_P95 (the p95 improvement), REACT_PLOT_ALGBW (the
 * mean algorithm bandwidth itself, baseline and REACT); 0 when none. */
#define REACT_PLOT_P95 1u
#define REACT_PLOT_ALGBW 2u
unsigned react_scenario_plot_also(const react_scenario_t *s);

/* One configuration, resolved: plain data, owned by the caller. */
typedef struct react_config {
	size_t index;             /* 0 .. nconfigs-1 */
	char id[16];              /* "c0007": name of its run directory */
	size_t naxes;
	char **axis_value;        /* per axis: the value as written ("4", "20MB") */
	char key[1024];           /* "seed=3 congested_pairs=2 p=4" (empty without axes) */
	char backend[16];         /* "flow", "ns3" */
	uint64_t seed;
	react_topology_t *topo;   /* owned; run.topo points to it */
	react_run_cfg_t run;      /* the resolved run, owned (jobs, hosts, ext, degraded) */
	int *react_on;            /* per job: 1 when REACT controls it in the REACT run */
	react_params_t *params;   /* per job; seed = configuration seed + job index
	                           * unless react.seed is given */
	int64_t *warmup;          /* per job: epochs left out of the summaries */
	react_gpu_cfg_t gpu;      /* the `gpu` section (run.gpu points to it; pairs owned) */
	/* per job, NULL entries for generated patterns: the pattern read from the
	 * job's `pattern` file (owned), which the job runs instead of a generated
	 * one (the baseline's fixed pattern, REACT's initial pattern);
	 * run.jobs[j].algorithm is then the file's `algorithm` */
	react_pattern_t **pattern;
	char **pattern_file;      /* per job: the `pattern` field as written, or NULL */
} react_config_t;

/* Resolve configuration `index` (< nconfigs).  out: the new configuration. */
react_status_t react_scenario_config(const react_scenario_t *s, size_t index,
                                     react_config_t **out, char *err, size_t errlen);
void react_config_destroy(react_config_t *c);

/* Whether backend `backend` ("flow", "dctcp", "ns3", "gpu") models every
 * congestion field configuration c uses: the simulators model external
 * flows and degraded links (congestion:), the gpu backend rank-pair
 * congestion (gpu.congestion) and one job.  A field a backend cannot model
 * is an error naming the file, line and field (REACT_EINVAL), never
 * silently ignored. */
react_status_t react_config_check_backend(const react_scenario_t *s, const react_config_t *c,
                                          const char *backend, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
