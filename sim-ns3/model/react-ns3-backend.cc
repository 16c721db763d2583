/*
 * react-ns3-backend.cc - the extern "C" face (react/ns3.h): the backend ops
 * and the probes used by tests, examples and benchmarks.
 */
#include "react-epoch-engine.h"
#include "react-network-helper.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"

#include "react/ns3.h"
#include "react/pattern.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>
#include <set>
#include <string>

using namespace ns3;

static void
SetErr(char* err, size_t errlen, const std::string& s)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", s.c_str());
}

static react_status_t
RunEngine(const react_run_cfg_t* cfg, const react_driver_cb_t* cb, const ReactEngineOptions& opt,
          react_ns3_stats_t* stats, std::vector<uint64_t>* paths,
          std::vector<std::vector<int32_t>>* links, char* err, size_t errlen)
{
    if (!cfg || !cb || !cb->pattern_for || !cb->epoch_done)
    {
        SetErr(err, errlen, "ns3 backend: run needs a configuration and both callbacks");
        return REACT_EINVAL;
    }
    if (cfg->mtu != 0 && cfg->mtu != 1500 && cfg->mtu != 9000)
    {
        SetErr(err, errlen, "mtu: expected 1500 or 9000, got " + std::to_string(cfg->mtu));
        return REACT_EINVAL;
    }
    try
    {
        ReactEpochEngine eng(cfg, cb, opt);
        std::string why;
        react_ns3_stats_t local;
        memset(&local, 0, sizeof local);
        react_status_t st = eng.Run(&why, stats ? stats : &local);
        if (st != REACT_OK)
            SetErr(err, errlen, why);
        if (paths)
            *paths = eng.GetConnectionPaths();
        if (links)
            *links = eng.GetConnectionLinks();
        return st;
    }
    catch (const std::bad_alloc&)
    {
        SetErr(err, errlen, "ns3 backend: out of memory");
        return REACT_ENOMEM;
    }
    catch (const std::exception& e)
    {
        SetErr(err, errlen, std::string("ns3 backend: ") + e.what());
        return REACT_EBACKEND;
    }
}

static react_status_t
Ns3Run(const react_run_cfg_t* cfg, const react_driver_cb_t* cb, char* err, size_t errlen)
{
    ReactEngineOptions opt;
    return RunEngine(cfg, cb, opt, nullptr, nullptr, nullptr, err, errlen);
}

extern "C" {

const react_backend_ops_t react_backend_ns3 = {"ns3", Ns3Run, nullptr, nullptr, nullptr};

react_status_t
react_ns3_run_stats(const react_run_cfg_t* cfg, const react_driver_cb_t* cb,
                    react_ns3_stats_t* stats, char* err, size_t errlen)
{
    ReactEngineOptions opt;
    return RunEngine(cfg, cb, opt, stats, nullptr, nullptr, err, errlen);
}

} // extern "C"

/* One fixed pattern for `epochs` epochs. */
struct FixedCtx
{
    const react_pattern_t* pat;
    int64_t epochs;
    double lastEnd;
    double maxFct;
};

static const react_pattern_t*
FixedPattern(void* ctx, int32_t job, int64_t epoch)
{
    (void)job;
    FixedCtx* c = (FixedCtx*)ctx;
    return epoch < c->epochs ? c->pat : nullptr;
}

static react_status_t
FixedDone(void* ctx, const react_epoch_report_t* rep)
{
    FixedCtx* c = (FixedCtx*)ctx;
    c->lastEnd = rep->end_s;
    for (size_t i = 0; i < rep->pattern->nflows; i++)
        if (rep->fct_s[i] > c->maxFct)
            c->maxFct = rep->fct_s[i];
    return REACT_OK;
}

/* nflows flows rank 1..n -> rank 0 (incast) or all rank 0 -> rank 1 (same pair). */
static react_status_t
MakeOneStep(int32_t nranks, int32_t nflows, bool incast, uint64_t bytes, react_pattern_t** out)
{
    react_pattern_t* p = nullptr;
    react_status_t st = react_pattern_create(REACT_COLL_BROADCAST, REACT_ALGO_CUSTOM, nranks, 1,
                                             bytes, &p);
    if (st != REACT_OK)
        return st;
    for (int32_t i = 0; i < nflows; i++)
    {
        react_flow_t f;
        memset(&f, 0, sizeof f);
        f.step = 0;
        f.src = incast ? i + 1 : 0;
        f.dst = incast ? 0 : 1;
        f.chunk = 0;
        f.nchunks = 1;
        f.bytes = bytes;
        f.op = REACT_RECV_STORE;
        if ((st = react_pattern_add_flow(p, &f)) != REACT_OK)
            break;
    }
    if (st == REACT_OK)
        st = react_pattern_finalize(p, nullptr, 0);
    if (st != REACT_OK)
    {
        react_pattern_destroy(p);
        return st;
    }
    *out = p;
    return REACT_OK;
}

extern "C" {

react_status_t
react_ns3_incast_probe(int32_t nsenders, uint64_t bytes, uint32_t mtu, double rate_bps,
                       double delay_s, uint64_t seed, react_ns3_stats_t* out,
                       double* goodput_bps, char* err, size_t errlen)
{
    if (nsenders < 1 || bytes == 0 || (mtu != 1500 && mtu != 9000) || !out)
    {
        SetErr(err, errlen, "incast probe: needs nsenders >= 1, bytes > 0, mtu 1500 or 9000");
        return REACT_EINVAL;
    }
    react_topology_t* topo = nullptr;
    react_pattern_t* pat = nullptr;
    react_status_t st = react_topo_star(nsenders + 1, rate_bps, delay_s, &topo);
    if (st != REACT_OK)
    {
        SetErr(err, errlen, "incast probe: could not build the star");
        return st;
    }
    std::vector<int32_t> hosts((size_t)nsenders + 1);
    for (int32_t i = 0; i <= nsenders; i++)
        hosts[(size_t)i] = i;
    st = MakeOneStep(nsenders + 1, nsenders, true, bytes, &pat);
    if (st == REACT_OK)
    {
        react_job_cfg_t job;
        memset(&job, 0, sizeof job);
        snprintf(job.name, sizeof job.name, "incast");
        job.nranks = nsenders + 1;
        job.hosts = hosts.data();
        job.collective = pat->collective;
        job.algorithm = pat->algorithm;
        job.message_bytes = bytes;
        job.epochs = 1;
        react_run_cfg_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.topo = topo;
        cfg.njobs = 1;
        cfg.jobs = &job;
        cfg.ecmp_ports = 1;
        cfg.mtu = mtu;
        cfg.seed = seed;
        FixedCtx ctx{pat, 1, 0, 0};
        react_driver_cb_t cb{&ctx, FixedPattern, FixedDone};
        ReactEngineOptions opt;
        opt.traceTcp = true;
        opt.trackQueues = true;
        memset(out, 0, sizeof *out);
        st = RunEngine(&cfg, &cb, opt, out, nullptr, nullptr, err, errlen);
        if (st == REACT_OK && goodput_bps)
            *goodput_bps = ctx.maxFct > 0 ? (double)bytes * nsenders * 8.0 / ctx.maxFct : 0;
    }
    react_pattern_destroy(pat);
    react_topology_destroy(topo);
    return st;
}

} // extern "C"

static react_status_t
PathProbe(const react_topology_t* topo, int32_t src, int32_t dst, int32_t nflows, uint64_t bytes,
          uint64_t seed, std::vector<uint64_t>* ids, std::vector<std::vector<int32_t>>* links,
          char* err, size_t errlen)
{
    if (!topo || nflows < 1 || bytes == 0 || src == dst || src < 0 || dst < 0 ||
        src >= topo->nhosts || dst >= topo->nhosts)
    {
        SetErr(err, errlen, "ecmp probe: needs a topology, two distinct hosts, nflows >= 1, bytes > 0");
        return REACT_EINVAL;
    }
    react_pattern_t* pat = nullptr;
    react_status_t st = MakeOneStep(2, nflows, false, bytes, &pat);
    if (st != REACT_OK)
        return st;
    int32_t hosts[2] = {src, dst};
    react_job_cfg_t job;
    memset(&job, 0, sizeof job);
    snprintf(job.name, sizeof job.name, "ecmp");
    job.nranks = 2;
    job.hosts = hosts;
    job.collective = pat->collective;
    job.algorithm = pat->algorithm;
    job.message_bytes = bytes;
    job.epochs = 1;
    react_run_cfg_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.topo = topo;
    cfg.njobs = 1;
    cfg.jobs = &job;
    cfg.ecmp_ports = 1;
    cfg.mtu = 1500;
    cfg.seed = seed;
    FixedCtx ctx{pat, 1, 0, 0};
    react_driver_cb_t cb{&ctx, FixedPattern, FixedDone};
    ReactEngineOptions opt;
    opt.recordPaths = true;
    st = RunEngine(&cfg, &cb, opt, nullptr, ids, links, err, errlen);
    react_pattern_destroy(pat);
    return st;
}

extern "C" {

react_status_t
react_ns3_ecmp_probe(const react_topology_t* topo, int32_t src, int32_t dst, int32_t nflows,
                     uint64_t bytes, uint64_t seed, uint64_t* path_id, int32_t* npaths_used,
                     char* err, size_t errlen)
{
    if (!path_id || !npaths_used)
    {
        SetErr(err, errlen, "ecmp probe: needs output arrays");
        return REACT_EINVAL;
    }
    std::vector<uint64_t> ids;
    std::vector<std::vector<int32_t>> links;
    react_status_t st = PathProbe(topo, src, dst, nflows, bytes, seed, &ids, &links, err, errlen);
    if (st != REACT_OK)
        return st;
    std::set<uint64_t> distinct;
    for (int32_t i = 0; i < nflows; i++)
    {
        path_id[i] = (size_t)i < ids.size() ? ids[(size_t)i] : 0;
        if (path_id[i])
            distinct.insert(path_id[i]);
    }
    *npaths_used = (int32_t)distinct.size();
    return REACT_OK;
}

react_status_t
react_ns3_flow_paths(const react_topology_t* topo, int32_t src, int32_t dst, int32_t nflows,
                     uint64_t bytes, uint64_t seed, int32_t* dlinks, int32_t cap, int32_t* len,
                     char* err, size_t errlen)
{
    if (!dlinks || !len || cap < 1)
    {
        SetErr(err, errlen, "flow paths: needs output arrays and cap >= 1");
        return REACT_EINVAL;
    }
    std::vector<uint64_t> ids;
    std::vector<std::vector<int32_t>> links;
    react_status_t st = PathProbe(topo, src, dst, nflows, bytes, seed, &ids, &links, err, errlen);
    if (st != REACT_OK)
        return st;
    for (int32_t i = 0; i < nflows; i++)
    {
        const std::vector<int32_t>* l = (size_t)i < links.size() ? &links[(size_t)i] : nullptr;
        len[i] = l && (int32_t)l->size() <= cap ? (int32_t)l->size() : 0;
        for (int32_t k = 0; k < len[i]; k++)
            dlinks[(size_t)i * (size_t)cap + (size_t)k] = (*l)[(size_t)k];
    }
    return REACT_OK;
}

react_status_t
react_ns3_plain_bulk(const react_topology_t* topo, int32_t nflows, const int32_t* src,
                     const int32_t* dst, uint64_t bytes, uint32_t mtu, react_ns3_stats_t* out,
                     char* err, size_t errlen)
{
    if (!topo || nflows < 1 || !src || !dst || bytes == 0 || !out || (mtu != 1500 && mtu != 9000))
    {
        SetErr(err, errlen, "plain bulk: needs a topology, nflows >= 1 pairs, bytes > 0, mtu 1500 or 9000");
        return REACT_EINVAL;
    }
    for (int32_t i = 0; i < nflows; i++)
        if (src[i] < 0 || dst[i] < 0 || src[i] >= topo->nhosts || dst[i] >= topo->nhosts ||
            src[i] == dst[i])
        {
            SetErr(err, errlen, "plain bulk: pair " + std::to_string(i) + " needs two distinct hosts");
            return REACT_EINVAL;
        }
    auto t0 = std::chrono::steady_clock::now();
    react_status_t st = REACT_OK;
    try
    {
        Simulator::Destroy();
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        ObjectFactory sched;
        sched.SetTypeId("ns3::CalendarScheduler");
        Simulator::SetScheduler(sched);
        ReactNetworkConfig nc;
        nc.mtu = mtu;
        nc.globalRouting = true;
        auto net = std::make_unique<ReactNetworkHelper>();
        std::string why = net->Build(topo, nc);
        if (!why.empty())
        {
            Simulator::Destroy();
            SetErr(err, errlen, why);
            return REACT_EINVAL;
        }
        double buildS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        /* Datacenter TCP settings as defaults, so BulkSend/PacketSink sockets get them. */
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(net->GetSegmentSize()));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(8u << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(8u << 20));
        Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MicroSeconds(10)));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));
        Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));
        uint64_t received = 0, expected = bytes * (uint64_t)nflows;
        std::vector<Ptr<PacketSink>> sinks;
        std::set<int32_t> sinkHosts;
        for (int32_t i = 0; i < nflows; i++)
        {
            if (sinkHosts.insert(dst[i]).second)
            {
                PacketSinkHelper sh("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9));
                ApplicationContainer a = sh.Install(net->GetHost(dst[i]));
                sinks.push_back(DynamicCast<PacketSink>(a.Get(0)));
            }
            BulkSendHelper bs("ns3::TcpSocketFactory",
                              InetSocketAddress(net->GetHostAddress(dst[i]), 9));
            bs.SetAttribute("MaxBytes", UintegerValue(bytes));
            bs.SetAttribute("SendSize", UintegerValue(256u << 10));
            bs.Install(net->GetHost(src[i]));
        }
        double lastRx = 0;
        auto onRx = [&](Ptr<const Packet> p, const Address&) {
            received += p->GetSize();
            if (received >= expected)
            {
                lastRx = Simulator::Now().GetSeconds();
                Simulator::Stop();
            }
        };
        std::function<void(Ptr<const Packet>, const Address&)> fn = onRx;
        for (auto& s : sinks)
            s->TraceConnectWithoutContext("Rx", Callback<void, Ptr<const Packet>, const Address&>(fn));
        Simulator::Run();
        memset(out, 0, sizeof *out);
        out->packets = net->GetPacketsSent();
        out->drops = net->GetDrops();
        out->ecn_marks = net->GetEcnMarks();
        out->events = Simulator::GetEventCount();
        out->sim_time_s = lastRx;
        out->build_s = buildS;
        if (received < expected)
        {
            SetErr(err, errlen, "plain bulk: the simulation ended before every byte arrived");
            st = REACT_EBACKEND;
        }
        Simulator::Destroy();
        sinks.clear();
        net.reset();
        /* restore the stock defaults so later runs are unaffected */
        Config::Reset();
    }
    catch (const std::exception& e)
    {
        SetErr(err, errlen, std::string("plain bulk: ") + e.what());
        st = REACT_EBACKEND;
    }
    out->wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
}

} // extern "C"
