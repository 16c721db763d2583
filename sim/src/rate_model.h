/*
 * rate_model.h - the interface between the flow-level engine (flowsim.c:
 * epochs, DAG release, external flows, the event heap) and its rate models
 * (rate_maxmin.c: max-min fair rates; rate_dctcp.c: DCTCP windows).
 * Internal to libreact_sim.
 *
 * The engine owns time.  It hands a model every transfer that starts (a
 * pattern flow with bytes to send across the network, or one copy of an
 * external flow), tells it when an external flow stops, and asks it to
 * advance: the model moves time forward to its next instant of interest,
 * at most to the engine's next event, and reports each transfer whose last
 * byte reached its destination through react_flowsim_arrival().  Flows of
 * one host, zero-byte flows, epochs and the order of events stay in the
 * engine.
 */
#ifndef REACT_RATE_MODEL_H
#define REACT_RATE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "react/flowsim.h"

/* The engine of one run (opaque to the models). */
typedef struct react_flowsim_engine react_flowsim_engine_t;

/* What the engine gives a rate model when a run starts; valid for the run. */
typedef struct react_rate_net {
	int32_t ndl;                 /* directed links: 2 l and 2 l + 1 are the two ways of link l */
	const double *cap;           /* per directed link: bytes/s, degraded rates applied */
	double mtu;                  /* bytes: the run's, 1500 where it sets none */
	react_flowsim_stats_t *st;   /* in-out: the model adds flow_events, rate_solves,
	                              * max_active and its own counters */
	react_flowsim_engine_t *engine; /* for react_flowsim_arrival() */
} react_rate_net_t;

/* One transfer handed to a model. */
typedef struct react_rate_xfer {
	int32_t job, idx;            /* job >= 0: pattern flow idx of that job; -1: external flow idx */
	const int32_t *path;         /* directed links, source first; the engine keeps it until
	                              * the transfer's arrival (pattern) or its ext_off (external) */
	int32_t plen;                /* >= 1 */
	double bytes;                /* > 0; INFINITY for an external flow */
	double delay_s;              /* the path's one-way propagation delay */
	uint64_t ka, kb;             /* its connection: (job + 1) << 32 | port index, and the
	                              * logical flow's key (react_flow_key); 0, 0: a connection
	                              * of its own (external copies) */
	double est_s;                /* when that connection's handshake is done, if it opens now */
} react_rate_xfer_t;

typedef struct react_rate_ops {
	const char *name;            /* the backend's name: "flow", "dctcp" */
	/* A model for one run: *model (out) on success; REACT_ENOMEM. */
	react_status_t (*create)(const react_rate_net_t *net, void **model);
	void (*destroy)(void *model);
	/* Transfer x starts at t. */
	react_status_t (*add)(void *model, const react_rate_xfer_t *x, double t);
	/* Every copy of external flow x stops now; bytes in flight leave with it. */
	react_status_t (*ext_off)(void *model, int32_t x);
	/* From t, with the engine's next event at t_event (INFINITY: none) and
	 * `changed` set when the engine handled events since the last call:
	 * advance to *tn (out) <= t_event, reporting the arrivals due by then.
	 * *tn = INFINITY: nothing can progress (the engine reports the stall). */
	react_status_t (*advance)(void *model, double t, double t_event, int changed, double *tn);
} react_rate_ops_t;

extern const react_rate_ops_t react_rate_maxmin; /* rate_maxmin.c */
extern const react_rate_ops_t react_rate_dctcp;  /* rate_dctcp.c */

/* Transfer (job, idx) arrives at t: the engine releases its successors
 * then.  Arrivals are handled in the order they are reported. */
react_status_t react_flowsim_arrival(react_flowsim_engine_t *e, double t, int32_t job, int32_t idx);

/* Room for `need` elements of `elem` bytes in the array *pp of capacity
 * *cap: the capacity doubles, starting at `first`.  REACT_ENOMEM leaves
 * both unchanged. */
react_status_t react_flowsim_reserve(void *pp, size_t *cap, size_t need, size_t elem, size_t first);

#endif
