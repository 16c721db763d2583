/* Position-equivalent sets: the fast algorithm gives the brute-force sets. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "react/check.h"
#include "react/equiv.h"
#include "react/generators.h"
#include "react/transform.h"
#include "test_env.h"

static void compare(react_collective_t c, react_algorithm_t a, int32_t N)
{
	react_pattern_t *p;
	react_equiv_t *b, *f;
	react_status_t st = react_pattern_generate(c, a, N, 1 << 16, &p);
	if (st == REACT_EINVAL || st == REACT_EUNSUPPORTED)
		return; /* e.g. recursive doubling needs a power of two */
	cr_assert_eq(st, REACT_OK);
	cr_assert_eq(react_equiv_brute(p, &b), REACT_OK);
	cr_assert_eq(react_equiv_fast(p, &f), REACT_OK);
	cr_assert(react_equiv_same(b, f), "%s %s N=%d: sets differ", react_collective_name(c),
	          react_algorithm_name(a), N);
	react_equiv_destroy(b);
	react_equiv_destroy(f);
	react_pattern_destroy(p);
}

#define SWEEP(name, c, a, maxn)                                   \
	Test(equiv, name, .timeout = 120 * REACT_TEST_TIME_SCALE)                         \
	{                                                         \
		for (int32_t N = 2; N <= (maxn); N++)             \
			compare(c, a, N);                         \
	}

SWEEP(tree_allreduce, REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, REACT_TEST_EQUIV_MAXN)
SWEEP(ring_allreduce, REACT_COLL_ALLREDUCE, REACT_ALGO_RING, REACT_TEST_EQUIV_MAXN)
SWEEP(ring_allgather, REACT_COLL_ALLGATHER, REACT_ALGO_RING, REACT_TEST_EQUIV_MAXN)
SWEEP(recdbl_allgather, REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL, REACT_TEST_EQUIV_MAXN)
SWEEP(rhd_allreduce, REACT_COLL_ALLREDUCE, REACT_ALGO_RHD, REACT_TEST_EQUIV_MAXN)

Test(equiv, tree_sets_are_nontrivial)
{
	react_pattern_t *p;
	react_equiv_t *e;
	cr_assert_eq(react_gen_tree_allreduce(16, 1 << 16, &p), REACT_OK);
	cr_assert_eq(react_equiv_fast(p, &e), REACT_OK);
	cr_assert_gt(react_equiv_nontrivial(e), 0u);
	react_equiv_destroy(e);
	react_pattern_destroy(p);
}

/* ---- patterns the generators do not make: Reduce, ReduceScatter, extra
 * flows (an intermediate set later overwritten by a STORE), STORE and REDUCE
 * into one rank in one step, and patterns moved by passing swaps ---- */

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void compare_p(const react_pattern_t *p, const char *what)
{
	react_equiv_t *b, *f;
	cr_assert_eq(react_pattern_check(p, NULL), REACT_OK);
	cr_assert_eq(react_equiv_brute(p, &b), REACT_OK);
	cr_assert_eq(react_equiv_fast(p, &f), REACT_OK);
	cr_assert(react_equiv_same(b, f), "%s N=%d: sets differ", what, p->nranks);
	react_equiv_destroy(b);
	react_equiv_destroy(f);
}

/* Apply up to n random position swaps that pass the check. */
static void wander(react_pattern_t *p, uint64_t *s, int n)
{
	int32_t G = react_pattern_ngraphs(p);
	for (int i = 0; i < 8 * n && n > 0; i++) {
		react_xform_t x = {REACT_XF_POSITION, (react_step_t)(rnd(s) % (uint64_t)(p->nsteps + 1)),
		                   (react_rank_t)(rnd(s) % (uint64_t)p->nranks),
		                   (react_rank_t)(rnd(s) % (uint64_t)p->nranks),
		                   (int32_t)(rnd(s) % (uint64_t)G)};
		if (x.x == x.y || react_xform_apply(p, &x) != REACT_OK)
			continue;
		if (react_pattern_check(p, NULL) == REACT_OK)
			n--;
		else
			cr_assert_eq(react_xform_apply(p, &x), REACT_OK);
	}
}

/* Chunk 0 of tree 0 reduced to its root (rank 0), as a Reduce. */
static react_pattern_t *tree_reduce(int32_t N)
{
	react_pattern_t *t, *p;
	cr_assert_eq(react_gen_tree_allreduce(N, 1 << 16, &t), REACT_OK);
	cr_assert_eq(react_pattern_create(REACT_COLL_REDUCE, REACT_ALGO_CUSTOM, N, 1, 1 << 16, &p),
	             REACT_OK);
	p->root = 0;
	for (size_t i = 0; i < t->nflows; i++)
		if (t->flows[i].chunk == 0 && t->flows[i].op == REACT_RECV_REDUCE)
			cr_assert_eq(react_pattern_add_flow(p, &t->flows[i]), REACT_OK);
	cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
	react_pattern_destroy(t);
	return p;
}

/* Ring ReduceScatter: chunk c starts at rank c + 1 and ends complete at c. */
static react_pattern_t *ring_reducescatter(int32_t N)
{
	react_pattern_t *p;
	cr_assert_eq(react_pattern_create(REACT_COLL_REDUCESCATTER, REACT_ALGO_CUSTOM, N, N, 1 << 16, &p),
	             REACT_OK);
	for (int32_t s = 0; s < N - 1; s++)
		for (int32_t c = 0; c < N; c++) {
			react_flow_t f = {s, (c + 1 + s) % N, (c + 2 + s) % N, c, 1, 1024, REACT_RECV_REDUCE};
			cr_assert_eq(react_pattern_add_flow(p, &f), REACT_OK);
		}
	cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
	return p;
}

Test(equiv, reduce_and_reducescatter, .timeout = 120 * REACT_TEST_TIME_SCALE)
{
	uint64_t s = 7;
	for (int32_t N = 2; N <= 24; N++) {
		react_pattern_t *p = tree_reduce(N), *q = ring_reducescatter(N);
		compare_p(p, "tree reduce");
		compare_p(q, "ring reducescatter");
		wander(p, &s, 3);
		wander(q, &s, 3);
		compare_p(p, "tree reduce, swapped");
		compare_p(q, "ring reducescatter, swapped");
		react_pattern_destroy(p);
		react_pattern_destroy(q);
	}
}

Test(equiv, allreduce_moved_by_swaps, .timeout = 120 * REACT_TEST_TIME_SCALE)
{
	const react_algorithm_t algs[] = {REACT_ALGO_TREE, REACT_ALGO_RING, REACT_ALGO_RHD};
	uint64_t s = 11;
	for (int a = 0; a < 3; a++)
		for (int32_t N = 3; N <= 16; N++)
			for (int rep = 0; rep < 3; rep++) {
				react_pattern_t *p;
				if (react_pattern_generate(REACT_COLL_ALLREDUCE, algs[a], N, 1 << 16, &p) != REACT_OK)
					continue;
				wander(p, &s, 2 + rep * 3);
				compare_p(p, react_algorithm_name(algs[a]));
				react_pattern_destroy(p);
			}
}

/* Extra flows that keep the pattern correct: their sets are overwritten by
 * a later STORE, or they STORE/REDUCE next to other receipts of the step. */
Test(equiv, allreduce_with_extra_flows, .timeout = 120 * REACT_TEST_TIME_SCALE)
{
	uint64_t s = 5;
	int kept = 0;
	for (int iter = 0; iter < 4000 && kept < 150; iter++) {
		int32_t N = 3 + (int32_t)(rnd(&s) % 8);
		int extra = 1 + (int)(rnd(&s) % 3);
		react_pattern_t *t, *p;
		cr_assert_eq(react_gen_tree_allreduce(N, 1 << 16, &t), REACT_OK);
		cr_assert_eq(react_pattern_create(REACT_COLL_ALLREDUCE, REACT_ALGO_CUSTOM, N, 2, 1 << 16, &p),
		             REACT_OK);
		for (size_t i = 0; i < t->nflows; i++)
			cr_assert_eq(react_pattern_add_flow(p, &t->flows[i]), REACT_OK);
		for (int e = 0; e < extra; e++) {
			react_flow_t f = {(react_step_t)(rnd(&s) % (uint64_t)t->nsteps),
			                  (react_rank_t)(rnd(&s) % (uint64_t)N), (react_rank_t)(rnd(&s) % (uint64_t)N),
			                  (int32_t)(rnd(&s) % 2), 1, 1024,
			                  (rnd(&s) & 1) ? REACT_RECV_STORE : REACT_RECV_REDUCE};
			if (f.src == f.dst)
				f.dst = (f.dst + 1) % N;
			cr_assert_eq(react_pattern_add_flow(p, &f), REACT_OK);
		}
		cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
		if (react_pattern_check(p, NULL) == REACT_OK) {
			kept++;
			compare_p(p, "tree with extra flows");
			wander(p, &s, 2);
			compare_p(p, "tree with extra flows, swapped");
		}
		react_pattern_destroy(p);
		react_pattern_destroy(t);
	}
	cr_assert_gt(kept, 20);
}
