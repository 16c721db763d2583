/* End-to-end runs of react oracle and react sweep --oracle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cli/e2e.h" /* react(), workdir(), slurp(), sh(), assert_contains(), ... */

/* A 4-rank tree AllReduce on a star whose external flows leave one job host. */
static void write_star(const char *path, const char *seeds)
{
	sh("printf '%%s\\n' 'seed: %s' 'topology: {type: star, hosts: 8}' 'jobs:' "
	   "'  - {name: t, ranks: 4, algorithm: tree, message: 4MB, epochs: 60, warmup: 20}' "
	   "'congestion:' '  external: {congested_pairs: 1, p: 4}' > '%s'", seeds, path);
}

/* The number after `label` at the start of a line of text ("  oracle  1.23"). */
static double number_after(const char *text, const char *label)
{
	char key[64];
	snprintf(key, sizeof key, "\n  %s ", label);
	const char *p = strstr(text, key);
	cr_assert(p, "no line '%s' in:\n%s", label, text);
	return strtod(p + strlen(key), NULL);
}

Test(oracle_e2e, oracle_command)
{
	char w[4096], f[4200], d[4200], p[4400];
	workdir("oracle-cmd", w, sizeof w);
	snprintf(f, sizeof f, "%s/star.yaml", w);
	snprintf(d, sizeof d, "%s/out", w);
	write_star(f, "3");
	cr_assert_eq(react("oracle", f, "-o", d, "--quiet", NULL), 0, "%s", slurp(g_err));
	char *t = slurp(g_out);
	double b = number_after(t, "baseline"), r = number_after(t, "react"),
	       o = number_after(t, "oracle");
	cr_assert_gt(b, 0);
	cr_assert_geq(o, b, "oracle %g below baseline %g", o, b);
	cr_assert_geq(o, r, "oracle %g below react %g", o, r);
	cr_assert_gt(o, b * 1.01, "the congested host should cost something here:\n%s", t);
	cr_assert(strstr(t, "\n  captured "), "%s", t);
	cr_assert(strstr(t, "oracle search: 24 permutations"), "%s", t);
	free(t);
	snprintf(p, sizeof p, "%s/oracle.csv", d);
	assert_contains(p, "fingerprint,job,react,baseline_mean_gbps,oracle_mean_gbps");
	snprintf(p, sizeof p, "%s/oracle-t.json", d);
	cr_assert_eq(react("verify", p, NULL), 0, "%s", slurp(g_out));
	/* the stored result is reused, with the same numbers */
	cr_assert_eq(react("oracle", f, "-o", d, "--quiet", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "stored result reused");
	char *t2 = slurp(g_out);
	cr_assert_eq(number_after(t2, "oracle"), o);
	free(t2);
	cr_assert_eq(react("oracle", "--help", NULL), 0);
	assert_contains(g_out, "usage: react oracle");
	cr_assert_eq(react("--help", NULL), 0);
	assert_contains(g_out, "oracle");
}

Test(oracle_e2e, oracle_bad_input)
{
	char w[4096], f[4200];
	workdir("oracle-bad", w, sizeof w);
	snprintf(f, sizeof f, "%s/star.yaml", w);
	write_star(f, "1..2");
	cr_assert_eq(react("oracle", f, "--config", "2", NULL), 2);
	assert_contains(g_err, "--config 2: expected 0..1");
	cr_assert_eq(react("oracle", f, "--config", "x", NULL), 2);
	assert_contains(g_err, "--config expects an integer");
	cr_assert_eq(react("oracle", f, "--oracle-opt", "keep=0", NULL), 2);
	assert_contains(g_err, "oracle option 'keep'");
	cr_assert_eq(react("oracle", f, "--oracle-opt", "nonsense", NULL), 2);
	assert_contains(g_err, "--oracle-opt expects KEY=VALUE");
	cr_assert_eq(react("oracle", f, "--frobnicate", NULL), 2);
	assert_contains(g_err, "unexpected argument '--frobnicate'");
	cr_assert_eq(react("oracle", NULL), 2);
	snprintf(f, sizeof f, "%s/missing.yaml", w);
	cr_assert_eq(react("oracle", f, NULL), 2);
	assert_contains(g_err, "missing.yaml");
	cr_assert_eq(react("sweep", f, "--oracle-opt", "keep", NULL), 2);
}

Test(oracle_e2e, sweep_with_oracle)
{
	char w[4096], f[4200], d1[4200], d2[4200], d3[4200], d4[4200], c[4200], a[4400], b[4400];
	workdir("oracle-sweep", w, sizeof w);
	snprintf(f, sizeof f, "%s/star.yaml", w);
	write_star(f, "1..2");
	snprintf(d1, sizeof d1, "%s/j1", w);
	snprintf(d2, sizeof d2, "%s/j2", w);
	snprintf(d3, sizeof d3, "%s/plain", w);
	snprintf(d4, sizeof d4, "%s/fresh", w);
	snprintf(c, sizeof c, "%s/cache", w);
	cr_assert_eq(react("sweep", f, "-o", d1, "--oracle", "--no-plot", "--oracle-cache", c, NULL),
	             0, "%s", slurp(g_err));
	assert_contains(g_err, "oracle results stored for 0 of the 2 configurations to run, 2 to search");
	snprintf(a, sizeof a, "%s/runs.csv", d1);
	assert_contains(a, ",batches,oracle_mean_gbps,oracle_impr_pct,captured\n");
	snprintf(a, sizeof a, "%s/runs/c0001/summary.csv", d1);
	assert_contains(a, ",oracle_mean_gbps,oracle_impr_pct,captured\n");
	/* -j 2 gives the same files */
	cr_assert_eq(react("sweep", f, "-o", d2, "--oracle", "--no-plot", "-j", "2", NULL), 0, "%s",
	             slurp(g_err));
	const char *files[] = {"summary.csv", "oracle.csv", "oracle-t.json", "epochs.csv"};
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++) {
			snprintf(a, sizeof a, "%s/runs/c%04d/%s", d1, i, files[k]);
			snprintf(b, sizeof b, "%s/runs/c%04d/%s", d2, i, files[k]);
			assert_same_file(a, b);
		}
	/* resume: nothing to do */
	cr_assert_eq(react("sweep", f, "-o", d1, "--oracle", "--no-plot", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "0 run now, 2 already done");
	/* without --oracle: runs.csv exactly as from a sweep that never ran it */
	cr_assert_eq(react("sweep", f, "-o", d1, "--no-plot", NULL), 0, "%s", slurp(g_err));
	cr_assert_eq(react("sweep", f, "-o", d3, "--no-plot", NULL), 0, "%s", slurp(g_err));
	snprintf(a, sizeof a, "%s/runs.csv", d1);
	snprintf(b, sizeof b, "%s/runs.csv", d3);
	assert_same_file(a, b);
	/* a controller parameter changes: baseline and REACT rerun, the oracle is reused */
	cr_assert_eq(react("sweep", f, "-o", d1, "--oracle", "--no-plot", "--set", "params.B=4",
	                   NULL), 0, "%s", slurp(g_err));
	assert_contains(g_err, "oracle results stored for 2 of the 2 configurations to run, 0 to search");
	assert_contains(g_out, "2 run now, 0 already done");
	/* the oracle added to a finished sweep: only the oracle runs */
	cr_assert_eq(react("sweep", f, "-o", d3, "--oracle", "--no-plot", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "2 run now, 0 already done");
	snprintf(a, sizeof a, "%s/runs/c0000/oracle.csv", d2);
	snprintf(b, sizeof b, "%s/runs/c0000/oracle.csv", d3);
	assert_same_file(a, b);
	/* another output directory finds the results in the cache */
	cr_assert_eq(react("sweep", f, "-o", d4, "--oracle", "--no-plot", "--oracle-cache", c, NULL),
	             0, "%s", slurp(g_err));
	assert_contains(g_err, "oracle results stored for 2 of the 2 configurations to run, 0 to search");
	snprintf(a, sizeof a, "%s/runs.csv", d2);
	snprintf(b, sizeof b, "%s/runs.csv", d4);
	assert_same_file(a, b);
}

/* A stored result is checked against the run's own baseline: one searched
 * against another (the backend's code changed since it was stored, which
 * the fingerprint does not cover) is searched again, in a new sweep, in a
 * finished sweep the oracle is added to, and by react oracle. */
Test(oracle_e2e, stale_stored_oracle_is_searched_again)
{
	char w[4096], f[4200], d1[4200], d2[4200], d3[4200], d4[4200], c[4200], a[4400], b[4400];
	workdir("oracle-stale", w, sizeof w);
	snprintf(f, sizeof f, "%s/star.yaml", w);
	write_star(f, "1");
	snprintf(d1, sizeof d1, "%s/first", w);
	snprintf(d2, sizeof d2, "%s/again", w);
	snprintf(d3, sizeof d3, "%s/plain", w);
	snprintf(d4, sizeof d4, "%s/cmd", w);
	snprintf(c, sizeof c, "%s/cache", w);
	cr_assert_eq(react("sweep", f, "-o", d1, "--oracle", "--no-plot", "--oracle-cache", c, NULL),
	             0, "%s", slurp(g_err));
	snprintf(a, sizeof a, "%s/runs/c0000/oracle.csv", d1);
	/* the stored baseline of job t made wrong, as another simulator's would be */
	const char *spoil = "sed -i '2s/^\\([^,]*,t,[01],\\)[^,]*,/\\19.999999,/' %s/*/oracle.csv";
	sh(spoil, c);
	sh("grep -q ',t,1,9.999999,' %s/*/oracle.csv", c);
	cr_assert_eq(react("sweep", f, "-o", d2, "--oracle", "--no-plot", "--oracle-cache", c, NULL),
	             0, "%s", slurp(g_err));
	assert_contains(g_err, "searched against a baseline of 9.999999 GB/s, this run's baseline is ");
	assert_contains(g_err, "searching it again");
	snprintf(b, sizeof b, "%s/runs/c0000/oracle.csv", d2);
	assert_same_file(a, b);
	snprintf(a, sizeof a, "%s/runs.csv", d1);
	snprintf(b, sizeof b, "%s/runs.csv", d2);
	assert_same_file(a, b);
	/* the cache holds the result searched again */
	sh("cmp -s %s/runs/c0000/oracle.csv %s/*/oracle.csv", d1, c);
	/* the oracle added to a finished sweep */
	cr_assert_eq(react("sweep", f, "-o", d3, "--no-plot", NULL), 0, "%s", slurp(g_err));
	sh(spoil, c);
	cr_assert_eq(react("sweep", f, "-o", d3, "--oracle", "--no-plot", "--oracle-cache", c, NULL),
	             0, "%s", slurp(g_err));
	assert_contains(g_err, "searching it again");
	snprintf(b, sizeof b, "%s/runs.csv", d3);
	assert_same_file(a, b);
	/* react oracle */
	sh(spoil, c);
	cr_assert_eq(react("oracle", f, "-o", d4, "--oracle-cache", c, "--quiet", NULL), 0, "%s",
	             slurp(g_err));
	assert_contains(g_err, "searching it again");
	snprintf(a, sizeof a, "%s/runs/c0000/oracle.csv", d1);
	snprintf(b, sizeof b, "%s/oracle.csv", d4);
	assert_same_file(a, b);
}

/* A result stored before climb_many (searched with climb_many 1, ended
 * inside its budget) is reused under the default options and written to
 * the cache under their fingerprint; one whose budget was spent is
 * searched again.  A marked oracle_mean_gbps tells a reuse from a search. */
Test(oracle_e2e, a_result_stored_before_climb_many_is_reused_when_it_ended_inside_its_budget)
{
	char w[4096], f[4200], d1[4200], d2[4200], d3[4200], c[4200];
	workdir("oracle-within", w, sizeof w);
	snprintf(f, sizeof f, "%s/ring.yaml", w);
	sh("printf '%%s\\n' 'seed: 2' 'topology: {type: star, hosts: 8}' 'jobs:' "
	   "'  - {name: r, ranks: 6, collective: allreduce, algorithm: ring, message: 6MB,' "
	   "'     epochs: 30, warmup: 5}' 'congestion:' '  external: {congested_pairs: 1, p: 4}' "
	   "> '%s'", f);
	snprintf(d1, sizeof d1, "%s/one", w);
	snprintf(d2, sizeof d2, "%s/four", w);
	snprintf(d3, sizeof d3, "%s/spent", w);
	snprintf(c, sizeof c, "%s/cache", w);
	cr_assert_eq(react("oracle", f, "-o", d1, "--oracle-cache", c, "--oracle-opt", "climb_many=1",
	                   "--quiet", NULL),
	             0, "%s", slurp(g_err));
	sh("test $(ls %s | wc -l) = 1 && ls %s > %s/first", c, c, w);
	sh("awk -F, 'NR == 2 && $18 >= 2000 { exit 1 }' %s/*/oracle.csv", c);
	sh("sed -i '2s/^\\([^,]*,r,1,[^,]*,\\)[^,]*,/\\18.888888,/' %s/*/oracle.csv", c);
	cr_assert_eq(react("oracle", f, "-o", d2, "--oracle-cache", c, "--quiet", NULL), 0, "%s",
	             slurp(g_err));
	char *t = slurp(g_out);
	cr_assert_eq(number_after(t, "oracle"), 8.888888, "not reused:\n%s", t);
	free(t);
	sh("test $(ls %s | wc -l) = 2", c);
	/* the budget spent: searched again */
	sh("cd %s && for d in *; do grep -qx $d ../first || rm -r $d; done", c);
	sh("sed -i '2s/,[0-9]*$/,2000/' %s/*/oracle.csv", c);
	cr_assert_eq(react("oracle", f, "-o", d3, "--oracle-cache", c, "--quiet", NULL), 0, "%s",
	             slurp(g_err));
	t = slurp(g_out);
	cr_assert_neq(number_after(t, "oracle"), 8.888888, "a search cut by its budget reused:\n%s",
	              t);
	free(t);
}
