/* The GPU runtime as a backend of the runner's epoch driver (react/gpu_backend.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif

#include "bg.h"
#include "plugin.h"
#include "react/gpu_backend.h"
#include "react/launcher.h"
#include "react/rt.h"

/* Process-wide state of the nccl transport: one process is one rank. */
static struct {
	int nccl;        /* react_gpu_backend_prepare made this process a rank of an nccl run */
	int follower;    /* ... and it is not rank 0 */
	int mpi_here;    /* MPI was initialised by this backend */
	int size;        /* MPI processes */
	int64_t checked; /* epochs whose output was checked (gpu.check) */
	uint64_t wrong;  /* elements found wrong in them, over all processes */
} g_state;

int react_gpu_backend_leader(void)
{
	return !g_state.follower;
}

void react_gpu_backend_checks(int64_t *epochs, uint64_t *wrong)
{
	*epochs = g_state.checked;
	*wrong = g_state.wrong;
}

#ifdef REACT_HAVE_MPI
static void finalize_mpi(void)
{
	int fin = 0;
	MPI_Finalized(&fin);
	if (!fin)
		MPI_Finalize();
}

/* MPI for the nccl transport, initialised once per process: here, unless
 * the program already did (react-gpu's main, react sweep --mpi). */
static react_status_t need_mpi(char *err, size_t errlen)
{
	int inited = 0, prov = 0;
	MPI_Initialized(&inited);
	if (inited)
		return REACT_OK;
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &prov) != MPI_SUCCESS) {
		snprintf(err, errlen, "field 'gpu.transport': nccl: MPI_Init_thread failed");
		return REACT_EBACKEND;
	}
	g_state.mpi_here = 1;
	atexit(finalize_mpi);
	return REACT_OK;
}
#endif

react_status_t react_gpu_backend_prepare(const react_gpu_cfg_t *g, int32_t nranks, char *err,
                                         size_t errlen)
{
	react_transport_t t;
	const react_gpu_plugin_t *pl;
	char why[1536];
	if (react_transport_parse(g->transport, &t) != REACT_OK) {
		snprintf(err, errlen, "field 'gpu.transport': expected host, local or nccl, got '%s'",
		         g->transport);
		return REACT_EINVAL;
	}
	if (t == REACT_TRANSPORT_HOST)
		return REACT_OK;
	if (react_gpu_plugin_get(t, &pl, why, sizeof why) != REACT_OK) {
		snprintf(err, errlen, "field 'gpu.transport': %s", why);
		return REACT_EUNSUPPORTED;
	}
	if (t != REACT_TRANSPORT_NCCL)
		return REACT_OK;
#ifndef REACT_HAVE_MPI
	(void)nranks;
	snprintf(err, errlen, "field 'gpu.transport': nccl runs one MPI process per rank, and this "
	         "program was built without MPI (Open MPI's libopenmpi-dev)");
	return REACT_EUNSUPPORTED;
#else
	int inited = 0, size = 0, rank = 0;
	react_status_t st;
	MPI_Initialized(&inited);
	if (!inited && !react_mpi_launched()) {
		snprintf(err, errlen, "field 'gpu.transport': nccl runs one MPI process per rank: "
		         "mpirun -np %d react run SCENARIO", (int)nranks);
		return REACT_EINVAL;
	}
	if ((st = need_mpi(err, errlen)) != REACT_OK)
		return st;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	g_state.size = size;
	g_state.follower = rank != 0;
	if (size != nranks) {
		snprintf(err, errlen, "field 'gpu.transport': nccl: the job has %d ranks but %d MPI "
		         "processes run (mpirun -np %d)", (int)nranks, size, (int)nranks);
		return REACT_EINVAL;
	}
	g_state.nccl = 1;
	return REACT_OK;
#endif
}

void react_gpu_backend_finish(int failed)
{
#ifdef REACT_HAVE_MPI
	int fin = 0;
	if (!g_state.mpi_here)
		return;
	MPI_Finalized(&fin);
	if (fin)
		return;
	if (failed && g_state.size > 1) {
		/* the peers may wait in a collective for this process forever */
		fflush(stdout);
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, failed);
	}
	MPI_Finalize();
#else
	(void)failed;
#endif
}

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
	if (rc.transport != REACT_TRANSPORT_HOST) {
		/* the CUDA side: linked in, or the plugin (plugin.h) */
		const react_gpu_plugin_t *pl;
		char why[1536];
		if ((st = react_gpu_plugin_get(rc.transport, &pl, why, sizeof why)) != REACT_OK) {
			snprintf(err, errlen, "field 'gpu.transport': %s", why);
			return st;
		}
	}
	rc.nranks = job->nranks;
	rc.max_bytes = job->message_bytes;
	rc.host_latency_s = g->latency_s;
	rc.host_bw_Bps = g->bandwidth_Bps;
	if (rc.transport == REACT_TRANSPORT_NCCL && !g_state.nccl) {
		/* every process must run this same run: only react run sets that up */
		snprintf(err, errlen, "field 'gpu.transport': nccl runs under mpirun -np %d react run "
		         "SCENARIO (one process per rank, rank 0 writes); this command runs "
		         "configurations one process at a time: use transport local or host",
		         (int)job->nranks);
		return REACT_EUNSUPPORTED;
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
#ifdef REACT_HAVE_MPI
		if (rc.transport == REACT_TRANSPORT_NCCL) {
			/* every process runs its own driver and controller on the same
			 * inputs, so all run the same pattern; a process that did not
			 * would post sends and receives no peer matches (a hang) */
			unsigned long long h[2] = {react_pattern_hash(p), ~react_pattern_hash(p)};
			MPI_Allreduce(MPI_IN_PLACE, h, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
			if (h[0] != ~h[1]) {
				snprintf(err, errlen, "epoch %lld: the MPI processes would run different "
				         "patterns (hashes %016llx to %016llx): their controllers diverged",
				         (long long)e, ~h[1], h[0]);
				st = REACT_EBACKEND;
				goto out;
			}
		}
#endif
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
		if (g->check) {
			g_state.checked++;
			g_state.wrong += wrong;
		}
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
