/*
 * allreduce_ring.c - ring AllReduce (reduce-scatter then all-gather).
 *
 * What it does: ranks form the ring 0 -> 1 -> ... -> N-1 -> 0 and the
 * message is split into N data chunks of ceil(S/N) bytes.  Reduce-scatter,
 * steps s = 0 .. N-2: rank r sends chunk (r - s) mod N to r + 1, which adds
 * it to its own copy (REDUCE).  After it chunk c is complete at rank c - 1.
 * All-gather, steps s = N-1 .. 2N-3: rank r sends chunk (r - s) mod N to
 * r + 1, which overwrites its copy (STORE).  2(N-1) steps, N flows each.
 * This is the schedule of NCCL's ring and of MPICH/Open MPI's ring
 * allreduce (coll_base_allreduce.c, ompi_coll_base_allreduce_intra_ring).
 *
 * Example, 4 ranks (a -> b: chunk):
 *
 *   step | 0->1 | 1->2 | 2->3 | 3->0 | op
 *   -----+------+------+------+------+-------
 *     0  |  0   |  1   |  2   |  3   | reduce
 *     1  |  3   |  0   |  1   |  2   | reduce
 *     2  |  2   |  3   |  0   |  1   | reduce
 *     3  |  1   |  2   |  3   |  0   | store
 *     4  |  0   |  1   |  2   |  3   | store
 *     5  |  3   |  0   |  1   |  2   | store
 *
 * Requires: nranks >= 2, bytes >= 1 (REACT_EINVAL otherwise); bytes < N
 * still gives N chunks of 1 byte on the wire (ceil).  The pattern has
 * 2N(N-1) flows; N beyond ~46000 is refused (REACT_EUNSUPPORTED).
 */
#include "react/generators.h"
#include "pattern_internal.h"

react_status_t react_gen_ring_allreduce(int32_t nranks, uint64_t bytes, react_pattern_t **out)
{
	react_status_t st = REACT_EINVAL;
	react_pattern_t *p = NULL;
	uint64_t blk, nflows;

	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if (nranks < 2 || bytes < 1)
		goto fail;
	nflows = 2 * (uint64_t)nranks * (uint64_t)(nranks - 1);
	if (nflows >= UINT32_MAX) {
		st = REACT_EUNSUPPORTED;
		goto fail;
	}
	st = react_pattern_create(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, nranks, nranks, bytes, &p);
	if (st != REACT_OK)
		goto fail;
	st = react_pattern_reserve_(p, (size_t)nflows);
	if (st != REACT_OK)
		goto fail;
	blk = react_ceil_div_(bytes, (uint64_t)nranks);
	for (int32_t s = 0; s < 2 * (nranks - 1); s++) {
		react_recv_op_t op = s < nranks - 1 ? REACT_RECV_REDUCE : REACT_RECV_STORE;
		int32_t off = s % nranks;
		for (react_rank_t r = 0; r < nranks; r++) {
			int32_t c = r - off;
			if (c < 0)
				c += nranks;
			react_pattern_push_(p, s, r, r + 1 == nranks ? 0 : r + 1, c, 1, blk, op);
		}
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
