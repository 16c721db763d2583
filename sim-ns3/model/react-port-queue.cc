#include "react-port-queue.h"

#include "ns3/ipv4-header.h"
#include "ns3/ppp-header.h"
#include "ns3/queue-size.h"

#include <iterator>

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(ReactPortQueue);

TypeId
ReactPortQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ReactPortQueue")
            .SetParent<Queue<Packet>>()
            .SetGroupName("React")
            .AddConstructor<ReactPortQueue>()
            .AddAttribute("MaxSize",
                          "Buffer shared by both bands",
                          QueueSizeValue(QueueSize(QueueSizeUnit::BYTES,
                                                   (uint32_t)REACT_PORT_BUFFER_BYTES)),
                          MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize),
                          MakeQueueSizeChecker());
    return tid;
}

ReactPortQueue::ReactPortQueue()
    : m_firstData(GetContainer().end())
{
}

ReactPortQueue::~ReactPortQueue() = default;

void
ReactPortQueue::Configure(double minTh, double maxTh, uint64_t seed, bool trackDepth)
{
    m_minTh = minTh;
    m_maxTh = maxTh;
    /* splitmix64 of the seed; xorshift must not start at 0 */
    uint64_t x = seed + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    m_rng = x ? x : 0x853c49e6748fea9bull;
    m_track = trackDepth;
}

int
ReactPortQueue::IsPureAck(Ptr<const Packet> p, int* ecnOffset, uint8_t* ecn)
{
    /* PPP (2) + IPv4 without options (20) + TCP data offset byte (13) */
    uint8_t b[2 + 60 + 13];
    uint32_t n = p->CopyData(b, 2 + 20 + 13);
    *ecnOffset = -1;
    *ecn = 0;
    if (n < 2 + 20 || (b[2] >> 4) != 4)
        return 0;
    *ecnOffset = 3;
    *ecn = b[3] & 3;
    uint32_t ihl = (uint32_t)(b[2] & 15) * 4;
    if (b[2 + 9] != 6 || ihl < 20)
        return 0;
    if (ihl > 20)
        n = p->CopyData(b, 2 + ihl + 13);
    if (n < 2 + ihl + 13)
        return 0;
    uint32_t total = (uint32_t)b[4] << 8 | b[5];
    uint32_t thl = (uint32_t)(b[2 + ihl + 12] >> 4) * 4;
    return total <= ihl + thl ? 1 : 0;
}

bool
ReactPortQueue::DecideMark(uint32_t q)
{
    double pb;
    if (q < m_minTh)
    {
        m_count = 0;
        return false;
    }
    if (q >= m_maxTh || m_maxTh <= m_minTh)
        pb = 1;
    else
        pb = (q - m_minTh) / (m_maxTh - m_minTh);
    m_count++;
    double pa = m_count * pb >= 1 ? 1 : pb / (1 - m_count * pb);
    /* xorshift64*, top 53 bits as a uniform in [0, 1) */
    m_rng ^= m_rng >> 12;
    m_rng ^= m_rng << 25;
    m_rng ^= m_rng >> 27;
    double u = (double)((m_rng * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53;
    if (u < pa)
    {
        m_count = 0;
        return true;
    }
    return false;
}

void
ReactPortQueue::MarkCe(Ptr<Packet> p)
{
    PppHeader ppp;
    Ipv4Header ip;
    p->RemoveHeader(ppp);
    p->RemoveHeader(ip);
    ip.SetEcn(Ipv4Header::ECN_CE);
    p->AddHeader(ip);
    p->AddHeader(ppp);
}

bool
ReactPortQueue::Enqueue(Ptr<Packet> item)
{
    int off;
    uint8_t ecn;
    if (IsPureAck(item, &off, &ecn))
        return DoEnqueue(m_data ? m_firstData : GetContainer().end(), item);
    if (off >= 0 && (ecn == Ipv4Header::ECN_ECT0 || ecn == Ipv4Header::ECN_ECT1) &&
        DecideMark(m_data))
    {
        MarkCe(item);
        m_marks++;
    }
    Iterator it;
    if (!DoEnqueue(GetContainer().end(), item, it))
        return false;
    if (m_data++ == 0)
        m_firstData = it;
    if (m_track && m_data > m_maxData)
        m_maxData = m_data;
    return true;
}

Ptr<Packet>
ReactPortQueue::TakeHead(bool drop)
{
    if (GetContainer().empty())
        return nullptr;
    ConstIterator head = GetContainer().begin();
    bool data = m_data && head == m_firstData;
    ConstIterator next = std::next(head);
    Ptr<Packet> p = drop ? DoRemove(head) : DoDequeue(head);
    if (p && data)
    {
        m_data--;
        m_firstData = next;
    }
    if (p && !drop)
        m_sent++;
    return p;
}

Ptr<Packet>
ReactPortQueue::Dequeue()
{
    return TakeHead(false);
}

Ptr<Packet>
ReactPortQueue::Remove()
{
    return TakeHead(true);
}

Ptr<const Packet>
ReactPortQueue::Peek() const
{
    if (GetContainer().empty())
        return nullptr;
    return DoPeek(GetContainer().begin());
}

} // namespace ns3
