/* RTuner on the host transport: a slow link makes REACT change the pattern,
 * results stay correct, and the same run gives the same decisions. */
#include <criterion/criterion.h>
#include <math.h>
#include <time.h>

#include "react/controller.h"
#include "react/generators.h"
#include "react/rt.h"
#include "react/rt_tuner.h"

typedef struct outcome {
	int64_t decisions;
	int64_t first_change;     /* first epoch whose pattern differs from epoch 0's */
	double before, after;     /* mean epoch time before the first change, over the last 10 */
	uint64_t hashes[80];
} outcome_t;

static void run_job(int react_on, outcome_t *o)
{
	const int32_t n = 8;
	const uint64_t S = 256ull << 10;
	const int E = 80;
	react_rt_cfg_t cfg;
	react_rt_cfg_default(&cfg);
	cfg.transport = REACT_TRANSPORT_HOST;
	cfg.nranks = n;
	cfg.max_bytes = S;
	cfg.timeout_s = 30;
	react_rt_t *rt = NULL;
	char err[320];
	cr_assert_eq(react_rt_create(&cfg, &rt, err, sizeof err), REACT_OK, "%s", err);
	react_pattern_t *p0 = NULL;
	cr_assert_eq(react_gen_ring_allreduce(n, S, &p0), REACT_OK);
	/* congestion: the link 3 -> 4 runs at a tenth of the others */
	cr_assert_eq(react_rt_set_link(rt, 3, 4, 5e-6, 1e9), REACT_OK);
	react_params_t prm;
	react_params_default(&prm);
	prm.apply_delay = REACT_RT_APPLY_DELAY;
	prm.seed = 7;
	react_rt_tuner_t *tu = NULL;
	if (react_on)
		cr_assert_eq(react_rt_tuner_create(p0, &prm, 0, NULL, &tu, err, sizeof err), REACT_OK, "%s", err);
	memset(o, 0, sizeof *o);
	o->first_change = -1;
	double sum_before = 0, sum_after = 0;
	int nb = 0;
	for (int e = 0; e < E; e++) {
		const react_pattern_t *p = react_on ? react_rt_tuner_pattern_for(tu, e) : p0;
		cr_assert_not_null(p, "pattern_for(%d): %s", e, react_rt_tuner_error(tu));
		o->hashes[e] = react_pattern_hash(p);
		if (o->first_change < 0 && o->hashes[e] != o->hashes[0])
			o->first_change = e;
		cr_assert_eq(react_rt_fill(rt, p), REACT_OK);
		const react_rt_times_t *t;
		cr_assert_eq(react_rt_run(rt, p, &t), REACT_OK, "%s", react_rt_error(rt));
		uint64_t wrong = 1;
		cr_assert_eq(react_rt_check(rt, p, &wrong), REACT_OK);
		cr_assert_eq(wrong, 0, "epoch %d: %llu wrong", e, (unsigned long long)wrong);
		if (o->first_change < 0) {
			sum_before += t->epoch_s;
			nb++;
		}
		if (e >= E - 10)
			sum_after += t->epoch_s;
		if (react_on)
			cr_assert_eq(react_rt_tuner_report(tu, e, t->send_span_s, t->recv_span_s, t->nflows,
			                                   t->epoch_s), REACT_OK);
	}
	o->before = sum_before / (nb ? nb : 1);
	o->after = sum_after / 10;
	if (react_on) {
		react_rt_tuner_stats_t s;
		react_rt_tuner_stats(tu, &s);
		o->decisions = s.decisions;
		/* the lag: every epoch the job's last pattern needed was observed,
		 * and the job never ran more than D epochs past one whose decision
		 * was not known yet (pattern_for waits) */
		cr_assert_geq(s.observed, E - 1 - prm.apply_delay);
		cr_assert_leq(s.observed, E);
		cr_assert_leq(s.lag_epochs_max, prm.apply_delay);
		cr_assert_gt(s.lag_max_s, 0.0);
		cr_assert_leq(s.lag_sum_s, (double)s.observed * s.lag_max_s * (1 + 1e-12));
		cr_assert_gt(s.epoch_wall_s, 0.0);
		react_rt_tuner_destroy(tu);
	}
	react_pattern_destroy(p0);
	react_rt_destroy(rt);
}

Test(gpu_tuner, slow_link_changes_the_pattern, .timeout = 60)
{
	outcome_t base, re;
	run_job(0, &base);
	run_job(1, &re);
	cr_assert(re.decisions >= 1, "the controller scheduled %lld patterns", (long long)re.decisions);
	cr_assert(re.first_change > 0, "the pattern never changed");
	/* B = 6, D = 5: the first decision closes epoch 5 and applies at 11 */
	cr_assert_geq(re.first_change, 11);
	cr_assert(re.after < 0.9 * base.after, "REACT %.3g ms vs baseline %.3g ms per epoch",
	          re.after * 1e3, base.after * 1e3);
	cr_assert_float_eq(re.before, base.before, 1e-12);
}

Test(gpu_tuner, deterministic, .timeout = 60)
{
	outcome_t a, b;
	run_job(1, &a);
	run_job(1, &b);
	cr_assert_eq(a.decisions, b.decisions);
	for (int e = 0; e < 80; e++)
		cr_assert_eq(a.hashes[e], b.hashes[e], "epoch %d ran different patterns", e);
}

/* A peer that stops reporting (a hung MPI rank) must end the wait for a
 * decision with an error naming the epochs, not hang the job. */
Test(gpu_tuner, wait_for_a_decision_times_out, .timeout = 20)
{
	react_pattern_t *p = NULL;
	react_rt_tuner_t *tu = NULL;
	react_params_t prm;
	char err[320];
	cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 4, 1 << 20, &p),
	             REACT_OK);
	react_params_default(&prm);
	prm.apply_delay = 2;
	cr_assert_eq(react_rt_tuner_create(p, &prm, 0, NULL, &tu, err, sizeof err), REACT_OK, "%s", err);
	react_rt_tuner_set_timeout(tu, 0.2);
	/* epochs 0..2 need no observed epoch (a decision applies D + 1 later) */
	for (int64_t e = 0; e <= 2; e++)
		cr_assert_not_null(react_rt_tuner_pattern_for(tu, e), "epoch %lld", (long long)e);
	/* epoch 3 needs epoch 0 observed: nothing was reported */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cr_assert_null(react_rt_tuner_pattern_for(tu, 3));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double waited = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	cr_assert(waited >= 0.19 && waited < 5, "waited %.3f s for a 0.2 s timeout", waited);
	cr_assert_str_eq(react_rt_tuner_error(tu),
	                 "tuner: no decision for epoch 3 after 0.2 s: it needs epochs 0..0 observed, "
	                 "the controller has observed 0 (a peer that stopped reporting, or a hung "
	                 "controller)");
	/* failed for good: later calls answer at once, reports are refused */
	cr_assert_null(react_rt_tuner_pattern_for(tu, 4));
	double z[12] = {0};
	cr_assert_neq(react_rt_tuner_report(tu, 0, z, z, 4, 1e-3), REACT_OK);
	react_rt_tuner_destroy(tu); /* must not hang */
	react_pattern_destroy(p);
}
