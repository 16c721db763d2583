/*
 * executor.c - runs a pattern (TEN) on the ranks of a transport.
 *
 * Plan (per pattern, cached): for every rank, its "units", one per
 * (chunk graph g, step t) in which it sends or receives.  The ops of a unit
 * get lanes base_g + 0 .. base_g + k - 1 of that rank (lane 0 of the rank
 * is its main lane), so the flows of one step and the independent chunk
 * graphs run concurrently.  The paper's Algorithm 2, per unit:
 *
 *   lanes e > 0 wait J(previous unit of g)    (lane 0 is ordered already)
 *   [timing start] op e on lane e             (send, or receive into the
 *   [timing end]   record D_e on lane e        chunk or into scratch)
 *   lane 0 waits D_e, runs the unit's reductions (scratch -> chunk) and
 *   scratch stores, records J(unit)
 *
 * Across ranks the transport matches sends and receives.  Per step the
 * executor enqueues, for all ranks it drives: timing starts, then
 * group_begin, every send, every receive, group_end (for NCCL one group
 * per step), then timing ends and joins.  Nothing waits on the host until
 * sync().
 *
 * Scratch: slot k of a rank is max_bytes long; a REDUCE receive (or a
 * STORE into a chunk the rank also sends in that step) lands at
 * k * max_bytes + the chunk's offset, k its index among such receives of
 * the unit.  Units of one graph are serialised by J and different graphs
 * own different chunks, so slots never overlap in time.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plugin.h"
#include "react/check.h"
#include "xport.h"

#define EV_START 0
#define EV_END 1
#define MAX_FUSE 8
#define PLAN_CACHE 8

typedef struct pop {
	size_t flow;
	int send;
	react_rank_t peer;
	int32_t lane;
	size_t off, bytes;     /* in the data buffer */
	int to_scratch;
	size_t soff;
	int32_t done_ev;       /* D_e (e > 0), else -1 */
	react_recv_op_t op;
	size_t nseg;           /* block-set gathers: segments (off, bytes) pairs */
	size_t *seg;
} pop_t;

typedef struct papply {
	int reduce;            /* 1: data[off] += scratch[soffs], else copy scratch[soffs[0]] */
	size_t off, count, bytes;
	int nsrc;
	size_t soffs[MAX_FUSE];
} papply_t;

typedef struct punit {
	react_step_t t;
	int32_t g;
	int32_t lane0;
	int32_t join_ev;
	int32_t prev_join;     /* J of the previous unit of g, or -1 */
	int32_t nops, napply;
	pop_t *ops;
	papply_t *apply;
} punit_t;

typedef struct prank {
	size_t nunits;
	punit_t *units;
	int32_t ngraphs_used;
	int32_t *last_join;    /* per graph: J of its last unit, -1 if none */
	int32_t nlanes, nevents;
	int32_t *lane_base;    /* per graph */
} prank_t;

typedef struct plan {
	react_pattern_t *pat;  /* clone, the cache key */
	uint64_t hash;
	size_t count;          /* elements */
	int32_t ngraphs;
	unsigned char *held;   /* block-set gathers: per flow, the N blocks it carries */
	prank_t *ranks;        /* nlocal */
	int32_t lanes, events, slots;
	uint64_t use;
} plan_t;

struct react_rt {
	react_rt_cfg_t cfg;
	react_xport_t *xp;
	size_t es;
	plan_t *cache[PLAN_CACHE];
	uint64_t use_clock;
	react_rt_stats_t stats;
	react_rt_times_t times;
	size_t times_cap;
	char err[320];
};

static void rt_err(react_rt_t *rt, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rt->err, sizeof rt->err, fmt, ap);
	va_end(ap);
}

static react_status_t xchk(react_rt_t *rt, react_status_t st)
{
	if (st != REACT_OK && rt->xp->err[0])
		snprintf(rt->err, sizeof rt->err, "%s", rt->xp->err);
	return st;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void react_rt_cfg_default(react_rt_cfg_t *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->transport = REACT_TRANSPORT_HOST;
	cfg->nranks = 4;
	cfg->max_bytes = 1 << 20;
	cfg->dtype = REACT_DT_F32;
	cfg->timed = 1;
	cfg->scratch_slots = 2;
	cfg->timeout_s = 60;
	cfg->host_latency_s = 5e-6;
	cfg->host_bw_Bps = 10e9;
	cfg->host_reduce_Bps = 20e9;
	cfg->nccl_pair_comms = 1;
	cfg->device = -1;
}

int react_transport_available(react_transport_t t)
{
	const react_gpu_plugin_t *pl;
	char why[8];
	if (t == REACT_TRANSPORT_HOST)
		return 1;
	return react_gpu_plugin_get(t, &pl, why, sizeof why) == REACT_OK;
}

static void plan_free(plan_t *pl, int32_t nlocal)
{
	if (!pl)
		return;
	for (int32_t r = 0; pl->ranks && r < nlocal; r++) {
		prank_t *pr = &pl->ranks[r];
		for (size_t u = 0; pr->units && u < pr->nunits; u++) {
			for (int32_t i = 0; i < pr->units[u].nops; i++)
				free(pr->units[u].ops[i].seg);
			free(pr->units[u].ops);
			free(pr->units[u].apply);
		}
		free(pr->units);
		free(pr->last_join);
		free(pr->lane_base);
	}
	free(pl->ranks);
	free(pl->held);
	react_pattern_destroy(pl->pat);
	free(pl);
}

react_status_t react_rt_create(const react_rt_cfg_t *cfg, react_rt_t **out, char *err,
                               size_t errlen)
{
	react_status_t st = REACT_OK;
	char why[2048] = "";
	react_rt_t *rt = calloc(1, sizeof *rt);
	if (!rt) {
		snprintf(err ? err : why, err ? errlen : sizeof why, "runtime: out of memory");
		return REACT_ENOMEM;
	}
	rt->cfg = *cfg;
	if (rt->cfg.scratch_slots <= 0)
		rt->cfg.scratch_slots = 2;
	if (rt->cfg.timeout_s <= 0)
		rt->cfg.timeout_s = 60;
	if ((unsigned)cfg->dtype >= REACT_DT_COUNT_ || (unsigned)cfg->transport >= REACT_TRANSPORT_COUNT_) {
		snprintf(why, sizeof why, "runtime: unknown dtype or transport");
		st = REACT_EINVAL;
		goto fail;
	}
	if (cfg->transport != REACT_TRANSPORT_NCCL && (cfg->nranks < 2 || cfg->nranks > 1024)) {
		snprintf(why, sizeof why, "runtime: ranks must be in [2, 1024], got %d", cfg->nranks);
		st = REACT_EINVAL;
		goto fail;
	}
	rt->es = react_dtype_size(cfg->dtype);
	if (cfg->max_bytes < rt->es) {
		snprintf(why, sizeof why, "runtime: max_bytes %llu is below one element",
		         (unsigned long long)cfg->max_bytes);
		st = REACT_EINVAL;
		goto fail;
	}
	size_t db = (size_t)cfg->max_bytes, sb = (size_t)cfg->max_bytes * (size_t)rt->cfg.scratch_slots;
	if (cfg->transport == REACT_TRANSPORT_HOST) {
		st = react_xport_host_create(&rt->cfg, db, sb, &rt->xp, why, sizeof why);
	} else {
		/* local and nccl: the CUDA side, linked in or the plugin (plugin.h) */
		const react_gpu_plugin_t *pl;
		if ((st = react_gpu_plugin_get(cfg->transport, &pl, why, sizeof why)) == REACT_OK)
			st = (cfg->transport == REACT_TRANSPORT_LOCAL ? pl->local_create : pl->nccl_create)(
				&rt->cfg, db, sb, &rt->xp, why, sizeof why);
	}
	if (st != REACT_OK)
		goto fail;
	rt->stats.scratch_slots = rt->cfg.scratch_slots;
	*out = rt;
	return REACT_OK;
fail:
	if (err && errlen)
		snprintf(err, errlen, "%s", why);
	free(rt);
	return st;
}

void react_rt_destroy(react_rt_t *rt)
{
	if (!rt)
		return;
	for (int i = 0; i < PLAN_CACHE; i++)
		plan_free(rt->cache[i], rt->xp->nlocal);
	rt->xp->ops->destroy(rt->xp);
	free(rt->times.send_span_s);
	free(rt->times.recv_span_s);
	free(rt->times.fct_s);
	free(rt);
}

const char *react_rt_error(const react_rt_t *rt)
{
	return rt ? rt->err : "no runtime";
}

int32_t react_rt_nranks(const react_rt_t *rt)
{
	return rt->xp->nranks;
}

int32_t react_rt_rank0(const react_rt_t *rt)
{
	return rt->xp->rank0;
}

int32_t react_rt_nlocal(const react_rt_t *rt)
{
	return rt->xp->nlocal;
}

react_status_t react_rt_set_link(react_rt_t *rt, react_rank_t src, react_rank_t dst,
                                 double latency_s, double bw_Bps)
{
	if (!rt->xp->ops->set_link) {
		rt_err(rt, "set_link: the %s transport has no synthetic links", rt->xp->ops->name);
		return REACT_EUNSUPPORTED;
	}
	return xchk(rt, rt->xp->ops->set_link(rt->xp, src, dst, latency_s, bw_Bps));
}

void react_rt_stats(const react_rt_t *rt, react_rt_stats_t *out)
{
	*out = rt->stats;
}

/* Element range of data chunks [c, c + n). */
static void chunk_range(size_t count, int32_t nchunks, int32_t c, int32_t n, size_t *lo, size_t *hi)
{
	*lo = (size_t)((uint64_t)c * count / (uint64_t)nchunks);
	*hi = (size_t)((uint64_t)(c + n) * count / (uint64_t)nchunks);
}

static react_status_t check_shape(react_rt_t *rt, const react_pattern_t *p, size_t *count)
{
	if (p->collective != REACT_COLL_ALLREDUCE && p->collective != REACT_COLL_ALLGATHER) {
		rt_err(rt, "pattern: the executor runs allreduce and allgather, not %s",
		       react_collective_name(p->collective));
		return REACT_EUNSUPPORTED;
	}
	if (p->nranks != rt->xp->nranks) {
		rt_err(rt, "pattern: %d ranks, the runtime has %d", p->nranks, rt->xp->nranks);
		return REACT_EINVAL;
	}
	if (p->message_bytes % rt->es) {
		rt_err(rt, "pattern: message of %llu bytes is not a whole number of %s elements",
		       (unsigned long long)p->message_bytes, react_dtype_name(rt->cfg.dtype));
		return REACT_EINVAL;
	}
	if (p->message_bytes > rt->cfg.max_bytes) {
		rt_err(rt, "pattern: message of %llu bytes exceeds the buffers (max_bytes %llu)",
		       (unsigned long long)p->message_bytes, (unsigned long long)rt->cfg.max_bytes);
		return REACT_EUNSUPPORTED;
	}
	*count = (size_t)(p->message_bytes / rt->es);
	if (p->collective == REACT_COLL_ALLGATHER &&
	    (*count % (size_t)p->nranks ||
	     (p->nchunks % p->nranks == 0 && *count % (size_t)p->nchunks))) {
		rt_err(rt, "pattern: allgather of %zu elements cannot be cut into %d equal blocks "
		           "(and %d equal chunks)", *count, p->nranks, p->nchunks);
		return REACT_EINVAL;
	}
	return REACT_OK;
}

static int ranges_overlap(size_t a0, size_t a1, size_t b0, size_t b1)
{
	return a0 < b1 && b0 < a1;
}

static react_status_t unit_add_op(punit_t *u, const pop_t *op)
{
	pop_t *n = realloc(u->ops, (size_t)(u->nops + 1) * sizeof *n);
	if (!n)
		return REACT_ENOMEM;
	u->ops = n;
	u->ops[u->nops++] = *op;
	return REACT_OK;
}

/* Build rank lr's units. */
static react_status_t plan_rank(react_rt_t *rt, plan_t *pl, int32_t lr)
{
	react_status_t st = REACT_OK;
	const react_pattern_t *p = pl->pat;
	react_rank_t me = rt->xp->rank0 + lr;
	prank_t *pr = &pl->ranks[lr];
	int32_t G = pl->ngraphs;
	int32_t *cur = malloc((size_t)G * sizeof *cur);   /* unit index of g in this step */
	int32_t *maxk = calloc((size_t)G, sizeof *maxk);
	pr->last_join = malloc((size_t)G * sizeof *pr->last_join);
	pr->lane_base = malloc((size_t)G * sizeof *pr->lane_base);
	size_t ucap = 0;
	if (!cur || !maxk || !pr->last_join || !pr->lane_base) {
		st = REACT_ENOMEM;
		goto out;
	}
	for (react_step_t t = 0; t < p->nsteps; t++) {
		for (int32_t g = 0; g < G; g++)
			cur[g] = -1;
		size_t b = react_pattern_step_begin(p, t), e = react_pattern_step_begin(p, t + 1);
		for (size_t f = b; f < e; f++) {
			const react_flow_t *fl = &p->flows[f];
			if (fl->src != me && fl->dst != me)
				continue;
			size_t lo, hi, nseg = 0, *seg = NULL;
			chunk_range(pl->count, p->nchunks, fl->chunk, fl->nchunks, &lo, &hi);
			if (pl->held) {
				/* the blocks the sender holds, as runs of consecutive blocks */
				size_t N = (size_t)p->nranks, blk = pl->count / N;
				const unsigned char *h = pl->held + f * N;
				seg = malloc(2 * N * sizeof *seg);
				if (!seg) {
					st = REACT_ENOMEM;
					goto out;
				}
				for (size_t b0 = 0; b0 < N;) {
					if (!h[b0]) {
						b0++;
						continue;
					}
					size_t b1 = b0;
					while (b1 < N && h[b1])
						b1++;
					seg[2 * nseg] = b0 * blk * rt->es;
					seg[2 * nseg + 1] = (b1 - b0) * blk * rt->es;
					nseg++;
					b0 = b1;
				}
				lo = 0;
				hi = nseg ? 1 : 0;
			}
			if (hi == lo) {
				free(seg);
				continue; /* nothing to move at this size; both ends skip it */
			}
			int32_t g = react_pattern_flow_graph(p, f);
			if (g < 0 || g >= G) {
				rt_err(rt, "plan: flow %zu has chunk graph %d of %d", f, g, G);
				st = REACT_EINVAL;
				goto out;
			}
			if (cur[g] < 0) {
				if (pr->nunits == ucap) {
					ucap = ucap ? 2 * ucap : 16;
					punit_t *nu = realloc(pr->units, ucap * sizeof *nu);
					if (!nu) {
						free(seg);
						st = REACT_ENOMEM;
						goto out;
					}
					pr->units = nu;
				}
				cur[g] = (int32_t)pr->nunits;
				memset(&pr->units[pr->nunits], 0, sizeof pr->units[0]);
				pr->units[pr->nunits].t = t;
				pr->units[pr->nunits].g = g;
				pr->nunits++;
			}
			/* a flow to oneself cannot exist (finalize rejects src == dst) */
			pop_t op = {.flow = f, .send = fl->src == me, .peer = fl->src == me ? fl->dst : fl->src,
			            .off = lo * rt->es, .bytes = (hi - lo) * rt->es, .done_ev = -1, .op = fl->op,
			            .nseg = nseg, .seg = seg};
			if ((st = unit_add_op(&pr->units[cur[g]], &op)) != REACT_OK) {
				free(seg);
				goto out;
			}
		}
	}
	/* scratch slots, applies, lanes, events */
	int32_t nev = 2, slots = 0;
	for (int32_t g = 0; g < G; g++)
		pr->last_join[g] = -1;
	for (size_t ui = 0; ui < pr->nunits; ui++) {
		punit_t *u = &pr->units[ui];
		if (u->nops > maxk[u->g])
			maxk[u->g] = u->nops;
		int32_t k = 0;
		u->apply = calloc((size_t)u->nops, sizeof *u->apply);
		if (!u->apply) {
			st = REACT_ENOMEM;
			goto out;
		}
		for (int32_t i = 0; i < u->nops; i++) {
			pop_t *op = &u->ops[i];
			if (op->send || op->nseg)
				continue;
			int hazard = 0;
			if (op->op == REACT_RECV_STORE) {
				/* a send of this rank in this step reading the same bytes? */
				for (size_t uj = 0; uj < pr->nunits; uj++) {
					const punit_t *v = &pr->units[uj];
					if (v->t != u->t)
						continue;
					for (int32_t j = 0; j < v->nops; j++)
						if (v->ops[j].send &&
						    ranges_overlap(op->off, op->off + op->bytes, v->ops[j].off,
						                   v->ops[j].off + v->ops[j].bytes))
							hazard = 1;
				}
			}
			if (op->op == REACT_RECV_STORE && !hazard)
				continue;
			op->to_scratch = 1;
			op->soff = (size_t)k * (size_t)rt->cfg.max_bytes + op->off;
			k++;
			/* fuse with an earlier reduce of the same range */
			papply_t *a = NULL;
			if (op->op == REACT_RECV_REDUCE)
				for (int32_t j = 0; j < u->napply; j++)
					if (u->apply[j].reduce && u->apply[j].off == op->off &&
					    u->apply[j].bytes == op->bytes && u->apply[j].nsrc < MAX_FUSE)
						a = &u->apply[j];
			if (!a) {
				a = &u->apply[u->napply++];
				a->reduce = op->op == REACT_RECV_REDUCE;
				a->off = op->off;
				a->bytes = op->bytes;
				a->count = op->bytes / rt->es;
			}
			a->soffs[a->nsrc++] = op->soff;
		}
		if (k > slots)
			slots = k;
		u->prev_join = pr->last_join[u->g];
		u->join_ev = nev++;
		pr->last_join[u->g] = u->join_ev;
		for (int32_t i = 1; i < u->nops; i++)
			u->ops[i].done_ev = nev++;
	}
	int32_t lanes = 1;
	for (int32_t g = 0; g < G; g++) {
		pr->lane_base[g] = lanes;
		lanes += maxk[g];
	}
	for (size_t ui = 0; ui < pr->nunits; ui++) {
		punit_t *u = &pr->units[ui];
		u->lane0 = pr->lane_base[u->g];
		for (int32_t i = 0; i < u->nops; i++)
			u->ops[i].lane = u->lane0 + i;
	}
	pr->nlanes = lanes;
	pr->nevents = nev;
	if (lanes > pl->lanes)
		pl->lanes = lanes;
	if (nev > pl->events)
		pl->events = nev;
	if (slots > pl->slots)
		pl->slots = slots;
out:
	if (st == REACT_ENOMEM)
		rt_err(rt, "plan: out of memory");
	free(cur);
	free(maxk);
	return st;
}

static react_status_t plan_get(react_rt_t *rt, const react_pattern_t *p, plan_t **out)
{
	react_status_t st;
	size_t count;
	if ((st = check_shape(rt, p, &count)) != REACT_OK)
		return st;
	uint64_t h = react_pattern_hash(p);
	for (int i = 0; i < PLAN_CACHE; i++) {
		plan_t *pl = rt->cache[i];
		if (pl && pl->hash == h && react_pattern_equal(pl->pat, p)) {
			pl->use = ++rt->use_clock;
			*out = pl;
			return REACT_OK;
		}
	}
	double t0 = now_s();
	plan_t *pl = calloc(1, sizeof *pl);
	if (!pl) {
		rt_err(rt, "plan: out of memory");
		return REACT_ENOMEM;
	}
	if ((st = react_pattern_clone(p, &pl->pat)) != REACT_OK) {
		rt_err(rt, "plan: cannot copy the pattern (%s)", react_status_str(st));
		goto fail;
	}
	pl->hash = h;
	pl->count = count;
	pl->ngraphs = react_pattern_ngraphs(p);
	if (pl->ngraphs < 1) {
		rt_err(rt, "plan: pattern has no chunk graphs");
		st = REACT_EINVAL;
		goto fail;
	}
	if (p->collective == REACT_COLL_ALLGATHER && p->nchunks % p->nranks) {
		/* chunks are sets of blocks: replay the pattern to learn what each
		 * flow carries (everything its sender holds before the step) */
		size_t N = (size_t)p->nranks;
		unsigned char *state = calloc(N * N, 1), *nxt = calloc(N * N, 1);
		pl->held = calloc(p->nflows * N + 1, 1);
		if (!state || !nxt || !pl->held || count % N) {
			free(state);
			free(nxt);
			st = count % N ? REACT_EINVAL : REACT_ENOMEM;
			rt_err(rt, count % N ? "pattern: allgather of %zu elements is not %d equal blocks"
			                     : "plan: out of memory", count, p->nranks);
			goto fail;
		}
		for (size_t r = 0; r < N; r++)
			state[r * N + r] = 1;
		for (react_step_t t = 0; t < p->nsteps; t++) {
			size_t b = react_pattern_step_begin(p, t), e = react_pattern_step_begin(p, t + 1);
			memcpy(nxt, state, N * N);
			for (size_t f = b; f < e; f++) {
				const react_flow_t *fl = &p->flows[f];
				for (size_t k = 0; k < N; k++) {
					pl->held[f * N + k] = state[(size_t)fl->src * N + k];
					nxt[(size_t)fl->dst * N + k] |= state[(size_t)fl->src * N + k];
				}
			}
			memcpy(state, nxt, N * N);
		}
		free(state);
		free(nxt);
	}
	pl->ranks = calloc((size_t)rt->xp->nlocal, sizeof *pl->ranks);
	if (!pl->ranks) {
		st = REACT_ENOMEM;
		rt_err(rt, "plan: out of memory");
		goto fail;
	}
	for (int32_t lr = 0; lr < rt->xp->nlocal; lr++)
		if ((st = plan_rank(rt, pl, lr)) != REACT_OK)
			goto fail;
	if (pl->slots > rt->cfg.scratch_slots) {
		rt_err(rt, "plan: a rank receives %d reductions into one chunk graph in one step; the "
		           "runtime has %d scratch slots (scratch_slots)", pl->slots, rt->cfg.scratch_slots);
		st = REACT_EUNSUPPORTED;
		goto fail;
	}
	if ((st = xchk(rt, rt->xp->ops->lanes_ensure(rt->xp, pl->lanes))) != REACT_OK ||
	    (st = xchk(rt, rt->xp->ops->events_ensure(rt->xp, pl->events))) != REACT_OK ||
	    (st = xchk(rt, rt->xp->ops->flows_ensure(rt->xp, p->nflows ? p->nflows : 1))) != REACT_OK)
		goto fail;
	if (pl->lanes > rt->stats.lanes_per_rank)
		rt->stats.lanes_per_rank = pl->lanes;
	/* evict the least recently used */
	int victim = 0;
	for (int i = 0; i < PLAN_CACHE; i++) {
		if (!rt->cache[i]) {
			victim = i;
			break;
		}
		if (rt->cache[i]->use < rt->cache[victim]->use)
			victim = i;
	}
	plan_free(rt->cache[victim], rt->xp->nlocal);
	rt->cache[victim] = pl;
	pl->use = ++rt->use_clock;
	rt->stats.plans_compiled++;
	rt->stats.last_compile_s = now_s() - t0;
	*out = pl;
	return REACT_OK;
fail:
	plan_free(pl, rt->xp->nlocal);
	return st;
}

react_status_t react_rt_prepare(react_rt_t *rt, const react_pattern_t *p)
{
	plan_t *pl;
	return plan_get(rt, p, &pl);
}

react_status_t react_rt_fill(react_rt_t *rt, const react_pattern_t *p)
{
	react_status_t st;
	size_t count;
	if ((st = check_shape(rt, p, &count)) != REACT_OK)
		return st;
	int gather = p->collective == REACT_COLL_ALLGATHER;
	size_t blk = count / (size_t)p->nranks;
	for (int32_t lr = 0; lr < rt->xp->nlocal; lr++) {
		react_rank_t r = rt->xp->rank0 + lr;
		size_t lo = gather ? (size_t)r * blk : 0, hi = gather ? lo + blk : count;
		if ((st = xchk(rt, rt->xp->ops->fill(rt->xp, lr, r, count, lo, hi))) != REACT_OK)
			return st;
	}
	return xchk(rt, rt->xp->ops->sync(rt->xp, rt->cfg.timeout_s));
}

#define X(call)                                                 \
	do {                                                    \
		if ((st = xchk(rt, (call))) != REACT_OK)        \
			goto fail;                              \
	} while (0)

react_status_t react_rt_enqueue(react_rt_t *rt, const react_pattern_t *p)
{
	react_status_t st;
	plan_t *pl;
	if ((st = plan_get(rt, p, &pl)) != REACT_OK)
		return st;
	react_xport_t *xp = rt->xp;
	const react_xport_ops_t *o = xp->ops;
	int32_t nl = xp->nlocal;
	size_t *pos = calloc((size_t)nl, sizeof *pos);
	if (!pos) {
		rt_err(rt, "enqueue: out of memory");
		return REACT_ENOMEM;
	}
	const int timed = rt->cfg.timed;
	for (int32_t lr = 0; lr < nl; lr++) {
		X(o->record(xp, lr, 0, EV_START));
		/* every lane of the rank starts after the epoch's start */
		for (int32_t l = 1; l < pl->ranks[lr].nlanes; l++)
			X(o->wait(xp, lr, l, EV_START));
	}
	for (react_step_t t = 0; t < p->nsteps; t++) {
		/* units of step t of every local rank: [pos[lr], end[lr]) */
		size_t end[64], *endp = nl <= 64 ? end : malloc((size_t)nl * sizeof *endp);
		if (!endp) {
			st = REACT_ENOMEM;
			rt_err(rt, "enqueue: out of memory");
			goto fail;
		}
		int any = 0;
		for (int32_t lr = 0; lr < nl; lr++) {
			prank_t *pr = &pl->ranks[lr];
			size_t u = pos[lr];
			while (u < pr->nunits && pr->units[u].t == t)
				u++;
			endp[lr] = u;
			any |= u > pos[lr];
		}
		if (!any)
			goto next;
#define EACH_UNIT for (int32_t lr = 0; lr < nl; lr++) for (size_t ui = pos[lr]; ui < endp[lr]; ui++)
#define UNIT (&pl->ranks[lr].units[ui])
		EACH_UNIT {
			punit_t *u = UNIT;
			for (int32_t i = 0; i < u->nops; i++) {
				if (i > 0 && u->prev_join >= 0)
					if ((st = xchk(rt, o->wait(xp, lr, u->ops[i].lane, u->prev_join))) != REACT_OK)
						goto step_fail;
				if (timed && (st = xchk(rt, o->tstart(xp, lr, u->ops[i].lane, u->ops[i].flow,
				                                       u->ops[i].send))) != REACT_OK)
					goto step_fail;
			}
		}
		if ((st = xchk(rt, o->group_begin(xp))) != REACT_OK)
			goto step_fail;
		EACH_UNIT {
			punit_t *u = UNIT;
			for (int32_t i = 0; i < u->nops; i++) {
				pop_t *op = &u->ops[i];
				if (!op->send)
					continue;
				if (op->nseg) {
					for (size_t s = 0; s < op->nseg; s++)
						if ((st = xchk(rt, o->send(xp, lr, op->lane, op->flow, op->peer,
						                            op->seg[2 * s], op->seg[2 * s + 1]))) != REACT_OK)
							goto step_fail;
				} else if ((st = xchk(rt, o->send(xp, lr, op->lane, op->flow, op->peer,
				                                   op->off, op->bytes))) != REACT_OK)
					goto step_fail;
			}
		}
		EACH_UNIT {
			punit_t *u = UNIT;
			for (int32_t i = 0; i < u->nops; i++) {
				pop_t *op = &u->ops[i];
				if (op->send)
					continue;
				if (op->nseg) {
					for (size_t s = 0; s < op->nseg; s++)
						if ((st = xchk(rt, o->recv(xp, lr, op->lane, op->flow, op->peer,
						                            op->seg[2 * s], op->seg[2 * s + 1], 0, 0))) != REACT_OK)
							goto step_fail;
				} else if ((st = xchk(rt, o->recv(xp, lr, op->lane, op->flow, op->peer, op->off,
				                                   op->bytes, op->to_scratch, op->soff))) != REACT_OK)
					goto step_fail;
			}
		}
		if ((st = xchk(rt, o->group_end(xp))) != REACT_OK)
			goto step_fail;
		EACH_UNIT {
			punit_t *u = UNIT;
			for (int32_t i = 0; i < u->nops; i++) {
				pop_t *op = &u->ops[i];
				if (timed && (st = xchk(rt, o->tend(xp, lr, op->lane, op->flow, op->send))) != REACT_OK)
					goto step_fail;
				if (i > 0 && (st = xchk(rt, o->record(xp, lr, op->lane, op->done_ev))) != REACT_OK)
					goto step_fail;
			}
			for (int32_t i = 1; i < u->nops; i++)
				if ((st = xchk(rt, o->wait(xp, lr, u->lane0, u->ops[i].done_ev))) != REACT_OK)
					goto step_fail;
			for (int32_t a = 0; a < u->napply; a++) {
				papply_t *ap = &u->apply[a];
				st = ap->reduce ? o->reduce(xp, lr, u->lane0, ap->off, ap->soffs, ap->nsrc, ap->count)
				                : o->copy(xp, lr, u->lane0, ap->off, ap->soffs[0], ap->bytes);
				if ((st = xchk(rt, st)) != REACT_OK)
					goto step_fail;
			}
			if ((st = xchk(rt, o->record(xp, lr, u->lane0, u->join_ev))) != REACT_OK)
				goto step_fail;
		}
#undef EACH_UNIT
#undef UNIT
		for (int32_t lr = 0; lr < nl; lr++)
			pos[lr] = endp[lr];
	next:
		if (endp != end)
			free(endp);
		continue;
	step_fail:
		if (endp != end)
			free(endp);
		goto fail;
	}
	for (int32_t lr = 0; lr < nl; lr++) {
		prank_t *pr = &pl->ranks[lr];
		for (int32_t g = 0; g < pl->ngraphs; g++)
			if (pr->last_join[g] >= 0)
				X(o->wait(xp, lr, 0, pr->last_join[g]));
		X(o->record(xp, lr, 0, EV_END));
	}
	st = REACT_OK;
fail:
	free(pos);
	return st;
}
#undef X

react_status_t react_rt_sync(react_rt_t *rt)
{
	return xchk(rt, rt->xp->ops->sync(rt->xp, rt->cfg.timeout_s));
}

react_status_t react_rt_run(react_rt_t *rt, const react_pattern_t *p, const react_rt_times_t **tout)
{
	react_status_t st;
	if ((st = react_rt_enqueue(rt, p)) != REACT_OK || (st = react_rt_sync(rt)) != REACT_OK)
		return st;
	react_rt_times_t *t = &rt->times;
	if (p->nflows > rt->times_cap) {
		size_t n = p->nflows;
		double *a = realloc(t->send_span_s, n * sizeof *a);
		if (a)
			t->send_span_s = a;
		double *b = realloc(t->recv_span_s, n * sizeof *b);
		if (b)
			t->recv_span_s = b;
		double *c = realloc(t->fct_s, n * sizeof *c);
		if (c)
			t->fct_s = c;
		if (!a || !b || !c) {
			rt_err(rt, "run: out of memory for %zu flow times", n);
			return REACT_ENOMEM;
		}
		rt->times_cap = n;
	}
	t->nflows = p->nflows;
	react_xport_t *xp = rt->xp;
	t->epoch_s = 0;
	for (int32_t lr = 0; lr < xp->nlocal; lr++) {
		double e = xp->ops->elapsed(xp, 0, EV_START, lr, EV_END);
		if (e > t->epoch_s)
			t->epoch_s = e;
	}
	size_t count = (size_t)(p->message_bytes / rt->es);
	for (size_t f = 0; f < p->nflows; f++) {
		const react_flow_t *fl = &p->flows[f];
		int sl = fl->src >= xp->rank0 && fl->src < xp->rank0 + xp->nlocal;
		int dl = fl->dst >= xp->rank0 && fl->dst < xp->rank0 + xp->nlocal;
		size_t lo, hi;
		chunk_range(count, p->nchunks, fl->chunk, fl->nchunks, &lo, &hi);
		if (p->collective == REACT_COLL_ALLGATHER && p->nchunks % p->nranks)
			hi = lo + 1; /* block sets: never empty */
		if (!rt->cfg.timed || hi == lo) {
			t->send_span_s[f] = t->recv_span_s[f] = NAN;
			t->fct_s[f] = hi == lo ? 1e-9 : NAN;
			continue;
		}
		t->send_span_s[f] = sl ? xp->ops->span(xp, f, 1) : NAN;
		t->recv_span_s[f] = dl ? xp->ops->span(xp, f, 0) : NAN;
		double v = NAN;
		if (sl && dl)
			v = fmin(t->send_span_s[f], t->recv_span_s[f]);
		else if (sl)
			v = t->send_span_s[f];
		else if (dl)
			v = t->recv_span_s[f];
		if (!isnan(v) && v < 1e-9)
			v = 1e-9;
		t->fct_s[f] = v;
	}
	if (tout)
		*tout = t;
	return REACT_OK;
}

react_status_t react_rt_check(react_rt_t *rt, const react_pattern_t *p, uint64_t *wrong)
{
	react_status_t st;
	size_t count;
	if ((st = check_shape(rt, p, &count)) != REACT_OK)
		return st;
	*wrong = 0;
	int gather = p->collective == REACT_COLL_ALLGATHER;
	for (int32_t lr = 0; lr < rt->xp->nlocal; lr++)
		if ((st = xchk(rt, rt->xp->ops->count_wrong(rt->xp, lr, count, p->nranks, gather,
		                                             count / (size_t)p->nranks, wrong))) != REACT_OK)
			return st;
	return REACT_OK;
}
