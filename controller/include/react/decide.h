/*
 * react/decide.h - one decision of section 5.4.1 (the paper's Algorithm 1),
 * as a function of plain data, used by the controller and by tests.
 */
#ifndef REACT_DECIDE_H
#define REACT_DECIDE_H

#include <stdio.h>

#include "react/detect.h"
#include "react/equiv.h"
#include "react/pattern.h"
#include "react/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Estimated time of a candidate pattern g (lower is better); the estimate
 * of the current pattern and of a candidate must be comparable. */
typedef react_status_t (*react_estimate_fn)(void *ctx, const react_pattern_t *g, double *out);

/* FCT history of the last H epochs (section 5.4.1).  Each observed FCT is
 * stored normalised as fct / (bytes x k_f): a flow sharing its busiest
 * endpoint with k_f - 1 others at rate 1/k_f takes about bytes x k_f / rate,
 * so the normalised value estimates the pair's inverse rate. */
typedef struct react_history react_history_t;
react_status_t react_history_create(int32_t nranks, int H, react_history_t **out);
void react_history_destroy(react_history_t *h);
/* Record one epoch of pattern p (fct: p->nflows values > 0); the oldest
 * epoch beyond H is deleted. */
react_status_t react_history_add(react_history_t *h, const react_pattern_t *p, const double *fct);
/* Mean normalised FCT of pair (src, dst); 0 when the pair was never seen. */
int react_history_pair(const react_history_t *h, react_rank_t src, react_rank_t dst, double *mean);
int react_history_epochs(const react_history_t *h);
/* Drop every epoch but the last n (the network changed before them). */
void react_history_keep_last(react_history_t *h, int n);

/* Rates learned from the history (the "pattern" estimator; history.c has
 * the model): a flow's expected time per byte from its endpoints, their
 * degrees in its step and the pair's own excess. */
typedef struct react_rates {
	int32_t N, maxk;
	int valid;          /* 0 when the history is empty */
	double c0;          /* fastest time per byte observed, s/B */
	double *keff;       /* maxk + 1: effective share of k flows leaving one endpoint */
	double *keff_in;    /* maxk + 1: effective share of k flows entering one endpoint */
	double *x, *y;      /* N: egress / ingress load of each rank, in flows */
	double *z;          /* npair: a pair's mean excess, in flows */
	int32_t *zn;        /* npair: records of the pair */
	size_t npair;       /* the pairs with records (memory grows with the
	                     * records, not with N x N) */
	uint64_t *pkey;     /* pcap slots, open addressing: src * N + dst + 1, 0 empty */
	uint32_t *pidx;     /* pcap: the pair's index into z and zn */
	size_t pcap;        /* a power of two */
	int degrees;        /* REACT_DEG_* the rates were learned with */
	double zprior;      /* excess of a pair never seen: the mean over all records */
} react_rates_t;
/* How a flow's sharing of its endpoints is counted when rates are learned
 * and applied: the step degree (the flows the endpoint has in the flow's
 * step) or the overlap degree (1 + the time the endpoint's other flows run
 * alongside it, over its duration: flows of one step that run one after
 * the other count 1 each). */
enum { REACT_DEG_STEP = 0, REACT_DEG_OVERLAP = 1,
       /* react_estimate_pattern only: the rates of REACT_DEG_OVERLAP, the
        * moved flows timed on the candidate's fluid timeline (the fluid
        * estimator) */
       REACT_DEG_FLUID = 2 };
/* Rates learned with `degrees` (REACT_DEG_*); react_history_learn: step,
 * one_partner 0.  one_partner: how slowness an endpoint showed with one
 * partner only is read: 0 as the pair's own excess, 1 as the endpoint's
 * load (history.c, cover()).  A ring's ranks have one partner each, so
 * with 0 no rank of a ring is blamed until it ran with another. */
react_status_t react_history_learn_deg(const react_history_t *h, int degrees, int one_partner,
                                       react_rates_t **out);
react_status_t react_history_learn(const react_history_t *h, react_rates_t **out);
void react_rates_destroy(react_rates_t *r);
/* Effective share of k flows at one endpoint: out = 1 sending, 0 receiving. */
double react_rates_share(const react_rates_t *r, int32_t k, int out);
/* Expected time per byte of a flow src -> dst with the sender's out-degree
 * kout and the receiver's in-degree kin in its step. */
double react_rates_flow(const react_rates_t *r, react_rank_t src, react_rank_t dst, int32_t kout,
                        int32_t kin);
/* The same with overlap degrees (REACT_DEG_OVERLAP): c0 x (max(dout + x_src,
 * din + y_dst) + z), the endpoints' sharing counted as it runs. */
double react_rates_flow_overlap(const react_rates_t *r, react_rank_t src, react_rank_t dst,
                                double dout, double din);
int react_rates_pair_seen(const react_rates_t *r, react_rank_t src, react_rank_t dst);
/* The pair's own excess over its endpoints' loads, in flows (the prior
 * for a pair never seen): the last term of react_rates_flow. */
double react_rates_pair_excess(const react_rates_t *r, react_rank_t src, react_rank_t dst);

typedef struct react_candidate_log {
	react_xform_t xf;
	double est_gain;     /* 1 - est(candidate) / est(current) */
	int accepted;
} react_candidate_log_t;

typedef struct react_decide_in {
	const react_pattern_t *g0;   /* pattern that ran the batch */
	const double *fct;           /* B x nflows */
	int B;
	const react_cong_t *cong;    /* nflows verdicts of react_detect */
	const react_equiv_t *equiv;  /* position-equivalent sets of g0's structure, or NULL */
	int trials;                  /* K_t */
	int max_accepted;            /* K_max */
	double epsilon;
	int explore_all;             /* 1: with no congested vertex, try the critical-path vertices */
	const uint64_t *rejected;    /* hashes of patterns not to produce again */
	size_t nrejected;
	const react_history_t *history; /* for the path estimate, may be NULL */
	int estimator;               /* REACT_EST_* (when estimate is NULL) */
	int selection;               /* REACT_SEL_FIRST or REACT_SEL_BEST */
	int pruning;                 /* REACT_PRUNE_DEGREE or REACT_PRUNE_ESTIMATE */
	int beam;                    /* selection best: beam width (0: 16) */
	int role_moves;              /* selection best: 1: the role moves too (decide.c) */
	int overlap_passes;          /* estimator overlap: re-timings of a moved flow at its
	                              * overlaps (0: 1) */
	double critical_slack;       /* steadily congested vertices of every flow chain within
	                              * this fraction of the longest are candidates too, after
	                              * the others (0: the B + 1 critical paths alone, 5.4.1) */
	double ring_steady;          /* estimator auto: react_estimator_resolve's share (0: a
	                              * ring is estimated fluid on every search) */
	int one_partner;             /* the rates learned from history with one partner's
	                              * slowness read as the endpoint's
	                              * (react_history_learn_deg; the controller: auto's
	                              * searches that resolve to fluid) */
	int threads;                 /* selection best with the pattern estimates: threads that
	                              * check and estimate candidates (0, 1: the caller's alone);
	                              * the decision is the same whatever the number */
	react_estimate_fn estimate;  /* NULL: the estimator named above (see decide.c) */
	void *estimate_ctx;
	void *rng;                   /* gsl_rng *, the caller's */
} react_decide_in_t;

typedef struct react_decide_out {
	react_pattern_t *g1;         /* new pattern (caller destroys) or NULL when unchanged */
	react_candidate_log_t *cands;/* malloc'd, caller frees */
	size_t ncands;
	size_t nvertices;            /* congested vertices on a critical path */
	double est_gain;             /* of g1: 1 - est(g1) / est(g0), by the estimate used */
	int role_move;               /* 1: g1 is a role move's (decide.c), not the beam's */
	react_rank_t role_ranks[8];  /* role_move: the congested senders it moved, */
	int nrole_ranks;             /* most congested first */
} react_decide_out_t;

/* The "pattern" estimate (decide.c) of candidate g against g0, which ran
 * the batch fct (B x g0->nflows), with rates learned from history h with
 * `degrees` (REACT_DEG_*: the estimators pattern, overlap and fluid) and
 * one_partner (react_history_learn_deg; with overlap, `passes` re-timings
 * of the moved flows, 0: the default): *est0 of g0
 * itself, *est of g (seconds; lower is better).  g must have g0's flows (a
 * transform of it). */
react_status_t react_estimate_pattern(const react_pattern_t *g0, const double *fct, int B,
                                      const react_history_t *h, int degrees, int one_partner,
                                      int passes, const react_pattern_t *g, double *est0,
                                      double *est);

/* The estimator one search uses (REACT_EST_*): `estimator` as it is, but
 * auto: fluid when `ring` (the job's own pattern is a ring) and at least
 * `ring_steady` of the congested flows in cong (nflows verdicts) are
 * steadily congested (ring_steady 0: whenever `ring`), overlap otherwise.
 * A ring's flow slow in every epoch of a batch, while the paths its
 * connections take are drawn anew each epoch, is slowed at an endpoint;
 * slowness that comes and goes with the draws is the paths'
 * (docs/controller.md, "Rings: the fluid estimate ..."). */
int react_estimator_resolve(int estimator, int ring, const react_cong_t *cong, size_t nflows,
                            double ring_steady);

/* Every accepted candidate passed the semantic check; the final pattern is
 * checked again and REACT_ESEMANTIC returned (never g1) if it fails. */
react_status_t react_decide(const react_decide_in_t *in, react_decide_out_t *out);

#ifdef __cplusplus
}
#endif
#endif
