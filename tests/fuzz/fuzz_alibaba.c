/*
 * fuzz_alibaba.c - the Alibaba cluster CSV reader (sim/src/topology_alibaba.c).
 * Contract: failure gives a non-empty error naming the file; success gives a
 * consistent topology with the hosts asked for, all of them (nhosts 0, one
 * aggregation switch per ToR) and then half of them with up to three.
 */
#include <string.h>

#include "fuzz.h"
#include "react/topology.h"

static react_topology_t *read_csv(const char *path, int32_t nhosts, int32_t aggs)
{
	char err[1024] = "";
	react_topology_t *t = NULL;
	react_status_t st = react_topo_alibaba(path, nhosts, aggs, 100e9, 1e-6, &t, err, sizeof err);
	if (st != REACT_OK) {
		FUZZ_CHECK(err[0] && strstr(err, path), "error '%s'", err);
		FUZZ_CHECK(t == NULL, "a topology on failure");
		return NULL;
	}
	FUZZ_CHECK(t->nhosts > 0 && (nhosts == 0 || t->nhosts == nhosts), "%d hosts, asked %d",
	           t->nhosts, nhosts);
	for (int32_t h = 0; h < t->nhosts; h++)
		FUZZ_CHECK(t->host_node[h] == h && t->kind[h] == REACT_NODE_HOST, "host %d", h);
	for (int32_t l = 0; l < t->nlinks; l++)
		FUZZ_CHECK(t->links[l].a >= 0 && t->links[l].a < t->nnodes && t->links[l].b >= 0 &&
		           t->links[l].b < t->nnodes && t->links[l].a != t->links[l].b, "link %d", l);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(0, data, size, ".csv");
	react_topology_t *t = read_csv(path, 0, 1);
	if (!t)
		return 0;
	int32_t naggs = 0;
	for (int32_t i = 0; i < t->nnodes; i++)
		naggs += t->kind[i] == REACT_NODE_AGG;
	react_topology_t *u = read_csv(path, (t->nhosts + 1) / 2, naggs < 3 ? naggs : 3);
	FUZZ_CHECK(u != NULL, "a subset of a file read whole was refused");
	react_topology_destroy(u);
	react_topology_destroy(t);
	return 0;
}
