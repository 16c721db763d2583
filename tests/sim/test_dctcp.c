/* The DCTCP window model of the flow-level backend (react_backend_dctcp):
 * line rate for one flow, the queue held near the marking threshold in an
 * incast, fair shares, the slow convergence of a flow joining a link held
 * by a long-lived flow (what max-min rates do not have), external flows that
 * stop, determinism. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "react/flowsim.h"
#include "react/generators.h"
#include "simtest.h"

#define B 100e9
#define D 1e-6

static react_flowsim_stats_t run_ok(react_run_cfg_t *r, st_ctx_t *c)
{
	char err[512] = "";
	react_driver_cb_t cb = st_cb(c);
	react_flowsim_stats_t st;
	cr_assert_eq(react_flowsim_run_dctcp(r, &cb, &st, err, sizeof err), REACT_OK, "%s", err);
	return st;
}

/* payload bytes per second of a 100 Gbps link: MSS = MTU - 40 per MTU + 2 */
static double goodput(double mtu)
{
	return B / 8 * (mtu - 40) / (mtu + 2);
}

Test(dctcp, one_flow_runs_at_line_rate)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(2, B, D, &t), REACT_OK);
	double S = 16e6;
	react_flow_t f = {0, 0, 1, 0, 1, (uint64_t)S, REACT_RECV_STORE};
	react_pattern_t *p = st_pattern(2, 1, &f);
	int32_t hosts[] = {0, 1};
	react_job_cfg_t j = st_job(2, hosts, 4);
	react_run_cfg_t r = st_run(t, 1, &j);
	r.ecmp_ports = 1; /* one connection, warm after the first epoch */
	r.mtu = 9000;
	st_ctx_t c = {.pat = {p}};
	react_flowsim_stats_t st = run_ok(&r, &c);
	double ideal = S / goodput(9000);
	cr_log_info("one flow: %.2f us then %.2f us, line rate %.2f us; max queue %.1f packets, "
	            "%llu cuts", c.rec[0][0].fct[0] * 1e6, c.rec[0][1].fct[0] * 1e6, ideal * 1e6,
	            st.max_queue_pkts, (unsigned long long)st.window_cuts);
	for (int e = 1; e < 4; e++)
		cr_expect(fabs(c.rec[0][e].fct[0] / ideal - 1) < 0.01,
		          "epoch %d: %.2f us, line rate gives %.2f us", e, c.rec[0][e].fct[0] * 1e6,
		          ideal * 1e6);
	/* the first epoch pays the handshake and slow start */
	cr_expect_gt(c.rec[0][0].fct[0], c.rec[0][1].fct[0] + 2 * 2 * D);
	/* DCTCP holds the sender's queue near the threshold, never near the buffer */
	cr_expect_geq(st.max_queue_pkts, REACT_RED_MIN_TH_PKTS);
	cr_expect_lt(st.max_queue_pkts, 2 * REACT_RED_MAX_TH_PKTS, "max queue %.1f packets",
	             st.max_queue_pkts);
	st_free(&c);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

Test(dctcp, incast_engages_dctcp_and_shares_fairly)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(3, B, D, &t), REACT_OK);
	double S = 20e6;
	react_flow_t f[] = {{0, 0, 2, 0, 1, (uint64_t)S, REACT_RECV_STORE},
	                    {0, 1, 2, 1, 1, (uint64_t)S, REACT_RECV_STORE}};
	react_pattern_t *p = st_pattern(3, 2, f);
	int32_t hosts[] = {0, 1, 2};
	react_job_cfg_t j = st_job(3, hosts, 1);
	react_run_cfg_t r = st_run(t, 1, &j);
	r.mtu = 1500;
	st_ctx_t c = {.pat = {p}};
	react_flowsim_stats_t st = run_ok(&r, &c);
	cr_expect_gt(st.ce_bytes, 100 * 1460.0, "RED marks CE (%.0f bytes)", st.ce_bytes);
	cr_expect_gt(st.window_cuts, 10, "senders cut their windows (%llu)",
	             (unsigned long long)st.window_cuts);
	cr_expect_geq(st.max_queue_pkts, REACT_RED_MIN_TH_PKTS, "max queue %.1f", st.max_queue_pkts);
	cr_expect_leq(st.max_queue_pkts, 240, "max queue %.1f", st.max_queue_pkts);
	/* the bottleneck stays busy: 2 S at more than 90 % of the line rate */
	double both = 2 * S / goodput(1500);
	cr_log_info("incast: %.1f / %.1f us, 2 S at line rate %.1f us; max queue %.1f packets, "
	            "%llu cuts, %.0f CE bytes", c.rec[0][0].fct[0] * 1e6, c.rec[0][0].fct[1] * 1e6,
	            both * 1e6, st.max_queue_pkts, (unsigned long long)st.window_cuts, st.ce_bytes);
	for (int i = 0; i < 2; i++)
		cr_expect(c.rec[0][0].fct[i] < both / 0.9 && c.rec[0][0].fct[i] > both * 0.95,
		          "flow %d: %.1f us, 2 S at line rate %.1f us", i, c.rec[0][0].fct[i] * 1e6,
		          both * 1e6);
	/* equal senders, equal shares */
	cr_expect(fabs(c.rec[0][0].fct[0] / c.rec[0][0].fct[1] - 1) < 0.02, "%.1f vs %.1f us",
	          c.rec[0][0].fct[0] * 1e6, c.rec[0][0].fct[1] * 1e6);
	st_free(&c);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

/* A 2 MB transfer joins a receiver link held by a long-lived DCTCP flow.
 * Max-min gives it half the link at once; a new connection (10 segments,
 * alpha 1) needs many round trips to get there, so the window model is
 * slower, yet it does reach a share: far faster than a trickle. */
Test(dctcp, joining_flow_converges_to_its_share)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(3, B, D, &t), REACT_OK);
	double S = 2e6;
	react_flow_t f = {0, 0, 1, 0, 1, (uint64_t)S, REACT_RECV_STORE};
	react_pattern_t *p = st_pattern(2, 1, &f);
	int32_t hosts[] = {0, 1};
	react_job_cfg_t j = st_job(2, hosts, 1);
	j.start_s = 1e-3; /* the external flow has been running for 1 ms */
	react_ext_flow_t x = {2, 1, 1, 0, 0};
	react_run_cfg_t r = st_run(t, 1, &j);
	r.next = 1;
	r.ext = &x;
	r.mtu = 9000;
	st_ctx_t cw = {.pat = {p}}, cm = {.pat = {p}};
	react_flowsim_stats_t st = run_ok(&r, &cw);
	react_driver_cb_t cb = st_cb(&cm);
	char err[256];
	cr_assert_eq(react_flowsim_run(&r, &cb, NULL, err, sizeof err), REACT_OK, "%s", err);
	double win = cw.rec[0][0].fct[0], mm = cm.rec[0][0].fct[0];
	cr_log_info("2 MB joining a held link: window model %.1f us, max-min %.1f us", win * 1e6,
	            mm * 1e6);
	cr_expect_gt(win, 1.05 * mm, "window %.1f us vs max-min %.1f us", win * 1e6, mm * 1e6);
	cr_expect_lt(win, 2 * mm, "window %.1f us vs max-min %.1f us", win * 1e6, mm * 1e6);
	cr_expect_gt(st.window_cuts, 0);
	st_free(&cw);
	st_free(&cm);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

Test(dctcp, external_flow_that_stops)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(3, B, D, &t), REACT_OK);
	double S = 8e6;
	react_flow_t f = {0, 0, 1, 0, 1, (uint64_t)S, REACT_RECV_STORE};
	react_pattern_t *p = st_pattern(2, 1, &f);
	int32_t hosts[] = {0, 1};
	double fct[2];
	for (int stop = 0; stop < 2; stop++) {
		react_job_cfg_t j = st_job(2, hosts, 1);
		react_ext_flow_t x = {2, 1, 2, 0, stop ? 100e-6 : 0};
		react_run_cfg_t r = st_run(t, 1, &j);
		r.next = 1;
		r.ext = &x;
		r.mtu = 9000;
		st_ctx_t c = {.pat = {p}};
		run_ok(&r, &c);
		fct[stop] = c.rec[0][0].fct[0];
		st_free(&c);
	}
	double alone = S / goodput(9000);
	cr_log_info("8 MB against 2 external flows: %.1f us; they stop at 100 us: %.1f us; alone "
	            "%.1f us", fct[0] * 1e6, fct[1] * 1e6, alone * 1e6);
	/* against two flows: about a third of the link; once they stop at 100 us: all of it */
	cr_expect(fct[0] > 2.5 * alone && fct[0] < 4 * alone, "%.1f us (alone %.1f us)",
	          fct[0] * 1e6, alone * 1e6);
	cr_expect(fct[1] < alone + 150e-6, "%.1f us (alone %.1f us)", fct[1] * 1e6, alone * 1e6);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

Test(dctcp, two_jobs_deterministic)
{
	react_flowsim_stats_t a, b2;
	uint64_t h1 = st_two_jobs_hash(react_flowsim_run_dctcp, 7, 6, 9000, &a);
	uint64_t h2 = st_two_jobs_hash(react_flowsim_run_dctcp, 7, 6, 9000, &b2);
	cr_assert_eq(h1, h2);
	cr_assert_eq(a.flow_events, b2.flow_events);
	cr_assert_eq(a.rate_solves, b2.rate_solves);
	cr_assert_eq(a.epochs, 12);
	cr_assert_neq(st_two_jobs_hash(react_flowsim_run_dctcp, 8, 6, 9000, &b2), h1,
	              "another seed should change some ECMP choice");
}

Test(dctcp, bad_config_is_refused)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(2, B, D, &t), REACT_OK);
	int32_t hosts[] = {0, 5};
	react_job_cfg_t j = st_job(2, hosts, 1);
	react_run_cfg_t r = st_run(t, 1, &j);
	st_ctx_t c;
	memset(&c, 0, sizeof c);
	react_driver_cb_t cb = st_cb(&c);
	char err[256] = "";
	cr_assert_eq(react_backend_dctcp.run(&r, &cb, err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "dctcp backend") && strstr(err, "host 5"), "%s", err);
	react_topology_destroy(t);
}
