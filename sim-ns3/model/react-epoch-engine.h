/*
 * react-epoch-engine.h - runs the jobs of one react_run_cfg_t on an ns-3
 * network, epoch by epoch, with the semantics of react/backend.h.
 *
 * Transport: a logical flow of a job is identified by (source host,
 * destination host, occurrence of that host pair among the pattern's flows),
 * react_flow_key, as in the flow-level backend.  It owns cfg->ecmp_ports TCP
 * connections, opened once, the first time the flow appears; connection k
 * carries the flow label react_flow_label(seed, job, key, k), which every
 * switch's ECMP hash reads, so each connection takes the path the
 * flow-level backend gives it.  Every epoch connection
 * react_flow_conn(seed, job, epoch, flow) carries the flow's bytes.  A connection is a byte stream, so every
 * transfer on it ends at a known cumulative offset; the receiver counts bytes
 * and the flow arrives when its last byte does.  A flow starts when all its
 * react_pattern_preds have arrived; an epoch ends when all flows have, and
 * the next starts compute_gap_s later (pattern_for is called then).
 *
 * External flows are unlimited senders over [start_s, end_s); at end_s they
 * stop refilling their socket buffer.  The simulator is stopped as soon as
 * every job has ended, so TIME_WAIT timers do not run on.
 */
#ifndef REACT_EPOCH_ENGINE_H
#define REACT_EPOCH_ENGINE_H

#include "react-network-helper.h"

#include "react/backend.h"
#include "react/ns3.h"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3 {

struct ReactEngineOptions
{
    bool traceTcp = false;    /* cwnd reductions and DCTCP alpha of senders */
    bool trackQueues = false; /* deepest switch data queue */
    bool recordPaths = false; /* ECMP path recording */
};

class ReactEpochEngine
{
  public:
    ReactEpochEngine(const react_run_cfg_t* cfg,
                     const react_driver_cb_t* cb,
                     const ReactEngineOptions& opt);
    ~ReactEpochEngine();

    /* The whole run: build, simulate, tear down (Simulator::Destroy). */
    react_status_t Run(std::string* err, react_ns3_stats_t* stats);

    /* After Run with recordPaths: per connection opened for flows, in the
     * order connections were created: the path fingerprint (0: split). */
    const std::vector<uint64_t>& GetConnectionPaths() const { return m_connPaths; }
    /* ... and the directed links its data took from source to destination
     * (empty when split or not traced to the destination). */
    const std::vector<std::vector<int32_t>>& GetConnectionLinks() const { return m_connLinks; }

    struct Conn;

  private:
    struct Pending
    {
        uint64_t end;
        int32_t job;
        int64_t epoch;
        size_t flow;
    };

    struct Job
    {
        const react_job_cfg_t* cfg = nullptr;
        int64_t epoch = 0;
        react_pattern_t* pat = nullptr;
        double epochStart = 0;
        size_t remaining = 0;
        bool done = false;
        std::vector<double> start, fct;
        std::vector<int32_t> pending;
        std::vector<Conn*> flowConn;
        /* react_flow_key of a logical flow -> its connections */
        std::unordered_map<uint64_t, std::vector<Conn*>> conns;
    };

  public:
    struct Conn
    {
        ReactEpochEngine* eng = nullptr;
        int32_t src = 0, dst = 0;
        uint16_t sport = 0;
        Ptr<Socket> tx, rx;
        uint64_t queued = 0, written = 0, received = 0;
        bool unlimited = false;
        std::deque<Pending> ends;
    };

  private:
    Conn* OpenConn(int32_t src, int32_t dst, bool unlimited, uint32_t label);
    void EnsureListener(int32_t host);
    bool AcceptRequest(Ptr<Socket> s, const Address& from);
    void NewConnection(Ptr<Socket> s, const Address& from);
    void ConnectFailed(Ptr<Socket> s);
    static void SendReady(Conn* c, Ptr<Socket> s, uint32_t avail);
    static void RecvReady(Conn* c, Ptr<Socket> s);
    static void CwndChange(ReactEpochEngine* e, uint32_t oldv, uint32_t newv);
    static void AlphaChange(ReactEpochEngine* e, uint32_t acked, uint32_t marked, double alpha);
    void TrySend(Conn* c);
    void DrainReceived(Conn* c);

    void StartEpoch(int32_t j);
    void StartFlow(int32_t j, size_t f);
    void FlowArrived(int32_t j, int64_t epoch, size_t f);
    void EndEpoch(int32_t j);
    void JobDone(int32_t j);
    void StartExternal(size_t i);
    void StopExternal(size_t i);
    void Abort(react_status_t st, const std::string& why);

    const react_run_cfg_t* m_cfg;
    const react_driver_cb_t* m_cb;
    ReactEngineOptions m_opt;
    std::unique_ptr<ReactNetworkHelper> m_net;
    std::vector<Job> m_jobs;
    std::vector<std::unique_ptr<Conn>> m_conns;
    std::vector<std::vector<Conn*>> m_ext;
    std::vector<uint32_t> m_nextPort; /* per host */
    std::vector<Ptr<Socket>> m_listen; /* per host */
    std::unordered_map<uint64_t, Conn*> m_byPeer;
    std::vector<Conn*> m_flowConns; /* connections of flows, creation order */
    std::vector<uint64_t> m_connPaths;
    std::vector<std::vector<int32_t>> m_connLinks;
    int32_t m_jobsLeft = 0;
    react_status_t m_status = REACT_OK;
    std::string m_err;
    uint64_t m_cwndReductions = 0;
    double m_maxAlpha = 0;
    double m_lastAlpha = 0;
};

} // namespace ns3

#endif
