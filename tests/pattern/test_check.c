/* test_check.c - hand-broken patterns fail with the right kind. */
#include <criterion/criterion.h>
#include <string.h>

#include "react/check.h"
#include "react/generators.h"

/* Copy p without flow `drop` (SIZE_MAX: keep all). */
static react_pattern_t *copy_without(const react_pattern_t *p, size_t drop)
{
	react_pattern_t *q = NULL;
	cr_assert_eq(react_pattern_create(p->collective, p->algorithm, p->nranks, p->nchunks,
	                                  p->message_bytes, &q), REACT_OK);
	for (size_t i = 0; i < p->nflows; i++)
		if (i != drop)
			cr_assert_eq(react_pattern_add_flow(q, &p->flows[i]), REACT_OK);
	cr_assert_eq(react_pattern_finalize(q, NULL, 0), REACT_OK);
	return q;
}

Test(check, dropped_flow_is_missing)
{
	react_pattern_t *p = NULL, *q;
	react_check_result_t res;
	cr_assert_eq(react_gen_ring_allreduce(5, 1000, &p), REACT_OK);
	q = copy_without(p, p->nflows - 1); /* last all-gather flow */
	cr_assert_eq(react_pattern_check(q, &res), REACT_ESEMANTIC);
	cr_assert_eq(res.kind, REACT_CHECK_MISSING);
	cr_assert_eq(res.rank, p->flows[p->nflows - 1].dst);
	cr_assert(strstr(res.message, "lacks") != NULL, "%s", res.message);
	react_pattern_destroy(q);
	react_pattern_destroy(p);

	cr_assert_eq(react_gen_recdbl_allgather(8, 1000, &p), REACT_OK);
	q = copy_without(p, 0);
	cr_assert_eq(react_pattern_check(q, &res), REACT_ESEMANTIC);
	cr_assert_eq(res.kind, REACT_CHECK_MISSING);
	cr_assert_eq(res.contribution, 0);
	react_pattern_destroy(q);
	react_pattern_destroy(p);
}

Test(check, reversed_flow_fails)
{
	react_pattern_t *p = NULL;
	react_check_result_t res;
	/* ring AllGather: 0 -> 1 of block 0 at step 0 reversed: 1 holds no block 0 */
	cr_assert_eq(react_gen_ring_allgather(4, 400, &p), REACT_OK);
	p->flows[0].src = 1;
	p->flows[0].dst = 0;
	cr_assert_eq(react_pattern_check(p, &res), REACT_ESEMANTIC);
	cr_assert_eq(res.kind, REACT_CHECK_NO_DATA);
	cr_assert_eq(res.flow, 0);
	cr_assert_eq(res.rank, 1);
	cr_assert_eq(res.chunk, 0);
	react_pattern_destroy(p);

	/* tree AllReduce: a reduce flow reversed */
	cr_assert_eq(react_gen_tree_allreduce(8, 800, &p), REACT_OK);
	react_rank_t s = p->flows[0].src;
	p->flows[0].src = p->flows[0].dst;
	p->flows[0].dst = s;
	cr_assert_eq(react_pattern_check(p, &res), REACT_ESEMANTIC);
	cr_assert(res.kind == REACT_CHECK_MISSING || res.kind == REACT_CHECK_DUPLICATE, "%s", res.message);
	react_pattern_destroy(p);
}

Test(check, reduction_twice_is_duplicate)
{
	react_pattern_t *p = NULL, *q = NULL;
	react_check_result_t res;
	cr_assert_eq(react_gen_ring_allreduce(4, 1000, &p), REACT_OK);
	/* send the step-0 flow 0 -> 1 (chunk 0) again at step 1 as a second flow */
	cr_assert_eq(react_pattern_clone(p, &q), REACT_OK);
	react_flow_t f = p->flows[0];
	f.step = 1;
	cr_assert_eq(react_pattern_add_flow(q, &f), REACT_OK);
	cr_assert_eq(react_pattern_finalize(q, NULL, 0), REACT_OK);
	cr_assert_eq(react_pattern_check(q, &res), REACT_ESEMANTIC);
	cr_assert_eq(res.kind, REACT_CHECK_DUPLICATE);
	cr_assert_eq(res.rank, 1);
	cr_assert_eq(res.chunk, 0);
	cr_assert_eq(res.contribution, 0);
	cr_assert(res.flow != SIZE_MAX);
	cr_assert(strstr(res.message, "second time") != NULL, "%s", res.message);
	react_pattern_destroy(q);
	react_pattern_destroy(p);
}

Test(check, ring_swap_in_one_step_fails)
{
	react_pattern_t *p = NULL;
	react_check_result_t res;
	cr_assert_eq(react_gen_ring_allreduce(6, 6000, &p), REACT_OK);
	/* swap ranks 1 and 2 in step 2 only */
	for (size_t i = react_pattern_step_begin(p, 2); i < react_pattern_step_begin(p, 3); i++) {
		react_flow_t *f = &p->flows[i];
		if (f->src == 1) f->src = 2; else if (f->src == 2) f->src = 1;
		if (f->dst == 1) f->dst = 2; else if (f->dst == 2) f->dst = 1;
	}
	cr_assert_eq(react_pattern_reindex(p), REACT_OK);
	cr_assert_eq(react_pattern_check(p, &res), REACT_ESEMANTIC);
	cr_assert_neq(res.kind, REACT_CHECK_OK);
	react_pattern_destroy(p);

	/* the same swap in every step is a global permutation: still correct */
	cr_assert_eq(react_gen_ring_allreduce(6, 6000, &p), REACT_OK);
	for (size_t i = 0; i < p->nflows; i++) {
		react_flow_t *f = &p->flows[i];
		if (f->src == 1) f->src = 2; else if (f->src == 2) f->src = 1;
		if (f->dst == 1) f->dst = 2; else if (f->dst == 2) f->dst = 1;
	}
	cr_assert_eq(react_pattern_reindex(p), REACT_OK);
	cr_assert_eq(react_pattern_check(p, &res), REACT_OK, "%s", res.message);
	react_pattern_destroy(p);
}

Test(check, shape_and_arguments)
{
	react_pattern_t *p = NULL;
	react_check_result_t res;
	react_checker_t *c = NULL;
	cr_assert_eq(react_pattern_create(REACT_COLL_REDUCESCATTER, REACT_ALGO_CUSTOM, 4, 3, 10, &p), REACT_OK);
	cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
	cr_assert_eq(react_pattern_check(p, &res), REACT_ESEMANTIC);
	cr_assert_eq(res.kind, REACT_CHECK_SHAPE);
	cr_assert_eq(react_checker_create(5, 3, &c), REACT_OK);
	cr_assert_eq(react_checker_run(c, p, &res), REACT_EINVAL);
	react_checker_destroy(c);
	react_pattern_destroy(p);
}

Test(check, broadcast_and_reduce_roots)
{
	react_pattern_t *p = NULL;
	react_check_result_t res;
	/* a chain broadcast from root 2 over 4 ranks: 2->3, 3->0, 0->1 */
	cr_assert_eq(react_pattern_create(REACT_COLL_BROADCAST, REACT_ALGO_CUSTOM, 4, 1, 10, &p), REACT_OK);
	p->root = 2;
	react_flow_t f[3] = {{0, 2, 3, 0, 1, 10, REACT_RECV_STORE}, {1, 3, 0, 0, 1, 10, REACT_RECV_STORE},
	                     {2, 0, 1, 0, 1, 10, REACT_RECV_STORE}};
	for (int i = 0; i < 3; i++)
		cr_assert_eq(react_pattern_add_flow(p, &f[i]), REACT_OK);
	cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
	cr_assert_eq(react_pattern_check(p, &res), REACT_OK, "%s", res.message);
	p->flows[1].step = 0; /* 3 -> 0 in the same step as 2 -> 3: 3 has nothing yet */
	cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
	cr_assert_eq(react_pattern_check(p, &res), REACT_ESEMANTIC);
	cr_assert_eq(res.kind, REACT_CHECK_NO_DATA);
	react_pattern_destroy(p);
}

Test(check, per_graph_and_reuse)
{
	react_pattern_t *p = NULL, *ok = NULL;
	react_check_result_t res;
	react_checker_t *c = NULL;
	cr_assert_eq(react_gen_tree_allreduce(8, 800, &p), REACT_OK);
	cr_assert_eq(react_pattern_clone(p, &ok), REACT_OK);
	/* drop chunk 1 (tree 1) from its first broadcast flow by retargeting it:
	 * the receiver gets the result twice, another rank never */
	size_t b = react_pattern_step_begin(p, p->nsteps / 2);
	size_t i = b;
	while (p->flows[i].chunk != 1)
		i++;
	react_rank_t old = p->flows[i].dst;
	p->flows[i].dst = (old + 1) % 8 == p->flows[i].src ? (old + 2) % 8 : (old + 1) % 8;
	cr_assert_eq(react_pattern_reindex(p), REACT_OK);
	cr_assert_eq(react_checker_create(8, 2, &c), REACT_OK);
	cr_assert_eq(react_checker_run_graph(c, p, 0, &res), REACT_OK, "%s", res.message);
	cr_assert_eq(react_checker_run_graph(c, p, 1, &res), REACT_ESEMANTIC);
	cr_assert_eq(res.chunk, 1);
	cr_assert_eq(react_checker_run(c, p, &res), REACT_ESEMANTIC);
	/* the same checker, a correct pattern: the failed run left nothing behind */
	cr_assert_eq(react_checker_run(c, ok, &res), REACT_OK, "%s", res.message);
	cr_assert_eq(res.kind, REACT_CHECK_OK);
	react_checker_destroy(c);
	react_pattern_destroy(ok);
	react_pattern_destroy(p);
}
