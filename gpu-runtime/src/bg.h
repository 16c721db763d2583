/*
 * bg.h - rank-pair background traffic of the GPU runtime (gpu.congestion on
 * the local and nccl transports), shared by the gpu backend of the runner
 * and react-gpu run.
 *
 *   local  a device-to-device copy of `bytes` per pair on its own stream
 *          beside every epoch (all ranks share one GPU: it loads the GPU's
 *          memory, not one path);
 *   nccl   the pair's sender streams `bytes` to its receiver over a 2-rank
 *          communicator of its own beside every epoch.
 * The host transport needs none of this: its synthetic link src -> dst is
 * slowed instead (react_rt_set_link).  The traffic itself is on the CUDA
 * side (bg_cuda.c), reached through the plugin table (plugin.h).
 */
#ifndef REACT_GPU_BG_H
#define REACT_GPU_BG_H

#include <stddef.h>
#include <stdint.h>

#include "react/rt.h"

typedef struct react_bg react_bg_t;

/* Make the traffic of npairs [src, dst] pairs, `bytes` per pair and epoch,
 * on rt's transport (local or nccl; nccl: collective over MPI_COMM_WORLD,
 * every rank calls it).  out: NULL when there is nothing to run (no pairs,
 * no bytes, or the host transport).  err: why it failed (the CUDA side
 * missing included). */
react_status_t react_bg_create(react_rt_t *rt, react_transport_t transport,
                               const int32_t (*pairs)[2], int32_t npairs, size_t bytes,
                               react_bg_t **out, char *err, size_t errlen);
/* Start one epoch's traffic (asynchronous); then react_bg_sync waits for it. */
void react_bg_launch(react_bg_t *bg);
void react_bg_sync(react_bg_t *bg);
void react_bg_destroy(react_bg_t *bg);

#endif
