/*
 * allgather_ring.c - ring AllGather.
 *
 * What it does: the gathered output of S bytes holds N blocks of ceil(S/N);
 * block c starts at rank c and is data chunk c.  Ranks form the ring
 * 0 -> 1 -> ... -> N-1 -> 0; at step s = 0 .. N-2 rank r forwards block
 * (r - s) mod N to r + 1, which stores it.  N - 1 steps of N flows
 * (Open MPI's ompi_coll_base_allgather_intra_ring, NCCL's ring).
 *
 * Example, 4 ranks (a -> b: block):
 *
 *   step | 0->1 | 1->2 | 2->3 | 3->0
 *   -----+------+------+------+------
 *     0  |  0   |  1   |  2   |  3
 *     1  |  3   |  0   |  1   |  2
 *     2  |  2   |  3   |  0   |  1
 *
 * Requires: nranks >= 2, bytes >= 1 (REACT_EINVAL otherwise).
 */
#include "react/generators.h"
#include "pattern_internal.h"

react_status_t react_gen_ring_allgather(int32_t nranks, uint64_t bytes, react_pattern_t **out)
{
	react_status_t st = REACT_EINVAL;
	react_pattern_t *p = NULL;
	uint64_t blk, nflows;

	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if (nranks < 2 || bytes < 1)
		goto fail;
	nflows = (uint64_t)nranks * (uint64_t)(nranks - 1);
	if (nflows >= UINT32_MAX) {
		st = REACT_EUNSUPPORTED;
		goto fail;
	}
	st = react_pattern_create(REACT_COLL_ALLGATHER, REACT_ALGO_RING, nranks, nranks, bytes, &p);
	if (st != REACT_OK)
		goto fail;
	st = react_pattern_reserve_(p, (size_t)nflows);
	if (st != REACT_OK)
		goto fail;
	blk = react_ceil_div_(bytes, (uint64_t)nranks);
	for (int32_t s = 0; s < nranks - 1; s++)
		for (react_rank_t r = 0; r < nranks; r++) {
			int32_t c = r - s;
			if (c < 0)
				c += nranks;
			react_pattern_push_(p, s, r, r + 1 == nranks ? 0 : r + 1, c, 1, blk,
			                    REACT_RECV_STORE);
		}
	st = react_pattern_finalize(p, NULL, 0);
	if (st != REACT_OK)
		goto fail;
	*out = p;
	p = NULL;
fail:
	react_pattern_destroy(p);
	return st;
}
