/*
 * react/oracle.h - the oracle: the best FIXED pattern REACT's own moves can
 * reach for each REACT job of one resolved configuration, when the
 * congestion is known (docs/oracle.md describes the search exactly).
 *
 * Every candidate is evaluated by react_drive() on the same backend, seed,
 * epochs and congestion as the real run, REACT off, the job running the
 * candidate as its fixed pattern (react_drive_opts_t.fixed).  The objective
 * is the summary's metric: the mean algorithm bandwidth over the epochs
 * after warm-up.
 *
 * Moves are REACT's: global permutations of ranks (react_pattern_permute),
 * chunk-local and position swaps (react_xform_apply; position-equivalent
 * sets from react_equiv_fast).  Every candidate passes react_checker_run
 * before it is evaluated (one that fails is skipped); the final pattern is
 * checked again (REACT_ESEMANTIC there is a bug).
 *
 *   N <= exhaustive_max_ranks:  every one of the N! global permutations is
 *     screened on the first screen_epochs epochs; the best `keep` (and the
 *     job's current pattern) are evaluated at full length; hill climbing
 *     (first improvement over position, chunk-local and pairwise global
 *     swaps, full-length evaluations) from the best climb_starts of them,
 *     the best first permuted chunk graph by chunk graph (for each graph,
 *     every permutation of its ranks screened and ranked by the graph's own
 *     completion time; the 16 best of each of two graphs combined, the
 *     combinations screened, the best `keep` at full length);
 *     from the best local optimum, compound moves (pairs of single moves,
 *     screened, the best pair_keep at full length) each followed by a
 *     climb, until no pair improves.
 *   N >  exhaustive_max_ranks:  multi-start hill climbing (the current
 *     pattern and local_starts - 1 random permutations) over the same moves,
 *     sampled, full-length evaluations, local_evals in all.
 *   Several REACT jobs: coordinate search, one job at a time with the others
 *     on their current patterns (generated, then best found), in job order,
 *     `rounds` times; the objective is then the mean over REACT jobs of
 *     (job's mean algbw / its baseline mean algbw).
 *
 * Deterministic: the same inputs and options give the same patterns and
 * numbers bit for bit (timings in `stats` aside).  The result does not
 * depend on the controller's parameters: react_oracle_fingerprint() leaves
 * them out.
 */
#ifndef REACT_ORACLE_H
#define REACT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "react/backend.h"
#include "react/driver.h"
#include "react/flowsim.h"
#include "react/pattern.h"
#include "react/scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the search is, for progress reports. */
typedef struct react_oracle_progress {
	int32_t job;          /* job being searched */
	const char *stage;    /* "baseline", "screen", "full", "climb", "local", "final" */
	uint64_t done, total; /* evaluations of this stage (total 0: open-ended) */
	double best_gbps;     /* the job's best full-length mean algbw so far (0: none yet) */
	double base_gbps;     /* the job's baseline mean algbw */
} react_oracle_progress_t;

enum { REACT_ORACLE_PROXY_NONE = 0, REACT_ORACLE_PROXY_FLOW = 1, REACT_ORACLE_PROXY_DCTCP = 2 };

typedef struct react_oracle_opts {
	int32_t exhaustive_max_ranks; /* exhaustive over N! up to this many ranks (9) */
	int64_t screen_epochs;        /* epochs of a screening run: the run's first (10) */
	int32_t keep;                 /* K: screened permutations evaluated at full length (96) */
	int32_t climb_starts;         /* hill climbs, from the best full-length patterns (3) */
	int64_t climb_evals;          /* full-length evaluations of the hill climbing, per job
	                               * and round (2000) */
	int32_t climb_many;           /* x climb_evals for a pattern of more chunk graphs than
	                               * graph_max (rings, rhd, ring AllGather) (4) */
	int32_t pair_keep;            /* compound moves (pairs of single moves) run at full
	                               * length per escape from a local optimum; 0: none (8) */
	int64_t pair_screens;         /* pairs screened per escape, a deterministic sample
	                               * when there are more (20000) */
	int32_t graph_rounds;         /* rounds of chunk-local permutations over the chunk
	                               * graphs of the best permutation; 0: none (1) */
	int32_t graph_max;            /* ... only for patterns of at most this many chunk
	                               * graphs (4: tree AllReduce, not rings) */
	int32_t local_starts;         /* N > exhaustive_max_ranks: climbs (4) */
	int64_t local_evals;          /* N > exhaustive_max_ranks: full-length evaluations per
	                               * job and round (400) */
	int64_t local_patience;       /* a sampled climb stops after this many evaluated
	                               * moves without improvement (60) */
	int32_t rounds;               /* coordinate rounds over the REACT jobs (1) */
	int32_t equiv_max_ranks;      /* position swaps only up to this many ranks (256) */
	uint64_t seed;                /* random starts and sampled moves (1) */
	int32_t screen_full;          /* 1: every permutation at full length instead of the
	                               * screen (the reference that chose keep; slow) */
	int32_t proxy;                /* REACT_ORACLE_PROXY_*: search on this (cheaper)
	                               * backend, then run each job's proxy_keep best
	                               * distinct patterns on the real one and keep the best
	                               * (none) */
	int32_t proxy_keep;           /* (16) */
	/* Optional: called before every evaluation with the candidate (already
	 * checked) and whether it runs at full length. */
	void (*on_eval)(void *ctx, int32_t job, const react_pattern_t *cand, int full);
	void *on_eval_ctx;
	/* Optional: called after every evaluation and at stage changes. */
	void (*progress)(void *ctx, const react_oracle_progress_t *p);
	void *progress_ctx;
} react_oracle_opts_t;

/* The defaults above. */
void react_oracle_opts_default(react_oracle_opts_t *o);
/* Set one knob by name (the CLI's --oracle-opt key=value): exhaustive_max_ranks,
 * screen_epochs, keep, climb_starts, climb_evals, climb_many, pair_keep, pair_screens,
 * local_starts, local_evals, local_patience, rounds, equiv_max_ranks, seed,
 * screen_full, proxy_keep (integers), proxy (none, flow, dctcp).  REACT_EINVAL
 * with why naming the key and the valid range. */
react_status_t react_oracle_opts_set(react_oracle_opts_t *o, const char *key, const char *value,
                                     char *why, size_t whylen);

typedef enum react_oracle_origin {
	REACT_ORACLE_GENERATED = 0, /* nothing beat the generated pattern */
	REACT_ORACLE_PERMUTATION,   /* a global permutation (screened or local start) */
	REACT_ORACLE_CLIMB,         /* reached by hill climbing */
	REACT_ORACLE_PROXY          /* the best of a proxy search's finalists on this backend */
} react_oracle_origin_t;
const char *react_oracle_origin_name(react_oracle_origin_t o); /* "generated", ... */

typedef struct react_oracle_job {
	char name[64];
	int searched;               /* 1 for a REACT job */
	react_pattern_t *best;      /* owned: the job's pattern in the final run */
	uint64_t best_hash;         /* react_pattern_hash(best) */
	react_oracle_origin_t origin;
	int64_t climb_moves;        /* accepted hill-climbing moves on the way to best */
	double baseline_gbps;       /* mean algbw after warm-up, every job on its generated pattern
	                             * (or its pattern file's, react_config_t.pattern) */
	double oracle_gbps;         /* the same in the final run, every job on its best */
	double screen_best_gbps;    /* best screened mean algbw (screen epochs, no warm-up);
	                             * 0 when not screened */
	double perm_best_gbps;      /* best full-length mean algbw among the global
	                             * permutations evaluated at full length */
} react_oracle_job_t;

typedef struct react_oracle_stats {
	uint64_t permutations;   /* global permutations enumerated */
	uint64_t candidates;     /* candidate patterns built (every stage) */
	uint64_t rejected;       /* failed the semantic check: skipped */
	uint64_t unchanged;      /* moves that left the pattern as it was: skipped */
	uint64_t duplicates;     /* identical (for the backend) to one already evaluated:
	                          * result reused */
	uint64_t screen_evals, full_evals;  /* backend runs (the baseline's and the final one
	                                     * included) */
	uint64_t proxy_screen_evals, proxy_full_evals; /* the same on the proxy backend */
	double build_s, check_s, screen_s, full_s, proxy_s, total_s; /* wall time (not
	                                     * deterministic) */
} react_oracle_stats_t;

typedef struct react_oracle_result {
	uint64_t fingerprint;       /* react_oracle_fingerprint of the inputs */
	int32_t njobs;
	react_oracle_job_t *jobs;   /* njobs entries */
	react_drive_result_t *baseline; /* full-length run, generated patterns (or pattern files') */
	react_drive_result_t *final;    /* full-length run, every job on jobs[j].best */
	react_oracle_stats_t stats;
} react_oracle_result_t;

/* Search cfg (from react_scenario_config) on backend be.  o may be NULL
 * (defaults).  out: the new result (react_oracle_result_destroy).  Errors:
 * REACT_EINVAL (bad options), whatever react_drive returns (err names the
 * stage), REACT_ESEMANTIC when the final pattern fails the check (a bug). */
react_status_t react_oracle_search(const react_backend_ops_t *be, const react_config_t *cfg,
                                   const react_oracle_opts_t *o, react_oracle_result_t **out,
                                   char *err, size_t errlen);
void react_oracle_result_destroy(react_oracle_result_t *r);

/* Fingerprint of everything the oracle's result depends on: the
 * configuration as react_config_fingerprint() sees it without the REACT
 * parameters, and the search options (hooks aside). */
uint64_t react_oracle_fingerprint(const react_config_t *cfg, const react_oracle_opts_t *o);

/* Next permutation in lexicographic order (in-out perm, n entries); 0 after
 * the last one (perm is then the first again). */
int react_perm_next(react_rank_t *perm, int32_t n);

/* ---- result files (docs/oracle.md) ----
 *   DIR/oracle.csv          one row per job: the oracle fingerprint, baseline
 *                           and oracle mean algbw, where the best came from,
 *                           its hash, the search's counters (no timings)
 *   DIR/oracle-<job>.json   the job's best pattern (react/pattern_io.h format)
 * The files of one result, in memory: */
typedef struct react_oracle_files {
	uint64_t fingerprint;
	int32_t njobs;
	char *csv;              /* oracle.csv */
	char **json;            /* per job: oracle-<job>.json */
	double *oracle_gbps;    /* per job: oracle_mean_gbps as written (%.6f) */
	double *baseline_gbps;  /* per job: baseline_mean_gbps as written (%.6f): the
	                         * baseline the oracle was searched against */
	int64_t full_evals;     /* the search's full-length runs (oracle.csv's
	                         * full_evals); -1 when the CSV has no such column */
} react_oracle_files_t;

/* 1 when every job's baseline in summary (a summary.csv text of cfg: the
 * columns job and baseline_mean_gbps) is the baseline f was searched
 * against, to the %.6f both are written with; 0 otherwise, why (whylen
 * bytes) naming the job and both values.  A stored result whose baseline
 * differs was made by another backend or scenario code (the fingerprint
 * covers the inputs, not the code): it is stale. */
int react_oracle_files_baseline_ok(const react_oracle_files_t *f, const react_config_t *cfg,
                                   const char *summary, char *why, size_t whylen);
/* The same for job j alone, against its baseline's mean algbw (GB/s). */
int react_oracle_files_baseline_matches(const react_oracle_files_t *f, int32_t j,
                                        double baseline_gbps);

/* Relative oracle gain below which `captured` is not defined ("n/a"). */
#define REACT_ORACLE_GAIN_EPS 1e-3

/* The files of result r.  out: new files. */
react_status_t react_oracle_files_make(const react_oracle_result_t *r,
                                       react_oracle_files_t **out);
/* DIR/oracle.csv and every DIR/oracle-<job>.json of cfg's jobs when they
 * hold a result with fingerprint fp (the patterns are read back and must
 * match the hashes in the CSV).  *out: the files, or NULL when they are
 * absent, of another fingerprint or incomplete (not an error).  Errors:
 * REACT_ENOMEM only. */
react_status_t react_oracle_files_load(const char *dir, const react_config_t *cfg, uint64_t fp,
                                       react_oracle_files_t **out);
/* A result stored in DIR before climb_many (oracle options o): the files of
 * cfg's search with climb_many 1 (every pattern's climb budget
 * climb_evals), when that search ended inside its budget (full_evals below
 * climb_evals), so that o's larger budget makes the same search.  *out:
 * those files, re-stamped with o's fingerprint, or NULL (none stored, the
 * budget spent, or climb_many does not apply to cfg).  Errors: REACT_ENOMEM
 * only. */
react_status_t react_oracle_files_load_within(const char *dir, const react_config_t *cfg,
                                              const react_oracle_opts_t *o,
                                              react_oracle_files_t **out);
/* Write them into DIR (created when missing), each file atomically. */
react_status_t react_oracle_files_write(const char *dir, const react_config_t *cfg,
                                        const react_oracle_files_t *f, char *err, size_t errlen);
void react_oracle_files_destroy(react_oracle_files_t *f);

/* captured = (react - baseline) / (oracle - baseline), the share of the
 * oracle's gain that REACT got; NAN when the oracle's relative gain
 * (oracle / baseline - 1) is below REACT_ORACLE_GAIN_EPS. */
double react_oracle_captured(double baseline, double react, double oracle);

/* summary.csv text (in: a header and rows with the columns job,
 * baseline_mean_gbps, react_mean_gbps) with the columns oracle_mean_gbps,
 * oracle_impr_pct, captured appended (replacing them when present), from f.
 * malloc'd; NULL on a malformed summary or a job f does not know. */
char *react_summary_add_oracle(const char *summary, const react_config_t *cfg,
                               const react_oracle_files_t *f);
/* 1 when summary.csv text has the oracle columns. */
int react_summary_has_oracle(const char *summary);

#ifdef __cplusplus
}
#endif
#endif
