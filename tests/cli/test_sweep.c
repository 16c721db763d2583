/* react sweep: a rerun verifies finished runs before it counts them. */
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
