/*
 * oracle.c - the best fixed pattern REACT's moves can reach, per REACT job,
 * with the congestion known (react/oracle.h; docs/oracle.md).
 *
 * One evaluation is one react_drive() of the whole configuration, REACT off,
 * every job on its current pattern (react_drive_opts_t.fixed) except the
 * searched job, which runs the candidate.  Its score is the mean over the
 * REACT jobs of (mean algbw / the job's baseline mean algbw); with one REACT
 * job that orders candidates exactly as the job's mean algbw does.
 *
 * Dedupe, only where the backend provably sees the same run: a backend
 * receives a pattern as its flows' host pairs (hosts[src], hosts[dst]) in
 * flow order, everything else (steps, chunks, bytes, order) being invariant
 * under the moves.  Full-length results are memoised on that sequence; a
 * screened permutation pi is deduped on its host image (hosts[pi(r)] for
 * the ranks r that have flows), which determines the sequence.  With
 * distinct hosts and no idle rank no two permutations coincide, and the
 * screen dedupe is skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "react/check.h"
#include "react/equiv.h"
#include "react/generators.h"
#include "react/oracle.h"
#include "react/transform.h"
#include "results_internal.h"

/* Memory the full-length memo may hold (host-pair sequences); beyond it,
 * results are not memoised (a repeat is evaluated again, same result). */
#define MEMO_MAX_BYTES ((size_t)512 << 20)

/* ---- options ---- */

void react_oracle_opts_default(react_oracle_opts_t *o)
{
	memset(o, 0, sizeof *o);
	o->exhaustive_max_ranks = 9;
	o->screen_epochs = 10;
	o->keep = 96;
	o->climb_starts = 3;
	o->climb_evals = 2000;
	o->climb_many = 4;
	o->pair_keep = 8;
	o->pair_screens = 20000;
	o->graph_rounds = 1;
	o->graph_max = 4;
	o->local_starts = 4;
	o->local_evals = 400;
	o->local_patience = 60;
	o->rounds = 1;
	o->equiv_max_ranks = 256;
	o->seed = 1;
	o->screen_full = 0;
	o->proxy = REACT_ORACLE_PROXY_NONE;
	o->proxy_keep = 16;
}

typedef struct knob {
	const char *name;
	size_t off;
	int is32;
	int64_t min, max;
} knob_t;

#define K32(f, lo, hi) {#f, offsetof(react_oracle_opts_t, f), 1, lo, hi}
#define K64(f, lo, hi) {#f, offsetof(react_oracle_opts_t, f), 0, lo, hi}
static const knob_t knobs[] = {
	K32(exhaustive_max_ranks, 0, 10),
	K64(screen_epochs, 1, INT64_MAX),
	K32(keep, 1, 1000000),
	K32(climb_starts, 0, 1000000),
	K64(climb_evals, 0, INT64_MAX),
	K32(climb_many, 1, 1000000),
	K32(pair_keep, 0, 1000000),
	K64(pair_screens, 1, INT64_MAX),
	K32(graph_rounds, 0, 1000),
	K32(graph_max, 0, 1 << 20),
	K32(local_starts, 1, 1000000),
	K64(local_evals, 0, INT64_MAX),
	K64(local_patience, 1, INT64_MAX),
	K32(rounds, 1, 1000),
	K32(equiv_max_ranks, 0, 1 << 20),
	K64(seed, 0, INT64_MAX),
	K32(screen_full, 0, 1),
	K32(proxy_keep, 1, 100000),
};

static const char *const proxy_names[] = {"none", "flow", "dctcp"};

react_status_t react_oracle_opts_set(react_oracle_opts_t *o, const char *key, const char *value,
                                     char *why, size_t whylen)
{
	if (!strcmp(key, "proxy")) {
		for (int32_t i = 0; i < 3; i++)
			if (!strcmp(value, proxy_names[i])) {
				o->proxy = i;
				return REACT_OK;
			}
		snprintf(why, whylen, "oracle option 'proxy': expected none, flow or dctcp, got '%s'",
		         value);
		return REACT_EINVAL;
	}
	for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
		const knob_t *k = &knobs[i];
		if (strcmp(key, k->name))
			continue;
		char *end;
		errno = 0;
		long long v = strtoll(value, &end, 10);
		if (errno || end == value || *end || v < k->min || v > k->max) {
			snprintf(why, whylen, "oracle option '%s': expected an integer in %" PRId64
			         "..%" PRId64 ", got '%s'", key, k->min, k->max, value);
			return REACT_EINVAL;
		}
		if (k->is32)
			*(int32_t *)((char *)o + k->off) = (int32_t)v;
		else if (!strcmp(k->name, "seed"))
			o->seed = (uint64_t)v;
		else
			*(int64_t *)((char *)o + k->off) = (int64_t)v;
		return REACT_OK;
	}
	sb_t b = {0};
	for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++)
		sb_printf(&b, "%s%s", i ? ", " : "", knobs[i].name);
	char *names = sb_take(&b);
	snprintf(why, whylen, "unknown oracle option '%s'; expected one of: %s, proxy", key,
	         names ? names : "?");
	free(names);
	return REACT_EINVAL;
}

const char *react_oracle_origin_name(react_oracle_origin_t o)
{
	switch (o) {
	case REACT_ORACLE_GENERATED: return "generated";
	case REACT_ORACLE_PERMUTATION: return "permutation";
	case REACT_ORACLE_CLIMB: return "climb";
	case REACT_ORACLE_PROXY: return "proxy";
	}
	return "?";
}

int react_perm_next(react_rank_t *a, int32_t n)
{
	int32_t i = n - 2;
	while (i >= 0 && a[i] >= a[i + 1])
		i--;
	if (i < 0) {
		for (int32_t l = 0, r = n - 1; l < r; l++, r--) {
			react_rank_t t = a[l];
			a[l] = a[r];
			a[r] = t;
		}
		return 0;
	}
	int32_t j = n - 1;
	while (a[j] <= a[i])
		j--;
	react_rank_t t = a[i];
	a[i] = a[j];
	a[j] = t;
	for (int32_t l = i + 1, r = n - 1; l < r; l++, r--) {
		t = a[l];
		a[l] = a[r];
		a[r] = t;
	}
	return 1;
}

/* ---- fingerprint ---- */

/* 1 when pattern p is searched exhaustively and has more chunk graphs than
 * step 3 permutes (rings, rhd, ring AllGather): its steps 3-5 get
 * climb_many x climb_evals evaluations.  Each move of their climb is
 * chosen from the largest neighbourhood (position and global swaps of N
 * graphs), and on ring AllGather 2000 evaluations ended the climb far from
 * its optimum, below the patterns REACT ran (docs/oracle.md, "Budget"). */
static int many_graphs(const react_oracle_opts_t *o, const react_pattern_t *p)
{
	return p->nranks <= o->exhaustive_max_ranks && react_pattern_ngraphs(p) > o->graph_max;
}

/* 1 when cfg's one REACT job has such a pattern (its pattern file's, else
 * the generated one; one that cannot be made counts as not: the search
 * then fails on it).  With several REACT jobs the coordinate search keeps
 * climb_evals per job and round: its cost is already that many times. */
static int many_graphs_cfg(const react_config_t *cfg, const react_oracle_opts_t *o)
{
	int32_t searched = 0;
	for (int32_t j = 0; j < cfg->run.njobs; j++)
		searched += cfg->react_on[j] != 0;
	if (searched != 1)
		return 0;
	for (int32_t j = 0; j < cfg->run.njobs; j++) {
		const react_job_cfg_t *jc = &cfg->run.jobs[j];
		react_pattern_t *p = NULL;
		int many;
		if (!cfg->react_on[j] || jc->nranks > o->exhaustive_max_ranks)
			continue;
		if (cfg->pattern && cfg->pattern[j]) {
			if (many_graphs(o, cfg->pattern[j]))
				return 1;
			continue;
		}
		if (react_pattern_generate(jc->collective, jc->algorithm, jc->nranks, jc->message_bytes,
		                           &p) != REACT_OK)
			continue;
		many = many_graphs(o, p);
		react_pattern_destroy(p);
		if (many)
			return 1;
	}
	return 0;
}

uint64_t react_oracle_fingerprint(const react_config_t *cfg, const react_oracle_opts_t *o)
{
	react_oracle_opts_t d;
	if (!o) {
		react_oracle_opts_default(&d);
		o = &d;
	}
	uint64_t h = react_config_fingerprint_noparams(cfg);
	int64_t v[] = {2 /* version of the search: changed with it */, o->exhaustive_max_ranks, o->screen_epochs,
	               o->keep, o->climb_starts, o->climb_evals, o->local_starts, o->local_evals,
	               o->local_patience, o->rounds, o->equiv_max_ranks, (int64_t)o->seed,
	               o->screen_full, o->pair_keep, o->pair_screens, o->proxy,
	               o->proxy ? o->proxy_keep : 0, o->graph_rounds, o->graph_max};
	const unsigned char *c = (const unsigned char *)v;
	for (size_t i = 0; i < sizeof v; i++) {
		h ^= c[i];
		h *= 1099511628211ull;
	}
	/* climb_many only where it sets a budget: the fingerprint of every other
	 * configuration is what it was before the option */
	if (o->climb_many != 1 && many_graphs_cfg(cfg, o)) {
		int64_t m = o->climb_many;
		c = (const unsigned char *)&m;
		for (size_t i = 0; i < sizeof m; i++) {
			h ^= c[i];
			h *= 1099511628211ull;
		}
	}
	return h;
}

/* ---- search state ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct memo_ent {
	uint64_t h;
	int32_t *seq;     /* 2 x nflows host ids; NULL: empty slot */
	double score, gbps;
} memo_ent_t;

typedef struct memo {
	memo_ent_t *t;
	size_t cap, n, bytes;
} memo_t;

typedef struct octx {
	const react_backend_ops_t *be;
	const react_config_t *cfg;
	const react_oracle_opts_t *o;
	react_oracle_stats_t *st;
	void *bstate;                 /* be->prepare's state for the topology, or NULL */
	int32_t njobs, nsearched;
	int climb_many;               /* the one REACT job's climb gets climb_many x climb_evals
	                               * (many_graphs_cfg: the fingerprint's own test) */
	const react_pattern_t **cur;  /* per job: current pattern (points into owned) */
	react_pattern_t **owned;
	double *cur_gbps;             /* per job: full-length mean algbw of the current state */
	double cur_score;             /* full-length score of the current state */
	double *base_full, *base_screen; /* per job: baseline mean algbw, full and screened */
	react_run_cfg_t screen_run;
	react_job_cfg_t *screen_jobs;
	int64_t *warmup;
	/* the job being searched */
	int32_t job;
	react_checker_t *ck;
	memo_t memo;
	int32_t *seqbuf;
	/* best of this job's search */
	react_pattern_t *best;
	double best_score, best_gbps;
	react_oracle_origin_t best_origin;
	int64_t best_moves;
	react_oracle_job_t *oj;
	react_oracle_progress_t pg;
	/* proxy search: every job's best distinct full-length patterns are kept
	 * (collect > 0: how many); finalist mode: only those are evaluated */
	int32_t collect;
	int32_t tgraph;               /* >= 0: run_state measures this chunk graph's time */
	double tg_sum;                /* sum over the run's epochs of its completion time */
	int64_t tg_n;
	struct finals *fin;
	const struct finals *fin_in;
	char *err;
	size_t errlen;
} octx_t;

/* A job's best distinct patterns of a search, best first. */
typedef struct finals {
	int32_t n;
	react_pattern_t **p;   /* collect entries */
	double *score;
} finals_t;

static void finals_free(finals_t *f, int32_t njobs)
{
	for (int32_t j = 0; f && j < njobs; j++) {
		for (int32_t k = 0; k < f[j].n; k++)
			react_pattern_destroy(f[j].p[k]);
		free(f[j].p);
		free(f[j].score);
	}
	free(f);
}

/* Insert p (copied) into the job's list when it ranks among the best. */
static react_status_t finals_add(octx_t *c, const react_pattern_t *p, double score)
{
	finals_t *f = &c->fin[c->job];
	int32_t k = c->collect, pos = f->n;
	if (!f->p && (!(f->p = calloc((size_t)k, sizeof *f->p)) ||
	              !(f->score = calloc((size_t)k, sizeof *f->score))))
		return REACT_ENOMEM;
	while (pos > 0 && score > f->score[pos - 1])
		pos--;
	if (pos >= k)
		return REACT_OK;
	react_pattern_t *q = NULL;
	react_status_t st = react_pattern_clone(p, &q);
	if (st != REACT_OK)
		return st;
	if (f->n == k) {
		react_pattern_destroy(f->p[k - 1]);
		f->n--;
	}
	memmove(&f->p[pos + 1], &f->p[pos], (size_t)(f->n - pos) * sizeof *f->p);
	memmove(&f->score[pos + 1], &f->score[pos], (size_t)(f->n - pos) * sizeof *f->score);
	f->p[pos] = q;
	f->score[pos] = score;
	f->n++;
	return REACT_OK;
}

static void progress(octx_t *c)
{
	if (c->o->progress)
		c->o->progress(c->o->progress_ctx, &c->pg);
}

static uint64_t seq_hash(const int32_t *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		uint32_t v = (uint32_t)s[i];
		for (int b = 0; b < 4; b++) {
			h ^= (v >> (8 * b)) & 0xffu;
			h *= 1099511628211ull;
		}
	}
	return h;
}

/* c->seqbuf = the host-pair sequence the backend sees for p as job c->job */
static size_t host_seq(octx_t *c, const react_pattern_t *p)
{
	const int32_t *hosts = c->cfg->run.jobs[c->job].hosts;
	for (size_t f = 0; f < p->nflows; f++) {
		c->seqbuf[2 * f] = hosts[p->flows[f].src];
		c->seqbuf[2 * f + 1] = hosts[p->flows[f].dst];
	}
	return 2 * p->nflows;
}

static memo_ent_t *memo_find(memo_t *m, uint64_t h, const int32_t *seq, size_t n)
{
	if (!m->cap)
		return NULL;
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		memo_ent_t *e = &m->t[i];
		if (!e->seq)
			return NULL;
		if (e->h == h && !memcmp(e->seq, seq, n * sizeof *seq))
			return e;
	}
}

static react_status_t memo_put(memo_t *m, uint64_t h, const int32_t *seq, size_t n, double score,
                               double gbps)
{
	if (m->bytes + n * sizeof *seq > MEMO_MAX_BYTES)
		return REACT_OK;
	if (2 * (m->n + 1) > m->cap) {
		size_t nc = m->cap ? 2 * m->cap : 1024;
		memo_ent_t *nt = calloc(nc, sizeof *nt);
		if (!nt)
			return REACT_ENOMEM;
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->t[i].seq)
				continue;
			size_t k = m->t[i].h & (nc - 1);
			while (nt[k].seq)
				k = (k + 1) & (nc - 1);
			nt[k] = m->t[i];
		}
		free(m->t);
		m->t = nt;
		m->cap = nc;
	}
	int32_t *s = malloc(n * sizeof *s);
	if (!s)
		return REACT_ENOMEM;
	memcpy(s, seq, n * sizeof *s);
	size_t k = h & (m->cap - 1);
	while (m->t[k].seq)
		k = (k + 1) & (m->cap - 1);
	m->t[k] = (memo_ent_t){h, s, score, gbps};
	m->n++;
	m->bytes += n * sizeof *s;
	return REACT_OK;
}

static void memo_clear(memo_t *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->t[i].seq);
	free(m->t);
	memset(m, 0, sizeof *m);
}

/* Score of a run: mean over REACT jobs of gbps / base. */
static double score_of(const octx_t *c, const react_drive_result_t *r, const double *base)
{
	double s = 0;
	for (int32_t j = 0; j < c->njobs; j++)
		if (c->cfg->react_on[j])
			s += r->jobs[j].mean_algbw_gbps / base[j];
	return s / (double)c->nsearched;
}

/* Per-epoch hook of run_state: the completion time of chunk graph
 * c->tgraph of the searched job (its last flow's arrival - the epoch's
 * start), summed over the epochs. */
static react_status_t graph_time(void *ctx, const react_epoch_report_t *rep)
{
	octx_t *c = ctx;
	if (rep->job != c->job)
		return REACT_OK;
	double end = rep->start_s;
	for (size_t f = 0; f < rep->pattern->nflows; f++)
		if (react_pattern_flow_graph(rep->pattern, f) == c->tgraph &&
		    rep->flow_start_s[f] + rep->fct_s[f] > end)
			end = rep->flow_start_s[f] + rep->fct_s[f];
	c->tg_sum += end - rep->start_s;
	c->tg_n++;
	return REACT_OK;
}

/* One run with job c->job on cand (NULL: every job on its current pattern).
 * full: full length with warm-up, else the screen.  out: the drive result
 * (may be NULL). */
static react_status_t run_state(octx_t *c, const react_pattern_t *cand, int full,
                                react_drive_result_t **out)
{
	react_drive_opts_t d;
	const react_pattern_t **fx = malloc((size_t)c->njobs * sizeof *fx);
	char e[1024];
	react_status_t st;
	if (!fx)
		return REACT_ENOMEM;
	memcpy(fx, c->cur, (size_t)c->njobs * sizeof *fx);
	if (cand)
		fx[c->job] = cand;
	memset(&d, 0, sizeof d);
	d.warmup = full ? c->cfg->warmup : NULL;
	d.fixed = fx;
	d.backend_state = c->bstate;
	if (c->tgraph >= 0) {
		c->tg_sum = 0;
		c->tg_n = 0;
		d.on_epoch = graph_time;
		d.on_epoch_ctx = c;
	}
	double t0 = now_s();
	st = react_drive(c->be, full ? &c->cfg->run : &c->screen_run, &d, out, e, sizeof e);
	double dt = now_s() - t0;
	if (full) {
		c->st->full_evals++;
		c->st->full_s += dt;
	} else {
		c->st->screen_evals++;
		c->st->screen_s += dt;
	}
	free(fx);
	if (st != REACT_OK)
		snprintf(c->err, c->errlen, "oracle: job '%s', %s evaluation: %s",
		         c->cfg->run.jobs[c->job].name, full ? "full-length" : "screening", e);
	return st;
}

/* Build-time check of a candidate; 1 when it passes. */
static int passes(octx_t *c, const react_pattern_t *p)
{
	double t0 = now_s();
	int ok = react_checker_run(c->ck, p, NULL) == REACT_OK;
	c->st->check_s += now_s() - t0;
	if (!ok)
		c->st->rejected++;
	return ok;
}

static void note_best(octx_t *c, const react_pattern_t *p, double score, double gbps,
                      react_oracle_origin_t origin, int64_t moves, react_status_t *st)
{
	if (!(score > c->best_score))
		return;
	react_pattern_t *q = NULL;
	if ((*st = react_pattern_clone(p, &q)) != REACT_OK)
		return;
	react_pattern_destroy(c->best);
	c->best = q;
	c->best_score = score;
	c->best_gbps = gbps;
	c->best_origin = origin;
	c->best_moves = moves;
	c->pg.best_gbps = gbps;
}

/* Full-length score of a checked candidate, memoised. */
static react_status_t eval_full(octx_t *c, const react_pattern_t *p, double *score, double *gbps)
{
	size_t n = host_seq(c, p);
	uint64_t h = seq_hash(c->seqbuf, n);
	memo_ent_t *e = memo_find(&c->memo, h, c->seqbuf, n);
	if (e) {
		c->st->duplicates++;
		*score = e->score;
		*gbps = e->gbps;
		return REACT_OK;
	}
	if (c->o->on_eval)
		c->o->on_eval(c->o->on_eval_ctx, c->job, p, 1);
	react_drive_result_t *r = NULL;
	react_status_t st = run_state(c, p, 1, &r);
	if (st != REACT_OK)
		return st;
	*score = score_of(c, r, c->base_full);
	*gbps = r->jobs[c->job].mean_algbw_gbps;
	react_drive_result_destroy(r);
	c->pg.done++;
	progress(c);
	if (c->collect && (st = finals_add(c, p, *score)) != REACT_OK)
		return st;
	return memo_put(&c->memo, h, c->seqbuf, n, *score, *gbps);
}

/* ---- stage 1: every global permutation, screened ---- */

typedef struct scored {
	double score;
	uint64_t index;      /* enumeration index: ties go to the earlier */
	react_rank_t *perm;
} scored_t;

static int better(const scored_t *a, const scored_t *b)
{
	return a->score > b->score || (a->score == b->score && a->index < b->index);
}

/* Insert into the sorted top list (capacity k); copies perm. */
static void top_insert(scored_t *top, int32_t *ntop, int32_t k, double score, uint64_t index,
                       const react_rank_t *perm, int32_t n)
{
	scored_t s = {score, index, NULL};
	int32_t pos = *ntop;
	while (pos > 0 && better(&s, &top[pos - 1]))
		pos--;
	if (pos >= k)
		return;
	react_rank_t *slot;
	if (*ntop == k) {
		slot = top[k - 1].perm; /* reuse the evicted entry's storage */
		memmove(&top[pos + 1], &top[pos], (size_t)(k - 1 - pos) * sizeof *top);
	} else {
		slot = top[*ntop].perm;
		memmove(&top[pos + 1], &top[pos], (size_t)(*ntop - pos) * sizeof *top);
		(*ntop)++;
	}
	memcpy(slot, perm, (size_t)n * sizeof *slot);
	top[pos] = (scored_t){score, index, slot};
}

/* Host-image set for the screen dedupe. */
typedef struct imgset {
	int32_t *keys;   /* cap x n */
	unsigned char *used;
	size_t cap, cnt;
	int32_t n;
} imgset_t;

static int img_add(imgset_t *s, const int32_t *img, int *fresh)
{
	uint64_t h = seq_hash(img, (size_t)s->n);
	if (2 * (s->cnt + 1) > s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 4096;
		int32_t *nk = malloc(nc * (size_t)s->n * sizeof *nk);
		unsigned char *nu = calloc(nc, 1);
		if (!nk || !nu) {
			free(nk);
			free(nu);
			return -1;
		}
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->used[i])
				continue;
			const int32_t *k = &s->keys[i * (size_t)s->n];
			size_t q = seq_hash(k, (size_t)s->n) & (nc - 1);
			while (nu[q])
				q = (q + 1) & (nc - 1);
			nu[q] = 1;
			memcpy(&nk[q * (size_t)s->n], k, (size_t)s->n * sizeof *k);
		}
		free(s->keys);
		free(s->used);
		s->keys = nk;
		s->used = nu;
		s->cap = nc;
	}
	size_t q = h & (s->cap - 1);
	while (s->used[q]) {
		if (!memcmp(&s->keys[q * (size_t)s->n], img, (size_t)s->n * sizeof *img)) {
			*fresh = 0;
			return 0;
		}
		q = (q + 1) & (s->cap - 1);
	}
	s->used[q] = 1;
	memcpy(&s->keys[q * (size_t)s->n], img, (size_t)s->n * sizeof *img);
	s->cnt++;
	*fresh = 1;
	return 0;
}

/* Patterns (owned) with their full-length scores: the climbing starts. */
typedef struct start {
	react_pattern_t *p;
	double score, gbps;
	uint64_t rank;   /* order of discovery, for ties */
} start_t;

static int start_cmp(const void *a, const void *b)
{
	const start_t *x = a, *y = b;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static react_status_t exhaustive(octx_t *c, start_t **starts_out, int32_t *nstarts_out)
{
	react_status_t st = REACT_OK;
	const react_oracle_opts_t *o = c->o;
	const react_pattern_t *base = c->cur[c->job];
	const react_job_cfg_t *jc = &c->cfg->run.jobs[c->job];
	int32_t n = base->nranks;
	int32_t k = o->screen_full ? INT32_MAX : o->keep;
	uint64_t total = 1;
	for (int32_t i = 2; i <= n; i++)
		total *= (uint64_t)i;
	if ((uint64_t)k > total)
		k = (int32_t)total;
	react_rank_t *perm = malloc((size_t)n * sizeof *perm);
	int32_t *img = malloc((size_t)n * sizeof *img);
	unsigned char *active = calloc((size_t)n, 1), *hseen = NULL;
	scored_t *top = calloc((size_t)k, sizeof *top);
	react_rank_t *tstore = malloc((size_t)k * (size_t)n * sizeof *tstore);
	start_t *starts = calloc((size_t)k + 1, sizeof *starts);
	int32_t ntop = 0, nstarts = 0;
	react_pattern_t *w = NULL;
	imgset_t set = {0};
	set.n = n;
	if (!perm || !img || !active || !top || !tstore || !starts) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (int32_t i = 0; i < k; i++)
		top[i].perm = &tstore[(size_t)i * (size_t)n];
	/* the screen dedupe is needed only when the host image can repeat */
	int dedupe = 0;
	for (size_t f = 0; f < base->nflows; f++)
		active[base->flows[f].src] = active[base->flows[f].dst] = 1;
	if (!(hseen = calloc((size_t)c->cfg->run.topo->nhosts, 1))) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (int32_t r = 0; r < n; r++) {
		if (!active[r] || hseen[jc->hosts[r]])
			dedupe = 1;
		hseen[jc->hosts[r]] = 1;
	}
	for (int32_t r = 0; r < n; r++)
		perm[r] = r;
	c->pg.stage = o->screen_full ? "full" : "screen";
	c->pg.done = 0;
	c->pg.total = total;
	progress(c);
	uint64_t index = 0;
	do {
		double t0 = now_s();
		c->st->permutations++;
		c->st->candidates++;
		react_pattern_destroy(w);
		w = NULL;
		if ((st = react_pattern_clone(base, &w)) != REACT_OK ||
		    (st = react_pattern_permute(w, perm)) != REACT_OK)
			goto fail;
		c->st->build_s += now_s() - t0;
		if (!passes(c, w)) {
			index++;
			continue;
		}
		if (dedupe) {
			int fresh;
			for (int32_t r = 0; r < n; r++)
				img[r] = active[r] ? jc->hosts[perm[r]] : -1;
			if (img_add(&set, img, &fresh) < 0) {
				st = REACT_ENOMEM;
				goto fail;
			}
			if (!fresh) {
				c->st->duplicates++;
				index++;
				continue;
			}
		}
		double score, gbps = 0;
		if (o->screen_full) {
			if ((st = eval_full(c, w, &score, &gbps)) != REACT_OK)
				goto fail;
			note_best(c, w, score, gbps, index ? REACT_ORACLE_PERMUTATION
			                                   : REACT_ORACLE_GENERATED, 0, &st);
			if (st != REACT_OK)
				goto fail;
			if (gbps > c->oj->perm_best_gbps)
				c->oj->perm_best_gbps = gbps;
		} else {
			react_drive_result_t *r = NULL;
			if (o->on_eval)
				o->on_eval(o->on_eval_ctx, c->job, w, 0);
			if ((st = run_state(c, w, 0, &r)) != REACT_OK)
				goto fail;
			score = score_of(c, r, c->base_screen);
			gbps = r->jobs[c->job].mean_algbw_gbps;
			react_drive_result_destroy(r);
			if (gbps > c->oj->screen_best_gbps)
				c->oj->screen_best_gbps = gbps;
			c->pg.done++;
			progress(c);
		}
		top_insert(top, &ntop, k, score, index, perm, n);
		index++;
	} while (react_perm_next(perm, n));

	/* stage 2: the best k at full length (the screen_full scores are already) */
	c->pg.stage = "full";
	c->pg.done = 0;
	c->pg.total = (uint64_t)ntop;
	progress(c);
	int have_cur = 0;
	for (int32_t i = 0; i < ntop; i++) {
		double score, gbps;
		react_pattern_destroy(w);
		w = NULL;
		if ((st = react_pattern_clone(base, &w)) != REACT_OK ||
		    (st = react_pattern_permute(w, top[i].perm)) != REACT_OK)
			goto fail;
		if (!passes(c, w)) { /* it passed moments ago: the check is not deterministic */
			snprintf(c->err, c->errlen, "oracle: bug: permutation %" PRIu64 " passed the "
			         "check once and failed it later", top[i].index);
			st = REACT_ESEMANTIC;
			goto fail;
		}
		if ((st = eval_full(c, w, &score, &gbps)) != REACT_OK)
			goto fail;
		if (gbps > c->oj->perm_best_gbps)
			c->oj->perm_best_gbps = gbps;
		note_best(c, w, score, gbps, top[i].index ? REACT_ORACLE_PERMUTATION
		                                          : REACT_ORACLE_GENERATED, 0, &st);
		if (st != REACT_OK)
			goto fail;
		have_cur |= top[i].index == 0;
		if (!o->screen_full || i < o->climb_starts) {
			starts[nstarts++] = (start_t){w, score, gbps, (uint64_t)i};
			w = NULL;
		}
	}
	if (!have_cur) { /* the current pattern is always a start candidate */
		if ((st = react_pattern_clone(base, &w)) != REACT_OK)
			goto fail;
		starts[nstarts++] = (start_t){w, c->cur_score, c->cur_gbps[c->job], (uint64_t)ntop};
		w = NULL;
	}
	qsort(starts, (size_t)nstarts, sizeof *starts, start_cmp);
	*starts_out = starts;
	*nstarts_out = nstarts;
	starts = NULL;
fail:
	if (starts)
		for (int32_t i = 0; i < nstarts; i++)
			react_pattern_destroy(starts[i].p);
	free(starts);
	react_pattern_destroy(w);
	free(perm);
	free(img);
	free(active);
	free(hseen);
	free(top);
	free(tstore);
	free(set.keys);
	free(set.used);
	return st;
}

/* ---- stage 2b: chunk-local permutations ---- */

/* A screened candidate: its score and where it came from. */
typedef struct pscored {
	double score;
	uint64_t index;
	uint32_t i, j;
} pscored_t;

/* Screen candidate w (already checked): run it for the screening epochs,
 * count it, and keep e, with w's score, among the k best in top (ntop of
 * them, best first, ties by the smaller index). */
static react_status_t screen_keep(octx_t *c, const react_pattern_t *w, pscored_t e,
                                  pscored_t *top, int32_t *ntop, int32_t k)
{
	react_drive_result_t *r = NULL;
	react_status_t st;
	if (c->o->on_eval)
		c->o->on_eval(c->o->on_eval_ctx, c->job, w, 0);
	if ((st = run_state(c, w, 0, &r)) != REACT_OK)
		return st;
	e.score = score_of(c, r, c->base_screen);
	react_drive_result_destroy(r);
	c->pg.done++;
	progress(c);
	int32_t pos = *ntop;
	while (pos > 0 && (e.score > top[pos - 1].score ||
	                   (e.score == top[pos - 1].score && e.index < top[pos - 1].index)))
		pos--;
	if (pos < k) {
		int32_t last = *ntop < k ? *ntop : k - 1;
		memmove(&top[pos + 1], &top[pos], (size_t)(last - pos) * sizeof *top);
		top[pos] = e;
		if (*ntop < k)
			(*ntop)++;
	}
	return REACT_OK;
}


/* Chunk-local permutations, for patterns of 2 .. graph_max chunk graphs: the
 * epoch ends when the slowest graph ends (a tree AllReduce's two trees run
 * side by side), so a better placement of one graph alone often does not
 * show in the epoch time, and neither global permutations nor single moves
 * get past that.  Graphs are therefore placed each on its own, then
 * jointly: for each graph g, every permutation of the ranks applied to g's
 * flows alone is screened and ranked by g's own completion time (mean over
 * the screen epochs; ties: the earlier permutation); the M best of every
 * graph (M = 16, 6, 4 for 2, 3, 4 graphs: at most 256 combinations) are
 * combined, every combination screened on the epoch time, the keep best run
 * at full length, and the best replaces *s when it beats it.  Repeated from
 * the new pattern, graph_rounds times at most, while it improves. */
static int graph_m(int32_t G)
{
	return G == 2 ? 16 : G == 3 ? 6 : 4;
}

static react_status_t apply_graph_perms(const react_pattern_t *base, int32_t G,
                                        react_rank_t *const *perms, react_pattern_t **out)
{
	react_status_t st = react_pattern_clone(base, out);
	for (size_t f = 0; st == REACT_OK && f < (*out)->nflows; f++) {
		int32_t g = react_pattern_flow_graph(base, f);
		if (g >= 0 && g < G && perms[g]) {
			(*out)->flows[f].src = perms[g][base->flows[f].src];
			(*out)->flows[f].dst = perms[g][base->flows[f].dst];
		}
	}
	if (st == REACT_OK)
		st = react_pattern_reindex(*out);
	if (st != REACT_OK) {
		react_pattern_destroy(*out);
		*out = NULL;
	}
	return st;
}

static react_status_t graph_stage(octx_t *c, start_t *s, int64_t *budget, int64_t *moves)
{
	react_status_t st = REACT_OK;
	const react_oracle_opts_t *o = c->o;
	int32_t G = react_pattern_ngraphs(s->p), n = s->p->nranks;
	if (G < 2 || G > o->graph_max || G > 4 || o->graph_rounds < 1)
		return REACT_OK;
	int32_t M = graph_m(G);
	uint64_t total = 1;
	for (int32_t i = 2; i <= n; i++)
		total *= (uint64_t)i;
	if ((uint64_t)M > total)
		M = (int32_t)total;
	int32_t k = o->keep;
	react_rank_t *perm = malloc((size_t)n * sizeof *perm);
	react_rank_t *pstore = malloc((size_t)G * (size_t)M * (size_t)n * sizeof *pstore);
	scored_t *gt = calloc((size_t)G * (size_t)M, sizeof *gt); /* per graph: M best, by -time */
	int32_t *ngt = calloc((size_t)G, sizeof *ngt);
	uint64_t ncomb = 1;
	for (int32_t g = 0; g < G; g++)
		ncomb *= (uint64_t)M;
	pscored_t *top = calloc((size_t)k + 1, sizeof *top);
	react_rank_t *pp[4] = {NULL, NULL, NULL, NULL};
	react_pattern_t *w = NULL;
	if (!perm || !pstore || !gt || !ngt || !top) {
		st = REACT_ENOMEM;
		goto done;
	}
	for (int32_t round = 0; round < o->graph_rounds && *budget > 0; round++) {
		/* each graph on its own, ranked by its own time */
		for (int32_t g = 0; g < G; g++) {
			scored_t *tg = &gt[(size_t)g * (size_t)M];
			ngt[g] = 0;
			for (int32_t i = 0; i < M; i++)
				tg[i].perm = &pstore[((size_t)g * (size_t)M + (size_t)i) * (size_t)n];
			for (int32_t r = 0; r < n; r++)
				perm[r] = r;
			c->pg.stage = "graphs";
			c->pg.done = 0;
			c->pg.total = total;
			progress(c);
			uint64_t index = 0;
			do {
				react_rank_t *one[4] = {NULL, NULL, NULL, NULL};
				one[g] = perm;
				double t0 = now_s();
				c->st->candidates++;
				react_pattern_destroy(w);
				w = NULL;
				if ((st = apply_graph_perms(s->p, G, one, &w)) != REACT_OK)
					goto done;
				c->st->build_s += now_s() - t0;
				if (!passes(c, w)) {
					index++;
					continue;
				}
				react_drive_result_t *r = NULL;
				if (o->on_eval)
					o->on_eval(o->on_eval_ctx, c->job, w, 0);
				c->tgraph = g;
				st = run_state(c, w, 0, &r);
				c->tgraph = -1;
				if (st != REACT_OK)
					goto done;
				react_drive_result_destroy(r);
				c->pg.done++;
				progress(c);
				top_insert(tg, &ngt[g], M, -(c->tg_sum / (double)(c->tg_n ? c->tg_n : 1)),
				           index, perm, n);
				index++;
			} while (react_perm_next(perm, n));
		}
		/* every combination of the graphs' best, screened on the epoch time */
		int32_t ntop = 0;
		c->pg.stage = "graph combinations";
		c->pg.done = 0;
		c->pg.total = ncomb;
		progress(c);
		for (uint64_t comb = 0; comb < ncomb; comb++) {
			uint64_t q = comb;
			int ok = 1;
			for (int32_t g = 0; g < G; g++) {
				int32_t idx = (int32_t)(q % (uint64_t)M);
				q /= (uint64_t)M;
				if (idx >= ngt[g])
					ok = 0;
				else
					pp[g] = gt[(size_t)g * (size_t)M + (size_t)idx].perm;
			}
			if (!ok)
				continue;
			react_pattern_destroy(w);
			w = NULL;
			c->st->candidates++;
			if ((st = apply_graph_perms(s->p, G, pp, &w)) != REACT_OK)
				goto done;
			if (!passes(c, w) || react_pattern_equal(w, s->p))
				continue;
			if ((st = screen_keep(c, w, (pscored_t){0, comb, 0, 0}, top, &ntop, k)) != REACT_OK)
				goto done;
		}
		/* the best combinations at full length */
		react_pattern_t *bp = NULL;
		double bs = s->score, bg = s->gbps;
		for (int32_t i = 0; i < ntop && *budget > 0; i++) {
			uint64_t q = top[i].index;
			double sc, gb;
			for (int32_t g = 0; g < G; g++) {
				pp[g] = gt[(size_t)g * (size_t)M + q % (uint64_t)M].perm;
				q /= (uint64_t)M;
			}
			react_pattern_destroy(w);
			w = NULL;
			if ((st = apply_graph_perms(s->p, G, pp, &w)) != REACT_OK)
				goto done;
			if (!passes(c, w)) {
				snprintf(c->err, c->errlen, "oracle: bug: chunk-local permutations passed the "
				         "check once and failed it later");
				react_pattern_destroy(bp);
				st = REACT_ESEMANTIC;
				goto done;
			}
			uint64_t before = c->st->full_evals;
			if ((st = eval_full(c, w, &sc, &gb)) != REACT_OK) {
				react_pattern_destroy(bp);
				goto done;
			}
			if (c->st->full_evals != before)
				(*budget)--;
			if (sc > bs) {
				react_pattern_destroy(bp);
				bp = w;
				w = NULL;
				bs = sc;
				bg = gb;
			}
		}
		if (!bp)
			break;
		react_pattern_destroy(s->p);
		s->p = bp;
		s->score = bs;
		s->gbps = bg;
		(*moves)++;
	}
done:
	react_pattern_destroy(w);
	free(perm);
	free(pstore);
	free(gt);
	free(ngt);
	free(top);
	return st;
}

/* ---- stage 3: hill climbing over REACT's moves ---- */

/* 1 when rank r has a flow of graph g at step t (out) or t-1 (in) */
static int in_vertex(const react_pattern_t *p, int32_t g, react_step_t t, react_rank_t r)
{
	const size_t *ids;
	size_t m;
	if (t < p->nsteps) {
		m = react_pattern_rank_out(p, t, r, &ids);
		for (size_t i = 0; i < m; i++)
			if (react_pattern_flow_graph(p, ids[i]) == g)
				return 1;
	}
	if (t > 0) {
		m = react_pattern_rank_in(p, t - 1, r, &ids);
		for (size_t i = 0; i < m; i++)
			if (react_pattern_flow_graph(p, ids[i]) == g)
				return 1;
	}
	return 0;
}

typedef struct moves {
	react_xform_t *v;
	size_t n, cap;
} moves_t;

static react_status_t moves_add(moves_t *m, react_xform_t x)
{
	if (m->n == m->cap) {
		size_t nc = m->cap ? 2 * m->cap : 256;
		react_xform_t *nv = realloc(m->v, nc * sizeof *nv);
		if (!nv)
			return REACT_ENOMEM;
		m->v = nv;
		m->cap = nc;
	}
	m->v[m->n++] = x;
	return REACT_OK;
}

/* The whole neighbourhood of p, in order: position swaps (graph, vertex
 * time, x < y in one class, at least one of them active there), chunk-local
 * swaps (graph, x < y; only with two or more graphs, else they are the
 * global swaps), pairwise global swaps (x < y). */
static react_status_t neighbours(octx_t *c, const react_pattern_t *p, moves_t *m)
{
	react_status_t st = REACT_OK;
	int32_t n = p->nranks, G = react_pattern_ngraphs(p);
	m->n = 0;
	if (n <= c->o->equiv_max_ranks) {
		react_equiv_t *eq = NULL;
		react_rank_t *mem = malloc((size_t)n * sizeof *mem);
		if (!mem)
			return REACT_ENOMEM;
		st = react_equiv_fast(p, &eq);
		if (st == REACT_OK) {
			for (int32_t g = 0; g < G && st == REACT_OK; g++)
				for (react_step_t t = 0; t <= p->nsteps && st == REACT_OK; t++)
					for (react_rank_t x = 0; x < n && st == REACT_OK; x++) {
						size_t k = react_equiv_members(eq, g, t, x, mem);
						int ax = -1;
						for (size_t i = 0; i < k && st == REACT_OK; i++) {
							react_rank_t y = mem[i];
							if (y <= x)
								continue;
							if (ax < 0)
								ax = in_vertex(p, g, t, x);
							if (!ax && !in_vertex(p, g, t, y))
								continue;
							st = moves_add(m, (react_xform_t){REACT_XF_POSITION, t, x, y, g});
						}
					}
		} else if (st == REACT_EUNSUPPORTED) {
			st = REACT_OK; /* too large for the dense table: no position swaps */
		}
		react_equiv_destroy(eq);
		free(mem);
		if (st != REACT_OK)
			return st;
	}
	if (G > 1)
		for (int32_t g = 0; g < G; g++)
			for (react_rank_t x = 0; x < n; x++)
				for (react_rank_t y = x + 1; y < n; y++)
					if ((st = moves_add(m, (react_xform_t){REACT_XF_CHUNK, 0, x, y, g})))
						return st;
	for (react_rank_t x = 0; x < n; x++)
		for (react_rank_t y = x + 1; y < n; y++)
			if ((st = moves_add(m, (react_xform_t){REACT_XF_GLOBAL, 0, x, y, 0})))
				return st;
	return REACT_OK;
}

/* Candidate: p with move x applied, in *out (NULL when the move is refused,
 * leaves p unchanged or fails the check). */
static react_status_t try_move(octx_t *c, const react_pattern_t *p, const react_xform_t *x,
                               react_pattern_t **out)
{
	react_pattern_t *q = NULL;
	react_status_t st;
	*out = NULL;
	double t0 = now_s();
	c->st->candidates++;
	if ((st = react_pattern_clone(p, &q)) != REACT_OK)
		return st;
	st = react_xform_apply(q, x);
	c->st->build_s += now_s() - t0;
	if (st == REACT_EINVAL) { /* a position swap of both ends of one flow */
		c->st->rejected++;
		react_pattern_destroy(q);
		return REACT_OK;
	}
	if (st != REACT_OK) {
		react_pattern_destroy(q);
		return st;
	}
	if (react_pattern_equal(p, q)) {
		c->st->unchanged++;
		react_pattern_destroy(q);
		return REACT_OK;
	}
	if (!passes(c, q)) {
		react_pattern_destroy(q);
		return REACT_OK;
	}
	*out = q;
	return REACT_OK;
}

/* First-improvement climb from *p (in-out: replaced by the local optimum
 * reached), score/gbps in-out; *budget evaluations left (in-out). */
static react_status_t climb(octx_t *c, react_pattern_t **p, double *score, double *gbps,
                            int64_t *budget, int64_t *moves_out)
{
	react_status_t st = REACT_OK;
	moves_t m = {0};
	int64_t moves = 0;
	int improved = 1;
	while (improved && *budget > 0) {
		improved = 0;
		if ((st = neighbours(c, *p, &m)) != REACT_OK)
			break;
		for (size_t i = 0; i < m.n && *budget > 0; i++) {
			react_pattern_t *q = NULL;
			if ((st = try_move(c, *p, &m.v[i], &q)) != REACT_OK)
				goto done;
			if (!q)
				continue;
			double s, g;
			uint64_t before = c->st->full_evals;
			if ((st = eval_full(c, q, &s, &g)) != REACT_OK) {
				react_pattern_destroy(q);
				goto done;
			}
			if (c->st->full_evals != before)
				(*budget)--;
			if (s > *score) {
				react_pattern_destroy(*p);
				*p = q;
				*score = s;
				*gbps = g;
				moves++;
				improved = 1;
				break;
			}
			react_pattern_destroy(q);
		}
	}
done:
	free(m.v);
	*moves_out = moves;
	return st;
}

/* Compound moves, to leave a local optimum of single moves (a tree
 * AllReduce's two trees run side by side: moving the congested rank out of
 * one of them alone does not shorten the epoch).  Every pair of single moves
 * of p (m_i then m_j, i < j in neighbours() order; a deterministic sample of
 * pair_screens pairs when there are more) is checked and screened; the
 * pair_keep best screened are run at full length, best first, and the first
 * that beats *score replaces *p.  *improved: 1 when one did. */

static react_status_t pair_step(octx_t *c, react_pattern_t **p, double *score, double *gbps,
                                int64_t *budget, int *improved)
{
	react_status_t st = REACT_OK;
	const react_oracle_opts_t *o = c->o;
	moves_t m = {0};
	memo_t seen = {0};
	pscored_t *top = calloc((size_t)o->pair_keep + 1, sizeof *top);
	int32_t ntop = 0;
	react_pattern_t *a = NULL, *q = NULL;
	gsl_rng *rng = NULL;
	*improved = 0;
	if (!top)
		return REACT_ENOMEM;
	if ((st = neighbours(c, *p, &m)) != REACT_OK)
		goto done;
	uint64_t npairs = (uint64_t)m.n * (m.n > 0 ? m.n - 1 : 0) / 2;
	int sample = npairs > (uint64_t)o->pair_screens;
	if (sample) {
		if (!(rng = gsl_rng_alloc(gsl_rng_mt19937))) {
			st = REACT_ENOMEM;
			goto done;
		}
		gsl_rng_set(rng, (unsigned long)(o->seed ^ 0x5ca1ab1eu) + (unsigned long)c->job);
	}
	uint64_t count = sample ? (uint64_t)o->pair_screens : npairs;
	c->pg.stage = "pairs";
	c->pg.done = 0;
	c->pg.total = count;
	progress(c);
	uint32_t i = 0, j = 0;
	for (uint64_t k = 0; k < count; k++) {
		if (sample) {
			i = (uint32_t)gsl_rng_uniform_int(rng, (unsigned long)m.n);
			do
				j = (uint32_t)gsl_rng_uniform_int(rng, (unsigned long)m.n);
			while (j == i);
			if (j < i) {
				uint32_t t = i;
				i = j;
				j = t;
			}
		} else if (k == 0) {
			i = 0;
			j = 1;
		} else if (++j == m.n) {
			i++;
			j = i + 1;
		}
		react_pattern_destroy(a);
		react_pattern_destroy(q);
		a = q = NULL;
		if ((st = try_move(c, *p, &m.v[i], &a)) != REACT_OK)
			goto done;
		if (!a)
			continue;
		if ((st = try_move(c, a, &m.v[j], &q)) != REACT_OK)
			goto done;
		if (!q || react_pattern_equal(q, *p))
			continue;
		size_t n = host_seq(c, q);
		uint64_t h = seq_hash(c->seqbuf, n);
		if (memo_find(&seen, h, c->seqbuf, n)) {
			c->st->duplicates++;
			continue;
		}
		if ((st = memo_put(&seen, h, c->seqbuf, n, 0, 0)) != REACT_OK)
			goto done;
		if ((st = screen_keep(c, q, (pscored_t){0, k, i, j}, top, &ntop, o->pair_keep)) !=
		    REACT_OK)
			goto done;
	}
	for (int32_t t = 0; t < ntop && *budget > 0; t++) {
		react_pattern_destroy(a);
		react_pattern_destroy(q);
		a = q = NULL;
		if ((st = try_move(c, *p, &m.v[top[t].i], &a)) != REACT_OK ||
		    (st = try_move(c, a, &m.v[top[t].j], &q)) != REACT_OK)
			goto done;
		if (!q) {
			snprintf(c->err, c->errlen, "oracle: bug: a pair of moves passed the check once "
			         "and not again");
			st = REACT_ESEMANTIC;
			goto done;
		}
		double s2, g2;
		uint64_t before = c->st->full_evals;
		if ((st = eval_full(c, q, &s2, &g2)) != REACT_OK)
			goto done;
		if (c->st->full_evals != before)
			(*budget)--;
		if (s2 > *score) {
			react_pattern_destroy(*p);
			*p = q;
			q = NULL;
			*score = s2;
			*gbps = g2;
			*improved = 1;
			break;
		}
	}
done:
	react_pattern_destroy(a);
	react_pattern_destroy(q);
	memo_clear(&seen);
	if (rng)
		gsl_rng_free(rng);
	free(m.v);
	free(top);
	return st;
}

/* ---- N above exhaustive_max_ranks: sampled multi-start local search ---- */

/* Ranks of the searched job whose host is an endpoint of an external flow
 * or of a degraded link: the congestion the oracle knows. */
static react_status_t hot_ranks(octx_t *c, react_rank_t **out, int32_t *nout)
{
	const react_run_cfg_t *r = &c->cfg->run;
	const react_job_cfg_t *jc = &r->jobs[c->job];
	react_rank_t *h = malloc((size_t)jc->nranks * sizeof *h);
	int32_t n = 0;
	if (!h)
		return REACT_ENOMEM;
	for (int32_t k = 0; k < jc->nranks; k++) {
		int32_t host = jc->hosts[k], node = r->topo->host_node[host], hot = 0;
		for (size_t x = 0; x < r->next && !hot; x++)
			hot = r->ext[x].count > 0 && (r->ext[x].src_host == host ||
			                              r->ext[x].dst_host == host);
		for (size_t d = 0; d < r->ndegraded && !hot; d++) {
			const react_link_t *l = &r->topo->links[r->degraded[d].link];
			hot = l->a == node || l->b == node;
		}
		if (hot)
			h[n++] = k;
	}
	*out = h;
	*nout = n;
	return REACT_OK;
}

/* One sampled move for p. */
static int sample_move(gsl_rng *rng, const react_pattern_t *p, const react_equiv_t *eq,
                       const react_rank_t *hot, int32_t nhot, react_rank_t *mem,
                       react_xform_t *x)
{
	int32_t n = p->nranks, G = react_pattern_ngraphs(p);
	int kinds[3], nk = 0;
	if (eq)
		kinds[nk++] = REACT_XF_POSITION;
	if (G > 1)
		kinds[nk++] = REACT_XF_CHUNK;
	kinds[nk++] = REACT_XF_GLOBAL;
	int kind = kinds[gsl_rng_uniform_int(rng, (unsigned long)nk)];
	react_rank_t a = nhot && gsl_rng_uniform(rng) < 0.5
	                     ? hot[gsl_rng_uniform_int(rng, (unsigned long)nhot)]
	                     : (react_rank_t)gsl_rng_uniform_int(rng, (unsigned long)n);
	memset(x, 0, sizeof *x);
	x->kind = (react_xform_kind_t)kind;
	x->x = a;
	if (kind == REACT_XF_POSITION) {
		x->graph = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)G);
		x->step = (react_step_t)gsl_rng_uniform_int(rng, (unsigned long)p->nsteps + 1);
		size_t k = react_equiv_members(eq, x->graph, x->step, a, mem);
		if (k < 2)
			return 0;
		react_rank_t b;
		do
			b = mem[gsl_rng_uniform_int(rng, (unsigned long)k)];
		while (b == a);
		x->y = b;
		return in_vertex(p, x->graph, x->step, a) || in_vertex(p, x->graph, x->step, b);
	}
	if (kind == REACT_XF_CHUNK)
		x->graph = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)G);
	react_rank_t b = (react_rank_t)gsl_rng_uniform_int(rng, (unsigned long)n - 1);
	x->y = b >= a ? b + 1 : b;
	return 1;
}

static react_status_t local_search(octx_t *c)
{
	react_status_t st = REACT_OK;
	const react_oracle_opts_t *o = c->o;
	const react_pattern_t *base = c->cur[c->job];
	int32_t n = base->nranks, nhot = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	react_rank_t *hot = NULL, *mem = malloc((size_t)n * sizeof *mem);
	react_rank_t *perm = malloc((size_t)n * sizeof *perm);
	react_pattern_t *p = NULL;
	react_equiv_t *eq = NULL;
	if (!rng || !mem || !perm) {
		st = REACT_ENOMEM;
		goto done;
	}
	gsl_rng_set(rng, (unsigned long)((o->seed + (uint64_t)c->job) ^
	                                 ((o->seed + (uint64_t)c->job) >> 32)));
	if ((st = hot_ranks(c, &hot, &nhot)) != REACT_OK)
		goto done;
	c->pg.stage = "local";
	c->pg.done = 0;
	c->pg.total = (uint64_t)o->local_evals;
	progress(c);
	int64_t left = o->local_evals;
	for (int32_t s = 0; s < o->local_starts && left > 0; s++) {
		int64_t share = left / (o->local_starts - s), since = 0, moves = 0;
		double score, gbps;
		react_pattern_destroy(p);
		p = NULL;
		if ((st = react_pattern_clone(base, &p)) != REACT_OK)
			goto done;
		if (s == 0) {
			score = c->cur_score;
			gbps = c->cur_gbps[c->job];
		} else {
			for (int32_t r = 0; r < n; r++)
				perm[r] = r;
			gsl_ran_shuffle(rng, perm, (size_t)n, sizeof *perm);
			c->st->permutations++;
			c->st->candidates++;
			if ((st = react_pattern_permute(p, perm)) != REACT_OK)
				goto done;
			if (!passes(c, p))
				continue;
			uint64_t before = c->st->full_evals;
			if ((st = eval_full(c, p, &score, &gbps)) != REACT_OK)
				goto done;
			if (c->st->full_evals != before) {
				share--;
				left--;
			}
			note_best(c, p, score, gbps, REACT_ORACLE_PERMUTATION, 0, &st);
			if (st != REACT_OK)
				goto done;
			if (gbps > c->oj->perm_best_gbps)
				c->oj->perm_best_gbps = gbps;
		}
		react_equiv_destroy(eq);
		eq = NULL;
		if (n <= o->equiv_max_ranks && react_equiv_fast(p, &eq) != REACT_OK)
			eq = NULL;
		/* sampled first improvement; attempts bounded so that a job with few
		 * valid moves ends */
		int64_t attempts = 0;
		while (share > 0 && since < o->local_patience && attempts < 50 * o->local_evals + 1000) {
			react_xform_t x;
			react_pattern_t *q = NULL;
			attempts++;
			if (!sample_move(rng, p, eq, hot, nhot, mem, &x))
				continue;
			if ((st = try_move(c, p, &x, &q)) != REACT_OK)
				goto done;
			if (!q)
				continue;
			double s2, g2;
			uint64_t before = c->st->full_evals;
			if ((st = eval_full(c, q, &s2, &g2)) != REACT_OK) {
				react_pattern_destroy(q);
				goto done;
			}
			if (c->st->full_evals != before) {
				share--;
				left--;
			}
			if (s2 > score) {
				react_pattern_destroy(p);
				p = q;
				score = s2;
				gbps = g2;
				moves++;
				since = 0;
				note_best(c, p, score, gbps, REACT_ORACLE_CLIMB, moves, &st);
				if (st != REACT_OK)
					goto done;
				react_equiv_destroy(eq);
				eq = NULL;
				if (n <= o->equiv_max_ranks && react_equiv_fast(p, &eq) != REACT_OK)
					eq = NULL;
			} else {
				react_pattern_destroy(q);
				since++;
			}
		}
	}
done:
	react_equiv_destroy(eq);
	react_pattern_destroy(p);
	gsl_rng_free(rng);
	free(hot);
	free(mem);
	free(perm);
	return st;
}

/* ---- one job's search, with the others fixed ---- */

static react_status_t search_job(octx_t *c, int32_t j, react_oracle_job_t *oj)
{
	react_status_t st;
	const react_pattern_t *base = c->cur[j];
	start_t *starts = NULL;
	int32_t nstarts = 0;
	c->job = j;
	c->oj = oj;
	c->pg.job = j;
	c->pg.base_gbps = c->base_full[j];
	c->pg.best_gbps = c->cur_gbps[j];
	c->best = NULL;
	c->best_score = -INFINITY;
	if ((st = react_checker_create(base->nranks, base->nchunks, &c->ck)) != REACT_OK)
		return st;
	if (!(c->seqbuf = malloc((2 * base->nflows + 1) * sizeof *c->seqbuf))) {
		st = REACT_ENOMEM;
		goto done;
	}
	/* the current state is known: the first memo entry and the first best */
	{
		size_t n = host_seq(c, base);
		if ((st = memo_put(&c->memo, seq_hash(c->seqbuf, n), c->seqbuf, n, c->cur_score,
		                   c->cur_gbps[j])) != REACT_OK)
			goto done;
		note_best(c, base, c->cur_score, c->cur_gbps[j], oj->origin, oj->climb_moves, &st);
		if (st != REACT_OK)
			goto done;
	}
	if (c->fin_in) {
		/* the proxy search's finalists of this job, on this backend */
		const finals_t *f = &c->fin_in[j];
		c->pg.stage = "finalists";
		c->pg.done = 0;
		c->pg.total = (uint64_t)f->n;
		progress(c);
		for (int32_t k = 0; k < f->n; k++) {
			double sc, g;
			if (!passes(c, f->p[k])) {
				snprintf(c->err, c->errlen, "oracle: bug: a finalist of the proxy search fails "
				         "the check");
				st = REACT_ESEMANTIC;
				goto done;
			}
			if ((st = eval_full(c, f->p[k], &sc, &g)) != REACT_OK)
				goto done;
			note_best(c, f->p[k], sc, g, REACT_ORACLE_PROXY, 0, &st);
			if (st != REACT_OK)
				goto done;
		}
	} else if (base->nranks <= c->o->exhaustive_max_ranks) {
		if ((st = exhaustive(c, &starts, &nstarts)) != REACT_OK)
			goto done;
		int64_t budget = c->o->climb_evals;
		if (c->climb_many)
			budget = budget > INT64_MAX / c->o->climb_many ? INT64_MAX
			                                                : budget * c->o->climb_many;
		c->pg.stage = "climb";
		c->pg.done = 0;
		c->pg.total = (uint64_t)budget;
		progress(c);
		int32_t top = -1;
		int64_t *smoves = calloc((size_t)nstarts + 1, sizeof *smoves);
		if (!smoves) {
			st = REACT_ENOMEM;
			goto done;
		}
		/* the best permutation, each chunk graph permuted on its own */
		if (nstarts > 0) {
			if ((st = graph_stage(c, &starts[0], &budget, &smoves[0])) != REACT_OK) {
				free(smoves);
				goto done;
			}
			if (smoves[0])
				note_best(c, starts[0].p, starts[0].score, starts[0].gbps, REACT_ORACLE_CLIMB,
				          smoves[0], &st);
			if (st != REACT_OK) {
				free(smoves);
				goto done;
			}
			c->pg.stage = "climb";
		}
		for (int32_t s = 0; s < nstarts && s < c->o->climb_starts && budget > 0; s++) {
			if ((st = climb(c, &starts[s].p, &starts[s].score, &starts[s].gbps, &budget,
			                &smoves[s])) != REACT_OK)
				break;
			if (smoves[s])
				note_best(c, starts[s].p, starts[s].score, starts[s].gbps, REACT_ORACLE_CLIMB,
				          smoves[s], &st);
			if (st != REACT_OK)
				break;
			if (top < 0 || starts[s].score > starts[top].score)
				top = s;
		}
		/* from the best local optimum: compound moves, each followed by a climb */
		while (st == REACT_OK && top >= 0 && c->o->pair_keep > 0 && budget > 0) {
			int improved = 0;
			int64_t moves = 0;
			start_t *b = &starts[top];
			if ((st = pair_step(c, &b->p, &b->score, &b->gbps, &budget, &improved)) != REACT_OK ||
			    !improved)
				break;
			c->pg.stage = "climb";
			if ((st = climb(c, &b->p, &b->score, &b->gbps, &budget, &moves)) != REACT_OK)
				break;
			smoves[top] += 2 + moves;
			note_best(c, b->p, b->score, b->gbps, REACT_ORACLE_CLIMB, smoves[top], &st);
		}
		free(smoves);
		if (st != REACT_OK)
			goto done;
	} else {
		if ((st = local_search(c)) != REACT_OK)
			goto done;
	}
	/* adopt the best when it beats the current state */
	if (c->best_score > c->cur_score) {
		react_pattern_destroy(c->owned[j]);
		c->owned[j] = c->best;
		c->cur[j] = c->best;
		c->best = NULL;
		c->cur_score = c->best_score;
		c->cur_gbps[j] = c->best_gbps;
		oj->origin = c->best_origin;
		oj->climb_moves = c->best_moves;
	}
done:
	for (int32_t i = 0; starts && i < nstarts; i++)
		react_pattern_destroy(starts[i].p);
	free(starts);
	react_pattern_destroy(c->best);
	c->best = NULL;
	react_checker_destroy(c->ck);
	c->ck = NULL;
	free(c->seqbuf);
	c->seqbuf = NULL;
	memo_clear(&c->memo);
	return st;
}

static react_status_t search_impl(const react_backend_ops_t *be, const react_config_t *cfg,
                                  const react_oracle_opts_t *opts, int32_t collect,
                                  finals_t **fin_out, const finals_t *fin_in,
                                  react_oracle_result_t **out, char *err, size_t errlen);

react_status_t react_oracle_search(const react_backend_ops_t *be, const react_config_t *cfg,
                                   const react_oracle_opts_t *opts, react_oracle_result_t **out,
                                   char *err, size_t errlen)
{
	react_oracle_opts_t dflt;
	*out = NULL;
	if (!opts) {
		react_oracle_opts_default(&dflt);
		opts = &dflt;
	}
	if (!be || !cfg || cfg->run.njobs < 1) {
		snprintf(err, errlen, "oracle: expected a backend and a configuration with jobs");
		return REACT_EINVAL;
	}
	if (opts->keep < 1 || opts->screen_epochs < 1 || opts->rounds < 1 || opts->local_starts < 1 ||
	    opts->local_patience < 1 || opts->climb_starts < 0 || opts->climb_evals < 0 ||
	    opts->climb_many < 1 || opts->local_evals < 0 || opts->exhaustive_max_ranks > 10 ||
	    opts->pair_keep < 0 || opts->pair_screens < 1 || opts->proxy < 0 || opts->proxy > 2 ||
	    opts->proxy_keep < 1) {
		snprintf(err, errlen, "oracle: options out of range (see react/oracle.h)");
		return REACT_EINVAL;
	}
	const react_backend_ops_t *pbe = opts->proxy == REACT_ORACLE_PROXY_FLOW ? &react_backend_flow
	                                 : opts->proxy == REACT_ORACLE_PROXY_DCTCP
	                                     ? &react_backend_dctcp
	                                     : NULL;
	if (!pbe || pbe == be)
		return search_impl(be, cfg, opts, 0, NULL, NULL, out, err, errlen);
	/* search on the proxy, keeping every job's best distinct patterns; then
	 * run those on be and take the best (the generated pattern among them) */
	finals_t *fin = NULL;
	react_oracle_result_t *pr = NULL;
	react_status_t st = search_impl(pbe, cfg, opts, opts->proxy_keep, &fin, NULL, &pr, err,
	                                errlen);
	if (st != REACT_OK)
		return st;
	st = search_impl(be, cfg, opts, 0, NULL, fin, out, err, errlen);
	if (st == REACT_OK) {
		react_oracle_stats_t *a = &(*out)->stats;
		const react_oracle_stats_t *b = &pr->stats;
		a->permutations += b->permutations;
		a->candidates += b->candidates;
		a->rejected += b->rejected;
		a->unchanged += b->unchanged;
		a->duplicates += b->duplicates;
		a->proxy_screen_evals = b->screen_evals;
		a->proxy_full_evals = b->full_evals;
		a->build_s += b->build_s;
		a->check_s += b->check_s;
		a->proxy_s = b->total_s;
		a->total_s += b->total_s;
		for (int32_t j = 0; j < (*out)->njobs; j++) {
			(*out)->jobs[j].screen_best_gbps = pr->jobs[j].screen_best_gbps;
			(*out)->jobs[j].perm_best_gbps = pr->jobs[j].perm_best_gbps;
		}
	}
	finals_free(fin, cfg->run.njobs);
	react_oracle_result_destroy(pr);
	return st;
}

void react_oracle_result_destroy(react_oracle_result_t *r)
{
	if (!r)
		return;
	for (int32_t j = 0; r->jobs && j < r->njobs; j++)
		react_pattern_destroy(r->jobs[j].best);
	free(r->jobs);
	react_drive_result_destroy(r->baseline);
	react_drive_result_destroy(r->final);
	free(r);
}

/* The search on be.  collect > 0: keep every job's `collect` best distinct
 * full-length patterns in *fin_out (a proxy search); fin_in: evaluate only
 * those (finalist mode, one round). */
static react_status_t search_impl(const react_backend_ops_t *be, const react_config_t *cfg,
                                  const react_oracle_opts_t *opts, int32_t collect,
                                  finals_t **fin_out, const finals_t *fin_in,
                                  react_oracle_result_t **out, char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	react_oracle_result_t *res = NULL;
	octx_t c;
	double t0 = now_s();
	char e[1024];

	*out = NULL;
	memset(&c, 0, sizeof c);
	c.tgraph = -1;
	int32_t nj = cfg->run.njobs;
	c.collect = collect;
	c.fin_in = fin_in;
	if (collect && !(c.fin = calloc((size_t)nj, sizeof *c.fin)))
		return REACT_ENOMEM;
	c.be = be;
	c.cfg = cfg;
	c.o = opts;
	c.err = err;
	c.errlen = errlen;
	c.njobs = nj;
	if (!(res = calloc(1, sizeof *res)) || !(res->jobs = calloc((size_t)nj, sizeof *res->jobs)) ||
	    !(c.cur = calloc((size_t)nj, sizeof *c.cur)) ||
	    !(c.owned = calloc((size_t)nj, sizeof *c.owned)) ||
	    !(c.cur_gbps = calloc((size_t)nj, sizeof *c.cur_gbps)) ||
	    !(c.base_full = calloc((size_t)nj, sizeof *c.base_full)) ||
	    !(c.base_screen = calloc((size_t)nj, sizeof *c.base_screen)) ||
	    !(c.screen_jobs = calloc((size_t)nj, sizeof *c.screen_jobs))) {
		st = REACT_ENOMEM;
		goto fail;
	}
	res->njobs = nj;
	res->fingerprint = react_oracle_fingerprint(cfg, opts);
	c.climb_many = many_graphs_cfg(cfg, opts);
	c.st = &res->stats;
	c.screen_run = cfg->run;
	c.screen_run.jobs = c.screen_jobs;
	for (int32_t j = 0; j < nj; j++) {
		const react_job_cfg_t *jc = &cfg->run.jobs[j];
		c.screen_jobs[j] = *jc;
		if (c.screen_jobs[j].epochs > opts->screen_epochs)
			c.screen_jobs[j].epochs = opts->screen_epochs;
		snprintf(res->jobs[j].name, sizeof res->jobs[j].name, "%s", jc->name);
		res->jobs[j].searched = cfg->react_on[j] != 0;
		c.nsearched += cfg->react_on[j] != 0;
		/* the job's pattern: its pattern file's, else the generated one */
		if (cfg->pattern && cfg->pattern[j])
			st = react_pattern_clone(cfg->pattern[j], &c.owned[j]);
		else
			st = react_pattern_generate(jc->collective, jc->algorithm, jc->nranks,
			                            jc->message_bytes, &c.owned[j]);
		if (st != REACT_OK) {
			snprintf(err, errlen, "oracle: job '%s': no pattern for %s %s with %d ranks: %s",
			         jc->name, react_collective_name(jc->collective),
			         react_algorithm_name(jc->algorithm), (int)jc->nranks,
			         react_status_str(st));
			goto fail;
		}
		c.cur[j] = c.owned[j];
	}
	/* what depends on the topology only is made once */
	if (be->prepare && be->run_prepared && be->release &&
	    (st = be->prepare(cfg->run.topo, &c.bstate, e, sizeof e)) != REACT_OK) {
		snprintf(err, errlen, "oracle: backend %s: %s", be->name, e);
		goto fail;
	}
	/* the baseline, full length and screened */
	c.pg.stage = "baseline";
	progress(&c);
	react_drive_opts_t d;
	memset(&d, 0, sizeof d);
	d.backend_state = c.bstate;
	d.warmup = cfg->warmup;
	d.fixed = c.cur;
	if ((st = react_drive(be, &cfg->run, &d, &res->baseline, e, sizeof e)) != REACT_OK) {
		snprintf(err, errlen, "oracle: baseline: %s", e);
		goto fail;
	}
	c.st->full_evals++;
	/* the screen's reference: needed when some REACT job is searched exhaustively */
	int screened = 0;
	for (int32_t j = 0; j < nj; j++)
		screened |= cfg->react_on[j] && cfg->run.jobs[j].nranks <= opts->exhaustive_max_ranks &&
		            !opts->screen_full && !fin_in;
	react_drive_result_t *sr = NULL;
	d.warmup = NULL;
	if (screened && (st = react_drive(be, &c.screen_run, &d, &sr, e, sizeof e)) != REACT_OK) {
		snprintf(err, errlen, "oracle: baseline screen: %s", e);
		goto fail;
	}
	for (int32_t j = 0; j < nj; j++) {
		c.base_full[j] = res->baseline->jobs[j].mean_algbw_gbps;
		c.cur_gbps[j] = c.base_full[j];
		res->jobs[j].baseline_gbps = c.base_full[j];
		c.base_screen[j] = sr ? sr->jobs[j].mean_algbw_gbps : 1.0;
		if (cfg->react_on[j] && (!(c.base_full[j] > 0) || !(c.base_screen[j] > 0))) {
			snprintf(err, errlen, "oracle: job '%s': baseline algbw %g GB/s, expected > 0",
			         cfg->run.jobs[j].name, c.base_full[j]);
			st = REACT_EBACKEND;
			react_drive_result_destroy(sr);
			goto fail;
		}
	}
	if (sr)
		c.st->screen_evals++;
	react_drive_result_destroy(sr);
	c.cur_score = 1.0;

	/* coordinate search over the REACT jobs */
	for (int32_t round = 0; round < (fin_in ? 1 : opts->rounds) && c.nsearched; round++) {
		double before = c.cur_score;
		for (int32_t j = 0; j < nj; j++) {
			if (!cfg->react_on[j])
				continue;
			if ((st = search_job(&c, j, &res->jobs[j])) != REACT_OK)
				goto fail;
		}
		if (!(c.cur_score > before))
			break;
	}

	/* final run, every job on its best; every pattern checked again */
	c.pg.stage = "final";
	c.pg.done = c.pg.total = 0;
	progress(&c);
	for (int32_t j = 0; j < nj; j++) {
		react_check_result_t cr;
		react_status_t cs = react_pattern_check(c.cur[j], &cr);
		if (cs != REACT_OK) {
			snprintf(err, errlen, "oracle: bug: the best pattern of job '%s' fails the "
			         "semantic check: %s", cfg->run.jobs[j].name,
			         cs == REACT_ESEMANTIC ? cr.message : react_status_str(cs));
			st = cs == REACT_ESEMANTIC ? cs : REACT_ESEMANTIC;
			goto fail;
		}
	}
	d.warmup = cfg->warmup;
	d.fixed = c.cur;
	if ((st = react_drive(be, &cfg->run, &d, &res->final, e, sizeof e)) != REACT_OK) {
		snprintf(err, errlen, "oracle: final run: %s", e);
		goto fail;
	}
	c.st->full_evals++;
	for (int32_t j = 0; j < nj; j++) {
		react_oracle_job_t *oj = &res->jobs[j];
		oj->best = c.owned[j];
		c.owned[j] = NULL;
		oj->best_hash = react_pattern_hash(oj->best);
		oj->oracle_gbps = res->final->jobs[j].mean_algbw_gbps;
	}
	res->stats.total_s = now_s() - t0;
	*out = res;
	res = NULL;
	if (fin_out) {
		*fin_out = c.fin;
		c.fin = NULL;
	}
fail:
	finals_free(c.fin, nj);
	for (int32_t j = 0; c.owned && j < nj; j++)
		react_pattern_destroy(c.owned[j]);
	free(c.owned);
	free(c.cur);
	free(c.cur_gbps);
	free(c.base_full);
	free(c.base_screen);
	free(c.screen_jobs);
	if (c.bstate)
		be->release(c.bstate);
	react_oracle_result_destroy(res);
	return st;
}
