/* The epoch driver: react_driver_cb_t over one controller per REACT job. */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "react/check.h"
#include "react/driver.h"
#include "react/generators.h"

typedef struct jstate {
	react_ctl_t *ctl;         /* REACT on */
	const react_pattern_t *fixed; /* baseline, and the controller's start */
	react_pattern_t *owned;   /* the generated pattern when opts->fixed gives none */
	int on;
	int64_t epochs;           /* measured: 0 .. epochs - 1 */
	int keep;                 /* keep_running: goes on past them, unmeasured */
	int64_t next;             /* next epoch expected from the backend */
	uint64_t last_hash;
	double *fct_buf;
} jstate_t;

typedef struct dctx {
	const react_run_cfg_t *cfg;
	const react_drive_opts_t *opts;
	jstate_t *js;
	react_epoch_rec_t *recs;
	size_t nrecs, cap;
	char cb_err[512];
} dctx_t;

static const react_pattern_t *cb_pattern_for(void *ctx, int32_t job, int64_t epoch)
{
	dctx_t *d = ctx;
	if (job < 0 || job >= d->cfg->njobs || epoch < 0)
		return NULL;
	jstate_t *j = &d->js[job];
	if (epoch >= j->epochs) {
		/* keep_running: on while another job has measured epochs left */
		int32_t k = 0;
		if (j->keep)
			for (; k < d->cfg->njobs; k++)
				if (k != job && d->js[k].next < d->js[k].epochs)
					break;
		if (!j->keep || k == d->cfg->njobs)
			return NULL;
	}
	return j->on ? react_ctl_pattern_for(j->ctl, epoch) : j->fixed;
}

/* The record of one measured epoch. */
static react_status_t record(dctx_t *d, jstate_t *j, const react_job_cfg_t *jc,
                             const react_epoch_report_t *rep, double t)
{
	if (d->nrecs == d->cap) {
		size_t nc = d->cap ? d->cap * 2 : 256;
		react_epoch_rec_t *nr = realloc(d->recs, nc * sizeof *nr);
		if (!nr)
			return REACT_ENOMEM;
		d->recs = nr;
		d->cap = nc;
	}
	uint64_t h = react_pattern_hash(rep->pattern);
	react_epoch_rec_t *r = &d->recs[d->nrecs++];
	r->job = rep->job;
	r->epoch = rep->epoch;
	r->start_s = rep->start_s;
	r->time_s = t;
	r->algbw_gbps = (double)jc->message_bytes / t / 1e9;
	r->pattern_hash = h;
	r->changed = rep->epoch > 0 && h != j->last_hash;
	j->last_hash = h;
	return REACT_OK;
}

static react_status_t cb_epoch_done(void *ctx, const react_epoch_report_t *rep)
{
	dctx_t *d = ctx;
	react_status_t st;
	if (!rep || rep->job < 0 || rep->job >= d->cfg->njobs || !rep->pattern || !rep->fct_s) {
		snprintf(d->cb_err, sizeof d->cb_err, "driver: backend reported an epoch of an "
		         "unknown job or without pattern/FCTs");
		return REACT_EBACKEND;
	}
	jstate_t *j = &d->js[rep->job];
	const react_job_cfg_t *jc = &d->cfg->jobs[rep->job];
	if (rep->epoch != j->next || (rep->epoch >= j->epochs && !j->keep)) {
		snprintf(d->cb_err, sizeof d->cb_err,
		         "driver: job '%s': backend reported epoch %lld, expected epoch %lld",
		         jc->name, (long long)rep->epoch, (long long)j->next);
		return REACT_EBACKEND;
	}
	double t = rep->end_s - rep->start_s;
	if (!(t > 0)) {
		snprintf(d->cb_err, sizeof d->cb_err,
		         "driver: job '%s' epoch %lld: collective time %g s, expected > 0", jc->name,
		         (long long)rep->epoch, t);
		return REACT_EBACKEND;
	}
	/* past a keep_running job's measured epochs the controller still sees
	 * each epoch (it keeps deciding), but nothing is recorded */
	int measured = rep->epoch < j->epochs;
	if (measured && (st = record(d, j, jc, rep, t)) != REACT_OK)
		return st;
	j->next++;
	if (j->on) {
		react_decision_t dec;
		st = react_ctl_observe(j->ctl, rep->epoch, rep->fct_s, rep->pattern->nflows, t, &dec);
		if (st != REACT_OK) {
			snprintf(d->cb_err, sizeof d->cb_err,
			         "driver: job '%s' epoch %lld: the controller rejected the epoch: %s",
			         jc->name, (long long)rep->epoch, react_status_str(st));
			return st;
		}
	}
	if (measured && d->opts && d->opts->on_epoch) {
		st = d->opts->on_epoch(d->opts->on_epoch_ctx, rep);
		if (st != REACT_OK) {
			snprintf(d->cb_err, sizeof d->cb_err, "driver: per-epoch hook failed: %s",
			         react_status_str(st));
			return st;
		}
	}
	return REACT_OK;
}

static int rec_cmp(const void *a, const void *b)
{
	const react_epoch_rec_t *x = a, *y = b;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return (x->epoch > y->epoch) - (x->epoch < y->epoch);
}

void react_epoch_summary(const double *time_s, size_t n, uint64_t message_bytes,
                         double *mean_time_s, double *p95_time_s, double *mean_algbw_gbps,
                         double *p95_algbw_gbps)
{
	double mt = 0, pt = 0, mb = 0, pb = 0;
	double *s = n ? malloc(n * sizeof *s) : NULL;
	if (n && s) {
		memcpy(s, time_s, n * sizeof *s);
		gsl_sort(s, 1, n);
		mt = gsl_stats_mean(s, 1, n);
		pt = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.95);
		for (size_t i = 0; i < n; i++)
			mb += (double)message_bytes / s[i] / 1e9;
		mb /= (double)n;
		pb = pt > 0 ? (double)message_bytes / pt / 1e9 : 0;
	}
	free(s);
	if (mean_time_s)
		*mean_time_s = mt;
	if (p95_time_s)
		*p95_time_s = pt;
	if (mean_algbw_gbps)
		*mean_algbw_gbps = mb;
	if (p95_algbw_gbps)
		*p95_algbw_gbps = pb;
}

double react_improvement_pct(double baseline, double react)
{
	return baseline > 0 ? 100.0 * (react / baseline - 1.0) : 0.0;
}

/* A pattern given in opts->fixed for job jc: same shape as the job's
 * collective, and correct. */
static react_status_t fixed_ok(const react_job_cfg_t *jc, const react_pattern_t *p, char *err,
                               size_t errlen)
{
	react_check_result_t cr;
	react_status_t st;
	if (p->nranks != jc->nranks || p->collective != jc->collective ||
	    p->message_bytes != jc->message_bytes) {
		snprintf(err, errlen, "driver: job '%s': the given pattern is %s with %d ranks and "
		         "%llu bytes, expected %s with %d ranks and %llu bytes", jc->name,
		         react_collective_name(p->collective), (int)p->nranks,
		         (unsigned long long)p->message_bytes, react_collective_name(jc->collective),
		         (int)jc->nranks, (unsigned long long)jc->message_bytes);
		return REACT_EINVAL;
	}
	st = react_pattern_check(p, &cr);
	if (st == REACT_ESEMANTIC)
		snprintf(err, errlen, "driver: job '%s': the given pattern fails the semantic check: "
		         "%s", jc->name, cr.message);
	else if (st != REACT_OK)
		snprintf(err, errlen, "driver: job '%s': the given pattern cannot be checked: %s",
		         jc->name, react_status_str(st));
	return st;
}

void react_drive_result_destroy(react_drive_result_t *r)
{
	if (!r)
		return;
	free(r->jobs);
	free(r->recs);
	free(r);
}

/* The result of recs (sorted by job, then epoch; taken over on success):
 * per job its name, on[j], epochs ran, warm-up (clamped below the epochs),
 * pattern changes and the mean/p95 summary of the epochs after warm-up;
 * the controller's counters are left zero. */
static react_status_t result_of(const react_run_cfg_t *cfg, const int64_t *warmup, const int *on,
                                react_epoch_rec_t *recs, size_t nrecs, react_drive_result_t **out)
{
	react_drive_result_t *res = calloc(1, sizeof *res);
	double *times = malloc((nrecs ? nrecs : 1) * sizeof *times);
	*out = NULL;
	if (!res || !times || !(res->jobs = calloc((size_t)cfg->njobs, sizeof *res->jobs))) {
		free(times);
		react_drive_result_destroy(res);
		return REACT_ENOMEM;
	}
	res->njobs = cfg->njobs;
	for (int32_t j = 0; j < cfg->njobs; j++) {
		const react_job_cfg_t *jc = &cfg->jobs[j];
		react_job_summary_t *js = &res->jobs[j];
		snprintf(js->name, sizeof js->name, "%s", jc->name);
		js->react = on[j];
		js->message_bytes = jc->message_bytes;
		js->warmup = warmup ? warmup[j] : 0;
		size_t n = 0;
		for (size_t i = 0; i < nrecs; i++)
			if (recs[i].job == j)
				js->epochs++;
		if (js->warmup >= js->epochs)
			js->warmup = js->epochs - 1;
		for (size_t i = 0; i < nrecs; i++) {
			const react_epoch_rec_t *r = &recs[i];
			if (r->job != j)
				continue;
			js->pattern_changes += r->changed;
			if (r->epoch >= js->warmup)
				times[n++] = r->time_s;
		}
		react_epoch_summary(times, n, jc->message_bytes, &js->mean_time_s, &js->p95_time_s,
		                    &js->mean_algbw_gbps, &js->p95_algbw_gbps);
	}
	free(times);
	res->nrecs = nrecs;
	res->recs = recs;
	*out = res;
	return REACT_OK;
}

react_status_t react_drive_result_of_records(const react_run_cfg_t *cfg, const int64_t *warmup,
                                             const react_epoch_rec_t *recs, size_t nrecs,
                                             react_drive_result_t **out, char *err,
                                             size_t errlen)
{
	*out = NULL;
	if (!cfg || cfg->njobs < 1 || !cfg->jobs || (nrecs && !recs)) {
		snprintf(err, errlen, "expected a run with at least one job");
		return REACT_EINVAL;
	}
	/* every job's epochs 0 .. epochs-1, in order, each with a time > 0 */
	size_t i = 0;
	for (int32_t j = 0; j < cfg->njobs; j++) {
		const react_job_cfg_t *jc = &cfg->jobs[j];
		for (int64_t e = 0; e < jc->epochs; e++, i++) {
			if (i >= nrecs || recs[i].job != j || recs[i].epoch != e) {
				snprintf(err, errlen, "job '%s': expected epoch %lld of %lld, %s", jc->name,
				         (long long)e, (long long)jc->epochs,
				         i >= nrecs ? "the records end" : "found another record");
				return REACT_EINVAL;
			}
			if (!(recs[i].time_s > 0)) {
				snprintf(err, errlen, "job '%s' epoch %lld: time %g s, expected > 0", jc->name,
				         (long long)e, recs[i].time_s);
				return REACT_EINVAL;
			}
		}
	}
	if (i != nrecs) {
		snprintf(err, errlen, "%zu records after the last job's last epoch", nrecs - i);
		return REACT_EINVAL;
	}
	react_epoch_rec_t *copy = malloc((nrecs ? nrecs : 1) * sizeof *copy);
	int *on = calloc((size_t)cfg->njobs, sizeof *on);
	react_status_t st = REACT_ENOMEM;
	if (copy && on) {
		if (nrecs)
			memcpy(copy, recs, nrecs * sizeof *copy);
		st = result_of(cfg, warmup, on, copy, nrecs, out);
	}
	free(on);
	if (st != REACT_OK) {
		free(copy);
		snprintf(err, errlen, "out of memory");
	}
	return st;
}

react_status_t react_drive(const react_backend_ops_t *be, const react_run_cfg_t *cfg,
                           const react_drive_opts_t *opts, react_drive_result_t **out,
                           char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	dctx_t d;
	react_drive_result_t *res = NULL;

	memset(&d, 0, sizeof d);
	*out = NULL;
	if (!be || !be->run || !cfg || !cfg->topo || cfg->njobs < 1 || !cfg->jobs) {
		snprintf(err, errlen, "driver: expected a backend and a run with at least one job");
		return REACT_EINVAL;
	}
	d.cfg = cfg;
	d.opts = opts;
	if (!(d.js = calloc((size_t)cfg->njobs, sizeof *d.js)))
		return REACT_ENOMEM;
	for (int32_t j = 0; j < cfg->njobs; j++) {
		const react_job_cfg_t *jc = &cfg->jobs[j];
		jstate_t *js = &d.js[j];
		if (jc->epochs < 1 || jc->nranks < 2 || !jc->hosts) {
			snprintf(err, errlen, "driver: job '%s': expected >= 1 epoch and >= 2 ranks with "
			         "hosts", jc->name);
			st = REACT_EINVAL;
			goto fail;
		}
		for (int32_t r = 0; r < jc->nranks; r++)
			if (jc->hosts[r] < 0 || jc->hosts[r] >= cfg->topo->nhosts) {
				snprintf(err, errlen, "driver: job '%s': rank %d on host %d, beyond the "
				         "topology's %d hosts", jc->name, (int)r, (int)jc->hosts[r],
				         (int)cfg->topo->nhosts);
				st = REACT_EINVAL;
				goto fail;
			}
		js->epochs = jc->epochs;
		js->keep = jc->keep_running != 0;
		if (opts && opts->fixed && opts->fixed[j]) {
			if ((st = fixed_ok(jc, opts->fixed[j], err, errlen)) != REACT_OK)
				goto fail;
			js->fixed = opts->fixed[j];
		} else {
			st = react_pattern_generate(jc->collective, jc->algorithm, jc->nranks,
			                            jc->message_bytes, &js->owned);
			if (st != REACT_OK) {
				snprintf(err, errlen, "driver: job '%s': no pattern for %s %s with %d ranks: "
				         "%s", jc->name, react_collective_name(jc->collective),
				         react_algorithm_name(jc->algorithm), (int)jc->nranks,
				         react_status_str(st));
				goto fail;
			}
			js->fixed = js->owned;
		}
		js->on = opts && opts->react_on ? opts->react_on[j] : 0;
		if (js->on) {
			react_params_t p;
			if (opts->params) {
				p = opts->params[j];
			} else {
				react_params_default(&p);
				p.seed = cfg->seed + (uint64_t)j;
			}
			char why[256];
			if ((st = react_params_validate(&p, why, sizeof why)) != REACT_OK) {
				snprintf(err, errlen, "driver: job '%s': REACT parameters: %s", jc->name, why);
				goto fail;
			}
			if ((st = react_ctl_create(js->fixed, &p, &js->ctl)) != REACT_OK) {
				snprintf(err, errlen, "driver: job '%s': cannot start the controller: %s",
				         jc->name, react_status_str(st));
				goto fail;
			}
			if (opts->decision_log && opts->decision_log[j])
				react_ctl_set_log(js->ctl, opts->decision_log[j]);
		}
	}

	/* a keep_running job runs until pattern_for ends it: epochs 0 to the
	 * backend */
	react_run_cfg_t bcfg = *cfg;
	react_job_cfg_t *bjobs = malloc((size_t)cfg->njobs * sizeof *bjobs);
	if (!bjobs) {
		st = REACT_ENOMEM;
		goto fail;
	}
	memcpy(bjobs, cfg->jobs, (size_t)cfg->njobs * sizeof *bjobs);
	for (int32_t j = 0; j < cfg->njobs; j++)
		if (d.js[j].keep)
			bjobs[j].epochs = 0;
	bcfg.jobs = bjobs;
	react_driver_cb_t cb = {&d, cb_pattern_for, cb_epoch_done};
	char berr[512] = "";
	if (opts && opts->backend_state && be->run_prepared)
		st = be->run_prepared(opts->backend_state, &bcfg, &cb, berr, sizeof berr);
	else
		st = be->run(&bcfg, &cb, berr, sizeof berr);
	free(bjobs);
	if (st != REACT_OK) {
		if (d.cb_err[0])
			snprintf(err, errlen, "%s", d.cb_err);
		else
			snprintf(err, errlen, "backend %s: %s", be->name,
			         berr[0] ? berr : react_status_str(st));
		goto fail;
	}
	for (int32_t j = 0; j < cfg->njobs; j++)
		if (d.js[j].next < d.js[j].epochs || (!d.js[j].keep && d.js[j].next != d.js[j].epochs)) {
			snprintf(err, errlen, "backend %s: job '%s' finished %lld of its %lld epochs",
			         be->name, cfg->jobs[j].name, (long long)d.js[j].next,
			         (long long)d.js[j].epochs);
			st = REACT_EBACKEND;
			goto fail;
		}

	qsort(d.recs, d.nrecs, sizeof *d.recs, rec_cmp);
	int *on = calloc((size_t)cfg->njobs, sizeof *on);
	if (!on) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (int32_t j = 0; j < cfg->njobs; j++)
		on[j] = d.js[j].on;
	st = result_of(cfg, opts ? opts->warmup : NULL, on, d.recs, d.nrecs, &res);
	free(on);
	if (st != REACT_OK)
		goto fail;
	d.recs = NULL;
	for (int32_t j = 0; j < cfg->njobs; j++)
		if (d.js[j].ctl)
			react_ctl_stats(d.js[j].ctl, &res->jobs[j].ctl);
	*out = res;
	res = NULL;
fail:
	react_drive_result_destroy(res);
	for (int32_t j = 0; d.js && j < cfg->njobs; j++) {
		react_ctl_destroy(d.js[j].ctl);
		react_pattern_destroy(d.js[j].owned);
	}
	free(d.js);
	free(d.recs);
	return st;
}

const char *react_run_mode_name(react_run_mode_t m)
{
	return m == REACT_MODE_REACT ? "react" : "baseline";
}

typedef struct pair_hook {
	const react_pair_opts_t *po;
	react_run_mode_t mode;
} pair_hook_t;

static react_status_t pair_on_epoch(void *ctx, const react_epoch_report_t *rep)
{
	pair_hook_t *h = ctx;
	react_status_t st = h->po->on_epoch ? h->po->on_epoch(h->po->on_epoch_ctx, h->mode, rep)
	                                    : REACT_OK;
	if (st == REACT_OK && h->po->progress)
		h->po->progress(h->po->progress_ctx, h->mode, rep);
	return st;
}

void react_pair_result_clear(react_pair_result_t *r)
{
	if (!r)
		return;
	react_drive_result_destroy(r->baseline);
	react_drive_result_destroy(r->react);
	r->baseline = r->react = NULL;
}

react_status_t react_run_pair(const react_backend_ops_t *be, const react_config_t *cfg,
                              const react_pair_opts_t *opts, react_pair_result_t *out,
                              char *err, size_t errlen)
{
	react_status_t st;
	char e[1024] = "";
	pair_hook_t hb = {opts, REACT_MODE_BASELINE}, hr = {opts, REACT_MODE_REACT};
	react_drive_opts_t ob, orr;

	out->baseline = out->react = NULL;
	memset(&ob, 0, sizeof ob);
	ob.params = cfg->params;
	ob.warmup = cfg->warmup;
	/* jobs with a pattern file: the baseline runs it, REACT starts from it */
	ob.fixed = (const react_pattern_t *const *)cfg->pattern;
	orr = ob;
	orr.react_on = cfg->react_on;
	orr.decision_log = opts ? opts->decision_log : NULL;
	if (opts && (opts->on_epoch || opts->progress)) {
		ob.on_epoch = orr.on_epoch = pair_on_epoch;
		ob.on_epoch_ctx = &hb;
		orr.on_epoch_ctx = &hr;
	}
	if (opts && opts->baseline)
		st = react_drive_result_of_records(&cfg->run, cfg->warmup, opts->baseline->recs,
		                                   opts->baseline->nrecs, &out->baseline, e, sizeof e);
	else
		st = react_drive(be, &cfg->run, &ob, &out->baseline, e, sizeof e);
	if (st != REACT_OK) {
		snprintf(err, errlen, "baseline: %s", e);
		goto fail;
	}
	st = react_drive(be, &cfg->run, &orr, &out->react, e, sizeof e);
	if (st != REACT_OK) {
		snprintf(err, errlen, "react: %s", e);
		goto fail;
	}
	return REACT_OK;
fail:
	react_pair_result_clear(out);
	return st;
}
