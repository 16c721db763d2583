/*
 * react-network-helper.h - builds an ns-3 network from a react_topology_t.
 *
 * Every link becomes a point-to-point link with the link's rate and delay.
 * Two constructions:
 *
 *  - REACT's (the default): hosts get the Internet stack (IPv4, DCTCP) with
 *    ReactEcmpRouting; switches get no stack, only a ReactSwitch forwarding
 *    below IP.  Every port's device queue is a ReactPortQueue: pure ACKs
 *    ahead of data, RED-style ECN marking on the instantaneous data backlog
 *    (MinTh 32, MaxTh 60 packets, probability 1 from MaxTh, no early
 *    drops), 32 MiB of buffer: react/dctcp.h, shared with the DCTCP window
 *    model.  Host NICs mark too: ns-3's IP layer queues
 *    whatever TCP sends, so without marking at the NIC a sender's whole
 *    window (megabytes) would wait in its own queue and delay every other
 *    flow leaving that host by milliseconds.  Addresses follow
 *    ReactAddressBook's plan (host index in the address).
 *  - The stock reference (globalRouting): every node gets the Internet stack
 *    with Ipv4GlobalRouting; every port a PrioQueueDisc (pure ACKs in band 0
 *    via ReactAckPacketFilter, data in band 1 = RedQueueDisc with the same
 *    thresholds) over a 1-packet device queue.  Link i gets 10.0.0.0 + 4i
 *    /30.  bench-ns3 runs a plain BulkSend program on it to price REACT's
 *    construction against stock ns-3.
 */
#ifndef REACT_NETWORK_HELPER_H
#define REACT_NETWORK_HELPER_H

#include "react-ecmp-routing.h"
#include "react-port-queue.h"
#include "react-switch.h"

#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "react/dctcp.h"
#include "react/topology.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3 {

struct ReactNetworkConfig
{
    uint32_t mtu = 1500;               /* IP MTU of every device: 1500 or 9000 */
    uint64_t seed = 1;                 /* mixed into every switch's ECMP seed */
    uint64_t bufferBytes = REACT_PORT_BUFFER_BYTES; /* per switch port */
    double redMinTh = REACT_RED_MIN_TH_PKTS;        /* packets */
    double redMaxTh = REACT_RED_MAX_TH_PKTS;        /* packets */
    bool recordPaths = false;          /* ECMP path recording (probe only) */
    bool globalRouting = false;        /* stock Ipv4GlobalRouting instead of ECMP */
    bool trackQueues = false;          /* record the deepest switch data queue */
};

class ReactNetworkHelper
{
  public:
    ReactNetworkHelper() = default;

    /* Build the network; returns "" or a reason naming what was wrong. */
    std::string Build(const react_topology_t* topo, const ReactNetworkConfig& cfg);

    uint32_t GetNHosts() const { return (uint32_t)m_hostNode.size(); }
    Ptr<Node> GetHost(int32_t h) const { return m_nodes.Get(m_hostNode[(size_t)h]); }
    Ipv4Address GetHostAddress(int32_t h) const { return m_hostAddr[(size_t)h]; }
    Ptr<Node> GetNode(uint32_t n) const { return m_nodes.Get(n); }
    /* With recordPaths: flow key -> ports used at node n (nullptr if none). */
    const std::map<uint64_t, std::set<uint16_t>>* GetRecordedPaths(uint32_t n) const;
    uint32_t GetNNodes() const { return m_nodes.GetN(); }
    /* Directed link (react/routing.h numbering) that port `port` of node n
     * sends on, or -1 (REACT construction). */
    int32_t GetPortDlink(uint32_t n, uint32_t port) const
    {
        return n < m_portDlink.size() && port < m_portDlink[n].size() ? m_portDlink[n][port] : -1;
    }
    /* Connection labels every node's ECMP choice reads (REACT construction). */
    ReactFlowLabels& GetLabels() { return m_labels; }

    /* Change both directions of link `link` to rate_bps. */
    std::string SetLinkRate(int32_t link, double rate_bps);

    /* A TCP socket on host h with the datacenter settings (SegmentSize from
     * the MTU, 8 MiB buffers, MinRto 1 ms, ClockGranularity 1 us, ACK every
     * second segment or after 10 us, no Nagle, no timestamp option). */
    Ptr<Socket> CreateTcpSocket(int32_t h) const;
    void ConfigureTcpSocket(Ptr<Socket> s) const;
    /* IPv4 20 + TCP 20 bytes of headers: no timestamp option (see ConfigureTcpSocket) */
    uint32_t GetSegmentSize() const { return m_cfg.mtu - REACT_TCPIP_HEADER_BYTES; }

    /* Counters summed over every port. */
    uint64_t GetPacketsSent() const;
    uint64_t GetDrops() const;
    uint64_t GetEcnMarks() const;
    uint32_t GetMaxQueuePackets() const;

  private:
    std::string BuildStock(const react_topology_t* topo, const std::vector<char>& isHost);
    std::string BuildReact(const react_topology_t* topo, const std::vector<char>& isHost);
    void QueueLength(uint32_t oldv, uint32_t newv);

    ReactNetworkConfig m_cfg;
    NodeContainer m_nodes;
    std::vector<uint32_t> m_hostNode;
    std::vector<Ipv4Address> m_hostAddr;
    std::vector<Ptr<PointToPointNetDevice>> m_devA, m_devB; /* per link */
    std::vector<Ptr<QueueDisc>> m_roots;
    std::vector<Ptr<RedQueueDisc>> m_red;
    std::vector<Ptr<ReactPortQueue>> m_queues;      /* REACT: every port */
    std::vector<Ptr<ReactEcmpRouting>> m_routing;   /* REACT: per node, hosts only */
    std::vector<Ptr<ReactSwitch>> m_switches;       /* REACT: per node, switches only */
    ReactFlowLabels m_labels;
    std::vector<std::vector<int32_t>> m_portDlink;
    uint32_t m_maxQueue = 0;
};

} // namespace ns3

#endif
