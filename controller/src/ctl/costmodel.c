/*
 * costmodel.c - alpha-beta (Hockney) model of a pattern on a star, with
 * max-min fair sharing (water-filling) of every rank's uplink and downlink.
 *
 * Event loop: a flow is READY when its last predecessor arrives (flows
 * without predecessors at time 0), TRANSMITTING from ready + alpha, DONE
 * when its bytes are through.  Rates are recomputed by water-filling at
 * every start and end of a transmission.
 *
 * An event costs about the flows that are active (transmitting or waiting
 * out their latency), not all flows: those two sets are kept as lists, and
 * every event links each transmitting flow into the lists of its two links,
 * so that a water-filling round freezes the bottleneck's flows without a
 * scan of the others.  The numbers are those of the plain formulation
 * (every flow scanned for every bottleneck and for the next event, kept in
 * tests/controller/test_costmodel.c as the reference), to the bit:
 *   - the bottleneck is the first link, in link order, with the smallest
 *     lcap / lcnt, among the links that carry a transmitting flow; a link
 *     that carries none freezes no flow and changes no other link when it
 *     is the bottleneck, so leaving it out changes no rate;
 *   - within one round every subtraction from a link's capacity subtracts
 *     the same share, so the order of the flows in a link's list does not
 *     change lcap; the rounds come in the same order;
 *   - the next event is a minimum, the remaining bytes, completion test and
 *     release of successors are per flow, none depends on the order in
 *     which the flows are visited.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "react/costmodel.h"

enum { WAIT = 0, LAT, TX, DONE, SKIP };

#define NO_ENTRY SIZE_MAX

static int cmp_link(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

react_status_t react_costmodel_eval(const react_costmodel_t *m, const react_pattern_t *p,
                                    int32_t step_begin, int32_t step_end, double *makespan_s,
                                    double *fct_out)
{
	react_status_t st = REACT_OK;
	size_t F, nleft = 0, nlat = 0, ntx = 0;
	int32_t N;
	double now = 0, cap;
	unsigned char *state = NULL, *frozen = NULL, *lmark = NULL;
	double *ready = NULL, *rem = NULL, *rate = NULL, *lcap = NULL;
	int32_t *npend = NULL, *lcnt = NULL, *links = NULL;
	/* lat, tx: the flows waiting out alpha and those transmitting.  A
	 * transmitting flow f is in the list of its uplink as entry 2f and in
	 * that of its downlink as entry 2f + 1: head[l] is the first entry of
	 * link l, next[e] the one after e. */
	size_t *lat = NULL, *tx = NULL, *head = NULL, *next = NULL;

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
	lat = calloc(F + 1, sizeof *lat);
	tx = calloc(F + 1, sizeof *tx);
	next = calloc(2 * F + 1, sizeof *next);
	lcap = calloc(2 * (size_t)N, sizeof *lcap);
	lcnt = calloc(2 * (size_t)N, sizeof *lcnt);
	lmark = calloc(2 * (size_t)N, 1);
	links = calloc(2 * (size_t)N, sizeof *links);
	head = calloc(2 * (size_t)N, sizeof *head);
	if (!state || !frozen || !ready || !rem || !rate || !npend || !lat || !tx || !next || !lcap ||
	    !lcnt || !lmark || !links || !head) {
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
		if (state[f] == LAT)
			lat[nlat++] = f;
		nleft++;
	}
	while (nleft) {
		double tnext = INFINITY;
		size_t nact = ntx, nlinks = 0;
		/* water-filling over the links that carry a transmitting flow
		 * (uplinks 0..N-1, downlinks N..2N-1), in link order */
		for (size_t i = 0; i < ntx; i++) {
			size_t f = tx[i];
			int32_t l2[2] = {p->flows[f].src, N + p->flows[f].dst};
			frozen[f] = 0;
			for (int k = 0; k < 2; k++) {
				int32_t l = l2[k];
				if (!lmark[l]) {
					lmark[l] = 1;
					links[nlinks++] = l;
					lcap[l] = cap;
					lcnt[l] = l < N ? (m->ext_up ? m->ext_up[l] : 0)
					                : (m->ext_down ? m->ext_down[l - N] : 0);
					head[l] = NO_ENTRY;
				}
				lcnt[l]++;
				next[2 * f + (size_t)k] = head[l];
				head[l] = 2 * f + (size_t)k;
			}
		}
		qsort(links, nlinks, sizeof *links, cmp_link);
		while (nact) {
			int32_t bl = -1;
			double bs = INFINITY;
			size_t keep = 0;
			for (size_t i = 0; i < nlinks; i++) {
				int32_t l = links[i];
				if (lcnt[l] <= 0)
					continue; /* saturated: never a candidate again */
				links[keep++] = l;
				if (lcap[l] / lcnt[l] < bs) {
					bs = lcap[l] / lcnt[l];
					bl = l;
				}
			}
			nlinks = keep;
			if (bl < 0)
				break;
			/* freeze the flows of the bottleneck link (external flows on it
			 * take their share and leave with it) */
			for (size_t e = head[bl]; e != NO_ENTRY; e = next[e]) {
				size_t f = e / 2;
				if (frozen[f])
					continue;
				frozen[f] = 1;
				rate[f] = bs;
				lcap[p->flows[f].src] -= bs;
				lcap[N + p->flows[f].dst] -= bs;
				lcnt[p->flows[f].src]--;
				lcnt[N + p->flows[f].dst]--;
				nact--;
			}
			lcap[bl] = 0;
			lcnt[bl] = 0; /* external flows of that link are frozen too */
		}
		for (size_t i = 0; i < ntx; i++) {
			lmark[p->flows[tx[i]].src] = 0;
			lmark[N + p->flows[tx[i]].dst] = 0;
		}
		/* next event */
		for (size_t i = 0; i < nlat; i++) {
			double t = ready[lat[i]] + m->alpha_s;
			if (t < tnext)
				tnext = t;
		}
		for (size_t i = 0; i < ntx; i++) {
			double t = now + rem[tx[i]] / rate[tx[i]];
			if (t < tnext)
				tnext = t;
		}
		if (!isfinite(tnext)) { st = REACT_EINVAL; goto fail; } /* cyclic dependencies */
		for (size_t i = 0; i < ntx; i++)
			rem[tx[i]] -= rate[tx[i]] * (tnext - now);
		now = tnext;
		/* completions; the released successors wait out alpha */
		size_t keep = 0;
		for (size_t i = 0; i < ntx; i++) {
			size_t f = tx[i];
			if (rem[f] <= 1e-9 * (double)(p->flows[f].bytes + 1)) {
				const size_t *sc;
				size_t ns = react_pattern_succs(p, f, &sc);
				state[f] = DONE;
				nleft--;
				if (fct_out)
					fct_out[f] = now - ready[f];
				/* release successors (those outside the range are SKIP) */
				for (size_t j = 0; j < ns; j++)
					if (state[sc[j]] == WAIT && --npend[sc[j]] == 0) {
						state[sc[j]] = LAT;
						ready[sc[j]] = now;
						lat[nlat++] = sc[j];
					}
			} else {
				tx[keep++] = f;
			}
		}
		ntx = keep;
		keep = 0;
		for (size_t i = 0; i < nlat; i++) {
			size_t f = lat[i];
			if (ready[f] + m->alpha_s <= now) {
				state[f] = TX;
				tx[ntx++] = f;
			} else {
				lat[keep++] = f;
			}
		}
		nlat = keep;
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
	free(lat);
	free(tx);
	free(next);
	free(lcap);
	free(lcnt);
	free(lmark);
	free(links);
	free(head);
	return st;
}
