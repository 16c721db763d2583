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
 * seconds.  --backends B1,B2,... puts any backends side by side instead,
 * each measured against the first.  Both command lines go through one loop
 * over configurations and backends (compare()); they differ only in their
 * stdout and --csv layouts, which scripts/validate.sh and earlier --csv
 * files (--ns3-from) read.  Progress (configuration i of n, backend, run,
 * epoch, ETA) goes to stderr through cli/progress.h (--progress, --quiet);
 * stdout is the same with or without it.
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

/* ---- one loop over configurations and backends, for both command lines ----
 *
 * A comparison has columns, one per backend; column 0 is the reference the
 * others are measured against.  A column either runs its backend (baseline
 * and REACT) or, with --ns3-from, takes its numbers from an earlier --csv.
 * compare() runs every configuration, fills one row of columns per job,
 * counts the agreements, and hands the row to the command line's format:
 * the formats below are the only code that differs between --backends and
 * --fluid. */
enum { MAXB = 8 };

/* One backend's numbers for one configuration and job. */
typedef struct cb_col {
	double base, react; /* mean algbw after warm-up (GB/s) of the baseline and REACT runs */
	double impr;        /* improvement, percent */
	double se;          /* its standard error (percentage points); NaN when unknown */
	long long changes;  /* REACT's pattern changes */
} cb_col_t;

/* Agreement counts of one column with column 0, over the runs so far. */
typedef struct cb_count {
	long bw, sign, both; /* algbw within tol; same sign (deadband); both at once */
	long sig_runs, sig;  /* runs with a standard error; of those, same significant sign */
} cb_count_t;

struct cb;
/* How a comparison is printed: stdout and the --csv (csv NULL without
 * --csv).  header and row return 0, or -1 when a write to csv failed. */
typedef struct cb_format {
	int (*header)(const struct cb *cb, FILE *csv);
	int (*row)(const struct cb *cb, const react_config_t *cfg, const char *job,
	           const cb_col_t *col, const agree_t *g, FILE *csv);
	void (*summary)(const struct cb *cb);
} cb_format_t;

typedef struct cb {
	react_scenario_t *s;
	const char *path;                    /* the scenario file, for errors */
	int ncol;
	const char *name[MAXB];              /* column b's backend name */
	const react_backend_ops_t *be[MAXB]; /* the backend column b runs; NULL: from `stored` */
	const ns3row_t *stored;              /* --ns3-from rows (their numbers and se) */
	size_t nstored;
	const char *stored_path;
	long only;                           /* the one configuration to run, or -1 */
	double tol, deadband;
	FILE *csv;                           /* NULL without --csv */
	const char *csv_name;                /* the file csv writes, for errors */
	const cb_format_t *fmt;
	cb_progress_t *pg;
	long runs;                           /* rows so far (configuration x job) */
	cb_count_t count[MAXB];              /* per column from 1, against column 0 */
} cb_t;

/* A column from its backend's pair of runs (baseline and REACT), job j. */
static void col_from_runs(cb_col_t *c, const react_pair_result_t *pr, int32_t j)
{
	c->base = pr->baseline->jobs[j].mean_algbw_gbps;
	c->react = pr->react->jobs[j].mean_algbw_gbps;
	c->impr = react_improvement_pct(c->base, c->react);
	c->se = impr_se_pct(pr, j);
	c->changes = (long long)pr->react->jobs[j].ctl.changes;
}

/* Column from the stored row of configuration cfg and job; -1 (message on
 * stderr) when there is none, or it belongs to another sweep. */
static int col_from_stored(const cb_t *cb, cb_col_t *c, const react_config_t *cfg, const char *job)
{
	const ns3row_t *row = NULL;
	for (size_t k = 0; k < cb->nstored && !row; k++)
		if (!strcmp(cb->stored[k].config, cfg->id) && !strcmp(cb->stored[k].job, job))
			row = &cb->stored[k];
	if (!row || strcmp(row->key, cfg->key)) {
		if (row)
			fprintf(stderr, "react compare-backends: %s: configuration %s job %s is '%s' there, "
			                "'%s' here: not the same sweep\n", cb->stored_path, cfg->id, job,
			        row->key, cfg->key);
		else
			fprintf(stderr, "react compare-backends: %s: no row for configuration %s job %s\n",
			        cb->stored_path, cfg->id, job);
		return -1;
	}
	c->base = row->base;
	c->react = row->react;
	c->impr = row->impr;
	c->se = row->se;
	c->changes = row->changes;
	return 0;
}

/* Every configuration (or cb->only): run the columns' backends, then per
 * job fill the columns, count the agreements and print the row.
 * Returns 0, or 2 after a message on stderr. */
static int compare(cb_t *cb)
{
	char err[1024];
	size_t n = react_scenario_nconfigs(cb->s);
	int nrun = 0;
	for (int b = 0; b < cb->ncol; b++)
		nrun += cb->be[b] != NULL;
	if (cb->fmt->header(cb, cb->csv) != 0) {
		fprintf(stderr, "react compare-backends: %s: write error\n", cb->csv_name);
		return 2;
	}
	fflush(stdout);
	react_pair_opts_t po = {.progress = cb_progress, .progress_ctx = cb->pg};
	for (size_t c = 0; c < n; c++) {
		if (cb->only >= 0 && c != (size_t)cb->only)
			continue;
		react_config_t *cfg = NULL;
		react_pair_result_t pr[MAXB];
		int rc = 2;
		memset(pr, 0, sizeof pr);
		if (react_scenario_config(cb->s, c, &cfg, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react compare-backends: %s\n", err);
			return 2;
		}
		cb_progress_t *pg = cb->pg;
		pg->cfg = cfg;
		pg->i++;
		pg->done = 0;
		pg->cfg_epochs = 0;
		for (int32_t j = 0; j < cfg->run.njobs; j++)
			pg->cfg_epochs += 2 * cfg->run.jobs[j].epochs * nrun;
		react_status_t st = REACT_OK;
		for (int b = 0; b < cb->ncol && st == REACT_OK; b++) {
			if (!cb->be[b])
				continue;
			pg->backend = cb->name[b];
			if ((st = react_config_check_backend(cb->s, cfg, cb->name[b], err, sizeof err)) ==
			    REACT_OK)
				st = react_run_pair(cb->be[b], cfg, &po, &pr[b], err, sizeof err);
		}
		cli_progress_clear(&pg->line);
		if (st != REACT_OK) {
			fprintf(stderr, "react compare-backends: %s configuration %zu (%s): %s\n", cb->path,
			        c, cfg->key, err);
			goto done;
		}
		for (int32_t j = 0; j < cfg->run.njobs; j++) {
			const char *job = cfg->run.jobs[j].name;
			cb_col_t col[MAXB];
			agree_t g[MAXB] = {{0}};
			for (int b = 0; b < cb->ncol; b++) {
				if (!cb->be[b]) {
					if (col_from_stored(cb, &col[b], cfg, job) != 0)
						goto done;
				} else {
					col_from_runs(&col[b], &pr[b], j);
				}
				if (col[b].se < 0) {
					fprintf(stderr, "react compare-backends: out of memory\n");
					goto done;
				}
			}
			cb->runs++;
			for (int b = 1; b < cb->ncol; b++) {
				cb_count_t *k = &cb->count[b];
				g[b] = agreement(col[0].base, col[0].react, col[0].impr, col[0].se, col[b].base,
				                 col[b].react, col[b].impr, col[b].se, cb->tol, cb->deadband);
				k->bw += g[b].bw;
				k->sign += g[b].sign;
				k->both += g[b].bw && g[b].sign;
				k->sig_runs += !isnan(col[b].se);
				k->sig += g[b].sig;
			}
			if (cb->fmt->row(cb, cfg, job, col, g, cb->csv) != 0) {
				fprintf(stderr, "react compare-backends: %s: write error\n", cb->csv_name);
				goto done;
			}
		}
		fflush(stdout);
		rc = 0;
	done:
		for (int b = 0; b < cb->ncol; b++)
			react_pair_result_clear(&pr[b]);
		react_config_destroy(cfg);
		if (rc)
			return rc;
	}
	cb->fmt->summary(cb);
	return 0;
}

/* --fluid: the flow-level backend (column 0) against ns-3 (column 1, run
 * or --ns3-from), one row per configuration and job with both sides, the
 * ratios and the verdicts; the CSV names the flow-level columns flow_*
 * whichever backend it is, and says which in `fluid`. */
static int pair_header(const cb_t *cb, FILE *csv)
{
	size_t n = react_scenario_nconfigs(cb->s);
	if (csv) {
		static const char *const cols[] = {
			"config", "key", "job", "flow_base_gbps", "flow_react_gbps", "flow_impr_pct",
			"flow_changes", "ns3_base_gbps", "ns3_react_gbps", "ns3_impr_pct", "ns3_changes",
			"ratio_base", "ratio_react", "algbw_agree", "sign_agree", "fluid", "flow_impr_se_pct",
			"ns3_impr_se_pct", "sig_sign_agree"};
		react_csv_row_t r;
		react_csv_row_start(&r, csv);
		for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
			react_csv_row_field(&r, cols[i]);
		if (react_csv_row_end(&r) != 0)
			return -1;
	}
	printf("scenario %s: %zu configuration%s, %s vs ns3%s%s%s (algbw in GB/s, mean after "
	       "warm-up)\n", react_scenario_name(cb->s), n, n == 1 ? "" : "s", cb->name[0],
	       cb->stored ? " (from " : "", cb->stored ? cb->stored_path : "",
	       cb->stored ? ")" : "");
	printf("%-6s %-28s %-8s | %8s %8s %7s %4s | %8s %8s %7s %4s | %6s %6s %s\n", "config", "key",
	       "job", "f.base", "f.react", "f.impr%", "f.ch", "n.base", "n.react", "n.impr%", "n.ch",
	       "r.base", "r.react", "agree");
	return 0;
}

/* A CSV row's first fields, in both layouts: configuration id, quoted key, job. */
static void csv_row_lead(react_csv_row_t *r, FILE *csv, const react_config_t *cfg, const char *job)
{
	react_csv_row_start(r, csv);
	react_csv_row_field(r, cfg->id);
	react_csv_row_quoted(r, cfg->key);
	react_csv_row_field(r, job);
}
static int pair_row(const cb_t *cb, const react_config_t *cfg, const char *job,
                    const cb_col_t *col, const agree_t *g, FILE *csv)
{
	const cb_col_t *f = &col[0], *s = &col[1];
	int have_se = !isnan(s->se);
	printf("%-6s %-28.28s %-8.8s | %8.3f %8.3f %+7.1f %4lld | %8.3f %8.3f %+7.1f %4lld | "
	       "%6.3f %6.3f %s%s%s\n",
	       cfg->id, cfg->key[0] ? cfg->key : "-", job, f->base, f->react, f->impr, f->changes,
	       s->base, s->react, s->impr, s->changes, g[1].ratio_base, g[1].ratio_react,
	       g[1].bw ? "bw" : "--", g[1].sign ? "+sign" : "-sign",
	       !have_se ? "" : g[1].sig ? "+sig" : "-sig");
	if (!csv)
		return 0;
	react_csv_row_t r;
	csv_row_lead(&r, csv, cfg, job);
	for (int b = 0; b < 2; b++) {
		react_csv_row_printf(&r, "%.6f", col[b].base);
		react_csv_row_printf(&r, "%.6f", col[b].react);
		react_csv_row_printf(&r, "%.3f", col[b].impr);
		react_csv_row_printf(&r, "%lld", col[b].changes);
	}
	react_csv_row_printf(&r, "%.6f", g[1].ratio_base);
	react_csv_row_printf(&r, "%.6f", g[1].ratio_react);
	react_csv_row_printf(&r, "%d", g[1].bw);
	react_csv_row_printf(&r, "%d", g[1].sign);
	react_csv_row_field(&r, cb->name[0]);
	react_csv_row_printf(&r, "%.3f", f->se);
	if (have_se) {
		react_csv_row_printf(&r, "%.3f", s->se);
		react_csv_row_printf(&r, "%d", g[1].sig);
	} else {
		react_csv_row_field(&r, "");
		react_csv_row_field(&r, "");
	}
	return react_csv_row_end(&r);
}

static void pair_summary(const cb_t *cb)
{
	const cb_count_t *k = &cb->count[1];
	long runs = cb->runs;
	printf("agreement over %ld run%s: algbw within %.0f%% %ld (%.0f%%), same sign of improvement "
	       "%ld (%.0f%%), both %ld (%.0f%%)\n",
	       runs, runs == 1 ? "" : "s", cb->tol * 100, k->bw, runs ? 100.0 * k->bw / runs : 0,
	       k->sign, runs ? 100.0 * k->sign / runs : 0, k->both,
	       runs ? 100.0 * k->both / runs : 0);
	if (k->sig_runs)
		printf("same significant sign (an improvement within 2 standard errors counts as zero): "
		       "%ld of %ld (%.0f%%)\n", k->sig, k->sig_runs, 100.0 * k->sig / k->sig_runs);
}

static const cb_format_t pair_format = {pair_header, pair_row, pair_summary};

/* --backends: per backend the baseline and REACT mean algbw, the
 * improvement and its standard error and REACT's pattern changes; then,
 * for every backend after the first, the algbw ratios to the first and
 * whether the signs of improvement agree (within the deadband, and within
 * 2 standard errors). */
static int many_header(const cb_t *cb, FILE *csv)
{
	size_t n = react_scenario_nconfigs(cb->s);
	if (csv) {
		react_csv_row_t r;
		react_csv_row_start(&r, csv);
		react_csv_row_field(&r, "config");
		react_csv_row_field(&r, "key");
		react_csv_row_field(&r, "job");
		for (int b = 0; b < cb->ncol; b++) {
			react_csv_row_printf(&r, "%s_base_gbps", cb->name[b]);
			react_csv_row_printf(&r, "%s_react_gbps", cb->name[b]);
			react_csv_row_printf(&r, "%s_impr_pct", cb->name[b]);
			react_csv_row_printf(&r, "%s_impr_se_pct", cb->name[b]);
			react_csv_row_printf(&r, "%s_changes", cb->name[b]);
		}
		for (int b = 1; b < cb->ncol; b++) {
			react_csv_row_printf(&r, "%s_ratio_base", cb->name[b]);
			react_csv_row_printf(&r, "%s_ratio_react", cb->name[b]);
			react_csv_row_printf(&r, "%s_sign_agree", cb->name[b]);
			react_csv_row_printf(&r, "%s_sig_sign_agree", cb->name[b]);
		}
		if (react_csv_row_end(&r) != 0)
			return -1;
	}
	printf("scenario %s: %zu configuration%s, backends", react_scenario_name(cb->s), n,
	       n == 1 ? "" : "s");
	for (int b = 0; b < cb->ncol; b++)
		printf("%s %s", b ? "," : "", cb->name[b]);
	printf(" (algbw in GB/s, mean after warm-up; impr%% +- its standard error)\n");
	printf("%-6s %-24s %-8s", "config", "key", "job");
	for (int b = 0; b < cb->ncol; b++)
		printf(" | %-6.6s %7s %7s %14s %3s", cb->name[b], "base", "react", "impr%", "ch");
	printf("\n");
	return 0;
}

static int many_row(const cb_t *cb, const react_config_t *cfg, const char *job,
                    const cb_col_t *col, const agree_t *g, FILE *csv)
{
	printf("%-6s %-24.24s %-8.8s", cfg->id, cfg->key[0] ? cfg->key : "-", job);
	for (int b = 0; b < cb->ncol; b++)
		printf(" | %-6s %7.3f %7.3f %+7.1f +-%4.1f %3lld", "", col[b].base, col[b].react,
		       col[b].impr, col[b].se, col[b].changes);
	printf("\n");
	if (!csv)
		return 0;
	react_csv_row_t r;
	csv_row_lead(&r, csv, cfg, job);
	for (int b = 0; b < cb->ncol; b++) {
		react_csv_row_printf(&r, "%.6f", col[b].base);
		react_csv_row_printf(&r, "%.6f", col[b].react);
		react_csv_row_printf(&r, "%.3f", col[b].impr);
		react_csv_row_printf(&r, "%.3f", col[b].se);
		react_csv_row_printf(&r, "%lld", col[b].changes);
	}
	for (int b = 1; b < cb->ncol; b++) {
		react_csv_row_printf(&r, "%.6f", g[b].ratio_base);
		react_csv_row_printf(&r, "%.6f", g[b].ratio_react);
		react_csv_row_printf(&r, "%d", g[b].sign);
		react_csv_row_printf(&r, "%d", g[b].sig);
	}
	return react_csv_row_end(&r);
}

static void many_summary(const cb_t *cb)
{
	long runs = cb->runs;
	for (int b = 1; b < cb->ncol; b++)
		printf("%s against %s over %ld run%s: algbw within %.0f%% %ld, same sign of improvement "
		       "%ld, same significant sign %ld\n", cb->name[b], cb->name[0], runs,
		       runs == 1 ? "" : "s", cb->tol * 100, cb->count[b].bw, cb->count[b].sign,
		       cb->count[b].sig);
}

static const cb_format_t many_format = {many_header, many_row, many_summary};

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
	cb_t cb = {.s = s, .path = path, .only = only, .tol = tol, .deadband = deadband, .csv = csv,
	           .csv_name = csv_tmp, .pg = &pg};
	if (nb) {
		cb.fmt = &many_format;
		cb.ncol = nb;
		for (int b = 0; b < nb; b++) {
			cb.name[b] = bes[b]->name;
			cb.be[b] = bes[b];
		}
	} else {
		/* the flow-level backend against ns-3, run here or from --ns3-from */
		cb.fmt = &pair_format;
		cb.ncol = 2;
		cb.name[0] = fluid->name;
		cb.be[0] = fluid;
		cb.name[1] = "ns3";
		cb.be[1] = stored ? NULL : react_cli_backend("ns3");
		cb.stored = stored;
		cb.nstored = nstored;
		cb.stored_path = ns3_from;
	}
	pg.n = only >= 0 ? 1 : n;
	cli_progress_start(&pg.line, "react compare-backends", (int64_t)pg.n * PROG_PER_CONFIG, every,
	                   quiet);
	rc = compare(&cb);
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
