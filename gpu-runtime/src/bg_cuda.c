/*
 * bg_cuda.c - rank-pair background traffic on CUDA (the CUDA side of bg.h,
 * reached through the plugin table, plugin.h):
 *
 *   local  a device-to-device copy of `bytes` per pair on its own stream
 *          beside every epoch;
 *   nccl   the pair's sender streams `bytes` to its receiver over a 2-rank
 *          communicator of its own (made here, collectively over
 *          MPI_COMM_WORLD) beside every epoch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>
#ifdef REACT_HAVE_NCCL
#include <mpi.h>
#include <nccl.h>
#endif

#include "plugin.h"

struct react_bg_cuda {
	int n;
	react_transport_t transport;
	size_t bytes;
	cudaStream_t *s;
	void *(*buf)[2];
#ifdef REACT_HAVE_NCCL
	ncclComm_t *comm; /* nccl: a 2-rank communicator per pair this rank is in */
	int *role;        /* 0 sender, 1 receiver, -1 not in the pair */
#endif
};

react_status_t react_bg_cuda_create(react_transport_t transport, int32_t rank,
                                    const int32_t (*pairs)[2], int32_t npairs, size_t bytes,
                                    react_bg_cuda_t **out, char *err, size_t errlen)
{
	*out = NULL;
#ifndef REACT_HAVE_NCCL
	(void)rank;
	(void)pairs;
	if (transport == REACT_TRANSPORT_NCCL) {
		snprintf(err, errlen, "gpu.congestion on the nccl transport needs NCCL in this build");
		return REACT_EUNSUPPORTED;
	}
#endif
	react_bg_cuda_t *bg = calloc(1, sizeof *bg);
	if (!bg || !(bg->s = calloc((size_t)npairs, sizeof *bg->s)) ||
	    !(bg->buf = calloc((size_t)npairs, sizeof *bg->buf))) {
		react_bg_cuda_destroy(bg);
		snprintf(err, errlen, "no memory for the background traffic of %d pairs", (int)npairs);
		return REACT_ENOMEM;
	}
	bg->n = npairs;
	bg->transport = transport;
	bg->bytes = bytes;
#ifdef REACT_HAVE_NCCL
	if (transport == REACT_TRANSPORT_NCCL) {
		ncclUniqueId *ids = calloc((size_t)npairs, sizeof *ids);
		if (!ids || !(bg->comm = calloc((size_t)npairs, sizeof *bg->comm)) ||
		    !(bg->role = calloc((size_t)npairs, sizeof *bg->role))) {
			free(ids);
			react_bg_cuda_destroy(bg);
			snprintf(err, errlen, "no memory for the background traffic");
			return REACT_ENOMEM;
		}
		if (rank == 0)
			for (int i = 0; i < npairs; i++)
				ncclGetUniqueId(&ids[i]);
		MPI_Bcast(ids, (int)((size_t)npairs * sizeof ids[0]), MPI_BYTE, 0, MPI_COMM_WORLD);
		ncclGroupStart();
		for (int i = 0; i < npairs; i++) {
			bg->role[i] = rank == pairs[i][0] ? 0 : rank == pairs[i][1] ? 1 : -1;
			if (bg->role[i] >= 0)
				ncclCommInitRank(&bg->comm[i], 2, ids[i], bg->role[i]);
		}
		ncclResult_t r = ncclGroupEnd();
		free(ids);
		if (r != ncclSuccess) {
			snprintf(err, errlen, "rank %d: background communicators: %s", (int)rank,
			         ncclGetLastError(NULL));
			react_bg_cuda_destroy(bg);
			return REACT_EBACKEND;
		}
	}
#endif
	for (int i = 0; i < npairs; i++)
		if (cudaStreamCreateWithFlags(&bg->s[i], cudaStreamNonBlocking) != cudaSuccess ||
		    cudaMalloc(&bg->buf[i][0], bytes + 16) != cudaSuccess ||
		    (transport == REACT_TRANSPORT_LOCAL &&
		     cudaMalloc(&bg->buf[i][1], bytes + 16) != cudaSuccess)) {
			snprintf(err, errlen, "cannot allocate the background traffic (%d x %zu bytes)",
			         (int)npairs, bytes);
			react_bg_cuda_destroy(bg);
			return REACT_ENOMEM;
		}
	*out = bg;
	return REACT_OK;
}

void react_bg_cuda_launch(react_bg_cuda_t *bg)
{
	if (!bg)
		return;
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
}

void react_bg_cuda_sync(react_bg_cuda_t *bg)
{
	if (!bg)
		return;
	for (int i = 0; i < bg->n; i++)
		if (bg->s && bg->s[i])
			cudaStreamSynchronize(bg->s[i]);
}

void react_bg_cuda_destroy(react_bg_cuda_t *bg)
{
	if (!bg)
		return;
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
#ifdef REACT_HAVE_NCCL
	free(bg->comm);
	free(bg->role);
#endif
	free(bg);
}
