/* Plots of a sweep in the style of the paper's Figure 5: improvement of the
 * mean algorithm bandwidth per x value, one point per seed (or other
 * remaining axes), one series per value of the series axis, and the mean of
 * each series as a line with error bars (mean +- standard error over the
 * points at that x).  On request (plot.also) the same for the p95
 * improvement and for the mean algorithm bandwidth itself (baseline, REACT
 * and, with the oracle's columns, the oracle).  gnuplot renders PNG and
 * SVG. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_statistics_double.h>

#include "react/results.h"
#include "results_internal.h"
#include "scenario_internal.h"

extern char **environ;

typedef struct uniq {
	size_t n;
	char *v[256];
} uniq_t;

static size_t uniq_add(uniq_t *u, const char *s)
{
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->v[i], s))
			return i;
	if (u->n == 256)
		return 255;
	u->v[u->n] = strdup(s);
	return u->n++;
}

static void uniq_free(uniq_t *u)
{
	for (size_t i = 0; i < u->n; i++)
		free(u->v[i]);
	u->n = 0;
}

static int col_of(char **hdr, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return (int)i;
	return -1;
}

static void gp_quote(sb_t *b, const char *s);

/* Run gnuplot on DIR/script from within DIR (the script names its files
 * relative to it, so the directory can be moved and replotted); its output
 * goes to log.  0 when it ran and succeeded, 1 when there is no gnuplot,
 * -1 when it failed. */
static int run_gnuplot(const char *dir, const char *script, const char *log)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc = -1, status;
	sb_t cd = {0};
	sb_printf(&cd, "cd ");
	gp_quote(&cd, dir);
	char *cds = sb_take(&cd);
	if (!cds)
		return -1;
	char *argv[] = {"gnuplot", "-e", cds, (char *)script, NULL};
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	int e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	if (e == 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		/* a shell-less spawn reports a missing program as exit 127 */
		rc = WIFEXITED(status) && WEXITSTATUS(status) == 0     ? 0
		     : WIFEXITED(status) && WEXITSTATUS(status) == 127 ? 1
		                                                       : -1;
	} else if (e == ENOENT) {
		rc = 1;
	}
	posix_spawn_file_actions_destroy(&fa);
	free(cds);
	/* a clean run leaves no empty log behind; warnings are kept */
	struct stat st;
	if (rc == 0 && stat(log, &st) == 0 && st.st_size == 0)
		unlink(log);
	return rc;
}

static void gp_quote(sb_t *b, const char *s)
{
	sb_printf(b, "'");
	for (const char *c = s; *c; c++)
		sb_printf(b, *c == '\'' ? "''" : "%c", *c);
	sb_printf(b, "'");
}

/* Axis titles: what a swept field or a runs.csv column means; a key not in
 * the table is its own title. */
static const struct {
	const char *key, *label;
} labels[] = {
	{"congested_pairs", "congested host pairs"},
	{"p", "external flows per host"},
	{"rate", "degraded link rate"},
	{"count", "degraded links"},
	{"start", "start of the external flows"},
	{"end", "end of the external flows"},
	{"ranks", "ranks"},
	{"message", "message size"},
	{"epochs", "epochs"},
	{"warmup", "warm-up epochs"},
	{"compute_gap", "compute time between epochs"},
	{"react", "REACT on"},
	{"placement", "rank placement"},
	{"shared", "hosts shared with the other job"},
	{"hosts", "hosts"},
	{"k", "fat-tree k"},
	{"ecmp_ports", "ECMP ports"},
	{"mtu", "MTU"},
	{"delay", "link delay"},
	{"improvement_mean_pct", "mean algbw improvement (%)"},
	{"improvement_p95_pct", "p95 algbw improvement (%)"},
	{"mean_gbps", "mean algbw (GB/s)"},
};

/* The title of key: its label; for a field named with its section
 * ("job2.react") the label of the field and the section in brackets. */
static void axis_title(const char *key, char *buf, size_t n)
{
	const char *dot = strrchr(key, '.'), *last = dot ? dot + 1 : key;
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		if (!strcmp(labels[i].key, key)) {
			snprintf(buf, n, "%s", labels[i].label);
			return;
		}
		if (dot && !strcmp(labels[i].key, last)) {
			snprintf(buf, n, "%s (%.*s)", labels[i].label, (int)(dot - key), key);
			return;
		}
	}
	snprintf(buf, n, "%s", key);
}

/* One line of a figure: a runs.csv column, its per-seed points (or not)
 * and its mean with error bars. */
typedef struct curve {
	const char *col;
	const char *what;  /* legend: "REACT", "baseline", "oracle" */
	int points;        /* draw every row's value too */
	int dt;            /* gnuplot dash type of the mean's line */
	int pt, mpt;       /* point types of the rows' values and of the mean */
} curve_t;

typedef struct figure {
	const char *suffix;  /* plot-<job><suffix>.png */
	const char *ykey;    /* axis_title key of y */
	const char *title;   /* after "<scenario>: job <job>, " */
	curve_t c[3];
	int nc;
} figure_t;

/* The rows of runs.csv split into fields, with the columns a plot reads. */
typedef struct table {
	char *hdr[64];
	size_t nh;
	char *(*fld)[64];
	size_t *nf;
	size_t nrows;  /* including the header at 0 */
	int cx, cs, cj;
} table_t;

static const char *cell(const table_t *t, size_t r, int c)
{
	return c >= 0 && (size_t)c < t->nf[r] ? t->fld[r][c] : NULL;
}

/* Write OUT/plot-<job><suffix>.{dat,-mean.dat,gp} for figure f and run
 * gnuplot on it.  *made += 2 for images made; note (notelen bytes): why
 * none were made, when so. */
static react_status_t plot_figure(const char *out, const react_scenario_t *s, const table_t *t,
                                  const char *job, const figure_t *f, int *made, char *note,
                                  size_t notelen, char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	uniq_t xs = {0}, ss = {0};
	sb_t dat = {0}, mean = {0}, gp = {0};
	int cy[3];
	double *ys = malloc((t->nrows ? t->nrows : 1) * sizeof *ys);
	if (!ys)
		return REACT_ENOMEM;
	for (int c = 0; c < f->nc; c++)
		cy[c] = col_of((char **)t->hdr, t->nh, f->c[c].col);
	for (size_t r = 1; r < t->nrows; r++) {
		if (!cell(t, r, cy[0]) || strcmp(cell(t, r, t->cj), job))
			continue;
		uniq_add(&xs, cell(t, r, t->cx));
		uniq_add(&ss, t->cs >= 0 ? cell(t, r, t->cs) : "all");
	}
	/* one block per curve and series (index c * nseries + k): the rows'
	 * values "xindex xvalue y" and the means "xindex xvalue mean se n" */
	for (int c = 0; c < f->nc; c++)
		for (size_t k = 0; k < ss.n; k++) {
			sb_printf(&dat, "# %s, series %s\n", f->c[c].col, ss.v[k]);
			sb_printf(&mean, "# %s, series %s: x mean standard_error n\n", f->c[c].col,
			          ss.v[k]);
			for (size_t x = 0; x < xs.n; x++) {
				size_t n = 0;
				for (size_t r = 1; r < t->nrows; r++) {
					const char *y = cell(t, r, cy[c]), *sv = t->cs >= 0 ? cell(t, r, t->cs)
					                                                   : "all";
					if (!y || !sv || strcmp(cell(t, r, t->cj), job) ||
					    strcmp(cell(t, r, t->cx), xs.v[x]) || strcmp(sv, ss.v[k]))
						continue;
					ys[n++] = atof(y);
					sb_printf(&dat, "%zu %s %.4f\n", x, xs.v[x], ys[n - 1]);
				}
				if (n)
					sb_printf(&mean, "%zu %s %.4f %.4f %zu\n", x, xs.v[x],
					          gsl_stats_mean(ys, 1, n),
					          n > 1 ? gsl_stats_sd(ys, 1, n) / sqrt((double)n) : 0.0, n);
			}
			sb_printf(&dat, "\n\n");
			sb_printf(&mean, "\n\n");
		}

	char base[4400], name[128], datp[4500], meanp[4500], gpp[4500], logp[4500];
	char xt[256], yt[256];
	snprintf(name, sizeof name, "plot-%.60s%s", job, f->suffix);
	snprintf(base, sizeof base, "%.4200s/%s", out, name);
	snprintf(datp, sizeof datp, "%s.dat", base);
	snprintf(meanp, sizeof meanp, "%s-mean.dat", base);
	snprintf(gpp, sizeof gpp, "%s.gp", base);
	snprintf(logp, sizeof logp, "%s.log", base);
	size_t xi = react_scenario_plot_x(s), si = react_scenario_plot_series(s);
	const char *sname = si != SIZE_MAX ? react_scenario_axis_name(s, si) : NULL;
	axis_title(react_scenario_axis_name(s, xi), xt, sizeof xt);
	axis_title(f->ykey, yt, sizeof yt);
	for (int term = 0; term < 2; term++) {
		if (term == 0)
			sb_printf(&gp, "set encoding utf8\nset terminal pngcairo size 900,560 font ',11'\n"
			               "set output '%s.png'\n", name);
		else
			sb_printf(&gp, "set terminal svg size 900,560 font 'sans,11'\n"
			               "set output '%s.svg'\n", name);
		if (term == 0) {
			char ti[300];
			snprintf(ti, sizeof ti, "%s: job %s, %s", react_scenario_name(s), job, f->title);
			sb_printf(&gp, "set title ");
			gp_quote(&gp, ti);
			sb_printf(&gp, " noenhanced\nset xlabel ");
			gp_quote(&gp, xt);
			sb_printf(&gp, " noenhanced\nset ylabel ");
			gp_quote(&gp, yt);
			sb_printf(&gp, " noenhanced\nset grid ytics\nset key outside right top noenhanced\n"
			               "set xzeroaxis lt -1\nset xrange [-0.6:%zu.6]\nset xtics (",
			          xs.n ? xs.n - 1 : 0);
			for (size_t x = 0; x < xs.n; x++) {
				sb_printf(&gp, "%s", x ? ", " : "");
				gp_quote(&gp, xs.v[x]);
				sb_printf(&gp, " %zu", x);
			}
			sb_printf(&gp, ")\n");
		}
		sb_printf(&gp, "plot ");
		/* series side by side around each x; the rows' values just left of
		 * their series' error bars */
		double w = ss.n > 1 ? 0.6 / (double)ss.n : 0.3, d = w / 6;
		int first = 1, with_points = 0;
		for (int c = 0; c < f->nc; c++)
			with_points += f->c[c].points;
		for (int c = 0; c < f->nc; c++)
			for (size_t k = 0; k < ss.n; k++) {
				double off = ss.n > 1 ? -0.3 + w * ((double)k + 0.5) : 0;
				size_t idx = (size_t)c * ss.n + k;
				char series[200] = "", title[300];
				if (sname)
					snprintf(series, sizeof series, "%s = %s", sname, ss.v[k]);
				if (f->c[c].points) {
					/* one curve with points: the series alone names them */
					if (with_points > 1 || !sname)
						snprintf(title, sizeof title, "%s%s%s", f->c[c].what,
						         sname ? ", " : " per seed", series);
					else
						snprintf(title, sizeof title, "%s", series);
					sb_printf(&gp, "%s'%s.dat' index %zu using ($1%+.3f):3 with points pt %d "
					               "ps 0.8 lc %zu title ", first ? "" : ", \\\n     ", name,
					          idx, off - d, f->c[c].pt, k + 1);
					gp_quote(&gp, title);
					first = 0;
				}
				snprintf(title, sizeof title, "%s mean ± s.e.%s%s", f->c[c].what,
				         sname ? ", " : "", series);
				sb_printf(&gp, "%s'%s-mean.dat' index %zu using ($1%+.3f):3:4 with yerrorlines "
				               "pt %d ps 1.2 lw 2 dt %d lc %zu title ", first ? "" : ", \\\n     ",
				          name, idx, off + d, f->c[c].mpt, f->c[c].dt, k + 1);
				gp_quote(&gp, title);
				first = 0;
			}
		sb_printf(&gp, "\n");
	}
	char *dt = sb_take(&dat), *m = sb_take(&mean), *g = sb_take(&gp);
	if (!dt || !m || !g) {
		st = REACT_ENOMEM;
	} else if ((st = react_write_atomic(datp, dt, strlen(dt), err, errlen)) == REACT_OK &&
	           (st = react_write_atomic(meanp, m, strlen(m), err, errlen)) == REACT_OK &&
	           (st = react_write_atomic(gpp, g, strlen(g), err, errlen)) == REACT_OK) {
		int rc = run_gnuplot(out, strrchr(gpp, '/') + 1, logp);
		if (rc == 0)
			*made += 2;
		else if (rc > 0)
			snprintf(note, notelen, "no plot images: gnuplot is not installed (%.1000s/plot-*.gp "
			         "and their data are written: install gnuplot, then cd %.1000s && gnuplot "
			         "%.128s.gp)", out, out, name);
		else
			snprintf(note, notelen, "no plot images for %.128s: gnuplot failed; see %.1000s",
			         name, logp);
	}
	free(dt);
	free(m);
	free(g);
	free(ys);
	uniq_free(&xs);
	uniq_free(&ss);
	return st;
}

react_status_t react_plot_sweep(const char *out, const react_scenario_t *s, int *made,
                                char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	char path[4400], *text = NULL, note[4800] = "";
	char **rows = NULL;
	table_t t = {.nh = 0};
	uniq_t jobs = {0};
	int nmade = 0;

	if (made)
		*made = 0;
	if (errlen)
		err[0] = 0;
	size_t xi = react_scenario_plot_x(s), si = react_scenario_plot_series(s);
	if (xi == SIZE_MAX) {
		snprintf(err, errlen, "no plot: the scenario sweeps no field to plot against (other "
		         "than seed); plot.x names one");
		return REACT_OK;
	}
	snprintf(path, sizeof path, "%.4300s/runs.csv", out);
	if ((st = react_read_file(path, &text, NULL, err, errlen)) != REACT_OK)
		return st;
	/* lines */
	size_t cap = 0;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (t.nrows == cap) {
			cap = cap ? cap * 2 : 64;
			char **nr = realloc(rows, cap * sizeof *nr);
			if (!nr) {
				st = REACT_ENOMEM;
				goto done;
			}
			rows = nr;
		}
		rows[t.nrows++] = l;
	}
	if (t.nrows < 2) {
		snprintf(err, errlen, "no plot: %s has no rows", path);
		goto done;
	}
	t.nh = react_csv_split(rows[0], t.hdr, 64);
	t.cx = col_of(t.hdr, t.nh, react_scenario_axis_name(s, xi));
	t.cs = si != SIZE_MAX ? col_of(t.hdr, t.nh, react_scenario_axis_name(s, si)) : -1;
	t.cj = col_of(t.hdr, t.nh, "job");
	/* a sweep with --oracle: the oracle beside REACT */
	int oracle = col_of(t.hdr, t.nh, "oracle_impr_pct") >= 0;
	if (t.cx < 0 || t.cj < 0 || col_of(t.hdr, t.nh, "improvement_mean_pct") < 0) {
		snprintf(err, errlen, "%s: missing columns for the plot", path);
		st = REACT_EPARSE;
		goto done;
	}
	/* split every data row once */
	t.fld = calloc(t.nrows, sizeof *t.fld);
	t.nf = calloc(t.nrows, sizeof *t.nf);
	if (!t.fld || !t.nf) {
		st = REACT_ENOMEM;
		goto done;
	}
	for (size_t r = 1; r < t.nrows; r++) {
		t.nf[r] = react_csv_split(rows[r], t.fld[r], 64);
		/* a row too short for the axes is left out of every figure */
		if ((int)t.nf[r] <= t.cj || (int)t.nf[r] <= t.cx || (int)t.nf[r] <= t.cs)
			t.nf[r] = 0;
		else
			uniq_add(&jobs, t.fld[r][t.cj]);
	}
	unsigned also = react_scenario_plot_also(s);
	const figure_t figs[] = {
		{"", "improvement_mean_pct", oracle ? "REACT and the oracle vs baseline"
		                                    : "REACT vs baseline",
		 {{"improvement_mean_pct", "REACT", 1, 1, 7, 5}, {"oracle_impr_pct", "oracle", 0, 2, 0, 4}},
		 oracle ? 2 : 1},
		{"-p95", "improvement_p95_pct", "p95, REACT vs baseline",
		 {{"improvement_p95_pct", "REACT", 1, 1, 7, 5}}, 1},
		{"-algbw", "mean_gbps", "mean algorithm bandwidth",
		 {{"react_mean_gbps", "REACT", 1, 1, 7, 5},
		  {"baseline_mean_gbps", "baseline", 1, 3, 6, 13},
		  {"oracle_mean_gbps", "oracle", 0, 2, 0, 4}},
		 oracle ? 3 : 2},
	};
	for (size_t j = 0; j < jobs.n && st == REACT_OK; j++)
		for (size_t k = 0; k < sizeof figs / sizeof figs[0] && st == REACT_OK; k++)
			if (k == 0 || (k == 1 && (also & REACT_PLOT_P95)) ||
			    (k == 2 && (also & REACT_PLOT_ALGBW)))
				st = plot_figure(out, s, &t, jobs.v[j], &figs[k], &nmade, note, sizeof note,
				                 err, errlen);
	if (st == REACT_OK && note[0])
		snprintf(err, errlen, "%s", note);
done:
	if (made)
		*made = nmade;
	free(t.fld);
	free(t.nf);
	uniq_free(&jobs);
	free(rows);
	free(text);
	return st;
}
