/* test_generators.c - every generator is correct for N = 2..64 and has the
 * shape its algorithm promises. */
#include <criterion/criterion.h>

#include "react/check.h"
#include "react/generators.h"

static const struct { react_collective_t c; react_algorithm_t a; } gens[] = {
	{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE}, {REACT_COLL_ALLREDUCE, REACT_ALGO_RING},
	{REACT_COLL_ALLREDUCE, REACT_ALGO_RHD},  {REACT_COLL_ALLGATHER, REACT_ALGO_RING},
	{REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL},
};
#define NGENS (sizeof gens / sizeof gens[0])

static void common_invariants(const react_pattern_t *p)
{
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *f = &p->flows[i];
		cr_assert(f->src != f->dst);
		cr_assert(f->bytes >= 1);
		if (i)
			cr_assert(f->step >= p->flows[i - 1].step);
	}
	/* steps start at 0 and are contiguous: no empty step */
	for (react_step_t t = 0; t < p->nsteps; t++)
		cr_assert(react_pattern_step_begin(p, t + 1) > react_pattern_step_begin(p, t),
		          "%s/%s N=%d: step %d is empty", react_collective_name(p->collective),
		          react_algorithm_name(p->algorithm), p->nranks, t);
}

Test(generators, all_pass_check_2_to_64)
{
	for (size_t g = 0; g < NGENS; g++)
		for (int n = 2; n <= 64; n++) {
			react_pattern_t *p = NULL;
			react_check_result_t res;
			cr_assert_eq(react_pattern_generate(gens[g].c, gens[g].a, n, 1000003, &p), REACT_OK);
			common_invariants(p);
			react_status_t st = react_pattern_check(p, &res);
			cr_assert_eq(st, REACT_OK, "%s/%s N=%d: %s", react_collective_name(gens[g].c),
			             react_algorithm_name(gens[g].a), n, res.message);
			/* each chunk graph on its own passes too */
			react_checker_t *c = NULL;
			cr_assert_eq(react_checker_create(p->nranks, p->nchunks, &c), REACT_OK);
			for (int32_t k = 0; k < react_pattern_ngraphs(p); k++)
				cr_assert_eq(react_checker_run_graph(c, p, k, &res), REACT_OK, "graph %d: %s", k,
				             res.message);
			cr_assert_eq(react_checker_run_graph(c, p, react_pattern_ngraphs(p), &res), REACT_EINVAL);
			/* and the checker can be reused */
			cr_assert_eq(react_checker_run(c, p, &res), REACT_OK);
			react_checker_destroy(c);
			react_pattern_destroy(p);
		}
}

Test(generators, requirements_checked)
{
	react_pattern_t *p = NULL;
	cr_assert_eq(react_gen_ring_allreduce(1, 100, &p), REACT_EINVAL);
	cr_assert_eq(react_gen_tree_allreduce(8, 0, &p), REACT_EINVAL);
	cr_assert_eq(react_gen_recdbl_allgather(0, 10, &p), REACT_EINVAL);
	cr_assert_eq(react_gen_rhd_allreduce(-3, 10, &p), REACT_EINVAL);
	cr_assert_eq(react_pattern_generate(REACT_COLL_ALLGATHER, REACT_ALGO_TREE, 8, 100, &p),
	             REACT_EUNSUPPORTED);
	cr_assert_eq(react_pattern_generate(REACT_COLL_BROADCAST, REACT_ALGO_RING, 8, 100, &p),
	             REACT_EUNSUPPORTED);
	cr_assert_null(p);
}

Test(generators, ring_allreduce_shape)
{
	react_pattern_t *p = NULL;
	cr_assert_eq(react_gen_ring_allreduce(4, 1000, &p), REACT_OK);
	cr_assert_eq(p->nsteps, 6);
	cr_assert_eq(p->nflows, 24);
	cr_assert_eq(p->nchunks, 4);
	cr_assert_eq(react_pattern_ngraphs(p), 4);
	/* step 1: 0 -> 1 carries chunk 3 (reduce); step 3: 0 -> 1 carries chunk 1 (store) */
	const size_t *ids;
	cr_assert_eq(react_pattern_rank_out(p, 1, 0, &ids), 1);
	cr_assert_eq(p->flows[ids[0]].chunk, 3);
	cr_assert_eq(p->flows[ids[0]].dst, 1);
	cr_assert_eq(p->flows[ids[0]].op, REACT_RECV_REDUCE);
	cr_assert_eq(react_pattern_rank_out(p, 3, 0, &ids), 1);
	cr_assert_eq(p->flows[ids[0]].chunk, 1);
	cr_assert_eq(p->flows[ids[0]].op, REACT_RECV_STORE);
	cr_assert_eq(p->flows[0].bytes, 250);
	/* predecessor of 1 -> 2 at step 1 (chunk 0) is 0 -> 1 at step 0 */
	const size_t *pr;
	cr_assert_eq(react_pattern_rank_out(p, 1, 1, &ids), 1);
	cr_assert_eq(react_pattern_preds(p, ids[0], &pr), 1);
	cr_assert_eq(p->flows[pr[0]].src, 0);
	cr_assert_eq(p->flows[pr[0]].step, 0);
	react_pattern_destroy(p);
}

Test(generators, tree_allreduce_16_matches_paper)
{
	react_pattern_t *p = NULL;
	cr_assert_eq(react_gen_tree_allreduce(16, 20000000, &p), REACT_OK);
	cr_assert_eq(p->nsteps, 8); /* D = 4 reduce steps, 4 broadcast steps */
	cr_assert_eq(p->nchunks, 2);
	cr_assert_eq(react_pattern_ngraphs(p), 2);
	cr_assert_eq(p->nflows, 4 * 15);
	cr_assert_eq(p->flows[0].bytes, 10000000);
	/* step 0: the leaves of tree 0 (odd ranks) reduce into their parents */
	for (size_t i = react_pattern_step_begin(p, 0); i < react_pattern_step_begin(p, 1); i++)
		if (p->flows[i].chunk == 0)
			cr_assert(p->flows[i].src % 2 == 1 && p->flows[i].op == REACT_RECV_REDUCE);
	/* step 3: 8 -> 0 on tree 0, 7 -> 15 on tree 1; both reduce */
	int seen = 0;
	for (size_t i = react_pattern_step_begin(p, 3); i < react_pattern_step_begin(p, 4); i++) {
		const react_flow_t *f = &p->flows[i];
		if (f->chunk == 0 && f->src == 8 && f->dst == 0)
			seen |= 1;
		if (f->chunk == 1 && f->src == 7 && f->dst == 15)
			seen |= 2;
	}
	cr_assert_eq(seen, 3);
	/* rank 8: inner in tree 0 with in degree 2 at step 2 (from 4, 12) */
	cr_assert_eq(react_pattern_in_degree(p, 2, 8), 2);
	/* a rank sends at most once per tree per reduce step: 2+2+2+1 per 4 steps at most */
	for (react_rank_t r = 0; r < 16; r++) {
		int sent = 0;
		for (react_step_t t = 0; t < 4; t++)
			sent += react_pattern_out_degree(p, t, r);
		cr_assert_eq(sent, r == 0 || r == 15 ? 1 : 2);
	}
	react_pattern_destroy(p);
}

Test(generators, recdbl_and_rhd_shapes)
{
	react_pattern_t *p = NULL;
	cr_assert_eq(react_gen_recdbl_allgather(8, 8000, &p), REACT_OK);
	cr_assert_eq(p->nsteps, 3);
	cr_assert_eq(p->nflows, 24);
	cr_assert_eq(react_pattern_ngraphs(p), 1);
	cr_assert_eq(p->flows[0].bytes, 1000);
	cr_assert_eq(p->flows[p->nflows - 1].bytes, 4000);
	react_pattern_destroy(p);

	/* 6 ranks: EXTRA 4, 5 -> PROXY 0, 1; then 2 doubling steps; then back */
	cr_assert_eq(react_gen_recdbl_allgather(6, 6000, &p), REACT_OK);
	cr_assert_eq(p->nsteps, 4);
	cr_assert_eq(p->nflows, 2 + 8 + 2);
	cr_assert_eq(p->flows[0].src, 4);
	cr_assert_eq(p->flows[0].dst, 0);
	cr_assert_eq(p->flows[p->nflows - 1].bytes, 6000);
	react_pattern_destroy(p);

	cr_assert_eq(react_gen_rhd_allreduce(4, 4000, &p), REACT_OK);
	cr_assert_eq(p->nsteps, 4);
	cr_assert_eq(p->flows[0].chunk, 2);
	cr_assert_eq(p->flows[0].nchunks, 2);
	cr_assert_eq(p->flows[0].bytes, 2000);
	react_pattern_destroy(p);

	cr_assert_eq(react_gen_rhd_allreduce(13, 8000, &p), REACT_OK);
	cr_assert_eq(p->nchunks, 8);
	cr_assert_eq(p->nsteps, 2 * 3 + 2);
	cr_assert_eq(p->flows[0].op, REACT_RECV_REDUCE);
	cr_assert_eq(p->flows[0].nchunks, 8);
	react_pattern_destroy(p);
}

Test(generators, deterministic)
{
	for (size_t g = 0; g < NGENS; g++) {
		react_pattern_t *a = NULL, *b = NULL;
		cr_assert_eq(react_pattern_generate(gens[g].c, gens[g].a, 13, 777, &a), REACT_OK);
		cr_assert_eq(react_pattern_generate(gens[g].c, gens[g].a, 13, 777, &b), REACT_OK);
		cr_assert(react_pattern_equal(a, b));
		cr_assert_eq(react_pattern_hash(a), react_pattern_hash(b));
		react_pattern_destroy(a);
		react_pattern_destroy(b);
	}
}
