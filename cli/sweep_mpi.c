/*
 * react sweep --mpi: the configurations of a sweep spread over MPI ranks
 * (docs/mpi.md).
 *
 * Rank 0 dispatches: every other rank asks it for work (TAG_READY, with the
 * result of its last run) and gets a configuration index or STOP
 * (TAG_WORK).  Rank 0 also runs configurations, in a thread of its own that
 * makes no MPI call (MPI_THREAD_FUNNELED), while its main thread answers the
 * other ranks.  Every run is written by whoever ran it, atomically, into the
 * shared output directory (react_run_dir_make), exactly as `-j` writes it;
 * rank 0 then assembles runs.csv and the plots as a sweep on one machine
 * does.  Work is handed out one configuration at a time, in the order the
 * caller gives (longest first), so the ranks stay busy to the end.
 *
 * A rank that dies takes down the job (mpirun and srun end every rank):
 * the runs in flight, one per rank, are lost; every finished run is in
 * place, and a rerun of the same command does the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

#ifdef REACT_HAVE_MPI

#include <pthread.h>
#include <time.h>

#include <mpi.h>

#include "react/launcher.h"

enum { TAG_READY = 1, TAG_WORK = 2 };
#define STOP (-1LL)

static int g_mpi;      /* MPI_Init was called */
static int g_rank, g_size;
static int g_threads;  /* MPI_THREAD_FUNNELED or better: rank 0 runs work too */
static int g_stopped;  /* rank 0: ranks told to stop */

/* Wait for r without spinning: MPI's blocking calls poll the network at full
 * speed, which on a machine with more ranks than free cores takes the
 * cores of the ranks still running (rank 1 waiting in MPI_Finalize while
 * rank 0 runs the last configuration, say). */
static void wait_idle(MPI_Request *r)
{
	int done = 0;
	for (;;) {
		MPI_Test(r, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		struct timespec ts = {0, 1000000}; /* 1 ms: the runs take far longer */
		nanosleep(&ts, NULL);
	}
}

int sweep_mpi_start(int *rank, int *size)
{
	*rank = 0;
	*size = 1;
	g_rank = 0;
	g_size = 1;
	if (!react_mpi_launched()) {
		fprintf(stderr, "react sweep: --mpi: not started by mpirun or srun, running as one "
		        "rank\n");
		return 0;
	}
	int provided = MPI_THREAD_SINGLE;
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "react sweep: --mpi: MPI_Init_thread failed\n");
		return 2;
	}
	g_mpi = 1;
	g_threads = provided >= MPI_THREAD_FUNNELED;
	MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g_size);
	*rank = g_rank;
	*size = g_size;
	if (!g_threads && g_rank == 0 && g_size > 1)
		fprintf(stderr, "react sweep: --mpi: this MPI gives no MPI_THREAD_FUNNELED; rank 0 "
		        "only dispatches\n");
	return 0;
}

int sweep_mpi_all(int ok)
{
	int all = ok;
	if (g_mpi)
		MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	return all;
}

int sweep_mpi_from_root(int ok)
{
	if (g_mpi)
		MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return ok;
}

/* Rank 0's own runs: one configuration at a time from the main thread. */
typedef struct local {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	long long item;     /* to run, or STOP when none */
	long long done;     /* the finished one, or STOP */
	int rc, quit;
	const react_scenario_t *s;
	const common_opts_t *o;
	const sweep_opts_t *so;
} local_t;

static void *local_main(void *arg)
{
	local_t *l = arg;
	pthread_mutex_lock(&l->mu);
	for (;;) {
		while (!l->quit && l->item == STOP)
			pthread_cond_wait(&l->cv, &l->mu);
		if (l->quit)
			break;
		long long i = l->item;
		pthread_mutex_unlock(&l->mu);
		int rc = sweep_one(l->s, l->o, l->so, (size_t)i);
		pthread_mutex_lock(&l->mu);
		l->item = STOP;
		l->done = i;
		l->rc = rc;
	}
	pthread_mutex_unlock(&l->mu);
	return NULL;
}

static void finished(progress_t *pg, int rc, int *failed)
{
	if (rc != 0) {
		*failed = 1;
		return;
	}
	pg->done++;
	sweep_progress_tick(pg, 0);
}

int sweep_mpi_dispatch(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so,
                       const size_t *pending, size_t n, progress_t *pg)
{
	size_t next = 0;
	int failed = 0;
	if (g_size == 1) {
		for (; next < n && !failed; next++)
			finished(pg, sweep_one(s, o, so, pending[next]), &failed);
		return failed;
	}
	local_t l = {.item = STOP, .done = STOP, .s = s, .o = o, .so = so};
	pthread_t th;
	pthread_attr_t at;
	int have_thread = 0, local_busy = 0;
	pthread_mutex_init(&l.mu, NULL);
	pthread_cond_init(&l.cv, NULL);
	if (g_threads && n > 0 && pthread_attr_init(&at) == 0) {
		/* the simulators recurse little, but a run may be deep: 64 MiB */
		pthread_attr_setstacksize(&at, (size_t)64 << 20);
		have_thread = pthread_create(&th, &at, local_main, &l) == 0;
		pthread_attr_destroy(&at);
		if (!have_thread)
			fprintf(stderr, "react sweep: --mpi: cannot start rank 0's worker thread; rank 0 "
			        "only dispatches\n");
	}
	fflush(stdout);
	fflush(stderr);
	while (g_stopped < g_size - 1 || local_busy) {
		int event = 0;
		if (have_thread) {
			pthread_mutex_lock(&l.mu);
			if (local_busy && l.done != STOP) {
				l.done = STOP;
				local_busy = 0;
				finished(pg, l.rc, &failed);
				event = 1;
			}
			if (!local_busy && !failed && next < n) {
				l.item = (long long)pending[next++];
				local_busy = 1;
				pthread_cond_signal(&l.cv);
			}
			pthread_mutex_unlock(&l.mu);
		}
		int flag = 0;
		MPI_Status st;
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_READY, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			long long msg[2], work = STOP;
			MPI_Recv(msg, 2, MPI_LONG_LONG, st.MPI_SOURCE, TAG_READY, MPI_COMM_WORLD,
			         MPI_STATUS_IGNORE);
			if (msg[0] != STOP)
				finished(pg, (int)msg[1], &failed);
			if (!failed && next < n)
				work = (long long)pending[next++];
			else
				g_stopped++;
			MPI_Send(&work, 1, MPI_LONG_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
			event = 1;
		}
		if (!event) {
			struct timespec ts = {0, 1000000};
			nanosleep(&ts, NULL);
		}
	}
	if (have_thread) {
		pthread_mutex_lock(&l.mu);
		l.quit = 1;
		pthread_cond_signal(&l.cv);
		pthread_mutex_unlock(&l.mu);
		pthread_join(th, NULL);
	}
	pthread_cond_destroy(&l.cv);
	pthread_mutex_destroy(&l.mu);
	return failed;
}

int sweep_mpi_work(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so)
{
	long long msg[2] = {STOP, 0}, work;
	int rc = 0;
	for (;;) {
		MPI_Request r;
		MPI_Send(msg, 2, MPI_LONG_LONG, 0, TAG_READY, MPI_COMM_WORLD);
		MPI_Irecv(&work, 1, MPI_LONG_LONG, 0, TAG_WORK, MPI_COMM_WORLD, &r);
		wait_idle(&r);
		if (work == STOP)
			break;
		msg[0] = work;
		msg[1] = sweep_one(s, o, so, (size_t)work);
		if (msg[1] != 0)
			rc = 2;
		fflush(stderr);
	}
	return rc;
}

void sweep_mpi_finish(int working)
{
	if (!g_mpi)
		return;
	/* rank 0 after a failure before the dispatch: release the waiting ranks */
	for (; working && g_rank == 0 && g_stopped < g_size - 1; g_stopped++) {
		long long msg[2], work = STOP;
		MPI_Status st;
		MPI_Recv(msg, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, TAG_READY, MPI_COMM_WORLD, &st);
		MPI_Send(&work, 1, MPI_LONG_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
	}
	/* the ranks done first wait here for the last run, asleep */
	MPI_Request r;
	MPI_Ibarrier(MPI_COMM_WORLD, &r);
	wait_idle(&r);
	MPI_Finalize();
	g_mpi = 0;
}

#else /* no MPI */

static const char no_mpi[] =
	"react sweep: --mpi: this react was built without MPI (Open MPI's libopenmpi-dev was not "
	"found, or meson was set up with -Dmpi=disabled); rebuild with it, or use -j N on one "
	"machine\n";

int sweep_mpi_start(int *rank, int *size)
{
	*rank = 0;
	*size = 1;
	fputs(no_mpi, stderr);
	return 2;
}

int sweep_mpi_all(int ok) { return ok; }
int sweep_mpi_from_root(int ok) { return ok; }

int sweep_mpi_dispatch(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so,
                       const size_t *pending, size_t n, progress_t *pg)
{
	(void)s, (void)o, (void)so, (void)pending, (void)n, (void)pg;
	fputs(no_mpi, stderr);
	return 1;
}

int sweep_mpi_work(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so)
{
	(void)s, (void)o, (void)so;
	return 2;
}

void sweep_mpi_finish(int working) { (void)working; }

#endif
