/* simtest.h - a tiny epoch driver for the flow backend tests: the same
 * pattern every epoch, reports copied out. */
#ifndef SIMTEST_H
#define SIMTEST_H

#include <stdlib.h>
#include <string.h>

#include "react/backend.h"

#define ST_MAXJOBS 4
#define ST_MAXEP 64

typedef struct st_rec {
	double start, end;
	size_t nflows;
	double *fstart, *fct;
} st_rec_t;

typedef struct st_ctx {
	const react_pattern_t *pat[ST_MAXJOBS];
	st_rec_t rec[ST_MAXJOBS][ST_MAXEP];
	int64_t nrec[ST_MAXJOBS];
} st_ctx_t;

static const react_pattern_t *st_pattern_for(void *ctx, int32_t job, int64_t epoch)
{
	(void)epoch;
	return ((st_ctx_t *)ctx)->pat[job];
}

static react_status_t st_epoch_done(void *ctx, const react_epoch_report_t *rep)
{
	st_ctx_t *c = ctx;
	int64_t e = c->nrec[rep->job]++;
	if (e >= ST_MAXEP)
		return REACT_OK;
	st_rec_t *r = &c->rec[rep->job][e];
	size_t n = rep->pattern->nflows;
	r->start = rep->start_s;
	r->end = rep->end_s;
	r->nflows = n;
	r->fstart = malloc((n + 1) * sizeof(double));
	r->fct = malloc((n + 1) * sizeof(double));
	memcpy(r->fstart, rep->flow_start_s, n * sizeof(double));
	memcpy(r->fct, rep->fct_s, n * sizeof(double));
	return REACT_OK;
}

static void st_free(st_ctx_t *c)
{
	for (int j = 0; j < ST_MAXJOBS; j++)
		for (int64_t e = 0; e < c->nrec[j] && e < ST_MAXEP; e++) {
			free(c->rec[j][e].fstart);
			free(c->rec[j][e].fct);
		}
}

static react_driver_cb_t st_cb(st_ctx_t *c)
{
	react_driver_cb_t cb = {c, st_pattern_for, st_epoch_done};
	return cb;
}

static react_job_cfg_t st_job(int32_t nranks, int32_t *hosts, int64_t epochs)
{
	react_job_cfg_t j;
	memset(&j, 0, sizeof j);
	strcpy(j.name, "job");
	j.nranks = nranks;
	j.hosts = hosts;
	j.epochs = epochs;
	return j;
}

static react_run_cfg_t st_run(const react_topology_t *t, int32_t njobs, react_job_cfg_t *jobs)
{
	react_run_cfg_t r;
	memset(&r, 0, sizeof r);
	r.topo = t;
	r.njobs = njobs;
	r.jobs = jobs;
	r.ecmp_ports = 4;
	r.seed = 1;
	return r;
}
#endif
