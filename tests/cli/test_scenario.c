/* Scenario files (parsing, errors with file and line, sweeps, ranges,
 * resolution) and the epoch driver over a synthetic backend. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "react/driver.h"
#include "react/generators.h"
#include "react/scenario.h"

static react_scenario_t *parse_ok(const char *text)
{
	react_scenario_t *s = NULL;
	char err[1024] = "";
	react_status_t st = react_scenario_parse(text, strlen(text), "mem.yaml", &s, err, sizeof err);
	cr_assert_eq(st, REACT_OK, "parse failed: %s", err);
	return s;
}

/* Parse must fail; err must contain every one of the given fragments. */
static void parse_fails(const char *text, const char *frag1, const char *frag2)
{
	react_scenario_t *s = NULL;
	char err[1024] = "";
	react_status_t st = react_scenario_parse(text, strlen(text), "bad.yaml", &s, err, sizeof err);
	cr_assert_neq(st, REACT_OK, "expected a failure for:\n%s", text);
	cr_assert_null(s);
	cr_assert(strstr(err, frag1), "error '%s' lacks '%s'", err, frag1);
	if (frag2)
		cr_assert(strstr(err, frag2), "error '%s' lacks '%s'", err, frag2);
}

#define BASE "topology: {type: star, hosts: 16}\n"
#define JOB "jobs:\n  - name: a\n    ranks: 4\n"

Test(scenario, minimal_defaults)
{
	react_scenario_t *s = parse_ok(BASE JOB);
	react_config_t *c = NULL;
	char err[512];
	cr_assert_str_eq(react_scenario_name(s), "mem");
	cr_assert_str_eq(react_scenario_backend(s), "flow");
	cr_assert_eq(react_scenario_nconfigs(s), 1);
	cr_assert_eq(react_scenario_naxes(s), 0);
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->run.njobs, 1);
	cr_assert_eq(c->run.jobs[0].nranks, 4);
	cr_assert_eq(c->run.jobs[0].message_bytes, 20000000u);
	cr_assert_eq(c->run.jobs[0].collective, REACT_COLL_ALLREDUCE);
	cr_assert_eq(c->run.jobs[0].algorithm, REACT_ALGO_TREE);
	cr_assert_eq(c->run.jobs[0].epochs, 100);
	cr_assert_eq(c->warmup[0], 25);
	cr_assert_eq(c->react_on[0], 1);
	cr_assert_eq(c->run.ecmp_ports, 4);
	cr_assert_eq(c->run.topo->nhosts, 16);
	cr_assert_eq(c->run.next, 0);
	cr_assert_str_eq(c->id, "c0000");
	/* distinct hosts within the topology */
	for (int i = 0; i < 4; i++) {
		cr_assert(c->run.jobs[0].hosts[i] >= 0 && c->run.jobs[0].hosts[i] < 16);
		for (int k = 0; k < i; k++)
			cr_assert_neq(c->run.jobs[0].hosts[i], c->run.jobs[0].hosts[k]);
	}
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(scenario, sweep_cross_product_and_order)
{
	react_scenario_t *s = parse_ok("seed: 1..3\n" BASE JOB "    message: [1MB, 2MB]\n"
	                               "congestion:\n  external: {congested_pairs: [1, 2], p: 2}\n");
	char err[512];
	cr_assert_eq(react_scenario_naxes(s), 3);
	cr_assert_eq(react_scenario_nconfigs(s), 12);
	cr_assert_str_eq(react_scenario_axis_name(s, 0), "seed");
	cr_assert_str_eq(react_scenario_axis_name(s, 1), "message");
	cr_assert_str_eq(react_scenario_axis_name(s, 2), "congested_pairs");
	/* last axis fastest */
	const char *want[12] = {"seed=1 message=1MB congested_pairs=1",
	                        "seed=1 message=1MB congested_pairs=2",
	                        "seed=1 message=2MB congested_pairs=1",
	                        "seed=1 message=2MB congested_pairs=2",
	                        "seed=2 message=1MB congested_pairs=1"};
	for (size_t i = 0; i < 12; i++) {
		react_config_t *c = NULL;
		cr_assert_eq(react_scenario_config(s, i, &c, err, sizeof err), REACT_OK, "%s", err);
		if (i < 5)
			cr_assert_str_eq(c->key, want[i]);
		cr_assert_eq(c->seed, 1 + i / 4);
		cr_assert_eq(c->run.jobs[0].message_bytes, (i / 2) % 2 ? 2000000u : 1000000u);
		cr_assert_eq(c->run.next, 1 + i % 2);
		cr_assert_eq(c->run.ext[0].count, 2);
		react_config_destroy(c);
	}
	react_config_t *c = NULL;
	cr_assert_eq(react_scenario_config(s, 12, &c, err, sizeof err), REACT_EINVAL);
	react_scenario_destroy(s);
}

Test(scenario, range_syntax)
{
	react_scenario_t *s = parse_ok("seed: 3..7\n" BASE JOB);
	cr_assert_eq(react_scenario_nconfigs(s), 5);
	react_scenario_destroy(s);
	s = parse_ok("seed: [1..2, 10]\n" BASE JOB);
	cr_assert_eq(react_scenario_nconfigs(s), 3);
	react_scenario_destroy(s);
	s = parse_ok("seed: 4..4\n" BASE JOB);
	cr_assert_eq(react_scenario_nconfigs(s), 1);
	react_scenario_destroy(s);
	parse_fails("seed: 5..2\n" BASE JOB, "bad.yaml:1:", "a <= b");
	/* a quoted range is a string, not an integer */
	parse_fails("seed: \"1..3\"\n" BASE JOB, "bad.yaml:1:", "expected an integer");
}

/* A field sweeps at most 100000 values, ranges and list items together; a
 * rank sweep over the whole range is read (one pattern per collective x
 * algorithm is generated to check it, not one per rank count). */
Test(scenario, sweep_value_limit)
{
	react_scenario_t *s = parse_ok("seed: 1..100000\n" BASE JOB);
	cr_assert_eq(react_scenario_nconfigs(s), 100000);
	react_scenario_destroy(s);
	parse_fails("seed: 0..100000\n" BASE JOB, "bad.yaml:1:", "more than 100000 values");
	parse_fails("seed: [1..60000, 1..50000]\n" BASE JOB, "bad.yaml:1:",
	            "more than 100000 values");
	parse_fails("seed: -9223372036854775807..9223372036854775807\n" BASE JOB, "bad.yaml:1:",
	            "more than 100000 values");
	s = parse_ok("topology: {type: star, hosts: 4096}\njobs:\n  - {name: a, ranks: 2..4096, "
	             "algorithm: [tree, ring, rhd]}\n");
	cr_assert_eq(react_scenario_nconfigs(s), 4095 * 3);
	react_scenario_destroy(s);
	parse_fails(BASE "jobs:\n  - {name: a, ranks: [4, 2..3, 4097]}\n", "bad.yaml:3:",
	            "at most 4096 ranks, got 4097");
	parse_fails(BASE "jobs:\n  - {name: a, ranks: [8, 3], collective: allgather, algorithm: "
	            "[ring, tree]}\n", "bad.yaml:3:", "allgather tree with 3 ranks");
}

Test(scenario, same_config_same_resolution)
{
	react_scenario_t *s = parse_ok("seed: [1, 2]\n" BASE JOB "congestion:\n  external: "
	                               "{congested_pairs: 3, p: 1}\n");
	react_config_t *a = NULL, *b = NULL, *c = NULL;
	char err[256];
	react_scenario_config(s, 0, &a, err, sizeof err);
	react_scenario_config(s, 0, &b, err, sizeof err);
	react_scenario_config(s, 1, &c, err, sizeof err);
	cr_assert_eq(memcmp(a->run.jobs[0].hosts, b->run.jobs[0].hosts, 4 * sizeof(int32_t)), 0);
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(a->run.ext[i].src_host, b->run.ext[i].src_host);
		cr_assert_eq(a->run.ext[i].dst_host, b->run.ext[i].dst_host);
		/* sources inside the job, destinations outside */
		int in_src = 0, in_dst = 0;
		for (int k = 0; k < 4; k++) {
			in_src |= a->run.ext[i].src_host == a->run.jobs[0].hosts[k];
			in_dst |= a->run.ext[i].dst_host == a->run.jobs[0].hosts[k];
		}
		cr_assert(in_src && !in_dst);
	}
	int differ = 0;
	for (int k = 0; k < 4; k++)
		differ |= a->run.jobs[0].hosts[k] != c->run.jobs[0].hosts[k];
	cr_assert(differ, "two seeds gave the same placement");
	react_config_destroy(a);
	react_config_destroy(b);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(scenario, placements)
{
	char err[512];
	react_config_t *c = NULL;
	react_scenario_t *s = parse_ok(BASE "jobs:\n  - {name: a, ranks: 4, placement: contiguous}\n"
	                               "  - {name: b, ranks: 4, placement: {hosts: [15, 14, 13, 12]}}\n"
	                               "  - {name: c, ranks: 4, placement: {overlap: a, shared: 2}}\n");
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	for (int k = 0; k < 4; k++) {
		cr_assert_eq(c->run.jobs[0].hosts[k], k);
		cr_assert_eq(c->run.jobs[1].hosts[k], 15 - k);
	}
	int shared = 0;
	for (int k = 0; k < 4; k++)
		for (int q = 0; q < 4; q++)
			shared += c->run.jobs[2].hosts[k] == c->run.jobs[0].hosts[q];
	cr_assert_eq(shared, 2);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(scenario, set_overrides)
{
	react_scenario_t *s = parse_ok(BASE JOB);
	char err[512];
	react_config_t *c = NULL;
	cr_assert_eq(react_scenario_set(s, "jobs.a.ranks", "6", err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_scenario_set(s, "congestion.external.p", "[1, 2, 4]", err, sizeof err),
	             REACT_OK, "%s", err);
	cr_assert_eq(react_scenario_set(s, "params.B", "4", err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_scenario_nconfigs(s), 3);
	cr_assert_eq(react_scenario_config(s, 2, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->run.jobs[0].nranks, 6);
	cr_assert_eq(c->params[0].batch_epochs, 4);
	react_config_destroy(c);
	/* a bad override names --set and leaves the scenario unchanged */
	cr_assert_neq(react_scenario_set(s, "jobs.a.ranks", "1", err, sizeof err), REACT_OK);
	cr_assert(strstr(err, "--set jobs.a.ranks"), "%s", err);
	cr_assert_neq(react_scenario_set(s, "jobs.a.colour", "red", err, sizeof err), REACT_OK);
	cr_assert(strstr(err, "unknown field 'colour'"), "%s", err);
	cr_assert_eq(react_scenario_nconfigs(s), 3);
	react_scenario_destroy(s);
}

/* Without a topology: a star of the jobs' ranks; the gpu section resolves
 * into the configuration, and each backend refuses the congestion it
 * cannot model, naming the field. */
Test(scenario, default_topology_and_gpu_section)
{
	react_scenario_t *s = parse_ok(JOB "  - name: b\n    ranks: 3\n"
	                               "gpu:\n  transport: host\n  bandwidth: 40Gbps\n"
	                               "  congestion: {pairs: [[0, 2], [3, 1]], p: 0.5, start_epoch: 7}\n");
	react_config_t *c = NULL;
	char err[1024];
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->run.topo->nhosts, 7);
	cr_assert_str_eq(c->gpu.transport, "host");
	cr_assert_float_eq(c->gpu.bandwidth_Bps, 5e9, 1);
	cr_assert_eq(c->gpu.npairs, 2);
	cr_assert_eq(c->gpu.pairs[1][0], 3);
	cr_assert_eq(c->gpu.pairs[1][1], 1);
	cr_assert_float_eq(c->gpu.p, 0.5, 1e-12);
	cr_assert_eq(c->gpu.start_epoch, 7);
	cr_assert_eq(c->run.gpu, &c->gpu);
	/* flow cannot model rank-pair congestion; gpu runs one job */
	cr_assert_eq(react_config_check_backend(s, c, "flow", err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "mem.yaml:9: field 'gpu.congestion'"), "%s", err);
	cr_assert_eq(react_config_check_backend(s, c, "gpu", err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "mem.yaml:4: field 'jobs': the gpu backend runs one job"), "%s", err);
	react_config_destroy(c);
	react_scenario_destroy(s);
	/* external flows on gpu */
	s = parse_ok(BASE JOB "congestion:\n  external: {congested_pairs: 2, p: 3}\n");
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_config_check_backend(s, c, "flow", err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_config_check_backend(s, c, "gpu", err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "mem.yaml:6: field 'congestion.external'"), "%s", err);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(scenario, errors_name_file_and_line)
{
	parse_fails(BASE JOB "    colour: red\n", "bad.yaml:5:", "unknown field 'colour'");
	parse_fails("sed: 1\n" BASE JOB, "bad.yaml:1:", "unknown field 'sed'");
	parse_fails(BASE JOB "    ranks2: 1\n", "bad.yaml:5:", "ranks2");
	parse_fails(BASE "jobs:\n  - name: a\n    ranks: 1\n", "bad.yaml:4:", ">= 2");
	parse_fails(BASE "jobs:\n  - name: a\n    ranks: four\n", "bad.yaml:4:", "expected an integer");
	parse_fails(BASE JOB "    message: 20 parsecs\n", "bad.yaml:5:", "size");
	parse_fails(BASE JOB "    collective: allgather\n    algorithm: tree\n", "bad.yaml:6:",
	            "allgather tree");
	parse_fails(BASE JOB "    algorithm: bogus\n", "bad.yaml:5:", "algorithm");
	parse_fails("topology: {type: torus}\n" JOB, "bad.yaml:1:", "topology type");
	parse_fails("topology: [star]\n" JOB, "bad.yaml:1:", "topology");
	parse_fails(JOB "gpu: {transport: tcp}\n", "bad.yaml:4:", "gpu.transport");
	parse_fails(JOB "gpu: {congestion: {p: 1}}\n", "bad.yaml:4:", "gpu.congestion.p");
	parse_fails(JOB "gpu: {congestion: {pairs: [[1, 1]]}}\n", "bad.yaml:4:",
	            "gpu.congestion.pairs[0]");
	parse_fails(JOB "gpu: {colour: red}\n", "bad.yaml:4:", "unknown field 'colour' in gpu");
	parse_fails(BASE, "bad.yaml:1:", "jobs");
	parse_fails(BASE JOB "    react: maybe\n", "bad.yaml:5:", "true or false");
	parse_fails(BASE JOB "    keep_running: 1x\n", "bad.yaml:5:", "jobs.a.keep_running");
	parse_fails(BASE JOB "  - name: a\n    ranks: 2\n", "bad.yaml:5:", "no other job");
	parse_fails(BASE JOB "  - name: b\n    placement: {overlap: zz, shared: 1}\n", "bad.yaml:6:",
	            "earlier job");
	parse_fails(BASE JOB "congestion:\n  external: {congested_pairs: 1, q: 2}\n", "bad.yaml:6:",
	            "unknown field 'q'");
	parse_fails(BASE JOB "params: {B: 0}\n", "bad.yaml:5:", "params.B");
	parse_fails(BASE JOB "params: {Z: 1}\n", "bad.yaml:5:", "unknown field 'Z'");
	/* the error lists every parameter, the table's last one too */
	parse_fails(BASE JOB "params: {Z: 1}\n", "ring_steady, ", ", return_after");
	parse_fails(BASE JOB "plot: {x: sed}\n", "bad.yaml:5:", "field to sweep");
	parse_fails(BASE "jobs:\n  - name: [a, b]\n", "bad.yaml:3:", "cannot be swept");
	parse_fails("seed: [1, 2\n" BASE JOB, "bad.yaml:", "YAML syntax error");
	parse_fails(BASE JOB "    ranks: 4\n", "bad.yaml:5:", "appears twice");
}

/* Errors that depend on the resolved topology appear at resolution. */
static void config_fails(const char *text, const char *frag1, const char *frag2)
{
	react_scenario_t *s = parse_ok(text);
	react_config_t *c = NULL;
	char err[1024] = "";
	cr_assert_neq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK);
	cr_assert_null(c);
	cr_assert(strstr(err, frag1), "error '%s' lacks '%s'", err, frag1);
	if (frag2)
		cr_assert(strstr(err, frag2), "error '%s' lacks '%s'", err, frag2);
	react_scenario_destroy(s);
}

Test(scenario, resolution_errors_name_file_and_line)
{
	config_fails(BASE "jobs:\n  - name: a\n    ranks: 17\n", "mem.yaml:4:", "do not fit");
	config_fails(BASE "jobs:\n  - name: a\n    ranks: 2\n    placement: {hosts: [3, 16]}\n",
	             "mem.yaml:5:", "beyond the topology");
	config_fails(BASE "jobs:\n  - name: a\n    ranks: 3\n    placement: {hosts: [3, 4]}\n",
	             "mem.yaml:5:", "expected 3 hosts");
	config_fails(BASE JOB "congestion:\n  external:\n    congested_pairs: 5\n", "mem.yaml:7:",
	             "at most 4");
	config_fails(BASE "jobs:\n  - {name: a, ranks: 8}\n  - {name: b, ranks: 8}\n"
	             "  - {name: c, ranks: 2}\n", "mem.yaml:5:", "do not fit");
	config_fails(BASE JOB "    epochs: 10\n    warmup: 10\n", "mem.yaml:6:", "warm-up");
	config_fails("topology: {type: file, path: /nonexistent/x.topo}\n" JOB, "mem.yaml:1:",
	             "topology.path");
	config_fails("topology: {type: star}\n" JOB, "mem.yaml:1:", "topology.hosts");
	config_fails(BASE JOB "congestion:\n  degraded_links: {count: 99, rate: 10Gbps}\n",
	             "mem.yaml:6:", "at most 16");
}

/* Every shipped scenario (scenarios/ and its subdirectories) parses and
 * resolves its first configuration. */
static int check_dir(const char *path)
{
	int seen = 0;
	DIR *dp = opendir(path);
	cr_assert_not_null(dp, "%s missing", path);
	struct dirent *e;
	while ((e = readdir(dp))) {
		char f[4096], err[1024] = "";
		size_t L = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(f, sizeof f, "%s/%s", path, e->d_name);
		DIR *sub = opendir(f);
		if (sub) {
			closedir(sub);
			seen += check_dir(f);
			continue;
		}
		if (L < 6 || strcmp(e->d_name + L - 5, ".yaml"))
			continue;
		react_scenario_t *s = NULL;
		react_config_t *c = NULL;
		cr_assert_eq(react_scenario_load(f, &s, err, sizeof err), REACT_OK, "%s", err);
		cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s: %s", f, err);
		react_config_destroy(c);
		react_scenario_destroy(s);
		seen++;
	}
	closedir(dp);
	return seen;
}

Test(scenario, shipped_scenarios_parse)
{
	cr_assert_geq(check_dir(REACT_SOURCE_DIR "/scenarios"), 11);
}

/* ---- the driver over a synthetic backend ---- */

/* Every flow takes its bytes at 10 GB/s, or 4x longer when it touches the
 * slow host; a step ends when its slowest flow ends.  Jobs run one after the
 * other.  mode 1: skips epoch 3; mode 2: stops after 5 epochs. */
typedef struct fake {
	int mode;
	int32_t slow_host;
} fake_t;
static fake_t g_fake; /* a test-local parameter of the fake backend's run() */

static react_status_t fake_run(const react_run_cfg_t *cfg, const react_driver_cb_t *cb, char *err,
                               size_t errlen)
{
	double t = 0;
	(void)err;
	(void)errlen;
	for (int32_t j = 0; j < cfg->njobs; j++) {
		const react_job_cfg_t *jc = &cfg->jobs[j];
		for (int64_t e = 0;; e++) {
			if (g_fake.mode == 1 && e == 3)
				e = 4;
			if (g_fake.mode == 2 && e == 5)
				break;
			const react_pattern_t *p = cb->pattern_for(cb->ctx, j, e);
			if (!p)
				break;
			double *fct = calloc(p->nflows, sizeof *fct), *st = calloc(p->nflows, sizeof *st);
			double start = t;
			for (int32_t s = 0; s < p->nsteps; s++) {
				double step_end = t;
				for (size_t f = react_pattern_step_begin(p, s); f < react_pattern_step_begin(p, s + 1);
				     f++) {
					const react_flow_t *fl = &p->flows[f];
					int slow = jc->hosts[fl->src] == g_fake.slow_host ||
					           jc->hosts[fl->dst] == g_fake.slow_host;
					fct[f] = (double)fl->bytes / 10e9 * (slow ? 4.0 : 1.0);
					st[f] = t;
					if (t + fct[f] > step_end)
						step_end = t + fct[f];
				}
				t = step_end;
			}
			react_epoch_report_t rep = {j, e, start, t, p, st, fct};
			react_status_t s = cb->epoch_done(cb->ctx, &rep);
			free(fct);
			free(st);
			if (s != REACT_OK)
				return s;
		}
	}
	return REACT_OK;
}

static const react_backend_ops_t fake_backend = {"fake", fake_run, NULL, NULL, NULL};

Test(driver, baseline_records_and_summary)
{
	react_scenario_t *s = parse_ok(BASE "jobs:\n  - {name: a, ranks: 8, message: 8MB, epochs: 20, "
	                               "warmup: 5, placement: contiguous}\n");
	react_config_t *c = NULL;
	react_pair_result_t pr;
	char err[1024];
	g_fake.mode = 0;
	g_fake.slow_host = -1;
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_run_pair(&fake_backend, c, NULL, &pr, err, sizeof err), REACT_OK, "%s", err);
	const react_drive_result_t *b = pr.baseline;
	cr_assert_eq(b->nrecs, 20);
	react_pattern_t *p = NULL;
	react_gen_tree_allreduce(8, 8000000, &p);
	/* each step of the tree moves 4 MB per flow at 10 GB/s */
	double want = p->nsteps * 4e6 / 10e9;
	for (size_t i = 0; i < b->nrecs; i++) {
		cr_assert_eq(b->recs[i].epoch, (int64_t)i);
		cr_assert_float_eq(b->recs[i].time_s, want, 1e-12);
		cr_assert_float_eq(b->recs[i].algbw_gbps, 8e6 / want / 1e9, 1e-9);
		cr_assert_eq(b->recs[i].pattern_hash, react_pattern_hash(p));
		cr_assert_eq(b->recs[i].changed, 0);
	}
	cr_assert_float_eq(b->jobs[0].mean_algbw_gbps, 8e6 / want / 1e9, 1e-9);
	cr_assert_float_eq(b->jobs[0].p95_algbw_gbps, 8e6 / want / 1e9, 1e-9);
	cr_assert_eq(b->jobs[0].warmup, 5);
	cr_assert_eq(b->jobs[0].pattern_changes, 0);
	cr_assert_eq(b->jobs[0].react, 0);
	cr_assert_eq(pr.react->jobs[0].react, 1);
	/* no congestion: REACT ran its batches (B = 6) and saw every epoch */
	cr_assert_eq(pr.react->nrecs, 20);
	cr_assert_geq(pr.react->jobs[0].ctl.batches, 3);
	react_pattern_destroy(p);
	react_pair_result_clear(&pr);
	cr_assert_null(pr.baseline);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(driver, react_moves_off_a_slow_host_deterministically)
{
	react_scenario_t *s = parse_ok(BASE "jobs:\n  - {name: a, ranks: 8, message: 8MB, epochs: 60, "
	                               "warmup: 20, placement: contiguous}\n");
	react_config_t *c = NULL;
	react_pair_result_t p1, p2;
	char err[1024];
	g_fake.mode = 0;
	g_fake.slow_host = 2; /* rank 2: an interior node of the first tree */
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_run_pair(&fake_backend, c, NULL, &p1, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_run_pair(&fake_backend, c, NULL, &p2, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(p1.react->nrecs, p2.react->nrecs);
	for (size_t i = 0; i < p1.react->nrecs; i++) {
		cr_assert_eq(p1.react->recs[i].time_s, p2.react->recs[i].time_s);
		cr_assert_eq(p1.react->recs[i].pattern_hash, p2.react->recs[i].pattern_hash);
	}
	/* the pattern changed at some epoch and the change counts agree */
	int64_t changed = 0;
	for (size_t i = 0; i < p1.react->nrecs; i++)
		changed += p1.react->recs[i].changed;
	cr_assert_eq(changed, p1.react->jobs[0].pattern_changes);
	cr_assert_gt(changed, 0, "REACT never changed the pattern around a 4x slower host");
	cr_assert_geq(p1.react->jobs[0].mean_algbw_gbps, p1.baseline->jobs[0].mean_algbw_gbps,
	              "REACT made a steady slow host worse: %g < %g",
	              p1.react->jobs[0].mean_algbw_gbps, p1.baseline->jobs[0].mean_algbw_gbps);
	react_pair_result_clear(&p1);
	react_pair_result_clear(&p2);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

/* A result made from its records is the one react_drive gave (summaries to
 * the last bit); react_run_pair with a given baseline runs only REACT; a
 * record missing, out of place, extra, or with time 0 is refused. */
Test(driver, result_of_records_is_the_run)
{
	react_scenario_t *s = parse_ok(BASE "jobs:\n  - {name: a, ranks: 8, message: 8MB, epochs: 20, "
	                               "warmup: 5, placement: contiguous}\n");
	react_config_t *c = NULL;
	react_pair_result_t pr, pg;
	react_drive_result_t *r = NULL;
	char err[1024];
	g_fake.mode = 0;
	g_fake.slow_host = 2;
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_run_pair(&fake_backend, c, NULL, &pr, err, sizeof err), REACT_OK, "%s", err);
	const react_drive_result_t *b = pr.baseline;
	cr_assert_eq(react_drive_result_of_records(&c->run, c->warmup, b->recs, b->nrecs, &r, err,
	                                           sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(r->nrecs, b->nrecs);
	cr_assert_eq(memcmp(r->recs, b->recs, b->nrecs * sizeof *b->recs), 0);
	cr_assert_eq(memcmp(r->jobs, b->jobs, sizeof *b->jobs), 0, "the summaries differ");
	react_drive_result_destroy(r);
	/* given, the baseline is not run: a changed record shows in the pair */
	react_drive_result_t *edit = NULL;
	cr_assert_eq(react_drive_result_of_records(&c->run, c->warmup, b->recs, b->nrecs, &edit, err,
	                                           sizeof err), REACT_OK);
	edit->recs[10].time_s *= 2;
	react_pair_opts_t po = {.baseline = edit};
	cr_assert_eq(react_run_pair(&fake_backend, c, &po, &pg, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(pg.baseline->recs[10].time_s, 2 * b->recs[10].time_s);
	cr_assert_lt(pg.baseline->jobs[0].mean_algbw_gbps, b->jobs[0].mean_algbw_gbps);
	cr_assert_eq(pg.react->nrecs, pr.react->nrecs);
	for (size_t i = 0; i < pr.react->nrecs; i++)
		cr_assert_eq(pg.react->recs[i].time_s, pr.react->recs[i].time_s);
	react_pair_result_clear(&pg);
	/* refused: the last epoch missing, two epochs swapped, one too many, a time of 0 */
	cr_assert_eq(react_drive_result_of_records(&c->run, c->warmup, b->recs, b->nrecs - 1, &r, err,
	                                           sizeof err), REACT_EINVAL);
	cr_assert_null(r);
	cr_assert(strstr(err, "job 'a': expected epoch 19 of 20, the records end"), "%s", err);
	react_epoch_rec_t *x = malloc((b->nrecs + 1) * sizeof *x);
	memcpy(x, b->recs, b->nrecs * sizeof *x);
	x[3] = b->recs[4];
	x[4] = b->recs[3];
	cr_assert_eq(react_drive_result_of_records(&c->run, c->warmup, x, b->nrecs, &r, err,
	                                           sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "expected epoch 3 of 20, found another record"), "%s", err);
	memcpy(x, b->recs, b->nrecs * sizeof *x);
	x[b->nrecs] = b->recs[0];
	cr_assert_eq(react_drive_result_of_records(&c->run, c->warmup, x, b->nrecs + 1, &r, err,
	                                           sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "1 records after the last job's last epoch"), "%s", err);
	x[7].time_s = 0;
	cr_assert_eq(react_drive_result_of_records(&c->run, c->warmup, x, b->nrecs, &r, err,
	                                           sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "epoch 7: time 0 s, expected > 0"), "%s", err);
	free(x);
	react_drive_result_destroy(edit);
	react_pair_result_clear(&pr);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(driver, backend_errors_are_reported)
{
	react_scenario_t *s = parse_ok(BASE "jobs:\n  - {name: a, ranks: 4, epochs: 10, warmup: 2}\n");
	react_config_t *c = NULL;
	react_drive_result_t *r = NULL;
	char err[1024] = "";
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	g_fake.slow_host = -1;
	g_fake.mode = 1;
	cr_assert_eq(react_drive(&fake_backend, &c->run, NULL, &r, err, sizeof err), REACT_EBACKEND);
	cr_assert_null(r);
	cr_assert(strstr(err, "epoch 4, expected epoch 3"), "%s", err);
	g_fake.mode = 2;
	cr_assert_eq(react_drive(&fake_backend, &c->run, NULL, &r, err, sizeof err), REACT_EBACKEND);
	cr_assert(strstr(err, "finished 5 of its 10 epochs"), "%s", err);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(driver, epoch_summary_percentile)
{
	double t[20];
	for (int i = 0; i < 20; i++)
		t[i] = (double)(20 - i) * 1e-3; /* 20 ms .. 1 ms, unsorted */
	double mt, pt, mb, pb;
	react_epoch_summary(t, 20, 1000000, &mt, &pt, &mb, &pb);
	cr_assert_float_eq(mt, 10.5e-3, 1e-12);
	cr_assert_float_eq(pt, 19.05e-3, 1e-12); /* 1 + 0.95 * 19 ms */
	cr_assert_float_eq(pb, 1e6 / 19.05e-3 / 1e9, 1e-12);
	double sum = 0;
	for (int i = 0; i < 20; i++)
		sum += 1e6 / t[i] / 1e9;
	cr_assert_float_eq(mb, sum / 20, 1e-12);
	cr_assert_float_eq(react_improvement_pct(2.0, 3.0), 50.0, 1e-12);
	cr_assert_float_eq(react_improvement_pct(0.0, 3.0), 0.0, 1e-12);
}

Test(scenario, axis_names_do_not_clash_with_result_columns)
{
	react_scenario_t *s = parse_ok(BASE "jobs:\n  - {name: a, ranks: 4, message: [1MB, 2MB]}\n"
	                               "  - {name: b, ranks: 4, message: [1MB, 3MB], react: [false, true]}\n");
	cr_assert_eq(react_scenario_nconfigs(s), 8);
	cr_assert_str_eq(react_scenario_axis_name(s, 0), "a.message");
	cr_assert_str_eq(react_scenario_axis_name(s, 1), "b.message");
	cr_assert_str_eq(react_scenario_axis_name(s, 2), "b.react");
	react_config_t *c = NULL;
	char err[256];
	cr_assert_eq(react_scenario_config(s, 5, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_str_eq(c->key, "a.message=2MB b.message=1MB b.react=true");
	cr_assert_eq(c->react_on[0], 1);
	cr_assert_eq(c->react_on[1], 1);
	react_config_destroy(c);
	react_scenario_destroy(s);
}
