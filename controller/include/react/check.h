/*
 * react/check.h - the semantic check of the paper's appendix A.3.
 *
 * Every (rank, data chunk) holds a bit vector over origin ranks: for
 * reduction collectives the contributions summed into that chunk, for gather
 * collectives the origin blocks held.  Initially rank r holds {r} (Broadcast:
 * only the root holds {root}).  Flows are applied in step order; all flows of
 * one step read the senders' state from before the step.  REDUCE adds
 * (a contribution present on both sides is a double count), STORE overwrites
 * (reduction collectives) or unions (gather collectives).  A flow whose
 * sender holds nothing of a chunk it sends is an error.  At the end the
 * collective's postcondition is checked:
 *   AllReduce      every rank, every chunk: all N contributions, each once
 *   ReduceScatter  chunk c complete at rank c % N (C must be a multiple of N)
 *   Reduce         every chunk complete at the root
 *   AllGather      every rank holds every block (union over its chunks)
 *   Broadcast      every rank holds the root's block
 */
#ifndef REACT_CHECK_H
#define REACT_CHECK_H

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum react_check_kind {
	REACT_CHECK_OK = 0,
	REACT_CHECK_MISSING,   /* a contribution/block never reached `rank` */
	REACT_CHECK_DUPLICATE, /* a contribution was reduced twice at `rank` */
	REACT_CHECK_NO_DATA,   /* flow `flow` sends a chunk its sender does not hold */
	REACT_CHECK_SHAPE      /* the pattern cannot express its collective (e.g. C % N) */
} react_check_kind_t;

typedef struct react_check_result {
	react_check_kind_t kind;
	react_rank_t rank;         /* first failing rank, or REACT_RANK_NONE */
	int32_t chunk;             /* failing data chunk, or -1 */
	react_rank_t contribution; /* missing/duplicated origin, or REACT_RANK_NONE */
	size_t flow;               /* offending flow for DUPLICATE/NO_DATA, else SIZE_MAX */
	char message[256];         /* one readable sentence naming all of the above */
} react_check_result_t;

/* Reusable workspace: the brute-force equivalence search runs the check
 * millions of times; a checker keeps its buffers between runs.  A checker
 * works for any pattern with the same nranks and nchunks it was made for. */
typedef struct react_checker react_checker_t;
react_status_t react_checker_create(int32_t nranks, int32_t nchunks, react_checker_t **out);
void react_checker_destroy(react_checker_t *c);
/* Returns REACT_OK when the pattern is correct, REACT_ESEMANTIC with *res
 * filled when not (res may be NULL), REACT_EINVAL on a shape mismatch. */
react_status_t react_checker_run(react_checker_t *c, const react_pattern_t *p,
                                 react_check_result_t *res);

/* The same check restricted to one chunk graph (0 .. react_pattern_ngraphs-1):
 * only flows of that graph are applied and only its chunks are checked at
 * the end.  Needs the pattern's index (finalize/reindex); chunk graphs do not
 * depend on src/dst, so relabelling ranks in place keeps them valid.
 * REACT_EINVAL for a graph out of range. */
react_status_t react_checker_run_graph(react_checker_t *c, const react_pattern_t *p,
                                       int32_t graph, react_check_result_t *res);

/* One-shot convenience over a temporary checker. */
react_status_t react_pattern_check(const react_pattern_t *p, react_check_result_t *res);

#ifdef __cplusplus
}
#endif
#endif
