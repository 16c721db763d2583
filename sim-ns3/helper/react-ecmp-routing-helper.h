/*
 * react-ecmp-routing-helper.h - installs ReactEcmpRouting as the routing
 * protocol of InternetStackHelper-built nodes.  The tables are filled later
 * by ReactNetworkHelper, once every link has its addresses.
 */
#ifndef REACT_ECMP_ROUTING_HELPER_H
#define REACT_ECMP_ROUTING_HELPER_H

#include "ns3/ipv4-routing-helper.h"

namespace ns3 {

class ReactEcmpRoutingHelper : public Ipv4RoutingHelper
{
  public:
    ReactEcmpRoutingHelper() = default;
    ReactEcmpRoutingHelper* Copy() const override;
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;
};

} // namespace ns3

#endif
