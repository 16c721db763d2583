/*
 * pattern.c - the TEN pattern model: creation, validation, the derived index.
 *
 * The index is built in O(F + N*T + sum of nchunks over flows) time and
 * memory for F flows, N ranks and T steps:
 *   - step offsets (flows are sorted by step),
 *   - per-(step, rank) CSR of sent and received flow ids (the degrees are the
 *     row lengths),
 *   - chunk graphs: union-find over the data chunks that a flow carries
 *     together, numbered in order of their lowest chunk,
 *   - predecessor CSR: for each flow f, the flows g with g.dst == f.src,
 *     g.step < f.step and a data chunk in common.  It is filled by scanning
 *     the steps in order with one running list of received flows per
 *     (rank, chunk); the lists only hold earlier steps when a step is read.
 */
#include <stdlib.h>
#include <string.h>

#include "react/pattern.h"
#include "pattern_internal.h"

/* Running list node: one received flow, per (rank, chunk). */
struct pred_node {
	uint32_t flow;
	uint32_t next;
};

/* The index of a pattern's flows.  Its arrays are sized by the pattern's
 * steps, ranks, flows and chunk slots (the dims below); a rebuild or a
 * copy into a pattern of the same dims reuses them, so relabelling a
 * pattern (a swap) and copying one allocate nothing. */
struct react_pattern_index {
	int32_t nsteps;
	int32_t nranks;
	size_t nflows;
	int32_t nchunks;
	size_t nnodes;     /* sum of the flows' nchunks: build_preds' list nodes */
	size_t *step_off;  /* nsteps + 1 */
	uint32_t *out_off; /* nsteps * nranks + 1, into out_ids */
	uint32_t *in_off;  /* nsteps * nranks + 1, into in_ids */
	size_t *out_ids;   /* nflows */
	size_t *in_ids;    /* nflows */
	int32_t ngraphs;
	int32_t *chunk_graph; /* nchunks */
	size_t *pred_off;     /* nflows + 1 */
	size_t *preds;        /* predcap, pred_off[nflows] used */
	size_t *succ_off;     /* nflows + 1 */
	size_t *succs;        /* predcap: the same relation by predecessor, successors ascending */
	size_t predcap;
	react_flow_t *snap;     /* nflows: the flows as last indexed */
	/* scratch */
	uint32_t *cursor;       /* nranks */
	unsigned char *dirty;   /* nsteps */
	uint32_t *head;         /* nranks * nchunks */
	uint32_t *stamp;        /* nflows */
	struct pred_node *nodes; /* nnodes */
	int32_t *uf;            /* nchunks */
};

static const char *const coll_names[REACT_COLL_COUNT_] = {
	"allreduce", "allgather", "reducescatter", "broadcast", "reduce",
};
static const char *const algo_names[REACT_ALGO_COUNT_] = {
	"tree", "ring", "recdbl", "rhd", "custom",
};

const char *react_collective_name(react_collective_t c)
{
	return ((unsigned)c < REACT_COLL_COUNT_) ? coll_names[c] : "?";
}

const char *react_algorithm_name(react_algorithm_t a)
{
	return ((unsigned)a < REACT_ALGO_COUNT_) ? algo_names[a] : "?";
}

react_status_t react_collective_parse(const char *name, react_collective_t *out)
{
	if (!name || !out)
		return REACT_EINVAL;
	for (int i = 0; i < REACT_COLL_COUNT_; i++)
		if (!strcmp(name, coll_names[i])) {
			*out = (react_collective_t)i;
			return REACT_OK;
		}
	return REACT_EINVAL;
}

react_status_t react_algorithm_parse(const char *name, react_algorithm_t *out)
{
	if (!name || !out)
		return REACT_EINVAL;
	for (int i = 0; i < REACT_ALGO_COUNT_; i++)
		if (!strcmp(name, algo_names[i])) {
			*out = (react_algorithm_t)i;
			return REACT_OK;
		}
	return REACT_EINVAL;
}

int react_collective_is_reduction(react_collective_t c)
{
	return c == REACT_COLL_ALLREDUCE || c == REACT_COLL_REDUCESCATTER || c == REACT_COLL_REDUCE;
}

react_status_t react_pattern_create(react_collective_t coll, react_algorithm_t algo,
                                    int32_t nranks, int32_t nchunks,
                                    uint64_t message_bytes, react_pattern_t **out)
{
	react_pattern_t *p = NULL;
	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if ((unsigned)coll >= REACT_COLL_COUNT_ || (unsigned)algo >= REACT_ALGO_COUNT_ ||
	    nranks < 1 || nchunks < 1)
		return REACT_EINVAL;
	p = calloc(1, sizeof *p);
	if (!p)
		return REACT_ENOMEM;
	p->collective = coll;
	p->algorithm = algo;
	p->nranks = nranks;
	p->nchunks = nchunks;
	p->root = REACT_RANK_NONE;
	p->message_bytes = message_bytes;
	*out = p;
	return REACT_OK;
}

react_status_t react_pattern_reserve_(react_pattern_t *p, size_t n)
{
	react_flow_t *nf;
	if (n <= p->cap_)
		return REACT_OK;
	if (n > SIZE_MAX / sizeof *nf)
		return REACT_ENOMEM;
	nf = realloc(p->flows, n * sizeof *nf);
	if (!nf)
		return REACT_ENOMEM;
	p->flows = nf;
	p->cap_ = n;
	return REACT_OK;
}

react_status_t react_pattern_add_flow(react_pattern_t *p, const react_flow_t *f)
{
	react_status_t st;
	if (!p || !f)
		return REACT_EINVAL;
	if (p->nflows == p->cap_) {
		st = react_pattern_reserve_(p, p->cap_ ? p->cap_ * 2 : 64);
		if (st != REACT_OK)
			return st;
	}
	p->flows[p->nflows++] = *f;
	return REACT_OK;
}

static void index_free(struct react_pattern_index *ix)
{
	if (!ix)
		return;
	free(ix->step_off);
	free(ix->out_off);
	free(ix->in_off);
	free(ix->out_ids);
	free(ix->in_ids);
	free(ix->chunk_graph);
	free(ix->pred_off);
	free(ix->preds);
	free(ix->succ_off);
	free(ix->succs);
	free(ix->head);
	free(ix->stamp);
	free(ix->nodes);
	free(ix->uf);
	free(ix->snap);
	free(ix->cursor);
	free(ix->dirty);
	free(ix);
}

void react_pattern_destroy(react_pattern_t *p)
{
	if (!p)
		return;
	index_free(p->ix_);
	free(p->flows);
	free(p);
}

static int32_t uf_find(int32_t *parent, int32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* Fill the per-(step, rank) CSR `off`/`ids` keyed by src (by_dst = 0) or dst. */
static void build_rank_csr(const react_pattern_t *p, int by_dst, uint32_t *off, size_t *ids)
{
	size_t cells = (size_t)p->nsteps * (size_t)p->nranks;
	memset(off, 0, (cells + 1) * sizeof *off);
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *f = &p->flows[i];
		size_t cell = (size_t)f->step * (size_t)p->nranks + (size_t)(by_dst ? f->dst : f->src);
		off[cell + 1]++;
	}
	for (size_t c = 0; c < cells; c++)
		off[c + 1] += off[c];
	/* Fill using off[cell] as a cursor, then shift back. */
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *f = &p->flows[i];
		size_t cell = (size_t)f->step * (size_t)p->nranks + (size_t)(by_dst ? f->dst : f->src);
		ids[off[cell]++] = i;
	}
	for (size_t c = cells; c > 0; c--)
		off[c] = off[c - 1];
	off[0] = 0;
}

/* The same as build_rank_csr for the cells of step t only (the other
 * steps' cells and every step's range of flows stay as they are). */
static void step_rank_csr(const react_pattern_t *p, const size_t *step_off, react_step_t t,
                          int by_dst, uint32_t *off, size_t *ids, uint32_t *cur)
{
	int32_t N = p->nranks;
	size_t b = step_off[t], e = step_off[t + 1];
	uint32_t *o = off + (size_t)t * (size_t)N, acc = (uint32_t)b;
	memset(cur, 0, (size_t)N * sizeof *cur);
	for (size_t i = b; i < e; i++)
		cur[by_dst ? p->flows[i].dst : p->flows[i].src]++;
	for (int32_t r = 0; r < N; r++) {
		uint32_t n = cur[r];
		o[r] = cur[r] = acc;
		acc += n;
	}
	for (size_t i = b; i < e; i++)
		ids[cur[by_dst ? p->flows[i].dst : p->flows[i].src]++] = i;
}

#define NODE_NONE UINT32_MAX

/* The data dependencies of every flow (preds, and succs by transposing
 * them), into ix, whose dims match p. */
static react_status_t build_preds(const react_pattern_t *p, struct react_pattern_index *ix)
{
	size_t cells = (size_t)p->nranks * (size_t)p->nchunks;
	size_t nnodes = 0, npreds = 0;
	uint32_t *head = ix->head, *stamp = ix->stamp;
	struct pred_node *nodes = ix->nodes;

	for (size_t c = 0; c < cells; c++)
		head[c] = NODE_NONE;
	for (size_t i = 0; i < p->nflows; i++)
		stamp[i] = NODE_NONE;

	for (int32_t t = 0; t < p->nsteps; t++) {
		size_t b = ix->step_off[t], e = ix->step_off[t + 1];
		/* Read: every list holds steps < t only. */
		for (size_t i = b; i < e; i++) {
			const react_flow_t *f = &p->flows[i];
			ix->pred_off[i] = npreds;
			for (int32_t c = f->chunk; c < f->chunk + f->nchunks; c++) {
				uint32_t n = head[(size_t)f->src * (size_t)p->nchunks + (size_t)c];
				for (; n != NODE_NONE; n = nodes[n].next) {
					uint32_t g = nodes[n].flow;
					if (stamp[g] == (uint32_t)i)
						continue;
					stamp[g] = (uint32_t)i;
					if (npreds == ix->predcap) {
						size_t *np = realloc(ix->preds, ix->predcap * 2 * sizeof *np);
						if (!np)
							return REACT_ENOMEM;
						ix->preds = np;
						if (!(np = realloc(ix->succs, ix->predcap * 2 * sizeof *np)))
							return REACT_ENOMEM;
						ix->succs = np;
						ix->predcap *= 2;
					}
					ix->preds[npreds++] = g;
				}
			}
		}
		/* Write: the flows of step t arrive at their receivers. */
		for (size_t i = b; i < e; i++) {
			const react_flow_t *f = &p->flows[i];
			for (int32_t c = f->chunk; c < f->chunk + f->nchunks; c++) {
				size_t cell = (size_t)f->dst * (size_t)p->nchunks + (size_t)c;
				nodes[nnodes].flow = (uint32_t)i;
				nodes[nnodes].next = head[cell];
				head[cell] = (uint32_t)nnodes;
				nnodes++;
			}
		}
	}
	ix->pred_off[p->nflows] = npreds;
	/* successors: the transpose, by counting; filled in increasing flow
	 * order, so every list is ascending */
	memset(ix->succ_off, 0, (p->nflows + 1) * sizeof *ix->succ_off);
	for (size_t i = 0; i < npreds; i++)
		ix->succ_off[ix->preds[i] + 1]++;
	for (size_t f = 0; f < p->nflows; f++)
		ix->succ_off[f + 1] += ix->succ_off[f];
	for (size_t g = 0; g < p->nflows; g++) /* succ_off[f] is f's cursor */
		for (size_t i = ix->pred_off[g]; i < ix->pred_off[g + 1]; i++)
			ix->succs[ix->succ_off[ix->preds[i]]++] = g;
	for (size_t f = p->nflows; f > 0; f--) /* cursors back into offsets */
		ix->succ_off[f] = ix->succ_off[f - 1];
	ix->succ_off[0] = 0;
	return REACT_OK;
}

/* An index for p's dims: p's own when it has those dims (*reused = 1),
 * else a new one (p's old one freed).  NULL when out of memory. */
static struct react_pattern_index *index_for(react_pattern_t *p, size_t nnodes, int *reused)
{
	struct react_pattern_index *ix = p->ix_;
	size_t cells = (size_t)p->nsteps * (size_t)p->nranks, F = p->nflows ? p->nflows : 1;
	size_t heads = (size_t)p->nranks * (size_t)p->nchunks;
	*reused = ix && ix->nsteps == p->nsteps && ix->nranks == p->nranks &&
	          ix->nflows == p->nflows && ix->nchunks == p->nchunks && ix->nnodes == nnodes;
	if (*reused)
		return ix;
	index_free(ix);
	p->ix_ = NULL;
	if (!(ix = calloc(1, sizeof *ix)))
		return NULL;
	ix->nsteps = p->nsteps;
	ix->nranks = p->nranks;
	ix->nflows = p->nflows;
	ix->nchunks = p->nchunks;
	ix->nnodes = nnodes;
	ix->predcap = F;
	ix->step_off = malloc(((size_t)p->nsteps + 1) * sizeof *ix->step_off);
	ix->out_off = malloc((cells + 1) * sizeof *ix->out_off);
	ix->in_off = malloc((cells + 1) * sizeof *ix->in_off);
	ix->out_ids = malloc(F * sizeof *ix->out_ids);
	ix->in_ids = malloc(F * sizeof *ix->in_ids);
	ix->chunk_graph = malloc((size_t)p->nchunks * sizeof *ix->chunk_graph);
	ix->pred_off = malloc((F + 1) * sizeof *ix->pred_off);
	ix->preds = malloc(F * sizeof *ix->preds);
	ix->succ_off = malloc((F + 1) * sizeof *ix->succ_off);
	ix->succs = malloc(F * sizeof *ix->succs);
	ix->head = malloc((heads ? heads : 1) * sizeof *ix->head);
	ix->stamp = malloc(F * sizeof *ix->stamp);
	ix->nodes = malloc((nnodes ? nnodes : 1) * sizeof *ix->nodes);
	ix->uf = malloc((size_t)p->nchunks * sizeof *ix->uf);
	ix->snap = malloc(F * sizeof *ix->snap);
	ix->cursor = malloc((size_t)p->nranks * sizeof *ix->cursor);
	ix->dirty = malloc((size_t)p->nsteps + 1);
	if (!ix->snap || !ix->cursor || !ix->dirty ||
	    !ix->step_off || !ix->out_off || !ix->in_off || !ix->out_ids || !ix->in_ids ||
	    !ix->chunk_graph || !ix->pred_off || !ix->preds || !ix->succ_off || !ix->succs ||
	    !ix->head || !ix->stamp || !ix->nodes || !ix->uf) {
		index_free(ix);
		return NULL;
	}
	p->ix_ = ix;
	return ix;
}

/* A flow's fields that only a full rebuild may see change (a reindex
 * after a swap changes senders and receivers only). */
static int same_layout(const react_flow_t *a, const react_flow_t *b)
{
	return a->step == b->step && a->chunk == b->chunk && a->nchunks == b->nchunks;
}

/* The index of p's flows.  When p already has an index of the same dims
 * and only senders and receivers changed since it was built (a swap), the
 * step offsets and chunk graphs stand and only the steps with a changed
 * flow get their rank tables rebuilt; the predecessors are always rebuilt.
 * Either way the index is the one a build from scratch gives. */
static react_status_t build_index(react_pattern_t *p)
{
	react_status_t st;
	struct react_pattern_index *ix;
	int32_t *uf;
	size_t nnodes = 0;
	int reused;

	if (p->nflows >= UINT32_MAX)
		return REACT_EUNSUPPORTED;
	for (size_t i = 0; i < p->nflows; i++)
		nnodes += (size_t)p->flows[i].nchunks;
	if (nnodes >= NODE_NONE)
		return REACT_EUNSUPPORTED;
	if (!(ix = index_for(p, nnodes, &reused)))
		return REACT_ENOMEM;
	if (reused) {
		memset(ix->dirty, 0, (size_t)p->nsteps);
		for (size_t i = 0; i < p->nflows && reused; i++) {
			const react_flow_t *f = &p->flows[i], *o = &ix->snap[i];
			reused = same_layout(f, o);
			if (f->src != o->src || f->dst != o->dst)
				ix->dirty[f->step] = 1;
		}
	}
	if (reused) {
		for (react_step_t t = 0; t < p->nsteps; t++)
			if (ix->dirty[t]) {
				step_rank_csr(p, ix->step_off, t, 0, ix->out_off, ix->out_ids, ix->cursor);
				step_rank_csr(p, ix->step_off, t, 1, ix->in_off, ix->in_ids, ix->cursor);
			}
		goto preds;
	}
	uf = ix->uf;

	memset(ix->step_off, 0, ((size_t)p->nsteps + 1) * sizeof *ix->step_off);
	for (size_t i = 0; i < p->nflows; i++)
		ix->step_off[p->flows[i].step + 1]++;
	for (int32_t t = 0; t < p->nsteps; t++)
		ix->step_off[t + 1] += ix->step_off[t];

	build_rank_csr(p, 0, ix->out_off, ix->out_ids);
	build_rank_csr(p, 1, ix->in_off, ix->in_ids);

	/* Chunk graphs. */
	for (int32_t c = 0; c < p->nchunks; c++)
		uf[c] = c;
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *f = &p->flows[i];
		int32_t r0 = uf_find(uf, f->chunk);
		for (int32_t c = f->chunk + 1; c < f->chunk + f->nchunks; c++) {
			int32_t rc = uf_find(uf, c);
			if (rc != r0) {
				/* keep the lower chunk as representative */
				if (rc < r0) {
					uf[r0] = rc;
					r0 = rc;
				} else {
					uf[rc] = r0;
				}
			}
		}
	}
	ix->ngraphs = 0;
	for (int32_t c = 0; c < p->nchunks; c++) {
		int32_t r = uf_find(uf, c);
		if (r == c)
			ix->chunk_graph[c] = ix->ngraphs++;
		else
			ix->chunk_graph[c] = ix->chunk_graph[r];
	}

preds:
	if ((st = build_preds(p, ix)) != REACT_OK) {
		index_free(ix);
		p->ix_ = NULL;
		return st;
	}
	if (p->nflows)
		memcpy(ix->snap, p->flows, p->nflows * sizeof *ix->snap);
	return REACT_OK;
}

static void set_why(char *why, size_t whylen, size_t i, const char *field, const char *what)
{
	if (why && whylen)
		snprintf(why, whylen, "flows[%zu].%s: %s", i, field, what);
}

react_status_t react_pattern_finalize(react_pattern_t *p, char *why, size_t whylen)
{
	react_status_t st = REACT_EINVAL;
	int32_t maxstep = -1;
	int sorted = 1;
	react_flow_t *tmp = NULL;
	size_t *cnt = NULL;

	if (why && whylen)
		why[0] = '\0';
	if (!p)
		goto fail;
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *f = &p->flows[i];
		if (f->step < 0) {
			set_why(why, whylen, i, "step", "must be >= 0");
			goto fail;
		}
		if (f->src < 0 || f->src >= p->nranks) {
			set_why(why, whylen, i, "src", "rank out of range");
			goto fail;
		}
		if (f->dst < 0 || f->dst >= p->nranks) {
			set_why(why, whylen, i, "dst", "rank out of range");
			goto fail;
		}
		if (f->src == f->dst) {
			set_why(why, whylen, i, "dst", "equals src");
			goto fail;
		}
		if (f->nchunks < 1) {
			set_why(why, whylen, i, "nchunks", "must be >= 1");
			goto fail;
		}
		if (f->chunk < 0 || f->chunk >= p->nchunks ||
		    (int64_t)f->chunk + f->nchunks > p->nchunks) {
			set_why(why, whylen, i, "chunk", "chunk range outside the pattern's chunks");
			goto fail;
		}
		if (f->op != REACT_RECV_STORE && f->op != REACT_RECV_REDUCE) {
			set_why(why, whylen, i, "op", "must be store or reduce");
			goto fail;
		}
		if (i > 0 && f->step < p->flows[i - 1].step)
			sorted = 0;
		if (f->step > maxstep)
			maxstep = f->step;
	}
	p->nsteps = maxstep + 1;
	if (!sorted) {
		/* Stable counting sort by step. */
		st = REACT_ENOMEM;
		tmp = malloc(p->nflows * sizeof *tmp);
		cnt = calloc((size_t)p->nsteps + 1, sizeof *cnt);
		if (!tmp || !cnt)
			goto fail;
		for (size_t i = 0; i < p->nflows; i++)
			cnt[p->flows[i].step + 1]++;
		for (int32_t t = 0; t < p->nsteps; t++)
			cnt[t + 1] += cnt[t];
		for (size_t i = 0; i < p->nflows; i++)
			tmp[cnt[p->flows[i].step]++] = p->flows[i];
		memcpy(p->flows, tmp, p->nflows * sizeof *tmp);
	}
	st = build_index(p);
	if (st != REACT_OK && why && whylen)
		snprintf(why, whylen, "building the pattern index: %s", react_status_str(st));
fail:
	free(tmp);
	free(cnt);
	return st;
}

react_status_t react_pattern_reindex(react_pattern_t *p)
{
	if (!p)
		return REACT_EINVAL;
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *f = &p->flows[i];
		if (f->src < 0 || f->src >= p->nranks || f->dst < 0 || f->dst >= p->nranks ||
		    f->src == f->dst)
			return REACT_EINVAL;
	}
	return build_index(p);
}

react_status_t react_pattern_copy(react_pattern_t *dst, const react_pattern_t *src)
{
	react_status_t st;
	const struct react_pattern_index *sx;
	struct react_pattern_index *ix;
	size_t cells, F;
	int reused;
	if (!dst || !src)
		return REACT_EINVAL;
	if (dst == src)
		return REACT_OK;
	if ((st = react_pattern_reserve_(dst, src->nflows ? src->nflows : 1)) != REACT_OK)
		return st;
	dst->collective = src->collective;
	dst->algorithm = src->algorithm;
	dst->nranks = src->nranks;
	dst->nsteps = src->nsteps;
	dst->nchunks = src->nchunks;
	dst->root = src->root;
	dst->message_bytes = src->message_bytes;
	dst->nflows = src->nflows;
	if (src->nflows)
		memcpy(dst->flows, src->flows, src->nflows * sizeof *dst->flows);
	if (!(sx = src->ix_)) {
		index_free(dst->ix_);
		dst->ix_ = NULL;
		return REACT_OK;
	}
	/* the same flows in the same order: the same index, copied */
	if (!(ix = index_for(dst, sx->nnodes, &reused)))
		return REACT_ENOMEM;
	if (ix->predcap < sx->pred_off[src->nflows]) {
		size_t cap = sx->predcap, *np;
		if (!(np = realloc(ix->preds, cap * sizeof *np)))
			goto oom;
		ix->preds = np;
		if (!(np = realloc(ix->succs, cap * sizeof *np)))
			goto oom;
		ix->succs = np;
		ix->predcap = cap;
	}
	cells = (size_t)sx->nsteps * (size_t)sx->nranks;
	F = src->nflows;
	ix->ngraphs = sx->ngraphs;
	memcpy(ix->step_off, sx->step_off, ((size_t)sx->nsteps + 1) * sizeof *ix->step_off);
	memcpy(ix->out_off, sx->out_off, (cells + 1) * sizeof *ix->out_off);
	memcpy(ix->in_off, sx->in_off, (cells + 1) * sizeof *ix->in_off);
	memcpy(ix->out_ids, sx->out_ids, F * sizeof *ix->out_ids);
	memcpy(ix->in_ids, sx->in_ids, F * sizeof *ix->in_ids);
	memcpy(ix->chunk_graph, sx->chunk_graph, (size_t)sx->nchunks * sizeof *ix->chunk_graph);
	memcpy(ix->pred_off, sx->pred_off, (F + 1) * sizeof *ix->pred_off);
	memcpy(ix->preds, sx->preds, sx->pred_off[F] * sizeof *ix->preds);
	memcpy(ix->succ_off, sx->succ_off, (F + 1) * sizeof *ix->succ_off);
	memcpy(ix->succs, sx->succs, sx->pred_off[F] * sizeof *ix->succs);
	memcpy(ix->snap, sx->snap, F * sizeof *ix->snap);
	return REACT_OK;
oom:
	index_free(ix);
	dst->ix_ = NULL;
	return REACT_ENOMEM;
}

react_status_t react_pattern_clone(const react_pattern_t *p, react_pattern_t **out)
{
	react_status_t st;
	react_pattern_t *q = NULL;
	if (!p || !out)
		return REACT_EINVAL;
	*out = NULL;
	st = react_pattern_create(p->collective, p->algorithm, p->nranks, p->nchunks,
	                          p->message_bytes, &q);
	if (st == REACT_OK)
		st = react_pattern_copy(q, p);
	if (st != REACT_OK) {
		react_pattern_destroy(q);
		return st;
	}
	*out = q;
	return REACT_OK;
}

react_status_t react_pattern_permute(react_pattern_t *p, const react_rank_t *perm)
{
	unsigned char *seen;
	int32_t n;
	if (!p || !perm || p->nranks < 1)
		return REACT_EINVAL;
	n = p->nranks;
	if (!(seen = calloc((size_t)n, 1)))
		return REACT_ENOMEM;
	for (int32_t r = 0; r < n; r++) {
		if (perm[r] < 0 || perm[r] >= n || seen[perm[r]]) {
			free(seen);
			return REACT_EINVAL;
		}
		seen[perm[r]] = 1;
	}
	free(seen);
	for (size_t i = 0; i < p->nflows; i++) {
		react_flow_t *f = &p->flows[i];
		if (f->src < 0 || f->src >= n || f->dst < 0 || f->dst >= n)
			return REACT_EINVAL;
	}
	for (size_t i = 0; i < p->nflows; i++) {
		p->flows[i].src = perm[p->flows[i].src];
		p->flows[i].dst = perm[p->flows[i].dst];
	}
	return react_pattern_reindex(p);
}

static int flow_equal(const react_flow_t *a, const react_flow_t *b)
{
	return a->step == b->step && a->src == b->src && a->dst == b->dst && a->chunk == b->chunk &&
	       a->nchunks == b->nchunks && a->bytes == b->bytes && a->op == b->op;
}

int react_pattern_equal(const react_pattern_t *a, const react_pattern_t *b)
{
	if (!a || !b)
		return a == b;
	if (a->collective != b->collective || a->algorithm != b->algorithm ||
	    a->nranks != b->nranks || a->nsteps != b->nsteps || a->nchunks != b->nchunks ||
	    a->root != b->root || a->message_bytes != b->message_bytes || a->nflows != b->nflows)
		return 0;
	for (size_t i = 0; i < a->nflows; i++)
		if (!flow_equal(&a->flows[i], &b->flows[i]))
			return 0;
	return 1;
}

int react_pattern_same_flows(const react_pattern_t *a, const react_pattern_t *b)
{
	if (!a || !b || a->nranks != b->nranks || a->nflows != b->nflows)
		return 0;
	for (size_t i = 0; i < a->nflows; i++)
		if (a->flows[i].step != b->flows[i].step || a->flows[i].chunk != b->flows[i].chunk ||
		    a->flows[i].bytes != b->flows[i].bytes)
			return 0;
	return 1;
}

int react_pattern_is_ring(const react_pattern_t *p)
{
	size_t N;
	react_rank_t *to, *from;
	int ring = 1;
	if (!p || p->nranks < 3)
		return 0;
	N = (size_t)p->nranks;
	to = malloc(2 * N * sizeof *to);
	if (!to)
		return 0;
	from = to + N;
	for (size_t r = 0; r < 2 * N; r++)
		to[r] = -1;
	for (size_t i = 0; ring && i < p->nflows; i++) {
		react_rank_t s = p->flows[i].src, d = p->flows[i].dst;
		if (s == d)
			continue;
		if ((to[s] >= 0 && to[s] != d) || (from[d] >= 0 && from[d] != s))
			ring = 0;
		to[s] = d;
		from[d] = s;
	}
	for (size_t r = 0; ring && r < N; r++)
		ring = to[r] >= 0 && from[r] >= 0;
	free(to);
	return ring;
}

/* FNV-1a over the 8 bytes of v, low byte first.  A zero byte only
 * multiplies by the prime, so the high zero bytes of a small v are one
 * multiplication by a power of it: the same value in fewer steps. */
static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
	/* the FNV-1a prime to the powers 0..8, mod 2^64 */
	static const uint64_t prime_pow[9] = {
		0x0000000000000001ULL, 0x00000100000001b3ULL, 0x000366000002e329ULL,
		0x08a97b0004e7feabULL, 0x9ffaac085635bc91ULL, 0x0caee32a7d4f6a63ULL,
		0xdc966432edf1c639ULL, 0xc5527b8a51d3d2dbULL, 0x1efac7090aef4a21ULL};
	int i = 0;
	for (; i < 8 && v; i++, v >>= 8) {
		h ^= v & 0xffu;
		h *= prime_pow[1];
	}
	return h * prime_pow[8 - i];
}

uint64_t react_pattern_hash(const react_pattern_t *p)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	if (!p)
		return h;
	h = fnv_u64(h, (uint64_t)p->collective);
	h = fnv_u64(h, (uint64_t)p->algorithm);
	h = fnv_u64(h, (uint64_t)(uint32_t)p->nranks);
	h = fnv_u64(h, (uint64_t)(uint32_t)p->nsteps);
	h = fnv_u64(h, (uint64_t)(uint32_t)p->nchunks);
	h = fnv_u64(h, (uint64_t)(uint32_t)p->root);
	h = fnv_u64(h, p->message_bytes);
	h = fnv_u64(h, (uint64_t)p->nflows);
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *f = &p->flows[i];
		h = fnv_u64(h, (uint64_t)(uint32_t)f->step);
		h = fnv_u64(h, (uint64_t)(uint32_t)f->src);
		h = fnv_u64(h, (uint64_t)(uint32_t)f->dst);
		h = fnv_u64(h, (uint64_t)(uint32_t)f->chunk);
		h = fnv_u64(h, (uint64_t)(uint32_t)f->nchunks);
		h = fnv_u64(h, f->bytes);
		h = fnv_u64(h, (uint64_t)f->op);
	}
	return h;
}

/* ---- derived queries ---- */

static int cell_ok(const react_pattern_t *p, react_step_t t, react_rank_t r)
{
	return p && p->ix_ && t >= 0 && t < p->ix_->nsteps && r >= 0 && r < p->ix_->nranks;
}

size_t react_pattern_step_begin(const react_pattern_t *p, react_step_t t)
{
	if (!p || !p->ix_ || t < 0)
		return 0;
	if (t > p->ix_->nsteps)
		t = p->ix_->nsteps;
	return p->ix_->step_off[t];
}

int32_t react_pattern_out_degree(const react_pattern_t *p, react_step_t t, react_rank_t r)
{
	size_t c;
	if (!cell_ok(p, t, r))
		return 0;
	c = (size_t)t * (size_t)p->ix_->nranks + (size_t)r;
	return (int32_t)(p->ix_->out_off[c + 1] - p->ix_->out_off[c]);
}

int32_t react_pattern_in_degree(const react_pattern_t *p, react_step_t t, react_rank_t r)
{
	size_t c;
	if (!cell_ok(p, t, r))
		return 0;
	c = (size_t)t * (size_t)p->ix_->nranks + (size_t)r;
	return (int32_t)(p->ix_->in_off[c + 1] - p->ix_->in_off[c]);
}

int32_t react_pattern_flow_degree(const react_pattern_t *p, size_t f)
{
	int32_t o, i;
	if (!p || !p->ix_ || f >= p->nflows)
		return 0;
	o = react_pattern_out_degree(p, p->flows[f].step, p->flows[f].src);
	i = react_pattern_in_degree(p, p->flows[f].step, p->flows[f].dst);
	return o > i ? o : i;
}

int32_t react_pattern_ngraphs(const react_pattern_t *p)
{
	return (p && p->ix_) ? p->ix_->ngraphs : 0;
}

int32_t react_pattern_chunk_graph(const react_pattern_t *p, int32_t chunk)
{
	if (!p || !p->ix_ || chunk < 0 || chunk >= p->nchunks)
		return -1;
	return p->ix_->chunk_graph[chunk];
}

int32_t react_pattern_flow_graph(const react_pattern_t *p, size_t f)
{
	if (!p || !p->ix_ || f >= p->nflows)
		return -1;
	return p->ix_->chunk_graph[p->flows[f].chunk];
}

size_t react_pattern_preds(const react_pattern_t *p, size_t f, const size_t **preds)
{
	if (preds)
		*preds = NULL;
	if (!p || !p->ix_ || f >= p->nflows)
		return 0;
	if (preds)
		*preds = p->ix_->preds + p->ix_->pred_off[f];
	return p->ix_->pred_off[f + 1] - p->ix_->pred_off[f];
}

const size_t *react_pattern_pred_lists(const react_pattern_t *p, const size_t **preds)
{
	*preds = p && p->ix_ ? p->ix_->preds : NULL;
	return p && p->ix_ ? p->ix_->pred_off : NULL;
}

size_t react_pattern_succs(const react_pattern_t *p, size_t f, const size_t **succs)
{
	if (succs)
		*succs = NULL;
	if (!p || !p->ix_ || f >= p->nflows)
		return 0;
	if (succs)
		*succs = p->ix_->succs + p->ix_->succ_off[f];
	return p->ix_->succ_off[f + 1] - p->ix_->succ_off[f];
}

/* The flows of cell (t, r) in one of the two per-(step, rank) CSR lists. */
static size_t cell_slice(const react_pattern_t *p, react_step_t t, react_rank_t r,
                         const uint32_t *off, const size_t *list, const size_t **ids)
{
	size_t c;
	if (ids)
		*ids = NULL;
	if (!cell_ok(p, t, r))
		return 0;
	c = (size_t)t * (size_t)p->ix_->nranks + (size_t)r;
	if (ids)
		*ids = list + off[c];
	return off[c + 1] - off[c];
}

size_t react_pattern_rank_out(const react_pattern_t *p, react_step_t t, react_rank_t r,
                              const size_t **ids)
{
	if (!p || !p->ix_)
		return cell_slice(p, t, r, NULL, NULL, ids);
	return cell_slice(p, t, r, p->ix_->out_off, p->ix_->out_ids, ids);
}

size_t react_pattern_rank_in(const react_pattern_t *p, react_step_t t, react_rank_t r,
                             const size_t **ids)
{
	if (!p || !p->ix_)
		return cell_slice(p, t, r, NULL, NULL, ids);
	return cell_slice(p, t, r, p->ix_->in_off, p->ix_->in_ids, ids);
}
