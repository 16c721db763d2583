/* Progress on stderr of react run and react regress (stderr not a
 * terminal: a plain line every --progress seconds; --quiet: none; stdout
 * unchanged), and the sweep's plots: axis titles from the label table, a
 * legend naming the series' value, error bars whose numbers are the mean
 * and standard error of runs.csv's rows, the p95 and algbw plots of
 * plot.also, the oracle's line, and a message on stderr when no plot is
 * made. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define SRC REACT_SOURCE_DIR
#define QUICK SRC "/scenarios/quickstart.yaml"

static void assert_lacks(const char *path, const char *what)
{
	char *t = slurp(path);
	cr_assert(!strstr(t, what), "%s has '%s':\n%s", path, what, t);
	free(t);
}

static void assert_empty(const char *path)
{
	char *t = slurp(path);
	cr_assert(!t[0], "%s is not empty:\n%s", path, t);
	free(t);
}

/* Lines of path that start with prefix. */
static int count_lines(const char *path, const char *prefix)
{
	char *t = slurp(path), *save = NULL;
	int n = 0;
	for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		n += !strncmp(l, prefix, strlen(prefix));
	free(t);
	return n;
}

Test(progress, run_reports_epochs_on_stderr_not_stdout)
{
	char w[4096], ref[4200], p[4200];
	workdir("progress-run", w, sizeof w);
	snprintf(ref, sizeof ref, "%s/ref.txt", w);
	/* work shorter than the interval: nothing on stderr (an hour, not the
	 * default 5 s, which a loaded machine under the sanitizers can reach) */
	cr_assert_eq(react("run", QUICK, "--progress", "3600", NULL), 0, "%s", slurp(g_err));
	assert_empty(g_err);
	sh("cp '%s' '%s'", g_out, ref);
	/* a line every 0.1 ms: epoch k of n of each run, elapsed, ETA */
	cr_assert_eq(react("run", QUICK, "--progress", "0.0001", NULL), 0, "%s", slurp(g_err));
	assert_same_file(g_out, ref);
	cr_assert_gt(count_lines(g_err, "react run: react epoch "), 1, "%s", slurp(g_err));
	assert_contains(g_err, " of 60 (");
	assert_contains(g_err, "% of the run), elapsed ");
	assert_contains(g_err, ", ETA ");
	assert_lacks(g_err, "\r");
	/* the same with -o: the hook goes through the run directory's writer */
	snprintf(p, sizeof p, "%s/out", w);
	cr_assert_eq(react("run", QUICK, "--progress", "0.0001", "-o", p, NULL), 0, "%s",
	             slurp(g_err));
	cr_assert_gt(count_lines(g_err, "react run: react epoch "), 1, "%s", slurp(g_err));
	/* --quiet: none */
	cr_assert_eq(react("run", QUICK, "--progress", "0.0001", "--quiet", NULL), 0);
	assert_empty(g_err);
	assert_same_file(g_out, ref);
	cr_assert_eq(react("run", QUICK, "--progress", "soon", NULL), 2);
	assert_contains(g_err, "react run: --progress: expected seconds >= 0, got 'soon'");
}

Test(progress, regress_reports_configurations)
{
	char w[4096], dir[4200], stored[4200];
	workdir("progress-regress", w, sizeof w);
	snprintf(dir, sizeof dir, "%s/set", w);
	snprintf(stored, sizeof stored, "%s/stored", w);
	sh("mkdir -p '%s' && cp '%s/scenarios/regress/tree-fattree.yaml' "
	   "'%s/scenarios/regress/degraded-recdbl.yaml' '%s/'", dir, SRC, SRC, dir);
	cr_assert_eq(react("regress", dir, "--stored", stored, "--update", "--quiet", NULL), 0, "%s",
	             slurp(g_err));
	assert_empty(g_err);
	cr_assert_eq(react("regress", dir, "--stored", stored, "--progress", "0.0001", NULL), 0,
	             "%s", slurp(g_err));
	assert_contains(g_out, "regress-tree-fattree: 4 configurations, identical");
	/* 2 + 4 configurations, counted over both scenarios */
	cr_assert_gt(count_lines(g_err, "react regress: "), 1, "%s", slurp(g_err));
	assert_contains(g_err, " of 6 configurations done (regress-tree-fattree: ");
	assert_lacks(g_out, "configurations done");
}

/* A sweep of x = congested_pairs, series p, three seeds. */
static void sweep_small(const char *w, const char *also, char *out, size_t n)
{
	char f[4200];
	snprintf(f, sizeof f, "%s/small.yaml", w);
	snprintf(out, n, "%s/out", w);
	sh("printf '%%s\\n' 'name: small' 'seed: 1..3' 'topology: {type: fattree, k: 4}' 'jobs:' "
	   "'  - {name: tree, ranks: 8, algorithm: tree, message: 2MB, epochs: 20, warmup: 5}' "
	   "'congestion:' '  external: {congested_pairs: [1, 2], p: [1, 2]}' "
	   "'plot: {x: congested_pairs, series: p%s}' > '%s'", also, f);
	cr_assert_eq(react("sweep", f, "-o", out, "--quiet", NULL), 0, "%s", slurp(g_err));
}

/* runs.csv's improvement_mean_pct over the rows with this x and p: mean
 * and standard error (sample standard deviation / sqrt(n)). */
static void mean_se_of(const char *runs, const char *x, const char *p, double *mean, double *se)
{
	char *t = slurp(runs), *save = NULL;
	double v[16];
	int n = 0;
	for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		/* id,seed,congested_pairs,p,job,react,b_mean,b_p95,r_mean,r_p95,impr_mean,... */
		char *f[20], *s2 = NULL;
		int k = 0;
		for (char *c = strtok_r(l, ",", &s2); c && k < 20; c = strtok_r(NULL, ",", &s2))
			f[k++] = c;
		if (k > 10 && !strcmp(f[2], x) && !strcmp(f[3], p))
			v[n++] = atof(f[10]);
	}
	free(t);
	cr_assert_eq(n, 3, "expected 3 seeds for x = %s, p = %s", x, p);
	double m = 0, ss = 0;
	for (int i = 0; i < n; i++)
		m += v[i] / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*se = sqrt(ss / (n - 1)) / sqrt(n);
}

Test(plot, labels_legend_error_bars, .timeout = 60)
{
	char w[4096], out[4200], gp[4400], mean[4400], runs[4400];
	workdir("plot-labels", w, sizeof w);
	sweep_small(w, "", out, sizeof out);
	snprintf(gp, sizeof gp, "%s/plot-tree.gp", out);
	assert_contains(gp, "set xlabel 'congested host pairs'");
	assert_contains(gp, "set ylabel 'mean algbw improvement (%)'");
	assert_contains(gp, "title 'p = 1'");
	assert_contains(gp, "title 'p = 2'");
	assert_contains(gp, "with yerrorlines");
	assert_contains(gp, "using ($1-0.100):3:4 with yerrorlines");
	/* the error bars' numbers: mean and standard error of the seeds */
	snprintf(mean, sizeof mean, "%s/plot-tree-mean.dat", out);
	snprintf(runs, sizeof runs, "%s/runs.csv", out);
	const char *xs[] = {"1", "2"}, *ps[] = {"1", "2"};
	char *m = slurp(mean);
	for (int k = 0; k < 2; k++) {
		char *blk = strstr(m, k ? "series 2:" : "series 1:");
		cr_assert(blk, "%s", m);
		for (int x = 0; x < 2; x++) {
			double em, ese, gm, gse;
			unsigned long n;
			char pre[32];
			mean_se_of(runs, xs[x], ps[k], &em, &ese);
			snprintf(pre, sizeof pre, "\n%d %s ", x, xs[x]);
			char *row = strstr(blk, pre);
			cr_assert(row, "no row for x = %s in %s", xs[x], blk);
			cr_assert_eq(sscanf(row + strlen(pre), "%lf %lf %lu", &gm, &gse, &n), 3);
			cr_assert_eq(n, 3);
			cr_assert(fabs(gm - em) < 1e-3, "x %s p %s: mean %g, expected %g", xs[x], ps[k], gm,
			          em);
			cr_assert(fabs(gse - ese) < 1e-3 && ese > 0, "x %s p %s: s.e. %g, expected %g",
			          xs[x], ps[k], gse, ese);
		}
	}
	free(m);
	/* no plot.also: no p95 or algbw plot */
	snprintf(gp, sizeof gp, "%s/plot-tree-p95.gp", out);
	cr_assert(access(gp, F_OK) != 0, "%s written without plot.also", gp);
}

Test(plot, also_p95_and_algbw, .timeout = 60)
{
	char w[4096], out[4200], gp[4400], png[4400];
	workdir("plot-also", w, sizeof w);
	sweep_small(w, ", also: [p95, algbw]", out, sizeof out);
	snprintf(gp, sizeof gp, "%s/plot-tree-p95.gp", out);
	assert_contains(gp, "set ylabel 'p95 algbw improvement (%)'");
	assert_contains(gp, "plot-tree-p95-mean.dat");
	snprintf(gp, sizeof gp, "%s/plot-tree-algbw.gp", out);
	assert_contains(gp, "set ylabel 'mean algbw (GB/s)'");
	assert_contains(gp, "title 'REACT, p = 1'");
	assert_contains(gp, "title 'baseline, p = 1'");
	assert_contains(gp, "title 'baseline mean ± s.e., p = 2'");
	snprintf(png, sizeof png, "%s/plot-tree-algbw.png", out);
	cr_assert(access(png, F_OK) == 0 || system("command -v gnuplot >/dev/null") != 0,
	          "no %s", png);
	/* a misspelt plot name is an error naming the field */
	char f[4200];
	snprintf(f, sizeof f, "%s/bad.yaml", w);
	sh("sed 's/also: \\[p95, algbw\\]/also: [p99]/' '%s/small.yaml' > '%s'", w, f);
	cr_assert_eq(react("sweep", f, "-o", out, NULL), 2);
	assert_contains(g_err, "field 'plot.also': expected p95 or algbw, got 'p99'");
}

Test(plot, oracle_line_kept, .timeout = 120)
{
	char w[4096], f[4200], out[4200], gp[4400];
	workdir("plot-oracle", w, sizeof w);
	snprintf(f, sizeof f, "%s/star.yaml", w);
	snprintf(out, sizeof out, "%s/out", w);
	sh("printf '%%s\\n' 'name: star' 'seed: 1..2' 'topology: {type: star, hosts: 8}' 'jobs:' "
	   "'  - {name: t, ranks: 4, algorithm: tree, message: 4MB, epochs: 40, warmup: 10}' "
	   "'congestion:' '  external: {congested_pairs: 1, p: [1, 4]}' "
	   "'plot: {x: p, also: [algbw]}' > '%s'", f);
	cr_assert_eq(react("sweep", f, "-o", out, "--oracle", "--quiet", NULL), 0, "%s",
	             slurp(g_err));
	snprintf(gp, sizeof gp, "%s/plot-t.gp", out);
	assert_contains(gp, "set xlabel 'external flows per host'");
	assert_contains(gp, "title 'oracle mean ± s.e.'");
	assert_contains(gp, "REACT and the oracle vs baseline");
	snprintf(gp, sizeof gp, "%s/plot-t-algbw.gp", out);
	assert_contains(gp, "title 'oracle mean ± s.e.'");
}

Test(plot, says_why_no_plot_is_made, .timeout = 60)
{
	char w[4096], f[4200], out[4200];
	workdir("plot-none", w, sizeof w);
	snprintf(f, sizeof f, "%s/seeds.yaml", w);
	snprintf(out, sizeof out, "%s/out", w);
	/* nothing swept but the seed: nothing to plot against */
	sh("printf '%%s\\n' 'name: seeds' 'seed: 1..2' 'topology: {type: star, hosts: 8}' 'jobs:' "
	   "'  - {name: t, ranks: 4, algorithm: tree, message: 4MB, epochs: 10, warmup: 2}' "
	   "'congestion:' '  external: {congested_pairs: 1, p: 2}' > '%s'", f);
	cr_assert_eq(react("sweep", f, "-o", out, "--quiet", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_err, "react sweep: no plot: the scenario sweeps no field to plot against");
	/* no gnuplot on PATH: the scripts are written, stderr says so */
	sh("sed 's/ p: 2}/ p: [1, 2]}/' '%s' > '%s/p.yaml'", f, w);
	snprintf(f, sizeof f, "%s/p.yaml", w);
	snprintf(out, sizeof out, "%s/out-p", w);
	setenv("PATH", "/nonexistent", 1);
	int rc = react("sweep", f, "-o", out, "--quiet", NULL);
	cr_assert_eq(rc, 0, "%s", slurp(g_err));
	assert_contains(g_err, "react sweep: no plot images: gnuplot is not installed");
	char gp[4400];
	snprintf(gp, sizeof gp, "%s/plot-t.gp", out);
	assert_contains(gp, "set xlabel 'external flows per host'");
}
