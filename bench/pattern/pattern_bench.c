/* pattern_bench.c - generate + verify cost of the generators.
 *
 * For each generator and N = 8, 64, 512, 1024: wall time of generation
 * (including the derived index) and of the semantic check, and the peak RSS
 * of the process so far (getrusage ru_maxrss).  The reference measured in
 * the same run is a plain copy of the pattern's flow array (malloc + memcpy
 * + free): the ratio says how many flow-array copies generate + verify cost.
 * The last line is the target for ring AllReduce at N = 1024 (~2.1M flows):
 * < 2 s and < 500 MB, PASS or FAIL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "react/check.h"
#include "react/generators.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double peak_mb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0; /* KiB on Linux */
}

int main(void)
{
	static const struct { react_collective_t c; react_algorithm_t a; } g[] = {
		{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE},
		{REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL},
		{REACT_COLL_ALLREDUCE, REACT_ALGO_RHD},
		{REACT_COLL_ALLREDUCE, REACT_ALGO_RING},
	};
	static const int sizes[] = {8, 64, 512, 1024};
	double ring1024_s = -1, ring1024_mb = -1;
	int rc = 0;

	printf("%-18s %6s %9s %7s %10s %10s %10s %9s %10s\n", "pattern", "N", "flows", "steps", "gen_s",
	       "check_s", "ref_copy_s", "ratio", "peak_MB");
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
		for (size_t k = 0; k < sizeof g / sizeof g[0]; k++) {
			react_pattern_t *p = NULL;
			react_check_result_t res;
			double t0, t1, t2, t3, t4;
			react_flow_t *copy;
			t0 = now();
			if (react_pattern_generate(g[k].c, g[k].a, sizes[si], 20000000, &p) != REACT_OK) {
				fprintf(stderr, "generation failed\n");
				return 1;
			}
			t1 = now();
			if (react_pattern_check(p, &res) != REACT_OK) {
				fprintf(stderr, "check failed: %s\n", res.message);
				rc = 1;
			}
			t2 = now();
			t3 = now();
			copy = malloc(p->nflows * sizeof *copy);
			if (!copy)
				return 1;
			memcpy(copy, p->flows, p->nflows * sizeof *copy);
			__asm__ volatile("" : : "r"(copy) : "memory");
			free(copy);
			t4 = now();
			char name[32];
			snprintf(name, sizeof name, "%s/%s", react_collective_name(g[k].c),
			         react_algorithm_name(g[k].a));
			printf("%-18s %6d %9zu %7d %10.4f %10.4f %10.6f %9.1f %10.1f\n", name, sizes[si],
			       p->nflows, p->nsteps, t1 - t0, t2 - t1, t4 - t3,
			       (t2 - t0) / (t4 - t3 > 1e-9 ? t4 - t3 : 1e-9), peak_mb());
			if (g[k].a == REACT_ALGO_RING && sizes[si] == 1024) {
				ring1024_s = t2 - t0;
				ring1024_mb = peak_mb();
			}
			react_pattern_destroy(p);
		}
	printf("target: allreduce/ring N=1024 generate+verify %.3f s (< 2 s), peak RSS %.1f MB (< 500 MB): %s\n",
	       ring1024_s, ring1024_mb, ring1024_s < 2.0 && ring1024_mb < 500.0 ? "PASS" : "FAIL");
	return rc;
}
