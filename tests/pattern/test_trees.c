/* test_trees.c - NCCL 2.28 binary / double binary trees: golden tables
 * derived by hand from the rules of trees.c, and structural sweeps. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "react/generators.h"

#define X REACT_RANK_NONE
typedef struct { int up, d0, d1, type; } row_t;

static void expect_tree(int n, int tree, const row_t *want)
{
	for (int r = 0; r < n; r++) {
		react_btree_node_t t0, t1, g;
		react_nccl_dtree(n, r, &t0, &t1);
		g = tree ? t1 : t0;
		cr_expect_eq(g.up, want[r].up, "N=%d tree %d rank %d: up %d, want %d", n, tree, r, g.up, want[r].up);
		cr_expect_eq(g.down0, want[r].d0, "N=%d tree %d rank %d: down0 %d, want %d", n, tree, r, g.down0, want[r].d0);
		cr_expect_eq(g.down1, want[r].d1, "N=%d tree %d rank %d: down1 %d, want %d", n, tree, r, g.down1, want[r].d1);
		cr_expect_eq(g.parent_child_type, want[r].type, "N=%d tree %d rank %d: type %d, want %d", n, tree, r,
		             g.parent_child_type, want[r].type);
	}
}

Test(trees, golden_8)
{
	static const row_t t0[8] = {
		{X, X, 4, -1}, {2, X, X, 0}, {4, 1, 3, 0}, {2, X, X, 1},
		{0, 2, 6, 1},  {6, X, X, 0}, {4, 5, 7, 1}, {6, X, X, 1},
	};
	/* mirror: rank r plays 7 - r */
	static const row_t t1[8] = {
		{1, X, X, 1}, {3, 2, 0, 1}, {1, X, X, 0}, {7, 5, 1, 1},
		{5, X, X, 1}, {3, 6, 4, 0}, {5, X, X, 0}, {X, X, 3, -1},
	};
	expect_tree(8, 0, t0);
	expect_tree(8, 1, t1);
}

Test(trees, golden_13)
{
	static const row_t t0[13] = {
		{X, X, 8, -1}, {2, X, X, 0}, {4, 1, 3, 0},  {2, X, X, 1}, {8, 2, 6, 0},
		{6, X, X, 0},  {4, 5, 7, 1}, {6, X, X, 1},  {0, 4, 12, 1}, {10, X, X, 0},
		{12, 9, 11, 0}, {10, X, X, 1}, {8, 10, X, 1},
	};
	/* shift: rank r plays r - 1 mod 13, ranks map back by + 1 */
	static const row_t t1[13] = {
		{9, 11, X, 1}, {X, X, 9, -1}, {3, X, X, 0},  {5, 2, 4, 0}, {3, X, X, 1},
		{9, 3, 7, 0},  {7, X, X, 0},  {5, 6, 8, 1},  {7, X, X, 1}, {1, 5, 0, 1},
		{11, X, X, 0}, {0, 10, 12, 0}, {11, X, X, 1},
	};
	expect_tree(13, 0, t0);
	expect_tree(13, 1, t1);
}

Test(trees, golden_16)
{
	static const row_t t0[16] = {
		{X, X, 8, -1}, {2, X, X, 0},   {4, 1, 3, 0},   {2, X, X, 1},
		{8, 2, 6, 0},  {6, X, X, 0},   {4, 5, 7, 1},   {6, X, X, 1},
		{0, 4, 12, 1}, {10, X, X, 0},  {12, 9, 11, 0}, {10, X, X, 1},
		{8, 10, 14, 1}, {14, X, X, 0}, {12, 13, 15, 1}, {14, X, X, 1},
	};
	expect_tree(16, 0, t0);
	/* mirror: root 15 -> 7, 7 -> {11, 3}, 3 -> {5, 1}, 11 -> {13, 9} */
	react_btree_node_t a, b;
	react_nccl_dtree(16, 15, &a, &b);
	cr_expect(b.up == X && b.down0 == X && b.down1 == 7);
	react_nccl_dtree(16, 7, &a, &b);
	cr_expect(b.up == 15 && b.down0 == 11 && b.down1 == 3 && b.parent_child_type == 1);
	react_nccl_dtree(16, 3, &a, &b);
	cr_expect(b.up == 7 && b.down0 == 5 && b.down1 == 1);
	react_nccl_dtree(16, 11, &a, &b);
	cr_expect(b.up == 7 && b.down0 == 13 && b.down1 == 9 && b.parent_child_type == 0);
	react_nccl_dtree(16, 0, &a, &b);
	cr_expect(b.up == 1 && b.down0 == X && b.down1 == X);
}

/* every rank once, one root, parent/child consistent, acyclic, root rules */
static void check_tree(int n, int tree, const react_btree_node_t *t, react_rank_t want_root)
{
	int roots = 0;
	int *nparent = calloc((size_t)n, sizeof *nparent);
	for (int r = 0; r < n; r++) {
		if (t[r].up == X) {
			roots++;
			cr_expect_eq(r, want_root, "N=%d tree %d: root %d", n, tree, r);
			cr_expect_eq(t[r].down0, X, "N=%d tree %d: root has a child in slot 0", n, tree);
			cr_expect_neq(t[r].down1, X, "N=%d tree %d: root has no child", n, tree);
			cr_expect_eq(t[r].parent_child_type, -1);
			continue;
		}
		cr_assert(t[r].up >= 0 && t[r].up < n);
		const react_btree_node_t *p = &t[t[r].up];
		react_rank_t slot = t[r].parent_child_type == 0 ? p->down0 : p->down1;
		cr_expect_eq(slot, r, "N=%d tree %d: rank %d not in slot %d of parent %d", n, tree, r,
		             t[r].parent_child_type, t[r].up);
	}
	cr_expect_eq(roots, 1, "N=%d tree %d: %d roots", n, tree, roots);
	for (int r = 0; r < n; r++) {
		react_rank_t ch[2] = {t[r].down0, t[r].down1};
		for (int k = 0; k < 2; k++) {
			if (ch[k] == X)
				continue;
			cr_assert(ch[k] >= 0 && ch[k] < n);
			cr_expect_eq(t[ch[k]].up, r, "N=%d tree %d: child %d of %d has parent %d", n, tree, ch[k], r,
			             t[ch[k]].up);
			nparent[ch[k]]++;
		}
		/* acyclic: the walk up ends at the root within n hops */
		int hops = 0;
		for (react_rank_t v = r; t[v].up != X; v = t[v].up)
			cr_assert(++hops <= n, "N=%d tree %d: cycle through %d", n, tree, r);
	}
	for (int r = 0; r < n; r++)
		cr_expect_eq(nparent[r], r == want_root ? 0 : 1, "N=%d tree %d: rank %d is a child %d times", n,
		             tree, r, nparent[r]);
	free(nparent);
}

Test(trees, structure_2_to_64)
{
	for (int n = 2; n <= 64; n++) {
		react_btree_node_t t0[64], t1[64];
		for (int r = 0; r < n; r++)
			react_nccl_dtree(n, r, &t0[r], &t1[r]);
		check_tree(n, 0, t0, 0);
		check_tree(n, 1, t1, n % 2 == 0 ? n - 1 : 1);
		/* tree 0 is the plain binary tree */
		for (int r = 0; r < n; r++) {
			react_btree_node_t b = react_nccl_btree(n, r);
			cr_expect(b.up == t0[r].up && b.down0 == t0[r].down0 && b.down1 == t0[r].down1);
		}
	}
}

Test(trees, out_of_range_rank_is_none)
{
	react_btree_node_t b = react_nccl_btree(8, 8);
	cr_expect(b.up == X && b.down0 == X && b.down1 == X);
	b = react_nccl_btree(8, -1);
	cr_expect(b.up == X && b.down0 == X && b.down1 == X);
}
