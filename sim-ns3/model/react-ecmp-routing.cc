#include "react-ecmp-routing.h"

#include "ns3/log.h"
#include "react/routing.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3 {

NS_LOG_COMPONENT_DEFINE("ReactEcmpRouting");
NS_OBJECT_ENSURE_REGISTERED(ReactEcmpRouting);

TypeId
ReactEcmpRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ReactEcmpRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("React")
                            .AddConstructor<ReactEcmpRouting>();
    return tid;
}

ReactEcmpRouting::ReactEcmpRouting()
    : m_host(-1)
{
}

ReactEcmpRouting::~ReactEcmpRouting() = default;

void
ReactEcmpRouting::DoDispose()
{
    m_routes.clear();
    m_ipv4 = nullptr;
    Ipv4RoutingProtocol::DoDispose();
}

uint32_t
ReactEcmpRouting::AddPort(uint32_t interface)
{
    Ptr<Ipv4Route> r = Create<Ipv4Route>();
    r->SetGateway(Ipv4Address::GetZero()); /* point-to-point: no next-hop address needed */
    r->SetOutputDevice(m_ipv4->GetNetDevice(interface));
    r->SetSource(m_ipv4->GetAddress(interface, 0).GetLocal());
    m_routes.push_back(r);
    m_portIf.push_back(interface);
    return (uint32_t)(m_routes.size() - 1);
}

static inline uint64_t
Mix64(uint64_t x)
{
    /* splitmix64 finaliser */
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t
ReactEcmpRouting::FlowKey(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
    return Mix64(((uint64_t)src << 32 | dst) ^ Mix64((uint64_t)sport << 16 | dport));
}

void
ReactFlowLabels::Set(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint32_t label)
{
    byKey[ReactEcmpRouting::FlowKey(src, dst, sport, dport)] = label;
    byKey[ReactEcmpRouting::FlowKey(dst, src, dport, sport)] = label;
}

uint32_t
ReactFlowLabels::Get(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport) const
{
    auto it = byKey.find(ReactEcmpRouting::FlowKey(src, dst, sport, dport));
    return it == byKey.end() ? sport : it->second;
}

int32_t
ReactEcmpTable::Select(int32_t h, uint32_t src, uint32_t dst, uint16_t sport,
                       uint16_t dport) const
{
    if (h < 0 || (size_t)h + 1 >= offsets.size())
        return -1;
    uint32_t b = offsets[(size_t)h], e = offsets[(size_t)h + 1];
    if (b == e)
        return -1;
    if (e - b == 1 && !recordPaths)
        return ports[b];
    uint32_t label = labels ? labels->Get(src, dst, sport, dport) : sport;
    /* ACKs carry their connection's label; the flow-level backend routes
     * no ACKs, so their (reverse) path only has to be fixed per connection */
    uint64_t hv = react_ecmp_hash(seed, ReactAddressBook::HostOf(src), h, label, node);
    uint16_t port = ports[b + (uint32_t)(hv % (e - b))];
    if (recordPaths)
        paths[ReactEcmpRouting::FlowKey(src, dst, sport, dport)].insert(port);
    return port;
}

int32_t
ReactEcmpRouting::SelectPort(const Ipv4Header& header, Ptr<const Packet> p) const
{
    uint32_t dst = header.GetDestination().Get();
    uint16_t sport = 0, dport = 0;
    uint8_t proto = header.GetProtocol();
    if (p && (proto == 6 || proto == 17) && p->GetSize() >= 4)
    {
        uint8_t buf[4];
        p->CopyData(buf, 4);
        sport = (uint16_t)(buf[0] << 8 | buf[1]);
        dport = (uint16_t)(buf[2] << 8 | buf[3]);
    }
    /* a socket asks before it has a source address: hash on the one it will get */
    uint32_t src = header.GetSource().Get();
    if (src == 0 && !m_routes.empty())
        src = m_routes[0]->GetSource().Get();
    return m_table.Select(ReactAddressBook::HostOf(dst), src, dst, sport, dport);
}

Ptr<Ipv4Route>
ReactEcmpRouting::RouteOutput(Ptr<Packet> p,
                              const Ipv4Header& header,
                              Ptr<NetDevice> oif,
                              Socket::SocketErrno& sockerr)
{
    (void)oif;
    int32_t port = SelectPort(header, p);
    if (port < 0)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    return m_routes[(size_t)port];
}

bool
ReactEcmpRouting::RouteInput(Ptr<const Packet> p,
                             const Ipv4Header& header,
                             Ptr<const NetDevice> idev,
                             UnicastForwardCallback ucb,
                             MulticastForwardCallback mcb,
                             LocalDeliverCallback lcb,
                             ErrorCallback ecb)
{
    (void)mcb;
    (void)ucb;
    /* hosts never relay: a packet here is for this host or has no route */
    if (ReactAddressBook::HostOf(header.GetDestination().Get()) == m_host && m_host >= 0)
    {
        int32_t iif = m_ipv4->GetInterfaceForDevice(idev);
        lcb(p, header, (uint32_t)iif);
        return true;
    }
    ecb(p, header, Socket::ERROR_NOROUTETOHOST);
    return true;
}

void
ReactEcmpRouting::NotifyInterfaceUp(uint32_t)
{
}

void
ReactEcmpRouting::NotifyInterfaceDown(uint32_t)
{
}

void
ReactEcmpRouting::NotifyAddAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
ReactEcmpRouting::NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
ReactEcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
ReactEcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    (void)unit;
    std::ostream* os = stream->GetStream();
    *os << "ReactEcmpRouting host " << m_host << " seed " << m_table.seed << "\n";
    for (size_t h = 0; h + 1 < m_table.offsets.size(); h++)
    {
        *os << "  host " << h << ":";
        for (uint32_t i = m_table.offsets[h]; i < m_table.offsets[h + 1]; i++)
            *os << " if" << m_portIf[m_table.ports[i]];
        *os << "\n";
    }
}

} // namespace ns3
