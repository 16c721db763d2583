/*
 * react/critpath.h - critical paths of a weighted TEN (section 5.4.1).
 *
 * Flows are the edges; flow g precedes f when react_pattern_preds(f) lists
 * it.  A flow's path weight is its own weight plus the largest path weight of
 * its predecessors; the critical path is the chain ending at the flow of
 * largest path weight, following at each flow its heaviest predecessor (ties:
 * the lowest flow id, so the result is deterministic).
 */
#ifndef REACT_CRITPATH_H
#define REACT_CRITPATH_H

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* w: p->nflows weights (input).  path: room for p->nsteps flow ids (output),
 * listed from the first step to the last; *len its length; *total the sum of
 * its weights (may be NULL).  REACT_EINVAL for an empty pattern. */
react_status_t react_critpath(const react_pattern_t *p, const double *w, size_t *path,
                              size_t *len, double *total);

#ifdef __cplusplus
}
#endif
#endif
