/* routing.c - BFS hop distances to every host and ECMP next-hop hashing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/routing.h"

struct react_routing {
	const react_topology_t *t;
	int32_t *adj_off; /* CSR over nodes: outgoing directed links */
	int32_t *adj;
	int32_t *dist;    /* [dst_host * nnodes + node] */
	int32_t diameter;
};

int32_t react_dlink_from(const react_topology_t *t, int32_t dl)
{
	const react_link_t *l = &t->links[dl >> 1];
	return (dl & 1) ? l->b : l->a;
}

int32_t react_dlink_to(const react_topology_t *t, int32_t dl)
{
	const react_link_t *l = &t->links[dl >> 1];
	return (dl & 1) ? l->a : l->b;
}

void react_routing_destroy(react_routing_t *r)
{
	if (!r)
		return;
	free(r->adj_off);
	free(r->adj);
	free(r->dist);
	free(r);
}

react_status_t react_routing_create(const react_topology_t *t, react_routing_t **out,
                                    char *err, size_t errlen)
{
	react_status_t st = REACT_ENOMEM;
	react_routing_t *r = calloc(1, sizeof *r);
	int32_t *queue = NULL;
	if (!r)
		return REACT_ENOMEM;
	int32_t n = t->nnodes;
	r->t = t;
	r->adj_off = calloc((size_t)n + 1, sizeof *r->adj_off);
	r->adj = malloc(((size_t)t->nlinks * 2 + 1) * sizeof *r->adj);
	r->dist = malloc(((size_t)t->nhosts * n + 1) * sizeof *r->dist);
	queue = malloc(((size_t)n + 1) * sizeof *queue);
	if (!r->adj_off || !r->adj || !r->dist || !queue)
		goto fail;
	for (int32_t l = 0; l < t->nlinks; l++) {
		r->adj_off[t->links[l].a + 1]++;
		r->adj_off[t->links[l].b + 1]++;
	}
	for (int32_t i = 0; i < n; i++)
		r->adj_off[i + 1] += r->adj_off[i];
	int32_t *fill = queue; /* reuse as cursor */
	memcpy(fill, r->adj_off, (size_t)n * sizeof *fill);
	for (int32_t l = 0; l < t->nlinks; l++) { /* increasing link order per node */
		r->adj[fill[t->links[l].a]++] = 2 * l;
		r->adj[fill[t->links[l].b]++] = 2 * l + 1;
	}
	for (int32_t h = 0; h < t->nhosts; h++) {
		int32_t *d = &r->dist[(size_t)h * n], dst = t->host_node[h], qh = 0, qt = 0;
		for (int32_t i = 0; i < n; i++)
			d[i] = -1;
		/* BFS on the reverse graph: links are full duplex, so the same. */
		d[dst] = 0;
		queue[qt++] = dst;
		while (qh < qt) {
			int32_t u = queue[qh++];
			if (u != dst && t->kind[u] == REACT_NODE_HOST)
				continue; /* hosts do not forward */
			for (int32_t e = r->adj_off[u]; e < r->adj_off[u + 1]; e++) {
				int32_t v = react_dlink_to(t, r->adj[e]);
				if (d[v] < 0) {
					d[v] = d[u] + 1;
					queue[qt++] = v;
				}
			}
		}
		for (int32_t s = 0; s < t->nhosts; s++) {
			int32_t ds = d[t->host_node[s]];
			if (ds < 0) {
				snprintf(err, errlen, "topology %s: host %s cannot reach host %s", t->name,
				         t->node_name[t->host_node[s]], t->node_name[dst]);
				st = REACT_EINVAL;
				goto fail;
			}
			if (ds > r->diameter)
				r->diameter = ds;
		}
	}
	free(queue);
	*out = r;
	return REACT_OK;
fail:
	free(queue);
	react_routing_destroy(r);
	return st;
}

int32_t react_routing_dist(const react_routing_t *r, int32_t node, int32_t dst_host)
{
	return r->dist[(size_t)dst_host * r->t->nnodes + node];
}

int32_t react_routing_diameter(const react_routing_t *r)
{
	return r->diameter;
}

int32_t react_routing_next_hops(const react_routing_t *r, int32_t node, int32_t dst_host,
                                int32_t *dlinks, int32_t cap)
{
	const react_topology_t *t = r->t;
	const int32_t *d = &r->dist[(size_t)dst_host * t->nnodes];
	int32_t dst = t->host_node[dst_host], n = 0;
	if (d[node] <= 0)
		return 0;
	for (int32_t e = r->adj_off[node]; e < r->adj_off[node + 1]; e++) {
		int32_t v = react_dlink_to(t, r->adj[e]);
		if (d[v] != d[node] - 1 || (v != dst && t->kind[v] == REACT_NODE_HOST))
			continue;
		if (n < cap)
			dlinks[n] = r->adj[e];
		n++;
	}
	return n;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t react_ecmp_hash(uint64_t seed, int32_t src_host, int32_t dst_host, uint32_t sport,
                         int32_t node)
{
	uint64_t h = mix(seed);
	h = mix(h ^ (uint32_t)src_host);
	h = mix(h ^ ((uint64_t)(uint32_t)dst_host << 1));
	h = mix(h ^ ((uint64_t)sport << 2));
	return mix(h ^ ((uint64_t)(uint32_t)node << 3));
}

static uint64_t h4(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	return react_ecmp_hash(seed, (int32_t)a, (int32_t)b, (uint32_t)c, (int32_t)(c >> 32));
}

uint64_t react_flow_key(int32_t src_host, int32_t dst_host, uint32_t occurrence)
{
	return mix(mix((uint64_t)(uint32_t)src_host << 32 | (uint32_t)dst_host) ^ occurrence);
}

uint32_t react_flow_label(uint64_t seed, int32_t job, uint64_t key, uint64_t k)
{
	return (uint32_t)h4(seed ^ 0x706f7274ULL, (uint64_t)job, key, k);
}

uint32_t react_ext_label(uint64_t seed, uint64_t ext, uint64_t copy)
{
	return (uint32_t)h4(seed ^ 0x65787465726eULL, ext, copy, 0);
}

uint64_t react_flow_conn(uint64_t seed, int32_t job, int64_t epoch, uint64_t flow,
                         int32_t ecmp_ports)
{
	return h4(seed, (uint64_t)job, (uint64_t)epoch, flow) % (uint64_t)(ecmp_ports > 0 ? ecmp_ports : 1);
}

react_status_t react_routing_path(const react_routing_t *r, int32_t src_host, int32_t dst_host,
                                  uint32_t sport, uint64_t seed, int32_t *dlinks, int32_t cap,
                                  int32_t *len)
{
	const react_topology_t *t = r->t;
	int32_t cand[256];
	if (src_host < 0 || dst_host < 0 || src_host >= t->nhosts || dst_host >= t->nhosts)
		return REACT_EINVAL;
	int32_t u = t->host_node[src_host], dst = t->host_node[dst_host], n = 0;
	while (u != dst) {
		int32_t nc = react_routing_next_hops(r, u, dst_host, cand, 256);
		if (nc <= 0 || n >= cap)
			return REACT_EINVAL;
		if (nc > 256)
			nc = 256;
		int32_t pick = nc == 1 ? 0 : (int32_t)(react_ecmp_hash(seed, src_host, dst_host, sport, u) %
		                                       (uint64_t)nc);
		dlinks[n++] = cand[pick];
		u = react_dlink_to(t, cand[pick]);
	}
	*len = n;
	return REACT_OK;
}
