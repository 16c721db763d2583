/*
 * bench-flowsim: speed and memory of the flow-level backend.
 *   (a) fig5a: 8-rank tree AllReduce, 20 MB, 100 epochs, fat-tree k = 8,
 *       4 ECMP ports, 4 external flow pairs of degree p = 2 into job ranks;
 *   (b) Alibaba 720 servers, two ring AllReduce jobs of R ranks each (no
 *       shared hosts, interleaved ToRs so they share the aggregation links).
 * Prints wall time, simulated flow events per second, the ratio to the
 * target (1 s for (a), 10 s for (b)), and peak RSS of (a) run in a child
 * process at 20 MB and at 20 GB messages.  (a) also runs on the DCTCP
 * window model (backend dctcp) at MTU 1500 and 9000, beside the max-min
 * model in the same process: wall time and the ratio of the two.
 * Usage: bench-flowsim [topologies dir] [ranks per Alibaba job] [epochs]
 * Default (b): 2 x 360 ranks for 10 epochs (what fits 10 s), then 2 x 64
 * ranks for 100 epochs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "react/flowsim.h"
#include "react/generators.h"

typedef struct ctx {
	const react_pattern_t *pat[2];
	double sum_time[2];
	int64_t n[2];
} ctx_t;

static const react_pattern_t *pattern_for(void *c, int32_t job, int64_t epoch)
{
	(void)epoch;
	return ((ctx_t *)c)->pat[job];
}

static react_status_t epoch_done(void *c, const react_epoch_report_t *rep)
{
	ctx_t *x = c;
	x->sum_time[rep->job] += rep->end_s - rep->start_s;
	x->n[rep->job]++;
	return REACT_OK;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double g_fig5a_wall;

/* model: 0 max-min, else the DCTCP window model at that MTU */
static int run_fig5a_model(uint64_t bytes, int quiet, uint32_t model)
{
	react_topology_t *t = NULL;
	react_pattern_t *p = NULL;
	char err[512];
	int rc = 1;
	if (react_topo_fattree(8, 100e9, 1e-6, &t) || react_gen_tree_allreduce(8, bytes, &p))
		goto out;
	int32_t hosts[8];
	for (int i = 0; i < 8; i++)
		hosts[i] = 16 * i + (i % 4); /* one rank per pod */
	react_job_cfg_t j;
	memset(&j, 0, sizeof j);
	strcpy(j.name, "tree8");
	j.nranks = 8;
	j.hosts = hosts;
	j.epochs = 100;
	react_ext_flow_t x[4] = {{5, hosts[1], 2, 0, 0}, {37, hosts[3], 2, 0, 0},
	                         {70, hosts[4], 2, 0, 0}, {101, hosts[6], 2, 0, 0}};
	react_run_cfg_t r;
	memset(&r, 0, sizeof r);
	r.topo = t;
	r.njobs = 1;
	r.jobs = &j;
	r.next = 4;
	r.ext = x;
	r.ecmp_ports = 4;
	r.seed = 1;
	ctx_t c = {{p, NULL}, {0}, {0}};
	react_driver_cb_t cb = {&c, pattern_for, epoch_done};
	react_flowsim_stats_t st;
	double t0 = now();
	r.mtu = model;
	if ((model ? react_flowsim_run_dctcp : react_flowsim_run)(&r, &cb, &st, err, sizeof err)) {
		fprintf(stderr, "fig5a: %s\n", err);
		goto out;
	}
	double w = now() - t0;
	if (model && !quiet)
		printf("(a) on the DCTCP window model, MTU %u: wall %.3f s  time steps %llu (%.3g/s)  "
		       "mean epoch %.1f us  max queue %.1f packets\n    wall / max-min wall = %.0f\n",
		       model, w, (unsigned long long)st.rate_solves, (double)st.rate_solves / w,
		       1e6 * c.sum_time[0] / (double)c.n[0], st.max_queue_pkts, w / g_fig5a_wall);
	if (!model)
		g_fig5a_wall = w;
	if (!model && !quiet)
		printf("(a) fig5a tree AllReduce 8 ranks, %llu B, 100 epochs, fat-tree k=8, 4 ports, "
		       "8 external flows\n    wall %.4f s  flow events %llu (%.3g/s)  rate solves %llu  "
		       "mean epoch %.1f us  simulated %.4f s\n    wall / target(1 s) = %.4f\n",
		       (unsigned long long)bytes, w, (unsigned long long)st.flow_events,
		       (double)st.flow_events / w, (unsigned long long)st.rate_solves,
		       1e6 * c.sum_time[0] / (double)c.n[0], st.end_s, w / 1.0);
	rc = 0;
out:
	react_pattern_destroy(p);
	react_topology_destroy(t);
	return rc;
}

static int run_fig5a(uint64_t bytes, int quiet)
{
	return run_fig5a_model(bytes, quiet, 0);
}

static long child_rss_kb(uint64_t bytes)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(run_fig5a(bytes, 1));
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return ru.ru_maxrss;
}

static int run_alibaba(const char *dir, int32_t R, int64_t epochs)
{
	react_topology_t *t = NULL;
	react_pattern_t *p = NULL;
	char err[512], path[1024];
	int rc = 1;
	int32_t *h0 = malloc((size_t)R * sizeof *h0), *h1 = malloc((size_t)R * sizeof *h1);
	snprintf(path, sizeof path, "%s/alibaba-720.topo", dir);
	if (react_topo_read(path, &t, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	if (2 * R > t->nhosts || react_gen_ring_allreduce(R, 20000000, &p))
		goto out;
	/* hosts are numbered ToR by ToR: even hosts to job 0, odd to job 1 */
	for (int32_t i = 0; i < R; i++) {
		h0[i] = 2 * i * (t->nhosts / (2 * R));
		h1[i] = h0[i] + 1;
	}
	react_job_cfg_t j[2];
	memset(j, 0, sizeof j);
	for (int k = 0; k < 2; k++) {
		snprintf(j[k].name, sizeof j[k].name, "ring%d", k);
		j[k].nranks = R;
		j[k].hosts = k ? h1 : h0;
		j[k].epochs = epochs;
	}
	react_run_cfg_t r;
	memset(&r, 0, sizeof r);
	r.topo = t;
	r.njobs = 2;
	r.jobs = j;
	r.ecmp_ports = 4;
	r.seed = 1;
	ctx_t c = {{p, p}, {0}, {0}};
	react_driver_cb_t cb = {&c, pattern_for, epoch_done};
	react_flowsim_stats_t st;
	double t0 = now();
	if (react_flowsim_run(&r, &cb, &st, err, sizeof err)) {
		fprintf(stderr, "alibaba: %s\n", err);
		goto out;
	}
	double w = now() - t0;
	printf("(b) Alibaba 720, two ring AllReduce jobs of %d ranks, 20 MB, %lld epochs, 4 ports\n"
	       "    wall %.4f s  flow events %llu (%.3g/s)  rate solves %llu  max active %d  "
	       "mean epoch %.1f us / %.1f us\n    wall / target(10 s) = %.4f\n",
	       R, (long long)epochs, w, (unsigned long long)st.flow_events,
	       (double)st.flow_events / w, (unsigned long long)st.rate_solves, st.max_active,
	       1e6 * c.sum_time[0] / (double)c.n[0], 1e6 * c.sum_time[1] / (double)c.n[1], w / 10.0);
	rc = 0;
out:
	free(h0);
	free(h1);
	react_pattern_destroy(p);
	react_topology_destroy(t);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "topologies";
	int32_t R = argc > 2 ? atoi(argv[2]) : 360;
	int64_t epochs = argc > 3 ? atoll(argv[3]) : 10;
	if (run_fig5a(20000000, 0))
		return 1;
	long a = child_rss_kb(20000000), b = child_rss_kb(20000000000ULL);
	printf("    peak RSS of (a): %ld KiB at 20 MB, %ld KiB at 20 GB (ratio %.3f)\n", a, b,
	       a > 0 ? (double)b / (double)a : 0.0);
	if (run_fig5a_model(20000000, 0, 9000) || run_fig5a_model(20000000, 0, 1500))
		return 1;
	if (run_alibaba(dir, R, epochs))
		return 1;
	if (argc <= 2 && run_alibaba(dir, 64, 100)) /* the full 100 epochs at a size that fits */
		return 1;
	return 0;
}
