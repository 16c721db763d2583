/*
 * fuzz_topology.c - the topology file reader (sim/src/topology_file.c):
 * the project's own format, HPCC and SimAI, chosen by the content.
 * Contract: failure gives a non-empty error naming the file; a topology read
 * is consistent (nodes, hosts, links in range, rates > 0, delays >= 0) and
 * reads back the same after react_topo_write() and react_topo_write_hpcc().
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "react/topology.h"

static void check_topology(const react_topology_t *t)
{
	FUZZ_CHECK(t->nnodes > 0 && t->nhosts > 0 && t->nhosts <= t->nnodes, "%d nodes, %d hosts",
	           t->nnodes, t->nhosts);
	for (int32_t h = 0; h < t->nhosts; h++)
		FUZZ_CHECK(t->host_node[h] >= 0 && t->host_node[h] < t->nnodes &&
		           t->kind[t->host_node[h]] == REACT_NODE_HOST, "host %d", h);
	for (int32_t l = 0; l < t->nlinks; l++) {
		const react_link_t *k = &t->links[l];
		FUZZ_CHECK(k->a >= 0 && k->a < t->nnodes && k->b >= 0 && k->b < t->nnodes &&
		           k->a != k->b, "link %d: %d-%d", l, k->a, k->b);
		FUZZ_CHECK(k->rate_bps > 0 && isfinite(k->rate_bps) && k->delay_s >= 0 &&
		           isfinite(k->delay_s), "link %d: rate %g delay %g", l, k->rate_bps, k->delay_s);
	}
}

static int close_enough(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

static void check_same(const react_topology_t *a, const react_topology_t *b, int names)
{
	FUZZ_CHECK(a->nnodes == b->nnodes && a->nhosts == b->nhosts && a->nlinks == b->nlinks,
	           "read back %d/%d/%d, wrote %d/%d/%d", b->nnodes, b->nhosts, b->nlinks, a->nnodes,
	           a->nhosts, a->nlinks);
	for (int32_t i = 0; i < a->nnodes; i++)
		FUZZ_CHECK(!names || (a->kind[i] == b->kind[i] &&
		                      !strcmp(a->node_name[i], b->node_name[i])), "node %d", i);
	for (int32_t h = 0; h < a->nhosts; h++)
		FUZZ_CHECK(a->host_node[h] == b->host_node[h], "host %d", h);
	for (int32_t l = 0; l < a->nlinks; l++)
		FUZZ_CHECK(a->links[l].a == b->links[l].a && a->links[l].b == b->links[l].b &&
		           close_enough(a->links[l].rate_bps, b->links[l].rate_bps) &&
		           close_enough(a->links[l].delay_s, b->links[l].delay_s),
		           "link %d: %.17g %.17g read back as %.17g %.17g", l, a->links[l].rate_bps,
		           a->links[l].delay_s, b->links[l].rate_bps, b->links[l].delay_s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024] = "";
	react_topology_t *t = NULL, *u = NULL;
	const char *path = fuzz_file(0, data, size, ".topo");
	if (react_topo_read(path, &t, err, sizeof err) != REACT_OK) {
		FUZZ_CHECK(err[0] && strstr(err, path), "error '%s'", err);
		FUZZ_CHECK(t == NULL, "a topology on failure");
		return 0;
	}
	check_topology(t);
	const char *back = fuzz_file(1, NULL, 0, ".topo");
	FUZZ_CHECK(react_topo_write(t, back, err, sizeof err) == REACT_OK, "write: %s", err);
	FUZZ_CHECK(react_topo_read(back, &u, err, sizeof err) == REACT_OK, "read back: %s", err);
	check_same(t, u, 1);
	react_topology_destroy(u);
	u = NULL;
	FUZZ_CHECK(react_topo_write_hpcc(t, back, err, sizeof err) == REACT_OK, "write: %s", err);
	FUZZ_CHECK(react_topo_read(back, &u, err, sizeof err) == REACT_OK, "read back: %s", err);
	check_same(t, u, 0);
	react_topology_destroy(u);
	react_topology_destroy(t);
	return 0;
}
