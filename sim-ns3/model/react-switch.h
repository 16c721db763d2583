/*
 * react-switch.h - a switch node that forwards IPv4 packets below IP.
 *
 * Switch nodes carry no Internet stack.  ReactSwitch registers itself as the
 * node's handler for IPv4 frames on every device; per packet it reads the
 * addresses and ports straight from the packet bytes, asks its
 * ReactEcmpTable for the output port and hands a copy of the packet to that
 * port's device, whose ReactPortQueue does ACK priority and ECN marking.
 * Nothing else happens per hop: no header parse and rebuild, no TTL, no
 * checksum, no traffic-control layer, no queue-disc items.  This is how the
 * HPCC and SimAI simulators model switches, and it is what makes a switch
 * hop cost a fraction of a stock ns-3 router hop (bench-ns3 measures it).
 */
#ifndef REACT_SWITCH_H
#define REACT_SWITCH_H

#include "react-ecmp-routing.h"

#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object.h"

#include <vector>

namespace ns3 {

class ReactSwitch : public Object
{
  public:
    static TypeId GetTypeId();
    ReactSwitch();
    ~ReactSwitch() override;

    /* Take over IPv4 frames of every device of `node`. */
    void Install(Ptr<Node> node);
    uint32_t AddPort(Ptr<NetDevice> dev);
    ReactEcmpTable& GetTable() { return m_table; }
    const ReactEcmpTable& GetTable() const { return m_table; }
    uint64_t GetNoRoute() const { return m_noRoute; }

  protected:
    void DoDispose() override;

  private:
    void Receive(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t proto, const Address& from,
                 const Address& to, NetDevice::PacketType type);

    ReactEcmpTable m_table;
    std::vector<Ptr<NetDevice>> m_ports;
    uint64_t m_noRoute = 0;
};

} // namespace ns3

#endif
