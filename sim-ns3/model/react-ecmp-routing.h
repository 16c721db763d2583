/*
 * react-ecmp-routing.h - per-flow ECMP for REACT's ns-3 networks.
 *
 * ReactEcmpTable is one node's forwarding table, filled once from the
 * topology (ReactNetworkHelper asks the shared routing, react/routing.h,
 * for every destination host, for the next hops one hop closer on a
 * shortest path, hosts never relaying, and turns them into ports), so no
 * global-routing computation or per-lookup route scan happens: a lookup is
 * the destination address turned into a host index (the address plan encodes
 * it), one array slice of equal-cost output ports, and a 5-tuple hash mixed
 * with this node's seed to pick one.  A flow (same addresses, ports,
 * protocol) therefore always takes the same port at a node; different nodes
 * mix different seeds so their choices are independent (no polarisation).
 *
 * Switches use the table in ReactSwitch (react-switch.h), below IP; hosts use
 * it through ReactEcmpRouting, their only IPv4 routing protocol (a host with
 * several links picks its first hop the same way).
 *
 * Chosen over reading Ipv4GlobalRouting's equal-cost routes: the notes on
 * ns-3.37 measure PopulateRoutingTables at 2-3 s on 771 nodes and a linear
 * route scan per lookup; the table here is built in milliseconds.
 */
#ifndef REACT_ECMP_ROUTING_H
#define REACT_ECMP_ROUTING_H

#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

namespace ns3 {

/* The address plan: interface i (0..15) of host h (0 .. 2^20 - 2) is
 * 10.0.0.0 + i * 2^20 + h + 1; switches have no addresses. */
struct ReactAddressBook
{
    static constexpr uint32_t kMaxHosts = (1u << 20) - 1;
    static constexpr uint32_t kMaxInterfaces = 16;
    static uint32_t Address(int32_t host, uint32_t iface)
    {
        return (10u << 24) | iface << 20 | (uint32_t)(host + 1);
    }
    /* host index of an address of the plan, or -1 */
    static int32_t HostOf(uint32_t addr)
    {
        if (addr >> 24 != 10u || (addr & 0xfffffu) == 0)
            return -1;
        return (int32_t)(addr & 0xfffffu) - 1;
    }
};

/* Flow labels of the run's connections, keyed by ReactEcmpRouting::FlowKey
 * of their 5-tuple, both directions (the ACKs of a connection carry its
 * label too).  The engine registers each connection's label
 * (react_flow_label / react_ext_label) when it opens it. */
struct ReactFlowLabels
{
    std::unordered_map<uint64_t, uint32_t> byKey;
    void Set(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint32_t label);
    /* the registered label, or sport for an unknown 5-tuple */
    uint32_t Get(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport) const;
};

/* One node's forwarding table.  The ECMP choice is the one of
 * react/routing.h, shared with the flow-level backend: candidate
 * react_ecmp_hash(seed, source host, destination host, flow label, node)
 * modulo the number of equal-cost next hops, in increasing link order. */
struct ReactEcmpTable
{
    uint64_t seed = 0;           /* the run's seed */
    int32_t node = 0;            /* topology node index */
    const ReactFlowLabels* labels = nullptr;
    bool recordPaths = false;
    std::vector<uint32_t> offsets; /* candidate ports toward host h: */
    std::vector<uint16_t> ports;   /* ports[offsets[h] .. offsets[h + 1]) */
    mutable std::map<uint64_t, std::set<uint16_t>> paths; /* with recordPaths */

    /* Output port for a packet to host dst (from the address plan), or -1. */
    int32_t Select(int32_t dstHost, uint32_t src, uint32_t dst, uint16_t sport,
                   uint16_t dport) const;
};

class ReactEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();
    ReactEcmpRouting();
    ~ReactEcmpRouting() override;

    /* Table setup (by ReactNetworkHelper). */
    void SetHost(int32_t host) { m_host = host; }
    /* One output port: an Ipv4 interface index. */
    uint32_t AddPort(uint32_t interface);
    ReactEcmpTable& GetTable() { return m_table; }

    /* Output port this node picks for a packet (exposed for tests). */
    int32_t SelectPort(const Ipv4Header& header, Ptr<const Packet> p) const;

    /* With RecordPaths: flow key -> ports used (for the ECMP probe). */
    const std::map<uint64_t, std::set<uint16_t>>& GetRecordedPaths() const { return m_table.paths; }
    static uint64_t FlowKey(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport);

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    Ptr<Ipv4> m_ipv4;
    int32_t m_host;
    ReactEcmpTable m_table;
    std::vector<Ptr<Ipv4Route>> m_routes; /* per port */
    std::vector<uint32_t> m_portIf;       /* per port: interface index */
};

} // namespace ns3

#endif
