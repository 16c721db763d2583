/*
 * transform.c - global, chunk-local and position-equivalent swaps (5.3.1)
 * and the degree pruning of 5.3.2.
 */
#include <stdlib.h>

#include "react/transform.h"

const char *react_xform_kind_name(react_xform_kind_t k)
{
	switch (k) {
	case REACT_XF_POSITION: return "position";
	case REACT_XF_CHUNK: return "chunk";
	case REACT_XF_GLOBAL: return "global";
	}
	return "?";
}

/* 1 when flow f is touched by x (x and y given) */
static int touches(const react_pattern_t *p, const react_xform_t *x, size_t f)
{
	const react_flow_t *fl = &p->flows[f];
	switch (x->kind) {
	case REACT_XF_GLOBAL:
		return 1;
	case REACT_XF_CHUNK:
		return react_pattern_flow_graph(p, f) == x->graph;
	case REACT_XF_POSITION:
		if (react_pattern_flow_graph(p, f) != x->graph)
			return 0;
		if (fl->step == x->step && (fl->src == x->x || fl->src == x->y))
			return 1;
		if (fl->step == x->step - 1 && (fl->dst == x->x || fl->dst == x->y))
			return 1;
		return 0;
	}
	return 0;
}

static react_rank_t sw(react_rank_t r, react_rank_t a, react_rank_t b)
{
	return r == a ? b : r == b ? a : r;
}

static int xform_ok(const react_pattern_t *p, const react_xform_t *x)
{
	if (!p || !x || x->x < 0 || x->y < 0 || x->x >= p->nranks || x->y >= p->nranks)
		return 0;
	if (x->kind != REACT_XF_GLOBAL && (x->graph < 0 || x->graph >= react_pattern_ngraphs(p)))
		return 0;
	if (x->kind == REACT_XF_POSITION && (x->step < 0 || x->step > p->nsteps))
		return 0;
	return x->kind == REACT_XF_GLOBAL || x->kind == REACT_XF_CHUNK || x->kind == REACT_XF_POSITION;
}

react_status_t react_xform_apply(react_pattern_t *p, const react_xform_t *x)
{
	size_t lo = 0, hi;
	if (!xform_ok(p, x))
		return REACT_EINVAL;
	if (x->x == x->y)
		return REACT_OK;
	hi = p->nflows;
	if (x->kind == REACT_XF_POSITION) {
		/* only flows of steps step - 1 and step can be touched */
		lo = react_pattern_step_begin(p, x->step - 1);
		hi = react_pattern_step_begin(p, x->step + 1);
	}
	/* touches() reads only flow f itself (and its graph, from the chunks,
	 * which no swap changes), so it decides each flow before that flow is
	 * relabelled.  Two passes: the first only checks that no flow becomes
	 * a self-loop (a POSITION swap of the two ends of one flow), so a
	 * refused swap leaves p untouched. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t f = lo; f < hi; f++) {
			react_rank_t s2 = p->flows[f].src, d2 = p->flows[f].dst;
			if (!touches(p, x, f))
				continue;
			if (x->kind == REACT_XF_POSITION) {
				/* out-edge of the vertex: relabel the sender; in-edge: the receiver */
				if (s2 == x->x || s2 == x->y) {
					if (p->flows[f].step == x->step)
						s2 = sw(s2, x->x, x->y);
					else
						d2 = sw(d2, x->x, x->y);
				} else {
					d2 = sw(d2, x->x, x->y);
				}
			} else {
				s2 = sw(s2, x->x, x->y);
				d2 = sw(d2, x->x, x->y);
			}
			if (pass == 0 && s2 == d2)
				return REACT_EINVAL;
			if (pass == 1) {
				p->flows[f].src = s2;
				p->flows[f].dst = d2;
			}
		}
	return react_pattern_reindex(p);
}

/* degrees of rank r at step t restricted to graph g (g < 0: all graphs) */
static int32_t deg_g(const react_pattern_t *p, react_step_t t, react_rank_t r, int32_t g, int out)
{
	const size_t *ids;
	size_t n;
	int32_t c = 0;
	if (t < 0 || t >= p->nsteps)
		return 0;
	n = out ? react_pattern_rank_out(p, t, r, &ids) : react_pattern_rank_in(p, t, r, &ids);
	if (g < 0)
		return (int32_t)n;
	for (size_t i = 0; i < n; i++)
		c += react_pattern_flow_graph(p, ids[i]) == g;
	return c;
}

/* degree of rank r at step t (out or in) after x, without applying it */
static int32_t deg_after(const react_pattern_t *p, const react_xform_t *x, react_step_t t,
                         react_rank_t r, int out)
{
	react_rank_t o;
	if (r != x->x && r != x->y)
		return out ? react_pattern_out_degree(p, t, r) : react_pattern_in_degree(p, t, r);
	o = r == x->x ? x->y : x->x;
	switch (x->kind) {
	case REACT_XF_GLOBAL:
		return deg_g(p, t, o, -1, out);
	case REACT_XF_CHUNK:
		return deg_g(p, t, r, -1, out) - deg_g(p, t, r, x->graph, out) + deg_g(p, t, o, x->graph, out);
	case REACT_XF_POSITION:
		if ((out && t == x->step) || (!out && t == x->step - 1))
			return deg_g(p, t, r, -1, out) - deg_g(p, t, r, x->graph, out) +
			       deg_g(p, t, o, x->graph, out);
		return deg_g(p, t, r, -1, out);
	}
	return 0;
}

static int32_t vdeg(const react_pattern_t *p, const react_xform_t *x, react_step_t t, react_rank_t r,
                    int after)
{
	int32_t in, out;
	if (after) {
		in = deg_after(p, x, t - 1, r, 0);
		out = deg_after(p, x, t, r, 1);
	} else {
		in = deg_g(p, t - 1, r, -1, 0);
		out = deg_g(p, t, r, -1, 1);
	}
	return in > out ? in : out;
}

int react_xform_viable(const react_pattern_t *p, const react_xform_t *x, react_step_t cong_step,
                       react_rank_t cong_rank, int *lowers)
{
	react_step_t t0 = 0, t1;
	if (!xform_ok(p, x) || x->x == x->y)
		return 0;
	/* a global swap exchanges the two ranks' degrees at every step: each
	 * ends at most the larger of the two, always viable */
	t1 = x->kind == REACT_XF_GLOBAL ? 0 : p->nsteps;
	if (x->kind == REACT_XF_POSITION) {
		t0 = x->step - 1 < 0 ? 0 : x->step - 1;
		t1 = x->step + 1 < p->nsteps ? x->step + 1 : p->nsteps;
	}
	for (react_step_t t = t0; t < t1; t++)
		for (int out = 0; out < 2; out++) {
			int32_t bx = deg_g(p, t, x->x, -1, out), by = deg_g(p, t, x->y, -1, out);
			int32_t lim = bx > by ? bx : by;
			if (deg_after(p, x, t, x->x, out) > lim || deg_after(p, x, t, x->y, out) > lim)
				return 0;
		}
	if (lowers)
		*lowers = react_xform_lowers(p, x, cong_step, cong_rank);
	return 1;
}

int react_xform_lowers(const react_pattern_t *p, const react_xform_t *x, react_step_t cong_step,
                       react_rank_t cong_rank)
{
	if (!xform_ok(p, x) || x->x == x->y)
		return 0;
	return vdeg(p, x, cong_step, cong_rank, 1) < vdeg(p, x, cong_step, cong_rank, 0);
}
