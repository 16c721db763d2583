/*
 * cmd_run.c - react-gpu run SCENARIO: one job on real transports.
 *
 * The scenario uses the simulators' job fields (first entry of `jobs`:
 * name, ranks, collective, algorithm, message, epochs, warmup, react) and
 * the top-level seed and react parameters, plus a `gpu` section:
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
#include <unistd.h>
#include <yaml.h>

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
#include "react/units.h"

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

typedef struct yctx {
	const char *path;
	yaml_document_t doc;
	char *err;
	size_t errlen;
} yctx_t;

static int yerr(yctx_t *y, const yaml_node_t *n, const char *field, const char *expected)
{
	snprintf(y->err, y->errlen, "%s:%zu: field '%s': expected %s", y->path,
	         n ? n->start_mark.line + 1 : 0, field, expected);
	return -1;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int get_int(yctx_t *y, const yaml_node_t *n, const char *f, int64_t lo, int64_t hi,
                   int64_t *out)
{
	const char *s = scalar(n);
	char *end;
	char w[96];
	if (hi == INT64_MAX)
		snprintf(w, sizeof w, "an integer >= %lld", (long long)lo);
	else
		snprintf(w, sizeof w, "an integer in [%lld, %lld]", (long long)lo, (long long)hi);
	if (!s)
		return yerr(y, n, f, w);
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (*end || end == s || errno || v < lo || v > hi) {
		size_t l = strlen(w);
		snprintf(w + l, sizeof w - l, ", got '%.40s'", s);
		return yerr(y, n, f, w);
	}
	*out = v;
	return 0;
}

static int get_double(yctx_t *y, const yaml_node_t *n, const char *f, double *out)
{
	const char *s = scalar(n);
	char *end;
	if (!s)
		return yerr(y, n, f, "a number");
	*out = strtod(s, &end);
	if (*end || end == s) {
		char w[80];
		snprintf(w, sizeof w, "a number, got '%s'", s);
		return yerr(y, n, f, w);
	}
	return 0;
}

static int get_bool(yctx_t *y, const yaml_node_t *n, const char *f, int *out)
{
	const char *s = scalar(n);
	if (s && (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")))
		*out = 1;
	else if (s && (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off")))
		*out = 0;
	else
		return yerr(y, n, f, "true or false");
	return 0;
}

/* Sizes as in the simulators' scenarios (react/units.h): bytes with a
 * unit, 256KiB = 262144, 256KB = 256000; bits and bare numbers refused. */
static int get_size(yctx_t *y, const yaml_node_t *n, const char *f, uint64_t *out)
{
	const char *s = scalar(n);
	char why[160], w[300];
	if (s && react_parse_bytes(s, out) == REACT_OK && *out)
		return 0;
	if (s && react_parse_bytes(s, out) == REACT_OK)
		snprintf(why, sizeof why, "0 bytes");
	else
		react_units_why(REACT_UNIT_BYTES, s ? s : "", why, sizeof why);
	snprintf(w, sizeof w, "a size in bytes with a unit, such as 64MiB or 4MB, got '%.40s' (%s)",
	         s ? s : "a collection", why);
	return yerr(y, n, f, w);
}

#define FOR_PAIRS(map, k, v)                                                              \
	for (yaml_node_pair_t *pr_ = (map)->data.mapping.pairs.start;                       \
	     pr_ < (map)->data.mapping.pairs.top; pr_++)                                    \
		for (yaml_node_t *k = yaml_document_get_node(&y->doc, pr_->key),            \
		                 *v = yaml_document_get_node(&y->doc, pr_->value), *once_ = k; \
		     once_; once_ = NULL)

static int parse_job(yctx_t *y, yaml_node_t *m, scen_t *s)
{
	if (m->type != YAML_MAPPING_NODE)
		return yerr(y, m, "jobs", "a list of mappings");
	FOR_PAIRS(m, k, v) {
		const char *key = scalar(k);
		int64_t iv;
		if (!key)
			return yerr(y, k, "jobs", "scalar keys");
		if (!strcmp(key, "name")) {
			if (!scalar(v) || !react_name_ok(scalar(v), 63)) {
				char w[200];
				snprintf(w, sizeof w, "a job name of at most 63 letters, digits, '_', '.' or '-', "
				         "not starting with '.', got '%.64s'", scalar(v) ? scalar(v) : "a collection");
				return yerr(y, v, "jobs.name", w);
			}
			snprintf(s->job, sizeof s->job, "%s", scalar(v));
		} else if (!strcmp(key, "ranks")) {
			if (get_int(y, v, "jobs.ranks", 2, MAX_RANKS, &iv))
				return -1;
			s->ranks = (int32_t)iv;
		} else if (!strcmp(key, "collective")) {
			if (!scalar(v) || react_collective_parse(scalar(v), &s->coll) != REACT_OK)
				return yerr(y, v, "jobs.collective", "allreduce or allgather");
		} else if (!strcmp(key, "algorithm")) {
			if (!scalar(v) || react_algorithm_parse(scalar(v), &s->algo) != REACT_OK)
				return yerr(y, v, "jobs.algorithm", "tree, ring, rhd or recdbl");
		} else if (!strcmp(key, "message")) {
			if (get_size(y, v, "jobs.message", &s->message))
				return -1;
		} else if (!strcmp(key, "epochs")) {
			if (get_int(y, v, "jobs.epochs", 1, MAX_EPOCHS, &s->epochs))
				return -1;
		} else if (!strcmp(key, "warmup")) {
			if (get_int(y, v, "jobs.warmup", 0, MAX_EPOCHS, &s->warmup))
				return -1;
		} else if (!strcmp(key, "react")) {
			if (get_bool(y, v, "jobs.react", &s->react))
				return -1;
		} else if (!strcmp(key, "placement") || !strcmp(key, "hosts") || !strcmp(key, "compute_gap") ||
		           !strcmp(key, "start")) {
			/* simulator placement fields: GPUs are the ranks here */
		} else {
			char w[96];
			snprintf(w, sizeof w, "one of name, ranks, collective, algorithm, message, epochs, "
			                      "warmup, react (got '%s')", key);
			return yerr(y, k, "jobs", w);
		}
	}
	return 0;
}

/* REACT parameters (`params:`, or `react:` as react-gpu's older files
 * spell it): every parameter of the controller's table, by its name or the
 * paper's symbol, as scenario files of react run accept them. */
static int parse_params(yctx_t *y, yaml_node_t *m, react_params_t *p)
{
	if (m->type != YAML_MAPPING_NODE)
		return yerr(y, m, "params", "a mapping of parameters");
	FOR_PAIRS(m, k, v) {
		const char *key = scalar(k);
		if (!key)
			return yerr(y, k, "params", "scalar keys");
		const char *name = NULL;
		for (size_t i = 0; i < react_params_count() && !name; i++) {
			const char *nm, *sym;
			react_params_describe(i, &nm, &sym, NULL, NULL, NULL);
			if (!strcmp(key, nm) || (strcmp(sym, "-") && !strcmp(key, sym)))
				name = nm;
		}
		char f[96], why[320];
		snprintf(f, sizeof f, "params.%s", key);
		if (!name)
			return yerr(y, k, f, "a REACT parameter (docs/controller.md, Parameters)");
		if (!scalar(v))
			return yerr(y, v, f, "a value");
		if (react_params_set(p, name, scalar(v), why, sizeof why) != REACT_OK)
			return yerr(y, v, f, why);
	}
	return 0;
}

static int parse_gpu(yctx_t *y, yaml_node_t *m, scen_t *s)
{
	if (m->type != YAML_MAPPING_NODE)
		return yerr(y, m, "gpu", "a mapping");
	FOR_PAIRS(m, k, v) {
		const char *key = scalar(k);
		if (!key)
			return yerr(y, k, "gpu", "scalar keys");
		if (!strcmp(key, "transport")) {
			if (!scalar(v) || react_transport_parse(scalar(v), &s->transport) != REACT_OK)
				return yerr(y, v, "gpu.transport", "host, local or nccl");
		} else if (!strcmp(key, "dtype")) {
			if (!scalar(v) || react_dtype_parse(scalar(v), &s->dtype) != REACT_OK)
				return yerr(y, v, "gpu.dtype", "float, half or bfloat16");
		} else if (!strcmp(key, "check")) {
			if (get_bool(y, v, "gpu.check", &s->check))
				return -1;
		} else if (!strcmp(key, "latency") || !strcmp(key, "bandwidth")) {
			int lat = !strcmp(key, "latency");
			double x = 0;
			if (!scalar(v) || (lat ? react_parse_time_s(scalar(v), &x)
			                       : react_parse_rate_bps(scalar(v), &x)) != REACT_OK ||
			    !(lat ? x >= 0 : x > 0))
				return yerr(y, v, lat ? "gpu.latency" : "gpu.bandwidth",
				            lat ? "a time with a unit, such as 5us" : "a rate with a unit, such as 80Gbps");
			if (lat)
				s->latency_s = x;
			else
				s->bw_Bps = x / 8;
		} else if (!strcmp(key, "congestion")) {
			if (v->type != YAML_MAPPING_NODE)
				return yerr(y, v, "gpu.congestion", "a mapping with pairs, p, start_epoch");
			FOR_PAIRS(v, k2, v2) {
				const char *k2s = scalar(k2);
				if (k2s && !strcmp(k2s, "p")) {
					if (get_double(y, v2, "gpu.congestion.p", &s->p))
						return -1;
					if (!(s->p >= 0 && s->p < 1))
						return yerr(y, v2, "gpu.congestion.p", "a fraction in [0, 1)");
				} else if (k2s && !strcmp(k2s, "start_epoch")) {
					if (get_int(y, v2, "gpu.congestion.start_epoch", 0, INT64_MAX, &s->cong_start))
						return -1;
				} else if (k2s && !strcmp(k2s, "pairs")) {
					if (v2->type != YAML_SEQUENCE_NODE)
						return yerr(y, v2, "gpu.congestion.pairs", "a list of [src, dst] pairs");
					for (yaml_node_item_t *it = v2->data.sequence.items.start;
					     it < v2->data.sequence.items.top; it++) {
						yaml_node_t *pn = yaml_document_get_node(&y->doc, *it);
						if (pn->type != YAML_SEQUENCE_NODE ||
						    pn->data.sequence.items.top - pn->data.sequence.items.start != 2 ||
						    s->npairs == MAX_PAIRS)
							return yerr(y, pn, "gpu.congestion.pairs", "[src, dst] (at most 64 pairs)");
						int64_t a, b;
						if (get_int(y, yaml_document_get_node(&y->doc, pn->data.sequence.items.start[0]),
						            "gpu.congestion.pairs", 0, MAX_RANKS - 1, &a) ||
						    get_int(y, yaml_document_get_node(&y->doc, pn->data.sequence.items.start[1]),
						            "gpu.congestion.pairs", 0, MAX_RANKS - 1, &b))
							return -1;
						s->pairs[s->npairs][0] = (int32_t)a;
						s->pairs[s->npairs][1] = (int32_t)b;
						s->npairs++;
					}
				} else {
					return yerr(y, k2, "gpu.congestion", "one of pairs, p, start_epoch");
				}
			}
		} else {
			return yerr(y, k, "gpu", "one of transport, dtype, check, latency, bandwidth, congestion");
		}
	}
	return 0;
}

static int load_scenario(const char *path, scen_t *s, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	yaml_parser_t parser;
	yctx_t yy = {.path = path, .err = err, .errlen = errlen}, *y = &yy;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "%s: out of memory starting the YAML parser", path);
		fclose(f);
		return -1;
	}
	yaml_parser_set_input_file(&parser, f);
	int rc = 0;
	if (!yaml_parser_load(&parser, &y->doc)) {
		if (parser.error == YAML_MEMORY_ERROR)
			snprintf(err, errlen, "%s: out of memory reading the scenario", path);
		else
			snprintf(err, errlen, "%s:%zu: %s", path, parser.problem_mark.line + 1,
			         parser.problem ? parser.problem : "malformed YAML");
		yaml_parser_delete(&parser);
		fclose(f);
		return -1;
	}
	yaml_node_t *root = yaml_document_get_root_node(&y->doc);
	int have_job = 0;
	if (!root || root->type != YAML_MAPPING_NODE) {
		rc = yerr(y, root, "(top level)", "a mapping");
		goto out;
	}
	{
		FOR_PAIRS(root, k, v) {
			const char *key = scalar(k);
			int64_t iv;
			if (!key) {
				rc = yerr(y, k, "(top level)", "scalar keys");
				goto out;
			}
			if (!strcmp(key, "name")) {
				snprintf(s->name, sizeof s->name, "%s", scalar(v) ? scalar(v) : "");
			} else if (!strcmp(key, "seed")) {
				if ((rc = get_int(y, v, "seed", 0, INT64_MAX, &iv)))
					goto out;
				s->seed = (uint64_t)iv;
			} else if (!strcmp(key, "jobs")) {
				if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top == v->data.sequence.items.start) {
					rc = yerr(y, v, "jobs", "a list with one job");
					goto out;
				}
				if (v->data.sequence.items.top - v->data.sequence.items.start > 1) {
					rc = yerr(y, v, "jobs", "one job (the GPU runtime runs one job at a time)");
					goto out;
				}
				if ((rc = parse_job(y, yaml_document_get_node(&y->doc, v->data.sequence.items.start[0]), s)))
					goto out;
				have_job = 1;
			} else if (!strcmp(key, "react") || !strcmp(key, "params")) {
				if ((rc = parse_params(y, v, &s->params)))
					goto out;
			} else if (!strcmp(key, "gpu")) {
				if ((rc = parse_gpu(y, v, s)))
					goto out;
			} else if (!strcmp(key, "congestion")) {
				rc = yerr(y, k, "congestion", "no such section: the GPU runtime cannot model "
				          "external flows or degraded links (they need a simulated network); "
				          "use gpu.congestion (rank-pair congestion)");
				goto out;
			} else if (!strcmp(key, "backend") || !strcmp(key, "topology") ||
			           !strcmp(key, "tolerance") || !strcmp(key, "description") ||
			           !strcmp(key, "plot")) {
				/* simulator fields: not used on GPUs */
			} else {
				rc = yerr(y, k, key, "a known top-level field (name, seed, jobs, params, gpu)");
				goto out;
			}
		}
	}
	if (!have_job)
		rc = yerr(y, root, "jobs", "a list with one job");
out:
	yaml_document_delete(&y->doc);
	yaml_parser_delete(&parser);
	fclose(f);
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
	int64_t changes;
	uint64_t wrong;
} run_out_t;


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
		const react_pattern_t *p = tu ? react_rt_tuner_pattern_for(tu, e) : p0;
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

int react_gpu_cmd_run(int argc, char **argv)
{
	const char *path = NULL, *out = NULL;
	double every = 5;
	int quiet = 0;
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
		} else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else {
			fprintf(stderr, "react-gpu run: unexpected argument '%s' (react-gpu run SCENARIO.yaml "
			                "[--out DIR] [--progress SECONDS] [--quiet])\n", argv[i]);
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "react-gpu run: missing SCENARIO.yaml\n");
		return 2;
	}
	scen_t sc;
	memset(&sc, 0, sizeof sc);
	snprintf(sc.job, sizeof sc.job, "job0");
	sc.transport = REACT_TRANSPORT_HOST;
	sc.ranks = 8;
	sc.coll = REACT_COLL_ALLREDUCE;
	sc.algo = REACT_ALGO_RING;
	sc.message = 1 << 20;
	sc.epochs = 60;
	sc.react = 1;
	sc.seed = 1;
	react_params_default(&sc.params);
	/* D is the runtime's consensus latency (paper 6.3): the job keeps
	 * running the old pattern while the tuner decides, 5 epochs unless the
	 * scenario says otherwise (the controller's own default, 0, is for
	 * simulations, whose decisions take no simulated time) */
	sc.params.apply_delay = REACT_RT_APPLY_DELAY;
	char err[512];
	if (load_scenario(path, &sc, err, sizeof err)) {
		fprintf(stderr, "react-gpu run: %s\n", err);
		return 2;
	}
	sc.params.seed = sc.seed;
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
		if (!(ro[m].time_s = malloc((size_t)sc.epochs * sizeof *ro[m].time_s))) {
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
		for (int m = 0; m < modes; m++) {
			double mean, p95;
			summary(ro[m].time_s, sc.epochs, sc.warmup, sc.message, &mean, &p95);
			printf("  %-9s %14.3f %14.3f %8lld %8llu\n", ro[m].mode, mean, p95,
			       (long long)ro[m].changes, (unsigned long long)ro[m].wrong);
		}
		if (modes == 2)
			printf("# tuner: %lld decisions (%lld reverts), job waited %.3f ms for it, controller "
			       "time %.3f ms\n", (long long)ts.decisions, (long long)ts.reverts, ts.waited_s * 1e3,
			       ts.observe_s * 1e3);
	}
	if (ro[0].wrong || ro[1].wrong)
		rc = 3;
done:
	/* a failed run leaves no file under the final names */
	out_discard(&logf);
	out_discard(&csvf);
	free(ro[0].time_s);
	free(ro[1].time_s);
	return rc;
}
