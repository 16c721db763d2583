/* react sweep: a rerun verifies finished runs before it counts them;
 * --baseline-from reads each baseline back instead of running it;
 * --mpi (under mpirun -np 2) gives the same files as -j 1, resumes the same
 * way, and works with --oracle; a react without MPI says so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define SRC REACT_SOURCE_DIR
#define REG SRC "/scenarios/regress/tree-fattree.yaml"

/* Every file under a and b the same (diff -r). */
static void assert_same_tree(const char *a, const char *b)
{
	sh("diff -r '%s' '%s' >&2", a, b);
}

static void assert_lacks(const char *path, const char *what)
{
	char *t = slurp(path);
	cr_assert(!strstr(t, what), "%s has '%s':\n%s", path, what, t);
	free(t);
}

/* A finished run whose files were damaged afterwards is not done: it is
 * named on stderr with what was wrong, and run again, so that runs.csv is
 * the same as before the damage. */
Test(sweep, resume_verifies_finished_runs)
{
	char w[4096], d[4200], ref[4200];
	workdir("verify", w, sizeof w);
	snprintf(d, sizeof d, "%s/out", w);
	snprintf(ref, sizeof ref, "%s/ref", w);
	cr_assert_eq(react("sweep", REG, "-o", d, "--no-plot", NULL), 0, "%s", slurp(g_err));
	sh("cp -r '%s' '%s'", d, ref);
	/* a garbage summary, an emptied epochs.csv, epochs.csv without its last
	 * rows (whole lines), a summary with a word where a number belongs */
	sh("echo garbage > '%s/runs/c0000/summary.csv'", d);
	sh(": > '%s/runs/c0001/epochs.csv'", d);
	sh("head -n -5 '%s/runs/c0002/epochs.csv' > '%s/e' && mv '%s/e' '%s/runs/c0002/epochs.csv'", d,
	   w, w, d);
	sh("sed -i '2s/,[0-9]*$/,x/' '%s/runs/c0003/summary.csv'", d);
	cr_assert_eq(react("sweep", REG, "-o", d, "--no-plot", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "4 run now, 0 already done");
	assert_contains(g_err, "/out/runs/c0000: summary.csv line 1: expected the header 'id,seed,");
	assert_contains(g_err, "/out/runs/c0001: epochs.csv: empty; running it again\n");
	assert_contains(g_err, "/out/runs/c0002: epochs.csv: 75 epoch rows, expected 80");
	assert_contains(g_err, "/out/runs/c0003: summary.csv line 2: field 15: expected a number, "
	                       "got 'x'");
	char a[4400], b[4400];
	snprintf(a, sizeof a, "%s/runs.csv", ref);
	snprintf(b, sizeof b, "%s/runs.csv", d);
	assert_same_file(a, b);
	assert_same_tree(ref, d);
	/* verified runs are done: nothing to say, nothing to run */
	cr_assert_eq(react("sweep", REG, "-o", d, "--no-plot", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "0 run now, 4 already done");
	assert_lacks(g_err, "running it again");
	/* a run cut mid-line, and one with an epoch twice */
	sh("truncate -s -7 '%s/runs/c0001/epochs.csv'", d);
	sh("sed -i '3s/^baseline,tree,1,/baseline,tree,0,/' '%s/runs/c0002/epochs.csv'", d);
	cr_assert_eq(react("sweep", REG, "-o", d, "--no-plot", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "2 run now, 2 already done");
	assert_contains(g_err, "/out/runs/c0001: epochs.csv line 81: cut short (no end of line)");
	assert_contains(g_err, "/out/runs/c0002: epochs.csv line 3: epoch 0 of baseline, tree, a "
	                       "second time");
	assert_same_tree(ref, d);
	/* runs made from other inputs: one line for all of them */
	cr_assert_eq(react("sweep", REG, "-o", d, "--no-plot", "--set", "jobs.tree.epochs=30", NULL),
	             0, "%s", slurp(g_err));
	assert_contains(g_out, "4 run now, 0 already done");
	assert_contains(g_err, "4 run directories in ");
	assert_contains(g_err, "(c0000, ...) made from other inputs");
}

/* --baseline-from: a sweep with other REACT parameters takes each
 * configuration's baseline from the run directory that describes it, read
 * back to the last digit (the same files as a sweep that ran it), and runs
 * it where none matches or the file lacks an epoch, saying why. */
Test(sweep, baseline_from_reads_the_baselines_back)
{
	char w[4096], d0[4200], full[4200], re[4200], tam[4200], sub[4200], a[4400], b[4400];
	workdir("baseline-from", w, sizeof w);
	snprintf(d0, sizeof d0, "%s/d0", w);
	snprintf(full, sizeof full, "%s/full", w);
	snprintf(re, sizeof re, "%s/re", w);
	snprintf(tam, sizeof tam, "%s/tam", w);
	snprintf(sub, sizeof sub, "%s/sub", w);
	cr_assert_eq(react("sweep", REG, "-o", d0, "--no-plot", NULL), 0, "%s", slurp(g_err));
	cr_assert_eq(react("sweep", REG, "-o", full, "--no-plot", "--set", "params.epsilon=0.08",
	                   NULL), 0, "%s", slurp(g_err));
	snprintf(a, sizeof a, "%s/runs.csv", d0);
	snprintf(b, sizeof b, "%s/runs.csv", full);
	char *x = slurp(a), *y = slurp(b);
	cr_assert_str_neq(x, y, "epsilon 0.08 changed no REACT run: the test proves nothing");
	free(x);
	free(y);
	/* every baseline read back: the same files as the sweep that ran them */
	cr_assert_eq(react("sweep", REG, "-o", re, "--no-plot", "--set", "params.epsilon=0.08",
	                   "--baseline-from", d0, NULL), 0, "%s", slurp(g_err));
	assert_lacks(g_err, "the baseline runs");
	assert_same_tree(full, re);
	/* read, not run: a baseline epoch changed in the file shows in the result */
	sh("cp -r '%s' '%s'", d0, tam);
	sh("sed -i 's/^baseline,tree,20,\\([^,]*\\),[^,]*,/baseline,tree,20,\\1,0.5,/' "
	   "'%s/runs/c0001/epochs.csv'", tam);
	snprintf(a, sizeof a, "%s/runs/c0001/epochs.csv", tam);
	sh("grep -q '^baseline,tree,20,[^,]*,0.5,' '%s'", a);
	snprintf(b, sizeof b, "%s/t", w);
	cr_assert_eq(react("sweep", REG, "-o", b, "--no-plot", "--set", "params.epsilon=0.08",
	                   "--baseline-from", tam, NULL), 0, "%s", slurp(g_err));
	snprintf(a, sizeof a, "%s/t/runs/c0001/epochs.csv", w);
	sh("grep -q '^baseline,tree,20,[^,]*,0.5,0.008000,' '%s'", a);
	snprintf(a, sizeof a, "%s/t/runs/c0000/epochs.csv", w);
	snprintf(b, sizeof b, "%s/runs/c0000/epochs.csv", full);
	assert_same_file(a, b);
	/* a sweep of one seed finds its runs under other ids (c0002, c0003) */
	cr_assert_eq(react("sweep", REG, "-o", sub, "--no-plot", "--set", "seed=2", "--set",
	                   "params.epsilon=0.08", "--baseline-from", tam, NULL), 0, "%s",
	             slurp(g_err));
	assert_lacks(g_err, "the baseline runs");
	snprintf(a, sizeof a, "%s/runs/c0000/epochs.csv", sub);
	snprintf(b, sizeof b, "%s/runs/c0002/epochs.csv", full);
	assert_same_file(a, b);
	/* the last baseline epoch missing from one file, another configuration
	 * (fewer epochs) for all: each baseline runs, and stderr says why */
	sh("sed -i '/^baseline,tree,39,/d' '%s/runs/c0003/epochs.csv'", tam);
	snprintf(b, sizeof b, "%s/t2", w);
	cr_assert_eq(react("sweep", REG, "-o", b, "--no-plot", "--set", "params.epsilon=0.08",
	                   "--baseline-from", tam, NULL), 0, "%s", slurp(g_err));
	assert_contains(g_err, "c0003 (seed=2 congested_pairs=3): --baseline-from ");
	assert_contains(g_err, "/runs/c0003/epochs.csv, the baseline: job 'tree': expected epoch 39 "
	                       "of 40, the records end; the baseline runs");
	snprintf(a, sizeof a, "%s/t2/runs/c0003", w);
	snprintf(b, sizeof b, "%s/runs/c0003", full);
	assert_same_tree(a, b);
	snprintf(b, sizeof b, "%s/t3", w);
	cr_assert_eq(react("sweep", REG, "-o", b, "--no-plot", "--set", "jobs.tree.epochs=30",
	                   "--baseline-from", d0, NULL), 0, "%s", slurp(g_err));
	assert_contains(g_err, "c0000 (seed=1 congested_pairs=1): --baseline-from ");
	assert_contains(g_err, ": no run directory describes this configuration (config.txt past "
	                       "its key); the baseline runs");
	/* a directory that is not there: one error, nothing run */
	snprintf(b, sizeof b, "%s/t4", w);
	cr_assert_eq(react("sweep", REG, "-o", b, "--no-plot", "--baseline-from", "/nonexistent/x",
	                   NULL), 2);
	assert_contains(g_err, "react sweep: --baseline-from /nonexistent/x: no such directory; "
	                       "expected the output directory of an earlier sweep");
	sh("test ! -e '%s'", b);
	/* the output directory itself: its runs, made with other parameters */
	cr_assert_eq(react("sweep", REG, "-o", d0, "--no-plot", "--set", "params.epsilon=0.08",
	                   "--baseline-from", d0, NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "4 run now, 0 already done");
	assert_lacks(g_err, "the baseline runs");
	assert_same_tree(full, d0);
}

#ifdef REACT_HAVE_MPI

/* mpirun -np N --oversubscribe react ARGS... (NULL-terminated); its exit code. */
static int mpirun(const char *np, const char *first, ...)
{
	char *argv[64] = {REACT_MPIRUN, "-np", (char *)np, "--oversubscribe", REACT_EXE};
	/* as root, Open MPI's mpirun asks for both; under the sanitizers MPI's
	 * own allocations are not the leaks this suite looks for */
	if (geteuid() == 0) {
		setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
		setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
	}
#ifdef REACT_TEST_SANITIZED
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
	va_list ap;
	va_start(ap, first);
	int rc = run_va(argv, 5, first, ap);
	va_end(ap);
	return rc;
}

Test(sweep_mpi, identical_to_serial_and_resumable, .timeout = 240)
{
	char w[4096], d1[4200], d2[4200];
	workdir("mpi", w, sizeof w);
	snprintf(d1, sizeof d1, "%s/j1", w);
	snprintf(d2, sizeof d2, "%s/mpi", w);
	cr_assert_eq(react("sweep", REG, "-o", d1, "-j", "1", "--no-plot", NULL), 0, "%s",
	             slurp(g_err));
	cr_assert_eq(mpirun("2", "sweep", REG, "-o", d2, "--mpi", "--no-plot", NULL), 0,
	             "stdout:\n%s\nstderr:\n%s", slurp(g_out), slurp(g_err));
	assert_contains(g_out, "4 configurations x 1 jobs; 4 run now, 0 already done");
	assert_same_tree(d1, d2);
	/* resumed under MPI: a run lost in flight (no directory, a temporary one
	 * left), a damaged one; runs.csv gone */
	sh("rm -rf '%s/runs/c0001' '%s/runs.csv' && mkdir '%s/runs/.tmp-c0001.99999'", d2, d2, d2);
	sh("echo garbage > '%s/runs/c0002/summary.csv'", d2);
	cr_assert_eq(mpirun("2", "sweep", REG, "-o", d2, "--mpi", "--no-plot", NULL), 0,
	             "stdout:\n%s\nstderr:\n%s", slurp(g_out), slurp(g_err));
	assert_contains(g_out, "2 run now, 2 already done");
	assert_contains(g_err, "/mpi/runs/c0002: summary.csv line 1");
	assert_same_tree(d1, d2); /* the lost run's temporary directory is gone too */
	/* more ranks than configurations to run: the idle ones just stop */
	sh("rm -rf '%s/runs/c0003'", d2);
	cr_assert_eq(mpirun("3", "sweep", REG, "-o", d2, "--mpi", "--no-plot", NULL), 0,
	             "stdout:\n%s\nstderr:\n%s", slurp(g_out), slurp(g_err));
	assert_contains(g_out, "1 run now, 3 already done");
	assert_same_tree(d1, d2);
	/* baselines read back under MPI: the same files as a serial sweep that
	 * ran them with the same REACT parameters */
	char e1[4200], e2[4200];
	snprintf(e1, sizeof e1, "%s/eps-j1", w);
	snprintf(e2, sizeof e2, "%s/eps-mpi", w);
	cr_assert_eq(react("sweep", REG, "-o", e1, "--no-plot", "--set", "params.epsilon=0.08", NULL),
	             0, "%s", slurp(g_err));
	cr_assert_eq(mpirun("2", "sweep", REG, "-o", e2, "--mpi", "--no-plot", "--set",
	                    "params.epsilon=0.08", "--baseline-from", d1, NULL), 0,
	             "stdout:\n%s\nstderr:\n%s", slurp(g_out), slurp(g_err));
	assert_lacks(g_err, "the baseline runs");
	assert_same_tree(e1, e2);
	/* bad input under MPI: one error, every rank ends */
	cr_assert_eq(mpirun("2", "sweep", SRC "/no-such.yaml", "-o", d2, "--mpi", NULL), 2);
	assert_contains(g_err, "no-such.yaml");
	cr_assert_eq(react("sweep", REG, "-o", d2, "--mpi", "-j", "2", NULL), 2);
	assert_contains(g_err, "--mpi and -j 2: expected one of them");
	/* outside mpirun: one rank, the same results */
	sh("rm -rf '%s'", d2);
	cr_assert_eq(react("sweep", REG, "-o", d2, "--mpi", "--no-plot", NULL), 0, "%s",
	             slurp(g_err));
	assert_contains(g_err, "not started by mpirun or srun, running as one rank");
	assert_same_tree(d1, d2);
}

/* --oracle: the oracle's search is the long part of each configuration. */
Test(sweep_mpi, with_oracle, .timeout = 240)
{
	char w[4096], f[4200], d1[4200], d2[4200];
	workdir("mpi-oracle", w, sizeof w);
	snprintf(f, sizeof f, "%s/star.yaml", w);
	snprintf(d1, sizeof d1, "%s/j1", w);
	snprintf(d2, sizeof d2, "%s/mpi", w);
	sh("printf '%%s\\n' 'seed: 1..3' 'topology: {type: star, hosts: 8}' 'jobs:' "
	   "'  - {name: t, ranks: 4, algorithm: tree, message: 4MB, epochs: 40, warmup: 10}' "
	   "'congestion:' '  external: {congested_pairs: 1, p: 4}' > '%s'", f);
	cr_assert_eq(react("sweep", f, "-o", d1, "--oracle", "--no-plot", NULL), 0, "%s",
	             slurp(g_err));
	cr_assert_eq(mpirun("2", "sweep", f, "-o", d2, "--mpi", "--oracle", "--no-plot", NULL), 0,
	             "stdout:\n%s\nstderr:\n%s", slurp(g_out), slurp(g_err));
	assert_contains(g_out, "3 run now, 0 already done");
	assert_same_tree(d1, d2);
	char p[4400];
	snprintf(p, sizeof p, "%s/runs.csv", d2);
	assert_contains(p, ",oracle_mean_gbps,oracle_impr_pct,captured\n");
}

#else

Test(sweep_mpi, without_mpi_a_clear_error)
{
	char w[4096];
	workdir("no-mpi", w, sizeof w);
	cr_assert_eq(react("sweep", REG, "-o", w, "--mpi", NULL), 2);
	assert_contains(g_err, "--mpi: this react was built without MPI");
	assert_contains(g_err, "use -j N");
}

#endif
