/*
 * react/pattern.h - the collective pattern as a time-expanded network (TEN).
 *
 * A pattern has N ranks, T logical steps and C data chunks.  Each flow moves
 * the sender's current copy of a contiguous range of data chunks
 * [chunk, chunk + nchunks) from `src` to `dst` during logical step `step`;
 * in TEN terms it is the edge (step, src) -> (step + 1, dst).  What the
 * receiver does with the data is `op`: REACT_RECV_REDUCE adds it into its own
 * copy, REACT_RECV_STORE writes it (for reduction collectives this overwrites
 * the chunk; for gather collectives, whose chunks hold per-origin blocks, it
 * writes the blocks carried, i.e. a union).
 *
 * Chunk graphs (the paper's independent chunk sub-graphs, section 5.3.1) are
 * derived: two data chunks belong to the same graph when some flow carries
 * both.  Tree AllReduce has 2, ring AllReduce N, recursive doubling 1.
 *
 * Flow ids are indices into `flows`.  They are stable: transforms relabel
 * src/dst in place and never reorder, so a backend reports the FCT of flow i
 * of the pattern it ran and the controller maps it back.  Flows are kept
 * sorted by step (stable), which react_pattern_finalize() enforces.
 *
 * Ownership: every react_pattern_t is created by this library and freed with
 * react_pattern_destroy().  Fields are public for reading; change src/dst only
 * through the transform functions (or call react_pattern_reindex() after).
 */
#ifndef REACT_PATTERN_H
#define REACT_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "react/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t react_rank_t;
typedef int32_t react_step_t;
#define REACT_RANK_NONE ((react_rank_t)-1)

typedef enum react_collective {
	REACT_COLL_ALLREDUCE = 0,
	REACT_COLL_ALLGATHER,
	REACT_COLL_REDUCESCATTER,
	REACT_COLL_BROADCAST,
	REACT_COLL_REDUCE,
	REACT_COLL_COUNT_
} react_collective_t;

typedef enum react_algorithm {
	REACT_ALGO_TREE = 0, /* NCCL double binary tree (AllReduce) */
	REACT_ALGO_RING,     /* ring (AllReduce, AllGather) */
	REACT_ALGO_RECDBL,   /* recursive doubling (AllGather) */
	REACT_ALGO_RHD,      /* recursive halving-doubling, Rabenseifner (AllReduce) */
	REACT_ALGO_CUSTOM,   /* read from a file, or hand-made */
	REACT_ALGO_COUNT_
} react_algorithm_t;

typedef enum react_recv_op {
	REACT_RECV_STORE = 0,
	REACT_RECV_REDUCE = 1
} react_recv_op_t;

typedef struct react_flow {
	react_step_t step;  /* logical step, 0 .. nsteps-1 */
	react_rank_t src;   /* sender rank */
	react_rank_t dst;   /* receiver rank */
	int32_t chunk;      /* first data chunk carried */
	int32_t nchunks;    /* number of consecutive data chunks carried, >= 1 */
	uint64_t bytes;     /* bytes on the wire */
	react_recv_op_t op; /* what the receiver does */
} react_flow_t;

struct react_pattern_index; /* derived data, opaque */

typedef struct react_pattern {
	react_collective_t collective;
	react_algorithm_t algorithm;
	int32_t nranks;
	int32_t nsteps;          /* set by finalize: 1 + max step */
	int32_t nchunks;         /* data chunks */
	react_rank_t root;       /* Broadcast/Reduce root, else REACT_RANK_NONE */
	uint64_t message_bytes;  /* the collective's message size S */
	size_t nflows;
	size_t cap_;
	react_flow_t *flows;
	struct react_pattern_index *ix_; /* built by finalize/reindex */
} react_pattern_t;

/* Names used in files and on the command line ("allreduce", "tree", ...).
 * The parse functions return REACT_EINVAL for an unknown name. */
const char *react_collective_name(react_collective_t c);
const char *react_algorithm_name(react_algorithm_t a);
react_status_t react_collective_parse(const char *name, react_collective_t *out);
react_status_t react_algorithm_parse(const char *name, react_algorithm_t *out);
/* 1 for AllReduce, ReduceScatter, Reduce; 0 for AllGather, Broadcast. */
int react_collective_is_reduction(react_collective_t c);

/* Create an empty pattern.  out: set to the new pattern on success.
 * Fails with REACT_EINVAL for nranks < 1, nchunks < 1, a bad enum. */
react_status_t react_pattern_create(react_collective_t coll, react_algorithm_t algo,
                                    int32_t nranks, int32_t nchunks,
                                    uint64_t message_bytes, react_pattern_t **out);
/* Append a flow (copied).  No validation beyond memory; see finalize. */
react_status_t react_pattern_add_flow(react_pattern_t *p, const react_flow_t *f);
/* Validate ranges (ranks, steps >= 0, chunk range, nchunks >= 1, src != dst),
 * stable-sort by step, set nsteps, build the index.  On failure `why` (may be
 * NULL, size whylen) names the first offending flow and field. */
react_status_t react_pattern_finalize(react_pattern_t *p, char *why, size_t whylen);
/* Rebuild the index after src/dst were changed in place. */
react_status_t react_pattern_reindex(react_pattern_t *p);
react_status_t react_pattern_clone(const react_pattern_t *p, react_pattern_t **out);
/* Make dst a copy of src (flows, fields and index), reusing dst's memory
 * where it fits: the way to try many transforms of one pattern without
 * allocating for each.  REACT_ENOMEM leaves dst without an index. */
react_status_t react_pattern_copy(react_pattern_t *dst, const react_pattern_t *src);
/* Global permutation of ranks, in place (in-out p): in every flow, src and
 * dst r become perm[r].  perm (in) has p->nranks entries and must be a
 * permutation of 0 .. nranks-1 (REACT_EINVAL otherwise, p untouched).  The
 * root is not moved, exactly as a sequence of REACT_XF_GLOBAL swaps
 * (react/transform.h) leaves it; flow order is kept; the index is rebuilt.
 * The result is NOT checked here. */
react_status_t react_pattern_permute(react_pattern_t *p, const react_rank_t *perm);
void react_pattern_destroy(react_pattern_t *p);
/* 1 when both patterns have the same header and flows, in order. */
int react_pattern_equal(const react_pattern_t *a, const react_pattern_t *b);
/* 1 when b can be a transform of a (what REACT's moves and the oracle's
 * produce): the same ranks and, flow by flow in order, the same step,
 * chunk and bytes; only senders and receivers may differ. */
int react_pattern_same_flows(const react_pattern_t *a, const react_pattern_t *b);
/* 1 when p is a ring: 3 ranks or more, each of which sends to exactly one
 * other rank and receives from exactly one other (a rank's own flows to
 * itself aside), over all its flows; ring AllReduce and AllGather are. */
int react_pattern_is_ring(const react_pattern_t *p);
/* 64-bit FNV-1a over header and flows: a fingerprint for logs and CSVs. */
uint64_t react_pattern_hash(const react_pattern_t *p);

/* ---- derived queries (valid after finalize/reindex; O(1) unless noted) ---- */

/* Flows of step t are flows[react_pattern_step_begin(p,t) .. step_begin(p,t+1)). */
size_t react_pattern_step_begin(const react_pattern_t *p, react_step_t t);
/* Number of flows of step t sent by r / received by r. */
int32_t react_pattern_out_degree(const react_pattern_t *p, react_step_t t, react_rank_t r);
int32_t react_pattern_in_degree(const react_pattern_t *p, react_step_t t, react_rank_t r);
/* k_f of section 5.2: max(out degree of src, in degree of dst) at the flow's step. */
int32_t react_pattern_flow_degree(const react_pattern_t *p, size_t f);
/* Chunk graphs: count, the graph of a data chunk, the graph of a flow. */
int32_t react_pattern_ngraphs(const react_pattern_t *p);
int32_t react_pattern_chunk_graph(const react_pattern_t *p, int32_t chunk);
int32_t react_pattern_flow_graph(const react_pattern_t *p, size_t f);
/* Predecessors of flow f: flows g with g.dst == f.src, g.step < f.step and a
 * data chunk in common.  f may start once all of them have arrived.
 * *preds is set to an array owned by the pattern (valid until the next
 * reindex/destroy); returns its length. */
size_t react_pattern_preds(const react_pattern_t *p, size_t f, const size_t **preds);
/* All predecessor lists at once, for loops over every flow: returns off
 * (nflows + 1 entries), *preds the concatenated lists; flow f's are
 * (*preds)[off[f] .. off[f + 1]).  Owned by the pattern as above; NULL
 * (and *preds NULL) for a pattern without an index. */
const size_t *react_pattern_pred_lists(const react_pattern_t *p, const size_t **preds);
/* Successors of flow f: the flows g that have f among their predecessors,
 * in increasing order (all after f).  *succs (out, may be NULL) is set to an
 * array owned by the pattern (valid until the next reindex/destroy; NULL
 * when f is out of range); returns its length. */
size_t react_pattern_succs(const react_pattern_t *p, size_t f, const size_t **succs);
/* Flows sent by rank r at step t: *ids set to an array owned by the pattern. */
size_t react_pattern_rank_out(const react_pattern_t *p, react_step_t t, react_rank_t r,
                              const size_t **ids);
size_t react_pattern_rank_in(const react_pattern_t *p, react_step_t t, react_rank_t r,
                             const size_t **ids);

#ifdef __cplusplus
}
#endif
#endif
