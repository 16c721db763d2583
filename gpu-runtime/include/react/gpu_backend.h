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
 */
#ifndef REACT_GPU_BACKEND_H
#define REACT_GPU_BACKEND_H

#include "react/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const react_backend_ops_t react_backend_gpu;

/* 0 in an MPI process other than rank 0 of a run on the nccl transport
 * (it must not write results), 1 otherwise. */
int react_gpu_backend_leader(void);

#ifdef __cplusplus
}
#endif
#endif
