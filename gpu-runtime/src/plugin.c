/*
 * plugin.c - the entry point of the CUDA side (plugin.h): the table of the
 * local and nccl transports and the background traffic on CUDA.  In
 * libreact_gpu_cuda.so it is the one exported symbol (the module is built
 * with hidden visibility); in react-gpu it is linked in and returned by
 * react_gpu_plugin_get directly.
 */
#include <cuda_runtime_api.h>
#ifdef REACT_HAVE_NCCL
#include <nccl.h>
#endif

#include "plugin.h"

#ifndef REACT_VERSION
#define REACT_VERSION "unknown"
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

#if defined(REACT_HAVE_NCCL) && defined(REACT_HAVE_MPI)
#define BUILT_WITH "CUDA runtime " STR(CUDART_VERSION) ", NCCL " STR(NCCL_VERSION_CODE) ", MPI"
#else
#define BUILT_WITH "CUDA runtime " STR(CUDART_VERSION) ", without NCCL or MPI"
#endif

static const react_gpu_plugin_t plugin = {
	.abi = REACT_GPU_PLUGIN_ABI,
	.size = sizeof(react_gpu_plugin_t),
	.rt_cfg_size = sizeof(react_rt_cfg_t),
	.xport_size = sizeof(react_xport_t),
	.xport_ops_size = sizeof(react_xport_ops_t),
	.version = REACT_VERSION,
	.built_with = BUILT_WITH,
	.local_create = react_xport_local_create,
#if defined(REACT_HAVE_NCCL) && defined(REACT_HAVE_MPI)
	.nccl_create = react_xport_nccl_create,
#else
	.nccl_create = NULL,
#endif
	.bg_create = react_bg_cuda_create,
	.bg_launch = react_bg_cuda_launch,
	.bg_sync = react_bg_cuda_sync,
	.bg_destroy = react_bg_cuda_destroy,
};

__attribute__((visibility("default"))) const react_gpu_plugin_t *react_gpu_plugin_v1(void)
{
	return &plugin;
}
