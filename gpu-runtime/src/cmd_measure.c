/*
 * cmd_measure.c - react-gpu kernels | overhead | switch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef REACT_HAVE_CUDA
#include <cuda_runtime.h>
#include "kernels.h"
#endif

#include "gpu_cmds.h"
#include "react/generators.h"
#include "react/rt.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_d);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* common options: --transport --ranks --bytes --epochs --pattern */
typedef struct mopts {
	react_transport_t transport;
	int32_t nranks;
	uint64_t bytes;
	int epochs;
	const char *pattern;
} mopts_t;

static int parse_mopts(const char *cmd, int argc, char **argv, mopts_t *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v) {
			fprintf(stderr, "react-gpu %s: option %s needs a value\n", cmd, a);
			return 2;
		}
		if (!strcmp(a, "--transport")) {
			if (react_transport_parse(v, &o->transport) != REACT_OK) {
				fprintf(stderr, "react-gpu %s: --transport: expected host, local or nccl, got '%s'\n", cmd, v);
				return 2;
			}
		} else if (!strcmp(a, "--ranks")) {
			o->nranks = atoi(v);
		} else if (!strcmp(a, "--bytes")) {
			if (react_gpu_parse_size(v, &o->bytes) || !o->bytes) {
				fprintf(stderr, "react-gpu %s: --bytes: expected a size like 64M, got '%s'\n", cmd, v);
				return 2;
			}
		} else if (!strcmp(a, "--epochs")) {
			o->epochs = atoi(v);
		} else if (!strcmp(a, "--pattern")) {
			o->pattern = v;
		} else {
			fprintf(stderr, "react-gpu %s: unknown option '%s'\n", cmd, a);
			return 2;
		}
		i++;
	}
	if (o->epochs < 3) {
		fprintf(stderr, "react-gpu %s: --epochs must be >= 3\n", cmd);
		return 2;
	}
	return 0;
}

int react_gpu_cmd_kernels(int argc, char **argv)
{
	mopts_t o = {.transport = REACT_TRANSPORT_LOCAL, .nranks = 2, .bytes = 1ull << 30, .epochs = 20};
	int rc = parse_mopts("kernels", argc, argv, &o);
	if (rc)
		return rc;
#ifndef REACT_HAVE_CUDA
	fprintf(stderr, "react-gpu kernels: this build has no CUDA\n");
	return 1;
#else
	void *d = NULL, *s0 = NULL, *s1 = NULL;
	cudaStream_t st;
	cudaEvent_t e0, e1;
	size_t B = (size_t)o.bytes;
	if (cudaMalloc(&d, B) || cudaMalloc(&s0, B) || cudaMalloc(&s1, B) || cudaStreamCreate(&st) ||
	    cudaEventCreate(&e0) || cudaEventCreate(&e1)) {
		fprintf(stderr, "react-gpu kernels: cannot allocate 3 x %zu bytes on the GPU\n", B);
		return 1;
	}
	cudaMemset(d, 0, B);
	cudaMemset(s0, 0, B);
	cudaMemset(s1, 0, B);
	/* real data, not zeros: fill with the runtime's input values */
	react_cu_fill(s0, 0, 1, B / 4, 0, B / 4, st);
	react_cu_fill(s1, 0, 2, B / 4, 0, B / 4, st);
	react_cu_fill(d, 0, 3, B / 4, 0, B / 4, st);
	printf("# react-gpu kernels: %zu bytes per buffer, %d repetitions, GB/s = bytes read + written / time\n",
	       B, o.epochs);
	printf("# %-22s %8s %10s %10s\n", "kernel", "type", "time(us)", "GB/s");
	const char *dn[] = {"float", "half", "bfloat16"};
	for (int v = 0; v < 2 + 3 * 2; v++) {
		int dt = v < 2 ? 0 : (v - 2) / 2, nsrc = v < 2 ? 0 : 1 + (v - 2) % 2;
		double moved = nsrc ? (double)(nsrc + 2) * (double)B : 2.0 * (double)B;
		for (int w = 0; w < 3; w++) { /* warm-up */
			if (v == 0)
				cudaMemcpyAsync(d, s0, B, cudaMemcpyDeviceToDevice, st);
			else if (v == 1)
				react_cu_copy(d, s0, B, st);
			else {
				const void *src[2] = {s0, s1};
				react_cu_reduce(d, src, nsrc, B / (dt ? 2 : 4), dt, st);
			}
		}
		cudaEventRecord(e0, st);
		for (int r = 0; r < o.epochs; r++) {
			if (v == 0)
				cudaMemcpyAsync(d, s0, B, cudaMemcpyDeviceToDevice, st);
			else if (v == 1)
				react_cu_copy(d, s0, B, st);
			else {
				const void *src[2] = {s0, s1};
				react_cu_reduce(d, src, nsrc, B / (dt ? 2 : 4), dt, st);
			}
		}
		cudaEventRecord(e1, st);
		cudaError_t ce = cudaEventSynchronize(e1);
		if (ce != cudaSuccess || cudaGetLastError() != cudaSuccess) {
			fprintf(stderr, "react-gpu kernels: %s\n", cudaGetErrorString(ce));
			return 1;
		}
		float ms = 0;
		cudaEventElapsedTime(&ms, e0, e1);
		double t = 1e-3 * ms / o.epochs;
		char name[32];
		if (v == 0)
			snprintf(name, sizeof name, "cudaMemcpyAsync D2D");
		else if (v == 1)
			snprintf(name, sizeof name, "copy kernel (16B)");
		else
			snprintf(name, sizeof name, "reduce, %d source%s", nsrc, nsrc > 1 ? "s" : "");
		printf("  %-22s %8s %10.1f %10.1f\n", name, v < 2 ? "-" : dn[dt], t * 1e6, moved / t / 1e9);
	}
	cudaFree(d);
	cudaFree(s0);
	cudaFree(s1);
	return 0;
#endif
}

static int mkrt(const mopts_t *o, int timed, react_rt_t **rt)
{
	react_rt_cfg_t cfg;
	react_rt_cfg_default(&cfg);
	cfg.transport = o->transport;
	cfg.nranks = o->nranks;
	cfg.max_bytes = o->bytes + 4096;
	cfg.timed = timed;
	char err[320];
	if (react_rt_create(&cfg, rt, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react-gpu: %s\n", err);
		return 1;
	}
	return 0;
}

static react_pattern_t *gen(const char *name, int32_t n, uint64_t bytes)
{
	react_collective_t c;
	react_algorithm_t a;
	react_pattern_t *p = NULL;
	if (react_gpu_pattern_name(name, &c, &a)) {
		fprintf(stderr, "react-gpu: unknown pattern '%s'\n", name);
		return NULL;
	}
	uint64_t unit = 4ull * (uint64_t)n;
	bytes = bytes / unit * unit;
	if (react_pattern_generate(c, a, n, bytes ? bytes : unit, &p) != REACT_OK) {
		fprintf(stderr, "react-gpu: cannot generate '%s' for %d ranks\n", name, n);
		return NULL;
	}
	return p;
}

/* epoch times (enqueue + sync, wall clock) */
static int epochs(react_rt_t *rt, const react_pattern_t *p, int n, double *out)
{
	for (int e = 0; e < n; e++) {
		double t0 = react_gpu_now();
		if (react_rt_run(rt, p, NULL) != REACT_OK) {
			fprintf(stderr, "react-gpu: %s\n", react_rt_error(rt));
			return 1;
		}
		out[e] = react_gpu_now() - t0;
	}
	return 0;
}

int react_gpu_cmd_overhead(int argc, char **argv)
{
	mopts_t o = {.transport = REACT_TRANSPORT_LOCAL, .nranks = 8, .bytes = 64ull << 20, .epochs = 30,
	             .pattern = NULL};
	int rc = parse_mopts("overhead", argc, argv, &o);
	if (rc)
		return rc;
	react_rt_t *rt[2] = {NULL, NULL};
	if (mkrt(&o, 0, &rt[0]) || mkrt(&o, 1, &rt[1])) {
		react_rt_destroy(rt[0]);
		return 1;
	}
	const char *pats[] = {"ring", "tree", "rhd", "recdbl"};
	int np = 4;
	if (o.pattern) {
		pats[0] = o.pattern;
		np = 1;
	}
	double *v = malloc((size_t)o.epochs * sizeof *v);
	printf("# react-gpu overhead: transport %s, %d ranks, epoch = enqueue + sync, median of %d\n",
	       react_transport_name(o.transport), o.nranks, o.epochs);
	printf("# %-8s %12s %8s %12s %12s %9s\n", "pattern", "bytes", "flows", "untimed(us)", "timed(us)",
	       "overhead");
	for (int k = 0; k < np && !rc; k++)
		for (uint64_t b = 64 << 10; b <= o.bytes && !rc; b *= 16) {
			react_pattern_t *p = gen(pats[k], o.nranks, b);
			if (!p) {
				rc = 1;
				break;
			}
			double m[2];
			for (int rep = 0; rep < 2 && !rc; rep++) /* untimed, timed, interleaved twice */
				for (int t = 0; t < 2 && !rc; t++) {
					react_rt_prepare(rt[t], p);
					rc = epochs(rt[t], p, 3, v) || epochs(rt[t], p, o.epochs, v);
					if (!rc)
						m[t] = rep ? fmin(m[t], median(v, o.epochs)) : median(v, o.epochs);
				}
			if (!rc)
				printf("  %-8s %12llu %8zu %12.1f %12.1f %8.1f%%\n", pats[k],
				       (unsigned long long)p->message_bytes, p->nflows, m[0] * 1e6, m[1] * 1e6,
				       100.0 * (m[1] - m[0]) / m[0]);
			react_pattern_destroy(p);
		}
	free(v);
	react_rt_destroy(rt[0]);
	react_rt_destroy(rt[1]);
	return rc;
}

int react_gpu_cmd_switch(int argc, char **argv)
{
	mopts_t o = {.transport = REACT_TRANSPORT_LOCAL, .nranks = 8, .bytes = 64ull << 20, .epochs = 20,
	             .pattern = "ring"};
	int rc = parse_mopts("switch", argc, argv, &o);
	if (rc)
		return rc;
	react_rt_t *rt = NULL;
	if (mkrt(&o, 1, &rt))
		return 1;
	react_pattern_t *a = gen(o.pattern, o.nranks, o.bytes), *b = NULL, *c = NULL;
	double *v = malloc((size_t)o.epochs * sizeof *v);
	if (!a || !v) {
		rc = 1;
		goto out;
	}
	/* b: ranks 1 and 2 swapped, what a REACT transform produces */
	if (react_pattern_clone(a, &b) != REACT_OK) {
		rc = 1;
		goto out;
	}
	for (size_t f = 0; f < b->nflows; f++) {
		react_flow_t *fl = &b->flows[f];
		if (fl->src == 1) fl->src = 2; else if (fl->src == 2) fl->src = 1;
		if (fl->dst == 1) fl->dst = 2; else if (fl->dst == 2) fl->dst = 1;
	}
	react_pattern_reindex(b);
	c = gen(strcmp(o.pattern, "tree") ? "tree" : "ring", o.nranks, o.bytes);
	if (!c) {
		rc = 1;
		goto out;
	}
	uint64_t wrong = 0;
	if ((rc = epochs(rt, a, o.epochs, v)))
		goto out;
	double steady_a = median(v, o.epochs);
	printf("# react-gpu switch: transport %s, %d ranks, %llu bytes, %s; medians of %d epochs\n",
	       react_transport_name(o.transport), o.nranks, (unsigned long long)a->message_bytes,
	       o.pattern, o.epochs);
	printf("  steady epoch, %-28s %10.1f us\n", o.pattern, steady_a * 1e6);
	const react_pattern_t *to[2] = {b, c};
	const char *what[2] = {"ranks 1<->2 swapped", strcmp(o.pattern, "tree") ? "tree" : "ring"};
	for (int k = 0; k < 2; k++) {
		react_rt_stats_t s;
		double t0 = react_gpu_now();
		react_rt_prepare(rt, to[k]);
		double prep = react_gpu_now() - t0;
		react_rt_stats(rt, &s);
		if ((rc = epochs(rt, to[k], 1, v)))
			goto out;
		double first = v[0];
		if ((rc = epochs(rt, to[k], o.epochs, v)))
			goto out;
		double steady = median(v, o.epochs);
		/* back to a (plan cached), then to[k] again (cached) */
		if ((rc = epochs(rt, a, 3, v)) || (rc = epochs(rt, to[k], 1, v)))
			goto out;
		double cached = v[0];
		printf("  switch to %-20s plan compile %8.1f us, first epoch %10.1f us, steady %10.1f us, "
		       "first epoch when cached %10.1f us\n", what[k], prep * 1e6, first * 1e6, steady * 1e6,
		       cached * 1e6);
		if (react_rt_fill(rt, to[k]) != REACT_OK || react_rt_run(rt, to[k], NULL) != REACT_OK ||
		    react_rt_check(rt, to[k], &wrong) != REACT_OK || wrong) {
			fprintf(stderr, "react-gpu switch: wrong result after the switch (%llu elements): %s\n",
			        (unsigned long long)wrong, react_rt_error(rt));
			rc = 3;
			goto out;
		}
	}
	printf("  results after every switch checked: 0 wrong\n");
out:
	free(v);
	react_pattern_destroy(a);
	react_pattern_destroy(b);
	react_pattern_destroy(c);
	react_rt_destroy(rt);
	return rc;
}

/*
 * react-gpu flows: per-step flow completion times of one pattern, as the
 * tuner would see them (nccl: spans gathered at rank 0, FCT = min of the
 * two ends).  --hang-rank R --hang-epoch E makes rank R stop taking part
 * (a hung peer): the others must fail within --timeout seconds.
 */
#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif
#include <unistd.h>

int react_gpu_cmd_flows(int argc, char **argv)
{
	mopts_t o = {.transport = REACT_TRANSPORT_HOST, .nranks = 4, .bytes = 4ull << 20, .epochs = 10,
	             .pattern = "ring"};
	int pair = 1, hang_rank = -1, hang_epoch = -1;
	double timeout = 60;
	/* pull out the options only this command has */
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	int nrest = 0;
	for (int i = 0; i < argc; i++) {
		if (i > 0 && i + 1 < argc && !strcmp(argv[i], "--nccl-comms")) {
			pair = strcmp(argv[++i], "single") != 0;
		} else if (i > 0 && i + 1 < argc && !strcmp(argv[i], "--hang-rank")) {
			hang_rank = atoi(argv[++i]);
		} else if (i > 0 && i + 1 < argc && !strcmp(argv[i], "--hang-epoch")) {
			hang_epoch = atoi(argv[++i]);
		} else if (i > 0 && i + 1 < argc && !strcmp(argv[i], "--timeout")) {
			timeout = atof(argv[++i]);
		} else {
			rest[nrest++] = argv[i];
		}
	}
	int rc = parse_mopts("flows", nrest, rest, &o);
	free(rest);
	if (rc)
		return rc;
	react_rt_cfg_t cfg;
	react_rt_cfg_default(&cfg);
	cfg.transport = o.transport;
	cfg.nranks = o.nranks;
	cfg.max_bytes = o.bytes + 4096;
	cfg.nccl_pair_comms = pair;
	cfg.timeout_s = timeout;
	react_rt_t *rt = NULL;
	char err[320];
	if (react_rt_create(&cfg, &rt, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react-gpu flows: %s\n", err);
		return 1;
	}
	int32_t n = react_rt_nranks(rt);
	react_pattern_t *p = gen(o.pattern, n, o.bytes);
	if (!p) {
		react_rt_destroy(rt);
		return 1;
	}
	int me = react_rt_rank0(rt), lead = react_gpu_mpi_rank() == 0;
	size_t nf = p->nflows;
	double *rows = calloc((size_t)n * (2 * nf + 1), sizeof *rows), *mine = calloc(2 * nf + 1, sizeof *mine);
	double *fct = calloc(nf ? nf : 1, sizeof *fct);
	const react_rt_times_t *t = NULL;
	for (int e = 0; e < o.epochs && !rc; e++) {
		if (me == hang_rank && e == hang_epoch) {
			fprintf(stderr, "react-gpu flows: rank %d stops taking part at epoch %d (test)\n", me, e);
			fflush(stderr);
			for (;;)
				pause();
		}
		if (react_rt_run(rt, p, &t) != REACT_OK) {
			fprintf(stderr, "react-gpu flows: rank %d, epoch %d: %s\n", me, e, react_rt_error(rt));
			rc = 4;
		}
	}
	if (!rc) {
		memcpy(mine, t->send_span_s, nf * sizeof *mine);
		memcpy(mine + nf, t->recv_span_s, nf * sizeof *mine);
		mine[2 * nf] = t->epoch_s;
		int nrows = 1;
#ifdef REACT_HAVE_MPI
		if (o.transport == REACT_TRANSPORT_NCCL) {
			MPI_Gather(mine, (int)(2 * nf + 1), MPI_DOUBLE, rows, (int)(2 * nf + 1), MPI_DOUBLE, 0,
			           MPI_COMM_WORLD);
			nrows = n;
		} else
#endif
			memcpy(rows, mine, (2 * nf + 1) * sizeof *rows);
		double es = 0;
		for (size_t f = 0; f < nf; f++)
			fct[f] = INFINITY;
		for (int r = 0; r < nrows; r++) {
			const double *row = rows + (size_t)r * (2 * nf + 1);
			for (size_t f = 0; f < 2 * nf; f++)
				if (!isnan(row[f]) && row[f] < fct[f % nf])
					fct[f % nf] = row[f];
			es = fmax(es, row[2 * nf]);
		}
		if (lead) {
			printf("# react-gpu flows: %s, transport %s%s, %d ranks, %llu bytes; last of %d epochs: %.1f us\n",
			       o.pattern, react_transport_name(o.transport),
			       o.transport == REACT_TRANSPORT_NCCL ? (pair ? " (pair communicators)" : " (one communicator)") : "",
			       n, (unsigned long long)p->message_bytes, o.epochs, es * 1e6);
			printf("# %5s %6s %12s %12s %12s\n", "step", "flows", "min FCT(us)", "max FCT(us)", "max/min");
			for (react_step_t s = 0; s < p->nsteps; s++) {
				size_t b = react_pattern_step_begin(p, s), e = react_pattern_step_begin(p, s + 1);
				double lo = INFINITY, hi = 0;
				for (size_t f = b; f < e; f++) {
					lo = fmin(lo, fct[f]);
					hi = fmax(hi, fct[f]);
				}
				printf("  %5d %6zu %12.1f %12.1f %12.2f\n", s, e - b, lo * 1e6, hi * 1e6, hi / lo);
			}
		}
	}
	free(rows);
	free(mine);
	free(fct);
	react_pattern_destroy(p);
	react_rt_destroy(rt);
	return rc;
}
