/*
 * react/topology.h - networks for the simulation backends.
 *
 * Plain data shared by the flow-level simulator and ns-3: nodes (hosts and
 * switches) and full-duplex links, each direction with the link's rate and
 * one-way delay.  Hosts are numbered 0..nhosts-1 (host index); node ids are
 * 0..nnodes-1.  A job places its ranks on host indices.
 */
#ifndef REACT_TOPOLOGY_H
#define REACT_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "react/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum react_node_kind {
	REACT_NODE_HOST = 0,
	REACT_NODE_TOR,    /* edge / leaf switch */
	REACT_NODE_AGG,    /* aggregation */
	REACT_NODE_CORE,   /* core / spine */
	REACT_NODE_SWITCH  /* switch of unknown tier (file-defined) */
} react_node_kind_t;

typedef struct react_link {
	int32_t a, b;       /* node ids */
	double rate_bps;    /* each direction */
	double delay_s;     /* one-way propagation delay */
} react_link_t;

typedef struct react_topology {
	char name[64];
	int32_t nnodes;
	react_node_kind_t *kind; /* per node */
	char **node_name;        /* per node, NUL-terminated */
	int32_t nhosts;
	int32_t *host_node;      /* host index -> node id */
	int32_t nlinks;
	react_link_t *links;
} react_topology_t;

void react_topology_destroy(react_topology_t *t);

#ifdef __cplusplus
}
#endif
#endif
