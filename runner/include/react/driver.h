/*
 * react/driver.h - the epoch driver shared by every simulation backend.
 *
 * The driver implements react_driver_cb_t for a backend: a job with REACT on
 * gets one react_ctl_t (its patterns come from the controller, each finished
 * epoch's FCTs are fed back to it); a job with REACT off runs its generated
 * pattern unchanged.  Every finished epoch is recorded (react_epoch_rec_t);
 * after the run each job is summarised over its epochs after warm-up.  A job
 * with keep_running goes on past its epochs while another job still runs
 * its own: those epochs reach its controller but are not recorded, and the
 * per-epoch hook (on_epoch) does not see them.
 *
 *     react_drive_result_t *r;
 *     react_drive(&react_backend_flow, &cfg->run, &opts, &r, err, sizeof err);
 *
 * react_run_pair() runs one resolved scenario configuration twice on one
 * backend, baseline (REACT off for every job) and REACT (on for the jobs the
 * scenario names), on identical congestion: it is what `react run`,
 * `react sweep` and `react compare-backends` call.
 *
 * Metrics (paper section 7.1): an epoch's time is end - start of its
 * collective; its algorithm bandwidth is message bytes / time, in GB/s
 * (1e9 bytes per second).  The mean algorithm bandwidth is the mean of the
 * per-epoch bandwidths; the p95 algorithm bandwidth is the message size
 * over the 95th percentile of the epoch times (the slow tail), so a higher
 * value is better for both mean and p95.  Percentiles interpolate linearly
 * between order statistics (gsl_stats_quantile_from_sorted_data).
 *
 * Deterministic: the same backend, configuration and parameters give the same
 * records and summaries bit for bit (the flow backend is deterministic).
 */
#ifndef REACT_DRIVER_H
#define REACT_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "react/backend.h"
#include "react/controller.h"
#include "react/scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One finished epoch of one job. */
typedef struct react_epoch_rec {
	int32_t job;
	int64_t epoch;
	double start_s;         /* simulated start of the collective */
	double time_s;          /* collective completion time */
	double algbw_gbps;      /* message bytes / time_s / 1e9 */
	uint64_t pattern_hash;  /* react_pattern_hash of the pattern that ran */
	int changed;            /* 1 when the pattern differs from the job's previous epoch */
} react_epoch_rec_t;

typedef struct react_job_summary {
	char name[64];
	int react;              /* 1 when REACT controlled the job */
	uint64_t message_bytes;
	int64_t epochs;         /* epochs that ran */
	int64_t warmup;         /* leading epochs left out of mean/p95 */
	double mean_time_s, p95_time_s;       /* over epochs >= warmup */
	double mean_algbw_gbps, p95_algbw_gbps;
	int64_t pattern_changes;  /* epochs (all of them) whose pattern differs from the previous */
	react_ctl_stats_t ctl;    /* the controller's counters; zero when REACT was off */
} react_job_summary_t;

typedef struct react_drive_result {
	int32_t njobs;
	react_job_summary_t *jobs;  /* njobs entries */
	size_t nrecs;
	react_epoch_rec_t *recs;    /* sorted by job, then epoch */
} react_drive_result_t;

typedef struct react_drive_opts {
	const int *react_on;            /* in, per job: 1 = REACT; NULL = off for all */
	const react_params_t *params;   /* in, per job; NULL = react_params_default()
	                                 * with seed cfg->seed + job index */
	const int64_t *warmup;          /* in, per job; NULL = 0 */
	FILE *const *decision_log;      /* in, per job, may be NULL or hold NULLs:
	                                 * react_ctl_set_log of that job's controller */
	/* Optional: called for every finished epoch after the driver recorded it
	 * (e.g. to write an FCT trace); non-OK aborts the run with that status. */
	react_status_t (*on_epoch)(void *ctx, const react_epoch_report_t *rep);
	void *on_epoch_ctx;
	/* in, per job, may be NULL or hold NULLs (NULL: the generated pattern):
	 * the pattern the job runs instead of its generated one, i.e. its fixed
	 * pattern when REACT is off and the controller's initial pattern when it
	 * is on.  It must have the job's ranks, collective and message size and
	 * pass the semantic check (react_checker_run); otherwise REACT_EINVAL
	 * (REACT_ESEMANTIC for a failed check) with err naming the job.  Not
	 * copied: it must outlive the call. */
	const react_pattern_t *const *fixed;
	/* in, may be NULL: state from be->prepare for cfg->topo; the run then
	 * goes through be->run_prepared (same results, without rebuilding what
	 * depends on the topology only). */
	void *backend_state;
} react_drive_opts_t;

/* Run cfg on backend be.  opts may be NULL (all REACT off, no warm-up).
 * out: the new result.  Errors: REACT_EINVAL for a bad configuration, a
 * backend's own status (err holds its reason), REACT_EBACKEND when the
 * backend reported an epoch out of order or skipped one, whatever
 * react_ctl_observe() returned (REACT_ESEMANTIC never reaches a backend). */
react_status_t react_drive(const react_backend_ops_t *be, const react_run_cfg_t *cfg,
                           const react_drive_opts_t *opts, react_drive_result_t **out,
                           char *err, size_t errlen);
void react_drive_result_destroy(react_drive_result_t *r);

/* The result react_drive gives for cfg with REACT off for every job, made
 * from its records instead of a run (e.g. a baseline read back from
 * epochs.csv): recs (in; copied) must hold every job's epochs 0 .. epochs-1
 * in order, sorted by job, each with time_s > 0; summaries as react_drive
 * computes them, warm-up per job (NULL = 0).  REACT_EINVAL with err saying
 * which record is missing or out of place. */
react_status_t react_drive_result_of_records(const react_run_cfg_t *cfg, const int64_t *warmup,
                                             const react_epoch_rec_t *recs, size_t nrecs,
                                             react_drive_result_t **out, char *err,
                                             size_t errlen);

/* Summary of n epoch times (in; need not be sorted): mean and p95 of the
 * times and the corresponding algorithm bandwidths for message_bytes. */
void react_epoch_summary(const double *time_s, size_t n, uint64_t message_bytes,
                         double *mean_time_s, double *p95_time_s, double *mean_algbw_gbps,
                         double *p95_algbw_gbps);

/* 100 * (react / baseline - 1); 0 when baseline <= 0. */
double react_improvement_pct(double baseline, double react);

/* ---- one resolved configuration, baseline and REACT ---- */

typedef enum react_run_mode { REACT_MODE_BASELINE = 0, REACT_MODE_REACT = 1 } react_run_mode_t;
const char *react_run_mode_name(react_run_mode_t m); /* "baseline", "react" */

typedef struct react_pair_opts {
	FILE *const *decision_log;      /* in, per job, for the REACT run; may be NULL */
	/* Optional per-epoch hook for both runs (mode says which). */
	react_status_t (*on_epoch)(void *ctx, react_run_mode_t mode, const react_epoch_report_t *rep);
	void *on_epoch_ctx;
	/* Optional: told of every finished epoch of both runs, after on_epoch,
	 * e.g. to report progress; it cannot fail or change the runs. */
	void (*progress)(void *ctx, react_run_mode_t mode, const react_epoch_report_t *rep);
	void *progress_ctx;
	/* Optional: the baseline's result, given instead of run (copied; its
	 * hooks are not called): from react_drive_result_of_records, for a
	 * baseline that ran before on the same inputs. */
	const react_drive_result_t *baseline;
} react_pair_opts_t;

typedef struct react_pair_result {
	react_drive_result_t *baseline;  /* REACT off for every job */
	react_drive_result_t *react;     /* REACT on for jobs with cfg->react_on[j] */
} react_pair_result_t;

/* Run cfg (from react_scenario_config) on be: baseline first, then REACT,
 * with the configuration's parameters and warm-up; a job with a pattern
 * file (cfg->pattern[j]) runs it in the baseline and REACT starts from it
 * (react_drive_opts_t.fixed).  opts may be NULL.
 * out (out): both results; on failure both are NULL.  Errors as react_drive,
 * err prefixed with "baseline: " or "react: ". */
react_status_t react_run_pair(const react_backend_ops_t *be, const react_config_t *cfg,
                              const react_pair_opts_t *opts, react_pair_result_t *out,
                              char *err, size_t errlen);
/* Free both results and set them to NULL. */
void react_pair_result_clear(react_pair_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
