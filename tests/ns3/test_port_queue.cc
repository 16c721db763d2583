/*
 * ReactPortQueue on its own: strict ACK priority, RED-style ECN marking on
 * the instantaneous data backlog, the shared byte buffer, reproducibility.
 * Packets are built as they sit in a point-to-point device queue
 * (PPP + IPv4 + TCP [+ payload]).
 */
#include <criterion/criterion.h>

#include "react-port-queue.h"

#include "ns3/ipv4-header.h"
#include "ns3/ppp-header.h"
#include "ns3/queue-size.h"
#include "ns3/tcp-header.h"

#include <vector>

using namespace ns3;

static Ptr<Packet>
Mk(uint32_t payload, Ipv4Header::EcnType ecn, uint16_t tag)
{
    Ptr<Packet> p = Create<Packet>(payload);
    TcpHeader tcp;
    tcp.SetSourcePort(tag); /* identifies the packet after dequeue */
    tcp.SetDestinationPort(5001);
    tcp.SetFlags(TcpHeader::ACK);
    p->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetProtocol(6);
    ip.SetPayloadSize(p->GetSize());
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetEcn(ecn);
    p->AddHeader(ip);
    PppHeader ppp;
    ppp.SetProtocol(0x0021);
    p->AddHeader(ppp);
    return p;
}

/* (tag, ECN codepoint) of a dequeued packet */
static void
Parse(Ptr<Packet> p, uint16_t* tag, Ipv4Header::EcnType* ecn)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    TcpHeader tcp;
    c->RemoveHeader(ppp);
    c->RemoveHeader(ip);
    c->RemoveHeader(tcp);
    *tag = tcp.GetSourcePort();
    *ecn = ip.GetEcn();
}

static Ptr<ReactPortQueue>
NewQueue(double minTh, double maxTh, uint64_t seed, uint32_t bytes = 32u << 20)
{
    Ptr<ReactPortQueue> q = CreateObject<ReactPortQueue>();
    q->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, bytes));
    q->Configure(minTh, maxTh, seed, true);
    return q;
}

Test(port_queue, pure_acks_go_ahead_of_data_in_order)
{
    Ptr<ReactPortQueue> q = NewQueue(32, 60, 1);
    /* D1 D2 A3 D4 A5 A6 -> A3 A5 A6 D1 D2 D4 */
    uint32_t pay[] = {1448, 1448, 0, 1448, 0, 0};
    for (uint16_t i = 0; i < 6; i++)
        cr_assert(q->Enqueue(Mk(pay[i], Ipv4Header::ECN_ECT0, (uint16_t)(i + 1))));
    uint16_t want[] = {3, 5, 6, 1, 2, 4};
    for (uint16_t w : want)
    {
        Ptr<Packet> p = q->Dequeue();
        cr_assert(p);
        uint16_t tag;
        Ipv4Header::EcnType ecn;
        Parse(p, &tag, &ecn);
        cr_assert_eq(tag, w);
    }
    cr_assert_null(q->Dequeue());
    /* an ACK arriving at an empty data band, then data, then an ACK again */
    q->Enqueue(Mk(1448, Ipv4Header::ECN_ECT0, 7));
    q->Enqueue(Mk(0, Ipv4Header::ECN_ECT0, 8));
    uint16_t tag;
    Ipv4Header::EcnType ecn;
    Parse(q->Dequeue(), &tag, &ecn);
    cr_assert_eq(tag, 8);
    q->Enqueue(Mk(0, Ipv4Header::ECN_ECT0, 9));
    Parse(q->Dequeue(), &tag, &ecn);
    cr_assert_eq(tag, 9);
    Parse(q->Dequeue(), &tag, &ecn);
    cr_assert_eq(tag, 7);
    cr_assert_eq(q->GetSent(), 9u);
    cr_assert_eq(q->GetMaxDataDepth(), 3u);
}

static std::vector<int>
Marks(uint64_t seed, Ipv4Header::EcnType ecn, uint64_t* count)
{
    Ptr<ReactPortQueue> q = NewQueue(8, 16, seed);
    for (uint16_t i = 0; i < 40; i++)
        cr_assert(q->Enqueue(Mk(1448, ecn, i)));
    /* ACKs are never marked and do not count toward the backlog */
    for (uint16_t i = 0; i < 20; i++)
        q->Enqueue(Mk(0, Ipv4Header::ECN_ECT0, (uint16_t)(1000 + i)));
    std::vector<int> m(40, -1);
    for (Ptr<Packet> p = q->Dequeue(); p; p = q->Dequeue())
    {
        uint16_t tag;
        Ipv4Header::EcnType e;
        Parse(p, &tag, &e);
        if (tag >= 1000)
            cr_assert_neq(e, Ipv4Header::ECN_CE, "ACK %u marked", tag);
        else
            m[tag] = e == Ipv4Header::ECN_CE;
    }
    *count = q->GetMarks();
    return m;
}

Test(port_queue, red_marking_on_the_instantaneous_backlog)
{
    uint64_t n;
    std::vector<int> m = Marks(7, Ipv4Header::ECN_ECT0, &n);
    uint64_t seen = 0;
    for (int i = 0; i < 40; i++)
    {
        cr_assert_neq(m[i], -1);
        seen += (uint64_t)m[i];
        if (i < 8)
            cr_assert_eq(m[i], 0, "packet %d marked below MinTh", i);
        if (i >= 16)
            cr_assert_eq(m[i], 1, "packet %d not marked from MaxTh on", i);
    }
    cr_assert_eq(seen, n);
    /* between the thresholds RED marks some but not all (probability 0..7/8) */
    uint64_t mid = n - 24;
    cr_assert(mid >= 1 && mid <= 7, "marks between the thresholds: %llu", (unsigned long long)mid);
    /* same seed, same marks; not ECN-capable: never marked */
    uint64_t n2;
    cr_assert(Marks(7, Ipv4Header::ECN_ECT0, &n2) == m);
    std::vector<int> none = Marks(7, Ipv4Header::ECN_NotECT, &n2);
    cr_assert_eq(n2, 0u);
    for (int v : none)
        cr_assert_eq(v, 0);
}

Test(port_queue, the_buffer_is_shared_and_counted)
{
    uint32_t pkt = Mk(1448, Ipv4Header::ECN_ECT0, 0)->GetSize();
    Ptr<ReactPortQueue> q = NewQueue(32, 60, 1, 3 * pkt);
    cr_assert(q->Enqueue(Mk(1448, Ipv4Header::ECN_ECT0, 1)));
    cr_assert(q->Enqueue(Mk(1448, Ipv4Header::ECN_ECT0, 2)));
    cr_assert(q->Enqueue(Mk(1448, Ipv4Header::ECN_ECT0, 3)));
    cr_assert_not(q->Enqueue(Mk(1448, Ipv4Header::ECN_ECT0, 4)));
    cr_assert_eq(q->GetTotalDroppedPackets(), 1u);
    cr_assert_eq(q->GetNPackets(), 3u);
}
