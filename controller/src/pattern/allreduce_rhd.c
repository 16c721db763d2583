/*
 * allreduce_rhd.c - Rabenseifner AllReduce: recursive halving reduce-scatter
 * then recursive doubling all-gather.
 *
 * What it does: with P the largest power of two <= N (P = N for a power of
 * two) the vector of S bytes is split into P data chunks of ceil(S/P).  A
 * flow carries a contiguous chunk range [chunk, chunk + nchunks).
 *   Reduce-scatter, L = log2 P steps, distances P/2, P/4, ..., 1: rank r and
 *   r XOR d split their current window in halves; the lower rank keeps the
 *   lower half and sends the upper half (REDUCE), the upper rank the
 *   reverse.  Afterwards chunk r is complete at rank r.
 *   All-gather, L steps, distances 1, 2, ..., P/2: r sends its whole window
 *   (2^k chunks) to r XOR 2^k, which stores it.
 * (Rabenseifner 2004; MPICH allreduce_intra_reduce_scatter_allgather, Open
 * MPI ompi_coll_base_allreduce_intra_redscat_allgather.)
 *
 * Example, 4 ranks (chunks [lo, hi)):
 *
 *   step | flows                                           | op
 *   -----+-------------------------------------------------+-------
 *     0  | 0->2 [2,4)  2->0 [0,2)  1->3 [2,4)  3->1 [0,2)  | reduce
 *     1  | 0->1 [1,2)  1->0 [0,1)  2->3 [3,4)  3->2 [2,3)  | reduce
 *     2  | 0->1 [0,1)  1->0 [1,2)  2->3 [2,3)  3->2 [3,4)  | store
 *     3  | 0->2 [0,2)  2->0 [2,4)  1->3 [0,2)  3->1 [2,4)  | store
 *
 * N not a power of two: named roles (UCC's BASE/PROXY/EXTRA).  Ranks e >= P
 * are EXTRA, paired with PROXY e - P.  Step 0: every EXTRA sends its whole
 * vector [0, P) to its PROXY, which adds it (REDUCE).  Then the 2L steps
 * above among the P BASE ranks.  Last step: every PROXY sends the whole
 * result [0, P) to its EXTRA (STORE).  2L + 2 steps.
 *
 * Flow bytes are nchunks * ceil(S/P).
 * Requires: nranks >= 2, bytes >= 1 (REACT_EINVAL otherwise).  No commutativity
 * is assumed beyond what the REDUCE receiver op models.
 */
#include "react/generators.h"
#include "pattern_internal.h"

react_status_t react_gen_rhd_allreduce(int32_t nranks, uint64_t bytes, react_pattern_t **out)
{
	react_status_t st = REACT_EINVAL;
	react_pattern_t *p = NULL;
	int32_t L, P, nextra, s0;
	uint64_t blk;

	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if (nranks < 2 || bytes < 1)
		goto fail;
	P = react_pow2_floor_(nranks, &L);
	nextra = nranks - P;
	st = react_pattern_create(REACT_COLL_ALLREDUCE, REACT_ALGO_RHD, nranks, P, bytes, &p);
	if (st != REACT_OK)
		goto fail;
	st = react_pattern_reserve_(p, 2 * (size_t)P * (size_t)L + 2 * (size_t)nextra);
	if (st != REACT_OK)
		goto fail;
	blk = react_ceil_div_(bytes, (uint64_t)P);

	s0 = 0;
	if (nextra > 0) {
		for (react_rank_t e = P; e < nranks; e++)
			react_pattern_push_(p, 0, e, e - P, 0, P, (uint64_t)P * blk, REACT_RECV_REDUCE);
		s0 = 1;
	}
	/* Reduce-scatter.  Before step k the window of r has size P >> k and
	 * starts at r with its low (L - k) bits cleared. */
	for (int32_t k = 0; k < L; k++) {
		int32_t d = P >> (k + 1);
		int32_t len = P >> k;
		for (react_rank_t r = 0; r < P; r++) {
			int32_t lo = r & ~(len - 1);
			int32_t send_lo = (r & d) ? lo : lo + len / 2;
			react_pattern_push_(p, s0 + k, r, r ^ d, send_lo, len / 2,
			                    (uint64_t)(len / 2) * blk, REACT_RECV_REDUCE);
		}
	}
	/* All-gather.  Before step k the window of r has size 2^k. */
	for (int32_t k = 0; k < L; k++) {
		int32_t len = 1 << k;
		for (react_rank_t r = 0; r < P; r++)
			react_pattern_push_(p, s0 + L + k, r, r ^ len, r & ~(len - 1), len,
			                    (uint64_t)len * blk, REACT_RECV_STORE);
	}
	for (react_rank_t e = P; e < nranks; e++)
		react_pattern_push_(p, s0 + 2 * L, e - P, e, 0, P, (uint64_t)P * blk,
		                    REACT_RECV_STORE);
	st = react_pattern_finalize(p, NULL, 0);
	if (st != REACT_OK)
		goto fail;
	*out = p;
	p = NULL;
fail:
	react_pattern_destroy(p);
	return st;
}
