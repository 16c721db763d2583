/* topology.c - topology memory, the node/link builder, star and fat-tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology_priv.h"

void react_topology_destroy(react_topology_t *t)
{
	if (!t)
		return;
	if (t->node_name)
		for (int32_t i = 0; i < t->nnodes; i++)
			free(t->node_name[i]);
	free(t->node_name);
	free(t->kind);
	free(t->host_node);
	free(t->links);
	free(t);
}

const char *react_node_kind_name(react_node_kind_t k)
{
	switch (k) {
	case REACT_NODE_HOST: return "host";
	case REACT_NODE_TOR: return "tor";
	case REACT_NODE_AGG: return "agg";
	case REACT_NODE_CORE: return "core";
	case REACT_NODE_SWITCH: return "switch";
	}
	return "switch";
}

react_status_t react_tb_init(react_topo_builder_t *b, const char *name)
{
	memset(b, 0, sizeof *b);
	b->t = calloc(1, sizeof *b->t);
	if (!b->t)
		return REACT_ENOMEM;
	snprintf(b->t->name, sizeof b->t->name, "%s", name ? name : "");
	return REACT_OK;
}

int react_tb_grow(void **p, int32_t *cap, int32_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	int32_t nc = *cap ? *cap * 2 : 64;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, (size_t)nc * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

react_status_t react_tb_node(react_topo_builder_t *b, react_node_kind_t kind, const char *name,
                             int32_t *id)
{
	react_topology_t *t = b->t;
	int32_t cap = b->node_cap;
	if (react_tb_grow((void **)&t->kind, &cap, t->nnodes + 1, sizeof *t->kind))
		return REACT_ENOMEM;
	cap = b->node_cap;
	if (react_tb_grow((void **)&t->node_name, &cap, t->nnodes + 1, sizeof *t->node_name))
		return REACT_ENOMEM;
	b->node_cap = cap;
	char *nm = strdup(name);
	if (!nm)
		return REACT_ENOMEM;
	if (kind == REACT_NODE_HOST) {
		if (react_tb_grow((void **)&t->host_node, &b->host_cap, t->nhosts + 1, sizeof *t->host_node)) {
			free(nm);
			return REACT_ENOMEM;
		}
		t->host_node[t->nhosts++] = t->nnodes;
	}
	t->kind[t->nnodes] = kind;
	t->node_name[t->nnodes] = nm;
	if (id)
		*id = t->nnodes;
	t->nnodes++;
	return REACT_OK;
}

react_status_t react_tb_link(react_topo_builder_t *b, int32_t a, int32_t c, double rate_bps,
                             double delay_s)
{
	react_topology_t *t = b->t;
	if (a < 0 || c < 0 || a >= t->nnodes || c >= t->nnodes || a == c || !(rate_bps > 0) ||
	    !(delay_s >= 0))
		return REACT_EINVAL;
	if (react_tb_grow((void **)&t->links, &b->link_cap, t->nlinks + 1, sizeof *t->links))
		return REACT_ENOMEM;
	t->links[t->nlinks++] = (react_link_t){a, c, rate_bps, delay_s};
	return REACT_OK;
}

react_topology_t *react_tb_finish(react_topo_builder_t *b)
{
	react_topology_t *t = b->t;
	b->t = NULL;
	return t;
}

void react_tb_abort(react_topo_builder_t *b)
{
	react_topology_destroy(b->t);
	b->t = NULL;
}

int32_t react_topo_find_link(const react_topology_t *t, int32_t a, int32_t b)
{
	for (int32_t i = 0; i < t->nlinks; i++)
		if ((t->links[i].a == a && t->links[i].b == b) ||
		    (t->links[i].a == b && t->links[i].b == a))
			return i;
	return -1;
}

/* Star: hosts h0..h{N-1} (node ids 0..N-1), switch s0 (node id N). */
react_status_t react_topo_star(int32_t nhosts, double rate_bps, double delay_s,
                               react_topology_t **out)
{
	react_status_t st;
	react_topo_builder_t b;
	char nm[32];
	int32_t sw;
	if (nhosts < 2 || nhosts > 1000000 || !(rate_bps > 0) || !(delay_s >= 0) || !out)
		return REACT_EINVAL;
	snprintf(nm, sizeof nm, "star-%d", nhosts);
	if ((st = react_tb_init(&b, nm)))
		return st;
	for (int32_t i = 0; i < nhosts; i++) {
		snprintf(nm, sizeof nm, "h%d", i);
		if ((st = react_tb_node(&b, REACT_NODE_HOST, nm, NULL)))
			goto fail;
	}
	if ((st = react_tb_node(&b, REACT_NODE_TOR, "s0", &sw)))
		goto fail;
	for (int32_t i = 0; i < nhosts; i++)
		if ((st = react_tb_link(&b, i, sw, rate_bps, delay_s)))
			goto fail;
	*out = react_tb_finish(&b);
	return REACT_OK;
fail:
	react_tb_abort(&b);
	return st;
}

/*
 * Three-tier fat-tree (Al-Fares et al. 2008) of even parameter k:
 *   pods p = 0..k-1, each with k/2 edge switches e{p}_{j} and k/2 aggregation
 *   switches a{p}_{j}; (k/2)^2 core switches c{i}; k^3/4 hosts h{i}.
 *   Host i sits on edge switch i / (k/2) (pod i / (k/2)^2).  Every edge switch
 *   links to every aggregation switch of its pod; aggregation switch j of every
 *   pod links to core switches j*(k/2) .. j*(k/2) + k/2 - 1.
 * Node ids: hosts 0..k^3/4-1, then edge, aggregation, core switches pod by pod.
 */
react_status_t react_topo_fattree(int32_t k, double rate_bps, double delay_s,
                                  react_topology_t **out)
{
	react_status_t st;
	react_topo_builder_t b;
	char nm[48];
	if (k < 2 || k % 2 || k > 128 || !(rate_bps > 0) || !(delay_s >= 0) || !out)
		return REACT_EINVAL;
	int32_t h = k / 2, nhosts = k * k * k / 4, ncore = h * h;
	snprintf(nm, sizeof nm, "fattree-k%d", k);
	if ((st = react_tb_init(&b, nm)))
		return st;
	for (int32_t i = 0; i < nhosts; i++) {
		snprintf(nm, sizeof nm, "h%d", i);
		if ((st = react_tb_node(&b, REACT_NODE_HOST, nm, NULL)))
			goto fail;
	}
	int32_t edge0 = nhosts, agg0 = nhosts + k * h, core0 = agg0 + k * h;
	for (int32_t p = 0; p < k; p++)
		for (int32_t j = 0; j < h; j++) {
			snprintf(nm, sizeof nm, "e%d_%d", p, j);
			if ((st = react_tb_node(&b, REACT_NODE_TOR, nm, NULL)))
				goto fail;
		}
	for (int32_t p = 0; p < k; p++)
		for (int32_t j = 0; j < h; j++) {
			snprintf(nm, sizeof nm, "a%d_%d", p, j);
			if ((st = react_tb_node(&b, REACT_NODE_AGG, nm, NULL)))
				goto fail;
		}
	for (int32_t i = 0; i < ncore; i++) {
		snprintf(nm, sizeof nm, "c%d", i);
		if ((st = react_tb_node(&b, REACT_NODE_CORE, nm, NULL)))
			goto fail;
	}
	for (int32_t i = 0; i < nhosts; i++)
		if ((st = react_tb_link(&b, i, edge0 + i / h, rate_bps, delay_s)))
			goto fail;
	for (int32_t p = 0; p < k; p++)
		for (int32_t e = 0; e < h; e++)
			for (int32_t a = 0; a < h; a++)
				if ((st = react_tb_link(&b, edge0 + p * h + e, agg0 + p * h + a, rate_bps,
				                        delay_s)))
					goto fail;
	for (int32_t p = 0; p < k; p++)
		for (int32_t a = 0; a < h; a++)
			for (int32_t c = 0; c < h; c++)
				if ((st = react_tb_link(&b, agg0 + p * h + a, core0 + a * h + c, rate_bps,
				                        delay_s)))
					goto fail;
	*out = react_tb_finish(&b);
	return REACT_OK;
fail:
	react_tb_abort(&b);
	return st;
}
