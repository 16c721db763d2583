/*
 * rate_dctcp.c - the DCTCP window model of the flow-level backend
 * (react_backend_dctcp): TCP connections and FIFO ports instead of rates.
 *
 * Time-stepped: a step is one packet time at the fastest link, cut short
 * where the next event is due.  Every directed link is a FIFO port of runs
 * of bytes; per step it sends its payload capacity from the head, and bytes
 * sent at hop h join hop h + 1 in the next step.  Bytes joining a port are
 * CE-marked as RED would mark them packet by packet on top of its backlog
 * (thresholds REACT_RED_MIN_TH_PKTS / MAX_TH_PKTS, react/dctcp.h); all arrivals at
 * a port in one step are marked as one burst.  What the receiver has (bytes,
 * marked bytes) reaches the sender one base RTT later (twice the path's
 * propagation delay; ACKs are prioritised, so they do not queue).  The
 * sender is DCTCP as in ns-3.37 (react/dctcp.h): initial window 10
 * segments, alpha 1, g = 1/16; slow start, then +1 segment per window; once a segment's worth
 * of marks has been echoed, window x (1 - alpha/2), then CWR until an ACK
 * beyond the data sent at the cut; alpha updated once per window of data.
 * A connection keeps window, ssthresh and alpha from one transfer to the
 * next.  docs/flowsim.md describes the model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rate_model.h"
#include "react/dctcp.h"

#define WIN_TAIL_SEGS 2

/* One TCP connection: congestion state that outlives its transfers. */
typedef struct wconn {
	uint64_t ka, kb;      /* (job + 1) << 32 | port index, flow key; 0, 0: external */
	double W, ssthresh, alpha; /* bytes, bytes, DCTCP's estimate */
	double est_s;         /* handshake done */
	int cwr_tail;         /* the last transfer ended in CWR: see wsender */
} wconn_t;

/* One transfer in flight on a connection (or one external flow copy). */
typedef struct wflow {
	int32_t job, idx;     /* job -1: external flow idx */
	int32_t conn;
	int32_t *path;        /* its own copy */
	int32_t plen, done;
	double bytes;         /* INFINITY for external flows */
	double sent, deliv, dmark, acked, macked;
	double cwr_end, win_end, win_acked, win_marked, ce;
	double tsend, fdelay, rtt;
	/* deliveries not yet acknowledged: (time, cumulative delivered, marked) */
	double *aq;
	size_t aqcap, aqhead, aqn;
} wflow_t;

/* A run of bytes of one flow in a port's FIFO. */
typedef struct wseg {
	int32_t slot, hop;    /* the flow, and the index of this port on its path */
	uint64_t step;        /* the step it arrived in */
	double b, m;          /* bytes, of which CE-marked */
} wseg_t;

/* An arrival at port l not yet enqueued (wflush). */
typedef struct wpend {
	int32_t l, slot, hop;
	double b, m;
} wpend_t;

typedef struct wfifo {
	wseg_t *v;            /* ring of cap (a power of 2) entries */
	size_t cap, head, n;
} wfifo_t;

typedef struct win {
	react_rate_net_t net;
	react_flowsim_stats_t *st;
	double dt, mss;
	double *capdt;        /* per directed link: payload bytes served per step */
	double *ql;           /* per directed link: queued bytes */
	wfifo_t *fifo;        /* per directed link */
	wpend_t *pend;        /* arrivals of this step, marked together per port */
	size_t npend, pendcap;
	double *parr, *pfrac; /* per directed link: bytes arriving now, fraction marked */
	uint64_t stepno;
	int32_t *ul;          /* directed links in use by window flows */
	size_t nul;
	int ul_dirty;
	uint32_t *lstamp, stamp;
	wflow_t *wf;          /* slots */
	size_t nwf, wfcap;
	int32_t *wact, *wfree;/* active slots, free slots */
	size_t nwact, nwfree, wactcap, wfreecap;
	wconn_t *conns;
	size_t nconn, conncap;
	int32_t *chash;       /* open addressing over conns, -1 empty */
	size_t hcap;
} win_t;

/* A full ring of *cap (a power of 2; 0: none yet) elements of `elem`
 * bytes, n of them from *head on, doubled (or made `first` long) and
 * unwrapped to start at 0. */
static react_status_t ring_grow(void *pp, size_t *cap, size_t *head, size_t n, size_t elem,
                                size_t first)
{
	void **p = pp;
	size_t nc = *cap ? 2 * *cap : first;
	char *v = malloc(nc * elem);
	if (!v)
		return REACT_ENOMEM;
	for (size_t i = 0; i < n; i++)
		memcpy(v + i * elem, (char *)*p + ((*head + i) & (*cap - 1)) * elem, elem);
	free(*p);
	*p = v;
	*cap = nc;
	*head = 0;
	return REACT_OK;
}

/* Integral over the backlog (in packets) of RED's marking probability: a
 * burst of b bytes joining a backlog of q bytes has mss x (red_int((q + b) /
 * mss) - red_int(q / mss)) bytes marked, packet by packet as it builds.
 * Between the thresholds the probability is 2 u / (1 + u), u = (q - KMIN) /
 * (KMAX - KMIN): RED's inter-mark count spreads marks uniformly over 1..1/u
 * packets; above KMAX every packet. */
static double red_int(double q)
{
	const double R = REACT_RED_MAX_TH_PKTS - REACT_RED_MIN_TH_PKTS;
	if (q <= REACT_RED_MIN_TH_PKTS)
		return 0;
	if (q < REACT_RED_MAX_TH_PKTS) {
		double u = (q - REACT_RED_MIN_TH_PKTS) / R;
		return 2 * R * (u - log1p(u));
	}
	return 2 * R * (1 - log(2.0)) + (q - REACT_RED_MAX_TH_PKTS);
}

/* Bytes of a b-byte arrival at port l that get CE-marked. */
static double red_marked(const win_t *s, int32_t l, double b)
{
	double q = s->ql[l] / s->mss;
	if (q + b / s->mss <= REACT_RED_MIN_TH_PKTS)
		return 0;
	return s->mss * (red_int(q + b / s->mss) - red_int(q));
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static react_status_t new_conn(win_t *s, uint64_t ka, uint64_t kb, double est, int32_t *out)
{
	if (react_flowsim_reserve(&s->conns, &s->conncap, s->nconn + 1, sizeof *s->conns, 64))
		return REACT_ENOMEM;
	*out = (int32_t)s->nconn;
	s->conns[s->nconn++] = (wconn_t){ka, kb, REACT_TCP_INIT_CWND_SEGS * s->mss, INFINITY,
	                                        REACT_DCTCP_ALPHA_INIT, est, 0};
	return REACT_OK;
}

/* Connection (job j, logical flow key, port index k); opened (handshake
 * from est) the first time it is asked for. */
static react_status_t find_conn(win_t *s, uint64_t ka, uint64_t kb, double est, int32_t *out)
{
	react_status_t st;
	if (2 * (s->nconn + 1) > s->hcap) {
		size_t nc = s->hcap ? 2 * s->hcap : 128;
		int32_t *h = malloc(nc * sizeof *h);
		if (!h)
			return REACT_ENOMEM;
		for (size_t i = 0; i < nc; i++)
			h[i] = -1;
		for (size_t c = 0; c < s->nconn; c++) {
			if (!s->conns[c].ka)
				continue;
			size_t i = mix64(s->conns[c].ka ^ mix64(s->conns[c].kb)) & (nc - 1);
			while (h[i] >= 0)
				i = (i + 1) & (nc - 1);
			h[i] = (int32_t)c;
		}
		free(s->chash);
		s->chash = h;
		s->hcap = nc;
	}
	size_t i = mix64(ka ^ mix64(kb)) & (s->hcap - 1);
	for (; s->chash[i] >= 0; i = (i + 1) & (s->hcap - 1)) {
		const wconn_t *c = &s->conns[s->chash[i]];
		if (c->ka == ka && c->kb == kb) {
			*out = s->chash[i];
			return REACT_OK;
		}
	}
	if ((st = new_conn(s, ka, kb, est, out)))
		return st;
	s->chash[i] = *out;
	return REACT_OK;
}

static react_status_t fifo_put(win_t *s, int32_t l, int32_t slot, int32_t hop, double b,
                               double m, uint64_t step)
{
	wfifo_t *f = &s->fifo[l];
	if (f->n) { /* the same flow arriving again in this step: one segment */
		wseg_t *tl = &f->v[(f->head + f->n - 1) & (f->cap - 1)];
		if (tl->slot == slot && tl->step == step) {
			tl->b += b;
			tl->m += m;
			s->ql[l] += b;
			return REACT_OK;
		}
	}
	if (f->n == f->cap && ring_grow(&f->v, &f->cap, &f->head, f->n, sizeof *f->v, 16))
		return REACT_ENOMEM;
	f->v[(f->head + f->n++) & (f->cap - 1)] = (wseg_t){slot, hop, step, b, m};
	s->ql[l] += b;
	return REACT_OK;
}

/* An arrival at port l in this step; wflush enqueues them. */
static react_status_t arrive_later(win_t *s, int32_t l, int32_t slot, int32_t hop, double b,
                                   double m)
{
	if (react_flowsim_reserve(&s->pend, &s->pendcap, s->npend + 1, sizeof *s->pend, 64))
		return REACT_ENOMEM;
	s->pend[s->npend++] = (wpend_t){l, slot, hop, b, m};
	s->parr[l] += b;
	return REACT_OK;
}

/* Enqueue this step's arrivals, tagged `step`.  All arrivals at one port
 * are marked as one burst on top of its backlog, so that no flow's bytes
 * see a shorter queue for being handled first. */
static react_status_t wflush(win_t *s, uint64_t step)
{
	react_status_t st;
	for (size_t i = 0; i < s->npend; i++) {
		int32_t l = s->pend[i].l;
		if (s->parr[l] > 0) {
			s->pfrac[l] = red_marked(s, l, s->parr[l]) / s->parr[l];
			s->parr[l] = 0;
		}
	}
	for (size_t i = 0; i < s->npend; i++) {
		const wpend_t *g = &s->pend[i];
		int32_t l = g->l;
		double mk = (g->b - g->m) * s->pfrac[l];
		s->st->ce_bytes += mk;
		if ((st = fifo_put(s, l, g->slot, g->hop, g->b, g->m + mk, step)))
			return st;
	}
	s->npend = 0;
	return REACT_OK;
}

/* A transfer of `bytes` (INFINITY: external) on connection conn over path. */
static react_status_t wadd(win_t *s, int32_t job, int32_t idx, int32_t conn, const int32_t *path,
                           int32_t plen, double bytes, double fdelay, double t)
{
	int32_t slot;
	if (s->nwfree) {
		slot = s->wfree[--s->nwfree];
	} else {
		/* at most nwf + 1 slots, each active or free */
		if (react_flowsim_reserve(&s->wf, &s->wfcap, s->nwf + 1, sizeof *s->wf, 64) ||
		    react_flowsim_reserve(&s->wact, &s->wactcap, s->nwf + 1, sizeof *s->wact, 64) ||
		    react_flowsim_reserve(&s->wfree, &s->wfreecap, s->nwf + 1, sizeof *s->wfree, 64))
			return REACT_ENOMEM;
		slot = (int32_t)s->nwf++;
	}
	/* its own copy of the path: a transfer still draining ACKs outlives its
	 * epoch, whose path table the next epoch rewrites */
	int32_t *own = malloc((size_t)(plen > 0 ? plen : 1) * sizeof *own);
	if (!own)
		return REACT_ENOMEM;
	memcpy(own, path, (size_t)plen * sizeof *own);
	const wconn_t *c = &s->conns[conn];
	s->wf[slot] = (wflow_t){.job = job, .idx = idx, .conn = conn, .path = own, .plen = plen,
	                        .bytes = bytes, .win_end = -1,
	                        .tsend = c->est_s > t ? c->est_s : t, .fdelay = fdelay,
	                        .rtt = 2 * fdelay};
	s->wact[s->nwact++] = slot;
	s->ul_dirty = 1;
	if ((int32_t)s->nwact > s->st->max_active)
		s->st->max_active = (int32_t)s->nwact;
	s->st->flow_events++;
	return REACT_OK;
}

/* Retire the flow at position i of the active list; bytes it still has in
 * the network leave with it (an external flow that stops). */
static void wremove(win_t *s, size_t i)
{
	int32_t slot = s->wact[i];
	wflow_t *w = &s->wf[slot];
	for (int32_t h = 0; h < w->plen; h++) {
		wfifo_t *f = &s->fifo[w->path[h]];
		size_t k = 0;
		for (size_t r = 0; r < f->n; r++) {
			wseg_t g = f->v[(f->head + r) & (f->cap - 1)];
			if (g.slot == slot)
				s->ql[w->path[h]] -= g.b;
			else
				f->v[(f->head + k++) & (f->cap - 1)] = g;
		}
		f->n = k;
	}
	free(w->aq);
	free(w->path);
	w->aq = NULL;
	w->path = NULL;
	s->wfree[s->nwfree++] = slot;
	s->wact[i] = s->wact[--s->nwact];
	s->ul_dirty = 1;
	s->st->flow_events++;
}

static void wlinks(win_t *s)
{
	uint32_t stamp = ++s->stamp;
	s->nul = 0;
	for (size_t i = 0; i < s->nwact; i++) {
		const wflow_t *w = &s->wf[s->wact[i]];
		for (int32_t h = 0; h < w->plen; h++) {
			int32_t l = w->path[h];
			if (s->lstamp[l] != stamp) {
				s->lstamp[l] = stamp;
				s->ul[s->nul++] = l;
			}
		}
	}
	s->ul_dirty = 0;
}

/* Record what the receiver has at time te; its ACK reaches the sender one
 * base RTT later. */
static react_status_t ack_put(wflow_t *w, double te)
{
	if (w->aqn && w->aq[3 * ((w->aqhead + w->aqn - 1) & (w->aqcap - 1)) + 1] == w->deliv)
		return REACT_OK;
	if (w->aqn == w->aqcap &&
	    ring_grow(&w->aq, &w->aqcap, &w->aqhead, w->aqn, 3 * sizeof *w->aq, 16))
		return REACT_ENOMEM;
	double *e = &w->aq[3 * ((w->aqhead + w->aqn++) & (w->aqcap - 1))];
	e[0] = te + w->rtt;
	e[1] = w->deliv;
	e[2] = w->dmark;
	return REACT_OK;
}

/* Sender side at the start of a step at t: the ACKs that have reached it,
 * DCTCP's response, then new data into its first port. */
static react_status_t wsender(win_t *s, int32_t slot, double t)
{
	wflow_t *w = &s->wf[slot];
	wconn_t *c = &s->conns[w->conn];
	double newa = w->acked, newm = w->macked;
	while (w->aqn && w->aq[3 * w->aqhead] <= t + 1e-15) {
		newa = w->aq[3 * w->aqhead + 1];
		newm = w->aq[3 * w->aqhead + 2];
		w->aqhead = (w->aqhead + 1) & (w->aqcap - 1);
		w->aqn--;
	}
	double da = newa - w->acked, dm = newm - w->macked;
	if (da > 0) {
		/* ns-3.37 leaves CWR only on an ACK beyond the data sent when it
		 * entered it: a transfer whose last window was cut ends still in
		 * CWR, with PRR's window shrunk to a couple of segments, and the
		 * next transfer sends that much for a round trip until its first
		 * ACK restores the window to ssthresh */
		c->cwr_tail = 0;
		w->acked = newa;
		w->macked = newm;
		w->win_acked += da;
		w->win_marked += dm;
		if (w->win_end < 0)
			w->win_end = w->sent;
		if (w->acked >= w->win_end) {
			c->alpha = (1 - REACT_DCTCP_G) * c->alpha + REACT_DCTCP_G * (w->win_marked / w->win_acked);
			w->win_acked = w->win_marked = 0;
			w->win_end = w->sent;
		}
		if (w->acked > w->cwr_end) {
			/* fluid marks: the sender reacts once a whole segment's worth
			 * of CE-marked bytes has been echoed (CWR ignores the rest) */
			w->ce += dm;
			if (w->ce >= s->mss) {
				w->ce = 0;
				double th = c->W * (1 - c->alpha / 2);
				c->ssthresh = th > 2 * s->mss ? th : 2 * s->mss;
				c->W = c->ssthresh;
				w->cwr_end = w->sent;
				s->st->window_cuts++;
			} else if (c->W < c->ssthresh) {
				c->W += da;
			} else {
				c->W += s->mss * da / c->W;
			}
		}
	}
	if (t >= w->tsend && w->sent < w->bytes) {
		double W = c->cwr_tail ? WIN_TAIL_SEGS * s->mss : c->W;
		double room = W - (w->sent - w->acked), left = w->bytes - w->sent;
		double inj = room < left ? room : left;
		if (inj > 0) {
			w->sent += inj;
			return arrive_later(s, w->path[0], slot, 0, inj, 0);
		}
	}
	return REACT_OK;
}

/* One step [t, t + h) (h <= dt) of every window flow; completed transfers
 * report their arrival, drained ones are retired. */
static react_status_t wstep(win_t *s, double t, double h)
{
	react_status_t st;
	if (s->ul_dirty)
		wlinks(s);
	s->stepno++;
	for (size_t u = 0; u < s->nul; u++) {
		double q = s->ql[s->ul[u]] / s->mss;
		if (q > s->st->max_queue_pkts)
			s->st->max_queue_pkts = q;
	}
	for (size_t i = 0; i < s->nwact; i++)
		if ((st = wsender(s, s->wact[i], t)))
			return st;
	/* new data, tagged with the previous step: the ports may send it at once */
	if ((st = wflush(s, s->stepno - 1)))
		return st;
	/* every port serves its FIFO; bytes that arrived in this step wait */
	double frac = h / s->dt;
	for (size_t u = 0; u < s->nul; u++) {
		int32_t l = s->ul[u];
		wfifo_t *f = &s->fifo[l];
		double budget = s->capdt[l] * frac;
		while (f->n && budget > 0) {
			wseg_t *g = &f->v[f->head];
			if (g->step == s->stepno)
				break;
			double x = g->b <= budget ? g->b : budget;
			double mx = x == g->b ? g->m : g->m * (x / g->b);
			int32_t slot = g->slot, hop = g->hop + 1;
			budget -= x;
			s->ql[l] -= x;
			if (x == g->b) {
				f->head = (f->head + 1) & (f->cap - 1);
				f->n--;
			} else {
				g->b -= x;
				g->m -= mx;
			}
			wflow_t *w = &s->wf[slot];
			if (hop < w->plen) {
				if ((st = arrive_later(s, w->path[hop], slot, hop, x, mx)))
					return st;
			} else {
				w->deliv += x;
				w->dmark += mx;
			}
		}
		if (!f->n)
			s->ql[l] = 0; /* no rounding residue in an empty port */
	}
	if ((st = wflush(s, s->stepno)))
		return st;
	double te = t + h;
	for (size_t i = 0; i < s->nwact;) {
		int32_t slot = s->wact[i];
		wflow_t *w = &s->wf[slot];
		if ((st = ack_put(w, te)))
			return st;
		if (!w->done && w->deliv >= w->bytes * (1 - 1e-12)) {
			w->done = 1;
			if ((st = react_flowsim_arrival(s->net.engine, te + w->fdelay, w->job, w->idx)))
				return st;
		}
		if (w->done && w->acked >= w->deliv * (1 - 1e-12)) {
			if (w->cwr_end >= w->bytes * (1 - 1e-12))
				s->conns[w->conn].cwr_tail = 1;
			wremove(s, i);
			continue;
		}
		i++;
	}
	s->st->rate_solves++;
	return REACT_OK;
}

static void win_destroy(void *model)
{
	win_t *s = model;
	if (!s)
		return;
	for (size_t i = 0; i < s->nwf; i++) {
		free(s->wf[i].aq);
		free(s->wf[i].path);
	}
	if (s->fifo)
		for (int32_t l = 0; l < s->net.ndl; l++)
			free(s->fifo[l].v);
	free(s->wf); free(s->wact); free(s->wfree); free(s->conns); free(s->chash); free(s->fifo);
	free(s->capdt); free(s->ql); free(s->ul); free(s->pend); free(s->parr); free(s->pfrac);
	free(s->lstamp);
	free(s);
}

static react_status_t win_create(const react_rate_net_t *net, void **model)
{
	win_t *s = calloc(1, sizeof *s);
	*model = NULL;
	if (!s)
		return REACT_ENOMEM;
	s->net = *net;
	s->st = net->st;
	/* payload rates: a segment of MSS = MTU - 40 bytes travels as MTU + 2 (PPP) */
	double mtu = net->mtu, fastest = 0;
	size_t nd = (size_t)net->ndl + 1;
	s->mss = mtu - REACT_TCPIP_HEADER_BYTES;
	s->capdt = malloc(nd * sizeof *s->capdt);
	s->ql = calloc(nd, sizeof *s->ql);
	s->fifo = calloc(nd, sizeof *s->fifo);
	s->parr = calloc(nd, sizeof *s->parr);
	s->pfrac = calloc(nd, sizeof *s->pfrac);
	s->ul = malloc(nd * sizeof *s->ul);
	s->lstamp = calloc(nd, sizeof *s->lstamp);
	if (!s->capdt || !s->ql || !s->fifo || !s->ul || !s->parr || !s->pfrac || !s->lstamp) {
		win_destroy(s);
		return REACT_ENOMEM;
	}
	for (int32_t l = 0; l < net->ndl; l++)
		if (net->cap[l] > fastest)
			fastest = net->cap[l];
	s->dt = fastest > 0 ? (mtu + 2) / fastest : 1e-6;
	if (s->dt > 1e-6)
		s->dt = 1e-6;
	for (int32_t l = 0; l < net->ndl; l++)
		s->capdt[l] = net->cap[l] * s->mss / (mtu + 2) * s->dt;
	*model = s;
	return REACT_OK;
}

static react_status_t win_add(void *model, const react_rate_xfer_t *x, double t)
{
	win_t *s = model;
	react_status_t st;
	int32_t ci;
	/* a pattern flow's connections are opened when its epoch starts;
	 * every external copy has a connection of its own */
	if (x->ka || x->kb)
		st = find_conn(s, x->ka, x->kb, x->est_s, &ci);
	else
		st = new_conn(s, 0, 0, x->est_s, &ci);
	if (st)
		return st;
	return wadd(s, x->job, x->idx, ci, x->path, x->plen, x->bytes, x->delay_s, t);
}

static react_status_t win_ext_off(void *model, int32_t x)
{
	win_t *s = model;
	for (size_t i = 0; i < s->nwact;)
		if (s->wf[s->wact[i]].job < 0 && s->wf[s->wact[i]].idx == x)
			wremove(s, i);
		else
			i++;
	return REACT_OK;
}

/* Steps of dt while any transfer is active, each ending early where the
 * next event is due; with none, straight to the next event. */
static react_status_t win_advance(void *model, double t, double t_event, int changed, double *tn)
{
	win_t *s = model;
	(void)changed;
	if (s->nwact == 0) {
		*tn = t_event;
		return REACT_OK;
	}
	double h = s->dt, te = t + h;
	if (t_event < te) {
		te = t_event;
		h = te - t;
	}
	*tn = te;
	return wstep(s, t, h);
}

const react_rate_ops_t react_rate_dctcp = {"dctcp", win_create, win_destroy, win_add, win_ext_off,
                                           win_advance};
