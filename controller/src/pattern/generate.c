/* generate.c - dispatch from (collective, algorithm) to a generator. */
#include "react/generators.h"

react_status_t react_pattern_generate(react_collective_t coll, react_algorithm_t algo,
                                      int32_t nranks, uint64_t bytes, react_pattern_t **out)
{
	if (!out)
		return REACT_EINVAL;
	*out = NULL;
	if (coll == REACT_COLL_ALLREDUCE) {
		switch (algo) {
		case REACT_ALGO_TREE: return react_gen_tree_allreduce(nranks, bytes, out);
		case REACT_ALGO_RING: return react_gen_ring_allreduce(nranks, bytes, out);
		case REACT_ALGO_RHD: return react_gen_rhd_allreduce(nranks, bytes, out);
		default: break;
		}
	} else if (coll == REACT_COLL_ALLGATHER) {
		switch (algo) {
		case REACT_ALGO_RING: return react_gen_ring_allgather(nranks, bytes, out);
		case REACT_ALGO_RECDBL: return react_gen_recdbl_allgather(nranks, bytes, out);
		default: break;
		}
	}
	if ((unsigned)coll >= REACT_COLL_COUNT_ || (unsigned)algo >= REACT_ALGO_COUNT_)
		return REACT_EINVAL;
	return REACT_EUNSUPPORTED;
}
