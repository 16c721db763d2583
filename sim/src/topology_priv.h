/* topology_priv.h - building topologies node by node (internal to libreact_sim). */
#ifndef REACT_TOPOLOGY_PRIV_H
#define REACT_TOPOLOGY_PRIV_H

#include "react/topology.h"

typedef struct react_topo_builder {
	react_topology_t *t;
	int32_t node_cap, link_cap, host_cap;
} react_topo_builder_t;

react_status_t react_tb_init(react_topo_builder_t *b, const char *name);
/* Adds a node; hosts also get the next host index.  *id (may be NULL): node id. */
react_status_t react_tb_node(react_topo_builder_t *b, react_node_kind_t kind, const char *name,
                             int32_t *id);
react_status_t react_tb_link(react_topo_builder_t *b, int32_t a, int32_t c, double rate_bps,
                             double delay_s);
/* Hands the topology over (b is emptied). */
react_topology_t *react_tb_finish(react_topo_builder_t *b);
void react_tb_abort(react_topo_builder_t *b);

const char *react_node_kind_name(react_node_kind_t k);
/* Make room for `need` elements of `elem` bytes in the array *p of *cap
 * (doubling).  -1 when memory ran out (*p and *cap unchanged). */
int react_tb_grow(void **p, int32_t *cap, int32_t need, size_t elem);
#endif
