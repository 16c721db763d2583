/* The network part of a scenario (react/netconfig.h): the catalogue of its
 * fields, and their resolution without the runner, checked against what
 * the runner resolves from a scenario file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/netconfig.h"
#include "react/scenario.h"

/* The keys of `section` (stage `stage` at the top level) joined with ", ". */
static const char *keys_of(const char *section, react_net_stage_t stage)
{
	static char buf[512];
	const char *k[REACT_NET_NFIELDS + 8];
	size_t n = react_net_keys(section, stage, k, sizeof k / sizeof k[0]);
	buf[0] = 0;
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "", k[i]);
	return buf;
}

Test(netconfig, catalogue_keys)
{
	cr_assert_str_eq(keys_of("", REACT_NET_BEFORE_JOBS), "topology, ecmp_ports, mtu");
	cr_assert_str_eq(keys_of("", REACT_NET_AFTER_JOBS), "congestion");
	cr_assert_str_eq(keys_of("topology", REACT_NET_BEFORE_JOBS),
	                 "type, hosts, k, file, csv, aggs_per_tor, path, rate, delay");
	cr_assert_str_eq(keys_of("congestion", REACT_NET_AFTER_JOBS), "external, degraded_links");
	cr_assert_str_eq(keys_of("congestion.external", REACT_NET_AFTER_JOBS),
	                 "job, congested_pairs, p, start, end");
	cr_assert_str_eq(keys_of("congestion.degraded_links", REACT_NET_AFTER_JOBS), "count, rate");
	cr_assert_str_eq(keys_of("jobs", REACT_NET_BEFORE_JOBS), "");
	cr_assert_str_eq(keys_of("topo", REACT_NET_BEFORE_JOBS), "");
	/* fewer slots than keys: the count is still the whole */
	const char *two[2];
	cr_assert_eq(react_net_keys("topology", REACT_NET_BEFORE_JOBS, two, 2), 9);
	cr_assert_str_eq(two[1], "hosts");
	/* every field is a key its section allows, and a required-with names one */
	for (int f = 0; f < REACT_NET_NFIELDS; f++) {
		const react_net_field_def_t *d = react_net_field_def(f);
		char list[512];
		snprintf(list, sizeof list, ", %s, ", keys_of(d->section, d->stage));
		char key[80];
		snprintf(key, sizeof key, ", %s, ", d->key);
		cr_assert(strstr(list, key), "field %d (%s) is not among %s", f, d->key, list);
		if (d->required_with) {
			snprintf(key, sizeof key, ", %s, ", d->required_with);
			cr_assert(strstr(list, key), "%s: required with %s", d->key, d->required_with);
		}
		cr_assert(d->type != REACT_NET_CHOICE || (d->choices && d->desc));
	}
	cr_assert_null(react_net_field_def(REACT_NET_NFIELDS));
}

/* Values for react_net_in_t: str per field, where "net.yaml:<field index>". */
typedef struct vals {
	react_net_value_t v[REACT_NET_NFIELDS];
	char where[REACT_NET_NFIELDS][32];
	char path[REACT_NET_NFIELDS][80];
} vals_t;

static void vals_init(vals_t *vs)
{
	memset(vs, 0, sizeof *vs);
	for (int f = 0; f < REACT_NET_NFIELDS; f++) {
		const react_net_field_def_t *d = react_net_field_def(f);
		snprintf(vs->where[f], sizeof vs->where[f], "net.yaml:%d", f + 1);
		snprintf(vs->path[f], sizeof vs->path[f], "%s%s%s", d->section,
		         d->section[0] ? "." : "", d->key);
		vs->v[f].where = vs->where[f];
		vs->v[f].path = vs->path[f];
	}
}

/* Star of 12 hosts; job a: 4 ranks contiguous from host 2, job b: 5 ranks
 * sharing 2 hosts with a; 2 congested pairs from b, p = 3; 3 degraded links. */
static void resolve(uint64_t seed, react_run_cfg_t *run, react_topology_t **topo,
                    int32_t hosts[2][5])
{
	vals_t vs;
	char err[512] = "";
	int64_t nranks[] = {4, 5};
	react_net_t *net = NULL;
	vals_init(&vs);
	vs.v[REACT_NET_TOPO_TYPE].str = "star";
	vs.v[REACT_NET_TOPO_HOSTS].str = "12";
	vs.v[REACT_NET_TOPO_RATE].str = "25Gbps";
	vs.v[REACT_NET_EXT_JOB].str = "b";
	vs.v[REACT_NET_EXT_PAIRS].str = "2";
	vs.v[REACT_NET_EXT_P].str = "3";
	vs.v[REACT_NET_EXT_START].str = "1ms";
	vs.v[REACT_NET_DEG_COUNT].str = "3";
	vs.v[REACT_NET_DEG_RATE].str = "10Gbps";
	vs.v[REACT_NET_MTU].str = "9000";
	react_net_in_t in = {vs.v, "net.yaml:1", ".", 2, nranks, seed};
	cr_assert_eq(react_net_open(&in, &net, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_net_topology(net)->nhosts, 12);
	react_net_job_t a = {.name = "a", .nranks = 4, .ranks_where = "net.yaml:40",
	                     .placement = REACT_PLACE_CONTIGUOUS, .placement_where = "net.yaml:41",
	                     .start = 2};
	react_net_job_t b = {.name = "b", .nranks = 5, .ranks_where = "net.yaml:50",
	                     .placement = REACT_PLACE_OVERLAP, .placement_where = "net.yaml:51",
	                     .placement_path = "jobs.b.placement.shared", .overlap = 0, .shared = 2};
	cr_assert_eq(react_net_place(net, &a, hosts[0], err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_net_place(net, &b, hosts[1], err, sizeof err), REACT_OK, "%s", err);
	memset(run, 0, sizeof *run);
	cr_assert_eq(react_net_finish(net, run, topo, err, sizeof err), REACT_OK, "%s", err);
	react_net_destroy(net);
}

Test(netconfig, resolves_without_the_runner)
{
	react_run_cfg_t run, again;
	react_topology_t *topo, *topo2;
	int32_t h[2][5] = {{0}}, h2[2][5] = {{0}};
	resolve(7, &run, &topo, h);
	cr_assert_eq(run.topo, topo);
	cr_assert_eq(topo->links[0].rate_bps, 25e9);
	cr_assert_eq(run.ecmp_ports, 4);
	cr_assert_eq(run.mtu, 9000);
	for (int r = 0; r < 4; r++)
		cr_assert_eq(h[0][r], 2 + r);
	int shared = 0;
	for (int r = 0; r < 5; r++) {
		cr_assert(h[1][r] >= 0 && h[1][r] < 12);
		for (int q = 0; q < 4; q++)
			shared += h[1][r] == h[0][q];
	}
	cr_assert_eq(shared, 2);
	cr_assert_eq(run.next, 2);
	for (size_t i = 0; i < run.next; i++) {
		int in_b = 0, in_any = 0;
		for (int r = 0; r < 5; r++)
			in_b |= run.ext[i].src_host == h[1][r];
		for (int j = 0; j < 2; j++)
			for (int r = 0; r < (j ? 5 : 4); r++)
				in_any |= run.ext[i].dst_host == h[j][r];
		cr_assert(in_b && !in_any, "flow %zu: %d -> %d", i, run.ext[i].src_host,
		          run.ext[i].dst_host);
		cr_assert_eq(run.ext[i].count, 3);
		cr_assert_float_eq(run.ext[i].start_s, 1e-3, 1e-15);
	}
	cr_assert_eq(run.ndegraded, 3);
	for (size_t i = 0; i < run.ndegraded; i++)
		cr_assert(run.degraded[i].link < topo->nlinks && run.degraded[i].rate_bps == 10e9);
	/* the same seed: the same hosts, flows and links */
	resolve(7, &again, &topo2, h2);
	cr_assert_arr_eq(h, h2, sizeof h);
	cr_assert_arr_eq(run.ext, again.ext, run.next * sizeof *run.ext);
	cr_assert_arr_eq(run.degraded, again.degraded, run.ndegraded * sizeof *run.degraded);
	free(run.ext);
	free(run.degraded);
	free(again.ext);
	free(again.degraded);
	react_topology_destroy(topo);
	react_topology_destroy(topo2);
}

Test(netconfig, errors_name_where_the_field_is)
{
	vals_t vs;
	char err[512] = "";
	int64_t nranks[] = {3};
	int32_t hosts[3];
	react_net_t *net = NULL;
	react_run_cfg_t run;
	react_topology_t *topo;
	vals_init(&vs);
	react_net_in_t in = {vs.v, "net.yaml:1", ".", 1, nranks, 1};
	vs.v[REACT_NET_TOPO_TYPE].str = "star";
	cr_assert_eq(react_net_open(&in, &net, err, sizeof err), REACT_EINVAL);
	cr_assert_null(net);
	cr_assert_str_eq(err, "net.yaml:3: field 'topology.hosts': required for a star topology");
	vs.v[REACT_NET_TOPO_TYPE].str = "fattree";
	vs.v[REACT_NET_TOPO_K].str = "6";
	cr_assert_eq(react_net_open(&in, &net, err, sizeof err), REACT_OK, "%s", err);
	react_net_job_t j = {.name = "a", .nranks = 3, .ranks_where = "net.yaml:40",
	                     .placement = REACT_PLACE_HOSTS, .placement_where = "net.yaml:41",
	                     .placement_path = "jobs.a.placement.hosts",
	                     .hosts = (const int32_t[]){1, 54, 2}, .nhosts = 3};
	cr_assert_eq(react_net_place(net, &j, hosts, err, sizeof err), REACT_EINVAL);
	cr_assert_str_eq(err, "net.yaml:41: field 'jobs.a.placement.hosts': host 54 is beyond the "
	                      "topology (hosts 0..53)");
	/* a failed placement places nothing: the job can be placed again */
	j.hosts = (const int32_t[]){1, 53, 2};
	cr_assert_eq(react_net_place(net, &j, hosts, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_net_place(net, &j, hosts, err, sizeof err), REACT_EINVAL);
	vs.v[REACT_NET_DEG_COUNT].str = "500";
	cr_assert_eq(react_net_finish(net, &run, &topo, err, sizeof err), REACT_EINVAL);
	cr_assert_str_eq(err, "net.yaml:17: field 'congestion.degraded_links.count': expected at "
	                      "most 162 (the topology's links), got 500");
	react_net_destroy(net);
}

/* The runner hands the resolver what the scenario says: a scenario file
 * resolves to what direct calls give. */
Test(netconfig, the_runner_resolves_the_same)
{
	static const char text[] =
	    "seed: 7\n"
	    "topology: {type: star, hosts: 12, rate: 25Gbps}\n"
	    "mtu: 9000\n"
	    "jobs:\n"
	    "  - {name: a, ranks: 4, placement: {start: 2}}\n"
	    "  - {name: b, ranks: 5, placement: {overlap: a, shared: 2}}\n"
	    "congestion:\n"
	    "  external: {job: b, congested_pairs: 2, p: 3, start: 1ms}\n"
	    "  degraded_links: {count: 3, rate: 10Gbps}\n";
	react_scenario_t *s = NULL;
	react_config_t *c = NULL;
	char err[512] = "";
	cr_assert_eq(react_scenario_parse(text, strlen(text), "net.yaml", &s, err, sizeof err),
	             REACT_OK, "%s", err);
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	react_run_cfg_t run;
	react_topology_t *topo;
	int32_t h[2][5];
	resolve(7, &run, &topo, h);
	cr_assert_arr_eq(c->run.jobs[0].hosts, h[0], 4 * sizeof **h);
	cr_assert_arr_eq(c->run.jobs[1].hosts, h[1], 5 * sizeof **h);
	cr_assert_eq(c->run.next, run.next);
	cr_assert_arr_eq(c->run.ext, run.ext, run.next * sizeof *run.ext);
	cr_assert_eq(c->run.ndegraded, run.ndegraded);
	cr_assert_arr_eq(c->run.degraded, run.degraded, run.ndegraded * sizeof *run.degraded);
	cr_assert_eq(c->run.mtu, run.mtu);
	cr_assert_eq(c->run.ecmp_ports, run.ecmp_ports);
	cr_assert_eq(c->topo->nlinks, topo->nlinks);
	cr_assert_eq(c->topo->links[0].rate_bps, topo->links[0].rate_bps);
	free(run.ext);
	free(run.degraded);
	react_topology_destroy(topo);
	react_config_destroy(c);
	react_scenario_destroy(s);
}
