/* The GPU runtime as a backend of the runner's epoch driver (react/gpu_backend.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif

#include "bg.h"
#include "react/gpu_backend.h"
#include "react/rt.h"

static int g_follower; /* 1 in an MPI process other than rank 0 of an nccl run */

int react_gpu_backend_leader(void)
{
	return !g_follower;
}

#ifdef REACT_HAVE_MPI
static void finalize_mpi(void)
{
	int fin = 0;
	MPI_Finalized(&fin);
	if (!fin)
		MPI_Finalize();
}

/* MPI for the nccl transport: react-gpu initialises it in main; react run
 * does it here, on first use. */
static react_status_t need_mpi(char *err, size_t errlen)
{
	int inited = 0, prov = 0;
	MPI_Initialized(&inited);
	if (inited)
		return REACT_OK;
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &prov) != MPI_SUCCESS) {
		snprintf(err, errlen, "gpu.transport nccl: MPI_Init_thread failed");
		return REACT_EBACKEND;
	}
	atexit(finalize_mpi);
	return REACT_OK;
}
#endif

static react_status_t gpu_run(const react_run_cfg_t *cfg, const react_driver_cb_t *cb, char *err,
                              size_t errlen)
{
	static const react_gpu_cfg_t defaults = {.transport = "host", .dtype = "float", .check = 1,
	                                         .latency_s = 5e-6, .bandwidth_Bps = 10e9};
	const react_gpu_cfg_t *g = cfg->gpu ? cfg->gpu : &defaults;
	react_status_t st;
	if (cfg->njobs != 1) {
		snprintf(err, errlen, "the gpu backend runs one job at a time; the run has %d",
		         (int)cfg->njobs);
		return REACT_EINVAL;
	}
	if (cfg->next || cfg->ndegraded) {
		snprintf(err, errlen, "the gpu backend cannot model %s; use gpu.congestion",
		         cfg->next ? "external flows" : "degraded links");
		return REACT_EINVAL;
	}
	const react_job_cfg_t *job = &cfg->jobs[0];
	react_rt_cfg_t rc;
	react_rt_cfg_default(&rc);
	if ((st = react_transport_parse(g->transport, &rc.transport)) != REACT_OK ||
	    (st = react_dtype_parse(g->dtype, &rc.dtype)) != REACT_OK) {
		snprintf(err, errlen, "gpu: unknown transport '%s' or dtype '%s'", g->transport,
		         g->dtype);
		return REACT_EINVAL;
	}
	if (!react_transport_available(rc.transport)) {
		snprintf(err, errlen, "gpu.transport: this program runs the gpu backend on the host "
		         "transport only; run the %s transport with react-gpu run SCENARIO (built with "
		         "%s)", g->transport,
		         rc.transport == REACT_TRANSPORT_LOCAL ? "CUDA" : "CUDA, NCCL and MPI");
		return REACT_EUNSUPPORTED;
	}
	rc.nranks = job->nranks;
	rc.max_bytes = job->message_bytes;
	rc.host_latency_s = g->latency_s;
	rc.host_bw_Bps = g->bandwidth_Bps;
	if (rc.transport == REACT_TRANSPORT_NCCL) {
#ifdef REACT_HAVE_MPI
		int size = 0, rank = 0;
		if ((st = need_mpi(err, errlen)) != REACT_OK)
			return st;
		MPI_Comm_size(MPI_COMM_WORLD, &size);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		g_follower = rank != 0;
		if (size != job->nranks) {
			snprintf(err, errlen, "gpu.transport nccl: job '%s' has %d ranks but %d MPI "
			         "processes run (mpirun -np %d)", job->name, (int)job->nranks, size,
			         (int)job->nranks);
			return REACT_EINVAL;
		}
#endif
	}
	react_rt_t *rt = NULL;
	react_bg_t *bg = NULL;
	double *start = NULL, *fct = NULL;
	if ((st = react_rt_create(&rc, &rt, err, errlen)) != REACT_OK)
		return st;
	int64_t e = 0;
	double clock = job->start_s;
	int congested = 0;
	for (;; e++) {
		if (e >= job->epochs)
			break;
		if (!congested && g->npairs && g->p > 0 && e >= g->start_epoch) {
			congested = 1;
			if (rc.transport == REACT_TRANSPORT_HOST) {
				for (int32_t i = 0; i < g->npairs; i++)
					if ((st = react_rt_set_link(rt, g->pairs[i][0], g->pairs[i][1], g->latency_s,
					                            g->bandwidth_Bps * (1 - g->p))) != REACT_OK) {
						snprintf(err, errlen, "%s", react_rt_error(rt));
						goto out;
					}
			} else if ((st = react_bg_create(rt, rc.transport, (const int32_t(*)[2])g->pairs,
			                                 g->npairs, (size_t)(g->p * (double)job->message_bytes),
			                                 &bg, err, errlen)) != REACT_OK) {
				goto out;
			}
		}
		const react_pattern_t *p = cb->pattern_for(cb->ctx, 0, e);
		if (!p)
			break;
		if (g->check && (st = react_rt_fill(rt, p)) != REACT_OK) {
			snprintf(err, errlen, "epoch %lld: %s", (long long)e, react_rt_error(rt));
			goto out;
		}
		react_bg_launch(bg);
		const react_rt_times_t *t = NULL;
		if ((st = react_rt_run(rt, p, &t)) != REACT_OK) {
			snprintf(err, errlen, "epoch %lld: %s", (long long)e, react_rt_error(rt));
			goto out;
		}
		react_bg_sync(bg);
		uint64_t wrong = 0;
		if (g->check && (st = react_rt_check(rt, p, &wrong)) != REACT_OK) {
			snprintf(err, errlen, "epoch %lld: %s", (long long)e, react_rt_error(rt));
			goto out;
		}
		double *ns = realloc(start, t->nflows * sizeof *ns);
		if (!ns) {
			st = REACT_ENOMEM;
			goto out;
		}
		start = ns;
		if (!(ns = realloc(fct, t->nflows * sizeof *ns))) {
			st = REACT_ENOMEM;
			goto out;
		}
		fct = ns;
		double epoch_s = t->epoch_s;
		for (size_t f = 0; f < t->nflows; f++)
			fct[f] = isnan(t->fct_s[f]) ? INFINITY : t->fct_s[f];
#ifdef REACT_HAVE_MPI
		if (rc.transport == REACT_TRANSPORT_NCCL) {
			/* every process gets every flow's time (each knows its own
			 * ends' spans), the slowest epoch time and the wrong count */
			unsigned long long w = wrong, wsum = 0;
			double mx = epoch_s;
			MPI_Allreduce(MPI_IN_PLACE, fct, (int)t->nflows, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
			MPI_Allreduce(&epoch_s, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
			MPI_Allreduce(&w, &wsum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
			epoch_s = mx;
			wrong = wsum;
		}
#endif
		if (wrong) {
			snprintf(err, errlen, "epoch %lld: %llu elements of the %s output differ from the "
			         "expected result (gpu.check)", (long long)e, (unsigned long long)wrong,
			         job->name);
			st = REACT_EBACKEND;
			goto out;
		}
		for (size_t f = 0; f < t->nflows; f++) {
			start[f] = clock;
			if (!isfinite(fct[f]))
				fct[f] = epoch_s;
		}
		react_epoch_report_t rep = {.job = 0, .epoch = e, .start_s = clock,
		                            .end_s = clock + epoch_s, .pattern = p,
		                            .flow_start_s = start, .fct_s = fct};
		if ((st = cb->epoch_done(cb->ctx, &rep)) != REACT_OK) {
			snprintf(err, errlen, "epoch %lld: the driver stopped the run", (long long)e);
			goto out;
		}
		clock += epoch_s + job->compute_gap_s;
	}
	st = REACT_OK;
out:
	react_bg_destroy(bg);
	react_rt_destroy(rt);
	free(start);
	free(fct);
	return st;
}

const react_backend_ops_t react_backend_gpu = {"gpu", gpu_run, NULL, NULL, NULL};
