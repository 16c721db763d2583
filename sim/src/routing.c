/* routing.c - BFS hop distances to the hosts and ECMP next-hop hashing.
 *
 * Memory: a table of distances from every node to every host is
 * nhosts x nnodes entries (a 20,000-host star: 1.6 GB as int32).  Only the
 * hosts a run sends to need theirs, so a host's row is made on first use
 * (uint16: hop counts are below 65535, checked) and kept; creating the
 * routing runs a BFS per group of hosts with the same neighbours (all the
 * hosts of a ToR: one) in one scratch row, to check that all hosts reach
 * each other and to measure the diameter, and keeps nothing of it.  A row is published with an atomic compare-and-swap, so routings
 * shared between threads stay safe; every row is the same whichever thread
 * makes it.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/routing.h"

#define FAR UINT16_MAX /* unreachable, in a row */

struct react_routing {
	const react_topology_t *t;
	int32_t *adj_off; /* CSR over nodes: outgoing directed links */
	int32_t *adj;
	_Atomic(uint16_t *) *row; /* per destination host: hops from every node, or NULL */
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
	if (r->row)
		for (int32_t h = 0; h < r->t->nhosts; h++)
			free(atomic_load_explicit(&r->row[h], memory_order_relaxed));
	free(r->row);
	free(r->adj_off);
	free(r->adj);
	free(r);
}

/* Hops from every node to host h into d (-1: unreachable), by BFS on the
 * reverse graph (links are full duplex, so the same graph); hosts other
 * than h do not forward.  queue: nnodes entries of scratch. */
static void bfs(const react_routing_t *r, int32_t h, int32_t *d, int32_t *queue)
{
	const react_topology_t *t = r->t;
	int32_t dst = t->host_node[h], qh = 0, qt = 0;
	for (int32_t i = 0; i < t->nnodes; i++)
		d[i] = -1;
	d[dst] = 0;
	queue[qt++] = dst;
	while (qh < qt) {
		int32_t u = queue[qh++];
		if (u != dst && t->kind[u] == REACT_NODE_HOST)
			continue;
		for (int32_t e = r->adj_off[u]; e < r->adj_off[u + 1]; e++) {
			int32_t v = react_dlink_to(t, r->adj[e]);
			if (d[v] < 0) {
				d[v] = d[u] + 1;
				queue[qt++] = v;
			}
		}
	}
}

/* Host h's row, made on first use; NULL when memory ran out. */
static const uint16_t *row_of(const react_routing_t *r, int32_t h)
{
	uint16_t *row = atomic_load_explicit(&r->row[h], memory_order_acquire);
	if (row)
		return row;
	size_t n = (size_t)r->t->nnodes;
	int32_t *d = malloc(2 * n * sizeof *d);
	row = malloc(n * sizeof *row);
	if (!d || !row) {
		free(d);
		free(row);
		return NULL;
	}
	bfs(r, h, d, d + n);
	for (size_t i = 0; i < n; i++)
		row[i] = d[i] < 0 ? FAR : (uint16_t)d[i]; /* < FAR: checked at creation */
	free(d);
	uint16_t *none = NULL;
	if (!atomic_compare_exchange_strong_explicit(&r->row[h], &none, row, memory_order_acq_rel,
	                                             memory_order_acquire)) {
		free(row); /* another thread made the same row first */
		row = none;
	}
	return row;
}

static uint64_t mix(uint64_t x);

/* Hosts with the same neighbours (the same nodes, as many links to each)
 * have the same distances to every other node, and to each other both
 * ways: one BFS checks them all.  rep[h] (out): the smallest host index of
 * h's group.  -1 when memory ran out. */
typedef struct hkey {
	uint64_t key;
	int32_t deg, host;
} hkey_t;

static int hkey_cmp(const void *x, const void *y)
{
	const hkey_t *a = x, *b = y;
	if (a->deg != b->deg)
		return a->deg < b->deg ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->host > b->host) - (a->host < b->host);
}

static int int_cmp(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
	return (a > b) - (a < b);
}

/* h's neighbours, sorted, into nb (deg entries). */
static void neighbours(const react_routing_t *r, int32_t h, int32_t *nb)
{
	int32_t u = r->t->host_node[h], k = 0;
	for (int32_t e = r->adj_off[u]; e < r->adj_off[u + 1]; e++)
		nb[k++] = react_dlink_to(r->t, r->adj[e]);
	qsort(nb, (size_t)k, sizeof *nb, int_cmp);
}

static int host_groups(const react_routing_t *r, int32_t *rep)
{
	const react_topology_t *t = r->t;
	int32_t maxdeg = 0;
	for (int32_t h = 0; h < t->nhosts; h++) {
		int32_t u = t->host_node[h];
		if (r->adj_off[u + 1] - r->adj_off[u] > maxdeg)
			maxdeg = r->adj_off[u + 1] - r->adj_off[u];
	}
	hkey_t *k = malloc(((size_t)t->nhosts + 1) * sizeof *k);
	int32_t *a = malloc(((size_t)maxdeg + 1) * sizeof *a), *b = malloc(((size_t)maxdeg + 1) * sizeof *b);
	if (!k || !a || !b) {
		free(k);
		free(a);
		free(b);
		return -1;
	}
	for (int32_t h = 0; h < t->nhosts; h++) {
		int32_t u = t->host_node[h];
		k[h].deg = r->adj_off[u + 1] - r->adj_off[u];
		k[h].host = h;
		neighbours(r, h, a);
		k[h].key = 0;
		for (int32_t i = 0; i < k[h].deg; i++)
			k[h].key = mix(k[h].key ^ (uint64_t)(uint32_t)a[i]);
	}
	qsort(k, (size_t)t->nhosts, sizeof *k, hkey_cmp);
	for (int32_t i = 0, first = 0; i < t->nhosts; i++) {
		if (k[i].deg != k[first].deg || k[i].key != k[first].key)
			first = i;
		rep[k[i].host] = k[i].host;
		if (i == first)
			continue;
		neighbours(r, k[first].host, a);
		neighbours(r, k[i].host, b);
		if (!memcmp(a, b, (size_t)k[i].deg * sizeof *a)) /* else a hash collision */
			rep[k[i].host] = k[first].host;
	}
	free(k);
	free(a);
	free(b);
	return 0;
}

react_status_t react_routing_create(const react_topology_t *t, react_routing_t **out,
                                    char *err, size_t errlen)
{
	react_status_t st = REACT_ENOMEM;
	react_routing_t *r = calloc(1, sizeof *r);
	int32_t *queue = NULL, *d = NULL, *rep = NULL;
	if (!r)
		return REACT_ENOMEM;
	int32_t n = t->nnodes;
	r->t = t;
	rep = malloc(((size_t)t->nhosts + 1) * sizeof *rep);
	r->adj_off = calloc((size_t)n + 1, sizeof *r->adj_off);
	r->adj = malloc(((size_t)t->nlinks * 2 + 1) * sizeof *r->adj);
	r->row = calloc((size_t)t->nhosts + 1, sizeof *r->row);
	queue = malloc(((size_t)n + 1) * sizeof *queue);
	d = malloc(((size_t)n + 1) * sizeof *d);
	if (!r->adj_off || !r->adj || !r->row || !queue || !d || !rep)
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
	if (host_groups(r, rep))
		goto fail;
	for (int32_t h = 0; h < t->nhosts; h++) {
		if (rep[h] != h)
			continue; /* as its group's first host, checked before it */
		bfs(r, h, d, queue);
		for (int32_t i = 0; i < n; i++)
			if (d[i] >= FAR) {
				snprintf(err, errlen, "topology %s: a path of %d hops: more than the %d "
				         "routing supports", t->name, d[i], FAR - 1);
				st = REACT_EUNSUPPORTED;
				goto fail;
			}
		for (int32_t s = 0; s < t->nhosts; s++) {
			int32_t ds = d[t->host_node[s]];
			if (ds < 0) {
				snprintf(err, errlen, "topology %s: host %s cannot reach host %s", t->name,
				         t->node_name[t->host_node[s]], t->node_name[t->host_node[h]]);
				st = REACT_EINVAL;
				goto fail;
			}
			if (ds > r->diameter)
				r->diameter = ds;
		}
	}
	free(queue);
	free(d);
	free(rep);
	*out = r;
	return REACT_OK;
fail:
	free(queue);
	free(d);
	free(rep);
	react_routing_destroy(r);
	return st;
}

int32_t react_routing_dist(const react_routing_t *r, int32_t node, int32_t dst_host)
{
	const uint16_t *row = row_of(r, dst_host);
	return row && row[node] != FAR ? row[node] : -1;
}

int32_t react_routing_diameter(const react_routing_t *r)
{
	return r->diameter;
}

int32_t react_routing_next_hops(const react_routing_t *r, int32_t node, int32_t dst_host,
                                int32_t *dlinks, int32_t cap)
{
	const react_topology_t *t = r->t;
	const uint16_t *d = row_of(r, dst_host);
	int32_t dst = t->host_node[dst_host], n = 0;
	if (!d)
		return -1;
	if (d[node] == 0 || d[node] == FAR)
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
		if (nc < 0)
			return REACT_ENOMEM;
		if (nc == 0 || n >= cap)
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
