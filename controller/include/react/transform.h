/*
 * react/transform.h - the swapping transforms of section 5.3 and the degree
 * pruning of section 5.3.2.
 *
 * A vertex of the TEN is (t, r), t in 0 .. nsteps: its in-edges are the
 * flows of step t-1 received by r, its out-edges the flows of step t sent
 * by r.
 *   GLOBAL   swap x <-> y in every flow
 *   CHUNK    swap x <-> y in every flow of chunk graph `graph`
 *   POSITION swap vertices (t, x) and (t, y) of chunk graph `graph`: in that
 *            graph, flows of step t with src in {x, y} and flows of step t-1
 *            with dst in {x, y} have x and y exchanged
 */
#ifndef REACT_TRANSFORM_H
#define REACT_TRANSFORM_H

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum react_xform_kind {
	REACT_XF_POSITION = 0, /* highest priority */
	REACT_XF_CHUNK = 1,
	REACT_XF_GLOBAL = 2
} react_xform_kind_t;

typedef struct react_xform {
	react_xform_kind_t kind;
	react_step_t step;   /* POSITION: vertex time t; else ignored */
	react_rank_t x, y;   /* the two ranks exchanged */
	int32_t graph;       /* POSITION, CHUNK: chunk graph; else ignored */
} react_xform_t;

const char *react_xform_kind_name(react_xform_kind_t k); /* "position", "chunk", "global" */

/* Apply in place and reindex (in-out p).  REACT_EINVAL for bad ranks, step
 * or graph.  The result is NOT checked here. */
react_status_t react_xform_apply(react_pattern_t *p, const react_xform_t *x);

/* Degree pruning (5.3.2), evaluated without building the new pattern.
 * Reading chosen: after the swap, at every step, neither swapped rank has an
 * in- or out-degree larger than the larger of the two ranks' degrees at that
 * step before the swap (the rank that held the position); ranks other than
 * x and y are untouched.  Returns 1 when viable.  When viable and `lowers`
 * is not NULL, *lowers = 1 when the swap lowers the degree of vertex
 * (cong_step, cong_rank) (max of its in-degree at cong_step-1 and its
 * out-degree at cong_step): the paper's green candidates. */
int react_xform_viable(const react_pattern_t *p, const react_xform_t *x, react_step_t cong_step,
                       react_rank_t cong_rank, int *lowers);

/* 1 when x lowers the degree of vertex (cong_step, cong_rank), as *lowers
 * of react_xform_viable, whether or not x is viable (0 for a bad x) */
int react_xform_lowers(const react_pattern_t *p, const react_xform_t *x, react_step_t cong_step,
                       react_rank_t cong_rank);

#ifdef __cplusplus
}
#endif
#endif
