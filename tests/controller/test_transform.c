/* The three transforms and the degree pruning on tree, ring and recursive
 * doubling (Table 1, appendix A.2). */
#include <criterion/criterion.h>

#include "react/check.h"
#include "react/generators.h"
#include "react/transform.h"

static react_pattern_t *gen(react_collective_t c, react_algorithm_t a, int32_t N)
{
	react_pattern_t *p;
	cr_assert_eq(react_pattern_generate(c, a, N, 1 << 20, &p), REACT_OK);
	return p;
}

Test(transform, global_swap_is_safe_and_an_involution)
{
	react_pattern_t *ps[3] = {gen(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 12),
	                          gen(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 7),
	                          gen(REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL, 8)};
	for (int i = 0; i < 3; i++) {
		react_pattern_t *w;
		react_xform_t x = {REACT_XF_GLOBAL, 0, 1, 4, -1};
		int lowers = -1;
		cr_assert_eq(react_pattern_clone(ps[i], &w), REACT_OK);
		cr_assert_eq(react_xform_apply(w, &x), REACT_OK);
		cr_assert(!react_pattern_equal(w, ps[i]));
		cr_assert_eq(react_pattern_check(w, NULL), REACT_OK);
		cr_assert(react_xform_viable(ps[i], &x, 0, 1, &lowers), "global swaps keep every degree");
		cr_assert_eq(lowers, 0);
		cr_assert_eq(react_xform_apply(w, &x), REACT_OK);
		cr_assert(react_pattern_equal(w, ps[i]));
		react_pattern_destroy(w);
		react_pattern_destroy(ps[i]);
	}
}

Test(transform, ring_chunk_and_position_swaps_are_pruned)
{
	/* A.2: inside one chunk graph of a ring, a swap gives a rank two flows
	 * in one step */
	react_pattern_t *p = gen(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 6);
	int viable = 0;
	for (int32_t g = 0; g < react_pattern_ngraphs(p); g++)
		for (react_rank_t y = 1; y < 6; y++) {
			react_xform_t x = {REACT_XF_CHUNK, 0, 0, y, g};
			viable += react_xform_viable(p, &x, 0, 0, NULL);
			for (react_step_t t = 0; t <= p->nsteps; t++) {
				react_xform_t q = {REACT_XF_POSITION, t, 0, y, g};
				react_pattern_t *w;
				int changes;
				cr_assert_eq(react_pattern_clone(p, &w), REACT_OK);
				/* swaps of two idle vertices change nothing and are not counted */
				changes = react_xform_apply(w, &q) == REACT_OK && !react_pattern_equal(w, p);
				viable += changes && react_xform_viable(p, &q, t, 0, NULL);
				react_pattern_destroy(w);
			}
		}
	cr_assert_eq(viable, 0, "%d ring chunk/position swaps passed the degree pruning", viable);
	react_pattern_destroy(p);
}

Test(transform, tree_chunk_swap_only_touches_its_graph)
{
	react_pattern_t *p = gen(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 16), *w;
	react_xform_t x = {REACT_XF_CHUNK, 0, 3, 10, 0};
	size_t changed_other = 0, changed_g = 0;
	cr_assert_eq(react_pattern_ngraphs(p), 2);
	cr_assert_eq(react_pattern_clone(p, &w), REACT_OK);
	cr_assert_eq(react_xform_apply(w, &x), REACT_OK);
	for (size_t f = 0; f < p->nflows; f++) {
		int diff = p->flows[f].src != w->flows[f].src || p->flows[f].dst != w->flows[f].dst;
		if (react_pattern_flow_graph(p, f) == 0)
			changed_g += diff;
		else
			changed_other += diff;
	}
	cr_assert_gt(changed_g, 0u);
	cr_assert_eq(changed_other, 0u);
	cr_assert_eq(react_pattern_check(w, NULL), REACT_OK, "a chunk-local permutation keeps AllReduce");
	react_pattern_destroy(w);
	react_pattern_destroy(p);
}

Test(transform, position_swap_relabels_one_vertex)
{
	react_pattern_t *p = gen(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 16), *w;
	/* the vertex (t, 3) where rank 3 receives two flows in one graph */
	react_step_t t = -1;
	int32_t g = -1;
	for (size_t f = 0; f < p->nflows && t < 0; f++) {
		const size_t *ids;
		if (p->flows[f].dst == 3 && react_pattern_rank_in(p, p->flows[f].step, 3, &ids) == 2) {
			t = p->flows[f].step + 1;
			g = react_pattern_flow_graph(p, f);
		}
	}
	cr_assert_geq(t, 1, "rank 3 never receives two flows");
	for (react_rank_t y = 0; y < 16; y++) {
		react_xform_t x = {REACT_XF_POSITION, t, 3, y, g};
		if (y == 3)
			continue;
		cr_assert_eq(react_pattern_clone(p, &w), REACT_OK);
		if (react_xform_apply(w, &x) == REACT_OK) {
			for (size_t f = 0; f < p->nflows; f++) {
				int moved = p->flows[f].src != w->flows[f].src || p->flows[f].dst != w->flows[f].dst;
				if (moved) {
					cr_assert_eq(react_pattern_flow_graph(p, f), g);
					cr_assert(p->flows[f].step == t || p->flows[f].step == t - 1);
				}
			}
			cr_assert_eq(react_pattern_in_degree(w, t - 1, 3) + react_pattern_in_degree(w, t - 1, y),
			             react_pattern_in_degree(p, t - 1, 3) + react_pattern_in_degree(p, t - 1, y));
		}
		react_pattern_destroy(w);
	}
	react_pattern_destroy(p);
}
