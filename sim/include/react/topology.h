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

/* Builders.  rate_bps / delay_s apply to every link.  out: the new topology.
 * Errors: REACT_EINVAL for impossible parameters, REACT_EIO/REACT_EPARSE for
 * files, with `err` naming the file, line and what was expected. */
/* N hosts on one switch. */
react_status_t react_topo_star(int32_t nhosts, double rate_bps, double delay_s,
                               react_topology_t **out);
/* Three-tier fat-tree of even parameter k: k^3/4 hosts (k = 8: 128). */
react_status_t react_topo_fattree(int32_t k, double rate_bps, double delay_s,
                                  react_topology_t **out);
/* From the Alibaba cluster CSV (ip,DSW,PSW,ASW).  nhosts: hosts to keep
 * (0: all), taken round-robin over the ToRs so every ToR keeps hosts (see
 * topology_alibaba.c and topologies/README.md); aggs_per_tor: aggregation
 * switches each ToR connects to (the paper's variant: 3). */
react_status_t react_topo_alibaba(const char *csv_path, int32_t nhosts, int32_t aggs_per_tor,
                                  double rate_bps, double delay_s, react_topology_t **out,
                                  char *err, size_t errlen);
/* Read a topology file: the project's own format or the HPCC/ASTRA-sim/SimAI
 * plain-text format (detected from the content). */
react_status_t react_topo_read(const char *path, react_topology_t **out, char *err,
                               size_t errlen);
/* Write in the project's own format (atomically). */
react_status_t react_topo_write(const react_topology_t *t, const char *path, char *err,
                                size_t errlen);
/* Write in the HPCC/ASTRA-sim/SimAI format (atomically); node ids are kept,
 * node names and tiers are not (they read back as n<id>, kind switch). */
react_status_t react_topo_write_hpcc(const react_topology_t *t, const char *path, char *err,
                                     size_t errlen);
/* Index of the link joining nodes a and b, or -1. */
int32_t react_topo_find_link(const react_topology_t *t, int32_t a, int32_t b);

#ifdef __cplusplus
}
#endif
#endif
