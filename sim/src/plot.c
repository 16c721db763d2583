/* Plots of a sweep in the style of the paper's Figure 5: improvement of the
 * mean algorithm bandwidth per x value, one point per seed (or other
 * remaining axes), one series per value of the series axis, and the mean of
 * each series as a line.  gnuplot renders PNG and SVG. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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
 * goes to log.  0 when it ran and succeeded. */
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
	if (posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ) == 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	free(cds);
	return rc;
}

static void gp_quote(sb_t *b, const char *s)
{
	sb_printf(b, "'");
	for (const char *c = s; *c; c++)
		sb_printf(b, *c == '\'' ? "''" : "%c", *c);
	sb_printf(b, "'");
}

react_status_t react_plot_sweep(const char *out, const react_scenario_t *s, int *made,
                                char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	char path[4400], *text = NULL;
	char **rows = NULL;
	size_t nrows = 0;
	char *hdr[64];
	size_t nh = 0;
	uniq_t jobs = {0};

	if (made)
		*made = 0;
	size_t xi = react_scenario_plot_x(s), si = react_scenario_plot_series(s);
	if (xi == SIZE_MAX)
		return REACT_OK;
	snprintf(path, sizeof path, "%.4300s/runs.csv", out);
	if ((st = react_read_file(path, &text, NULL, err, errlen)) != REACT_OK)
		return st;
	/* lines */
	size_t cap = 0;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (nrows == cap) {
			cap = cap ? cap * 2 : 64;
			char **nr = realloc(rows, cap * sizeof *nr);
			if (!nr) {
				st = REACT_ENOMEM;
				goto done;
			}
			rows = nr;
		}
		rows[nrows++] = l;
	}
	if (nrows < 2)
		goto done;
	nh = csv_split(rows[0], hdr, 64);
	int cx = col_of(hdr, nh, react_scenario_axis_name(s, xi));
	int cs = si != SIZE_MAX ? col_of(hdr, nh, react_scenario_axis_name(s, si)) : -1;
	int cj = col_of(hdr, nh, "job"), cy = col_of(hdr, nh, "improvement_mean_pct");
	/* a sweep with --oracle: the oracle's improvement beside REACT's */
	int co = col_of(hdr, nh, "oracle_impr_pct");
	if (cx < 0 || cj < 0 || cy < 0) {
		snprintf(err, errlen, "%s: missing columns for the plot", path);
		st = REACT_EPARSE;
		goto done;
	}
	/* split every data row once */
	char *(*fld)[64] = calloc(nrows, sizeof *fld);
	size_t *nf = calloc(nrows, sizeof *nf);
	if (!fld || !nf) {
		free(fld);
		free(nf);
		st = REACT_ENOMEM;
		goto done;
	}
	for (size_t r = 1; r < nrows; r++) {
		nf[r] = csv_split(rows[r], fld[r], 64);
		if ((int)nf[r] > cj)
			uniq_add(&jobs, fld[r][cj]);
	}
	for (size_t j = 0; j < jobs.n; j++) {
		uniq_t xs = {0}, ss = {0};
		sb_t dat = {0}, mean = {0}, gp = {0}, omean = {0};
		for (size_t r = 1; r < nrows; r++) {
			if ((int)nf[r] <= cy || strcmp(fld[r][cj], jobs.v[j]))
				continue;
			uniq_add(&xs, fld[r][cx]);
			uniq_add(&ss, cs >= 0 ? fld[r][cs] : "all");
		}
		/* data: one block per series: xindex xvalue improvement */
		for (size_t k = 0; k < ss.n; k++) {
			sb_printf(&dat, "# series %s\n", ss.v[k]);
			sb_printf(&mean, "# series %s\n", ss.v[k]);
			if (co >= 0)
				sb_printf(&omean, "# series %s\n", ss.v[k]);
			for (size_t x = 0; x < xs.n; x++) {
				double sum = 0, osum = 0;
				int cnt = 0;
				for (size_t r = 1; r < nrows; r++) {
					if ((int)nf[r] <= cy || strcmp(fld[r][cj], jobs.v[j]) ||
					    strcmp(fld[r][cx], xs.v[x]) ||
					    strcmp(cs >= 0 ? fld[r][cs] : "all", ss.v[k]))
						continue;
					double y = atof(fld[r][cy]);
					sb_printf(&dat, "%zu %s %.3f\n", x, xs.v[x], y);
					sum += y;
					if (co >= 0 && (int)nf[r] > co)
						osum += atof(fld[r][co]);
					cnt++;
				}
				if (cnt)
					sb_printf(&mean, "%zu %s %.3f\n", x, xs.v[x], sum / cnt);
				if (cnt && co >= 0)
					sb_printf(&omean, "%zu %s %.3f\n", x, xs.v[x], osum / cnt);
			}
			sb_printf(&dat, "\n\n");
			sb_printf(&mean, "\n\n");
			if (co >= 0)
				sb_printf(&omean, "\n\n");
		}
		char base[4400], name[80], datp[4500], meanp[4500], gpp[4500], logp[4500], omeanp[4500];
		snprintf(name, sizeof name, "plot-%.60s", jobs.v[j]);
		snprintf(base, sizeof base, "%.4300s/%s", out, name);
		snprintf(datp, sizeof datp, "%s.dat", base);
		snprintf(meanp, sizeof meanp, "%s-mean.dat", base);
		snprintf(gpp, sizeof gpp, "%s.gp", base);
		snprintf(logp, sizeof logp, "%s.log", base);
		snprintf(omeanp, sizeof omeanp, "%s-oracle.dat", base);
		const char *xname = react_scenario_axis_name(s, xi);
		const char *sname = si != SIZE_MAX ? react_scenario_axis_name(s, si) : NULL;
		for (int term = 0; term < 2; term++) {
			if (term == 0)
				sb_printf(&gp, "set terminal pngcairo size 900,560 font ',11'\n"
				               "set output '%s.png'\n", name);
			else
				sb_printf(&gp, "set terminal svg size 900,560 font 'sans,11'\n"
				               "set output '%s.svg'\n", name);
			if (term == 0) {
				sb_printf(&gp, "set title ");
				char t[300];
				snprintf(t, sizeof t, "%s: job %s, REACT%s vs baseline", react_scenario_name(s),
				         jobs.v[j], co >= 0 ? " and the oracle" : "");
				gp_quote(&gp, t);
				sb_printf(&gp, " noenhanced\nset xlabel ");
				gp_quote(&gp, xname);
				sb_printf(&gp, " noenhanced\nset ylabel 'improvement of mean algorithm "
				               "bandwidth (%%)'\nset grid ytics\nset key top left "
				               "noenhanced\nset xzeroaxis lt -1\nset xrange [-0.6:%zu.6]\n"
				               "set xtics (",
				          xs.n - 1);
				for (size_t x = 0; x < xs.n; x++) {
					sb_printf(&gp, "%s", x ? ", " : "");
					gp_quote(&gp, xs.v[x]);
					sb_printf(&gp, " %zu", x);
				}
				sb_printf(&gp, ")\n");
			}
			sb_printf(&gp, "plot ");
			double w = ss.n > 1 ? 0.6 / (double)ss.n : 0;
			for (size_t k = 0; k < ss.n; k++) {
				double off = ss.n > 1 ? -0.3 + w * ((double)k + 0.5) : 0;
				char title[200];
				if (sname)
					snprintf(title, sizeof title, "%s = %s", sname, ss.v[k]);
				else
					snprintf(title, sizeof title, "per seed");
				sb_printf(&gp, "%s'%s.dat' index %zu using ($1%+.3f):3 with points pt 7 ps 0.8 "
				               "lc %zu title ", k ? ", \\\n     " : "", name, k, off, k + 1);
				gp_quote(&gp, title);
				sb_printf(&gp, ", '%s-mean.dat' index %zu using ($1%+.3f):3 with linespoints pt 5 ps "
				               "1.4 lw 2 lc %zu title ", name, k, off, k + 1);
				snprintf(title, sizeof title, "mean%s%s", sname ? ", " : "",
				         sname ? ss.v[k] : "");
				gp_quote(&gp, title);
				if (co >= 0) {
					sb_printf(&gp, ", '%s-oracle.dat' index %zu using ($1%+.3f):3 with linespoints "
					               "pt 4 ps 1.4 lw 2 dt 2 lc %zu title ", name, k, off, k + 1);
					snprintf(title, sizeof title, "oracle mean%s%s", sname ? ", " : "",
					         sname ? ss.v[k] : "");
					gp_quote(&gp, title);
				}
			}
			sb_printf(&gp, "\n");
		}
		char *d = sb_take(&dat), *m = sb_take(&mean), *g = sb_take(&gp);
		char *om = co >= 0 ? sb_take(&omean) : NULL;
		if (!d || !m || !g || (co >= 0 && !om)) {
			st = REACT_ENOMEM;
		} else if ((st = react_write_atomic(datp, d, strlen(d), err, errlen)) == REACT_OK &&
		           (st = react_write_atomic(meanp, m, strlen(m), err, errlen)) == REACT_OK &&
		           (!om || (st = react_write_atomic(omeanp, om, strlen(om), err, errlen)) ==
		                       REACT_OK) &&
		           (st = react_write_atomic(gpp, g, strlen(g), err, errlen)) == REACT_OK) {
			if (run_gnuplot(out, strrchr(gpp, '/') + 1, logp) == 0 && made)
				*made += 2;
		}
		free(d);
		free(m);
		free(g);
		free(om);
		uniq_free(&xs);
		uniq_free(&ss);
		if (st != REACT_OK)
			break;
	}
	free(fld);
	free(nf);
done:
	uniq_free(&jobs);
	free(rows);
	free(text);
	return st;
}
