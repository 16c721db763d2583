/*
 * react/ns3.h - the C face of the ns-3 packet-level backend (sim-ns3/).
 *
 * react_backend_ns3 implements react_backend_ops_t (react/backend.h) on
 * ns-3.37: every topology link becomes a point-to-point link, hosts run
 * DCTCP, switch ports have RED queues marking ECN (MinTh 32, MaxTh 60
 * packets) under an ACK-first priority queue, and switches route with
 * per-flow ECMP (5-tuple hash, seeded per switch).  Each logical flow of a
 * pattern owns cfg->ecmp_ports TCP connections opened once on distinct source
 * ports; every epoch one of them, drawn from (seed, job, epoch, flow id),
 * carries the flow's bytes.  FCT is measured at the receiver when the flow's
 * last byte arrives.
 *
 * The probes below run small fixed experiments on the same network model and
 * return counters; they exist for tests, examples and benchmarks.
 * All functions are reentrant across runs (one simulation at a time per
 * process: ns-3 has one simulator per process).
 */
#ifndef REACT_NS3_H
#define REACT_NS3_H

#include <stddef.h>
#include <stdint.h>

#include "react/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const react_backend_ops_t react_backend_ns3;

/* Counters of one packet-level run, summed over the whole network. */
typedef struct react_ns3_stats {
	uint64_t packets;          /* packets sent by all devices (packet-hops) */
	uint64_t events;           /* simulator events executed */
	uint64_t drops;            /* packets dropped anywhere (queues and devices) */
	uint64_t ecn_marks;        /* CE marks set by RED */
	uint32_t max_queue_pkts;   /* deepest data queue seen at a switch port */
	uint64_t cwnd_reductions;  /* congestion-window reductions of the senders */
	double max_dctcp_alpha;    /* largest DCTCP alpha seen by a sender (starts at 1) */
	double last_dctcp_alpha;   /* the last alpha update of any sender */
	double sim_time_s;         /* simulated time when the run stopped */
	double wall_s;             /* wall-clock time of the run, build included */
	double build_s;            /* of which building the network (and routes) */
} react_ns3_stats_t;

/* Like react_backend_ns3.run, and fills *stats (may be NULL). */
react_status_t react_ns3_run_stats(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                   react_ns3_stats_t *stats, char *err, size_t errlen);

/* Incast on a star of nsenders + 1 hosts (rate_bps, delay_s per link):
 * every sender sends `bytes` to host 0 over one DCTCP connection.
 * out: the counters; *goodput_bps: bytes * nsenders * 8 / time of the last
 * byte.  Errors: REACT_EINVAL for nsenders < 1, bytes 0, mtu other than
 * 1500 or 9000. */
react_status_t react_ns3_incast_probe(int32_t nsenders, uint64_t bytes, uint32_t mtu,
                                      double rate_bps, double delay_s, uint64_t seed,
                                      react_ns3_stats_t *out, double *goodput_bps,
                                      char *err, size_t errlen);

/* ECMP probe: nflows TCP connections from host src to host dst of topo,
 * each on its own source port, `bytes` each.  Out (arrays of nflows entries,
 * caller-allocated): path_id[i] a fingerprint of the sequence of output ports
 * flow i took (0 when its packets took more than one path), and
 * *npaths_used the number of distinct paths across flows. */
react_status_t react_ns3_ecmp_probe(const react_topology_t *topo, int32_t src, int32_t dst,
                                    int32_t nflows, uint64_t bytes, uint64_t seed,
                                    uint64_t *path_id, int32_t *npaths_used, char *err,
                                    size_t errlen);

/* The same probe, returning the path itself: for flow i, the directed links
 * (react/routing.h numbering) its data packets took, in dlinks[i * cap ..],
 * len[i] of them (0 when its packets split or its path was longer than
 * cap).  With ecmp_ports 1, flow i is the i-th logical flow between the two
 * hosts, so the flow-level backend routes it on
 * react_routing_path(src, dst, react_flow_label(seed, 0,
 * react_flow_key(src, dst, i), 0), seed). */
react_status_t react_ns3_flow_paths(const react_topology_t *topo, int32_t src, int32_t dst,
                                    int32_t nflows, uint64_t bytes, uint64_t seed,
                                    int32_t *dlinks, int32_t cap, int32_t *len, char *err,
                                    size_t errlen);

/* Reference program for benchmarks: the same per-flow byte transfers with
 * stock ns-3 (BulkSendApplication + PacketSink, Ipv4GlobalRouting, NewReno
 * default settings except the datacenter TCP settings above), all flows
 * started at once.  nflows pairs (src[i] -> dst[i], bytes each) on topo.
 * out: stats of the run (packets, events, sim time, wall). */
react_status_t react_ns3_plain_bulk(const react_topology_t *topo, int32_t nflows,
                                    const int32_t *src, const int32_t *dst, uint64_t bytes,
                                    uint32_t mtu, react_ns3_stats_t *out, char *err,
                                    size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
