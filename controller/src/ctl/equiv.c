/*
 * equiv.c - position-equivalent sets (5.3.1 transform 3, appendix A.3).
 *
 * Both algorithms compute the connected components of the "swappable"
 * relation per (chunk graph g, vertex time t) with a union-find over ranks.
 *
 * react_equiv_brute: the reference.  Every pair (x, y) is swapped (POSITION
 * transform, in place on one working copy; the transform is an involution,
 * so applying it again restores the pattern) and checked with one reused
 * checker.  A pair whose swap changes no flow (neither vertex has an edge in
 * g at t) is the original pattern and is swappable without a check.  For
 * AllReduce with several chunk graphs, each graph is checked on its own
 * flows only (a sub-pattern of its chunks): exact, because the check's state
 * and the AllReduce postcondition are per data chunk.
 *
 * react_equiv_fast: the same components with fewer checks: a pair whose
 * two ranks are already in one component is not tested, since its answer
 * cannot change the components (exact, no assumption on the relation).
 * Idle ranks are united first (their swaps are identities), so the active
 * ranks are tested against large components early.
 * The answers are the components, so both give identical sets; tests
 * compare them on every generator for N = 2 .. 32.
 */
#include <stdlib.h>
#include <string.h>

#include "react/check.h"
#include "react/equiv.h"
#include "react/transform.h"

struct react_equiv {
	int32_t nranks, ngraphs, nsteps;
	int32_t *cls; /* ngraphs x (nsteps + 1) x nranks, class id = smallest rank */
	size_t ncells;
};

static int32_t uf_find(int32_t *par, int32_t a)
{
	while (par[a] != a) {
		par[a] = par[par[a]];
		a = par[a];
	}
	return a;
}

static void uf_union(int32_t *par, int32_t a, int32_t b)
{
	a = uf_find(par, a);
	b = uf_find(par, b);
	if (a < b)
		par[b] = a;
	else if (b < a)
		par[a] = b;
}

/* 1 when vertex (t, r) has an edge in graph g */
static int active(const react_pattern_t *p, int32_t g, react_step_t t, react_rank_t r)
{
	const size_t *ids;
	size_t n;
	if (t < p->nsteps) {
		n = react_pattern_rank_out(p, t, r, &ids);
		for (size_t i = 0; i < n; i++)
			if (react_pattern_flow_graph(p, ids[i]) == g)
				return 1;
	}
	if (t > 0) {
		n = react_pattern_rank_in(p, t - 1, r, &ids);
		for (size_t i = 0; i < n; i++)
			if (react_pattern_flow_graph(p, ids[i]) == g)
				return 1;
	}
	return 0;
}

static react_status_t try_swap(react_pattern_t *w, react_checker_t *ck, int32_t g,
                               react_step_t t, react_rank_t x, react_rank_t y, int *ok)
{
	react_xform_t xf = {REACT_XF_POSITION, t, x, y, g};
	react_status_t st = react_xform_apply(w, &xf), st2;
	*ok = 0;
	if (st == REACT_EINVAL)
		return REACT_OK; /* the swap would make a flow a self-loop */
	if (st != REACT_OK)
		return st;
	st = react_checker_run(ck, w, NULL);
	*ok = st == REACT_OK;
	st2 = react_xform_apply(w, &xf); /* involution: restores w */
	if (st2 != REACT_OK)
		return st2;
	return (st == REACT_OK || st == REACT_ESEMANTIC) ? REACT_OK : st;
}

/* classes of every (graph g of w, t) into cls (nsteps + 1 rows of N) */
static react_status_t graph_classes(react_pattern_t *w, react_checker_t *ck, int32_t g, int fast,
                                    int32_t *par, unsigned char *act, int32_t *cls)
{
	react_status_t st;
	int32_t N = w->nranks, T = w->nsteps;
	for (react_step_t t = 0; t <= T; t++) {
		int32_t firstidle = -1;
		for (int32_t r = 0; r < N; r++) {
			par[r] = r;
			act[r] = (unsigned char)active(w, g, t, r);
		}
		/* idle pairs: the swap changes nothing */
		for (int32_t r = 0; r < N; r++)
			if (!act[r]) {
				if (firstidle < 0)
					firstidle = r;
				else
					uf_union(par, firstidle, r);
			}
		for (int32_t x = 0; x < N; x++) {
			if (!act[x])
				continue;
			for (int32_t y = 0; y < N; y++) {
				int ok = 0;
				if (y == x || (act[y] && y < x))
					continue; /* each unordered active pair once */
				if (fast && uf_find(par, x) == uf_find(par, y))
					continue;
				if ((st = try_swap(w, ck, g, t, x, y, &ok)) != REACT_OK)
					return st;
				if (ok)
					uf_union(par, x, y);
			}
		}
		for (int32_t r = 0; r < N; r++)
			cls[(size_t)t * (size_t)N + (size_t)r] = uf_find(par, r);
	}
	return REACT_OK;
}

/* The flows of graph g alone, its data chunks renumbered 0 .. k-1 (a flow's
 * chunk range lies inside its graph, so ranges stay contiguous). */
static react_status_t subpattern(const react_pattern_t *p, int32_t g, react_pattern_t **out)
{
	react_status_t st;
	react_pattern_t *q = NULL;
	int32_t *map = malloc((size_t)p->nchunks * sizeof *map), k = 0;
	if (!map)
		return REACT_ENOMEM;
	for (int32_t c = 0; c < p->nchunks; c++)
		map[c] = react_pattern_chunk_graph(p, c) == g ? k++ : -1;
	if ((st = react_pattern_create(p->collective, p->algorithm, p->nranks, k, p->message_bytes, &q)) != REACT_OK)
		goto fail;
	q->root = p->root;
	for (size_t f = 0; f < p->nflows; f++) {
		react_flow_t fl = p->flows[f];
		if (react_pattern_flow_graph(p, f) != g)
			continue;
		fl.chunk = map[fl.chunk];
		if ((st = react_pattern_add_flow(q, &fl)) != REACT_OK)
			goto fail;
	}
	if ((st = react_pattern_finalize(q, NULL, 0)) != REACT_OK)
		goto fail;
	*out = q;
	q = NULL;
fail:
	react_pattern_destroy(q);
	free(map);
	return st;
}

static react_status_t equiv_run(const react_pattern_t *p, int fast, react_equiv_t **out)
{
	react_status_t st;
	react_equiv_t *e = NULL;
	react_pattern_t *w = NULL;
	react_checker_t *ck = NULL;
	int32_t *par = NULL;
	unsigned char *act = NULL;
	int32_t N, G, T;
	/* AllReduce: the check's state and postcondition are per data chunk, so
	 * a swap inside graph g passes on the whole pattern iff it passes on g's
	 * flows alone (the other graphs are untouched and passed) */
	int split;

	if (!p || !out)
		return REACT_EINVAL;
	*out = NULL;
	N = p->nranks;
	G = react_pattern_ngraphs(p);
	T = p->nsteps;
	split = G > 1 && p->collective == REACT_COLL_ALLREDUCE;
	if ((st = react_checker_create(N, p->nchunks, &ck)) != REACT_OK)
		goto fail;
	if ((st = react_checker_run(ck, p, NULL)) != REACT_OK)
		goto fail;
	e = calloc(1, sizeof *e);
	par = malloc((size_t)N * sizeof *par);
	act = malloc((size_t)N);
	if (!e || !par || !act) { st = REACT_ENOMEM; goto fail; }
	e->nranks = N;
	e->ngraphs = G;
	e->nsteps = T;
	e->ncells = (size_t)G * (size_t)(T + 1) * (size_t)N;
	/* dense table; patterns with N chunk graphs and O(N) steps (rings) at
	 * several hundred ranks would need gigabytes: refused, the controller
	 * then runs without position swaps (Table 1: they do not help rings) */
	if (e->ncells > ((size_t)1 << 27)) { st = REACT_EUNSUPPORTED; goto fail; }
	e->cls = malloc(e->ncells * sizeof *e->cls);
	if (!e->cls) { st = REACT_ENOMEM; goto fail; }
	if (!split && (st = react_pattern_clone(p, &w)) != REACT_OK)
		goto fail;
	for (int32_t g = 0; g < G; g++) {
		int32_t *cls = e->cls + (size_t)g * (size_t)(T + 1) * (size_t)N;
		if (split) {
			react_pattern_t *q = NULL;
			react_checker_t *qk = NULL;
			if ((st = subpattern(p, g, &q)) == REACT_OK &&
			    (st = react_checker_create(N, q->nchunks, &qk)) == REACT_OK) {
				/* the sub-pattern may have fewer steps: its idle tail rows
				 * are every rank in one class */
				st = graph_classes(q, qk, 0, fast, par, act, cls);
				for (react_step_t t = q->nsteps + 1; st == REACT_OK && t <= T; t++)
					for (int32_t r = 0; r < N; r++)
						cls[(size_t)t * (size_t)N + (size_t)r] = 0;
			}
			react_checker_destroy(qk);
			react_pattern_destroy(q);
		} else {
			st = graph_classes(w, ck, g, fast, par, act, cls);
		}
		if (st != REACT_OK)
			goto fail;
	}
	*out = e;
	e = NULL;
	st = REACT_OK;
fail:
	react_equiv_destroy(e);
	react_pattern_destroy(w);
	react_checker_destroy(ck);
	free(par);
	free(act);
	return st;
}

react_status_t react_equiv_brute(const react_pattern_t *p, react_equiv_t **out)
{
	return equiv_run(p, 0, out);
}

react_status_t react_equiv_fast(const react_pattern_t *p, react_equiv_t **out)
{
	return equiv_run(p, 1, out);
}

void react_equiv_destroy(react_equiv_t *e)
{
	if (!e)
		return;
	free(e->cls);
	free(e);
}

int32_t react_equiv_class(const react_equiv_t *e, int32_t graph, react_step_t t, react_rank_t r)
{
	if (!e || graph < 0 || graph >= e->ngraphs || t < 0 || t > e->nsteps || r < 0 || r >= e->nranks)
		return -1;
	return e->cls[((size_t)graph * (size_t)(e->nsteps + 1) + (size_t)t) * (size_t)e->nranks + (size_t)r];
}

size_t react_equiv_members(const react_equiv_t *e, int32_t graph, react_step_t t, react_rank_t r,
                           react_rank_t *out)
{
	int32_t c = react_equiv_class(e, graph, t, r);
	size_t n = 0;
	if (c < 0)
		return 0;
	for (react_rank_t q = 0; q < e->nranks; q++)
		if (react_equiv_class(e, graph, t, q) == c)
			out[n++] = q;
	return n;
}

int react_equiv_same(const react_equiv_t *a, const react_equiv_t *b)
{
	if (!a || !b || a->nranks != b->nranks || a->ngraphs != b->ngraphs || a->nsteps != b->nsteps)
		return 0;
	return memcmp(a->cls, b->cls, a->ncells * sizeof *a->cls) == 0;
}

size_t react_equiv_nontrivial(const react_equiv_t *e)
{
	size_t n = 0;
	if (!e)
		return 0;
	for (size_t cell = 0; cell < e->ncells / (size_t)e->nranks; cell++) {
		const int32_t *c = e->cls + cell * (size_t)e->nranks;
		for (int32_t r = 0; r < e->nranks; r++)
			if (c[r] != r) {
				n++;
				break;
			}
	}
	return n;
}
