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

/* ---- compare-backends: the two command lines' formats ----
 *
 * --backends and --fluid print the same numbers in two layouts that
 * scripts/validate.sh and earlier --csv files depend on.  Every row is
 * taken apart and put together again with the layout written out here
 * (widths, precisions, separators, the key always quoted in the CSV), so
 * any drift of either layout fails, whatever the simulators' numbers are;
 * the numbers of one backend are the same under both command lines. */

/* Split a CSV line (no line end) into at most max fields in place;
 * quoted[i]: field i was in double quotes. */
static int split_csv(char *line, char **f, int *quoted, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		cr_assert_lt(n, max, "too many fields");
		quoted[n] = *p == '"';
		if (quoted[n]) {
			char *w = ++p;
			f[n] = w;
			for (; *p && !(*p == '"' && p[1] != '"'); p++) {
				if (*p == '"')
					p++;
				*w++ = *p;
			}
			cr_assert_eq(*p, '"', "unterminated quote");
			*w = 0;
			p++;
			cr_assert(*p == ',' || !*p, "text after a closing quote");
		} else {
			f[n] = p;
			p += strcspn(p, ",");
		}
		n++;
		if (!*p)
			return n;
		*p++ = 0;
	}
}

/* Field v of column `col` has the layout kind k: '6' / '3' a number with 6
 * / 3 decimals, 'd' an integer, 's' a plain word, 'q' quoted text, 'e'
 * empty. */
static void check_field(const char *v, int quoted, char k, const char *col)
{
	char again[64];
	switch (k) {
	case '6':
	case '3':
		snprintf(again, sizeof again, k == '6' ? "%.6f" : "%.3f", strtod(v, NULL));
		cr_expect_str_eq(v, again, "column %s: '%s', expected %c decimals", col, v, k);
		break;
	case 'd':
		snprintf(again, sizeof again, "%lld", strtoll(v, NULL, 10));
		cr_expect_str_eq(v, again, "column %s: '%s', expected an integer", col, v);
		break;
	case 'q':
		cr_expect(quoted, "column %s: '%s' not quoted", col, v);
		break;
	case 's':
		cr_expect(!quoted && v[0], "column %s: '%s', expected a plain word", col, v);
		break;
	default:
		cr_expect(!quoted && !v[0], "column %s: '%s', expected empty", col, v);
	}
}

enum { CB_ROWS = 4, CB_MAXF = 40 };

/* A --csv: its header, then CB_ROWS rows, each checked against the kinds
 * (one letter per column, as check_field); the fields of row r go to
 * f[r] (pointing into text, which the caller frees). */
static char *read_cb_csv(const char *path, const char *header, const char *kinds,
                         char *f[CB_ROWS][CB_MAXF])
{
	char *text = slurp(path), *save = NULL, *hdr[CB_MAXF];
	int q[CB_MAXF];
	char *line = strtok_r(text, "\n", &save);
	cr_assert(line && !strcmp(line, header), "%s: header\n%s\nexpected\n%s", path,
	          line ? line : "", header);
	char hcopy[1024];
	snprintf(hcopy, sizeof hcopy, "%s", header);
	int nh = split_csv(hcopy, hdr, q, CB_MAXF);
	cr_assert_eq(nh, (int)strlen(kinds), "%s: %d columns", path, nh);
	for (int r = 0; r < CB_ROWS; r++) {
		cr_assert_not_null(line = strtok_r(NULL, "\n", &save), "%s: row %d missing", path, r);
		cr_assert_eq(split_csv(line, f[r], q, CB_MAXF), nh, "%s: row %d: field count", path, r);
		for (int i = 0; i < nh; i++)
			check_field(f[r][i], q[i], kinds[i], hdr[i]);
	}
	cr_assert_null(strtok_r(NULL, "\n", &save), "%s: an extra row", path);
	return text;
}

/* Line k (from 0) of file text, without its newline, into out. */
static void nth_line(const char *text, int k, char *out, size_t n)
{
	for (; k > 0 && text; k--)
		if ((text = strchr(text, '\n')))
			text++;
	cr_assert(text && *text, "line %d missing", k);
	size_t len = strcspn(text, "\n");
	cr_assert_lt(len, n);
	memcpy(out, text, len);
	out[len] = 0;
}

/* Text of width w from column `at` of line, trailing blanks dropped. */
static void cut(const char *line, size_t at, size_t w, char *out)
{
	cr_assert_geq(strlen(line), at + w, "short line: %s", line);
	memcpy(out, line + at, w);
	out[w] = 0;
	for (size_t i = w; i > 0 && out[i - 1] == ' '; i--)
		out[i - 1] = 0;
}

/* |a - b| within what printing at `decimals` (and the CSV's own rounding)
 * can move a number. */
static void expect_near(double printed, const char *csv, int decimals, const char *what)
{
	double d = fabs(printed - strtod(csv, NULL)), tol = 0.5 * pow(10, -decimals) + 5e-4;
	cr_expect_leq(d, tol, "%s: stdout %g, csv %s", what, printed, csv);
}

Test(compare_backends, both_command_lines_exact_layout, .timeout = 120)
{
	char w[4096], ns3se[PATH_LEN], ns3[PATH_LEN], line[1024], want[PATH_LEN + 256];
	char mcsv[4400], pcsv[4400], ncsv[4400], mout[4400], pout[4400], nout[4400];
	workdir("cb-layout", w, sizeof w);
	put_ns3(w, g_nse, ns3);
	snprintf(ns3se, sizeof ns3se, "%s/ns3-se.csv", w);
	sh("mv '%s' '%s'", ns3, ns3se);
	put_ns3(w, NULL, ns3);
#define CB_SETS "--set", "jobs.0.epochs=12", "--set", "jobs.0.warmup=2", "--set", "jobs.0.message=1MB"
	snprintf(mcsv, sizeof mcsv, "%s/many.csv", w);
	snprintf(pcsv, sizeof pcsv, "%s/pair.csv", w);
	snprintf(ncsv, sizeof ncsv, "%s/pair-nose.csv", w);
	snprintf(mout, sizeof mout, "%s/many.txt", w);
	snprintf(pout, sizeof pout, "%s/pair.txt", w);
	snprintf(nout, sizeof nout, "%s/pair-nose.txt", w);
	cr_assert_eq(react("compare-backends", VAL, "--backends", "dctcp,flow", CB_SETS, "--csv", mcsv,
	                   "--quiet", NULL), 0, "%s", slurp(g_err));
	sh("cp '%s' '%s'", g_out, mout);
	cr_assert_eq(react("compare-backends", VAL, "--fluid", "dctcp", CB_SETS, "--ns3-from", ns3se,
	                   "--csv", pcsv, "--quiet", NULL), 0, "%s", slurp(g_err));
	sh("cp '%s' '%s'", g_out, pout);
	cr_assert_eq(react("compare-backends", VAL, "--fluid", "dctcp", CB_SETS, "--ns3-from", ns3,
	                   "--csv", ncsv, "--quiet", NULL), 0, "%s", slurp(g_err));
	sh("cp '%s' '%s'", g_out, nout);
#undef CB_SETS

	/* the CSVs: headers, and every field in its layout */
	char *mf[CB_ROWS][CB_MAXF], *pf[CB_ROWS][CB_MAXF], *nf[CB_ROWS][CB_MAXF];
	char *mt = read_cb_csv(mcsv, "config,key,job,dctcp_base_gbps,dctcp_react_gbps,dctcp_impr_pct,"
	                       "dctcp_impr_se_pct,dctcp_changes,flow_base_gbps,flow_react_gbps,"
	                       "flow_impr_pct,flow_impr_se_pct,flow_changes,flow_ratio_base,"
	                       "flow_ratio_react,flow_sign_agree,flow_sig_sign_agree",
	                       "sqs6633d6633d66dd", mf);
	static const char pair_hdr[] =
		"config,key,job,flow_base_gbps,flow_react_gbps,flow_impr_pct,flow_changes,ns3_base_gbps,"
		"ns3_react_gbps,ns3_impr_pct,ns3_changes,ratio_base,ratio_react,algbw_agree,sign_agree,"
		"fluid,flow_impr_se_pct,ns3_impr_se_pct,sig_sign_agree";
	char *pt = read_cb_csv(pcsv, pair_hdr, "sqs663d663d66dds33d", pf);
	char *nt = read_cb_csv(ncsv, pair_hdr, "sqs663d663d66dds3ee", nf);
	static const char *const key[CB_ROWS] = {"seed=1 p=2", "seed=1 p=4", "seed=2 p=2",
	                                         "seed=2 p=4"};
	for (int r = 0; r < CB_ROWS; r++) {
		char id[8];
		snprintf(id, sizeof id, "c%04d", r);
		for (int k = 0; k < 3; k++) {
			char *const *f = k == 0 ? mf[r] : k == 1 ? pf[r] : nf[r];
			cr_expect(!strcmp(f[0], id) && !strcmp(f[1], key[r]) && !strcmp(f[2], "tree"),
			          "row %d: %s,%s,%s", r, f[0], f[1], f[2]);
		}
		/* one backend, the same numbers under both command lines: the
		 * --fluid run's flow_* columns are --backends' dctcp_* columns */
		static const int pcol[5] = {3, 4, 5, 16, 6}, mcol[5] = {3, 4, 5, 6, 7};
		for (int i = 0; i < 5; i++) {
			cr_expect_str_eq(pf[r][pcol[i]], mf[r][mcol[i]], "row %d column %d", r, pcol[i]);
			cr_expect_str_eq(nf[r][pcol[i]], mf[r][mcol[i]], "row %d column %d", r, pcol[i]);
		}
		cr_expect_str_eq(pf[r][15], "dctcp");
		/* the ns-3 side is the stored one */
		char nb[32], nr[32], ni[32], nc[8], ns[32];
		snprintf(nb, sizeof nb, "%.6f", 1.0);
		snprintf(nr, sizeof nr, "%.6f", 1 + g_nimpr[r] / 100);
		snprintf(ni, sizeof ni, "%.3f", g_nimpr[r]);
		snprintf(nc, sizeof nc, "%d", r);
		snprintf(ns, sizeof ns, "%.3f", g_nse[r]);
		cr_expect(!strcmp(pf[r][7], nb) && !strcmp(pf[r][8], nr) && !strcmp(pf[r][9], ni) &&
		          !strcmp(pf[r][10], nc) && !strcmp(pf[r][17], ns),
		          "row %d: ns-3 side %s %s %s %s %s", r, pf[r][7], pf[r][8], pf[r][9], pf[r][10],
		          pf[r][17]);
	}

	/* --fluid stdout: the header, then each row rebuilt in the layout */
	char *text = slurp(pout);
	nth_line(text, 0, line, sizeof line);
	snprintf(want, sizeof want, "scenario v-star-tree-ext: 4 configurations, dctcp vs ns3 (from "
	         "%s) (algbw in GB/s, mean after warm-up)", ns3se);
	cr_expect_str_eq(line, want);
	nth_line(text, 1, line, sizeof line);
	cr_expect_str_eq(line, "config key                          job      |   f.base  f.react "
	                       "f.impr% f.ch |   n.base  n.react n.impr% n.ch | r.base r.react agree");
	long bw = 0, sign = 0, both = 0, sig = 0;
	for (int r = 0; r < CB_ROWS; r++) {
		char id[8], k[32], job[16], verdict[32];
		double v[10];
		long long ch[2];
		nth_line(text, 2 + r, line, sizeof line);
		cut(line, 0, 6, id);
		cut(line, 7, 28, k);
		cut(line, 36, 8, job);
		cr_assert_eq(sscanf(line + 44, " | %lf %lf %lf %lld | %lf %lf %lf %lld | %lf %lf %31s",
		                    &v[0], &v[1], &v[2], &ch[0], &v[3], &v[4], &v[5], &ch[1], &v[6],
		                    &v[7], verdict), 11, "%s", line);
		snprintf(want, sizeof want, "%-6s %-28.28s %-8.8s | %8.3f %8.3f %+7.1f %4lld | %8.3f "
		         "%8.3f %+7.1f %4lld | %6.3f %6.3f %s", id, k, job, v[0], v[1], v[2], ch[0], v[3],
		         v[4], v[5], ch[1], v[6], v[7], verdict);
		cr_expect_str_eq(line, want);
		cr_expect(!strcmp(id, pf[r][0]) && !strcmp(k, pf[r][1]) && !strcmp(job, pf[r][2]),
		          "%s", line);
		static const int col[8] = {3, 4, 5, 7, 8, 9, 11, 12}, dec[8] = {3, 3, 1, 3, 3, 1, 3, 3};
		for (int i = 0; i < 8; i++)
			expect_near(v[i], pf[r][col[i]], dec[i], line);
		cr_expect(ch[0] == atoll(pf[r][6]) && ch[1] == atoll(pf[r][10]), "%s", line);
		int b = atoi(pf[r][13]), s = atoi(pf[r][14]), g = atoi(pf[r][18]);
		snprintf(want, sizeof want, "%s%s%s", b ? "bw" : "--", s ? "+sign" : "-sign",
		         g ? "+sig" : "-sig");
		cr_expect_str_eq(verdict, want, "%s", line);
		bw += b;
		sign += s;
		both += b && s;
		sig += g;
	}
	nth_line(text, 6, line, sizeof line);
	snprintf(want, sizeof want, "agreement over 4 runs: algbw within 15%% %ld (%.0f%%), same sign "
	         "of improvement %ld (%.0f%%), both %ld (%.0f%%)", bw, 25.0 * bw, sign, 25.0 * sign,
	         both, 25.0 * both);
	cr_expect_str_eq(line, want);
	nth_line(text, 7, line, sizeof line);
	snprintf(want, sizeof want, "same significant sign (an improvement within 2 standard errors "
	         "counts as zero): %ld of 4 (%.0f%%)", sig, 25.0 * sig);
	cr_expect_str_eq(line, want);
	const char *end = strchr(strstr(text, "same significant"), '\n');
	cr_expect(end && !end[1], "text after the summary:\n%s", text);
	free(text);

	/* without a stored standard error: no significant-sign verdict, no line */
	text = slurp(nout);
	for (int r = 0; r < CB_ROWS; r++) {
		nth_line(text, 2 + r, line, sizeof line);
		size_t n = strlen(line);
		cr_expect(n > 4 && !strcmp(line + n - 4, "sign"), "%s", line);
	}
	nth_line(text, 6, line, sizeof line);
	cr_expect(!strncmp(line, "agreement over 4 runs: ", 23), "%s", line);
	cr_expect_null(strstr(text, "same significant"), "%s", text);
	free(text);

	/* --backends stdout: the header, then each row rebuilt in the layout */
	text = slurp(mout);
	nth_line(text, 0, line, sizeof line);
	cr_expect_str_eq(line, "scenario v-star-tree-ext: 4 configurations, backends dctcp, flow "
	                       "(algbw in GB/s, mean after warm-up; impr% +- its standard error)");
	nth_line(text, 1, line, sizeof line);
	cr_expect_str_eq(line, "config key                      job      | dctcp     base   react   "
	                       "       impr%  ch | flow      base   react          impr%  ch");
	long mbw = 0, msign = 0, msig = 0;
	for (int r = 0; r < CB_ROWS; r++) {
		char id[8], k[32], job[16];
		double v[2][4];
		long long ch[2];
		nth_line(text, 2 + r, line, sizeof line);
		cut(line, 0, 6, id);
		cut(line, 7, 24, k);
		cut(line, 32, 8, job);
		cr_assert_eq(sscanf(line + 40, " | %lf %lf %lf +-%lf %lld | %lf %lf %lf +-%lf %lld",
		                    &v[0][0], &v[0][1], &v[0][2], &v[0][3], &ch[0], &v[1][0], &v[1][1],
		                    &v[1][2], &v[1][3], &ch[1]), 10, "%s", line);
		int n = snprintf(want, sizeof want, "%-6s %-24.24s %-8.8s", id, k, job);
		for (int b = 0; b < 2; b++)
			n += snprintf(want + n, sizeof want - (size_t)n,
			              " | %-6s %7.3f %7.3f %+7.1f +-%4.1f %3lld", "", v[b][0], v[b][1],
			              v[b][2], v[b][3], ch[b]);
		cr_expect_str_eq(line, want);
		cr_expect(!strcmp(id, mf[r][0]) && !strcmp(k, mf[r][1]) && !strcmp(job, mf[r][2]),
		          "%s", line);
		for (int b = 0; b < 2; b++) {
			static const int dec[4] = {3, 3, 1, 1};
			for (int i = 0; i < 4; i++)
				expect_near(v[b][i], mf[r][3 + 5 * b + i], dec[i], line);
			cr_expect_eq(ch[b], atoll(mf[r][7 + 5 * b]), "%s", line);
		}
		double rb = strtod(mf[r][13], NULL), rr = strtod(mf[r][14], NULL);
		mbw += fabs(rb - 1) <= 0.15 && fabs(rr - 1) <= 0.15;
		msign += atoi(mf[r][15]);
		msig += atoi(mf[r][16]);
	}
	nth_line(text, 6, line, sizeof line);
	snprintf(want, sizeof want, "flow against dctcp over 4 runs: algbw within 15%% %ld, same sign "
	         "of improvement %ld, same significant sign %ld", mbw, msign, msig);
	cr_expect_str_eq(line, want);
	end = strchr(strstr(text, "flow against dctcp"), '\n');
	cr_expect(end && !end[1], "text after the summary:\n%s", text);
	free(text);
	free(mt);
	free(pt);
	free(nt);
}
