/*
 * topology_alibaba.c - the Alibaba GPU cluster (Alibaba GPU Cluster Dataset
 * 2023, data/topo.csv: one row per host, columns ip,DSW,PSW,ASW).
 *
 * The file gives, per host, its ToR (ASW), one aggregation switch (PSW) and
 * one core switch (DSW).  The model derived from it:
 *   - ToRs, aggregation and core switches are the distinct ASW, PSW and DSW
 *     names of the whole file, each layer sorted in natural order (S2 < S10).
 *   - Host subset (nhosts > 0): hosts are grouped by ToR (file order inside a
 *     ToR); round r takes the r-th host of every ToR that has one, ToRs in
 *     order, until nhosts hosts are taken.  This keeps every ToR when
 *     nhosts >= number of ToRs (720 of the 847 hosts: all 48 ToRs).  Host
 *     indices then run ToR by ToR (file order inside a ToR); ToRs left without
 *     a host are dropped.
 *   - A ToR links to the PSWs named by its hosts (all of its rows in the file),
 *     the most named first (ties: natural order), at most aggs_per_tor of
 *     them; when its hosts name fewer, it is completed with the other PSWs in
 *     cyclic natural order starting at PSW (tor index mod number of PSWs).
 *   - An aggregation switch links to every DSW named by a host naming it.
 * The 2023 file has 847 hosts, 48 ASWs, 3 PSWs (P8, P10, P12) and 1 DSW (G6):
 * with aggs_per_tor = 3 every ToR links to all three PSWs, and each PSW to G6.
 * Node ids: hosts, then ToRs, aggregation switches, core switches.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology_priv.h"

typedef struct row {
	int32_t dsw, psw, asw; /* indices into the name tables */
} row_t;

typedef struct names {
	char **v;
	int32_t n, cap;
} names_t;

static int32_t names_add(names_t *t, const char *s)
{
	for (int32_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i], s))
			return i;
	if (t->n == t->cap) {
		int32_t nc = t->cap ? 2 * t->cap : 16;
		char **q = realloc(t->v, (size_t)nc * sizeof *q);
		if (!q)
			return -1;
		t->v = q;
		t->cap = nc;
	}
	if (!(t->v[t->n] = strdup(s)))
		return -1;
	return t->n++;
}

static void names_free(names_t *t)
{
	for (int32_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
}

/* Natural order: letters compared as text, digit runs as numbers. */
static int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long long x = strtoull(a, (char **)&a, 10);
			unsigned long long y = strtoull(b, (char **)&b, 10);
			if (x != y)
				return x < y ? -1 : 1;
		} else {
			if (*a != *b)
				return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
			a++;
			b++;
		}
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* rank[i] = position of name i in natural order. */
static react_status_t nat_rank(const names_t *t, int32_t **rank_out, int32_t **order_out)
{
	int32_t *ord = malloc(((size_t)t->n + 1) * sizeof *ord);
	int32_t *rk = malloc(((size_t)t->n + 1) * sizeof *rk);
	if (!ord || !rk) {
		free(ord);
		free(rk);
		return REACT_ENOMEM;
	}
	for (int32_t i = 0; i < t->n; i++)
		ord[i] = i;
	for (int32_t i = 1; i < t->n; i++) { /* insertion sort: a few hundred names */
		int32_t x = ord[i], j = i;
		while (j > 0 && natcmp(t->v[ord[j - 1]], t->v[x]) > 0) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = x;
	}
	for (int32_t i = 0; i < t->n; i++)
		rk[ord[i]] = i;
	*rank_out = rk;
	*order_out = ord;
	return REACT_OK;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

react_status_t react_topo_alibaba(const char *csv_path, int32_t nhosts, int32_t aggs_per_tor,
                                  double rate_bps, double delay_s, react_topology_t **out,
                                  char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	FILE *f = NULL;
	char line[1024];
	names_t dsw = {0}, psw = {0}, asw = {0};
	row_t *rows = NULL;
	int32_t nrows = 0, rcap = 0, lineno = 0;
	int32_t *drk = NULL, *dord = NULL, *prk = NULL, *pord = NULL, *ark = NULL, *aord = NULL;
	int32_t *tor_cnt = NULL, *tor_off = NULL, *tor_rows = NULL, *take = NULL, *pcount = NULL;
	int32_t *tor_node = NULL, *agg_node = NULL, *core_node = NULL;
	unsigned char *pd = NULL;
	react_topo_builder_t b = {0};

	if (!csv_path || !out || nhosts < 0 || aggs_per_tor < 1 || !(rate_bps > 0) ||
	    !(delay_s >= 0)) {
		snprintf(err, errlen, "alibaba topology: bad arguments (need a CSV path, nhosts >= 0, "
		         "aggs_per_tor >= 1, rate > 0, delay >= 0)");
		return REACT_EINVAL;
	}
	if (!(f = fopen(csv_path, "r"))) {
		snprintf(err, errlen, "%s: cannot open: %s", csv_path, strerror(errno));
		return REACT_EIO;
	}
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *s = trim(line);
		if (!*s)
			continue;
		if (lineno == 1) {
			if (strcmp(s, "ip,DSW,PSW,ASW")) {
				snprintf(err, errlen, "%s:1: expected the header 'ip,DSW,PSW,ASW'", csv_path);
				st = REACT_EPARSE;
				goto fail;
			}
			continue;
		}
		char *fld[4];
		int nf = 0;
		for (char *p = s; nf < 4; nf++) {
			fld[nf] = p;
			char *c = strchr(p, ',');
			if (!c) {
				nf++;
				break;
			}
			*c = 0;
			p = c + 1;
			if (nf == 3) { /* a fifth field */
				nf = 5;
				break;
			}
		}
		if (nf != 4 || !*trim(fld[1]) || !*trim(fld[2]) || !*trim(fld[3])) {
			snprintf(err, errlen, "%s:%d: expected 4 non-empty fields ip,DSW,PSW,ASW", csv_path,
			         lineno);
			st = REACT_EPARSE;
			goto fail;
		}
		if (react_tb_grow((void **)&rows, &rcap, nrows + 1, sizeof *rows)) {
			st = REACT_ENOMEM;
			goto fail;
		}
		row_t r = {names_add(&dsw, trim(fld[1])), names_add(&psw, trim(fld[2])),
		           names_add(&asw, trim(fld[3]))};
		if (r.dsw < 0 || r.psw < 0 || r.asw < 0) {
			st = REACT_ENOMEM;
			goto fail;
		}
		rows[nrows++] = r;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", csv_path);
		st = REACT_EIO;
		goto fail;
	}
	if (nrows == 0) {
		snprintf(err, errlen, "%s:%d: expected at least one host row", csv_path, lineno);
		st = REACT_EPARSE;
		goto fail;
	}
	if (nhosts > nrows) {
		snprintf(err, errlen, "%s: %d hosts asked, the file has %d", csv_path, nhosts, nrows);
		st = REACT_EINVAL;
		goto fail;
	}
	if (nhosts == 0)
		nhosts = nrows;
	if (aggs_per_tor > psw.n) {
		snprintf(err, errlen, "%s: aggs_per_tor %d > %d aggregation switches (PSW) in the file",
		         csv_path, aggs_per_tor, psw.n);
		st = REACT_EINVAL;
		goto fail;
	}
	if ((st = nat_rank(&dsw, &drk, &dord)) || (st = nat_rank(&psw, &prk, &pord)) ||
	    (st = nat_rank(&asw, &ark, &aord)))
		goto fail;

	/* rows grouped by ToR, ToRs in natural order (tor position = ark[asw]) */
	int32_t ntor = asw.n, npsw = psw.n, ndsw = dsw.n;
	tor_cnt = calloc((size_t)ntor, sizeof *tor_cnt);
	tor_off = calloc((size_t)ntor + 1, sizeof *tor_off);
	tor_rows = malloc((size_t)nrows * sizeof *tor_rows);
	take = calloc((size_t)ntor, sizeof *take);
	pcount = calloc((size_t)ntor * npsw, sizeof *pcount);
	pd = calloc((size_t)npsw * ndsw, 1);
	tor_node = malloc((size_t)ntor * sizeof *tor_node);
	agg_node = malloc((size_t)npsw * sizeof *agg_node);
	core_node = malloc((size_t)ndsw * sizeof *core_node);
	if (!tor_cnt || !tor_off || !tor_rows || !take || !pcount || !pd || !tor_node || !agg_node ||
	    !core_node) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (int32_t i = 0; i < nrows; i++) {
		int32_t t = ark[rows[i].asw];
		tor_cnt[t]++;
		pcount[(size_t)t * npsw + prk[rows[i].psw]]++;
		pd[(size_t)prk[rows[i].psw] * ndsw + drk[rows[i].dsw]] = 1;
	}
	for (int32_t t = 0; t < ntor; t++)
		tor_off[t + 1] = tor_off[t] + tor_cnt[t];
	memset(tor_cnt, 0, (size_t)ntor * sizeof *tor_cnt);
	for (int32_t i = 0; i < nrows; i++) {
		int32_t t = ark[rows[i].asw];
		tor_rows[tor_off[t] + tor_cnt[t]++] = i;
	}
	/* round-robin subset */
	for (int32_t taken = 0, r = 0; taken < nhosts; r++)
		for (int32_t t = 0; t < ntor && taken < nhosts; t++)
			if (tor_cnt[t] > r) {
				take[t]++;
				taken++;
			}

	char nm[64];
	snprintf(nm, sizeof nm, "alibaba-%d", nhosts);
	if ((st = react_tb_init(&b, nm)))
		goto fail;
	for (int32_t i = 0; i < nhosts; i++) {
		snprintf(nm, sizeof nm, "h%d", i);
		if ((st = react_tb_node(&b, REACT_NODE_HOST, nm, NULL)))
			goto fail;
	}
	for (int32_t t = 0; t < ntor; t++) {
		tor_node[t] = -1;
		if (take[t] && (st = react_tb_node(&b, REACT_NODE_TOR, asw.v[aord[t]], &tor_node[t])))
			goto fail;
	}
	for (int32_t p = 0; p < npsw; p++)
		if ((st = react_tb_node(&b, REACT_NODE_AGG, psw.v[pord[p]], &agg_node[p])))
			goto fail;
	for (int32_t d = 0; d < ndsw; d++)
		if ((st = react_tb_node(&b, REACT_NODE_CORE, dsw.v[dord[d]], &core_node[d])))
			goto fail;
	/* host -> ToR */
	for (int32_t t = 0, h = 0; t < ntor; t++)
		for (int32_t j = 0; j < take[t]; j++, h++)
			if ((st = react_tb_link(&b, h, tor_node[t], rate_bps, delay_s)))
				goto fail;
	/* ToR -> aggregation */
	for (int32_t t = 0, ti = 0; t < ntor; t++) {
		if (!take[t])
			continue;
		int32_t *pc = &pcount[(size_t)t * npsw];
		int32_t chosen = 0;
		unsigned char used[256] = {0};
		if (npsw > 256) {
			snprintf(err, errlen, "%s: more than 256 aggregation switches", csv_path);
			st = REACT_EUNSUPPORTED;
			goto fail;
		}
		while (chosen < aggs_per_tor) { /* most named first */
			int32_t best = -1;
			for (int32_t p = 0; p < npsw; p++)
				if (!used[p] && pc[p] > 0 && (best < 0 || pc[p] > pc[best]))
					best = p;
			if (best < 0)
				break;
			used[best] = 1;
			chosen++;
		}
		for (int32_t s = 0; chosen < aggs_per_tor; s++) { /* complete cyclically */
			int32_t p = (ti + s) % npsw;
			if (!used[p]) {
				used[p] = 1;
				chosen++;
			}
		}
		for (int32_t p = 0; p < npsw; p++)
			if (used[p] && (st = react_tb_link(&b, tor_node[t], agg_node[p], rate_bps, delay_s)))
				goto fail;
		ti++;
	}
	/* aggregation -> core */
	for (int32_t p = 0; p < npsw; p++)
		for (int32_t d = 0; d < ndsw; d++)
			if (pd[(size_t)p * ndsw + d] &&
			    (st = react_tb_link(&b, agg_node[p], core_node[d], rate_bps, delay_s)))
				goto fail;
	*out = react_tb_finish(&b);
	goto done;
fail:
	react_tb_abort(&b);
done:
	if (f)
		fclose(f);
	names_free(&dsw);
	names_free(&psw);
	names_free(&asw);
	free(rows);
	free(drk); free(dord); free(prk); free(pord); free(ark); free(aord);
	free(tor_cnt); free(tor_off); free(tor_rows); free(take); free(pcount); free(pd);
	free(tor_node); free(agg_node); free(core_node);
	return st;
}
