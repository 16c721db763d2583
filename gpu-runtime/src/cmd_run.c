/*
 * cmd_run.c - react-gpu run SCENARIO: one job on real transports.
 *
 * The scenario is read by the runner's reader (react/scenario.h), as react
 * run --backend gpu reads it: configuration 0, checked against what the
 * gpu backend models (one job, rank-pair congestion).  The job's fields
 * (name, ranks, collective, algorithm, message, epochs, warmup, react),
 * the top-level seed and params, plus a `gpu` section:
 *
 *   gpu:
 *     transport: local          # host | local | nccl
 *     dtype: float
 *     check: true               # compare every epoch's output
 *     congestion:               # background traffic between rank pairs
 *       pairs: [[3, 4]]
 *       p: 0.5                  # host: the link keeps (1 - p) of its rate;
 *                               # local: a copy of p x message bytes per
 *                               # epoch beside the collective; nccl: the
 *                               # pair streams p x message bytes over
 *                               # its own communicator
 *       start_epoch: 10
 *
 * Runs the baseline (REACT off), then REACT (if the job's `react` is
 * true), on the same congestion, and writes OUT/epochs.csv (the
 * simulators' columns: mode,job,epoch,start_s,time_s,algbw_gbps,
 * pattern_hash,changed) and OUT/decisions.jsonl (the controller's log).
 * Both are written to temporary files beside them and renamed into place
 * when the run is over and every write succeeded, so a failed run or a
 * full disk leaves no half-written file under the final names.
 *
 * Exit status: 0 done, 1 the run failed (a transport or tuner error),
 * 2 bad input or an output that could not be written, 3 wrong elements.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progress.h" /* cli/progress.h, shared with build/react */

#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif

#include "bg.h"
#include "gpu_cmds.h"
#include "react/controller.h"
#include "react/generators.h"
#include "react/rt.h"
#include "react/rt_tuner.h"
#include "react/scenario.h"
#include "react/units.h"
/* the runner's YAML tree: the line of a field the runtime limits */
#include "../../runner/src/scenario_internal.h"

#define MAX_PAIRS 64
/* Documented maxima (docs/gpu.md): the runtime's rank limit, and epochs
 * whose per-epoch times (8 bytes per epoch and mode) stay in memory. */
#define MAX_RANKS 1024
#define MAX_EPOCHS 10000000

typedef struct scen {
	char name[64], job[64];
	react_transport_t transport;
	react_dtype_t dtype;
	int32_t ranks;
	react_collective_t coll;
	react_algorithm_t algo;
	uint64_t message;
	int64_t epochs, warmup;
	int react, check;
	uint64_t seed;
	react_params_t params;
	int npairs;
	int32_t pairs[MAX_PAIRS][2];
	double p;
	int64_t cong_start;
	double latency_s, bw_Bps; /* host transport links; 0: the runtime's defaults */
} scen_t;

/* The line of field `key` of the first job in the scenario file (the
 * runner's tree, as react_scenario_load read it), for the runtime's own
 * limits; 0 if it cannot be found. */
static int job_field_line(const char *path, const char *key)
{
	char *text = NULL, e[256];
	size_t len = 0;
	ynode_t *root = NULL;
	int line = 0;
	if (react_read_file(path, &text, &len, e, sizeof e) == REACT_OK &&
	    ynode_parse(text, len, path, &root, e, sizeof e) == REACT_OK) {
		const ynode_t *jobs = ynode_get(root, "jobs");
		if (jobs && jobs->kind == YN_SEQ && jobs->n) {
			const ynode_t *j = jobs->items[0];
			const ynode_t *v = j->kind == YN_MAP ? ynode_get(j, key) : NULL;
			line = v ? v->line : j->line;
		}
	}
	ynode_free(root);
	free(text);
	return line;
}

/* The scenario through the runner's reader (react/scenario.h), as react
 * run --backend gpu reads it: configuration `index` resolved, checked
 * against what the gpu backend models (one job, rank-pair congestion), and
 * copied into s.  Errors name the file, line and field (the runner's
 * messages, and the runtime's own limits in the same form). */
static int load_scenario(const char *path, size_t index, scen_t *s, char *err, size_t errlen)
{
	react_scenario_t *scn = NULL;
	react_config_t *c = NULL;
	int rc = -1;
	if (react_scenario_load(path, &scn, err, errlen) != REACT_OK)
		return -1;
	if (react_scenario_config(scn, index, &c, err, errlen) != REACT_OK ||
	    react_config_check_backend(scn, c, "gpu", err, errlen) != REACT_OK)
		goto out;
	const react_job_cfg_t *j = &c->run.jobs[0];
	const react_gpu_cfg_t *g = &c->gpu;
	if (j->nranks > MAX_RANKS) {
		snprintf(err, errlen, "%s:%d: field 'jobs.%s.ranks': expected an integer in [2, %d], got "
		         "'%d'", path, job_field_line(path, "ranks"), j->name, MAX_RANKS, (int)j->nranks);
		goto out;
	}
	if (j->epochs > MAX_EPOCHS) {
		snprintf(err, errlen, "%s:%d: field 'jobs.%s.epochs': expected an integer in [1, %d], got "
		         "'%lld'", path, job_field_line(path, "epochs"), j->name, MAX_EPOCHS,
		         (long long)j->epochs);
		goto out;
	}
	if (g->npairs > MAX_PAIRS) {
		snprintf(err, errlen, "%s: field 'gpu.congestion.pairs': expected at most %d pairs, got %d",
		         path, MAX_PAIRS, (int)g->npairs);
		goto out;
	}
	if (react_transport_parse(g->transport, &s->transport) != REACT_OK ||
	    react_dtype_parse(g->dtype, &s->dtype) != REACT_OK) {
		snprintf(err, errlen, "%s: field 'gpu': unknown transport '%s' or dtype '%s'", path,
		         g->transport, g->dtype);
		goto out;
	}
	snprintf(s->name, sizeof s->name, "%s", react_scenario_name(scn));
	snprintf(s->job, sizeof s->job, "%s", j->name);
	s->ranks = j->nranks;
	s->coll = j->collective;
	s->algo = j->algorithm;
	s->message = j->message_bytes;
	s->epochs = j->epochs;
	s->warmup = c->warmup[0];
	s->react = c->react_on[0];
	s->seed = c->seed;
	s->params = c->params[0];
	/* D is the runtime's consensus latency (paper 6.3): the job keeps
	 * running the old pattern while the tuner decides, 5 epochs unless the
	 * scenario gives another (the controller's own default, 0, is for
	 * simulations, whose decisions take no simulated time) */
	react_params_t def;
	react_params_default(&def);
	if (s->params.apply_delay == def.apply_delay)
		s->params.apply_delay = REACT_RT_APPLY_DELAY;
	/* the search's time is the job's wait once it passes D epochs: half
	 * the machine's cores (at most 8) unless the scenario gives a number
	 * (the decisions do not depend on it) */
	if (s->params.search_threads == 0) {
		long nc = sysconf(_SC_NPROCESSORS_ONLN);
		s->params.search_threads = nc >= 4 ? (int)(nc / 2 < 8 ? nc / 2 : 8) : 1;
	}
	s->check = g->check;
	s->latency_s = g->latency_s;
	s->bw_Bps = g->bandwidth_Bps;
	s->npairs = g->npairs;
	for (int32_t i = 0; i < g->npairs; i++) {
		s->pairs[i][0] = g->pairs[i][0];
		s->pairs[i][1] = g->pairs[i][1];
	}
	s->p = g->p;
	s->cong_start = g->start_epoch;
	rc = 0;
out:
	react_config_destroy(c);
	react_scenario_destroy(scn);
	return rc;
}

/* What one run (REACT off or on) leaves: every epoch's time (for the
 * summary), its pattern changes, and its rows of epochs.csv written as
 * the epochs finish (csv: NULL on ranks other than the leader). */
typedef struct run_out {
	const char *mode;          /* "baseline" or "react" */
	FILE *csv;
	const char *csv_name;      /* for messages */
	int write_failed;
	double *time_s;            /* epochs entries */
	double *wait_s;            /* epochs entries: the job's wait for the tuner before each */
	int64_t changes;
	uint64_t wrong;
} run_out_t;


static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run: REACT on or off.  1 when the run failed, 2 when a row of
 * epochs.csv could not be written (the message is printed). */
static int run_job(const scen_t *sc, int react_on, FILE *log, run_out_t *ro,
                   react_rt_tuner_stats_t *ts, cli_progress_t *pg, int64_t done_before)
{
	int rc = 1;
	char err[320];
	react_rt_cfg_t cfg;
	react_rt_cfg_default(&cfg);
	cfg.transport = sc->transport;
	cfg.nranks = sc->ranks;
	cfg.dtype = sc->dtype;
	cfg.max_bytes = sc->message;
	if (sc->latency_s > 0)
		cfg.host_latency_s = sc->latency_s;
	if (sc->bw_Bps > 0)
		cfg.host_bw_Bps = sc->bw_Bps;
	react_rt_t *rt = NULL;
	react_pattern_t *p0 = NULL;
	react_rt_tuner_t *tu = NULL;
	react_status_t st0;
	react_bg_t *bg = NULL;
	if ((st0 = react_rt_create(&cfg, &rt, err, sizeof err)) != REACT_OK) {
		if (st0 == REACT_ENOMEM)
			fprintf(stderr, "react-gpu run: jobs.ranks x jobs.message (%d x %llu bytes) do not fit: "
			        "%s\n", sc->ranks, (unsigned long long)sc->message, err);
		else
			fprintf(stderr, "react-gpu run: %s\n", err);
		return 1;
	}
	int32_t n = react_rt_nranks(rt);
	react_status_t st = react_pattern_generate(sc->coll, sc->algo, n, sc->message, &p0);
	if (st != REACT_OK) {
		fprintf(stderr, "react-gpu run: no %s %s pattern for %d ranks and %llu bytes: %s\n",
		        react_algorithm_name(sc->algo), react_collective_name(sc->coll), n,
		        (unsigned long long)sc->message, react_status_str(st));
		goto out;
	}
	for (int i = 0; i < sc->npairs; i++)
		if (sc->pairs[i][0] >= n || sc->pairs[i][1] >= n || sc->pairs[i][0] == sc->pairs[i][1]) {
			fprintf(stderr, "react-gpu run: gpu.congestion.pairs: [%d, %d] is not a pair of distinct "
			                "ranks below %d\n", sc->pairs[i][0], sc->pairs[i][1], n);
			goto out;
		}
	if (sc->npairs && sc->p > 0 &&
	    react_bg_create(rt, sc->transport, (const int32_t(*)[2])sc->pairs, sc->npairs,
	                    (size_t)(sc->p * (double)sc->message), &bg, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react-gpu run: %s\n", err);
		goto out;
	}
	if (react_on) {
		react_params_t prm = sc->params;
		if (react_rt_tuner_create(p0, &prm, sc->transport == REACT_TRANSPORT_NCCL, log, &tu, err,
		                          sizeof err) != REACT_OK) {
			fprintf(stderr, "react-gpu run: %s\n", err);
			goto out;
		}
		react_rt_tuner_set_timeout(tu, cfg.timeout_s);
	}
	double clock = 0;
	uint64_t prev = 0;
	for (int64_t e = 0; e < sc->epochs; e++) {
		if (e == sc->cong_start && sc->transport == REACT_TRANSPORT_HOST)
			for (int i = 0; i < sc->npairs; i++)
				if (react_rt_set_link(rt, sc->pairs[i][0], sc->pairs[i][1], cfg.host_latency_s,
				                      cfg.host_bw_Bps * (1 - sc->p)) != REACT_OK) {
					fprintf(stderr, "react-gpu run: %s\n", react_rt_error(rt));
					goto out;
				}
		double w0 = tu ? wall_s() : 0;
		const react_pattern_t *p = tu ? react_rt_tuner_pattern_for(tu, e) : p0;
		ro->wait_s[e] = tu ? wall_s() - w0 : 0;
		if (!p) {
			fprintf(stderr, "react-gpu run: %s\n", react_rt_tuner_error(tu));
			goto out;
		}
		if (sc->check && react_rt_fill(rt, p) != REACT_OK) {
			fprintf(stderr, "react-gpu run: %s\n", react_rt_error(rt));
			goto out;
		}
		if (e >= sc->cong_start)
			react_bg_launch(bg);
		const react_rt_times_t *t = NULL;
		if (react_rt_run(rt, p, &t) != REACT_OK) {
			fprintf(stderr, "react-gpu run: epoch %lld: %s\n", (long long)e, react_rt_error(rt));
			goto out;
		}
		react_bg_sync(bg);
		if (sc->check) {
			uint64_t w = 0;
			if (react_rt_check(rt, p, &w) != REACT_OK) {
				fprintf(stderr, "react-gpu run: %s\n", react_rt_error(rt));
				goto out;
			}
			ro->wrong += w;
		}
		double es = t->epoch_s;
#ifdef REACT_HAVE_MPI
		if (sc->transport == REACT_TRANSPORT_NCCL && !tu) {
			double mx = es;
			MPI_Allreduce(&es, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
			es = mx;
		}
#endif
		uint64_t h = react_pattern_hash(p);
		int changed = e > 0 && h != prev;
		ro->time_s[e] = es;
		ro->changes += changed;
		if (ro->csv &&
		    fprintf(ro->csv, "%s,%s,%" PRId64 ",%.17g,%.17g,%.6f,%016" PRIx64 ",%d\n", ro->mode,
		            sc->job, e, clock, es, (double)sc->message / es / 1e9, h, changed) < 0) {
			fprintf(stderr, "react-gpu run: %s: cannot write: %s\n", ro->csv_name, strerror(errno));
			ro->write_failed = 1;
			rc = 2;
			goto out;
		}
		prev = h;
		clock += es;
		if (tu && react_rt_tuner_report(tu, e, t->send_span_s, t->recv_span_s, t->nflows, t->epoch_s) !=
		              REACT_OK) {
			fprintf(stderr, "react-gpu run: %s\n", react_rt_tuner_error(tu));
			goto out;
		}
		cli_progress_report(pg, done_before + e + 1, "%s epoch %lld of %lld (%.1f%% of the run)",
		                    ro->mode, (long long)e + 1, (long long)sc->epochs,
		                    100.0 * (double)(done_before + e + 1) / (double)pg->total);
	}
	if (tu)
		react_rt_tuner_stats(tu, ts);
	rc = 0;
out:
	react_rt_tuner_destroy(tu);
	react_bg_destroy(bg);
	react_pattern_destroy(p0);
	react_rt_destroy(rt);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Mean algorithm bandwidth and message / p95 time after warm-up (the
 * simulators' metrics).  Sorts time_s[warm..n) in place. */
static void summary(double *time_s, int64_t n, int64_t warm, uint64_t bytes, double *mean,
                    double *p95)
{
	int64_t m = n - warm;
	double *v = time_s + warm;
	*mean = *p95 = 0;
	if (m <= 0)
		return;
	double s = 0;
	for (int64_t i = 0; i < m; i++)
		s += (double)bytes / v[i] / 1e9;
	*mean = s / (double)m;
	qsort(v, (size_t)m, sizeof *v, cmp_double);
	double pos = 0.95 * (double)(m - 1);
	int64_t lo = (int64_t)pos;
	double q = lo + 1 < m ? v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]) : v[lo];
	*p95 = (double)bytes / q / 1e9;
}

/* An output file written under a temporary name beside its final one and
 * renamed into place by out_commit() (no fsync: a crash may lose the
 * file, never leave half of it under the final name). */
typedef struct outfile {
	char final[4096], tmp[4120];
	FILE *f;
} outfile_t;

static int out_open(outfile_t *o, const char *dir, const char *name)
{
	o->f = NULL;
	o->tmp[0] = 0;
	if (snprintf(o->final, sizeof o->final, "%s/%s", dir, name) >= (int)sizeof o->final) {
		fprintf(stderr, "react-gpu run: --out %s: path too long\n", dir);
		return -1;
	}
	snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", o->final);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		fprintf(stderr, "react-gpu run: %s: cannot create a temporary file beside it: %s\n",
		        o->final, strerror(errno));
		o->tmp[0] = 0;
		return -1;
	}
	(void)fchmod(fd, 0644); /* an ordinary output, not mkstemp's 0600 */
	if (!(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "react-gpu run: %s: %s\n", o->tmp, strerror(errno));
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = 0;
		return -1;
	}
	return 0;
}

static void out_discard(outfile_t *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = 0;
}

static int out_commit(outfile_t *o)
{
	int bad = fflush(o->f) != 0 || ferror(o->f);
	int e = errno;
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	if (!bad && rename(o->tmp, o->final) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		fprintf(stderr, "react-gpu run: %s: cannot write: %s\n", o->final,
		        e ? strerror(e) : "write error");
		unlink(o->tmp);
		o->tmp[0] = 0;
		return -1;
	}
	o->tmp[0] = 0;
	return 0;
}

static int make_out_dir(const char *dir)
{
	struct stat st;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "react-gpu run: --out %s: cannot create the directory: %s\n", dir,
		        strerror(errno));
		return -1;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "react-gpu run: --out %s: not a directory\n", dir);
		return -1;
	}
	return 0;
}

/* An integer option in [lo, hi]; -1 (the message printed) otherwise */
static int int_opt(const char *opt, const char *what, const char *v, long long lo, long long hi,
                   long long *out)
{
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (*end || end == v || errno || x < lo || x > hi) {
		fprintf(stderr, "react-gpu run: %s: expected %s%lld..%lld, got '%s'\n", opt, what, lo, hi, v);
		return -1;
	}
	*out = x;
	return 0;
}

int react_gpu_cmd_run(int argc, char **argv)
{
	const char *path = NULL, *out = NULL;
	double every = 5;
	int quiet = 0;
	long long delay = -1, threads = -1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "--transport") && i + 1 < argc)
			i++; /* read by main for MPI; the scenario's gpu.transport must agree */
		else if (!strcmp(argv[i], "--progress") && i + 1 < argc) {
			char *end;
			every = strtod(argv[++i], &end);
			if (*end || end == argv[i] || !(every >= 0) || every > 1e6) {
				fprintf(stderr, "react-gpu run: --progress: expected seconds >= 0, got '%s'\n",
				        argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--apply-delay") && i + 1 < argc) {
			if (int_opt("--apply-delay", "epochs ", argv[++i], 0, 1000000, &delay))
				return 2;
		} else if (!strcmp(argv[i], "--search-threads") && i + 1 < argc) {
			if (int_opt("--search-threads", "", argv[++i], 1, 64, &threads))
				return 2;
		} else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else {
			fprintf(stderr, "react-gpu run: unexpected argument '%s' (react-gpu run SCENARIO.yaml "
			                "[--out DIR] [--apply-delay EPOCHS] [--search-threads N] [--progress SECONDS] [--quiet])\n", argv[i]);
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "react-gpu run: missing SCENARIO.yaml\n");
		return 2;
	}
	scen_t sc;
	memset(&sc, 0, sizeof sc);
	char err[1024];
	if (load_scenario(path, 0, &sc, err, sizeof err)) {
		fprintf(stderr, "react-gpu run: %s\n", err);
		return 2;
	}
	sc.params.seed = sc.seed;
	if (delay >= 0)
		sc.params.apply_delay = (int)delay;
	if (threads >= 1)
		sc.params.search_threads = (int)threads;
	char why[256];
	if (react_params_validate(&sc.params, why, sizeof why) != REACT_OK) {
		fprintf(stderr, "react-gpu run: %s: react: %s\n", path, why);
		return 2;
	}
	if (sc.warmup >= sc.epochs) {
		fprintf(stderr, "react-gpu run: %s: jobs.warmup (%lld) must be below jobs.epochs (%lld)\n", path,
		        (long long)sc.warmup, (long long)sc.epochs);
		return 2;
	}
	int lead = react_gpu_mpi_rank() == 0;
	int modes = sc.react ? 2 : 1;
	run_out_t ro[2] = {{.mode = "baseline"}, {.mode = "react"}};
	outfile_t logf = {.f = NULL}, csvf = {.f = NULL};
	int rc = 0;
	for (int m = 0; m < modes; m++)
		if (!(ro[m].time_s = malloc((size_t)sc.epochs * sizeof *ro[m].time_s)) ||
		    !(ro[m].wait_s = calloc((size_t)sc.epochs, sizeof *ro[m].wait_s))) {
			fprintf(stderr, "react-gpu run: %s: jobs.epochs: no memory for the times of %lld epochs "
			        "(%.0f MB)\n", path, (long long)sc.epochs,
			        (double)sc.epochs * sizeof(double) * modes / 1e6);
			rc = 2;
			goto done;
		}
	if (out && lead) {
		if (make_out_dir(out) || out_open(&logf, out, "decisions.jsonl") ||
		    out_open(&csvf, out, "epochs.csv")) {
			rc = 2;
			goto done;
		}
		if (fprintf(csvf.f, "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed\n") < 0) {
			fprintf(stderr, "react-gpu run: %s: cannot write: %s\n", csvf.final, strerror(errno));
			rc = 2;
			goto done;
		}
		for (int m = 0; m < modes; m++) {
			ro[m].csv = csvf.f;
			ro[m].csv_name = csvf.final;
		}
	}
	react_rt_tuner_stats_t ts = {0};
	cli_progress_t pg;
	cli_progress_start(&pg, "react-gpu run", sc.epochs * modes, every, quiet || !lead);
	for (int m = 0; m < modes && !rc; m++) {
		rc = run_job(&sc, m, m ? logf.f : NULL, &ro[m], &ts, &pg, m * sc.epochs);
#ifdef REACT_HAVE_MPI
		/* every rank checked its own output; the tuner thread is gone */
		if (!rc && sc.transport == REACT_TRANSPORT_NCCL) {
			unsigned long long w = ro[m].wrong, sum = 0;
			MPI_Allreduce(&w, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
			ro[m].wrong = sum;
		}
#endif
	}
	cli_progress_end(&pg, NULL);
	if (rc)
		goto done;
	if (logf.f && out_commit(&logf)) {
		rc = 2;
		goto done;
	}
	if (csvf.f && out_commit(&csvf)) {
		rc = 2;
		goto done;
	}
	if (lead) {
		printf("# react-gpu run %s: %s %s, %d ranks, %llu bytes, %lld epochs (warm-up %lld), "
		       "transport %s\n", sc.name[0] ? sc.name : path, react_algorithm_name(sc.algo),
		       react_collective_name(sc.coll), sc.ranks, (unsigned long long)sc.message,
		       (long long)sc.epochs, (long long)sc.warmup, react_transport_name(sc.transport));
		printf("# %-9s %14s %14s %8s %8s\n", "mode", "mean(GB/s)", "p95(GB/s)", "changes", "wrong");
		/* the react row's times are the collective's; the job also waited
		 * for the tuner before some epochs: the third row counts each wait
		 * in the epoch after it (not on the host transport, whose clock
		 * is virtual) */
		double waited = 0;
		for (int64_t e = sc.warmup; modes == 2 && e < sc.epochs; e++)
			waited += ro[1].wait_s[e];
		for (int64_t e = 0; modes == 2 && e < sc.epochs; e++)
			ro[1].wait_s[e] += ro[1].time_s[e];
		for (int m = 0; m < modes; m++) {
			double mean, p95;
			summary(ro[m].time_s, sc.epochs, sc.warmup, sc.message, &mean, &p95);
			printf("  %-9s %14.3f %14.3f %8lld %8llu\n", ro[m].mode, mean, p95,
			       (long long)ro[m].changes, (unsigned long long)ro[m].wrong);
		}
		if (modes == 2 && sc.transport != REACT_TRANSPORT_HOST) {
			double mean, p95;
			summary(ro[1].wait_s, sc.epochs, sc.warmup, sc.message, &mean, &p95);
			printf("  %-9s %14.3f %14.3f %8s %8s   (react with the job's %.3f ms of waits for the "
			       "tuner after warm-up)\n", "react+wait", mean, p95, "-", "-", waited * 1e3);
		}
		if (modes == 2) {
			printf("# tuner: %lld decisions (%lld reverts), job waited %.3f ms for it, controller "
			       "time %.3f ms\n", (long long)ts.decisions, (long long)ts.reverts, ts.waited_s * 1e3,
			       ts.observe_s * 1e3);
			printf("# tuner: apply delay D = %d epochs, search threads %d; consensus lag (an epoch "
			       "handed over to its decision known) mean %.3f ms, max %.3f ms, epochs %.3f ms "
			       "apart; at most %lld epochs handed over before a decision was known\n",
			       sc.params.apply_delay, sc.params.search_threads,
			       ts.observed ? ts.lag_sum_s / (double)ts.observed * 1e3 : 0, ts.lag_max_s * 1e3,
			       ts.epoch_wall_s * 1e3, (long long)ts.lag_epochs_max);
		}
	}
	if (ro[0].wrong || ro[1].wrong)
		rc = 3;
done:
	/* a failed run leaves no file under the final names */
	out_discard(&logf);
	out_discard(&csvf);
	free(ro[0].time_s);
	free(ro[1].time_s);
	free(ro[0].wait_s);
	free(ro[1].wait_s);
	return rc;
}
