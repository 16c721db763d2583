/*
 * bench-oracle: how well the oracle's screen picks the global permutations
 * worth a full-length run (docs/oracle.md, "Choosing screen_epochs and
 * keep").
 *
 * For each configuration given, every global permutation of the first REACT
 * job (N! of them; the other jobs on their generated patterns) that passes
 * the semantic check is run at full length (the objective: mean algbw after
 * warm-up) and screened on the first S epochs for each S asked.  Then, for
 * every (S, K), the K best screened permutations (ties: earlier in
 * lexicographic order) are compared with the full-length exhaustive optimum:
 * "=" when they contain it, else the shortfall of the best of them in
 * percent of the optimum.  Also printed: the time of one screening and one
 * full-length run.
 *
 * usage: bench-oracle SCENARIO CONFIG[,CONFIG...] [--set KEY=VALUE]...
 *                     [--screen 5,10,20] [--keep 8,16,32,48,96] [--backend flow|dctcp]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "react/check.h"
#include "react/driver.h"
#include "react/flowsim.h"
#include "react/generators.h"
#include "react/oracle.h"
#include "react/scenario.h"

#define MAXL 16

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_list(const char *s, long *v, int max)
{
	int n = 0;
	char *copy = strdup(s), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save))
		v[n++] = strtol(t, NULL, 10);
	free(copy);
	return n;
}

typedef struct item {
	double screen, full;
	size_t index;
} item_t;

static int g_s; /* screen list index for the comparator */
static double *g_scr;
static size_t g_n;

static int by_screen(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double sx = g_scr[x * MAXL + (size_t)g_s], sy = g_scr[y * MAXL + (size_t)g_s];
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return (x > y) - (x < y);
}

static int run_config(const react_backend_ops_t *be, const react_scenario_t *s, size_t ci,
                      const long *screens, int ns, const long *keeps, int nk)
{
	char err[1024];
	react_config_t *cfg = NULL;
	int rc = 1;
	void *state = NULL;
	if (react_scenario_config(s, ci, &cfg, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "bench-oracle: %s\n", err);
		return 1;
	}
	int32_t job = -1, nj = cfg->run.njobs;
	for (int32_t j = 0; j < nj && job < 0; j++)
		if (cfg->react_on[j])
			job = j;
	if (job < 0) {
		fprintf(stderr, "bench-oracle: %s: no REACT job\n", cfg->id);
		react_config_destroy(cfg);
		return 1;
	}
	const react_job_cfg_t *jc = &cfg->run.jobs[job];
	int32_t n = jc->nranks;
	size_t total = 1;
	for (int32_t i = 2; i <= n; i++)
		total *= (size_t)i;
	react_pattern_t **gen = calloc((size_t)nj, sizeof *gen), *w = NULL;
	const react_pattern_t **fx = calloc((size_t)nj, sizeof *fx);
	react_rank_t *perm = malloc((size_t)n * sizeof *perm);
	double *full = malloc(total * sizeof *full);
	g_scr = malloc(total * MAXL * sizeof *g_scr);
	size_t *order = malloc(total * sizeof *order);
	unsigned char *ok = calloc(total, 1);
	react_job_cfg_t *sj = malloc((size_t)nj * sizeof *sj);
	react_checker_t *ck = NULL;
	double t_full = 0, t_screen[MAXL] = {0};
	for (int32_t j = 0; j < nj; j++) {
		react_pattern_generate(cfg->run.jobs[j].collective, cfg->run.jobs[j].algorithm,
		                       cfg->run.jobs[j].nranks, cfg->run.jobs[j].message_bytes, &gen[j]);
		fx[j] = gen[j];
	}
	if (be->prepare)
		be->prepare(cfg->run.topo, &state, err, sizeof err);
	react_checker_create(n, gen[job]->nchunks, &ck);
	for (int32_t r = 0; r < n; r++)
		perm[r] = r;
	size_t idx = 0;
	do {
		react_pattern_destroy(w);
		w = NULL;
		react_pattern_clone(gen[job], &w);
		react_pattern_permute(w, perm);
		if (react_checker_run(ck, w, NULL) != REACT_OK) {
			idx++;
			continue;
		}
		ok[idx] = 1;
		fx[job] = w;
		react_drive_opts_t d;
		react_drive_result_t *res = NULL;
		memset(&d, 0, sizeof d);
		d.fixed = fx;
		d.backend_state = state;
		d.warmup = cfg->warmup;
		double t0 = now();
		if (react_drive(be, &cfg->run, &d, &res, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "bench-oracle: %s: %s\n", cfg->id, err);
			goto done;
		}
		t_full += now() - t0;
		full[idx] = res->jobs[job].mean_algbw_gbps;
		react_drive_result_destroy(res);
		d.warmup = NULL;
		for (int k = 0; k < ns; k++) {
			react_run_cfg_t rc2 = cfg->run;
			for (int32_t j = 0; j < nj; j++) {
				sj[j] = cfg->run.jobs[j];
				if (sj[j].epochs > screens[k])
					sj[j].epochs = screens[k];
			}
			rc2.jobs = sj;
			t0 = now();
			if (react_drive(be, &rc2, &d, &res, err, sizeof err) != REACT_OK) {
				fprintf(stderr, "bench-oracle: %s: %s\n", cfg->id, err);
				goto done;
			}
			t_screen[k] += now() - t0;
			g_scr[idx * MAXL + (size_t)k] = res->jobs[job].mean_algbw_gbps;
			react_drive_result_destroy(res);
		}
		idx++;
	} while (react_perm_next(perm, n));
	size_t nok = 0;
	double best = -INFINITY;
	for (size_t i = 0; i < total; i++)
		if (ok[i]) {
			order[nok++] = i;
			if (full[i] > best)
				best = full[i];
		}
	g_n = nok;
	printf("%s (%s)%s: %zu permutations, baseline %.6f GB/s, best %.6f GB/s (%+.3f %%); one "
	       "full-length run %.2f ms", cfg->id, cfg->key, "", nok, full[0], best,
	       100.0 * (best / full[0] - 1), 1e3 * t_full / (double)nok);
	for (int k = 0; k < ns; k++)
		printf(", S=%ld %.2f ms", screens[k], 1e3 * t_screen[k] / (double)nok);
	printf("\n  %-8s", "S \\ K");
	for (int q = 0; q < nk; q++)
		printf(" %8ld", keeps[q]);
	printf("\n");
	for (int k = 0; k < ns; k++) {
		g_s = k;
		qsort(order, nok, sizeof *order, by_screen);
		printf("  %-8ld", screens[k]);
		for (int q = 0; q < nk; q++) {
			double b = -INFINITY;
			for (size_t i = 0; i < nok && i < (size_t)keeps[q]; i++)
				if (full[order[i]] > b)
					b = full[order[i]];
			if (b == best)
				printf(" %8s", "=");
			else
				printf(" %+7.4f%%", 100.0 * (b / best - 1));
		}
		printf("\n");
	}
	fflush(stdout);
	rc = 0;
done:
	react_checker_destroy(ck);
	if (state)
		be->release(state);
	react_pattern_destroy(w);
	for (int32_t j = 0; j < nj; j++)
		react_pattern_destroy(gen[j]);
	free(gen);
	free(fx);
	free(perm);
	free(full);
	free(g_scr);
	free(order);
	free(ok);
	free(sj);
	react_config_destroy(cfg);
	return rc;
}

int main(int argc, char **argv)
{
	long screens[MAXL] = {5, 10, 20}, keeps[MAXL] = {8, 16, 32, 48, 96};
	int ns = 3, nk = 5;
	const char *path = NULL, *configs = NULL, *sets[32];
	int nsets = 0;
	const react_backend_ops_t *be = &react_backend_flow;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--set") && i + 1 < argc && nsets < 32)
			sets[nsets++] = argv[++i];
		else if (!strcmp(argv[i], "--screen") && i + 1 < argc)
			ns = parse_list(argv[++i], screens, MAXL);
		else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
			nk = parse_list(argv[++i], keeps, MAXL);
		else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
			be = !strcmp(argv[++i], "dctcp") ? &react_backend_dctcp : &react_backend_flow;
		else if (!path)
			path = argv[i];
		else if (!configs)
			configs = argv[i];
		else {
			fprintf(stderr, "usage: bench-oracle SCENARIO CONFIG[,CONFIG...] [--set K=V]... "
			        "[--screen 5,10,20] [--keep 8,16,32,48,96] [--backend flow|dctcp]\n");
			return 2;
		}
	}
	if (!path || !configs) {
		fprintf(stderr, "usage: bench-oracle SCENARIO CONFIG[,CONFIG...] [--set K=V]... "
		        "[--screen 5,10,20] [--keep 8,16,32,48,96] [--backend flow|dctcp]\n");
		return 2;
	}
	char err[2048];
	react_scenario_t *s = NULL;
	if (react_scenario_load(path, &s, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "bench-oracle: %s\n", err);
		return 2;
	}
	for (int i = 0; i < nsets; i++) {
		char key[256];
		const char *eq = strchr(sets[i], '=');
		if (!eq || (size_t)(eq - sets[i]) >= sizeof key) {
			fprintf(stderr, "bench-oracle: --set expects KEY=VALUE\n");
			return 2;
		}
		memcpy(key, sets[i], (size_t)(eq - sets[i]));
		key[eq - sets[i]] = 0;
		if (react_scenario_set(s, key, eq + 1, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "bench-oracle: %s\n", err);
			return 2;
		}
	}
	long cl[256];
	int nc = parse_list(configs, cl, 256), rc = 0;
	printf("bench-oracle %s, backend %s: full-length exhaustive optimum vs the best of the K "
	       "best screened permutations (=: found; else shortfall)\n", path, be->name);
	for (int i = 0; i < nc; i++)
		rc |= run_config(be, s, (size_t)cl[i], screens, ns, keeps, nk);
	react_scenario_destroy(s);
	return rc;
}
