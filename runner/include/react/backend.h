/*
 * react/backend.h - one resolved simulation run, and the interface every
 * backend (flow-level, ns-3) implements for the shared epoch driver.
 *
 * A run is fully resolved: hosts are chosen, external flows placed, links
 * degraded, everything drawn from the scenario's seed beforehand, so that
 * the baseline and the REACT run of one configuration see identical
 * congestion.  The backend simulates continuous time: each job starts its
 * next epoch when the previous one ends (plus its compute gap).  At every
 * epoch boundary it calls the driver's callbacks, which feed the controller
 * and return the pattern for the next epoch.
 */
#ifndef REACT_BACKEND_H
#define REACT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "react/pattern.h"
#include "react/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct react_job_cfg {
	char name[64];
	int32_t nranks;
	int32_t *hosts;            /* rank -> host index, nranks entries */
	react_collective_t collective;
	react_algorithm_t algorithm;
	uint64_t message_bytes;
	int64_t epochs;            /* <= 0: until the driver's pattern_for gives NULL */
	double compute_gap_s;      /* idle time between two epochs */
	double start_s;            /* when the first epoch starts */
	/* 1: after its `epochs` epochs the job goes on, unmeasured, while another
	 * job still runs its own (scenario field keep_running).  Backends need
	 * not read it: the epoch driver hands them epochs = 0 for such a job
	 * (run until pattern_for returns NULL) and ends it itself. */
	int keep_running;
} react_job_cfg_t;

/* `count` long-lived flows from host src to host dst over [start_s, end_s)
 * (end_s <= 0: until the end of the run). */
typedef struct react_ext_flow {
	int32_t src_host, dst_host;
	int32_t count;
	double start_s, end_s;
} react_ext_flow_t;

typedef struct react_degraded_link {
	int32_t link;              /* index into topo->links */
	double rate_bps;           /* new rate, both directions */
} react_degraded_link_t;

/* The gpu backend's section (`gpu:` in a scenario, docs/gpu.md): which
 * transport runs the job, and its congestion model.  Rank-pair congestion:
 * from epoch start_epoch on, every path src -> dst of pairs keeps (1 - p) of
 * its rate (host transport: the synthetic link; local and nccl: p x message
 * bytes of background traffic between the two ranks beside every epoch).
 * The simulators model external flows and degraded links instead, and
 * refuse rank-pair congestion (react_config_check_backend). */
typedef struct react_gpu_cfg {
	char transport[8];         /* "host", "local", "nccl" */
	char dtype[12];            /* "float", "half", "bfloat16" */
	int check;                 /* 1: every epoch's output is compared with the expected one */
	double latency_s;          /* host transport: per-flow latency of every link */
	double bandwidth_Bps;      /* host transport: bytes per second of every link */
	int32_t npairs;
	int32_t (*pairs)[2];       /* npairs [src rank, dst rank] pairs */
	double p;                  /* fraction of the rate the pairs lose, [0, 1) */
	int64_t start_epoch;
} react_gpu_cfg_t;

typedef struct react_run_cfg {
	const react_topology_t *topo;
	int32_t njobs;
	react_job_cfg_t *jobs;
	size_t next;
	react_ext_flow_t *ext;
	size_t ndegraded;
	react_degraded_link_t *degraded;
	int32_t ecmp_ports;        /* connections (source ports) per logical flow, 4 */
	uint32_t mtu;              /* bytes, ns-3 only (1500 or 9000) */
	uint64_t seed;             /* ECMP port choice and hashing */
	const react_gpu_cfg_t *gpu;/* the gpu backend's section (NULL: its defaults) */
} react_run_cfg_t;

/* What a backend reports at the end of one epoch of one job. */
typedef struct react_epoch_report {
	int32_t job;
	int64_t epoch;
	double start_s, end_s;     /* simulated time of the epoch */
	const react_pattern_t *pattern; /* the pattern that ran */
	const double *flow_start_s;/* per flow: when it started (its inputs had arrived) */
	const double *fct_s;       /* per flow: completion time = last byte in - start */
} react_epoch_report_t;

/* Callbacks the driver gives a backend. */
typedef struct react_driver_cb {
	void *ctx;
	/* Pattern job `job` runs at `epoch`; NULL ends the job. */
	const react_pattern_t *(*pattern_for)(void *ctx, int32_t job, int64_t epoch);
	/* Called once per finished epoch; non-OK aborts the run with that status. */
	react_status_t (*epoch_done)(void *ctx, const react_epoch_report_t *rep);
} react_driver_cb_t;

typedef struct react_backend_ops {
	const char *name; /* "flow", "dctcp", "ns3", "gpu" */
	/* Run the whole scenario, calling cb at each epoch boundary.  err gets a
	 * readable reason on failure. */
	react_status_t (*run)(const react_run_cfg_t *cfg, const react_driver_cb_t *cb,
	                      char *err, size_t errlen);
	/* Optional (NULL when a backend has none): state that depends on the
	 * topology only (the flow-level backends: routing tables), made once for
	 * many runs on one topology, as the oracle's search does.
	 * run_prepared(state, cfg, ...) gives exactly what run(cfg, ...) gives
	 * when cfg->topo is the topology prepared (REACT_EINVAL for another). */
	react_status_t (*prepare)(const react_topology_t *t, void **state, char *err,
	                          size_t errlen);
	react_status_t (*run_prepared)(void *state, const react_run_cfg_t *cfg,
	                               const react_driver_cb_t *cb, char *err, size_t errlen);
	void (*release)(void *state);
} react_backend_ops_t;

/* The embedded default (flow-level fluid model); always present. */
extern const react_backend_ops_t react_backend_flow;

#ifdef __cplusplus
}
#endif
#endif
