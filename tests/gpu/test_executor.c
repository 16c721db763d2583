/* The executor on the host transport: every generator, N = 2..16, checked. */
#include <criterion/criterion.h>
#include <math.h>

#include "react/generators.h"
#include "react/rt.h"

static react_rt_t *mkrt(int32_t n, uint64_t maxb, react_dtype_t dt)
{
	react_rt_cfg_t cfg;
	react_rt_cfg_default(&cfg);
	cfg.transport = REACT_TRANSPORT_HOST;
	cfg.nranks = n;
	cfg.max_bytes = maxb;
	cfg.dtype = dt;
	cfg.timeout_s = 20;
	react_rt_t *rt = NULL;
	char err[256];
	react_status_t st = react_rt_create(&cfg, &rt, err, sizeof err);
	cr_assert_eq(st, REACT_OK, "create: %s", err);
	return rt;
}

static void run_checked(react_rt_t *rt, const react_pattern_t *p)
{
	cr_assert_eq(react_rt_fill(rt, p), REACT_OK, "%s", react_rt_error(rt));
	const react_rt_times_t *t = NULL;
	react_status_t st = react_rt_run(rt, p, &t);
	cr_assert_eq(st, REACT_OK, "run %s/%s N=%d: %s", react_collective_name(p->collective),
	             react_algorithm_name(p->algorithm), p->nranks, react_rt_error(rt));
	uint64_t wrong = 1;
	cr_assert_eq(react_rt_check(rt, p, &wrong), REACT_OK);
	cr_assert_eq(wrong, 0, "%s/%s N=%d S=%llu: %llu wrong elements",
	             react_collective_name(p->collective), react_algorithm_name(p->algorithm),
	             p->nranks, (unsigned long long)p->message_bytes, (unsigned long long)wrong);
	cr_assert_eq(t->nflows, p->nflows);
	for (size_t f = 0; f < p->nflows; f++)
		cr_assert(t->fct_s[f] > 0 && isfinite(t->fct_s[f]), "flow %zu fct %g", f, t->fct_s[f]);
	cr_assert(t->epoch_s > 0);
}

static const struct { react_collective_t c; react_algorithm_t a; } gens[] = {
	{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE},
	{REACT_COLL_ALLREDUCE, REACT_ALGO_RING},
	{REACT_COLL_ALLREDUCE, REACT_ALGO_RHD},
	{REACT_COLL_ALLGATHER, REACT_ALGO_RING},
	{REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL},
};

Test(gpu_executor, every_generator_2_to_16)
{
	for (int32_t n = 2; n <= 16; n++) {
		/* sizes: a multiple of n*chunks elements, and an odd one for allreduce */
		react_rt_t *rt = mkrt(n, 4 * 4096 * 16 + 64, REACT_DT_F32);
		for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
			uint64_t sizes[] = {4ull * 4096 * (uint64_t)n, 4ull * 3 * (uint64_t)n};
			for (int k = 0; k < 2; k++) {
				react_pattern_t *p = NULL;
				cr_assert_eq(react_pattern_generate(gens[g].c, gens[g].a, n, sizes[k], &p), REACT_OK);
				run_checked(rt, p);
				react_pattern_destroy(p);
			}
		}
		react_rt_destroy(rt);
	}
}

Test(gpu_executor, odd_sizes_allreduce)
{
	/* counts that do not divide: chunk ranges of unequal (and empty) length */
	react_rt_t *rt = mkrt(7, 4096, REACT_DT_F32);
	uint64_t sizes[] = {4, 12, 28, 4 * 101, 4 * 997};
	for (int k = 0; k < 5; k++)
		for (int a = 0; a < 3; a++) {
			react_pattern_t *p = NULL;
			cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, gens[a].a, 7, sizes[k], &p), REACT_OK);
			run_checked(rt, p);
			react_pattern_destroy(p);
		}
	react_rt_destroy(rt);
}

Test(gpu_executor, half_types)
{
	react_dtype_t dts[] = {REACT_DT_F16, REACT_DT_BF16};
	for (int d = 0; d < 2; d++) {
		react_rt_t *rt = mkrt(13, 2 * 13 * 512, dts[d]);
		for (int a = 0; a < 3; a++) {
			react_pattern_t *p = NULL;
			cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, gens[a].a, 13, 2 * 13 * 512, &p),
			             REACT_OK);
			run_checked(rt, p);
			react_pattern_destroy(p);
		}
		react_rt_destroy(rt);
	}
}

Test(gpu_executor, check_detects_a_broken_pattern)
{
	/* drop the last flow of a ring: the runtime still runs it, and the
	 * output check must see the damage */
	react_rt_t *rt = mkrt(4, 4096, REACT_DT_F32);
	react_pattern_t *p = NULL, *q = NULL;
	cr_assert_eq(react_gen_ring_allreduce(4, 4096, &p), REACT_OK);
	cr_assert_eq(react_pattern_create(p->collective, p->algorithm, 4, p->nchunks, 4096, &q), REACT_OK);
	for (size_t f = 0; f + 1 < p->nflows; f++)
		cr_assert_eq(react_pattern_add_flow(q, &p->flows[f]), REACT_OK);
	cr_assert_eq(react_pattern_finalize(q, NULL, 0), REACT_OK);
	cr_assert_eq(react_rt_fill(rt, q), REACT_OK);
	cr_assert_eq(react_rt_run(rt, q, NULL), REACT_OK, "%s", react_rt_error(rt));
	uint64_t wrong = 0;
	cr_assert_eq(react_rt_check(rt, q, &wrong), REACT_OK);
	/* one rank lacks the last step's chunk (256 elements); an element whose
	 * stale value happens to equal the sum goes unnoticed */
	cr_assert(wrong > 128 && wrong <= 1024 / 4, "one rank misses one chunk: %llu",
	          (unsigned long long)wrong);
	react_pattern_destroy(p);
	react_pattern_destroy(q);
	react_rt_destroy(rt);
}

Test(gpu_executor, deterministic_times_and_slow_link)
{
	react_rt_t *rt = mkrt(8, 1 << 20, REACT_DT_F32);
	react_pattern_t *p = NULL;
	cr_assert_eq(react_gen_ring_allreduce(8, 1 << 20, &p), REACT_OK);
	cr_assert_eq(react_rt_fill(rt, p), REACT_OK);
	const react_rt_times_t *t;
	cr_assert_eq(react_rt_run(rt, p, &t), REACT_OK);
	double e1 = t->epoch_s, f0 = t->fct_s[0];
	cr_assert_eq(react_rt_fill(rt, p), REACT_OK);
	cr_assert_eq(react_rt_run(rt, p, &t), REACT_OK);
	cr_assert_eq(t->epoch_s, e1, "virtual time is deterministic: %.9g vs %.9g", t->epoch_s, e1);
	cr_assert_eq(t->fct_s[0], f0);
	/* 1 MiB / 8 per flow at 10 GB/s + 5 us */
	cr_assert_float_eq(f0, 5e-6 + (double)(1 << 17) / 10e9, 1e-9);
	/* slow the link of flow 0 tenfold: that flow, and the epoch, take longer */
	react_rank_t s = p->flows[0].src, d = p->flows[0].dst;
	cr_assert_eq(react_rt_set_link(rt, s, d, 5e-6, 1e9), REACT_OK);
	cr_assert_eq(react_rt_fill(rt, p), REACT_OK);
	cr_assert_eq(react_rt_run(rt, p, &t), REACT_OK);
	cr_assert_float_eq(t->fct_s[0], 5e-6 + (double)(1 << 17) / 1e9, 1e-9);
	cr_assert(t->epoch_s > e1 * 1.5, "epoch %.3g vs %.3g", t->epoch_s, e1);
	uint64_t wrong = 1;
	cr_assert_eq(react_rt_check(rt, p, &wrong), REACT_OK);
	cr_assert_eq(wrong, 0);
	react_pattern_destroy(p);
	react_rt_destroy(rt);
}

Test(gpu_executor, pattern_switch_mid_run)
{
	react_rt_t *rt = mkrt(6, 6 * 4096, REACT_DT_F32);
	react_pattern_t *a = NULL, *b = NULL;
	cr_assert_eq(react_gen_ring_allreduce(6, 6 * 4096, &a), REACT_OK);
	cr_assert_eq(react_gen_tree_allreduce(6, 6 * 4096, &b), REACT_OK);
	for (int e = 0; e < 8; e++) {
		const react_pattern_t *p = e < 3 || e == 6 ? a : b;
		run_checked(rt, p);
	}
	react_rt_stats_t s;
	react_rt_stats(rt, &s);
	cr_assert_eq(s.plans_compiled, 2, "plans are cached across switches: %lld",
	             (long long)s.plans_compiled);
	react_pattern_destroy(a);
	react_pattern_destroy(b);
	react_rt_destroy(rt);
}

Test(gpu_executor, rejects_what_it_cannot_run)
{
	react_rt_t *rt = mkrt(4, 1024, REACT_DT_F32);
	react_pattern_t *p = NULL;
	cr_assert_eq(react_gen_ring_allreduce(4, 4096, &p), REACT_OK);
	cr_assert_eq(react_rt_run(rt, p, NULL), REACT_EUNSUPPORTED);
	cr_assert(strstr(react_rt_error(rt), "max_bytes") != NULL, "%s", react_rt_error(rt));
	react_pattern_destroy(p);
	cr_assert_eq(react_gen_ring_allreduce(5, 1000, &p), REACT_OK);
	cr_assert_eq(react_rt_run(rt, p, NULL), REACT_EINVAL);
	react_pattern_destroy(p);
	react_rt_destroy(rt);
}
