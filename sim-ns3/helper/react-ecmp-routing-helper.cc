#include "react-ecmp-routing-helper.h"

#include "react-ecmp-routing.h"

namespace ns3 {

ReactEcmpRoutingHelper*
ReactEcmpRoutingHelper::Copy() const
{
    return new ReactEcmpRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
ReactEcmpRoutingHelper::Create(Ptr<Node> node) const
{
    (void)node;
    return CreateObject<ReactEcmpRouting>();
}

} // namespace ns3
