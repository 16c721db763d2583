/*
 * react/rt.h - the pattern executor of the GPU runtime (RCollective).
 *
 * A runtime owns the ranks it drives (host, local: all of them, in one
 * process; nccl: this process's one rank), their buffers (allocated once, for
 * the largest message), their lanes (CUDA streams or CPU queues) and events.
 * It runs any finalized pattern (a TEN) on those buffers:
 *
 *   - every rank posts its flows in step order; each chunk graph has its own
 *     set of lanes, one per concurrent flow of that graph at that rank, so
 *     independent chunk graphs and the flows of one step run concurrently;
 *   - the lanes of one (rank, chunk graph, step) join on an event, the
 *     step's reductions run, and the next step of that graph waits on that
 *     event (the paper's Algorithm 2); the host never waits inside a
 *     collective;
 *   - REDUCE flows are received into scratch and summed into the chunk
 *     after the step (fp32 accumulation for fp16/bf16); STORE flows write
 *     in place (into scratch first when the receiver sends the same chunk
 *     in the same step, since flows of a step read pre-step data);
 *   - every flow is timed with events (reused across epochs) at both ends:
 *     its FCT is min(send span, receive span), the span of the party that
 *     started last, i.e. the time from "both ready" to "delivered".
 *
 * Switching patterns only changes who talks to whom: buffers, lanes and
 * communicators stay; a plan per pattern (cached) maps flows to lanes,
 * events and scratch slots.
 *
 * Transports (react_transport_t) run the same executor logic:
 *   host   CPU threads and memcpy, synthetic link delays in virtual time
 *          (deterministic; no CUDA)
 *   local  all ranks in one process on one GPU, a buffer each; a flow is a
 *          device-to-device cudaMemcpyAsync between two ranks' lanes
 *   nccl   one process per GPU (MPI); ncclSend/ncclRecv in group calls,
 *          one communicator per rank pair (true per-flow times) or one
 *          communicator for all (NCCL serialises it: group times)
 *
 * Every function returns a status; on failure `err` of the runtime (see
 * react_rt_error) holds one readable sentence.  Nothing is printed.
 */
#ifndef REACT_RT_H
#define REACT_RT_H

#include <stddef.h>
#include <stdint.h>

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum react_dtype {
	REACT_DT_F32 = 0,
	REACT_DT_F16,
	REACT_DT_BF16,
	REACT_DT_COUNT_
} react_dtype_t;

typedef enum react_transport {
	REACT_TRANSPORT_HOST = 0,
	REACT_TRANSPORT_LOCAL,
	REACT_TRANSPORT_NCCL,
	REACT_TRANSPORT_COUNT_
} react_transport_t;

/* "float"/"half"/"bfloat16" as nccl-tests names them; parse also accepts
 * fp32/fp16/bf16.  Unknown name: REACT_EINVAL. */
const char *react_dtype_name(react_dtype_t t);
react_status_t react_dtype_parse(const char *name, react_dtype_t *out);
size_t react_dtype_size(react_dtype_t t);
const char *react_transport_name(react_transport_t t);
react_status_t react_transport_parse(const char *name, react_transport_t *out);
/* 1 when this program can run the transport: host always; local needs the
 * CUDA side (linked in, as in react-gpu, or the plugin libreact_gpu_cuda.so,
 * loaded on this call: docs/gpu.md), nccl the same built with NCCL and MPI. */
int react_transport_available(react_transport_t t);

typedef struct react_rt_cfg {
	react_transport_t transport;
	int32_t nranks;        /* host/local: ranks driven here; nccl: ignored (MPI world) */
	uint64_t max_bytes;    /* largest message; buffers are sized for it once */
	react_dtype_t dtype;
	int timed;             /* 1: per-flow timing events (default); 0: untimed */
	int scratch_slots;     /* reduce slots of max_bytes each per rank (0: 2) */
	double timeout_s;      /* a collective not done by then fails (REACT_ETIMEOUT); 0: 60 */
	/* host transport: synthetic links, time = latency + bytes / bandwidth */
	double host_latency_s; /* default 5e-6 */
	double host_bw_Bps;    /* default 10e9 */
	double host_reduce_Bps;/* virtual cost of a reduction pass; default 20e9 */
	/* nccl transport */
	int nccl_pair_comms;   /* 1: one communicator per rank pair (default); 0: one for all */
	int device;            /* local/nccl: CUDA device; -1: local rank from MPI (nccl), 0 (local) */
} react_rt_cfg_t;

void react_rt_cfg_default(react_rt_cfg_t *cfg);

typedef struct react_rt react_rt_t;

/* Create the runtime: buffers, lanes and (nccl) communicators.
 * err (may be NULL, size errlen): why it failed. */
react_status_t react_rt_create(const react_rt_cfg_t *cfg, react_rt_t **out, char *err,
                               size_t errlen);
void react_rt_destroy(react_rt_t *rt);
/* The last error's sentence (never NULL). */
const char *react_rt_error(const react_rt_t *rt);
/* Ranks of the collective, and the first rank / number of ranks this process drives. */
int32_t react_rt_nranks(const react_rt_t *rt);
int32_t react_rt_rank0(const react_rt_t *rt);
int32_t react_rt_nlocal(const react_rt_t *rt);

/* Synthetic delay of the link src -> dst (host transport only): latency and
 * bandwidth replace the defaults for that ordered pair. */
react_status_t react_rt_set_link(react_rt_t *rt, react_rank_t src, react_rank_t dst,
                                 double latency_s, double bw_Bps);

/* Compile (or fetch from the cache) the plan for a pattern: lanes, events
 * and scratch slots.  Called by run/enqueue; calling it ahead moves the cost
 * of a first use out of the timed epochs.  REACT_EUNSUPPORTED when the
 * collective is not AllReduce/AllGather or the message does not fit. */
react_status_t react_rt_prepare(react_rt_t *rt, const react_pattern_t *p);

/* Fill every local rank's buffer with the deterministic input of `p`
 * (small integers: every fp sum of up to 64 ranks is exact). */
react_status_t react_rt_fill(react_rt_t *rt, const react_pattern_t *p);

/* Enqueue one execution of p (no host wait), then wait for it. */
react_status_t react_rt_enqueue(react_rt_t *rt, const react_pattern_t *p);
react_status_t react_rt_sync(react_rt_t *rt);

/* Result of one timed execution. */
typedef struct react_rt_times {
	double epoch_s;        /* first start .. last end over the local ranks */
	size_t nflows;
	double *send_span_s;   /* per flow, NaN where the sender is not local */
	double *recv_span_s;   /* per flow, NaN where the receiver is not local */
	double *fct_s;         /* per flow: min of the two spans known here (>0) */
} react_rt_times_t;

/* enqueue + sync + read the times of that execution into *t (owned by rt,
 * valid until the next call).  t may be NULL. */
react_status_t react_rt_run(react_rt_t *rt, const react_pattern_t *p,
                            const react_rt_times_t **t);

/* Compare every local rank's buffer with the collective's expected result
 * for p's input; *wrong: elements that differ, summed over local ranks. */
react_status_t react_rt_check(react_rt_t *rt, const react_pattern_t *p, uint64_t *wrong);

/* Plans compiled (cache misses) and the time the last compile took. */
typedef struct react_rt_stats {
	int64_t plans_compiled;
	double last_compile_s;
	int32_t lanes_per_rank; /* most lanes any plan needed */
	int32_t scratch_slots;
} react_rt_stats_t;
void react_rt_stats(const react_rt_t *rt, react_rt_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
