/* Position-equivalent sets: the fast algorithm gives the brute-force sets. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "react/check.h"
#include "react/equiv.h"
#include "react/generators.h"
#include "react/transform.h"

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
	Test(equiv, name, .timeout = 120)                         \
	{                                                         \
		for (int32_t N = 2; N <= (maxn); N++)             \
			compare(c, a, N);                         \
	}

SWEEP(tree_allreduce, REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 32)
SWEEP(ring_allreduce, REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 32)
SWEEP(ring_allgather, REACT_COLL_ALLGATHER, REACT_ALGO_RING, 32)
SWEEP(recdbl_allgather, REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL, 32)
SWEEP(rhd_allreduce, REACT_COLL_ALLREDUCE, REACT_ALGO_RHD, 32)

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
