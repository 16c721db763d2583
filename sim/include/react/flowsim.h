/*
 * react/flowsim.h - the flow-level (fluid) backend, with its counters.
 *
 * react_backend_flow (react/backend.h) runs react_flowsim_run(cfg, cb, NULL, ...).
 * The model is described in docs/flowsim.md.
 */
#ifndef REACT_FLOWSIM_H
#define REACT_FLOWSIM_H

#include <stdint.h>

#include "react/backend.h"
#include "react/dctcp.h" /* REACT_FLOW_STANDING_QUEUE_PKTS, the RED thresholds */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct react_flowsim_stats {
	uint64_t flow_events;  /* flow starts + flow completions (pattern and external) */
	uint64_t rate_solves;  /* max-min recomputations (window model: time steps) */
	uint64_t epochs;       /* epochs reported */
	int32_t max_active;    /* most flows sharing the network at once */
	double end_s;          /* simulated time when the last job ended */
	/* window model only */
	uint64_t window_cuts;  /* DCTCP window reductions (ECN echoes acted on) */
	double ce_bytes;       /* bytes CE-marked at the ports */
	double max_queue_pkts; /* largest data backlog of any port, in packets */
} react_flowsim_stats_t;

/* Same as react_backend_flow.run; stats (out, may be NULL) filled on success. */
react_status_t react_flowsim_run(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                 react_flowsim_stats_t *stats, char *err, size_t errlen);

/* The DCTCP window model: react_backend_dctcp.run, with stats. */
react_status_t react_flowsim_run_dctcp(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
                                       react_flowsim_stats_t *stats, char *err, size_t errlen);

/* The flow-level backend with the DCTCP window model instead of max-min
 * rates ("dctcp"). */
extern const react_backend_ops_t react_backend_dctcp;

#ifdef __cplusplus
}
#endif
#endif
