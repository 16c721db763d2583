/*
 * react/results.h - result files of simulated runs (docs/scenarios.md).
 *
 *   OUT/runs.csv                 one row per configuration and job
 *   OUT/runs/<id>/epochs.csv     every epoch of both runs (baseline, react)
 *   OUT/runs/<id>/summary.csv    this configuration's rows of runs.csv
 *   OUT/runs/<id>/decisions.jsonl the controllers' decision logs, one object
 *                                per line, with a "job" field added
 *   OUT/runs/<id>/config.txt     what was run (swept values, hosts, flows)
 *   OUT/runs/<id>/trace-<job>.jsonl  FCT trace of the REACT run (optional)
 *   OUT/plot-<job>.{gp,dat,png,svg}  improvement per swept value
 *
 * A run directory is built under OUT/runs/.tmp-<id>.<pid> and renamed into
 * place when complete, so OUT/runs/<id> exists only with all its files.
 * Every other file is written to a temporary name and renamed.
 */
#ifndef REACT_RESULTS_H
#define REACT_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "react/driver.h"
#include "react/scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fingerprint of everything a resolved configuration runs (FNV-1a over
 * topology, jobs, hosts, flows, degraded links, parameters, backend). */
uint64_t react_config_fingerprint(const react_config_t *cfg);

/* Header line of runs.csv / summary.csv for scenario s (with newline);
 * malloc'd. */
char *react_runs_csv_header(const react_scenario_t *s);
/* This configuration's rows (one per job, with newlines); malloc'd. */
char *react_runs_csv_rows(const react_scenario_t *s, const react_config_t *cfg,
                          const react_pair_result_t *pr);

struct react_oracle_files;

typedef struct react_run_write_opts {
	int trace;  /* 1: write trace-<job>.jsonl of the REACT run */
	const react_backend_ops_t *backend;
	/* NULL, or the oracle's files for this configuration (react/oracle.h):
	 * written into the run directory (oracle.csv, oracle-<job>.json), and
	 * summary.csv gets the columns oracle_mean_gbps, oracle_impr_pct,
	 * captured. */
	const struct react_oracle_files *oracle;
	/* with oracle: NULL, or set to 1 when the oracle was searched against
	 * another baseline than this run's (react_oracle_files_baseline_ok: a
	 * stale stored result); nothing is written then and the call fails
	 * with REACT_EINVAL, err naming the job and both baselines */
	int *oracle_stale;
	/* NULL, or react_pair_opts_t's progress hook for both runs */
	void (*progress)(void *ctx, react_run_mode_t mode, const react_epoch_report_t *rep);
	void *progress_ctx;
	/* NULL, or the baseline's result, used instead of running it
	 * (react_run_dir_baseline) */
	const react_drive_result_t *baseline;
} react_run_write_opts_t;

/* What a sweep finds in OUT/runs/<cfg->id>. */
typedef enum react_run_dir_state {
	REACT_RUN_DIR_MISSING = 0, /* no run directory */
	REACT_RUN_DIR_DONE,        /* made from a configuration with the same
	                            * fingerprint, its files verified */
	REACT_RUN_DIR_STALE,       /* made from other inputs (the fingerprint differs) */
	REACT_RUN_DIR_DAMAGED,     /* a file missing, cut short or malformed */
} react_run_dir_state_t;

/* The baseline of cfg from a sweep that ran it before on the same inputs
 * (e.g. before REACT's parameters changed: the baseline runs REACT off and
 * does not read them): the run directory in FROM/runs whose config.txt,
 * past its id and key lines, is cfg's description (backend, seed,
 * topology, MTU, ECMP, jobs and their hosts, warm-up, external flows,
 * degraded links); FROM/runs/<cfg->id> is tried first, then the others in
 * name order.  Its epochs.csv must hold every baseline epoch of every job.
 * out: react_drive's result for it, read back exactly (%.17g times).
 * REACT_EIO: FROM is no directory or no run directory matches; another
 * status: why (out) names the file and what is malformed. */
react_status_t react_run_dir_baseline(const char *from, const react_config_t *cfg,
                                      react_drive_result_t **out, char *why, size_t whylen);

/* Check OUT/runs/<cfg->id> of a sweep of s before it counts as done:
 * config.txt's fingerprint and text are cfg's; summary.csv has the sweep's
 * header (the oracle's columns may follow) and one complete row per job of
 * cfg with its id, swept values and numbers; epochs.csv has every epoch of
 * every job once in each run (baseline, react); decisions.jsonl has whole
 * lines.  why (out, whylen bytes): for STALE and DAMAGED, the file, the line
 * and what was wrong. */
react_run_dir_state_t react_run_dir_check(const char *out, const react_scenario_t *s,
                                          const react_config_t *cfg, char *why, size_t whylen);

/* Run cfg (baseline and REACT) and write OUT/runs/<id> atomically.
 * pr_out (may be NULL): receives the results (caller clears). */
react_status_t react_run_dir_make(const char *out, const react_scenario_t *s,
                                  const react_config_t *cfg, const react_run_write_opts_t *o,
                                  react_pair_result_t *pr_out, char *err, size_t errlen);

/* Concatenate the summaries of configurations 0..nconfigs-1 into
 * OUT/runs.csv (atomically).  REACT_EIO naming a missing run directory. */
react_status_t react_runs_csv_assemble(const char *out, const react_scenario_t *s, char *err,
                                       size_t errlen);
/* The same; oracle = 1: with the columns oracle_mean_gbps, oracle_impr_pct,
 * captured, which every summary must have (REACT_EPARSE naming the file
 * otherwise); oracle = 0: summaries that have them (made by a sweep with
 * --oracle) contribute their rows without them, so runs.csv is the same as
 * from a sweep that never ran the oracle. */
react_status_t react_runs_csv_assemble_ex(const char *out, const react_scenario_t *s, int oracle,
                                          char *err, size_t errlen);

/* Write epochs.csv text for both runs of a pair (malloc'd). */
char *react_epochs_csv_text(const react_config_t *cfg, const react_pair_result_t *pr);

/* ---- reading epochs.csv (react compare; also GPU runtime output) ---- */
typedef struct react_epoch_row {
	char mode[16];       /* "baseline", "react" */
	char job[64];
	int64_t epoch;
	double start_s, time_s, algbw_gbps;
	uint64_t pattern_hash;
	int changed;
} react_epoch_row_t;

typedef struct react_epoch_table {
	size_t n;
	react_epoch_row_t *rows;
} react_epoch_table_t;

/* REACT_EPARSE with err "FILE:LINE: ..." for a malformed file. */
react_status_t react_epochs_csv_read(const char *path, react_epoch_table_t **out, char *err,
                                     size_t errlen);
void react_epoch_table_destroy(react_epoch_table_t *t);

/* Read a whole text file: *out malloc'd, NUL-terminated.  REACT_EIO with
 * err naming the path. */
react_status_t react_read_file_text(const char *path, char **out, char *err, size_t errlen);
/* Write NUL-terminated text to path atomically (temporary file in the same
 * directory, then rename).  REACT_EIO with err naming the path. */
react_status_t react_write_file_atomic(const char *path, const char *text, char *err,
                                       size_t errlen);

/* Remove a file or a directory tree (best effort; used to discard a
 * half-written run directory). */
void react_rmtree(const char *path);

/* ---- plots (gnuplot) ---- */
/* From OUT/runs.csv: OUT/plot-<job>.{gp,dat,-mean.dat} and, when gnuplot
 * is installed, .png and .svg; with the scenario's plot.also, the same as
 * plot-<job>-p95 and plot-<job>-algbw.  *made (may be NULL): number of
 * images made (0 without gnuplot or without a swept x axis).  On REACT_OK,
 * err is "" or says why no plot (or not every image) was made: nothing
 * swept to plot against, no rows, gnuplot missing or failed. */
react_status_t react_plot_sweep(const char *out, const react_scenario_t *s, int *made,
                                char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
