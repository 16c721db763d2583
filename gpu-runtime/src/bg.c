/* Rank-pair background traffic on the local and nccl transports (bg.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef REACT_HAVE_CUDA
#include <cuda_runtime.h>
#endif
#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif
#ifdef REACT_HAVE_NCCL
#include <nccl.h>
#endif

#include "bg.h"

struct react_bg {
	int n;
	react_transport_t transport;
	size_t bytes;
#ifdef REACT_HAVE_CUDA
	cudaStream_t *s;
	void *(*buf)[2];
#endif
#ifdef REACT_HAVE_NCCL
	ncclComm_t *comm; /* nccl: a 2-rank communicator per pair this rank is in */
	int *role;        /* 0 sender, 1 receiver, -1 not in the pair */
#endif
};

react_status_t react_bg_create(react_rt_t *rt, react_transport_t transport,
                               const int32_t (*pairs)[2], int32_t npairs, size_t bytes,
                               react_bg_t **out, char *err, size_t errlen)
{
	*out = NULL;
	bytes = bytes / 16 * 16;
	if (npairs <= 0 || !bytes || transport == REACT_TRANSPORT_HOST)
		return REACT_OK;
#ifndef REACT_HAVE_CUDA
	(void)rt;
	(void)pairs;
	snprintf(err, errlen, "gpu.congestion on the %s transport needs CUDA in this build",
	         react_transport_name(transport));
	return REACT_EUNSUPPORTED;
#else
#ifndef REACT_HAVE_NCCL
	if (transport == REACT_TRANSPORT_NCCL) {
		snprintf(err, errlen, "gpu.congestion on the nccl transport needs NCCL in this build");
		return REACT_EUNSUPPORTED;
	}
#endif
	react_bg_t *bg = calloc(1, sizeof *bg);
	if (!bg || !(bg->s = calloc((size_t)npairs, sizeof *bg->s)) ||
	    !(bg->buf = calloc((size_t)npairs, sizeof *bg->buf))) {
		react_bg_destroy(bg);
		snprintf(err, errlen, "no memory for the background traffic of %d pairs", (int)npairs);
		return REACT_ENOMEM;
	}
	bg->n = npairs;
	bg->transport = transport;
	bg->bytes = bytes;
#ifdef REACT_HAVE_NCCL
	if (transport == REACT_TRANSPORT_NCCL) {
		int me = react_rt_rank0(rt);
		ncclUniqueId *ids = calloc((size_t)npairs, sizeof *ids);
		if (!ids || !(bg->comm = calloc((size_t)npairs, sizeof *bg->comm)) ||
		    !(bg->role = calloc((size_t)npairs, sizeof *bg->role))) {
			free(ids);
			react_bg_destroy(bg);
			snprintf(err, errlen, "no memory for the background traffic");
			return REACT_ENOMEM;
		}
		if (me == 0)
			for (int i = 0; i < npairs; i++)
				ncclGetUniqueId(&ids[i]);
		MPI_Bcast(ids, (int)((size_t)npairs * sizeof ids[0]), MPI_BYTE, 0, MPI_COMM_WORLD);
		ncclGroupStart();
		for (int i = 0; i < npairs; i++) {
			bg->role[i] = me == pairs[i][0] ? 0 : me == pairs[i][1] ? 1 : -1;
			if (bg->role[i] >= 0)
				ncclCommInitRank(&bg->comm[i], 2, ids[i], bg->role[i]);
		}
		ncclResult_t r = ncclGroupEnd();
		free(ids);
		if (r != ncclSuccess) {
			snprintf(err, errlen, "rank %d: background communicators: %s", me,
			         ncclGetLastError(NULL));
			react_bg_destroy(bg);
			return REACT_EBACKEND;
		}
	}
#else
	(void)rt;
#endif
	for (int i = 0; i < npairs; i++)
		if (cudaStreamCreateWithFlags(&bg->s[i], cudaStreamNonBlocking) != cudaSuccess ||
		    cudaMalloc(&bg->buf[i][0], bytes + 16) != cudaSuccess ||
		    (transport == REACT_TRANSPORT_LOCAL &&
		     cudaMalloc(&bg->buf[i][1], bytes + 16) != cudaSuccess)) {
			snprintf(err, errlen, "cannot allocate the background traffic (%d x %zu bytes)",
			         (int)npairs, bytes);
			react_bg_destroy(bg);
			return REACT_ENOMEM;
		}
	*out = bg;
	return REACT_OK;
#endif
}

void react_bg_launch(react_bg_t *bg)
{
	if (!bg)
		return;
#ifdef REACT_HAVE_CUDA
	for (int i = 0; i < bg->n; i++) {
		if (bg->transport == REACT_TRANSPORT_LOCAL)
			cudaMemcpyAsync(bg->buf[i][1], bg->buf[i][0], bg->bytes, cudaMemcpyDeviceToDevice,
			                bg->s[i]);
#ifdef REACT_HAVE_NCCL
		else if (bg->role[i] == 0)
			ncclSend(bg->buf[i][0], bg->bytes, ncclUint8, 1, bg->comm[i], bg->s[i]);
		else if (bg->role[i] == 1)
			ncclRecv(bg->buf[i][0], bg->bytes, ncclUint8, 0, bg->comm[i], bg->s[i]);
#endif
	}
#endif
}

void react_bg_sync(react_bg_t *bg)
{
	if (!bg)
		return;
#ifdef REACT_HAVE_CUDA
	for (int i = 0; i < bg->n; i++)
		if (bg->s && bg->s[i])
			cudaStreamSynchronize(bg->s[i]);
#endif
}

void react_bg_destroy(react_bg_t *bg)
{
	if (!bg)
		return;
#ifdef REACT_HAVE_CUDA
	for (int i = 0; i < bg->n; i++) {
		if (bg->s && bg->s[i])
			cudaStreamSynchronize(bg->s[i]);
#ifdef REACT_HAVE_NCCL
		if (bg->comm && bg->comm[i])
			ncclCommDestroy(bg->comm[i]);
#endif
		if (bg->s && bg->s[i])
			cudaStreamDestroy(bg->s[i]);
		if (bg->buf) {
			cudaFree(bg->buf[i][0]);
			cudaFree(bg->buf[i][1]);
		}
	}
	free(bg->s);
	free(bg->buf);
#endif
#ifdef REACT_HAVE_NCCL
	free(bg->comm);
	free(bg->role);
#endif
	free(bg);
}
