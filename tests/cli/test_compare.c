/* The numbers of react compare and react compare-backends, checked against
 * values worked out independently: two hand-made per-epoch files whose
 * means, p95s and ratios are computed below, and a compare-backends run
 * whose standard errors and significant-sign verdicts are recomputed from
 * the per-epoch times that react run writes for the same configurations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define SRC REACT_SOURCE_DIR

/* Write text to dir/name; the path goes to path (PATH_LEN bytes). */
enum { PATH_LEN = 4400 };
static void put_file(const char *dir, const char *name, const char *text, char *path)
{
	snprintf(path, PATH_LEN, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fputs(text, f) >= 0 && fclose(f) == 0, 1, "%s", path);
}

/* Two files, two runs each (baseline and react of job tree), message 8 MB:
 *   A baseline: 1, 2, 3, 4 ms (8, 4, 2.667, 2 GB/s), one change (epoch 1)
 *   B baseline: 2, 2, 2, 6 ms (4, 4, 4, 1.333 GB/s), two changes
 *   A react:    1, 1, 1, 1 ms          B react: 2 ms at epochs 0..4
 * By hand: A baseline mean 2.5 ms, p95 (linear between order statistics,
 * position 0.95 x 3 = 2.85) 3 + 0.85 x 1 = 3.85 ms, mean algbw
 * (8 + 4 + 2.667 + 2) / 4 = 4.167 GB/s, p95 algbw 8 MB / 3.85 ms = 2.078;
 * B baseline 3.0 ms, 2 + 0.85 x 4 = 5.4 ms, 3.333 GB/s, 8 MB / 5.4 ms =
 * 1.481; B/A 1.200, 1.403, 0.800, 0.713.  react: A 1 ms, 8 GB/s; B 2 ms,
 * 4 GB/s; B/A 2, 2, 0.5, 0.5. */
Test(compare, two_known_files)
{
	char w[4096], a[PATH_LEN], b[PATH_LEN];
	workdir("compare-known", w, sizeof w);
	put_file(w, "a.csv",
	         "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed\n"
	         "baseline,tree,0,0,0.001,8,a,0\nbaseline,tree,1,0.001,0.002,4,b,1\n"
	         "baseline,tree,2,0.003,0.003,2.666667,b,0\nbaseline,tree,3,0.006,0.004,2,b,0\n"
	         "react,tree,0,0,0.001,8,a,0\nreact,tree,1,0.001,0.001,8,a,0\n"
	         "react,tree,2,0.002,0.001,8,a,0\nreact,tree,3,0.003,0.001,8,a,0\n", a);
	put_file(w, "b.csv",
	         "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed\n"
	         "baseline,tree,0,0,0.002,4,a,0\nbaseline,tree,1,0.002,0.002,4,a,0\n"
	         "baseline,tree,2,0.004,0.002,4,c,1\nbaseline,tree,3,0.006,0.006,1.333333,d,1\n"
	         "react,tree,0,0,0.002,4,a,0\nreact,tree,1,0.002,0.002,4,a,0\n"
	         "react,tree,2,0.004,0.002,4,a,0\nreact,tree,3,0.006,0.002,4,a,0\n"
	         "react,tree,4,0.008,0.002,4,a,0\n", b);
	cr_assert_eq(react("compare", a, b, NULL), 0, "%s", slurp(g_err));
	char *out = slurp(g_out);
	/* baseline: per epoch, then the summary */
	const char *base = strstr(out, "A baseline/tree vs B baseline/tree\n");
	const char *rx = strstr(out, "A react/tree vs B react/tree\n");
	cr_assert(base && rx && base < rx, "%s", out);
	const char *want_base[] = {
		"     0      1.0000       2.0000     2.000\n",
		"     1      2.0000*      2.0000     1.000\n",
		"     2      3.0000       2.0000*    0.667\n",
		"     3      4.0000       6.0000*    1.500\n",
		"  A          4     2.5000     3.8500      4.167      2.078        1\n",
		"  B          4     3.0000     5.4000      3.333      1.481        2\n",
		"  B/A               1.200      1.403      0.800      0.713\n",
	};
	for (size_t i = 0; i < sizeof want_base / sizeof *want_base; i++) {
		const char *at = strstr(base, want_base[i]);
		cr_expect(at && at < rx, "baseline lacks '%s':\n%s", want_base[i], out);
	}
	/* react: matched by mode, B's extra epoch shown alone */
	const char *want_react[] = {
		"     3      1.0000       2.0000     2.000\n",
		"     4            -      2.0000 \n",
		"  A          4     1.0000     1.0000      8.000      8.000        0\n",
		"  B          5     2.0000     2.0000      4.000      4.000        0\n",
		"  B/A               2.000      2.000      0.500      0.500\n",
	};
	for (size_t i = 0; i < sizeof want_react / sizeof *want_react; i++)
		cr_expect(strstr(rx, want_react[i]), "react lacks '%s':\n%s", want_react[i], out);
	free(out);
	/* --mode baseline --summary: only that pair's summary; swapping the files
	 * inverts every ratio */
	cr_assert_eq(react("compare", b, a, "--summary", "--mode", "baseline", NULL), 0);
	out = slurp(g_out);
	cr_expect(!strstr(out, "react/tree") && !strstr(out, " epoch "), "%s", out);
	cr_expect(strstr(out, "  A          4     3.0000     5.4000      3.333      1.481        2\n"),
	          "%s", out);
	cr_expect(strstr(out, "  B/A               0.833      0.713      1.250      1.403\n"), "%s",
	          out);
	free(out);
}

/* ---- compare-backends ---- */

#define VAL SRC "/scenarios/validation/v-star-tree-ext.yaml"
#define WARMUP 2
#define MSG_BYTES 1e6 /* jobs.0.message=1MB */

static char g_cb_out[4400]; /* compare-backends' stdout, kept apart from later runs */

/* The ns-3 side of the scenario's four configurations, as an earlier --csv
 * would have it: improvement and (when se != NULL) its standard error. */
static const double g_nimpr[4] = {10.0, 0.0, -20.0, 3.0}, g_nse[4] = {1.0, 0.5, 2.0, 2.0};
static void put_ns3(const char *dir, const double *se, char *path)
{
	static const char *const key[4] = {"seed=1 p=2", "seed=1 p=4", "seed=2 p=2", "seed=2 p=4"};
	char text[1024];
	int n = snprintf(text, sizeof text, "config,key,job,ns3_base_gbps,ns3_react_gbps,"
	                 "ns3_impr_pct,ns3_changes%s\n", se ? ",ns3_impr_se_pct" : "");
	for (int c = 0; c < 4; c++) {
		n += snprintf(text + n, sizeof text - (size_t)n, "c%04d,\"%s\",tree,1.0,%.4f,%.3f,%d", c,
		              key[c], 1 + g_nimpr[c] / 100, g_nimpr[c], c);
		n += se ? snprintf(text + n, sizeof text - (size_t)n, ",%.3f\n", se[c])
		        : snprintf(text + n, sizeof text - (size_t)n, "\n");
	}
	put_file(dir, "ns3.csv", text, path);
}

/* Mean and standard error of the mean of x[0..n-1], written out here
 * rather than taken from the library under test. */
static void mean_se(const double *x, int n, double *m, double *se)
{
	double s = 0, q = 0;
	for (int i = 0; i < n; i++)
		s += x[i];
	*m = s / n;
	for (int i = 0; i < n; i++)
		q += (x[i] - *m) * (x[i] - *m);
	*se = sqrt(q / (n - 1) / n);
}

static int sgn(double x, double band)
{
	return x > band ? 1 : x < -band ? -1 : 0;
}

/* From epochs.csv of `react run` on configuration c: the improvement of the
 * mean algbw after warm-up (percent) and its standard error, with each
 * epoch's algbw recomputed from time_s. */
static void impr_from_epochs(const char *path, int epochs, double *impr, double *se)
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	char line[512], mode[32];
	double x[2][256];
	int n[2] = {0, 0};
	cr_assert_not_null(fgets(line, sizeof line, f));
	cr_assert_str_eq(line, "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed\n");
	while (fgets(line, sizeof line, f)) {
		long ep;
		double t;
		cr_assert_eq(sscanf(line, "%31[^,],tree,%ld,%*f,%lf,", mode, &ep, &t), 3, "%s", line);
		int k = !strcmp(mode, "react");
		if (ep >= WARMUP && n[k] < 256)
			x[k][n[k]++] = MSG_BYTES / t / 1e9;
	}
	fclose(f);
	cr_assert(n[0] == epochs - WARMUP && n[1] == n[0], "%d and %d epochs", n[0], n[1]);
	double mb, sb, mr, sr;
	mean_se(x[0], n[0], &mb, &sb);
	mean_se(x[1], n[1], &mr, &sr);
	*impr = 100 * (mr / mb - 1);
	*se = 100 * (mr / mb) * sqrt((sb / mb) * (sb / mb) + (sr / mr) * (sr / mr));
}

/* Every configuration of a validation scenario on the DCTCP window model
 * with the ns-3 side from a CSV that carries standard errors, for 8 and 12
 * epochs: each row's flow_impr_pct and flow_impr_se_pct are recomputed from
 * react run's epochs.csv of that configuration, and sig_sign_agree (and the
 * summary line) follow from the two improvements and their standard
 * errors.  The data are chosen so that a constant cannot pass: the
 * verdicts are not all alike, the flow-level improvement is significant
 * in some runs and not in others, and the standard errors all differ. */
Test(compare_backends, standard_errors_and_significant_signs, .timeout = 120)
{
	char w[4096], ns3[PATH_LEN], csvp[4400], d[4400], ep[4600], set_e[64], line[2048];
	const double *nimpr = g_nimpr, *nse = g_nse;
	workdir("cb-se", w, sizeof w);
	put_ns3(w, g_nse, ns3);
	int agree = 0, disagree = 0, flow_sig[2] = {0, 0};
	double ses[8];
	static const int epochs[2] = {8, 12};
	for (int e = 0; e < 2; e++) {
		int rows = 0, agree_here = 0;
		snprintf(set_e, sizeof set_e, "jobs.0.epochs=%d", epochs[e]);
		snprintf(csvp, sizeof csvp, "%s/out-%d.csv", w, epochs[e]);
		snprintf(d, sizeof d, "%s/runs-%d", w, epochs[e]);
		snprintf(g_cb_out, sizeof g_cb_out, "%s/cb-stdout-%d.txt", w, epochs[e]);
		cr_assert_eq(react("compare-backends", VAL, "--fluid", "dctcp", "--set", set_e, "--set",
		                   "jobs.0.warmup=2", "--set", "jobs.0.message=1MB", "--ns3-from", ns3,
		                   "--csv", csvp, NULL),
		             0, "%s", slurp(g_err));
		sh("cp '%s' '%s'", g_out, g_cb_out);
		FILE *f = fopen(csvp, "r");
		cr_assert_not_null(f);
		cr_assert_not_null(fgets(line, sizeof line, f));
		cr_assert_str_eq(line, "config,key,job,flow_base_gbps,flow_react_gbps,flow_impr_pct,"
		                       "flow_changes,ns3_base_gbps,ns3_react_gbps,ns3_impr_pct,ns3_changes,"
		                       "ratio_base,ratio_react,algbw_agree,sign_agree,fluid,flow_impr_se_pct,"
		                       "ns3_impr_se_pct,sig_sign_agree\n");
		for (int c = 0; c < 4; c++) {
			char id[8];
			snprintf(id, sizeof id, "%d", c);
			cr_assert_eq(react("run", VAL, "--config", id, "--backend", "dctcp", "--set", set_e,
			                   "--set", "jobs.0.warmup=2", "--set", "jobs.0.message=1MB", "-o", d,
			                   NULL),
			             0, "%s", slurp(g_err));
			snprintf(ep, sizeof ep, "%s/runs/c%04d/epochs.csv", d, c);
			double fi, fse;
			impr_from_epochs(ep, epochs[e], &fi, &fse);
			cr_assert_not_null(fgets(line, sizeof line, f), "no row for c%04d", c);
			int rc, gsig, gsign;
			double gi, gse, gnse;
			cr_assert_eq(sscanf(line, "c%d,\"%*[^\"]\",tree,%*f,%*f,%lf,%*d,%*f,%*f,%*f,%*d,%*f,"
			                          "%*f,%*d,%d,dctcp,%lf,%lf,%d\n",
			                    &rc, &gi, &gsign, &gse, &gnse, &gsig),
			             6, "%s", line);
			cr_assert_eq(rc, c, "%s", line);
			cr_expect(fabs(gi - fi) < 2e-3, "%d epochs, c%04d: flow_impr_pct %.3f, recomputed "
			          "%.4f", epochs[e], c, gi, fi);
			cr_expect(fabs(gse - fse) < 2e-3, "%d epochs, c%04d: flow_impr_se_pct %.3f, "
			          "recomputed %.4f", epochs[e], c, gse, fse);
			cr_expect(fabs(gnse - nse[c]) < 1e-9, "c%04d: ns3_impr_se_pct %.3f", c, gnse);
			int want = sgn(fi, 2 * fse) == sgn(nimpr[c], 2 * nse[c]);
			cr_expect_eq(gsig, want, "%d epochs, c%04d: flow %+.3f +- %.3f, ns3 %+.3f +- %.3f: "
			             "sig_sign_agree %d, want %d", epochs[e], c, fi, fse, nimpr[c], nse[c],
			             gsig, want);
			cr_expect_eq(gsign, sgn(fi, 2.0) == sgn(nimpr[c], 2.0), "c%04d: sign_agree", c);
			agree_here += want;
			disagree += !want;
			flow_sig[sgn(fi, 2 * fse) != 0]++;
			ses[e * 4 + c] = fse;
			rows++;
		}
		cr_assert_null(fgets(line, sizeof line, f), "an extra row: %s", line);
		fclose(f);
		char want[256];
		snprintf(want, sizeof want, "same significant sign (an improvement within 2 standard "
		         "errors counts as zero): %d of %d (%.0f%%)\n", agree_here, rows,
		         100.0 * agree_here / rows);
		assert_contains(g_cb_out, want);
		agree += agree_here;
	}
	/* the data can tell a constant from the arithmetic */
	cr_assert(agree > 0 && disagree > 0, "%d agree, %d disagree: choose other ns-3 rows", agree,
	          disagree);
	cr_assert(flow_sig[0] > 0 && flow_sig[1] > 0, "flow improvements significant in %d runs, "
	          "not in %d: choose other epochs", flow_sig[1], flow_sig[0]);
	for (int c = 0; c < 8; c++) {
		cr_assert_gt(ses[c], 0.01, "run %d: no epoch-to-epoch variation", c);
		for (int k = 0; k < c; k++)
			cr_assert_gt(fabs(ses[c] - ses[k]), 0.01, "runs %d and %d: the same error", k, c);
	}
}

/* Progress on stderr (not a terminal here): plain lines naming the
 * configuration, the backend, the run and its epoch, with elapsed time and
 * ETA; stdout is the same with and without them; --quiet prints nothing. */
Test(compare_backends, progress_on_stderr_only, .timeout = 120)
{
	char w[4096], ns3[PATH_LEN], quiet_out[4400], prog_out[4400], line[512];
	workdir("cb-progress", w, sizeof w);
	put_ns3(w, NULL, ns3);
	snprintf(quiet_out, sizeof quiet_out, "%s/quiet.txt", w);
	snprintf(prog_out, sizeof prog_out, "%s/progress.txt", w);
	cr_assert_eq(react("compare-backends", VAL, "--fluid", "dctcp", "--set", "jobs.0.epochs=30",
	                   "--set", "jobs.0.message=1MB", "--ns3-from", ns3, "--quiet", NULL),
	             0, "%s", slurp(g_err));
	sh("cp '%s' '%s'", g_out, quiet_out);
	char *err = slurp(g_err);
	cr_assert_str_eq(err, "", "--quiet printed progress");
	free(err);
	cr_assert_eq(react("compare-backends", VAL, "--fluid", "dctcp", "--set", "jobs.0.epochs=30",
	                   "--set", "jobs.0.message=1MB", "--ns3-from", ns3, "--progress", "0.0001",
	                   NULL),
	             0, "%s", slurp(g_err));
	sh("cp '%s' '%s'", g_out, prog_out);
	assert_same_file(quiet_out, prog_out);
	FILE *f = fopen(g_err, "r");
	cr_assert_not_null(f);
	int lines = 0, seen[4] = {0};
	while (fgets(line, sizeof line, f)) {
		int i, n, ep, of;
		char id[8], run[16];
		cr_assert_eq(sscanf(line, "react compare-backends: configuration %d of %d (%7[^)]), dctcp "
		                          "%15s epoch %d of %d, elapsed ",
		                    &i, &n, id, run, &ep, &of),
		             6, "not a progress line: %s", line);
		cr_assert(i >= 1 && i <= 4 && n == 4 && ep >= 1 && ep <= 30 && of == 30, "%s", line);
		char want_id[16];
		snprintf(want_id, sizeof want_id, "c%04d", i - 1);
		cr_assert_str_eq(id, want_id, "%s", line);
		cr_assert(!strcmp(run, "baseline") || !strcmp(run, "react"), "%s", line);
		cr_assert(strstr(line, ", ETA ") && line[strlen(line) - 1] == '\n', "%s", line);
		seen[i - 1] = 1;
		lines++;
	}
	fclose(f);
	cr_assert_gt(lines, 0, "no progress line");
	cr_assert(seen[0] && seen[3], "progress of configurations 1 and 4 missing");
	/* the default (a line every 5 s) leaves this short run's stdout alone too */
	cr_assert_eq(react("compare-backends", VAL, "--fluid", "dctcp", "--set", "jobs.0.epochs=30",
	                   "--set", "jobs.0.message=1MB", "--ns3-from", ns3, NULL), 0);
	assert_same_file(quiet_out, g_out);
	cr_assert_eq(react("compare-backends", VAL, "--ns3-from", ns3, "--progress", "soon", NULL), 2);
	assert_contains(g_err, "react compare-backends: --progress: expected a number >= 0, got 'soon'");
}
