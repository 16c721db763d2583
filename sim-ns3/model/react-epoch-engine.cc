#include "react-epoch-engine.h"

#include "ns3/core-module.h"
#include "ns3/tcp-dctcp.h"
#include "ns3/tcp-socket-base.h"

#include "react/routing.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace ns3 {

static const uint16_t kSinkPort = 9;
static const uint32_t kFirstPort = 10000;
static const uint32_t kLastPort = 65000;

static uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

ReactEpochEngine::ReactEpochEngine(const react_run_cfg_t* cfg,
                                   const react_driver_cb_t* cb,
                                   const ReactEngineOptions& opt)
    : m_cfg(cfg),
      m_cb(cb),
      m_opt(opt)
{
}

ReactEpochEngine::~ReactEpochEngine()
{
    for (Job& j : m_jobs)
        react_pattern_destroy(j.pat);
}

void
ReactEpochEngine::Abort(react_status_t st, const std::string& why)
{
    if (m_status == REACT_OK)
    {
        m_status = st;
        m_err = why;
    }
    Simulator::Stop();
}

void
ReactEpochEngine::EnsureListener(int32_t host)
{
    if (m_listen[(size_t)host])
        return;
    Ptr<Socket> s = m_net->CreateTcpSocket(host);
    s->Bind(InetSocketAddress(Ipv4Address::GetAny(), kSinkPort));
    s->Listen();
    s->SetAcceptCallback(MakeCallback(&ReactEpochEngine::AcceptRequest, this),
                         MakeCallback(&ReactEpochEngine::NewConnection, this));
    m_listen[(size_t)host] = s;
}

bool
ReactEpochEngine::AcceptRequest(Ptr<Socket>, const Address&)
{
    return true;
}

void
ReactEpochEngine::NewConnection(Ptr<Socket> s, const Address& from)
{
    InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
    uint64_t key = (uint64_t)a.GetIpv4().Get() << 16 | a.GetPort();
    auto it = m_byPeer.find(key);
    if (it == m_byPeer.end())
    {
        Abort(REACT_EBACKEND, "internal: connection from an unknown peer");
        return;
    }
    Conn* c = it->second;
    c->rx = s;
    s->SetRecvCallback(MakeBoundCallback(&ReactEpochEngine::RecvReady, c));
    DrainReceived(c);
}

void
ReactEpochEngine::ConnectFailed(Ptr<Socket> s)
{
    (void)s;
    Abort(REACT_EBACKEND, "a TCP connection could not be established (no route between two hosts?)");
}

void
ReactEpochEngine::SendReady(Conn* c, Ptr<Socket>, uint32_t)
{
    c->eng->TrySend(c);
}

void
ReactEpochEngine::RecvReady(Conn* c, Ptr<Socket>)
{
    c->eng->DrainReceived(c);
}

void
ReactEpochEngine::CwndChange(ReactEpochEngine* e, uint32_t oldv, uint32_t newv)
{
    if (newv < oldv)
        e->m_cwndReductions++;
}

void
ReactEpochEngine::AlphaChange(ReactEpochEngine* e, uint32_t, uint32_t, double alpha)
{
    e->m_lastAlpha = alpha;
    if (alpha > e->m_maxAlpha)
        e->m_maxAlpha = alpha;
}

ReactEpochEngine::Conn*
ReactEpochEngine::OpenConn(int32_t src, int32_t dst, bool unlimited, uint32_t label)
{
    uint32_t port = m_nextPort[(size_t)src]++;
    if (port > kLastPort)
    {
        Abort(REACT_EUNSUPPORTED,
              "host " + std::to_string(src) + " ran out of source ports (more than " +
                  std::to_string(kLastPort - kFirstPort) + " connections)");
        return nullptr;
    }
    EnsureListener(dst);
    auto c = std::make_unique<Conn>();
    c->eng = this;
    c->src = src;
    c->dst = dst;
    c->sport = (uint16_t)port;
    c->unlimited = unlimited;
    c->tx = m_net->CreateTcpSocket(src);
    if (m_opt.traceTcp)
    {
        Ptr<TcpSocketBase> tb = DynamicCast<TcpSocketBase>(c->tx);
        Ptr<TcpDctcp> cc = CreateObject<TcpDctcp>();
        cc->TraceConnectWithoutContext("CongestionEstimate",
                                       MakeBoundCallback(&ReactEpochEngine::AlphaChange, this));
        tb->SetCongestionControlAlgorithm(cc);
        tb->TraceConnectWithoutContext("CongestionWindow",
                                       MakeBoundCallback(&ReactEpochEngine::CwndChange, this));
    }
    Ipv4Address sa = m_net->GetHostAddress(src);
    m_net->GetLabels().Set(sa.Get(), m_net->GetHostAddress(dst).Get(), c->sport, kSinkPort, label);
    if (c->tx->Bind(InetSocketAddress(sa, c->sport)) != 0)
    {
        Abort(REACT_EBACKEND, "could not bind source port " + std::to_string(port));
        return nullptr;
    }
    c->tx->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                              MakeCallback(&ReactEpochEngine::ConnectFailed, this));
    c->tx->SetSendCallback(MakeBoundCallback(&ReactEpochEngine::SendReady, c.get()));
    c->tx->Connect(InetSocketAddress(m_net->GetHostAddress(dst), kSinkPort));
    m_byPeer[(uint64_t)sa.Get() << 16 | c->sport] = c.get();
    Conn* raw = c.get();
    m_conns.push_back(std::move(c));
    return raw;
}

void
ReactEpochEngine::TrySend(Conn* c)
{
    const uint32_t chunk = 256u << 10;
    while (c->unlimited || c->written < c->queued)
    {
        uint32_t avail = c->tx->GetTxAvailable();
        if (avail == 0)
            break;
        uint64_t want = c->unlimited ? avail : std::min<uint64_t>(avail, c->queued - c->written);
        uint32_t n = (uint32_t)std::min<uint64_t>(want, chunk);
        int r = c->tx->Send(Create<Packet>(n));
        if (r <= 0)
            break;
        c->written += (uint64_t)r;
        if (c->unlimited)
            c->queued = c->written;
    }
}

void
ReactEpochEngine::DrainReceived(Conn* c)
{
    Ptr<Packet> p;
    while ((p = c->rx->Recv()))
        c->received += p->GetSize();
    while (!c->ends.empty() && c->received >= c->ends.front().end)
    {
        Pending pe = c->ends.front();
        c->ends.pop_front();
        FlowArrived(pe.job, pe.epoch, pe.flow);
        if (m_status != REACT_OK)
            return;
    }
}

void
ReactEpochEngine::StartEpoch(int32_t j)
{
    if (m_status != REACT_OK)
        return;
    Job& J = m_jobs[(size_t)j];
    if (J.cfg->epochs > 0 && J.epoch >= J.cfg->epochs)
    {
        JobDone(j);
        return;
    }
    const react_pattern_t* p = m_cb->pattern_for(m_cb->ctx, j, J.epoch);
    if (!p)
    {
        JobDone(j);
        return;
    }
    std::string where = "job " + std::to_string(j) + " (" + J.cfg->name + ") epoch " +
                        std::to_string(J.epoch) + ": ";
    if (p->nranks != J.cfg->nranks)
    {
        Abort(REACT_EINVAL, where + "pattern has " + std::to_string(p->nranks) +
                                " ranks, the job places " + std::to_string(J.cfg->nranks));
        return;
    }
    react_pattern_destroy(J.pat);
    J.pat = nullptr;
    if (react_pattern_clone(p, &J.pat) != REACT_OK)
    {
        Abort(REACT_ENOMEM, where + "out of memory copying the pattern");
        return;
    }
    size_t nf = J.pat->nflows;
    J.start.assign(nf, 0);
    J.fct.assign(nf, 0);
    J.pending.assign(nf, 0);
    J.flowConn.assign(nf, nullptr);
    J.remaining = nf;
    J.epochStart = Simulator::Now().GetSeconds();
    int32_t ports = m_cfg->ecmp_ports > 0 ? m_cfg->ecmp_ports : 1;
    std::map<std::pair<int32_t, int32_t>, uint32_t> occ;
    for (size_t f = 0; f < nf; f++)
    {
        const react_flow_t& fl = J.pat->flows[f];
        J.pending[f] = (int32_t)react_pattern_preds(J.pat, f, nullptr);
        int32_t s = J.cfg->hosts[fl.src], d = J.cfg->hosts[fl.dst];
        if (s == d || fl.bytes == 0)
            continue;
        uint64_t key = react_flow_key(s, d, occ[{s, d}]++);
        std::vector<Conn*>& v = J.conns[key];
        if (v.empty())
        {
            for (int32_t k = 0; k < ports; k++)
            {
                Conn* c = OpenConn(s, d, false, react_flow_label(m_cfg->seed, j, key, (uint64_t)k));
                if (!c)
                    return;
                v.push_back(c);
                m_flowConns.push_back(c);
            }
        }
        J.flowConn[f] = v[react_flow_conn(m_cfg->seed, j, J.epoch, f, ports)];
    }
    if (nf == 0)
    {
        Simulator::ScheduleNow(&ReactEpochEngine::EndEpoch, this, j);
        return;
    }
    for (size_t f = 0; f < nf; f++)
        if (J.pending[f] == 0)
            StartFlow(j, f);
}

void
ReactEpochEngine::StartFlow(int32_t j, size_t f)
{
    Job& J = m_jobs[(size_t)j];
    J.start[f] = Simulator::Now().GetSeconds();
    Conn* c = J.flowConn[f];
    if (!c)
    {
        /* same host or empty: arrives at once (scheduled, not recursive) */
        Simulator::ScheduleNow(&ReactEpochEngine::FlowArrived, this, j, J.epoch, f);
        return;
    }
    c->queued += J.pat->flows[f].bytes;
    c->ends.push_back(Pending{c->queued, j, J.epoch, f});
    TrySend(c);
}

void
ReactEpochEngine::FlowArrived(int32_t j, int64_t epoch, size_t f)
{
    if (m_status != REACT_OK)
        return;
    Job& J = m_jobs[(size_t)j];
    if (epoch != J.epoch || f >= J.fct.size())
    {
        Abort(REACT_EBACKEND, "internal: a flow arrived for an epoch that already ended");
        return;
    }
    double fct = Simulator::Now().GetSeconds() - J.start[f];
    J.fct[f] = fct > 1e-12 ? fct : 1e-12;
    const size_t* succ = nullptr;
    size_t ns = react_pattern_succs(J.pat, f, &succ);
    for (size_t i = 0; i < ns; i++)
        if (--J.pending[succ[i]] == 0)
            StartFlow(j, succ[i]);
    if (--J.remaining == 0)
        EndEpoch(j);
}

void
ReactEpochEngine::EndEpoch(int32_t j)
{
    if (m_status != REACT_OK)
        return;
    Job& J = m_jobs[(size_t)j];
    react_epoch_report_t rep;
    rep.job = j;
    rep.epoch = J.epoch;
    rep.start_s = J.epochStart;
    rep.end_s = Simulator::Now().GetSeconds();
    rep.pattern = J.pat;
    rep.flow_start_s = J.start.data();
    rep.fct_s = J.fct.data();
    react_status_t st = m_cb->epoch_done(m_cb->ctx, &rep);
    if (st != REACT_OK)
    {
        Abort(st, "job " + std::to_string(j) + " epoch " + std::to_string(J.epoch) +
                      ": the driver stopped the run (" + react_status_str(st) + ")");
        return;
    }
    J.epoch++;
    double gap = J.cfg->compute_gap_s > 0 ? J.cfg->compute_gap_s : 0;
    Simulator::Schedule(Seconds(gap), &ReactEpochEngine::StartEpoch, this, j);
}

void
ReactEpochEngine::JobDone(int32_t j)
{
    Job& J = m_jobs[(size_t)j];
    if (J.done)
        return;
    J.done = true;
    if (--m_jobsLeft == 0)
        Simulator::Stop();
}

void
ReactEpochEngine::StartExternal(size_t i)
{
    const react_ext_flow_t& e = m_cfg->ext[i];
    for (int32_t k = 0; k < e.count; k++)
    {
        Conn* c = OpenConn(e.src_host, e.dst_host, true, react_ext_label(m_cfg->seed, i, (uint64_t)k));
        if (!c)
            return;
        m_ext[i].push_back(c);
        TrySend(c);
    }
}

void
ReactEpochEngine::StopExternal(size_t i)
{
    for (Conn* c : m_ext[i])
    {
        c->unlimited = false;
        c->queued = c->written;
    }
}

react_status_t
ReactEpochEngine::Run(std::string* err, react_ns3_stats_t* stats)
{
    auto t0 = std::chrono::steady_clock::now();
    const react_topology_t* t = m_cfg->topo;
    if (!t)
    {
        *err = "run: no topology";
        return REACT_EINVAL;
    }
    for (int32_t j = 0; j < m_cfg->njobs; j++)
    {
        const react_job_cfg_t& jc = m_cfg->jobs[j];
        for (int32_t r = 0; r < jc.nranks; r++)
            if (jc.hosts[r] < 0 || jc.hosts[r] >= t->nhosts)
            {
                *err = "job " + std::to_string(j) + " (" + jc.name + "): rank " +
                       std::to_string(r) + " is placed on host " + std::to_string(jc.hosts[r]) +
                       ", the topology has hosts 0.." + std::to_string(t->nhosts - 1);
                return REACT_EINVAL;
            }
    }
    for (size_t i = 0; i < m_cfg->next; i++)
    {
        const react_ext_flow_t& e = m_cfg->ext[i];
        if (e.src_host < 0 || e.src_host >= t->nhosts || e.dst_host < 0 ||
            e.dst_host >= t->nhosts || e.src_host == e.dst_host || e.count < 0)
        {
            *err = "external flow " + std::to_string(i) + ": needs two distinct hosts in 0.." +
                   std::to_string(t->nhosts - 1) + " and count >= 0";
            return REACT_EINVAL;
        }
    }

    Simulator::Destroy();
    uint64_t seed = m_cfg->seed;
    RngSeedManager::SetSeed(1u + (uint32_t)(seed % 2147483646u));
    RngSeedManager::SetRun(1u + seed / 2147483646u);
    ObjectFactory sched;
    sched.SetTypeId("ns3::CalendarScheduler");
    Simulator::SetScheduler(sched);

    ReactNetworkConfig nc;
    nc.mtu = m_cfg->mtu ? m_cfg->mtu : 1500;
    nc.seed = seed;
    nc.recordPaths = m_opt.recordPaths;
    nc.trackQueues = m_opt.trackQueues;
    m_net = std::make_unique<ReactNetworkHelper>();
    std::string why = m_net->Build(t, nc);
    double buildS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (size_t i = 0; why.empty() && i < m_cfg->ndegraded; i++)
        why = m_net->SetLinkRate(m_cfg->degraded[i].link, m_cfg->degraded[i].rate_bps);
    react_status_t st = REACT_OK;
    if (!why.empty())
    {
        *err = why;
        st = REACT_EINVAL;
        goto out;
    }
    m_nextPort.assign((size_t)t->nhosts, kFirstPort);
    m_listen.assign((size_t)t->nhosts, nullptr);
    m_jobs.assign((size_t)m_cfg->njobs, Job());
    m_ext.assign(m_cfg->next, {});
    m_jobsLeft = m_cfg->njobs;
    for (int32_t j = 0; j < m_cfg->njobs; j++)
    {
        m_jobs[(size_t)j].cfg = &m_cfg->jobs[j];
        double s0 = m_cfg->jobs[j].start_s > 0 ? m_cfg->jobs[j].start_s : 0;
        Simulator::Schedule(Seconds(s0), &ReactEpochEngine::StartEpoch, this, j);
    }
    for (size_t i = 0; i < m_cfg->next; i++)
    {
        const react_ext_flow_t& e = m_cfg->ext[i];
        Simulator::Schedule(Seconds(e.start_s > 0 ? e.start_s : 0), &ReactEpochEngine::StartExternal,
                            this, i);
        if (e.end_s > 0)
            Simulator::Schedule(Seconds(e.end_s), &ReactEpochEngine::StopExternal, this, i);
    }
    if (m_cfg->njobs == 0)
        Simulator::Stop();
    Simulator::Run();
    if (m_status == REACT_OK && m_jobsLeft > 0)
    {
        for (int32_t j = 0; j < m_cfg->njobs; j++)
            if (!m_jobs[(size_t)j].done)
            {
                m_status = REACT_EBACKEND;
                m_err = "job " + std::to_string(j) + " epoch " +
                        std::to_string(m_jobs[(size_t)j].epoch) +
                        ": the simulation ran out of events before its flows arrived";
                break;
            }
    }
    st = m_status;
    if (st != REACT_OK)
        *err = m_err;
    if (stats)
    {
        stats->packets = m_net->GetPacketsSent();
        stats->drops = m_net->GetDrops();
        stats->ecn_marks = m_net->GetEcnMarks();
        stats->max_queue_pkts = m_net->GetMaxQueuePackets();
        stats->events = Simulator::GetEventCount();
        stats->sim_time_s = Simulator::Now().GetSeconds();
        stats->cwnd_reductions = m_cwndReductions;
        stats->max_dctcp_alpha = m_maxAlpha;
        stats->last_dctcp_alpha = m_lastAlpha;
    }
    if (m_opt.recordPaths)
    {
        for (Conn* c : m_flowConns)
        {
            uint64_t key = ReactEcmpRouting::FlowKey(m_net->GetHostAddress(c->src).Get(),
                                                     m_net->GetHostAddress(c->dst).Get(),
                                                     c->sport, kSinkPort);
            uint64_t id = 1469598103934665603ull;
            bool split = false;
            for (uint32_t n = 0; n < m_net->GetNNodes(); n++)
            {
                const auto* paths = m_net->GetRecordedPaths(n);
                if (!paths)
                    continue;
                auto it = paths->find(key);
                if (it == paths->end())
                    continue;
                if (it->second.size() != 1)
                    split = true;
                id = Mix(id ^ ((uint64_t)n << 20 | *it->second.begin()));
            }
            m_connPaths.push_back(split ? 0 : (id ? id : 1));
            /* walk the recorded ports from the source host to the destination */
            std::vector<int32_t> links;
            uint32_t node = (uint32_t)m_cfg->topo->host_node[c->src];
            uint32_t end = (uint32_t)m_cfg->topo->host_node[c->dst];
            for (int32_t hop = 0; node != end && hop <= m_cfg->topo->nnodes; hop++)
            {
                const auto* paths = m_net->GetRecordedPaths(node);
                auto it = paths ? paths->find(key) : decltype(paths->end()){};
                if (!paths || it == paths->end() || it->second.size() != 1)
                {
                    links.clear();
                    break;
                }
                int32_t dl = m_net->GetPortDlink(node, *it->second.begin());
                if (dl < 0)
                {
                    links.clear();
                    break;
                }
                links.push_back(dl);
                node = (uint32_t)react_dlink_to(m_cfg->topo, dl);
            }
            m_connLinks.push_back(node == end ? links : std::vector<int32_t>());
        }
    }
out:
    Simulator::Destroy();
    for (auto& c : m_conns)
    {
        c->tx = nullptr;
        c->rx = nullptr;
    }
    m_listen.clear();
    m_net.reset();
    if (stats)
        stats->build_s = buildS;
    if (stats)
        stats->wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
}

} // namespace ns3
