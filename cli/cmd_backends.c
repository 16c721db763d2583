/*
 * react compare-backends SCENARIO: every configuration of a scenario on a
 * flow-level backend (--fluid: flow, the max-min model, or dctcp, the DCTCP
 * window model) and the ns-3 backend, side by side.  For every configuration
 * and job it prints, per backend, the baseline and REACT mean algorithm
 * bandwidth (after warm-up), the improvement and the decisions REACT took
 * (pattern changes, reverts), then the ratio ns-3 / flow of the algorithm
 * bandwidths and whether both backends give the improvement the same sign.
 * A closing summary counts the runs where the backends agree: algorithm
 * bandwidth within --tol (15%) for both the baseline and the REACT run, and
 * the same sign of improvement (improvements within +---deadband (2%)
 * count as zero).  It also gives each improvement's standard error (from
 * the per-epoch algbw of both runs after warm-up) and counts the runs whose
 * *significant* signs agree: an improvement within two standard errors of
 * zero counts as zero.  --ns3-from takes the ns-3 side from an earlier run's
 * --csv instead of running it again (the ns-3 backend is deterministic):
 * how a change to a flow-level model is measured against packets in
 * seconds.  Progress (configuration i of n, backend, run, epoch, ETA) goes
 * to stderr through cli/progress.h (--progress, --quiet); stdout is the
 * same with or without it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "backends.h"
#include "cli.h"
#include "progress.h"
#include "react/backend.h"
#include "react/csv.h"
#include "react/driver.h"
#include "react/scenario.h"
#include "react/stats.h"
#ifdef REACT_HAVE_NS3
#include "react/ns3.h"
#endif

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: react compare-backends SCENARIO [--set KEY=VALUE]... [--config I]\n"
	        "                              [--fluid flow|dctcp] [--csv FILE] [--tol FRACTION]\n"
	        "                              [--deadband PCT] [--ns3-from CSV]\n"
	        "       react compare-backends SCENARIO --backends B1,B2[,...] [--set KEY=VALUE]...\n"
	        "                              [--config I] [--csv FILE] [--tol F] [--deadband PCT]\n"
	        "  Runs every configuration (or only configuration I) of SCENARIO, baseline and\n"
	        "  REACT, on a flow-level backend and the ns-3 backend and prints them side by\n"
	        "  side.\n"
	        "  --backends L   any backends side by side (flow, dctcp, ns3, gpu), each with\n"
	        "                 its improvement's standard error; agreement is counted\n"
	        "                 against the first (gpu: the host transport in build/react)\n"
	        "  --fluid B      the flow-level backend: flow (max-min rates, default) or dctcp\n"
	        "                 (DCTCP window model)\n"
	        "  --csv FILE     also write one row per configuration and job (atomically)\n"
	        "  --tol F        algbw agreement tolerance, relative (default 0.15)\n"
	        "  --deadband P   improvements within +-P %% count as zero (default 2)\n"
	        "                 (also printed: each improvement's standard error from the\n"
	        "                 per-epoch algbw, and whether the signs agree when an\n"
	        "                 improvement within 2 standard errors counts as zero)\n"	        "  --ns3-from CSV the ns-3 columns from an earlier --csv of the same scenario\n"
	        "                 (and --set), instead of running ns-3 again\n"
	        "  --progress S   seconds between progress lines on stderr when it is not a\n"
	        "                 terminal (default 5; a terminal gets one updating line)\n"
	        "  --quiet        no progress on stderr\n"
	        "exit: 0 done, 2 bad input or a backend failed\n");
}

/* Standard error, in percentage points, of 100 (react / baseline - 1) for
 * job j of a pair: the mean and standard error of each run's per-epoch
 * algbw from its warm-up on (react/stats.h).  -1 when out of memory. */
static double impr_se_pct(const react_pair_result_t *pr, int32_t j)
{
	const react_drive_result_t *run[2] = {pr->baseline, pr->react};
	double m[2], se[2];
	for (int k = 0; k < 2; k++) {
		const react_drive_result_t *r = run[k];
		int64_t from = r->jobs[j].warmup;
		double *x = malloc((r->nrecs ? r->nrecs : 1) * sizeof *x);
		size_t n = 0;
		if (!x)
			return -1;
		for (size_t i = 0; i < r->nrecs; i++)
			if (r->recs[i].job == j && r->recs[i].epoch >= from)
				x[n++] = r->recs[i].algbw_gbps;
		react_stats_mean_se(x, n, &m[k], &se[k]);
		free(x);
	}
	return react_stats_impr_se_pct(m[0], se[0], m[1], se[1]);
}

/* Progress on stderr: configuration i of n, the backend, the run and its
 * epoch.  The work is counted in configurations, each split evenly over its
 * epochs (both runs, every job, on each backend run), so the ETA needs no
 * configuration resolved ahead. */
enum { PROG_PER_CONFIG = 1000000 };
typedef struct cb_progress {
	cli_progress_t line;
	const react_config_t *cfg;
	const char *backend;
	size_t i, n;              /* configuration i (from 1) of n */
	int64_t cfg_epochs, done; /* epochs this configuration runs, and has run */
} cb_progress_t;

static void cb_progress(void *ctx, react_run_mode_t mode, const react_epoch_report_t *rep)
{
	cb_progress_t *p = ctx;
	const react_run_cfg_t *r = &p->cfg->run;
	p->done++;
	int64_t units = (int64_t)(p->i - 1) * PROG_PER_CONFIG +
	                (int64_t)((double)PROG_PER_CONFIG * (double)p->done / (double)p->cfg_epochs);
	cli_progress_report(&p->line, units, "configuration %zu of %zu (%s), %s %s epoch %lld of %lld%s%s",
	                    p->i, p->n, p->cfg->id, p->backend, react_run_mode_name(mode),
	                    (long long)rep->epoch + 1, (long long)r->jobs[rep->job].epochs,
	                    r->njobs > 1 ? " of job " : "", r->njobs > 1 ? r->jobs[rep->job].name : "");
}

/* One row of an earlier --csv: the ns-3 side of one configuration and job. */
typedef struct ns3row {
	char config[32], key[256], job[64];
	double base, react, impr, se; /* se: NAN when the CSV has no ns3_impr_se_pct */
	long long changes;
} ns3row_t;

/* Read the ns-3 columns of a compare-backends CSV; *rows malloc'd. */
static int load_ns3(const char *path, ns3row_t **rows, size_t *nrows)
{
	static const char *const need[] = {"config", "key", "job", "ns3_base_gbps",
	                                   "ns3_react_gbps", "ns3_impr_pct", "ns3_changes"};
	enum { NNEED = 7, MAXF = 32 };
	int col[NNEED], secol = -1;
	char line[4096], *f[MAXF + 1];
	FILE *in = fopen(path, "r");
	size_t cap = 0, n = 0, lno = 0;
	ns3row_t *v = NULL;
	*rows = NULL;
	*nrows = 0;
	if (!in) {
		fprintf(stderr, "react compare-backends: --ns3-from %s: %s\n", path, strerror(errno));
		goto fail;
	}
	int nf = 0;
	while (fgets(line, sizeof line, in)) {
		lno++;
		line[strcspn(line, "\r\n")] = 0;
		int k = (int)react_csv_split(line, f, MAXF + 1);
		if (k > MAXF)
			k = -1; /* too many fields */
		if (lno == 1) {
			nf = k;
			for (int i = 0; i < NNEED; i++) {
				col[i] = -1;
				for (int c = 0; c < k; c++)
					if (!strcmp(f[c], need[i]))
						col[i] = c;
				if (col[i] < 0) {
					fprintf(stderr, "react compare-backends: %s:1: no column '%s' (expected the "
					                "header of a compare-backends --csv)\n", path, need[i]);
					goto fail;
				}
			}
			for (int c = 0; c < k; c++)
				if (!strcmp(f[c], "ns3_impr_se_pct"))
					secol = c;
			continue;
		}
		if (k == 1 && !f[0][0])
			continue;
		if (k != nf) {
			fprintf(stderr, "react compare-backends: %s:%zu: %d fields, the header has %d\n",
			        path, lno, k, nf);
			goto fail;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			ns3row_t *q = realloc(v, cap * sizeof *q);
			if (!q)
				goto fail;
			v = q;
		}
		ns3row_t *r = &v[n];
		snprintf(r->config, sizeof r->config, "%s", f[col[0]]);
		snprintf(r->key, sizeof r->key, "%s", f[col[1]]);
		snprintf(r->job, sizeof r->job, "%s", f[col[2]]);
		char *end1, *end2, *end3, *end4;
		r->base = strtod(f[col[3]], &end1);
		r->react = strtod(f[col[4]], &end2);
		r->impr = strtod(f[col[5]], &end3);
		r->changes = strtoll(f[col[6]], &end4, 10);
		r->se = NAN;
		if (secol >= 0) {
			char *e5;
			r->se = strtod(f[secol], &e5);
			if (*e5 || !f[secol][0] || !(r->se >= 0)) {
				fprintf(stderr, "react compare-backends: %s:%zu: expected a number >= 0 in "
				                "ns3_impr_se_pct\n", path, lno);
				goto fail;
			}
		}
		if (*end1 || *end2 || *end3 || *end4 || !f[col[3]][0] || !(r->base > 0) ||
		    !(r->react > 0)) {
			fprintf(stderr, "react compare-backends: %s:%zu: expected positive numbers in "
			                "ns3_base_gbps and ns3_react_gbps, numbers in ns3_impr_pct and "
			                "ns3_changes\n", path, lno);
			goto fail;
		}
		n++;
	}
	if (ferror(in)) {
		fprintf(stderr, "react compare-backends: %s: read error\n", path);
		goto fail;
	}
	fclose(in);
	*rows = v;
	*nrows = n;
	return 0;
fail:
	if (in)
		fclose(in);
	free(v);
	return -1;
}

/* How run b agrees with reference run a (mean algbw of baseline and REACT,
 * improvement % and its standard error): the algbw ratios b / a, both
 * within tol; the same sign of improvement within +-deadband; the same
 * sign when an improvement within 2 standard errors counts as zero (0
 * when b's standard error is unknown, NaN). */
typedef struct agree {
	double ratio_base, ratio_react;
	int bw, sign, sig;
} agree_t;

static agree_t agreement(double base_a, double react_a, double impr_a, double se_a, double base_b,
                         double react_b, double impr_b, double se_b, double tol, double deadband)
{
	agree_t g;
	g.ratio_base = base_a > 0 ? base_b / base_a : 0;
	g.ratio_react = react_a > 0 ? react_b / react_a : 0;
	g.bw = fabs(g.ratio_base - 1) <= tol && fabs(g.ratio_react - 1) <= tol;
	g.sign = react_stats_sign(impr_a, deadband) == react_stats_sign(impr_b, deadband);
	g.sig = !isnan(se_b) &&
	        react_stats_sign(impr_a, 2 * se_a) == react_stats_sign(impr_b, 2 * se_b);
	return g;
}

/* --backends: any set of backends side by side.  Every configuration and
 * job: per backend the baseline and REACT mean algbw, the improvement and
 * its standard error and REACT's pattern changes; then, for every backend
 * after the first, the algbw ratios to the first and whether the signs of
 * improvement agree (within the deadband, and within 2 standard errors). */
enum { MAXB = 8 };
static int compare_many(react_scenario_t *s, const char *path, const react_backend_ops_t **bes,
                        int nb, long only, FILE *csv, double tol, double deadband,
                        cb_progress_t *pg)
{
	char err[1024];
	size_t n = react_scenario_nconfigs(s);
	long runs = 0, abw[MAXB] = {0}, asg[MAXB] = {0}, asig[MAXB] = {0};
	printf("scenario %s: %zu configuration%s, backends", react_scenario_name(s), n,
	       n == 1 ? "" : "s");
	for (int b = 0; b < nb; b++)
		printf("%s %s", b ? "," : "", bes[b]->name);
	printf(" (algbw in GB/s, mean after warm-up; impr%% +- its standard error)\n");
	printf("%-6s %-24s %-8s", "config", "key", "job");
	for (int b = 0; b < nb; b++)
		printf(" | %-6.6s %7s %7s %14s %3s", bes[b]->name, "base", "react", "impr%", "ch");
	printf("\n");
	if (csv) {
		fprintf(csv, "config,key,job");
		for (int b = 0; b < nb; b++)
			fprintf(csv, ",%s_base_gbps,%s_react_gbps,%s_impr_pct,%s_impr_se_pct,%s_changes",
			        bes[b]->name, bes[b]->name, bes[b]->name, bes[b]->name, bes[b]->name);
		for (int b = 1; b < nb; b++)
			fprintf(csv, ",%s_ratio_base,%s_ratio_react,%s_sign_agree,%s_sig_sign_agree",
			        bes[b]->name, bes[b]->name, bes[b]->name, bes[b]->name);
		fprintf(csv, "\n");
	}
	fflush(stdout);
	react_pair_opts_t po = {.progress = cb_progress, .progress_ctx = pg};
	for (size_t c = 0; c < n; c++) {
		if (only >= 0 && c != (size_t)only)
			continue;
		react_config_t *cfg = NULL;
		react_pair_result_t pr[MAXB];
		memset(pr, 0, sizeof pr);
		if (react_scenario_config(s, c, &cfg, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react compare-backends: %s\n", err);
			return 2;
		}
		pg->cfg = cfg;
		pg->i++;
		pg->done = 0;
		pg->cfg_epochs = 0;
		for (int32_t j = 0; j < cfg->run.njobs; j++)
			pg->cfg_epochs += 2 * cfg->run.jobs[j].epochs * nb;
		react_status_t st = REACT_OK;
		for (int b = 0; b < nb && st == REACT_OK; b++) {
			pg->backend = bes[b]->name;
			if ((st = react_config_check_backend(s, cfg, bes[b]->name, err, sizeof err)) ==
			    REACT_OK)
				st = react_run_pair(bes[b], cfg, &po, &pr[b], err, sizeof err);
		}
		cli_progress_clear(&pg->line);
		if (st != REACT_OK) {
			fprintf(stderr, "react compare-backends: %s configuration %zu (%s): %s\n", path, c,
			        cfg->key, err);
			for (int b = 0; b < nb; b++)
				react_pair_result_clear(&pr[b]);
			react_config_destroy(cfg);
			return 2;
		}
		for (int32_t j = 0; j < cfg->run.njobs; j++) {
			double base[MAXB], rx[MAXB], impr[MAXB], se[MAXB];
			long long ch[MAXB];
			for (int b = 0; b < nb; b++) {
				base[b] = pr[b].baseline->jobs[j].mean_algbw_gbps;
				rx[b] = pr[b].react->jobs[j].mean_algbw_gbps;
				impr[b] = react_improvement_pct(base[b], rx[b]);
				se[b] = impr_se_pct(&pr[b], j);
				ch[b] = (long long)pr[b].react->jobs[j].ctl.changes;
			}
			runs++;
			printf("%-6s %-24.24s %-8.8s", cfg->id, cfg->key[0] ? cfg->key : "-",
			       cfg->run.jobs[j].name);
			for (int b = 0; b < nb; b++)
				printf(" | %-6s %7.3f %7.3f %+7.1f +-%4.1f %3lld", "", base[b], rx[b], impr[b],
				       se[b], ch[b]);
			printf("\n");
			if (csv) {
				fprintf(csv, "%s,\"%s\",%s", cfg->id, cfg->key, cfg->run.jobs[j].name);
				for (int b = 0; b < nb; b++)
					fprintf(csv, ",%.6f,%.6f,%.3f,%.3f,%lld", base[b], rx[b], impr[b], se[b],
					        ch[b]);
			}
			for (int b = 1; b < nb; b++) {
				agree_t g = agreement(base[0], rx[0], impr[0], se[0], base[b], rx[b], impr[b],
				                      se[b], tol, deadband);
				abw[b] += g.bw;
				asg[b] += g.sign;
				asig[b] += g.sig;
				if (csv)
					fprintf(csv, ",%.6f,%.6f,%d,%d", g.ratio_base, g.ratio_react, g.sign, g.sig);
			}
			if (csv)
				fprintf(csv, "\n");
		}
		fflush(stdout);
		for (int b = 0; b < nb; b++)
			react_pair_result_clear(&pr[b]);
		react_config_destroy(cfg);
	}
	for (int b = 1; b < nb; b++)
		printf("%s against %s over %ld run%s: algbw within %.0f%% %ld, same sign of improvement "
		       "%ld, same significant sign %ld\n", bes[b]->name, bes[0]->name, runs,
		       runs == 1 ? "" : "s", tol * 100, abw[b], asg[b], asig[b]);
	return 0;
}

int react_cmd_compare_backends(int argc, char **argv)
{
	const char *path = NULL, *csv_path = NULL;
	const react_backend_ops_t *fluid = &react_backend_flow;
	const char *ns3_from = NULL;
	ns3row_t *stored = NULL;
	size_t nstored = 0;
	char csv_tmp[4200] = "";
	long only = -1;
	double tol = 0.15, deadband = 2.0, every = 5.0;
	int quiet = 0;
	const react_backend_ops_t *bes[MAXB];
	int nb = 0;
	cb_progress_t pg = {.line = {.off = 1}};
	char err[1024];
	int rc = 2;
	react_scenario_t *s = NULL;
	FILE *csv = NULL;
	const char **sets = calloc((size_t)argc, sizeof *sets);
	int nsets = 0;

	if (!sets)
		return 2;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			free(sets);
			return 0;
		} else if (!strcmp(a, "--set") && i + 1 < argc) {
			sets[nsets++] = argv[++i];
		} else if (!strcmp(a, "--config") && i + 1 < argc) {
			char *end;
			errno = 0;
			only = strtol(argv[++i], &end, 10);
			if (errno || *end || only < 0) {
				fprintf(stderr, "react compare-backends: --config: expected a configuration "
				                "index >= 0, got '%s'\n", argv[i]);
				goto out;
			}
		} else if (!strcmp(a, "--fluid") && i + 1 < argc) {
			const react_backend_ops_t *b = react_cli_backend(argv[++i]);
			if (!b || !strcmp(b->name, "ns3") || !strcmp(b->name, "gpu")) {
				fprintf(stderr, "react compare-backends: --fluid: expected flow or dctcp, got "
				                "'%s'\n", argv[i]);
				goto out;
			}
			fluid = b;
		} else if (!strcmp(a, "--backends") && i + 1 < argc) {
			char list[256], *save = NULL;
			snprintf(list, sizeof list, "%s", argv[++i]);
			nb = 0;
			for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				char where[64];
				snprintf(where, sizeof where, "--backends");
				if (nb == MAXB) {
					fprintf(stderr, "react compare-backends: --backends: at most %d\n", MAXB);
					goto out;
				}
				if (!(bes[nb++] = react_cli_backend_for(t, where, err, sizeof err))) {
					fprintf(stderr, "react compare-backends: %s\n", err);
					goto out;
				}
			}
			if (nb < 2) {
				fprintf(stderr, "react compare-backends: --backends: expected two or more "
				                "backends separated by commas, got '%s'\n", argv[i]);
				goto out;
			}
		} else if (!strcmp(a, "--ns3-from") && i + 1 < argc) {
			ns3_from = argv[++i];
		} else if (!strcmp(a, "--csv") && i + 1 < argc) {
			csv_path = argv[++i];
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else if ((!strcmp(a, "--tol") || !strcmp(a, "--deadband") || !strcmp(a, "--progress")) &&
		           i + 1 < argc) {
			char *end;
			double v = strtod(argv[++i], &end);
			if (*end || !(v >= 0)) {
				fprintf(stderr, "react compare-backends: %s: expected a number >= 0, got '%s'\n",
				        a, argv[i]);
				goto out;
			}
			if (!strcmp(a, "--tol"))
				tol = v;
			else if (!strcmp(a, "--deadband"))
				deadband = v;
			else
				every = v;
		} else if (a[0] == '-' || path) {
			fprintf(stderr, "react compare-backends: unexpected argument '%s'\n", a);
			usage(stderr);
			goto out;
		} else {
			path = a;
		}
	}
	if (!path) {
		usage(stderr);
		goto out;
	}
	if (nb && ns3_from) {
		fprintf(stderr, "react compare-backends: --ns3-from goes with --fluid, not --backends\n");
		goto out;
	}
#ifndef REACT_HAVE_NS3
	if (!ns3_from && !nb) {
		fprintf(stderr, "react compare-backends: this build has no ns-3 backend (configure with "
		                "-Dns3=enabled and libns3-dev 3.37 installed), and no --ns3-from\n");
		goto out;
	}
#endif
	if (ns3_from && load_ns3(ns3_from, &stored, &nstored) != 0)
		goto out;
	if (react_scenario_load(path, &s, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react compare-backends: %s\n", err);
		goto out;
	}
	for (int i = 0; i < nsets; i++) {
		char key[256];
		const char *eq = strchr(sets[i], '=');
		if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >= sizeof key) {
			fprintf(stderr, "react compare-backends: --set: expected KEY=VALUE, got '%s'\n",
			        sets[i]);
			goto out;
		}
		memcpy(key, sets[i], (size_t)(eq - sets[i]));
		key[eq - sets[i]] = 0;
		if (react_scenario_set(s, key, eq + 1, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react compare-backends: %s\n", err);
			goto out;
		}
	}
	size_t n = react_scenario_nconfigs(s);
	if (only >= 0 && (size_t)only >= n) {
		fprintf(stderr, "react compare-backends: --config %ld: the scenario has %zu "
		                "configurations (0..%zu)\n", only, n, n - 1);
		goto out;
	}
	if (csv_path) {
		snprintf(csv_tmp, sizeof csv_tmp, "%s.tmp.%ld", csv_path, (long)getpid());
		if (!(csv = fopen(csv_tmp, "w"))) {
			fprintf(stderr, "react compare-backends: %s: %s\n", csv_tmp, strerror(errno));
			csv_tmp[0] = 0;
			goto out;
		}
	}
	if (nb) {
		pg.n = only >= 0 ? 1 : n;
		cli_progress_start(&pg.line, "react compare-backends", (int64_t)pg.n * PROG_PER_CONFIG,
		                   every, quiet);
		rc = compare_many(s, path, bes, nb, only, csv, tol, deadband, &pg);
		goto out;
	}
	if (csv)
		fprintf(csv, "config,key,job,flow_base_gbps,flow_react_gbps,flow_impr_pct,flow_changes,"
		             "ns3_base_gbps,ns3_react_gbps,ns3_impr_pct,ns3_changes,ratio_base,"
		             "ratio_react,algbw_agree,sign_agree,fluid,flow_impr_se_pct,ns3_impr_se_pct,"
		             "sig_sign_agree\n");
	printf("scenario %s: %zu configuration%s, %s vs ns3%s%s%s (algbw in GB/s, mean after "
	       "warm-up)\n", react_scenario_name(s), n, n == 1 ? "" : "s", fluid->name,
	       ns3_from ? " (from " : "", ns3_from ? ns3_from : "", ns3_from ? ")" : "");
	printf("%-6s %-28s %-8s | %8s %8s %7s %4s | %8s %8s %7s %4s | %6s %6s %s\n", "config", "key",
	       "job", "f.base", "f.react", "f.impr%", "f.ch", "n.base", "n.react", "n.impr%", "n.ch",
	       "r.base", "r.react", "agree");
	fflush(stdout);
	long runs = 0, agree_bw = 0, agree_sign = 0, agree_both = 0, sig_runs = 0, agree_sig = 0;
	pg.n = only >= 0 ? 1 : n;
	cli_progress_start(&pg.line, "react compare-backends", (int64_t)pg.n * PROG_PER_CONFIG, every,
	                   quiet);
	react_pair_opts_t po = {.progress = cb_progress, .progress_ctx = &pg};
	for (size_t c = 0; c < n; c++) {
		if (only >= 0 && c != (size_t)only)
			continue;
		react_config_t *cfg = NULL;
		react_pair_result_t fr = {0}, nr = {0};
		if (react_scenario_config(s, c, &cfg, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react compare-backends: %s\n", err);
			goto out;
		}
		pg.cfg = cfg;
		pg.i++;
		pg.done = 0;
		pg.cfg_epochs = 0;
		for (int32_t j = 0; j < cfg->run.njobs; j++)
			pg.cfg_epochs += 2 * cfg->run.jobs[j].epochs * (stored ? 1 : 2);
		pg.backend = fluid->name;
		react_status_t st = react_run_pair(fluid, cfg, &po, &fr, err, sizeof err);
#ifdef REACT_HAVE_NS3
		pg.backend = "ns3";
		if (st == REACT_OK && !stored)
			st = react_run_pair(&react_backend_ns3, cfg, &po, &nr, err, sizeof err);
#endif
		cli_progress_clear(&pg.line);
		if (st != REACT_OK) {
			fprintf(stderr, "react compare-backends: %s configuration %zu (%s): %s\n", path, c,
			        cfg->key, err);
			react_pair_result_clear(&fr);
			react_pair_result_clear(&nr);
			react_config_destroy(cfg);
			goto out;
		}
		for (int32_t j = 0; j < fr.baseline->njobs; j++) {
			const react_job_summary_t *fb = &fr.baseline->jobs[j], *fx = &fr.react->jobs[j];
			double nbase, nreact, ni, nse;
			long long nch;
			if (stored) {
				const ns3row_t *row = NULL;
				for (size_t k = 0; k < nstored && !row; k++)
					if (!strcmp(stored[k].config, cfg->id) && !strcmp(stored[k].job, fb->name))
						row = &stored[k];
				if (!row || strcmp(row->key, cfg->key)) {
					if (row)
						fprintf(stderr, "react compare-backends: %s: configuration %s job %s is "
						                "'%s' there, '%s' here: not the same sweep\n",
						        ns3_from, cfg->id, fb->name, row->key, cfg->key);
					else
						fprintf(stderr, "react compare-backends: %s: no row for configuration "
						                "%s job %s\n", ns3_from, cfg->id, fb->name);
					react_pair_result_clear(&fr);
					react_config_destroy(cfg);
					goto out;
				}
				nbase = row->base;
				nreact = row->react;
				ni = row->impr;
				nse = row->se;
				nch = row->changes;
			} else {
				const react_job_summary_t *nb = &nr.baseline->jobs[j], *nx = &nr.react->jobs[j];
				nbase = nb->mean_algbw_gbps;
				nreact = nx->mean_algbw_gbps;
				ni = react_improvement_pct(nbase, nreact);
				nse = impr_se_pct(&nr, j);
				nch = (long long)nx->ctl.changes;
			}
			double fse = impr_se_pct(&fr, j);
			if (fse < 0 || nse < 0) {
				fprintf(stderr, "react compare-backends: out of memory\n");
				react_pair_result_clear(&fr);
				react_pair_result_clear(&nr);
				react_config_destroy(cfg);
				goto out;
			}
			double fi = react_improvement_pct(fb->mean_algbw_gbps, fx->mean_algbw_gbps);
			agree_t g = agreement(fb->mean_algbw_gbps, fx->mean_algbw_gbps, fi, fse, nbase, nreact,
			                      ni, nse, tol, deadband);
			double rb = g.ratio_base, rx = g.ratio_react;
			int bw = g.bw, sg = g.sign, ss = g.sig;
			int have_se = !isnan(nse);
			runs++;
			agree_bw += bw;
			agree_sign += sg;
			agree_both += bw && sg;
			sig_runs += have_se;
			agree_sig += ss;
			printf("%-6s %-28.28s %-8.8s | %8.3f %8.3f %+7.1f %4lld | %8.3f %8.3f %+7.1f %4lld | "
			       "%6.3f %6.3f %s%s%s\n",
			       cfg->id, cfg->key[0] ? cfg->key : "-", fb->name, fb->mean_algbw_gbps,
			       fx->mean_algbw_gbps, fi, (long long)fx->ctl.changes, nbase, nreact, ni, nch,
			       rb, rx,
			       bw ? "bw" : "--", sg ? "+sign" : "-sign",
			       !have_se ? "" : ss ? "+sig" : "-sig");
			if (csv) {
				fprintf(csv, "%s,\"%s\",%s,%.6f,%.6f,%.3f,%lld,%.6f,%.6f,%.3f,%lld,%.6f,%.6f,%d,%d,%s,"
				        "%.3f,",
				        cfg->id, cfg->key, fb->name, fb->mean_algbw_gbps, fx->mean_algbw_gbps, fi,
				        (long long)fx->ctl.changes, nbase, nreact, ni, nch, rb, rx, bw, sg,
				        fluid->name, fse);
				if (have_se)
					fprintf(csv, "%.3f,%d\n", nse, ss);
				else
					fprintf(csv, ",\n");
			}
		}
		fflush(stdout);
		react_pair_result_clear(&fr);
		react_pair_result_clear(&nr);
		react_config_destroy(cfg);
	}
	printf("agreement over %ld run%s: algbw within %.0f%% %ld (%.0f%%), same sign of improvement "
	       "%ld (%.0f%%), both %ld (%.0f%%)\n",
	       runs, runs == 1 ? "" : "s", tol * 100, agree_bw, runs ? 100.0 * agree_bw / runs : 0,
	       agree_sign, runs ? 100.0 * agree_sign / runs : 0, agree_both,
	       runs ? 100.0 * agree_both / runs : 0);
	if (sig_runs)
		printf("same significant sign (an improvement within 2 standard errors counts as zero): "
		       "%ld of %ld (%.0f%%)\n", agree_sig, sig_runs, 100.0 * agree_sig / sig_runs);
	rc = 0;
out:
	cli_progress_end(&pg.line, NULL);
	if (csv && fclose(csv) != 0 && rc == 0) {
		fprintf(stderr, "react compare-backends: %s: %s\n", csv_tmp, strerror(errno));
		rc = 2;
	}
	if (csv_tmp[0] && rc == 0 && rename(csv_tmp, csv_path) != 0) {
		fprintf(stderr, "react compare-backends: %s: %s\n", csv_path, strerror(errno));
		rc = 2;
	}
	if (csv_tmp[0] && rc != 0)
		remove(csv_tmp);
	react_scenario_destroy(s);
	free(stored);
	free(sets);
	return rc;
}
