/*
 * transport_host.c - the host transport: CPU threads and memcpy.
 *
 * One worker thread per rank executes that rank's lanes (in-order queues of
 * operations) with CUDA stream and event semantics.  Data really moves
 * (memcpy between the ranks' host buffers, reductions in C), so results can
 * be checked; time is virtual: every lane has a clock, a flow completes at
 * max(sender ready, receiver ready) + latency + bytes / bandwidth of its
 * link, a wait takes the max of clocks, a reduction costs bytes / reduce
 * rate.  Times therefore depend only on the pattern and the links, never on
 * thread scheduling: runs are deterministic.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xport.h"

enum op_kind { OP_RECORD, OP_WAIT, OP_TSTART, OP_TEND, OP_SEND, OP_RECV, OP_REDUCE, OP_COPY, OP_FILL };

#define MAX_SRC 8

typedef struct hop {
	enum op_kind kind;
	int phase;
	int32_t ev;
	int send;
	size_t flow;
	react_rank_t peer;
	size_t off, soff, bytes, count;
	size_t soffs[MAX_SRC];
	int nsrc;
	int to_scratch;
	uint64_t gen;
	size_t lo, hi;
	react_rank_t rank;
} hop_t;

typedef struct hlane {
	hop_t *ops;
	size_t n, cap, head;
	double clock;
} hlane_t;

#define EV_HIST 4
typedef struct hevent {
	uint64_t enq, done;
	double vt[EV_HIST];
} hevent_t;

typedef struct hflow {
	uint64_t send_enq, recv_enq, sent_gen, done_gen;
	const unsigned char *src;
	double ts, end;
	double t0[2], t1[2]; /* [0] receive side, [1] send side */
} hflow_t;

typedef struct hrank {
	unsigned char *data, *scratch;
	hlane_t *lanes;
	hevent_t *events;
	pthread_t thread;
	int started;
} hrank_t;

typedef struct hxp {
	react_xport_t base;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	int32_t nlanes, nevents;
	size_t nflows;
	hrank_t *ranks;
	hflow_t *flows;
	double *lat, *bw; /* nranks x nranks */
	double reduce_Bps;
	size_t data_bytes, scratch_bytes;
} hxp_t;

static void seterr(hxp_t *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(h->base.err, sizeof h->base.err, fmt, ap);
	va_end(ap);
}

static int lane_idle(const hlane_t *l)
{
	return l->head == l->n;
}

/* Execute the head op of lane l of rank r if it can run; 1 when it advanced.
 * Called with the mutex held; may drop it around bulk memory work. */
static int step_lane(hxp_t *h, int32_t lr, hlane_t *l)
{
	if (lane_idle(l))
		return 0;
	hop_t *op = &l->ops[l->head];
	hrank_t *rk = &h->ranks[lr];
	size_t es = react_dtype_size(h->base.dtype);
	react_rank_t me = h->base.rank0 + lr;
	switch (op->kind) {
	case OP_RECORD: {
		hevent_t *e = &rk->events[op->ev];
		e->vt[op->gen % EV_HIST] = l->clock;
		if (e->done < op->gen)
			e->done = op->gen;
		break;
	}
	case OP_WAIT: {
		hevent_t *e = &rk->events[op->ev];
		if (op->gen == 0) /* never recorded before the wait: no-op, as in CUDA */
			break;
		if (e->done < op->gen)
			return 0;
		double t = e->vt[op->gen % EV_HIST];
		if (t > l->clock)
			l->clock = t;
		break;
	}
	case OP_TSTART:
		h->flows[op->flow].t0[op->send] = l->clock;
		break;
	case OP_TEND:
		h->flows[op->flow].t1[op->send] = l->clock;
		break;
	case OP_SEND: {
		hflow_t *f = &h->flows[op->flow];
		if (op->phase == 0) {
			f->src = rk->data + op->off;
			f->ts = l->clock;
			f->sent_gen = op->gen;
			op->phase = 1;
			pthread_cond_broadcast(&h->cv);
			return 1; /* advanced (posted) */
		}
		if (f->done_gen < op->gen)
			return 0;
		if (f->end > l->clock)
			l->clock = f->end;
		break;
	}
	case OP_RECV: {
		hflow_t *f = &h->flows[op->flow];
		if (f->sent_gen < op->gen)
			return 0;
		unsigned char *dst = op->to_scratch ? rk->scratch + op->soff : rk->data + op->off;
		const unsigned char *src = f->src;
		double ready = f->ts > l->clock ? f->ts : l->clock;
		size_t k = (size_t)op->peer * (size_t)h->base.nranks + (size_t)me;
		double end = ready + h->lat[k] + (double)op->bytes / h->bw[k];
		pthread_mutex_unlock(&h->mu);
		memcpy(dst, src, op->bytes);
		pthread_mutex_lock(&h->mu);
		f->end = end;
		f->done_gen = op->gen;
		l->clock = end;
		pthread_cond_broadcast(&h->cv);
		break;
	}
	case OP_REDUCE: {
		pthread_mutex_unlock(&h->mu);
		unsigned char *dst = rk->data + op->off;
		for (size_t i = 0; i < op->count; i++) {
			float acc = react_host_load(h->base.dtype, dst, i);
			for (int s = 0; s < op->nsrc; s++)
				acc += react_host_load(h->base.dtype, rk->scratch + op->soffs[s], i);
			react_host_store(h->base.dtype, dst, i, acc);
		}
		pthread_mutex_lock(&h->mu);
		l->clock += (double)(op->count * es * (size_t)(op->nsrc + 2)) / h->reduce_Bps;
		break;
	}
	case OP_COPY:
		pthread_mutex_unlock(&h->mu);
		memcpy(rk->data + op->off, rk->scratch + op->soff, op->bytes);
		pthread_mutex_lock(&h->mu);
		l->clock += (double)(2 * op->bytes) / h->reduce_Bps;
		break;
	case OP_FILL:
		pthread_mutex_unlock(&h->mu);
		for (size_t i = 0; i < op->count; i++) {
			float v = (i >= op->lo && i < op->hi) ? (float)react_input_value(op->rank, i) : -1000.0f;
			react_host_store(h->base.dtype, rk->data, i, v);
		}
		pthread_mutex_lock(&h->mu);
		break;
	}
	l->head++;
	pthread_cond_broadcast(&h->cv);
	return 1;
}

typedef struct { hxp_t *h; int32_t lr; } worker_arg_t;

static void *worker(void *arg)
{
	worker_arg_t wa = *(worker_arg_t *)arg;
	free(arg);
	hxp_t *h = wa.h;
	pthread_mutex_lock(&h->mu);
	while (!h->stop) {
		int progress = 0;
		hrank_t *rk = &h->ranks[wa.lr];
		for (int32_t i = 0; i < h->nlanes; i++)
			while (step_lane(h, wa.lr, &rk->lanes[i]))
				progress = 1;
		if (!progress)
			pthread_cond_wait(&h->cv, &h->mu);
	}
	pthread_mutex_unlock(&h->mu);
	return NULL;
}

static react_status_t push(hxp_t *h, int32_t lr, int32_t lane, const hop_t *op)
{
	if (lr < 0 || lr >= h->base.nlocal || lane < 0 || lane >= h->nlanes) {
		seterr(h, "host transport: lane %d of local rank %d out of range (%d lanes)", lane, lr,
		       h->nlanes);
		return REACT_EINVAL;
	}
	react_status_t st = REACT_OK;
	pthread_mutex_lock(&h->mu);
	hlane_t *l = &h->ranks[lr].lanes[lane];
	if (l->n == l->cap) {
		size_t nc = l->cap ? 2 * l->cap : 64;
		hop_t *no = realloc(l->ops, nc * sizeof *no);
		if (!no) {
			st = REACT_ENOMEM;
			goto out;
		}
		l->ops = no;
		l->cap = nc;
	}
	l->ops[l->n++] = *op;
	pthread_cond_broadcast(&h->cv);
out:
	pthread_mutex_unlock(&h->mu);
	return st;
}

static void h_destroy(react_xport_t *xp)
{
	hxp_t *h = (hxp_t *)xp;
	if (!h)
		return;
	pthread_mutex_lock(&h->mu);
	h->stop = 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	for (int32_t r = 0; h->ranks && r < h->base.nlocal; r++) {
		hrank_t *rk = &h->ranks[r];
		if (rk->started)
			pthread_join(rk->thread, NULL);
		for (int32_t i = 0; rk->lanes && i < h->nlanes; i++)
			free(rk->lanes[i].ops);
		free(rk->lanes);
		free(rk->events);
		free(rk->data);
		free(rk->scratch);
	}
	free(h->ranks);
	free(h->flows);
	free(h->lat);
	free(h->bw);
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

static react_status_t h_lanes_ensure(react_xport_t *xp, int32_t n)
{
	hxp_t *h = (hxp_t *)xp;
	react_status_t st = REACT_OK;
	pthread_mutex_lock(&h->mu);
	if (n <= h->nlanes)
		goto out;
	for (int32_t r = 0; r < h->base.nlocal; r++) {
		hlane_t *nl = realloc(h->ranks[r].lanes, (size_t)n * sizeof *nl);
		if (!nl) {
			st = REACT_ENOMEM;
			goto out;
		}
		memset(nl + h->nlanes, 0, (size_t)(n - h->nlanes) * sizeof *nl);
		h->ranks[r].lanes = nl;
	}
	h->nlanes = n;
out:
	pthread_mutex_unlock(&h->mu);
	return st;
}

static react_status_t h_events_ensure(react_xport_t *xp, int32_t n)
{
	hxp_t *h = (hxp_t *)xp;
	react_status_t st = REACT_OK;
	pthread_mutex_lock(&h->mu);
	if (n <= h->nevents)
		goto out;
	for (int32_t r = 0; r < h->base.nlocal; r++) {
		hevent_t *ne = realloc(h->ranks[r].events, (size_t)n * sizeof *ne);
		if (!ne) {
			st = REACT_ENOMEM;
			goto out;
		}
		memset(ne + h->nevents, 0, (size_t)(n - h->nevents) * sizeof *ne);
		h->ranks[r].events = ne;
	}
	h->nevents = n;
out:
	pthread_mutex_unlock(&h->mu);
	return st;
}

static react_status_t h_flows_ensure(react_xport_t *xp, size_t n)
{
	hxp_t *h = (hxp_t *)xp;
	react_status_t st = REACT_OK;
	pthread_mutex_lock(&h->mu);
	if (n <= h->nflows)
		goto out;
	hflow_t *nf = realloc(h->flows, n * sizeof *nf);
	if (!nf) {
		st = REACT_ENOMEM;
		goto out;
	}
	memset(nf + h->nflows, 0, (n - h->nflows) * sizeof *nf);
	h->flows = nf;
	h->nflows = n;
out:
	pthread_mutex_unlock(&h->mu);
	return st;
}

static void *h_data(react_xport_t *xp, int32_t lr)
{
	return ((hxp_t *)xp)->ranks[lr].data;
}

static void *h_scratch(react_xport_t *xp, int32_t lr)
{
	return ((hxp_t *)xp)->ranks[lr].scratch;
}

static react_status_t h_record(react_xport_t *xp, int32_t lr, int32_t lane, int32_t ev)
{
	hxp_t *h = (hxp_t *)xp;
	if (ev < 0 || ev >= h->nevents) {
		seterr(h, "host transport: event %d out of range (%d)", ev, h->nevents);
		return REACT_EINVAL;
	}
	hop_t op = {.kind = OP_RECORD, .ev = ev};
	pthread_mutex_lock(&h->mu);
	op.gen = ++h->ranks[lr].events[ev].enq;
	pthread_mutex_unlock(&h->mu);
	return push(h, lr, lane, &op);
}

static react_status_t h_wait(react_xport_t *xp, int32_t lr, int32_t lane, int32_t ev)
{
	hxp_t *h = (hxp_t *)xp;
	if (ev < 0 || ev >= h->nevents) {
		seterr(h, "host transport: event %d out of range (%d)", ev, h->nevents);
		return REACT_EINVAL;
	}
	hop_t op = {.kind = OP_WAIT, .ev = ev};
	pthread_mutex_lock(&h->mu);
	op.gen = h->ranks[lr].events[ev].enq;
	pthread_mutex_unlock(&h->mu);
	return push(h, lr, lane, &op);
}

static react_status_t h_tstart(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow, int send)
{
	hop_t op = {.kind = OP_TSTART, .flow = flow, .send = send ? 1 : 0};
	return push((hxp_t *)xp, lr, lane, &op);
}

static react_status_t h_tend(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow, int send)
{
	hop_t op = {.kind = OP_TEND, .flow = flow, .send = send ? 1 : 0};
	return push((hxp_t *)xp, lr, lane, &op);
}

static react_status_t h_group(react_xport_t *xp)
{
	(void)xp;
	return REACT_OK;
}

static react_status_t h_send(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
                             react_rank_t peer, size_t off, size_t bytes)
{
	hxp_t *h = (hxp_t *)xp;
	if (peer < 0 || peer >= h->base.nranks || peer < h->base.rank0 ||
	    peer >= h->base.rank0 + h->base.nlocal || off + bytes > h->data_bytes ||
	    flow >= h->nflows) {
		seterr(h, "host transport: send of flow %zu to rank %d (%zu bytes at %zu) out of range",
		       flow, peer, bytes, off);
		return REACT_EINVAL;
	}
	hop_t op = {.kind = OP_SEND, .flow = flow, .peer = peer, .off = off, .bytes = bytes};
	pthread_mutex_lock(&h->mu);
	op.gen = ++h->flows[flow].send_enq;
	pthread_mutex_unlock(&h->mu);
	return push(h, lr, lane, &op);
}

static react_status_t h_recv(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
                             react_rank_t peer, size_t off, size_t bytes, int to_scratch,
                             size_t soff)
{
	hxp_t *h = (hxp_t *)xp;
	if (peer < 0 || peer >= h->base.nranks || flow >= h->nflows ||
	    (to_scratch ? soff + bytes > h->scratch_bytes : off + bytes > h->data_bytes)) {
		seterr(h, "host transport: receive of flow %zu from rank %d (%zu bytes) out of range",
		       flow, peer, bytes);
		return REACT_EINVAL;
	}
	hop_t op = {.kind = OP_RECV, .flow = flow, .peer = peer, .off = off, .bytes = bytes,
	            .to_scratch = to_scratch, .soff = soff};
	pthread_mutex_lock(&h->mu);
	op.gen = ++h->flows[flow].recv_enq;
	pthread_mutex_unlock(&h->mu);
	return push(h, lr, lane, &op);
}

static react_status_t h_reduce(react_xport_t *xp, int32_t lr, int32_t lane, size_t off,
                               const size_t *soff, int nsrc, size_t count)
{
	hxp_t *h = (hxp_t *)xp;
	if (nsrc < 1 || nsrc > MAX_SRC) {
		seterr(h, "host transport: reduction of %d sources (1..%d)", nsrc, MAX_SRC);
		return REACT_EINVAL;
	}
	hop_t op = {.kind = OP_REDUCE, .off = off, .nsrc = nsrc, .count = count};
	memcpy(op.soffs, soff, (size_t)nsrc * sizeof *soff);
	return push(h, lr, lane, &op);
}

static react_status_t h_copy(react_xport_t *xp, int32_t lr, int32_t lane, size_t off, size_t soff,
                             size_t bytes)
{
	hop_t op = {.kind = OP_COPY, .off = off, .soff = soff, .bytes = bytes};
	return push((hxp_t *)xp, lr, lane, &op);
}

static react_status_t h_fill(react_xport_t *xp, int32_t lr, react_rank_t rank, size_t count,
                             size_t lo, size_t hi)
{
	hop_t op = {.kind = OP_FILL, .rank = rank, .count = count, .lo = lo, .hi = hi};
	return push((hxp_t *)xp, lr, 0, &op);
}

static react_status_t h_count_wrong(react_xport_t *xp, int32_t lr, size_t count, int32_t nranks,
                                    int gather, size_t blk, uint64_t *wrong)
{
	hxp_t *h = (hxp_t *)xp;
	const unsigned char *d = h->ranks[lr].data;
	uint64_t w = 0;
	for (size_t i = 0; i < count; i++) {
		float want;
		if (gather) {
			want = (float)react_input_value((int32_t)(i / blk), i);
		} else {
			int s = 0;
			for (int32_t r = 0; r < nranks; r++)
				s += react_input_value(r, i);
			want = (float)s;
		}
		if (react_host_load(h->base.dtype, d, i) != want)
			w++;
	}
	*wrong += w;
	return REACT_OK;
}

static const char *kind_name(enum op_kind k)
{
	static const char *const n[] = {"record", "wait", "tstart", "tend", "send", "recv",
	                                "reduce", "copy", "fill"};
	return n[k];
}

static react_status_t h_sync(react_xport_t *xp, double timeout_s)
{
	hxp_t *h = (hxp_t *)xp;
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	double whole = floor(timeout_s);
	dl.tv_sec += (time_t)whole;
	dl.tv_nsec += (long)((timeout_s - whole) * 1e9);
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	react_status_t st = REACT_OK;
	pthread_mutex_lock(&h->mu);
	for (;;) {
		int busy = 0;
		int32_t br = 0, bl = 0;
		for (int32_t r = 0; r < h->base.nlocal && !busy; r++)
			for (int32_t i = 0; i < h->nlanes; i++)
				if (!lane_idle(&h->ranks[r].lanes[i])) {
					busy = 1;
					br = r;
					bl = i;
					break;
				}
		if (!busy)
			break;
		int rc = pthread_cond_timedwait(&h->cv, &h->mu, &dl);
		if (rc == ETIMEDOUT) {
			hlane_t *l = &h->ranks[br].lanes[bl];
			hop_t *op = &l->ops[l->head];
			seterr(h, "host transport: rank %d lane %d still at '%s' (flow %zu, peer %d) after %.1f s",
			       h->base.rank0 + br, bl, kind_name(op->kind), op->flow, op->peer, timeout_s);
			st = REACT_ETIMEOUT;
			goto out;
		}
	}
	/* a barrier in virtual time too: every lane restarts from 0, so the
	 * times of an execution do not depend on what ran before */
	for (int32_t r = 0; r < h->base.nlocal; r++)
		for (int32_t i = 0; i < h->nlanes; i++) {
			hlane_t *l = &h->ranks[r].lanes[i];
			l->n = l->head = 0;
			l->clock = 0;
		}
out:
	pthread_mutex_unlock(&h->mu);
	return st;
}

static double h_span(react_xport_t *xp, size_t flow, int send)
{
	hxp_t *h = (hxp_t *)xp;
	if (flow >= h->nflows)
		return NAN;
	int s = send ? 1 : 0;
	return h->flows[flow].t1[s] - h->flows[flow].t0[s];
}

static double h_elapsed(react_xport_t *xp, int32_t lra, int32_t eva, int32_t lrb, int32_t evb)
{
	hxp_t *h = (hxp_t *)xp;
	const hevent_t *a = &h->ranks[lra].events[eva], *b = &h->ranks[lrb].events[evb];
	return b->vt[b->done % EV_HIST] - a->vt[a->done % EV_HIST];
}

static react_status_t h_set_link(react_xport_t *xp, react_rank_t src, react_rank_t dst, double lat,
                                 double bw)
{
	hxp_t *h = (hxp_t *)xp;
	if (src < 0 || dst < 0 || src >= h->base.nranks || dst >= h->base.nranks || src == dst ||
	    !(lat >= 0) || !(bw > 0)) {
		seterr(h, "host transport: link %d -> %d: need distinct ranks in [0, %d), latency >= 0, "
		          "bandwidth > 0", src, dst, h->base.nranks);
		return REACT_EINVAL;
	}
	size_t k = (size_t)src * (size_t)h->base.nranks + (size_t)dst;
	h->lat[k] = lat;
	h->bw[k] = bw;
	return REACT_OK;
}

static const react_xport_ops_t host_ops = {
	.name = "host",
	.destroy = h_destroy,
	.lanes_ensure = h_lanes_ensure,
	.events_ensure = h_events_ensure,
	.flows_ensure = h_flows_ensure,
	.data = h_data,
	.scratch = h_scratch,
	.record = h_record,
	.wait = h_wait,
	.tstart = h_tstart,
	.tend = h_tend,
	.group_begin = h_group,
	.send = h_send,
	.recv = h_recv,
	.group_end = h_group,
	.reduce = h_reduce,
	.copy = h_copy,
	.fill = h_fill,
	.count_wrong = h_count_wrong,
	.sync = h_sync,
	.span = h_span,
	.elapsed = h_elapsed,
	.set_link = h_set_link,
};

react_status_t react_xport_host_create(const react_rt_cfg_t *cfg, size_t data_bytes,
                                       size_t scratch_bytes, react_xport_t **out, char *err,
                                       size_t errlen)
{
	react_status_t st = REACT_OK;
	hxp_t *h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, errlen, "host transport: out of memory");
		return REACT_ENOMEM;
	}
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	h->base.ops = &host_ops;
	h->base.nranks = cfg->nranks;
	h->base.rank0 = 0;
	h->base.nlocal = cfg->nranks;
	h->base.dtype = cfg->dtype;
	h->data_bytes = data_bytes;
	h->scratch_bytes = scratch_bytes;
	h->reduce_Bps = cfg->host_reduce_Bps > 0 ? cfg->host_reduce_Bps : 20e9;
	size_t nn = (size_t)cfg->nranks * (size_t)cfg->nranks;
	h->lat = malloc(nn * sizeof *h->lat);
	h->bw = malloc(nn * sizeof *h->bw);
	h->ranks = calloc((size_t)cfg->nranks, sizeof *h->ranks);
	if (!h->lat || !h->bw || !h->ranks) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (size_t k = 0; k < nn; k++) {
		h->lat[k] = cfg->host_latency_s >= 0 ? cfg->host_latency_s : 5e-6;
		h->bw[k] = cfg->host_bw_Bps > 0 ? cfg->host_bw_Bps : 10e9;
	}
	for (int32_t r = 0; r < cfg->nranks; r++) {
		h->ranks[r].data = calloc(1, data_bytes ? data_bytes : 1);
		h->ranks[r].scratch = calloc(1, scratch_bytes ? scratch_bytes : 1);
		if (!h->ranks[r].data || !h->ranks[r].scratch) {
			st = REACT_ENOMEM;
			goto fail;
		}
	}
	if ((st = h_lanes_ensure(&h->base, 1)) != REACT_OK || (st = h_events_ensure(&h->base, 1)) != REACT_OK)
		goto fail;
	for (int32_t r = 0; r < cfg->nranks; r++) {
		worker_arg_t *wa = malloc(sizeof *wa);
		if (!wa) {
			st = REACT_ENOMEM;
			goto fail;
		}
		wa->h = h;
		wa->lr = r;
		if (pthread_create(&h->ranks[r].thread, NULL, worker, wa) != 0) {
			free(wa);
			snprintf(err, errlen, "host transport: cannot start the thread of rank %d", r);
			st = REACT_EBACKEND;
			goto fail;
		}
		h->ranks[r].started = 1;
	}
	*out = &h->base;
	return REACT_OK;
fail:
	if (st == REACT_ENOMEM)
		snprintf(err, errlen, "host transport: out of memory for %d ranks of %zu + %zu bytes",
		         cfg->nranks, data_bytes, scratch_bytes);
	h_destroy(&h->base);
	return st;
}
