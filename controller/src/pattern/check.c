/*
 * check.c - the semantic check of the paper's appendix A.3.
 *
 * State: one bitset over origin ranks per (rank, data chunk), W = ceil(N/64)
 * words each, N * C * W words in all, kept by the checker between runs.
 * One run is a single pass over the flows in step order.  For each step the
 * senders' current sets of every carried chunk are first copied into a step
 * buffer (so all flows of a step read the state from before the step), then
 * applied to the receivers: REDUCE adds (an origin already present is a
 * double count), STORE overwrites (reduction collectives) or unions (gather
 * collectives).  Time O(N*C*W + sum over flows of nchunks * W); no
 * allocation per run once the step buffer has grown to the largest step.
 *
 * Initial state.  Reduction collectives: rank r holds {r} in every chunk.
 * Broadcast: the root holds {root} in every chunk, the others nothing.
 * AllGather: when C is a multiple of N, block r lives in chunks
 * [r*C/N, (r+1)*C/N) and rank r holds {r} there and nothing elsewhere (ring
 * AllGather: block c is chunk c); otherwise a chunk is a container for a set
 * of blocks and rank r holds {r} in every chunk (recursive doubling: C = 1).
 */
#include <stdlib.h>
#include <string.h>

#include "react/check.h"

struct react_checker {
	int32_t nranks;
	int32_t nchunks;
	size_t words;     /* W */
	uint64_t *state;  /* [(r * C + c) * W] */
	uint64_t *buf;    /* step buffer */
	size_t bufcap;    /* in words */
	uint64_t lastmask;
};

react_status_t react_checker_create(int32_t nranks, int32_t nchunks, react_checker_t **out)
{
	react_checker_t *c = NULL;
	size_t cells;
	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if (nranks < 1 || nchunks < 1)
		return REACT_EINVAL;
	c = calloc(1, sizeof *c);
	if (!c)
		goto fail;
	c->nranks = nranks;
	c->nchunks = nchunks;
	c->words = ((size_t)nranks + 63) / 64;
	cells = (size_t)nranks * (size_t)nchunks;
	if (cells > SIZE_MAX / 8 / c->words)
		goto fail;
	c->state = malloc(cells * c->words * sizeof *c->state);
	c->bufcap = 64 * c->words;
	c->buf = malloc(c->bufcap * sizeof *c->buf);
	if (!c->state || !c->buf)
		goto fail;
	c->lastmask = (nranks % 64) ? ((UINT64_C(1) << (nranks % 64)) - 1) : ~UINT64_C(0);
	*out = c;
	return REACT_OK;
fail:
	react_checker_destroy(c);
	return REACT_ENOMEM;
}

void react_checker_destroy(react_checker_t *c)
{
	if (!c)
		return;
	free(c->state);
	free(c->buf);
	free(c);
}

static inline uint64_t *cell(react_checker_t *c, int32_t r, int32_t ch)
{
	return c->state + ((size_t)r * (size_t)c->nchunks + (size_t)ch) * c->words;
}

static inline void bit_set(uint64_t *b, int32_t i)
{
	b[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline int bit_get(const uint64_t *b, int32_t i)
{
	return (int)((b[i / 64] >> (i % 64)) & 1u);
}

/* Lowest set bit of a & b, or -1. */
static int32_t first_common(const uint64_t *a, const uint64_t *b, size_t w)
{
	for (size_t k = 0; k < w; k++) {
		uint64_t x = a[k] & b[k];
		if (x)
			return (int32_t)(k * 64 + (size_t)__builtin_ctzll(x));
	}
	return -1;
}

static int is_empty(const uint64_t *a, size_t w)
{
	for (size_t k = 0; k < w; k++)
		if (a[k])
			return 0;
	return 1;
}

/* Lowest origin missing from a (over nranks bits), or -1 when complete. */
static int32_t first_missing(const react_checker_t *c, const uint64_t *a)
{
	for (size_t k = 0; k < c->words; k++) {
		uint64_t want = (k + 1 == c->words) ? c->lastmask : ~UINT64_C(0);
		uint64_t x = ~a[k] & want;
		if (x)
			return (int32_t)(k * 64 + (size_t)__builtin_ctzll(x));
	}
	return -1;
}

static void res_init(react_check_result_t *res)
{
	res->kind = REACT_CHECK_OK;
	res->rank = REACT_RANK_NONE;
	res->chunk = -1;
	res->contribution = REACT_RANK_NONE;
	res->flow = SIZE_MAX;
	res->message[0] = '\0';
}

/* In-graph filter: graph < 0 means every chunk. */
static int chunk_in(const react_pattern_t *p, int32_t graph, int32_t ch)
{
	return graph < 0 || react_pattern_chunk_graph(p, ch) == graph;
}

static void init_state(react_checker_t *c, const react_pattern_t *p, int32_t graph)
{
	int32_t N = c->nranks, C = c->nchunks;
	int gather = !react_collective_is_reduction(p->collective);
	int owned = gather && p->collective == REACT_COLL_ALLGATHER && C % N == 0;
	int32_t per = owned ? C / N : 0;

	if (graph < 0)
		memset(c->state, 0, (size_t)N * (size_t)C * c->words * sizeof *c->state);
	for (int32_t ch = 0; ch < C; ch++) {
		if (!chunk_in(p, graph, ch))
			continue;
		for (int32_t r = 0; r < N; r++) {
			uint64_t *b = cell(c, r, ch);
			if (graph >= 0)
				memset(b, 0, c->words * sizeof *b);
			if (p->collective == REACT_COLL_BROADCAST) {
				if (r == p->root)
					bit_set(b, r);
			} else if (owned) {
				if (ch / per == r)
					bit_set(b, r);
			} else {
				bit_set(b, r);
			}
		}
	}
}

static react_status_t grow_buf(react_checker_t *c, size_t need)
{
	uint64_t *nb;
	size_t cap = c->bufcap;
	if (need <= cap)
		return REACT_OK;
	while (cap < need)
		cap *= 2;
	nb = realloc(c->buf, cap * sizeof *nb);
	if (!nb)
		return REACT_ENOMEM;
	c->buf = nb;
	c->bufcap = cap;
	return REACT_OK;
}

static int flow_in(const react_pattern_t *p, int32_t graph, const react_flow_t *f)
{
	return graph < 0 || react_pattern_chunk_graph(p, f->chunk) == graph;
}

static react_status_t fail_flow(react_check_result_t *res, react_check_kind_t kind,
                                const react_pattern_t *p, size_t i, react_rank_t rank,
                                int32_t chunk, react_rank_t contrib)
{
	const react_flow_t *f = &p->flows[i];
	if (!res)
		return REACT_ESEMANTIC;
	res->kind = kind;
	res->rank = rank;
	res->chunk = chunk;
	res->contribution = contrib;
	res->flow = i;
	if (kind == REACT_CHECK_NO_DATA)
		snprintf(res->message, sizeof res->message,
		         "flow %zu (step %d, %d -> %d) sends chunk %d but rank %d holds nothing of "
		         "it before step %d",
		         i, f->step, f->src, f->dst, chunk, rank, f->step);
	else
		snprintf(res->message, sizeof res->message,
		         "flow %zu (step %d, %d -> %d, chunk %d) reduces the contribution of rank %d "
		         "into rank %d chunk %d a second time",
		         i, f->step, f->src, f->dst, chunk, contrib, rank, chunk);
	return REACT_ESEMANTIC;
}

static react_status_t fail_missing(react_checker_t *c, react_check_result_t *res,
                                   const react_pattern_t *p, react_rank_t rank, int32_t chunk,
                                   react_rank_t contrib)
{
	(void)c;
	if (!res)
		return REACT_ESEMANTIC;
	res->kind = REACT_CHECK_MISSING;
	res->rank = rank;
	res->chunk = chunk;
	res->contribution = contrib;
	if (react_collective_is_reduction(p->collective))
		snprintf(res->message, sizeof res->message,
		         "rank %d chunk %d lacks the contribution of rank %d at the end (%s needs "
		         "all %d contributions there)",
		         rank, chunk, contrib, react_collective_name(p->collective), p->nranks);
	else
		snprintf(res->message, sizeof res->message,
		         "rank %d never receives the block of rank %d (chunk %d); %s needs it there",
		         rank, contrib, chunk, react_collective_name(p->collective));
	return REACT_ESEMANTIC;
}

static react_status_t postcondition(react_checker_t *c, const react_pattern_t *p, int32_t graph,
                                    react_check_result_t *res)
{
	int32_t N = c->nranks, C = c->nchunks;
	size_t W = c->words;

	switch (p->collective) {
	case REACT_COLL_ALLREDUCE:
		for (int32_t r = 0; r < N; r++)
			for (int32_t ch = 0; ch < C; ch++) {
				int32_t m;
				if (!chunk_in(p, graph, ch))
					continue;
				m = first_missing(c, cell(c, r, ch));
				if (m >= 0)
					return fail_missing(c, res, p, r, ch, m);
			}
		return REACT_OK;
	case REACT_COLL_REDUCESCATTER:
		for (int32_t ch = 0; ch < C; ch++) {
			int32_t m;
			if (!chunk_in(p, graph, ch))
				continue;
			m = first_missing(c, cell(c, ch % N, ch));
			if (m >= 0)
				return fail_missing(c, res, p, ch % N, ch, m);
		}
		return REACT_OK;
	case REACT_COLL_REDUCE:
		for (int32_t ch = 0; ch < C; ch++) {
			int32_t m;
			if (!chunk_in(p, graph, ch))
				continue;
			m = first_missing(c, cell(c, p->root, ch));
			if (m >= 0)
				return fail_missing(c, res, p, p->root, ch, m);
		}
		return REACT_OK;
	case REACT_COLL_BROADCAST:
		for (int32_t r = 0; r < N; r++)
			for (int32_t ch = 0; ch < C; ch++)
				if (chunk_in(p, graph, ch) && !bit_get(cell(c, r, ch), p->root))
					return fail_missing(c, res, p, r, ch, p->root);
		return REACT_OK;
	case REACT_COLL_ALLGATHER: {
		int owned = C % N == 0;
		int32_t per = owned ? C / N : 0;
		/* union over the rank's chunks, in the step buffer */
		if (grow_buf(c, W) != REACT_OK)
			return REACT_ENOMEM;
		for (int32_t r = 0; r < N; r++) {
			uint64_t *u = c->buf;
			memset(u, 0, W * sizeof *u);
			for (int32_t ch = 0; ch < C; ch++) {
				const uint64_t *b = cell(c, r, ch);
				if (!chunk_in(p, graph, ch))
					continue;
				for (size_t k = 0; k < W; k++)
					u[k] |= b[k];
			}
			for (int32_t o = 0; o < N; o++) {
				if (bit_get(u, o))
					continue;
				/* with a graph filter, only blocks that live in the graph count */
				if (owned) {
					if (!chunk_in(p, graph, o * per))
						continue;
					return fail_missing(c, res, p, r, o * per, o);
				}
				return fail_missing(c, res, p, r, C == 1 ? 0 : -1, o);
			}
		}
		return REACT_OK;
	}
	default:
		return REACT_EINVAL;
	}
}

static react_status_t run(react_checker_t *c, const react_pattern_t *p, int32_t graph,
                          react_check_result_t *res)
{
	react_status_t st;
	size_t W, i, n;
	int reduction;

	if (res)
		res_init(res);
	if (!c || !p || p->nranks != c->nranks || p->nchunks != c->nchunks)
		return REACT_EINVAL;
	if ((p->collective == REACT_COLL_BROADCAST || p->collective == REACT_COLL_REDUCE) &&
	    (p->root < 0 || p->root >= p->nranks))
		return REACT_EINVAL;
	if (graph >= 0 && (!p->ix_ || graph >= react_pattern_ngraphs(p)))
		return REACT_EINVAL;
	if (p->collective == REACT_COLL_REDUCESCATTER && p->nchunks % p->nranks != 0) {
		if (res) {
			res->kind = REACT_CHECK_SHAPE;
			snprintf(res->message, sizeof res->message,
			         "reducescatter needs a multiple of %d chunks, the pattern has %d",
			         p->nranks, p->nchunks);
		}
		return REACT_ESEMANTIC;
	}
	W = c->words;
	reduction = react_collective_is_reduction(p->collective);
	init_state(c, p, graph);

	for (i = 0; i < p->nflows; i = n) {
		react_step_t t = p->flows[i].step;
		size_t need = 0, off = 0;
		/* the step's flows are [i, n) */
		for (n = i; n < p->nflows && p->flows[n].step == t; n++) {
			const react_flow_t *f = &p->flows[n];
			if (f->src < 0 || f->src >= p->nranks || f->dst < 0 || f->dst >= p->nranks ||
			    f->chunk < 0 || f->nchunks < 1 || f->chunk + f->nchunks > p->nchunks)
				return REACT_EINVAL;
			if (flow_in(p, graph, f))
				need += (size_t)f->nchunks * W;
		}
		if (n < p->nflows && p->flows[n].step < t)
			return REACT_EINVAL; /* flows must be sorted by step */
		st = grow_buf(c, need);
		if (st != REACT_OK)
			return st;
		/* snapshot the senders */
		for (size_t j = i; j < n; j++) {
			const react_flow_t *f = &p->flows[j];
			if (!flow_in(p, graph, f))
				continue;
			for (int32_t ch = f->chunk; ch < f->chunk + f->nchunks; ch++) {
				const uint64_t *b = cell(c, f->src, ch);
				if (is_empty(b, W))
					return fail_flow(res, REACT_CHECK_NO_DATA, p, j, f->src, ch,
					                 REACT_RANK_NONE);
				memcpy(c->buf + off, b, W * sizeof *b);
				off += W;
			}
		}
		/* deliver */
		off = 0;
		for (size_t j = i; j < n; j++) {
			const react_flow_t *f = &p->flows[j];
			if (!flow_in(p, graph, f))
				continue;
			for (int32_t ch = f->chunk; ch < f->chunk + f->nchunks; ch++) {
				uint64_t *d = cell(c, f->dst, ch);
				const uint64_t *s = c->buf + off;
				off += W;
				if (f->op == REACT_RECV_REDUCE) {
					int32_t dup = first_common(d, s, W);
					if (dup >= 0)
						return fail_flow(res, REACT_CHECK_DUPLICATE, p, j, f->dst, ch,
						                 dup);
					for (size_t k = 0; k < W; k++)
						d[k] |= s[k];
				} else if (reduction) {
					memcpy(d, s, W * sizeof *d);
				} else {
					for (size_t k = 0; k < W; k++)
						d[k] |= s[k];
				}
			}
		}
	}
	return postcondition(c, p, graph, res);
}

react_status_t react_checker_run(react_checker_t *c, const react_pattern_t *p,
                                 react_check_result_t *res)
{
	return run(c, p, -1, res);
}

react_status_t react_checker_run_graph(react_checker_t *c, const react_pattern_t *p,
                                       int32_t graph, react_check_result_t *res)
{
	if (graph < 0) {
		if (res)
			res_init(res);
		return REACT_EINVAL;
	}
	return run(c, p, graph, res);
}

react_status_t react_pattern_check(const react_pattern_t *p, react_check_result_t *res)
{
	react_checker_t *c = NULL;
	react_status_t st;
	if (res)
		res_init(res);
	if (!p)
		return REACT_EINVAL;
	st = react_checker_create(p->nranks, p->nchunks, &c);
	if (st != REACT_OK)
		return st;
	st = react_checker_run(c, p, res);
	react_checker_destroy(c);
	return st;
}
