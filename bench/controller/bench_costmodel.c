/*
 * bench-costmodel: the cost of one alpha-beta cost-model evaluation
 * (react_costmodel_eval, the whole pattern) of tree AllReduce, N = 8, 64,
 * 256, 512, and ring AllReduce, N = 8, 16, 32, with one receiver's
 * downlink shared with an external flow; each timed over at least 0.2 s.  Reference in the same run: one semantic
 * check of the same pattern (react_checker_run); the ratio is the
 * evaluation's cost in checks.
 */
#include <stdio.h>
#include <time.h>

#include "react/check.h"
#include "react/costmodel.h"
#include "react/generators.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench(const char *name, int32_t N, int ring)
{
	react_pattern_t *p = NULL;
	react_checker_t *ck = NULL;
	int32_t down[512] = {0};
	double t0, teval, tcheck, mk = 0;
	int reps, rc = 1;
	if ((ring ? react_gen_ring_allreduce : react_gen_tree_allreduce)(N, 64u << 20, &p) ||
	    react_checker_create(N, p->nchunks, &ck))
		goto out;
	down[N / 2 + 1 < N ? N / 2 + 1 : 0] = 1;
	react_costmodel_t m = {4e-6, 8.0 / 100e9, NULL, down};
	t0 = now();
	for (reps = 0; reps < 1000 && now() - t0 < 0.2; reps++)
		react_checker_run(ck, p, NULL);
	tcheck = (now() - t0) / reps;
	t0 = now();
	for (reps = 0; reps < 1000 && now() - t0 < 0.2; reps++)
		if (react_costmodel_eval(&m, p, 0, -1, &mk, NULL))
			goto out;
	teval = (now() - t0) / reps;
	printf("  %-5s N=%-4d flows=%-6zu makespan %9.3f us   eval %10.3f ms   one check %8.3f ms   "
	       "ratio %8.1f checks\n", name, N, p->nflows, 1e6 * mk, 1e3 * teval, 1e3 * tcheck,
	       teval / tcheck);
	rc = 0;
out:
	react_checker_destroy(ck);
	react_pattern_destroy(p);
	return rc;
}

int main(void)
{
	printf("bench-costmodel: one evaluation of the whole pattern, one shared downlink\n");
	const int32_t Nt[] = {8, 64, 256, 512}, Nr[] = {8, 16, 32};
	for (int i = 0; i < 4; i++)
		if (bench("tree", Nt[i], 0))
			return 2;
	for (int i = 0; i < 3; i++)
		if (bench("ring", Nr[i], 1))
			return 2;
	return 0;
}
