/*
 * react/rt_tuner.h - RTuner: REACT's controller beside a running job.
 *
 * The tuner runs the controller (react_ctl_*) on its own thread.  After
 * every epoch the job hands it the flow spans it measured (non-blocking);
 * the tuner combines them into FCTs (min of send and receive span, see
 * react/rt.h), observes the epoch and, at batch ends, schedules the
 * controller's decision at its apply epoch (apply_delay epochs later).
 * With MPI (the nccl transport) every rank's tuner thread gathers the spans
 * at the leader (rank 0), only the leader runs the controller, and it
 * broadcasts each decision (the new pattern's flows and its apply epoch),
 * so every rank switches at the same epoch.
 *
 * The job asks react_rt_tuner_pattern_for(epoch) before each epoch.  It
 * waits only when the tuner is more than apply_delay epochs behind (the
 * time it waited is counted); normally the answer is ready.  The wait is
 * bounded (react_rt_tuner_set_timeout, default 60 s): a peer that stops
 * reporting (a hung MPI rank) or a controller that hangs ends the job
 * with an error instead of a hang.  Deterministic
 * wherever the spans are (host transport): the same spans give the same
 * decisions at the same epochs.
 */
#ifndef REACT_RT_TUNER_H
#define REACT_RT_TUNER_H

#include <stdint.h>
#include <stdio.h>

#include "react/controller.h"
#include "react/pattern.h"

/* Default apply delay D of the GPU runtime, in epochs: the consensus
 * latency the paper's prototype allowed (section 6.3). */
#define REACT_RT_APPLY_DELAY 5

#ifdef __cplusplus
extern "C" {
#endif

typedef struct react_rt_tuner react_rt_tuner_t;

/* Default longest wait of react_rt_tuner_pattern_for(), in seconds (the
 * runtime's transport timeout, react_rt_cfg_t.timeout_s, has the same). */
#define REACT_RT_TUNER_TIMEOUT_S 60.0

/* initial (copied): the pattern of epoch 0; params (copied); use_mpi: 1 to
 * gather over MPI_COMM_WORLD (MPI must be initialised with
 * MPI_THREAD_MULTIPLE, or SERIALIZED with no MPI calls from the job thread
 * while the tuner lives); log: the controller's decision log (leader only;
 * may be NULL).  err: why it failed. */
react_status_t react_rt_tuner_create(const react_pattern_t *initial, const react_params_t *params,
                                     int use_mpi, FILE *log, react_rt_tuner_t **out, char *err,
                                     size_t errlen);
/* Stops the thread (after the queued epochs) and frees everything.  After
 * a timeout in pattern_for, a thread that does not stop within 2 s (blocked
 * in MPI on a hung peer) is detached and its memory left to the end of the
 * process, so destroy never hangs. */
void react_rt_tuner_destroy(react_rt_tuner_t *t);

/* The pattern to run at `epoch` (epochs in order from 0).  Owned by the
 * tuner, valid until destroy.  NULL on failure (see react_rt_tuner_error),
 * including when the tuner has not observed the epochs the answer depends
 * on within the timeout; the tuner is then failed for good. */
const react_pattern_t *react_rt_tuner_pattern_for(react_rt_tuner_t *t, int64_t epoch);

/* Longest wait of react_rt_tuner_pattern_for() (input, seconds > 0;
 * anything else restores the default). */
void react_rt_tuner_set_timeout(react_rt_tuner_t *t, double seconds);

/* Hand over epoch `epoch` (ran with the pattern pattern_for returned):
 * per-flow spans in seconds (NaN where not measured here) and this
 * process's epoch time.  Copied; never waits. */
react_status_t react_rt_tuner_report(react_rt_tuner_t *t, int64_t epoch, const double *send_span_s,
                                     const double *recv_span_s, size_t nflows, double epoch_s);

typedef struct react_rt_tuner_stats {
	int64_t decisions;      /* patterns scheduled (reverts included) */
	int64_t reverts;
	double waited_s;        /* time pattern_for() waited for the tuner, total */
	double observe_s;       /* controller time, total (leader) */
	/* The consensus lag of each observed epoch: from the job's
	 * react_rt_tuner_report() to its decision known on this rank (spans
	 * gathered, observed, decision broadcast). */
	int64_t observed;       /* epochs observed */
	double lag_sum_s, lag_max_s;
	int64_t lag_epochs_max; /* most epochs the job handed over after an epoch before that
	                         * epoch's decision was known: the smallest apply_delay at
	                         * which it would not have waited (when apply_delay was larger) */
	double epoch_wall_s;    /* mean wall time between two hand-overs */
} react_rt_tuner_stats_t;
void react_rt_tuner_stats(react_rt_tuner_t *t, react_rt_tuner_stats_t *out);
const char *react_rt_tuner_error(const react_rt_tuner_t *t);

#ifdef __cplusplus
}
#endif
#endif
