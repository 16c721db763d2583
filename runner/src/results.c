/* Result files of simulated runs: run directories, runs.csv, epochs.csv. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "react/generators.h"
#include "react/oracle.h"
#include "react/pattern_io.h"
#include "react/results.h"
#include "react/trace.h"
#include "results_internal.h"
#include "scenario_internal.h"

/* ---- growing strings ---- */

int sb_printf(sb_t *b, const char *fmt, ...)
{
	va_list ap;
	if (b->failed)
		return -1;
	for (;;) {
		size_t room = b->cap - b->len;
		va_start(ap, fmt);
		int n = b->buf ? vsnprintf(b->buf + b->len, room, fmt, ap) : -2;
		va_end(ap);
		if (n >= 0 && (size_t)n < room) {
			b->len += (size_t)n;
			return 0;
		}
		size_t need = b->len + (n > 0 ? (size_t)n : 0) + 1;
		size_t nc = b->cap ? b->cap * 2 : 1024;
		while (nc < need)
			nc *= 2;
		char *nb = realloc(b->buf, nc);
		if (!nb) {
			b->failed = 1;
			return -1;
		}
		b->buf = nb;
		b->cap = nc;
	}
}

char *sb_take(sb_t *b)
{
	if (b->failed) {
		free(b->buf);
		b->buf = NULL;
		return NULL;
	}
	if (!b->buf)
		sb_printf(b, "%s", "");
	char *r = b->buf;
	b->buf = NULL;
	b->len = b->cap = 0;
	return r;
}

/* ---- fingerprint ---- */

typedef struct fnv {
	uint64_t h;
} fnv_t;

static void fnv_bytes(fnv_t *f, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		f->h ^= c[i];
		f->h *= 1099511628211ull;
	}
}
static void fnv_i64(fnv_t *f, int64_t v) { fnv_bytes(f, &v, sizeof v); }
static void fnv_dbl(fnv_t *f, double v) { fnv_bytes(f, &v, sizeof v); }
static void fnv_str(fnv_t *f, const char *s) { fnv_bytes(f, s, strlen(s) + 1); }

static uint64_t config_fp(const react_config_t *cfg, int with_params)
{
	fnv_t f = {1469598103934665603ull};
	const react_run_cfg_t *r = &cfg->run;
	const react_topology_t *t = r->topo;
	fnv_str(&f, cfg->backend);
	fnv_i64(&f, t->nnodes);
	fnv_i64(&f, t->nhosts);
	for (int32_t h = 0; h < t->nhosts; h++)
		fnv_i64(&f, t->host_node[h]);
	fnv_i64(&f, t->nlinks);
	for (int32_t l = 0; l < t->nlinks; l++) {
		fnv_i64(&f, t->links[l].a);
		fnv_i64(&f, t->links[l].b);
		fnv_dbl(&f, t->links[l].rate_bps);
		fnv_dbl(&f, t->links[l].delay_s);
	}
	fnv_i64(&f, r->njobs);
	for (int32_t j = 0; j < r->njobs; j++) {
		const react_job_cfg_t *jc = &r->jobs[j];
		const react_params_t *p = &cfg->params[j];
		fnv_str(&f, jc->name);
		fnv_i64(&f, jc->nranks);
		for (int32_t k = 0; k < jc->nranks; k++)
			fnv_i64(&f, jc->hosts[k]);
		fnv_i64(&f, jc->collective);
		fnv_i64(&f, jc->algorithm);
		fnv_i64(&f, (int64_t)jc->message_bytes);
		fnv_i64(&f, jc->epochs);
		fnv_dbl(&f, jc->compute_gap_s);
		fnv_dbl(&f, jc->start_s);
		fnv_i64(&f, cfg->react_on[j]);
		fnv_i64(&f, cfg->warmup[j]);
		/* keep_running and a pattern file's pattern: absent when unset, so
		 * that the fingerprints of runs without them stay what they were */
		if (jc->keep_running)
			fnv_str(&f, "keep_running");
		if (cfg->pattern && cfg->pattern[j]) {
			fnv_str(&f, "pattern");
			fnv_i64(&f, (int64_t)react_pattern_hash(cfg->pattern[j]));
		}
		if (!with_params)
			continue;
		/* every parameter of the controller's table, by name and value,
		 * but search_threads: how many threads search, not what they
		 * find (a sweep resumed with another number is the same sweep) */
		for (size_t i = 0; i < react_params_count(); i++) {
			const char *name;
			char v[64];
			react_params_describe(i, &name, NULL, NULL, NULL, NULL);
			if (strcmp(name, "search_threads") &&
			    react_params_get(p, name, v, sizeof v) == REACT_OK) {
				fnv_str(&f, name);
				fnv_str(&f, v);
			}
		}
	}
	fnv_i64(&f, (int64_t)r->next);
	for (size_t i = 0; i < r->next; i++) {
		fnv_i64(&f, r->ext[i].src_host);
		fnv_i64(&f, r->ext[i].dst_host);
		fnv_i64(&f, r->ext[i].count);
		fnv_dbl(&f, r->ext[i].start_s);
		fnv_dbl(&f, r->ext[i].end_s);
	}
	fnv_i64(&f, (int64_t)r->ndegraded);
	for (size_t i = 0; i < r->ndegraded; i++) {
		fnv_i64(&f, r->degraded[i].link);
		fnv_dbl(&f, r->degraded[i].rate_bps);
	}
	fnv_i64(&f, r->ecmp_ports);
	fnv_i64(&f, r->mtu);
	fnv_i64(&f, (int64_t)r->seed);
	if (!strcmp(cfg->backend, "gpu")) {
		/* the gpu backend's section (the simulators do not read it, so
		 * their fingerprints leave it out and stay as they were) */
		const react_gpu_cfg_t *g = &cfg->gpu;
		fnv_str(&f, g->transport);
		fnv_str(&f, g->dtype);
		fnv_i64(&f, g->check);
		fnv_dbl(&f, g->latency_s);
		fnv_dbl(&f, g->bandwidth_Bps);
		fnv_i64(&f, g->npairs);
		for (int32_t i = 0; i < g->npairs; i++) {
			fnv_i64(&f, g->pairs[i][0]);
			fnv_i64(&f, g->pairs[i][1]);
		}
		fnv_dbl(&f, g->p);
		fnv_i64(&f, g->start_epoch);
	}
	return f.h;
}

uint64_t react_config_fingerprint(const react_config_t *cfg)
{
	return config_fp(cfg, 1);
}

uint64_t react_config_fingerprint_noparams(const react_config_t *cfg)
{
	return config_fp(cfg, 0);
}

/* ---- runs.csv ---- */

void sb_csv_field(sb_t *b, const char *v)
{
	if (react_csv_needs_quotes(v)) {
		sb_printf(b, "\"");
		for (const char *c = v; *c; c++)
			sb_printf(b, *c == '"' ? "\"\"" : "%c", *c);
		sb_printf(b, "\"");
	} else {
		sb_printf(b, "%s", v);
	}
}

char *react_runs_csv_header(const react_scenario_t *s)
{
	sb_t b = {0};
	sb_printf(&b, "id");
	for (size_t i = 0; i < react_scenario_naxes(s); i++) {
		sb_printf(&b, ",");
		sb_csv_field(&b, react_scenario_axis_name(s, i));
	}
	sb_printf(&b, ",job,react,baseline_mean_gbps,baseline_p95_gbps,react_mean_gbps,"
	              "react_p95_gbps,improvement_mean_pct,improvement_p95_pct,pattern_changes,"
	              "decisions,reverts,batches\n");
	return sb_take(&b);
}

char *react_runs_csv_rows(const react_scenario_t *s, const react_config_t *cfg,
                          const react_pair_result_t *pr)
{
	sb_t b = {0};
	(void)s;
	for (int32_t j = 0; j < pr->baseline->njobs; j++) {
		const react_job_summary_t *x = &pr->baseline->jobs[j], *y = &pr->react->jobs[j];
		sb_printf(&b, "%s", cfg->id);
		for (size_t i = 0; i < cfg->naxes; i++) {
			sb_printf(&b, ",");
			sb_csv_field(&b, cfg->axis_value[i]);
		}
		sb_printf(&b, ",");
		sb_csv_field(&b, x->name);
		sb_printf(&b, ",%d,%.6f,%.6f,%.6f,%.6f,%.3f,%.3f,%" PRId64 ",%" PRId64 ",%" PRId64
		              ",%" PRId64 "\n",
		          y->react, x->mean_algbw_gbps, x->p95_algbw_gbps, y->mean_algbw_gbps,
		          y->p95_algbw_gbps, react_improvement_pct(x->mean_algbw_gbps, y->mean_algbw_gbps),
		          react_improvement_pct(x->p95_algbw_gbps, y->p95_algbw_gbps),
		          y->pattern_changes, y->ctl.changes, y->ctl.reverts, y->ctl.batches);
	}
	return sb_take(&b);
}

/* ---- epochs.csv ---- */

char *react_epochs_csv_text(const react_config_t *cfg, const react_pair_result_t *pr)
{
	sb_t b = {0};
	const react_drive_result_t *rs[2] = {pr->baseline, pr->react};
	sb_printf(&b, "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed\n");
	for (int m = 0; m < 2; m++)
		for (size_t i = 0; i < rs[m]->nrecs; i++) {
			const react_epoch_rec_t *r = &rs[m]->recs[i];
			sb_printf(&b, "%s,", react_run_mode_name((react_run_mode_t)m));
			sb_csv_field(&b, cfg->run.jobs[r->job].name);
			sb_printf(&b, ",%" PRId64 ",%.17g,%.17g,%.6f,%016" PRIx64 ",%d\n", r->epoch,
			          r->start_s, r->time_s, r->algbw_gbps, r->pattern_hash, r->changed);
		}
	return sb_take(&b);
}

void react_epoch_table_destroy(react_epoch_table_t *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t);
}

react_status_t react_epochs_csv_read(const char *path, react_epoch_table_t **out, char *err,
                                     size_t errlen)
{
	char *text = NULL;
	react_status_t st = react_read_file(path, &text, NULL, err, errlen);
	react_epoch_table_t *t = NULL;
	int col_mode = -1, col_job = -1, col_epoch = -1, col_start = -1, col_time = -1,
	    col_bw = -1, col_hash = -1, col_changed = -1;
	size_t cap = 0;
	long lineno = 0;
	char *save = NULL;

	*out = NULL;
	if (st != REACT_OK)
		return st;
	if (!(t = calloc(1, sizeof *t))) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[64];
		lineno++;
		size_t L = strlen(line);
		if (L && line[L - 1] == '\r')
			line[--L] = 0;
		if (!L || line[0] == '#')
			continue;
		size_t nf = react_csv_split(line, f, 64);
		if (col_epoch < 0 && col_time < 0) {
			for (size_t i = 0; i < nf; i++) {
				int *c = !strcmp(f[i], "mode") ? &col_mode : !strcmp(f[i], "job") ? &col_job
				         : !strcmp(f[i], "epoch") ? &col_epoch
				         : !strcmp(f[i], "start_s") ? &col_start
				         : !strcmp(f[i], "time_s") ? &col_time
				         : !strcmp(f[i], "algbw_gbps") ? &col_bw
				         : !strcmp(f[i], "pattern_hash") ? &col_hash
				         : !strcmp(f[i], "changed") ? &col_changed : NULL;
				if (c)
					*c = (int)i;
			}
			if (col_epoch < 0 || col_time < 0) {
				snprintf(err, errlen, "%s:%ld: expected a header with at least the columns "
				         "epoch and time_s (see docs/scenarios.md)", path, lineno);
				st = REACT_EPARSE;
				goto fail;
			}
			continue;
		}
		int maxc = col_epoch > col_time ? col_epoch : col_time;
		if ((int)nf <= maxc) {
			snprintf(err, errlen, "%s:%ld: expected at least %d fields, got %zu", path, lineno,
			         maxc + 1, nf);
			st = REACT_EPARSE;
			goto fail;
		}
		if (t->n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			react_epoch_row_t *nr = realloc(t->rows, nc * sizeof *nr);
			if (!nr) {
				st = REACT_ENOMEM;
				goto fail;
			}
			t->rows = nr;
			cap = nc;
		}
		react_epoch_row_t *r = &t->rows[t->n];
		memset(r, 0, sizeof *r);
		snprintf(r->mode, sizeof r->mode, "%s",
		         col_mode >= 0 && col_mode < (int)nf ? f[col_mode] : "run");
		snprintf(r->job, sizeof r->job, "%s",
		         col_job >= 0 && col_job < (int)nf ? f[col_job] : "job");
		if (sc_parse_int(f[col_epoch], &r->epoch) != REACT_OK || r->epoch < 0 ||
		    sc_parse_double(f[col_time], &r->time_s) != REACT_OK || !(r->time_s > 0)) {
			snprintf(err, errlen, "%s:%ld: expected epoch >= 0 and time_s > 0, got '%s' and "
			         "'%s'", path, lineno, f[col_epoch], f[col_time]);
			st = REACT_EPARSE;
			goto fail;
		}
		if (col_start >= 0 && col_start < (int)nf)
			sc_parse_double(f[col_start], &r->start_s);
		r->algbw_gbps = -1;
		if (col_bw >= 0 && col_bw < (int)nf)
			sc_parse_double(f[col_bw], &r->algbw_gbps);
		if (col_hash >= 0 && col_hash < (int)nf)
			r->pattern_hash = strtoull(f[col_hash], NULL, 16);
		if (col_changed >= 0 && col_changed < (int)nf)
			r->changed = atoi(f[col_changed]) != 0;
		t->n++;
	}
	if (col_epoch < 0) {
		snprintf(err, errlen, "%s: empty file; expected an epochs.csv header", path);
		st = REACT_EPARSE;
		goto fail;
	}
	free(text);
	*out = t;
	return REACT_OK;
fail:
	free(text);
	react_epoch_table_destroy(t);
	return st;
}

react_status_t react_read_file_text(const char *path, char **out, char *err, size_t errlen)
{
	return react_read_file(path, out, NULL, err, errlen);
}

react_status_t react_write_file_atomic(const char *path, const char *text, char *err,
                                       size_t errlen)
{
	return react_write_atomic(path, text, strlen(text), err, errlen);
}

/* ---- run directories ---- */

static void run_paths(const char *out, const char *id, char *final, size_t n)
{
	snprintf(final, n, "%s/runs/%s", out, id);
}

static char *config_text(const react_config_t *cfg);

/* A whole CSV field that strtod reads to its end. */
static int csv_number(const char *v)
{
	char *end;
	if (!*v)
		return 0;
	(void)strtod(v, &end);
	return !*end;
}

/* The line of text starting at p, up to its newline: a malloc'd copy, or
 * NULL when it has no newline (a file cut short) or memory ran out. */
static char *line_dup(const char *p, const char **next)
{
	const char *e = strchr(p, '\n');
	if (!e)
		return NULL;
	*next = e + 1;
	return strndup(p, (size_t)(e - p));
}

#define ORACLE_HEADER ",oracle_mean_gbps,oracle_impr_pct,captured"

/* summary.csv of a run directory: the sweep's header (with or without the
 * oracle columns), then one row per job of cfg, in order, with its id, its
 * swept values and a number in every numeric column.  0, or -1 with why. */
static int summary_check(const char *text, const react_scenario_t *s, const react_config_t *cfg,
                         char *why, size_t whylen)
{
	char *h = react_runs_csv_header(s), *l = NULL, *f[256];
	int rc = -1;
	if (!h) {
		snprintf(why, whylen, "summary.csv: out of memory while checking it");
		return -1;
	}
	size_t hl = strlen(h) - 1, ol = strlen(ORACLE_HEADER), l1 = strcspn(text, "\n");
	if (!*text) {
		snprintf(why, whylen, "summary.csv: empty");
		goto done;
	}
	int oracle = l1 == hl + ol && !strncmp(text + hl, ORACLE_HEADER, ol);
	if (!text[l1] || strncmp(text, h, hl) || (l1 != hl && !oracle)) {
		snprintf(why, whylen, "summary.csv line 1: expected the header '%.*s' (the oracle's "
		         "columns may follow)", (int)hl, h);
		goto done;
	}
	size_t nax = cfg->naxes, ncols = 13 + nax + (oracle ? 3 : 0);
	const char *p = text + l1 + 1;
	for (int32_t j = 0; j < cfg->run.njobs; j++) {
		size_t line = (size_t)j + 2;
		free(l);
		l = NULL;
		if (!*p) {
			snprintf(why, whylen, "summary.csv: %d rows, expected one per job (%d)", (int)j,
			         (int)cfg->run.njobs);
			goto done;
		}
		if (!(l = line_dup(p, &p))) {
			snprintf(why, whylen, "summary.csv line %zu: cut short (no end of line)", line);
			goto done;
		}
		size_t nf = react_csv_split(l, f, 256);
		if (nf != ncols) {
			snprintf(why, whylen, "summary.csv line %zu: expected %zu fields, got %zu", line,
			         ncols, nf);
			goto done;
		}
		int same = !strcmp(f[0], cfg->id) && !strcmp(f[1 + nax], cfg->run.jobs[j].name);
		for (size_t i = 0; same && i < nax; i++)
			same = !strcmp(f[1 + i], cfg->axis_value[i]);
		if (!same) {
			snprintf(why, whylen, "summary.csv line %zu: expected configuration %s, job %s",
			         line, cfg->id, cfg->run.jobs[j].name);
			goto done;
		}
		for (size_t k = 2 + nax; k < ncols; k++)
			if (!csv_number(f[k]) && !(oracle && k == ncols - 1 && !strcmp(f[k], "n/a"))) {
				snprintf(why, whylen, "summary.csv line %zu: field %zu: expected a number, "
				         "got '%.40s'", line, k + 1, f[k]);
				goto done;
			}
	}
	if (*p) {
		snprintf(why, whylen, "summary.csv: more rows than jobs (%d)", (int)cfg->run.njobs);
		goto done;
	}
	rc = 0;
done:
	free(l);
	free(h);
	return rc;
}

#define EPOCHS_HEADER "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed\n"

/* epochs.csv of a run directory: every epoch of every job of cfg once in
 * each run (baseline, react), complete rows.  0, or -1 with why. */
static int epochs_check(const char *text, const react_config_t *cfg, char *why, size_t whylen)
{
	int32_t nj = cfg->run.njobs;
	unsigned char *seen = NULL;
	size_t *base = calloc((size_t)nj + 1, sizeof *base), rows = 0, line = 1;
	char *l = NULL, *f[16];
	int rc = -1;
	if (!*text) {
		snprintf(why, whylen, "epochs.csv: empty");
		goto done;
	}
	if (!base)
		goto oom;
	for (int32_t j = 0; j < nj; j++)
		base[j + 1] = base[j] + 2 * (size_t)cfg->run.jobs[j].epochs;
	if (!(seen = calloc(base[nj] ? base[nj] : 1, 1)))
		goto oom;
	if (strncmp(text, EPOCHS_HEADER, strlen(EPOCHS_HEADER))) {
		snprintf(why, whylen, "epochs.csv line 1: expected the header '%.*s'",
		         (int)strlen(EPOCHS_HEADER) - 1, EPOCHS_HEADER);
		goto done;
	}
	for (const char *p = text + strlen(EPOCHS_HEADER); *p; rows++) {
		line++;
		free(l);
		if (!(l = line_dup(p, &p))) {
			snprintf(why, whylen, "epochs.csv line %zu: cut short (no end of line)", line);
			goto done;
		}
		size_t nf = react_csv_split(l, f, 16);
		int32_t j = 0;
		int m = nf == 8 ? (!strcmp(f[0], "baseline") ? 0 : !strcmp(f[0], "react") ? 1 : -1) : -1;
		while (m >= 0 && j < nj && strcmp(f[1], cfg->run.jobs[j].name))
			j++;
		char *end = "";
		long long e = m >= 0 ? strtoll(f[2], &end, 10) : -1;
		int ok = m >= 0 && j < nj && *f[2] && !*end && e >= 0 && e < cfg->run.jobs[j].epochs &&
		         csv_number(f[3]) && csv_number(f[4]) && strtod(f[4], NULL) > 0 &&
		         csv_number(f[5]) && strlen(f[6]) == 16 && strspn(f[6], "0123456789abcdef") == 16 &&
		         (!strcmp(f[7], "0") || !strcmp(f[7], "1"));
		if (!ok) {
			snprintf(why, whylen, "epochs.csv line %zu: expected baseline|react, one of the "
			         "configuration's jobs, an epoch of it and numbers", line);
			goto done;
		}
		size_t at = base[j] + (size_t)m * (size_t)cfg->run.jobs[j].epochs + (size_t)e;
		if (seen[at]++) {
			snprintf(why, whylen, "epochs.csv line %zu: epoch %lld of %s, %s, a second time",
			         line, e, f[0], f[1]);
			goto done;
		}
	}
	if (rows != base[nj]) {
		snprintf(why, whylen, "epochs.csv: %zu epoch rows, expected %zu (every epoch of every "
		         "job, baseline and react)", rows, base[nj]);
		goto done;
	}
	rc = 0;
	goto done;
oom:
	snprintf(why, whylen, "epochs.csv: out of memory while checking it");
done:
	free(l);
	free(seen);
	free(base);
	return rc;
}

/* decisions.jsonl: complete lines, each one JSON object. */
static int decisions_check(const char *text, char *why, size_t whylen)
{
	size_t line = 0;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		line++;
		if (!e || *p != '{' || e[-1] != '}') {
			snprintf(why, whylen, "decisions.jsonl line %zu: %s", line,
			         e ? "expected one JSON object" : "cut short (no end of line)");
			return -1;
		}
		p = e + 1;
	}
	return 0;
}

react_run_dir_state_t react_run_dir_check(const char *out, const react_scenario_t *s,
                                          const react_config_t *cfg, char *why, size_t whylen)
{
	static const char *const names[] = {"config.txt", "summary.csv", "epochs.csv",
	                                    "decisions.jsonl"};
	char dir[4096], p[4300], err[512], *text[4] = {NULL}, *want = NULL;
	react_run_dir_state_t st = REACT_RUN_DIR_DAMAGED;
	struct stat sd;
	run_paths(out, cfg->id, dir, sizeof dir);
	if (stat(dir, &sd) != 0 && errno == ENOENT)
		return REACT_RUN_DIR_MISSING;
	for (int k = 0; k < 4; k++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[k]);
		if (react_read_file(p, &text[k], NULL, err, sizeof err) != REACT_OK) {
			snprintf(why, whylen, "%s: missing or unreadable", names[k]);
			goto done;
		}
	}
	uint64_t fp = react_config_fingerprint(cfg);
	unsigned long long had;
	int used = 0;
	if (sscanf(text[0], "fingerprint %16llx\n%n", &had, &used) != 1 || used != 29) {
		snprintf(why, whylen, "config.txt line 1: expected 'fingerprint' and 16 hex digits");
		goto done;
	}
	if (had != fp) {
		snprintf(why, whylen, "made from other inputs (fingerprint %016llx, this configuration "
		         "%016" PRIx64 ")", had, fp);
		st = REACT_RUN_DIR_STALE;
		goto done;
	}
	if (!(want = config_text(cfg)) || strcmp(want, text[0])) {
		snprintf(why, whylen, "config.txt: %s", want ? "differs from this configuration's "
		         "description below its fingerprint" : "out of memory while checking it");
		goto done;
	}
	if (summary_check(text[1], s, cfg, why, whylen) || epochs_check(text[2], cfg, why, whylen) ||
	    decisions_check(text[3], why, whylen))
		goto done;
	st = REACT_RUN_DIR_DONE;
done:
	for (int k = 0; k < 4; k++)
		free(text[k]);
	free(want);
	return st;
}

/* ---- a baseline that ran before ---- */

/* config.txt's description past its first three lines (fingerprint, id,
 * key), or NULL when it does not start with them. */
static const char *desc_past_key(const char *text)
{
	static const char *const first[3] = {"fingerprint ", "id ", "key "};
	for (int k = 0; k < 3; k++) {
		if (strncmp(text, first[k], strlen(first[k])))
			return NULL;
		if (!(text = strchr(text, '\n')))
			return NULL;
		text++;
	}
	return text;
}

/* 1 when DIR/config.txt describes the configuration whose description past
 * its key is want. */
static int same_config(const char *dir, const char *want)
{
	char p[4400], err[256], *text = NULL;
	snprintf(p, sizeof p, "%.4300s/config.txt", dir);
	if (react_read_file(p, &text, NULL, err, sizeof err) != REACT_OK)
		return 0;
	const char *have = desc_past_key(text);
	int same = have && !strcmp(have, want);
	free(text);
	return same;
}

static int not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* FROM/runs/<name> of the first run directory (cfg->id's first, then in
 * name order) whose config.txt describes cfg; 0 when none does. */
static int find_same_config(const char *from, const react_config_t *cfg, const char *want,
                            char *dir, size_t n)
{
	char runs[4096];
	snprintf(runs, sizeof runs, "%.4000s/runs", from);
	snprintf(dir, n, "%s/%s", runs, cfg->id);
	if (same_config(dir, want))
		return 1;
	/* the program keeps the C locale, so alphasort is byte order */
	struct dirent **names = NULL;
	int nn = scandir(runs, &names, not_hidden, alphasort), found = 0;
	for (int i = 0; i < nn; i++) {
		if (!found) {
			snprintf(dir, n, "%s/%s", runs, names[i]->d_name);
			found = same_config(dir, want);
		}
		free(names[i]);
	}
	free(names);
	return found;
}

react_status_t react_run_dir_baseline(const char *from, const react_config_t *cfg,
                                      react_drive_result_t **out, char *why, size_t whylen)
{
	char dir[4400], p[4500], err[512], *want = NULL;
	react_epoch_table_t *t = NULL;
	react_epoch_rec_t *recs = NULL;
	react_status_t st = REACT_ENOMEM;
	struct stat sd;
	*out = NULL;
	if (stat(from, &sd) != 0 || !S_ISDIR(sd.st_mode)) {
		snprintf(why, whylen, "not a directory");
		return REACT_EIO;
	}
	/* the same inputs as far as config.txt records them: its description
	 * past the id and key (the fingerprint covers REACT's parameters too,
	 * and the baseline does not read them) */
	const char *want_desc = (want = config_text(cfg)) ? desc_past_key(want) : NULL;
	if (!want_desc) {
		snprintf(why, whylen, "out of memory");
		goto done;
	}
	if (!find_same_config(from, cfg, want_desc, dir, sizeof dir)) {
		snprintf(why, whylen, "no run directory describes this configuration (config.txt "
		         "past its key)");
		st = REACT_EIO;
		goto done;
	}
	snprintf(p, sizeof p, "%s/epochs.csv", dir);
	if ((st = react_epochs_csv_read(p, &t, err, sizeof err)) != REACT_OK) {
		snprintf(why, whylen, "%s", err);
		goto done;
	}
	st = REACT_ENOMEM;
	if (!(recs = malloc((t->n ? t->n : 1) * sizeof *recs))) {
		snprintf(why, whylen, "out of memory");
		goto done;
	}
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		const react_epoch_row_t *r = &t->rows[i];
		if (strcmp(r->mode, "baseline"))
			continue;
		int32_t j = 0;
		while (j < cfg->run.njobs && strcmp(cfg->run.jobs[j].name, r->job))
			j++;
		if (j == cfg->run.njobs) {
			snprintf(why, whylen, "%s: a baseline epoch of job '%s', which this configuration "
			         "does not have", p, r->job);
			st = REACT_EINVAL;
			goto done;
		}
		/* as the driver records it: the time to the last digit (%.17g), the
		 * bandwidth from it */
		recs[n++] = (react_epoch_rec_t){j, r->epoch, r->start_s, r->time_s,
		                                (double)cfg->run.jobs[j].message_bytes / r->time_s / 1e9,
		                                r->pattern_hash, r->changed};
	}
	if ((st = react_drive_result_of_records(&cfg->run, cfg->warmup, recs, n, out, err,
	                                        sizeof err)) != REACT_OK)
		snprintf(why, whylen, "%s, the baseline: %s", p, err);
done:
	free(want);
	free(recs);
	react_epoch_table_destroy(t);
	return st;
}

typedef struct trace_ctx {
	react_trace_writer_t **w;
	int32_t njobs;
	react_status_t st;
} trace_ctx_t;

static react_status_t trace_hook(void *ctx, react_run_mode_t mode, const react_epoch_report_t *rep)
{
	trace_ctx_t *t = ctx;
	if (mode != REACT_MODE_REACT || rep->job < 0 || rep->job >= t->njobs || !t->w[rep->job])
		return REACT_OK;
	return react_trace_append(t->w[rep->job], rep->epoch, rep->end_s - rep->start_s,
	                          react_pattern_hash(rep->pattern), rep->fct_s,
	                          rep->pattern->nflows);
}

static char *config_text(const react_config_t *cfg)
{
	sb_t b = {0};
	const react_run_cfg_t *r = &cfg->run;
	sb_printf(&b, "fingerprint %016" PRIx64 "\n", react_config_fingerprint(cfg));
	sb_printf(&b, "id %s\nkey %s\nbackend %s\nseed %" PRIu64 "\n", cfg->id, cfg->key,
	          cfg->backend, cfg->seed);
	sb_printf(&b, "topology %s nodes %d hosts %d links %d\n", r->topo->name, (int)r->topo->nnodes,
	          (int)r->topo->nhosts, (int)r->topo->nlinks);
	sb_printf(&b, "ecmp_ports %d mtu %u\n", (int)r->ecmp_ports, (unsigned)r->mtu);
	if (!strcmp(cfg->backend, "gpu")) {
		const react_gpu_cfg_t *g = &cfg->gpu;
		sb_printf(&b, "gpu transport %s dtype %s check %d latency_s %.17g bandwidth_Bps %.17g "
		              "congestion p %.17g start_epoch %" PRId64 " pairs",
		          g->transport, g->dtype, g->check, g->latency_s, g->bandwidth_Bps, g->p,
		          g->start_epoch);
		for (int32_t i = 0; i < g->npairs; i++)
			sb_printf(&b, " %d-%d", (int)g->pairs[i][0], (int)g->pairs[i][1]);
		sb_printf(&b, "\n");
	}
	for (int32_t j = 0; j < r->njobs; j++) {
		const react_job_cfg_t *jc = &r->jobs[j];
		sb_printf(&b, "job %s ranks %d %s %s message %" PRIu64 " epochs %" PRId64
		              " warmup %" PRId64 " react %d hosts",
		          jc->name, (int)jc->nranks, react_collective_name(jc->collective),
		          react_algorithm_name(jc->algorithm), jc->message_bytes, jc->epochs,
		          cfg->warmup[j], cfg->react_on[j]);
		for (int32_t k = 0; k < jc->nranks; k++)
			sb_printf(&b, " %d", (int)jc->hosts[k]);
		sb_printf(&b, "\n");
		if (jc->keep_running)
			sb_printf(&b, "keep_running %s\n", jc->name);
		if (cfg->pattern && cfg->pattern[j])
			sb_printf(&b, "pattern %s file %s hash %016" PRIx64 "\n", jc->name,
			          cfg->pattern_file && cfg->pattern_file[j] ? cfg->pattern_file[j] : "?",
			          react_pattern_hash(cfg->pattern[j]));
	}
	if (r->seed != cfg->seed)
		sb_printf(&b, "ecmp_seed %" PRIu64 "\n", r->seed);
	for (size_t i = 0; i < r->next; i++)
		sb_printf(&b, "external %d -> %d x %d\n", (int)r->ext[i].src_host,
		          (int)r->ext[i].dst_host, (int)r->ext[i].count);
	for (size_t i = 0; i < r->ndegraded; i++) {
		const react_link_t *l = &r->topo->links[r->degraded[i].link];
		sb_printf(&b, "degraded link %d (%s - %s) %.6g bps\n", (int)r->degraded[i].link,
		          r->topo->node_name[l->a], r->topo->node_name[l->b], r->degraded[i].rate_bps);
	}
	return sb_take(&b);
}

static react_status_t write_text(const char *dir, const char *name, char *text, char *err,
                                 size_t errlen)
{
	char p[4400];
	if (!text)
		return REACT_ENOMEM;
	snprintf(p, sizeof p, "%.4200s/%.190s", dir, name);
	react_status_t st = react_write_atomic(p, text, strlen(text), err, errlen);
	free(text);
	return st;
}

react_status_t react_run_dir_make(const char *out, const react_scenario_t *s,
                                  const react_config_t *cfg, const react_run_write_opts_t *o,
                                  react_pair_result_t *pr_out, char *err, size_t errlen)
{
	react_status_t st;
	char runs[4096], tmp[4200], final[4200];
	int32_t nj = cfg->run.njobs;
	FILE **logs = calloc((size_t)nj, sizeof *logs);
	char **logbuf = calloc((size_t)nj, sizeof *logbuf);
	size_t *loglen = calloc((size_t)nj, sizeof *loglen);
	react_trace_writer_t **tw = calloc((size_t)nj, sizeof *tw);
	react_pair_result_t pr = {0};
	trace_ctx_t tctx = {tw, nj, REACT_OK};
	int made_tmp = 0;

	if (pr_out)
		pr_out->baseline = pr_out->react = NULL;
	if (!logs || !logbuf || !loglen || !tw) {
		st = REACT_ENOMEM;
		goto fail;
	}
	snprintf(runs, sizeof runs, "%s/runs", out);
	if ((st = react_mkdirs(runs, err, errlen)) != REACT_OK)
		goto fail;
	snprintf(tmp, sizeof tmp, "%s/.tmp-%s.%ld", runs, cfg->id, (long)getpid());
	snprintf(final, sizeof final, "%s/%s", runs, cfg->id);
	react_rmtree(tmp);
	if (mkdir(tmp, 0777) != 0) {
		snprintf(err, errlen, "%s: cannot create directory: %s", tmp, strerror(errno));
		st = REACT_EIO;
		goto fail;
	}
	made_tmp = 1;
	const react_backend_ops_t *be = o && o->backend ? o->backend : &react_backend_flow;
	for (int32_t j = 0; j < nj; j++) {
		if (!(logs[j] = open_memstream(&logbuf[j], &loglen[j]))) {
			st = REACT_ENOMEM;
			goto fail;
		}
		if (o && o->trace && cfg->react_on[j]) {
			char tp[4400];
			const react_job_cfg_t *jc = &cfg->run.jobs[j];
			react_pattern_t *p0 = NULL;
			snprintf(tp, sizeof tp, "%s/pattern-%s.json", tmp, jc->name);
			/* the initial pattern: the job's pattern file's, or the generated one */
			if (cfg->pattern && cfg->pattern[j])
				st = react_pattern_clone(cfg->pattern[j], &p0);
			else
				st = react_pattern_generate(jc->collective, jc->algorithm, jc->nranks,
				                            jc->message_bytes, &p0);
			if (st == REACT_OK)
				st = react_pattern_write_json_path(p0, tp, err, errlen);
			react_pattern_destroy(p0);
			if (st != REACT_OK)
				goto fail;
			/* the header records the backend and the job's parameters, seed
			 * included, so that react replay makes the same decisions */
			react_trace_run_t run = {.params = cfg->params[j]};
			snprintf(run.backend, sizeof run.backend, "%s", be->name);
			snprintf(tp, sizeof tp, "%s/trace-%s.jsonl", tmp, cfg->run.jobs[j].name);
			if ((st = react_trace_open_run(tp, &run, &tw[j])) != REACT_OK) {
				snprintf(err, errlen, "%s: cannot create the trace", tp);
				goto fail;
			}
		}
	}
	react_pair_opts_t po = {logs, NULL, NULL, o ? o->progress : NULL, o ? o->progress_ctx : NULL,
	                        o ? o->baseline : NULL};
	if (o && o->trace) {
		po.on_epoch = trace_hook;
		po.on_epoch_ctx = &tctx;
	}
	if ((st = react_run_pair(be, cfg, &po, &pr, err, errlen)) != REACT_OK)
		goto fail;
	for (int32_t j = 0; j < nj; j++) {
		if (tw[j]) {
			st = react_trace_close(tw[j]);
			tw[j] = NULL;
			if (st != REACT_OK) {
				snprintf(err, errlen, "%s: cannot write the trace of job %s", tmp,
				         cfg->run.jobs[j].name);
				goto fail;
			}
		}
	}
	/* decisions.jsonl: every job's log, with "job" added to each object */
	{
		sb_t b = {0};
		for (int32_t j = 0; j < nj; j++) {
			fclose(logs[j]);
			logs[j] = NULL;
			char *save = NULL;
			for (char *l = strtok_r(logbuf[j], "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
				if (l[0] != '{')
					continue;
				sb_printf(&b, "{\"job\":\"%s\"%s%s\n", cfg->run.jobs[j].name,
				          l[1] == '}' ? "" : ",", l + 1);
			}
		}
		if ((st = write_text(tmp, "decisions.jsonl", sb_take(&b), err, errlen)) != REACT_OK)
			goto fail;
	}
	if ((st = write_text(tmp, "epochs.csv", react_epochs_csv_text(cfg, &pr), err, errlen)) !=
	    REACT_OK)
		goto fail;
	{
		char *h = react_runs_csv_header(s), *rows = react_runs_csv_rows(s, cfg, &pr);
		sb_t b = {0};
		if (h && rows)
			sb_printf(&b, "%s%s", h, rows);
		else
			b.failed = 1;
		free(h);
		free(rows);
		char *text = sb_take(&b);
		if (text && o && o->oracle) {
			char why[512];
			if (!react_oracle_files_baseline_ok(o->oracle, cfg, text, why, sizeof why)) {
				free(text);
				if (o->oracle_stale)
					*o->oracle_stale = 1;
				snprintf(err, errlen, "stored oracle result: %s", why);
				st = REACT_EINVAL;
				goto fail;
			}
			char *with = react_summary_add_oracle(text, cfg, o->oracle);
			free(text);
			if (!with) {
				snprintf(err, errlen, "%s: cannot add the oracle columns to summary.csv", tmp);
				st = REACT_EINVAL;
				goto fail;
			}
			text = with;
		}
		if ((st = write_text(tmp, "summary.csv", text, err, errlen)) != REACT_OK)
			goto fail;
	}
	if (o && o->oracle && (st = react_oracle_files_write(tmp, cfg, o->oracle, err, errlen)) !=
	                          REACT_OK)
		goto fail;
	if ((st = write_text(tmp, "config.txt", config_text(cfg), err, errlen)) != REACT_OK)
		goto fail;
	react_rmtree(final);
	if (rename(tmp, final) != 0) {
		snprintf(err, errlen, "%s: cannot rename into place: %s", final, strerror(errno));
		st = REACT_EIO;
		goto fail;
	}
	made_tmp = 0;
	st = REACT_OK;
	if (pr_out) {
		*pr_out = pr;
		pr.baseline = pr.react = NULL;
	}
fail:
	react_pair_result_clear(&pr);
	for (int32_t j = 0; logs && j < nj; j++)
		if (logs[j])
			fclose(logs[j]);
	for (int32_t j = 0; logbuf && j < nj; j++)
		free(logbuf[j]);
	for (int32_t j = 0; tw && j < nj; j++)
		if (tw[j])
			react_trace_abort(tw[j]);
	if (made_tmp)
		react_rmtree(tmp);
	free(logs);
	free(logbuf);
	free(loglen);
	free(tw);
	return st;
}

react_status_t react_runs_csv_assemble(const char *out, const react_scenario_t *s, char *err,
                                       size_t errlen)
{
	return react_runs_csv_assemble_ex(out, s, 0, err, errlen);
}

/* The oracle columns are the last three of a summary that has them. */
#define ORACLE_COLUMNS 3

react_status_t react_runs_csv_assemble_ex(const char *out, const react_scenario_t *s, int oracle,
                                          char *err, size_t errlen)
{
	sb_t b = {0};
	react_status_t st = REACT_OK;
	char *h = react_runs_csv_header(s);
	if (!h)
		return REACT_ENOMEM;
	if (oracle)
		h[strcspn(h, "\n")] = 0;
	sb_printf(&b, "%s%s", h, oracle ? ",oracle_mean_gbps,oracle_impr_pct,captured\n" : "");
	free(h);
	for (size_t i = 0; i < react_scenario_nconfigs(s); i++) {
		char p[4200], *text = NULL;
		snprintf(p, sizeof p, "%s/runs/c%04u/summary.csv", out, (unsigned)(i % 100000000u));
		if ((st = react_read_file(p, &text, NULL, err, errlen)) != REACT_OK) {
			free(sb_take(&b));
			return st;
		}
		int has = react_summary_has_oracle(text);
		char *body = strchr(text, '\n');
		if (oracle && !has) {
			snprintf(err, errlen, "%s: no oracle columns (expected oracle_mean_gbps, "
			         "oracle_impr_pct, captured)", p);
			free(text);
			free(sb_take(&b));
			return REACT_EPARSE;
		}
		if (body && (oracle || !has)) {
			sb_printf(&b, "%s", body + 1);
		} else if (body) {
			/* a run made with --oracle, assembled without: drop the columns */
			size_t nf = 1;
			for (char *c = text; c < body; c++)
				nf += *c == ',';
			char *save = NULL;
			for (char *l = strtok_r(body + 1, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
				sb_printf(&b, "%.*s\n", (int)(react_csv_field_offset(l, nf - ORACLE_COLUMNS) - 1), l);
		}
		free(text);
	}
	char p[4200];
	snprintf(p, sizeof p, "%s", out);
	return write_text(p, "runs.csv", sb_take(&b), err, errlen);
}
