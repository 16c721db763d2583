/*
 * react-ack-filter.h - classifies pure TCP ACKs into the high-priority band
 * of a PrioQueueDisc (band 0) and everything else into band 1.
 */
#ifndef REACT_ACK_FILTER_H
#define REACT_ACK_FILTER_H

#include "ns3/ipv4-packet-filter.h"

namespace ns3 {

class ReactAckPacketFilter : public Ipv4PacketFilter
{
  public:
    static TypeId GetTypeId();
    ReactAckPacketFilter() = default;

  private:
    int32_t DoClassify(Ptr<QueueDiscItem> item) const override;
};

} // namespace ns3

#endif
