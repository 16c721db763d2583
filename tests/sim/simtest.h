/* simtest.h - a tiny epoch driver for the flow backend tests: the same
 * pattern every epoch, reports copied out; a custom pattern builder and the
 * two-job run both flow-level models are checked for determinism on. */
#ifndef SIMTEST_H
#define SIMTEST_H

#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "react/backend.h"
#include "react/flowsim.h"
#include "react/generators.h"

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

/* A custom pattern of nf flows over nranks ranks. */
static react_pattern_t *st_pattern(int32_t nranks, int nf, const react_flow_t *fl)
{
	react_pattern_t *p;
	char why[256];
	cr_assert_eq(react_pattern_create(REACT_COLL_ALLGATHER, REACT_ALGO_CUSTOM, nranks, nranks,
	                                  1000, &p), REACT_OK);
	for (int i = 0; i < nf; i++)
		cr_assert_eq(react_pattern_add_flow(p, &fl[i]), REACT_OK);
	cr_assert_eq(react_pattern_finalize(p, why, sizeof why), REACT_OK, "%s", why);
	return p;
}

typedef react_status_t (*st_runner_t)(const react_run_cfg_t *, const react_driver_cb_t *,
                                      react_flowsim_stats_t *, char *, size_t);

/* Two jobs (tree AllReduce on 8 ranks, ring on 6) sharing a k = 4 fat-tree
 * (100 Gbps, 1 us) with external flows, one of them stopping, for `epochs`
 * epochs on run (react_flowsim_run or react_flowsim_run_dctcp): a hash of
 * every FCT and epoch end, and the run's stats. */
static uint64_t st_two_jobs_hash(st_runner_t run, uint64_t seed, int64_t epochs, uint32_t mtu,
                                 react_flowsim_stats_t *stx)
{
	react_topology_t *t;
	react_pattern_t *p0, *p1;
	cr_assert_eq(react_topo_fattree(4, 100e9, 1e-6, &t), REACT_OK);
	cr_assert_eq(react_gen_tree_allreduce(8, 4000000, &p0), REACT_OK);
	cr_assert_eq(react_gen_ring_allreduce(6, 3000000, &p1), REACT_OK);
	int32_t h0[] = {0, 2, 4, 6, 8, 10, 12, 14}, h1[] = {1, 3, 5, 9, 11, 13};
	react_job_cfg_t j[2] = {st_job(8, h0, epochs), st_job(6, h1, epochs)};
	j[1].start_s = 3e-6;
	j[1].compute_gap_s = 1e-5;
	react_ext_flow_t x[] = {{15, 2, 2, 0, 0}, {7, 9, 1, 1e-4, 5e-4}};
	react_run_cfg_t r = st_run(t, 2, j);
	r.next = 2;
	r.ext = x;
	r.seed = seed;
	r.mtu = mtu;
	st_ctx_t *c = calloc(1, sizeof *c);
	cr_assert(c);
	c->pat[0] = p0;
	c->pat[1] = p1;
	react_driver_cb_t cb = st_cb(c);
	char err[256];
	cr_assert_eq(run(&r, &cb, stx, err, sizeof err), REACT_OK, "%s", err);
	uint64_t h = 1469598103934665603ULL;
	for (int jj = 0; jj < 2; jj++) {
		cr_assert_eq(c->nrec[jj], epochs);
		for (int64_t e = 0; e < epochs; e++) {
			const st_rec_t *q = &c->rec[jj][e];
			const unsigned char *b = (const unsigned char *)q->fct;
			for (size_t i = 0; i < q->nflows * sizeof(double); i++)
				h = (h ^ b[i]) * 1099511628211ULL;
			b = (const unsigned char *)&q->end;
			for (size_t i = 0; i < sizeof(double); i++)
				h = (h ^ b[i]) * 1099511628211ULL;
		}
	}
	st_free(c);
	free(c);
	react_pattern_destroy(p0);
	react_pattern_destroy(p1);
	react_topology_destroy(t);
	return h;
}
#endif
