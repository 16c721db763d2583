/*
 * react-ecmp-routing.h - per-flow ECMP for REACT's ns-3 networks.
 *
 * ReactEcmpRouting is the only routing protocol of every node.  Its table is
 * filled once from the topology (ReactNetworkHelper computes, for every
 * destination host, the neighbours one hop closer on a shortest path, hosts
 * never relaying), so no global-routing computation or per-lookup route scan
 * happens: a lookup is a hash of the destination address to a host index,
 * one array slice of equal-cost output ports, and a 5-tuple hash mixed with
 * this switch's seed to pick one.  A flow (same addresses, ports, protocol)
 * therefore always takes the same port at a switch; different switches mix
 * different seeds so their choices are independent (no polarisation).
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

/* Run-wide address book shared by every node's protocol. */
struct ReactAddressBook
{
    std::unordered_map<uint32_t, int32_t> hostOfAddress; /* any host interface address */
    std::vector<uint32_t> hostNode;                      /* host index -> node id */
};

class ReactEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();
    ReactEcmpRouting();
    ~ReactEcmpRouting() override;

    /* Table setup (by ReactNetworkHelper). */
    void SetAddressBook(std::shared_ptr<const ReactAddressBook> book, uint32_t nodeId);
    /* One output port: Ipv4 interface index and the neighbour's address. */
    uint32_t AddPort(uint32_t interface, Ipv4Address gateway);
    /* Candidate ports toward each host: ports[offsets[h] .. offsets[h+1]). */
    void SetTable(std::vector<uint32_t> offsets, std::vector<uint16_t> ports);

    /* Output port this node picks for a packet (exposed for tests). */
    int32_t SelectPort(const Ipv4Header& header, Ptr<const Packet> p) const;

    /* With RecordPaths: flow key -> ports used (for the ECMP probe). */
    const std::map<uint64_t, std::set<uint16_t>>& GetRecordedPaths() const { return m_paths; }
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
    uint64_t m_seed;
    bool m_recordPaths;
    uint32_t m_nodeId;
    std::shared_ptr<const ReactAddressBook> m_book;
    std::vector<Ptr<Ipv4Route>> m_routes; /* per port */
    std::vector<uint32_t> m_portIf;       /* per port: interface index */
    std::vector<uint32_t> m_offsets;
    std::vector<uint16_t> m_table;
    mutable std::map<uint64_t, std::set<uint16_t>> m_paths;
};

} // namespace ns3

#endif
