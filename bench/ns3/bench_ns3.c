/*
 * bench-ns3: cost of the ns-3 packet-level backend.
 *
 *   bench-ns3 [--epochs E] [--quick] [--backend-only]
 *
 * --backend-only: only part 1 without the plain program, so that
 * `--epochs 100` measures the paper's 100-epoch run outright.
 *
 * 1. The fig5a run (8 ranks, tree AllReduce, 20 MB, fat-tree k=8, 100 Gbps,
 *    1 us, no congestion) for E epochs (default 3) at MTU 1500 and 9000:
 *    wall time, simulated time, packet-hops and events per second, drops,
 *    and the wall time extrapolated to 100 epochs (epochs cost the same:
 *    no congestion, same pattern).
 * 2. Beside each, a plain ns-3 program (BulkSendApplication + PacketSink,
 *    stock Ipv4GlobalRouting, same links, queues and TCP settings) moving the
 *    same bytes between the same host pairs, all flows at once: the ratio
 *    of wall time per packet-hop says what the backend's machinery costs.
 * 2b. Beside each, the same run on the flow-level backend's DCTCP window
 *    model and on its max-min model: wall time (ns-3 / model) and the mean
 *    epoch time after the first on all three.
 * 3. Growth: one epoch for message sizes 2, 8, 20 MB (8 ranks) and for
 *    4, 8, 16 ranks (8 MB), MTU 9000.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "react/flowsim.h"
#include "react/generators.h"
#include "react/ns3.h"
#include "react/topology.h"

typedef struct fixed {
	const react_pattern_t *p;
	int64_t epochs;
	double sum; /* epoch times after the first */
} fixed_t;

static const react_pattern_t *pat_for(void *ctx, int32_t job, int64_t epoch)
{
	fixed_t *f = ctx;
	(void)job;
	return epoch < f->epochs ? f->p : NULL;
}

static react_status_t done(void *ctx, const react_epoch_report_t *rep)
{
	fixed_t *f = ctx;
	if (rep->epoch > 0)
		f->sum += rep->end_s - rep->start_s;
	return REACT_OK;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* mean epoch (after the first) of the last run_one, per backend */
static double g_epoch_ns3, g_epoch_win, g_epoch_mm, g_wall_win, g_wall_mm;

static int run_one(const react_topology_t *t, int32_t nranks, uint64_t bytes, int64_t epochs,
                   uint32_t mtu, react_ns3_stats_t *st, react_ns3_stats_t *plain)
{
	react_pattern_t *p = NULL;
	char err[512];
	if (react_gen_tree_allreduce(nranks, bytes, &p) != REACT_OK)
		return -1;
	int32_t *hosts = calloc((size_t)nranks, sizeof *hosts);
	/* one rank per edge switch pair: spread over pods like a scheduler would */
	for (int32_t r = 0; r < nranks; r++)
		hosts[r] = (r * 17) % t->nhosts;
	react_job_cfg_t job;
	memset(&job, 0, sizeof job);
	strcpy(job.name, "tree");
	job.nranks = nranks;
	job.hosts = hosts;
	job.collective = REACT_COLL_ALLREDUCE;
	job.algorithm = REACT_ALGO_TREE;
	job.message_bytes = bytes;
	job.epochs = epochs;
	react_run_cfg_t cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.topo = t;
	cfg.njobs = 1;
	cfg.jobs = &job;
	cfg.ecmp_ports = 4;
	cfg.mtu = mtu;
	cfg.seed = 1;
	fixed_t f = {p, epochs, 0};
	react_driver_cb_t cb = {&f, pat_for, done};
	int rc = 0;
	if (react_ns3_run_stats(&cfg, &cb, st, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "bench-ns3: %s\n", err);
		rc = -1;
	}
	g_epoch_ns3 = epochs > 1 ? f.sum / (double)(epochs - 1) : 0;
	for (int m = 0; rc == 0 && m < 2; m++) {
		fixed_t g = {p, epochs, 0};
		react_driver_cb_t cg = {&g, pat_for, done};
		double t0 = now();
		react_status_t r = m ? react_flowsim_run(&cfg, &cg, NULL, err, sizeof err)
		                     : react_flowsim_run_dctcp(&cfg, &cg, NULL, err, sizeof err);
		if (r != REACT_OK) {
			fprintf(stderr, "bench-ns3: flow-level: %s\n", err);
			rc = -1;
		}
		*(m ? &g_wall_mm : &g_wall_win) = now() - t0;
		*(m ? &g_epoch_mm : &g_epoch_win) = epochs > 1 ? g.sum / (double)(epochs - 1) : 0;
	}
	if (rc == 0 && plain) {
		/* the same bytes: every flow of one epoch, epochs times, spread evenly */
		int32_t n = (int32_t)p->nflows;
		int32_t *src = calloc((size_t)n, sizeof *src), *dst = calloc((size_t)n, sizeof *dst);
		uint64_t total = 0;
		for (int32_t i = 0; i < n; i++) {
			src[i] = hosts[p->flows[i].src];
			dst[i] = hosts[p->flows[i].dst];
			total += p->flows[i].bytes;
		}
		uint64_t per = total * (uint64_t)epochs / (uint64_t)n;
		if (react_ns3_plain_bulk(t, n, src, dst, per, mtu, plain, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "bench-ns3: plain: %s\n", err);
			rc = -1;
		}
		free(src);
		free(dst);
	}
	free(hosts);
	react_pattern_destroy(p);
	return rc;
}

static void row(const char *what, const react_ns3_stats_t *s)
{
	double run = s->wall_s - s->build_s;
	printf("  %-36s wall %7.2f s (build %5.2f)  sim %8.3f ms  %9llu pkt-hops  %5.3f Mpkt/s  "
	       "%5.3f Mev/s  drops %llu\n",
	       what, s->wall_s, s->build_s, s->sim_time_s * 1e3, (unsigned long long)s->packets,
	       s->packets / run / 1e6, s->events / run / 1e6, (unsigned long long)s->drops);
}

int main(int argc, char **argv)
{
	int64_t epochs = 3;
	int quick = 0, only = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--epochs") && i + 1 < argc)
			epochs = atoll(argv[++i]);
		else if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--backend-only"))
			only = 1;
		else {
			fprintf(stderr, "usage: bench-ns3 [--epochs E] [--quick] [--backend-only]\n");
			return 2;
		}
	}
	if (epochs < 1)
		epochs = 1;
	react_topology_t *ft = NULL;
	if (react_topo_fattree(8, 100e9, 1e-6, &ft) != REACT_OK) {
		fprintf(stderr, "bench-ns3: could not build fat-tree k=8\n");
		return 2;
	}
	printf("bench-ns3: fig5a run (8 ranks, tree AllReduce, 20 MB, fat-tree k=8, 100 Gbps, 1 us), "
	       "%lld epochs, one core\n", (long long)epochs);
	uint32_t mtus[2] = {1500, 9000};
	for (int m = 0; m < 2; m++) {
		react_ns3_stats_t s, pl;
		if (run_one(ft, 8, quick ? 2000000 : 20000000, epochs, mtus[m], &s, only ? NULL : &pl))
			return 2;
		printf("MTU %u:\n", mtus[m]);
		row("react backend", &s);
		printf("  %-36s wall %7.3f s  (ns-3 / this = %.0fx)\n", "flow-level, DCTCP window model",
		       g_wall_win, s.wall_s / g_wall_win);
		printf("  %-36s wall %7.3f s  (ns-3 / this = %.0fx)\n", "flow-level, max-min model",
		       g_wall_mm, s.wall_s / g_wall_mm);
		if (epochs > 1)
			printf("  mean epoch after the first: ns-3 %.1f us, window model %.1f us (%.3fx), "
			       "max-min %.1f us (%.3fx)\n", g_epoch_ns3 * 1e6, g_epoch_win * 1e6,
			       g_epoch_win / g_epoch_ns3, g_epoch_mm * 1e6, g_epoch_mm / g_epoch_ns3);
		if (only) {
			printf("  %lld epochs measured: %.0f s (%.1f min)\n", (long long)epochs, s.wall_s,
			       s.wall_s / 60);
			continue;
		}
		row("plain ns-3 BulkSend, global routing", &pl);
		double sr = s.wall_s - s.build_s, pr = pl.wall_s - pl.build_s;
		double e100 = s.build_s + sr / (double)epochs * 100;
		printf("  simulation wall per packet-hop (build excluded): backend / plain = %.2f\n",
		       (sr / (double)s.packets) / (pr / (double)pl.packets));
		printf("  100 epochs extrapolated: build + 100 x %.2f s = %.0f s (%.1f min)\n",
		       sr / (double)epochs, e100, e100 / 60);
	}
	if (only)
		goto out;
	printf("growth, MTU 9000, 1 epoch:\n");
	uint64_t sizes[3] = {2000000, 8000000, 20000000};
	double base = 0;
	for (int i = 0; i < 3; i++) {
		react_ns3_stats_t s;
		if (run_one(ft, 8, sizes[i], 1, 9000, &s, NULL))
			return 2;
		char what[64];
		snprintf(what, sizeof what, "8 ranks, %llu MB", (unsigned long long)(sizes[i] / 1000000));
		row(what, &s);
		if (i == 0)
			base = s.wall_s - s.build_s;
		printf("    simulation wall vs 2 MB: %.2fx\n", (s.wall_s - s.build_s) / base);
	}
	int32_t ranks[3] = {4, 8, 16};
	for (int i = 0; i < 3; i++) {
		react_ns3_stats_t s;
		if (run_one(ft, ranks[i], 8000000, 1, 9000, &s, NULL))
			return 2;
		char what[64];
		snprintf(what, sizeof what, "%d ranks, 8 MB", ranks[i]);
		row(what, &s);
		if (i == 0)
			base = s.wall_s - s.build_s;
		printf("    simulation wall vs 4 ranks: %.2fx\n", (s.wall_s - s.build_s) / base);
	}
out:
	react_topology_destroy(ft);
	return 0;
}
