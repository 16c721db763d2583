/*
 * overlap.c - overlap degrees (overlap.h).  Per endpoint, the flows'
 * intervals are swept in time order: the integral of the number of them
 * running, C(t), gives each flow's overlap with the others as
 * C(end) - C(start) - its duration.  The starts and the ends are each
 * nearly in time order (flows come in step order): close to O(F) per
 * pattern.
 */
#include <stdlib.h>
#include <string.h>

#include "overlap.h"

react_status_t react_ovl_init(react_ovl_t *w, size_t F, int32_t N)
{
	memset(w, 0, sizeof *w);
	w->F = F;
	w->N = N;
	for (int side = 0; side < 2; side++) {
		w->off[side] = malloc(((size_t)N + 1) * sizeof *w->off[side]);
		w->idx[side] = malloc((F ? F : 1) * sizeof *w->idx[side]);
	}
	w->ev = malloc((F ? 2 * F : 1) * sizeof *w->ev);
	w->cs = malloc((F ? F : 1) * sizeof *w->cs);
	w->ce = malloc((F ? F : 1) * sizeof *w->ce);
	w->need[0] = malloc((size_t)N + 1);
	w->need[1] = malloc((size_t)N + 1);
	if (!w->off[0] || !w->idx[0] || !w->off[1] || !w->idx[1] || !w->ev || !w->cs || !w->ce ||
	    !w->need[0] || !w->need[1]) {
		react_ovl_free(w);
		return REACT_ENOMEM;
	}
	return REACT_OK;
}

void react_ovl_free(react_ovl_t *w)
{
	for (int side = 0; side < 2; side++) {
		free(w->off[side]);
		free(w->idx[side]);
		free(w->need[side]);
	}
	free(w->ev);
	free(w->cs);
	free(w->ce);
	memset(w, 0, sizeof *w);
}

/* Stable insertion sort by time: the flows of one endpoint come in step
 * order, and their starts and ends are nearly in time order already, so
 * this is close to linear. */
static void sort_by_time(react_ovl_ev_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		react_ovl_ev_t x = v[i];
		size_t j = i;
		while (j > 0 && v[j - 1].t > x.t) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* The flows of every endpoint, in flow order (side 0: by sender, 1: by
 * receiver), into off[side] / idx[side]. */
static void index_side(react_ovl_t *w, const react_pattern_t *p, int side)
{
	size_t F = p->nflows, *off = w->off[side], *idx = w->idx[side];
	int32_t N = p->nranks;
	memset(off, 0, ((size_t)N + 1) * sizeof *off);
	for (size_t f = 0; f < F; f++)
		off[(side ? p->flows[f].dst : p->flows[f].src) + 1]++;
	for (int32_t r = 0; r < N; r++)
		off[r + 1] += off[r];
	for (size_t f = 0; f < F; f++) {
		react_rank_t r = side ? p->flows[f].dst : p->flows[f].src;
		idx[off[r]++] = f;
	}
	for (int32_t r = N; r > 0; r--)
		off[r] = off[r - 1];
	off[0] = 0;
}

void react_ovl_index(react_ovl_t *w, const react_pattern_t *p)
{
	index_side(w, p, 0);
	index_side(w, p, 1);
	memset(w->need[0], 1, (size_t)p->nranks);
	memset(w->need[1], 1, (size_t)p->nranks);
}

void react_ovl_only(react_ovl_t *w, const react_pattern_t *p, const unsigned char *only)
{
	memset(w->need[0], 0, (size_t)p->nranks);
	memset(w->need[1], 0, (size_t)p->nranks);
	for (size_t f = 0; f < p->nflows; f++)
		if (only[f]) {
			w->need[0][p->flows[f].src] = 1;
			w->need[1][p->flows[f].dst] = 1;
		}
}

/* deg[f] for every flow, grouped by endpoint (side 0: sender, 1: receiver),
 * at the endpoints w->need[side] names */
static void side_degrees(react_ovl_t *w, const react_pattern_t *p, const double *dur,
                         const double *t0, int side, double *deg)
{
	int32_t N = p->nranks;
	const size_t *off = w->off[side], *idx = w->idx[side];
	for (int32_t r = 0; r < N; r++) {
		size_t a = off[r], n = off[r + 1] - a;
		if (!w->need[side][r])
			continue;
		if (n == 1)
			deg[idx[a]] = 1.0;
		if (n < 2)
			continue;
		/* starts in ev[0 .. n), ends in ev[n .. 2n), each sorted, then merged:
		 * the integral does not depend on the order of equal times */
		react_ovl_ev_t *st = w->ev, *en = w->ev + n;
		for (size_t i = 0; i < n; i++) {
			size_t f = idx[a + i];
			st[i] = (react_ovl_ev_t){t0[f], f, 0};
			en[i] = (react_ovl_ev_t){t0[f] + dur[f], f, 1};
		}
		sort_by_time(st, n);
		sort_by_time(en, n);
		double c = 0, tprev = st[0].t;
		long running = 0;
		for (size_t i = 0, j = 0; i < n || j < n;) {
			const react_ovl_ev_t *x = (j < n && (i == n || en[j].t <= st[i].t)) ? &en[j++]
			                                                                     : &st[i++];
			c += (double)running * (x->t - tprev);
			tprev = x->t;
			if (x->end) {
				w->ce[x->f] = c;
				running--;
			} else {
				w->cs[x->f] = c;
				running++;
			}
		}
		for (size_t i = 0; i < n; i++) {
			size_t f = idx[a + i];
			double o = w->ce[f] - w->cs[f] - dur[f];
			deg[f] = 1.0 + (dur[f] > 0 && o > 0 ? o / dur[f] : 0.0);
		}
	}
}

void react_ovl_degrees(react_ovl_t *w, const react_pattern_t *p, const double *dur, double *t0,
                       double *dout, double *din)
{
	react_ovl_index(w, p);
	react_ovl_degrees_indexed(w, p, dur, t0, dout, din);
}

void react_ovl_degrees_indexed(react_ovl_t *w, const react_pattern_t *p, const double *dur,
                               double *t0, double *dout, double *din)
{
	const size_t *pr, *po = react_pattern_pred_lists(p, &pr);
	for (size_t f = 0; f < p->nflows; f++) {
		double m = 0;
		for (size_t i = po[f]; i < po[f + 1]; i++)
			if (t0[pr[i]] + dur[pr[i]] > m)
				m = t0[pr[i]] + dur[pr[i]];
		t0[f] = m;
	}
	side_degrees(w, p, dur, t0, 0, dout);
	side_degrees(w, p, dur, t0, 1, din);
}
