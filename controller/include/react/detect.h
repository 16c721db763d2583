/*
 * react/detect.h - congestion detection of section 5.2.
 *
 * For every flow f, b_f = bytes / FCT over the B epochs of a batch.
 *   steady:  p90(b_f) < (1 - delta_1) x mean of b over every flow with the
 *            same degree k_f (react_pattern_flow_degree) and every epoch
 *   erratic: std(b_f) / mean(b_f) > delta_2 (sample std; 0 when B < 2)
 * A flow that is both is reported steady (the more severe kind).
 */
#ifndef REACT_DETECT_H
#define REACT_DETECT_H

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum react_cong {
	REACT_CONG_NONE = 0,
	REACT_CONG_STEADY = 1,
	REACT_CONG_ERRATIC = 2
} react_cong_t;

const char *react_cong_name(react_cong_t c); /* "none", "steady", "erratic" */

/* p: the pattern that ran (input).  fct: B rows of p->nflows FCTs in seconds,
 * row-major, each > 0 (input).  out: p->nflows verdicts (output).
 * Returns the number of congested flows through *ncongested (may be NULL).
 * REACT_EINVAL on B < 1, a non-positive FCT or thresholds out of range. */
react_status_t react_detect(const react_pattern_t *p, const double *fct, int B, double delta1,
                            double delta2, react_cong_t *out, size_t *ncongested);

#ifdef __cplusplus
}
#endif
#endif
