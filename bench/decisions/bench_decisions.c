/*
 * bench-decisions: how good REACT's decisions are, against the oracle, over
 * sets of sweeps made with `react sweep --oracle` (docs/oracle.md).
 *
 * usage: bench-decisions [--name NAME]... DIR...
 *   Each DIR is one set (a sweep output directory: runs.csv with the oracle
 *   columns, runs/<id>/{epochs.csv,decisions.jsonl,config.txt}); --name
 *   names the sets in order (default: the directory's last component).  A
 *   sweep made without --oracle gives every line below but those of the
 *   oracle (bench/decisions/quiet.sh uses it so).
 *
 * Per set, over the REACT jobs of every configuration:
 *   react gain      mean improvement_mean_pct (REACT's mean algbw vs baseline)
 *   oracle gain     mean oracle_impr_pct
 *   captured        mean REACT gain / mean oracle gain (n/a below 0.1 %)
 *   above oracle    runs whose REACT gain exceeds the oracle's by more than
 *                   ABOVE_PTS points (printed only when there are some)
 *   worst loss      the lowest improvement_mean_pct among configurations whose
 *                   oracle gain is below 2 %, and among uncongested ones (no
 *                   external flow, no degraded link and no other job on the
 *                   network: p = 0) where present
 *   reverted epochs epochs >= warm-up of the REACT run (epochs.csv) that ran a
 *                   try the controller later reverted: a stretch of epochs
 *                   on one pattern counts when a decisions.jsonl line with
 *                   "action" revert, revert+change or revert-best names
 *                   that pattern ("pattern_hash", the pattern its batch
 *                   ran) at an epoch inside the stretch, or, for the
 *                   stretch the measured epochs end in (a job kept
 *                   running), at a later epoch with that pattern running
 *                   until then and not kept before; a pattern that ran
 *                   long as the base and was tried again later and
 *                   reverted (return_after) counts only for that try
 *   churn           pattern changes per 100 epochs in the second half of
 *                   the REACT run
 *   settled at      mean over runs of the epoch after which the pattern never
 *                   changes again (0 for a run that never changed)
 *   est vs obs      Pearson correlation of change_est_gain and
 *                   change_obs_gain over the changes judged: every
 *                   decisions.jsonl line that carries both and whose action
 *                   is not "extend" (one more batch for an undecided change:
 *                   its verdict comes on a later line, over the whole
 *                   sample); the lines carrying both are counted
 * Exit: 0, 2 on unreadable input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "react/results.h"

/* REACT's mean over its run, tries included, cannot beat the best fixed
 * pattern on congestion that holds still: a run that passes the oracle by
 * more than this says the oracle's search fell short there (a budget, a
 * local search above 9 ranks) or that the congestion moved (fig5a-onset) */
#define ABOVE_PTS 1.0

typedef struct acc {
	long rows;
	int no_oracle;         /* the sweep has no oracle columns */
	double sum_react, sum_oracle;
	long n_low;            /* oracle gain < 2 % */
	double worst_low;
	long n_above;          /* REACT's gain above the oracle's by more than ABOVE_PTS */
	double most_above;
	long n_p0;
	double worst_p0;
	long meas_epochs, reverted_epochs;
	long half_epochs, half_changes;
	long runs;
	double sum_settle, sum_len;
	long n_corr, lines, lines_judged;
	double sx, sy, sxx, syy, sxy;
} acc_t;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	if (!b) {
		fclose(f);
		return NULL;
	}
	size_t r = fread(b, 1, (size_t)n, f);
	b[r] = 0;
	fclose(f);
	return b;
}

/* Split a CSV line in place (no quotes in the fields read here). */
static int split(char *line, char **f, int max)
{
	int n = 0;
	for (char *p = line; n < max;) {
		f[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	return n;
}

static int col(char **h, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(h[i], name))
			return i;
	return -1;
}

/* warm-up of job `job` and whether the run had any congestion, from config.txt */
static int read_config(const char *dir, const char *id, const char *job, long *warmup,
                       int *congested)
{
	char p[4400];
	snprintf(p, sizeof p, "%s/runs/%s/config.txt", dir, id);
	char *t = slurp(p);
	if (!t) {
		fprintf(stderr, "bench-decisions: %s: cannot read\n", p);
		return -1;
	}
	*warmup = 0;
	/* another job's flows load the network as an external flow does */
	const char *j1 = strstr(t, "\njob ");
	*congested = strstr(t, "\nexternal ") || strstr(t, "\ndegraded link ") ||
	             (j1 && strstr(j1 + 1, "\njob "));
	char key[128];
	snprintf(key, sizeof key, "\njob %s ", job);
	const char *j = strstr(t, key);
	const char *w = j ? strstr(j, " warmup ") : NULL;
	if (w)
		*warmup = strtol(w + 8, NULL, 10);
	free(t);
	return 0;
}

/* One decisions.jsonl line of a job: its epoch, the pattern its batch ran
 * and whether it reverted (D_REVERT) or kept (D_KEEP) that pattern. */
enum { D_OTHER = 0, D_REVERT, D_KEEP };
typedef struct dline {
	long epoch;
	unsigned long long hash;
	int kind;
} dline_t;

/* The job's decision lines, from decisions.jsonl; also feeds the
 * estimate-vs-observation correlation. */
static int read_decisions(const char *dir, const char *id, const char *job, acc_t *a,
                          dline_t **rev, size_t *nrev)
{
	char p[4400];
	snprintf(p, sizeof p, "%s/runs/%s/decisions.jsonl", dir, id);
	FILE *f = fopen(p, "r");
	if (!f) {
		fprintf(stderr, "bench-decisions: %s: cannot read\n", p);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	*rev = NULL;
	*nrev = 0;
	while (getline(&line, &cap, f) > 0) {
		json_error_t je;
		lineno++;
		json_t *o = json_loads(line, 0, &je);
		if (!o || !json_is_object(o)) {
			fprintf(stderr, "bench-decisions: %s:%ld: not a JSON object: %s\n", p, lineno,
			        je.text);
			json_decref(o);
			free(line);
			fclose(f);
			return -1;
		}
		const char *jn = json_string_value(json_object_get(o, "job"));
		if (jn && strcmp(jn, job)) {
			json_decref(o);
			continue;
		}
		a->lines++;
		const char *act = json_string_value(json_object_get(o, "action"));
		const char *h = json_string_value(json_object_get(o, "pattern_hash"));
		json_t *ep = json_object_get(o, "epoch");
		if (h && json_is_integer(ep)) {
			dline_t *nr = realloc(*rev, (*nrev + 1) * sizeof *nr);
			if (!nr) {
				json_decref(o);
				free(line);
				fclose(f);
				return -1;
			}
			*rev = nr;
			dline_t *d = &(*rev)[(*nrev)++];
			d->epoch = (long)json_integer_value(ep);
			d->hash = strtoull(h, NULL, 16);
			/* every action that leaves the pattern that ran: a revert to
			 * the base, one replaced at once by the next candidate, and
			 * one to the best pattern observed */
			d->kind = act && (!strcmp(act, "revert") || !strcmp(act, "revert+change") ||
			                  !strcmp(act, "revert-best"))
			              ? D_REVERT
			              : act && !strncmp(act, "keep", 4) ? D_KEEP : D_OTHER;
		}
		json_t *e = json_object_get(o, "change_est_gain"), *g = json_object_get(o, "change_obs_gain");
		/* a change's final verdict (keep or revert), over its whole
		 * sample; an extension's line is an interim look at the same
		 * change and is not counted again */
		int both = json_is_number(e) && json_is_number(g);
		a->lines_judged += both;
		if (both && !(act && !strcmp(act, "extend"))) {
			double x = json_number_value(e), y = json_number_value(g);
			a->n_corr++;
			a->sx += x;
			a->sy += y;
			a->sxx += x * x;
			a->syy += y * y;
			a->sxy += x * y;
		}
		json_decref(o);
	}
	free(line);
	fclose(f);
	return 0;
}

/* Whether the stretch of epochs [s, e] on pattern h ended in a revert of
 * it: a revert line of h inside it, or, for the stretch the measured epochs
 * end in (open), the first line after e that does not run h or that
 * reverts or keeps it being a revert of h. */
static int stretch_reverted(const dline_t *d, size_t nd, unsigned long long h, long s, long e,
                            int open)
{
	for (size_t k = 0; k < nd; k++)
		if (d[k].kind == D_REVERT && d[k].hash == h && d[k].epoch >= s && d[k].epoch <= e)
			return 1;
	if (!open)
		return 0;
	for (size_t k = 0; k < nd; k++) {
		if (d[k].epoch <= e)
			continue;
		if (d[k].hash != h || d[k].kind == D_KEEP)
			return 0;
		if (d[k].kind == D_REVERT)
			return 1;
	}
	return 0;
}

static int do_run(const char *dir, const char *id, const char *job, acc_t *a, long warmup)
{
	char p[4400], err[1024];
	dline_t *rev = NULL;
	size_t nrev = 0;
	if (read_decisions(dir, id, job, a, &rev, &nrev) != 0)
		return -1;
	snprintf(p, sizeof p, "%s/runs/%s/epochs.csv", dir, id);
	react_epoch_table_t *t = NULL;
	if (react_epochs_csv_read(p, &t, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "bench-decisions: %s\n", err);
		free(rev);
		return -1;
	}
	/* the job's REACT rows in epoch order (epochs.csv: by job, then epoch) */
	const react_epoch_row_t **rows = malloc((t->n ? t->n : 1) * sizeof *rows);
	if (!rows) {
		react_epoch_table_destroy(t);
		free(rev);
		return -1;
	}
	long n = 0, last = 0;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].mode, "react") && !strcmp(t->rows[i].job, job))
			rows[n++] = &t->rows[i];
	for (long i = 0; i < n;) {
		long k = i;
		while (k + 1 < n && rows[k + 1]->pattern_hash == rows[i]->pattern_hash &&
		       rows[k + 1]->epoch == rows[k]->epoch + 1)
			k++;
		int r = stretch_reverted(rev, nrev, rows[i]->pattern_hash, rows[i]->epoch,
		                         rows[k]->epoch, k == n - 1);
		for (long q = i; q <= k; q++)
			if (rows[q]->epoch >= warmup) {
				a->meas_epochs++;
				a->reverted_epochs += r;
			}
		i = k + 1;
	}
	for (long i = 0; i < n; i++) {
		const react_epoch_row_t *r = rows[i];
		if (r->epoch >= n / 2) {
			a->half_epochs++;
			a->half_changes += r->changed;
		}
		if (r->changed && r->epoch > last)
			last = r->epoch;
	}
	free(rows);
	a->runs++;
	a->sum_settle += (double)last;
	a->sum_len += (double)n;
	react_epoch_table_destroy(t);
	free(rev);
	return 0;
}

static int do_set(const char *dir, acc_t *a)
{
	char p[4400];
	snprintf(p, sizeof p, "%s/runs.csv", dir);
	char *text = slurp(p);
	if (!text) {
		fprintf(stderr, "bench-decisions: %s: cannot read\n", p);
		return -1;
	}
	char *save = NULL, *h[128];
	int nh = 0, cid = -1, cjob = -1, creact = -1, cimp = -1, corc = -1, rc = 0;
	a->worst_low = a->worst_p0 = INFINITY;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!nh) {
			nh = split(l, h, 128);
			cid = col(h, nh, "id");
			cjob = col(h, nh, "job");
			creact = col(h, nh, "react");
			cimp = col(h, nh, "improvement_mean_pct");
			corc = col(h, nh, "oracle_impr_pct");
			if (cid < 0 || cjob < 0 || creact < 0 || cimp < 0) {
				fprintf(stderr, "bench-decisions: %s: expected the columns id, job, react, "
				        "improvement_mean_pct (and oracle_impr_pct: a sweep made with "
				        "--oracle)\n", p);
				rc = -1;
				break;
			}
			a->no_oracle = corc < 0;
			continue;
		}
		char *f[128];
		int nf = split(l, f, 128);
		if (nf != nh) {
			fprintf(stderr, "bench-decisions: %s: a row with %d fields, expected %d\n", p, nf, nh);
			rc = -1;
			break;
		}
		if (atoi(f[creact]) != 1)
			continue;
		double imp = strtod(f[cimp], NULL), orc = corc >= 0 ? strtod(f[corc], NULL) : NAN;
		long warmup;
		int congested;
		if (read_config(dir, f[cid], f[cjob], &warmup, &congested) != 0 ||
		    do_run(dir, f[cid], f[cjob], a, warmup) != 0) {
			rc = -1;
			break;
		}
		a->rows++;
		a->sum_react += imp;
		a->sum_oracle += orc;
		if (corc >= 0 && imp - orc > ABOVE_PTS) {
			a->n_above++;
			if (imp - orc > a->most_above)
				a->most_above = imp - orc;
		}
		if (corc >= 0 && orc < 2.0) {
			a->n_low++;
			if (imp < a->worst_low)
				a->worst_low = imp;
		}
		if (!congested) {
			a->n_p0++;
			if (imp < a->worst_p0)
				a->worst_p0 = imp;
		}
	}
	free(text);
	return rc;
}

static void print_set(const char *name, const acc_t *a)
{
	printf("%s: %ld REACT runs\n", name, a->rows);
	if (!a->rows)
		return;
	double mr = a->sum_react / (double)a->rows, mo = a->sum_oracle / (double)a->rows;
	if (a->no_oracle) {
		printf("  mean gain: REACT %+.2f %% (no oracle: a sweep without --oracle)\n", mr);
	} else {
		printf("  mean gain: REACT %+.2f %%, oracle %+.2f %%; captured ", mr, mo);
		if (mo >= 0.1)
			printf("%.3f\n", mr / mo);
		else
			printf("n/a (oracle gain below 0.1 %%)\n");
		if (a->n_low)
			printf("  worst REACT result where the oracle gains < 2 %%: %+.2f %% (%ld runs)\n",
			       a->worst_low, a->n_low);
		else
			printf("  worst REACT result where the oracle gains < 2 %%: none (no such run)\n");
		if (a->n_above)
			printf("  REACT above the oracle by more than %.0f point: %ld runs (most %+.2f "
			       "points; the oracle's fixed pattern is not the best there)\n",
			       ABOVE_PTS, a->n_above, a->most_above);
	}
	if (a->n_p0)
		printf("  worst REACT result without congestion (p = 0): %+.2f %% (%ld runs)\n",
		       a->worst_p0, a->n_p0);
	printf("  measured epochs on patterns later reverted: %.2f %% (%ld of %ld)\n",
	       a->meas_epochs ? 100.0 * (double)a->reverted_epochs / (double)a->meas_epochs : 0.0,
	       a->reverted_epochs, a->meas_epochs);
	printf("  pattern changes per 100 epochs, second half: %.2f\n",
	       a->half_epochs ? 100.0 * (double)a->half_changes / (double)a->half_epochs : 0.0);
	printf("  pattern settled (last change) at epoch %.1f on average (runs of %.0f epochs)\n",
	       a->sum_settle / (double)a->runs, a->sum_len / (double)a->runs);
	printf("  estimated vs observed gain of judged changes: ");
	double n = (double)a->n_corr;
	double vx = a->sxx - a->sx * a->sx / n, vy = a->syy - a->sy * a->sy / n;
	if (a->n_corr >= 3 && vx > 0 && vy > 0)
		printf("r = %.3f", (a->sxy - a->sx * a->sy / n) / sqrt(vx * vy));
	else
		printf("r = n/a");
	printf(" over %ld changes (%ld of %ld decision lines carry change_est_gain and "
	       "change_obs_gain; %ld of them extensions)\n", a->n_corr, a->lines_judged, a->lines,
	       a->lines_judged - a->n_corr);
}

int main(int argc, char **argv)
{
	const char *names[256];
	int nnames = 0, nsets = 0, rc = 0;
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc < 2 ? stderr : stdout,
		        "usage: bench-decisions [--name NAME]... DIR...\n"
		        "  DIR: a sweep output directory made with react sweep --oracle (without it,\n"
		        "       every figure but the oracle's)\n");
		return argc < 2 ? 2 : 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			if (nnames < 256)
				names[nnames++] = argv[++i];
			continue;
		}
		acc_t a;
		memset(&a, 0, sizeof a);
		const char *name = nsets < nnames ? names[nsets] : NULL;
		if (!name) {
			const char *s = strrchr(argv[i], '/');
			name = s && s[1] ? s + 1 : argv[i];
		}
		nsets++;
		if (do_set(argv[i], &a) != 0) {
			rc = 2;
			continue;
		}
		print_set(name, &a);
	}
	return rc;
}
