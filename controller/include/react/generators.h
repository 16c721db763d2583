/*
 * react/generators.h - collective patterns exactly as their references run them.
 *
 * Every generator returns a finalized pattern that passes
 * react_pattern_check(); `bytes` is the collective's message size S
 * (AllReduce: the vector; AllGather: the gathered output, N blocks of S/N).
 * Requirements (checked, REACT_EINVAL otherwise): nranks >= 2, bytes >= 1.
 * No generator silently falls back to another algorithm.
 */
#ifndef REACT_GENERATORS_H
#define REACT_GENERATORS_H

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One node of an NCCL binary tree (src/graph/trees.cc, NCCL 2.28). */
typedef struct react_btree_node {
	react_rank_t up;       /* parent, REACT_RANK_NONE at the root */
	react_rank_t down0;    /* first child or REACT_RANK_NONE */
	react_rank_t down1;    /* second child or REACT_RANK_NONE */
	int parent_child_type; /* 0: first child of its parent, 1: second; -1 at root */
} react_btree_node_t;

/* ncclGetBtree: the tree rooted at 0. */
react_btree_node_t react_nccl_btree(int32_t nranks, react_rank_t rank);
/* ncclGetDtree: t0 is the btree, t1 the mirror (N even) or shift (N odd). */
void react_nccl_dtree(int32_t nranks, react_rank_t rank, react_btree_node_t *t0,
                      react_btree_node_t *t1);

react_status_t react_gen_tree_allreduce(int32_t nranks, uint64_t bytes, react_pattern_t **out);
react_status_t react_gen_ring_allreduce(int32_t nranks, uint64_t bytes, react_pattern_t **out);
react_status_t react_gen_ring_allgather(int32_t nranks, uint64_t bytes, react_pattern_t **out);
react_status_t react_gen_recdbl_allgather(int32_t nranks, uint64_t bytes, react_pattern_t **out);
react_status_t react_gen_rhd_allreduce(int32_t nranks, uint64_t bytes, react_pattern_t **out);

/* Dispatch on (collective, algorithm); REACT_EUNSUPPORTED for a pair that
 * has no generator (e.g. allgather + tree). */
react_status_t react_pattern_generate(react_collective_t coll, react_algorithm_t algo,
                                      int32_t nranks, uint64_t bytes, react_pattern_t **out);

#ifdef __cplusplus
}
#endif
#endif
