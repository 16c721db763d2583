/*
 * react-network-helper.h - builds an ns-3 network from a react_topology_t.
 *
 * Every node gets the Internet stack (IPv4 only) with ReactEcmpRouting (or
 * stock Ipv4GlobalRouting for reference runs), every link becomes a
 * point-to-point link with the link's rate and delay, a 1-packet device queue
 * and, above it, a PrioQueueDisc whose band 0 takes pure ACKs
 * (ReactAckPacketFilter) and band 1 data.  The data band is RED marking ECN
 * (instantaneous queue, MinTh 32, MaxTh 60 packets, marking probability 1 at
 * MaxTh, no hard drops, buffer 32 MiB per port) at every port, host NICs
 * included: ns-3's IP layer queues whatever TCP sends, so without marking at
 * the NIC a sender's whole window (megabytes) would wait in its own FIFO and
 * delay every other flow leaving that host by milliseconds.  Link i gets 10.0.0.0 + 4i /30, its
 * endpoint a the .1, b the .2 address; a host's address is that of its first
 * link.
 */
#ifndef REACT_NETWORK_HELPER_H
#define REACT_NETWORK_HELPER_H

#include "react-ecmp-routing.h"

#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "react/topology.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3 {

struct ReactNetworkConfig
{
    uint32_t mtu = 1500;               /* IP MTU of every device: 1500 or 9000 */
    uint64_t seed = 1;                 /* mixed into every switch's ECMP seed */
    uint64_t bufferBytes = 32ull << 20;/* per switch port */
    double redMinTh = 32;              /* packets */
    double redMaxTh = 60;              /* packets */
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
    const std::vector<Ptr<ReactEcmpRouting>>& GetRouting() const { return m_routing; }

    /* Change both directions of link `link` to rate_bps. */
    std::string SetLinkRate(int32_t link, double rate_bps);

    /* A TCP socket on host h with the datacenter settings (SegmentSize from
     * the MTU, 8 MiB buffers, MinRto 1 ms, ClockGranularity 1 us, ACK every
     * second segment or after 10 us, no Nagle). */
    Ptr<Socket> CreateTcpSocket(int32_t h) const;
    void ConfigureTcpSocket(Ptr<Socket> s) const;
    uint32_t GetSegmentSize() const { return m_cfg.mtu - 52; }

    /* Counters summed over every port. */
    uint64_t GetPacketsSent() const;
    uint64_t GetDrops() const;
    uint64_t GetEcnMarks() const;
    uint32_t GetMaxQueuePackets() const { return m_maxQueue; }

  private:
    void QueueLength(uint32_t oldv, uint32_t newv);

    ReactNetworkConfig m_cfg;
    NodeContainer m_nodes;
    std::vector<uint32_t> m_hostNode;
    std::vector<Ipv4Address> m_hostAddr;
    std::vector<Ptr<PointToPointNetDevice>> m_devA, m_devB; /* per link */
    std::vector<Ptr<QueueDisc>> m_roots;
    std::vector<Ptr<RedQueueDisc>> m_red;
    std::vector<Ptr<ReactEcmpRouting>> m_routing;
    std::shared_ptr<ReactAddressBook> m_book;
    uint32_t m_maxQueue = 0;
};

} // namespace ns3

#endif
