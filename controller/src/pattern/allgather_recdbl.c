/*
 * allgather_recdbl.c - recursive doubling AllGather.
 *
 * What it does: the gathered output of S bytes holds N blocks of ceil(S/N).
 * The pattern has one data chunk (one chunk graph) whose state at a rank is
 * the set of blocks it holds.  At step s rank r exchanges with r XOR 2^s and
 * sends everything it holds (2^s blocks); the receiver adds them to its set
 * (STORE, a union).  After log2 N steps every rank holds all N blocks
 * (Thakur et al. 2005; MPICH allgather_intra_recursive_doubling).
 *
 * Example, 8 ranks (pairs exchange both ways; blocks sent by each side):
 *
 *   step | pairs                       | blocks per flow
 *   -----+-----------------------------+----------------
 *     0  | 0-1  2-3  4-5  6-7          | 1
 *     1  | 0-2  1-3  4-6  5-7          | 2
 *     2  | 0-4  1-5  2-6  3-7          | 4
 *
 * N not a power of two: named roles as in UCC's recursive knomial patterns.
 * With P the largest power of two <= N, ranks 0 .. P-1 are BASE ranks;
 * ranks e >= P are EXTRA, each paired with the PROXY rank e - P (a BASE rank).
 *   step 0          every EXTRA e sends its block to its PROXY e - P
 *   steps 1 .. L    recursive doubling among the P BASE ranks (L = log2 P);
 *                   a flow carries every block the sender holds (a PROXY
 *                   holds its EXTRA's block too, so flow sizes differ)
 *   step L + 1      every PROXY sends the full result (N blocks) to its EXTRA
 * Example, 6 ranks (P = 4, EXTRA 4 -> PROXY 0, EXTRA 5 -> PROXY 1):
 *
 *   step | flows (blocks)
 *   -----+-------------------------------------------
 *     0  | 4->0 (1)  5->1 (1)
 *     1  | 0<->1 (2 each)  2<->3 (1 each)
 *     2  | 0<->2: 0->2 (4), 2->0 (2); 1<->3 the same
 *     3  | 0->4 (6)  1->5 (6)
 *
 * Every flow sends all the sender holds; the semantic check relies on it.
 * Requires: nranks >= 2, bytes >= 1 (REACT_EINVAL otherwise).
 */
#include <stdlib.h>

#include "react/generators.h"
#include "pattern_internal.h"

typedef enum { ROLE_BASE, ROLE_PROXY, ROLE_EXTRA } recdbl_role_t;

static recdbl_role_t role_of(react_rank_t r, int32_t nranks, int32_t pof2)
{
	if (r >= pof2)
		return ROLE_EXTRA;
	return r < nranks - pof2 ? ROLE_PROXY : ROLE_BASE;
}

react_status_t react_gen_recdbl_allgather(int32_t nranks, uint64_t bytes, react_pattern_t **out)
{
	react_status_t st = REACT_EINVAL;
	react_pattern_t *p = NULL;
	int64_t *held = NULL, *next = NULL; /* blocks held per BASE rank */
	int32_t L, P, nextra, s0;
	uint64_t blk;

	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if (nranks < 2 || bytes < 1)
		goto fail;
	P = react_pow2_floor_(nranks, &L);
	nextra = nranks - P;
	st = react_pattern_create(REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL, nranks, 1, bytes, &p);
	if (st != REACT_OK)
		goto fail;
	st = react_pattern_reserve_(p, (size_t)P * (size_t)L + 2 * (size_t)nextra);
	if (st != REACT_OK)
		goto fail;
	st = REACT_ENOMEM;
	held = malloc((size_t)P * sizeof *held);
	next = malloc((size_t)P * sizeof *next);
	if (!held || !next)
		goto fail;
	blk = react_ceil_div_(bytes, (uint64_t)nranks);

	s0 = 0;
	if (nextra > 0) {
		for (react_rank_t e = P; e < nranks; e++)
			react_pattern_push_(p, 0, e, e - P, 0, 1, blk, REACT_RECV_STORE);
		s0 = 1;
	}
	for (react_rank_t r = 0; r < P; r++)
		held[r] = role_of(r, nranks, P) == ROLE_PROXY ? 2 : 1;
	for (int32_t k = 0; k < L; k++) {
		int32_t d = 1 << k;
		for (react_rank_t r = 0; r < P; r++) {
			react_pattern_push_(p, s0 + k, r, r ^ d, 0, 1, (uint64_t)held[r] * blk,
			                    REACT_RECV_STORE);
			next[r] = held[r] + held[r ^ d];
		}
		for (react_rank_t r = 0; r < P; r++)
			held[r] = next[r];
	}
	for (react_rank_t e = P; e < nranks; e++)
		react_pattern_push_(p, s0 + L, e - P, e, 0, 1, (uint64_t)nranks * blk,
		                    REACT_RECV_STORE);
	st = react_pattern_finalize(p, NULL, 0);
	if (st != REACT_OK)
		goto fail;
	*out = p;
	p = NULL;
fail:
	react_pattern_destroy(p);
	free(held);
	free(next);
	return st;
}
