/*
 * flowsim.c - the flow-level (fluid) simulator: react_backend_flow.
 *
 * Continuous time, event driven.  Every active flow (a pattern flow being
 * transmitted, or one external long-lived flow) crosses a fixed path of
 * directed links; rates are the max-min fair allocation over directed link
 * capacities (progressive filling), recomputed whenever the set of active
 * flows changes.  Between two such changes rates are constant, so the next
 * completion is found exactly.  A pattern flow:
 *   starts      when all its predecessors (react_pattern_preds) have arrived
 *               (flows without predecessors: at the epoch's start);
 *   transmits   its bytes at its max-min rate until none are left (t_tx);
 *   arrives     at t_tx + D + Q, D = sum of the one-way delays of its path's
 *               links, Q = the standing queue of the links on its path that
 *               are the bottleneck of an external long-lived flow at t_tx
 *               (REACT_FLOW_STANDING_QUEUE_PKTS x MTU / capacity each: DCTCP
 *               keeps such a queue near its marking threshold);
 *   FCT         = arrival - start.
 * A flow alone on a path of bottleneck rate B therefore has FCT = 8 S / B + D.
 * An external flow's bottleneck is the first link of its path among those
 * that froze it in progressive filling (its sender's queue when tied).
 * Two ranks on the same host exchange data instantly (FCT 0).
 * Epoch e+1 of a job starts compute_gap_s after the last flow of epoch e
 * arrived; its first epoch starts at start_s.
 *
 * ECMP: logical flow i of job j owns cfg->ecmp_ports connections; connection
 * k has source port hash(seed, j, i, k).  At epoch e the connection used is
 * hash(seed, j, e, i) mod ecmp_ports.  External flow x, copy c, has source
 * port hash(seed, x, c), fixed for the run.  Paths: react_routing_path().
 *
 * Ties: events at the same instant are processed together (in the order
 * they were scheduled) before rates are recomputed; a flow whose remaining
 * bytes would take less than 1 ps at its rate is complete.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/flowsim.h"
#include "react/routing.h"

#define DONE_EPS_S 1e-12

enum { EV_EPOCH = 0, EV_ARRIVE, EV_EXT_ON, EV_EXT_OFF };

typedef struct ev {
	double t;
	uint64_t seq;
	int32_t type, job;
	int64_t idx;
} ev_t;

typedef struct ent {
	int32_t job;     /* -1: external */
	int32_t idx;     /* flow id, or external flow index */
	double rem;      /* bytes left (external: unused) */
	double rate;     /* bytes per second */
	const int32_t *path;
	int32_t plen;
	int frozen;
	uint32_t mark;   /* search stamp of solve() */
	int alive;
	double t0;       /* time rem was last brought up to date */
	uint64_t ver;    /* version of its entry in the completion heap */
	int32_t bneck;   /* external flows: the directed link that sets its rate, or -1 */
} ent_t;

typedef struct cev {
	double t;
	uint64_t ver;
	int32_t id;
} cev_t;

typedef struct jstate {
	const react_job_cfg_t *cfg;
	int64_t epoch;
	int alive;
	const react_pattern_t *pat;
	size_t nflows, cap, narrived, *succ_off, *succ, succ_cap;
	double *start, *fct, *pdelay, epoch_start;
	uint64_t *fkey;                 /* per flow: react_flow_key of its logical flow */
	const react_pattern_t *keyed;   /* the pattern fkey belongs to */
	int32_t *npend, *paths, *plen;
} jstate_t;

/* ---- DCTCP window model (react_backend_dctcp) ---- */

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

typedef struct sim {
	const react_run_cfg_t *cfg;
	const react_topology_t *t;
	react_routing_t *rt;
	int rt_shared;        /* rt belongs to a prepared state: not freed here */
	int32_t maxhops, ndl;
	double *cap;          /* per directed link, bytes/s */
	double *ldelay;       /* per directed link */
	int32_t *nqext;       /* per directed link: external flows bottlenecked there */
	uint32_t *lround, round; /* per directed link: last filling round it was a bottleneck */
	double qbytes;        /* standing DCTCP queue at such a link, bytes */
	jstate_t *js;
	ev_t *heap;
	size_t nheap, heapcap;
	uint64_t seq;
	ent_t *act;
	size_t nact, actcap;
	int32_t *ext_paths;   /* per external copy */
	size_t *ext_off;      /* first copy of external flow x */
	/* per directed link: the active entities crossing it */
	int32_t **lf, *lcnt, *lcap;
	/* max-min scratch */
	double *rc;
	int32_t *cnt, *used, *used_all, *seeds;
	int32_t *freel, nalive;
	size_t nfree;
	cev_t *ch;
	size_t nch, chcap;
	uint64_t verseq;
	uint32_t *lstamp, stamp;
	size_t nseeds, seedcap;
	react_flowsim_stats_t st;
	char *err;
	size_t errlen;
	/* window model */
	int window;
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
	wflow_t *wf;          /* slots */
	size_t nwf, wfcap;
	int32_t *wact, *wfree;/* active slots, free slots */
	size_t nwact, nwfree, wactcap, wfreecap;
	wconn_t *conns;
	size_t nconn, conncap;
	int32_t *chash;       /* open addressing over conns, -1 empty */
	size_t hcap;
} sim_t;


/* Room for `need` elements of `elem` bytes in the array *pp of capacity
 * *cap: the capacity doubles, starting at `first`. */
static react_status_t reserve(void *pp, size_t *cap, size_t need, size_t elem, size_t first)
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
	if (reserve(&s->heap, &s->heapcap, s->nheap + 1, sizeof *s->heap, 256))
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

static react_status_t push_seed(sim_t *s, int32_t l)
{
	if (reserve(&s->seeds, &s->seedcap, s->nseeds + 1, sizeof *s->seeds, 256))
		return REACT_ENOMEM;
	s->seeds[s->nseeds++] = l;
	return REACT_OK;
}

/* ---- completion heap: (finish time, version) per entity, stale entries skipped ---- */
static int cev_less(const cev_t *a, const cev_t *b)
{
	return a->t < b->t || (a->t == b->t && a->ver < b->ver);
}

static react_status_t cpush(sim_t *s, double t, int32_t id, uint64_t ver)
{
	if (reserve(&s->ch, &s->chcap, s->nch + 1, sizeof *s->ch, 256))
		return REACT_ENOMEM;
	size_t i = s->nch++;
	cev_t e = {t, ver, id};
	while (i > 0 && cev_less(&e, &s->ch[(i - 1) / 2])) {
		s->ch[i] = s->ch[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->ch[i] = e;
	return REACT_OK;
}

static void cpop(sim_t *s)
{
	cev_t last = s->ch[--s->nch];
	size_t i = 0, n = s->nch;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && cev_less(&s->ch[c + 1], &s->ch[c]))
			c++;
		if (!cev_less(&s->ch[c], &last))
			break;
		s->ch[i] = s->ch[c];
		i = c;
	}
	if (n)
		s->ch[i] = last;
}

/* Drop stale entries; the first valid completion or NULL. */
static const cev_t *ctop(sim_t *s)
{
	while (s->nch) {
		const cev_t *c = &s->ch[0];
		const ent_t *e = &s->act[c->id];
		if (e->alive && e->ver == c->ver)
			return c;
		cpop(s);
	}
	return NULL;
}

static react_status_t add_ent(sim_t *s, ent_t e, double t)
{
	react_status_t st;
	int32_t id;
	if (s->nfree) {
		id = s->freel[--s->nfree];
	} else {
		if (s->nact == s->actcap) {
			size_t nc = s->actcap ? 2 * s->actcap : 256;
			ent_t *q = realloc(s->act, nc * sizeof *q);
			int32_t *fq = realloc(s->freel, nc * sizeof *fq);
			if (fq)
				s->freel = fq;
			if (!q || !fq) {
				free(q == s->act ? NULL : q);
				return REACT_ENOMEM;
			}
			s->act = q;
			s->actcap = nc;
		}
		id = (int32_t)s->nact++;
	}
	e.mark = 0;
	e.bneck = -1;
	e.alive = 1;
	e.t0 = t;
	e.rate = 0;
	e.ver = ++s->verseq;
	s->act[id] = e;
	for (int32_t k = 0; k < e.plen; k++) {
		int32_t l = e.path[k];
		if (s->lcnt[l] == s->lcap[l]) {
			int32_t nc = s->lcap[l] ? 2 * s->lcap[l] : 4;
			int32_t *q = realloc(s->lf[l], (size_t)nc * sizeof *q);
			if (!q)
				return REACT_ENOMEM;
			s->lf[l] = q;
			s->lcap[l] = nc;
		}
		s->lf[l][s->lcnt[l]++] = id;
		if ((st = push_seed(s, l)))
			return st;
	}
	if (++s->nalive > s->st.max_active)
		s->st.max_active = s->nalive;
	s->st.flow_events++;
	return REACT_OK;
}

/* Retire entity id: off its links, slot freed. */
static react_status_t remove_ent(sim_t *s, int32_t id)
{
	react_status_t st;
	ent_t *e = &s->act[id];
	for (int32_t k = 0; k < e->plen; k++) {
		int32_t l = e->path[k];
		for (int32_t i = 0; i < s->lcnt[l]; i++)
			if (s->lf[l][i] == id) {
				memmove(&s->lf[l][i], &s->lf[l][i + 1],
				        (size_t)(s->lcnt[l] - i - 1) * sizeof(int32_t));
				s->lcnt[l]--;
				break;
			}
		if ((st = push_seed(s, l)))
			return st;
	}
	if (e->bneck >= 0)
		s->nqext[e->bneck]--;
	e->bneck = -1;
	e->alive = 0;
	s->freel[s->nfree++] = id;
	s->nalive--;
	return REACT_OK;
}

/* ---- max-min fair rates by progressive filling ----
 * Only the flows connected (through shared links, transitively) to a link
 * whose set of flows changed can change rate; they are found by a search
 * from those links and re-solved alone, on the full capacity of their links
 * (no flow outside the component uses them).  Flows elsewhere keep their
 * rates, which are still the max-min allocation. */
static react_status_t solve(sim_t *s, double t)
{
	size_t nused = 0, nq = 0;
	uint32_t stamp = ++s->stamp;
	s->st.rate_solves++;
	for (size_t i = 0; i < s->nseeds; i++) {
		int32_t l = s->seeds[i];
		if (s->lstamp[l] != stamp) {
			s->lstamp[l] = stamp;
			s->used_all[nused++] = l;
		}
	}
	s->nseeds = 0;
	while (nq < nused) {
		int32_t l = s->used_all[nq++];
		for (int32_t p = 0; p < s->lcnt[l]; p++) {
			ent_t *e = &s->act[s->lf[l][p]];
			if (e->mark == stamp)
				continue;
			e->mark = stamp;
			e->frozen = 0;
			e->rem -= e->rate * (t - e->t0); /* bytes sent at the old rate */
			e->t0 = t;
			e->rate = 0;
			for (int32_t k = 0; k < e->plen; k++) {
				int32_t m = e->path[k];
				if (s->lstamp[m] != stamp) {
					s->lstamp[m] = stamp;
					s->used_all[nused++] = m;
				}
			}
		}
	}
	size_t w = 0;
	for (size_t u = 0; u < nused; u++) {
		int32_t l = s->used_all[u];
		s->cnt[l] = s->lcnt[l];
		s->rc[l] = s->cap[l];
		if (s->cnt[l] > 0)
			s->used[w++] = l;
	}
	nused = w;
	while (nused) {
		double best = INFINITY;
		for (size_t u = 0; u < nused; u++) {
			int32_t l = s->used[u];
			double sh = s->rc[l] > 0 ? s->rc[l] / s->cnt[l] : 0;
			if (sh < best)
				best = sh;
		}
		double thr = best * (1 + 1e-12); /* equal shares up to rounding */
		uint32_t round = ++s->round;
		for (size_t u = 0; u < nused; u++) {
			int32_t l = s->used[u];
			if (s->cnt[l] > 0 && (s->rc[l] > 0 ? s->rc[l] / s->cnt[l] : 0) <= thr)
				s->lround[l] = round;
		}
		for (size_t u = 0; u < nused; u++) {
			int32_t l = s->used[u];
			if (s->lround[l] != round)
				continue;
			for (int32_t p = 0; p < s->lcnt[l]; p++) {
				ent_t *e = &s->act[s->lf[l][p]];
				if (e->frozen)
					continue;
				e->frozen = 1;
				e->rate = best;
				if (e->job < 0) {
					/* its queue builds at the first saturated link of its path */
					int32_t b = l;
					for (int32_t k = 0; k < e->plen; k++)
						if (s->lround[e->path[k]] == round) {
							b = e->path[k];
							break;
						}
					if (e->bneck != b) {
						if (e->bneck >= 0)
							s->nqext[e->bneck]--;
						s->nqext[b]++;
						e->bneck = b;
					}
				}
				for (int32_t k = 0; k < e->plen; k++) {
					s->rc[e->path[k]] -= best;
					s->cnt[e->path[k]]--;
				}
			}
		}
		w = 0;
		for (size_t u = 0; u < nused; u++)
			if (s->cnt[s->used[u]] > 0)
				s->used[w++] = s->used[u];
		nused = w;
	}
	/* new finish times of the re-solved pattern flows */
	for (size_t u = 0; u < nq; u++) {
		int32_t l = s->used_all[u];
		for (int32_t p = 0; p < s->lcnt[l]; p++) {
			int32_t id = s->lf[l][p];
			ent_t *e = &s->act[id];
			if (e->mark != stamp || e->job < 0 || e->frozen != 1)
				continue;
			e->frozen = 2;
			e->ver = ++s->verseq; /* older heap entries become stale */
			if (e->rate > 0) {
				react_status_t st = cpush(s, t + (e->rem > 0 ? e->rem : 0) / e->rate, id, e->ver);
				if (st)
					return st;
			}
		}
	}
	return REACT_OK;
}

/* ---- DCTCP window model ----
 * Time-stepped: a step is one packet time at the fastest link, cut short
 * where the next event is due.  Every directed link is a FIFO port of runs
 * of bytes; per step it sends its payload capacity from the head, and bytes
 * sent at hop h join hop h + 1 in the next step.  Bytes joining a port are
 * CE-marked as RED would mark them packet by packet on top of its backlog
 * (thresholds REACT_DCTCP_KMIN / KMAX, the ns-3 backend's); all arrivals at
 * a port in one step are marked as one burst.  What the receiver has (bytes,
 * marked bytes) reaches the sender one base RTT later (twice the path's
 * propagation delay; ACKs are prioritised, so they do not queue).  The
 * sender is DCTCP as in ns-3.37: initial window 10 segments, alpha 1,
 * g = 1/16; slow start, then +1 segment per window; once a segment's worth
 * of marks has been echoed, window x (1 - alpha/2), then CWR until an ACK
 * beyond the data sent at the cut; alpha updated once per window of data.
 * A connection keeps window, ssthresh and alpha from one transfer to the
 * next.  docs/flowsim.md describes the model. */

#define WIN_G (1.0 / 16)
#define WIN_INIT_SEGS 10
#define WIN_TAIL_SEGS 2

/* Integral over the backlog (in packets) of RED's marking probability: a
 * burst of b bytes joining a backlog of q bytes has mss x (red_int((q + b) /
 * mss) - red_int(q / mss)) bytes marked, packet by packet as it builds.
 * Between the thresholds the probability is 2 u / (1 + u), u = (q - KMIN) /
 * (KMAX - KMIN): RED's inter-mark count spreads marks uniformly over 1..1/u
 * packets; above KMAX every packet. */
static double red_int(double q)
{
	const double R = REACT_DCTCP_KMAX - REACT_DCTCP_KMIN;
	if (q <= REACT_DCTCP_KMIN)
		return 0;
	if (q < REACT_DCTCP_KMAX) {
		double u = (q - REACT_DCTCP_KMIN) / R;
		return 2 * R * (u - log1p(u));
	}
	return 2 * R * (1 - log(2.0)) + (q - REACT_DCTCP_KMAX);
}

/* Bytes of a b-byte arrival at port l that get CE-marked. */
static double red_marked(const sim_t *s, int32_t l, double b)
{
	double q = s->ql[l] / s->mss;
	if (q + b / s->mss <= REACT_DCTCP_KMIN)
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

static react_status_t new_conn(sim_t *s, uint64_t ka, uint64_t kb, double est, int32_t *out)
{
	if (reserve(&s->conns, &s->conncap, s->nconn + 1, sizeof *s->conns, 64))
		return REACT_ENOMEM;
	*out = (int32_t)s->nconn;
	s->conns[s->nconn++] = (wconn_t){ka, kb, WIN_INIT_SEGS * s->mss, INFINITY, 1, est, 0};
	return REACT_OK;
}

/* Connection (job j, logical flow key, port index k); opened (handshake
 * from est) the first time it is asked for. */
static react_status_t find_conn(sim_t *s, uint64_t ka, uint64_t kb, double est, int32_t *out)
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

static react_status_t fifo_put(sim_t *s, int32_t l, int32_t slot, int32_t hop, double b,
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
static react_status_t arrive_later(sim_t *s, int32_t l, int32_t slot, int32_t hop, double b,
                                   double m)
{
	if (reserve(&s->pend, &s->pendcap, s->npend + 1, sizeof *s->pend, 64))
		return REACT_ENOMEM;
	s->pend[s->npend++] = (wpend_t){l, slot, hop, b, m};
	s->parr[l] += b;
	return REACT_OK;
}

/* Enqueue this step's arrivals, tagged `step`.  All arrivals at one port
 * are marked as one burst on top of its backlog, so that no flow's bytes
 * see a shorter queue for being handled first. */
static react_status_t wflush(sim_t *s, uint64_t step)
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
		s->st.ce_bytes += mk;
		if ((st = fifo_put(s, l, g->slot, g->hop, g->b, g->m + mk, step)))
			return st;
	}
	s->npend = 0;
	return REACT_OK;
}

/* A transfer of `bytes` (INFINITY: external) on connection conn over path. */
static react_status_t wadd(sim_t *s, int32_t job, int32_t idx, int32_t conn, const int32_t *path,
                           int32_t plen, double bytes, double fdelay, double t)
{
	int32_t slot;
	if (s->nwfree) {
		slot = s->wfree[--s->nwfree];
	} else {
		/* at most nwf + 1 slots, each active or free */
		if (reserve(&s->wf, &s->wfcap, s->nwf + 1, sizeof *s->wf, 64) ||
		    reserve(&s->wact, &s->wactcap, s->nwf + 1, sizeof *s->wact, 64) ||
		    reserve(&s->wfree, &s->wfreecap, s->nwf + 1, sizeof *s->wfree, 64))
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
	if ((int32_t)s->nwact > s->st.max_active)
		s->st.max_active = (int32_t)s->nwact;
	s->st.flow_events++;
	return REACT_OK;
}

/* Retire the flow at position i of the active list; bytes it still has in
 * the network leave with it (an external flow that stops). */
static void wremove(sim_t *s, size_t i)
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
	s->st.flow_events++;
}

static void wlinks(sim_t *s)
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
static react_status_t wsender(sim_t *s, int32_t slot, double t)
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
			c->alpha = (1 - WIN_G) * c->alpha + WIN_G * (w->win_marked / w->win_acked);
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
				s->st.window_cuts++;
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
 * schedule their arrival, drained ones are retired. */
static react_status_t wstep(sim_t *s, double t, double h)
{
	react_status_t st;
	if (s->ul_dirty)
		wlinks(s);
	s->stepno++;
	for (size_t u = 0; u < s->nul; u++) {
		double q = s->ql[s->ul[u]] / s->mss;
		if (q > s->st.max_queue_pkts)
			s->st.max_queue_pkts = q;
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
			if ((st = push(s, te + w->fdelay, EV_ARRIVE, w->job, w->idx)))
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
	s->st.rate_solves++;
	return REACT_OK;
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
	J->pdelay[f] = d;
	if (len == 0 || fl->bytes == 0) {
		s->st.flow_events++;
		return push(s, t + d, EV_ARRIVE, j, (int64_t)f);
	}
	if (s->window) {
		/* the engine opens a logical flow's connections when its epoch starts */
		int32_t ci;
		if ((st = find_conn(s, (uint64_t)(j + 1) << 32 | k, J->fkey[f], J->epoch_start + 2 * d,
		                    &ci)))
			return st;
		return wadd(s, j, (int32_t)f, ci, path, len, (double)fl->bytes, d, t);
	}
	return add_ent(s, (ent_t){j, (int32_t)f, (double)fl->bytes, 0, path, len, 0, 0, 0, 0, 0, -1}, t);
}

/* Queueing delay of flow f's last byte: DCTCP holds the queue of a link
 * that long-lived flows saturate near its marking threshold, so every
 * saturated link of an external flow adds qbytes / capacity. */
static double standing_queue(const sim_t *s, int32_t j, size_t f)
{
	const jstate_t *J = &s->js[j];
	const int32_t *path = &J->paths[f * (size_t)s->maxhops];
	double q = 0;
	for (int32_t i = 0; i < J->plen[f]; i++)
		if (s->nqext[path[i]] > 0)
			q += s->qbytes / s->cap[path[i]];
	return q;
}

static react_status_t grow_job(jstate_t *J, size_t n, size_t maxhops, size_t npreds)
{
	if (n > J->cap) {
		size_t nc = n;
#define RE(p) do { void *q = realloc(p, nc * sizeof *(p)); if (!q) return REACT_ENOMEM; p = q; } while (0)
		RE(J->start); RE(J->fct); RE(J->pdelay); RE(J->npend); RE(J->plen); RE(J->fkey);
		J->keyed = NULL;
		void *q = realloc(J->succ_off, (nc + 1) * sizeof *J->succ_off);
		if (!q)
			return REACT_ENOMEM;
		J->succ_off = q;
		q = realloc(J->paths, nc * maxhops * sizeof *J->paths + 1);
		if (!q)
			return REACT_ENOMEM;
		J->paths = q;
		J->cap = nc;
#undef RE
	}
	if (npreds > J->succ_cap) {
		void *q = realloc(J->succ, npreds * sizeof *J->succ);
		if (!q)
			return REACT_ENOMEM;
		J->succ = q;
		J->succ_cap = npreds;
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
	size_t n = p->nflows, np = 0;
	for (size_t f = 0; f < n; f++) {
		const size_t *pr;
		np += react_pattern_preds(p, f, &pr);
	}
	if ((st = grow_job(J, n, (size_t)s->maxhops, np)))
		return st;
	if (J->keyed != p && (st = key_flows(J, p)))
		return st;
	J->pat = p;
	J->nflows = n;
	J->narrived = 0;
	J->epoch_start = t;
	memset(J->succ_off, 0, (n + 1) * sizeof *J->succ_off);
	for (size_t f = 0; f < n; f++) {
		const size_t *pr;
		size_t k = react_pattern_preds(p, f, &pr);
		J->npend[f] = (int32_t)k;
		for (size_t i = 0; i < k; i++)
			J->succ_off[pr[i] + 1]++;
		J->fct[f] = 0;
	}
	for (size_t f = 0; f < n; f++)
		J->succ_off[f + 1] += J->succ_off[f];
	for (size_t f = 0; f < n; f++) { /* succ lists, filled via a moving cursor */
		const size_t *pr;
		size_t k = react_pattern_preds(p, f, &pr);
		for (size_t i = 0; i < k; i++)
			J->succ[J->succ_off[pr[i]]++] = f;
	}
	for (size_t f = n; f > 0; f--) /* shift the cursors back into offsets */
		J->succ_off[f] = J->succ_off[f - 1];
	J->succ_off[0] = 0;
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
	for (size_t i = J->succ_off[f]; i < J->succ_off[f + 1]; i++) {
		size_t g = J->succ[i];
		if (--J->npend[g] == 0 && (st = start_flow(s, j, g, t)))
			return st;
	}
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

/* One event of the heap at time t (both models). */
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
			if (s->window) {
				double d = path_delay(s, p, len);
				int32_t ci;
				if ((st = new_conn(s, 0, 0, t + 2 * d, &ci)) ||
				    (st = wadd(s, -1, (int32_t)e.idx, ci, p, len, INFINITY, d, t)))
					return st;
			} else if ((st = add_ent(s, (ent_t){-1, (int32_t)e.idx, 0, 0, p, len, 0, 0, 0, 0, 0, -1},
			                         t))) {
				return st;
			}
		}
		break;
	case EV_EXT_OFF:
		if (s->window) {
			for (size_t i = 0; i < s->nwact;)
				if (s->wf[s->wact[i]].job < 0 && s->wf[s->wact[i]].idx == (int32_t)e.idx)
					wremove(s, i);
				else
					i++;
			break;
		}
		for (size_t i = 0; i < s->nact; i++)
			if (s->act[i].alive && s->act[i].job < 0 && s->act[i].idx == (int32_t)e.idx) {
				if ((st = remove_ent(s, (int32_t)i)))
					return st;
				s->st.flow_events++;
			}
		break;
	}
	return REACT_OK;
}

/* The window model's loop: steps of dt while any window flow is active,
 * jumps to the next event otherwise. */
static react_status_t run_window(sim_t *s, const react_driver_cb_t *cb, int32_t alive,
                                 double *tend)
{
	react_status_t st;
	double t = 0;
	while (alive > 0) {
		while (s->nheap && s->heap[0].t <= t)
			if ((st = handle_event(s, pop(s), t, cb, &alive)))
				return st;
		if (alive <= 0)
			break;
		if (s->nwact == 0) {
			if (!s->nheap) {
				snprintf(s->err, s->errlen, "dctcp backend: at t=%.9g s no flow can progress", t);
				return REACT_EBACKEND;
			}
			t = s->heap[0].t;
			continue;
		}
		/* steps end where the next event is due */
		double h = s->dt, tn = t + h;
		if (s->nheap && s->heap[0].t < tn) {
			tn = s->heap[0].t;
			h = tn - t;
		}
		if ((st = wstep(s, t, h)))
			return st;
		t = tn;
	}
	*tend = t;
	return REACT_OK;
}

static void sim_free(sim_t *s)
{
	if (s->js)
		for (int32_t j = 0; j < s->cfg->njobs; j++) {
			jstate_t *J = &s->js[j];
			free(J->start); free(J->fct); free(J->pdelay); free(J->npend); free(J->plen);
			free(J->fkey);
			free(J->succ_off); free(J->succ); free(J->paths);
		}
	free(s->js);
	if (!s->rt_shared)
		react_routing_destroy(s->rt);
	free(s->cap); free(s->ldelay); free(s->nqext); free(s->lround); free(s->heap); free(s->act);
	free(s->ext_paths); free(s->ext_off);
	if (s->lf)
		for (int32_t l = 0; l < s->ndl; l++)
			free(s->lf[l]);
	free(s->lf); free(s->lcnt); free(s->lcap); free(s->lstamp); free(s->seeds);
	free(s->rc); free(s->cnt); free(s->used); free(s->used_all); free(s->freel); free(s->ch);
	for (size_t i = 0; i < s->nwf; i++) {
		free(s->wf[i].aq);
		free(s->wf[i].path);
	}
	if (s->fifo)
		for (int32_t l = 0; l < s->ndl; l++)
			free(s->fifo[l].v);
	free(s->wf); free(s->wact); free(s->wfree); free(s->conns); free(s->chash); free(s->fifo);
	free(s->capdt); free(s->ql); free(s->ul); free(s->pend); free(s->parr); free(s->pfrac);
}

static react_status_t flowsim_run(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                  int window, react_routing_t *shared_rt,
                                  react_flowsim_stats_t *stats, char *err, size_t errlen)
{
	react_status_t st;
	sim_t s;
	char dummy[8];
	memset(&s, 0, sizeof s);
	s.window = window;
	if (!err) {
		err = dummy;
		errlen = sizeof dummy;
	}
	const char *name = window ? "dctcp" : "flow";
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
	s.nqext = calloc(nd, sizeof *s.nqext);
	s.lround = calloc(nd, sizeof *s.lround);
	s.rc = malloc(nd * sizeof *s.rc);
	s.cnt = calloc(nd, sizeof *s.cnt);
	s.lf = calloc(nd, sizeof *s.lf);
	s.lcnt = calloc(nd, sizeof *s.lcnt);
	s.lcap = calloc(nd, sizeof *s.lcap);
	s.lstamp = calloc(nd, sizeof *s.lstamp);
	s.used = malloc(nd * sizeof *s.used);
	s.used_all = malloc(nd * sizeof *s.used_all);
	s.js = calloc((size_t)cfg->njobs + 1, sizeof *s.js);
	size_t ncopies = 0;
	for (size_t x = 0; x < cfg->next; x++)
		ncopies += (size_t)cfg->ext[x].count;
	s.ext_off = malloc((cfg->next + 1) * sizeof *s.ext_off);
	s.ext_paths = malloc((ncopies * (size_t)s.maxhops + 1) * sizeof *s.ext_paths);
	st = REACT_ENOMEM;
	s.qbytes = REACT_FLOW_STANDING_QUEUE_PKTS * (double)(cfg->mtu ? cfg->mtu : 1500);
	if (!s.cap || !s.ldelay || !s.nqext || !s.lround || !s.rc || !s.cnt || !s.lf || !s.lcnt || !s.lcap || !s.lstamp || !s.used || !s.used_all || !s.js ||
	    !s.ext_off || !s.ext_paths)
		goto fail;
	for (int32_t l = 0; l < s.t->nlinks; l++) {
		s.cap[2 * l] = s.cap[2 * l + 1] = s.t->links[l].rate_bps / 8;
		s.ldelay[2 * l] = s.ldelay[2 * l + 1] = s.t->links[l].delay_s;
	}
	for (size_t d = 0; d < cfg->ndegraded; d++)
		s.cap[2 * cfg->degraded[d].link] = s.cap[2 * cfg->degraded[d].link + 1] =
		    cfg->degraded[d].rate_bps / 8;
	if (window) {
		/* payload rates: a segment of MSS = MTU - 40 bytes travels as MTU + 2 (PPP) */
		double mtu = cfg->mtu ? cfg->mtu : 1500, fastest = 0;
		s.mss = mtu - 40;
		s.capdt = malloc(nd * sizeof *s.capdt);
		s.ql = calloc(nd, sizeof *s.ql);
		s.fifo = calloc(nd, sizeof *s.fifo);
		s.parr = calloc(nd, sizeof *s.parr);
		s.pfrac = calloc(nd, sizeof *s.pfrac);
		s.ul = malloc(nd * sizeof *s.ul);
		st = REACT_ENOMEM;
		if (!s.capdt || !s.ql || !s.fifo || !s.ul || !s.parr || !s.pfrac)
			goto fail;
		for (int32_t l = 0; l < s.ndl; l++)
			if (s.cap[l] > fastest)
				fastest = s.cap[l];
		s.dt = fastest > 0 ? (mtu + 2) / fastest : 1e-6;
		if (s.dt > 1e-6)
			s.dt = 1e-6;
		for (int32_t l = 0; l < s.ndl; l++)
			s.capdt[l] = s.cap[l] * s.mss / (mtu + 2) * s.dt;
	}
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
	double t = 0;
	int dirty = 1;
	if (window) {
		if ((st = run_window(&s, cb, alive, &t)))
			goto fail;
		alive = 0;
	}
	while (alive > 0) {
		if (dirty) {
			if ((st = solve(&s, t)))
				goto fail;
			dirty = 0;
		}
		const cev_t *c0 = ctop(&s);
		double tn = c0 ? c0->t : INFINITY;
		if (s.nheap && s.heap[0].t <= tn)
			tn = s.heap[0].t;
		if (tn == INFINITY) {
			snprintf(err, errlen, "flow backend: at t=%.9g s no flow can progress", t);
			st = REACT_EBACKEND;
			goto fail;
		}
		t = tn;
		for (const cev_t *c = ctop(&s); c && c->t <= t + DONE_EPS_S; c = ctop(&s)) {
			int32_t id = c->id, j = s.act[id].job;
			size_t f = (size_t)s.act[id].idx;
			cpop(&s);
			s.st.flow_events++;
			if ((st = remove_ent(&s, id)))
				goto fail;
			dirty = 1;
			if ((st = push(&s, t + s.js[j].pdelay[f] + standing_queue(&s, j, f), EV_ARRIVE, j,
			               (int64_t)f)))
				goto fail;
		}
		while (s.nheap && s.heap[0].t <= t) {
			if ((st = handle_event(&s, pop(&s), t, cb, &alive)))
				goto fail;
			dirty = 1;
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
	return flowsim_run(cfg, cb, 0, NULL, stats, err, errlen);
}

react_status_t react_flowsim_run_dctcp(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                       react_flowsim_stats_t *stats, char *err, size_t errlen)
{
	return flowsim_run(cfg, cb, 1, NULL, stats, err, errlen);
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
                                     const react_driver_cb_t *cb, int window, char *err,
                                     size_t errlen)
{
	prepared_t *p = state;
	if (!p || !cfg || cfg->topo != p->t) {
		snprintf(err, errlen, "%s backend: the prepared state belongs to another topology",
		         window ? "dctcp" : "flow");
		return REACT_EINVAL;
	}
	return flowsim_run(cfg, cb, window, p->rt, NULL, err, errlen);
}

static react_status_t run_prepared(void *state, const react_run_cfg_t *cfg,
                                   const react_driver_cb_t *cb, char *err, size_t errlen)
{
	return run_prepared_w(state, cfg, cb, 0, err, errlen);
}

static react_status_t run_prepared_dctcp(void *state, const react_run_cfg_t *cfg,
                                         const react_driver_cb_t *cb, char *err, size_t errlen)
{
	return run_prepared_w(state, cfg, cb, 1, err, errlen);
}

const react_backend_ops_t react_backend_flow = {"flow", run, prepare, run_prepared, release};
const react_backend_ops_t react_backend_dctcp = {"dctcp", run_dctcp, prepare, run_prepared_dctcp,
                                                 release};
