/*
 * react run | sweep | regress | compare: the scenario commands.
 * Exit codes: 0 ok, 1 a negative verdict (regress found differences),
 * 2 bad input or a failed run.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends.h"
#include "cli.h"
#include "simopts.h"
#include "sweep.h"
#include "react/csv.h"
#include "react/driver.h"
#include "react/gpu_backend.h"
#include "react/oracle.h"
#include "react/results.h"
#include "react/scenario.h"

/* ---- react run ---- */

static void run_usage(FILE *f)
{
	fprintf(f,
	        "usage: react run SCENARIO [--config I] [--backend flow|dctcp|ns3|gpu]\n"
	        "                 [--set KEY=VALUE]... [-o DIR] [--trace] [--quiet]\n"
	        "                 [--progress SECONDS]\n"
	        "  Runs one configuration of SCENARIO (the first, or number I of the sweep)\n"
	        "  twice on identical congestion: baseline (REACT off) and REACT.  Prints every\n"
	        "  epoch's collective time and algorithm bandwidth (message / time, GB/s) of\n"
	        "  both runs, '*' where REACT's pattern changed, and the summary after warm-up:\n"
	        "  mean and p95 algorithm bandwidth, improvement, decisions.\n"
	        "  --set KEY=VALUE  override a field (e.g. congestion.external.p=4, jobs.0.ranks=16)\n"
	        "  -o DIR           also write DIR/runs/<id>/ (epochs.csv, summary.csv,\n"
	        "                   decisions.jsonl, config.txt) as react sweep does\n"
	        "  --trace          with -o: FCT trace of the REACT run (trace-<job>.jsonl)\n"
	        "  --progress S     seconds between progress lines on stderr when it is not a\n"
	        "                   terminal (default 5; a terminal gets one updating line)\n"
	        "  --quiet          no progress on stderr\n"
	        "  gpu.transport nccl: one MPI process per rank, mpirun -np RANKS react run ...;\n"
	        "  rank 0 prints and writes (docs/gpu.md)\n"
	        "exit: 0 done, 2 bad input or a failed run\n");
}

/* react run's progress: epochs of both runs, counted by the driver's hook. */
typedef struct run_progress {
	cli_progress_t line;
	const react_config_t *cfg;
	int64_t done;
} run_progress_t;

static void run_progress(void *ctx, react_run_mode_t mode, const react_epoch_report_t *rep)
{
	run_progress_t *rp = ctx;
	const react_run_cfg_t *r = &rp->cfg->run;
	rp->done++;
	cli_progress_report(&rp->line, rp->done, "%s epoch %lld of %lld%s%s (%.1f%% of the run)",
	                    react_run_mode_name(mode), (long long)rep->epoch + 1,
	                    (long long)r->jobs[rep->job].epochs, r->njobs > 1 ? " of job " : "",
	                    r->njobs > 1 ? r->jobs[rep->job].name : "",
	                    100.0 * (double)rp->done / (double)rp->line.total);
}

void cli_print_config(const react_scenario_t *s, const react_config_t *cfg, const char *be)
{
	const react_run_cfg_t *r = &cfg->run;
	printf("scenario %s, configuration %zu of %zu%s%s (backend %s, seed %" PRIu64,
	       react_scenario_name(s), cfg->index, react_scenario_nconfigs(s),
	       cfg->key[0] ? ": " : "", cfg->key, be, cfg->seed);
	if (r->seed != cfg->seed)
		printf(", ecmp_seed %" PRIu64, r->seed);
	printf(")\n");
	int gpu = !strcmp(be, "gpu");
	if (gpu) {
		const react_gpu_cfg_t *g = &cfg->gpu;
		printf("gpu: transport %s, dtype %s, output check %s", g->transport, g->dtype,
		       g->check ? "on" : "off");
		if (!strcmp(g->transport, "host"))
			printf(", links %.4g us + %.4g GB/s", g->latency_s * 1e6, g->bandwidth_Bps / 1e9);
		printf("\n");
		if (g->npairs && g->p > 0) {
			printf("rank-pair congestion from epoch %" PRId64 ", rate x %.4g:", g->start_epoch,
			       1 - g->p);
			for (int32_t i = 0; i < g->npairs; i++)
				printf(" %d->%d", (int)g->pairs[i][0], (int)g->pairs[i][1]);
			printf("\n");
		}
	} else {
		printf("topology %s: %d hosts, %d links\n", r->topo->name, (int)r->topo->nhosts,
		       (int)r->topo->nlinks);
	}
	for (int32_t j = 0; j < r->njobs; j++) {
		const react_job_cfg_t *jc = &r->jobs[j];
		printf("job %s: %d ranks, %s %s%s%s, %.6g MB, %" PRId64 " epochs (warm-up %" PRId64
		       "), REACT %s%s",
		       jc->name, (int)jc->nranks, react_collective_name(jc->collective),
		       react_algorithm_name(jc->algorithm),
		       cfg->pattern && cfg->pattern[j] ? " from pattern file " : "",
		       cfg->pattern && cfg->pattern[j] ? cfg->pattern_file[j] : "",
		       (double)jc->message_bytes / 1e6, jc->epochs, cfg->warmup[j],
		       cfg->react_on[j] ? "on" : "off", gpu ? "" : "; hosts");
		for (int32_t k = 0; k < jc->nranks && !gpu; k++)
			printf(" %d", (int)jc->hosts[k]);
		printf("\n");
	}
	if (r->next) {
		printf("external flows:");
		for (size_t i = 0; i < r->next; i++)
			printf(" %d->%d x%d", (int)r->ext[i].src_host, (int)r->ext[i].dst_host,
			       (int)r->ext[i].count);
		printf("\n");
	}
	for (size_t i = 0; i < r->ndegraded; i++) {
		const react_link_t *l = &r->topo->links[r->degraded[i].link];
		printf("degraded link %s - %s: %.4g Gbps\n", r->topo->node_name[l->a],
		       r->topo->node_name[l->b], r->degraded[i].rate_bps / 1e9);
	}
}

static void print_pair(const react_config_t *cfg, const react_pair_result_t *pr)
{
	for (int32_t j = 0; j < cfg->run.njobs; j++) {
		const react_job_summary_t *b = &pr->baseline->jobs[j], *x = &pr->react->jobs[j];
		printf("\njob %s%s\n", b->name, x->react ? "" : " (REACT off in both runs)");
		printf("%6s  %12s %12s  %12s %12s\n", "epoch", "base_ms", "base_GB/s", "react_ms",
		       "react_GB/s");
		size_t ib = 0, ir = 0;
		const react_drive_result_t *B = pr->baseline, *R = pr->react;
		while (ib < B->nrecs && B->recs[ib].job != j)
			ib++;
		while (ir < R->nrecs && R->recs[ir].job != j)
			ir++;
		for (; ib < B->nrecs && B->recs[ib].job == j; ib++, ir++) {
			const react_epoch_rec_t *rb = &B->recs[ib];
			const react_epoch_rec_t *rr = ir < R->nrecs && R->recs[ir].job == j ? &R->recs[ir]
			                                                                  : NULL;
			printf("%6" PRId64 "  %12.4f %12.3f", rb->epoch, rb->time_s * 1e3, rb->algbw_gbps);
			if (rr)
				printf("  %12.4f %12.3f%s", rr->time_s * 1e3, rr->algbw_gbps,
				       rr->changed ? "  * pattern changed" : "");
			printf("%s\n", rb->epoch + 1 == b->warmup ? "   (end of warm-up)" : "");
		}
		printf("summary after %" PRId64 " warm-up epochs (%" PRId64 " epochs):\n", b->warmup,
		       b->epochs - b->warmup);
		printf("  %-12s %10s %10s %10s %10s %8s %8s\n", "", "mean_GB/s", "p95_GB/s",
		       "mean_ms", "p95_ms", "changes", "reverts");
		printf("  %-12s %10.3f %10.3f %10.4f %10.4f %8s %8s\n", "baseline", b->mean_algbw_gbps,
		       b->p95_algbw_gbps, b->mean_time_s * 1e3, b->p95_time_s * 1e3, "-", "-");
		printf("  %-12s %10.3f %10.3f %10.4f %10.4f %8" PRId64 " %8" PRId64 "\n", "react",
		       x->mean_algbw_gbps, x->p95_algbw_gbps, x->mean_time_s * 1e3, x->p95_time_s * 1e3,
		       x->pattern_changes, x->ctl.reverts);
		printf("  %-12s %+9.1f%% %+9.1f%%\n", "improvement",
		       react_improvement_pct(b->mean_algbw_gbps, x->mean_algbw_gbps),
		       react_improvement_pct(b->p95_algbw_gbps, x->p95_algbw_gbps));
	}
}

int react_cmd_run(int argc, char **argv)
{
	common_opts_t o = {0};
	long cfgi = 0;
	const char *out = NULL;
	int trace = 0, quiet = 0, rc = 2;
	double every = 5.0;
	react_scenario_t *s = NULL;
	react_config_t *cfg = NULL;
	react_pair_result_t pr = {0};
	run_progress_t rp = {.done = 0};
	char err[2048];

	for (int i = 1; i < argc; i++) {
		int c = cli_common_opt("run", &o, argc, argv, &i);
		if (c < 0)
			return 2;
		if (c)
			continue;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			run_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			if (cli_parse_count("run", "--config", argv[++i], &cfgi, 0))
				return 2;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--trace")) {
			trace = 1;
		} else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			quiet = 1;
		} else if (!strcmp(argv[i], "--progress") && i + 1 < argc) {
			if (cli_parse_progress("run", argv[++i], &every))
				return 2;
		} else if (argv[i][0] == '-' || o.path) {
			fprintf(stderr, "react run: unexpected argument '%s'\n", argv[i]);
			run_usage(stderr);
			return 2;
		} else {
			o.path = argv[i];
		}
	}
	if (!o.path) {
		run_usage(stderr);
		return 2;
	}
	if (!(s = cli_load_scenario("run", &o)))
		return 2;
	if ((size_t)cfgi >= react_scenario_nconfigs(s)) {
		fprintf(stderr, "react run: --config %ld: expected 0..%zu (the scenario has %zu "
		        "configurations)\n", cfgi, react_scenario_nconfigs(s) - 1,
		        react_scenario_nconfigs(s));
		goto done;
	}
	if (react_scenario_config(s, (size_t)cfgi, &cfg, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react run: %s\n", err);
		goto done;
	}
	const react_backend_ops_t *be = cli_backend_of("run", s, &o, cfg);
	if (!be)
		goto done;
	int gpu = !strcmp(be->name, "gpu"), leader = 1;
	if (gpu) {
		/* gpu.transport local or nccl: the CUDA plugin; nccl: this process is
		 * one MPI rank of the run, and only rank 0 prints and writes */
		if (react_gpu_backend_prepare(&cfg->gpu, cfg->run.jobs[0].nranks, err, sizeof err) !=
		    REACT_OK) {
			fprintf(stderr, "react run: %s: %s\n", o.path, err);
			goto done;
		}
		leader = react_gpu_backend_leader();
		if (!leader)
			quiet = 1;
	}
	if (leader) {
		cli_print_config(s, cfg, be->name);
		fflush(stdout);
	}
	int64_t nepochs = 0;
	for (int32_t j = 0; j < cfg->run.njobs; j++)
		nepochs += cfg->run.jobs[j].epochs;
	rp.cfg = cfg;
	cli_progress_start(&rp.line, "react run", 2 * nepochs, every, quiet);
	react_status_t st;
	if (out && leader) {
		react_run_write_opts_t wo = {.trace = trace, .backend = be, .progress = run_progress,
		                             .progress_ctx = &rp};
		st = react_run_dir_make(out, s, cfg, &wo, &pr, err, sizeof err);
	} else {
		react_pair_opts_t po = {.progress = run_progress, .progress_ctx = &rp};
		st = react_run_pair(be, cfg, &po, &pr, err, sizeof err);
	}
	cli_progress_end(&rp.line, NULL);
	if (st != REACT_OK) {
		fprintf(stderr, "react run: %s\n", err);
		goto done;
	}
	if (!leader) {
		rc = 0;
		goto done;
	}
	print_pair(cfg, &pr);
	if (gpu && cfg->gpu.check) {
		int64_t checked;
		uint64_t wrong;
		react_gpu_backend_checks(&checked, &wrong);
		printf("gpu.check: %" PRId64 " epochs checked (baseline and REACT), %" PRIu64
		       " wrong elements\n", checked, wrong);
	}
	if (out)
		printf("\nwrote %s/runs/%s/ (epochs.csv, summary.csv, decisions.jsonl, config.txt%s)\n",
		       out, cfg->id, trace ? ", trace-*.jsonl" : "");
	rc = 0;
done:
	react_pair_result_clear(&pr);
	react_config_destroy(cfg);
	react_scenario_destroy(s);
	fflush(stdout);
	react_gpu_backend_finish(rc);
	return rc;
}

/* ---- react sweep ---- */

static void sweep_usage(FILE *f)
{
	fprintf(f,
	        "usage: react sweep SCENARIO [-j N | --mpi] [-o DIR] [--backend flow|dctcp|ns3]\n"
	        "                   [--set KEY=VALUE]... [--trace] [--no-plot] [--quiet]\n"
	        "                   [--oracle [--oracle-cache DIR] [--oracle-opt KEY=VALUE]...]\n"
	        "                   [--baseline-from DIR]\n"
	        "  Runs every configuration of SCENARIO (the cross product of its swept\n"
	        "  fields), baseline and REACT each, and writes (default DIR: results/<name>):\n"
	        "    DIR/runs.csv              one row per configuration and job\n"
	        "    DIR/runs/<id>/epochs.csv  every epoch of both runs; decisions.jsonl,\n"
	        "                              summary.csv, config.txt\n"
	        "    DIR/plot-<job>.png/.svg   improvement per swept value (gnuplot)\n"
	        "  A rerun skips configurations whose run directory is complete and checks\n"
	        "  out (fingerprint, summary.csv, every epoch in epochs.csv); any other is\n"
	        "  run again, a damaged one named on stderr.\n"
	        "  -j N   run N configurations in parallel processes (same results as -j 1)\n"
	        "  --mpi  under mpirun or srun: spread the configurations over the MPI ranks,\n"
	        "         longest first; rank 0 dispatches, runs some too, and writes runs.csv\n"
	        "         and the plots (same results as -j 1; docs/mpi.md)\n"
	        "  --oracle  also search each configuration's oracle, the best fixed pattern\n"
	        "            REACT's moves reach (docs/oracle.md): runs/<id>/oracle.csv and\n"
	        "            oracle-<job>.json, and the columns oracle_mean_gbps,\n"
	        "            oracle_impr_pct, captured in runs.csv and summary.csv; a stored\n"
	        "            oracle result with the same oracle fingerprint (configuration\n"
	        "            without REACT's parameters, search options) is reused\n"
	        "  --oracle-cache DIR      also keep and look up oracle results in DIR/<fingerprint>/\n"
	        "  --oracle-opt KEY=VALUE  a search knob (react oracle --help lists them)\n"
	        "  --baseline-from DIR  take each configuration's baseline from the run in\n"
	        "            DIR/runs/ whose config.txt describes it (a sweep that ran it before,\n"
	        "            e.g. with other REACT parameters; DIR may be the output directory)\n"
	        "            instead of running it again; where none does, or its epochs.csv\n"
	        "            lacks a baseline epoch, the baseline runs and stderr says why\n"
	        "            (docs/scenarios.md, \"Reusing baselines\")\n"
	        "exit: 0 done, 2 bad input or a failed run\n");
}

void sweep_progress_tick(progress_t *p, int final)
{
	if (p->total == 0)
		return;
	size_t done = p->before + p->done;
	if (final && p->own) {
		char last[128];
		snprintf(last, sizeof last, "%zu/%zu runs done", p->done, p->total);
		cli_progress_end(p->line, last);
	} else if (p->own) {
		cli_progress_report(p->line, (int64_t)done, "%zu/%zu runs done", p->done, p->total);
	} else {
		cli_progress_report(p->line, (int64_t)done, "%zu of %lld configurations done (%s: %zu "
		                    "of %zu)", done, (long long)p->line->total, p->name, p->done,
		                    p->total);
	}
}

/* OUT/runs/.tmp-<id>.<pid>: what a run of configuration id killed in flight
 * (a process, an MPI rank on any host) left; only whoever runs id again
 * removes them, so a live run of another configuration is never touched. */
static void remove_lost_runs(const char *out, const char *id)
{
	char runs[4200], pre[128], p[4500];
	snprintf(runs, sizeof runs, "%.4000s/runs", out);
	snprintf(pre, sizeof pre, ".tmp-%.100s.", id);
	DIR *d = opendir(runs);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		if (!strncmp(e->d_name, pre, strlen(pre))) {
			snprintf(p, sizeof p, "%s/%.250s", runs, e->d_name);
			react_rmtree(p);
		}
	closedir(d);
}

int sweep_one(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so,
              size_t i)
{
	char err[2048];
	react_config_t *cfg = NULL;
	int rc = 2;
	if (react_scenario_config(s, i, &cfg, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react sweep: %s\n", err);
		return 2;
	}
	const react_backend_ops_t *be = cli_backend_of("sweep", s, o, cfg);
	react_oracle_files_t *of = NULL;
	char rdir[4400];
	snprintf(rdir, sizeof rdir, "%.4000s/runs/%s", so->out, cfg->id);
	if (be && so->oracle) {
		const char *from;
		if (cli_oracle_files("sweep", be, cfg, &so->oopts, rdir, so->oracle_cache, 1, &of, NULL,
		                     &from))
			be = NULL;
	}
	char why[1024];
	if (be && react_run_dir_check(so->out, s, cfg, why, sizeof why) != REACT_RUN_DIR_DONE) {
		int stale = 0;
		react_run_write_opts_t wo = {.trace = so->trace, .backend = be, .oracle = of,
		                             .oracle_stale = &stale};
		react_drive_result_t *base = NULL;
		if (so->baseline_from) {
			react_status_t bs = react_run_dir_baseline(so->baseline_from, cfg, &base, why,
			                                           sizeof why);
			if (bs != REACT_OK)
				fprintf(stderr, "\nreact sweep: %s (%s): --baseline-from %s: %s; the baseline "
				        "runs\n", cfg->id, cfg->key, so->baseline_from, why);
			wo.baseline = base;
		}
		remove_lost_runs(so->out, cfg->id);
		react_status_t ms = react_run_dir_make(so->out, s, cfg, &wo, NULL, err, sizeof err);
		const char *from;
		if (ms != REACT_OK && stale &&
		    cli_oracle_search_again("sweep", be, cfg, &so->oopts, rdir, so->oracle_cache, 1, err,
		                            &of, NULL, &from) == 0) {
			/* searched again against this run's baseline, then run again */
			wo.oracle = of;
			stale = 0;
			ms = react_run_dir_make(so->out, s, cfg, &wo, NULL, err, sizeof err);
		}
		if (ms != REACT_OK)
			fprintf(stderr, "\nreact sweep: %s (%s): %s\n", cfg->id, cfg->key, err);
		else
			rc = 0;
		react_drive_result_destroy(base);
	} else if (be) {
		/* a complete run directory without (this) oracle: the summary's columns
		 * first, then the files, so that an interruption leaves it unfinished */
		char p[4500], *text = NULL, *with = NULL;
		snprintf(p, sizeof p, "%s/summary.csv", rdir);
		if (react_read_file_text(p, &text, err, sizeof err) == REACT_OK &&
		    !react_oracle_files_baseline_ok(of, cfg, text, why, sizeof why)) {
			/* the stored oracle is of another baseline: searched again */
			snprintf(err, sizeof err, "stored oracle result: %s", why);
			const char *from;
			if (cli_oracle_search_again("sweep", be, cfg, &so->oopts, rdir, so->oracle_cache, 1,
			                            err, &of, NULL, &from) != 0) {
				free(text);
				react_config_destroy(cfg);
				return 2;
			}
		}
		if (!text || !(with = react_summary_add_oracle(text, cfg, of))) {
			fprintf(stderr, "\nreact sweep: %s: %s\n", p,
			        text ? "cannot add the oracle columns" : err);
		} else if (react_write_file_atomic(p, with, err, sizeof err) != REACT_OK ||
		           react_oracle_files_write(rdir, cfg, of, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "\nreact sweep: %s (%s): %s\n", cfg->id, cfg->key, err);
		} else {
			rc = 0;
		}
		free(text);
		free(with);
	}
	react_oracle_files_destroy(of);
	react_config_destroy(cfg);
	return rc;
}

/* 1 when the complete run directory of cfg also holds the oracle's result
 * for the current search options and summary.csv has its columns. */
static int oracle_done(const sweep_opts_t *so, const react_config_t *cfg)
{
	char rdir[4400], p[4500], err[512], *text = NULL;
	react_oracle_files_t *f = NULL;
	snprintf(rdir, sizeof rdir, "%.4000s/runs/%s", so->out, cfg->id);
	snprintf(p, sizeof p, "%s/summary.csv", rdir);
	if (react_read_file_text(p, &text, err, sizeof err) != REACT_OK)
		return 0;
	int ok = react_summary_has_oracle(text) &&
	         react_oracle_files_load(rdir, cfg, react_oracle_fingerprint(cfg, &so->oopts), &f) ==
	             REACT_OK &&
	         f;
	free(text);
	react_oracle_files_destroy(f);
	return ok;
}

/* 1 when configuration i's oracle result is stored in its run directory or
 * the cache (only counted, for the message before the runs). */
static int oracle_stored(const react_scenario_t *s, const common_opts_t *o,
                         const sweep_opts_t *so, size_t i)
{
	char rdir[4400], err[512];
	react_config_t *cfg = NULL;
	react_oracle_files_t *f = NULL;
	(void)o;
	if (react_scenario_config(s, i, &cfg, err, sizeof err) != REACT_OK)
		return 0;
	uint64_t fp = react_oracle_fingerprint(cfg, &so->oopts);
	snprintf(rdir, sizeof rdir, "%.4000s/runs/%s", so->out, cfg->id);
	react_oracle_files_load(rdir, cfg, fp, &f);
	if (!f && so->oracle_cache) {
		snprintf(rdir, sizeof rdir, "%.4000s/%016" PRIx64, so->oracle_cache, fp);
		react_oracle_files_load(rdir, cfg, fp, &f);
	}
	int ok = f != NULL;
	react_oracle_files_destroy(f);
	react_config_destroy(cfg);
	return ok;
}

/* The estimated cost of configuration cfg on backend be, for the order of
 * the runs (longest first): epochs x (ranks + external flows) of every job,
 * times packets per message on the packet-level backends (ns-3 weighs 20
 * times the DCTCP window model, after README's fig5a timings), times the
 * ranks again when the oracle searches (its screen tries moves of every
 * rank).  With the run times measured on bench/sweep's 24 configurations,
 * 2 ranks given them in this order finish 2 % later than a perfect split
 * (in index order 6 %, by the true times 0.1 %).  Only the order depends
 * on it, never a result. */
static double sweep_cost(const react_config_t *cfg, const char *be, int oracle)
{
	double c = 0, ext = 0;
	int packets = strcmp(be, "flow") != 0;
	for (size_t i = 0; i < cfg->run.next; i++)
		ext += cfg->run.ext[i].count;
	for (int32_t j = 0; j < cfg->run.njobs; j++) {
		const react_job_cfg_t *jc = &cfg->run.jobs[j];
		double cj = ((double)jc->nranks + ext) * (double)jc->epochs;
		if (packets)
			cj *= 1.0 + (double)jc->message_bytes / (cfg->run.mtu ? cfg->run.mtu : 1500);
		if (oracle)
			cj *= (double)jc->nranks;
		c += cj;
	}
	return strcmp(be, "ns3") ? c : 20.0 * c;
}

typedef struct costed {
	size_t i;
	double cost;
} costed_t;

static int by_cost(const void *a, const void *b)
{
	const costed_t *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Runs every unfinished configuration; returns 0, or 2 when one failed. */
static int do_sweep(const react_scenario_t *s, const common_opts_t *o, const sweep_opts_t *so,
                    size_t *skipped_out)
{
	size_t n = react_scenario_nconfigs(s);
	size_t *pending = calloc(n, sizeof *pending), npending = 0, skipped = 0, stale = 0;
	costed_t *order = calloc(n ? n : 1, sizeof *order);
	char err[2048], why[1024], first_stale[64] = "";
	int rc = 2;
	if (!pending || !order)
		goto done;
	/* Resolve every configuration first: bad input is reported before any run. */
	for (size_t i = 0; i < n; i++) {
		react_config_t *cfg = NULL;
		if (react_scenario_config(s, i, &cfg, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react sweep: configuration %zu: %s\n", i, err);
			goto done;
		}
		const react_backend_ops_t *be = cli_backend_of("sweep", s, o, cfg);
		if (!be) {
			react_config_destroy(cfg);
			goto done;
		}
		/* a run counts as done only when its files check out; a damaged one
		 * is named, runs made from other inputs (a changed scenario) counted */
		react_run_dir_state_t ds = react_run_dir_check(so->out, s, cfg, why, sizeof why);
		if (ds == REACT_RUN_DIR_DONE && (!so->oracle || oracle_done(so, cfg))) {
			skipped++;
		} else {
			order[npending] = (costed_t){i, sweep_cost(cfg, be->name, so->oracle)};
			pending[npending++] = i;
		}
		if (ds == REACT_RUN_DIR_DAMAGED)
			fprintf(stderr, "react sweep: %s/runs/%s: %s; running it again\n", so->out, cfg->id,
			        why);
		if (ds == REACT_RUN_DIR_STALE && !stale++)
			snprintf(first_stale, sizeof first_stale, "%s", cfg->id);
		react_config_destroy(cfg);
	}
	if (stale && !so->quiet)
		fprintf(stderr, "react sweep: %zu run director%s in %s/runs (%s%s) made from other "
		        "inputs (the configuration's fingerprint differs): running again\n", stale,
		        stale > 1 ? "ies" : "y", so->out, first_stale, stale > 1 ? ", ..." : "");
	if (so->oracle && npending && !so->quiet) {
		size_t stored = 0;
		for (size_t k = 0; k < npending; k++)
			stored += oracle_stored(s, o, so, pending[k]);
		fprintf(stderr, "%s: oracle results stored for %zu of the %zu configurations to run, "
		        "%zu to search\n", react_scenario_name(s), stored, npending, npending - stored);
	}
	cli_progress_t line;
	progress_t pg = {so->progress, react_scenario_name(s), npending, 0, so->progress_before,
	                 !so->progress};
	if (pg.own) {
		pg.line = &line;
		cli_progress_start(&line, react_scenario_name(s), (int64_t)npending, 5.0, so->quiet);
	}
	if (skipped && !so->quiet)
		fprintf(stderr, "%s: %zu of %zu configurations already done in %s, skipped\n",
		        react_scenario_name(s), skipped, n, so->out);
	/* in parallel, the longest runs first: the last ones to finish are short */
	if (so->mpi || so->jobs > 1) {
		qsort(order, npending, sizeof *order, by_cost);
		for (size_t k = 0; k < npending; k++)
			pending[k] = order[k].i;
	}
	int failed = 0;
	if (so->mpi) {
		failed = sweep_mpi_dispatch(s, o, so, pending, npending, &pg);
	} else if (so->jobs <= 1) {
		for (size_t k = 0; k < npending; k++) {
			if (sweep_one(s, o, so, pending[k]) != 0) {
				failed = 1;
				break;
			}
			pg.done++;
			sweep_progress_tick(&pg, 0);
		}
	} else {
		size_t next = 0, running = 0;
		fflush(stdout);
		fflush(stderr);
		while ((next < npending && !failed) || running) {
			while (!failed && next < npending && running < (size_t)so->jobs) {
				pid_t pid = fork();
				if (pid < 0) {
					fprintf(stderr, "react sweep: fork: %s\n", strerror(errno));
					failed = 1;
					break;
				}
				if (pid == 0)
					_exit(sweep_one(s, o, so, pending[next]));
				next++;
				running++;
			}
			if (!running)
				break;
			int status;
			pid_t w = wait(&status);
			if (w < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			running--;
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				failed = 1;
			else
				pg.done++;
			sweep_progress_tick(&pg, 0);
		}
	}
	if (failed) {
		cli_progress_clear(pg.line);
		fprintf(stderr, "react sweep: stopped after a failed run; finished runs are kept, "
		        "a rerun continues\n");
		goto done;
	}
	if (npending)
		sweep_progress_tick(&pg, 1);
	if (react_runs_csv_assemble_ex(so->out, s, so->oracle, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react sweep: %s\n", err);
		goto done;
	}
	if (skipped_out)
		*skipped_out = skipped;
	rc = 0;
done:
	free(pending);
	free(order);
	return rc;
}

static void print_sweep_table(const char *out, const react_scenario_t *s)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/runs.csv", out);
	FILE *f = fopen(p, "r");
	if (!f)
		return;
	/* mean improvement per (job, x value, series value) */
	char line[8192];
	char *hdr[64];
	int nh = 0, cx = -1, cs = -1, cj = -1, cy = -1, cp = -1, co = -1;
	size_t xi = react_scenario_plot_x(s), si = react_scenario_plot_series(s);
	struct agg { char job[64], x[64], sv[64]; double sum, sum95, sumo; int n; } *ag = NULL;
	size_t nag = 0, cap = 0;
	char hbuf[8192];
	if (!fgets(hbuf, sizeof hbuf, f)) {
		fclose(f);
		return;
	}
	hbuf[strcspn(hbuf, "\r\n")] = 0;
	nh = (int)react_csv_split(hbuf, hdr, 64);
	for (int i = 0; i < nh; i++) {
		if (xi != SIZE_MAX && !strcmp(hdr[i], react_scenario_axis_name(s, xi)))
			cx = i;
		if (si != SIZE_MAX && !strcmp(hdr[i], react_scenario_axis_name(s, si)))
			cs = i;
		if (!strcmp(hdr[i], "job"))
			cj = i;
		if (!strcmp(hdr[i], "improvement_mean_pct"))
			cy = i;
		if (!strcmp(hdr[i], "improvement_p95_pct"))
			cp = i;
		if (!strcmp(hdr[i], "oracle_impr_pct"))
			co = i;
	}
	if (cj < 0 || cy < 0 || cp < 0) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof line, f)) {
		char *fl[64];
		line[strcspn(line, "\r\n")] = 0;
		int nf = (int)react_csv_split(line, fl, 64);
		if (nf <= cy || nf <= cp || nf <= co)
			continue;
		const char *xv = cx >= 0 ? fl[cx] : "-", *sv = cs >= 0 ? fl[cs] : "-";
		size_t k;
		for (k = 0; k < nag; k++)
			if (!strcmp(ag[k].job, fl[cj]) && !strcmp(ag[k].x, xv) && !strcmp(ag[k].sv, sv))
				break;
		if (k == nag) {
			if (nag == cap) {
				cap = cap ? cap * 2 : 64;
				void *na = realloc(ag, cap * sizeof *ag);
				if (!na)
					break;
				ag = na;
			}
			memset(&ag[nag], 0, sizeof ag[nag]);
			snprintf(ag[nag].job, 64, "%s", fl[cj]);
			snprintf(ag[nag].x, 64, "%s", xv);
			snprintf(ag[nag].sv, 64, "%s", sv);
			nag++;
		}
		ag[k].sum += atof(fl[cy]);
		ag[k].sum95 += atof(fl[cp]);
		if (co >= 0)
			ag[k].sumo += atof(fl[co]);
		ag[k].n++;
	}
	fclose(f);
	printf("%-12s %-16s %-16s %6s %14s %14s", "job",
	       xi != SIZE_MAX ? react_scenario_axis_name(s, xi) : "-",
	       si != SIZE_MAX ? react_scenario_axis_name(s, si) : "-", "runs", "mean_impr_%",
	       "p95_impr_%");
	if (co >= 0)
		printf(" %14s %9s", "oracle_impr_%", "captured");
	printf("\n");
	for (size_t k = 0; k < nag; k++) {
		printf("%-12s %-16s %-16s %6d %+14.1f %+14.1f", ag[k].job, ag[k].x, ag[k].sv, ag[k].n,
		       ag[k].sum / ag[k].n, ag[k].sum95 / ag[k].n);
		if (co >= 0) {
			/* captured of the group: mean REACT gain / mean oracle gain */
			double mo = ag[k].sumo / ag[k].n;
			printf(" %+14.1f", mo);
			if (mo >= 100.0 * REACT_ORACLE_GAIN_EPS)
				printf(" %9.2f", (ag[k].sum / ag[k].n) / mo);
			else
				printf(" %9s", "n/a");
		}
		printf("\n");
	}
	free(ag);
}

int react_cmd_sweep(int argc, char **argv)
{
	common_opts_t o = {0};
	sweep_opts_t so = {.out = NULL, .jobs = 1, .plot = 1};
	char outbuf[4096];
	int rc = 2;
	react_scenario_t *s = NULL;

	react_oracle_opts_default(&so.oopts);
	for (int i = 1; i < argc; i++) {
		int c = cli_common_opt("sweep", &o, argc, argv, &i);
		if (c < 0)
			return 2;
		if (c)
			continue;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			sweep_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-j") && i + 1 < argc) {
			if (cli_parse_count("sweep", "-j", argv[++i], &so.jobs, 1))
				return 2;
		} else if (!strncmp(argv[i], "-j", 2) && argv[i][2]) {
			if (cli_parse_count("sweep", "-j", argv[i] + 2, &so.jobs, 1))
				return 2;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			so.out = argv[++i];
		} else if (!strcmp(argv[i], "--trace")) {
			so.trace = 1;
		} else if (!strcmp(argv[i], "--mpi")) {
			so.mpi = 1;
		} else if (!strcmp(argv[i], "--no-plot")) {
			so.plot = 0;
		} else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			so.quiet = 1;
		} else if (!strcmp(argv[i], "--oracle")) {
			so.oracle = 1;
		} else if (!strcmp(argv[i], "--baseline-from")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "react sweep: --baseline-from needs a directory\n");
				return 2;
			}
			so.baseline_from = argv[++i];
		} else if (!strcmp(argv[i], "--oracle-cache") || !strcmp(argv[i], "--oracle-opt")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "react sweep: %s needs a value\n", argv[i]);
				return 2;
			}
			if (!strcmp(argv[i], "--oracle-cache"))
				so.oracle_cache = argv[++i];
			else if (cli_oracle_opt("sweep", &so.oopts, argv[++i]) != 0)
				return 2;
		} else if (argv[i][0] == '-' || o.path) {
			fprintf(stderr, "react sweep: unexpected argument '%s'\n", argv[i]);
			sweep_usage(stderr);
			return 2;
		} else {
			o.path = argv[i];
		}
	}
	if (!o.path) {
		sweep_usage(stderr);
		return 2;
	}
	if (so.baseline_from) {
		struct stat bst;
		int missing = stat(so.baseline_from, &bst) != 0;
		if (missing || !S_ISDIR(bst.st_mode)) {
			fprintf(stderr, "react sweep: --baseline-from %s: %s; expected the output "
			        "directory of an earlier sweep\n", so.baseline_from,
			        missing ? "no such directory" : "not a directory");
			return 2;
		}
	}
	if (so.mpi && so.jobs > 1) {
		fprintf(stderr, "react sweep: --mpi and -j %ld: expected one of them (under MPI each "
		        "rank runs one configuration at a time; start more ranks)\n", so.jobs);
		return 2;
	}
	int rank = 0, nranks = 1, working = 0;
	if (so.mpi && sweep_mpi_start(&rank, &nranks) != 0)
		return 2;
	/* rank 0 reads the scenario first, so that bad input is reported once */
	if (rank == 0)
		s = cli_load_scenario("sweep", &o);
	if (so.mpi && (!sweep_mpi_from_root(s != NULL) ||
	               !sweep_mpi_all(rank == 0 || (s = cli_load_scenario("sweep", &o)) != NULL)))
		goto done;
	if (!s)
		return 2;
	working = 1; /* every rank other than 0 now asks rank 0 for work */
	if (!so.out) {
		snprintf(outbuf, sizeof outbuf, "results/%s", react_scenario_name(s));
		so.out = outbuf;
	}
	if (rank != 0) {
		rc = sweep_mpi_work(s, &o, &so);
		goto done;
	}
	size_t skipped = 0;
	if ((rc = do_sweep(s, &o, &so, &skipped)) != 0)
		goto done;
	int made = 0;
	if (so.plot) {
		char err[2048];
		if (react_plot_sweep(so.out, s, &made, err, sizeof err) != REACT_OK)
			fprintf(stderr, "react sweep: plot: %s\n", err);
		else if (err[0]) /* why there is no plot, or not every one */
			fprintf(stderr, "react sweep: %s\n", err);
	}
	print_sweep_table(so.out, s);
	printf("wrote %s/runs.csv (%zu configurations x %d jobs; %zu run now, %zu already done)\n",
	       so.out, react_scenario_nconfigs(s), (int)react_scenario_njobs(s),
	       react_scenario_nconfigs(s) - skipped, skipped);
	printf("      %s/runs/<id>/{epochs.csv,summary.csv,decisions.jsonl,config.txt}\n", so.out);
	if (made)
		printf("      %s/plot-<job>.png and .svg\n", so.out);
	else if (so.plot && react_scenario_plot_x(s) != SIZE_MAX)
		printf("      (no plot images: gnuplot is not installed or failed; see %s/plot-*.log)\n",
		       so.out);
done:
	react_scenario_destroy(s);
	if (so.mpi)
		sweep_mpi_finish(working);
	return rc;
}

/* ---- react regress ---- */

static void regress_usage(FILE *f)
{
	fprintf(f,
	        "usage: react regress DIR [--stored ROOT] [--update] [-j N] [--quiet]\n"
	        "                     [--progress SECONDS]\n"
	        "  Reruns every scenario DIR/*.yaml and compares its runs.csv and every\n"
	        "  runs/<id>/epochs.csv with the stored results ROOT/<name>/ (default ROOT:\n"
	        "  results/regress).  Numbers must agree within the scenario's relative\n"
	        "  `tolerance` (0 when absent: identical); with tolerance 0 every\n"
	        "  runs/<id>/decisions.jsonl must be identical too.\n"
	        "  --update  run the set and store its results as the new reference\n"
	        "  The new results are written under $TMPDIR (default /tmp) and kept there\n"
	        "  when they differ.\n"
	        "  --progress S  seconds between progress lines (configurations done, ETA) on\n"
	        "                stderr when it is not a terminal (default 5)\n"
	        "  --quiet       no progress on stderr\n"
	        "exit: 0 identical, 1 differences (each one listed), 2 bad input or a failed run\n");
}

static int is_number(const char *s, double *v)
{
	char *end;
	if (!*s)
		return 0;
	*v = strtod(s, &end);
	return !*end;
}

/* Compare two text files line by line (the decision logs: tolerance 0
 * only); prints the first differing line, its first differing byte and a
 * stretch of both from there; returns 1 when they differ, else 0. */
static long compare_lines(const char *name, const char *label, const char *stored,
                          const char *now, long *printed)
{
	FILE *a = fopen(stored, "r"), *b = fopen(now, "r");
	char *la = NULL, *lb = NULL;
	size_t ca = 0, cb = 0;
	long lineno = 0, diff = 0;
	if (!a || !b) {
		if ((*printed)++ < 40)
			printf("%s: %s: %s missing\n", name, label, !a ? stored : now);
		diff = 1;
		goto out;
	}
	for (;;) {
		ssize_t na = getline(&la, &ca, a), nb = getline(&lb, &cb, b);
		lineno++;
		if (na < 0 && nb < 0)
			break;
		if (na < 0 || nb < 0) {
			if ((*printed)++ < 40)
				printf("%s: %s: line %ld: %s has more lines\n", name, label, lineno,
				       na < 0 ? "the new run" : "the stored result");
			diff = 1;
			break;
		}
		if (na != nb || memcmp(la, lb, (size_t)na)) {
			size_t k = 0;
			while (k < (size_t)na && k < (size_t)nb && la[k] == lb[k])
				k++;
			la[strcspn(la, "\r\n")] = 0;
			lb[strcspn(lb, "\r\n")] = 0;
			if ((*printed)++ < 40)
				printf("%s: %s line %ld, byte %zu: stored '%.60s', now '%.60s'\n", name, label,
				       lineno, k + 1, la + (k < strlen(la) ? k : strlen(la)),
				       lb + (k < strlen(lb) ? k : strlen(lb)));
			diff = 1;
			break;
		}
	}
out:
	free(la);
	free(lb);
	if (a)
		fclose(a);
	if (b)
		fclose(b);
	return diff;
}

/* Compare two CSV files field by field; prints differences; returns their count. */
static long compare_csv(const char *name, const char *label, const char *stored,
                        const char *now, double tol, long *printed)
{
	FILE *a = fopen(stored, "r"), *b = fopen(now, "r");
	long diffs = 0, lineno = 0;
	char la[16384], lb[16384], hdr[16384] = "";
	char *hf[128];
	int nh = 0;
	if (!a || !b) {
		printf("%s: %s: %s missing\n", name, label, !a ? stored : now);
		if (a)
			fclose(a);
		if (b)
			fclose(b);
		return 1;
	}
	for (;;) {
		char *ra = fgets(la, sizeof la, a), *rb = fgets(lb, sizeof lb, b);
		lineno++;
		if (!ra && !rb)
			break;
		if (!ra || !rb) {
			diffs++;
			if ((*printed)++ < 40)
				printf("%s: %s: line %ld: %s has %s lines\n", name, label, lineno,
				       ra ? "the new run" : "the stored result", ra ? "fewer" : "more");
			break;
		}
		la[strcspn(la, "\r\n")] = 0;
		lb[strcspn(lb, "\r\n")] = 0;
		if (lineno == 1) {
			snprintf(hdr, sizeof hdr, "%s", la);
			nh = (int)react_csv_split(hdr, hf, 128);
			if (strcmp(la, lb)) {
				diffs++;
				if ((*printed)++ < 40)
					printf("%s: %s: header differs: stored '%s', now '%s'\n", name, label, la,
					       lb);
				break;
			}
			continue;
		}
		if (!strcmp(la, lb))
			continue;
		char *fa[128], *fb[128];
		int na = (int)react_csv_split(la, fa, 128), nb = (int)react_csv_split(lb, fb, 128);
		for (int k = 0; k < (na > nb ? na : nb); k++) {
			const char *x = k < na ? fa[k] : "", *y = k < nb ? fb[k] : "";
			double dx, dy;
			const char *col = k < nh ? hf[k] : "?";
			int same;
			if (strcmp(col, "pattern_hash") && is_number(x, &dx) && is_number(y, &dy))
				same = tol > 0 ? fabs(dx - dy) <= tol * fmax(fabs(dx), fabs(dy)) : dx == dy;
			else
				same = !strcmp(x, y);
			if (same)
				continue;
			diffs++;
			if ((*printed)++ < 40)
				printf("%s: %s line %ld (%s%s%s) column %s: stored %s, now %s\n", name, label,
				       lineno, na > 0 ? fa[0] : "", na > 1 ? " " : "", na > 1 ? fa[1] : "", col,
				       x, y);
		}
	}
	fclose(a);
	fclose(b);
	return diffs;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int react_cmd_regress(int argc, char **argv)
{
	const char *dir = NULL, *root = "results/regress";
	int update = 0, quiet = 0, rc = 0;
	long jobs = 1;
	double every = 5.0;
	char *names[256];
	react_scenario_t *scen[256] = {NULL};
	int nnames = 0;
	cli_progress_t line;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			regress_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--stored") && i + 1 < argc) {
			root = argv[++i];
		} else if (!strcmp(argv[i], "--update")) {
			update = 1;
		} else if (!strcmp(argv[i], "-j") && i + 1 < argc) {
			if (cli_parse_count("regress", "-j", argv[++i], &jobs, 1))
				return 2;
		} else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			quiet = 1;
		} else if (!strcmp(argv[i], "--progress") && i + 1 < argc) {
			if (cli_parse_progress("regress", argv[++i], &every))
				return 2;
		} else if (argv[i][0] == '-' || dir) {
			fprintf(stderr, "react regress: unexpected argument '%s'\n", argv[i]);
			regress_usage(stderr);
			return 2;
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		regress_usage(stderr);
		return 2;
	}
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "react regress: %s: cannot open directory: %s\n", dir, strerror(errno));
		return 2;
	}
	struct dirent *e;
	while ((e = readdir(d)) && nnames < 256) {
		size_t L = strlen(e->d_name);
		if (L > 5 && !strcmp(e->d_name + L - 5, ".yaml"))
			names[nnames++] = strdup(e->d_name);
	}
	closedir(d);
	if (!nnames) {
		fprintf(stderr, "react regress: %s: no *.yaml scenarios\n", dir);
		return 2;
	}
	qsort(names, (size_t)nnames, sizeof *names, cmp_str);
	/* every scenario first: bad input is reported before any run, and the
	 * progress line knows how many configurations there are */
	size_t nconfigs = 0, before = 0;
	for (int k = 0; k < nnames && rc != 2; k++) {
		char path[4400];
		common_opts_t o = {.path = path};
		snprintf(path, sizeof path, "%.4200s/%.190s", dir, names[k]);
		if (!(scen[k] = cli_load_scenario("regress", &o)))
			rc = 2;
		else
			nconfigs += react_scenario_nconfigs(scen[k]);
	}
	cli_progress_start(&line, "react regress", (int64_t)nconfigs, every, quiet);
	long total_diffs = 0;
	for (int k = 0; k < nnames && rc != 2; k++) {
		char path[4400], stored[4400], tmp[4400];
		common_opts_t o = {.path = path};
		snprintf(path, sizeof path, "%.4200s/%.190s", dir, names[k]);
		react_scenario_t *s = scen[k];
		const char *name = react_scenario_name(s);
		snprintf(stored, sizeof stored, "%.4200s/%.190s", root, name);
		if (update) {
			snprintf(tmp, sizeof tmp, "%s", stored);
			react_rmtree(tmp);
		} else {
			const char *td = getenv("TMPDIR");
			snprintf(tmp, sizeof tmp, "%.4000s/react-regress-%.150s-XXXXXX",
			         td && *td ? td : "/tmp", name);
			if (!mkdtemp(tmp)) {
				fprintf(stderr, "react regress: %s: cannot create a directory: %s\n", tmp,
				        strerror(errno));
				rc = 2;
				break;
			}
		}
		sweep_opts_t so = {.out = tmp, .jobs = jobs, .plot = 0, .quiet = 1,
		                   .progress = &line, .progress_before = before};
		if (do_sweep(s, &o, &so, NULL) != 0) {
			rc = 2;
			break;
		}
		before += react_scenario_nconfigs(s);
		cli_progress_clear(&line); /* stdout may share the terminal */
		if (update) {
			printf("%s: stored %zu configurations in %s\n", name, react_scenario_nconfigs(s),
			       stored);
			continue;
		}
		struct stat st;
		long diffs = 0, printed = 0;
		if (stat(stored, &st) != 0) {
			printf("%s: no stored results in %s (create them with react regress --update)\n",
			       name, stored);
			diffs = 1;
		} else {
			double tol = react_scenario_tolerance(s);
			char a[4600], b[4600];
			snprintf(a, sizeof a, "%s/runs.csv", stored);
			snprintf(b, sizeof b, "%s/runs.csv", tmp);
			diffs += compare_csv(name, "runs.csv", a, b, tol, &printed);
			for (size_t i = 0; i < react_scenario_nconfigs(s); i++) {
				char label[64];
				snprintf(label, sizeof label, "runs/c%04u/epochs.csv", (unsigned)i);
				snprintf(a, sizeof a, "%s/%s", stored, label);
				snprintf(b, sizeof b, "%s/%s", tmp, label);
				diffs += compare_csv(name, label, a, b, tol, &printed);
				/* the decisions themselves, where the results must be
				 * identical: a change of the search (candidates tried, their
				 * order and estimates) shows here before it moves a result */
				if (tol > 0)
					continue;
				snprintf(label, sizeof label, "runs/c%04u/decisions.jsonl", (unsigned)i);
				snprintf(a, sizeof a, "%s/%s", stored, label);
				snprintf(b, sizeof b, "%s/%s", tmp, label);
				diffs += compare_lines(name, label, a, b, &printed);
			}
			if (printed > 40)
				printf("%s: ... %ld differences not shown\n", name, printed - 40);
			printf("%s: %zu configurations, %s (tolerance %g)\n", name,
			       react_scenario_nconfigs(s), diffs ? "DIFFERENT" : "identical", tol);
		}
		if (diffs) {
			total_diffs += diffs;
			if (rc == 0)
				rc = 1;
			printf("%s: the new results are kept in %s\n", name, tmp);
		} else {
			react_rmtree(tmp);
		}
		fflush(stdout);
	}
	if (nconfigs)
		cli_progress_end(&line, NULL);
	for (int k = 0; k < nnames; k++) {
		react_scenario_destroy(scen[k]);
		free(names[k]);
	}
	if (rc == 1)
		printf("regress: %ld differences\n", total_diffs);
	return rc;
}

/* ---- react compare ---- */

static void compare_usage(FILE *f)
{
	fprintf(f,
	        "usage: react compare A.csv B.csv [--label-a NAME] [--label-b NAME]\n"
	        "                     [--mode baseline|react] [--job NAME] [--summary]\n"
	        "  Puts two per-epoch files (epochs.csv of react run/sweep, or the same columns\n"
	        "  written by the GPU runtime) side by side: per epoch the collective time of\n"
	        "  both and their ratio, '*' where a pattern changed; then mean and p95 of\n"
	        "  time and algorithm bandwidth and the number of pattern changes.  Runs are\n"
	        "  matched by (mode, job); when the files have one run each, those two.\n"
	        "  --summary  only the summary lines\n"
	        "exit: 0 done, 2 bad input\n");
}

typedef struct group {
	char mode[16], job[64];
	size_t n;
	const react_epoch_row_t **rows;
} group_t;

static size_t groups_of(const react_epoch_table_t *t, group_t **out, const char *mode,
                        const char *job)
{
	group_t *g = NULL;
	size_t ng = 0;
	for (size_t i = 0; i < t->n; i++) {
		const react_epoch_row_t *r = &t->rows[i];
		if ((mode && strcmp(mode, r->mode)) || (job && strcmp(job, r->job)))
			continue;
		size_t k;
		for (k = 0; k < ng; k++)
			if (!strcmp(g[k].mode, r->mode) && !strcmp(g[k].job, r->job))
				break;
		if (k == ng) {
			group_t *ngp = realloc(g, (ng + 1) * sizeof *g);
			if (!ngp)
				break;
			g = ngp;
			memset(&g[ng], 0, sizeof g[ng]);
			snprintf(g[ng].mode, sizeof g[ng].mode, "%s", r->mode);
			snprintf(g[ng].job, sizeof g[ng].job, "%s", r->job);
			g[ng].rows = calloc(t->n, sizeof *g[ng].rows);
			ng++;
		}
		if (g[k].rows)
			g[k].rows[g[k].n++] = r;
	}
	*out = g;
	return ng;
}

static void group_stats(const group_t *g, double *mt, double *pt, double *mb, double *pb,
                        long *changes)
{
	double *t = calloc(g->n ? g->n : 1, sizeof *t);
	double sumbw = 0;
	int havebw = 1;
	*changes = 0;
	for (size_t i = 0; t && i < g->n; i++) {
		t[i] = g->rows[i]->time_s;
		if (g->rows[i]->algbw_gbps > 0)
			sumbw += g->rows[i]->algbw_gbps;
		else
			havebw = 0;
		*changes += g->rows[i]->changed;
	}
	react_epoch_summary(t, t ? g->n : 0, 1, mt, pt, NULL, NULL);
	*mb = havebw && g->n ? sumbw / (double)g->n : NAN;
	/* p95 bandwidth: message over p95 time; the message follows from any row */
	*pb = NAN;
	if (havebw && g->n && *pt > 0) {
		double msg = g->rows[0]->algbw_gbps * g->rows[0]->time_s; /* GB */
		*pb = msg / *pt;
	}
	free(t);
}

int react_cmd_compare(int argc, char **argv)
{
	const char *pa = NULL, *pb = NULL, *la = NULL, *lb = NULL, *mode = NULL, *job = NULL;
	int summary_only = 0, rc = 2;
	react_epoch_table_t *A = NULL, *B = NULL;
	group_t *ga = NULL, *gb = NULL;
	size_t nga = 0, ngb = 0;
	char err[2048];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			compare_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--label-a") && i + 1 < argc) {
			la = argv[++i];
		} else if (!strcmp(argv[i], "--label-b") && i + 1 < argc) {
			lb = argv[++i];
		} else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
			mode = argv[++i];
		} else if (!strcmp(argv[i], "--job") && i + 1 < argc) {
			job = argv[++i];
		} else if (!strcmp(argv[i], "--summary")) {
			summary_only = 1;
		} else if (argv[i][0] == '-' || (pa && pb)) {
			fprintf(stderr, "react compare: unexpected argument '%s'\n", argv[i]);
			compare_usage(stderr);
			return 2;
		} else if (!pa) {
			pa = argv[i];
		} else {
			pb = argv[i];
		}
	}
	if (!pa || !pb) {
		compare_usage(stderr);
		return 2;
	}
	if (react_epochs_csv_read(pa, &A, err, sizeof err) != REACT_OK ||
	    react_epochs_csv_read(pb, &B, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react compare: %s\n", err);
		goto done;
	}
	if (!la)
		la = "A";
	if (!lb)
		lb = "B";
	nga = groups_of(A, &ga, mode, job);
	ngb = groups_of(B, &gb, mode, job);
	/* A file with another naming (e.g. a GPU run, mode "run"): take all of it. */
	if (!nga) {
		free(ga);
		nga = groups_of(A, &ga, NULL, NULL);
	}
	if (!ngb) {
		free(gb);
		ngb = groups_of(B, &gb, NULL, NULL);
	}
	printf("A = %s\nB = %s\n", pa, pb);
	int pairs = 0;
	for (size_t i = 0; i < nga; i++)
		for (size_t k = 0; k < ngb; k++) {
			int match = !strcmp(ga[i].mode, gb[k].mode) && !strcmp(ga[i].job, gb[k].job);
			if (!match && !(nga == 1 && ngb == 1))
				continue;
			pairs++;
			const group_t *x = &ga[i], *y = &gb[k];
			printf("\n%s %s/%s vs %s %s/%s\n", la, x->mode, x->job, lb, y->mode, y->job);
			if (!summary_only) {
				printf("%6s %12s %12s %8s\n", "epoch", "A_ms", "B_ms", "B/A");
				size_t p = 0, q = 0;
				while (p < x->n || q < y->n) {
					int64_t ea = p < x->n ? x->rows[p]->epoch : INT64_MAX;
					int64_t eb = q < y->n ? y->rows[q]->epoch : INT64_MAX;
					int64_t ep = ea < eb ? ea : eb;
					const react_epoch_row_t *ra = ea == ep ? x->rows[p++] : NULL;
					const react_epoch_row_t *rb = eb == ep ? y->rows[q++] : NULL;
					printf("%6" PRId64, ep);
					if (ra)
						printf(" %11.4f%s", ra->time_s * 1e3, ra->changed ? "*" : " ");
					else
						printf(" %12s", "-");
					if (rb)
						printf(" %11.4f%s", rb->time_s * 1e3, rb->changed ? "*" : " ");
					else
						printf(" %12s", "-");
					if (ra && rb)
						printf(" %8.3f", rb->time_s / ra->time_s);
					printf("\n");
				}
			}
			double mt[2], pt[2], mb[2], pbw[2];
			long ch[2];
			group_stats(x, &mt[0], &pt[0], &mb[0], &pbw[0], &ch[0]);
			group_stats(y, &mt[1], &pt[1], &mb[1], &pbw[1], &ch[1]);
			printf("  %-4s %7s %10s %10s %10s %10s %8s\n", "", "epochs", "mean_ms", "p95_ms",
			       "mean_GB/s", "p95_GB/s", "changes");
			const group_t *gs[2] = {x, y};
			const char *ls[2] = {la, lb};
			for (int m = 0; m < 2; m++)
				printf("  %-4s %7zu %10.4f %10.4f %10.3f %10.3f %8ld\n", ls[m], gs[m]->n,
				       mt[m] * 1e3, pt[m] * 1e3, mb[m], pbw[m], ch[m]);
			printf("  B/A  %7s %10.3f %10.3f %10.3f %10.3f\n", "", mt[1] / mt[0], pt[1] / pt[0],
			       mb[1] / mb[0], pbw[1] / pbw[0]);
		}
	if (!pairs) {
		fprintf(stderr, "react compare: no run (mode, job) is in both files; use --mode/--job "
		        "to pick one run in each\n");
		goto done;
	}
	rc = 0;
done:
	for (size_t i = 0; i < nga; i++)
		free(ga[i].rows);
	for (size_t i = 0; i < ngb; i++)
		free(gb[i].rows);
	free(ga);
	free(gb);
	react_epoch_table_destroy(A);
	react_epoch_table_destroy(B);
	return rc;
}
