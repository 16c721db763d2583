/* The feedback loop: keep, revert, no change without congestion, Table 1
 * cases for ring and tree, determinism, and the semantic property. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/check.h"
#include "react/controller.h"
#include "react/costmodel.h"
#include "react/critpath.h"
#include "react/generators.h"
#include "test_env.h"

#define ALPHA 4e-6
#define BETA (8.0 / 100e9)

/* A synthetic network: fct = alpha + bytes x beta x degree x slow(src, dst),
 * epoch time = the critical path of those FCTs. */
typedef struct net {
	int32_t N;
	double *slow;        /* N x N multipliers, 1 = fast */
	int erratic;         /* multipliers apply only on every third epoch */
	double time_scale_changed; /* !=0: epoch time x this for patterns != initial */
	double wobble_changed; /* != 0: their epoch time is the initial pattern's x
	                        * time_scale_changed x (1 + this) on odd epochs,
	                        * (1 - this) on even ones */
	double noise;        /* each FCT x (1 + noise x u), u uniform in [-1, 1] per (epoch, flow) */
	double by_pattern;   /* != 0: epoch times of patterns != initial x (1 + this x u),
	                      * u uniform in [-1, 1] drawn from the pattern's hash and salt */
	uint64_t salt;
	double every_third;  /* != 0: every FCT x this on epochs e % 3 == 0 (the job's own
	                      * collisions on some ECMP draws), but in [lucky_from, lucky_to) */
	int64_t lucky_from, lucky_to;
	const react_pattern_t *initial;
} net_t;

/* u uniform in [-1, 1] drawn from the 64-bit key x (splitmix64's finaliser) */
static double uniform_pm1(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x94D049BB133111EBULL;
	x ^= x >> 29;
	return (double)(x >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void net_run(const net_t *n, const react_pattern_t *p, int64_t e, double *fct, double *T)
{
	size_t path[4096], len;
	for (size_t f = 0; f < p->nflows; f++) {
		const react_flow_t *fl = &p->flows[f];
		double m = n->slow ? n->slow[fl->src * n->N + fl->dst] : 1.0;
		if (n->erratic && e % 3 != 0)
			m = 1.0;
		if (n->noise > 0)
			m *= 1.0 + n->noise * uniform_pm1(((uint64_t)e * 0x9E3779B97F4A7C15ULL) ^
			                                  ((uint64_t)f * 0xBF58476D1CE4E5B9ULL));
		if (n->every_third != 0 && e % 3 == 0 && !(e >= n->lucky_from && e < n->lucky_to))
			m *= n->every_third;
		fct[f] = ALPHA + (double)fl->bytes * BETA * react_pattern_flow_degree(p, f) * m;
	}
	cr_assert_eq(react_critpath(p, fct, path, &len, T), REACT_OK);
	if (n->time_scale_changed != 0 && !react_pattern_equal(p, n->initial)) {
		if (n->wobble_changed != 0) {
			/* the initial pattern's time, scaled and swung */
			net_t n0 = *n;
			double *f0 = malloc(n->initial->nflows * sizeof *f0);
			n0.time_scale_changed = 0;
			net_run(&n0, n->initial, e, f0, T);
			free(f0);
			*T *= 1.0 + (e % 2 ? 1 : -1) * n->wobble_changed;
		}
		*T *= n->time_scale_changed;
	}
	if (n->by_pattern != 0 && !react_pattern_equal(p, n->initial))
		*T *= 1.0 + n->by_pattern * uniform_pm1((react_pattern_hash(p) ^ n->salt) *
		                                        0x9E3779B97F4A7C15ULL);
}

/* The parameters of these tests: the defaults, but the "pattern" estimator.
 * The synthetic network above times every flow by its step degree (a flow
 * with two flows at an endpoint in its step takes twice as long, however
 * the two overlap in time), the world that estimator assumes; the default
 * "overlap" estimator counts flows as they run together, as the flow
 * simulator, ns-3 and the alpha-beta star (test worked::) share links, and
 * is judged end to end there (cli-e2e, controller-keep-backoff, react
 * regress, bench/decisions).  The loop's rules, tested here, do not depend
 * on the estimator. */
static void loop_params(react_params_t *prm)
{
	react_params_default(prm);
	prm->estimator = REACT_EST_PATTERN;
}

/* Runs E epochs of g on n0 before epoch `release` and on n1 from it on;
 * every pattern handed out passes the check and applies D epochs after its
 * decision.  *nrev, *nchg: reverts and changes; *tail (NULL: not wanted)
 * the mean epoch time of the last 60 epochs (E >= 60).  Returns the
 * controller (caller destroys). */
static react_ctl_t *drive_nets(const react_pattern_t *g, const react_params_t *prm, const net_t *n0,
                               const net_t *n1, int release, int E, FILE *log, int *nrev, int *nchg,
                               double *tail)
{
	react_ctl_t *c;
	double *fct = malloc(g->nflows * sizeof *fct), T;
	cr_assert_eq(react_ctl_create(g, prm, &c), REACT_OK);
	react_ctl_set_log(c, log);
	*nrev = *nchg = 0;
	if (tail)
		*tail = 0;
	for (int64_t e = 0; e < E; e++) {
		const react_pattern_t *p = react_ctl_pattern_for(c, e);
		react_decision_t d;
		net_run(e < release ? n0 : n1, p, e, fct, &T);
		cr_assert_eq(react_ctl_observe(c, e, fct, p->nflows, T, &d), REACT_OK);
		if (d.changed) {
			react_check_result_t res;
			cr_assert_eq(react_pattern_check(d.pattern, &res), REACT_OK, "epoch %lld: %s",
			             (long long)e, res.message);
			cr_assert_eq(d.apply_epoch, e + 1 + prm->apply_delay);
			*nchg += 1;
			*nrev += d.reverted;
		}
		if (tail && e >= E - 60)
			*tail += T / 60;
	}
	free(fct);
	return c;
}

/* runs E epochs on one network; returns the controller (caller destroys) */
static react_ctl_t *drive(const react_pattern_t *g, const react_params_t *prm, net_t *n, int E, FILE *log,
                          int *nrev, int *nchg)
{
	return drive_nets(g, prm, n, n, E, E, log, nrev, nchg, NULL);
}

Test(loop, no_congestion_no_change)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg;
	react_ctl_t *c;
	loop_params(&prm);
	cr_assert_eq(react_gen_tree_allreduce(16, 1 << 20, &g), REACT_OK);
	n.N = 16;
	c = drive(g, &prm, &n, 300, NULL, &nrev, &nchg);
	cr_assert_eq(nchg, 0, "changed %d times without congestion", nchg);
	cr_assert(react_pattern_equal(react_ctl_pattern_for(c, 300), g));
	react_ctl_destroy(c);
	react_pattern_destroy(g);
}

/* The start of the line of log (a decision log, one JSON line per batch)
 * that p points into. */
static const char *line_start(const char *log, const char *p)
{
	while (p > log && p[-1] != '\n')
		p--;
	return p;
}

static double *slow_into(int32_t N, int32_t r, double m)
{
	double *s = malloc((size_t)N * N * sizeof *s);
	for (int i = 0; i < N * N; i++)
		s[i] = 1.0;
	for (int i = 0; i < N; i++)
		s[i * N + r] = m;
	return s;
}

Test(loop, tree_congested_receiver_change_is_kept)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg;
	react_ctl_t *c;
	const react_pattern_t *fin;
	double *fct, T0, T1;
	char *buf = NULL;
	size_t len = 0;
	FILE *log = open_memstream(&buf, &len);
	loop_params(&prm);
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n.N = 16;
	n.slow = slow_into(16, 3, 2.0); /* rank 3's downlink at half rate: steady */
	c = drive(g, &prm, &n, 150, log, &nrev, &nchg);
	fclose(log);
	fin = react_ctl_pattern_for(c, 150);
	cr_assert_gt(nchg, 0);
	cr_assert_not_null(strstr(buf, "\"type\":\"steady\""));
	{
		/* the batch that kept a change: its observed mean beats the original */
		const char *k = strstr(buf, "\"kept\":true"), *line;
		cr_assert_not_null(k, "no change was kept");
		line = line_start(buf, k);
		fct = malloc(g->nflows * sizeof *fct);
		net_run(&n, g, 0, fct, &T0);
		cr_assert_eq(sscanf(strstr(line, "\"mean_epoch_time\":"), "\"mean_epoch_time\":%lf", &T1), 1);
		cr_assert_lt(T1 * 1.05, T0, "kept pattern %.9g s vs original %.9g s", T1, T0);
	}
	/* the pattern the controller ends on: correct, not the original, and
	 * faster than the original on the same network */
	cr_assert_eq(react_pattern_check(fin, NULL), REACT_OK);
	cr_assert(!react_pattern_equal(fin, g), "the run ends on the original pattern");
	net_run(&n, fin, 150, fct, &T1);
	cr_assert_lt(T1 * 1.05, T0, "final pattern %.9g s vs original %.9g s", T1, T0);
	free(fct);
	free(buf);
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
}

Test(loop, worse_epoch_times_revert)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg;
	react_ctl_t *c;
	react_ctl_stats_t st;
	loop_params(&prm);
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n.N = 16;
	n.slow = slow_into(16, 3, 2.0);
	n.time_scale_changed = 3.0; /* every changed pattern is observed slower */
	n.initial = g;
	c = drive(g, &prm, &n, 300, NULL, &nrev, &nchg);
	react_ctl_stats(c, &st);
	cr_assert_gt(nrev, 0);
	cr_assert_eq(st.reverts, nrev);
	/* every change is a failed test: a revert replaces it, either by the
	 * original or at once by the next candidate */
	cr_assert(nchg >= nrev && nchg <= 2 * nrev + 1, "%d changes, %d reverts", nchg, nrev);
	cr_assert(react_pattern_equal(react_ctl_pattern_for(c, 300), g),
	          "must end on the original pattern (the best observed)");
	/* E_max: exploration stops after 5 failed rounds; forced rounds then wait
	 * 5, 10, 20, ... quiet batches of 6 epochs */
	cr_assert_leq(nrev, 5 + 4, "%d reverts", nrev);
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
}

/* Every changed pattern runs 3x slower than the job's own: the epochs each
 * one ran before it was reverted (a new pattern hash starts a new stretch;
 * D = 0).  *ntests: the stretches; returns the longest, *shortest the
 * shortest; *early: decision lines that say early_revert. */
static int slower_stretches(int keep_rule, int early_revert, int *ntests, int *shortest, int *early)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	react_ctl_t *c;
	double *fct, T;
	char *buf = NULL;
	size_t len = 0;
	FILE *log = open_memstream(&buf, &len);
	uint64_t cur = 0;
	int run = 0, longest = 0;
	loop_params(&prm);
	prm.keep_rule = keep_rule;
	prm.early_revert = early_revert;
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n.N = 16;
	n.slow = slow_into(16, 3, 2.0);
	n.time_scale_changed = 3.0;
	n.initial = g;
	fct = malloc(g->nflows * sizeof *fct);
	cr_assert_eq(react_ctl_create(g, &prm, &c), REACT_OK);
	react_ctl_set_log(c, log);
	*ntests = 0;
	*shortest = 1 << 30;
	for (int64_t e = 0; e <= 300; e++) {
		const react_pattern_t *p = react_ctl_pattern_for(c, e);
		uint64_t h = react_pattern_equal(p, g) ? 0 : react_pattern_hash(p);
		react_decision_t d;
		if (h != cur && run > 0) {
			*ntests += 1;
			longest = run > longest ? run : longest;
			*shortest = run < *shortest ? run : *shortest;
			run = 0;
		}
		cur = h;
		run += h != 0;
		if (e == 300)
			break;
		net_run(&n, p, e, fct, &T);
		cr_assert_eq(react_ctl_observe(c, e, fct, p->nflows, T, &d), REACT_OK);
		if (d.changed)
			cr_assert_eq(react_pattern_check(d.pattern, NULL), REACT_OK);
	}
	fclose(log);
	*early = 0;
	for (char *q = buf; (q = strstr(q, "(early_revert)")) != NULL; q++)
		*early += 1;
	free(buf);
	free(fct);
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
	return longest;
}

Test(loop, a_change_clearly_slower_is_reverted_after_early_revert_epochs)
{
	int ntests, shortest, early, longest;
	/* off: every test runs its whole batch of 6 epochs */
	longest = slower_stretches(REACT_KEEP_WELCH, 0, &ntests, &shortest, &early);
	cr_assert_geq(ntests, 2, "%d tests", ntests);
	cr_assert(longest == 6 && shortest == 6, "tests ran %d to %d epochs", shortest, longest);
	cr_assert_eq(early, 0);
	/* 3: each is reverted after 3 epochs, and the log says why */
	longest = slower_stretches(REACT_KEEP_WELCH, 3, &ntests, &shortest, &early);
	cr_assert_geq(ntests, 2, "%d tests", ntests);
	cr_assert(longest == 3 && shortest == 3, "tests ran %d to %d epochs", shortest, longest);
	cr_assert_eq(early, ntests, "%d early reverts in %d tests", early, ntests);
	/* the paper's rule judges whole batches only */
	longest = slower_stretches(REACT_KEEP_PAPER, 3, &ntests, &shortest, &early);
	cr_assert_geq(ntests, 2, "%d tests", ntests);
	cr_assert(longest == 6 && shortest == 6, "tests ran %d to %d epochs", shortest, longest);
	cr_assert_eq(early, 0);
}

/* A change 5 % faster on average whose epochs swing by +-40 %: after its
 * two extensions the Welch bound still includes no gain.  undecided =
 * mean keeps it on its mean gain; undecided = revert reverts it. */
static int undecided_run(int undecided, char **buf)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg, changed_at_end;
	size_t len = 0;
	FILE *log = open_memstream(buf, &len);
	react_ctl_t *c;
	loop_params(&prm);
	prm.undecided = undecided;
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n.N = 16;
	n.slow = slow_into(16, 3, 2.0);
	n.time_scale_changed = 0.95;
	n.wobble_changed = 0.4;
	n.initial = g;
	c = drive(g, &prm, &n, 60, log, &nrev, &nchg);
	fclose(log);
	cr_assert_gt(nchg, 0);
	changed_at_end = !react_pattern_equal(react_ctl_pattern_for(c, 60), g);
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
	return changed_at_end;
}

Test(loop, a_change_undecided_after_its_extensions)
{
	char *mean = NULL, *rev = NULL;
	react_params_t prm;
	react_params_default(&prm);
	cr_assert_eq(prm.undecided, REACT_UNDECIDED_MEAN);
	cr_assert(undecided_run(REACT_UNDECIDED_MEAN, &mean), "undecided = mean ends on the job's pattern");
	cr_assert_not_null(strstr(mean, "kept on its mean after 2 extensions"));
	cr_assert_null(strstr(mean, "undecided after extensions"));
	undecided_run(REACT_UNDECIDED_REVERT, &rev);
	cr_assert_not_null(strstr(rev, "undecided after extensions"), "%.2000s", rev);
	cr_assert_null(strstr(rev, "kept on its mean"));
	free(mean);
	free(rev);
}

Test(loop, ring_global_swap_fixes_erratic_pair)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg;
	react_ctl_t *c;
	const react_pattern_t *fin;
	int pair_left = 0;
	loop_params(&prm);
	cr_assert_eq(react_gen_ring_allreduce(8, 8 << 20, &g), REACT_OK);
	n.N = 8;
	n.slow = malloc(64 * sizeof *n.slow);
	for (int i = 0; i < 64; i++)
		n.slow[i] = 1.0;
	n.slow[0 * 8 + 1] = 4.0; /* spine congestion on the 0 -> 1 path, some epochs */
	n.erratic = 1;
	c = drive(g, &prm, &n, 150, NULL, &nrev, &nchg);
	fin = react_ctl_pattern_for(c, 150);
	for (size_t f = 0; f < fin->nflows; f++)
		pair_left += fin->flows[f].src == 0 && fin->flows[f].dst == 1;
	cr_assert_eq(pair_left, 0, "the congested pair 0->1 is still used by %d flows", pair_left);
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
}

Test(loop, recdbl_erratic_pair_is_avoided)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg, pair_left = 0;
	react_ctl_t *c;
	const react_pattern_t *fin;
	loop_params(&prm);
	cr_assert_eq(react_gen_recdbl_allgather(8, 8 << 20, &g), REACT_OK);
	n.N = 8;
	n.slow = malloc(64 * sizeof *n.slow);
	for (int i = 0; i < 64; i++)
		n.slow[i] = 1.0;
	/* spine congestion on the path 0 -> 4 (recursive doubling's last,
	 * largest step for rank 0), some epochs */
	n.slow[0 * 8 + 4] = 4.0;
	n.erratic = 1;
	for (size_t f = 0; f < g->nflows; f++)
		pair_left += g->flows[f].src == 0 && g->flows[f].dst == 4 && g->flows[f].step == g->nsteps - 1;
	cr_assert_eq(pair_left, 1, "the generator's last step should send 0 -> 4");
	pair_left = 0;
	c = drive(g, &prm, &n, 150, NULL, &nrev, &nchg);
	fin = react_ctl_pattern_for(c, 150);
	for (size_t f = 0; f < fin->nflows; f++)
		pair_left += fin->flows[f].src == 0 && fin->flows[f].dst == 4 &&
		             fin->flows[f].step == fin->nsteps - 1;
	cr_assert_gt(nchg, 0);
	cr_assert_eq(pair_left, 0, "the congested pair 0->4 still carries the largest step");
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
}

/* An 8-rank ring AllReduce (8 MiB) whose every flow into rank 1 runs 3 x
 * slower (rank 1's own link: no swap relieves it), E epochs under prm;
 * returns the decision log (caller frees), *nrev and *nchg as drive's. */
static char *slow_rank1_ring_log(const react_params_t *prm, int E, int *nrev, int *nchg)
{
	react_pattern_t *g;
	net_t n = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *log = open_memstream(&buf, &len);
	cr_assert_eq(react_gen_ring_allreduce(8, 8 << 20, &g), REACT_OK);
	n.N = 8;
	n.slow = slow_into(8, 1, 3.0);
	react_ctl_destroy(drive(g, prm, &n, E, log, nrev, nchg));
	fclose(log);
	free(n.slow);
	react_pattern_destroy(g);
	return buf;
}

Test(loop, ring_server_tor_congestion_keeps_nothing)
{
	react_params_t prm;
	int nrev, nchg;
	char *buf;
	loop_params(&prm);
	buf = slow_rank1_ring_log(&prm, 200, &nrev, &nchg);
	cr_assert_null(strstr(buf, "\"action\":\"keep\""), "a change was kept for server-ToR congestion");
	cr_assert(nchg == 2 * nrev || nchg == 2 * nrev + 1, "every change is reverted (%d, %d)", nchg, nrev);
	free(buf);
}

static char *run_log(uint64_t seed, size_t *len)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg;
	react_ctl_t *c;
	char *buf = NULL;
	FILE *log = open_memstream(&buf, len);
	loop_params(&prm);
	prm.seed = seed;
	cr_assert_eq(react_gen_tree_allreduce(24, 3000000, &g), REACT_OK);
	n.N = 24;
	n.slow = slow_into(24, 5, 2.5);
	c = drive(g, &prm, &n, 90, log, &nrev, &nchg);
	fclose(log);
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
	return buf;
}

Test(loop, same_seed_same_log_bytes)
{
	size_t l1, l2;
	char *a = run_log(7, &l1), *b = run_log(7, &l2);
	cr_assert_gt(l1, 100u);
	cr_assert_eq(l1, l2);
	cr_assert_eq(memcmp(a, b, l1), 0);
	cr_assert(strstr(a, "\"candidates\":[{"), "the run made no candidate");
	free(a);
	free(b);
}

Test(loop, every_emitted_pattern_passes_the_check, .timeout = 120 * REACT_TEST_TIME_SCALE)
{
	static const struct { react_collective_t c; react_algorithm_t a; } gens[] = {
		{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE}, {REACT_COLL_ALLREDUCE, REACT_ALGO_RING},
		{REACT_COLL_ALLGATHER, REACT_ALGO_RING}, {REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL},
		{REACT_COLL_ALLREDUCE, REACT_ALGO_RHD}};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	long batches = 0, changes = 0, roles = 0;
	gsl_rng_set(r, 12345);
	for (int it = 0; it < 250; it++) {
		int gi = (int)gsl_rng_uniform_int(r, 5);
		int32_t N = 2 + (int32_t)gsl_rng_uniform_int(r, 15);
		react_pattern_t *g;
		react_params_t prm;
		react_ctl_t *c;
		double *fct;
		char *logbuf;
		size_t loglen;
		FILE *log;
		if (gens[gi].a == REACT_ALGO_RECDBL || gens[gi].a == REACT_ALGO_RHD)
			N = 1 << (1 + gsl_rng_uniform_int(r, 4));
		/* the fluid estimator's runs (it % 8 == 7, below) at 2..8 ranks: its
		 * max-min rates cost most with many moved flows, and which patterns
		 * it emits does not depend on the size (powers of two stay so) */
		if (it % 8 == 7 || it % 8 == 4)
			N = 2 + (N - 2) % 7;
		if (react_pattern_generate(gens[gi].c, gens[gi].a, N, 1 << 20, &g) != REACT_OK)
			continue;
		react_params_default(&prm);
		/* every code path: both profiles (the default's overlap estimator),
		 * the welch rule with the paper's estimate and selection, the
		 * pattern and fluid estimators, and auto (fluid with the one-partner
		 * history on rings whose congestion is steady enough, overlap
		 * elsewhere; it % 8 == 4, also at 2..8 ranks, ring_steady 0, 0.5
		 * or 1 so that a ring's searches take either reading) */
		if (it % 4 == 1)
			cr_assert_eq(react_params_set(&prm, "profile", "paper", NULL, 0), REACT_OK);
		if (it % 4 == 2)
			prm.estimator = REACT_EST_PAPER, prm.pruning = REACT_PRUNE_DEGREE;
		if (it % 4 == 3)
			prm.estimator = it % 8 == 3 ? REACT_EST_PATTERN : REACT_EST_FLUID;
		if (it % 8 == 4) {
			prm.estimator = REACT_EST_AUTO;
			prm.ring_steady = 0.5 * (double)((it / 8) % 3);
		}
		if (it % 3 == 0)
			prm.fruitless = 0.5; /* fruitless searches raise the bar */
		prm.batch_epochs = 2;
		prm.trials = 4; /* the beam's width of search, kept small: many controllers */
		prm.apply_delay = (int)gsl_rng_uniform_int(r, 2);
		prm.seed = (uint64_t)it;
		prm.epsilon = 0.0;
		prm.revert_tau = 0.0;
		cr_assert_eq(react_ctl_create(g, &prm, &c), REACT_OK);
		logbuf = NULL;
		loglen = 0;
		log = open_memstream(&logbuf, &loglen);
		react_ctl_set_log(c, log);
		fct = malloc(g->nflows * sizeof *fct);
		for (int64_t e = 0; e < 16; e++) {
			const react_pattern_t *p = react_ctl_pattern_for(c, e);
			react_decision_t d;
			double T = 0;
			for (size_t f = 0; f < p->nflows; f++) {
				fct[f] = 1e-6 * gsl_ran_lognormal(r, 0, 1.0);
				T += fct[f];
			}
			cr_assert_eq(react_ctl_observe(c, e, fct, p->nflows, T * gsl_rng_uniform_pos(r), &d), REACT_OK);
			if (d.changed) {
				react_check_result_t res;
				cr_assert_eq(react_pattern_check(d.pattern, &res), REACT_OK, "%s", res.message);
				changes++;
			}
		}
		{
			react_ctl_stats_t st;
			react_ctl_stats(c, &st);
			batches += st.batches;
		}
		fclose(log);
		for (const char *at = logbuf; (at = strstr(at, "(a role move of rank")) != NULL; at++)
			roles++;
		free(logbuf);
		free(fct);
		react_ctl_destroy(c);
		react_pattern_destroy(g);
	}
	cr_assert_gt(batches, 1000);
	cr_assert_gt(changes, 50, "too few changes (%ld) to exercise the check", changes);
	cr_assert_geq(roles, 4, "too few role moves (%ld) to exercise the check", roles);
	gsl_rng_free(r);
}

/* The generated patterns the random-run tests draw from: tree, ring and
 * rhd AllReduce, recursive-doubling AllGather */
static const struct { react_collective_t c; react_algorithm_t a; } rand_gens[] = {
	{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE}, {REACT_COLL_ALLREDUCE, REACT_ALGO_RING},
	{REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL}, {REACT_COLL_ALLREDUCE, REACT_ALGO_RHD}};

/* search_threads checks and estimates the beam's candidates on several
 * threads: two controllers, 1 and 3 threads, fed the same FCTs must run the
 * same patterns and write the same log, byte for byte, on every estimator
 * the threads serve (overlap, pattern, fluid, auto) */
Test(loop, search_threads_give_the_same_decisions, .timeout = 120 * REACT_TEST_TIME_SCALE)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	long searched = 0, changes = 0;
	gsl_rng_set(r, 777);
	for (int it = 0; it < 40; it++) {
		int gi = it % 4;
		int32_t N = rand_gens[gi].a == REACT_ALGO_TREE || rand_gens[gi].a == REACT_ALGO_RING
		                ? 4 + (int32_t)gsl_rng_uniform_int(r, 13)
		                : 1 << (2 + gsl_rng_uniform_int(r, 3));
		react_pattern_t *g;
		react_ctl_t *c[2];
		char *buf[2] = {NULL, NULL};
		size_t len[2] = {0, 0};
		FILE *log[2];
		double *fct;
		cr_assert_eq(react_pattern_generate(rand_gens[gi].c, rand_gens[gi].a, N, 1 << 20, &g), REACT_OK);
		for (int k = 0; k < 2; k++) {
			react_params_t prm;
			react_params_default(&prm);
			prm.estimator = (it / 4) % 4 == 0   ? REACT_EST_OVERLAP
			                : (it / 4) % 4 == 1 ? REACT_EST_PATTERN
			                : (it / 4) % 4 == 2 ? REACT_EST_FLUID
			                                    : REACT_EST_AUTO;
			prm.batch_epochs = 3;
			prm.seed = (uint64_t)it;
			prm.search_threads = k ? 3 : 1;
			cr_assert_eq(react_ctl_create(g, &prm, &c[k]), REACT_OK);
			log[k] = open_memstream(&buf[k], &len[k]);
			react_ctl_set_log(c[k], log[k]);
		}
		fct = malloc(g->nflows * sizeof *fct);
		/* two slow ranks, the rest lognormal noise */
		react_rank_t s1 = (react_rank_t)gsl_rng_uniform_int(r, (unsigned long)N), s2 = (s1 + 1 + N / 2) % N;
		for (int64_t e = 0; e < 24; e++) {
			const react_pattern_t *p = react_ctl_pattern_for(c[0], e);
			react_decision_t d[2];
			double T = 0;
			cr_assert_eq(react_pattern_hash(react_ctl_pattern_for(c[1], e)), react_pattern_hash(p),
			             "it %d epoch %lld: 3 threads run another pattern", it, (long long)e);
			for (size_t f = 0; f < p->nflows; f++) {
				double m = p->flows[f].src == s1 || p->flows[f].dst == s2 ? 3.0 : 1.0;
				fct[f] = 1e-6 * m * gsl_ran_lognormal(r, 0, 0.2);
				T += fct[f];
			}
			for (int k = 0; k < 2; k++)
				cr_assert_eq(react_ctl_observe(c[k], e, fct, p->nflows, T, &d[k]), REACT_OK);
			cr_assert_eq(d[0].changed, d[1].changed);
			changes += d[0].changed;
		}
		for (int k = 0; k < 2; k++)
			fclose(log[k]);
		cr_assert_eq(len[0], len[1], "it %d: the logs differ in length", it);
		cr_assert_eq(memcmp(buf[0], buf[1], len[0]), 0, "it %d: the logs differ", it);
		for (const char *at = buf[0]; (at = strstr(at, "\"candidates\":[{")) != NULL; at++)
			searched++;
		for (int k = 0; k < 2; k++) {
			free(buf[k]);
			react_ctl_destroy(c[k]);
		}
		free(fct);
		react_pattern_destroy(g);
	}
	cr_assert_gt(searched, 40, "too few searches (%ld) to compare", searched);
	cr_assert_gt(changes, 10, "too few changes (%ld) to compare", changes);
	gsl_rng_free(r);
}

Test(loop, bad_observations)
{
	react_pattern_t *g;
	react_params_t prm;
	react_ctl_t *c;
	double fct[64];
	loop_params(&prm);
	cr_assert_eq(react_gen_ring_allreduce(4, 4096, &g), REACT_OK);
	cr_assert_eq(react_ctl_create(g, &prm, &c), REACT_OK);
	for (size_t i = 0; i < g->nflows; i++)
		fct[i] = 1e-6;
	cr_assert_eq(react_ctl_observe(c, 1, fct, g->nflows, 1e-5, NULL), REACT_EINVAL, "out of order");
	cr_assert_eq(react_ctl_observe(c, 0, fct, g->nflows - 1, 1e-5, NULL), REACT_EINVAL, "flow count");
	fct[0] = 0;
	cr_assert_eq(react_ctl_observe(c, 0, fct, g->nflows, 1e-5, NULL), REACT_EINVAL, "zero FCT");
	fct[0] = 1e-6;
	cr_assert_eq(react_ctl_observe(c, 0, fct, g->nflows, 1e-5, NULL), REACT_OK);
	react_ctl_destroy(c);
	prm.batch_epochs = 0;
	cr_assert_eq(react_ctl_create(g, &prm, &c), REACT_EINVAL);
	react_pattern_destroy(g);
}

/* Nothing can help (a ring, every flow into rank 1 slow: every position is
 * alike): once the first changes have failed, the loop settles.  Escalation
 * and the search backoff make the second half of 300 epochs quiet (at most
 * one change per 100 epochs); without them the same loop keeps trying. */
static int late_changes(int settle, int32_t N, double noise)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int late = 0;
	react_ctl_t *c;
	double *fct, T;
	loop_params(&prm);
	if (!settle) {
		cr_assert_eq(react_params_set(&prm, "escalation", "0", NULL, 0), REACT_OK);
		cr_assert_eq(react_params_set(&prm, "search_backoff", "off", NULL, 0), REACT_OK);
		cr_assert_eq(react_params_set(&prm, "fruitless_stop", "0", NULL, 0), REACT_OK);
	}
	cr_assert_eq(react_gen_ring_allreduce(N, 8 << 20, &g), REACT_OK);
	n.N = N;
	n.noise = noise;
	n.slow = slow_into(N, 1, 3.0);
	fct = malloc(g->nflows * sizeof *fct);
	cr_assert_eq(react_ctl_create(g, &prm, &c), REACT_OK);
	for (int64_t e = 0; e < 300; e++) {
		const react_pattern_t *p = react_ctl_pattern_for(c, e);
		react_decision_t d;
		net_run(&n, p, e, fct, &T);
		cr_assert_eq(react_ctl_observe(c, e, fct, p->nflows, T, &d), REACT_OK);
		late += d.changed && e >= 150;
	}
	react_ctl_destroy(c);
	free(fct);
	free(n.slow);
	react_pattern_destroy(g);
	return late;
}

Test(loop, fruitless_congestion_settles, .timeout = 60 * REACT_TEST_TIME_SCALE)
{
	/* 8 ranks exact, 16 ranks with 10 % noise on every FCT */
	int quiet = late_changes(1, 8, 0) + late_changes(1, 16, 0.1);
	int busy = late_changes(0, 8, 0) + late_changes(0, 16, 0.1);
	cr_assert_leq(quiet, 2, "%d changes in epochs 150..299 of two runs", quiet);
	cr_assert_gt(busy, quiet, "without escalation and backoff: %d, with: %d", busy, quiet);
}

/* The 16-rank tree with rank 1 slow and, from epoch 96, rank 3 too: the
 * decision log of 110 epochs with the default parameters, and where the
 * batch ending at epoch 101 starts in it. */
static char *new_congestion_log(const char **after)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n1 = {0}, n2 = {0};
	char *buf = NULL;
	size_t len = 0;
	int nrev, nchg;
	FILE *log = open_memstream(&buf, &len);
	loop_params(&prm);
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n1.N = n2.N = 16;
	n1.slow = slow_into(16, 1, 3.0);
	n2.slow = slow_into(16, 3, 2.0);
	react_ctl_destroy(drive_nets(g, &prm, &n1, &n2, 96, 110, log, &nrev, &nchg, NULL));
	fclose(log);
	free(n1.slow);
	free(n2.slow);
	react_pattern_destroy(g);
	*after = strstr(buf, "{\"epoch\":101,");
	cr_assert_not_null(*after, "no batch ended at epoch 101");
	return buf;
}

/* Congestion that nothing more relieves puts the search in backoff; when
 * new steady congestion appears (another rank slow from epoch 96, the
 * first of a batch), that batch searches at once instead of waiting out
 * the backoff. */
Test(loop, new_congestion_ends_the_backoff)
{
	const char *after, *line;
	char *buf = new_congestion_log(&after);
	line = strstr(buf, "no search: backoff");
	cr_assert(line && line < after, "no backoff before the new congestion");
	cr_assert_null(strstr(after, "no search: backoff"),
	               "the batch after new congestion waited out the backoff");
	cr_assert(strstr(after, "\"action\":\"change\""), "new congestion was not searched");
	free(buf);
}

/* fruitless_stop: a search from the base runs at the start of a batch's
 * line with a non-empty "candidates" list; count them from `from` on. */
static int searches_after(const char *log, const char *from)
{
	int n = 0;
	for (const char *l = from ? from : log; (l = strstr(l, "\"candidates\":[{")); l++)
		n++;
	return n;
}

/* The 8-rank ring whose every flow into rank 1 is slow (nothing helps):
 * with fruitless_stop 2 the base is searched twice in vain and then not
 * again (no forced round either); with 0 the doubling backoff searches it
 * again and again.  On the 16-rank tree, congestion that nothing relieves
 * stops the search the same way, and a rank slow from epoch 96 (new steady
 * congestion) ends the stop: the batch after it searches. */
Test(loop, a_base_searched_twice_in_vain_is_searched_again_only_for_new_congestion)
{
	react_params_t prm;
	int nrev, c0, c2, s0, s2;
	char *on, *off, *buf;
	const char *stop, *after;
	loop_params(&prm);
	cr_assert_eq(prm.fruitless_stop, 2, "the default");
	on = slow_rank1_ring_log(&prm, 300, &nrev, &c2);
	prm.fruitless_stop = 0;
	off = slow_rank1_ring_log(&prm, 300, &nrev, &c0);
	stop = strstr(on, "no search: 2 searches from this base found nothing "
	                  "(fruitless_stop)");
	cr_assert_not_null(stop, "%s", on);
	s2 = searches_after(on, stop);
	s0 = searches_after(off, NULL);
	/* the search on the base right after the revert found nothing and
	 * counts: it and one more, then the stop */
	{
		const char *rv = strstr(on, "\"action\":\"revert\"");
		cr_assert(rv && rv < stop, "no revert before the stop: %s", on);
		cr_assert_eq(searches_after(on, line_start(on, rv)) - s2, 2,
		             "searches from the revert's line to the stop");
	}
	cr_assert_eq(s2, 0, "%d searches after the stop", s2);
	cr_assert_null(strstr(on, "forced exploration"), "a forced round undid the stop");
	cr_assert_geq(searches_after(on, NULL), 2);
	cr_assert_gt(s0, searches_after(on, NULL) + 2, "fruitless_stop 0: %d searches", s0);
	cr_assert_null(strstr(off, "fruitless_stop"));
	cr_assert_leq(c2, c0, "changes: %d with the stop, %d without", c2, c0);
	free(on);
	free(off);

	buf = new_congestion_log(&after);
	stop = strstr(buf, "(fruitless_stop)");
	cr_assert(stop && stop < after, "the search had not stopped before the new congestion: %s", buf);
	cr_assert(strstr(after, "\"action\":\"change\""), "new congestion was not searched: %s", after);
	free(buf);
}

/* Congestion that starts mid-run (rank 3's downlink at a third of its rate
 * from epoch `onset`, 1000: never) on a job that ran uncongested so far,
 * every FCT with `noise`.  Returns the mean epoch time over epochs
 * onset..onset+79 relative to the original pattern's on the new network,
 * and the shifts the controller saw. */
static double onset_run(double shift, int onset, double noise, int *nshift)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n0 = {0}, n1 = {0};
	react_ctl_t *c;
	react_ctl_stats_t st;
	double *fct, T0, T1, sum = 0;
	loop_params(&prm);
	prm.shift = shift;
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n0.N = n1.N = 16;
	n0.noise = n1.noise = noise;
	n1.slow = slow_into(16, 3, 3.0);
	fct = malloc(g->nflows * sizeof *fct);
	cr_assert_eq(react_ctl_create(g, &prm, &c), REACT_OK);
	for (int64_t e = 0; e < 300; e++) {
		const react_pattern_t *p = react_ctl_pattern_for(c, e);
		react_decision_t d;
		net_run(e < onset ? &n0 : &n1, p, e, fct, &T1);
		cr_assert_eq(react_ctl_observe(c, e, fct, p->nflows, T1, &d), REACT_OK);
		if (d.changed)
			cr_assert_eq(react_pattern_check(d.pattern, NULL), REACT_OK);
		if (e >= onset && e < onset + 80)
			sum += T1 / 80;
	}
	react_ctl_stats(c, &st);
	*nshift = (int)st.shifts;
	net_run(&n1, g, 0, fct, &T0);
	react_ctl_destroy(c);
	free(fct);
	free(n1.slow);
	react_pattern_destroy(g);
	return sum / T0;
}

/* The onset falls inside a batch (epochs 36..41): the shift is seen once,
 * the loop starts afresh on the epochs after it and relieves the
 * congestion; with the rule off nothing is seen. */
Test(loop, congestion_that_starts_mid_run_is_one_shift)
{
	int on, off;
	double t = onset_run(0.15, 40, 0, &on);
	onset_run(0, 40, 0, &off);
	cr_assert_eq(on, 1, "%d shifts seen for one change of the network", on);
	cr_assert_eq(off, 0);
	cr_assert_lt(t, 0.9, "epochs 40..119 at %.3f of the original's time on the new network", t);
}

/* The onset at epoch 39, three epochs before the batch 36..41 ends: half
 * of it ran on each network, and the batch's mean is not beyond the shift
 * rule's measure (its spread is the two levels').  Its last three epochs
 * are: the shift is seen at epoch 41, the loop starts afresh on those
 * epochs, and the change searched there is judged against them, not
 * against the uncongested sample, so no revert reads "slower than the
 * base's sample" and the shift is seen once. */
Test(loop, a_change_of_the_network_late_in_a_batch_is_seen_in_it)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n0 = {0}, n1 = {0};
	react_ctl_t *c;
	react_ctl_stats_t st;
	char *buf = NULL, *at;
	size_t len = 0;
	int nrev, nchg;
	FILE *log = open_memstream(&buf, &len);
	loop_params(&prm);
	cr_assert_eq(prm.batch_epochs, 6);
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n0.N = n1.N = 16;
	n1.slow = slow_into(16, 3, 3.0);
	c = drive_nets(g, &prm, &n0, &n1, 39, 120, log, &nrev, &nchg, NULL);
	fclose(log);
	react_ctl_stats(c, &st);
	at = strstr(buf, "{\"epoch\":41,");
	cr_assert_not_null(at, "no batch ended at epoch 41");
	cr_assert(strstr(at, "network changed") && strstr(at, "network changed") < strchr(at, '\n'),
	          "the batch of the onset did not see the shift: %.300s", at);
	cr_assert_null(strstr(buf, "slower than the base's sample"),
	               "a change was judged against the uncongested sample");
	cr_assert_eq(st.shifts, 1, "%lld shifts", (long long)st.shifts);
	react_ctl_destroy(c);
	free(buf);
	free(n1.slow);
	react_pattern_destroy(g);
}

/* Per-FCT noise of 10 % on a network that does not change is no shift:
 * not uncongested, not congested from the start. */
Test(loop, noise_is_no_shift)
{
	int a, b;
	onset_run(0.15, 1000, 0.1, &a);
	onset_run(0.15, 0, 0.1, &b);
	cr_assert_eq(a + b, 0, "%d and %d shifts on networks that did not change", a, b);
}

/* The network slows down (every link at half its rate) in the epoch the
 * first candidate goes under test: its batch runs far slower than the
 * base's sample, which was measured before.  The revert hands back to the
 * base for a batch instead of judging the next candidate against the same
 * stale sample, and that batch shows the change of the network (one
 * shift).  With shift 0 (the paper's loop) the next candidate follows at
 * once.  Escalation 0: every candidate that passes epsilon is tried.
 * Returns whether the first revert scheduled the base; *nshift the shifts. */
static int slowdown_during_test(double shift, int *nshift)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n1 = {0}, n2 = {0};
	react_ctl_t *c;
	react_ctl_stats_t st;
	double *fct, T;
	int64_t slow_from = -1;
	int reverts = 0, to_base = 0;
	loop_params(&prm);
	prm.shift = shift;
	prm.escalation = 0;
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n1.N = n2.N = 16;
	n1.slow = slow_into(16, 1, 3.0);
	n2.slow = slow_into(16, 1, 3.0);
	for (int i = 0; i < 16 * 16; i++)
		n2.slow[i] *= 2.0;
	fct = malloc(g->nflows * sizeof *fct);
	cr_assert_eq(react_ctl_create(g, &prm, &c), REACT_OK);
	for (int64_t e = 0; e < 60; e++) {
		const react_pattern_t *p = react_ctl_pattern_for(c, e);
		react_decision_t d;
		net_run(slow_from >= 0 && e >= slow_from ? &n2 : &n1, p, e, fct, &T);
		cr_assert_eq(react_ctl_observe(c, e, fct, p->nflows, T, &d), REACT_OK);
		if (d.changed && slow_from < 0)
			slow_from = d.apply_epoch;
		if (d.changed && d.reverted && reverts++ == 0)
			to_base = react_pattern_equal(d.pattern, g);
	}
	cr_assert_geq(slow_from, 0, "no candidate was tried");
	cr_assert_gt(reverts, 0, "the candidate on the slower network was not reverted");
	react_ctl_stats(c, &st);
	*nshift = (int)st.shifts;
	react_ctl_destroy(c);
	free(fct);
	free(n1.slow);
	free(n2.slow);
	react_pattern_destroy(g);
	return to_base;
}

Test(loop, a_candidate_far_slower_than_the_sample_hands_back_to_the_base)
{
	int on, off;
	cr_assert(slowdown_during_test(0.15, &on),
	          "the revert went on to the next candidate, not to the base");
	cr_assert_eq(on, 1, "%d shifts after the network slowed down", on);
	cr_assert_not(slowdown_during_test(0, &off), "with shift 0 the revert ran the base again");
	cr_assert_eq(off, 0);
}

/* The network after congestion ends: every pair the job's own pattern g
 * does not use runs at 1/m on every third epoch (erratic, as the job's own
 * flows colliding on ECMP paths: no steady congestion), so g is the
 * fastest again. */
static net_t after_release(const react_pattern_t *g, int32_t N, double m)
{
	net_t n = {0};
	n.N = N;
	n.slow = malloc((size_t)N * N * sizeof *n.slow);
	for (int i = 0; i < N * N; i++)
		n.slow[i] = m;
	for (size_t f = 0; f < g->nflows; f++)
		n.slow[g->flows[f].src * N + g->flows[f].dst] = 1.0;
	n.erratic = 1;
	return n;
}

/* drive_nets for the release tests: *tail over the last 60 epochs */
static react_ctl_t *drive_release(const react_pattern_t *g, const react_params_t *prm, const net_t *n0,
                                  const net_t *n1, int release, int E, FILE *log, double *tail)
{
	int nrev, nchg;
	return drive_nets(g, prm, n0, n1, release, E, log, &nrev, &nchg, tail);
}

/* Congestion that ends: rank 3's downlink runs at a third of its rate until
 * epoch 60, and the controller leaves the job's own pattern for one that
 * avoids it; then the network of after_release.  Returns the mean epoch
 * time of the last 60 epochs over the job's own pattern's on that network;
 * *back whether the run ends on the job's own pattern; the log in *log. */
static double release_run(int return_after, int keep_rule, int *back, char **log)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n0 = {0}, n1;
	react_ctl_t *c;
	double *fct, T, T0 = 0, tail;
	size_t len = 0;
	FILE *lf = open_memstream(log, &len);
	const int release = 60, E = 240;
	loop_params(&prm);
	prm.return_after = return_after;
	prm.keep_rule = keep_rule;
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n0.N = 16;
	n0.slow = slow_into(16, 3, 3.0);
	n1 = after_release(g, 16, 1.6);
	c = drive_release(g, &prm, &n0, &n1, release, E, lf, &tail);
	fclose(lf);
	cr_assert(!react_pattern_equal(react_ctl_pattern_for(c, release), g),
	          "no change before the congestion ended");
	fct = malloc(g->nflows * sizeof *fct);
	for (int64_t e = E - 60; e < E; e++) {
		net_run(&n1, g, e, fct, &T);
		T0 += T / 60;
	}
	*back = react_pattern_equal(react_ctl_pattern_for(c, E), g);
	react_ctl_destroy(c);
	free(fct);
	free(n0.slow);
	free(n1.slow);
	react_pattern_destroy(g);
	return tail / T0;
}

/* With return_after 3 the job's own pattern is tried once the steady
 * congestion is gone, kept, and the run ends on it at its time; with 0
 * (the paper's loop) the job stays on the pattern chosen for the
 * congestion and runs slower.  Under the paper's keep rule the job's own
 * pattern needs no tau_r either. */
Test(loop, congestion_that_ends_brings_the_jobs_own_pattern_back)
{
	int on_back, off_back;
	char *on_log = NULL, *off_log = NULL;
	double on = release_run(3, REACT_KEEP_WELCH, &on_back, &on_log),
	       off = release_run(0, REACT_KEEP_WELCH, &off_back, &off_log), paper;
	cr_assert(strstr(on_log, "the job's own pattern under test"), "the job's own pattern was not tried");
	cr_assert(on_back, "with return_after 3 the run does not end on the job's own pattern");
	cr_assert_lt(on, 1.001, "last 60 epochs at %.4f of the job's own pattern's time", on);
	cr_assert_null(strstr(off_log, "the job's own pattern under test"));
	cr_assert_not(off_back, "with return_after 0 the run ends on the job's own pattern");
	cr_assert_gt(off, 1.02, "with return_after 0 the last 60 epochs at %.4f", off);
	free(on_log);
	free(off_log);
	/* the paper's keep rule: the job's own pattern comes back without tau_r */
	paper = release_run(3, REACT_KEEP_PAPER, &on_back, &on_log);
	cr_assert(strstr(on_log, "the job's own pattern: not slower"), "not kept under the paper's rule");
	cr_assert(on_back && paper < 1.001, "paper's rule: back %d, %.4f of its time", on_back, paper);
	free(on_log);
}

/* Congestion that stays (the pair of the job's own first flow, both ways,
 * at a third of its rate the whole run): the pattern REACT moves to does
 * not use the pair, the flags go quiet, and return_after tries the job's
 * own pattern, which is as slow as ever.
 * With early_revert 3 the try is reverted after 3 of its 6 epochs; with 0,
 * after all 6.  *tries: the job's own pattern's tries; the epochs it ran
 * in return. */
static int hidden_spell_epochs(int early_revert, int *tries, char **log)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	react_ctl_t *c;
	int nrev, nchg, ran = 0;
	size_t len = 0;
	FILE *lf = open_memstream(log, &len);
	const int E = 200;
	loop_params(&prm);
	prm.early_revert = early_revert;
	prm.return_after = 1; /* the first change hides the pair: a spell of one batch */
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n.N = 16;
	n.slow = malloc(16 * 16 * sizeof *n.slow);
	for (int i = 0; i < 16 * 16; i++)
		n.slow[i] = 1.0;
	n.slow[g->flows[0].src * 16 + g->flows[0].dst] = 3.0;
	n.slow[g->flows[0].dst * 16 + g->flows[0].src] = 3.0;
	c = drive(g, &prm, &n, E, lf, &nrev, &nchg);
	for (int64_t e = 1; e < E; e++)
		ran += react_pattern_equal(react_ctl_pattern_for(c, e), g);
	fclose(lf);
	*tries = 0;
	for (char *q = *log; (q = strstr(q, "the job's own pattern under test")) != NULL; q++)
		(*tries)++;
	react_ctl_destroy(c);
	free(n.slow);
	react_pattern_destroy(g);
	return ran;
}

Test(loop, a_try_of_the_jobs_own_pattern_clearly_slower_is_reverted_early)
{
	int t3, t0;
	char *l3 = NULL, *l0 = NULL;
	int e3 = hidden_spell_epochs(3, &t3, &l3), e0 = hidden_spell_epochs(0, &t0, &l0);
	cr_assert_geq(t3, 1, "the job's own pattern was never tried:\n%s", l3);
	cr_assert_eq(t3, t0, "%d tries with early_revert 3, %d with 0", t3, t0);
	cr_assert(strstr(l3, "the job's own pattern: slower than the base's sample"), "%s", l3);
	cr_assert(strstr(l3, "(early_revert)"), "no early revert:\n%s", l3);
	cr_assert_null(strstr(l0, "(early_revert)"));
	cr_assert_lt(e3, e0, "the job's own pattern ran %d epochs with early_revert 3, %d with 0",
	             e3, e0);
	free(l3);
	free(l0);
}

/* return_after over many random runs: generators, sizes, the congested
 * rank, the epoch the congestion ends and per-FCT noise drawn at random.
 * Every pattern handed out passes the check, the job's own pattern among
 * them, and the rule fires in enough of the runs to say so. */
Test(loop, returns_to_the_jobs_own_pattern_pass_the_check, .timeout = 120 * REACT_TEST_TIME_SCALE)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	int tries = 0, runs = 0;
	gsl_rng_set(r, 777);
	for (int it = 0; it < 40; it++) {
		int gi = (int)gsl_rng_uniform_int(r, 4);
		int32_t N = gi >= 2 ? 8 << gsl_rng_uniform_int(r, 2) : 6 + (int32_t)gsl_rng_uniform_int(r, 11);
		int release = 30 + (int)gsl_rng_uniform_int(r, 50);
		react_pattern_t *g;
		react_params_t prm;
		net_t n0 = {0}, n1;
		react_ctl_t *c;
		double tail;
		char *log = NULL;
		size_t len = 0;
		FILE *lf = open_memstream(&log, &len);
		cr_assert_eq(react_pattern_generate(rand_gens[gi].c, rand_gens[gi].a, N, 2000000, &g), REACT_OK);
		loop_params(&prm);
		prm.seed = (uint64_t)it;
		n0.N = N;
		n0.slow = slow_into(N, (int32_t)gsl_rng_uniform_int(r, (unsigned long)N), 3.0);
		n1 = after_release(g, N, 1.6);
		n0.noise = n1.noise = 0.05 * gsl_rng_uniform_int(r, 3);
		c = drive_release(g, &prm, &n0, &n1, release, 160, lf, &tail);
		fclose(lf);
		tries += strstr(log, "the job's own pattern under test") != NULL;
		runs++;
		free(log);
		free(n0.slow);
		free(n1.slow);
		react_ctl_destroy(c);
		react_pattern_destroy(g);
	}
	cr_assert_geq(tries, runs / 4, "the job's own pattern was tried in %d of %d runs", tries, runs);
	gsl_rng_free(r);
}

/* explore_free: in a ring whose every flow into rank 1 is slow (steady
 * congestion; nothing helps) the first change runs flows on pairs the
 * history never measured and fails.  That failure alone is marked free:
 * only the search right after it leaves the bar at epsilon, so later
 * searches count it and the loop settles as it does with explore_free 0
 * (loop::fruitless_congestion_settles).  With explore_free 0 no failure
 * is free. */
static char *free_log(int explore_free, int *nchg)
{
	react_params_t prm;
	int nrev;
	char v[16];
	loop_params(&prm);
	snprintf(v, sizeof v, "%d", explore_free);
	cr_assert_eq(react_params_set(&prm, "explore_free", v, NULL, 0), REACT_OK);
	/* the searches after the failures, not fruitless_stop's end of them */
	prm.fruitless_stop = 0;
	return slow_rank1_ring_log(&prm, 300, &nrev, nchg);
}

Test(loop, a_failure_on_pairs_never_measured_is_free_once)
{
	int con, coff;
	char *on = free_log(1, &con), *off = free_log(0, &coff);
	const char *first = strstr(on, "\"action\":\"revert\""), *l;
	cr_assert_not_null(first);
	l = strstr(on, "pairs never measured: the bar stays (explore_free)");
	cr_assert_not_null(l, "%s", on);
	cr_assert_null(strstr(l + 1, "pairs never measured"), "a second free failure");
	cr_assert_lt(first - on, l - on);
	cr_assert_null(memchr(first, '\n', (size_t)(l - first)), "the free failure is the first revert");
	cr_assert_null(strstr(off, "pairs never measured"));
	/* later searches count the free failure: the same escalated bars, as
	 * many changes */
	cr_assert_not_null(strstr(off, "(epsilon escalated after 2 failed rounds)"), "%s", off);
	cr_assert_not_null(strstr(on, "(epsilon escalated after 2 failed rounds)"), "%s", on);
	cr_assert_eq(con, coff, "%d changes with explore_free 1, %d with 0", con, coff);
	free(on);
	free(off);
}

/* keep_resets: all flows into rank 1 of an 8-rank ring run 3 x slower on
 * every third epoch (erratic congestion, no flow steadily congested) with
 * 10 % noise on every FCT, and each changed pattern runs up to 15 %
 * faster or slower than the job's own (drawn from its hash and a salt),
 * at a bar low enough (epsilon 0.002) that the estimate passes many
 * changes: some are kept, some reverted.  With keep_resets steady a keep
 * leaves the failed rounds before it counted, so the bar stays raised
 * and E_max comes sooner; with any, every keep restarts the count. */
static char *rank1_log(int keep_resets, int erratic, uint64_t salt, int *nchg)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev;
	char *buf = NULL;
	size_t len = 0;
	FILE *log = open_memstream(&buf, &len);
	loop_params(&prm);
	prm.keep_resets = keep_resets;
	prm.epsilon = 0.002;
	prm.fruitless_stop = 0; /* the count of failed rounds alone settles the loop here */
	cr_assert_eq(react_gen_ring_allreduce(8, 8 << 20, &g), REACT_OK);
	n.N = 8;
	n.noise = 0.1;
	n.slow = slow_into(8, 1, 3.0);
	n.erratic = erratic;
	n.by_pattern = 0.15;
	n.salt = salt;
	n.initial = g;
	react_ctl_destroy(drive(g, &prm, &n, 300, log, &nrev, nchg));
	fclose(log);
	free(n.slow);
	react_pattern_destroy(g);
	return buf;
}

Test(loop, a_keep_under_erratic_congestion_alone_keeps_the_failed_rounds,
     .timeout = 60 * REACT_TEST_TIME_SCALE)
{
	int csteady = 0, cany = 0, counted = 0, fewer = 0;
	react_params_t prm;
	react_params_default(&prm);
	cr_assert_eq(prm.keep_resets, REACT_KEEP_RESETS_STEADY);
	for (uint64_t salt = 0; salt < 8; salt++) {
		int a, b;
		char *st = rank1_log(REACT_KEEP_RESETS_STEADY, 1, salt, &a);
		char *an = rank1_log(REACT_KEEP_RESETS_ANY, 1, salt, &b);
		const char *k = strstr(st, "failed rounds still count (keep_resets)");
		cr_assert_null(strstr(an, "still count"), "salt %d", (int)salt);
		cr_assert_leq(a, b, "salt %d: %d changes with keep_resets steady, %d with any", (int)salt,
		              a, b);
		if (k) {
			/* the line is a keep's, and the two runs agree up to it */
			const char *line = line_start(st, k);
			const char *kt = strstr(line, "\"kept\":true");
			cr_assert(kt && kt < k && !memchr(line, '\n', (size_t)(kt - line)), "%.400s", line);
			cr_assert_eq(strncmp(st, an, (size_t)(line - st)), 0, "salt %d", (int)salt);
			counted++;
		}
		fewer += a < b;
		csteady += a;
		cany += b;
		free(st);
		free(an);
	}
	cr_assert_geq(counted, 4, "a keep kept the count in %d of 8 runs", counted);
	cr_assert_geq(fewer, 3, "fewer changes in %d of 8 runs (%d against %d)", fewer, csteady, cany);
	cr_assert_lt(csteady, cany);
}

/* Where some flow is steadily congested every keep restarts the count:
 * the runs above (8 salts) with rank 1 slow on every epoch give the same decisions
 * under keep_resets steady and any, keeps after failed rounds included. */
Test(loop, keep_resets_leaves_steady_congestion_alone, .timeout = 60 * REACT_TEST_TIME_SCALE)
{
	int after_failure = 0;
	for (uint64_t salt = 0; salt < 8; salt++) {
		int a, b;
		char *st = rank1_log(REACT_KEEP_RESETS_STEADY, 0, salt, &a);
		char *an = rank1_log(REACT_KEEP_RESETS_ANY, 0, salt, &b);
		const char *rv = strstr(st, "\"action\":\"revert\"");
		cr_assert_str_eq(st, an, "salt %d", (int)salt);
		after_failure += rv && strstr(rv, "\"kept\":true");
		free(st);
		free(an);
	}
	cr_assert_geq(after_failure, 2, "a keep after a failed round in %d of 8 runs", after_failure);
}

/* shift_test: the job's own flows run twice as long on every third epoch
 * (collisions on some ECMP draws), so the base's sample spans the floor
 * and the collided level; epochs 36..41 all draw collision-free paths.
 * That batch's mean is 25 % below the sample's, significantly: under
 * shift_test mean a shift, under range (the default) the sample's own
 * spread, no shift.  The network never changes. */
static int lucky_batch_shifts(int shift_test, int lucky)
{
	react_pattern_t *g;
	react_params_t prm;
	net_t n = {0};
	int nrev, nchg;
	react_ctl_stats_t st;
	react_ctl_t *c;
	loop_params(&prm);
	prm.shift_test = shift_test;
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &g), REACT_OK);
	n.N = 16;
	n.every_third = 2.0;
	n.lucky_from = lucky ? 36 : 0;
	n.lucky_to = lucky ? 42 : 0;
	c = drive(g, &prm, &n, 120, NULL, &nrev, &nchg);
	react_ctl_stats(c, &st);
	react_ctl_destroy(c);
	react_pattern_destroy(g);
	return (int)st.shifts;
}

Test(loop, a_lucky_batch_inside_the_samples_range_is_no_shift)
{
	react_params_t prm;
	react_params_default(&prm);
	cr_assert_eq(prm.shift_test, REACT_SHIFT_TEST_RANGE);
	cr_assert_eq(lucky_batch_shifts(REACT_SHIFT_TEST_MEAN, 0), 0, "no lucky batch, no shift");
	cr_assert_geq(lucky_batch_shifts(REACT_SHIFT_TEST_MEAN, 1), 1, "mean: the lucky batch is a shift");
	cr_assert_eq(lucky_batch_shifts(REACT_SHIFT_TEST_RANGE, 1), 0, "range: inside the sample's spread");
}

/* escalation_delay: a failed try runs its early look (3 epochs) and then
 * the apply delay D before its revert applies, so at D = 5 each failed
 * round weighs (3 + 5) / 3 in the escalated bar.  In the ring whose every
 * flow into rank 1 is slow (nothing helps, every change is reverted) the
 * bar after one failed round is 0.03 (1 + 2 x 2.667) = 0.19 instead of
 * 0.09, the log says why, and fewer changes are tried; at D = 0 the
 * factor is 1: the bar escalates after two failed rounds as before, and
 * the log is the same byte for byte. */
static char *delay_log(int D, double escalation_delay, int *nrev, int *nchg)
{
	react_params_t prm;
	loop_params(&prm);
	prm.apply_delay = D;
	prm.escalation_delay = escalation_delay;
	prm.fruitless_stop = 0; /* the bar's later searches, not fruitless_stop's end of them */
	return slow_rank1_ring_log(&prm, 300, nrev, nchg);
}

Test(loop, the_apply_delay_weighs_each_failed_round)
{
	int r1, c1, r0, c0, z1, y1, z0, y0;
	char *on = delay_log(5, 1.0, &r1, &c1), *off = delay_log(5, 0.0, &r0, &c0);
	char *d0on = delay_log(0, 1.0, &z1, &y1), *d0off = delay_log(0, 0.0, &z0, &y0);
	cr_assert_not_null(strstr(on, "the best estimated gain is below 0.19 (epsilon escalated after 1 "
	                              "failed rounds, the rounds x 2.67 for D = 5)"),
	                   "%s", on);
	cr_assert_null(strstr(off, "for D ="), "%s", off);
	cr_assert_lt(c1, c0, "changes at D = 5: %d weighing the delay, %d without", c1, c0);
	cr_assert_eq(c1, 2 * r1, "every change reverted (%d, %d)", c1, r1);
	cr_assert_str_eq(d0on, d0off, "at D = 0 the weight changes nothing");
	cr_assert_not_null(strstr(d0on, "(epsilon escalated after 2 failed rounds)"),
	                   "the bar was not escalated at D = 0: %s", d0on);
	cr_assert_null(strstr(d0on, "for D ="));
	cr_assert_eq(y1, y0);
	free(on);
	free(off);
	free(d0on);
	free(d0off);
}
