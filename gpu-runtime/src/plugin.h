/*
 * plugin.h - the CUDA transport plugin of the GPU runtime (internal).
 *
 * The CUDA side of the runtime (the local and nccl transports, their
 * kernels, the rank-pair background traffic on CUDA) is built twice:
 *
 *   - linked into react-gpu (libreact_gpu), whose GPU-only commands call
 *     CUDA and NCCL themselves anyway;
 *   - as a module, libreact_gpu_cuda.so, which build/react (libreact_gpu_host)
 *     loads with dlopen only when a scenario asks for gpu.transport local or
 *     nccl, so that no other command loads CUDA, NCCL and their ~220 MB.
 *
 * Either way the host side reaches the CUDA side through one table,
 * react_gpu_plugin_t, returned by the module's one exported symbol
 * react_gpu_plugin_v1().  The table passes the runtime's internal structs
 * (react_rt_cfg_t, react_xport_t and its ops) across, so the host side
 * accepts a module only when its ABI number and those structs' sizes are its
 * own.  ABI 1 is frozen: a change to this table or to those structs takes a
 * new number and a new entry point (react_gpu_plugin_v2).
 */
#ifndef REACT_GPU_PLUGIN_H
#define REACT_GPU_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "react/rt.h"
#include "xport.h"

#ifdef __cplusplus
extern "C" {
#endif

#define REACT_GPU_PLUGIN_ABI 1
#define REACT_GPU_PLUGIN_ENTRY "react_gpu_plugin_v1"
#define REACT_GPU_PLUGIN_FILE "libreact_gpu_cuda.so"
/* The environment variable naming the module's path (it replaces the search). */
#define REACT_GPU_PLUGIN_ENV "REACT_GPU_PLUGIN"

/* Background traffic of one run on the CUDA side (bg_cuda.c). */
typedef struct react_bg_cuda react_bg_cuda_t;
react_status_t react_bg_cuda_create(react_transport_t transport, int32_t rank,
                                    const int32_t (*pairs)[2], int32_t npairs, size_t bytes,
                                    react_bg_cuda_t **out, char *err, size_t errlen);
void react_bg_cuda_launch(react_bg_cuda_t *bg);
void react_bg_cuda_sync(react_bg_cuda_t *bg);
void react_bg_cuda_destroy(react_bg_cuda_t *bg);

typedef react_status_t (*react_xport_create_fn)(const react_rt_cfg_t *cfg, size_t data_bytes,
                                                 size_t scratch_bytes, react_xport_t **out,
                                                 char *err, size_t errlen);

typedef struct react_gpu_plugin {
	uint32_t abi;            /* REACT_GPU_PLUGIN_ABI */
	uint32_t size;           /* sizeof (react_gpu_plugin_t) where it was built */
	uint32_t rt_cfg_size;    /* sizeof (react_rt_cfg_t) */
	uint32_t xport_size;     /* sizeof (react_xport_t) */
	uint32_t xport_ops_size; /* sizeof (react_xport_ops_t) */
	const char *version;     /* REACT's version it was built from */
	const char *built_with;  /* e.g. "CUDA 13000, NCCL 22803, MPI" */
	/* Transport constructors (xport.h).  nccl_create is NULL when the
	 * module was built without NCCL or MPI.  Input: cfg, buffer sizes;
	 * output: *out; on failure err (errlen bytes) says why. */
	react_xport_create_fn local_create;
	react_xport_create_fn nccl_create;
	/* Rank-pair background traffic (bg.h) on transport local or nccl:
	 * npairs [src, dst] pairs, `bytes` (a multiple of 16, > 0) per pair and
	 * epoch; rank: this process's rank (nccl: its MPI rank; collective over
	 * MPI_COMM_WORLD).  Output *out; on failure err says why. */
	react_status_t (*bg_create)(react_transport_t transport, int32_t rank,
	                            const int32_t (*pairs)[2], int32_t npairs, size_t bytes,
	                            react_bg_cuda_t **out, char *err, size_t errlen);
	void (*bg_launch)(react_bg_cuda_t *bg); /* one epoch's traffic, asynchronous */
	void (*bg_sync)(react_bg_cuda_t *bg);   /* wait for it */
	void (*bg_destroy)(react_bg_cuda_t *bg);
} react_gpu_plugin_t;

/* The module's entry point (the one symbol it exports). */
typedef const react_gpu_plugin_t *(*react_gpu_plugin_v1_fn)(void);
const react_gpu_plugin_t *react_gpu_plugin_v1(void);

/* The CUDA side's table for transport t (local or nccl), loaded on first
 * use (plugin_load.c): the linked-in one where the program has CUDA linked
 * (react-gpu), else the module, found at $REACT_GPU_PLUGIN, or else next to
 * the executable (EXE_DIR/, EXE_DIR/gpu-runtime/ in a build tree,
 * EXE_DIR/../LIBDIR/react/ when installed).  Loaded once per process and
 * never unloaded.  Output *out.  On failure (REACT_EUNSUPPORTED) err names
 * the transport, every path tried with dlerror()'s reason, or the mismatch
 * (ABI, struct sizes, a module without NCCL for nccl). */
react_status_t react_gpu_plugin_get(react_transport_t t, const react_gpu_plugin_t **out,
                                    char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
