/*
 * flowsim.c - the flow-level engine of react_backend_flow and
 * react_backend_dctcp: epochs, DAG release, external flows, one event heap.
 * How fast bytes move is a rate model's business (rate_model.h):
 * rate_maxmin.c (max-min fair rates, "flow") or rate_dctcp.c (DCTCP
 * windows, "dctcp").
 *
 * A pattern flow:
 *   starts      when all its predecessors (react_pattern_preds) have arrived
 *               (flows without predecessors: at the epoch's start);
 *   is handed   to the rate model, which reports when its last byte arrives;
 *   FCT         = arrival - start.
 * Two ranks on the same host exchange data instantly (FCT 0).
 * Epoch e+1 of a job starts compute_gap_s after the last flow of epoch e
 * arrived; its first epoch starts at start_s.
 *
 * ECMP: logical flow i of job j owns cfg->ecmp_ports connections; connection
 * k has source port hash(seed, j, i, k).  At epoch e the connection used is
 * hash(seed, j, e, i) mod ecmp_ports.  External flow x, copy c, has source
 * port hash(seed, x, c), fixed for the run.  Paths: react_routing_path().
 *
 * Ties: events at the same instant are processed together, in the order
 * they were scheduled, after the rate model has advanced to that instant.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rate_model.h"
#include "react/flowsim.h"
#include "react/routing.h"

enum { EV_EPOCH = 0, EV_ARRIVE, EV_EXT_ON, EV_EXT_OFF };

typedef struct ev {
	double t;
	uint64_t seq;
	int32_t type, job;
	int64_t idx;
} ev_t;

typedef struct jstate {
	const react_job_cfg_t *cfg;
	int64_t epoch;
	int alive;
	const react_pattern_t *pat;
	size_t nflows, cap, narrived;
	double *start, *fct, epoch_start;
	uint64_t *fkey;                 /* per flow: react_flow_key of its logical flow */
	const react_pattern_t *keyed;   /* the pattern fkey belongs to */
	int32_t *npend, *paths, *plen;
} jstate_t;

typedef struct react_flowsim_engine sim_t;

struct react_flowsim_engine {
	const react_run_cfg_t *cfg;
	const react_topology_t *t;
	react_routing_t *rt;
	int rt_shared;        /* rt belongs to a prepared state: not freed here */
	int32_t maxhops, ndl;
	double *cap;          /* per directed link, bytes/s */
	double *ldelay;       /* per directed link */
	jstate_t *js;
	ev_t *heap;
	size_t nheap, heapcap;
	uint64_t seq;
	int32_t *ext_paths;   /* per external copy */
	size_t *ext_off;      /* first copy of external flow x */
	react_flowsim_stats_t st;
	char *err;
	size_t errlen;
	const react_rate_ops_t *rate; /* the rate model */
	void *model;          /* its state */
};

react_status_t react_flowsim_reserve(void *pp, size_t *cap, size_t need, size_t elem, size_t first)
{
	void **p = pp;
	if (need <= *cap)
		return REACT_OK;
	size_t nc = *cap ? 2 * *cap : first;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, nc * elem);
	if (!q)
		return REACT_ENOMEM;
	*p = q;
	*cap = nc;
	return REACT_OK;
}

/* Sum of the one-way delays of a path's links. */
static double path_delay(const sim_t *s, const int32_t *path, int32_t len)
{
	double d = 0;
	for (int32_t i = 0; i < len; i++)
		d += s->ldelay[path[i]];
	return d;
}

/* ---- event heap, ordered by (time, sequence) ---- */
static int ev_less(const ev_t *a, const ev_t *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static react_status_t push(sim_t *s, double t, int32_t type, int32_t job, int64_t idx)
{
	if (react_flowsim_reserve(&s->heap, &s->heapcap, s->nheap + 1, sizeof *s->heap, 256))
		return REACT_ENOMEM;
	size_t i = s->nheap++;
	ev_t e = {t, s->seq++, type, job, idx};
	while (i > 0 && ev_less(&e, &s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = e;
	return REACT_OK;
}

static ev_t pop(sim_t *s)
{
	ev_t top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0, n = s->nheap;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
	return top;
}

/* ---- pattern flows ---- */
static react_status_t start_flow(sim_t *s, int32_t j, size_t f, double t)
{
	jstate_t *J = &s->js[j];
	const react_flow_t *fl = &J->pat->flows[f];
	const react_run_cfg_t *c = s->cfg;
	int32_t src = J->cfg->hosts[fl->src], dst = J->cfg->hosts[fl->dst];
	uint64_t k = react_flow_conn(c->seed, j, J->epoch, f, c->ecmp_ports);
	uint32_t sport = react_flow_label(c->seed, j, J->fkey[f], k);
	int32_t *path = &J->paths[f * (size_t)s->maxhops], len = 0;
	react_status_t st;
	J->start[f] = t;
	if ((st = react_routing_path(s->rt, src, dst, sport, c->seed, path, s->maxhops, &len)))
		return st;
	J->plen[f] = len;
	double d = path_delay(s, path, len);
	if (len == 0 || fl->bytes == 0) {
		s->st.flow_events++;
		return push(s, t + d, EV_ARRIVE, j, (int64_t)f);
	}
	/* a logical flow's connections open when its epoch starts */
	react_rate_xfer_t x = {j, (int32_t)f, path, len, (double)fl->bytes, d,
	                       (uint64_t)(j + 1) << 32 | k, J->fkey[f], J->epoch_start + 2 * d};
	return s->rate->add(s->model, &x, t);
}

react_status_t react_flowsim_arrival(react_flowsim_engine_t *s, double t, int32_t job, int32_t idx)
{
	return push(s, t, EV_ARRIVE, job, idx);
}

static react_status_t grow_job(jstate_t *J, size_t n, size_t maxhops)
{
	if (n > J->cap) {
		size_t nc = n;
#define RE(p) do { void *q = realloc(p, nc * sizeof *(p)); if (!q) return REACT_ENOMEM; p = q; } while (0)
		RE(J->start); RE(J->fct); RE(J->npend); RE(J->plen); RE(J->fkey);
		J->keyed = NULL;
		void *q = realloc(J->paths, nc * maxhops * sizeof *J->paths + 1);
		if (!q)
			return REACT_ENOMEM;
		J->paths = q;
		J->cap = nc;
#undef RE
	}
	return REACT_OK;
}

static react_status_t epoch_end(sim_t *s, int32_t j, double t, const react_driver_cb_t *cb);

typedef struct pairf {
	int32_t src, dst;
	size_t f;
} pairf_t;

static int pairf_cmp(const void *a, const void *b)
{
	const pairf_t *x = a, *y = b;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return x->f < y->f ? -1 : x->f > y->f;
}

/* J->fkey for pattern p: occurrence of each flow's host pair, in flow order */
static react_status_t key_flows(jstate_t *J, const react_pattern_t *p)
{
	size_t n = p->nflows, m = 0;
	pairf_t *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return REACT_ENOMEM;
	for (size_t f = 0; f < n; f++) {
		const react_flow_t *fl = &p->flows[f];
		int32_t sh = J->cfg->hosts[fl->src], dh = J->cfg->hosts[fl->dst];
		J->fkey[f] = 0;
		if (sh != dh && fl->bytes > 0)
			v[m++] = (pairf_t){sh, dh, f};
	}
	qsort(v, m, sizeof *v, pairf_cmp);
	uint32_t occ = 0;
	for (size_t i = 0; i < m; i++) {
		occ = i && v[i].src == v[i - 1].src && v[i].dst == v[i - 1].dst ? occ + 1 : 0;
		J->fkey[v[i].f] = react_flow_key(v[i].src, v[i].dst, occ);
	}
	free(v);
	J->keyed = p;
	return REACT_OK;
}

static react_status_t epoch_begin(sim_t *s, int32_t j, double t, const react_driver_cb_t *cb)
{
	jstate_t *J = &s->js[j];
	react_status_t st;
	const react_pattern_t *p = NULL;
	if (J->cfg->epochs <= 0 || J->epoch < J->cfg->epochs)
		p = cb->pattern_for(cb->ctx, j, J->epoch);
	if (!p) {
		J->alive = 0;
		return REACT_OK;
	}
	if (p->nranks != J->cfg->nranks) {
		snprintf(s->err, s->errlen, "job %s epoch %lld: pattern has %d ranks, the job %d",
		         J->cfg->name, (long long)J->epoch, p->nranks, J->cfg->nranks);
		return REACT_EINVAL;
	}
	size_t n = p->nflows;
	if ((st = grow_job(J, n, (size_t)s->maxhops)))
		return st;
	if (J->keyed != p && (st = key_flows(J, p)))
		return st;
	J->pat = p;
	J->nflows = n;
	J->narrived = 0;
	J->epoch_start = t;
	for (size_t f = 0; f < n; f++) {
		J->npend[f] = (int32_t)react_pattern_preds(p, f, NULL);
		J->fct[f] = 0;
	}
	if (n == 0)
		return epoch_end(s, j, t, cb);
	for (size_t f = 0; f < n; f++)
		if (J->npend[f] == 0 && (st = start_flow(s, j, f, t)))
			return st;
	return REACT_OK;
}

static react_status_t epoch_end(sim_t *s, int32_t j, double t, const react_driver_cb_t *cb)
{
	jstate_t *J = &s->js[j];
	react_epoch_report_t rep = {j, J->epoch, J->epoch_start, t, J->pat, J->start, J->fct};
	react_status_t st = cb->epoch_done(cb->ctx, &rep);
	if (st) {
		snprintf(s->err, s->errlen, "job %s epoch %lld: the driver stopped the run (%s)",
		         J->cfg->name, (long long)J->epoch, react_status_str(st));
		return st;
	}
	s->st.epochs++;
	J->epoch++;
	J->pat = NULL;
	return push(s, t + J->cfg->compute_gap_s, EV_EPOCH, j, 0);
}

static react_status_t arrive(sim_t *s, int32_t j, size_t f, double t,
                             const react_driver_cb_t *cb)
{
	jstate_t *J = &s->js[j];
	react_status_t st;
	J->fct[f] = t - J->start[f];
	J->narrived++;
	const size_t *sc;
	size_t ns = react_pattern_succs(J->pat, f, &sc);
	for (size_t i = 0; i < ns; i++)
		if (--J->npend[sc[i]] == 0 && (st = start_flow(s, j, sc[i], t)))
			return st;
	if (J->narrived == J->nflows)
		return epoch_end(s, j, t, cb);
	return REACT_OK;
}

static react_status_t check_cfg(const react_run_cfg_t *c, char *err, size_t errlen)
{
	const react_topology_t *t = c->topo;
	if (!t || t->nhosts < 1) {
		snprintf(err, errlen, "the run has no topology");
		return REACT_EINVAL;
	}
	if (c->ecmp_ports < 1) {
		snprintf(err, errlen, "ecmp_ports is %d, expected >= 1", c->ecmp_ports);
		return REACT_EINVAL;
	}
	if (c->njobs < 0 || (c->njobs > 0 && !c->jobs)) {
		snprintf(err, errlen, "bad job list");
		return REACT_EINVAL;
	}
	for (int32_t j = 0; j < c->njobs; j++) {
		const react_job_cfg_t *J = &c->jobs[j];
		if (J->nranks < 1 || !J->hosts || !(J->compute_gap_s >= 0) || !(J->start_s >= 0)) {
			snprintf(err, errlen, "job %s: expected nranks >= 1, hosts, gap and start >= 0",
			         J->name);
			return REACT_EINVAL;
		}
		for (int32_t r = 0; r < J->nranks; r++)
			if (J->hosts[r] < 0 || J->hosts[r] >= t->nhosts) {
				snprintf(err, errlen, "job %s: rank %d on host %d, topology %s has %d hosts",
				         J->name, r, J->hosts[r], t->name, t->nhosts);
				return REACT_EINVAL;
			}
	}
	for (size_t x = 0; x < c->next; x++) {
		const react_ext_flow_t *e = &c->ext[x];
		if (e->src_host < 0 || e->src_host >= t->nhosts || e->dst_host < 0 ||
		    e->dst_host >= t->nhosts || e->count < 0 || !(e->start_s >= 0)) {
			snprintf(err, errlen, "external flow %zu: expected hosts in 0..%d, count >= 0, "
			         "start >= 0", x, t->nhosts - 1);
			return REACT_EINVAL;
		}
	}
	for (size_t d = 0; d < c->ndegraded; d++)
		if (c->degraded[d].link < 0 || c->degraded[d].link >= t->nlinks ||
		    !(c->degraded[d].rate_bps > 0)) {
			snprintf(err, errlen, "degraded link %zu: expected a link in 0..%d and a rate > 0",
			         d, t->nlinks - 1);
			return REACT_EINVAL;
		}
	return REACT_OK;
}

/* One event of the heap at time t. */
static react_status_t handle_event(sim_t *s, ev_t e, double t, const react_driver_cb_t *cb,
                                   int32_t *alive)
{
	const react_run_cfg_t *cfg = s->cfg;
	react_status_t st;
	switch (e.type) {
	case EV_EPOCH:
		if ((st = epoch_begin(s, e.job, t, cb)))
			return st;
		if (!s->js[e.job].alive)
			(*alive)--;
		break;
	case EV_ARRIVE:
		if ((st = arrive(s, e.job, (size_t)e.idx, t, cb)))
			return st;
		break;
	case EV_EXT_ON:
		for (size_t c = s->ext_off[e.idx]; c < s->ext_off[e.idx + 1]; c++) {
			int32_t len = 0;
			int32_t *p = &s->ext_paths[c * (size_t)s->maxhops];
			uint32_t sport = react_ext_label(cfg->seed, (uint64_t)e.idx, c - s->ext_off[e.idx]);
			if ((st = react_routing_path(s->rt, cfg->ext[e.idx].src_host,
			                             cfg->ext[e.idx].dst_host, sport, cfg->seed, p,
			                             s->maxhops, &len)))
				return st;
			double d = path_delay(s, p, len);
			react_rate_xfer_t x = {-1, (int32_t)e.idx, p, len, INFINITY, d, 0, 0, t + 2 * d};
			if ((st = s->rate->add(s->model, &x, t)))
				return st;
		}
		break;
	case EV_EXT_OFF:
		if ((st = s->rate->ext_off(s->model, (int32_t)e.idx)))
			return st;
		break;
	}
	return REACT_OK;
}

static void sim_free(sim_t *s)
{
	if (s->js)
		for (int32_t j = 0; j < s->cfg->njobs; j++) {
			jstate_t *J = &s->js[j];
			free(J->start); free(J->fct); free(J->npend); free(J->plen);
			free(J->fkey);
			free(J->paths);
		}
	free(s->js);
	if (!s->rt_shared)
		react_routing_destroy(s->rt);
	if (s->model)
		s->rate->destroy(s->model);
	free(s->cap); free(s->ldelay); free(s->heap);
	free(s->ext_paths); free(s->ext_off);
}

static react_status_t flowsim_run(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                  const react_rate_ops_t *rate, react_routing_t *shared_rt,
                                  react_flowsim_stats_t *stats, char *err, size_t errlen)
{
	react_status_t st;
	sim_t s;
	char dummy[8];
	memset(&s, 0, sizeof s);
	s.rate = rate;
	if (!err) {
		err = dummy;
		errlen = sizeof dummy;
	}
	const char *name = rate->name;
	if (!cfg || !cb || !cb->pattern_for || !cb->epoch_done) {
		snprintf(err, errlen, "%s backend: missing configuration or callbacks", name);
		return REACT_EINVAL;
	}
	char why[512];
	if ((st = check_cfg(cfg, why, sizeof why))) {
		snprintf(err, errlen, "%s backend: %s", name, why);
		return st;
	}
	s.cfg = cfg;
	s.t = cfg->topo;
	s.err = err;
	s.errlen = errlen;
	if (shared_rt) {
		s.rt = shared_rt;
		s.rt_shared = 1;
	} else if ((st = react_routing_create(s.t, &s.rt, err, errlen))) {
		goto fail;
	}
	s.maxhops = react_routing_diameter(s.rt) > 0 ? react_routing_diameter(s.rt) : 1;
	s.ndl = 2 * s.t->nlinks;
	size_t nd = (size_t)s.ndl + 1;
	s.cap = malloc(nd * sizeof *s.cap);
	s.ldelay = malloc(nd * sizeof *s.ldelay);
	s.js = calloc((size_t)cfg->njobs + 1, sizeof *s.js);
	size_t ncopies = 0;
	for (size_t x = 0; x < cfg->next; x++)
		ncopies += (size_t)cfg->ext[x].count;
	s.ext_off = malloc((cfg->next + 1) * sizeof *s.ext_off);
	s.ext_paths = malloc((ncopies * (size_t)s.maxhops + 1) * sizeof *s.ext_paths);
	st = REACT_ENOMEM;
	if (!s.cap || !s.ldelay || !s.js || !s.ext_off || !s.ext_paths)
		goto fail;
	for (int32_t l = 0; l < s.t->nlinks; l++) {
		s.cap[2 * l] = s.cap[2 * l + 1] = s.t->links[l].rate_bps / 8;
		s.ldelay[2 * l] = s.ldelay[2 * l + 1] = s.t->links[l].delay_s;
	}
	for (size_t d = 0; d < cfg->ndegraded; d++)
		s.cap[2 * cfg->degraded[d].link] = s.cap[2 * cfg->degraded[d].link + 1] =
		    cfg->degraded[d].rate_bps / 8;
	react_rate_net_t net = {s.ndl, s.cap, (double)(cfg->mtu ? cfg->mtu : 1500), &s.st, &s};
	if ((st = rate->create(&net, &s.model)))
		goto fail;
	/* external flows: fixed paths per copy */
	ncopies = 0;
	for (size_t x = 0; x < cfg->next; x++) {
		const react_ext_flow_t *e = &cfg->ext[x];
		s.ext_off[x] = ncopies;
		for (int32_t c = 0; c < e->count; c++, ncopies++) {
			uint32_t sport = react_ext_label(cfg->seed, x, (uint64_t)c);
			int32_t len;
			int32_t *p = &s.ext_paths[ncopies * (size_t)s.maxhops];
			if ((st = react_routing_path(s.rt, e->src_host, e->dst_host, sport, cfg->seed, p,
			                             s.maxhops, &len)))
				goto fail;
		}
		if (e->count > 0 && e->src_host != e->dst_host) {
			if ((st = push(&s, e->start_s, EV_EXT_ON, -1, (int64_t)x)))
				goto fail;
			if (e->end_s > 0 && e->end_s > e->start_s &&
			    (st = push(&s, e->end_s, EV_EXT_OFF, -1, (int64_t)x)))
				goto fail;
		}
	}
	s.ext_off[cfg->next] = ncopies;
	int32_t alive = 0;
	for (int32_t j = 0; j < cfg->njobs; j++) {
		s.js[j].cfg = &cfg->jobs[j];
		s.js[j].alive = 1;
		alive++;
		if ((st = push(&s, cfg->jobs[j].start_s, EV_EPOCH, j, 0)))
			goto fail;
	}
	/* the rate model advances to the next instant that matters to it (at
	 * most the next event), then the events due then are handled */
	double t = 0;
	int changed = 1;
	while (alive > 0) {
		double tn;
		if ((st = rate->advance(s.model, t, s.nheap ? s.heap[0].t : INFINITY, changed, &tn)))
			goto fail;
		if (tn == INFINITY) {
			snprintf(err, errlen, "%s backend: at t=%.9g s no flow can progress", name, t);
			st = REACT_EBACKEND;
			goto fail;
		}
		t = tn;
		changed = 0;
		while (s.nheap && s.heap[0].t <= t) {
			if ((st = handle_event(&s, pop(&s), t, cb, &alive)))
				goto fail;
			changed = 1;
		}
	}
	s.st.end_s = t;
	if (stats)
		*stats = s.st;
	st = REACT_OK;
fail:
	sim_free(&s);
	return st;
}

react_status_t react_flowsim_run(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                 react_flowsim_stats_t *stats, char *err, size_t errlen)
{
	return flowsim_run(cfg, cb, &react_rate_maxmin, NULL, stats, err, errlen);
}

react_status_t react_flowsim_run_dctcp(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                       react_flowsim_stats_t *stats, char *err, size_t errlen)
{
	return flowsim_run(cfg, cb, &react_rate_dctcp, NULL, stats, err, errlen);
}

static react_status_t run(const react_run_cfg_t *cfg, const react_driver_cb_t *cb, char *err,
                          size_t errlen)
{
	return react_flowsim_run(cfg, cb, NULL, err, errlen);
}

static react_status_t run_dctcp(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                char *err, size_t errlen)
{
	return react_flowsim_run_dctcp(cfg, cb, NULL, err, errlen);
}

/* Prepared state: the routing tables, which depend on the topology only
 * (degraded links change capacities, not paths). */
typedef struct prepared {
	const react_topology_t *t;
	react_routing_t *rt;
} prepared_t;

static react_status_t prepare(const react_topology_t *t, void **state, char *err, size_t errlen)
{
	prepared_t *p = calloc(1, sizeof *p);
	react_status_t st;
	*state = NULL;
	if (!p)
		return REACT_ENOMEM;
	p->t = t;
	if ((st = react_routing_create(t, &p->rt, err, errlen))) {
		free(p);
		return st;
	}
	*state = p;
	return REACT_OK;
}

static void release(void *state)
{
	prepared_t *p = state;
	if (!p)
		return;
	react_routing_destroy(p->rt);
	free(p);
}

static react_status_t run_prepared_w(void *state, const react_run_cfg_t *cfg,
                                     const react_driver_cb_t *cb, const react_rate_ops_t *rate,
                                     char *err, size_t errlen)
{
	prepared_t *p = state;
	if (!p || !cfg || cfg->topo != p->t) {
		snprintf(err, errlen, "%s backend: the prepared state belongs to another topology",
		         rate->name);
		return REACT_EINVAL;
	}
	return flowsim_run(cfg, cb, rate, p->rt, NULL, err, errlen);
}

static react_status_t run_prepared(void *state, const react_run_cfg_t *cfg,
                                   const react_driver_cb_t *cb, char *err, size_t errlen)
{
	return run_prepared_w(state, cfg, cb, &react_rate_maxmin, err, errlen);
}

static react_status_t run_prepared_dctcp(void *state, const react_run_cfg_t *cfg,
                                         const react_driver_cb_t *cb, char *err, size_t errlen)
{
	return run_prepared_w(state, cfg, cb, &react_rate_dctcp, err, errlen);
}

const react_backend_ops_t react_backend_flow = {"flow", run, prepare, run_prepared, release};
const react_backend_ops_t react_backend_dctcp = {"dctcp", run_dctcp, prepare, run_prepared_dctcp,
                                                 release};
