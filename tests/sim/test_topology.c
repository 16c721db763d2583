/* Topology builders, files and ECMP routing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "react/routing.h"
#include "react/topology.h"

static int count_kind(const react_topology_t *t, react_node_kind_t k)
{
	int n = 0;
	for (int32_t i = 0; i < t->nnodes; i++)
		n += t->kind[i] == k;
	return n;
}

Test(topology, star_and_fattree_counts)
{
	react_topology_t *t;
	cr_assert_eq(react_topo_star(8, 100e9, 1e-6, &t), REACT_OK);
	cr_assert_eq(t->nhosts, 8);
	cr_assert_eq(t->nnodes, 9);
	cr_assert_eq(t->nlinks, 8);
	react_topology_destroy(t);
	int32_t ks[] = {2, 4, 8};
	for (int i = 0; i < 3; i++) {
		int32_t k = ks[i];
		cr_assert_eq(react_topo_fattree(k, 100e9, 1e-6, &t), REACT_OK);
		cr_assert_eq(t->nhosts, k * k * k / 4);
		cr_assert_eq(count_kind(t, REACT_NODE_TOR), k * k / 2);
		cr_assert_eq(count_kind(t, REACT_NODE_AGG), k * k / 2);
		cr_assert_eq(count_kind(t, REACT_NODE_CORE), k * k / 4);
		cr_assert_eq(t->nlinks, 3 * k * k * k / 4);
		react_topology_destroy(t);
	}
	cr_assert_eq(react_topo_fattree(7, 100e9, 1e-6, &t), REACT_EINVAL);
	cr_assert_eq(react_topo_star(1, 100e9, 1e-6, &t), REACT_EINVAL);
}

Test(topology, alibaba_counts)
{
	react_topology_t *t, *u;
	char err[512] = "";
	cr_assert_eq(react_topo_alibaba(REACT_ALIBABA_CSV, 720, 3, 100e9, 1e-6, &t, err, sizeof err),
	             REACT_OK, "%s", err);
	cr_assert_eq(t->nhosts, 720);
	cr_assert_eq(count_kind(t, REACT_NODE_TOR), 48);
	cr_assert_eq(count_kind(t, REACT_NODE_AGG), 3);
	cr_assert_eq(count_kind(t, REACT_NODE_CORE), 1);
	cr_assert_eq(t->nlinks, 720 + 48 * 3 + 3);
	for (int32_t n = 0; n < t->nnodes; n++) {
		if (t->kind[n] != REACT_NODE_TOR)
			continue;
		int aggs = 0, hosts = 0;
		for (int32_t l = 0; l < t->nlinks; l++) {
			int32_t o = t->links[l].a == n ? t->links[l].b : t->links[l].b == n ? t->links[l].a : -1;
			if (o >= 0)
				aggs += t->kind[o] == REACT_NODE_AGG, hosts += t->kind[o] == REACT_NODE_HOST;
		}
		cr_assert_eq(aggs, 3, "ToR %s", t->node_name[n]);
		cr_assert(hosts >= 3 && hosts <= 18, "ToR %s has %d hosts", t->node_name[n], hosts);
	}
	/* the shipped file is this topology */
	cr_assert_eq(react_topo_read(REACT_TOPO_DIR "/alibaba-720.topo", &u, err, sizeof err),
	             REACT_OK, "%s", err);
	cr_assert_eq(u->nnodes, t->nnodes);
	cr_assert_eq(u->nlinks, t->nlinks);
	for (int32_t i = 0; i < t->nnodes; i++)
		cr_assert_str_eq(u->node_name[i], t->node_name[i]);
	for (int32_t l = 0; l < t->nlinks; l++)
		cr_assert(u->links[l].a == t->links[l].a && u->links[l].b == t->links[l].b);
	react_topology_destroy(u);
	react_topology_destroy(t);
	cr_assert_eq(react_topo_alibaba(REACT_ALIBABA_CSV, 0, 3, 100e9, 1e-6, &t, err, sizeof err),
	             REACT_OK, "%s", err);
	cr_assert_eq(t->nhosts, 847);
	react_topology_destroy(t);
	cr_assert_eq(react_topo_alibaba(REACT_ALIBABA_CSV, 720, 4, 100e9, 1e-6, &t, err, sizeof err),
	             REACT_EINVAL);
	cr_assert(strstr(err, "aggs_per_tor"), "%s", err);
}

static char tmpdir[64];

static const char *write_file(const char *name, const char *text)
{
	static char path[128];
	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/react-topoXXXXXX");
		cr_assert(mkdtemp(tmpdir));
	}
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void expect_error(const char *name, const char *text, const char *want)
{
	react_topology_t *t = NULL;
	char err[512] = "", full[256];
	const char *p = write_file(name, text);
	react_status_t st = react_topo_read(p, &t, err, sizeof err);
	cr_assert_eq(st, REACT_EPARSE, "%s: status %d, err '%s'", name, st, err);
	cr_assert_null(t);
	snprintf(full, sizeof full, "%s%s", p, want);
	cr_assert(strstr(err, full), "got '%s', want '%s'", err, full);
	unlink(p);
}

Test(topology, file_errors)
{
	const char *nodes = "node a host\nnode b host\nnode s switch\n";
	char buf[512];
	expect_error("e1.topo", "node a host\nrouter x\n", ":2: expected 'topology', 'node' or 'link'");
	expect_error("e2.topo", "node a router\n", ":1: expected a node kind");
	expect_error("e3.topo", "node a host\nnode a host\n", ":2: node 'a' defined twice");
	expect_error("e4.topo", "node a\n", ":1: expected 'node NAME KIND'");
	snprintf(buf, sizeof buf, "%slink a x\n", nodes);
	expect_error("e5.topo", buf, ":4: expected a node defined above, got 'x'");
	snprintf(buf, sizeof buf, "%slink a s fast\n", nodes);
	expect_error("e6.topo", buf, ":4: expected a rate like 100Gbps, got 'fast'");
	snprintf(buf, sizeof buf, "%s# comment\n\nlink a s 100Gbps soon\n", nodes);
	expect_error("e7.topo", buf, ":6: expected a delay like 1us, got 'soon'");
	snprintf(buf, sizeof buf, "%slink a a\n", nodes);
	expect_error("e8.topo", buf, ":4: expected two different nodes");
	expect_error("e9.topo", "node s switch\n", ":1: expected at least one 'node NAME host'");
	expect_error("e10.topo", "# nothing\n", ":1: expected a topology, found an empty file");
	expect_error("h1.txt", "3 1\n", ":1: expected 'total_nodes switch_nodes links'");
	expect_error("h2.txt", "3 2 2\n2\n", ":2: expected 2 switch ids, found 1");
	expect_error("h3.txt", "3 1 2\n7\n", ":2: expected a switch id in 0..2, got '7'");
	expect_error("h4.txt", "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps\n",
	             ":4: expected 'src dst rate delay error_rate'");
	expect_error("h5.txt", "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 quick 1us 0\n",
	             ":4: expected a rate like 100Gbps, got 'quick'");
	expect_error("h6.txt", "3 1 2\n2\n0 2 100Gbps 1us 0\n", ":3: expected 2 links, found 1");
	expect_error("h7.txt", "3 1 1\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n",
	             ":4: expected the end of the file after 1 links");
	expect_error("h8.txt", "3 1 1\n2\n0 9 100Gbps 1us 0\n", ":3: expected node ids in 0..2");
	expect_error("h9.txt", "3 1 1\n2\n0 2 100Gbps 1us 2\n",
	             ":3: expected an error rate in [0,1], got '2'");
	expect_error("s1.txt", "4 2 1 1 2\n", ":1: expected 'total_nodes switch_nodes links' (HPCC) "
	             "or 'nodes gpus_per_server nvswitches switches links gpu_type' (SimAI), got 5 fields");
	expect_error("s2.txt", "4 2 1 1 2 7\n", ":1: expected SimAI's 'nodes gpus_per_server "
	             "nvswitches switches links gpu_type [ngpus_per_node]'");
	expect_error("s3.txt", "4 2 3 2 2 H100\n", ":1: 3 NVSwitches and 2 switches are more than the "
	             "4 nodes");
	expect_error("s4.txt", "4 2 1 1 2 H100\n2\n", ":2: expected 2 switch ids, found 1");
	expect_error("s5.txt", "4 2 1 1 2 H100\n2 3\n0 2 900Gbps 1 0\n",
	             ":3: expected a delay like 0.001ms, got '1'");
	/* found by fuzzing: a header alone asked for ten million nodes */
	expect_error("f3.txt", "10000000 0 1\n0 1 100Gbps 1us 0\n",
	             ":1: 10000000 hosts (nodes not listed as switches) and 1 links: some host has "
	             "no link, so it cannot reach the other hosts");
	/* so a host without a link is an error in every format, where it is defined */
	expect_error("f4.topo", "node a host\nnode b host\nnode c host\nnode s switch\nlink a s\n"
	             "link b s\n", ":3: host 'c' has no link: it cannot reach the other hosts");
	expect_error("f5.txt", "# c\n4 1 2\n3\n0 3 100Gbps 1us 0\n1 3 100Gbps 1us 0\n",
	             ":2: host n2 (not listed as a switch) has no link: it cannot reach the other "
	             "hosts");
	/* found by fuzzing: a rate that overflows a double was read as inf */
	snprintf(buf, sizeof buf, "%slink a s 1e308Gbps\n", nodes);
	expect_error("f1.topo", buf, ":4: expected a rate like 100Gbps, got '1e308Gbps'");
	expect_error("f2.txt", "3 1 1\n2\n0 2 1e300TBps 1us 0\n",
	             ":3: expected a rate like 100Gbps, got '1e300TBps'");
	rmdir(tmpdir);
}

Test(topology, own_format_defaults_and_round_trip)
{
	react_topology_t *t, *u;
	char err[512];
	const char *p = write_file("ok.topo", "topology tiny\nnode h0 host\nnode h1 host\nnode t0 tor\n"
	                                     "link h0 t0\nlink h1 t0 25Gbps 500ns # slow\n");
	cr_assert_eq(react_topo_read(p, &t, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_str_eq(t->name, "tiny");
	cr_assert_eq(t->nhosts, 2);
	cr_assert_eq(t->links[0].rate_bps, 100e9);
	cr_assert_eq(t->links[0].delay_s, 1e-6);
	cr_assert_eq(t->links[1].rate_bps, 25e9);
	cr_assert(fabs(t->links[1].delay_s - 500e-9) < 1e-18);
	cr_assert_eq(react_topo_write(t, p, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_topo_read(p, &u, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(u->nlinks, 2);
	cr_assert_eq(u->kind[2], REACT_NODE_TOR);
	cr_assert_eq(u->links[1].rate_bps, 25e9);
	cr_assert(fabs(u->links[1].delay_s - 500e-9) < 1e-18);
	react_topology_destroy(t);
	react_topology_destroy(u);
	unlink(p);
	rmdir(tmpdir);
}

Test(topology, hpcc_round_trip)
{
	react_topology_t *t, *u;
	char err[512];
	cr_assert_eq(react_topo_fattree(4, 100e9, 1e-6, &t), REACT_OK);
	t->links[3].rate_bps = 40e9;
	t->links[5].delay_s = 2.5e-6;
	const char *p = write_file("ft.txt", "");
	cr_assert_eq(react_topo_write_hpcc(t, p, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_topo_read(p, &u, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(u->nnodes, t->nnodes);
	cr_assert_eq(u->nhosts, t->nhosts);
	cr_assert_eq(u->nlinks, t->nlinks);
	for (int32_t i = 0; i < t->nhosts; i++)
		cr_assert_eq(u->host_node[i], t->host_node[i]);
	for (int32_t l = 0; l < t->nlinks; l++) {
		cr_assert(u->links[l].a == t->links[l].a && u->links[l].b == t->links[l].b);
		cr_assert(fabs(u->links[l].rate_bps - t->links[l].rate_bps) < 1);
		cr_assert(fabs(u->links[l].delay_s - t->links[l].delay_s) < 1e-15);
	}
	react_topology_destroy(t);
	react_topology_destroy(u);
	unlink(p);
	rmdir(tmpdir);
	cr_assert_eq(react_topo_read(REACT_TOPO_DIR "/hpcc-star-4.txt", &t, err, sizeof err), REACT_OK,
	             "%s", err);
	cr_assert_eq(t->nhosts, 4);
	cr_assert_eq(t->nlinks, 4);
	react_topology_destroy(t);
}

/* A file as SimAI's own generator writes it (gen_Topo_Template.py,
 * Rail_Opti_SingleToR, 16 H20 GPUs, 8 per server, one NVSwitch per server,
 * 8 ToRs (one per rail) and 8 aggregation switches): the six-field header,
 * the NVSwitch and switch ids on one line with a trailing blank, link lines
 * with units and an error rate. */
/* 300k hosts on one switch, 600k statements: linear reading takes about a
 * second; the former name search per statement (quadratic: 40k nodes took
 * 6 s) would take about 6 minutes, past the test's timeout. */
Test(topology, big_file_reads_in_linear_time, .timeout = 120)
{
	enum { N = 300000 };
	react_topology_t *t;
	char err[512] = "";
	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/react-topoXXXXXX");
		cr_assert(mkdtemp(tmpdir));
	}
	char path[128];
	snprintf(path, sizeof path, "%s/big.topo", tmpdir);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	for (int i = 0; i < N; i++)
		fprintf(f, "node host%d host\n", i);
	fprintf(f, "node s switch\n");
	for (int i = 0; i < N; i++)
		fprintf(f, "link host%d s 100Gbps 1us\n", i);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(react_topo_read(path, &t, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(t->nhosts, N);
	cr_assert_eq(t->nlinks, N);
	cr_assert_eq(t->links[N - 1].a, N - 1);
	cr_assert_eq(t->links[N - 1].b, N);
	react_topology_destroy(t);
	unlink(path);
	rmdir(tmpdir);
}

Test(topology, simai_generator_file)
{
	react_topology_t *t;
	react_routing_t *r;
	char err[512];
	cr_assert_eq(react_topo_read(REACT_TOPO_DIR "/simai-rail-16g.txt", &t, err, sizeof err),
	             REACT_OK, "%s", err);
	cr_assert_eq(t->nnodes, 34);
	cr_assert_eq(t->nhosts, 16);
	cr_assert_eq(t->nlinks, 96);
	cr_assert_eq(count_kind(t, REACT_NODE_SWITCH), 18);
	for (int32_t h = 0; h < 16; h++)
		cr_assert_eq(t->host_node[h], h, "GPU %d is node %d", h, t->host_node[h]);
	cr_assert_str_eq(t->node_name[16], "n16");
	/* 0 16 900Gbps 0.000025ms 0: NVLink to the server's NVSwitch */
	cr_assert_eq(t->links[0].a, 0);
	cr_assert_eq(t->links[0].b, 16);
	cr_assert_float_eq(t->links[0].rate_bps, 900e9, 1);
	cr_assert_float_eq(t->links[0].delay_s, 25e-9, 1e-18);
	/* 0 18 200Gbps 0.001ms 0: the GPU's NIC to its rail's ToR */
	cr_assert_eq(t->links[1].b, 18);
	cr_assert_float_eq(t->links[1].rate_bps, 200e9, 1);
	cr_assert_float_eq(t->links[1].delay_s, 1e-6, 1e-18);
	cr_assert_float_eq(t->links[95].rate_bps, 400e9, 1);
	cr_assert_eq(react_routing_create(t, &r, err, sizeof err), REACT_OK, "%s", err);
	int32_t p[8], len;
	/* same server: over the NVSwitch */
	cr_assert_eq(react_routing_path(r, 0, 1, 0, 1, p, 8, &len), REACT_OK);
	cr_assert_eq(len, 2);
	cr_assert_eq(react_dlink_to(t, p[0]), 16);
	/* same rail, other server: over the rail's ToR */
	cr_assert_eq(react_routing_path(r, 0, 8, 0, 1, p, 8, &len), REACT_OK);
	cr_assert_eq(len, 2);
	cr_assert_eq(react_dlink_to(t, p[0]), 18);
	/* other rail, other server: ToR, one of 8 aggregation switches, ToR */
	cr_assert_eq(react_routing_path(r, 0, 9, 0, 1, p, 8, &len), REACT_OK);
	cr_assert_eq(len, 4);
	cr_assert_eq(react_routing_next_hops(r, 18, 9, p, 8), 8);
	react_routing_destroy(r);
	react_topology_destroy(t);
}

Test(routing, ecmp_paths_fattree)
{
	react_topology_t *t;
	react_routing_t *r;
	char err[256];
	cr_assert_eq(react_topo_fattree(8, 100e9, 1e-6, &t), REACT_OK);
	cr_assert_eq(react_routing_create(t, &r, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_routing_diameter(r), 6);
	int32_t p[8], q[8], len, len2;
	int used[16] = {0};
	for (uint32_t port = 0; port < 400; port++) {
		cr_assert_eq(react_routing_path(r, 0, 127, port, 42, p, 8, &len), REACT_OK);
		cr_assert_eq(len, 6);
		/* a valid walk from host 0 to host 127 */
		cr_assert_eq(react_dlink_from(t, p[0]), t->host_node[0]);
		for (int i = 1; i < len; i++)
			cr_assert_eq(react_dlink_from(t, p[i]), react_dlink_to(t, p[i - 1]));
		cr_assert_eq(react_dlink_to(t, p[len - 1]), t->host_node[127]);
		int32_t core = react_dlink_to(t, p[2]);
		cr_assert_eq(t->kind[core], REACT_NODE_CORE);
		used[core - (t->nnodes - 16)]++;
		/* one port keeps its path */
		cr_assert_eq(react_routing_path(r, 0, 127, port, 42, q, 8, &len2), REACT_OK);
		cr_assert_eq(memcmp(p, q, sizeof(int32_t) * 6), 0);
	}
	for (int c = 0; c < 16; c++)
		cr_assert(used[c] >= 10, "core %d used by %d of 400 ports", c, used[c]);
	/* another seed changes some paths */
	int differ = 0;
	for (uint32_t port = 0; port < 50; port++) {
		react_routing_path(r, 0, 127, port, 42, p, 8, &len);
		react_routing_path(r, 0, 127, port, 43, q, 8, &len2);
		differ += memcmp(p, q, sizeof(int32_t) * 6) != 0;
	}
	cr_assert(differ > 0);
	/* same edge switch: 2 hops; same pod: 4 */
	cr_assert_eq(react_routing_path(r, 0, 1, 5, 42, p, 8, &len), REACT_OK);
	cr_assert_eq(len, 2);
	cr_assert_eq(react_routing_path(r, 0, 5, 5, 42, p, 8, &len), REACT_OK);
	cr_assert_eq(len, 4);
	cr_assert_eq(react_routing_next_hops(r, t->host_node[0], 127, p, 8), 1);
	cr_assert_eq(react_routing_next_hops(r, react_dlink_to(t, p[0]), 127, q, 8), 4);
	react_routing_destroy(r);
	react_topology_destroy(t);
}

Test(routing, unreachable_host)
{
	react_topology_t *t;
	react_routing_t *r;
	char err[256] = "";
	const char *p = write_file("split.topo", "node a host\nnode b host\nnode c host\nnode s switch\n"
	                                        "node u switch\nlink a s\nlink b s\nlink c u\n");
	cr_assert_eq(react_topo_read(p, &t, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_routing_create(t, &r, err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "cannot reach"), "%s", err);
	react_topology_destroy(t);
	unlink(p);
	rmdir(tmpdir);
}

/* Distances are kept only for the hosts paths go to: a 20,000-host star
 * needed 1.6 GB when every host's were made up front (nhosts x nnodes
 * int32); now the routing and a few hundred paths stay within tens of MB. */
Test(routing, memory_grows_with_destinations_used, .timeout = 120)
{
	enum { N = 20000 };
	react_topology_t *t;
	react_routing_t *r;
	struct rusage before, after;
	char err[256] = "";
	int32_t p[8], len;
	getrusage(RUSAGE_SELF, &before);
	cr_assert_eq(react_topo_star(N, 100e9, 1e-6, &t), REACT_OK);
	cr_assert_eq(react_routing_create(t, &r, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_routing_diameter(r), 2);
	for (int32_t i = 0; i < 200; i++) {
		int32_t src = (i * 7919) % N, dst = (i * 104729 + 1) % N;
		if (src == dst)
			continue;
		cr_assert_eq(react_routing_path(r, src, dst, (uint32_t)i, 1, p, 8, &len), REACT_OK);
		cr_assert_eq(len, 2);
		cr_assert_eq(react_dlink_from(t, p[0]), t->host_node[src]);
		cr_assert_eq(react_dlink_to(t, p[1]), t->host_node[dst]);
	}
	getrusage(RUSAGE_SELF, &after);
	long grown_mb = (after.ru_maxrss - before.ru_maxrss) / 1024;
	cr_assert_lt(grown_mb, 150, "routing a %d-host star took %ld MB", N, grown_mb);
	react_routing_destroy(r);
	react_topology_destroy(t);
}

/* Hosts with the same neighbours are checked by one BFS: the first host of
 * a group that cannot reach another group is still the one named. */
Test(routing, unreachable_group_named)
{
	react_topology_t *t;
	react_routing_t *r;
	char err[256] = "";
	const char *p = write_file("groups.topo",
	                           "node a host\nnode b host\nnode c host\nnode d host\n"
	                           "node s switch\nnode u switch\n"
	                           "link a s\nlink b u\nlink c s\nlink d u\n");
	cr_assert_eq(react_topo_read(p, &t, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_routing_create(t, &r, err, sizeof err), REACT_EINVAL);
	cr_assert(strstr(err, "host b cannot reach host a"), "%s", err);
	react_topology_destroy(t);
	unlink(p);
	rmdir(tmpdir);
}
