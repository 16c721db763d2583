/*
 * fluid.h - a candidate pattern's timeline with its moved flows sharing the
 * network max-min fairly as they run (the "fluid" estimator;
 * controller-internal).
 *
 * A flow starts once every predecessor (react_pattern_preds) has finished.
 * A fixed flow (fixed[f] != 0) runs for dur[f].  Any other flow moves its
 * bytes at its max-min fair rate, found again whenever a flow starts or
 * ends, over three links: its sender's egress and its receiver's ingress,
 * each of one line rate (1 / c0 bytes per second), and its own path, of
 * 1 / (1 + z_f) line rates.  At an endpoint, the fixed flows running there
 * and the rank's load (x_f at the sender, y_f at the receiver: that many
 * flows from outside the pattern) take the fair share at whatever level:
 * they are limited elsewhere only as the observed times say, which the
 * model does not re-time.
 *
 * These are the learned rates of the overlap estimator (react_rates_t:
 * loads in flows, a pair's excess), applied on the timeline the candidate
 * itself makes instead of at overlap degrees counted once.  A flow alone
 * on its endpoints runs in c0 x max(1 + x, 1 + y, 1 + z) per byte, as
 * react_rates_time says; flows that share an endpoint split it as max-min
 * does, so one held back elsewhere (a slow path, a loaded receiver) leaves
 * the rest of the endpoint to the others, where an additive share would
 * slow them all.  Measured against the flow backend's own timeline of a
 * ring AllGather pattern 30 swaps from the one that ran (docs/controller.md,
 * "Timing a candidate as its flows share the network"), the additive
 * counts put most of its uncongested flows at 1.3-2.5 x their time.
 */
#ifndef REACT_CTL_FLUID_H
#define REACT_CTL_FLUID_H

#include "react/pattern.h"

typedef struct react_fluid_ev {
	double t;
	size_t f;
} react_fluid_ev_t;

/* Workspace for patterns of up to F flows and N ranks (react_fluid_init). */
typedef struct react_fluid {
	size_t F;
	int32_t N;
	int32_t *pend;         /* F: predecessors not finished */
	int32_t *nout, *nin;   /* N: flows running at each sender / receiver */
	int32_t *mout, *min;   /* N: moved flows running at each sender / receiver */
	int dirty;             /* the moved flows' rates must be found again: a
	                        * moved flow started or ended, or a fixed one at
	                        * an endpoint a moved flow shares */
	double *rem;           /* F: bytes left of a running moved flow */
	double *tpb;           /* F: its time per byte now */
	size_t *act, nact;     /* the moved flows running */
	react_fluid_ev_t *heap; /* the fixed flows running, by end time */
	size_t nheap;
	size_t *done, ndone;   /* the flows that end at one event */
	/* max-min rates (react_fluid_maxmin): per rank, each side [0] egress,
	 * [1] ingress: capacity taken by settled flows, moved flows not yet
	 * settled, and the weight of the flows that take a fair share there
	 * whatever the level (fixed flows, the load) */
	double *used[2], *wfix[2];
	int32_t *nun[2];
	unsigned char *settled; /* F */
	double *rate;           /* F: a moved flow's rate, in line rates */
} react_fluid_t;

/* w: out, for patterns of F flows and N ranks.  REACT_ENOMEM. */
react_status_t react_fluid_init(react_fluid_t *w, size_t F, int32_t N);
void react_fluid_free(react_fluid_t *w);

/* The timeline of p (p->nflows <= w->F, p->nranks <= w->N).  fixed[f]: 1
 * for a flow that runs dur[f] (>= 0); 0 for one timed by the rates above
 * from its bytes and x[f], y[f], z[f] (>= 0), with c0 > 0.  fin: out, each
 * flow's finish time (may be NULL).  Returns the last finish time (0 for a
 * pattern without flows); *sumfin (may be NULL): the sum of the finish
 * times. */
double react_fluid_run(react_fluid_t *w, const react_pattern_t *p, const unsigned char *fixed,
                       const double *dur, double c0, const double *x, const double *y,
                       const double *z, double *fin, double *sumfin);

#endif
