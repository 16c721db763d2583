/* The oracle's result files: oracle.csv, oracle-<job>.json, and the oracle
 * columns of summary.csv / runs.csv (react/oracle.h, docs/oracle.md). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/driver.h"
#include "react/oracle.h"
#include "react/pattern_io.h"
#include "results_internal.h"
#include "scenario_internal.h"

#define ORACLE_CSV_HEADER                                                                      \
	"fingerprint,job,react,baseline_mean_gbps,oracle_mean_gbps,oracle_impr_pct,origin,"        \
	"climb_moves,pattern_hash,screen_best_gbps,perm_best_gbps,permutations,candidates,"        \
	"rejected,unchanged,duplicates,screen_evals,full_evals\n"

void react_oracle_files_destroy(react_oracle_files_t *f)
{
	if (!f)
		return;
	for (int32_t j = 0; f->json && j < f->njobs; j++)
		free(f->json[j]);
	free(f->json);
	free(f->csv);
	free(f->oracle_gbps);
	free(f->baseline_gbps);
	free(f);
}

static react_oracle_files_t *files_new(int32_t njobs)
{
	react_oracle_files_t *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->njobs = njobs;
	f->full_evals = -1;
	if (!(f->json = calloc((size_t)njobs, sizeof *f->json)) ||
	    !(f->oracle_gbps = calloc((size_t)njobs, sizeof *f->oracle_gbps)) ||
	    !(f->baseline_gbps = calloc((size_t)njobs, sizeof *f->baseline_gbps))) {
		react_oracle_files_destroy(f);
		return NULL;
	}
	return f;
}

static char *pattern_json(const react_pattern_t *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	react_status_t st = react_pattern_write_json(p, m);
	if (fclose(m) != 0 || st != REACT_OK) {
		free(buf);
		return NULL;
	}
	return buf;
}

react_status_t react_oracle_files_make(const react_oracle_result_t *r,
                                       react_oracle_files_t **out)
{
	react_oracle_files_t *f = files_new(r->njobs);
	sb_t b = {0};
	const react_oracle_stats_t *s = &r->stats;
	*out = NULL;
	if (!f)
		return REACT_ENOMEM;
	f->fingerprint = r->fingerprint;
	f->full_evals = (int64_t)s->full_evals;
	sb_printf(&b, ORACLE_CSV_HEADER);
	for (int32_t j = 0; j < r->njobs; j++) {
		const react_oracle_job_t *o = &r->jobs[j];
		char num[64];
		sb_printf(&b, "%016" PRIx64 ",", r->fingerprint);
		sb_csv_field(&b, o->name);
		sb_printf(&b, ",%d,%.6f,%.6f,%.3f,%s,%" PRId64 ",%016" PRIx64 ",%.6f,%.6f,%" PRIu64
		              ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
		          o->searched, o->baseline_gbps, o->oracle_gbps,
		          react_improvement_pct(o->baseline_gbps, o->oracle_gbps),
		          react_oracle_origin_name(o->origin), o->climb_moves, o->best_hash,
		          o->screen_best_gbps, o->perm_best_gbps, s->permutations, s->candidates,
		          s->rejected, s->unchanged, s->duplicates, s->screen_evals, s->full_evals);
		snprintf(num, sizeof num, "%.6f", o->oracle_gbps);
		f->oracle_gbps[j] = strtod(num, NULL);
		snprintf(num, sizeof num, "%.6f", o->baseline_gbps);
		f->baseline_gbps[j] = strtod(num, NULL);
		if (!(f->json[j] = pattern_json(o->best))) {
			react_oracle_files_destroy(f);
			free(sb_take(&b));
			return REACT_ENOMEM;
		}
	}
	if (!(f->csv = sb_take(&b))) {
		react_oracle_files_destroy(f);
		return REACT_ENOMEM;
	}
	*out = f;
	return REACT_OK;
}

static int col_of(char **hdr, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return (int)i;
	return -1;
}

react_status_t react_oracle_files_load(const char *dir, const react_config_t *cfg, uint64_t fp,
                                       react_oracle_files_t **out)
{
	char p[4400], e[512];
	char *text = NULL, *copy = NULL;
	int32_t nj = cfg->run.njobs;
	react_oracle_files_t *f = NULL;
	uint64_t *hash = calloc((size_t)nj, sizeof *hash);
	unsigned char *seen = calloc((size_t)nj, 1);
	react_status_t st = REACT_OK;

	*out = NULL;
	if (!hash || !seen || !(f = files_new(nj))) {
		st = REACT_ENOMEM;
		goto none;
	}
	snprintf(p, sizeof p, "%.4300s/oracle.csv", dir);
	if (react_read_file(p, &text, NULL, e, sizeof e) != REACT_OK)
		goto none;
	if (!(copy = strdup(text))) {
		st = REACT_ENOMEM;
		goto none;
	}
	char *save = NULL, *hdr[64];
	size_t nh = 0;
	int cfp = -1, cjob = -1, corc = -1, chash = -1, cbase = -1, cfull = -1;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *fl[64];
		if (!nh) {
			nh = react_csv_split(l, hdr, 64);
			cfp = col_of(hdr, nh, "fingerprint");
			cjob = col_of(hdr, nh, "job");
			corc = col_of(hdr, nh, "oracle_mean_gbps");
			chash = col_of(hdr, nh, "pattern_hash");
			cbase = col_of(hdr, nh, "baseline_mean_gbps");
			cfull = col_of(hdr, nh, "full_evals");
			if (cfp < 0 || cjob < 0 || corc < 0 || chash < 0 || cbase < 0)
				goto none;
			continue;
		}
		size_t nf = react_csv_split(l, fl, 64);
		if (nf != nh || strtoull(fl[cfp], NULL, 16) != fp)
			goto none;
		int32_t j;
		for (j = 0; j < nj; j++)
			if (!strcmp(cfg->run.jobs[j].name, fl[cjob]))
				break;
		if (j == nj || seen[j])
			goto none;
		seen[j] = 1;
		f->oracle_gbps[j] = strtod(fl[corc], NULL);
		f->baseline_gbps[j] = strtod(fl[cbase], NULL);
		hash[j] = strtoull(fl[chash], NULL, 16);
		/* the search's counters: the same on every row */
		f->full_evals = cfull < 0 ? -1 : strtoll(fl[cfull], NULL, 10);
	}
	for (int32_t j = 0; j < nj; j++) {
		react_pattern_t *pat = NULL;
		if (!seen[j])
			goto none;
		snprintf(p, sizeof p, "%.4300s/oracle-%.60s.json", dir, cfg->run.jobs[j].name);
		if (react_pattern_read_json(p, &pat, e, sizeof e) != REACT_OK)
			goto none;
		uint64_t h = react_pattern_hash(pat);
		react_pattern_destroy(pat);
		if (h != hash[j] || react_read_file(p, &f->json[j], NULL, e, sizeof e) != REACT_OK)
			goto none;
	}
	f->fingerprint = fp;
	f->csv = text;
	text = NULL;
	*out = f;
	f = NULL;
none:
	react_oracle_files_destroy(f);
	free(text);
	free(copy);
	free(hash);
	free(seen);
	return st;
}

react_status_t react_oracle_files_load_within(const char *dir, const react_config_t *cfg,
                                              const react_oracle_opts_t *o,
                                              react_oracle_files_t **out)
{
	react_oracle_opts_t one = *o;
	react_oracle_files_t *f = NULL;
	react_status_t st;
	uint64_t fp = react_oracle_fingerprint(cfg, o), fp1;
	*out = NULL;
	one.climb_many = 1;
	fp1 = react_oracle_fingerprint(cfg, &one);
	if (fp1 == fp)
		return REACT_OK;
	if ((st = react_oracle_files_load(dir, cfg, fp1, &f)) != REACT_OK || !f)
		return st;
	/* full_evals counts every full-length run of the search (the baseline's
	 * and the final one too), so below climb_evals the budget of steps 3-5
	 * was not spent: the search ended on its own */
	if (f->full_evals < 0 || f->full_evals >= o->climb_evals) {
		react_oracle_files_destroy(f);
		return REACT_OK;
	}
	/* re-stamp: every row starts with the fingerprint, 16 hex digits */
	{
		char old[17], now[17];
		snprintf(old, sizeof old, "%016" PRIx64, fp1);
		snprintf(now, sizeof now, "%016" PRIx64, fp);
		for (char *l = strchr(f->csv, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
			if (!strncmp(l + 1, old, 16))
				memcpy(l + 1, now, 16);
	}
	f->fingerprint = fp;
	*out = f;
	return REACT_OK;
}

react_status_t react_oracle_files_write(const char *dir, const react_config_t *cfg,
                                        const react_oracle_files_t *f, char *err, size_t errlen)
{
	char p[4400];
	react_status_t st;
	if ((st = react_mkdirs(dir, err, errlen)) != REACT_OK)
		return st;
	/* the patterns first: oracle.csv names them, so a reader that finds the
	 * CSV finds them too */
	for (int32_t j = 0; j < f->njobs; j++) {
		snprintf(p, sizeof p, "%.4300s/oracle-%.60s.json", dir, cfg->run.jobs[j].name);
		if ((st = react_write_atomic(p, f->json[j], strlen(f->json[j]), err, errlen)) != REACT_OK)
			return st;
	}
	snprintf(p, sizeof p, "%.4300s/oracle.csv", dir);
	return react_write_atomic(p, f->csv, strlen(f->csv), err, errlen);
}

double react_oracle_captured(double baseline, double react, double oracle)
{
	if (!(baseline > 0) || !(oracle / baseline - 1.0 >= REACT_ORACLE_GAIN_EPS))
		return NAN;
	return (react - baseline) / (oracle - baseline);
}

int react_summary_has_oracle(const char *summary)
{
	const char *nl = strchr(summary, '\n');
	size_t n = nl ? (size_t)(nl - summary) : strlen(summary);
	const char *c = "oracle_mean_gbps";
	for (const char *p = summary; p + strlen(c) <= summary + n; p++)
		if (!strncmp(p, c, strlen(c)) && (p == summary || p[-1] == ',') &&
		    (p[strlen(c)] == ',' || p + strlen(c) == summary + n))
			return 1;
	return 0;
}

int react_oracle_files_baseline_matches(const react_oracle_files_t *f, int32_t j,
                                        double baseline_gbps)
{
	/* both written %.6f: the same baseline reads back the same */
	char num[64];
	snprintf(num, sizeof num, "%.6f", baseline_gbps);
	return j >= 0 && j < f->njobs && strtod(num, NULL) == f->baseline_gbps[j];
}

int react_oracle_files_baseline_ok(const react_oracle_files_t *f, const react_config_t *cfg,
                                   const char *summary, char *why, size_t whylen)
{
	char *text = strdup(summary), *save = NULL;
	int cjob = -1, cb = -1, ok = 1;
	if (!text) {
		snprintf(why, whylen, "out of memory");
		return 0;
	}
	for (char *l = strtok_r(text, "\n", &save); l && ok; l = strtok_r(NULL, "\n", &save)) {
		char *fl[128];
		size_t nf = react_csv_split(l, fl, 128);
		if (cjob < 0) {
			cjob = col_of(fl, nf, "job");
			cb = col_of(fl, nf, "baseline_mean_gbps");
			if (cjob < 0 || cb < 0) {
				snprintf(why, whylen, "summary.csv: no columns job and baseline_mean_gbps");
				ok = 0;
			}
			continue;
		}
		if ((size_t)cjob >= nf || (size_t)cb >= nf)
			continue;
		for (int32_t j = 0; j < f->njobs && j < cfg->run.njobs; j++) {
			if (strcmp(cfg->run.jobs[j].name, fl[cjob]))
				continue;
			double run = strtod(fl[cb], NULL), was = f->baseline_gbps[j];
			if (!react_oracle_files_baseline_matches(f, j, run)) {
				snprintf(why, whylen,
				         "job %s: the oracle was searched against a baseline of %.6f GB/s, "
				         "this run's baseline is %.6f GB/s",
				         cfg->run.jobs[j].name, was, run);
				ok = 0;
			}
		}
	}
	free(text);
	return ok;
}

char *react_summary_add_oracle(const char *summary, const react_config_t *cfg,
                               const react_oracle_files_t *f)
{
	char *text = strdup(summary), *save = NULL;
	sb_t b = {0};
	size_t nbase = 0;
	int cjob = -1, cb = -1, cr = -1, first = 1;
	if (!text)
		return NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *copy = strdup(l), *fl[128];
		if (!copy)
			goto bad;
		size_t nf = react_csv_split(copy, fl, 128);
		if (first) {
			int co = col_of(fl, nf, "oracle_mean_gbps");
			nbase = co >= 0 ? (size_t)co : nf;
			cjob = col_of(fl, nbase, "job");
			cb = col_of(fl, nbase, "baseline_mean_gbps");
			cr = col_of(fl, nbase, "react_mean_gbps");
			free(copy);
			if (cjob < 0 || cb < 0 || cr < 0)
				goto bad;
			sb_printf(&b, "%.*s,oracle_mean_gbps,oracle_impr_pct,captured\n",
			          (int)(nbase < nf ? react_csv_field_offset(l, nbase) - 1 : strlen(l)), l);
			first = 0;
			continue;
		}
		int32_t j;
		if (nf < nbase) {
			free(copy);
			goto bad;
		}
		for (j = 0; j < f->njobs; j++)
			if (!strcmp(cfg->run.jobs[j].name, fl[cjob]))
				break;
		if (j == f->njobs) {
			free(copy);
			goto bad;
		}
		double base = strtod(fl[cb], NULL), react = strtod(fl[cr], NULL), orc = f->oracle_gbps[j];
		double cap = react_oracle_captured(base, react, orc);
		free(copy);
		size_t keep = nbase < nf ? react_csv_field_offset(l, nbase) - 1 : strlen(l);
		sb_printf(&b, "%.*s,%.6f,%.3f,", (int)keep, l, orc, react_improvement_pct(base, orc));
		if (isnan(cap))
			sb_printf(&b, "n/a\n");
		else
			sb_printf(&b, "%.3f\n", cap);
	}
	free(text);
	return first ? (free(sb_take(&b)), NULL) : sb_take(&b);
bad:
	free(text);
	free(sb_take(&b));
	return NULL;
}
