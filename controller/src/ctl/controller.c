/*
 * controller.c - REACT's feedback loop over batches of epochs (5.4.2).
 *
 * States: a BASE pattern G0 runs batches; at the end of a batch with
 * congestion (or a forced exploration) react_decide() may produce G1, which
 * is scheduled `apply_delay` epochs later (D: the backend's consensus
 * latency, 0 in simulation) and is then UNDER TEST.  Epochs between a
 * decision and its apply epoch still run the old pattern: their FCTs go
 * into the history, not into a batch.  G0's last batch (epoch times and
 * FCTs) is stored.
 *
 * Judging G1 (keep_rule):
 *   paper: after one batch, kept if mean(T1) (1 + tau_r) < mean(T0);
 *   welch: kept if its mean gain over G0 (every epoch G0 ran since it
 *          became the base, up to H) exceeds min_gain and a one-sided Welch
 *          bound (`confidence`, 0.8) on the gain is above 0; reverted at once
 *          if the mean gain is below min_gain; otherwise the test is extended
 *          by one batch (at most `extensions` times), then kept on its mean
 *          (undecided mean) or reverted.  early_revert: after that many
 *          epochs of a test batch, a change slower than the base's sample
 *          at early_confidence is reverted without the batch's other epochs
 *          (end_batch runs on the shorter batch).
 * A kept G1 becomes the base; the same decision looks for congestion left
 * in it.  On a revert, Algorithm 1 runs on G0 at once with G0's stored
 * batch (G1's hash and every pattern already tried from G0 excluded), so
 * the next candidate replaces G1 directly; when none passes, G0 runs again.
 *
 * E_max: a round is one batch that judged a change; E_max consecutive
 * rounds without a better pattern stop exploration, and the controller then
 * sticks to the best pattern it has observed (lowest mean epoch time over
 * a batch).  If no exploration ran for E_max batches, the next batch forces
 * one (with no congested vertex it tries the vertices of the batch-mean
 * critical path); each forced round that ends in a revert doubles the wait
 * before the next, so a settled job is left alone.  A kept change restarts
 * exploration; with keep_resets steady, one searched while no flow was
 * steadily congested (erratic congestion alone: a keep decided on a noisy
 * sample) keeps the count of failed rounds, and with it E_max's progress
 * and the escalated bar.
 * A_max: at most A_max patterns are tried from one base; then that base is
 * kept (only forced rounds try it again).
 * escalation: each failed round since the last kept change raises the
 * estimated gain a change needs, to epsilon (1 + escalation x failed
 * rounds): the estimate's marginal candidates are its least reliable, and
 * after failures they are no longer worth a batch.  escalation_delay: a
 * failed try runs L epochs before its first look (early_revert) and D
 * more before its revert applies, so each failed round weighs
 * 1 + escalation_delay x D / L (1 at D = 0).  With fruitless > 0
 * each search from the base that found nothing counts as that fraction
 * of a failed round too (0: not at all).
 * search_backoff (doubling): a search from a base that finds nothing is
 * followed by 1, 2, 4, ... congested batches without one (reset when the
 * base changes, or when a flow is found steadily congested that was not
 * congested since the backoff began: new congestion is searched at once;
 * erratic flags come and go too often to count), so a job whose
 * congestion nothing relieves is not searched every batch, each time with
 * slightly different history.  fruitless_stop (2): once that many
 * searches from a base found nothing, the wait lasts until one of those
 * ends; the batches it holds back do not count toward a forced round.
 * K_t grows by trials_growth after every batch that ran a search.
 * Without detected congestion nothing is searched except by the forced
 * rule, so an uncongested job keeps its pattern.
 * shift: a batch on the base whose mean epoch time is more than `shift`
 * away from the base's sample (the pool), significantly at 0.99 (Welch),
 * means the network changed under the job (congestion that starts, ends
 * or moves): every sample, rejection, failed round and best-observed time
 * was measured on another network.  The loop starts afresh from the base:
 * its sample becomes the batch's epochs from the first one on the new
 * level, rejections, attempts, failed rounds and backoff are cleared, and
 * with shift_history forget the FCT history keeps only those epochs (the
 * learned rates blame an endpoint only when all its records are slow, so
 * records from before a load hide it for H epochs).  Judged batches are
 * not tested: a kept pattern's first batch is the winner of a selection.
 * A reverted G1 that ran more than `shift` slower than the base's sample
 * is either a bad candidate or the first sight of a changed network: the
 * base runs one batch (no next candidate at once, no move to the best
 * pattern), so that the shift test can tell; if the network did not
 * change, the loop goes on from that batch.
 * return_after (R): congestion that ends leaves the job on a pattern chosen
 * for it, and the estimate, learned from that pattern's flows, cannot see
 * what the job's own pattern would do now (on the flow backend it puts it
 * 2-3 % behind where it runs 5 % ahead).  After R batches in a row with
 * steadily congested flows, then R base batches in a row without (and R
 * batches in the base's sample), a base other than the job's own pattern
 * tries that pattern once: it is kept unless its mean epoch time is above
 * the base's sample's (no margin: it is the pattern the job would run
 * without REACT), and its revert is not a failed round.  A new spell of R steady
 * batches allows the next try.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "react/check.h"
#include "react/controller.h"
#include "react/decide.h"
#include "react/detect.h"
#include "react/equiv.h"

/* idle_wait of a base searched in vain fruitless_stop times: no search
 * until the backoff's own ends (the base changes, new steady congestion,
 * the loop afresh) */
#define IDLE_STOPPED INT_MAX

typedef struct seg {
	int64_t apply;
	const react_pattern_t *pat;
} seg_t;

struct react_ctl {
	react_params_t p;
	int trials;
	gsl_rng *rng;
	react_checker_t *ck;
	react_history_t *hist;
	int ring;               /* the job's own pattern is a ring (estimator auto) */
	int searched_est;       /* estimator auto: the estimator of this batch's search
	                         * (REACT_EST_*), -1 when none ran */
	FILE *log;

	react_pattern_t **pats; /* every pattern ever handed out */
	size_t npats, cappats;
	seg_t *segs;
	size_t nsegs, capsegs;

	const react_pattern_t *base;     /* G0 */
	double *base_fct;                /* G0's last batch: B x F FCTs */
	double *base_times;              /* its epoch times (B) */
	int base_n;
	double *pool;                    /* G0's epoch times since it became the base,
	                                  * the last H at most (the welch rule's sample) */
	double *sorted;                  /* scratch of the pool's size */
	int npool;
	const react_pattern_t *test;     /* G1 under test, or NULL */
	double *test_times;              /* G1's epoch times over its batches */
	int test_n, test_ext;            /* samples, extensions used */
	double test_est_gain;            /* the estimate's gain of G1 over G0 */
	int test_forced;                 /* G1 came from a forced round */
	const react_pattern_t *best;     /* best pattern observed, and its mean time */
	double best_T;
	int force_after;                 /* quiet batches before a forced round */
	int probing;                     /* the base runs after a revert that shift_suspect flagged */
	int steady_run, spell, calm;     /* return_after: batches in a row with steady congestion,
	                                  * R of them seen since the last try, base batches in a
	                                  * row without */
	int test_return;                 /* G1 is the job's own pattern, tried by return_after */
	react_equiv_t *equiv;            /* of `base`, lazily */
	const react_pattern_t *equiv_of;
	int equiv_tried;
	uint64_t *rej;
	size_t nrej, caprej;
	int attempts;                    /* patterns tried from base */
	int failed_rounds, quiet_rounds, exploring;
	int free_next;                   /* the last failed round was free: the next
	                                  * search does not count it (explore_free) */
	int free_left;                   /* explore_free: free failures left until a shift */
	int bar_rounds;                  /* the failed rounds the last escalated bar counted */
	int bar_fruitless;               /* and the fruitless searches it counted (fruitless > 0) */
	int test_explores;               /* G1 runs flows on pairs the history never measured,
	                                  * and was searched under steady congestion */
	int test_steady;                 /* G1 was searched while some flow was steadily
	                                  * congested, or is the job's own pattern again */
	int idle_wait, idle_left;        /* search_backoff: batches without a search */
	int fruitless;                   /* searches from this base that found nothing */
	unsigned char *seen;             /* flows found congested since the backoff began */

	int64_t next_epoch, batch_open;
	int nb;
	double *bfct;                    /* B x F */
	double *btime;
	react_cong_t *cong;
	size_t F;
	int64_t nbatch;
	react_ctl_stats_t st;
};

static react_status_t keep_pattern(react_ctl_t *c, react_pattern_t *p)
{
	if (c->npats == c->cappats) {
		size_t n = c->cappats ? 2 * c->cappats : 8;
		react_pattern_t **np = realloc(c->pats, n * sizeof *np);
		if (!np)
			return REACT_ENOMEM;
		c->pats = np;
		c->cappats = n;
	}
	c->pats[c->npats++] = p;
	return REACT_OK;
}

static react_status_t schedule(react_ctl_t *c, int64_t apply, const react_pattern_t *p)
{
	if (c->nsegs == c->capsegs) {
		size_t n = c->capsegs ? 2 * c->capsegs : 8;
		seg_t *ns = realloc(c->segs, n * sizeof *ns);
		if (!ns)
			return REACT_ENOMEM;
		c->segs = ns;
		c->capsegs = n;
	}
	c->segs[c->nsegs].apply = apply;
	c->segs[c->nsegs].pat = p;
	c->nsegs++;
	return REACT_OK;
}

/* The estimator `est` names for this job now: auto resolved by its own
 * pattern's shape and the congestion of the batch in c->cong, any other as
 * it is. */
static int estimator_for(const react_ctl_t *c, int est)
{
	return react_estimator_resolve(est, c->ring, c->cong, c->F, c->p.ring_steady);
}

react_status_t react_ctl_create(const react_pattern_t *initial, const react_params_t *params,
                                react_ctl_t **out)
{
	react_status_t st;
	react_ctl_t *c = NULL;
	react_pattern_t *g0 = NULL;
	char why[256];
	int B;

	if (!initial || !params || !out)
		return REACT_EINVAL;
	*out = NULL;
	if ((st = react_params_validate(params, why, sizeof why)) != REACT_OK)
		return st;
	c = calloc(1, sizeof *c);
	if (!c)
		return REACT_ENOMEM;
	c->p = *params;
	c->trials = params->trials;
	c->exploring = 1;
	B = params->batch_epochs;
	c->F = initial->nflows;
	if ((st = react_checker_create(initial->nranks, initial->nchunks, &c->ck)) != REACT_OK)
		goto fail;
	if ((st = react_checker_run(c->ck, initial, NULL)) != REACT_OK)
		goto fail;
	if ((st = react_history_create(initial->nranks, params->history_epochs, &c->hist)) != REACT_OK)
		goto fail;
	/* estimator auto: resolved at each search, on the job's own pattern's
	 * shape and the congestion then */
	c->ring = react_pattern_is_ring(initial);
	c->searched_est = -1;
	c->rng = gsl_rng_alloc(gsl_rng_mt19937);
	c->bfct = malloc((size_t)B * (c->F ? c->F : 1) * sizeof *c->bfct);
	c->btime = malloc((size_t)B * sizeof *c->btime);
	c->cong = calloc(c->F ? c->F : 1, sizeof *c->cong);
	c->seen = calloc(c->F ? c->F : 1, 1);
	c->base_fct = malloc((size_t)B * (c->F ? c->F : 1) * sizeof *c->base_fct);
	c->base_times = malloc((size_t)B * sizeof *c->base_times);
	size_t npool = (size_t)(params->history_epochs > B * (params->extensions + 1)
	                            ? params->history_epochs
	                            : B * (params->extensions + 1));
	c->pool = malloc(npool * sizeof *c->pool);
	c->sorted = malloc(npool * sizeof *c->sorted);
	c->test_times = malloc((size_t)B * (size_t)(params->extensions + 1) * sizeof *c->test_times);
	c->force_after = params->explore_rounds;
	c->free_left = params->explore_free;
	if (!c->rng || !c->bfct || !c->btime || !c->cong || !c->seen || !c->base_fct || !c->base_times || !c->pool ||
	    !c->sorted || !c->test_times) {
		st = REACT_ENOMEM;
		goto fail;
	}
	gsl_rng_set(c->rng, (unsigned long)(params->seed ^ (params->seed >> 32)));
	if ((st = react_pattern_clone(initial, &g0)) != REACT_OK)
		goto fail;
	if ((st = keep_pattern(c, g0)) != REACT_OK) {
		react_pattern_destroy(g0);
		goto fail;
	}
	if ((st = schedule(c, INT64_MIN, g0)) != REACT_OK)
		goto fail;
	c->base = g0;
	*out = c;
	return REACT_OK;
fail:
	react_ctl_destroy(c);
	return st;
}

void react_ctl_destroy(react_ctl_t *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->npats; i++)
		react_pattern_destroy(c->pats[i]);
	free(c->pats);
	free(c->segs);
	free(c->rej);
	free(c->bfct);
	free(c->btime);
	free(c->cong);
	free(c->seen);
	free(c->base_fct);
	free(c->base_times);
	free(c->pool);
	free(c->sorted);
	free(c->test_times);
	react_equiv_destroy(c->equiv);
	react_history_destroy(c->hist);
	react_checker_destroy(c->ck);
	if (c->rng)
		gsl_rng_free(c->rng);
	free(c);
}

const react_pattern_t *react_ctl_pattern_for(const react_ctl_t *c, int64_t epoch)
{
	if (!c || !c->nsegs)
		return NULL;
	for (size_t i = c->nsegs; i-- > 0;)
		if (c->segs[i].apply <= epoch)
			return c->segs[i].pat;
	return c->segs[0].pat;
}

void react_ctl_set_log(react_ctl_t *c, FILE *f)
{
	if (c)
		c->log = f;
}

void react_ctl_stats(const react_ctl_t *c, react_ctl_stats_t *out)
{
	if (c && out)
		*out = c->st;
}

static react_status_t add_rejected(react_ctl_t *c, uint64_t h)
{
	if (c->nrej == c->caprej) {
		size_t n = c->caprej ? 2 * c->caprej : 8;
		uint64_t *r = realloc(c->rej, n * sizeof *r);
		if (!r)
			return REACT_ENOMEM;
		c->rej = r;
		c->caprej = n;
	}
	c->rej[c->nrej++] = h;
	return REACT_OK;
}

static void set_base(react_ctl_t *c, const react_pattern_t *p)
{
	c->base = p;
	c->nrej = 0;
	c->attempts = 0;
	c->idle_wait = c->idle_left = 0;
	c->fruitless = 0;
}

/* A search from the base found nothing (the base's batch, or the base
 * right after a revert, c->cong its verdicts): it counts toward
 * fruitless_stop, and the base batch's (backoff) starts or doubles the
 * search backoff; at fruitless_stop the wait lasts until the base changes,
 * new steady congestion appears or the loop starts afresh. */
static void note_fruitless(react_ctl_t *c, int backoff)
{
	int stop;
	c->fruitless++;
	stop = c->p.fruitless_stop > 0 && c->fruitless >= c->p.fruitless_stop;
	if (!stop && !(backoff && c->p.search_backoff == REACT_BACKOFF_DOUBLING))
		return;
	if (c->idle_wait == 0)
		for (size_t f = 0; f < c->F; f++)
			c->seen[f] = c->cong[f] != REACT_CONG_NONE;
	c->idle_wait = stop ? IDLE_STOPPED : c->idle_wait ? 2 * c->idle_wait : 1;
	c->idle_left = c->idle_wait;
}

/* escalation_delay: a failed try runs L epochs before its first look
 * (early_revert, else the batch) and D more before its revert applies;
 * each failed round weighs (L + D) / L at escalation_delay 1 */
static double delay_factor(const react_ctl_t *c)
{
	int L = c->p.early_revert > 0 && c->p.early_revert < c->p.batch_epochs ? c->p.early_revert
	                                                                       : c->p.batch_epochs;
	return 1.0 + c->p.escalation_delay * c->p.apply_delay / L;
}

/* "the best estimated gain is below BAR (epsilon escalated after ...)",
 * the log's reason when the escalated bar dropped the search's pattern,
 * appended to why */
static void bar_why(const react_ctl_t *c, double bar, char *why, size_t n)
{
	char more[96] = "";
	size_t at = strlen(why);
	double f = delay_factor(c);
	if (c->bar_fruitless > 0)
		snprintf(more, sizeof more, " and %d fruitless search%s", c->bar_fruitless,
		         c->bar_fruitless > 1 ? "es" : "");
	if (f > 1.0) {
		size_t k = strlen(more);
		snprintf(more + k, sizeof more - k, ", the rounds x %.3g for D = %d", f, c->p.apply_delay);
	}
	snprintf(why + at, n - at,
	         "the best estimated gain is below %.4g (epsilon escalated after %d failed rounds%s)",
	         bar, c->bar_rounds, more);
}

typedef struct judged {
	int valid;
	double est_gain, obs_gain;  /* of the change judged: 1 - T1 / T0 */
	double lo, hi;              /* welch: one-sided bounds on the gain */
} judged_t;

static void log_batch(react_ctl_t *c, int64_t epoch, const react_pattern_t *ran, double meanT,
                      const react_decide_out_t *dout, const char *action, int kept,
                      const judged_t *jg, const char *why)
{
	FILE *f = c->log;
	int first = 1;
	if (!f)
		return;
	fprintf(f, "{\"epoch\":%lld,\"batch\":%lld,\"pattern_hash\":\"%016llx\",\"mean_epoch_time\":%.9g,"
	        "\"congested\":[",
	        (long long)epoch, (long long)c->nbatch, (unsigned long long)react_pattern_hash(ran), meanT);
	for (size_t i = 0; i < c->F; i++) {
		if (c->cong[i] == REACT_CONG_NONE)
			continue;
		fprintf(f, "%s{\"flow\":%zu,\"src\":%d,\"dst\":%d,\"step\":%d,\"type\":\"%s\"}", first ? "" : ",",
		        i, (int)ran->flows[i].src, (int)ran->flows[i].dst, (int)ran->flows[i].step,
		        react_cong_name(c->cong[i]));
		first = 0;
	}
	fputs("],\"candidates\":[", f);
	for (size_t i = 0; dout && i < dout->ncands; i++) {
		const react_candidate_log_t *cl = &dout->cands[i];
		fprintf(f, "%s{\"transform\":\"%s\",\"node\":[%d,%d],\"with\":%d,\"graph\":%d,"
		        "\"est_gain\":%.9g,\"accepted\":%s}",
		        i ? "," : "", react_xform_kind_name(cl->xf.kind), (int)cl->xf.step, (int)cl->xf.x,
		        (int)cl->xf.y, (int)cl->xf.graph, cl->est_gain, cl->accepted ? "true" : "false");
	}
	fprintf(f, "],\"action\":\"%s\",\"kept\":%s", action, kept ? "true" : "false");
	if (jg && jg->valid) {
		if (isfinite(jg->est_gain))
			fprintf(f, ",\"change_est_gain\":%.9g", jg->est_gain);
		fprintf(f, ",\"change_obs_gain\":%.9g", jg->obs_gain);
		if (c->p.keep_rule == REACT_KEEP_WELCH)
			fprintf(f, ",\"gain_bounds\":[%.9g,%.9g]", jg->lo, jg->hi);
	}
	if (dout && dout->g1)
		fprintf(f, ",\"next_est_gain\":%.9g", dout->est_gain);
	if (c->searched_est >= 0)
		fprintf(f, ",\"estimator\":\"%s\"",
		        c->searched_est == REACT_EST_FLUID ? "fluid" : "overlap");
	fprintf(f, ",\"why\":\"%s\"}\n", why);
	fflush(f);
}

static void pool_add(react_ctl_t *c, const double *t, int n)
{
	int cap = c->p.history_epochs > c->p.batch_epochs * (c->p.extensions + 1)
	              ? c->p.history_epochs
	              : c->p.batch_epochs * (c->p.extensions + 1);
	for (int i = 0; i < n; i++) {
		if (c->npool == cap) {
			memmove(c->pool, c->pool + 1, (size_t)(cap - 1) * sizeof *c->pool);
			c->npool--;
		}
		c->pool[c->npool++] = t[i];
	}
}

/* Welch's t quantile at `conf` for samples of variances v0, v1 and sizes
 * n0, n1; *se their standard error (0: both samples constant, t 0) */
static double welch_t(double v0, int n0, double v1, int n1, double conf, double *se)
{
	double a = v0 / n0, b = v1 / n1, df, den;
	*se = sqrt(a + b);
	if (!(*se > 0))
		return 0;
	den = (n0 > 1 ? a * a / (n0 - 1) : 0) + (n1 > 1 ? b * b / (n1 - 1) : 0);
	df = den > 0 ? (a + b) * (a + b) / den : 1.0;
	return gsl_cdf_tdist_Pinv(conf, df < 1.0 ? 1.0 : df);
}

/* The shift rule's measure (params.shift > 0): the n epoch times x have a
 * mean more than `shift` away from the base's sample (the pool), and the
 * difference is significant at 0.99 (Welch).  Returns +1 (slower) or -1
 * (faster) with *p0 and *m the two means, 0 when neither. */
#define SHIFT_CONFIDENCE 0.99
static int beyond_shift(const react_ctl_t *c, const double *x, int n, double *p0, double *m)
{
	double v0, v1, se, t;
	if (!(c->p.shift > 0) || c->npool < 1 || n < 1)
		return 0;
	*p0 = gsl_stats_mean(c->pool, 1, (size_t)c->npool);
	*m = gsl_stats_mean(x, 1, (size_t)n);
	if (!(*p0 > 0) || !(fabs(*m - *p0) > c->p.shift * *p0))
		return 0;
	v0 = c->npool > 1 ? gsl_stats_variance_m(c->pool, 1, (size_t)c->npool, *p0) : 0;
	v1 = n > 1 ? gsl_stats_variance_m(x, 1, (size_t)n, *m) : 0;
	t = welch_t(v0, c->npool, v1, n, SHIFT_CONFIDENCE, &se);
	if (fabs(*m - *p0) <= t * se)
		return 0;
	return *m > *p0 ? 1 : -1;
}

/* A change of the network seen on the base: the batch that just ran on
 * the base is beyond the shift rule's measure (and the pool holds at least
 * a batch), or its last epochs are, at least half the batch, each more than
 * `shift` from the pool's mean on the same side (a change inside the batch:
 * the whole batch's mean, half old and half new, is often not significant,
 * and the search that follows would be judged against the old network's
 * sample).  Returns the first epoch of the batch on the new level (the
 * first nearer the batch's mean than the pool's, or the first of those last
 * epochs), or -1 when nothing changed. */
static int shift_point_mean(const react_ctl_t *c, double *from, double *to)
{
	int B = c->p.batch_epochs;
	double p0, m;
	if (c->npool < B)
		return -1;
	if (!beyond_shift(c, c->btime, B, &p0, &m)) {
		/* a change inside the batch: its last epochs, at least half of
		 * them, each more than `shift` away from the pool on one side,
		 * beyond the measure on their own */
		int j = B, dir = 0, need = (B + 1) / 2 < 2 ? 2 : (B + 1) / 2;
		if (!(c->p.shift > 0))
			return -1;
		p0 = gsl_stats_mean(c->pool, 1, (size_t)c->npool);
		while (j > 0) {
			double d = c->btime[j - 1] - p0;
			int sgn = d > c->p.shift * p0 ? 1 : d < -c->p.shift * p0 ? -1 : 0;
			if (!sgn || (dir && sgn != dir))
				break;
			dir = sgn;
			j--;
		}
		if (B - j < need || beyond_shift(c, c->btime + j, B - j, &p0, &m) != dir)
			return -1;
		*from = p0;
		*to = m;
		return j;
	}
	*from = p0;
	for (int j = 0; j < B; j++)
		if (m > p0 ? c->btime[j] > 0.5 * (p0 + m) : c->btime[j] < 0.5 * (p0 + m)) {
			*to = gsl_stats_mean(c->btime + j, 1, (size_t)(B - j));
			return j;
		}
	*to = m;
	return 0;
}

/* The shift rule: shift_point_mean, and with shift_test range a new level
 * outside the base's sample's range. */
#define SHIFT_RANGE_TAIL 0.1
static int shift_point(react_ctl_t *c, double *from, double *to)
{
	int j = shift_point_mean(c, from, to);
	/* shift_test range: a new level inside the range of the base's own
	 * epochs is the sample's spread (a batch of lucky ECMP draws at the
	 * floor), not a change of the network.  The range leaves out the
	 * sample's SHIFT_RANGE_TAIL fastest and slowest epochs: the first
	 * epochs of a change that the batch before did not show as one (fewer
	 * than half of it) are already in the sample */
	if (j >= 0 && c->p.shift_test == REACT_SHIFT_TEST_RANGE) {
		double lo, hi;
		memcpy(c->sorted, c->pool, (size_t)c->npool * sizeof *c->pool);
		gsl_sort(c->sorted, 1, (size_t)c->npool);
		lo = gsl_stats_quantile_from_sorted_data(c->sorted, 1, (size_t)c->npool, SHIFT_RANGE_TAIL);
		hi = gsl_stats_quantile_from_sorted_data(c->sorted, 1, (size_t)c->npool,
		                                         1.0 - SHIFT_RANGE_TAIL);
		if (*to >= lo && *to <= hi)
			return -1;
	}
	return j;
}

/* A reverted G1 whose batches ran slower than the base's sample by the
 * shift rule's measure: the loop cannot tell a bad candidate from a
 * network that changed during its test, and the next candidate would be
 * judged against the same stale sample, so the base runs again first. */
static int shift_suspect(const react_ctl_t *c)
{
	double p0, m1;
	return beyond_shift(c, c->test_times, c->test_n, &p0, &m1) > 0;
}

typedef enum { V_KEEP, V_REVERT, V_EXTEND } verdict_t;

/* return_after: relative difference of two mean epoch times below which the
 * job's own pattern counts as no slower than the base (rounding only) */
#define RETURN_TIE 1e-9

/* The job's own pattern tried by return_after needs no margin (min_gain,
 * the bound, tau_r) to come back: kept unless its observed gain over
 * `against` is negative (equal times, to rounding, keep it). */
static verdict_t return_verdict(const judged_t *jg, const char *against, char *why, size_t whylen)
{
	int slower = jg->obs_gain < -RETURN_TIE;
	snprintf(why, whylen, "the job's own pattern: %s %s (gain %.4g)",
	         slower ? "slower than" : "not slower than", against, jg->obs_gain);
	return slower ? V_REVERT : V_KEEP;
}

/* The welch rule's measure: the gain of the n epoch times x over the
 * base's sample (every epoch G0 ran since it became the base, up to H, not
 * only its last batch, so one lucky batch does not decide), 1 - mean(x) /
 * mean(sample), with its one-sided Welch bounds at `conf` in *lo, *hi
 * (all 0 when the sample's mean is not positive). */
static double welch_gain(react_ctl_t *c, const double *x, int n, double conf, double *lo,
                         double *hi)
{
	double p0, m1, v0, v1, se, t;
	if (c->npool == 0)
		pool_add(c, c->base_times, c->base_n);
	p0 = gsl_stats_mean(c->pool, 1, (size_t)c->npool);
	m1 = gsl_stats_mean(x, 1, (size_t)n);
	v0 = c->npool > 1 ? gsl_stats_variance_m(c->pool, 1, (size_t)c->npool, p0) : 0;
	v1 = n > 1 ? gsl_stats_variance_m(x, 1, (size_t)n, m1) : 0;
	t = welch_t(v0, c->npool, v1, n, conf, &se);
	*lo = p0 > 0 ? (p0 - m1 - t * se) / p0 : 0;
	*hi = p0 > 0 ? (p0 - m1 + t * se) / p0 : 0;
	return p0 > 0 ? 1.0 - m1 / p0 : 0.0;
}

/* early_revert: G1 under test has run c->nb epochs of its batch (after
 * c->test_n of earlier ones); its gain over the base's sample is below 0
 * at early_confidence, so the batch's other epochs would only confirm a
 * revert.  The job's own pattern tried by return_after too: it is kept
 * unless slower, and one clearly slower after c->nb epochs is slower (a
 * spell the base's pattern hid, not one that ended).  The paper's rule is
 * judged on whole batches. */
static int early_slower(react_ctl_t *c, const react_pattern_t *ran)
{
	double lo, hi;
	if (!c->test || ran != c->test || c->p.keep_rule != REACT_KEEP_WELCH)
		return 0;
	/* room for the whole batch: end_batch copies it there again */
	memcpy(c->test_times + c->test_n, c->btime, (size_t)c->nb * sizeof *c->test_times);
	welch_gain(c, c->test_times, c->test_n + c->nb, c->p.early_confidence, &lo, &hi);
	return hi < 0;
}

/* Judge G1 (c->test_times) against G0's stored batch. */
static verdict_t judge(react_ctl_t *c, judged_t *jg, char *why, size_t whylen)
{
	double m0 = gsl_stats_mean(c->base_times, 1, (size_t)c->base_n);
	double m1 = gsl_stats_mean(c->test_times, 1, (size_t)c->test_n);
	jg->valid = 1;
	jg->est_gain = c->test_est_gain;
	jg->obs_gain = m0 > 0 ? 1.0 - m1 / m0 : 0.0;
	jg->lo = jg->hi = jg->obs_gain;
	if (c->p.keep_rule == REACT_KEEP_PAPER) {
		if (c->test_return)
			return return_verdict(jg, "the base's batch", why, whylen);
		if (m1 * (1.0 + c->p.revert_tau) < m0) {
			snprintf(why, whylen, "observed %.9g < %.9g / (1 + tau_r)", m1, m0);
			return V_KEEP;
		}
		snprintf(why, whylen, "observed %.9g not below %.9g / (1 + tau_r)", m1, m0);
		return V_REVERT;
	}
	{
		jg->obs_gain = welch_gain(c, c->test_times, c->test_n, c->p.confidence, &jg->lo, &jg->hi);
		if (c->test_return)
			return return_verdict(jg, "the base's sample", why, whylen);
		if (jg->obs_gain > c->p.min_gain && jg->lo > 0) {
			snprintf(why, whylen, "gain %.4g > min_gain, lower bound %.4g > 0", jg->obs_gain,
			         jg->lo);
			return V_KEEP;
		}
		/* only a promising change (its mean gain above min_gain, not yet
		 * significant) earns one more batch: a change measured slower is
		 * reverted at once, so a network with nothing to gain pays little */
		/* still undecided after the extensions: the mean decides
		 * (undecided = mean), or the change goes (revert) */
		if (c->test_ext >= c->p.extensions && c->p.undecided == REACT_UNDECIDED_MEAN &&
		    jg->obs_gain > c->p.min_gain) {
			snprintf(why, whylen, "gain %.4g > min_gain, bounds [%.4g, %.4g]: kept on its mean "
			         "after %d extensions", jg->obs_gain, jg->lo, jg->hi, c->test_ext);
			return V_KEEP;
		}
		if (jg->obs_gain <= c->p.min_gain || jg->hi < c->p.min_gain ||
		    c->test_ext >= c->p.extensions) {
			snprintf(why, whylen, "gain %.4g, bounds [%.4g, %.4g]: %s", jg->obs_gain, jg->lo,
			         jg->hi, c->test_ext >= c->p.extensions ? "undecided after extensions"
			                                               : "below min_gain");
			return V_REVERT;
		}
		snprintf(why, whylen, "gain %.4g, bounds [%.4g, %.4g]: undecided, one more batch",
		         jg->obs_gain, jg->lo, jg->hi);
		return V_EXTEND;
	}
}

static void note_observed(react_ctl_t *c, const react_pattern_t *p, double T)
{
	/* the best pattern measured again keeps its latest mean */
	if (!c->best || T < c->best_T || p == c->best) {
		c->best = p;
		c->best_T = T;
	}
}

/* Some flow of the batch in c->cong is steadily congested. */
static int any_steady(const react_ctl_t *c)
{
	for (size_t f = 0; f < c->F; f++)
		if (c->cong[f] == REACT_CONG_STEADY)
			return 1;
	return 0;
}

/* G1 = g goes under test: it passes the check (every pattern handed out
 * does) and the controller keeps it; on failure the caller still owns g.
 * est_gain NAN: not the estimate's choice (return_after's try). */
static react_status_t put_under_test(react_ctl_t *c, react_pattern_t *g, double est_gain, int forced,
                                     int is_return)
{
	react_status_t st;
	if (react_checker_run(c->ck, g, NULL) != REACT_OK)
		return REACT_ESEMANTIC;
	if ((st = keep_pattern(c, g)) != REACT_OK)
		return st;
	c->test = g;
	c->test_return = is_return;
	c->test_n = 0;
	c->test_ext = 0;
	c->test_est_gain = est_gain;
	c->test_forced = forced;
	c->test_explores = 0;
	c->test_steady = 1;
	if (!is_return) {
		c->test_steady = any_steady(c);
		for (size_t i = 0; c->hist && c->test_steady && i < g->nflows && !c->test_explores; i++)
			c->test_explores = g->flows[i].src != g->flows[i].dst &&
			                   !react_history_pair(c->hist, g->flows[i].src, g->flows[i].dst, NULL);
	}
	return REACT_OK;
}

void react_decide_in_params(react_decide_in_t *in, const react_params_t *p)
{
	in->trials = p->trials;
	in->max_accepted = p->max_accepted;
	in->epsilon = p->epsilon;
	in->estimator = p->estimator;
	in->selection = p->selection;
	in->pruning = p->pruning;
	in->beam = p->beam;
	in->role_moves = p->role_moves;
	in->overlap_passes = p->overlap_passes;
	in->critical_slack = p->critical_slack;
	in->ring_steady = p->ring_steady;
	in->threads = p->search_threads;
}

/* Algorithm 1 on the base with the batch in c->base_fct (congestion in
 * c->cong).  A pattern below the escalated bar is dropped, *escalated set
 * to the bar. */
static react_status_t search(react_ctl_t *c, int forced, react_decide_out_t *dout,
                             double *escalated)
{
	react_status_t st;
	react_decide_in_t in;
	if (c->equiv_of != c->base) {
		react_equiv_destroy(c->equiv);
		c->equiv = NULL;
		st = c->base->nranks <= c->p.equiv_max_ranks ? react_equiv_fast(c->base, &c->equiv)
		                                              : REACT_EUNSUPPORTED;
		if (st == REACT_EUNSUPPORTED)
			st = REACT_OK; /* too large: no position swaps */
		if (st != REACT_OK)
			return st;
		c->equiv_of = c->base;
	}
	memset(&in, 0, sizeof in);
	in.g0 = c->base;
	in.fct = c->base_fct;
	in.B = c->base_n;
	in.cong = c->cong;
	in.equiv = c->equiv;
	react_decide_in_params(&in, &c->p);
	/* estimator auto: the rates read a ring's one-partner slowness as the
	 * endpoint's exactly when this search estimates fluid */
	in.estimator = estimator_for(c, c->p.estimator);
	if (c->p.estimator == REACT_EST_AUTO) {
		in.one_partner = in.estimator == REACT_EST_FLUID;
		c->searched_est = in.estimator;
	}
	in.trials = c->trials; /* K_t grows by trials_growth */
	in.explore_all = forced;
	in.rejected = c->rej;
	in.nrejected = c->nrej;
	in.history = c->hist;
	in.rng = c->rng;
	if ((st = react_decide(&in, dout)) != REACT_OK)
		return st;
	/* the failed rounds that raise the bar: all but a free one
	 * (explore_free) just before this search */
	int counted = c->failed_rounds - c->free_next;
	/* fruitless: each search from this base that found nothing weighs
	 * as that much of a failed round */
	double rounds = counted + c->p.fruitless * c->fruitless;
	c->free_next = 0;
	if (dout->g1 && rounds > 0) {
		double bar = c->p.epsilon * (1.0 + c->p.escalation * delay_factor(c) * rounds);
		if (dout->est_gain < bar) {
			*escalated = bar;
			c->bar_rounds = counted;
			c->bar_fruitless = c->p.fruitless > 0 ? c->fruitless : 0;
			react_pattern_destroy(dout->g1);
			dout->g1 = NULL;
		}
	}
	c->quiet_rounds = 0;
	c->trials += c->p.trials_growth;
	c->st.candidates_estimated += (int64_t)dout->ncands;
	if (dout->g1) {
		if ((st = put_under_test(c, dout->g1, dout->est_gain, forced, 0)) != REACT_OK)
			return st;
		c->attempts++;
	}
	return REACT_OK;
}

/* The base's stored batch: the batch that just ran from its epoch `from`
 * on (0: all of it), also added to the base's sample. */
static void store_base_batch(react_ctl_t *c, int from)
{
	int n = c->p.batch_epochs - from;
	memcpy(c->base_fct, c->bfct + (size_t)from * c->F, (size_t)n * c->F * sizeof *c->bfct);
	memcpy(c->base_times, c->btime + from, (size_t)n * sizeof *c->btime);
	c->base_n = n;
	pool_add(c, c->base_times, n);
}

/* A new base (a kept change, or the base on a changed network): the
 * rounds of exploration start again from it; the count of failed rounds
 * restarts unless keep_count (keep_resets steady, a change searched under
 * erratic congestion alone) */
static void explore_from(react_ctl_t *c, const react_pattern_t *p, int keep_count)
{
	set_base(c, p);
	if (!keep_count)
		c->failed_rounds = 0;
	c->free_next = 0;
	c->exploring = 1;
	c->force_after = c->p.explore_rounds;
}

/* Exploration stopped (E_max): the best pattern observed becomes the base */
static const react_pattern_t *stick_to_best(react_ctl_t *c)
{
	set_base(c, c->best);
	c->npool = 0;
	return c->best;
}

/* return_after: the batch that just ran on the base (verdicts in c->cong)
 * ends R calm batches after a spell of steady congestion, on a base that
 * is not the job's own pattern, which was not tried from it yet: the job's
 * own pattern goes under test.  *out NULL when not. */
static react_status_t try_return(react_ctl_t *c, const react_pattern_t **out)
{
	const react_pattern_t *own = c->pats[0];
	uint64_t h = react_pattern_hash(own);
	react_pattern_t *g = NULL;
	react_status_t st;
	int R = c->p.return_after;
	*out = NULL;
	if (R <= 0 || !c->spell || c->calm < R || c->npool < R * c->p.batch_epochs ||
	    react_pattern_hash(c->base) == h)
		return REACT_OK;
	for (size_t i = 0; i < c->nrej; i++)
		if (c->rej[i] == h)
			return REACT_OK;
	if ((st = react_pattern_clone(own, &g)) != REACT_OK)
		return st;
	if ((st = put_under_test(c, g, NAN, 0, 1)) != REACT_OK) {
		react_pattern_destroy(g);
		return st;
	}
	c->spell = 0;
	c->calm = 0;
	*out = g;
	return REACT_OK;
}

static react_status_t end_batch(react_ctl_t *c, int64_t epoch, const react_pattern_t *ran,
                                react_decision_t *d)
{
	react_status_t st = REACT_OK;
	react_decide_out_t dout;
	judged_t jg;
	double meanT = 0;
	size_t ncong = 0;
	/* B: this batch's epochs (fewer than batch_epochs after an early revert) */
	int B = c->nb, reverted = 0, kept = 0, forced = 0, extend = 0, shifted = 0;
	int steady = 0;
	double shift_from = 0, shift_to = 0;
	const char *action = "none";
	char why[512], jwhy[256] = "";
	double escalated = 0;
	int64_t apply = epoch + 1 + c->p.apply_delay;
	const react_pattern_t *sched = NULL;

	memset(&dout, 0, sizeof dout);
	memset(&jg, 0, sizeof jg);
	snprintf(why, sizeof why, "no congestion detected");
	for (int i = 0; i < B; i++)
		meanT += c->btime[i] / B;
	if ((st = react_detect(ran, c->bfct, B, c->p.delta1, c->p.delta2, c->cong, &ncong)) != REACT_OK)
		goto fail;
	steady = any_steady(c);
	c->steady_run = steady ? c->steady_run + 1 : 0;
	if (c->p.return_after > 0 && c->steady_run >= c->p.return_after)
		c->spell = 1;

	if (c->test && ran == c->test) {
		verdict_t v;
		memcpy(c->test_times + c->test_n, c->btime, (size_t)B * sizeof *c->btime);
		c->test_n += B;
		v = judge(c, &jg, jwhy, sizeof jwhy);
		if (B < c->p.batch_epochs)
			snprintf(jwhy + strlen(jwhy), sizeof jwhy - strlen(jwhy),
			         "; after %d of %d epochs, below 0 at %.4g (early_revert)", B,
			         c->p.batch_epochs, c->p.early_confidence);
		if (v == V_EXTEND) {
			c->test_ext++;
			extend = 1;
			action = "extend";
			snprintf(why, sizeof why, "%s", jwhy);
		} else if (v == V_KEEP) {
			action = "keep";
			kept = 1;
			snprintf(why, sizeof why, "%s", jwhy);
			note_observed(c, c->test, gsl_stats_mean(c->test_times, 1, (size_t)c->test_n));
			/* keep_resets steady: a change searched under erratic
			 * congestion alone (ECMP collisions, per-epoch path draws)
			 * was kept on a noisy sample; the searches after it keep the
			 * bar the failed rounds before it had raised */
			int keep_count = c->p.keep_resets == REACT_KEEP_RESETS_STEADY && !c->test_steady &&
			                 c->failed_rounds > 0;
			if (keep_count)
				snprintf(why + strlen(why), sizeof why - strlen(why),
				         "; searched with no flow steadily congested: its %d failed rounds "
				         "still count (keep_resets)", c->failed_rounds);
			explore_from(c, c->test, keep_count);
			/* the new base's sample: its test batches but the last, which
			 * store_base_batch adds below */
			c->npool = 0;
			pool_add(c, c->test_times, c->test_n - B);
			c->test = NULL;
		} else {
			action = "revert";
			snprintf(why, sizeof why, "%s", jwhy);
			note_observed(c, c->test, gsl_stats_mean(c->test_times, 1, (size_t)c->test_n));
			if ((st = add_rejected(c, react_pattern_hash(c->test))) != REACT_OK)
				goto fail;
			if (!c->test_return) {
				c->failed_rounds++;
				/* explore_free: a change that ran flows on pairs never
				 * measured failed for what its batch then taught the
				 * rates; the next search (usually the one on the base
				 * right after this revert) knows them, and its bar stays.
				 * Later searches count the failure. */
				if (c->test_explores && c->free_left > 0) {
					c->free_left--;
					c->free_next = 1;
					snprintf(why + strlen(why), sizeof why - strlen(why),
					         "; its flows ran on pairs never measured: the bar stays "
					         "(explore_free)");
				}
			}
			if (c->test_forced)
				c->force_after = c->force_after > 1000000 ? c->force_after : 2 * c->force_after;
			if (c->failed_rounds >= c->p.explore_rounds)
				c->exploring = 0;
			c->test = NULL;
			sched = c->base;
			reverted = 1;
		}
	}
	if (extend) {
		/* G1 runs one more batch */
	} else if (reverted) {
		if (shift_suspect(c)) {
			/* G1 ran slower than the base's sample by more than the shift
			 * threshold: a bad candidate or a network that changed under
			 * it.  The base runs one batch, where the shift test tells */
			c->probing = 1;
			snprintf(why + strlen(why), sizeof why - strlen(why),
			         "; slower than the base's sample by more than shift: the base runs a "
			         "batch (the network may have changed)");
		} else if (c->exploring && c->attempts < c->p.max_attempts) {
			/* Algorithm 1 on G0 at once, with G0's stored batch */
			size_t nc0 = 0;
			if ((st = react_detect(c->base, c->base_fct, c->base_n, c->p.delta1, c->p.delta2,
			                       c->cong, &nc0)) != REACT_OK)
				goto fail;
			if (nc0 > 0) {
				if ((st = search(c, 0, &dout, &escalated)) != REACT_OK)
					goto fail;
				if (!dout.g1)
					note_fruitless(c, 0);
			}
			/* the log's congested list is the batch that ran (G1) */
			if ((st = react_detect(ran, c->bfct, B, c->p.delta1, c->p.delta2, c->cong, &ncong)) !=
			    REACT_OK)
				goto fail;
			if (!dout.g1 && escalated > 0) {
				snprintf(why + strlen(why), sizeof why - strlen(why), "; from the base, ");
				bar_why(c, escalated, why, sizeof why);
			}
			if (dout.g1) {
				sched = dout.g1;
				reverted = 0;
				snprintf(why + strlen(why), sizeof why - strlen(why),
				         "; reverted, the next candidate from the base under test");
				action = "revert+change";
			}
		} else if (!c->exploring && c->best && c->best != c->base) {
			sched = stick_to_best(c);
			snprintf(why + strlen(why), sizeof why - strlen(why),
			         "; exploration stopped (E_max): the best pattern observed");
			action = "revert-best";
		}
	} else {
		int cp = kept ? -1 : shift_point(c, &shift_from, &shift_to), best_now;
		if (cp >= 0) {
			/* the network changed: every sample, rejection and failure so
			 * far was measured on another network; the loop starts afresh
			 * from the base with the batch's epochs after the change */
			explore_from(c, c->base, 0);
			c->free_left = c->p.explore_free;
			c->best = NULL;
			c->quiet_rounds = 0;
			memset(c->seen, 0, c->F ? c->F : 1);
			c->npool = 0;
			store_base_batch(c, cp);
			if (c->p.shift_history == REACT_SHIFT_HIST_FORGET)
				react_history_keep_last(c->hist, c->base_n);
			if ((st = react_detect(ran, c->base_fct, c->base_n, c->p.delta1, c->p.delta2, c->cong,
			                       &ncong)) != REACT_OK)
				goto fail;
			note_observed(c, ran, shift_to);
			c->st.shifts++;
			shifted = 1;
		} else {
			store_base_batch(c, 0);
			note_observed(c, ran, meanT);
		}
		/* steady congestion gone for R base batches: the job's own pattern */
		c->calm = steady || kept ? 0 : c->calm + 1;
		if ((st = try_return(c, &sched)) != REACT_OK)
			goto fail;
		if (sched) {
			c->probing = 0;
			action = "change";
			snprintf(why, sizeof why, "no steady congestion for %d batches after %d with it: "
			         "the job's own pattern under test", c->p.return_after, c->p.return_after);
			goto scheduled;
		}
		/* the batch after a flagged revert showed no change of the network:
		 * the revert's own course, had exploration stopped */
		best_now = c->probing && !shifted && !c->exploring && c->best && c->best != c->base;
		c->probing = 0;
		int want = !best_now && ncong > 0 && c->exploring && c->attempts < c->p.max_attempts,
		    waiting;
		if (c->idle_wait > 0) {
			/* steady congestion not seen since the backoff began ends it */
			int fresh = 0;
			for (size_t f = 0; f < c->F; f++)
				if (c->cong[f] == REACT_CONG_STEADY && !c->seen[f]) {
					fresh = 1;
					c->seen[f] = 1;
				}
			if (fresh)
				c->idle_wait = c->idle_left = 0;
		}
		forced = !best_now && c->quiet_rounds >= c->force_after;
		waiting = want && !forced && c->idle_left > 0;
		if (waiting)
			c->idle_left--;
		if ((want && !waiting) || forced) {
			if ((st = search(c, forced, &dout, &escalated)) != REACT_OK)
				goto fail;
			if (!dout.g1 && !forced)
				note_fruitless(c, 1);
			if (dout.g1) {
				char msg[192];
				if (forced)
					snprintf(msg, sizeof msg, "forced exploration: new pattern under test");
				else if (dout.role_move) {
					/* "(a role move of rank 3)", "(... of ranks 1, 2, 4, 7)" */
					size_t k = (size_t)snprintf(msg, sizeof msg, "estimated improvement (a role move of rank%s",
					                            dout.nrole_ranks > 1 ? "s" : "");
					for (int i = 0; i < dout.nrole_ranks && k < sizeof msg; i++)
						k += (size_t)snprintf(msg + k, sizeof msg - k, "%s %d", i ? "," : "",
						                      (int)dout.role_ranks[i]);
					if (k < sizeof msg)
						snprintf(msg + k, sizeof msg - k, "): new pattern under test");
				} else
					snprintf(msg, sizeof msg, "estimated improvement: new pattern under test");
				sched = dout.g1;
				if (kept)
					snprintf(why + strlen(why), sizeof why - strlen(why), "; %s", msg);
				else
					snprintf(why, sizeof why, "%s", msg);
				action = "change";
			} else if (!kept) {
				if (escalated > 0) {
					why[0] = '\0';
					bar_why(c, escalated, why, sizeof why);
				} else
					snprintf(why, sizeof why, "%s",
					         dout.nvertices ? "no transform passed the estimate"
					                        : "no congested vertex on a critical path");
			}
		} else {
			/* a batch held back by fruitless_stop is not one without
			 * exploration: the search it holds back is one the history
			 * has twice answered with nothing, and a forced round there
			 * would undo the stop */
			int stopped = waiting && c->idle_wait == IDLE_STOPPED;
			if (!stopped)
				c->quiet_rounds++;
			if (ncong > 0 && !kept && stopped)
				snprintf(why, sizeof why, "no search: %d searches from this base found nothing "
				         "(fruitless_stop)", c->fruitless);
			else if (ncong > 0 && !kept)
				snprintf(why, sizeof why, "%s",
				         waiting ? "no search: backoff after a fruitless one"
				         : !c->exploring ? "exploration stopped (E_max)"
				                         : "attempts exhausted (A_max)");
		}
		if (best_now) {
			sched = stick_to_best(c);
			snprintf(why, sizeof why, "exploration stopped (E_max), no change of the network: "
			         "the best pattern observed");
			action = "revert-best";
		}
	}
scheduled:
	if (sched) {
		if ((st = schedule(c, apply, sched)) != REACT_OK)
			goto fail;
		c->st.changes++;
		if (reverted)
			c->st.reverts++;
		else if (jg.valid && !kept)
			c->st.reverts++; /* a revert replaced at once by the next candidate */
		c->batch_open = apply;
		if (d) {
			d->changed = 1;
			d->reverted = reverted || (jg.valid && !kept);
			d->apply_epoch = apply;
			d->pattern = sched;
		}
	} else {
		c->batch_open = epoch + 1;
	}
	c->st.batches++;
	if (shifted) {
		char tmp[sizeof why];
		snprintf(tmp, sizeof tmp, "network changed (base %.4g -> %.4g s per epoch): the loop "
		         "starts afresh; %s", shift_from, shift_to, why);
		memcpy(why, tmp, sizeof why);
	}
	log_batch(c, epoch, ran, meanT, &dout, action, kept, &jg, why);
	c->searched_est = -1;
	c->nbatch++;
	c->nb = 0;
fail:
	free(dout.cands);
	if (dout.g1 && dout.g1 != c->test)
		react_pattern_destroy(dout.g1);
	return st;
}

const react_pattern_t *react_ctl_base(const react_ctl_t *c) { return c ? c->base : NULL; }

react_status_t react_ctl_estimate_with(const react_ctl_t *c, const react_pattern_t *g,
                                       int estimator, double *est_base, double *est)
{
	if (!c || !g || !est_base || !est || c->base_n < 1 || !react_pattern_same_flows(c->base, g) ||
	    estimator < REACT_EST_PAPER || estimator > REACT_EST_AUTO)
		return REACT_EINVAL;
	/* auto resolved on the last batch's congestion, the one-partner
	 * reading with it; any other estimator without that reading */
	int resolved = estimator_for(c, estimator);
	return react_estimate_pattern(c->base, c->base_fct, c->base_n, c->hist,
	                              resolved == REACT_EST_FLUID     ? REACT_DEG_FLUID
	                              : resolved == REACT_EST_OVERLAP ? REACT_DEG_OVERLAP
	                                                              : REACT_DEG_STEP,
	                              estimator == REACT_EST_AUTO && resolved == REACT_EST_FLUID,
	                              c->p.overlap_passes, g, est_base, est);
}

react_status_t react_ctl_estimate(const react_ctl_t *c, const react_pattern_t *g,
                                  double *est_base, double *est)
{
	if (!c)
		return REACT_EINVAL;
	return react_ctl_estimate_with(c, g, c->p.estimator, est_base, est);
}

react_status_t react_ctl_observe(react_ctl_t *c, int64_t epoch, const double *fct_s,
                                 size_t nflows, double epoch_time_s, react_decision_t *d)
{
	const react_pattern_t *ran;
	react_status_t st;
	if (d)
		memset(d, 0, sizeof *d);
	if (!c || !fct_s || epoch != c->next_epoch || nflows != c->F || !(epoch_time_s >= 0) ||
	    !isfinite(epoch_time_s))
		return REACT_EINVAL;
	for (size_t i = 0; i < nflows; i++)
		if (!(fct_s[i] > 0) || !isfinite(fct_s[i]))
			return REACT_EINVAL;
	ran = react_ctl_pattern_for(c, epoch);
	if ((st = react_history_add(c->hist, ran, fct_s)) != REACT_OK)
		return st;
	c->next_epoch++;
	if (epoch < c->batch_open)
		return REACT_OK; /* between a decision and its apply epoch */
	memcpy(c->bfct + (size_t)c->nb * c->F, fct_s, c->F * sizeof *fct_s);
	c->btime[c->nb++] = epoch_time_s;
	if (c->nb == c->p.batch_epochs || (c->nb == c->p.early_revert && early_slower(c, ran)))
		return end_batch(c, epoch, ran, d);
	return REACT_OK;
}
