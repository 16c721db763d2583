/*
 * fake_plugin.c - a stand-in for libreact_gpu_cuda.so on machines without a
 * GPU: the same entry point and table (gpu-runtime/src/plugin.h), whose
 * local and nccl constructors make the host transport (every rank in this
 * process, virtual time) and whose background traffic does nothing.  It
 * lets the tests run build/react's loader and the nccl transport's
 * processes (react run under mpirun: MPI set-up, the combined flow times,
 * rank 0 alone writing) where no CUDA runs.
 *
 * REACT_FAKE_SLOW_LINK="SRC,DST,LATENCY_S,BYTES_PER_S" slows that link of
 * every runtime made from epoch 0, as gpu.congestion does on the host
 * transport, so a run through this module can be compared with a host run.
 *
 * REACT_FAKE_SPLIT_SPANS=1 under mpirun (Open MPI's OMPI_COMM_WORLD_RANK
 * and _SIZE): process r reports the spans of flows f with f % size == r
 * only (NaN for the others), as a process of the real nccl transport knows
 * only its own ends' spans; the run is then the host run only if every
 * process combines all processes' flow times.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plugin.h"

static const react_xport_ops_t *host_ops;
static react_xport_ops_t split_ops;
static size_t split_rank, split_size = 1;

static double split_span(react_xport_t *xp, size_t flow, int send)
{
	return flow % split_size == split_rank ? host_ops->span(xp, flow, send) : NAN;
}

static react_status_t fake_create(const react_rt_cfg_t *cfg, size_t data_bytes,
                                  size_t scratch_bytes, react_xport_t **out, char *err,
                                  size_t errlen)
{
	react_status_t st = react_xport_host_create(cfg, data_bytes, scratch_bytes, out, err, errlen);
	const char *slow = getenv("REACT_FAKE_SLOW_LINK");
	int src, dst;
	double lat, bw;
	if (st == REACT_OK && slow && sscanf(slow, "%d,%d,%lf,%lf", &src, &dst, &lat, &bw) == 4)
		st = (*out)->ops->set_link(*out, src, dst, lat, bw);
	const char *split = getenv("REACT_FAKE_SPLIT_SPANS"), *r = getenv("OMPI_COMM_WORLD_RANK"),
	           *n = getenv("OMPI_COMM_WORLD_SIZE");
	if (st == REACT_OK && split && *split == '1' && r && n && atoi(n) > 1) {
		host_ops = (*out)->ops;
		split_ops = *host_ops;
		split_ops.span = split_span;
		split_rank = (size_t)atoi(r);
		split_size = (size_t)atoi(n);
		(*out)->ops = &split_ops;
	}
	return st;
}

static react_status_t fake_bg_create(react_transport_t transport, int32_t rank,
                                     const int32_t (*pairs)[2], int32_t npairs, size_t bytes,
                                     react_bg_cuda_t **out, char *err, size_t errlen)
{
	(void)transport, (void)rank, (void)pairs, (void)npairs, (void)bytes, (void)err, (void)errlen;
	*out = NULL;
	return REACT_OK;
}

static void fake_bg_op(react_bg_cuda_t *bg)
{
	(void)bg;
}

static const react_gpu_plugin_t fake = {
	.abi = REACT_GPU_PLUGIN_ABI,
	.size = sizeof(react_gpu_plugin_t),
	.rt_cfg_size = sizeof(react_rt_cfg_t),
	.xport_size = sizeof(react_xport_t),
	.xport_ops_size = sizeof(react_xport_ops_t),
	.version = "test",
	.built_with = "no CUDA: the host transport under the names local and nccl (a test's stand-in)",
	.local_create = fake_create,
	.nccl_create = fake_create,
	.bg_create = fake_bg_create,
	.bg_launch = fake_bg_op,
	.bg_sync = fake_bg_op,
	.bg_destroy = fake_bg_op,
};

__attribute__((visibility("default"))) const react_gpu_plugin_t *react_gpu_plugin_v1(void)
{
	return &fake;
}
