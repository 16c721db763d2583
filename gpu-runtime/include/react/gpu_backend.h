/*
 * react/gpu_backend.h - the GPU runtime as a backend of the runner's epoch
 * driver (`backend: gpu`, `react run --backend gpu`).
 *
 * The job runs on the transport of its `gpu` section (react_gpu_cfg_t):
 * host (CPU threads, synthetic links in virtual time: deterministic, no
 * GPU), local (every rank on one GPU) or nccl (one MPI process per rank:
 * mpirun -np RANKS react run ... --backend gpu).  Every epoch: the driver's
 * pattern for it runs on the runtime (react_rt_run), every flow is timed,
 * the output is checked when gpu.check is on, and the FCTs go back to the
 * driver, which feeds the controller exactly as for a simulation.
 *
 * Decisions are taken between two epochs, synchronously: on the nccl
 * transport every process combines all flows' times (an MPI_Allreduce of
 * the per-flow spans) and runs its own copy of the driver and controller on
 * identical inputs, so every process switches to the same pattern at the
 * same epoch with no broadcast; only rank 0 writes results
 * (react_gpu_backend_leader).  react-gpu's tuner (react/rt_tuner.h) is the
 * asynchronous variant, which overlaps decisions with the next epochs.
 *
 * Epoch times: the host transport's virtual clock, or the GPU time of the
 * collective (first start to last end over all ranks); the run's clock is
 * the sum of epoch times and compute gaps.
 *
 * The local and nccl transports are on the runtime's CUDA side: a program
 * that does not link CUDA (build/react) loads it on first use from the
 * plugin libreact_gpu_cuda.so (docs/gpu.md says where it is looked for);
 * a missing or unloadable plugin is an error naming gpu.transport, the
 * paths tried and why each failed.
 */
#ifndef REACT_GPU_BACKEND_H
#define REACT_GPU_BACKEND_H

#include <stdint.h>

#include "react/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const react_backend_ops_t react_backend_gpu;

/* Called by a program before it runs configuration `g` (a job of nranks
 * ranks) on this backend, and before it prints or writes anything:
 *   host   nothing;
 *   local  loads the CUDA side (the plugin where it is not linked in);
 *   nccl   the same, then makes this process one rank of the run: MPI is
 *          initialised here once (unless the program already did it), the
 *          run must be started by mpirun (or srun) with nranks processes,
 *          and react_gpu_backend_leader() tells rank 0 from the others.
 *          Without this call the backend refuses the nccl transport (a
 *          sweep, say, runs configurations one process at a time).
 * Returns REACT_OK, or a status with err (errlen bytes) naming the field
 * 'gpu.transport' and what is missing. */
react_status_t react_gpu_backend_prepare(const react_gpu_cfg_t *g, int32_t nranks, char *err,
                                         size_t errlen);

/* 0 in an MPI process other than rank 0 of a run on the nccl transport
 * (it must not print or write results), 1 otherwise. */
int react_gpu_backend_leader(void);

/* Epochs whose output was checked (gpu.check) by every run of this process
 * so far, and the elements found wrong in them (nccl: over all ranks).  A
 * run stops at the first epoch with a wrong element. */
void react_gpu_backend_checks(int64_t *epochs, uint64_t *wrong);

/* Called by the program once it is done with the backend, failed != 0 when
 * it failed: where react_gpu_backend_prepare initialised MPI it is
 * finalised here, and a failure in a run of several processes ends them
 * all (MPI_Abort with status `failed`), since the peers of a failed process
 * could wait for it forever in a collective.  Otherwise nothing. */
void react_gpu_backend_finish(int failed);

#ifdef __cplusplus
}
#endif
#endif
