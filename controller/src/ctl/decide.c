/*
 * decide.c - one decision after a batch (section 5.4.1, Algorithm 1 of A.5).
 *
 *  1. Critical paths: B per-epoch paths and one on the batch-mean FCTs.
 *  2. Candidates X: vertices (step, src) and (step + 1, dst) of congested
 *     flows that lie on at least one critical path, sorted by the number of
 *     steady-congested incident flows, then congested incident flows (both
 *     descending), then (step, rank).  With critical_slack > 0, after them
 *     (and their candidates after theirs), the vertices with a steadily
 *     congested flow on any chain within that fraction of a critical path's
 *     length (mark_near): the paths tie-break to one of two parallel chains.
 *  3. For each x (while u < K_t trials and c < K_max accepted): the viable
 *     swaps of x's rank r, in priority order POSITION (members of r's
 *     position-equivalent set) > CHUNK (r with any rank, in the graph of
 *     x's congested flow) > GLOBAL; inside each kind, degree-lowering swaps
 *     (green) before the others (yellow); random order inside a class
 *     (the caller's seeded RNG).  Each trial is checked semantically and
 *     estimated; the first with est * (1 + epsilon) < est(current) is
 *     accepted and the search moves to the next x.
 *  Choice (Algorithm 1 recomputes X on G' with old FCTs): X is kept from
 *  step 2, since estimates use the old critical paths anyway (footnote 5).
 *  Steady-congested ranks whose vertex got an accepted swap are removed from
 *  the viable sets of later candidates.
 *
 * Default estimate (5.4.1): each of the B + 1 old critical paths is re-timed
 * on the candidate: a flow with the same src, dst and degree keeps its
 * observed weight; an affected flow is estimated as history mean of its
 * (src, dst) pair x bytes x new degree; a pair never observed gets the
 * median of fct / bytes over the batch-mean FCTs of flows of the same new
 * degree, x bytes (no such flow: the median of fct / (bytes x degree) over
 * all flows, x bytes x degree).  Estimate = mean of the path times.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "react/check.h"
#include "react/controller.h"
#include "react/critpath.h"
#include "fluid.h"
#include "overlap.h"
#include "u64slot.h"
#include "react/decide.h"

typedef struct vtx {
	react_step_t t;
	react_rank_t r;
	int32_t graph;   /* graph of its first congested incident flow */
	int ncong, nsteady;
	int near;        /* 1: on a chain within critical_slack of a critical path only */
} vtx_t;

typedef struct pathest {
	const react_pattern_t *g0;
	const react_history_t *hist;
	size_t npaths;
	size_t *plen;
	size_t **path;
	double **w;          /* weights of the path flows */
	double *med_deg;     /* median fct/bytes per degree, NAN when none */
	int32_t maxdeg;
	double med_all;      /* median fct/(bytes*deg) */
} pathest_t;

static double est_flow(const pathest_t *pe, const react_pattern_t *g, size_t f)
{
	double m, b = (double)g->flows[f].bytes;
	int32_t k = react_pattern_flow_degree(g, f);
	if (react_history_pair(pe->hist, g->flows[f].src, g->flows[f].dst, &m))
		return m * b * k;
	if (k <= pe->maxdeg && !isnan(pe->med_deg[k]))
		return pe->med_deg[k] * b;
	return pe->med_all * b * k;
}

static react_status_t path_estimate(void *ctx, const react_pattern_t *g, double *out)
{
	const pathest_t *pe = ctx;
	double s = 0;
	for (size_t i = 0; i < pe->npaths; i++) {
		double t = 0;
		for (size_t j = 0; j < pe->plen[i]; j++) {
			size_t f = pe->path[i][j];
			const react_flow_t *a = &pe->g0->flows[f], *b = &g->flows[f];
			if (a->src == b->src && a->dst == b->dst &&
			    react_pattern_flow_degree(pe->g0, f) == react_pattern_flow_degree(g, f))
				t += pe->w[i][j];
			else
				t += est_flow(pe, g, f);
		}
		s += t;
	}
	*out = s / (double)pe->npaths;
	return REACT_OK;
}

/*
 * The "pattern" estimate: the WHOLE candidate pattern re-timed, epoch by
 * epoch of the batch.  A flow whose src, dst and degree are those it had
 * in g0 keeps its observed FCT of that epoch; any other flow gets the
 * learned rates (react_history_learn: its endpoints' loads and degrees in
 * the candidate, the pair's own excess) x bytes.  The estimate is the mean
 * over the batch's epochs of the longest path (the collective's time when
 * every flow starts once its inputs have arrived).  g0 itself is estimated
 * as its observed times, so a candidate that moves a slow flow onto another
 * slow pair, or raises a congested rank's degree, is estimated slower.
 */
typedef struct patest {
	const react_pattern_t *g0;
	const double *fct;   /* B x F */
	int B;
	const react_rates_t *rates;
	double *w, *acc, *model;
	int32_t *deg0;
	double aux;          /* of the last estimate: mean finish time of every flow */
	int overlap;         /* the overlap estimator: rates->degrees is REACT_DEG_OVERLAP */
	int passes;          /* its re-timings of the moved flows (overlap_passes) */
	int fluid;           /* the fluid estimator: the moved flows timed at
	                      * max-min rates on the candidate's own timeline
	                      * (fluid.h), with the overlap estimator's rates */
	react_fluid_t fl;    /* its workspace */
	unsigned char *fixed; /* F: 1 for a flow that keeps its observed time */
	double *fx, *fy, *fz; /* F: a moved flow's loads and pair excess */
	react_ovl_t ovl;     /* its workspace, and each flow's duration, start, degrees */
	double *dur, *t0, *dout, *din;
	unsigned char *moved; /* F: 1 for a flow the candidate moved */
	size_t nmv, *mv;      /* the moved flows, and of each (the same for every
	                       * epoch): bytes, its sender's and receiver's loads
	                       * and the pair's excess */
	double *mvb, *mvx, *mvy, *mvz;
} patest_t;

/* Passes of the overlap estimate when the caller names none: the moved
 * flows' times from their step degrees, then once from the overlaps of
 * that timeline (params.c, overlap_passes: more passes do not converge). */
#define OVERLAP_PASSES 1

static react_status_t patest_init(patest_t *pt, const react_pattern_t *g0, const double *fct,
                                  int B, const react_rates_t *rates, int passes, int fluid)
{
	size_t F = g0->nflows ? g0->nflows : 1;
	pt->g0 = g0;
	pt->fct = fct;
	pt->B = B;
	pt->rates = rates;
	pt->overlap = rates->degrees == REACT_DEG_OVERLAP;
	pt->passes = passes > 0 ? passes : OVERLAP_PASSES;
	pt->acc = malloc(F * sizeof *pt->acc);
	pt->model = malloc(F * sizeof *pt->model);
	pt->deg0 = malloc(F * sizeof *pt->deg0);
	if (!pt->acc || !pt->model || !pt->deg0)
		return REACT_ENOMEM;
	for (size_t f = 0; f < g0->nflows; f++)
		pt->deg0[f] = react_pattern_flow_degree(g0, f);
	if (fluid && pt->overlap) {
		pt->fluid = 1;
		pt->dur = malloc(F * sizeof *pt->dur);
		pt->fixed = malloc(F);
		pt->fx = malloc(F * sizeof *pt->fx);
		pt->fy = malloc(F * sizeof *pt->fy);
		pt->fz = malloc(F * sizeof *pt->fz);
		if (!pt->dur || !pt->fixed || !pt->fx || !pt->fy || !pt->fz)
			return REACT_ENOMEM;
		return react_fluid_init(&pt->fl, g0->nflows, g0->nranks);
	}
	if (pt->overlap) {
		pt->dur = malloc(F * sizeof *pt->dur);
		pt->t0 = malloc(F * sizeof *pt->t0);
		pt->dout = malloc(F * sizeof *pt->dout);
		pt->din = malloc(F * sizeof *pt->din);
		pt->moved = malloc(F);
		pt->mv = malloc(F * sizeof *pt->mv);
		pt->mvb = malloc(F * sizeof *pt->mvb);
		pt->mvx = malloc(F * sizeof *pt->mvx);
		pt->mvy = malloc(F * sizeof *pt->mvy);
		pt->mvz = malloc(F * sizeof *pt->mvz);
		if (!pt->dur || !pt->t0 || !pt->dout || !pt->din || !pt->moved || !pt->mv || !pt->mvb ||
		    !pt->mvx || !pt->mvy || !pt->mvz)
			return REACT_ENOMEM;
		return react_ovl_init(&pt->ovl, g0->nflows, g0->nranks);
	}
	return REACT_OK;
}

static void patest_free(patest_t *pt)
{
	free(pt->acc);
	free(pt->model);
	free(pt->deg0);
	free(pt->dur);
	free(pt->t0);
	free(pt->dout);
	free(pt->din);
	free(pt->moved);
	free(pt->mv);
	free(pt->mvb);
	free(pt->mvx);
	free(pt->mvy);
	free(pt->mvz);
	free(pt->fixed);
	free(pt->fx);
	free(pt->fy);
	free(pt->fz);
	if (pt->ovl.ev)
		react_ovl_free(&pt->ovl);
	if (pt->fl.pend)
		react_fluid_free(&pt->fl);
}

/* Flow f of candidate g keeps its observed time of g0's batch: its src,
 * dst and degree are those it had in g0 (the pattern and fluid
 * estimates). */
static int keeps_observed(const patest_t *pe, const react_pattern_t *g, size_t f)
{
	const react_flow_t *a = &pe->g0->flows[f], *b = &g->flows[f];
	return a->src == b->src && a->dst == b->dst &&
	       react_pattern_flow_degree(g, f) == pe->deg0[f];
}

/* The fluid estimate (fluid.h): the flows that keep their src, dst and
 * degree run their observed time of each epoch; the others move their
 * bytes at max-min fair rates over their endpoints (loaded as learned,
 * shared with whatever runs there at each moment of the candidate's
 * timeline) and their paths (the pair's learned excess).  The mean over
 * the batch of the last finish time, as pattern_estimate. */
static react_status_t fluid_estimate(patest_t *pe, const react_pattern_t *g, double *out)
{
	size_t F = g->nflows;
	const react_rates_t *r = pe->rates;
	double sum = 0, aux = 0;
	for (size_t f = 0; f < F; f++) {
		const react_flow_t *b = &g->flows[f];
		pe->fixed[f] = (unsigned char)keeps_observed(pe, g, f);
		if (!pe->fixed[f]) {
			pe->fx[f] = r->x[b->src];
			pe->fy[f] = r->y[b->dst];
			pe->fz[f] = react_rates_pair_excess(r, b->src, b->dst);
		} else
			pe->fx[f] = pe->fy[f] = pe->fz[f] = 0;
	}
	for (int e = 0; e < pe->B; e++) {
		double sf = 0;
		memcpy(pe->dur, pe->fct + (size_t)e * F, F * sizeof *pe->dur);
		sum += react_fluid_run(&pe->fl, g, pe->fixed, pe->dur, r->c0, pe->fx, pe->fy, pe->fz,
		                       NULL, &sf);
		aux += sf;
	}
	pe->aux = aux / ((double)pe->B * (double)(F ? F : 1));
	*out = sum / pe->B;
	return REACT_OK;
}

/* The overlap estimate of one epoch e: every flow's time (observed where
 * pe->model is NAN, else the learned rates at the flow's overlap degrees,
 * found by pe->passes passes over the candidate's own timeline), in
 * pe->dur. */
static void overlap_times(patest_t *pe, const react_pattern_t *g, int e)
{
	size_t F = g->nflows;
	const double c0 = pe->rates->c0;
	/* pe->model: NAN for a flow that keeps its observed time, else its time
	 * at its step degrees (pattern_estimate) */
	for (size_t f = 0; f < F; f++)
		pe->dur[f] = isnan(pe->model[f]) ? pe->fct[(size_t)e * F + f] : pe->model[f];
	if (pe->nmv && e == 0) {
		/* only the moved flows' degrees are read */
		react_ovl_index(&pe->ovl, g);
		react_ovl_only(&pe->ovl, g, pe->moved);
	}
	for (int it = 0; pe->nmv && it < pe->passes; it++) {
		react_ovl_degrees_indexed(&pe->ovl, g, pe->dur, pe->t0, pe->dout, pe->din);
		/* react_rates_flow_overlap at the flow's overlap degrees, its
		 * terms looked up once per candidate */
		for (size_t k = 0; k < pe->nmv; k++) {
			size_t f = pe->mv[k];
			pe->dur[f] = pe->mvb[k] * react_rates_time(c0, pe->dout[f], pe->mvx[k], pe->din[f],
			                                           pe->mvy[k], pe->mvz[k]);
		}
	}
}

static react_status_t pattern_estimate(void *ctx, const react_pattern_t *g, double *out)
{
	patest_t *pe = ctx;
	size_t F = g->nflows;
	double sum = 0;
	if (pe->fluid)
		return fluid_estimate(pe, g, out);
	pe->nmv = 0;
	for (size_t f = 0; f < F; f++) {
		const react_flow_t *b = &g->flows[f];
		if (pe->overlap)
			pe->moved[f] = 0;
		if (keeps_observed(pe, g, f)) {
			pe->model[f] = NAN;
		} else if (pe->overlap) {
			/* moved: overlap_times times it, from this time at its step
			 * degrees */
			size_t k = pe->nmv++;
			pe->moved[f] = 1;
			pe->mv[k] = f;
			pe->mvb[k] = (double)b->bytes;
			pe->mvx[k] = pe->rates->x[b->src];
			pe->mvy[k] = pe->rates->y[b->dst];
			pe->mvz[k] = react_rates_pair_excess(pe->rates, b->src, b->dst);
			pe->model[f] = pe->mvb[k] *
			               react_rates_time(pe->rates->c0,
			                                react_pattern_out_degree(g, b->step, b->src), pe->mvx[k],
			                                react_pattern_in_degree(g, b->step, b->dst), pe->mvy[k],
			                                pe->mvz[k]);
		} else
			pe->model[f] = (double)b->bytes *
			               react_rates_flow(pe->rates, b->src, b->dst,
			                                react_pattern_out_degree(g, b->step, b->src),
			                                react_pattern_in_degree(g, b->step, b->dst));
	}
	pe->aux = 0;
	const size_t *pr, *po = react_pattern_pred_lists(g, &pr);
	for (int e = 0; e < pe->B; e++) {
		double best = 0;
		if (pe->overlap)
			overlap_times(pe, g, e);
		for (size_t f = 0; f < F; f++) {
			double m = 0;
			for (size_t i = po[f]; i < po[f + 1]; i++)
				if (pe->acc[pr[i]] > m)
					m = pe->acc[pr[i]];
			pe->acc[f] = m + (pe->overlap ? pe->dur[f]
			                  : isnan(pe->model[f]) ? pe->fct[(size_t)e * F + f] : pe->model[f]);
			if (pe->acc[f] > best)
				best = pe->acc[f];
			pe->aux += pe->acc[f];
		}
		sum += best;
	}
	pe->aux /= (double)pe->B * (double)(F ? F : 1);
	*out = sum / pe->B;
	return REACT_OK;
}

react_status_t react_estimate_pattern(const react_pattern_t *g0, const double *fct, int B,
                                      const react_history_t *h, int degrees, int one_partner,
                                      int passes, const react_pattern_t *g, double *est0,
                                      double *est)
{
	react_status_t st = REACT_OK;
	react_rates_t *rates = NULL;
	patest_t pt;
	memset(&pt, 0, sizeof pt);
	if (!g0 || !fct || B < 1 || !h || !g || !est0 || !est || g->nflows != g0->nflows)
		return REACT_EINVAL;
	if ((st = react_history_learn_deg(h, degrees == REACT_DEG_FLUID ? REACT_DEG_OVERLAP : degrees,
	                                  one_partner,
	                                  &rates)) != REACT_OK)
		return st;
	if (!rates->valid) {
		st = REACT_EINVAL;
		goto fail;
	}
	if ((st = patest_init(&pt, g0, fct, B, rates, passes, degrees == REACT_DEG_FLUID)) !=
	    REACT_OK)
		goto fail;
	if ((st = pattern_estimate(&pt, g0, est0)) == REACT_OK)
		st = pattern_estimate(&pt, g, est);
fail:
	patest_free(&pt);
	react_rates_destroy(rates);
	return st;
}

static int vtx_cmp(const void *a, const void *b)
{
	const vtx_t *x = a, *y = b;
	if (x->near != y->near) return x->near < y->near ? -1 : 1;
	if (x->nsteady != y->nsteady) return x->nsteady > y->nsteady ? -1 : 1;
	if (x->ncong != y->ncong) return x->ncong > y->ncong ? -1 : 1;
	if (x->t != y->t) return x->t < y->t ? -1 : 1;
	return (x->r > y->r) - (x->r < y->r);
}

typedef struct cand {
	react_xform_t xf;
	int prio;
	int vi;              /* index of its vertex */
	unsigned long key;
} cand_t;

static int cand_cmp(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;
	if (x->prio != y->prio) return x->prio < y->prio ? -1 : 1;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	if (x->xf.y != y->xf.y) return x->xf.y < y->xf.y ? -1 : 1;
	return 0;
}

typedef struct genctx {
	const react_decide_in_t *in;
	int32_t N;
	unsigned char *excluded;
	react_rank_t *members;
	gsl_rng *rng;
	cand_t **cands;
	size_t *ccap;
	int32_t *gl;
	size_t glcap;
	int nv_forced;
	int keys_only;       /* 1: draw each candidate's key, keep none (a level
	                      * past the work bound: the stream stays as if it
	                      * had been listed) */
} genctx_t;

/* Append the viable swaps of vertex x (index vi) on pattern G to
 * *gc->cands: position swaps with the members of x's position-equivalent
 * set, chunk-local swaps with every rank, in every chunk graph of x's
 * congested incident flows, and global swaps; each with its priority
 * (degree-lowering first) and a random key. */
static react_status_t gen_cands(genctx_t *gc, const react_pattern_t *G, const vtx_t *x, int vi,
                                size_t *ncand)
{
	/* the chunk graphs of x's congested incident flows (in the current
	 * G): chunk-local and position swaps are tried in each */
	size_t ngl = 0;
	for (int side = 0; side < 2; side++) {
		const size_t *ids;
		size_t n = side ? react_pattern_rank_out(G, x->t, x->r, &ids)
		                : (x->t > 0 ? react_pattern_rank_in(G, x->t - 1, x->r, &ids) : 0);
		for (size_t i = 0; i < n; i++) {
			int32_t gr = react_pattern_flow_graph(G, ids[i]);
			int dup = 0;
			if (gc->in->cong[ids[i]] == REACT_CONG_NONE && !(gc->in->explore_all && gc->nv_forced))
				continue;
			for (size_t k = 0; k < ngl; k++)
				dup |= gc->gl[k] == gr;
			if (!dup && ngl < gc->glcap)
				gc->gl[ngl++] = gr;
		}
	}
	if (ngl == 0)
		gc->gl[ngl++] = x->graph;
	{
		size_t need = *ncand + (2 * ngl + 1) * (size_t)gc->N + 1;
		if (need > *gc->ccap) {
			cand_t *nc = realloc(*gc->cands, need * sizeof *nc);
			if (!nc)
				return REACT_ENOMEM;
			*gc->cands = nc;
			*gc->ccap = need;
		}
	}
	for (int kind = REACT_XF_POSITION; kind <= REACT_XF_GLOBAL; kind++)
	for (size_t gi = 0; gi < (kind == REACT_XF_GLOBAL ? 1 : ngl); gi++) {
		size_t nm = 0;
		int32_t gr = kind == REACT_XF_GLOBAL ? -1 : gc->gl[gi];
		if (kind == REACT_XF_POSITION) {
			if (!gc->in->equiv)
				continue;
			nm = react_equiv_members(gc->in->equiv, gr, x->t, x->r, gc->members);
		} else {
			for (react_rank_t y = 0; y < gc->N; y++)
				gc->members[nm++] = y;
		}
		for (size_t i = 0; i < nm; i++) {
			cand_t *cd = &(*gc->cands)[*ncand];
			int lowers = 0;
			if (gc->members[i] == x->r || gc->excluded[gc->members[i]])
				continue;
			cd->xf.kind = (react_xform_kind_t)kind;
			cd->xf.step = kind == REACT_XF_POSITION ? x->t : 0;
			cd->xf.x = x->r;
			cd->xf.y = gc->members[i];
			cd->xf.graph = gr;
			if (gc->in->pruning == REACT_PRUNE_DEGREE) {
				if (!react_xform_viable(G, &cd->xf, x->t, x->r, &lowers))
					continue;
			} else if (!gc->keys_only) {
				/* pruning "estimate": the whole-pattern estimate sees a
				 * raised degree itself, so a swap that is not viable
				 * stays a (yellow) candidate; green needs both */
				lowers = react_xform_lowers(G, &cd->xf, x->t, x->r) &&
				         react_xform_viable(G, &cd->xf, x->t, x->r, NULL);
			}
			if (gc->keys_only) {
				(void)gsl_rng_get(gc->rng);
				continue;
			}
			/* 5.3.2 / 4.3: swaps that lower the congested vertex's
			 * degree (green) before the others (yellow), whatever
			 * their kind; inside a class position > chunk > global */
			/* a vertex near a critical path only: after every
			 * candidate of the vertices on one */
			cd->prio = (x->near ? 6 : 0) + (lowers ? 0 : 3) + kind;
			cd->key = gsl_rng_get(gc->rng);
			cd->vi = vi;
			(*ncand)++;
		}
	}
	return REACT_OK;
}

/* *dst: a copy of src, in *dst's memory when it has some (a candidate
 * per swap tried, without an allocation per swap) */
static react_status_t copy_into(react_pattern_t **dst, const react_pattern_t *src)
{
	return *dst ? react_pattern_copy(*dst, src) : react_pattern_clone(src, dst);
}

/* 1 when p's hash is on the rejected list (hashed only when there is one) */
static int rejected(const react_decide_in_t *in, const react_pattern_t *p)
{
	uint64_t h;
	if (!in->nrejected)
		return 0;
	h = react_pattern_hash(p);
	for (size_t i = 0; i < in->nrejected; i++)
		if (in->rejected[i] == h)
			return 1;
	return 0;
}

/*
 * selection best: a beam search on the estimate, K_max transforms deep.
 * At each depth every pattern of the beam is expanded by the viable swaps
 * of every congested vertex (in priority order, at most LEVEL_EVALS(K_t)
 * per pattern), each checked and estimated; the `beam` (16) best distinct
 * children form the next beam, whether or not they improve (a swap that
 * changes nothing alone can enable one that does: two slow ranks on two
 * parallel paths, where moving one leaves the critical path as it was; the
 * oracle shows such plateaus are common).  The result is the shallowest
 * pattern that beats the current estimate by epsilon, a deeper one only if
 * it beats that again by epsilon per depth: fewer changes are preferred.
 */
#define BEAM_MAX 64
#define BEAM_DEFAULT 16
#define LEVEL_EVALS(kt) ((size_t)((kt) > 0 ? (kt) : 1) * 8)
/* The whole search evaluates at most max(SEARCH_WORK / F, min(SEARCH_EVALS,
 * SEARCH_WORK2 / F^2)) candidates for F flows (each evaluation clones,
 * checks and re-times every flow): 4681 at 28 flows and 2048 at 64 (never
 * binding at 8 ranks), 2048 at 252 to 512 flows, 128 at 2044 (N = 512).
 * With SEARCH_WORK / F alone (273 at 480 flows) the 16-rank rings of fig7a
 * found nothing deeper than one swap: +3.8 % against +7.1 % (seeds 1-3) */
#define SEARCH_WORK ((size_t)1 << 17)
#define SEARCH_WORK2 ((size_t)1 << 29)
#define SEARCH_EVALS ((size_t)2048)

/*
 * The search meets one pattern again and again: two swaps that commute,
 * taken in either order from two patterns of the beam (at 8 ranks about
 * a fifth of the candidates).  Within one decision a pattern's check and
 * estimate never change, so each is computed once and looked up after: a
 * table keyed by the flows' senders and receivers (the only fields a swap
 * changes), 64 bits, as the beam's own duplicate test.  A candidate found
 * here is counted against the work bound as if estimated again, so the
 * search is the same.
 */
typedef struct memo_ent {
	int semantic_ok;
	double s, rank;
} memo_ent_t;

typedef struct memo {
	uint64_t *keys;      /* cap slots (u64slot.h), 0: empty */
	memo_ent_t *ents;    /* cap: the entry of the key in the same slot */
	size_t cap, n;       /* cap: a power of two, at most half full */
} memo_t;

static uint64_t memo_key(const react_pattern_t *g)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)g->nflows;
	for (size_t f = 0; f < g->nflows; f++) {
		uint64_t v = (uint64_t)(uint32_t)g->flows[f].src << 32 | (uint32_t)g->flows[f].dst;
		h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 33;
	}
	return h ? h : 1;
}

static const memo_ent_t *memo_find(const memo_t *m, uint64_t key)
{
	size_t i;
	if (!m->cap)
		return NULL;
	i = react_u64_slot(m->keys, m->cap, key);
	return m->keys[i] ? &m->ents[i] : NULL;
}

/* key must not be in m yet */
static react_status_t memo_put(memo_t *m, uint64_t key, memo_ent_t e)
{
	size_t i;
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 1024;
		memo_t g = {calloc(cap, sizeof *g.keys), malloc(cap * sizeof *g.ents), cap, 0};
		if (!g.keys || !g.ents) {
			free(g.keys);
			free(g.ents);
			return REACT_ENOMEM;
		}
		for (size_t j = 0; j < m->cap; j++)
			if (m->keys[j])
				memo_put(&g, m->keys[j], m->ents[j]); /* g has room: no failure */
		free(m->keys);
		free(m->ents);
		*m = g;
	}
	i = react_u64_slot(m->keys, m->cap, key);
	m->keys[i] = key;
	m->ents[i] = e;
	m->n++;
	return REACT_OK;
}

typedef struct bsearch {
	genctx_t *gc;
	const vtx_t *vs;
	size_t nv;
	react_checker_t *ck;
	react_estimate_fn est;
	void *ectx;
	react_decide_out_t *out;
	size_t *logcap;
	const patest_t *pt;  /* the pattern estimate's state (tie-break), or NULL */
	size_t evals_left;   /* the work bound (above), counted down */
	memo_t memo;         /* every candidate checked and estimated so far */
	struct epool *pool;  /* threads > 1 with the pattern estimate: the workers, or NULL */
} bsearch_t;

typedef struct scored {
	react_xform_t xf;
	int vi;
	double s;
	double rank;         /* s, ties broken by the mean finish time of all flows */
} scored_t;

static int cand_cmp(const void *a, const void *b);
static react_status_t log_cand(react_decide_out_t *out, size_t *cap, const react_xform_t *xf,
                               double gain, int acc);

/* All candidates of all vertices on G, in priority order (prio, vertex, key). */
static int cand_cmp_all(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;
	if (x->prio != y->prio) return x->prio < y->prio ? -1 : 1;
	if (x->vi != y->vi) return x->vi < y->vi ? -1 : 1;
	return cand_cmp(a, b);
}

/* A transform in a canonical form: x < y; the step only for a position
 * swap, the graph not for a global one.  Two candidates with one form are
 * one swap (a global or chunk-local swap of x and y is listed at every
 * vertex of x and of y). */
static react_xform_t xf_canon(const react_xform_t *xf)
{
	react_xform_t c;
	memset(&c, 0, sizeof c);
	c.kind = xf->kind;
	c.x = xf->x < xf->y ? xf->x : xf->y;
	c.y = xf->x < xf->y ? xf->y : xf->x;
	c.step = xf->kind == REACT_XF_POSITION ? xf->step : 0;
	c.graph = xf->kind == REACT_XF_GLOBAL ? -1 : xf->graph;
	return c;
}

static uint64_t xf_hash(const react_xform_t *c)
{
	uint64_t h = (uint64_t)c->kind * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t)(uint32_t)c->x + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)c->y + 0x85ebca6bULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)c->step + 0xc2b2ae35ULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)c->graph + 0x27d4eb2fULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* 1 when canonical transform c was already in set tab (capacity cap, a
 * power of two; used[] marks slots), else adds it and returns 0 */
static int xf_seen(react_xform_t *tab, unsigned char *used, size_t cap, const react_xform_t *c)
{
	size_t i = (size_t)(xf_hash(c) >> 17) & (cap - 1);
	while (used[i]) {
		if (!memcmp(&tab[i], c, sizeof *c))
			return 1;
		i = (i + 1) & (cap - 1);
	}
	used[i] = 1;
	tab[i] = *c;
	return 0;
}

/*
 * Parallel evaluation (react_decide_in_t.threads > 1, selection best, the
 * pattern estimates): a pool of workers, the main thread one of them, for
 * depth_par (below), which hands them windows of candidates.  A worker
 * applies a candidate's swap in its own pattern, reads whether it counts
 * at all (a self-loop, no change, a rejected pattern) and its memo key,
 * and, when the memo does not hold it yet, checks and estimates it with
 * its own checker and estimate state (the estimate of a pattern is a
 * function of the pattern and the decision's inputs).  The main thread
 * counts the results afterwards, in the search's own order.
 */
#define EPOOL_MAX 64

typedef struct eitem {
	const cand_t *cd;
	const react_pattern_t *base; /* the beam's pattern the candidate's swap applies to */
	size_t bi, qi;       /* its beam pattern and place in that one's queue (depth_par) */
	int skip;            /* a self-loop, no change or a rejected pattern: not counted */
	uint64_t key;        /* memo_key of the candidate */
	int compute;         /* 1: not in the memo: checked and estimated */
	int ok;              /* results: passes the check */
	double s, rank;
	react_status_t st;
} eitem_t;

typedef struct eworker {
	react_checker_t *ck;
	patest_t pt;
	react_pattern_t *g;  /* the candidate being checked and estimated (this worker's
	                      * memory: nothing moves between threads) */
	int own;             /* ck and pt are this worker's (not the main thread's) */
} eworker_t;

typedef struct epool {
	int n;               /* workers, the main thread's included (w[0]) */
	eworker_t *w;
	pthread_t *th;
	int nth;             /* threads started */
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	unsigned gen;        /* window number: a change starts the workers */
	int busy, quit;
	eitem_t *items;
	size_t nitems, cap;
	atomic_size_t next;
	const react_decide_in_t *in;
	const memo_t *memo;              /* read only while the workers run */
} epool_t;

/* Candidate it->cd applied to it->base in *g: whether it counts at all
 * (skip: a self-loop, no change, a rejected pattern), its memo key and,
 * when the memo does not hold it yet (compute), its check and its estimate
 * (est on ectx; pt: the pattern estimate's state for the tie-break, or
 * NULL).  The one reading of a candidate, alone and on the workers. */
static void cand_eval(const react_decide_in_t *in, const memo_t *memo, react_checker_t *ck,
                      react_estimate_fn est, void *ectx, const patest_t *pt, react_pattern_t **g,
                      eitem_t *it)
{
	react_status_t cst;
	double sc = 0.0;
	it->skip = 0;
	it->compute = 0;
	if ((it->st = copy_into(g, it->base)) != REACT_OK)
		return;
	it->st = react_xform_apply(*g, &it->cd->xf);
	if (it->st == REACT_EINVAL ||
	    (it->st == REACT_OK && (react_pattern_equal(*g, it->base) || rejected(in, *g)))) {
		it->st = REACT_OK; /* EINVAL: would make a self-loop */
		it->skip = 1;
		return;
	}
	if (it->st != REACT_OK)
		return;
	it->key = memo_key(*g);
	if (memo_find(memo, it->key))
		return;
	it->compute = 1;
	cst = react_checker_run(ck, *g, NULL);
	if (cst != REACT_OK && cst != REACT_ESEMANTIC) {
		it->st = cst;
		return;
	}
	if (cst == REACT_OK && (it->st = est(ectx, *g, &sc)) != REACT_OK)
		return;
	it->ok = cst == REACT_OK;
	it->s = sc;
	/* a swap that shortens one of two parallel slow paths leaves the
	 * makespan as it was but brings the next swap closer: the beam ranks
	 * such a swap above one that changes nothing (the mean finish time) */
	it->rank = it->ok ? sc + (pt ? 0.01 * pt->aux : 0.0) : 0.0;
}

/* A computed candidate's results into the memo (once per key) */
static react_status_t cand_memo(memo_t *memo, const eitem_t *it)
{
	if (it->st != REACT_OK || !it->compute || memo_find(memo, it->key))
		return REACT_OK;
	return memo_put(memo, it->key, (memo_ent_t){it->ok, it->s, it->rank});
}

static void epool_drain(epool_t *p, eworker_t *w)
{
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->nitems)
			return;
		cand_eval(p->in, p->memo, w->ck, pattern_estimate, &w->pt, &w->pt, &w->g, &p->items[i]);
	}
}

typedef struct earg {
	epool_t *p;
	int id;
} earg_t;

static void *epool_main(void *arg)
{
	epool_t *p = ((earg_t *)arg)->p;
	eworker_t *w = &p->w[((earg_t *)arg)->id];
	unsigned seen = 0;
	free(arg);
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->gen == seen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		if (p->quit)
			break;
		seen = p->gen;
		pthread_mutex_unlock(&p->mu);
		epool_drain(p, w);
		pthread_mutex_lock(&p->mu);
		if (--p->busy == 0)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Every item of the window through cand_eval, on every worker. */
static void epool_run(epool_t *p)
{
	atomic_store(&p->next, 0);
	pthread_mutex_lock(&p->mu);
	p->busy = p->nth;
	p->gen++;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	epool_drain(p, &p->w[0]);
	pthread_mutex_lock(&p->mu);
	while (p->busy > 0)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

static void epool_destroy(epool_t *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->nth; i++)
		pthread_join(p->th[i], NULL);
	for (int i = 0; i < p->n; i++)
		if (p->w[i].own) {
			react_checker_destroy(p->w[i].ck);
			patest_free(&p->w[i].pt);
		}
	for (int i = 0; i < p->n; i++)
		react_pattern_destroy(p->w[i].g);
	free(p->items);
	free(p->w);
	free(p->th);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	free(p);
}

/* n workers: the main thread with ck and pt (the decision's own), n - 1
 * threads with their own.  *out NULL when no thread could be started (the
 * search then runs alone: the same decision). */
static react_status_t epool_create(int n, const react_pattern_t *g0, react_checker_t *ck,
                                   const patest_t *pt, epool_t **out)
{
	react_status_t st = REACT_OK;
	epool_t *p = calloc(1, sizeof *p);
	*out = NULL;
	if (!p)
		return REACT_ENOMEM;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	p->w = calloc((size_t)n, sizeof *p->w);
	p->th = calloc((size_t)n, sizeof *p->th);
	if (!p->w || !p->th) {
		st = REACT_ENOMEM;
		goto fail;
	}
	p->n = n;
	p->w[0].ck = ck;
	p->w[0].pt = *pt;
	for (int i = 1; i < n; i++) {
		eworker_t *w = &p->w[i];
		w->own = 1;
		if ((st = react_checker_create(g0->nranks, g0->nchunks, &w->ck)) != REACT_OK ||
		    (st = patest_init(&w->pt, pt->g0, pt->fct, pt->B, pt->rates, pt->passes, pt->fluid)) !=
		        REACT_OK)
			goto fail;
	}
	for (int i = 1; i < n; i++) {
		earg_t *a = malloc(sizeof *a);
		if (!a) {
			st = REACT_ENOMEM;
			goto fail;
		}
		a->p = p;
		a->id = i;
		if (pthread_create(&p->th[p->nth], NULL, epool_main, a) != 0) {
			free(a);
			break;
		}
		p->nth++;
	}
	if (p->nth == 0)
		goto fail; /* st REACT_OK: alone */
	*out = p;
	return REACT_OK;
fail:
	epool_destroy(p);
	return st;
}

static react_status_t epool_reserve(epool_t *p, size_t n)
{
	if (n <= p->cap)
		return REACT_OK;
	size_t nc = p->cap ? p->cap : 64;
	while (nc < n)
		nc *= 2;
	eitem_t *ni = realloc(p->items, nc * sizeof *ni);
	if (!ni)
		return REACT_ENOMEM;
	memset(ni + p->cap, 0, (nc - p->cap) * sizeof *ni);
	p->items = ni;
	p->cap = nc;
	return REACT_OK;
}

/* cd into the `keep` best so far, top[0 .. *ntop), ascending rank */
static void top_insert(scored_t *top, size_t keep, size_t *ntop, const cand_t *cd, double sc,
                       double rk)
{
	if (*ntop < keep || rk < top[*ntop - 1].rank) {
		size_t k = *ntop < keep ? (*ntop)++ : keep - 1;
		while (k > 0 && top[k - 1].rank > rk) {
			top[k] = top[k - 1];
			k--;
		}
		top[k].xf = cd->xf;
		top[k].vi = cd->vi;
		top[k].s = sc;
		top[k].rank = rk;
	}
}

/* cd (its swap read by cand_eval: skip, key) counted after the ones
 * before it, as the search alone counts: a pattern that passes the check
 * uses one of the work bound's evaluations, is logged at the first depth
 * and goes into the `keep` best; *counted 1 when it did */
static react_status_t cand_count(bsearch_t *b, const cand_t *cd, int skip, uint64_t key,
                                 double cur, int log, scored_t *top, size_t keep, size_t *ntop,
                                 int *counted)
{
	const memo_ent_t *me = skip ? NULL : memo_find(&b->memo, key);
	react_status_t st;
	*counted = 0;
	if (!me || !me->semantic_ok)
		return REACT_OK;
	b->evals_left--;
	*counted = 1;
	if (log && (st = log_cand(b->out, b->logcap, &cd->xf, cur > 0 ? 1.0 - me->s / cur : 0.0, 0)) !=
	           REACT_OK)
		return st;
	top_insert(top, keep, ntop, cd, me->s, me->rank);
	return REACT_OK;
}

/* 1 when cd is for the search: neither rank excluded, and its swap not
 * listed before in this level (a swap is listed at every vertex of its two
 * ranks, a global or chunk-local one, and would be estimated once per
 * listing, crowding out the rest of the level's budget: each is taken
 * once, at its first, highest-priority, listing) */
static int cand_listed(const genctx_t *gc, react_xform_t *stab, unsigned char *sused, size_t scap,
                       const cand_t *cd)
{
	react_xform_t c;
	if (gc->excluded[cd->xf.x] || gc->excluded[cd->xf.y])
		return 0;
	c = xf_canon(&cd->xf);
	return !xf_seen(stab, sused, scap, &c);
}

/* The level's candidates on G in *b->gc->cands (*ncand of them), in
 * priority order.  Past the work bound none is listed: the keys are drawn
 * all the same, so the random stream does not depend on this shortcut. */
static react_status_t level_cands(bsearch_t *b, const react_pattern_t *G, size_t *ncand)
{
	react_status_t st = REACT_OK;
	*ncand = 0;
	b->gc->keys_only = b->evals_left == 0;
	for (size_t xi = 0; xi < b->nv && st == REACT_OK; xi++)
		st = gen_cands(b->gc, G, &b->vs[xi], (int)xi, ncand);
	b->gc->keys_only = 0;
	if (st == REACT_OK && b->evals_left > 0)
		qsort(*b->gc->cands, *ncand, sizeof **b->gc->cands, cand_cmp_all);
	return st;
}

/* An empty swap table (cand_listed) for ncand candidates, grown as needed */
static react_status_t swap_table(size_t ncand, react_xform_t **stab, unsigned char **sused,
                                 size_t *scap)
{
	size_t cap = 16;
	while (cap < 2 * ncand)
		cap <<= 1;
	if (cap > *scap) {
		free(*stab);
		free(*sused);
		*stab = malloc(cap * sizeof **stab);
		*sused = malloc(cap);
		*scap = *stab && *sused ? cap : 0;
		if (!*scap)
			return REACT_ENOMEM;
	}
	memset(*sused, 0, *scap);
	return REACT_OK;
}

/* Evaluate up to LEVEL_EVALS candidates on G; keep the `keep` best
 * (ascending estimate) in top[]; *ntop how many.  log: 1 to log them. */
static react_status_t eval_level(bsearch_t *b, const react_pattern_t *G, double cur, int log,
                                 scored_t *top, size_t keep, size_t *ntop)
{
	react_status_t st = REACT_OK;
	size_t ncand = 0, evals = 0, scap = 0;
	react_pattern_t *Gp = NULL;
	react_xform_t *stab = NULL;
	unsigned char *sused = NULL;
	*ntop = 0;
	if ((st = level_cands(b, G, &ncand)) != REACT_OK || b->evals_left == 0)
		return st;
	if ((st = swap_table(ncand, &stab, &sused, &scap)) != REACT_OK)
		goto fail;
	for (size_t i = 0; i < ncand && evals < LEVEL_EVALS(b->gc->in->trials) && b->evals_left > 0;
	     i++) {
		eitem_t it = {.cd = &(*b->gc->cands)[i], .base = G};
		int counted;
		if (!cand_listed(b->gc, stab, sused, scap, it.cd))
			continue;
		cand_eval(b->gc->in, &b->memo, b->ck, b->est, b->ectx, b->pt, &Gp, &it);
		if ((st = it.st) != REACT_OK || (st = cand_memo(&b->memo, &it)) != REACT_OK ||
		    (st = cand_count(b, it.cd, it.skip, it.key, cur, log, top, keep, ntop, &counted)) !=
		        REACT_OK)
			goto fail;
		evals += (size_t)counted;
	}
fail:
	free(stab);
	free(sused);
	react_pattern_destroy(Gp);
	return st;
}

static react_status_t take(bsearch_t *b, react_pattern_t *G, const scored_t *m)
{
	react_status_t st = react_xform_apply(G, &m->xf);
	if (st == REACT_OK && b->vs[m->vi].nsteady > 0)
		b->gc->excluded[b->vs[m->vi].r] = 1;
	return st;
}

static void mark_logged(react_decide_out_t *out, size_t from, const react_xform_t *xf)
{
	for (size_t i = from; i < out->ncands; i++)
		if (!memcmp(&out->cands[i].xf, xf, sizeof *xf)) {
			out->cands[i].accepted = 1;
			return;
		}
}

typedef struct bstate {
	scored_t mv[16];     /* the moves from the base G, in order */
	int n;
	double s, rank;
	uint64_t h;
} bstate_t;

/* *out: G with st's moves, in *out's memory when it has some */
static react_status_t replay(const react_pattern_t *G, const bstate_t *st, react_pattern_t **out)
{
	react_status_t rc = copy_into(out, G);
	for (int i = 0; rc == REACT_OK && i < st->n; i++)
		rc = react_xform_apply(*out, &st->mv[i].xf);
	return rc;
}

/*
 * Role moves (role_moves, selection best).  A congested sender x takes, in
 * every chunk graph at once, the role of the rank outside the congested
 * senders that sends the least there: one chunk-local swap per graph, kept
 * when the pattern still passes the check (a tree's leaf; in recursive
 * halving-doubling a rank that hands its data over and gets the result
 * back).  The beam cannot get there one swap at a time: while x keeps a
 * heavy role in some graph the makespan stays where it was, so every
 * single swap is estimated at no gain.  One move per congested sender
 * (at most ROLE_MAX, the most congested first: steady flows count 1, erratic
 * ones 1/4) and one for all of them, each graph's lightest roles dealt out
 * in that order; each is estimated as a whole.
 */
#define ROLE_MAX 8
/* Work bound: a move checks a candidate swap (a copy and a check, each
 * about F flows) per congested sender and chunk graph, at most ROLE_TRIES
 * per pair (never binding below 10 ranks); all the moves of a decision
 * stay near ROLE_WORK flow-steps, about the beam's own at 512 ranks (SEARCH_WORK2
 * / F): fewer senders, or none where one sender would pass it.  A
 * 32-rank ring gets 4 senders, a 64-rank rhd 5, a 64-rank ring none; the
 * 8- and 16-rank sets and a 512-rank tree (2 graphs of 2,044 flows) are
 * never bound */
#define ROLE_TRIES 8
#define ROLE_WORK ((size_t)1 << 19)

_Static_assert(ROLE_MAX <= sizeof ((react_decide_out_t *)0)->role_ranks / sizeof(react_rank_t),
               "react_decide_out_t.role_ranks holds every sender a role move names");

typedef struct role_move {
	react_xform_t *mv;   /* the chunk-local swaps, in order */
	size_t n, cap;
	react_rank_t who[ROLE_MAX]; /* the senders moved, most congested first */
	int nwho;
} role_move_t;

/* *P: G with the role move of the nS senders S (most congested first);
 * rm: its swaps.  vol: NG x N scratch. */
static react_status_t role_build(bsearch_t *b, const react_pattern_t *G, const react_rank_t *S,
                                 int nS, double *vol, unsigned char *mark, react_pattern_t **P,
                                 react_pattern_t **C, role_move_t *rm)
{
	react_status_t st;
	const int32_t N = G->nranks, NG = react_pattern_ngraphs(G);
	unsigned char *inS = mark, *taken = mark + N, *tried = mark + 2 * (size_t)N;
	rm->n = 0;
	if ((st = copy_into(P, G)) != REACT_OK)
		return st;
	memset(vol, 0, (size_t)NG * (size_t)N * sizeof *vol);
	for (size_t f = 0; f < G->nflows; f++)
		vol[(size_t)react_pattern_flow_graph(G, f) * (size_t)N + (size_t)G->flows[f].src] +=
		    (double)G->flows[f].bytes;
	memset(inS, 0, (size_t)N);
	for (int i = 0; i < nS; i++)
		inS[S[i]] = 1;
	for (int32_t g = 0; g < NG; g++) {
		double *v = vol + (size_t)g * (size_t)N;
		memset(taken, 0, (size_t)N);
		for (int i = 0; i < nS; i++) {
			const react_rank_t x = S[i];
			int tries = 0;
			memset(tried, 0, (size_t)N);
			while (tries++ < ROLE_TRIES) {
				react_rank_t y = -1;
				react_xform_t xf;
				for (react_rank_t r = 0; r < N; r++)
					if (!inS[r] && !taken[r] && !tried[r] && v[r] < v[x] && (y < 0 || v[r] < v[y]))
						y = r;
				if (y < 0)
					break;
				tried[y] = 1;
				xf = (react_xform_t){REACT_XF_CHUNK, 0, x, y, g};
				if ((st = copy_into(C, *P)) != REACT_OK)
					return st;
				st = react_xform_apply(*C, &xf);
				if (st == REACT_EINVAL)
					continue;
				if (st != REACT_OK)
					return st;
				st = react_checker_run(b->ck, *C, NULL);
				if (st == REACT_ESEMANTIC)
					continue; /* e.g. the owner of an AllGather chunk */
				if (st != REACT_OK)
					return st;
				{
					/* the checked copy is the move's pattern now */
					react_pattern_t *t = *P;
					*P = *C;
					*C = t;
				}
				if (rm->n == rm->cap) {
					size_t nc = rm->cap ? 2 * rm->cap : 16;
					react_xform_t *m = realloc(rm->mv, nc * sizeof *m);
					if (!m)
						return REACT_ENOMEM;
					rm->mv = m;
					rm->cap = nc;
				}
				rm->mv[rm->n++] = xf;
				taken[y] = 1;
				{
					double t = v[x];
					v[x] = v[y];
					v[y] = t;
				}
				break;
			}
		}
	}
	return REACT_OK;
}

/* The best role move estimated below *bar (seconds): *bar its estimate
 * and *best its swaps, or best->n == 0 when none is. */
static react_status_t role_search(bsearch_t *b, const react_pattern_t *G, double *bar,
                                  role_move_t *best)
{
	react_status_t st = REACT_OK;
	const react_decide_in_t *in = b->gc->in;
	const int32_t N = G->nranks, NG = react_pattern_ngraphs(G);
	double *w = NULL, *vol = NULL;
	unsigned char *mark = NULL;
	react_rank_t S[ROLE_MAX];
	int nS = 0;
	role_move_t rm = {NULL, 0, 0, {0}, 0};
	react_pattern_t *P = NULL, *C = NULL;
	/* the moves of nS senders cost about 2 nS NG F flow-steps (one each,
	 * and all of them together) */
	size_t cap = ROLE_WORK / (2 * (size_t)(NG > 0 ? NG : 1) * (G->nflows ? G->nflows : 1));
	best->n = 0;
	if (cap == 0)
		goto out;
	if (cap > ROLE_MAX)
		cap = ROLE_MAX;
	w = calloc((size_t)N, sizeof *w);
	vol = malloc((size_t)NG * (size_t)N * sizeof *vol);
	mark = malloc(3 * (size_t)N);
	if (!w || !vol || !mark) {
		st = REACT_ENOMEM;
		goto out;
	}
	for (size_t f = 0; f < G->nflows; f++)
		if (in->cong[f] != REACT_CONG_NONE)
			w[G->flows[f].src] += in->cong[f] == REACT_CONG_STEADY ? 1.0 : 0.25;
	while ((size_t)nS < cap && nS < N / 2) {
		int m = -1;
		for (int32_t r = 0; r < N; r++)
			if (w[r] > 0 && (m < 0 || w[r] > w[m]))
				m = r;
		if (m < 0)
			break;
		S[nS++] = (react_rank_t)m;
		w[m] = 0;
	}
	/* k < nS: S[k] alone; k == nS: all of them (when two or more) */
	for (int k = 0; k <= nS && !(k == nS && nS < 2); k++) {
		double s;
		if ((st = role_build(b, G, k < nS ? &S[k] : S, k < nS ? 1 : nS, vol, mark, &P, &C, &rm)) !=
		    REACT_OK)
			goto out;
		/* a pattern reverted before (the rejected list) is not tried again;
		 * a move with swaps is never G itself (each swaps two ranks that
		 * send different bytes in their graph, and no rank twice) */
		if (rm.n == 0 || rejected(in, P))
			continue;
		if ((st = b->est(b->ectx, P, &s)) != REACT_OK)
			goto out;
		if (s < *bar) {
			role_move_t t = *best;
			rm.nwho = k < nS ? 1 : nS;
			memcpy(rm.who, k < nS ? &S[k] : S, (size_t)rm.nwho * sizeof *S);
			*bar = s;
			*best = rm;
			rm = t;
		}
	}
out:
	free(rm.mv);
	free(w);
	free(vol);
	free(mark);
	react_pattern_destroy(P);
	react_pattern_destroy(C);
	return st;
}

/*
 * One depth of the beam with b->pool: every beam pattern's level at once.
 * Each beam pattern's candidates are generated, sorted and filtered (its
 * own swap table) exactly as eval_level does; the candidates of all beam
 * patterns go to the workers in windows, and the main thread then counts
 * them beam by beam, in order, with eval_level's rules (its level's
 * LEVEL_EVALS, the work bound across the beam).  A beam pattern waits for
 * the ones before it: its candidates are counted only once those are done.
 * The workers' results go into the memo as they come (a cache: a pattern
 * found there counts as if estimated again), so nothing depends on how
 * far ahead they worked.
 */
typedef struct qent {
	const cand_t *cd;
	int skip;
	uint64_t key;
	react_status_t st;
} qent_t;

typedef struct dbeam {
	react_pattern_t *P;          /* the beam pattern */
	cand_t *cands;               /* its candidates, in eval_level's order */
	size_t ncand, cap, cur;      /* cur: the next one to filter */
	react_xform_t *stab;         /* each swap once (eval_level's table) */
	unsigned char *sused;
	size_t scap;
	qent_t *q;                   /* filtered, in order; counted up to acc */
	size_t nq, qcap, acc;
	size_t evals;
	int done;
	int gen;                     /* its candidates generated (dbeam_gen) */
	scored_t top[BEAM_MAX];
	size_t ntop;
} dbeam_t;

static void dbeam_free(dbeam_t *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++) {
		react_pattern_destroy(d[i].P);
		free(d[i].cands);
		free(d[i].stab);
		free(d[i].sused);
		free(d[i].q);
	}
	free(d);
}

/* Beam pattern i's candidates, as eval_level generates them (the random
 * keys drawn in beam order: every beam pattern before it has its own) */
static react_status_t dbeam_gen(bsearch_t *b, const react_pattern_t *G, const bstate_t *beam,
                                dbeam_t *d)
{
	react_status_t st;
	size_t ncand = 0;
	if ((st = replay(G, beam, &d->P)) != REACT_OK)
		return st;
	d->done = b->evals_left == 0;
	if ((st = level_cands(b, d->P, &ncand)) != REACT_OK)
		return st;
	d->ncand = d->cur = d->nq = d->acc = d->evals = d->ntop = 0;
	d->gen = 1;
	if (d->done)
		return REACT_OK;
	if (ncand > d->cap) {
		cand_t *nc = realloc(d->cands, ncand * sizeof *nc);
		if (!nc)
			return REACT_ENOMEM;
		d->cands = nc;
		d->cap = ncand;
	}
	if (ncand)
		memcpy(d->cands, *b->gc->cands, ncand * sizeof *d->cands);
	d->ncand = ncand;
	return swap_table(ncand, &d->stab, &d->sused, &d->scap);
}

static react_status_t depth_par(bsearch_t *b, const react_pattern_t *G, const bstate_t *beam,
                                size_t nbeam, double cur, int log, size_t keep, dbeam_t *db)
{
	react_status_t st = REACT_OK;
	epool_t *p = b->pool;
	const size_t level = LEVEL_EVALS(b->gc->in->trials);
	size_t first = 0;
	for (size_t i = 0; i < nbeam; i++)
		db[i].gen = 0;
	while (first < nbeam && b->evals_left > 0) {
		size_t nw = 0, running = 0;
		/* the window: beam patterns in order, each up to what its level and
		 * the work bound may still count */
		for (size_t i = first; i < nbeam && running < b->evals_left; i++) {
			dbeam_t *d = &db[i];
			size_t pend, want;
			if (!d->gen && (st = dbeam_gen(b, G, &beam[i], d)) != REACT_OK)
				return st;
			if (d->done)
				continue;
			pend = d->nq - d->acc;
			running += pend;
			if (d->evals + pend >= level || running >= b->evals_left)
				continue;
			want = level - d->evals - pend;
			if (want > b->evals_left - running)
				want = b->evals_left - running;
			if ((st = epool_reserve(p, nw + want)) != REACT_OK)
				return st;
			if (d->nq + want > d->qcap) {
				size_t nc = d->qcap ? d->qcap : 64;
				while (nc < d->nq + want)
					nc *= 2;
				qent_t *nq = realloc(d->q, nc * sizeof *nq);
				if (!nq)
					return REACT_ENOMEM;
				d->q = nq;
				d->qcap = nc;
			}
			while (d->cur < d->ncand && want > 0) {
				const cand_t *cd = &d->cands[d->cur++];
				if (!cand_listed(b->gc, d->stab, d->sused, d->scap, cd))
					continue;
				p->items[nw].cd = cd;
				p->items[nw].base = d->P;
				p->items[nw].bi = i;
				p->items[nw].qi = d->nq;
				d->q[d->nq++].cd = cd;
				nw++;
				want--;
				running++;
			}
		}
		if (nw > 0) {
			p->nitems = nw;
			p->in = b->gc->in;
			p->memo = &b->memo;
			epool_run(p);
			/* back into the beams' queues; every result into the memo */
			for (size_t k = 0; k < nw; k++) {
				const eitem_t *it = &p->items[k];
				qent_t *e = &db[it->bi].q[it->qi];
				e->skip = it->skip;
				e->key = it->key;
				e->st = it->st;
				if ((st = cand_memo(&b->memo, it)) != REACT_OK)
					return st;
			}
		}
		/* counted beam by beam, in order, as eval_level alone */
		for (size_t i = first; i < nbeam; i++) {
			dbeam_t *d = &db[i];
			if (!d->gen)
				break; /* the next window generates it */
			while (d->acc < d->nq && d->evals < level && b->evals_left > 0) {
				const qent_t *e = &d->q[d->acc++];
				int counted;
				if (e->st != REACT_OK)
					return e->st;
				if ((st = cand_count(b, e->cd, e->skip, e->key, cur, log, d->top, keep, &d->ntop,
				                     &counted)) != REACT_OK)
					return st;
				d->evals += (size_t)counted;
			}
			if (b->evals_left == 0 || d->evals >= level ||
			    (d->acc == d->nq && d->cur == d->ncand)) {
				d->done = 1;
				if (i == first)
					first++;
				if (b->evals_left == 0)
					first = nbeam;
				continue;
			}
			break; /* it needs more of its candidates: the later ones wait */
		}
	}
	/* past the work bound the rest draw their keys all the same */
	for (size_t i = 0; i < nbeam; i++)
		if (!db[i].gen && (st = dbeam_gen(b, G, &beam[i], &db[i])) != REACT_OK)
			return st;
	return st;
}

static react_status_t best_search(bsearch_t *b, react_pattern_t **Gio, double *curio, int *cio)
{
	react_status_t st = REACT_OK;
	const react_decide_in_t *in = b->gc->in;
	int depth = in->max_accepted < 16 ? in->max_accepted : 16;
	bstate_t beam[BEAM_MAX], next[BEAM_MAX], best;
	scored_t top[BEAM_MAX];
	const size_t width = in->beam > 0 ? (size_t)(in->beam < BEAM_MAX ? in->beam : BEAM_MAX)
	                                      : BEAM_DEFAULT;
	size_t nbeam = 1, nnext, ntop;
	react_pattern_t *P = NULL, *C = NULL;
	dbeam_t *db = NULL;  /* with b->pool: the depth's beam patterns (depth_par) */
	int have_best = 0;

	memset(&beam[0], 0, sizeof beam[0]);
	beam[0].s = *curio;
	if (b->pool && !(db = calloc(BEAM_MAX, sizeof *db))) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (int d = 1; d <= depth; d++) {
		nnext = 0;
		if (db && (st = depth_par(b, *Gio, beam, nbeam, *curio, d == 1, width, db)) != REACT_OK)
			goto fail;
		for (size_t i = 0; i < nbeam; i++) {
			const react_pattern_t *Pi = db ? db[i].P : NULL;
			const scored_t *tp = db ? db[i].top : top;
			if (!db) {
				if ((st = replay(*Gio, &beam[i], &P)) != REACT_OK)
					goto fail;
				if ((st = eval_level(b, P, *curio, d == 1, top, width, &ntop)) != REACT_OK)
					goto fail;
				Pi = P;
			} else
				ntop = db[i].ntop;
			for (size_t k = 0; k < ntop; k++) {
				bstate_t c = beam[i];
				uint64_t h;
				size_t pos;
				int dup = 0;
				c.mv[c.n++] = tp[k];
				c.s = tp[k].s;
				c.rank = tp[k].rank;
				if ((st = copy_into(&C, Pi)) != REACT_OK ||
				    (st = react_xform_apply(C, &tp[k].xf)) != REACT_OK)
					goto fail;
				h = react_pattern_hash(C);
				c.h = h;
				for (size_t q = 0; q < nnext; q++)
					dup |= next[q].h == h;
				if (dup || (nnext == width && c.rank >= next[nnext - 1].rank))
					continue;
				pos = nnext < width ? nnext++ : width - 1;
				while (pos > 0 && next[pos - 1].rank > c.rank) {
					next[pos] = next[pos - 1];
					pos--;
				}
				next[pos] = c;
			}
		}
		if (nnext == 0)
			break;
		/* a deeper pattern must beat the best so far by epsilon per extra
		 * transform: fewer changes are preferred (4.1, challenge 3) */
		{
			size_t m = 0;
			for (size_t q = 1; q < nnext; q++)
				if (next[q].s < next[m].s)
					m = q;
			if (next[m].s * (1.0 + in->epsilon) < (have_best ? best.s : *curio)) {
				best = next[m];
				have_best = 1;
			}
		}
		memcpy(beam, next, nnext * sizeof *next);
		nbeam = nnext;
	}
	/* a role move is taken over the beam's pattern when estimated faster,
	 * at the bar the beam's first depth has (epsilon) */
	if (in->role_moves && in->cong) {
		double bar = *curio / (1.0 + in->epsilon);
		role_move_t rm = {NULL, 0, 0, {0}, 0};
		if (have_best && best.s < bar)
			bar = best.s;
		if ((st = role_search(b, *Gio, &bar, &rm)) != REACT_OK) {
			free(rm.mv);
			goto fail;
		}
		if (rm.n > 0) {
			for (size_t i = 0; i < rm.n && st == REACT_OK; i++)
				if ((st = react_xform_apply(*Gio, &rm.mv[i])) == REACT_OK)
					st = log_cand(b->out, b->logcap, &rm.mv[i], 1.0 - bar / *curio, 1);
			free(rm.mv);
			if (st != REACT_OK)
				goto fail;
			*curio = bar;
			*cio += (int)rm.n;
			b->out->role_move = 1;
			b->out->nrole_ranks = rm.nwho;
			memcpy(b->out->role_ranks, rm.who, (size_t)rm.nwho * sizeof *rm.who);
			have_best = 0;
		}
	}
	if (have_best) {
		for (int i = 0; i < best.n; i++) {
			if ((st = take(b, *Gio, &best.mv[i])) != REACT_OK)
				goto fail;
			if (i == 0)
				mark_logged(b->out, 0, &best.mv[i].xf);
			else if ((st = log_cand(b->out, b->logcap, &best.mv[i].xf,
			                        1.0 - best.mv[i].s / *curio, 1)) != REACT_OK)
				goto fail;
		}
		*curio = best.s;
		*cio += best.n;
	}
fail:
	dbeam_free(db, BEAM_MAX);
	react_pattern_destroy(P);
	react_pattern_destroy(C);
	return st;
}


static react_status_t log_cand(react_decide_out_t *out, size_t *cap, const react_xform_t *xf,
                               double gain, int acc)
{
	if (out->ncands == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		react_candidate_log_t *n = realloc(out->cands, nc * sizeof *n);
		if (!n)
			return REACT_ENOMEM;
		out->cands = n;
		*cap = nc;
	}
	out->cands[out->ncands].xf = *xf;
	out->cands[out->ncands].est_gain = gain;
	out->cands[out->ncands].accepted = acc;
	out->ncands++;
	return REACT_OK;
}

/* Mark the vertices of every flow on a chain within a fraction theta of the
 * longest (flow weights w): earliest finish + longest tail after it. */
static react_status_t mark_near(const react_pattern_t *g, const double *w, double theta,
                                unsigned char *onpath)
{
	size_t F = g->nflows, N = (size_t)g->nranks;
	double *acc = malloc((F ? F : 1) * sizeof *acc), *tail = calloc(F ? F : 1, sizeof *tail);
	double mk = 0;
	if (!acc || !tail) {
		free(acc);
		free(tail);
		return REACT_ENOMEM;
	}
	for (size_t f = 0; f < F; f++) {
		const size_t *pr;
		size_t np = react_pattern_preds(g, f, &pr);
		double m = 0;
		for (size_t i = 0; i < np; i++)
			if (acc[pr[i]] > m)
				m = acc[pr[i]];
		acc[f] = m + w[f];
		if (acc[f] > mk)
			mk = acc[f];
	}
	for (size_t f = F; f-- > 0;) {
		const size_t *pr;
		size_t np = react_pattern_preds(g, f, &pr);
		for (size_t i = 0; i < np; i++)
			if (w[f] + tail[f] > tail[pr[i]])
				tail[pr[i]] = w[f] + tail[f];
	}
	for (size_t f = 0; f < F; f++)
		if (acc[f] + tail[f] >= (1.0 - theta) * mk) {
			const react_flow_t *fl = &g->flows[f];
			unsigned char *a = &onpath[(size_t)fl->step * N + (size_t)fl->src];
			unsigned char *b = &onpath[(size_t)(fl->step + 1) * N + (size_t)fl->dst];
			if (!*a) *a = 2;
			if (!*b) *b = 2;
		}
	free(acc);
	free(tail);
	return REACT_OK;
}

int react_estimator_resolve(int estimator, int ring, const react_cong_t *cong, size_t nflows,
                            double ring_steady)
{
	size_t steady = 0, congested = 0;
	if (estimator != REACT_EST_AUTO)
		return estimator;
	if (!ring)
		return REACT_EST_OVERLAP;
	if (ring_steady <= 0)
		return REACT_EST_FLUID;
	for (size_t f = 0; cong && f < nflows; f++) {
		steady += cong[f] == REACT_CONG_STEADY;
		congested += cong[f] != REACT_CONG_NONE;
	}
	return congested > 0 && (double)steady >= ring_steady * (double)congested ? REACT_EST_FLUID
	                                                                          : REACT_EST_OVERLAP;
}

react_status_t react_decide(const react_decide_in_t *in, react_decide_out_t *out)
{
	react_status_t st = REACT_OK;
	const react_pattern_t *g0;
	size_t F, nv = 0, vcap = 0, ccap = 0, logcap = 0, ncand;
	int32_t N, T;
	int B;
	double *wm = NULL, *tmp = NULL, cur;
	pathest_t pe;
	vtx_t *vs = NULL;
	unsigned char *onpath = NULL, *excluded = NULL;
	cand_t *cands = NULL;
	react_rank_t *members = NULL;
	react_pattern_t *G = NULL, *Gp = NULL;
	react_checker_t *ck = NULL;
	gsl_rng *rng;
	react_estimate_fn est;
	void *ectx;
	int u = 0, c = 0;
	double est0 = 0;
	react_rates_t *rates = NULL;
	patest_t pt;
	react_pattern_t *Gb = NULL; /* best passing candidate of a vertex (selection best) */
	int32_t *gl = NULL;
	size_t glcap = 0;
	int nv_forced = 0;
	genctx_t gc;
	bsearch_t bs;
	double sb = 0;

	memset(&pe, 0, sizeof pe);
	memset(&pt, 0, sizeof pt);
	if (!in || !out || !in->g0 || !in->fct || !in->cong || in->B < 1 || !in->rng)
		return REACT_EINVAL;
	memset(out, 0, sizeof *out);
	g0 = in->g0;
	F = g0->nflows;
	N = g0->nranks;
	T = g0->nsteps;
	B = in->B;
	rng = in->rng;
	if (F == 0)
		return REACT_OK;

	wm = calloc(F, sizeof *wm);
	tmp = malloc(F * sizeof *tmp);
	onpath = calloc((size_t)(T + 1) * (size_t)N, 1);
	excluded = calloc((size_t)N, 1);
	members = malloc((size_t)N * sizeof *members);
	pe.npaths = (size_t)B + 1;
	pe.plen = calloc(pe.npaths, sizeof *pe.plen);
	pe.path = calloc(pe.npaths, sizeof *pe.path);
	pe.w = calloc(pe.npaths, sizeof *pe.w);
	if (!wm || !tmp || !onpath || !excluded || !members || !pe.plen || !pe.path || !pe.w) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (int e = 0; e < B; e++)
		for (size_t f = 0; f < F; f++)
			wm[f] += in->fct[(size_t)e * F + f] / B;

	/* 1. B + 1 critical paths */
	for (size_t i = 0; i < pe.npaths; i++) {
		const double *w = i < (size_t)B ? in->fct + i * F : wm;
		pe.path[i] = malloc((size_t)(T ? T : 1) * sizeof **pe.path);
		pe.w[i] = malloc((size_t)(T ? T : 1) * sizeof **pe.w);
		if (!pe.path[i] || !pe.w[i]) { st = REACT_ENOMEM; goto fail; }
		if ((st = react_critpath(g0, w, pe.path[i], &pe.plen[i], NULL)) != REACT_OK)
			goto fail;
		for (size_t j = 0; j < pe.plen[i]; j++) {
			const react_flow_t *fl = &g0->flows[pe.path[i][j]];
			pe.w[i][j] = w[pe.path[i][j]];
			onpath[(size_t)fl->step * (size_t)N + (size_t)fl->src] = 1;
			onpath[(size_t)(fl->step + 1) * (size_t)N + (size_t)fl->dst] = 1;
		}
		if (in->critical_slack > 0 &&
		    (st = mark_near(g0, w, in->critical_slack, onpath)) != REACT_OK)
			goto fail;
	}
	/* medians for never-observed pairs */
	pe.g0 = g0;
	pe.hist = in->history;
	pe.maxdeg = 0;
	for (size_t f = 0; f < F; f++) {
		int32_t k = react_pattern_flow_degree(g0, f);
		if (k > pe.maxdeg) pe.maxdeg = k;
	}
	pe.med_deg = malloc((size_t)(pe.maxdeg + 1) * sizeof *pe.med_deg);
	if (!pe.med_deg) { st = REACT_ENOMEM; goto fail; }
	for (int32_t k = 0; k <= pe.maxdeg; k++) {
		size_t n = 0;
		for (size_t f = 0; f < F; f++)
			if (react_pattern_flow_degree(g0, f) == k)
				tmp[n++] = wm[f] / (double)(g0->flows[f].bytes ? g0->flows[f].bytes : 1);
		if (n) {
			gsl_sort(tmp, 1, n);
			pe.med_deg[k] = gsl_stats_median_from_sorted_data(tmp, 1, n);
		} else {
			pe.med_deg[k] = NAN;
		}
	}
	for (size_t f = 0; f < F; f++)
		tmp[f] = wm[f] / ((double)(g0->flows[f].bytes ? g0->flows[f].bytes : 1) *
		                  react_pattern_flow_degree(g0, f));
	gsl_sort(tmp, 1, F);
	pe.med_all = gsl_stats_median_from_sorted_data(tmp, 1, F);

	/* 2. congested vertices on a critical path */
	{
		int32_t *vid = malloc((size_t)(T + 1) * (size_t)N * sizeof *vid);
		if (!vid) { st = REACT_ENOMEM; goto fail; }
		for (size_t i = 0; i < (size_t)(T + 1) * (size_t)N; i++)
			vid[i] = -1;
		for (size_t f = 0; f < F; f++) {
			const react_flow_t *fl = &g0->flows[f];
			if (in->cong[f] == REACT_CONG_NONE)
				continue;
			for (int side = 0; side < 2; side++) {
				react_step_t t = side ? fl->step + 1 : fl->step;
				react_rank_t r = side ? fl->dst : fl->src;
				size_t k = (size_t)t * (size_t)N + (size_t)r;
				if (!onpath[k])
					continue;
				if (vid[k] < 0) {
					if (nv == vcap) {
						size_t nc = vcap ? 2 * vcap : 16;
						vtx_t *n2 = realloc(vs, nc * sizeof *n2);
						if (!n2) { free(vid); st = REACT_ENOMEM; goto fail; }
						vs = n2;
						vcap = nc;
					}
					vid[k] = (int32_t)nv;
					vs[nv].t = t;
					vs[nv].r = r;
					vs[nv].graph = react_pattern_flow_graph(g0, f);
					vs[nv].ncong = vs[nv].nsteady = 0;
					vs[nv].near = onpath[k] == 2;
					nv++;
				}
				vs[vid[k]].ncong++;
				vs[vid[k]].nsteady += in->cong[f] == REACT_CONG_STEADY;
			}
		}
		free(vid);
	}
	if (nv == 0 && in->explore_all) {
		nv_forced = 1;
		/* forced exploration without congestion: the receiver vertices of
		 * the batch-mean critical path */
		size_t i = (size_t)B;
		vs = malloc((pe.plen[i] ? pe.plen[i] : 1) * sizeof *vs);
		if (!vs) { st = REACT_ENOMEM; goto fail; }
		for (size_t j = 0; j < pe.plen[i]; j++) {
			const react_flow_t *fl = &g0->flows[pe.path[i][j]];
			vs[nv].t = fl->step + 1;
			vs[nv].r = fl->dst;
			vs[nv].graph = react_pattern_flow_graph(g0, pe.path[i][j]);
			vs[nv].ncong = vs[nv].nsteady = 0;
			vs[nv].near = 0;
			nv++;
		}
	}
	{
		/* a vertex near a critical path only is a candidate for its steady
		 * congestion: erratic congestion, slow in some epochs, puts its
		 * vertices on those epochs' critical paths, while a steadily
		 * congested vertex on a chain that ties with the critical path
		 * (a tree AllReduce's other tree) is on none of them */
		size_t k = 0;
		for (size_t i = 0; i < nv; i++)
			if (!vs[i].near || vs[i].nsteady > 0)
				vs[k++] = vs[i];
		nv = k;
	}
	out->nvertices = nv;
	if (nv == 0)
		goto done;
	qsort(vs, nv, sizeof *vs, vtx_cmp);

	if (in->estimate) {
		est = in->estimate;
		ectx = in->estimate_ctx;
	} else if ((in->estimator == REACT_EST_PATTERN || in->estimator == REACT_EST_OVERLAP ||
	            in->estimator == REACT_EST_FLUID || in->estimator == REACT_EST_AUTO) &&
	           in->history) {
		/* auto outside a controller: by the base's shape and the batch's
		 * congestion (the controller resolves it at each search, on the
		 * job's own pattern's shape) */
		int fluid = react_estimator_resolve(in->estimator, react_pattern_is_ring(g0), in->cong,
		                                    g0->nflows, in->ring_steady) == REACT_EST_FLUID;
		int deg = in->estimator == REACT_EST_PATTERN ? REACT_DEG_STEP : REACT_DEG_OVERLAP;
		if ((st = react_history_learn_deg(in->history, deg, in->one_partner, &rates)) != REACT_OK)
			goto fail;
		if ((st = patest_init(&pt, g0, in->fct, B, rates, in->overlap_passes, fluid)) != REACT_OK)
			goto fail;
		est = rates->valid ? pattern_estimate : path_estimate;
		ectx = rates->valid ? (void *)&pt : (void *)&pe;
	} else {
		est = path_estimate;
		ectx = &pe;
	}
	if ((st = react_checker_create(N, g0->nchunks, &ck)) != REACT_OK)
		goto fail;
	if ((st = react_pattern_clone(g0, &G)) != REACT_OK)
		goto fail;
	if ((st = est(ectx, G, &cur)) != REACT_OK)
		goto fail;
	est0 = cur;
	cands = malloc((size_t)(3 * N + 1) * sizeof *cands);
	glcap = (size_t)react_pattern_ngraphs(g0) + 1;
	gl = malloc(glcap * sizeof *gl);
	if (!cands || !gl) { st = REACT_ENOMEM; goto fail; }
	ccap = (size_t)(3 * N + 1);

	/* 3. Algorithm 1.  selection first: the first candidate that passes
	 * epsilon is taken, K_t trials in all.  selection best: see best_search. */
	gc.in = in;
	gc.N = N;
	gc.excluded = excluded;
	gc.members = members;
	gc.rng = rng;
	gc.cands = &cands;
	gc.ccap = &ccap;
	gc.gl = gl;
	gc.glcap = glcap;
	gc.nv_forced = nv_forced;
	gc.keys_only = 0;
	if (in->selection == REACT_SEL_BEST) {
		bs.gc = &gc;
		bs.vs = vs;
		bs.nv = nv;
		bs.ck = ck;
		bs.est = est;
		bs.ectx = ectx;
		bs.out = out;
		bs.logcap = &logcap;
		bs.pt = est == pattern_estimate ? &pt : NULL;
		bs.evals_left = SEARCH_WORK / (F ? F : 1);
		{
			size_t f = F ? F : 1, mid = SEARCH_WORK2 / (f * f);
			if (mid > SEARCH_EVALS)
				mid = SEARCH_EVALS;
			if (mid > bs.evals_left)
				bs.evals_left = mid;
		}
		memset(&bs.memo, 0, sizeof bs.memo);
		bs.pool = NULL;
		if (in->threads > 1 && bs.pt &&
		    (st = epool_create(in->threads < EPOOL_MAX ? in->threads : EPOOL_MAX, g0, ck, &pt,
		                       &bs.pool)) != REACT_OK)
			goto fail;
		st = best_search(&bs, &G, &cur, &c);
		epool_destroy(bs.pool);
		free(bs.memo.keys);
		free(bs.memo.ents);
		if (st != REACT_OK)
			goto fail;
		nv = 0; /* skip the loop below */
	}
	size_t ibest = 0;
	for (size_t xi = 0; xi < nv && (u < in->trials || in->selection == REACT_SEL_BEST) &&
	                    c < in->max_accepted; xi++) {
		const vtx_t *x = &vs[xi];
		if (in->selection == REACT_SEL_BEST)
			u = 0;
		ncand = 0;
		if ((st = gen_cands(&gc, G, x, (int)xi, &ncand)) != REACT_OK)
			goto fail;
		qsort(cands, ncand, sizeof *cands, cand_cmp);
		for (size_t i = 0; i < ncand && u < in->trials; i++) {
			double s, gain;
			int acc;
			react_status_t cst;
			u++;
			if ((st = copy_into(&Gp, G)) != REACT_OK)
				goto fail;
			st = react_xform_apply(Gp, &cands[i].xf);
			if (st == REACT_EINVAL) {
				st = REACT_OK;
				continue; /* would make a self-loop */
			}
			if (st != REACT_OK)
				goto fail;
			if (react_pattern_equal(Gp, G) || rejected(in, Gp))
				continue;
			cst = react_checker_run(ck, Gp, NULL);
			if (cst == REACT_ESEMANTIC)
				continue; /* not a semantically viable swap */
			if (cst != REACT_OK) { st = cst; goto fail; }
			if ((st = est(ectx, Gp, &s)) != REACT_OK)
				goto fail;
			gain = cur > 0 ? 1.0 - s / cur : 0.0;
			acc = s * (1.0 + in->epsilon) < cur;
			if (in->selection == REACT_SEL_BEST) {
				/* logged as accepted once the vertex's best is known */
				if ((st = log_cand(out, &logcap, &cands[i].xf, gain, 0)) != REACT_OK)
					goto fail;
				if (acc && (!Gb || s < sb)) {
					react_pattern_t *t2 = Gb;
					Gb = Gp;
					Gp = t2;
					sb = s;
					ibest = out->ncands - 1;
				}
				continue;
			}
			if ((st = log_cand(out, &logcap, &cands[i].xf, gain, acc)) != REACT_OK)
				goto fail;
			if (acc) {
				react_pattern_t *t2 = G;
				G = Gp;
				Gp = t2;
				cur = s;
				c++;
				if (x->nsteady > 0)
					excluded[x->r] = 1;
				break;
			}
		}
		if (Gb) {
			react_pattern_destroy(G);
			G = Gb;
			Gb = NULL;
			cur = sb;
			c++;
			out->cands[ibest].accepted = 1;
			if (x->nsteady > 0)
				excluded[x->r] = 1;
		}
	}
	if (c > 0 && !react_pattern_equal(G, g0)) {
		/* every emitted pattern passes the check: a failure here is a bug */
		if (react_checker_run(ck, G, NULL) != REACT_OK) {
			st = REACT_ESEMANTIC;
			goto fail;
		}
		out->g1 = G;
		out->est_gain = est0 > 0 ? 1.0 - cur / est0 : 0.0;
		G = NULL;
	}
done:
	st = REACT_OK;
fail:
	if (st != REACT_OK) {
		free(out->cands);
		out->cands = NULL;
		out->ncands = 0;
	}
	free(wm);
	free(tmp);
	free(onpath);
	free(excluded);
	free(members);
	free(vs);
	free(cands);
	free(gl);
	for (size_t i = 0; pe.path && pe.w && i < pe.npaths; i++) {
		free(pe.path[i]);
		free(pe.w[i]);
	}
	free(pe.path);
	free(pe.w);
	free(pe.plen);
	free(pe.med_deg);
	react_pattern_destroy(G);
	react_pattern_destroy(Gp);
	react_pattern_destroy(Gb);
	react_rates_destroy(rates);
	patest_free(&pt);
	react_checker_destroy(ck);
	return st;
}
