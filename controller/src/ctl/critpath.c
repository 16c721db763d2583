/*
 * critpath.c - longest flow chain of a TEN weighted with FCTs (5.4.1).
 */
#include <stdlib.h>

#include "react/critpath.h"

react_status_t react_critpath(const react_pattern_t *p, const double *w, size_t *path,
                              size_t *len, double *total)
{
	react_status_t st = REACT_OK;
	size_t F, best = 0, n = 0;
	double *acc = NULL;
	size_t *from = NULL;

	if (!p || !w || !path || !len || p->nflows == 0)
		return REACT_EINVAL;
	F = p->nflows;
	acc = malloc(F * sizeof *acc);
	from = malloc(F * sizeof *from);
	if (!acc || !from) { st = REACT_ENOMEM; goto fail; }
	/* flows are sorted by step and predecessors have smaller steps */
	for (size_t f = 0; f < F; f++) {
		const size_t *pr;
		size_t np = react_pattern_preds(p, f, &pr);
		double m = 0;
		from[f] = SIZE_MAX;
		for (size_t i = 0; i < np; i++)
			if (from[f] == SIZE_MAX || acc[pr[i]] > m ||
			    (acc[pr[i]] == m && pr[i] < from[f])) {
				m = acc[pr[i]];
				from[f] = pr[i];
			}
		acc[f] = w[f] + m;
		if (acc[f] > acc[best])
			best = f;
	}
	for (size_t f = best; f != SIZE_MAX; f = from[f])
		n++;
	*len = n;
	for (size_t f = best, i = n; f != SIZE_MAX; f = from[f])
		path[--i] = f;
	if (total)
		*total = acc[best];
fail:
	free(acc);
	free(from);
	return st;
}
