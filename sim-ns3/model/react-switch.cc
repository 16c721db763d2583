#include "react-switch.h"

#include "ns3/packet.h"

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(ReactSwitch);

TypeId
ReactSwitch::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ReactSwitch")
                            .SetParent<Object>()
                            .SetGroupName("React")
                            .AddConstructor<ReactSwitch>();
    return tid;
}

ReactSwitch::ReactSwitch() = default;
ReactSwitch::~ReactSwitch() = default;

void
ReactSwitch::DoDispose()
{
    m_ports.clear();
    Object::DoDispose();
}

void
ReactSwitch::Install(Ptr<Node> node)
{
    node->RegisterProtocolHandler(MakeCallback(&ReactSwitch::Receive, this), 0x0800, nullptr,
                                  false);
}

uint32_t
ReactSwitch::AddPort(Ptr<NetDevice> dev)
{
    m_ports.push_back(dev);
    return (uint32_t)(m_ports.size() - 1);
}

void
ReactSwitch::Receive(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t proto, const Address& from,
                     const Address& to, NetDevice::PacketType type)
{
    (void)dev;
    (void)proto;
    (void)from;
    (void)to;
    (void)type;
    uint8_t b[64];
    uint32_t n = p->CopyData(b, 24);
    if (n < 20 || (b[0] >> 4) != 4)
    {
        m_noRoute++;
        return;
    }
    uint32_t ihl = (uint32_t)(b[0] & 15) * 4;
    uint8_t l4 = b[9];
    uint32_t src = (uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 | (uint32_t)b[14] << 8 | b[15];
    uint32_t dst = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
    uint16_t sport = 0, dport = 0;
    if (l4 == 6 || l4 == 17)
    {
        if (ihl > 20)
            n = p->CopyData(b, ihl + 4);
        if (n >= ihl + 4)
        {
            sport = (uint16_t)(b[ihl] << 8 | b[ihl + 1]);
            dport = (uint16_t)(b[ihl + 2] << 8 | b[ihl + 3]);
        }
    }
    int32_t port = m_table.Select(ReactAddressBook::HostOf(dst), src, dst, sport, dport);
    if (port < 0)
    {
        m_noRoute++;
        return;
    }
    Ptr<NetDevice> out = m_ports[(size_t)port];
    out->Send(p->Copy(), out->GetBroadcast(), 0x0800);
}

} // namespace ns3
