#include "react-ack-filter.h"

#include "ns3/ipv4-queue-disc-item.h"

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(ReactAckPacketFilter);

TypeId
ReactAckPacketFilter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ReactAckPacketFilter")
                            .SetParent<Ipv4PacketFilter>()
                            .SetGroupName("React")
                            .AddConstructor<ReactAckPacketFilter>();
    return tid;
}

int32_t
ReactAckPacketFilter::DoClassify(Ptr<QueueDiscItem> item) const
{
    Ptr<Ipv4QueueDiscItem> ipItem = DynamicCast<Ipv4QueueDiscItem>(item);
    if (!ipItem || ipItem->GetHeader().GetProtocol() != 6)
        return 1;
    Ptr<const Packet> p = ipItem->GetPacket();
    uint32_t size = p->GetSize();
    if (size < 20)
        return 1;
    /* TCP data offset: upper nibble of byte 12, in 32-bit words. */
    uint8_t hdr[13];
    p->CopyData(hdr, sizeof hdr);
    uint32_t hlen = (uint32_t)(hdr[12] >> 4) * 4u;
    return size <= hlen ? 0 : 1;
}

} // namespace ns3
