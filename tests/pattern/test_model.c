/* test_model.c - the TEN pattern model and its derived index. */
#include <criterion/criterion.h>
#include <string.h>

#include "react/generators.h"
#include "react/pattern.h"

static react_pattern_t *mk(int32_t n, int32_t c)
{
	react_pattern_t *p = NULL;
	cr_assert_eq(react_pattern_create(REACT_COLL_ALLREDUCE, REACT_ALGO_CUSTOM, n, c, 100, &p), REACT_OK);
	return p;
}

static void add(react_pattern_t *p, int step, int src, int dst, int chunk, int nch, react_recv_op_t op)
{
	react_flow_t f = {step, src, dst, chunk, nch, 10, op};
	cr_assert_eq(react_pattern_add_flow(p, &f), REACT_OK);
}

Test(model, names_round_trip)
{
	for (int i = 0; i < REACT_COLL_COUNT_; i++) {
		react_collective_t c;
		cr_assert_eq(react_collective_parse(react_collective_name((react_collective_t)i), &c), REACT_OK);
		cr_assert_eq((int)c, i);
	}
	for (int i = 0; i < REACT_ALGO_COUNT_; i++) {
		react_algorithm_t a;
		cr_assert_eq(react_algorithm_parse(react_algorithm_name((react_algorithm_t)i), &a), REACT_OK);
		cr_assert_eq((int)a, i);
	}
	react_collective_t c;
	cr_assert_eq(react_collective_parse("alltoall", &c), REACT_EINVAL);
	cr_assert(react_collective_is_reduction(REACT_COLL_ALLREDUCE));
	cr_assert(!react_collective_is_reduction(REACT_COLL_ALLGATHER));
	cr_assert_str_eq(react_status_str(REACT_OK), "ok");
}

Test(model, create_rejects_bad_shape)
{
	react_pattern_t *p = NULL;
	cr_assert_eq(react_pattern_create(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 0, 1, 1, &p), REACT_EINVAL);
	cr_assert_eq(react_pattern_create(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 2, 0, 1, &p), REACT_EINVAL);
	cr_assert_eq(react_pattern_create(REACT_COLL_COUNT_, REACT_ALGO_RING, 2, 1, 1, &p), REACT_EINVAL);
	cr_assert_null(p);
}

Test(model, finalize_validates_and_names_field)
{
	char why[128];
	react_pattern_t *p = mk(4, 2);
	add(p, 0, 0, 1, 0, 1, REACT_RECV_REDUCE);
	add(p, 0, 2, 4, 0, 1, REACT_RECV_REDUCE);
	cr_assert_eq(react_pattern_finalize(p, why, sizeof why), REACT_EINVAL);
	cr_assert(strstr(why, "flows[1].dst") != NULL, "why: %s", why);
	p->flows[1].dst = 2;
	cr_assert_eq(react_pattern_finalize(p, why, sizeof why), REACT_EINVAL);
	cr_assert(strstr(why, "equals src") != NULL, "why: %s", why);
	p->flows[1].dst = 3;
	p->flows[1].nchunks = 2;
	p->flows[1].chunk = 1;
	cr_assert_eq(react_pattern_finalize(p, why, sizeof why), REACT_EINVAL);
	cr_assert(strstr(why, "flows[1].chunk") != NULL, "why: %s", why);
	p->flows[1].chunk = 0;
	cr_assert_eq(react_pattern_finalize(p, why, sizeof why), REACT_OK, "why: %s", why);
	react_pattern_destroy(p);
}

/* A small hand-made pattern with known index:
 * step 0: 1->0 c0, 2->0 c0 (reduce), 3->2 c1
 * step 1: 0->1 c0 (store), 2->3 c[0,2)   (joins chunk 0 and 1 in one graph)
 * step 2: 1->3 c0
 * Added out of order to exercise the stable sort. */
Test(model, sort_degrees_preds_graphs)
{
	react_pattern_t *p = mk(4, 3);
	add(p, 2, 1, 3, 0, 1, REACT_RECV_STORE);  /* f5 after sort */
	add(p, 0, 1, 0, 0, 1, REACT_RECV_REDUCE); /* f0 */
	add(p, 1, 0, 1, 0, 1, REACT_RECV_STORE);  /* f3 */
	add(p, 0, 2, 0, 0, 1, REACT_RECV_REDUCE); /* f1 */
	add(p, 1, 2, 3, 0, 2, REACT_RECV_STORE);  /* f4 */
	add(p, 0, 3, 2, 1, 1, REACT_RECV_REDUCE); /* f2 */
	cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
	cr_assert_eq(p->nsteps, 3);
	cr_assert_eq(p->flows[0].src, 1);
	cr_assert_eq(p->flows[1].src, 2);
	cr_assert_eq(p->flows[2].src, 3);
	cr_assert_eq(p->flows[3].src, 0);
	cr_assert_eq(p->flows[4].src, 2);
	cr_assert_eq(p->flows[5].src, 1);
	cr_assert_eq(react_pattern_step_begin(p, 0), 0);
	cr_assert_eq(react_pattern_step_begin(p, 1), 3);
	cr_assert_eq(react_pattern_step_begin(p, 2), 5);
	cr_assert_eq(react_pattern_step_begin(p, 3), 6);
	cr_assert_eq(react_pattern_in_degree(p, 0, 0), 2);
	cr_assert_eq(react_pattern_out_degree(p, 0, 0), 0);
	cr_assert_eq(react_pattern_out_degree(p, 0, 1), 1);
	cr_assert_eq(react_pattern_flow_degree(p, 0), 2);
	cr_assert_eq(react_pattern_flow_degree(p, 2), 1);
	const size_t *ids;
	cr_assert_eq(react_pattern_rank_in(p, 0, 0, &ids), 2);
	cr_assert_eq(ids[0], 0);
	cr_assert_eq(ids[1], 1);
	cr_assert_eq(react_pattern_rank_out(p, 1, 2, &ids), 1);
	cr_assert_eq(ids[0], 4);
	/* preds: f3 (0->1 c0 at step 1) waits for f0, f1; f4 (2->3 c0..1) for f2 only;
	 * f5 (1->3 c0 at step 2) for f3. */
	const size_t *pr;
	cr_assert_eq(react_pattern_preds(p, 0, &pr), 0);
	cr_assert_eq(react_pattern_preds(p, 3, &pr), 2);
	cr_assert((pr[0] == 0 && pr[1] == 1) || (pr[0] == 1 && pr[1] == 0));
	cr_assert_eq(react_pattern_preds(p, 4, &pr), 1);
	cr_assert_eq(pr[0], 2);
	cr_assert_eq(react_pattern_preds(p, 5, &pr), 1);
	cr_assert_eq(pr[0], 3);
	/* successors, the same relation read the other way, ascending */
	const size_t *sc;
	cr_assert_eq(react_pattern_succs(p, 0, &sc), 1);
	cr_assert_eq(sc[0], 3);
	cr_assert_eq(react_pattern_succs(p, 1, &sc), 1);
	cr_assert_eq(sc[0], 3);
	cr_assert_eq(react_pattern_succs(p, 2, &sc), 1);
	cr_assert_eq(sc[0], 4);
	cr_assert_eq(react_pattern_succs(p, 3, &sc), 1);
	cr_assert_eq(sc[0], 5);
	cr_assert_eq(react_pattern_succs(p, 4, &sc), 0);
	cr_assert_eq(react_pattern_succs(p, 5, &sc), 0);
	cr_assert_eq(react_pattern_succs(p, 6, &sc), 0);
	cr_assert_null(sc);
	cr_assert_eq(react_pattern_ngraphs(p), 2);
	cr_assert_eq(react_pattern_chunk_graph(p, 0), 0);
	cr_assert_eq(react_pattern_chunk_graph(p, 1), 0);
	cr_assert_eq(react_pattern_chunk_graph(p, 2), 1);
	cr_assert_eq(react_pattern_flow_graph(p, 2), 0);

	react_pattern_t *q = NULL;
	cr_assert_eq(react_pattern_clone(p, &q), REACT_OK);
	cr_assert(react_pattern_equal(p, q));
	cr_assert_eq(react_pattern_hash(p), react_pattern_hash(q));
	q->flows[5].dst = 2;
	cr_assert(!react_pattern_equal(p, q));
	cr_assert_neq(react_pattern_hash(p), react_pattern_hash(q));
	cr_assert_eq(react_pattern_reindex(q), REACT_OK);
	cr_assert_eq(react_pattern_in_degree(q, 2, 2), 1);
	cr_assert_eq(react_pattern_in_degree(q, 2, 3), 0);
	react_pattern_destroy(q);
	react_pattern_destroy(p);
}

/* Successors are the transpose of predecessors, each list ascending and
 * after its flow, on every generator at the sizes that break things. */
Test(model, succs_transpose_preds)
{
	static const int32_t sizes[] = {2, 3, 5, 7, 8, 12, 13, 16, 64};
	react_status_t (*gen[])(int32_t, uint64_t, react_pattern_t **) = {
	    react_gen_tree_allreduce, react_gen_ring_allreduce, react_gen_ring_allgather,
	    react_gen_recdbl_allgather, react_gen_rhd_allreduce};
	int checked = 0;
	for (size_t g = 0; g < sizeof gen / sizeof gen[0]; g++)
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
			react_pattern_t *p = NULL;
			if (gen[g](sizes[k], 1 << 20, &p) != REACT_OK)
				continue; /* recursive doubling, halving-doubling: powers of two */
			size_t F = p->nflows, npred = 0, nsucc = 0;
			for (size_t f = 0; f < F; f++) {
				const size_t *pr, *sc;
				size_t np = react_pattern_preds(p, f, &pr), ns = react_pattern_succs(p, f, &sc);
				npred += np;
				nsucc += ns;
				for (size_t i = 0; i < ns; i++) {
					cr_assert_gt(sc[i], f);
					if (i)
						cr_assert_gt(sc[i], sc[i - 1]);
					const size_t *q;
					size_t nq = react_pattern_preds(p, sc[i], &q), hit = 0;
					for (size_t j = 0; j < nq; j++)
						hit += q[j] == f;
					cr_assert_eq(hit, 1, "N=%d flow %zu: successor %zu lists it %zu times",
					             sizes[k], f, sc[i], hit);
				}
			}
			cr_assert_eq(npred, nsucc);
			react_pattern_destroy(p);
			checked++;
		}
	cr_assert_geq(checked, 4 * 9 / 2);
}

/* FNV-1a over the bytes of v, low byte first, one byte at a time: the
 * definition of react_pattern_hash's fingerprint (stored in logs and
 * CSVs, so it must not change) */
static uint64_t fnv_bytes(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xffu;
		h *= 0x100000001b3ULL;
	}
	return h;
}

Test(model, hash_is_fnv1a_over_header_and_flows)
{
	static const struct { react_collective_t c; react_algorithm_t a; int32_t N; uint64_t S; } gens[] = {
		{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 12, 1 << 20},
		{REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 300, 5000000000ULL},
		{REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL, 8, 3}};
	for (int i = 0; i < 3; i++) {
		react_pattern_t *p;
		uint64_t h = 0xcbf29ce484222325ULL;
		cr_assert_eq(react_pattern_generate(gens[i].c, gens[i].a, gens[i].N, gens[i].S, &p), REACT_OK);
		h = fnv_bytes(h, (uint64_t)p->collective);
		h = fnv_bytes(h, (uint64_t)p->algorithm);
		h = fnv_bytes(h, (uint64_t)(uint32_t)p->nranks);
		h = fnv_bytes(h, (uint64_t)(uint32_t)p->nsteps);
		h = fnv_bytes(h, (uint64_t)(uint32_t)p->nchunks);
		h = fnv_bytes(h, (uint64_t)(uint32_t)p->root);
		h = fnv_bytes(h, p->message_bytes);
		h = fnv_bytes(h, (uint64_t)p->nflows);
		for (size_t f = 0; f < p->nflows; f++) {
			const react_flow_t *fl = &p->flows[f];
			h = fnv_bytes(h, (uint64_t)(uint32_t)fl->step);
			h = fnv_bytes(h, (uint64_t)(uint32_t)fl->src);
			h = fnv_bytes(h, (uint64_t)(uint32_t)fl->dst);
			h = fnv_bytes(h, (uint64_t)(uint32_t)fl->chunk);
			h = fnv_bytes(h, (uint64_t)(uint32_t)fl->nchunks);
			h = fnv_bytes(h, fl->bytes);
			h = fnv_bytes(h, (uint64_t)fl->op);
		}
		cr_assert_eq(react_pattern_hash(p), h, "pattern %d: %llx, FNV-1a gives %llx", i,
		             (unsigned long long)react_pattern_hash(p), (unsigned long long)h);
		react_pattern_destroy(p);
	}
}
