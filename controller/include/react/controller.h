/*
 * react/controller.h - REACT's feedback loop (paper sections 5.2 - 5.4).
 *
 * One API for every backend (flow-level simulator, ns-3, GPU runtime):
 *
 *     react_ctl_t *ctl;
 *     react_ctl_create(initial_pattern, &params, &ctl);
 *     for (epoch = 0; epoch < E; epoch++) {
 *         const react_pattern_t *pat = react_ctl_pattern_for(ctl, epoch);
 *         ... run one epoch of `pat`, measure fct[i] of every flow i ...
 *         react_decision_t d;
 *         react_ctl_observe(ctl, epoch, fct, pat->nflows, epoch_time, &d);
 *         // d.changed: a new pattern applies from epoch d.apply_epoch
 *     }
 *
 * Epochs must be observed in order, each once, with the FCTs of the pattern
 * react_ctl_pattern_for() returned for that epoch.  At the end of every batch
 * of B epochs run with one pattern, observe() decides (detection, critical
 * paths, transforms, estimate, revert); a decision applies `apply_delay`
 * epochs later, so the job never waits for it.  Every pattern the controller
 * hands out has passed the semantic check: a violation is returned as
 * REACT_ESEMANTIC from observe(), never handed out.
 *
 * The controller is deterministic: the same initial pattern, parameters
 * (seed included) and observations give the same decisions and log, bit for bit.
 * No global state: any number of controllers may live in one process.
 */
#ifndef REACT_CONTROLLER_H
#define REACT_CONTROLLER_H

#include <stdint.h>
#include <stdio.h>

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* REACT's tunables: the paper's Table 3, with its defaults. */
typedef struct react_params {
	int batch_epochs;    /* B: epochs per batch (6) */
	double delta1;       /* delta_1: steady congestion threshold (0.2) */
	double delta2;       /* delta_2: erratic congestion threshold, normalised std (0.15) */
	int trials;          /* K_t: transforms tried per batch (15) */
	int trials_growth;   /* added to K_t after every batch (1) */
	int max_accepted;    /* K_max of Algorithm 1: transforms accepted per batch (8; paper 4) */
	double epsilon;      /* epsilon: minimum estimated improvement (0.03; paper 0.05) */
	int history_epochs;  /* H: epochs of FCT history kept (120; paper 60) */
	int explore_rounds;  /* E_max: quiet batches before exploration stops / is forced (5) */
	int max_attempts;    /* A_max: exploration attempts after which the pattern is kept (see .c) */
	double revert_tau;   /* tau_r: required observed improvement, else revert (0.05) */
	int apply_delay;     /* D: epochs between decision and use (0; the GPU runtime 5) */
	uint64_t seed;       /* every random choice derives from it */
	int equiv_max_ranks; /* position-equivalent sets are computed only up to this
	                      * many ranks (256; their cost grows ~N^3, see docs) */
	/* Readings where the paper is vague (docs/controller.md says which was
	 * chosen by measurement); `profile=paper` restores every literal one. */
	int profile;         /* REACT_PROFILE_*: informational, set by "profile" */
	int estimator;       /* REACT_EST_*: how a candidate pattern is estimated */
	int keep_rule;       /* REACT_KEEP_*: how an observed change is judged */
	int selection;       /* REACT_SEL_*: which passing candidate of a vertex is taken */
	int pruning;         /* REACT_PRUNE_*: which swaps are candidates at all */
	double min_gain;     /* welch rule: smallest observed gain worth keeping (0.01) */
	double confidence;   /* welch rule: one-sided confidence of the gain's bounds (0.8) */
	int extensions;      /* welch rule: one-batch extensions of an undecided test (2) */
	int undecided;       /* REACT_UNDECIDED_*: welch rule, a test still undecided after
	                      * its extensions (mean; revert: the reading) */
	double escalation;   /* each failed round since the last kept change raises the
	                      * estimated gain a change needs to epsilon (1 + escalation
	                      * x failed rounds) (2; paper 0) */
	double escalation_delay; /* each failed round raises that bar by escalation x (1 +
	                      * this x D / L), L the epochs a test runs before its first
	                      * look (early_revert, else B): a failed try runs L + D
	                      * epochs, not L (1; moot at D = 0 and under the paper
	                      * profile's escalation 0) */
	double fruitless;    /* each search from the base that found nothing counts as this
	                      * many failed rounds in that bar, until the base changes
	                      * (0: none; docs/controller.md, "A search that finds
	                      * nothing") */
	int explore_free;    /* failed rounds, from the start or a shift on, after which
	                      * the next search's bar stays at epsilon: a change that ran
	                      * flows on pairs the history never measured, searched under
	                      * steady congestion (1; paper 0) */
	int search_backoff;  /* REACT_BACKOFF_*: searches after a fruitless one */
	int fruitless_stop;  /* after this many searches from one base found nothing, no
	                      * search from it until the base changes, new steady
	                      * congestion appears or the loop starts afresh (2; 0: off;
	                      * paper 0) */
	int keep_resets;     /* REACT_KEEP_RESETS_*: which kept changes restart the count
	                      * of failed rounds (steady; paper any) */
	int beam;            /* selection best: patterns kept per depth of the beam
	                      * search (16) */
	int role_moves;      /* selection best: a congested sender also tried in the
	                      * lightest role of every chunk graph at once (1; paper 0) */
	int overlap_passes;  /* estimator overlap: how often a moved flow is re-timed at
	                      * its overlaps in the candidate's timeline (1) */
	double shift;        /* a base batch whose mean moved by more than this fraction
	                      * from the base's sample (and significantly) marks a change
	                      * of the network: the loop starts afresh (0: off; paper 0) */
	int shift_history;   /* REACT_SHIFT_HIST_*: what a shift does to the FCT history */
	int shift_test;      /* REACT_SHIFT_TEST_*: what else a shift needs (range) */
	double critical_slack; /* steadily congested vertices on any flow chain within
	                      * this fraction of a critical path's length are candidates
	                      * too, after those on the critical paths (0.02; paper 0) */
	int return_after;    /* after this many batches in a row with steady congestion,
	                      * then as many on a base other than the job's own pattern
	                      * without it, the job's own pattern is tried once and kept
	                      * unless slower than the base (0: off; paper 0) */
	int early_revert;    /* welch rule: after this many epochs of a test batch, a change
	                      * (return_after's try of the job's own pattern too) whose
	                      * gain is below 0 at `early_confidence` is reverted without
	                      * the batch's other epochs (0: off; paper 0) */
	double early_confidence; /* the one-sided confidence of that look */
	int search_threads;  /* threads that check and estimate the beam search's candidates
	                      * (0: one, or the program's choice: react-gpu run half the
	                      * cores); the decisions do not depend on it */
	double ring_steady;  /* estimator auto: a ring's search uses the fluid estimate and
	                      * the one-partner history when at least this share of its
	                      * congested flows are steadily congested, overlap otherwise
	                      * (0.5; 0: every search of a ring) */
} react_params_t;

/* keep: the FCT history stays (it ages out after H epochs);
 * forget: only the epochs after the shift stay */
enum { REACT_SHIFT_HIST_KEEP = 0, REACT_SHIFT_HIST_FORGET = 1 };
/* mean: a batch whose mean is more than `shift` from the base's sample's
 * mean (significantly) marks a change of the network; range: its mean
 * must also lie outside the sample's range less its 10 % fastest and 10 %
 * slowest epochs */
enum { REACT_SHIFT_TEST_MEAN = 0, REACT_SHIFT_TEST_RANGE = 1 };

enum { REACT_PROFILE_DEFAULT = 0, REACT_PROFILE_PAPER = 1 };
/* off: every congested batch searches (5.4.2); doubling: a search from a
 * base that finds nothing is followed by 1, 2, 4, ... batches without one,
 * until the base changes or new steady congestion appears */
enum { REACT_BACKOFF_OFF = 0, REACT_BACKOFF_DOUBLING = 1 };
/* any: every kept change restarts the count of failed rounds (E_max, the
 * escalated bar; 5.4.2); steady: only a change searched while some flow
 * was steadily congested (or the job's own pattern tried again), a keep
 * of one searched under erratic congestion alone leaves the count */
enum { REACT_KEEP_RESETS_ANY = 0, REACT_KEEP_RESETS_STEADY = 1 };
/* paper: the B + 1 old critical paths re-timed (5.4.1, footnote 5);
 * pattern: the whole candidate pattern re-timed from learned rates;
 * overlap, fluid: docs/controller.md; auto: decided at each search
 * (react_estimator_resolve): fluid for a job whose own pattern is a ring
 * (react_pattern_is_ring) while its congestion is mostly steady
 * (ring_steady), its history then reading slowness seen with one partner
 * as the endpoint's (react_history_learn_deg's one_partner); overlap for any other
 * pattern, and for a ring whose congestion is mostly erratic */
enum {
	REACT_EST_PAPER = 0,
	REACT_EST_PATTERN = 1,
	REACT_EST_OVERLAP = 2,
	REACT_EST_FLUID = 3,
	REACT_EST_AUTO = 4
};
/* paper: keep when mean(T1) (1 + tau_r) < mean(T0) (5.4.2);
 * welch: keep when the mean gain exceeds min_gain and a one-sided Welch
 * bound (confidence) on it is above 0 */
enum { REACT_KEEP_PAPER = 0, REACT_KEEP_WELCH = 1 };
/* welch rule, after the extensions: revert, or keep when the mean gain is
 * above min_gain (its bound still not above 0) */
enum { REACT_UNDECIDED_REVERT = 0, REACT_UNDECIDED_MEAN = 1 };
/* first: the first candidate that passes epsilon (Algorithm 1);
 * best: the passing candidate of largest estimated gain among a vertex's trials */
enum { REACT_SEL_FIRST = 0, REACT_SEL_BEST = 1 };
/* degree: the degree pruning of 5.3.2 removes swaps that raise a degree;
 * estimate: every swap is a candidate, the estimate judges it */
enum { REACT_PRUNE_DEGREE = 0, REACT_PRUNE_ESTIMATE = 1 };

/* Fill with the paper's defaults. */
void react_params_default(react_params_t *p);
/* REACT_EINVAL with `why` naming the field when a value is impossible. */
react_status_t react_params_validate(const react_params_t *p, char *why, size_t whylen);
/* Set one parameter from text ("trials", "20"), as --set key=value does.
 * REACT_EINVAL with `why` naming the key and what was expected; p is left
 * unchanged on failure. */
react_status_t react_params_set(react_params_t *p, const char *key, const char *value,
                                char *why, size_t whylen);
/* Apply a profile by name ("default", "paper"): every reading it names. */
react_status_t react_params_profile(react_params_t *p, const char *name, char *why, size_t whylen);
/* The value of parameter `name` as text (enums by name), for logs and
 * fingerprints; REACT_EINVAL for an unknown name. */
react_status_t react_params_get(const react_params_t *p, const char *name, char *buf, size_t len);
/* The parameter table, for help texts: entry i (0 .. count-1); -1 past the end. */
size_t react_params_count(void);
int react_params_describe(size_t i, const char **name, const char **symbol, const char **unit,
                          double *def, const char **what);
/* The value type of entry i: 'i' integer, 'd' number, 'u' unsigned 64-bit,
 * 'e' a name (enum); 0 past the end. */
char react_params_type(size_t i);
/* Upper bound of react_params_count(), for static tables of callers. */
#define REACT_PARAMS_MAX 96

typedef struct react_ctl react_ctl_t;

/* initial: copied (the caller keeps its pattern); must pass the semantic check.
 * params: copied.  out: the new controller. */
react_status_t react_ctl_create(const react_pattern_t *initial, const react_params_t *params,
                                react_ctl_t **out);
void react_ctl_destroy(react_ctl_t *ctl);

/* The pattern to run at `epoch` (owned by the controller; valid until the
 * controller is destroyed). */
const react_pattern_t *react_ctl_pattern_for(const react_ctl_t *ctl, int64_t epoch);

/* The base pattern G0: the last one kept (the initial pattern at first);
 * owned by the controller. */
const react_pattern_t *react_ctl_base(const react_ctl_t *ctl);

typedef struct react_decision {
	int changed;                    /* 1 when a new pattern was scheduled */
	int reverted;                   /* 1 when the change is a revert */
	int64_t apply_epoch;            /* first epoch that runs `pattern` */
	const react_pattern_t *pattern; /* owned by the controller */
} react_decision_t;

/* Record one epoch.  fct_s[i]: completion time in seconds of flow i of the
 * pattern that ran (> 0); nflows must equal its flow count; epoch_time_s: the
 * collective's time that epoch.  decision (may be NULL): filled when this
 * epoch closed a batch.  REACT_EINVAL on an out-of-order epoch or bad data. */
react_status_t react_ctl_observe(react_ctl_t *ctl, int64_t epoch, const double *fct_s,
                                 size_t nflows, double epoch_time_s, react_decision_t *decision);

/* The controller's whole-pattern estimate (react_estimate_pattern, decide.c)
 * of g against its current base pattern G0, from its FCT history and G0's
 * last batch: with overlap degrees under estimator=overlap, the fluid
 * timeline under fluid, step degrees under pattern or paper.  *est_base of G0, *est of g, in seconds (lower is
 * better).  g must be a transform of the job's pattern
 * (react_pattern_same_flows).  For diagnosis (react replay --estimate):
 * nothing changes.
 * REACT_EINVAL when g has other flows or no batch has been recorded yet. */
/* The readings of p that one decision takes (react_decide_in_t's trials,
 * max_accepted, epsilon, estimator, selection, pruning, beam,
 * overlap_passes, critical_slack), copied into in; the one place they are, for the
 * controller and for every other caller of react_decide (react/decide.h). */
struct react_decide_in;
void react_decide_in_params(struct react_decide_in *in, const react_params_t *p);

react_status_t react_ctl_estimate(const react_ctl_t *ctl, const react_pattern_t *g,
                                  double *est_base, double *est);
/* The same with another estimator's timing (REACT_EST_*; paper and pattern
 * both time with step degrees) on the controller's history: how that
 * estimator would see g at this point of the run.  Nothing changes. */
react_status_t react_ctl_estimate_with(const react_ctl_t *ctl, const react_pattern_t *g,
                                       int estimator, double *est_base, double *est);

/* Decision log: one JSON object per line and per batch (epoch, congested
 * flows with type, candidates with estimated gain, accepted/reverted, why).
 * f may be NULL to stop logging.  The controller does not close it. */
void react_ctl_set_log(react_ctl_t *ctl, FILE *f);

/* Counters for reports. */
typedef struct react_ctl_stats {
	int64_t batches;
	int64_t changes;   /* patterns scheduled, reverts included */
	int64_t reverts;
	int64_t candidates_estimated;
	int64_t shifts;    /* changes of the network seen on the base (params.shift) */
} react_ctl_stats_t;
void react_ctl_stats(const react_ctl_t *ctl, react_ctl_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
