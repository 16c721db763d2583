/*
 * xport.h - the transport interface under the executor (internal).
 *
 * A transport provides, per local rank: lanes (in-order queues: CUDA
 * streams, or CPU queues), events with CUDA's semantics (a wait waits for
 * the latest record enqueued before it), buffers, and the operations below.
 * Every operation is enqueued, never waited for, except sync().  Flow ids
 * index per-flow slots (timing, matching) sized by flows_ensure().
 *
 * The executor calls, per step:  tstart*  group_begin  send* recv*
 * group_end  tend*  (records, waits, reduce/copy).  A send is complete on
 * its lane when the data has left the sender's buffer (the receiver has
 * it); a receive when the data is in the receiver's buffer.
 */
#ifndef REACT_XPORT_H
#define REACT_XPORT_H

#include <stddef.h>
#include <stdint.h>

#include "react/rt.h"

typedef struct react_xport react_xport_t;

typedef struct react_xport_ops {
	const char *name;
	void (*destroy)(react_xport_t *xp);
	/* capacity; may be called again with larger numbers between epochs */
	react_status_t (*lanes_ensure)(react_xport_t *xp, int32_t lanes_per_rank);
	react_status_t (*events_ensure)(react_xport_t *xp, int32_t events_per_rank);
	react_status_t (*flows_ensure)(react_xport_t *xp, size_t nflows);
	/* buffers of local rank lr (allocated at create) */
	void *(*data)(react_xport_t *xp, int32_t lr);
	void *(*scratch)(react_xport_t *xp, int32_t lr);
	/* enqueued operations; lr: local rank index, lane: 0 .. lanes-1 */
	react_status_t (*record)(react_xport_t *xp, int32_t lr, int32_t lane, int32_t ev);
	react_status_t (*wait)(react_xport_t *xp, int32_t lr, int32_t lane, int32_t ev);
	react_status_t (*tstart)(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow, int send);
	react_status_t (*tend)(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow, int send);
	react_status_t (*group_begin)(react_xport_t *xp);
	react_status_t (*send)(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
	                       react_rank_t peer, size_t off, size_t bytes);
	/* to_scratch: write into scratch at `soff` instead of data at `off` */
	react_status_t (*recv)(react_xport_t *xp, int32_t lr, int32_t lane, size_t flow,
	                       react_rank_t peer, size_t off, size_t bytes, int to_scratch,
	                       size_t soff);
	react_status_t (*group_end)(react_xport_t *xp);
	/* data[off..] += sum of scratch[soff[i]..], count elements */
	react_status_t (*reduce)(react_xport_t *xp, int32_t lr, int32_t lane, size_t off,
	                         const size_t *soff, int nsrc, size_t count);
	/* data[off..] = scratch[soff..] */
	react_status_t (*copy)(react_xport_t *xp, int32_t lr, int32_t lane, size_t off,
	                       size_t soff, size_t bytes);
	/* input: element i of rank r's data = react_input_value(r, i) over
	 * [lo, hi), poison elsewhere (gather collectives: only the own block). */
	react_status_t (*fill)(react_xport_t *xp, int32_t lr, react_rank_t rank, size_t count,
	                       size_t lo, size_t hi);
	/* elements of data[0..count) that differ from the expected result:
	 * allreduce: sum over nranks of react_input_value(r, i);
	 * allgather (blk elements per origin block): react_input_value(i / blk, i). */
	react_status_t (*count_wrong)(react_xport_t *xp, int32_t lr, size_t count, int32_t nranks,
	                              int gather, size_t blk, uint64_t *wrong);
	/* wait for everything enqueued on every local lane; REACT_ETIMEOUT after timeout_s */
	react_status_t (*sync)(react_xport_t *xp, double timeout_s);
	/* after sync: span of flow's timed op on this side (NaN if none), seconds */
	double (*span)(react_xport_t *xp, size_t flow, int send);
	/* after sync: seconds from event (lra, eva) to (lrb, evb) */
	double (*elapsed)(react_xport_t *xp, int32_t lra, int32_t eva, int32_t lrb, int32_t evb);
	/* host only: synthetic link */
	react_status_t (*set_link)(react_xport_t *xp, react_rank_t src, react_rank_t dst,
	                           double lat, double bw);
} react_xport_ops_t;

struct react_xport {
	const react_xport_ops_t *ops;
	int32_t nranks;   /* ranks of the collective */
	int32_t rank0;    /* first local rank */
	int32_t nlocal;   /* local ranks: rank0 .. rank0 + nlocal - 1 */
	react_dtype_t dtype;
	char err[256];
};

/* The deterministic input: small integers in [-8, 8]. */
static inline int react_input_value(int32_t rank, uint64_t i)
{
	return (int)((uint64_t)rank * 7u + (i % 4099u) * 13u) % 17 - 8;
}

/* Constructors (NULL ops where the build lacks the transport).  They fill
 * err and return non-OK on failure; on success *out is set. */
react_status_t react_xport_host_create(const react_rt_cfg_t *cfg, size_t data_bytes,
                                       size_t scratch_bytes, react_xport_t **out, char *err,
                                       size_t errlen);
react_status_t react_xport_local_create(const react_rt_cfg_t *cfg, size_t data_bytes,
                                        size_t scratch_bytes, react_xport_t **out, char *err,
                                        size_t errlen);
react_status_t react_xport_nccl_create(const react_rt_cfg_t *cfg, size_t data_bytes,
                                       size_t scratch_bytes, react_xport_t **out, char *err,
                                       size_t errlen);

/* Host element conversions (shared by host transport and checks). */
float react_half_to_float(uint16_t h);
uint16_t react_float_to_half(float f);
float react_bf16_to_float(uint16_t h);
uint16_t react_float_to_bf16(float f);
float react_host_load(react_dtype_t t, const void *base, size_t i);
void react_host_store(react_dtype_t t, void *base, size_t i, float v);

#endif
