/* react sweep's parts shared by cmd_sim.c (options, one configuration,
 * progress, the order of the runs) and sweep_mpi.c (the runs spread over
 * MPI ranks). */
#ifndef REACT_CLI_SWEEP_H
#define REACT_CLI_SWEEP_H

#include <stddef.h>

#include "progress.h"
#include "simopts.h"
#include "react/oracle.h"
#include "react/scenario.h"

typedef struct sweep_progress progress_t;

typedef struct sweep_opts {
	const char *out;
	long jobs;
	int trace, plot, quiet;
	int mpi;                    /* --mpi: the runs spread over MPI ranks */
	int oracle;                 /* --oracle */
	const char *oracle_cache;   /* --oracle-cache DIR, or NULL */
	react_oracle_opts_t oopts;  /* --oracle-opt */
	const char *baseline_from;  /* --baseline-from DIR, or NULL */
	/* NULL: the sweep reports its progress itself (unless quiet); else the
	 * line it counts its runs on (react regress: all scenarios' runs),
	 * progress_before of them counted before this sweep */
	cli_progress_t *progress;
	size_t progress_before;
} sweep_opts_t;

/* The progress of one sweep's runs on a progress line (progress.h). */
struct sweep_progress {
	cli_progress_t *line;
	const char *name;       /* the scenario */
	size_t total, done;     /* this sweep's runs to do, and finished */
	size_t before;          /* runs counted on line before this sweep */
	int own;                /* the sweep's own line: ended by the last report */
};

/* Report progress on stderr (a bar on a terminal, a line every 5 s
 * otherwise); final: the last report. */
void sweep_progress_tick(progress_t *p, int final);

/* Run configuration i of s into so->out (with its oracle under --oracle)
 * in this process.  Returns 0, or 2 after printing why it failed. */
int sweep_one(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so,
              size_t i);

/* ---- sweep_mpi.c ---- */

/* Join the MPI job (MPI_Init_thread) and give this process's rank and the
 * number of ranks.  Outside mpirun or srun (no PMI in the environment) it
 * does not initialise MPI: one rank.  Returns 0, or 2 after printing why
 * (this react was built without MPI). */
int sweep_mpi_start(int *rank, int *size);
/* Every rank's ok (1 or 0) and-ed over all ranks (a collective: every rank
 * calls it); on one rank, ok itself. */
int sweep_mpi_all(int ok);
/* Rank 0's ok given to every rank (a collective). */
int sweep_mpi_from_root(int ok);
/* Rank 0: hand pending[0..n-1] out in that order, one at a time, to the
 * ranks that ask and to a thread of its own, until all are done or one
 * failed (then no more is handed out and every rank finishes its run in
 * flight); pg counts the finished runs.  Returns 1 when a run failed. */
int sweep_mpi_dispatch(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so,
                       const size_t *pending, size_t n, progress_t *pg);
/* Ranks other than 0: ask rank 0 for configurations and run them until it
 * says stop.  Returns 0, or 2 when a run of this rank failed. */
int sweep_mpi_work(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so);
/* Leave the MPI job.  working: the ranks were sent to sweep_mpi_work;
 * then rank 0 first tells every one still waiting for work to stop (after
 * a failure before the dispatch). */
void sweep_mpi_finish(int working);

#endif
