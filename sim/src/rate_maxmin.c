/*
 * rate_maxmin.c - the fluid rate model of the flow-level backend
 * (react_backend_flow): max-min fair rates over directed link capacities.
 *
 * Rates are the max-min fair allocation (progressive filling), recomputed
 * whenever the set of active transfers changed; between two such changes
 * they are constant, so the next completion is found exactly and kept in a
 * heap.  A transfer whose remaining bytes would take under 1 ps at its rate
 * is complete.  It arrives D + Q after its last byte left: D its path's
 * propagation delay, Q the standing queue of the links on its path that
 * are, at that moment, the bottleneck of an external long-lived flow
 * (REACT_FLOW_STANDING_QUEUE_PKTS x MTU / capacity each: DCTCP keeps such a
 * queue near its marking threshold).  An external flow's bottleneck is the
 * first link of its path among those that froze it in progressive filling
 * (its sender's queue when tied).  docs/flowsim.md describes the model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rate_model.h"

#define DONE_EPS_S 1e-12

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
	double delay;    /* its path's propagation delay */
} ent_t;

typedef struct cev {
	double t;
	uint64_t ver;
	int32_t id;
} cev_t;

typedef struct maxmin {
	react_rate_net_t net;
	react_flowsim_stats_t *st;
	int dirty;            /* the active set changed since the last solve */
	int32_t *nqext;       /* per directed link: external flows bottlenecked there */
	uint32_t *lround, round; /* per directed link: last filling round it was a bottleneck */
	double qbytes;        /* standing DCTCP queue at such a link, bytes */
	ent_t *act;
	size_t nact, actcap;
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
} maxmin_t;

static react_status_t push_seed(maxmin_t *s, int32_t l)
{
	if (react_flowsim_reserve(&s->seeds, &s->seedcap, s->nseeds + 1, sizeof *s->seeds, 256))
		return REACT_ENOMEM;
	s->seeds[s->nseeds++] = l;
	return REACT_OK;
}

/* ---- completion heap: (finish time, version) per entity, stale entries skipped ---- */
static int cev_less(const cev_t *a, const cev_t *b)
{
	return a->t < b->t || (a->t == b->t && a->ver < b->ver);
}

static react_status_t cpush(maxmin_t *s, double t, int32_t id, uint64_t ver)
{
	if (react_flowsim_reserve(&s->ch, &s->chcap, s->nch + 1, sizeof *s->ch, 256))
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

static void cpop(maxmin_t *s)
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
static const cev_t *ctop(maxmin_t *s)
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

static react_status_t add_ent(maxmin_t *s, ent_t e, double t)
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
	if (++s->nalive > s->st->max_active)
		s->st->max_active = s->nalive;
	s->st->flow_events++;
	return REACT_OK;
}

/* Retire entity id: off its links, slot freed. */
static react_status_t remove_ent(maxmin_t *s, int32_t id)
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
static react_status_t solve(maxmin_t *s, double t)
{
	size_t nused = 0, nq = 0;
	uint32_t stamp = ++s->stamp;
	const double *cap = s->net.cap;
	s->st->rate_solves++;
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
		s->rc[l] = cap[l];
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

/* Queueing delay of a transfer's last byte: DCTCP holds the queue of a
 * link that long-lived flows saturate near its marking threshold, so every
 * saturated link of an external flow adds qbytes / capacity. */
static double standing_queue(const maxmin_t *s, const ent_t *e)
{
	double q = 0;
	for (int32_t i = 0; i < e->plen; i++)
		if (s->nqext[e->path[i]] > 0)
			q += s->qbytes / s->net.cap[e->path[i]];
	return q;
}

static void mm_destroy(void *model)
{
	maxmin_t *s = model;
	if (!s)
		return;
	if (s->lf)
		for (int32_t l = 0; l < s->net.ndl; l++)
			free(s->lf[l]);
	free(s->nqext); free(s->lround); free(s->act);
	free(s->lf); free(s->lcnt); free(s->lcap); free(s->lstamp); free(s->seeds);
	free(s->rc); free(s->cnt); free(s->used); free(s->used_all); free(s->freel); free(s->ch);
	free(s);
}

static react_status_t mm_create(const react_rate_net_t *net, void **model)
{
	maxmin_t *s = calloc(1, sizeof *s);
	*model = NULL;
	if (!s)
		return REACT_ENOMEM;
	s->net = *net;
	s->st = net->st;
	s->dirty = 1;
	s->qbytes = REACT_FLOW_STANDING_QUEUE_PKTS * net->mtu;
	size_t nd = (size_t)net->ndl + 1;
	s->nqext = calloc(nd, sizeof *s->nqext);
	s->lround = calloc(nd, sizeof *s->lround);
	s->rc = malloc(nd * sizeof *s->rc);
	s->cnt = calloc(nd, sizeof *s->cnt);
	s->lf = calloc(nd, sizeof *s->lf);
	s->lcnt = calloc(nd, sizeof *s->lcnt);
	s->lcap = calloc(nd, sizeof *s->lcap);
	s->lstamp = calloc(nd, sizeof *s->lstamp);
	s->used = malloc(nd * sizeof *s->used);
	s->used_all = malloc(nd * sizeof *s->used_all);
	if (!s->nqext || !s->lround || !s->rc || !s->cnt || !s->lf || !s->lcnt || !s->lcap ||
	    !s->lstamp || !s->used || !s->used_all) {
		mm_destroy(s);
		return REACT_ENOMEM;
	}
	*model = s;
	return REACT_OK;
}

static react_status_t mm_add(void *model, const react_rate_xfer_t *x, double t)
{
	maxmin_t *s = model;
	ent_t e = {x->job, x->idx, x->job < 0 ? 0 : x->bytes, 0, x->path, x->plen, 0, 0, 0, 0, 0, -1,
	           x->delay_s};
	return add_ent(s, e, t);
}

static react_status_t mm_ext_off(void *model, int32_t x)
{
	maxmin_t *s = model;
	react_status_t st;
	for (size_t i = 0; i < s->nact; i++)
		if (s->act[i].alive && s->act[i].job < 0 && s->act[i].idx == x) {
			if ((st = remove_ent(s, (int32_t)i)))
				return st;
			s->st->flow_events++;
		}
	return REACT_OK;
}

/* Rates are re-solved where the active set changed; time jumps to the next
 * completion or event, and the transfers complete by then arrive. */
static react_status_t mm_advance(void *model, double t, double t_event, int changed, double *tn)
{
	maxmin_t *s = model;
	react_status_t st;
	if (changed)
		s->dirty = 1;
	if (s->dirty) {
		if ((st = solve(s, t)))
			return st;
		s->dirty = 0;
	}
	const cev_t *c0 = ctop(s);
	double tnext = c0 ? c0->t : INFINITY;
	if (t_event <= tnext)
		tnext = t_event;
	*tn = tnext;
	if (tnext == INFINITY)
		return REACT_OK;
	t = tnext;
	for (const cev_t *c = ctop(s); c && c->t <= t + DONE_EPS_S; c = ctop(s)) {
		int32_t id = c->id;
		cpop(s);
		s->st->flow_events++;
		if ((st = remove_ent(s, id)))
			return st;
		s->dirty = 1;
		const ent_t *e = &s->act[id];
		if ((st = react_flowsim_arrival(s->net.engine, t + e->delay + standing_queue(s, e),
		                                e->job, e->idx)))
			return st;
	}
	return REACT_OK;
}

const react_rate_ops_t react_rate_maxmin = {"flow", mm_create, mm_destroy, mm_add, mm_ext_off,
                                            mm_advance};
