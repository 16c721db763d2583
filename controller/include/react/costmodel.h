/*
 * react/costmodel.h - alpha-beta (Hockney) cost model of a pattern on a star.
 *
 * Every rank has an uplink and a downlink of rate 1/beta bytes per second.
 * A flow becomes ready when all its predecessors (react_pattern_preds) have
 * arrived, waits alpha, then sends its bytes at the max-min fair share of its
 * sender's uplink and its receiver's downlink (water-filling, recomputed at
 * every start and end of a transmission).  External traffic is a count of
 * permanent flows per uplink / downlink that take their fair share of that
 * link only.  Deterministic, no randomness.
 */
#ifndef REACT_COSTMODEL_H
#define REACT_COSTMODEL_H

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct react_costmodel {
	double alpha_s;            /* latency per flow, seconds */
	double beta_s_per_byte;    /* seconds per byte on one link */
	const int32_t *ext_up;     /* nranks counts or NULL: permanent flows on rank r's uplink */
	const int32_t *ext_down;   /* nranks counts or NULL: permanent flows on rank r's downlink */
} react_costmodel_t;

/* Makespan (seconds) of the flows of steps [step_begin, step_end) of p;
 * flows outside the range are ignored (and their predecessor relations
 * with them).  step_end < 0 means p->nsteps.  fct_out (may be NULL): p->nflows
 * entries, the completion time (arrival - ready) of every flow in the range,
 * 0 for the others. */
react_status_t react_costmodel_eval(const react_costmodel_t *m, const react_pattern_t *p,
                                    int32_t step_begin, int32_t step_end, double *makespan_s,
                                    double *fct_out);

#ifdef __cplusplus
}
#endif
#endif
