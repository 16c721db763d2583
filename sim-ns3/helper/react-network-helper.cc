#include "react-network-helper.h"

#include "react-ack-filter.h"
#include "react-ecmp-routing-helper.h"

#include "react/routing.h"

#include <algorithm>
#include <sstream>

namespace ns3 {

static uint64_t
MixSeed(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b * 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void
ReactNetworkHelper::QueueLength(uint32_t oldv, uint32_t newv)
{
    (void)oldv;
    if (newv > m_maxQueue)
        m_maxQueue = newv;
}

std::string
ReactNetworkHelper::Build(const react_topology_t* t, const ReactNetworkConfig& cfg)
{
    m_cfg = cfg;
    if (!t || t->nnodes < 1 || t->nhosts < 1)
        return "topology: needs at least one node and one host";
    if (cfg.mtu != 1500 && cfg.mtu != 9000)
        return "mtu: expected 1500 or 9000, got " + std::to_string(cfg.mtu);
    for (int32_t i = 0; i < t->nlinks; i++)
    {
        const react_link_t& l = t->links[i];
        if (l.a < 0 || l.b < 0 || l.a >= t->nnodes || l.b >= t->nnodes || l.a == l.b)
            return "topology: link " + std::to_string(i) + " joins invalid nodes";
        if (!(l.rate_bps > 0) || !(l.delay_s >= 0))
            return "topology: link " + std::to_string(i) + " needs rate_bps > 0 and delay_s >= 0";
    }
    uint32_t nn = (uint32_t)t->nnodes;
    m_nodes.Create(nn);
    m_hostNode.assign(t->host_node, t->host_node + t->nhosts);
    std::vector<char> isHost(nn, 0);
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
    {
        if (m_hostNode[h] >= nn)
            return "topology: host " + std::to_string(h) + " maps to a missing node";
        isHost[m_hostNode[h]] = 1;
    }
    return cfg.globalRouting ? BuildStock(t, isHost) : BuildReact(t, isHost);
}

std::string
ReactNetworkHelper::BuildReact(const react_topology_t* t, const std::vector<char>& isHost)
{
    const ReactNetworkConfig& cfg = m_cfg;
    uint32_t nn = (uint32_t)t->nnodes;
    if (m_hostNode.size() > ReactAddressBook::kMaxHosts)
        return "topology: too many hosts for the address plan (max " +
               std::to_string(ReactAddressBook::kMaxHosts) + ")";
    std::vector<int32_t> hostOfNode(nn, -1);
    NodeContainer hostNodes;
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
    {
        hostOfNode[m_hostNode[h]] = (int32_t)h;
        hostNodes.Add(m_nodes.Get(m_hostNode[h]));
    }

    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    ReactEcmpRoutingHelper rh;
    stack.SetRoutingHelper(rh);
    stack.Install(hostNodes);
    m_routing.assign(nn, nullptr);
    m_switches.assign(nn, nullptr);
    std::vector<Ptr<Ipv4>> ipv4(nn);
    for (uint32_t n = 0; n < nn; n++)
    {
        if (isHost[n])
        {
            ipv4[n] = m_nodes.Get(n)->GetObject<Ipv4>();
            Ptr<TcpL4Protocol> tcp = m_nodes.Get(n)->GetObject<TcpL4Protocol>();
            tcp->SetAttribute("SocketType", TypeIdValue(TcpDctcp::GetTypeId()));
            m_routing[n] = DynamicCast<ReactEcmpRouting>(ipv4[n]->GetRoutingProtocol());
            if (!m_routing[n])
                return "internal: host node without ReactEcmpRouting";
            m_routing[n]->SetHost(hostOfNode[n]);
        }
        else
        {
            m_switches[n] = CreateObject<ReactSwitch>();
            m_switches[n]->Install(m_nodes.Get(n));
        }
        ReactEcmpTable& tab = isHost[n] ? m_routing[n]->GetTable() : m_switches[n]->GetTable();
        tab.seed = cfg.seed;
        tab.node = (int32_t)n;
        tab.labels = &m_labels;
        tab.recordPaths = cfg.recordPaths;
    }

    std::vector<uint32_t> nIfaces(m_hostNode.size(), 0);
    m_portDlink.assign(nn, {});
    m_hostAddr.assign(m_hostNode.size(), Ipv4Address());
    for (int32_t i = 0; i < t->nlinks; i++)
    {
        const react_link_t& l = t->links[i];
        PointToPointHelper p2p;
        p2p.DisableFlowControl();
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t)l.rate_bps)));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(cfg.mtu));
        p2p.SetChannelAttribute("Delay", TimeValue(Seconds(l.delay_s)));
        NetDeviceContainer d = p2p.Install(m_nodes.Get((uint32_t)l.a), m_nodes.Get((uint32_t)l.b));
        m_devA.push_back(DynamicCast<PointToPointNetDevice>(d.Get(0)));
        m_devB.push_back(DynamicCast<PointToPointNetDevice>(d.Get(1)));
        for (int side = 0; side < 2; side++)
        {
            uint32_t n = (uint32_t)(side ? l.b : l.a);
            Ptr<PointToPointNetDevice> dev = side ? m_devB.back() : m_devA.back();
            Ptr<ReactPortQueue> q = CreateObject<ReactPortQueue>();
            q->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, (uint32_t)cfg.bufferBytes));
            q->Configure(cfg.redMinTh, cfg.redMaxTh, MixSeed(cfg.seed ^ 0x5eedull, 2u * (uint64_t)i + (uint64_t)side),
                         cfg.trackQueues && !isHost[n]);
            dev->SetQueue(q);
            m_queues.push_back(q);
            uint32_t port;
            if (isHost[n])
            {
                int32_t h = hostOfNode[n];
                if (nIfaces[(size_t)h] >= ReactAddressBook::kMaxInterfaces)
                    return "topology: host " + std::to_string(h) + " has more than " +
                           std::to_string(ReactAddressBook::kMaxInterfaces) + " links";
                Ipv4Address addr(ReactAddressBook::Address(h, nIfaces[(size_t)h]));
                if (nIfaces[(size_t)h]++ == 0)
                    m_hostAddr[(size_t)h] = addr;
                int32_t ifi = ipv4[n]->AddInterface(dev);
                ipv4[n]->AddAddress((uint32_t)ifi,
                                    Ipv4InterfaceAddress(addr, Ipv4Mask("255.255.255.255")));
                ipv4[n]->SetUp((uint32_t)ifi);
                port = m_routing[n]->AddPort((uint32_t)ifi);
            }
            else
                port = m_switches[n]->AddPort(dev);
            if (m_portDlink[n].size() <= port)
                m_portDlink[n].resize(port + 1, -1);
            m_portDlink[n][port] = 2 * i + side;
        }
    }
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
        if (!nIfaces[h])
            return "topology: host " + std::to_string(h) + " has no link";

    /* ECMP tables: for every destination host, every node's equal-cost
     * next hops as the shared routing (react/routing.h) gives them, in
     * increasing link order, as ports */
    react_routing_t* rt = nullptr;
    char why[256] = "";
    if (react_routing_create(t, &rt, why, sizeof why) != REACT_OK)
        return std::string("topology: ") + why;
    std::vector<uint16_t> portOf((size_t)2 * (size_t)t->nlinks); /* directed link -> its port */
    size_t maxDeg = 1;
    for (uint32_t n = 0; n < nn; n++)
    {
        for (uint32_t port = 0; port < m_portDlink[n].size(); port++)
            if (m_portDlink[n][port] >= 0)
                portOf[(size_t)m_portDlink[n][port]] = (uint16_t)port;
        maxDeg = std::max(maxDeg, m_portDlink[n].size());
    }
    std::vector<int32_t> hops(maxDeg);
    std::vector<std::vector<uint32_t>> offs(nn);
    std::vector<std::vector<uint16_t>> ports(nn);
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
        for (uint32_t n = 0; n < nn; n++)
        {
            offs[n].push_back((uint32_t)ports[n].size());
            int32_t k = react_routing_next_hops(rt, (int32_t)n, (int32_t)h, hops.data(),
                                                (int32_t)hops.size());
            if (k < 0)
            {
                react_routing_destroy(rt);
                return "out of memory building the ECMP tables";
            }
            for (int32_t i = 0; i < k; i++)
                ports[n].push_back(portOf[(size_t)hops[(size_t)i]]);
        }
    react_routing_destroy(rt);
    for (uint32_t n = 0; n < nn; n++)
    {
        offs[n].push_back((uint32_t)ports[n].size());
        ReactEcmpTable& tab = isHost[n] ? m_routing[n]->GetTable() : m_switches[n]->GetTable();
        tab.offsets = std::move(offs[n]);
        tab.ports = std::move(ports[n]);
    }
    return "";
}

std::string
ReactNetworkHelper::BuildStock(const react_topology_t* t, const std::vector<char>& isHost)
{
    const ReactNetworkConfig& cfg = m_cfg;
    uint32_t nn = (uint32_t)t->nnodes;
    if (t->nlinks >= (1 << 22))
        return "topology: too many links for the 10.0.0.0/8 plan (max 4194303)";
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(m_nodes);
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
    {
        Ptr<TcpL4Protocol> tcp = m_nodes.Get(m_hostNode[h])->GetObject<TcpL4Protocol>();
        tcp->SetAttribute("SocketType", TypeIdValue(TcpDctcp::GetTypeId()));
    }

    ReactAckPacketFilter::GetTypeId(); /* make sure the filter is registered */
    uint32_t qpkts = (uint32_t)(cfg.bufferBytes / cfg.mtu);
    std::string qsize = std::to_string(qpkts) + "p";
    std::vector<Ptr<Ipv4>> ipv4(nn);
    for (uint32_t n = 0; n < nn; n++)
        ipv4[n] = m_nodes.Get(n)->GetObject<Ipv4>();
    m_hostAddr.assign(m_hostNode.size(), Ipv4Address());
    std::vector<char> hostHasAddr(m_hostNode.size(), 0);
    std::vector<int32_t> hostOfNode(nn, -1);
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
        hostOfNode[m_hostNode[h]] = (int32_t)h;

    for (int32_t i = 0; i < t->nlinks; i++)
    {
        const react_link_t& l = t->links[i];
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t)l.rate_bps)));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(cfg.mtu));
        p2p.SetChannelAttribute("Delay", TimeValue(Seconds(l.delay_s)));
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
        NetDeviceContainer d = p2p.Install(m_nodes.Get((uint32_t)l.a), m_nodes.Get((uint32_t)l.b));
        m_devA.push_back(DynamicCast<PointToPointNetDevice>(d.Get(0)));
        m_devB.push_back(DynamicCast<PointToPointNetDevice>(d.Get(1)));
        for (int side = 0; side < 2; side++)
        {
            uint32_t n = (uint32_t)(side ? l.b : l.a);
            TrafficControlHelper tch;
            uint16_t handle = tch.SetRootQueueDisc("ns3::PrioQueueDisc", "Priomap",
                                                   StringValue("1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"));
            TrafficControlHelper::ClassIdList cls = tch.AddQueueDiscClasses(handle, 2, "ns3::QueueDiscClass");
            tch.AddChildQueueDisc(handle, cls[0], "ns3::FifoQueueDisc", "MaxSize", StringValue("100000p"));
            tch.AddChildQueueDisc(handle, cls[1], "ns3::RedQueueDisc",
                                      "MaxSize", StringValue(qsize),
                                      "MinTh", DoubleValue(cfg.redMinTh),
                                      "MaxTh", DoubleValue(cfg.redMaxTh),
                                      "QW", DoubleValue(1.0),
                                      "LInterm", DoubleValue(1.0),
                                      "UseEcn", BooleanValue(true),
                                      "UseHardDrop", BooleanValue(false),
                                      "MeanPktSize", UintegerValue(cfg.mtu),
                                      "LinkBandwidth", DataRateValue(DataRate((uint64_t)l.rate_bps)),
                                      "LinkDelay", TimeValue(Seconds(l.delay_s)));
            tch.AddPacketFilter(handle, "ns3::ReactAckPacketFilter");
            QueueDiscContainer qd = tch.Install(d.Get((uint32_t)side));
            Ptr<QueueDisc> root = qd.Get(0);
            m_roots.push_back(root);
            Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(root->GetQueueDiscClass(1)->GetQueueDisc());
            /* fixed streams: the same seed gives the same marks in every run of a process */
            red->AssignStreams((int64_t)m_red.size());
            if (cfg.trackQueues && !isHost[n])
                red->TraceConnectWithoutContext(
                    "PacketsInQueue", MakeCallback(&ReactNetworkHelper::QueueLength, this));
            m_red.push_back(red);
        }
        uint32_t base = (10u << 24) + 4u * (uint32_t)i;
        for (int side = 0; side < 2; side++)
        {
            uint32_t n = (uint32_t)(side ? l.b : l.a);
            Ipv4Address addr(base + 1 + (uint32_t)side);
            int32_t ifi = ipv4[n]->AddInterface(d.Get((uint32_t)side));
            ipv4[n]->AddAddress((uint32_t)ifi, Ipv4InterfaceAddress(addr, Ipv4Mask("255.255.255.252")));
            ipv4[n]->SetUp((uint32_t)ifi);
            int32_t h = hostOfNode[n];
            if (h >= 0 && !hostHasAddr[(size_t)h])
            {
                m_hostAddr[(size_t)h] = addr;
                hostHasAddr[(size_t)h] = 1;
            }
        }
    }
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
        if (!hostHasAddr[h])
            return "topology: host " + std::to_string(h) + " has no link";
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    return "";
}

std::string
ReactNetworkHelper::SetLinkRate(int32_t link, double rate_bps)
{
    if (link < 0 || (size_t)link >= m_devA.size())
        return "degraded link " + std::to_string(link) + ": no such link (topology has " +
               std::to_string(m_devA.size()) + ")";
    if (!(rate_bps > 0))
        return "degraded link " + std::to_string(link) + ": rate_bps must be > 0";
    m_devA[(size_t)link]->SetDataRate(DataRate((uint64_t)rate_bps));
    m_devB[(size_t)link]->SetDataRate(DataRate((uint64_t)rate_bps));
    return "";
}

void
ReactNetworkHelper::ConfigureTcpSocket(Ptr<Socket> s) const
{
    s->SetAttribute("SegmentSize", UintegerValue(GetSegmentSize()));
    s->SetAttribute("SndBufSize", UintegerValue(8u << 20));
    s->SetAttribute("RcvBufSize", UintegerValue(8u << 20));
    s->SetAttribute("DelAckCount", UintegerValue(2));
    s->SetAttribute("DelAckTimeout", TimeValue(MicroSeconds(10)));
    s->SetAttribute("ConnTimeout", TimeValue(MilliSeconds(10)));
    s->SetAttribute("TcpNoDelay", BooleanValue(true));
    s->SetAttribute("MinRto", TimeValue(MilliSeconds(1)));
    s->SetAttribute("ClockGranularity", TimeValue(MicroSeconds(1)));
    /* ns-3 builds every parsed TCP option through its object factory, which
     * cost 8% of a run when every segment carried a timestamp; RTT samples
     * come from ns-3's own send history instead. */
    s->SetAttribute("Timestamp", BooleanValue(false));
}

Ptr<Socket>
ReactNetworkHelper::CreateTcpSocket(int32_t h) const
{
    Ptr<Socket> s = Socket::CreateSocket(GetHost(h), TcpSocketFactory::GetTypeId());
    ConfigureTcpSocket(s);
    return s;
}

uint64_t
ReactNetworkHelper::GetPacketsSent() const
{
    uint64_t n = 0;
    for (const Ptr<QueueDisc>& q : m_roots)
        n += q->GetStats().nTotalSentPackets;
    for (const Ptr<ReactPortQueue>& q : m_queues)
        n += q->GetSent();
    return n;
}

uint32_t
ReactNetworkHelper::GetMaxQueuePackets() const
{
    uint32_t m = m_maxQueue;
    for (const Ptr<ReactPortQueue>& q : m_queues)
        m = std::max(m, q->GetMaxDataDepth());
    return m;
}

const std::map<uint64_t, std::set<uint16_t>>*
ReactNetworkHelper::GetRecordedPaths(uint32_t n) const
{
    if (n < m_routing.size() && m_routing[n])
        return &m_routing[n]->GetTable().paths;
    if (n < m_switches.size() && m_switches[n])
        return &m_switches[n]->GetTable().paths;
    return nullptr;
}

uint64_t
ReactNetworkHelper::GetDrops() const
{
    uint64_t n = 0;
    for (const Ptr<QueueDisc>& q : m_roots)
        n += q->GetStats().nTotalDroppedPackets;
    for (size_t i = 0; i < m_devA.size(); i++)
        n += m_devA[i]->GetQueue()->GetTotalDroppedPackets() +
             m_devB[i]->GetQueue()->GetTotalDroppedPackets();
    for (const Ptr<ReactSwitch>& sw : m_switches)
        if (sw)
            n += sw->GetNoRoute();
    return n;
}

uint64_t
ReactNetworkHelper::GetEcnMarks() const
{
    uint64_t n = 0;
    for (const Ptr<RedQueueDisc>& q : m_red)
        n += q->GetStats().nTotalMarkedPackets;
    for (const Ptr<ReactPortQueue>& q : m_queues)
        n += q->GetMarks();
    return n;
}

} // namespace ns3
