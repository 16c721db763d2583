/*
 * tuner.c - RTuner: the controller on its own thread (see react/rt_tuner.h).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif

#include "react/rt_tuner.h"

typedef struct report {
	int64_t epoch;
	size_t nflows;
	double *span;      /* 2 * nflows: send spans, then receive spans */
	double epoch_s;
	double at_s;       /* when the job handed it over (monotonic clock) */
} report_t;

typedef struct sched {
	int64_t apply;
	react_pattern_t *p;
} sched_t;

struct react_rt_tuner {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	int started, stop, failed;
	int exited;                /* the thread has left tuner_main */
	int stuck;                 /* pattern_for timed out: the thread may never return */
	double timeout_s;          /* longest wait in pattern_for */
	int use_mpi, rank, size;
	react_ctl_t *ctl;          /* leader only */
	react_params_t params;
	report_t *q;
	size_t qn, qcap, qhead;
	int64_t processed;         /* last epoch observed */
	int64_t handed;            /* last epoch pattern_for answered */
	int64_t reported;          /* last epoch handed over by the job */
	int64_t nreports;
	double first_report_s, last_report_s;
	sched_t *sched;
	size_t nsched, capsched;
	react_rt_tuner_stats_t st;
	char err[320];
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fail_locked(react_rt_tuner_t *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof t->err, fmt, ap);
	va_end(ap);
	t->failed = 1;
	pthread_cond_broadcast(&t->cv);
}

static int sched_add(react_rt_tuner_t *t, int64_t apply, react_pattern_t *p)
{
	if (t->nsched == t->capsched) {
		size_t nc = t->capsched ? 2 * t->capsched : 8;
		sched_t *ns = realloc(t->sched, nc * sizeof *ns);
		if (!ns)
			return -1;
		t->sched = ns;
		t->capsched = nc;
	}
	t->sched[t->nsched++] = (sched_t){apply, p};
	return 0;
}

/* FCT of each flow from the spans of all ranks (rows of 2n+1 doubles). */
static void combine(const double *rows, int nrows, size_t n, double *fct, double *epoch_s)
{
	*epoch_s = 0;
	for (size_t f = 0; f < n; f++)
		fct[f] = INFINITY;
	for (int r = 0; r < nrows; r++) {
		const double *row = rows + (size_t)r * (2 * n + 1);
		for (size_t f = 0; f < 2 * n; f++)
			if (!isnan(row[f]) && row[f] < fct[f % n])
				fct[f % n] = row[f];
		if (row[2 * n] > *epoch_s)
			*epoch_s = row[2 * n];
	}
	for (size_t f = 0; f < n; f++)
		if (!isfinite(fct[f]) || fct[f] < 1e-9)
			fct[f] = 1e-9;
}

#ifdef REACT_HAVE_MPI
/* decision wire format: header int64 {changed, reverted, apply, collective,
 * algorithm, nranks, nchunks, root, message_bytes, nflows}, then 7 int64 a flow */
#define HDR 10
static int bcast_decision(react_rt_tuner_t *t, react_decision_t *d, react_pattern_t **out)
{
	int64_t h[HDR] = {0};
	int64_t *fl = NULL;
	const react_pattern_t *p = d ? d->pattern : NULL;
	if (t->rank == 0 && d && d->changed) {
		h[0] = 1;
		h[1] = d->reverted;
		h[2] = d->apply_epoch;
		h[3] = p->collective;
		h[4] = p->algorithm;
		h[5] = p->nranks;
		h[6] = p->nchunks;
		h[7] = p->root;
		h[8] = (int64_t)p->message_bytes;
		h[9] = (int64_t)p->nflows;
	}
	MPI_Bcast(h, HDR, MPI_INT64_T, 0, MPI_COMM_WORLD);
	if (!h[0])
		return 0;
	size_t n = (size_t)h[9];
	fl = malloc((n ? n : 1) * 7 * sizeof *fl);
	if (!fl)
		return -1;
	if (t->rank == 0)
		for (size_t i = 0; i < n; i++) {
			const react_flow_t *f = &p->flows[i];
			int64_t *w = fl + 7 * i;
			w[0] = f->step; w[1] = f->src; w[2] = f->dst; w[3] = f->chunk;
			w[4] = f->nchunks; w[5] = (int64_t)f->bytes; w[6] = f->op;
		}
	MPI_Bcast(fl, (int)(7 * n), MPI_INT64_T, 0, MPI_COMM_WORLD);
	react_pattern_t *q = NULL;
	if (react_pattern_create((react_collective_t)h[3], (react_algorithm_t)h[4], (int32_t)h[5],
	                         (int32_t)h[6], (uint64_t)h[8], &q) != REACT_OK) {
		free(fl);
		return -1;
	}
	q->root = (react_rank_t)h[7];
	for (size_t i = 0; i < n; i++) {
		const int64_t *w = fl + 7 * i;
		react_flow_t f = {(react_step_t)w[0], (react_rank_t)w[1], (react_rank_t)w[2], (int32_t)w[3],
		                  (int32_t)w[4], (uint64_t)w[5], (react_recv_op_t)w[6]};
		if (react_pattern_add_flow(q, &f) != REACT_OK) {
			free(fl);
			react_pattern_destroy(q);
			return -1;
		}
	}
	free(fl);
	if (react_pattern_finalize(q, NULL, 0) != REACT_OK) {
		react_pattern_destroy(q);
		return -1;
	}
	if (d) {
		d->changed = 1;
		d->reverted = (int)h[1];
		d->apply_epoch = h[2];
	}
	*out = q;
	return 1;
}
#endif

static void *tuner_main(void *arg)
{
	react_rt_tuner_t *t = arg;
	double *rows = NULL, *fct = NULL;
	size_t cap = 0;
	pthread_mutex_lock(&t->mu);
	for (;;) {
		while (t->qhead == t->qn && !t->stop)
			pthread_cond_wait(&t->cv, &t->mu);
		if (t->qhead == t->qn)
			break;
		report_t r = t->q[t->qhead++];
		pthread_mutex_unlock(&t->mu);

		size_t n = r.nflows;
		int nrows = t->use_mpi ? t->size : 1;
		if ((2 * n + 1) * (size_t)nrows > cap) {
			cap = (2 * n + 1) * (size_t)nrows;
			free(rows);
			free(fct);
			rows = malloc(cap * sizeof *rows);
			fct = malloc((n ? n : 1) * sizeof *fct);
		}
		double *mine = malloc((2 * n + 1) * sizeof *mine);
		if (!rows || !fct || !mine) {
			free(mine);
			free(r.span);
			pthread_mutex_lock(&t->mu);
			fail_locked(t, "tuner: out of memory");
			break;
		}
		memcpy(mine, r.span, 2 * n * sizeof *mine);
		mine[2 * n] = r.epoch_s;
		free(r.span);
#ifdef REACT_HAVE_MPI
		if (t->use_mpi)
			MPI_Gather(mine, (int)(2 * n + 1), MPI_DOUBLE, rows, (int)(2 * n + 1), MPI_DOUBLE, 0,
			           MPI_COMM_WORLD);
		else
#endif
			memcpy(rows, mine, (2 * n + 1) * sizeof *rows);
		free(mine);
		react_decision_t d = {0};
		react_status_t st = REACT_OK;
		react_pattern_t *np = NULL;
		if (t->rank == 0) {
			double es;
			combine(rows, nrows, n, fct, &es);
			double t0 = now_s();
			st = react_ctl_observe(t->ctl, r.epoch, fct, n, es > 0 ? es : 1e-9, &d);
			t->st.observe_s += now_s() - t0;
			if (st != REACT_OK)
				d.changed = 0;
		}
#ifdef REACT_HAVE_MPI
		if (t->use_mpi) {
			int ok = st == REACT_OK;
			MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
			if (!ok)
				st = st == REACT_OK ? REACT_EBACKEND : st;
			else if (bcast_decision(t, &d, &np) < 0)
				st = REACT_ENOMEM;
		} else
#endif
		if (st == REACT_OK && d.changed && react_pattern_clone(d.pattern, &np) != REACT_OK)
			st = REACT_ENOMEM;
		pthread_mutex_lock(&t->mu);
		if (st != REACT_OK) {
			react_pattern_destroy(np);
			fail_locked(t, "tuner: observing epoch %lld failed: %s", (long long)r.epoch,
			            react_status_str(st));
			break;
		}
		if (np) {
			if (d.apply_epoch <= t->handed) {
				react_pattern_destroy(np);
				fail_locked(t, "tuner: decision for epoch %lld came after that epoch started",
				            (long long)d.apply_epoch);
				break;
			}
			if (sched_add(t, d.apply_epoch, np)) {
				react_pattern_destroy(np);
				fail_locked(t, "tuner: out of memory");
				break;
			}
			t->st.decisions++;
			t->st.reverts += d.reverted ? 1 : 0;
		}
		t->processed = r.epoch;
		/* the consensus lag: from the job's hand-over to the decision
		 * known here, and how many later epochs the job handed over
		 * meanwhile (the smallest D it would not have waited at) */
		double lag = now_s() - r.at_s;
		t->st.observed++;
		t->st.lag_sum_s += lag;
		if (lag > t->st.lag_max_s)
			t->st.lag_max_s = lag;
		if (t->reported - r.epoch > t->st.lag_epochs_max)
			t->st.lag_epochs_max = t->reported - r.epoch;
		pthread_cond_broadcast(&t->cv);
	}
	t->exited = 1;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	free(rows);
	free(fct);
	return NULL;
}

react_status_t react_rt_tuner_create(const react_pattern_t *initial, const react_params_t *params,
                                     int use_mpi, FILE *log, react_rt_tuner_t **out, char *err,
                                     size_t errlen)
{
	react_status_t st = REACT_OK;
	react_rt_tuner_t *t = calloc(1, sizeof *t);
	react_pattern_t *p0 = NULL;
	if (!t) {
		snprintf(err, errlen, "tuner: out of memory");
		return REACT_ENOMEM;
	}
	pthread_mutex_init(&t->mu, NULL);
	{
		/* timed waits on the monotonic clock: a clock change is no timeout */
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&t->cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	t->params = *params;
	t->timeout_s = REACT_RT_TUNER_TIMEOUT_S;
	t->processed = -1;
	t->handed = -1;
	t->reported = -1;
	t->size = 1;
#ifdef REACT_HAVE_MPI
	if (use_mpi) {
		int inited = 0;
		MPI_Initialized(&inited);
		if (!inited) {
			snprintf(err, errlen, "tuner: MPI is not initialised");
			st = REACT_EINVAL;
			goto fail;
		}
		MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
		MPI_Comm_size(MPI_COMM_WORLD, &t->size);
		t->use_mpi = 1;
	}
#else
	if (use_mpi) {
		snprintf(err, errlen, "tuner: this build has no MPI");
		st = REACT_EUNSUPPORTED;
		goto fail;
	}
#endif
	if (t->rank == 0) {
		if ((st = react_ctl_create(initial, params, &t->ctl)) != REACT_OK) {
			snprintf(err, errlen, "tuner: the controller refused the initial pattern: %s",
			         react_status_str(st));
			goto fail;
		}
		react_ctl_set_log(t->ctl, log);
	}
	if ((st = react_pattern_clone(initial, &p0)) != REACT_OK || sched_add(t, 0, p0)) {
		react_pattern_destroy(p0);
		snprintf(err, errlen, "tuner: out of memory");
		st = REACT_ENOMEM;
		goto fail;
	}
	if (pthread_create(&t->thread, NULL, tuner_main, t) != 0) {
		snprintf(err, errlen, "tuner: cannot start its thread");
		st = REACT_EBACKEND;
		goto fail;
	}
	t->started = 1;
	*out = t;
	return REACT_OK;
fail:
	react_rt_tuner_destroy(t);
	return st;
}

void react_rt_tuner_destroy(react_rt_tuner_t *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = 1;
	pthread_cond_broadcast(&t->cv);
	if (t->started && t->stuck) {
		/* after a timeout the thread may be blocked for good (in MPI, on a
		 * hung peer): give it a moment, then leave it and its memory to
		 * the end of the process rather than hang in pthread_join */
		struct timespec dl;
		clock_gettime(CLOCK_MONOTONIC, &dl);
		dl.tv_sec += 2;
		while (!t->exited && pthread_cond_timedwait(&t->cv, &t->mu, &dl) != ETIMEDOUT)
			;
		if (!t->exited) {
			pthread_mutex_unlock(&t->mu);
			pthread_detach(t->thread);
			return;
		}
	}
	pthread_mutex_unlock(&t->mu);
	if (t->started)
		pthread_join(t->thread, NULL);
	for (size_t i = t->qhead; i < t->qn; i++)
		free(t->q[i].span);
	free(t->q);
	for (size_t i = 0; i < t->nsched; i++)
		react_pattern_destroy(t->sched[i].p);
	free(t->sched);
	react_ctl_destroy(t->ctl);
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

const react_pattern_t *react_rt_tuner_pattern_for(react_rt_tuner_t *t, int64_t epoch)
{
	const react_pattern_t *p = NULL;
	pthread_mutex_lock(&t->mu);
	/* a decision closing epoch b applies at b + 1 + D: epochs up to
	 * epoch - 1 - D must have been observed */
	int64_t need = epoch - 1 - t->params.apply_delay;
	double t0 = now_s();
	int waited = 0;
	struct timespec dl;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	double whole = floor(t->timeout_s);
	dl.tv_sec += (time_t)whole;
	dl.tv_nsec += (long)((t->timeout_s - whole) * 1e9);
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	while (t->processed < need && !t->failed) {
		waited = 1;
		if (pthread_cond_timedwait(&t->cv, &t->mu, &dl) == ETIMEDOUT && t->processed < need &&
		    !t->failed) {
			t->stuck = 1;
			fail_locked(t, "tuner: no decision for epoch %lld after %.3g s: it needs epochs 0..%lld "
			            "observed, the controller has observed %lld (a peer that stopped "
			            "reporting, or a hung controller)",
			            (long long)epoch, t->timeout_s, (long long)need,
			            (long long)(t->processed + 1));
		}
	}
	if (waited)
		t->st.waited_s += now_s() - t0;
	if (!t->failed) {
		for (size_t i = 0; i < t->nsched; i++)
			if (t->sched[i].apply <= epoch)
				p = t->sched[i].p;
		if (epoch > t->handed)
			t->handed = epoch;
	}
	pthread_mutex_unlock(&t->mu);
	return p;
}

react_status_t react_rt_tuner_report(react_rt_tuner_t *t, int64_t epoch, const double *send_span_s,
                                     const double *recv_span_s, size_t nflows, double epoch_s)
{
	react_status_t st = REACT_OK;
	double *span = malloc((2 * nflows + 1) * sizeof *span);
	if (!span)
		return REACT_ENOMEM;
	memcpy(span, send_span_s, nflows * sizeof *span);
	memcpy(span + nflows, recv_span_s, nflows * sizeof *span);
	pthread_mutex_lock(&t->mu);
	if (t->failed) {
		st = REACT_EBACKEND;
		free(span);
		goto out;
	}
	if (t->qn == t->qcap) {
		/* compact what was consumed, then grow */
		if (t->qhead)
			memmove(t->q, t->q + t->qhead, (t->qn - t->qhead) * sizeof *t->q);
		t->qn -= t->qhead;
		t->qhead = 0;
		if (t->qn == t->qcap) {
			size_t nc = t->qcap ? 2 * t->qcap : 16;
			report_t *nq = realloc(t->q, nc * sizeof *nq);
			if (!nq) {
				free(span);
				st = REACT_ENOMEM;
				goto out;
			}
			t->q = nq;
			t->qcap = nc;
		}
	}
	double at = now_s();
	t->q[t->qn++] = (report_t){epoch, nflows, span, epoch_s, at};
	if (epoch > t->reported)
		t->reported = epoch;
	if (!t->nreports++)
		t->first_report_s = at;
	t->last_report_s = at;
	pthread_cond_broadcast(&t->cv);
out:
	pthread_mutex_unlock(&t->mu);
	return st;
}

void react_rt_tuner_stats(react_rt_tuner_t *t, react_rt_tuner_stats_t *out)
{
	pthread_mutex_lock(&t->mu);
	*out = t->st;
	out->epoch_wall_s = t->nreports > 1 ? (t->last_report_s - t->first_report_s) /
	                                      (double)(t->nreports - 1) : 0;
	pthread_mutex_unlock(&t->mu);
}

void react_rt_tuner_set_timeout(react_rt_tuner_t *t, double seconds)
{
	pthread_mutex_lock(&t->mu);
	t->timeout_s = seconds > 0 && seconds < 1e9 ? seconds : REACT_RT_TUNER_TIMEOUT_S;
	pthread_mutex_unlock(&t->mu);
}

const char *react_rt_tuner_error(const react_rt_tuner_t *t)
{
	return t->err;
}
