/*
 * react/dctcp.h - the switch-port and transport constants that the ns-3
 * backend (sim-ns3/) configures and the DCTCP window model
 * (sim/src/rate_dctcp.c) reproduces, in one place so the two cannot drift
 * apart; also the standing queue of the max-min model.  Macros only:
 * included from C and C++.
 */
#ifndef REACT_DCTCP_H
#define REACT_DCTCP_H

/* RED marking thresholds of every port, in data packets of the backlog:
 * no mark below MinTh (DCTCP's marking threshold K), RED's inter-mark
 * count between the two, every packet from MaxTh on; no early drops. */
#define REACT_RED_MIN_TH_PKTS 32.0
#define REACT_RED_MAX_TH_PKTS 60.0

/* Buffer of every switch port (and host NIC queue), bytes. */
#define REACT_PORT_BUFFER_BYTES (32ull << 20)

/* TCP/IP header bytes of a segment: MSS = MTU - 40 (no TCP options; the
 * ns-3 backend turns timestamps off). */
#define REACT_TCPIP_HEADER_BYTES 40

/* ns-3.37's TcpDctcp and TcpSocket defaults, which the ns-3 backend keeps
 * and the window model follows: g (DctcpShiftG), alpha at start
 * (DctcpAlphaOnInit), the initial window in segments (InitialCwnd). */
#define REACT_DCTCP_G (1.0 / 16)
#define REACT_DCTCP_ALPHA_INIT 1.0
#define REACT_TCP_INIT_CWND_SEGS 10

/* Standing queue, in packets of the run's MTU, that DCTCP keeps at a link
 * saturated by long-lived (external) flows: the marking threshold K.  The
 * max-min model makes pattern flows crossing such a link arrive
 * K * MTU / capacity later. */
#define REACT_FLOW_STANDING_QUEUE_PKTS REACT_RED_MIN_TH_PKTS

#endif
