/* Known answers of the fluid model (docs/flowsim.md): FCT = 8 S / rate + D. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "react/flowsim.h"
#include "react/generators.h"
#include "simtest.h"

#define B 100e9
#define D 1e-6

static void run_ok(react_run_cfg_t *r, st_ctx_t *c)
{
	char err[512] = "";
	react_driver_cb_t cb = st_cb(c);
	cr_assert_eq(react_backend_flow.run(r, &cb, err, sizeof err), REACT_OK, "%s", err);
}

#define NEAR(a, b) cr_assert(fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-15, "%.12g vs %.12g", (a), (b))

Test(flowsim, one_flow_one_path)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(2, B, D, &t), REACT_OK);
	react_flow_t f = {0, 0, 1, 0, 1, 1000000, REACT_RECV_STORE};
	react_pattern_t *p = st_pattern(2, 1, &f);
	int32_t hosts[] = {0, 1};
	react_job_cfg_t j = st_job(2, hosts, 3);
	j.start_s = 0.5;
	j.compute_gap_s = 1e-3;
	react_run_cfg_t r = st_run(t, 1, &j);
	st_ctx_t c = {.pat = {p}};
	run_ok(&r, &c);
	cr_assert_eq(c.nrec[0], 3);
	double fct = 8.0 * 1000000 / B + 2 * D; /* two links: h0-s0, s0-h1 */
	for (int e = 0; e < 3; e++) {
		NEAR(c.rec[0][e].fct[0], fct);
		NEAR(c.rec[0][e].start, 0.5 + e * (fct + 1e-3));
		NEAR(c.rec[0][e].end, c.rec[0][e].start + fct);
	}
	st_free(&c);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

Test(flowsim, two_flows_share_then_speed_up)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(3, B, D, &t), REACT_OK);
	double S = 1e6;
	react_flow_t f[] = {{0, 0, 2, 0, 1, (uint64_t)S, REACT_RECV_STORE},
	                    {0, 1, 2, 1, 1, (uint64_t)(2 * S), REACT_RECV_STORE}};
	react_pattern_t *p = st_pattern(3, 2, f);
	int32_t hosts[] = {0, 1, 2};
	react_job_cfg_t j = st_job(3, hosts, 1);
	react_run_cfg_t r = st_run(t, 1, &j);
	st_ctx_t c = {.pat = {p}};
	run_ok(&r, &c);
	/* both at B/2 until the first leaves at 16S/B; the second then at B */
	NEAR(c.rec[0][0].fct[0], 16 * S / B + 2 * D);
	NEAR(c.rec[0][0].fct[1], 24 * S / B + 2 * D);
	st_free(&c);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

/* Parking lot: s0 -L1(100G)- s1 -L2(50G)- s2, fat host links.  Flow 0 crosses
 * L1 and L2, flow 1 only L1, flow 2 only L2.  Max-min: L2 is the bottleneck,
 * flows 0 and 2 get 25 Gbps, flow 1 the rest of L1, 75 Gbps.  Sizes are
 * chosen so that all three finish at T = 1 ms exactly when the rates are right. */
Test(flowsim, parking_lot_max_min)
{
	char path[] = "/tmp/react-parkXXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *fp = fdopen(fd, "w");
	fprintf(fp, "node h0 host\nnode h1 host\nnode h2 host\nnode h3 host\n"
	            "node s0 switch\nnode s1 switch\nnode s2 switch\n"
	            "link h0 s0 1Tbps 1us\nlink h1 s0 1Tbps 1us\nlink h2 s1 1Tbps 1us\n"
	            "link h3 s2 1Tbps 1us\nlink s0 s1 100Gbps 1us\nlink s1 s2 50Gbps 1us\n");
	fclose(fp);
	react_topology_t *t;
	char err[256];
	cr_assert_eq(react_topo_read(path, &t, err, sizeof err), REACT_OK, "%s", err);
	unlink(path);
	double T = 1e-3;
	react_flow_t f[] = {{0, 0, 3, 0, 1, (uint64_t)(25e9 / 8 * T), REACT_RECV_STORE},
	                    {0, 1, 2, 1, 1, (uint64_t)(75e9 / 8 * T), REACT_RECV_STORE},
	                    {0, 2, 3, 2, 1, (uint64_t)(25e9 / 8 * T), REACT_RECV_STORE}};
	react_pattern_t *p = st_pattern(4, 3, f);
	int32_t hosts[] = {0, 1, 2, 3};
	react_job_cfg_t j = st_job(4, hosts, 1);
	react_run_cfg_t r = st_run(t, 1, &j);
	st_ctx_t c = {.pat = {p}};
	run_ok(&r, &c);
	NEAR(c.rec[0][0].fct[0], T + 4e-6);
	NEAR(c.rec[0][0].fct[1], T + 3e-6);
	NEAR(c.rec[0][0].fct[2], T + 3e-6);
	st_free(&c);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

/* Ring AllReduce of S bytes on an N-host star: 2(N-1) steps, each flow S/N
 * bytes alone on its uplink and downlink, each step waits for the previous
 * one: T = 2(N-1)/N * 8S/B + 2(N-1) * 2D (two links per step). */
Test(flowsim, ring_allreduce_on_star)
{
	int32_t ns[] = {2, 3, 5, 8};
	for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
		int32_t N = ns[k];
		uint64_t S = 20000000ULL / (uint64_t)N * (uint64_t)N;
		react_topology_t *t;
		react_pattern_t *p;
		cr_assert_eq(react_topo_star(N, B, D, &t), REACT_OK);
		cr_assert_eq(react_gen_ring_allreduce(N, S, &p), REACT_OK);
		int32_t hosts[8];
		for (int32_t i = 0; i < N; i++)
			hosts[i] = i;
		react_job_cfg_t j = st_job(N, hosts, 2);
		react_run_cfg_t r = st_run(t, 1, &j);
		st_ctx_t c = {.pat = {p}};
		run_ok(&r, &c);
		double T = 2.0 * (N - 1) / N * 8.0 * (double)S / B + 2.0 * (N - 1) * 2 * D;
		for (int e = 0; e < 2; e++)
			NEAR(c.rec[0][e].end - c.rec[0][e].start, T);
		st_free(&c);
		react_pattern_destroy(p);
		react_topology_destroy(t);
	}
}

/* External flows into host 1 share only the s0->h1 link: flow 0->1 gets
 * B/(1+count); flow 2->3 is untouched. */
Test(flowsim, external_flows_slow_only_their_links)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(5, B, D, &t), REACT_OK);
	double S = 1e6;
	react_flow_t f[] = {{0, 0, 1, 0, 1, (uint64_t)S, REACT_RECV_STORE},
	                    {0, 2, 3, 2, 1, (uint64_t)S, REACT_RECV_STORE}};
	react_pattern_t *p = st_pattern(4, 2, f);
	int32_t hosts[] = {0, 1, 2, 3};
	for (int32_t cnt = 0; cnt <= 3; cnt++) {
		react_job_cfg_t j = st_job(4, hosts, 1);
		react_ext_flow_t x = {4, 1, cnt, 0, 0};
		react_run_cfg_t r = st_run(t, 1, &j);
		r.next = 1;
		r.ext = &x;
		st_ctx_t c = {.pat = {p}};
		run_ok(&r, &c);
		/* the shared link is the external flows' bottleneck: DCTCP's standing
		 * queue (K packets of the default 1500-byte MTU) delays the last byte */
		double q = cnt ? REACT_FLOW_STANDING_QUEUE_PKTS * 1500.0 * 8 / B : 0;
		NEAR(c.rec[0][0].fct[0], 8 * S * (1 + cnt) / B + 2 * D + q);
		NEAR(c.rec[0][0].fct[1], 8 * S / B + 2 * D);
		st_free(&c);
	}
	/* the queue scales with the MTU */
	{
		react_job_cfg_t j9 = st_job(4, hosts, 1);
		react_ext_flow_t x9 = {4, 1, 2, 0, 0};
		react_run_cfg_t r9 = st_run(t, 1, &j9);
		r9.next = 1;
		r9.ext = &x9;
		r9.mtu = 9000;
		st_ctx_t c9 = {.pat = {p}};
		run_ok(&r9, &c9);
		NEAR(c9.rec[0][0].fct[0], 8 * S * 3 / B + 2 * D + REACT_FLOW_STANDING_QUEUE_PKTS * 9000.0 * 8 / B);
		st_free(&c9);
	}
	/* an external flow that stops at 40 us: half rate until then, full after;
	 * no standing queue once it is gone */
	react_job_cfg_t j = st_job(4, hosts, 1);
	react_ext_flow_t x = {4, 1, 1, 0, 40e-6};
	react_run_cfg_t r = st_run(t, 1, &j);
	r.next = 1;
	r.ext = &x;
	st_ctx_t c = {.pat = {p}};
	run_ok(&r, &c);
	/* 40us at B/2 moves B/2*40us/8 bytes; the rest at B */
	double rest = S - B / 2 * 40e-6 / 8;
	NEAR(c.rec[0][0].fct[0], 40e-6 + 8 * rest / B + 2 * D);
	st_free(&c);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

Test(flowsim, degraded_link)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(2, B, D, &t), REACT_OK);
	react_flow_t f = {0, 0, 1, 0, 1, 1000000, REACT_RECV_STORE};
	react_pattern_t *p = st_pattern(2, 1, &f);
	int32_t hosts[] = {0, 1};
	react_job_cfg_t j = st_job(2, hosts, 1);
	react_degraded_link_t dl = {react_topo_find_link(t, 1, 2), 30e9};
	react_run_cfg_t r = st_run(t, 1, &j);
	r.ndegraded = 1;
	r.degraded = &dl;
	st_ctx_t c = {.pat = {p}};
	run_ok(&r, &c);
	NEAR(c.rec[0][0].fct[0], 8.0 * 1000000 / 30e9 + 2 * D);
	st_free(&c);
	react_pattern_destroy(p);
	react_topology_destroy(t);
}

Test(flowsim, two_jobs_deterministic)
{
	react_flowsim_stats_t a, b2;
	uint64_t h1 = st_two_jobs_hash(react_flowsim_run, 7, 10, 0, &a);
	uint64_t h2 = st_two_jobs_hash(react_flowsim_run, 7, 10, 0, &b2);
	cr_assert_eq(h1, h2);
	cr_assert_eq(a.flow_events, b2.flow_events);
	cr_assert_eq(a.epochs, 20);
	cr_assert_neq(st_two_jobs_hash(react_flowsim_run, 8, 10, 0, &b2), h1,
	              "another seed should change some ECMP choice");
}

Test(flowsim, bad_config_is_refused)
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
	cr_assert_eq(react_backend_flow.run(&r, &cb, err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "host 5"), "%s", err);
	hosts[1] = 1;
	r.ecmp_ports = 0;
	cr_assert_eq(react_backend_flow.run(&r, &cb, err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "ecmp_ports"), "%s", err);
	react_topology_destroy(t);
}
