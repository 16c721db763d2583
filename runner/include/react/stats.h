/*
 * react/stats.h - the statistics behind a comparison of two runs: the mean
 * of per-epoch samples with its standard error, the standard error of an
 * improvement in percent, and the sign of a value with a dead band
 * (react compare-backends).  Pure arithmetic over plain arrays.
 */
#ifndef REACT_STATS_H
#define REACT_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Mean and standard error of the mean of x[0..n-1] (in): the sample
 * standard deviation (n - 1 in the denominator) over sqrt(n).  out: *mean
 * and *se; n = 0 gives 0 and 0, n = 1 the value and 0. */
void react_stats_mean_se(const double *x, size_t n, double *mean, double *se);

/* Standard error, in percentage points, of the improvement 100 (r / b - 1)
 * where b and r (in) are independent means with standard errors sb and sr
 * (in), to first order: 100 (r / b) sqrt((sb / b)^2 + (sr / r)^2).
 * 0 when b or r is not > 0. */
double react_stats_impr_se_pct(double b, double sb, double r, double sr);

/* -1, 0 or 1: the sign of x (in), where |x| <= band (in, >= 0) counts as
 * zero.  A NaN x is 0. */
int react_stats_sign(double x, double band);

#ifdef __cplusplus
}
#endif
#endif
