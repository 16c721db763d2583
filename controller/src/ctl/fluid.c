/*
 * fluid.c - the fluid timeline of a candidate pattern (fluid.h).  Events
 * are the flows' starts and ends: the fixed flows' ends come from a binary
 * heap, the moved flows' from their bytes left at their rate now.  At an
 * event that starts or ends a moved flow, or a fixed one at an endpoint a
 * moved flow uses, the moved flows' max-min rates are found again by
 * progressive filling over their endpoints and paths (only the moved flows
 * running, usually a few, take part); other events leave them as they
 * were.  O(F log F + F x M^2) per timeline at most, for M moved flows
 * running at once.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"

react_status_t react_fluid_init(react_fluid_t *w, size_t F, int32_t N)
{
	size_t f1 = F ? F : 1, n1 = N > 0 ? (size_t)N : 1;
	memset(w, 0, sizeof *w);
	w->F = F;
	w->N = N;
	w->pend = malloc(f1 * sizeof *w->pend);
	w->nout = malloc(n1 * sizeof *w->nout);
	w->nin = malloc(n1 * sizeof *w->nin);
	w->mout = malloc(n1 * sizeof *w->mout);
	w->min = malloc(n1 * sizeof *w->min);
	w->rem = malloc(f1 * sizeof *w->rem);
	w->tpb = malloc(f1 * sizeof *w->tpb);
	w->act = malloc(f1 * sizeof *w->act);
	w->heap = malloc(f1 * sizeof *w->heap);
	w->done = malloc(f1 * sizeof *w->done);
	for (int s = 0; s < 2; s++) {
		w->used[s] = malloc(n1 * sizeof *w->used[s]);
		w->wfix[s] = malloc(n1 * sizeof *w->wfix[s]);
		w->nun[s] = malloc(n1 * sizeof *w->nun[s]);
		if (!w->used[s] || !w->wfix[s] || !w->nun[s]) {
			react_fluid_free(w);
			return REACT_ENOMEM;
		}
	}
	w->settled = malloc(f1);
	w->rate = malloc(f1 * sizeof *w->rate);
	if (!w->pend || !w->nout || !w->nin || !w->mout || !w->min || !w->rem || !w->tpb || !w->act || !w->heap ||
	    !w->done || !w->settled || !w->rate) {
		react_fluid_free(w);
		return REACT_ENOMEM;
	}
	return REACT_OK;
}

void react_fluid_free(react_fluid_t *w)
{
	free(w->pend);
	free(w->nout);
	free(w->nin);
	free(w->mout);
	free(w->min);
	free(w->rem);
	free(w->tpb);
	free(w->act);
	free(w->heap);
	free(w->done);
	for (int s = 0; s < 2; s++) {
		free(w->used[s]);
		free(w->wfix[s]);
		free(w->nun[s]);
	}
	free(w->settled);
	free(w->rate);
	memset(w, 0, sizeof *w);
}

/* the heap orders by end time, then flow index (a deterministic order) */
static int ev_less(const react_fluid_ev_t *a, const react_fluid_ev_t *b)
{
	return a->t < b->t || (a->t == b->t && a->f < b->f);
}

static void heap_push(react_fluid_t *w, double t, size_t f)
{
	size_t i = w->nheap++;
	react_fluid_ev_t e = {t, f};
	while (i > 0) {
		size_t up = (i - 1) / 2;
		if (!ev_less(&e, &w->heap[up]))
			break;
		w->heap[i] = w->heap[up];
		i = up;
	}
	w->heap[i] = e;
}

static size_t heap_pop(react_fluid_t *w)
{
	size_t f = w->heap[0].f, n = --w->nheap, i = 0;
	react_fluid_ev_t e = w->heap[n];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&w->heap[c + 1], &w->heap[c]))
			c++;
		if (!ev_less(&w->heap[c], &e))
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (n > 0)
		w->heap[i] = e;
	return f;
}

static void start(react_fluid_t *w, const react_pattern_t *p, size_t f, double t,
                  const unsigned char *fixed, const double *dur)
{
	const react_flow_t *a = &p->flows[f];
	w->nout[a->src]++;
	w->nin[a->dst]++;
	if (fixed[f]) {
		heap_push(w, t + dur[f], f);
		if (w->mout[a->src] || w->min[a->dst])
			w->dirty = 1;
	} else {
		w->rem[f] = (double)a->bytes;
		w->act[w->nact++] = f;
		w->mout[a->src]++;
		w->min[a->dst]++;
		w->dirty = 1;
	}
}

/* Max-min fair rates of the moved flows running (progressive filling):
 * each rank's egress and ingress carry one line rate, shared with the
 * fixed flows there and the rank's load (x, y: that many flows from
 * outside), which take the fair share at whatever level; a moved flow's
 * path carries 1 / (1 + z).  In line rates, in w->rate. */
static void maxmin(react_fluid_t *w, const react_pattern_t *p, const double *x, const double *y,
                   const double *z)
{
	/* none settled yet: each endpoint's unsettled moved flows are all its
	 * moved flows running (mout, min) */
	for (size_t k = 0; k < w->nact; k++) {
		size_t f = w->act[k];
		const react_flow_t *a = &p->flows[f];
		w->used[0][a->src] = w->used[1][a->dst] = 0;
		w->nun[0][a->src] = w->mout[a->src];
		w->nun[1][a->dst] = w->min[a->dst];
		w->settled[f] = 0;
	}
	for (size_t k = 0; k < w->nact; k++) {
		size_t f = w->act[k];
		const react_flow_t *a = &p->flows[f];
		/* the other flows there (running, not moved) and the load */
		w->wfix[0][a->src] = (double)(w->nout[a->src] - w->nun[0][a->src]) + x[f];
		w->wfix[1][a->dst] = (double)(w->nin[a->dst] - w->nun[1][a->dst]) + y[f];
	}
	for (size_t left = w->nact; left > 0;) {
		double L = INFINITY;
		int side = -1;
		react_rank_t at = 0;
		size_t fl = SIZE_MAX;
		for (size_t k = 0; k < w->nact; k++) {
			size_t f = w->act[k];
			const react_flow_t *a = &p->flows[f];
			react_rank_t r[2] = {a->src, a->dst};
			double cap;
			if (w->settled[f])
				continue;
			for (int s = 0; s < 2; s++) {
				double sh = (1.0 - w->used[s][r[s]]) / ((double)w->nun[s][r[s]] + w->wfix[s][r[s]]);
				if (sh < L) {
					L = sh;
					side = s;
					at = r[s];
					fl = SIZE_MAX;
				}
			}
			cap = 1.0 / (1.0 + z[f]);
			if (cap < L) {
				L = cap;
				side = -1;
				fl = f;
			}
		}
		if (L < 1e-12)
			L = 1e-12;
		for (size_t k = 0; k < w->nact; k++) {
			size_t f = w->act[k];
			const react_flow_t *a = &p->flows[f];
			if (w->settled[f])
				continue;
			if (fl == f || (side == 0 && a->src == at) || (side == 1 && a->dst == at)) {
				w->settled[f] = 1;
				w->rate[f] = L;
				w->used[0][a->src] += L;
				w->used[1][a->dst] += L;
				w->nun[0][a->src]--;
				w->nun[1][a->dst]--;
				left--;
			}
		}
	}
}

double react_fluid_run(react_fluid_t *w, const react_pattern_t *p, const unsigned char *fixed,
                       const double *dur, double c0, const double *x, const double *y,
                       const double *z, double *fin, double *sumfin)
{
	size_t F = p->nflows;
	const size_t *pr, *po = react_pattern_pred_lists(p, &pr);
	double t = 0, last = 0, sum = 0;
	(void)pr;
	memset(w->nout, 0, (size_t)p->nranks * sizeof *w->nout);
	memset(w->nin, 0, (size_t)p->nranks * sizeof *w->nin);
	memset(w->mout, 0, (size_t)p->nranks * sizeof *w->mout);
	memset(w->min, 0, (size_t)p->nranks * sizeof *w->min);
	w->dirty = 1;
	w->nact = w->nheap = 0;
	for (size_t f = 0; f < F; f++)
		w->pend[f] = (int32_t)(po[f + 1] - po[f]);
	for (size_t f = 0; f < F; f++)
		if (w->pend[f] == 0)
			start(w, p, f, 0.0, fixed, dur);
	while (w->nact > 0 || w->nheap > 0) {
		double tn = w->nheap ? w->heap[0].t : INFINITY;
		/* the rates change only where a flow started or ended beside a
		 * moved one: elsewhere they are kept as they were */
		if (w->dirty) {
			maxmin(w, p, x, y, z);
			for (size_t k = 0; k < w->nact; k++)
				w->tpb[w->act[k]] = c0 / w->rate[w->act[k]];
			w->dirty = 0;
		}
		for (size_t k = 0; k < w->nact; k++) {
			size_t f = w->act[k];
			double te;
			te = t + w->rem[f] * w->tpb[f];
			if (te < tn)
				tn = te;
		}
		if (!isfinite(tn))
			break; /* not reached with c0 > 0 and finite loads */
		/* advance the moved flows to tn; those within a picosecond-scale
		 * tolerance of their end end there */
		w->ndone = 0;
		{
			double dt = tn - t, tol = 1e-9 * (tn > 0 ? tn : 1.0);
			size_t kk = 0;
			for (size_t k = 0; k < w->nact; k++) {
				size_t f = w->act[k];
				w->rem[f] -= dt / w->tpb[f];
				if (w->rem[f] * w->tpb[f] <= tol)
					w->done[w->ndone++] = f;
				else
					w->act[kk++] = f;
			}
			w->nact = kk;
		}
		while (w->nheap > 0 && w->heap[0].t <= tn)
			w->done[w->ndone++] = heap_pop(w);
		t = tn;
		for (size_t k = 0; k < w->ndone; k++) {
			const react_flow_t *a = &p->flows[w->done[k]];
			w->nout[a->src]--;
			w->nin[a->dst]--;
			if (!fixed[w->done[k]]) {
				w->mout[a->src]--;
				w->min[a->dst]--;
				w->dirty = 1;
			} else if (w->mout[a->src] || w->min[a->dst])
				w->dirty = 1;
			if (fin)
				fin[w->done[k]] = t;
			sum += t;
			if (t > last)
				last = t;
		}
		for (size_t k = 0; k < w->ndone; k++) {
			const size_t *sc;
			size_t ns = react_pattern_succs(p, w->done[k], &sc);
			for (size_t j = 0; j < ns; j++)
				if (--w->pend[sc[j]] == 0)
					start(w, p, sc[j], t, fixed, dur);
		}
	}
	if (sumfin)
		*sumfin = sum;
	return last;
}
