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
 * react_equiv_fast: the same components with fewer and cheaper checks.
 *   - A pair whose two ranks are already in one component is not tested,
 *     since its answer cannot change the components (exact, no assumption
 *     on the relation).  Idle ranks are united first (their swaps are
 *     identities), so the active ranks are tested against large components
 *     early.
 *   - Reduction collectives: a linear filter (see lin_t) refuses in O(chunks
 *     of g) a swap whose integer run changes a postcondition cell; it never
 *     refuses a swap that passes the check.  The pairs it lets through are
 *     checked from the step the swap first changes, on the cells whose sets
 *     differ from the original run (see incr_t); that check gives the full
 *     check's answer.
 *   - Other collectives: every pair not yet in one component is checked in
 *     place (check_swap), with the full check.
 * So the answers that decide the components are the brute force's, and both
 * give identical sets; tests compare them on every generator for N = 2 .. 32
 * and on Reduce, ReduceScatter and hand-made AllReduce patterns.
 *
 * Cost on tree AllReduce: O(N^2) filter evaluations per (graph, t), O(1)
 * each, and about one check per active vertex, each touching only the cells
 * the swap changes (the path to where the changed sums meet again).
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

/*
 * The swap (g, t, x, y) checked in place: the flows it relabels are those of
 * g sent by x or y at step t and received by x or y at step t-1 (the same
 * flows and the same labels as react_xform_apply); a relabel that makes a
 * self-loop refuses the swap, as the transform does.  The check reads only
 * the flows, so the index of the unswapped pattern is kept and the labels
 * are restored after the check.  The answer is try_swap's.
 */
typedef struct swap_ws {
	size_t *ids;       /* relabelled flows */
	react_rank_t *old; /* their previous label */
	size_t cap;
} swap_ws_t;

static react_status_t ws_push(swap_ws_t *ws, size_t *n, size_t f, react_rank_t old)
{
	if (*n == ws->cap) {
		size_t cap = ws->cap ? 2 * ws->cap : 64;
		size_t *ni = realloc(ws->ids, cap * sizeof *ni);
		react_rank_t *no;
		if (!ni)
			return REACT_ENOMEM;
		ws->ids = ni;
		no = realloc(ws->old, cap * sizeof *no);
		if (!no)
			return REACT_ENOMEM;
		ws->old = no;
		ws->cap = cap;
	}
	ws->ids[*n] = f;
	ws->old[*n] = old;
	(*n)++;
	return REACT_OK;
}

struct incr;
static int incr_run(struct incr *v, const react_pattern_t *w, int32_t g, react_step_t t,
                    react_rank_t x, react_rank_t y, const size_t *relab, size_t nout);

static react_status_t check_swap(react_pattern_t *w, react_checker_t *ck, struct incr *inc,
                                 swap_ws_t *ws, int32_t g, react_step_t t, react_rank_t x,
                                 react_rank_t y, int *ok)
{
	react_status_t st = REACT_OK;
	size_t nout = 0, n = 0, k;
	int loop = 0;
	const react_rank_t xy[2] = {x, y};
	*ok = 0;
	/* out-edges first: ids[0 .. nout) relabel src, the rest dst */
	for (int side = 0; side < 2 && st == REACT_OK; side++) {
		const size_t *ids;
		size_t m = t < w->nsteps ? react_pattern_rank_out(w, t, xy[side], &ids) : 0;
		for (size_t i = 0; i < m && st == REACT_OK; i++)
			if (react_pattern_flow_graph(w, ids[i]) == g)
				st = ws_push(ws, &n, ids[i], w->flows[ids[i]].src);
	}
	nout = n;
	for (int side = 0; side < 2 && st == REACT_OK; side++) {
		const size_t *ids;
		size_t m = t > 0 ? react_pattern_rank_in(w, t - 1, xy[side], &ids) : 0;
		for (size_t i = 0; i < m && st == REACT_OK; i++)
			if (react_pattern_flow_graph(w, ids[i]) == g)
				st = ws_push(ws, &n, ids[i], w->flows[ids[i]].dst);
	}
	if (st != REACT_OK)
		return st;
	for (k = 0; k < n; k++) {
		react_flow_t *f = &w->flows[ws->ids[k]];
		react_rank_t nr = ws->old[k] == x ? y : x;
		if (k < nout ? nr == f->dst : nr == f->src)
			loop = 1;
	}
	if (loop)
		return REACT_OK;
	for (k = 0; k < n; k++) {
		react_flow_t *f = &w->flows[ws->ids[k]];
		react_rank_t nr = ws->old[k] == x ? y : x;
		if (k < nout)
			f->src = nr;
		else
			f->dst = nr;
	}
	if (inc) {
		*ok = incr_run(inc, w, g, t, x, y, ws->ids, nout);
		st = *ok ? REACT_OK : REACT_ESEMANTIC;
	} else {
		st = react_checker_run(ck, w, NULL);
	}
	for (k = 0; k < n; k++) {
		react_flow_t *f = &w->flows[ws->ids[k]];
		if (k < nout)
			f->src = ws->old[k];
		else
			f->dst = ws->old[k];
	}
	*ok = st == REACT_OK;
	return (st == REACT_OK || st == REACT_ESEMANTIC) ? REACT_OK : st;
}

/*
 * The linear filter (reduction collectives).  With REDUCE read as integer
 * addition and STORE as a copy, a run maps the initial per-origin counts to
 * the final ones linearly; a swap that passes the check has no double count,
 * so its counts are the check's 0/1 sets and its postcondition cells equal
 * the original's.  The filter computes the change of the postcondition cells
 * that the swap makes in this integer run and refuses the swap when it is
 * not zero; it never refuses a swap that passes, and the swaps it lets
 * through are checked (check_swap).  So the sets are the brute force's.
 *
 * Counts are projected to one word: origin o weighs a pseudo-random w_o,
 * postcondition cell (r, c) a pseudo-random z_rc, arithmetic mod 2^64 (the
 * integer maps reduce mod 2^64, so an exact zero stays zero).
 *
 * Forward pass: S_t(r, c), the projected state before step t.  Receipts of
 * step t at (r, c), in flow order (REDUCE adds, STORE overwrites), give
 * S_{t+1} = a_t S_t + I_t with a_t in {0, 1} (0 when a STORE arrives) and
 * I_t the sum of the senders' S_t whose delivery is not overwritten later in
 * the step (b_f = 1).
 *
 * Backward pass: L_t(r, c), the projected final change per unit change of
 * S_t(r, c): L_T = z on postcondition cells, 0 elsewhere, and
 *   L_t(r) = a_t(r) L_{t+1}(r) + sum over r's flows f of step t of b_f L_{t+1}(dst f)
 * split into Kst_t(r) (the first term: r's state carried on) and Kout_t(r)
 * (the values r sends at step t).
 *
 * The swap (t, x, y), with a, I of step t-1 (a = 1, I = 0 at t = 0) and
 * A = S_{t-1} (S_0 at t = 0): after step t-1, x holds a_y A_x + I_y (it gets
 * y's receipts) and y holds a_x A_y + I_x; x's step-t flows, now sent by y,
 * carry a_x A_y + I_x instead of a_x A_x + I_x.  Per chunk the change is
 *   a_x (A_y - A_x) Kout_x + a_y (A_x - A_y) Kout_y
 *   + (a_y A_x + I_y - a_x A_x - I_x) Kst_x + (a_x A_y + I_x - a_y A_y - I_y) Kst_y.
 * A swap that makes a self-loop is refused by check_swap.
 */
typedef struct lin {
	int32_t N, T, K;   /* ranks, steps, chunks of the graph */
	int32_t *loc;      /* data chunk -> index in the graph, -1 outside */
	uint64_t *S;       /* (T + 1) x N x K */
	uint64_t *I;       /* T x N x K */
	unsigned char *a;  /* T x N x K */
	uint64_t *L, *Ln;  /* N x K: L_{t+1} and L_t */
	uint64_t *Kst, *Kout;
	unsigned char *b;  /* per flow chunk of one step: b_f */
	int32_t *stamp;    /* N x K: last step that stored there (backward) */
	size_t bcap;
} lin_t;

static uint64_t mix64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void lin_free(lin_t *L)
{
	free(L->loc);
	free(L->S);
	free(L->I);
	free(L->a);
	free(L->L);
	free(L->Ln);
	free(L->Kst);
	free(L->Kout);
	free(L->b);
	free(L->stamp);
	memset(L, 0, sizeof *L);
}

static int post_cell(const react_pattern_t *p, react_rank_t r, int32_t c)
{
	switch (p->collective) {
	case REACT_COLL_ALLREDUCE: return 1;
	case REACT_COLL_REDUCESCATTER: return r == c % p->nranks;
	case REACT_COLL_REDUCE: return r == p->root;
	default: return 0;
	}
}

/* forward pass over graph g of p, and L_T */
static react_status_t lin_init(const react_pattern_t *p, int32_t g, lin_t *L)
{
	int32_t N = p->nranks, T = p->nsteps, K = 0;
	size_t NK, maxb = 1;
	uint64_t seed = UINT64_C(0x5eed0f0e90175a7e) ^ (uint64_t)g;
	uint64_t *w;
	memset(L, 0, sizeof *L);
	L->loc = malloc((size_t)p->nchunks * sizeof *L->loc);
	if (!L->loc)
		return REACT_ENOMEM;
	for (int32_t c = 0; c < p->nchunks; c++)
		L->loc[c] = react_pattern_chunk_graph(p, c) == g ? K++ : -1;
	NK = (size_t)N * (size_t)K;
	for (react_step_t t = 0; t < T; t++) {
		size_t nb = 0;
		for (size_t f = react_pattern_step_begin(p, t); f < react_pattern_step_begin(p, t + 1); f++)
			nb += (size_t)p->flows[f].nchunks;
		if (nb > maxb)
			maxb = nb;
	}
	L->N = N;
	L->T = T;
	L->K = K;
	L->S = malloc((size_t)(T + 1) * NK * sizeof *L->S);
	L->I = malloc(((size_t)T * NK + 1) * sizeof *L->I);
	L->a = malloc((size_t)T * NK + 1);
	L->L = malloc(NK * sizeof *L->L);
	L->Ln = malloc(NK * sizeof *L->Ln);
	L->Kst = malloc(NK * sizeof *L->Kst);
	L->Kout = malloc(NK * sizeof *L->Kout);
	L->b = malloc(maxb);
	L->stamp = malloc(NK * sizeof *L->stamp);
	L->bcap = maxb;
	if (!L->S || !L->I || !L->a || !L->L || !L->Ln || !L->Kst || !L->Kout || !L->b || !L->stamp)
		return REACT_ENOMEM;
	/* origin weights (in Kst as scratch) */
	w = L->Kst;
	for (int32_t r = 0; r < N; r++)
		w[r] = mix64(&seed);
	for (int32_t r = 0; r < N; r++)
		for (int32_t k = 0; k < K; k++)
			L->S[(size_t)r * K + k] = w[r];
	for (react_step_t t = 0; t < T; t++) {
		const uint64_t *s = L->S + (size_t)t * NK;
		uint64_t *sn = L->S + (size_t)(t + 1) * NK, *I = L->I + (size_t)t * NK;
		unsigned char *a = L->a + (size_t)t * NK;
		memset(a, 1, NK);
		memset(I, 0, NK * sizeof *I);
		for (size_t f = react_pattern_step_begin(p, t); f < react_pattern_step_begin(p, t + 1); f++) {
			const react_flow_t *fl = &p->flows[f];
			if (react_pattern_flow_graph(p, f) != g)
				continue;
			for (int32_t c = fl->chunk; c < fl->chunk + fl->nchunks; c++) {
				size_t d = (size_t)fl->dst * K + (size_t)L->loc[c];
				uint64_t v = s[(size_t)fl->src * K + (size_t)L->loc[c]];
				if (fl->op == REACT_RECV_REDUCE) {
					I[d] += v;
				} else {
					a[d] = 0;
					I[d] = v;
				}
			}
		}
		for (size_t i = 0; i < NK; i++)
			sn[i] = (a[i] ? s[i] : 0) + I[i];
	}
	for (int32_t r = 0; r < N; r++)
		for (int32_t c = 0; c < p->nchunks; c++)
			if (L->loc[c] >= 0) {
				uint64_t z = mix64(&seed);
				L->L[(size_t)r * K + (size_t)L->loc[c]] = post_cell(p, r, c) ? z : 0;
			}
	for (size_t i = 0; i < NK; i++)
		L->stamp[i] = -1;
	return REACT_OK;
}

/* Kst, Kout of vertex time t from L = L_{t+1} (t < T) or L_T; then L = L_t */
static void lin_back(const react_pattern_t *p, int32_t g, react_step_t t, lin_t *L)
{
	int32_t K = L->K;
	size_t NK = (size_t)L->N * (size_t)K;
	if (t == L->T) {
		memcpy(L->Kst, L->L, NK * sizeof *L->Kst);
		memset(L->Kout, 0, NK * sizeof *L->Kout);
		return;
	}
	{
		const unsigned char *a = L->a + (size_t)t * NK;
		size_t b0 = react_pattern_step_begin(p, t), b1 = react_pattern_step_begin(p, t + 1);
		size_t nb = 0;
		for (size_t i = 0; i < NK; i++) {
			L->Kst[i] = a[i] ? L->L[i] : 0;
			L->Kout[i] = 0;
		}
		/* b_f: no STORE later in the step into the same (dst, chunk) */
		for (size_t f = b0; f < b1; f++)
			if (react_pattern_flow_graph(p, f) == g)
				nb += (size_t)p->flows[f].nchunks;
		for (size_t f = b1; f-- > b0;) {
			const react_flow_t *fl = &p->flows[f];
			if (react_pattern_flow_graph(p, f) != g)
				continue;
			for (int32_t c = fl->chunk + fl->nchunks; c-- > fl->chunk;) {
				size_t d = (size_t)fl->dst * K + (size_t)L->loc[c];
				L->b[--nb] = L->stamp[d] != t;
				if (fl->op == REACT_RECV_STORE)
					L->stamp[d] = t;
			}
		}
		for (size_t f = b0; f < b1; f++) {
			const react_flow_t *fl = &p->flows[f];
			if (react_pattern_flow_graph(p, f) != g)
				continue;
			for (int32_t c = fl->chunk; c < fl->chunk + fl->nchunks; c++) {
				size_t k = (size_t)L->loc[c];
				if (L->b[nb++])
					L->Kout[(size_t)fl->src * K + k] += L->L[(size_t)fl->dst * K + k];
			}
		}
		for (size_t i = 0; i < NK; i++)
			L->L[i] = L->Kst[i] + L->Kout[i];
	}
}

/* the projected final change of the swap (t, x, y); 0 is necessary to pass */
static uint64_t lin_delta(const lin_t *L, react_step_t t, react_rank_t x, react_rank_t y)
{
	int32_t K = L->K;
	size_t NK = (size_t)L->N * (size_t)K, ox = (size_t)x * K, oy = (size_t)y * K;
	const uint64_t *A = L->S + (size_t)(t > 0 ? t - 1 : 0) * NK;
	const uint64_t *I = t > 0 ? L->I + (size_t)(t - 1) * NK : NULL;
	const unsigned char *a = t > 0 ? L->a + (size_t)(t - 1) * NK : NULL;
	uint64_t sum = 0;
	for (int32_t k = 0; k < K; k++) {
		uint64_t Ax = A[ox + k], Ay = A[oy + k];
		uint64_t ax = a ? (uint64_t)a[ox + k] : 1, ay = a ? (uint64_t)a[oy + k] : 1;
		uint64_t Ix = I ? I[ox + k] : 0, Iy = I ? I[oy + k] : 0;
		uint64_t Dx = ax * (Ay - Ax), Dy = ay * (Ax - Ay);
		uint64_t Ex = ay * Ax + Iy - ax * Ax - Ix, Ey = ax * Ay + Ix - ay * Ay - Iy;
		sum += Dx * L->Kout[ox + k] + Dy * L->Kout[oy + k] + Ex * L->Kst[ox + k] +
		       Ey * L->Kst[oy + k];
	}
	return sum;
}

/*
 * The check of a swap from the step it first changes (reduction
 * collectives).  The original run's sets of graph g are kept for every
 * vertex time (O[t], the state before step t).  The swapped run starts to
 * differ at step t-1 (t = 0: step 0); from there only "dirty" cells, whose
 * set differs from O, are held.  At each step the cells recomputed are the
 * dirty ones, x's and y's at step t-1, the receivers of flows relabelled at
 * step t and the receivers of flows sent from a dirty cell; each is rebuilt
 * from its state before the step by its receipts of the step in flow order,
 * with the check's rules (empty sender, double count, STORE overwrites).  A
 * cell not recomputed has a clean state and only clean, unchanged receipts,
 * which are the original's, so it stays equal to O; a recomputed cell that
 * equals O turns clean.  At the end the postcondition is checked on the
 * dirty cells (the others equal the original's, which passed).  So the
 * answer is the full check's on the swapped pattern.
 */
typedef struct incr {
	int32_t N, T, K;
	size_t W, NK;
	const int32_t *loc; /* data chunk -> index in g */
	int32_t *gch;       /* index in g -> data chunk */
	uint64_t *O;        /* (T + 1) x NK x W */
	uint64_t *cur;      /* NK x W: sets of dirty cells */
	uint64_t *nxt;      /* NK x W: recomputed sets, by position in the list */
	unsigned char *dirty;
	int32_t *dl, nd;    /* dirty cells */
	int32_t *tl, nt;    /* cells recomputed in this step */
	uint32_t *mark, stamp;
	uint64_t lastmask;
} incr_t;

static void incr_free(incr_t *v)
{
	free(v->gch);
	free(v->O);
	free(v->cur);
	free(v->nxt);
	free(v->dirty);
	free(v->dl);
	free(v->tl);
	free(v->mark);
	memset(v, 0, sizeof *v);
}

/* *usable = 0 when the checkpoints would pass 128 MiB (the full check is
 * used then) */
static react_status_t incr_init(const react_pattern_t *p, int32_t g, const lin_t *L, incr_t *v,
                                int *usable)
{
	int32_t N = L->N, T = L->T, K = L->K;
	size_t W = ((size_t)N + 63) / 64, NK = (size_t)N * (size_t)K;
	uint64_t *st, *tmp;
	memset(v, 0, sizeof *v);
	*usable = 0;
	if ((size_t)(T + 1) * NK * W > ((size_t)1 << 24))
		return REACT_OK;
	v->N = N;
	v->T = T;
	v->K = K;
	v->W = W;
	v->NK = NK;
	v->loc = L->loc;
	v->lastmask = (N % 64) ? ((UINT64_C(1) << (N % 64)) - 1) : ~UINT64_C(0);
	v->gch = malloc((size_t)K * sizeof *v->gch);
	v->O = malloc((size_t)(T + 1) * NK * W * sizeof *v->O);
	v->cur = malloc(NK * W * sizeof *v->cur);
	v->nxt = malloc(NK * W * sizeof *v->nxt);
	v->dirty = calloc(NK, 1);
	v->dl = malloc(NK * sizeof *v->dl);
	v->tl = malloc(NK * sizeof *v->tl);
	v->mark = calloc(NK, sizeof *v->mark);
	if (!v->gch || !v->O || !v->cur || !v->nxt || !v->dirty || !v->dl || !v->tl || !v->mark)
		return REACT_ENOMEM;
	for (int32_t c = 0; c < p->nchunks; c++)
		if (L->loc[c] >= 0)
			v->gch[L->loc[c]] = c;
	/* the original run of graph g: every rank holds {r} in every chunk */
	memset(v->O, 0, NK * W * sizeof *v->O);
	for (int32_t r = 0; r < N; r++)
		for (int32_t k = 0; k < K; k++)
			v->O[((size_t)r * K + k) * W + (size_t)r / 64] |= UINT64_C(1) << (r % 64);
	for (react_step_t t = 0; t < T; t++) {
		st = v->O + (size_t)t * NK * W;
		tmp = st + NK * W;
		memcpy(tmp, st, NK * W * sizeof *tmp);
		for (size_t f = react_pattern_step_begin(p, t); f < react_pattern_step_begin(p, t + 1); f++) {
			const react_flow_t *fl = &p->flows[f];
			if (react_pattern_flow_graph(p, f) != g)
				continue;
			for (int32_t c = fl->chunk; c < fl->chunk + fl->nchunks; c++) {
				uint64_t *d = tmp + ((size_t)fl->dst * K + (size_t)L->loc[c]) * W;
				const uint64_t *sv = st + ((size_t)fl->src * K + (size_t)L->loc[c]) * W;
				if (fl->op == REACT_RECV_REDUCE)
					for (size_t i = 0; i < W; i++)
						d[i] |= sv[i];
				else
					memcpy(d, sv, W * sizeof *d);
			}
		}
	}
	*usable = 1;
	return REACT_OK;
}

static void incr_touch(incr_t *v, int32_t cellid)
{
	if (v->mark[cellid] != v->stamp) {
		v->mark[cellid] = v->stamp;
		v->tl[v->nt++] = cellid;
	}
}

/* the set of cell c at vertex time t in the swapped run */
static const uint64_t *incr_val(const incr_t *v, react_step_t t, size_t c)
{
	return v->dirty[c] ? v->cur + c * v->W : v->O + ((size_t)t * v->NK + c) * v->W;
}

/* w holds the swapped flows (relabelled in place, index of the original) */
static int incr_run(struct incr *v, const react_pattern_t *w, int32_t g, react_step_t t,
                    react_rank_t x, react_rank_t y, const size_t *relab, size_t nout)
{
	int32_t K = v->K;
	size_t W = v->W;
	int ok = 1;
	v->nd = 0;
	for (react_step_t s = t > 0 ? t - 1 : 0; ok && s < v->T; s++) {
		const size_t *ids;
		size_t m;
		if (++v->stamp == 0) {
			memset(v->mark, 0, v->NK * sizeof *v->mark);
			v->stamp = 1;
		}
		v->nt = 0;
		for (int32_t i = 0; i < v->nd; i++)
			incr_touch(v, v->dl[i]);
		if (s == t - 1)
			for (int32_t k = 0; k < K; k++) {
				incr_touch(v, x * K + k);
				incr_touch(v, y * K + k);
			}
		if (s == t)
			for (size_t i = 0; i < nout; i++) {
				const react_flow_t *fl = &w->flows[relab[i]];
				for (int32_t c = fl->chunk; c < fl->chunk + fl->nchunks; c++)
					incr_touch(v, fl->dst * K + v->loc[c]);
			}
		for (int32_t i = 0; i < v->nd; i++) {
			react_rank_t r = v->dl[i] / K;
			int32_t c = v->gch[v->dl[i] % K];
			m = react_pattern_rank_out(w, s, r, &ids);
			for (size_t j = 0; j < m; j++) {
				const react_flow_t *fl = &w->flows[ids[j]];
				if (react_pattern_flow_graph(w, ids[j]) == g && c >= fl->chunk &&
				    c < fl->chunk + fl->nchunks)
					incr_touch(v, fl->dst * K + v->loc[c]);
			}
		}
		/* recompute every touched cell from the state before step s */
		for (int32_t i = 0; ok && i < v->nt; i++) {
			size_t cellid = (size_t)v->tl[i];
			react_rank_t d = (react_rank_t)(cellid / (size_t)K), dl = d;
			int32_t c = v->gch[cellid % (size_t)K];
			uint64_t *nv = v->nxt + (size_t)i * W;
			memcpy(nv, incr_val(v, s, cellid), W * sizeof *nv);
			if (s == t - 1 && (d == x || d == y))
				dl = d == x ? y : x; /* in the index, x's receipts are y's */
			m = react_pattern_rank_in(w, s, dl, &ids);
			for (size_t j = 0; ok && j < m; j++) {
				const react_flow_t *fl = &w->flows[ids[j]];
				const uint64_t *sv;
				int empty = 1;
				if (react_pattern_flow_graph(w, ids[j]) != g || c < fl->chunk ||
				    c >= fl->chunk + fl->nchunks)
					continue;
				sv = incr_val(v, s, (size_t)fl->src * K + (size_t)v->loc[c]);
				for (size_t q = 0; q < W; q++)
					if (sv[q])
						empty = 0;
				if (empty) {
					ok = 0;
					break;
				}
				if (fl->op == REACT_RECV_REDUCE) {
					for (size_t q = 0; q < W; q++) {
						if (nv[q] & sv[q])
							ok = 0;
						nv[q] |= sv[q];
					}
				} else {
					memcpy(nv, sv, W * sizeof *nv);
				}
			}
		}
		if (!ok)
			break;
		/* commit: dirty = touched cells that differ from the original */
		for (int32_t i = 0; i < v->nd; i++)
			v->dirty[v->dl[i]] = 0;
		v->nd = 0;
		for (int32_t i = 0; i < v->nt; i++) {
			size_t cellid = (size_t)v->tl[i];
			const uint64_t *nv = v->nxt + (size_t)i * W;
			if (memcmp(nv, v->O + ((size_t)(s + 1) * v->NK + cellid) * W, W * sizeof *nv) == 0)
				continue;
			memcpy(v->cur + cellid * W, nv, W * sizeof *nv);
			v->dirty[cellid] = 1;
			v->dl[v->nd++] = (int32_t)cellid;
		}
	}
	/* postcondition on the dirty cells */
	for (int32_t i = 0; ok && i < v->nd; i++) {
		size_t cellid = (size_t)v->dl[i];
		react_rank_t r = (react_rank_t)(cellid / (size_t)K);
		const uint64_t *b = v->cur + cellid * W;
		if (!post_cell(w, r, v->gch[cellid % (size_t)K]))
			continue;
		for (size_t q = 0; q < W; q++)
			if ((b[q] | ~(q + 1 == W ? v->lastmask : ~UINT64_C(0))) != ~UINT64_C(0))
				ok = 0;
	}
	for (int32_t i = 0; i < v->nd; i++)
		v->dirty[v->dl[i]] = 0;
	v->nd = 0;
	return ok;
}

/*
 * Classes of every (graph g of w, t) into cls (nsteps + 1 rows of N).
 * mode 0: brute force; 1: fast (pairs already in one component skipped, the
 * linear filter first for reduction collectives, swaps checked in place).
 */
static react_status_t graph_classes(react_pattern_t *w, react_checker_t *ck, int32_t g, int fast,
                                    int32_t *par, unsigned char *act, int32_t *cls)
{
	react_status_t st = REACT_OK;
	int32_t N = w->nranks, T = w->nsteps;
	int linear = fast && react_collective_is_reduction(w->collective);
	int use_incr = 0;
	lin_t L;
	incr_t inc;
	swap_ws_t ws = {NULL, NULL, 0};
	memset(&L, 0, sizeof L);
	memset(&inc, 0, sizeof inc);
	if (linear && (st = lin_init(w, g, &L)) != REACT_OK)
		goto out;
	if (linear && (st = incr_init(w, g, &L, &inc, &use_incr)) != REACT_OK)
		goto out;
	/* descending t: the backward pass runs along */
	for (react_step_t t = T; t >= 0; t--) {
		int32_t firstidle = -1;
		if (linear)
			lin_back(w, g, t, &L);
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
				if (linear && lin_delta(&L, t, x, y) != 0)
					continue;
				if (fast)
					st = check_swap(w, ck, use_incr ? &inc : NULL, &ws, g, t, x, y, &ok);
				else
					st = try_swap(w, ck, g, t, x, y, &ok);
				if (st != REACT_OK)
					goto out;
				if (ok)
					uf_union(par, x, y);
			}
		}
		for (int32_t r = 0; r < N; r++)
			cls[(size_t)t * (size_t)N + (size_t)r] = uf_find(par, r);
	}
out:
	incr_free(&inc);
	lin_free(&L);
	free(ws.ids);
	free(ws.old);
	return st;
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
