/* pattern_internal.h - helpers shared by the files of src/pattern only. */
#ifndef REACT_PATTERN_INTERNAL_H
#define REACT_PATTERN_INTERNAL_H

#include "react/pattern.h"

/* Make room for at least `n` flows in total (generators know their count). */
react_status_t react_pattern_reserve_(react_pattern_t *p, size_t n);

/* Append one flow built from its fields; the pattern must have been reserved
 * with enough room (no allocation, so no failure). */
static inline void react_pattern_push_(react_pattern_t *p, react_step_t step, react_rank_t src,
                                       react_rank_t dst, int32_t chunk, int32_t nchunks,
                                       uint64_t bytes, react_recv_op_t op)
{
	react_flow_t *f = &p->flows[p->nflows++];
	f->step = step;
	f->src = src;
	f->dst = dst;
	f->chunk = chunk;
	f->nchunks = nchunks;
	f->bytes = bytes;
	f->op = op;
}

/* ceil(a / b) for b >= 1, never below 1. */
static inline uint64_t react_ceil_div_(uint64_t a, uint64_t b)
{
	uint64_t q = a / b + (a % b != 0);
	return q ? q : 1;
}

/* Largest power of two <= n (n >= 1) and its log2. */
static inline int32_t react_pow2_floor_(int32_t n, int32_t *log2_out)
{
	int32_t p = 1, l = 0;
	while ((int64_t)p * 2 <= n) {
		p *= 2;
		l++;
	}
	if (log2_out)
		*log2_out = l;
	return p;
}

#endif
