/*
 * transport_cuda.c - the CUDA transports: local and (with NCCL + MPI) nccl.
 *
 * Shared: lanes are non-blocking CUDA streams, events are CUDA events
 * (dependency events without timing; per-flow timing events at both ends,
 * created once and reused every epoch), reductions are kernels.cu's.
 *
 * local: every rank of the collective lives in this process on one GPU with
 *   its own buffers.  A send records "ready" on the sender's lane; the
 *   receive waits for it on the receiver's lane, copies with
 *   cudaMemcpyAsync (device to device) and records "done"; at group_end the
 *   sender's lane waits for "done", so a send completes when the data has
 *   left, as with NCCL.
 *
 * nccl: one rank per process (MPI), one GPU each.  Communicators are made
 *   once, at start-up, non-blocking: either one per rank pair (flows to
 *   different peers are on different communicators, hence truly concurrent
 *   and individually timed) or a single one over all ranks (NCCL serialises
 *   a communicator's work: events time the group).  Every peer is
 *   exchanged with once at start-up so connection set-up stays out of the
 *   epochs.  A peer that fails or hangs: sync() gives up after the timeout,
 *   aborts the communicators (ncclCommAbort) and returns REACT_ETIMEOUT.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>
#ifdef REACT_HAVE_NCCL
#include <mpi.h>
#include <nccl.h>
#endif

#include "kernels.h"
#include "xport.h"

typedef struct cflow {
	cudaEvent_t ready, done;     /* local: sender data ready / receiver copy done */
	cudaEvent_t t0[2], t1[2];    /* [0] receive side, [1] send side */
	int timed_used[2];
	const unsigned char *src[8]; /* local: pending segment sources (FIFO) */
	int nsrc_q, head_q;
} cflow_t;

typedef struct crank {
	unsigned char *data, *scratch;
	cudaStream_t *lanes;
	cudaEvent_t *events;
} crank_t;

typedef struct pend {
	int32_t lr, lane;
	size_t flow;
} pend_t;

typedef struct cxp {
	react_xport_t base;
	int nccl;
	int device;
	int32_t nlanes, nevents;
	size_t nflows;
	crank_t *ranks;
	cflow_t *flows;
	pend_t *pend;
	size_t npend, cappend;
	unsigned long long *dev_wrong;
	size_t data_bytes, scratch_bytes;
#ifdef REACT_HAVE_NCCL
	int pair;
	ncclComm_t *comms;           /* pair: per peer (NULL for self); single: comms[0] */
	int ncomms;
	int mpi_inited_here;
#endif
} cxp_t;

static void seterr(cxp_t *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->base.err, sizeof c->base.err, fmt, ap);
	va_end(ap);
}

#define CU(call)                                                                              \
	do {                                                                                  \
		cudaError_t e_ = (call);                                                      \
		if (e_ != cudaSuccess) {                                                      \
			seterr(c, "%s transport, rank %d: %s failed: %s", c->base.ops->name,    \
			       c->base.rank0, #call, cudaGetErrorString(e_));                 \
			st = REACT_EBACKEND;                                                  \
			goto fail;                                                            \
		}                                                                             \
	} while (0)

static void c_destroy(react_xport_t *xp)
{
	cxp_t *c = (cxp_t *)xp;
	if (!c)
		return;
	cudaSetDevice(c->device);
	cudaDeviceSynchronize();
#ifdef REACT_HAVE_NCCL
	for (int i = 0; c->comms && i < c->ncomms; i++)
		if (c->comms[i])
			ncclCommDestroy(c->comms[i]);
	free(c->comms);
#endif
	for (size_t f = 0; c->flows && f < c->nflows; f++) {
		cflow_t *fl = &c->flows[f];
		cudaEventDestroy(fl->ready);
		cudaEventDestroy(fl->done);
		for (int k = 0; k < 2; k++) {
			cudaEventDestroy(fl->t0[k]);
			cudaEventDestroy(fl->t1[k]);
		}
	}
	free(c->flows);
	for (int32_t r = 0; c->ranks && r < c->base.nlocal; r++) {
		crank_t *rk = &c->ranks[r];
		for (int32_t i = 0; rk->lanes && i < c->nlanes; i++)
			cudaStreamDestroy(rk->lanes[i]);
		for (int32_t i = 0; rk->events && i < c->nevents; i++)
			cudaEventDestroy(rk->events[i]);
		free(rk->lanes);
		free(rk->events);
		cudaFree(rk->data);
		cudaFree(rk->scratch);
	}
	free(c->ranks);
	free(c->pend);
	cudaFree(c->dev_wrong);
#ifdef REACT_HAVE_NCCL
	if (c->mpi_inited_here)
		MPI_Finalize();
#endif
	free(c);
}

static react_status_t c_lanes_ensure(react_xport_t *xp, int32_t n)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	if (n <= c->nlanes)
		return REACT_OK;
	for (int32_t r = 0; r < c->base.nlocal; r++) {
		cudaStream_t *nl = realloc(c->ranks[r].lanes, (size_t)n * sizeof *nl);
		if (!nl)
			return REACT_ENOMEM;
		c->ranks[r].lanes = nl;
		for (int32_t i = c->nlanes; i < n; i++)
			CU(cudaStreamCreateWithFlags(&nl[i], cudaStreamNonBlocking));
	}
	c->nlanes = n;
fail:
	return st;
}

static react_status_t c_events_ensure(react_xport_t *xp, int32_t n)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	if (n <= c->nevents)
		return REACT_OK;
	for (int32_t r = 0; r < c->base.nlocal; r++) {
		cudaEvent_t *ne = realloc(c->ranks[r].events, (size_t)n * sizeof *ne);
		if (!ne)
			return REACT_ENOMEM;
		c->ranks[r].events = ne;
		/* events 0 and 1 (epoch start and end) are timed */
		for (int32_t i = c->nevents; i < n; i++)
			CU(cudaEventCreateWithFlags(&ne[i], i < 2 ? cudaEventDefault : cudaEventDisableTiming));
	}
	c->nevents = n;
fail:
	return st;
}

static react_status_t c_flows_ensure(react_xport_t *xp, size_t n)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	if (n <= c->nflows)
		return REACT_OK;
	cflow_t *nf = realloc(c->flows, n * sizeof *nf);
	if (!nf)
		return REACT_ENOMEM;
	c->flows = nf;
	for (size_t f = c->nflows; f < n; f++) {
		memset(&nf[f], 0, sizeof nf[f]);
		CU(cudaEventCreateWithFlags(&nf[f].ready, cudaEventDisableTiming));
		CU(cudaEventCreateWithFlags(&nf[f].done, cudaEventDisableTiming));
		for (int k = 0; k < 2; k++) {
			CU(cudaEventCreate(&nf[f].t0[k]));
			CU(cudaEventCreate(&nf[f].t1[k]));
		}
		c->nflows = f + 1;
	}
fail:
	return st;
}

static void *c_data(react_xport_t *xp, int32_t lr)
{
	return ((cxp_t *)xp)->ranks[lr].data;
}

static void *c_scratch(react_xport_t *xp, int32_t lr)
{
	return ((cxp_t *)xp)->ranks[lr].scratch;
}

static react_status_t c_record(react_xport_t *xp, int32_t lr, int32_t lane, int32_t ev)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	CU(cudaEventRecord(c->ranks[lr].events[ev], c->ranks[lr].lanes[lane]));
fail:
	return st;
}

static react_status_t c_wait(react_xport_t *xp, int32_t lr, int32_t lane, int32_t ev)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	CU(cudaStreamWaitEvent(c->ranks[lr].lanes[lane], c->ranks[lr].events[ev], 0));
fail:
	return st;
}

/* local: both ends live here, and the receive itself waits for the sender,
 * so one pair of events on the receiver, started after that wait (in
 * l_recv), times the transfer exactly; the send side records nothing.
 * nccl: both ends, around the group (see executor.c). */
static react_status_t c_tstart(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow, int send)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	send = send ? 1 : 0;
	if (!c->nccl) {
		c->flows[flow].timed_used[0] = !send ? 2 : c->flows[flow].timed_used[0];
		return REACT_OK;
	}
	c->flows[flow].timed_used[send] = 1;
	CU(cudaEventRecord(c->flows[flow].t0[send], c->ranks[lr].lanes[lane]));
fail:
	return st;
}

static react_status_t c_tend(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow, int send)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	if (!c->nccl && send)
		return REACT_OK;
	CU(cudaEventRecord(c->flows[flow].t1[send ? 1 : 0], c->ranks[lr].lanes[lane]));
fail:
	return st;
}

static react_status_t c_reduce(react_xport_t *xp, int32_t lr, int32_t lane, size_t off,
                               const size_t *soff, int nsrc, size_t count)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	const void *src[REACT_CU_MAX_SRC];
	if (nsrc < 1 || nsrc > REACT_CU_MAX_SRC) {
		seterr(c, "%s transport: reduction of %d sources", c->base.ops->name, nsrc);
		return REACT_EINVAL;
	}
	for (int k = 0; k < nsrc; k++)
		src[k] = c->ranks[lr].scratch + soff[k];
	CU(react_cu_reduce(c->ranks[lr].data + off, src, nsrc, count, (int)c->base.dtype,
	                   c->ranks[lr].lanes[lane]));
fail:
	return st;
}

static react_status_t c_copy(react_xport_t *xp, int32_t lr, int32_t lane, size_t off, size_t soff,
                             size_t bytes)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	CU(cudaMemcpyAsync(c->ranks[lr].data + off, c->ranks[lr].scratch + soff, bytes,
	                   cudaMemcpyDeviceToDevice, c->ranks[lr].lanes[lane]));
fail:
	return st;
}

static react_status_t c_fill(react_xport_t *xp, int32_t lr, react_rank_t rank, size_t count,
                             size_t lo, size_t hi)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	CU(react_cu_fill(c->ranks[lr].data, (int)c->base.dtype, rank, count, lo, hi, c->ranks[lr].lanes[0]));
fail:
	return st;
}

static react_status_t c_count_wrong(react_xport_t *xp, int32_t lr, size_t count, int32_t nranks,
                                    int gather, size_t blk, uint64_t *wrong)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	unsigned long long w = 0;
	cudaStream_t s = c->ranks[lr].lanes[0];
	CU(cudaMemsetAsync(c->dev_wrong, 0, sizeof w, s));
	CU(react_cu_count_wrong(c->ranks[lr].data, (int)c->base.dtype, count, nranks, gather, blk,
	                        c->dev_wrong, s));
	CU(cudaMemcpyAsync(&w, c->dev_wrong, sizeof w, cudaMemcpyDeviceToHost, s));
	CU(cudaStreamSynchronize(s));
	*wrong += w;
fail:
	return st;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double c_span(react_xport_t *xp, size_t flow, int send)
{
	cxp_t *c = (cxp_t *)xp;
	send = send ? 1 : 0;
	if (flow >= c->nflows || !c->flows[flow].timed_used[send])
		return NAN;
	float ms = 0;
	if (cudaEventElapsedTime(&ms, c->flows[flow].t0[send], c->flows[flow].t1[send]) != cudaSuccess) {
		cudaGetLastError();
		return NAN;
	}
	return 1e-3 * (double)ms;
}

static double c_elapsed(react_xport_t *xp, int32_t lra, int32_t eva, int32_t lrb, int32_t evb)
{
	cxp_t *c = (cxp_t *)xp;
	float ms = 0;
	if (cudaEventElapsedTime(&ms, c->ranks[lra].events[eva], c->ranks[lrb].events[evb]) != cudaSuccess) {
		cudaGetLastError();
		return NAN;
	}
	return 1e-3 * (double)ms;
}

/* ---------------------------------------------------------------- local */

static react_status_t l_group(react_xport_t *xp)
{
	(void)xp;
	return REACT_OK;
}

static react_status_t l_send(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
                             react_rank_t peer, size_t off, size_t bytes)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	cflow_t *f = &c->flows[flow];
	(void)peer;
	(void)bytes;
	if (f->nsrc_q == 8) {
		seterr(c, "local transport: flow %zu has more than 8 segments in one step", flow);
		return REACT_EUNSUPPORTED;
	}
	f->src[f->nsrc_q++] = c->ranks[lr].data + off;
	CU(cudaEventRecord(f->ready, c->ranks[lr].lanes[lane]));
	if (c->npend == c->cappend) {
		size_t nc = c->cappend ? 2 * c->cappend : 64;
		pend_t *np = realloc(c->pend, nc * sizeof *np);
		if (!np)
			return REACT_ENOMEM;
		c->pend = np;
		c->cappend = nc;
	}
	c->pend[c->npend++] = (pend_t){lr, lane, flow};
fail:
	return st;
}

static react_status_t l_recv(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
                             react_rank_t peer, size_t off, size_t bytes, int to_scratch, size_t soff)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	cflow_t *f = &c->flows[flow];
	(void)peer;
	if (f->head_q >= f->nsrc_q) {
		seterr(c, "local transport: receive of flow %zu without its send in the same step", flow);
		return REACT_EINVAL;
	}
	const unsigned char *src = f->src[f->head_q++];
	if (f->head_q == f->nsrc_q)
		f->head_q = f->nsrc_q = 0;
	unsigned char *dst = to_scratch ? c->ranks[lr].scratch + soff : c->ranks[lr].data + off;
	cudaStream_t s = c->ranks[lr].lanes[lane];
	CU(cudaStreamWaitEvent(s, f->ready, 0));
	if (f->timed_used[0] == 2) { /* timed (c_tstart): start once the data is ready */
		f->timed_used[0] = 1;
		CU(cudaEventRecord(f->t0[0], s));
	}
	CU(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
	CU(cudaEventRecord(f->done, s));
fail:
	return st;
}

static react_status_t l_group_end(react_xport_t *xp)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	for (size_t i = 0; i < c->npend; i++) {
		pend_t *p = &c->pend[i];
		CU(cudaStreamWaitEvent(c->ranks[p->lr].lanes[p->lane], c->flows[p->flow].done, 0));
	}
	c->npend = 0;
fail:
	return st;
}

static react_status_t l_sync(react_xport_t *xp, double timeout_s)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	double t0 = mono_s();
	for (int32_t r = 0; r < c->base.nlocal; r++)
		for (int32_t i = 0; i < c->nlanes; i++) {
			for (;;) {
				cudaError_t e = cudaStreamQuery(c->ranks[r].lanes[i]);
				if (e == cudaSuccess)
					break;
				if (e != cudaErrorNotReady)
					CU(e);
				if (mono_s() - t0 > timeout_s) {
					seterr(c, "local transport: rank %d lane %d not done after %.1f s", r, i, timeout_s);
					return REACT_ETIMEOUT;
				}
				struct timespec ts = {0, 20000};
				nanosleep(&ts, NULL);
			}
		}
fail:
	return st;
}

static const react_xport_ops_t local_ops = {
	.name = "local",
	.destroy = c_destroy,
	.lanes_ensure = c_lanes_ensure,
	.events_ensure = c_events_ensure,
	.flows_ensure = c_flows_ensure,
	.data = c_data,
	.scratch = c_scratch,
	.record = c_record,
	.wait = c_wait,
	.tstart = c_tstart,
	.tend = c_tend,
	.group_begin = l_group,
	.send = l_send,
	.recv = l_recv,
	.group_end = l_group_end,
	.reduce = c_reduce,
	.copy = c_copy,
	.fill = c_fill,
	.count_wrong = c_count_wrong,
	.sync = l_sync,
	.span = c_span,
	.elapsed = c_elapsed,
	.set_link = NULL,
};

static react_status_t alloc_ranks(cxp_t *c, size_t data_bytes, size_t scratch_bytes)
{
	react_status_t st = REACT_OK;
	c->ranks = calloc((size_t)c->base.nlocal, sizeof *c->ranks);
	if (!c->ranks)
		return REACT_ENOMEM;
	c->data_bytes = data_bytes;
	c->scratch_bytes = scratch_bytes;
	for (int32_t r = 0; r < c->base.nlocal; r++) {
		CU(cudaMalloc((void **)&c->ranks[r].data, data_bytes ? data_bytes : 16));
		CU(cudaMalloc((void **)&c->ranks[r].scratch, scratch_bytes ? scratch_bytes : 16));
	}
	CU(cudaMalloc((void **)&c->dev_wrong, sizeof *c->dev_wrong));
	if ((st = c_lanes_ensure(&c->base, 1)) != REACT_OK)
		goto fail;
	st = c_events_ensure(&c->base, 2);
fail:
	return st;
}

react_status_t react_xport_local_create(const react_rt_cfg_t *cfg, size_t data_bytes,
                                        size_t scratch_bytes, react_xport_t **out, char *err,
                                        size_t errlen)
{
	react_status_t st;
	cxp_t *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "local transport: out of memory");
		return REACT_ENOMEM;
	}
	c->base.ops = &local_ops;
	c->base.nranks = cfg->nranks;
	c->base.rank0 = 0;
	c->base.nlocal = cfg->nranks;
	c->base.dtype = cfg->dtype;
	c->device = cfg->device >= 0 ? cfg->device : 0;
	if (cudaSetDevice(c->device) != cudaSuccess) {
		snprintf(err, errlen, "local transport: no CUDA device %d (%s)", c->device,
		         cudaGetErrorString(cudaGetLastError()));
		free(c);
		return REACT_EBACKEND;
	}
	if ((st = alloc_ranks(c, data_bytes, scratch_bytes)) != REACT_OK) {
		snprintf(err, errlen, "local transport: %s (%d ranks of %zu + %zu bytes)",
		         c->base.err[0] ? c->base.err : "out of memory", cfg->nranks, data_bytes, scratch_bytes);
		c_destroy(&c->base);
		return st;
	}
	*out = &c->base;
	return REACT_OK;
}

/* ----------------------------------------------------------------- nccl */
#ifdef REACT_HAVE_NCCL

#define NC(call)                                                                              \
	do {                                                                                  \
		ncclResult_t r_ = (call);                                                     \
		if (r_ != ncclSuccess && r_ != ncclInProgress) {                              \
			seterr(c, "nccl transport, rank %d: %s failed: %s (%s)", c->base.rank0, \
			       #call, ncclGetErrorString(r_), ncclGetLastError(NULL));        \
			st = REACT_EBACKEND;                                                  \
			goto fail;                                                            \
		}                                                                             \
	} while (0)

static void n_abort_all(cxp_t *c)
{
	for (int i = 0; i < c->ncomms; i++)
		if (c->comms[i]) {
			ncclCommAbort(c->comms[i]);
			c->comms[i] = NULL;
		}
}

/* Wait until no communicator is "in progress" (non-blocking calls). */
static react_status_t n_settle(cxp_t *c, double timeout_s, const char *what)
{
	double t0 = mono_s();
	for (int i = 0; i < c->ncomms; i++) {
		if (!c->comms[i])
			continue;
		for (;;) {
			ncclResult_t a = ncclInProgress;
			ncclResult_t r = ncclCommGetAsyncError(c->comms[i], &a);
			if (r != ncclSuccess || (a != ncclSuccess && a != ncclInProgress)) {
				seterr(c, "nccl transport, rank %d: %s: communicator %d failed: %s", c->base.rank0,
				       what, i, ncclGetErrorString(r != ncclSuccess ? r : a));
				n_abort_all(c);
				return REACT_EBACKEND;
			}
			if (a == ncclSuccess)
				break;
			if (mono_s() - t0 > timeout_s) {
				seterr(c, "nccl transport, rank %d: %s: no progress after %.1f s (a peer died or hangs)",
				       c->base.rank0, what, timeout_s);
				n_abort_all(c);
				return REACT_ETIMEOUT;
			}
		}
	}
	return REACT_OK;
}

static ncclComm_t n_comm(cxp_t *c, react_rank_t peer, int *peer_in_comm)
{
	if (c->pair) {
		*peer_in_comm = peer < c->base.rank0 ? 0 : 1;
		return c->comms[peer];
	}
	*peer_in_comm = peer;
	return c->comms[0];
}

static react_status_t n_group_begin(react_xport_t *xp)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	NC(ncclGroupStart());
fail:
	return st;
}

static react_status_t n_group_end(react_xport_t *xp)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	NC(ncclGroupEnd());
	st = n_settle(c, 60, "group end");
fail:
	return st;
}

static react_status_t n_send(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
                             react_rank_t peer, size_t off, size_t bytes)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	int p;
	(void)flow;
	ncclComm_t comm = n_comm(c, peer, &p);
	NC(ncclSend(c->ranks[lr].data + off, bytes, ncclUint8, p, comm, c->ranks[lr].lanes[lane]));
fail:
	return st;
}

static react_status_t n_recv(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
                             react_rank_t peer, size_t off, size_t bytes, int to_scratch, size_t soff)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	int p;
	(void)flow;
	ncclComm_t comm = n_comm(c, peer, &p);
	unsigned char *dst = to_scratch ? c->ranks[lr].scratch + soff : c->ranks[lr].data + off;
	NC(ncclRecv(dst, bytes, ncclUint8, p, comm, c->ranks[lr].lanes[lane]));
fail:
	return st;
}

static react_status_t n_sync(react_xport_t *xp, double timeout_s)
{
	cxp_t *c = (cxp_t *)xp;
	react_status_t st = REACT_OK;
	double t0 = mono_s();
	for (int32_t i = 0; i < c->nlanes; i++) {
		for (;;) {
			cudaError_t e = cudaStreamQuery(c->ranks[0].lanes[i]);
			if (e == cudaSuccess)
				break;
			if (e != cudaErrorNotReady)
				CU(e);
			for (int k = 0; k < c->ncomms; k++) {
				ncclResult_t a = ncclSuccess;
				if (c->comms[k] && ncclCommGetAsyncError(c->comms[k], &a) == ncclSuccess &&
				    a != ncclSuccess && a != ncclInProgress) {
					seterr(c, "nccl transport, rank %d: communicator %d failed: %s", c->base.rank0, k,
					       ncclGetErrorString(a));
					n_abort_all(c);
					return REACT_EBACKEND;
				}
			}
			if (mono_s() - t0 > timeout_s) {
				seterr(c, "nccl transport, rank %d: lane %d not done after %.1f s: a peer died or "
				          "hangs; communicators aborted", c->base.rank0, i, timeout_s);
				n_abort_all(c);
				return REACT_ETIMEOUT;
			}
			struct timespec ts = {0, 20000};
			nanosleep(&ts, NULL);
		}
	}
fail:
	return st;
}

static const react_xport_ops_t nccl_ops = {
	.name = "nccl",
	.destroy = c_destroy,
	.lanes_ensure = c_lanes_ensure,
	.events_ensure = c_events_ensure,
	.flows_ensure = c_flows_ensure,
	.data = c_data,
	.scratch = c_scratch,
	.record = c_record,
	.wait = c_wait,
	.tstart = c_tstart,
	.tend = c_tend,
	.group_begin = n_group_begin,
	.send = n_send,
	.recv = n_recv,
	.group_end = n_group_end,
	.reduce = c_reduce,
	.copy = c_copy,
	.fill = c_fill,
	.count_wrong = c_count_wrong,
	.sync = n_sync,
	.span = c_span,
	.elapsed = c_elapsed,
	.set_link = NULL,
};

react_status_t react_xport_nccl_create(const react_rt_cfg_t *cfg, size_t data_bytes,
                                       size_t scratch_bytes, react_xport_t **out, char *err,
                                       size_t errlen)
{
	react_status_t st = REACT_OK;
	ncclUniqueId *ids = NULL;
	cxp_t *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "nccl transport: out of memory");
		return REACT_ENOMEM;
	}
	c->base.ops = &nccl_ops;
	c->nccl = 1;
	c->pair = cfg->nccl_pair_comms;
	int inited = 0, rank = 0, size = 1;
	MPI_Initialized(&inited);
	if (!inited) {
		int prov;
		MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &prov);
		c->mpi_inited_here = 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	c->base.nranks = size;
	c->base.rank0 = rank;
	c->base.nlocal = 1;
	c->base.dtype = cfg->dtype;
	if (size < 2) {
		seterr(c, "nccl transport: needs at least 2 MPI processes, got %d", size);
		st = REACT_EINVAL;
		goto fail;
	}
	int ndev = 0;
	CU(cudaGetDeviceCount(&ndev));
	if (cfg->device >= 0) {
		c->device = cfg->device;
	} else {
		MPI_Comm node;
		int lrank = 0;
		MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
		MPI_Comm_rank(node, &lrank);
		MPI_Comm_free(&node);
		c->device = lrank % (ndev > 0 ? ndev : 1);
	}
	CU(cudaSetDevice(c->device));
	if ((st = alloc_ranks(c, data_bytes, scratch_bytes)) != REACT_OK)
		goto fail;
	/* communicators: rank 0 makes every id, everyone gets them all */
	int nid = c->pair ? size * (size - 1) / 2 : 1;
	ids = calloc((size_t)nid, sizeof *ids);
	c->ncomms = c->pair ? size : 1;
	c->comms = calloc((size_t)c->ncomms, sizeof *c->comms);
	if (!ids || !c->comms) {
		st = REACT_ENOMEM;
		seterr(c, "nccl transport: out of memory");
		goto fail;
	}
	if (rank == 0)
		for (int i = 0; i < nid; i++)
			NC(ncclGetUniqueId(&ids[i]));
	MPI_Bcast(ids, (int)((size_t)nid * sizeof *ids), MPI_BYTE, 0, MPI_COMM_WORLD);
	ncclConfig_t conf = NCCL_CONFIG_INITIALIZER;
	conf.blocking = 0;
	if (c->pair)
		conf.maxCTAs = 4; /* many communicators share the GPU: bound each */
	NC(ncclGroupStart());
	if (c->pair) {
		int k = 0;
		for (int i = 0; i < size; i++)
			for (int j = i + 1; j < size; j++, k++) {
				if (i == rank)
					NC(ncclCommInitRankConfig(&c->comms[j], 2, ids[k], 0, &conf));
				else if (j == rank)
					NC(ncclCommInitRankConfig(&c->comms[i], 2, ids[k], 1, &conf));
			}
	} else {
		NC(ncclCommInitRankConfig(&c->comms[0], size, ids[0], rank, &conf));
	}
	NC(ncclGroupEnd());
	if ((st = n_settle(c, cfg->timeout_s > 0 ? cfg->timeout_s : 60, "communicator init")) != REACT_OK)
		goto fail;
	/* warm-up: one exchange with every peer connects the channels now */
	NC(ncclGroupStart());
	for (int p = 0; p < size; p++) {
		if (p == rank)
			continue;
		int pp;
		ncclComm_t comm = n_comm(c, p, &pp);
		NC(ncclSend(c->ranks[0].data, 16, ncclUint8, pp, comm, c->ranks[0].lanes[0]));
		NC(ncclRecv(c->ranks[0].scratch, 16, ncclUint8, pp, comm, c->ranks[0].lanes[0]));
	}
	NC(ncclGroupEnd());
	if ((st = n_settle(c, 60, "warm-up")) != REACT_OK ||
	    (st = n_sync(&c->base, cfg->timeout_s > 0 ? cfg->timeout_s : 60)) != REACT_OK)
		goto fail;
	free(ids);
	*out = &c->base;
	return REACT_OK;
fail:
	snprintf(err, errlen, "%s", c->base.err[0] ? c->base.err : "nccl transport: start-up failed");
	free(ids);
	c_destroy(&c->base);
	return st;
}
#endif
