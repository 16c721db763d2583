/*
 * costmodel.c - alpha-beta (Hockney) model of a pattern on a star, with
 * max-min fair sharing (water-filling) of every rank's uplink and downlink.
 *
 * Event loop: a flow is READY when its last predecessor arrives (flows
 * without predecessors at time 0), TRANSMITTING from ready + alpha, DONE
 * when its bytes are through.  Rates are recomputed by water-filling at
 * every start and end of a transmission.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "react/costmodel.h"

enum { WAIT = 0, LAT, TX, DONE, SKIP };

react_status_t react_costmodel_eval(const react_costmodel_t *m, const react_pattern_t *p,
                                    int32_t step_begin, int32_t step_end, double *makespan_s,
                                    double *fct_out)
{
	react_status_t st = REACT_OK;
	size_t F, nleft = 0;
	int32_t N;
	double now = 0, cap;
	unsigned char *state = NULL, *frozen = NULL;
	double *ready = NULL, *rem = NULL, *rate = NULL, *lcap = NULL;
	int32_t *npend = NULL, *lcnt = NULL;

	if (!m || !p || !makespan_s || !(m->beta_s_per_byte > 0) || !(m->alpha_s >= 0))
		return REACT_EINVAL;
	if (step_end < 0 || step_end > p->nsteps)
		step_end = p->nsteps;
	F = p->nflows;
	N = p->nranks;
	cap = 1.0 / m->beta_s_per_byte;
	state = calloc(F + 1, 1);
	frozen = calloc(F + 1, 1);
	ready = calloc(F + 1, sizeof *ready);
	rem = calloc(F + 1, sizeof *rem);
	rate = calloc(F + 1, sizeof *rate);
	npend = calloc(F + 1, sizeof *npend);
	lcap = calloc(2 * (size_t)N, sizeof *lcap);
	lcnt = calloc(2 * (size_t)N, sizeof *lcnt);
	if (!state || !frozen || !ready || !rem || !rate || !npend || !lcap || !lcnt) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (size_t f = 0; f < F; f++) {
		const size_t *pr;
		size_t np = react_pattern_preds(p, f, &pr);
		if (p->flows[f].step < step_begin || p->flows[f].step >= step_end) {
			state[f] = SKIP;
			continue;
		}
		for (size_t i = 0; i < np; i++)
			if (p->flows[pr[i]].step >= step_begin)
				npend[f]++;
		rem[f] = (double)p->flows[f].bytes;
		state[f] = npend[f] ? WAIT : LAT;
		ready[f] = 0;
		nleft++;
	}
	while (nleft) {
		double next = INFINITY;
		size_t nact;
		/* water-filling over links 0..N-1 uplinks, N..2N-1 downlinks */
		for (int32_t l = 0; l < 2 * N; l++) {
			lcap[l] = cap;
			lcnt[l] = l < N ? (m->ext_up ? m->ext_up[l] : 0) : (m->ext_down ? m->ext_down[l - N] : 0);
		}
		nact = 0;
		for (size_t f = 0; f < F; f++) {
			frozen[f] = 0;
			if (state[f] == TX) {
				lcnt[p->flows[f].src]++;
				lcnt[N + p->flows[f].dst]++;
				nact++;
			}
		}
		while (nact) {
			int32_t bl = -1;
			double bs = INFINITY;
			for (int32_t l = 0; l < 2 * N; l++) {
				if (lcnt[l] > 0 && lcap[l] / lcnt[l] < bs) {
					bs = lcap[l] / lcnt[l];
					bl = l;
				}
			}
			if (bl < 0)
				break;
			/* freeze the flows of the bottleneck link (external flows on it
			 * take their share and leave with it) */
			for (size_t f = 0; f < F; f++) {
				if (state[f] != TX || frozen[f])
					continue;
				if (p->flows[f].src == bl || N + p->flows[f].dst == bl) {
					frozen[f] = 1;
					rate[f] = bs;
					lcap[p->flows[f].src] -= bs;
					lcap[N + p->flows[f].dst] -= bs;
					lcnt[p->flows[f].src]--;
					lcnt[N + p->flows[f].dst]--;
					nact--;
				}
			}
			lcap[bl] = 0;
			lcnt[bl] = 0; /* external flows of that link are frozen too */
		}
		/* next event */
		for (size_t f = 0; f < F; f++) {
			double t = INFINITY;
			if (state[f] == LAT)
				t = ready[f] + m->alpha_s;
			else if (state[f] == TX)
				t = now + rem[f] / rate[f];
			if (t < next)
				next = t;
		}
		if (!isfinite(next)) { st = REACT_EINVAL; goto fail; } /* cyclic dependencies */
		for (size_t f = 0; f < F; f++)
			if (state[f] == TX)
				rem[f] -= rate[f] * (next - now);
		now = next;
		for (size_t f = 0; f < F; f++) {
			if (state[f] == TX && rem[f] <= 1e-9 * (double)(p->flows[f].bytes + 1)) {
				const size_t *sc;
				size_t ns = react_pattern_succs(p, f, &sc);
				state[f] = DONE;
				nleft--;
				if (fct_out)
					fct_out[f] = now - ready[f];
				/* release successors (those outside the range are SKIP) */
				for (size_t i = 0; i < ns; i++)
					if (state[sc[i]] == WAIT && --npend[sc[i]] == 0) {
						state[sc[i]] = LAT;
						ready[sc[i]] = now;
					}
			}
		}
		for (size_t f = 0; f < F; f++)
			if (state[f] == LAT && ready[f] + m->alpha_s <= now)
				state[f] = TX;
	}
	if (fct_out)
		for (size_t f = 0; f < F; f++)
			if (state[f] == SKIP)
				fct_out[f] = 0;
	*makespan_s = now;
fail:
	free(state);
	free(frozen);
	free(ready);
	free(rem);
	free(rate);
	free(npend);
	free(lcap);
	free(lcnt);
	return st;
}
