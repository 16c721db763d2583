/* The oracle (react/oracle.h) and the driver's fixed patterns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "react/check.h"
#include "react/driver.h"
#include "react/flowsim.h"
#include "react/generators.h"
#include "react/oracle.h"
#include "react/pattern_io.h"
#include "react/scenario.h"
#include "react/transform.h"

static react_scenario_t *scenario(const char *text)
{
	react_scenario_t *s = NULL;
	char err[1024];
	cr_assert_eq(react_scenario_parse(text, strlen(text), "test.yaml", &s, err, sizeof err),
	             REACT_OK, "%s", err);
	return s;
}

static react_config_t *config(react_scenario_t *s, size_t i)
{
	react_config_t *c = NULL;
	char err[1024];
	cr_assert_eq(react_scenario_config(s, i, &c, err, sizeof err), REACT_OK, "%s", err);
	return c;
}

/* 4-rank tree AllReduce on a star, ranks on hosts 0..3; the external flows
 * are redirected below so that they leave the host of rank `hot`. */
static const char *STAR4 =
    "topology: {type: star, hosts: 8, rate: 100Gbps, delay: 1us}\n"
    "jobs:\n"
    "  - {name: t, ranks: 4, placement: {hosts: [0, 1, 2, 3]}, algorithm: tree,\n"
    "     message: 4MB, epochs: 12, warmup: 2}\n"
    "congestion:\n"
    "  external: {congested_pairs: 1, p: 4}\n";

static void congest_rank(react_config_t *c, int32_t rank)
{
	cr_assert_eq(c->run.next, 1);
	c->run.ext[0].src_host = c->run.jobs[0].hosts[rank];
	c->run.ext[0].dst_host = 7;
}

/* Flows rank r sends in p. */
static int sends(const react_pattern_t *p, react_rank_t r)
{
	int n = 0;
	for (size_t f = 0; f < p->nflows; f++)
		n += p->flows[f].src == r;
	return n;
}

typedef struct evcount {
	long n, failed, full;
} evcount_t;

static void count_eval(void *ctx, int32_t job, const react_pattern_t *cand, int full)
{
	evcount_t *c = ctx;
	(void)job;
	c->n++;
	c->full += full;
	if (react_pattern_check(cand, NULL) != REACT_OK)
		c->failed++;
}

static react_oracle_result_t *search(const react_config_t *c, const react_oracle_opts_t *o)
{
	react_oracle_result_t *r = NULL;
	char err[1024];
	cr_assert_eq(react_oracle_search(&react_backend_flow, c, o, &r, err, sizeof err), REACT_OK,
	             "%s", err);
	return r;
}

/* Tree AllReduce, 4 ranks: ranks 0 and 3 send two flows, each alone in its
 * step; ranks 1 and 2 send four, two of them at once in the last step.  With
 * the uplink of rank 1's host shared by 4 long-lived flows, the best global
 * permutations give the congested host a light role (0 or 3); every one of
 * them is equally good, and every heavy placement is worse. */
Test(oracle, star_finds_the_known_best_permutation)
{
	react_scenario_t *s = scenario(STAR4);
	react_config_t *c = config(s, 0);
	congest_rank(c, 1);
	react_oracle_opts_t o;
	react_oracle_opts_default(&o);
	o.climb_evals = 0; /* the permutations alone */
	o.keep = 4;
	react_oracle_result_t *r = search(c, &o);
	const react_oracle_job_t *j = &r->jobs[0];
	react_pattern_t *gen = NULL;
	cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 4, 4000000, &gen),
	             REACT_OK);
	cr_assert_eq(sends(gen, 1), 4, "rank 1 plays a heavy role in the generated pattern");
	cr_assert_eq(sends(j->best, 1), 2, "the congested rank should play a light role");
	cr_assert_eq(j->origin, REACT_ORACLE_PERMUTATION);
	cr_assert_gt(j->oracle_gbps, j->baseline_gbps * 1.05, "oracle %g, baseline %g",
	             j->oracle_gbps, j->baseline_gbps);
	cr_assert_eq(r->stats.permutations, 24);

	/* brute force at full length: the light placements tie at the optimum */
	react_rank_t perm[4] = {0, 1, 2, 3};
	double best = -1, worst_light = INFINITY, best_heavy = -1;
	do {
		react_pattern_t *p = NULL;
		react_drive_result_t *res = NULL;
		char err[512];
		cr_assert_eq(react_pattern_clone(gen, &p), REACT_OK);
		cr_assert_eq(react_pattern_permute(p, perm), REACT_OK);
		const react_pattern_t *fx[1] = {p};
		react_drive_opts_t d;
		memset(&d, 0, sizeof d);
		d.fixed = fx;
		d.warmup = c->warmup;
		cr_assert_eq(react_drive(&react_backend_flow, &c->run, &d, &res, err, sizeof err),
		             REACT_OK, "%s", err);
		double g = res->jobs[0].mean_algbw_gbps;
		if (g > best)
			best = g;
		if (sends(p, 1) == 2 && g < worst_light)
			worst_light = g;
		if (sends(p, 1) == 4 && g > best_heavy)
			best_heavy = g;
		react_drive_result_destroy(res);
		react_pattern_destroy(p);
	} while (react_perm_next(perm, 4));
	cr_assert_eq(j->oracle_gbps, best, "oracle %.9g, brute force %.9g", j->oracle_gbps, best);
	cr_assert_eq(worst_light, best, "every light placement is optimal");
	cr_assert_lt(best_heavy, best, "every heavy placement is worse");
	react_pattern_destroy(gen);
	react_oracle_result_destroy(r);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

/* The generated pattern is a candidate: whatever the congestion, the oracle
 * is never below the baseline, and its pattern passes the check. */
Test(oracle, never_worse_than_baseline)
{
	react_scenario_t *s = scenario(
	    "seed: 1..3\n"
	    "topology: {type: fattree, k: 4}\n"
	    "jobs:\n"
	    "  - {name: t, ranks: [4, 5], algorithm: [tree, ring], message: 2MB, epochs: 10,\n"
	    "     warmup: 2}\n"
	    "congestion:\n"
	    "  external: {congested_pairs: 2, p: 2}\n");
	react_oracle_opts_t o;
	react_oracle_opts_default(&o);
	o.screen_epochs = 3;
	o.keep = 4;
	o.climb_evals = 30;
	for (size_t i = 0; i < react_scenario_nconfigs(s); i++) {
		react_config_t *c = config(s, i);
		react_oracle_result_t *r = search(c, &o);
		const react_oracle_job_t *j = &r->jobs[0];
		cr_assert_geq(j->oracle_gbps, j->baseline_gbps, "%s: oracle %.9g < baseline %.9g", c->key,
		              j->oracle_gbps, j->baseline_gbps);
		cr_assert_eq(react_pattern_check(j->best, NULL), REACT_OK);
		cr_assert_eq(j->baseline_gbps, r->baseline->jobs[0].mean_algbw_gbps);
		react_oracle_result_destroy(r);
		react_config_destroy(c);
	}
	react_scenario_destroy(s);
}

/* Every candidate handed to a backend passes the semantic check; on ring
 * AllGather some chunk-local swaps fail it and are skipped. */
Test(oracle, every_evaluated_candidate_passes_the_check)
{
	const char *cases[] = {
	    "topology: {type: star, hosts: 8}\n"
	    "jobs:\n"
	    "  - {name: g, ranks: 4, collective: allgather, algorithm: ring, message: 2MB,\n"
	    "     epochs: 8, warmup: 2}\n"
	    "congestion:\n"
	    "  external: {congested_pairs: 1, p: 2}\n",
	    STAR4,
	};
	long rejected = 0;
	for (int k = 0; k < 2; k++) {
		react_scenario_t *s = scenario(cases[k]);
		react_config_t *c = config(s, 0);
		evcount_t ec = {0};
		react_oracle_opts_t o;
		react_oracle_opts_default(&o);
		o.screen_epochs = 3;
		o.keep = 6;
		o.on_eval = count_eval;
		o.on_eval_ctx = &ec;
		react_oracle_result_t *r = search(c, &o);
		/* the runs the oracle made itself: the baseline (full length and
		 * screened) and the final run */
		cr_assert_eq(ec.n, (long)(r->stats.screen_evals + r->stats.full_evals) - 3,
		             "hook saw %ld candidates, %llu screening + %llu full runs", ec.n,
		             (unsigned long long)r->stats.screen_evals,
		             (unsigned long long)r->stats.full_evals);
		cr_assert_gt(ec.full, 6, "the climb evaluated candidates at full length");
		cr_assert_eq(ec.failed, 0, "%ld evaluated candidates failed the check", ec.failed);
		rejected += (long)r->stats.rejected;
		react_oracle_result_destroy(r);
		react_config_destroy(c);
		react_scenario_destroy(s);
	}
	cr_assert_gt(rejected, 0, "ring AllGather has chunk-local swaps that fail the check");
}

static void assert_same_result(const react_oracle_result_t *a, const react_oracle_result_t *b)
{
	cr_assert_eq(a->njobs, b->njobs);
	cr_assert_eq(a->fingerprint, b->fingerprint);
	for (int32_t j = 0; j < a->njobs; j++) {
		cr_assert(react_pattern_equal(a->jobs[j].best, b->jobs[j].best));
		cr_assert_eq(memcmp(&a->jobs[j].oracle_gbps, &b->jobs[j].oracle_gbps, sizeof(double)), 0);
		cr_assert_eq(a->jobs[j].origin, b->jobs[j].origin);
		cr_assert_eq(a->jobs[j].climb_moves, b->jobs[j].climb_moves);
	}
	cr_assert_eq(a->stats.candidates, b->stats.candidates);
	cr_assert_eq(a->stats.full_evals, b->stats.full_evals);
	cr_assert_eq(a->stats.screen_evals, b->stats.screen_evals);
	cr_assert_eq(a->stats.duplicates, b->stats.duplicates);
}

Test(oracle, deterministic)
{
	react_scenario_t *s = scenario(
	    "seed: 4\n"
	    "topology: {type: fattree, k: 4}\n"
	    "jobs:\n"
	    "  - {name: t, ranks: 5, algorithm: tree, message: 2MB, epochs: 10, warmup: 2}\n"
	    "congestion:\n"
	    "  external: {congested_pairs: 2, p: 2}\n");
	react_config_t *c = config(s, 0);
	react_oracle_opts_t o;
	react_oracle_opts_default(&o);
	o.screen_epochs = 3;
	o.keep = 8;
	o.climb_evals = 100;
	react_oracle_result_t *a = search(c, &o), *b = search(c, &o);
	assert_same_result(a, b);
	react_oracle_result_destroy(a);
	react_oracle_result_destroy(b);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

/* Above exhaustive_max_ranks: the sampled multi-start local search, within
 * its budget, deterministic, never below the baseline. */
Test(oracle, local_search_above_the_exhaustive_limit)
{
	react_scenario_t *s = scenario(
	    "seed: 2\n"
	    "topology: {type: fattree, k: 4}\n"
	    "jobs:\n"
	    "  - {name: r, ranks: 12, algorithm: tree, message: 2MB, epochs: 6, warmup: 1}\n"
	    "congestion:\n"
	    "  external: {congested_pairs: 3, p: 2}\n");
	react_config_t *c = config(s, 0);
	react_oracle_opts_t o;
	react_oracle_opts_default(&o);
	o.local_evals = 40;
	o.local_starts = 2;
	o.local_patience = 15;
	react_oracle_result_t *a = search(c, &o), *b = search(c, &o);
	assert_same_result(a, b);
	cr_assert_geq(a->jobs[0].oracle_gbps, a->jobs[0].baseline_gbps);
	cr_assert_eq(a->stats.screen_evals, 0);
	/* the budget: 40 candidates at full length, plus the baseline and final run */
	cr_assert_leq(a->stats.full_evals, 40 + 2);
	cr_assert_eq(react_pattern_check(a->jobs[0].best, NULL), REACT_OK);
	react_oracle_result_destroy(a);
	react_oracle_result_destroy(b);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

static void count_job(void *ctx, int32_t job, const react_pattern_t *cand, int full)
{
	(void)cand;
	(void)full;
	((long *)ctx)[job]++;
}

/* Two REACT jobs: coordinate search; the mean normalised bandwidth of the
 * final run is at least the baseline's. */
Test(oracle, two_jobs_coordinate_search)
{
	react_scenario_t *s = scenario(
	    "topology: {type: star, hosts: 10}\n"
	    "jobs:\n"
	    "  - {name: a, ranks: 4, placement: {hosts: [0, 1, 2, 3]}, message: 2MB, epochs: 8,\n"
	    "     warmup: 2}\n"
	    "  - {name: b, ranks: 4, placement: {overlap: a, shared: 2}, message: 2MB, epochs: 8,\n"
	    "     warmup: 2}\n"
	    "congestion:\n"
	    "  external: {job: a, congested_pairs: 1, p: 2}\n");
	react_config_t *c = config(s, 0);
	react_oracle_opts_t o;
	react_oracle_opts_default(&o);
	o.screen_epochs = 3;
	o.keep = 4;
	o.climb_evals = 20;
	o.rounds = 2;
	long per_job[2] = {0, 0};
	o.on_eval = count_job;
	o.on_eval_ctx = per_job;
	react_oracle_result_t *r = search(c, &o);
	cr_assert(per_job[0] > 0 && per_job[1] > 0, "both jobs searched: %ld, %ld candidates",
	          per_job[0], per_job[1]);
	double sb = 0, sf = 0;
	for (int32_t j = 0; j < 2; j++) {
		cr_assert(r->jobs[j].searched);
		sf += r->jobs[j].oracle_gbps / r->jobs[j].baseline_gbps;
		sb += 1;
		cr_assert_eq(react_pattern_check(r->jobs[j].best, NULL), REACT_OK);
		cr_assert_eq(r->jobs[j].oracle_gbps, r->final->jobs[j].mean_algbw_gbps);
	}
	cr_assert_geq(sf, sb);
	react_oracle_result_destroy(r);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

/* A proxy search: found on the flow backend, chosen on dctcp among the
 * proxy's finalists (the generated pattern one of them). */
Test(oracle, proxy_search)
{
	react_scenario_t *s = scenario(STAR4);
	react_config_t *c = config(s, 0);
	congest_rank(c, 1);
	react_oracle_opts_t o;
	react_oracle_opts_default(&o);
	o.proxy = REACT_ORACLE_PROXY_FLOW;
	o.proxy_keep = 5;
	react_oracle_result_t *r = NULL;
	char err[1024];
	cr_assert_eq(react_oracle_search(&react_backend_dctcp, c, &o, &r, err, sizeof err), REACT_OK,
	             "%s", err);
	const react_oracle_job_t *j = &r->jobs[0];
	cr_assert_gt(r->stats.proxy_full_evals, 5);
	/* on dctcp: the baseline, at most 5 finalists, the final run */
	cr_assert_leq(r->stats.full_evals, 5 + 2);
	cr_assert_eq(r->stats.screen_evals, 0);
	cr_assert_geq(j->oracle_gbps, j->baseline_gbps);
	cr_assert_gt(j->oracle_gbps, j->baseline_gbps * 1.02, "oracle %g, baseline %g",
	             j->oracle_gbps, j->baseline_gbps);
	cr_assert_eq(j->origin, REACT_ORACLE_PROXY);
	cr_assert_eq(react_pattern_check(j->best, NULL), REACT_OK);
	cr_assert_eq(r->final->jobs[0].mean_algbw_gbps, j->oracle_gbps);
	/* the proxy is part of the fingerprint */
	react_oracle_opts_t d;
	react_oracle_opts_default(&d);
	cr_assert_neq(react_oracle_fingerprint(c, &o), react_oracle_fingerprint(c, &d));
	react_oracle_result_destroy(r);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

/* The oracle's best pattern written as a pattern file and run through a
 * job's `pattern:` field on the same configuration (seed, placement,
 * degraded links, ECMP draws) gives the oracle's mean algbw bit for bit as
 * the baseline, on the flow backend and on the DCTCP window model (searched
 * through the flow proxy, its final run on the window model). */
Test(oracle, pattern_file_of_the_best_gives_the_oracle_algbw)
{
	static const char *const text =
	    "seed: 4\n"
	    "topology: {type: fattree, k: 4}\n"
	    "jobs:\n"
	    "  - {name: t, ranks: 5, algorithm: tree, message: 4MB, epochs: 30, warmup: 6}\n"
	    "congestion:\n"
	    "  degraded_links: {count: 8, rate: 30Gbps}\n";
	const react_backend_ops_t *bes[2] = {&react_backend_flow, &react_backend_dctcp};
	char dir[] = "/tmp/react-oracle-pattern-XXXXXX", path[64], err[1024];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/best.json", dir);
	for (int k = 0; k < 2; k++) {
		react_scenario_t *s = scenario(text);
		react_config_t *c = config(s, 0);
		react_oracle_opts_t o;
		react_oracle_opts_default(&o);
		if (bes[k] == &react_backend_dctcp)
			o.proxy = REACT_ORACLE_PROXY_FLOW;
		react_oracle_result_t *r = NULL;
		cr_assert_eq(react_oracle_search(bes[k], c, &o, &r, err, sizeof err), REACT_OK, "%s",
		             err);
		const react_oracle_job_t *j = &r->jobs[0];
		cr_assert_gt(j->oracle_gbps, j->baseline_gbps, "%s: nothing to gain here", bes[k]->name);
		cr_assert_eq(react_pattern_write_json_path(j->best, path, err, sizeof err), REACT_OK);
		cr_assert_eq(react_scenario_set(s, "jobs.t.pattern", path, err, sizeof err), REACT_OK,
		             "%s", err);
		cr_assert_eq(react_scenario_set(s, "jobs.t.react", "false", err, sizeof err), REACT_OK);
		react_config_t *cp = config(s, 0);
		react_pair_result_t pr = {0};
		cr_assert_eq(react_run_pair(bes[k], cp, NULL, &pr, err, sizeof err), REACT_OK, "%s",
		             err);
		double got = pr.baseline->jobs[0].mean_algbw_gbps;
		cr_assert(memcmp(&got, &j->oracle_gbps, sizeof got) == 0,
		          "%s: the oracle's pattern from its file: %.17g GB/s, the oracle: %.17g GB/s",
		          bes[k]->name, got, j->oracle_gbps);
		react_pair_result_clear(&pr);
		react_config_destroy(cp);
		react_oracle_result_destroy(r);
		react_config_destroy(c);
		react_scenario_destroy(s);
	}
	unlink(path);
	rmdir(dir);
}

/* The oracle fingerprint leaves out REACT's parameters, not the rest. */
Test(oracle, fingerprint_ignores_controller_parameters)
{
	react_scenario_t *s = scenario(STAR4);
	react_config_t *a = config(s, 0);
	char err[512];
	cr_assert_eq(react_scenario_set(s, "params.B", "4", err, sizeof err), REACT_OK, "%s", err);
	react_config_t *b = config(s, 0);
	cr_assert_eq(react_scenario_set(s, "jobs.t.epochs", "13", err, sizeof err), REACT_OK, "%s",
	             err);
	react_config_t *c = config(s, 0);
	react_oracle_opts_t o;
	react_oracle_opts_default(&o);
	cr_assert_eq(react_oracle_fingerprint(a, &o), react_oracle_fingerprint(b, &o));
	cr_assert_neq(react_oracle_fingerprint(a, &o), react_oracle_fingerprint(c, &o));
	o.keep = 7;
	cr_assert_neq(react_oracle_fingerprint(a, NULL), react_oracle_fingerprint(a, &o));
	react_config_destroy(a);
	react_config_destroy(b);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(oracle, options_by_name)
{
	react_oracle_opts_t o;
	char why[512];
	react_oracle_opts_default(&o);
	cr_assert_eq(react_oracle_opts_set(&o, "keep", "12", why, sizeof why), REACT_OK);
	cr_assert_eq(o.keep, 12);
	cr_assert_eq(react_oracle_opts_set(&o, "screen_epochs", "0", why, sizeof why), REACT_EINVAL);
	cr_assert(strstr(why, "screen_epochs"), "%s", why);
	cr_assert_eq(react_oracle_opts_set(&o, "proxy", "flow", why, sizeof why), REACT_OK);
	cr_assert_eq(o.proxy, REACT_ORACLE_PROXY_FLOW);
	cr_assert_eq(react_oracle_opts_set(&o, "proxy", "ns3", why, sizeof why), REACT_EINVAL);
	cr_assert(strstr(why, "expected none, flow or dctcp"), "%s", why);
	cr_assert_eq(react_oracle_opts_set(&o, "budget", "1", why, sizeof why), REACT_EINVAL);
	cr_assert(strstr(why, "unknown oracle option 'budget'"), "%s", why);
}

/* react_drive's fixed patterns: validated, and a prepared backend state
 * gives the same runs as a plain one. */
Test(oracle, driver_fixed_patterns_and_prepared_state)
{
	react_scenario_t *s = scenario(STAR4);
	react_config_t *c = config(s, 0);
	react_pattern_t *p = NULL, *bad = NULL;
	char err[1024];
	react_drive_result_t *r1 = NULL, *r2 = NULL;
	cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 5, 4000000, &bad),
	             REACT_OK);
	const react_pattern_t *fx[1] = {bad};
	react_drive_opts_t d;
	memset(&d, 0, sizeof d);
	d.fixed = fx;
	cr_assert_eq(react_drive(&react_backend_flow, &c->run, &d, &r1, err, sizeof err),
	             REACT_EINVAL);
	cr_assert(strstr(err, "job 't'") && strstr(err, "5 ranks"), "%s", err);
	react_pattern_destroy(bad);
	/* a pattern whose first flow stores instead of reducing (or back) */
	cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 4, 4000000, &p),
	             REACT_OK);
	cr_assert_eq(react_pattern_clone(p, &bad), REACT_OK);
	bad->flows[0].op = bad->flows[0].op == REACT_RECV_STORE ? REACT_RECV_REDUCE : REACT_RECV_STORE;
	fx[0] = bad;
	cr_assert_eq(react_drive(&react_backend_flow, &c->run, &d, &r1, err, sizeof err),
	             REACT_ESEMANTIC);
	cr_assert(strstr(err, "semantic check"), "%s", err);
	react_pattern_destroy(bad);

	react_rank_t perm[4] = {2, 0, 3, 1};
	cr_assert_eq(react_pattern_permute(p, perm), REACT_OK);
	fx[0] = p;
	d.warmup = c->warmup;
	const react_backend_ops_t *bes[2] = {&react_backend_flow, &react_backend_dctcp};
	for (int k = 0; k < 2; k++) {
		const react_backend_ops_t *be = bes[k];
		d.backend_state = NULL;
		cr_assert_eq(react_drive(be, &c->run, &d, &r1, err, sizeof err), REACT_OK, "%s", err);
		void *state = NULL;
		cr_assert_eq(be->prepare(c->run.topo, &state, err, sizeof err), REACT_OK);
		d.backend_state = state;
		cr_assert_eq(react_drive(be, &c->run, &d, &r2, err, sizeof err), REACT_OK, "%s", err);
		cr_assert_eq(r1->nrecs, r2->nrecs);
		for (size_t i = 0; i < r1->nrecs; i++) {
			const react_epoch_rec_t *a = &r1->recs[i], *b = &r2->recs[i];
			cr_assert(a->epoch == b->epoch && a->start_s == b->start_s &&
			          a->time_s == b->time_s && a->pattern_hash == b->pattern_hash,
			          "%s: epoch %zu differs", be->name, i);
		}
		be->release(state);
		react_drive_result_destroy(r1);
		react_drive_result_destroy(r2);
	}
	react_pattern_destroy(p);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(oracle, permute_is_a_sequence_of_global_swaps)
{
	react_pattern_t *p = NULL, *q = NULL;
	cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 5, 1000000, &p),
	             REACT_OK);
	cr_assert_eq(react_pattern_clone(p, &q), REACT_OK);
	/* perm = (0 1)(2 4): the two global swaps */
	react_rank_t perm[5] = {1, 0, 4, 3, 2};
	cr_assert_eq(react_pattern_permute(p, perm), REACT_OK);
	react_xform_t x1 = {REACT_XF_GLOBAL, 0, 0, 1, 0}, x2 = {REACT_XF_GLOBAL, 0, 2, 4, 0};
	cr_assert_eq(react_xform_apply(q, &x1), REACT_OK);
	cr_assert_eq(react_xform_apply(q, &x2), REACT_OK);
	cr_assert(react_pattern_equal(p, q));
	react_rank_t notperm[5] = {1, 1, 4, 3, 2};
	cr_assert_eq(react_pattern_permute(p, notperm), REACT_EINVAL);
	cr_assert(react_pattern_equal(p, q), "a refused permutation leaves the pattern as it was");
	react_pattern_destroy(p);
	react_pattern_destroy(q);
}

/* 6-rank ring AllReduce on a star: 6 chunk graphs, more than step 3
 * permutes (graph_max 4), so climb_many sets its climb's budget. */
static const char *RING6 =
    "topology: {type: star, hosts: 8, rate: 100Gbps, delay: 1us}\n"
    "jobs:\n"
    "  - {name: r, ranks: 6, placement: {hosts: [0, 1, 2, 3, 4, 5]}, collective: allreduce,\n"
    "     algorithm: ring, message: 6MB, epochs: 12, warmup: 2}\n"
    "congestion:\n"
    "  external: {congested_pairs: 1, p: 4}\n";

static long full_runs(const react_config_t *c, react_oracle_opts_t *o)
{
	evcount_t n = {0};
	o->on_eval = count_eval;
	o->on_eval_ctx = &n;
	react_oracle_result_t *r = search(c, o);
	cr_assert_eq(n.failed, 0);
	react_oracle_result_destroy(r);
	o->on_eval = NULL;
	o->on_eval_ctx = NULL;
	return n.full;
}

/* climb_many multiplies the climb's budget of a pattern of many chunk
 * graphs (a ring), and leaves a tree's budget and fingerprint alone. */
Test(oracle, climb_many_sets_the_budget_of_many_graph_patterns_alone)
{
	react_scenario_t *rs = scenario(RING6), *ts = scenario(STAR4);
	react_config_t *ring = config(rs, 0), *tree = config(ts, 0);
	congest_rank(ring, 2);
	congest_rank(tree, 1);
	react_oracle_opts_t o, one;
	react_oracle_opts_default(&o);
	o.keep = 4;
	o.climb_evals = 10;
	one = o;
	one.climb_many = 1;
	o.climb_many = 3;
	cr_assert_eq(react_oracle_fingerprint(tree, &o), react_oracle_fingerprint(tree, &one));
	cr_assert_neq(react_oracle_fingerprint(ring, &o), react_oracle_fingerprint(ring, &one));
	{
		/* two REACT jobs: the coordinate search keeps climb_evals */
		react_scenario_t *ws = scenario(
		    "topology: {type: star, hosts: 8, rate: 100Gbps, delay: 1us}\n"
		    "jobs:\n"
		    "  - {name: r, ranks: 6, placement: {hosts: [0, 1, 2, 3, 4, 5]},\n"
		    "     collective: allreduce, algorithm: ring, message: 6MB, epochs: 12, warmup: 2}\n"
		    "  - {name: t, ranks: 2, placement: {hosts: [6, 7]}, algorithm: tree,\n"
		    "     message: 4MB, epochs: 12, warmup: 2}\n");
		react_config_t *w = config(ws, 0);
		cr_assert(w->react_on[0] && w->react_on[1]);
		cr_assert_eq(react_oracle_fingerprint(w, &o), react_oracle_fingerprint(w, &one));
		react_config_destroy(w);
		react_scenario_destroy(ws);
	}
	/* the keep (4) best permutations at full length, then steps 3-5 within
	 * the budget */
	long n1 = full_runs(ring, &one), n3 = full_runs(ring, &o);
	cr_assert_leq(n1, 4 + 10, "%ld full-length candidates with a budget of 10", n1);
	cr_assert_gt(n3, 4 + 10, "climb_many 3 ran %ld full-length candidates, as with 1", n3);
	cr_assert_leq(n3, 4 + 30, "%ld full-length candidates with a budget of 30", n3);
	/* the tree's search is the same either way */
	long t1 = full_runs(tree, &one), t3 = full_runs(tree, &o);
	cr_assert_eq(t1, t3);
	react_config_destroy(ring);
	react_config_destroy(tree);
	react_scenario_destroy(rs);
	react_scenario_destroy(ts);
}

/* A result stored before climb_many is reused for the larger budget only
 * when its search ended inside the old one, re-stamped with the current
 * fingerprint. */
Test(oracle, a_search_that_ended_inside_the_old_budget_is_reused)
{
	react_scenario_t *rs = scenario(RING6);
	react_config_t *ring = config(rs, 0);
	congest_rank(ring, 2);
	char dir[] = "/tmp/react-oracle-within-XXXXXX", err[512];
	cr_assert_not_null(mkdtemp(dir));
	for (int spent = 0; spent < 2; spent++) {
		react_oracle_opts_t one, o;
		react_oracle_files_t *f = NULL, *g = NULL;
		react_oracle_opts_default(&one);
		one.keep = 4;
		one.climb_evals = spent ? 5 : 1000000;
		one.climb_many = 1;
		o = one;
		o.climb_many = 4;
		react_oracle_result_t *r = search(ring, &one);
		cr_assert_eq(r->stats.full_evals >= (uint64_t)one.climb_evals, spent,
		             "full_evals %llu, budget %lld", (unsigned long long)r->stats.full_evals,
		             (long long)one.climb_evals);
		cr_assert_eq(react_oracle_files_make(r, &f), REACT_OK);
		cr_assert_eq(react_oracle_files_write(dir, ring, f, err, sizeof err), REACT_OK, "%s",
		             err);
		cr_assert_eq(react_oracle_files_load_within(dir, ring, &o, &g), REACT_OK);
		if (spent) {
			cr_assert_null(g, "a search cut by its budget was reused for a larger one");
		} else {
			char want[17];
			uint64_t fp = react_oracle_fingerprint(ring, &o);
			cr_assert_not_null(g, "a search that ended on its own was not reused");
			cr_assert_eq(g->fingerprint, fp);
			snprintf(want, sizeof want, "%016llx", (unsigned long long)fp);
			cr_assert(!strncmp(strchr(g->csv, '\n') + 1, want, 16), "%s", g->csv);
			cr_assert_float_eq(g->oracle_gbps[0], f->oracle_gbps[0], 1e-12);
			cr_assert_str_eq(g->json[0], f->json[0]);
		}
		react_oracle_files_destroy(f);
		react_oracle_files_destroy(g);
		react_oracle_result_destroy(r);
	}
	{
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		cr_assert_eq(system(cmd), 0);
	}
	react_config_destroy(ring);
	react_scenario_destroy(rs);
}
