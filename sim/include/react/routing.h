/*
 * react/routing.h - equal-cost shortest paths and ECMP flow hashing.
 *
 * Distances are hop counts (BFS) from every node to every host; only the
 * destination host is a node a path may end on, other hosts never forward.
 * A switch (or a multi-homed host) picks among its equal-cost next hops by
 * react_ecmp_hash(seed, src host, dst host, source port, its node id) modulo
 * the number of candidates, candidates in increasing link index order.  The
 * node id salts the hash so consecutive tiers do not polarise.
 *
 * Directed links: 2*l is link l from links[l].a to links[l].b, 2*l+1 back.
 */
#ifndef REACT_ROUTING_H
#define REACT_ROUTING_H

#include <stddef.h>
#include <stdint.h>

#include "react/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct react_routing react_routing_t;

/* Build the routing.  in: t (must outlive the routing).  out: *out.
 * Checks that every host reaches every other (one BFS per host) and keeps
 * only the graph; a destination host's distances (nnodes uint16) are made
 * on its first use by the functions below and kept, so memory grows with
 * the hosts flows go to, not with nhosts x nnodes.  REACT_EINVAL when some
 * host cannot reach some other host (err says which). */
react_status_t react_routing_create(const react_topology_t *t, react_routing_t **out,
                                    char *err, size_t errlen);
void react_routing_destroy(react_routing_t *r);

/* Hops from node `node` to host `dst_host` (-1: unreachable). */
int32_t react_routing_dist(const react_routing_t *r, int32_t node, int32_t dst_host);

/* Equal-cost next hops from `node` toward `dst_host`: writes up to cap
 * directed link ids into dlinks, returns how many there are; -1 when
 * memory for dst_host's distances ran out. */
int32_t react_routing_next_hops(const react_routing_t *r, int32_t node, int32_t dst_host,
                                int32_t *dlinks, int32_t cap);

/* The flow hash (splitmix64 chain over its arguments). */
uint64_t react_ecmp_hash(uint64_t seed, int32_t src_host, int32_t dst_host, uint32_t sport,
                         int32_t node);

/* The path of connection (src_host, dst_host, sport): directed link ids
 * written to dlinks (cap entries), length in *len (0 when src == dst).
 * REACT_EINVAL for a bad host or a path longer than cap, REACT_ENOMEM
 * when memory for dst_host's distances ran out. */
react_status_t react_routing_path(const react_routing_t *r, int32_t src_host, int32_t dst_host,
                                  uint32_t sport, uint64_t seed, int32_t *dlinks, int32_t cap,
                                  int32_t *len);

/* Flow labels, shared by every backend so that a connection takes the same
 * path in each (the label is the `sport` argument above).  A job's logical
 * flow is (source host, destination host, occurrence): the pattern's n-th
 * flow between those hosts, counting only flows that cross the network
 * (different hosts, bytes > 0), in flow order; it keeps its connections
 * from one pattern to the next, as a collective library keeps its
 * connections between ranks.
 *   react_flow_key:   the logical flow, as one number;
 *   react_flow_label: its connection k (0 .. ecmp_ports-1) of job j;
 *   react_ext_label:  copy c of external flow x;
 *   react_flow_conn:  the connection pattern flow f uses at epoch e. */
uint64_t react_flow_key(int32_t src_host, int32_t dst_host, uint32_t occurrence);
uint32_t react_flow_label(uint64_t seed, int32_t job, uint64_t key, uint64_t k);
uint32_t react_ext_label(uint64_t seed, uint64_t ext, uint64_t copy);
uint64_t react_flow_conn(uint64_t seed, int32_t job, int64_t epoch, uint64_t flow,
                         int32_t ecmp_ports);

/* Longest shortest path between two hosts, in links. */
int32_t react_routing_diameter(const react_routing_t *r);

/* Node a directed link leaves from / arrives at. */
int32_t react_dlink_from(const react_topology_t *t, int32_t dl);
int32_t react_dlink_to(const react_topology_t *t, int32_t dl);

#ifdef __cplusplus
}
#endif
#endif
