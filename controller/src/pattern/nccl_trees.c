/*
 * nccl_trees.c - NCCL's binary and double binary tree rank arithmetic.
 *
 * Reimplements ncclGetBtree and ncclGetDtree of src/graph/trees.cc as of
 * NCCL 2.28 (the rule has been stable since 2.12; 2.8.3 changed which child
 * slot the root uses under the same names).  Pure rank arithmetic: no
 * communicator, no topology.
 *
 * Binary tree (ncclGetBtree), rooted at 0.  For rank r > 0 let b be the
 * lowest set bit of r:
 *   parent   (r ^ b) | (b << 1), or r ^ b when that is >= N
 *   child 0  r - b/2                       (none when b == 1)
 *   child 1  r + b', b' the first of b/2, b/4, ... with r + b' < N (or none)
 *   type     0 when r < parent (first child of its parent), else 1
 * Rank 0 is the root with exactly one child, in slot 1: the largest power of
 * two below N.  For 16 ranks:
 *
 *   0 ---- 8
 *        /   \
 *       4     12
 *      / \   /  \
 *     2   6 10   14
 *    /\  /\  /\  /\
 *   1 3 5 7 9 11 13 15
 *
 * Double binary tree (ncclGetDtree): tree 0 is the binary tree; tree 1 is
 * its mirror (rank r plays the role of N-1-r) when N is even, or the binary
 * tree shifted by one (rank r plays the role of r-1 mod N) when N is odd, so
 * that a rank is an inner node in at most one of the two trees.
 * For 16 ranks tree 1 is rooted at 15 with one child 7, 7 -> {11, 3}, ...
 */
#include "react/generators.h"

static react_btree_node_t btree_none(void)
{
	react_btree_node_t n = {REACT_RANK_NONE, REACT_RANK_NONE, REACT_RANK_NONE, -1};
	return n;
}

react_btree_node_t react_nccl_btree(int32_t nranks, react_rank_t rank)
{
	react_btree_node_t n = btree_none();
	int64_t bit, low, d1;

	if (nranks < 1 || rank < 0 || rank >= nranks)
		return n;
	for (bit = 1; bit < nranks; bit <<= 1)
		if (bit & rank)
			break;
	if (rank == 0) {
		/* the root has one child, in slot 1 */
		if (nranks > 1)
			n.down1 = (react_rank_t)(bit >> 1);
		return n;
	}
	n.up = (react_rank_t)((rank ^ bit) | (bit << 1));
	if (n.up >= nranks)
		n.up = (react_rank_t)(rank ^ bit);
	n.parent_child_type = rank < n.up ? 0 : 1;
	low = bit >> 1;
	if (low == 0)
		return n; /* a leaf */
	n.down0 = (react_rank_t)(rank - low);
	d1 = -1;
	for (; low > 0; low >>= 1)
		if (rank + low < nranks) {
			d1 = rank + low;
			break;
		}
	n.down1 = (react_rank_t)d1;
	return n;
}

static react_rank_t map_rank(react_rank_t r, int32_t nranks, int mirror)
{
	if (r == REACT_RANK_NONE)
		return REACT_RANK_NONE;
	return mirror ? nranks - 1 - r : (r + 1) % nranks;
}

void react_nccl_dtree(int32_t nranks, react_rank_t rank, react_btree_node_t *t0,
                      react_btree_node_t *t1)
{
	react_btree_node_t a, b;
	int mirror = nranks % 2 == 0;

	a = react_nccl_btree(nranks, rank);
	if (nranks < 1 || rank < 0 || rank >= nranks) {
		b = btree_none();
	} else {
		react_rank_t role = mirror ? nranks - 1 - rank : (rank - 1 + nranks) % nranks;
		b = react_nccl_btree(nranks, role);
		b.up = map_rank(b.up, nranks, mirror);
		b.down0 = map_rank(b.down0, nranks, mirror);
		b.down1 = map_rank(b.down1, nranks, mirror);
	}
	if (t0)
		*t0 = a;
	if (t1)
		*t1 = b;
}
