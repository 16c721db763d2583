/*
 * test_trees_diff.c - differential test of the NCCL tree arithmetic
 * (controller/src/pattern/nccl_trees.c) against a second, independent
 * transcription of NCCL 2.28's rules (src/graph/trees.cc: ncclGetBtree,
 * ncclGetDtree, ncclGetDtreeRoots), for every N = 1..1024 and every rank.
 *
 * The reference below follows NCCL's procedure step by step, including
 * the way it looks for the second child: it starts at rank + lowbit and,
 * while that is out of range, recomputes it from lowbit before halving
 * lowbit, so the value rank + lowbit is tried twice and lowbit = 0 ends
 * with "no child".  The library states the same rule in closed form ("the
 * first of b/2, b/4, ... that stays below N"); the two must agree.
 *
 * NCCL leaves parentChildType unset at the root (the caller's variable
 * keeps its value); the library reports -1 there, and so does the
 * reference, which presets it to -1.  NCCL's "no rank" is -1, the
 * library's REACT_RANK_NONE.
 */
#include <criterion/criterion.h>

#include "react/generators.h"

typedef struct ref_node {
	int up, down0, down1, type;
} ref_node_t;

/* ncclGetBtree, NCCL 2.28: the tree rooted at 0 built on the bits of the rank. */
static ref_node_t ref_btree(int nranks, int rank)
{
	ref_node_t n = {-1, -1, -1, -1};
	int bit = 1;
	while (bit < nranks && !(bit & rank))
		bit <<= 1; /* the lowest set bit of rank (for rank 0: the first power of two >= N) */
	if (rank == 0) {
		/* the root's only child is > 0, so it goes in the second slot */
		n.down1 = nranks > 1 ? bit >> 1 : -1;
		return n;
	}
	int up = (rank ^ bit) | (bit << 1);
	if (up >= nranks)
		up = rank ^ bit;
	n.type = rank < up ? 0 : 1; /* below the parent: its first child */
	n.up = up;
	int lowbit = bit >> 1;
	n.down0 = lowbit == 0 ? -1 : rank - lowbit;
	int down1 = lowbit == 0 ? -1 : rank + lowbit;
	while (down1 >= nranks) {
		down1 = lowbit == 0 ? -1 : rank + lowbit;
		lowbit >>= 1;
	}
	n.down1 = down1;
	return n;
}

/* ncclGetDtree, NCCL 2.28: tree 0 is the btree; tree 1 mirrors it (rank r
 * takes the place of N-1-r) when N is even, or shifts it by one (rank r
 * takes the place of r-1) when N is odd. */
static void ref_dtree(int nranks, int rank, ref_node_t *t0, ref_node_t *t1)
{
	*t0 = ref_btree(nranks, rank);
	if (nranks % 2 == 1) {
		ref_node_t s = ref_btree(nranks, (rank - 1 + nranks) % nranks);
		t1->up = s.up == -1 ? -1 : (s.up + 1) % nranks;
		t1->down0 = s.down0 == -1 ? -1 : (s.down0 + 1) % nranks;
		t1->down1 = s.down1 == -1 ? -1 : (s.down1 + 1) % nranks;
		t1->type = s.type;
	} else {
		ref_node_t m = ref_btree(nranks, nranks - 1 - rank);
		t1->up = m.up == -1 ? -1 : nranks - 1 - m.up;
		t1->down0 = m.down0 == -1 ? -1 : nranks - 1 - m.down0;
		t1->down1 = m.down1 == -1 ? -1 : nranks - 1 - m.down1;
		t1->type = m.type;
	}
}

/* ncclGetDtreeRoots: tree 0 at 0; tree 1 at 1 (N odd, N > 1) or N - 1. */
static int ref_root1(int nranks)
{
	return nranks % 2 == 1 && nranks > 1 ? 1 : nranks - 1;
}

static int lib(react_rank_t r)
{
	return r == REACT_RANK_NONE ? -1 : (int)r;
}

static void same(int n, int r, int tree, const react_btree_node_t *got, const ref_node_t *want)
{
	cr_assert(lib(got->up) == want->up && lib(got->down0) == want->down0 &&
	              lib(got->down1) == want->down1 && got->parent_child_type == want->type,
	          "N=%d rank %d tree %d: library (up %d, down %d %d, type %d), NCCL's rule (up %d, "
	          "down %d %d, type %d)",
	          n, r, tree, lib(got->up), lib(got->down0), lib(got->down1), got->parent_child_type,
	          want->up, want->down0, want->down1, want->type);
}

/* The reference itself against NCCL's own illustrations in trees.cc. */
Test(trees_diff, reference_matches_nccls_pictures)
{
	ref_node_t a, b;
	/* btree of 14: 0 -> 8 -> {4, 12}; 12 -> {10, 13}; 13 hangs off 12 */
	a = ref_btree(14, 0);
	cr_assert(a.up == -1 && a.down0 == -1 && a.down1 == 8);
	a = ref_btree(14, 12);
	cr_assert(a.up == 8 && a.down0 == 10 && a.down1 == 13 && a.type == 1);
	a = ref_btree(14, 13);
	cr_assert(a.up == 12 && a.down0 == -1 && a.down1 == -1 && a.type == 1);
	/* mirrored tree of 12: root 11 -> 3 -> {1, 7}; 7 -> {5, 9} */
	ref_dtree(12, 11, &a, &b);
	cr_assert(b.up == -1 && b.down1 == 3);
	ref_dtree(12, 3, &a, &b);
	cr_assert(b.up == 11 && b.down0 == 7 && b.down1 == 1);
	ref_dtree(12, 7, &a, &b);
	cr_assert(b.up == 3 && b.down0 == 9 && b.down1 == 5);
	/* shifted tree of 13: root 1 -> 9 -> {5, 0}; 0 -> {11} */
	ref_dtree(13, 1, &a, &b);
	cr_assert(b.up == -1 && b.down1 == 9);
	ref_dtree(13, 9, &a, &b);
	cr_assert(b.up == 1 && b.down0 == 5 && b.down1 == 0);
	ref_dtree(13, 0, &a, &b);
	cr_assert(b.up == 9 && b.down0 == 11 && b.down1 == -1);
}

Test(trees_diff, btree_and_dtree_agree_with_nccls_rules_for_1_to_1024, .timeout = 60)
{
	long checked = 0;
	for (int n = 1; n <= 1024; n++) {
		int roots1 = 0;
		for (int r = 0; r < n; r++) {
			ref_node_t w0, w1;
			react_btree_node_t b, g0, g1;
			ref_dtree(n, r, &w0, &w1);
			b = react_nccl_btree(n, r);
			react_nccl_dtree(n, r, &g0, &g1);
			same(n, r, 0, &b, &w0);
			same(n, r, 0, &g0, &w0);
			same(n, r, 1, &g1, &w1);
			if (lib(g1.up) == -1) {
				roots1++;
				cr_assert_eq(r, ref_root1(n), "N=%d: tree 1 is rooted at %d, NCCL's root is %d",
				             n, r, ref_root1(n));
			}
			checked += 2;
		}
		cr_assert_eq(roots1, 1, "N=%d: tree 1 has %d roots", n, roots1);
	}
	cr_assert_eq(checked, 1024L * 1025);
}
