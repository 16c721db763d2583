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

/* Every index query of a and b agrees (a, b: the same flows). */
static void same_index(const react_pattern_t *a, const react_pattern_t *b, int it)
{
	cr_assert_eq(a->nsteps, b->nsteps);
	cr_assert_eq(react_pattern_ngraphs(a), react_pattern_ngraphs(b), "iteration %d", it);
	for (react_step_t t = 0; t <= a->nsteps; t++)
		cr_assert_eq(react_pattern_step_begin(a, t), react_pattern_step_begin(b, t));
	for (react_step_t t = 0; t < a->nsteps; t++)
		for (react_rank_t r = 0; r < a->nranks; r++) {
			const size_t *ia, *ib;
			size_t na = react_pattern_rank_out(a, t, r, &ia), nb = react_pattern_rank_out(b, t, r, &ib);
			cr_assert_eq(na, nb, "iteration %d: rank %d sends %zu flows at step %d, not %zu", it, r,
			             na, t, nb);
			cr_assert_arr_eq(ia, ib, na * sizeof *ia);
			na = react_pattern_rank_in(a, t, r, &ia);
			nb = react_pattern_rank_in(b, t, r, &ib);
			cr_assert_eq(na, nb, "iteration %d: rank %d receives %zu flows at step %d, not %zu", it,
			             r, na, t, nb);
			cr_assert_arr_eq(ia, ib, na * sizeof *ia);
		}
	for (size_t f = 0; f < a->nflows; f++) {
		const size_t *pa, *pb;
		size_t na = react_pattern_preds(a, f, &pa), nb = react_pattern_preds(b, f, &pb);
		cr_assert_eq(react_pattern_flow_graph(a, f), react_pattern_flow_graph(b, f));
		cr_assert_eq(na, nb, "iteration %d: flow %zu has %zu predecessors, not %zu", it, f, na, nb);
		cr_assert_arr_eq(pa, pb, na * sizeof *pa);
		na = react_pattern_succs(a, f, &pa);
		nb = react_pattern_succs(b, f, &pb);
		cr_assert_eq(na, nb, "iteration %d: flow %zu has %zu successors, not %zu", it, f, na, nb);
		cr_assert_arr_eq(pa, pb, na * sizeof *pa);
	}
}

/* The search copies the pattern under test into one scratch pattern per
 * candidate and relabels it there (react_pattern_copy, react_xform_apply
 * rebuilding the index in place).  That pattern, reused across patterns of
 * other sizes and hundreds of swaps, answers every query exactly as the
 * same flows finalized afresh. */
Test(transform, a_reused_pattern_indexes_like_a_fresh_one)
{
	static const struct { react_collective_t c; react_algorithm_t a; int32_t N; } gens[] = {
		{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 12}, {REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 7},
		{REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL, 8}, {REACT_COLL_ALLREDUCE, REACT_ALGO_RHD, 16},
		{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 5}};
	react_pattern_t *w = NULL;
	unsigned long long seed = 88172645463325252ULL;
	int applied = 0;
	for (int it = 0; it < 400; it++) {
		react_pattern_t *p = gen(gens[it % 5].c, gens[it % 5].a, gens[it % 5].N), *fresh;
		int32_t N = p->nranks;
		if (!w)
			cr_assert_eq(react_pattern_clone(p, &w), REACT_OK);
		else
			cr_assert_eq(react_pattern_copy(w, p), REACT_OK);
		cr_assert(react_pattern_equal(w, p));
		same_index(w, p, it);
		for (int k = 0; k < 3; k++) {
			react_xform_t x;
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			x.kind = (react_xform_kind_t)(seed % 3);
			x.x = (react_rank_t)((seed >> 8) % (unsigned)N);
			x.y = (react_rank_t)((seed >> 24) % (unsigned)N);
			x.graph = (int32_t)((seed >> 40) % (unsigned)react_pattern_ngraphs(w));
			x.step = (react_step_t)((seed >> 48) % (unsigned)(w->nsteps + 1));
			applied += react_xform_apply(w, &x) == REACT_OK && x.x != x.y;
		}
		/* the same flows, finalized from scratch */
		cr_assert_eq(react_pattern_create(w->collective, w->algorithm, w->nranks, w->nchunks,
		                                  w->message_bytes, &fresh), REACT_OK);
		fresh->root = w->root;
		for (size_t f = 0; f < w->nflows; f++)
			cr_assert_eq(react_pattern_add_flow(fresh, &w->flows[f]), REACT_OK);
		cr_assert_eq(react_pattern_finalize(fresh, NULL, 0), REACT_OK);
		cr_assert(react_pattern_equal(w, fresh));
		same_index(w, fresh, it);
		/* and back, into the same memory */
		cr_assert_eq(react_pattern_copy(w, p), REACT_OK);
		cr_assert(react_pattern_equal(w, p));
		same_index(w, p, it);
		react_pattern_destroy(fresh);
		react_pattern_destroy(p);
	}
	cr_assert_gt(applied, 600, "only %d swaps applied", applied);
	react_pattern_destroy(w);
}

/* degree of vertex (t, r): max of its in-degree at t - 1 and out-degree at t */
static int32_t vertex_degree(const react_pattern_t *p, react_step_t t, react_rank_t r)
{
	int32_t in = t > 0 ? react_pattern_in_degree(p, t - 1, r) : 0;
	int32_t out = react_pattern_out_degree(p, t, r);
	return in > out ? in : out;
}

Test(transform, viability_and_lowering_agree_with_the_swapped_pattern)
{
	/* react_xform_viable and react_xform_lowers read the degrees a swap
	 * would give without building the pattern; here every swap of every
	 * kind is built and its degrees read off directly */
	react_pattern_t *ps[4] = {gen(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 12),
	                          gen(REACT_COLL_ALLREDUCE, REACT_ALGO_RHD, 8),
	                          gen(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 6),
	                          gen(REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL, 8)};
	size_t viable = 0, lowering = 0, tried = 0;
	for (int i = 0; i < 4; i++) {
		react_pattern_t *p = ps[i], *w = NULL;
		cr_assert_eq(react_pattern_clone(p, &w), REACT_OK);
		for (int kind = REACT_XF_POSITION; kind <= REACT_XF_GLOBAL; kind++)
		for (int32_t g = 0; g < (kind == REACT_XF_GLOBAL ? 1 : react_pattern_ngraphs(p)); g++)
		for (react_step_t s = 0; s <= (kind == REACT_XF_POSITION ? p->nsteps : 0); s++)
		for (react_rank_t a = 0; a < p->nranks; a++)
		for (react_rank_t b = 0; b < p->nranks; b++) {
			react_xform_t x = {(react_xform_kind_t)kind, s, a, b,
			                   kind == REACT_XF_GLOBAL ? -1 : g};
			react_step_t ct = kind == REACT_XF_POSITION ? s : (react_step_t)(a % p->nsteps);
			int ok = 1, low, vlow = -1, v;
			if (a == b)
				continue;
			cr_assert_eq(react_pattern_copy(w, p), REACT_OK);
			if (react_xform_apply(w, &x) != REACT_OK)
				continue; /* a self-loop: never a candidate */
			for (react_step_t t = 0; t < p->nsteps; t++)
				for (int out = 0; out < 2; out++) {
					int32_t (*deg)(const react_pattern_t *, react_step_t, react_rank_t) =
					    out ? react_pattern_out_degree : react_pattern_in_degree;
					int32_t lim = deg(p, t, a) > deg(p, t, b) ? deg(p, t, a) : deg(p, t, b);
					ok &= deg(w, t, a) <= lim && deg(w, t, b) <= lim;
				}
			low = vertex_degree(w, ct, a) < vertex_degree(p, ct, a);
			v = react_xform_viable(p, &x, ct, a, &vlow);
			cr_assert_eq(v, ok, "%s swap %d-%d (graph %d, step %d) of pattern %d: viable %d, built %d",
			             react_xform_kind_name(x.kind), a, b, g, s, i, v, ok);
			cr_assert_eq(react_xform_lowers(p, &x, ct, a), low,
			             "%s swap %d-%d (graph %d, step %d) of pattern %d: lowers",
			             react_xform_kind_name(x.kind), a, b, g, s, i);
			if (v)
				cr_assert_eq(vlow, low);
			tried++;
			viable += (size_t)ok;
			lowering += (size_t)low;
		}
		react_pattern_destroy(w);
		react_pattern_destroy(p);
	}
	/* both answers occur, so neither can be a constant */
	cr_assert_gt(viable, 100u);
	cr_assert_gt(tried - viable, 100u);
	cr_assert_gt(lowering, 10u);
	cr_assert_gt(tried - lowering, 100u);
}
