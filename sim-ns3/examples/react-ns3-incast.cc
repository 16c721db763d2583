/*
 * react-ns3-incast - N senders to one receiver through one switch, DCTCP over
 * RED/ECN, and what the network saw.
 *
 *   react-ns3-incast [nsenders=2] [megabytes=20] [mtu=1500]
 */
#include "react/ns3.h"

#include <cstdio>
#include <cstdlib>

int
main(int argc, char** argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2;
    double mb = argc > 2 ? atof(argv[2]) : 20;
    unsigned mtu = argc > 3 ? (unsigned)atoi(argv[3]) : 1500;
    react_ns3_stats_t s;
    double gp = 0;
    char err[256];
    react_status_t st = react_ns3_incast_probe(n, (uint64_t)(mb * 1e6), mtu, 100e9, 1e-6, 1, &s,
                                               &gp, err, sizeof err);
    if (st != REACT_OK)
    {
        fprintf(stderr, "react-ns3-incast: %s\n", err);
        return 2;
    }
    printf("senders %d, %.1f MB each, MTU %u, 100 Gbps, 1 us links\n", n, mb, mtu);
    printf("goodput        %.2f Gbps\n", gp / 1e9);
    printf("ECN marks      %llu\n", (unsigned long long)s.ecn_marks);
    printf("drops          %llu\n", (unsigned long long)s.drops);
    printf("max queue      %u packets\n", s.max_queue_pkts);
    printf("cwnd cuts      %llu\n", (unsigned long long)s.cwnd_reductions);
    printf("DCTCP alpha    %.4f at the end (%.4f at most)\n", s.last_dctcp_alpha, s.max_dctcp_alpha);
    printf("simulated      %.6f s, %llu events, %llu packet-hops, wall %.2f s\n", s.sim_time_s,
           (unsigned long long)s.events, (unsigned long long)s.packets, s.wall_s);
    return 0;
}
