/*
 * allreduce_tree.c - NCCL double binary tree AllReduce as a TEN pattern.
 *
 * What it does: the message of S bytes is split into two data chunks of
 * ceil(S/2) bytes.  Chunk 0 is reduced up tree 0 and broadcast down it,
 * chunk 1 the same on tree 1 (react_nccl_dtree, NCCL 2.28 trees.cc).
 * Logical steps follow depth so that all children of a node send in the
 * same step: with D the largest depth over both trees, a node at depth d
 * sends its partial sum to its parent at step D - d (REDUCE), and a node at
 * depth d sends the result to each child at step D + d (STORE).  T = 2D.
 * NCCL pipelines the same flows; the logical steps are the TEN's unrolling
 * (the paper's Fig. 2).
 *
 * Example, 4 ranks.  Tree 0: 0 -> 2 -> {1, 3}; tree 1 (mirror): 3 -> 1 -> {2, 0}.
 * D = 2, T = 4:
 *
 *   step | chunk 0 (tree 0)       | chunk 1 (tree 1)
 *   -----+------------------------+-----------------------
 *     0  | 1->2, 3->2   reduce    | 2->1, 0->1   reduce
 *     1  | 2->0         reduce    | 1->3         reduce
 *     2  | 0->2         store     | 3->1         store
 *     3  | 2->1, 2->3   store     | 1->2, 1->0   store
 *
 * With 16 ranks there are 4 reduce steps; a rank that is inner in one tree
 * and a leaf in the other sends 2 + 2 + 2 + 1 flows of S/2 over the reduce
 * phase at most (the paper's section 4.3).
 *
 * Requires: nranks >= 2, bytes >= 1 (REACT_EINVAL otherwise).  Any N works
 * (odd N uses the shifted second tree); there is no fallback.
 */
#include <stdlib.h>

#include "react/generators.h"
#include "pattern_internal.h"

react_status_t react_gen_tree_allreduce(int32_t nranks, uint64_t bytes, react_pattern_t **out)
{
	react_status_t st = REACT_EINVAL;
	react_pattern_t *p = NULL;
	react_btree_node_t *nodes = NULL; /* [tree * N + r] */
	int32_t *depth = NULL;            /* [tree * N + r] */
	int32_t D = 0;
	uint64_t half;

	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if (nranks < 2 || bytes < 1)
		goto fail;
	st = REACT_ENOMEM;
	nodes = malloc(2 * (size_t)nranks * sizeof *nodes);
	depth = malloc(2 * (size_t)nranks * sizeof *depth);
	if (!nodes || !depth)
		goto fail;
	for (react_rank_t r = 0; r < nranks; r++)
		react_nccl_dtree(nranks, r, &nodes[r], &nodes[nranks + r]);
	for (int t = 0; t < 2; t++)
		for (react_rank_t r = 0; r < nranks; r++) {
			int32_t d = 0;
			react_rank_t v = r;
			while (nodes[(size_t)t * nranks + v].up != REACT_RANK_NONE) {
				v = nodes[(size_t)t * nranks + v].up;
				if (++d > nranks) {
					st = REACT_EINVAL; /* not a tree: an invariant of trees.c broke */
					goto fail;
				}
			}
			depth[(size_t)t * nranks + r] = d;
			if (d > D)
				D = d;
		}

	st = react_pattern_create(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, nranks, 2, bytes, &p);
	if (st != REACT_OK)
		goto fail;
	/* every non-root node sends once up and receives once down, per tree */
	st = react_pattern_reserve_(p, 4 * (size_t)(nranks - 1));
	if (st != REACT_OK)
		goto fail;
	half = react_ceil_div_(bytes, 2);
	/* reduce phase: step D - d for a sender at depth d */
	for (int32_t s = 0; s < D; s++)
		for (int t = 0; t < 2; t++)
			for (react_rank_t r = 0; r < nranks; r++) {
				const react_btree_node_t *n = &nodes[(size_t)t * nranks + r];
				if (n->up != REACT_RANK_NONE && D - depth[(size_t)t * nranks + r] == s)
					react_pattern_push_(p, s, r, n->up, t, 1, half, REACT_RECV_REDUCE);
			}
	/* broadcast phase: step D + d for a sender at depth d */
	for (int32_t s = D; s < 2 * D; s++)
		for (int t = 0; t < 2; t++)
			for (react_rank_t r = 0; r < nranks; r++) {
				const react_btree_node_t *n = &nodes[(size_t)t * nranks + r];
				if (depth[(size_t)t * nranks + r] != s - D)
					continue;
				if (n->down0 != REACT_RANK_NONE)
					react_pattern_push_(p, s, r, n->down0, t, 1, half, REACT_RECV_STORE);
				if (n->down1 != REACT_RANK_NONE)
					react_pattern_push_(p, s, r, n->down1, t, 1, half, REACT_RECV_STORE);
			}
	st = react_pattern_finalize(p, NULL, 0);
	if (st != REACT_OK)
		goto fail;
	*out = p;
	p = NULL;
fail:
	react_pattern_destroy(p);
	free(nodes);
	free(depth);
	return st;
}
