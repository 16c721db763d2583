/*
 * stats.c - mean, standard errors and signs for comparing two runs (see
 * react/stats.h).
 */
#include <math.h>

#include "react/stats.h"

void react_stats_mean_se(const double *x, size_t n, double *mean, double *se)
{
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	double m = n ? sum / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		sq += (x[i] - m) * (x[i] - m);
	*mean = m;
	*se = n > 1 ? sqrt(sq / (double)(n - 1) / (double)n) : 0;
}

double react_stats_impr_se_pct(double b, double sb, double r, double sr)
{
	if (!(b > 0) || !(r > 0))
		return 0;
	return 100 * (r / b) * sqrt((sb / b) * (sb / b) + (sr / r) * (sr / r));
}

int react_stats_sign(double x, double band)
{
	return x > band ? 1 : x < -band ? -1 : 0;
}
