#include "react-ecmp-routing.h"

#include "ns3/log.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/boolean.h"

namespace ns3 {

NS_LOG_COMPONENT_DEFINE("ReactEcmpRouting");
NS_OBJECT_ENSURE_REGISTERED(ReactEcmpRouting);

TypeId
ReactEcmpRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ReactEcmpRouting")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("React")
            .AddConstructor<ReactEcmpRouting>()
            .AddAttribute("Seed",
                          "Per-node seed mixed into the 5-tuple hash",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ReactEcmpRouting::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("RecordPaths",
                          "Record the output ports each flow used (tests only; slow)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ReactEcmpRouting::m_recordPaths),
                          MakeBooleanChecker());
    return tid;
}

ReactEcmpRouting::ReactEcmpRouting()
    : m_seed(0),
      m_recordPaths(false),
      m_nodeId(0)
{
}

ReactEcmpRouting::~ReactEcmpRouting() = default;

void
ReactEcmpRouting::DoDispose()
{
    m_routes.clear();
    m_ipv4 = nullptr;
    m_book.reset();
    Ipv4RoutingProtocol::DoDispose();
}

void
ReactEcmpRouting::SetAddressBook(std::shared_ptr<const ReactAddressBook> book, uint32_t nodeId)
{
    m_book = std::move(book);
    m_nodeId = nodeId;
}

uint32_t
ReactEcmpRouting::AddPort(uint32_t interface, Ipv4Address gateway)
{
    Ptr<Ipv4Route> r = Create<Ipv4Route>();
    r->SetGateway(gateway);
    r->SetOutputDevice(m_ipv4->GetNetDevice(interface));
    r->SetSource(m_ipv4->GetAddress(interface, 0).GetLocal());
    m_routes.push_back(r);
    m_portIf.push_back(interface);
    return (uint32_t)(m_routes.size() - 1);
}

void
ReactEcmpRouting::SetTable(std::vector<uint32_t> offsets, std::vector<uint16_t> ports)
{
    m_offsets = std::move(offsets);
    m_table = std::move(ports);
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

int32_t
ReactEcmpRouting::SelectPort(const Ipv4Header& header, Ptr<const Packet> p) const
{
    if (!m_book)
        return -1;
    auto it = m_book->hostOfAddress.find(header.GetDestination().Get());
    if (it == m_book->hostOfAddress.end())
        return -1;
    uint32_t h = (uint32_t)it->second;
    if (h + 1 >= m_offsets.size())
        return -1;
    uint32_t b = m_offsets[h], e = m_offsets[h + 1];
    if (b == e)
        return -1;
    if (e - b == 1 && !m_recordPaths)
        return m_table[b];
    uint16_t sport = 0, dport = 0;
    uint8_t proto = header.GetProtocol();
    if (p && (proto == 6 || proto == 17) && p->GetSize() >= 4)
    {
        uint8_t buf[4];
        p->CopyData(buf, 4);
        sport = (uint16_t)(buf[0] << 8 | buf[1]);
        dport = (uint16_t)(buf[2] << 8 | buf[3]);
    }
    uint64_t key = FlowKey(header.GetSource().Get(), header.GetDestination().Get(), sport, dport);
    uint64_t hv = Mix64(key ^ Mix64(m_seed ^ proto));
    uint16_t port = m_table[b + (uint32_t)(hv % (e - b))];
    if (m_recordPaths && p)
        m_paths[key].insert(port);
    return port;
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
    if (!m_book)
        return false;
    auto it = m_book->hostOfAddress.find(header.GetDestination().Get());
    if (it != m_book->hostOfAddress.end() &&
        m_book->hostNode[(size_t)it->second] == m_nodeId)
    {
        int32_t iif = m_ipv4->GetInterfaceForDevice(idev);
        lcb(p, header, (uint32_t)iif);
        return true;
    }
    int32_t port = SelectPort(header, p);
    if (port < 0)
    {
        ecb(p, header, Socket::ERROR_NOROUTETOHOST);
        return true;
    }
    ucb(m_routes[(size_t)port], p, header);
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
    *os << "ReactEcmpRouting node " << m_nodeId << " seed " << m_seed << "\n";
    for (size_t h = 0; h + 1 < m_offsets.size(); h++)
    {
        *os << "  host " << h << ":";
        for (uint32_t i = m_offsets[h]; i < m_offsets[h + 1]; i++)
            *os << " if" << m_portIf[m_table[i]];
        *os << "\n";
    }
}

} // namespace ns3
