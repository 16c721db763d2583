/*
 * detect.c - steady and erratic congestion (section 5.2), GSL statistics.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "react/detect.h"

const char *react_cong_name(react_cong_t c)
{
	switch (c) {
	case REACT_CONG_NONE: return "none";
	case REACT_CONG_STEADY: return "steady";
	case REACT_CONG_ERRATIC: return "erratic";
	}
	return "?";
}

react_status_t react_detect(const react_pattern_t *p, const double *fct, int B, double delta1,
                            double delta2, react_cong_t *out, size_t *ncongested)
{
	react_status_t st = REACT_OK;
	size_t F, ncong = 0;
	int32_t maxdeg = 0;
	double *b = NULL, *gsum = NULL, *gcnt = NULL;
	int32_t *deg = NULL;

	if (!p || !fct || !out || B < 1 || !(delta1 >= 0 && delta1 <= 1) || !(delta2 >= 0))
		return REACT_EINVAL;
	F = p->nflows;
	for (size_t i = 0; i < F * (size_t)B; i++)
		if (!(fct[i] > 0) || !isfinite(fct[i]))
			return REACT_EINVAL;
	deg = malloc((F ? F : 1) * sizeof *deg);
	b = malloc((size_t)B * sizeof *b);
	if (!deg || !b) { st = REACT_ENOMEM; goto fail; }
	for (size_t f = 0; f < F; f++) {
		deg[f] = react_pattern_flow_degree(p, f);
		if (deg[f] > maxdeg) maxdeg = deg[f];
	}
	gsum = calloc((size_t)maxdeg + 1, sizeof *gsum);
	gcnt = calloc((size_t)maxdeg + 1, sizeof *gcnt);
	if (!gsum || !gcnt) { st = REACT_ENOMEM; goto fail; }
	/* mean of b over every flow of the same degree, every epoch of the batch */
	for (size_t f = 0; f < F; f++)
		for (int e = 0; e < B; e++) {
			gsum[deg[f]] += (double)p->flows[f].bytes / fct[(size_t)e * F + f];
			gcnt[deg[f]] += 1;
		}
	for (size_t f = 0; f < F; f++) {
		double gmean = gsum[deg[f]] / gcnt[deg[f]], p90, mean, sd;
		for (int e = 0; e < B; e++)
			b[e] = (double)p->flows[f].bytes / fct[(size_t)e * F + f];
		mean = gsl_stats_mean(b, 1, (size_t)B);
		sd = B > 1 ? gsl_stats_sd_m(b, 1, (size_t)B, mean) : 0.0;
		gsl_sort(b, 1, (size_t)B);
		p90 = gsl_stats_quantile_from_sorted_data(b, 1, (size_t)B, 0.9);
		if (p90 < gmean * (1.0 - delta1))
			out[f] = REACT_CONG_STEADY;
		else if (mean > 0 && sd / mean > delta2)
			out[f] = REACT_CONG_ERRATIC;
		else
			out[f] = REACT_CONG_NONE;
		if (out[f] != REACT_CONG_NONE)
			ncong++;
	}
	if (ncongested)
		*ncongested = ncong;
fail:
	free(deg);
	free(b);
	free(gsum);
	free(gcnt);
	return st;
}
