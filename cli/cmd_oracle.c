/*
 * react oracle: baseline, REACT and the oracle (the best fixed pattern
 * REACT's moves reach, docs/oracle.md) of one configuration.
 * Exit codes: 0 done, 2 bad input or a failed run.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "simopts.h"
#include "react/driver.h"
#include "react/oracle.h"
#include "react/scenario.h"

static void oracle_usage(FILE *f)
{
	fprintf(f,
	        "usage: react oracle SCENARIO [--config I] [--backend flow|dctcp|ns3]\n"
	        "                    [--set KEY=VALUE]... [-o DIR] [--oracle-cache DIR]\n"
	        "                    [--oracle-opt KEY=VALUE]... [--quiet]\n"
	        "  Runs one configuration of SCENARIO (the first, or number I of the sweep)\n"
	        "  on identical congestion three ways: baseline (REACT off), REACT, and the\n"
	        "  oracle: for each REACT job the best FIXED pattern REACT's own moves reach\n"
	        "  (global permutations, chunk-local and position swaps), found by search,\n"
	        "  every candidate semantically checked and run on the same backend\n"
	        "  (docs/oracle.md).  Prints the mean algorithm bandwidth after warm-up of\n"
	        "  the three, the improvements over baseline, and captured = REACT's gain /\n"
	        "  the oracle's gain (n/a when the oracle gains less than 0.1 %%).\n"
	        "  -o DIR                 where the oracle's files go (default\n"
	        "                         results/<name>/oracle/<id>): oracle.csv, and\n"
	        "                         oracle-<job>.json, each job's best pattern\n"
	        "  --oracle-cache DIR     reuse a result stored under DIR/<fingerprint>/\n"
	        "                         (or in the -o DIR) when the configuration and\n"
	        "                         search options match; store new ones there\n"
	        "  --oracle-opt KEY=VALUE a search knob (default): exhaustive_max_ranks (9),\n"
	        "                         screen_epochs (10), keep (96), climb_starts (3),\n"
	        "                         climb_evals (2000), climb_many (4: x climb_evals\n"
	        "                         for rings, rhd and ring AllGather), pair_keep (8),\n"
	        "                         pair_screens (20000), local_starts (4), local_evals\n"
	        "                         (400), local_patience (60), rounds (1),\n"
	        "                         equiv_max_ranks (256), seed (1), screen_full (0),\n"
	        "                         proxy (none: flow or dctcp searches there and\n"
	        "                         runs the proxy_keep (16) best on --backend)\n"
	        "  --quiet                no progress on stderr\n"
	        "exit: 0 done, 2 bad input or a failed run\n");
}

/* ---- progress on stderr ---- */

typedef struct oprog {
	const react_config_t *cfg;
	double t0, last;
	const char *stage;
	int32_t job;
	int tty, quiet, dirty;
} oprog_t;

static void oracle_progress(void *ctx, const react_oracle_progress_t *p)
{
	oprog_t *g = ctx;
	if (g->quiet)
		return;
	double t = cli_now_s();
	int changed = p->stage != g->stage || p->job != g->job;
	if (!changed && t - g->last < (g->tty ? 0.2 : 5.0))
		return;
	if (!g->tty && !changed && t - g->last < 5.0)
		return;
	if (!g->tty && changed && t - g->t0 < 5.0 && g->stage) {
		/* not a terminal: stage changes in the first seconds are not worth a line */
		g->stage = p->stage;
		g->job = p->job;
		return;
	}
	char el[32];
	cli_fmt_dur(t - g->t0, el, sizeof el);
	char cnt[64] = "";
	if (p->total)
		snprintf(cnt, sizeof cnt, " %" PRIu64 "/%" PRIu64, p->done, p->total);
	else if (p->done)
		snprintf(cnt, sizeof cnt, " %" PRIu64, p->done);
	fprintf(stderr, "%soracle %s: job %s: %s%s, best %.4f GB/s (baseline %.4f), elapsed %s%s",
	        g->tty ? "\r" : "", g->cfg->id, g->cfg->run.jobs[p->job].name, p->stage, cnt,
	        p->best_gbps, p->base_gbps, el, g->tty ? "   " : "\n");
	g->dirty = g->tty;
	g->last = t;
	g->stage = p->stage;
	g->job = p->job;
}

/* ---- the oracle's files: stored or searched ---- */

int cli_oracle_opt(const char *cmd, react_oracle_opts_t *oo, const char *kv)
{
	char key[128], why[512];
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key) {
		fprintf(stderr, "react %s: --oracle-opt expects KEY=VALUE, got '%s'\n", cmd, kv);
		return -1;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = 0;
	if (react_oracle_opts_set(oo, key, eq + 1, why, sizeof why) != REACT_OK) {
		fprintf(stderr, "react %s: --oracle-opt: %s\n", cmd, why);
		return -1;
	}
	return 0;
}

int cli_oracle_files(const char *cmd, const react_backend_ops_t *be, const react_config_t *cfg,
                     const react_oracle_opts_t *oo, const char *dir, const char *cache, int quiet,
                     react_oracle_files_t **out, react_oracle_result_t **res_out,
                     const char **from)
{
	char err[2048], cdir[4400];
	react_oracle_opts_t o = *oo;
	uint64_t fp = react_oracle_fingerprint(cfg, &o);
	react_oracle_files_t *f = NULL;
	react_oracle_result_t *r = NULL;
	*out = NULL;
	if (res_out)
		*res_out = NULL;
	if (cache)
		snprintf(cdir, sizeof cdir, "%.4000s/%016" PRIx64, cache, fp);
	if (dir && react_oracle_files_load(dir, cfg, fp, &f) != REACT_OK)
		goto nomem;
	if (f) {
		*from = dir;
	} else if (cache) {
		if (react_oracle_files_load(cdir, cfg, fp, &f) != REACT_OK)
			goto nomem;
		if (f)
			*from = cache;
	}
	/* stored before climb_many and ended inside the old budget: the same
	 * search; kept in the cache under the current fingerprint */
	react_oracle_opts_t one = o;
	one.climb_many = 1;
	uint64_t fp1 = f ? fp : react_oracle_fingerprint(cfg, &one);
	if (!f && fp1 != fp && dir) {
		if (react_oracle_files_load_within(dir, cfg, &o, &f) != REACT_OK)
			goto nomem;
		if (f)
			*from = dir;
	}
	if (!f && fp1 != fp && cache) {
		char odir[4400];
		snprintf(odir, sizeof odir, "%.4000s/%016" PRIx64, cache, fp1);
		if (react_oracle_files_load_within(odir, cfg, &o, &f) != REACT_OK)
			goto nomem;
		if (f) {
			*from = cache;
			if (react_oracle_files_write(cdir, cfg, f, err, sizeof err) != REACT_OK) {
				fprintf(stderr, "react %s: oracle cache: %s\n", cmd, err);
				react_oracle_files_destroy(f);
				return 2;
			}
		}
	}
	if (!f) {
		oprog_t pg = {cfg, cli_now_s(), 0, NULL, 0, isatty(2), quiet, 0};
		o.progress = oracle_progress;
		o.progress_ctx = &pg;
		react_status_t st = react_oracle_search(be, cfg, &o, &r, err, sizeof err);
		if (pg.dirty)
			fputc('\n', stderr);
		if (st != REACT_OK) {
			fprintf(stderr, "react %s: %s (%s): %s\n", cmd, cfg->id, cfg->key, err);
			return 2;
		}
		*from = NULL;
		if (react_oracle_files_make(r, &f) != REACT_OK) {
			react_oracle_result_destroy(r);
			goto nomem;
		}
		if (cache && react_oracle_files_write(cdir, cfg, f, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react %s: oracle cache: %s\n", cmd, err);
			react_oracle_files_destroy(f);
			react_oracle_result_destroy(r);
			return 2;
		}
	}
	*out = f;
	if (res_out)
		*res_out = r;
	else
		react_oracle_result_destroy(r);
	return 0;
nomem:
	fprintf(stderr, "react %s: out of memory\n", cmd);
	return 2;
}

int cli_oracle_search_again(const char *cmd, const react_backend_ops_t *be,
                            const react_config_t *cfg, const react_oracle_opts_t *oo,
                            const char *dir, const char *cache, int quiet, const char *why,
                            react_oracle_files_t **files, react_oracle_result_t **res_out,
                            const char **from)
{
	char p[4500];
	fprintf(stderr, "\nreact %s: %s%s%s%s: %s: the backend or scenario code changed since it "
	        "was stored; searching it again\n", cmd, cfg->id, *cfg->key ? " (" : "", cfg->key,
	        *cfg->key ? ")" : "", why);
	react_oracle_files_destroy(*files);
	*files = NULL;
	/* the stored oracle.csv in dir and in the cache, so that the lookup
	 * below finds neither */
	for (int k = 0; k < 2; k++) {
		if (k == 0 && dir)
			snprintf(p, sizeof p, "%.4400s/oracle.csv", dir);
		else if (k == 1 && cache)
			snprintf(p, sizeof p, "%.4000s/%016" PRIx64 "/oracle.csv", cache,
			         react_oracle_fingerprint(cfg, oo));
		else
			continue;
		if (remove(p) != 0 && errno != ENOENT) {
			fprintf(stderr, "react %s: %s: cannot remove %s: %s\n", cmd, cfg->id, p,
			        strerror(errno));
			return 2;
		}
	}
	return cli_oracle_files(cmd, be, cfg, oo, dir, cache, quiet, files, res_out, from);
}

/* ---- react oracle ---- */

static void print_gbps_row(const char *label, double v, double base, int with_impr)
{
	printf("  %-12s %12.6f", label, v);
	if (with_impr)
		printf(" %+9.2f%%", react_improvement_pct(base, v));
	printf("\n");
}

int react_cmd_oracle(int argc, char **argv)
{
	common_opts_t o = {0};
	long cfgi = 0;
	const char *out = NULL, *cache = NULL;
	int quiet = 0, rc = 2;
	react_scenario_t *s = NULL;
	react_config_t *cfg = NULL;
	react_pair_result_t pr = {0};
	react_oracle_opts_t oo;
	react_oracle_files_t *files = NULL;
	react_oracle_result_t *res = NULL;
	char err[2048], outbuf[4400];

	react_oracle_opts_default(&oo);
	for (int i = 1; i < argc; i++) {
		int c = cli_common_opt("oracle", &o, argc, argv, &i);
		if (c < 0)
			return 2;
		if (c)
			continue;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			oracle_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--config")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "react oracle: --config needs a value\n");
				return 2;
			}
			if (cli_parse_count("oracle", "--config", argv[++i], &cfgi, 0))
				return 2;
		} else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--oracle-cache") ||
		           !strcmp(argv[i], "--oracle-opt")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "react oracle: %s needs a value\n", argv[i]);
				return 2;
			}
			const char *opt = argv[i], *v = argv[++i];
			if (!strcmp(opt, "-o")) {
				out = v;
			} else if (!strcmp(opt, "--oracle-cache")) {
				cache = v;
			} else if (cli_oracle_opt("oracle", &oo, v) != 0) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			quiet = 1;
		} else if (argv[i][0] == '-' || o.path) {
			fprintf(stderr, "react oracle: unexpected argument '%s'\n", argv[i]);
			oracle_usage(stderr);
			return 2;
		} else {
			o.path = argv[i];
		}
	}
	if (!o.path) {
		oracle_usage(stderr);
		return 2;
	}
	if (!(s = cli_load_scenario("oracle", &o)))
		return 2;
	if ((size_t)cfgi >= react_scenario_nconfigs(s)) {
		fprintf(stderr, "react oracle: --config %ld: expected 0..%zu (the scenario has %zu "
		        "configurations)\n", cfgi, react_scenario_nconfigs(s) - 1,
		        react_scenario_nconfigs(s));
		goto done;
	}
	if (react_scenario_config(s, (size_t)cfgi, &cfg, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react oracle: %s\n", err);
		goto done;
	}
	const react_backend_ops_t *be = cli_backend_of("oracle", s, &o, cfg);
	if (!be)
		goto done;
	if (!out) {
		snprintf(outbuf, sizeof outbuf, "results/%.200s/oracle/%s", react_scenario_name(s),
		         cfg->id);
		out = outbuf;
	}
	cli_print_config(s, cfg, be->name);
	fflush(stdout);
	if (react_run_pair(be, cfg, NULL, &pr, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react oracle: %s\n", err);
		goto done;
	}
	const char *from = NULL;
	double t0 = cli_now_s();
	if (cli_oracle_files("oracle", be, cfg, &oo, out, cache, quiet, &files, &res, &from))
		goto done;
	for (int32_t j = 0; !res && j < cfg->run.njobs; j++) {
		double bg = pr.baseline->jobs[j].mean_algbw_gbps;
		if (react_oracle_files_baseline_matches(files, j, bg))
			continue;
		char why[512];
		snprintf(why, sizeof why, "stored oracle result (%.200s): job %s: searched against a "
		         "baseline of %.6f GB/s, this run's baseline is %.6f GB/s", from,
		         cfg->run.jobs[j].name, files->baseline_gbps[j], bg);
		if (cli_oracle_search_again("oracle", be, cfg, &oo, out, cache, quiet, why, &files, &res,
		                            &from))
			goto done;
	}
	double took = cli_now_s() - t0;
	for (int32_t j = 0; j < cfg->run.njobs; j++) {
		const react_job_summary_t *b = &pr.baseline->jobs[j], *x = &pr.react->jobs[j];
		double bg = b->mean_algbw_gbps, rg = x->mean_algbw_gbps, og = files->oracle_gbps[j];
		printf("\njob %s%s: mean algorithm bandwidth after %" PRId64 " warm-up epochs (%" PRId64
		       " epochs), GB/s\n", b->name, x->react ? "" : " (REACT off: not searched)",
		       b->warmup, b->epochs - b->warmup);
		print_gbps_row("baseline", bg, bg, 0);
		print_gbps_row("react", rg, bg, 1);
		print_gbps_row("oracle", og, bg, 1);
		double cap = react_oracle_captured(bg, rg, og);
		if (isnan(cap))
			printf("  %-12s %12s\n", "captured", "n/a");
		else
			printf("  %-12s %12.3f\n", "captured", cap);
		if (res) {
			const react_oracle_job_t *oj = &res->jobs[j];
			printf("  oracle pattern: %s, hash %016" PRIx64 ", %" PRId64 " climbing moves\n",
			       react_oracle_origin_name(oj->origin), oj->best_hash, oj->climb_moves);
		}
	}
	if (res) {
		const react_oracle_stats_t *st = &res->stats;
		printf("\noracle search: %" PRIu64 " permutations, %" PRIu64 " candidates (%" PRIu64
		       " failed the check, %" PRIu64 " unchanged, %" PRIu64 " duplicates), %" PRIu64
		       " screening and %" PRIu64 " full-length runs\n",
		       st->permutations, st->candidates, st->rejected, st->unchanged, st->duplicates,
		       st->screen_evals, st->full_evals);
		if (st->proxy_full_evals)
			printf("proxy search on %s: %" PRIu64 " screening and %" PRIu64
			       " full-length runs, %.1f s; its %d best patterns run on %s\n",
			       oo.proxy == REACT_ORACLE_PROXY_FLOW ? "flow" : "dctcp",
			       st->proxy_screen_evals, st->proxy_full_evals, st->proxy_s, (int)oo.proxy_keep,
			       be->name);
		printf("oracle time: %.1f s (screening runs %.1f s, full-length runs %.1f s, checks "
		       "%.2f s, building candidates %.2f s)\n", took, st->screen_s, st->full_s,
		       st->check_s, st->build_s);
		if (react_oracle_files_write(out, cfg, files, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react oracle: %s\n", err);
			goto done;
		}
	} else {
		printf("\noracle: stored result reused from %s (fingerprint %016" PRIx64 ")\n", from,
		       files->fingerprint);
		if (from != out && react_oracle_files_write(out, cfg, files, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react oracle: %s\n", err);
			goto done;
		}
	}
	printf("wrote %s/oracle.csv and oracle-<job>.json\n", out);
	rc = 0;
done:
	react_oracle_files_destroy(files);
	react_oracle_result_destroy(res);
	react_pair_result_clear(&pr);
	react_config_destroy(cfg);
	react_scenario_destroy(s);
	return rc;
}
