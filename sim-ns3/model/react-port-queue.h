/*
 * react-port-queue.h - the output queue of every port of a REACT network.
 *
 * One point-to-point device queue that does what the paper's switches do
 * (section 7.3) without a traffic-control layer above it:
 *
 *  - pure TCP ACKs (no payload) go ahead of every data packet, FIFO among
 *    themselves (strict priority, two bands in one list);
 *  - data packets that carry ECT are marked CE at enqueue as RED does with an
 *    instantaneous queue (QW = 1): with q data packets already queued,
 *    probability 0 below MinTh, (q - MinTh) / (MaxTh - MinTh) between the
 *    thresholds spread by RED's inter-mark count, 1 from MaxTh on; no early
 *    drops (non-ECT packets are never marked nor dropped early);
 *  - the buffer (MaxSize, bytes) is shared by both bands; a packet that does
 *    not fit is dropped and counted.
 *
 * Marking draws from a private xorshift generator seeded per port, so a run
 * is reproducible bit for bit without ns-3's global random streams.
 * Packets in a device queue carry the 2-byte PPP header before IPv4.
 */
#ifndef REACT_PORT_QUEUE_H
#define REACT_PORT_QUEUE_H

#include "ns3/packet.h"
#include "ns3/queue.h"

#include "react/dctcp.h"

namespace ns3 {

class ReactPortQueue : public Queue<Packet>
{
  public:
    static TypeId GetTypeId();
    ReactPortQueue();
    ~ReactPortQueue() override;

    /* Marking thresholds in data packets, the generator's seed, and whether
     * the deepest data backlog is recorded. */
    void Configure(double minTh, double maxTh, uint64_t seed, bool trackDepth);

    bool Enqueue(Ptr<Packet> item) override;
    Ptr<Packet> Dequeue() override;
    Ptr<Packet> Remove() override;
    Ptr<const Packet> Peek() const override;

    uint64_t GetMarks() const { return m_marks; }
    uint64_t GetSent() const { return m_sent; }
    uint32_t GetMaxDataDepth() const { return m_maxData; }

    /* Classify a packet as it sits in a device queue (PPP + IPv4 + ...):
     * 1 pure TCP ACK, 0 data; *ecnOffset the byte holding the ECN bits or
     * -1 if not IPv4. Exposed for tests. */
    static int IsPureAck(Ptr<const Packet> p, int* ecnOffset, uint8_t* ecn);

  private:
    bool DecideMark(uint32_t q);
    /* the head packet out, dequeued (sent) or removed (dropped) */
    Ptr<Packet> TakeHead(bool drop);
    static void MarkCe(Ptr<Packet> p);

    double m_minTh = REACT_RED_MIN_TH_PKTS;
    double m_maxTh = REACT_RED_MAX_TH_PKTS;
    uint64_t m_rng = 0x853c49e6748fea9bull;
    bool m_track = false;
    uint32_t m_data = 0;     /* data packets queued (they sit behind every ACK) */
    int64_t m_count = 0;     /* RED: data packets since the last mark */
    ConstIterator m_firstData;
    uint64_t m_marks = 0;
    uint64_t m_sent = 0;
    uint32_t m_maxData = 0;
};

} // namespace ns3

#endif
