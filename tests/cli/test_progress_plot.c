/* Progress on stderr of react run and react regress (stderr not a
 * terminal: a plain line every --progress seconds; --quiet: none; stdout
 * unchanged). */
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
	/* short work with the default interval (5 s): nothing on stderr */
	cr_assert_eq(react("run", QUICK, NULL), 0, "%s", slurp(g_err));
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
