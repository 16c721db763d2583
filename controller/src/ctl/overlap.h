/*
 * overlap.h - how many flows share a flow's endpoints while it runs
 * (the "overlap" estimator's degrees; controller-internal).
 *
 * A flow starts once every predecessor (react_pattern_preds) has finished
 * and runs for dur[f].  Its overlap degree at the sender is 1 + the time
 * the sender's other flows run alongside it, over its own duration: two
 * flows of one step that run one after the other (a tree's second child
 * sends once its own subtree is done) count 1 each, not 2.
 */
#ifndef REACT_CTL_OVERLAP_H
#define REACT_CTL_OVERLAP_H

#include "react/pattern.h"

typedef struct react_ovl_ev {
	double t;
	size_t f;
	int end; /* 0: the flow's start, 1: its end */
} react_ovl_ev_t;

/* Workspace for patterns of up to F flows and N ranks (react_ovl_init). */
typedef struct react_ovl {
	size_t F;
	int32_t N;
	size_t *off[2];       /* N + 1: flows of each sender [0] and receiver [1], CSR */
	size_t *idx[2];       /* F */
	react_ovl_ev_t *ev;   /* 2F */
	double *cs, *ce;      /* F: coverage integral at each flow's start and end */
	unsigned char *need[2]; /* N: 1 where the degrees of an endpoint's flows are computed */
} react_ovl_t;

/* w: out, for patterns of F flows and N ranks.  REACT_ENOMEM. */
react_status_t react_ovl_init(react_ovl_t *w, size_t F, int32_t N);
void react_ovl_free(react_ovl_t *w);
/* p: its flows (p->nflows <= w->F, p->nranks <= w->N); dur: each flow's
 * duration (>= 0).  t0: out, each flow's start; dout, din: out, its
 * overlap degrees at the sender and at the receiver (>= 1). */
void react_ovl_degrees(react_ovl_t *w, const react_pattern_t *p, const double *dur, double *t0,
                       double *dout, double *din);
/* The same in two parts, for many timelines of one pattern: the flows of
 * every endpoint (react_ovl_index, once), then the degrees. */
void react_ovl_index(react_ovl_t *w, const react_pattern_t *p);
/* After react_ovl_index: compute the degrees only at the sender of every
 * flow f with only[f] != 0 (dout) and at its receiver (din); the degrees
 * of the other endpoints' flows are left as they were.  An endpoint's
 * degrees depend only on its own flows' times, so those computed are the
 * same as without the restriction.  react_ovl_index lifts it. */
void react_ovl_only(react_ovl_t *w, const react_pattern_t *p, const unsigned char *only);
void react_ovl_degrees_indexed(react_ovl_t *w, const react_pattern_t *p, const double *dur,
                               double *t0, double *dout, double *din);

/* The learned rates' time per byte of a flow whose sender shares its
 * link dout ways and receiver din ways (step shares or overlap degrees),
 * from the fastest time per byte c0, the sender's and receiver's loads x
 * and y and the pair's excess z: react_rates_flow's and
 * react_rates_flow_overlap's arithmetic, for callers too that looked the
 * terms up once. */
static inline double react_rates_time(double c0, double dout, double x, double din, double y,
                                      double z)
{
	double a = dout + x, b = din + y;
	return c0 * ((a > b ? a : b) + z);
}

#endif
