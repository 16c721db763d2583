/*
 * cmd_bench.c - react-gpu bench: nccl-tests style tables.
 *
 * Per size: fill, one checked execution (#wrong), warm-up executions, then
 * wall-clock over `iters` back-to-back executions with one sync at the end
 * (nccl-tests' method; on the nccl transport a barrier first and the time
 * averaged over ranks).  algbw = S / t; busbw = algbw * 2(n-1)/n for
 * AllReduce, * (n-1)/n for AllGather.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif
#if defined(REACT_HAVE_NCCL) && defined(REACT_HAVE_CUDA)
#include <cuda_runtime.h>
#include <nccl.h>
#endif

#include "gpu_cmds.h"
#include "react/generators.h"
#include "react/rt.h"

typedef struct bench_opts {
	react_transport_t transport;
	int32_t nranks;
	uint64_t minb, maxb;
	int iters, warmup, check, timed, pair, native;
	react_dtype_t dtype;
	const char *patterns;
} bench_opts_t;

static double avg_over_ranks(react_transport_t t, double v)
{
#ifdef REACT_HAVE_MPI
	if (t == REACT_TRANSPORT_NCCL) {
		double s = 0;
		int n = 1;
		MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Comm_size(MPI_COMM_WORLD, &n);
		return s / n;
	}
#endif
	(void)t;
	return v;
}

static uint64_t sum_over_ranks(react_transport_t t, uint64_t v)
{
#ifdef REACT_HAVE_MPI
	if (t == REACT_TRANSPORT_NCCL) {
		unsigned long long s = 0, x = v;
		MPI_Allreduce(&x, &s, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
		return s;
	}
#endif
	(void)t;
	return v;
}

static void barrier(react_transport_t t)
{
#ifdef REACT_HAVE_MPI
	if (t == REACT_TRANSPORT_NCCL)
		MPI_Barrier(MPI_COMM_WORLD);
#endif
	(void)t;
}

#if defined(REACT_HAVE_NCCL) && defined(REACT_HAVE_CUDA)
/* NCCL's own collective on the same GPUs and sizes, in place. */
typedef struct native {
	ncclComm_t comm;
	void *buf;
	cudaStream_t s;
	int rank, n;
} native_t;

static int native_init(native_t *nv, uint64_t maxb)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &nv->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nv->n);
	ncclUniqueId id;
	if (nv->rank == 0 && ncclGetUniqueId(&id) != ncclSuccess)
		return -1;
	MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
	if (cudaMalloc(&nv->buf, maxb) != cudaSuccess || cudaStreamCreate(&nv->s) != cudaSuccess)
		return -1;
	cudaMemset(nv->buf, 0, maxb);
	return ncclCommInitRank(&nv->comm, nv->n, id, nv->rank) == ncclSuccess ? 0 : -1;
}

static ncclDataType_t nccl_dt(react_dtype_t t)
{
	return t == REACT_DT_F32 ? ncclFloat32 : t == REACT_DT_F16 ? ncclFloat16 : ncclBfloat16;
}

static double native_time(native_t *nv, react_collective_t c, uint64_t bytes, react_dtype_t dt,
                          int iters, int warmup)
{
	size_t es = react_dtype_size(dt), count = bytes / es;
	double t0 = 0;
	for (int i = 0; i < warmup + iters; i++) {
		if (i == warmup) {
			cudaStreamSynchronize(nv->s);
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = react_gpu_now();
		}
		if (c == REACT_COLL_ALLREDUCE)
			ncclAllReduce(nv->buf, nv->buf, count, nccl_dt(dt), ncclSum, nv->comm, nv->s);
		else
			ncclAllGather((char *)nv->buf + (size_t)nv->rank * (bytes / (size_t)nv->n), nv->buf,
			              count / (size_t)nv->n, nccl_dt(dt), nv->comm, nv->s);
	}
	cudaStreamSynchronize(nv->s);
	return (react_gpu_now() - t0) / iters;
}
#endif

static int bench_one(react_rt_t *rt, const bench_opts_t *o, react_collective_t coll,
                     react_algorithm_t algo, void *native, double *busbw_sum, int *nrows)
{
	int32_t n = react_rt_nranks(rt);
	int lead = react_gpu_mpi_rank() == 0;
	size_t es = react_dtype_size(o->dtype);
	uint64_t unit = es * (uint64_t)n;
	double fac = coll == REACT_COLL_ALLREDUCE ? 2.0 * (n - 1) / n : (double)(n - 1) / n;
	if (lead) {
		printf("#\n# pattern %s %s, transport %s, %d ranks, %s%s\n#\n",
		       react_algorithm_name(algo), react_collective_name(coll),
		       react_transport_name(o->transport), n, react_dtype_name(o->dtype),
		       o->timed ? ", per-flow timing on" : ", untimed");
		printf("# %10s %12s %8s %6s %6s %9s %8s %8s %6s", "size", "count", "type", "redop", "root",
		       "time", "algbw", "busbw", "#wrong");
		if (native)
			printf(" %9s %8s %6s", "nccl", "busbw", "ratio");
		printf("\n# %10s %12s %8s %6s %6s %9s %8s %8s %6s", "(B)", "(elements)", "", "", "", "(us)",
		       "(GB/s)", "(GB/s)", "");
		if (native)
			printf(" %9s %8s %6s", "(us)", "(GB/s)", "");
		printf("\n");
	}
	uint64_t last = 0;
	for (uint64_t b = o->minb; b <= o->maxb; b *= 2) {
		uint64_t bytes = b / unit * unit;
		if (bytes < unit)
			bytes = unit;
		if (bytes == last)
			continue;
		last = bytes;
		react_pattern_t *p = NULL;
		react_status_t st = react_pattern_generate(coll, algo, n, bytes, &p);
		if (st != REACT_OK) {
			fprintf(stderr, "react-gpu bench: cannot generate %s %s for %d ranks: %s\n",
			        react_algorithm_name(algo), react_collective_name(coll), n, react_status_str(st));
			return 1;
		}
		uint64_t wrong = 0;
		if ((st = react_rt_prepare(rt, p)) != REACT_OK)
			goto rt_fail;
		if (o->check) {
			if ((st = react_rt_fill(rt, p)) != REACT_OK || (st = react_rt_run(rt, p, NULL)) != REACT_OK ||
			    (st = react_rt_check(rt, p, &wrong)) != REACT_OK)
				goto rt_fail;
		}
		wrong = sum_over_ranks(o->transport, wrong);
		for (int i = 0; i < o->warmup; i++)
			if ((st = react_rt_enqueue(rt, p)) != REACT_OK)
				goto rt_fail;
		if ((st = react_rt_sync(rt)) != REACT_OK)
			goto rt_fail;
		barrier(o->transport);
		double t0 = react_gpu_now();
		for (int i = 0; i < o->iters; i++)
			if ((st = react_rt_enqueue(rt, p)) != REACT_OK)
				goto rt_fail;
		if ((st = react_rt_sync(rt)) != REACT_OK)
			goto rt_fail;
		double t = avg_over_ranks(o->transport, (react_gpu_now() - t0) / o->iters);
		double algbw = (double)bytes / t / 1e9, busbw = algbw * fac;
		double nt = NAN;
#if defined(REACT_HAVE_NCCL) && defined(REACT_HAVE_CUDA)
		if (native)
			nt = avg_over_ranks(o->transport,
			                    native_time(native, coll, bytes, o->dtype, o->iters, o->warmup));
#endif
		if (lead) {
			printf("  %10llu %12llu %8s %6s %6d %9.2f %8.2f %8.2f %6llu", (unsigned long long)bytes,
			       (unsigned long long)(bytes / es), react_dtype_name(o->dtype),
			       coll == REACT_COLL_ALLREDUCE ? "sum" : "none", -1, t * 1e6, algbw, busbw,
			       o->check ? (unsigned long long)wrong : 0ull);
			if (native) {
				double nb = (double)bytes / nt / 1e9 * fac;
				printf(" %9.2f %8.2f %6.2f", nt * 1e6, nb, busbw / nb);
			}
			printf("\n");
			fflush(stdout);
		}
		*busbw_sum += busbw;
		(*nrows)++;
		react_pattern_destroy(p);
		if (o->check && wrong)
			return 3;
		if (b > UINT64_MAX / 2)
			break;
		continue;
	rt_fail:
		fprintf(stderr, "react-gpu bench: %s\n", react_rt_error(rt));
		react_pattern_destroy(p);
		return 1;
	}
	return 0;
}

int react_gpu_cmd_bench(int argc, char **argv)
{
	bench_opts_t o = {.transport = REACT_TRANSPORT_HOST, .nranks = 4, .minb = 8, .maxb = 1 << 20,
	                  .iters = 20, .warmup = 5, .check = 0, .timed = 1, .pair = 1, .native = 1,
	                  .dtype = REACT_DT_F32, .patterns = "tree,ring,rhd,recdbl"};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int used = 1;
		if (!strcmp(a, "--check")) {
			o.check = 1;
			used = 0;
		} else if (!strcmp(a, "--untimed")) {
			o.timed = 0;
			used = 0;
		} else if (!strcmp(a, "--no-native")) {
			o.native = 0;
			used = 0;
		} else if (!v) {
			fprintf(stderr, "react-gpu bench: option %s needs a value\n", a);
			return 2;
		} else if (!strcmp(a, "--transport")) {
			if (react_transport_parse(v, &o.transport) != REACT_OK) {
				fprintf(stderr, "react-gpu bench: --transport: expected host, local or nccl, got '%s'\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--ranks")) {
			o.nranks = atoi(v);
		} else if (!strcmp(a, "--pattern")) {
			o.patterns = strcmp(v, "all") ? v : "tree,ring,rhd,recdbl,ring-allgather";
		} else if (!strcmp(a, "--minbytes") || !strcmp(a, "-b")) {
			if (react_gpu_parse_size(v, &o.minb) || !o.minb) {
				fprintf(stderr, "react-gpu bench: --minbytes: expected a size like 8, 64K, 1M, got '%s'\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--maxbytes") || !strcmp(a, "-e")) {
			if (react_gpu_parse_size(v, &o.maxb) || !o.maxb) {
				fprintf(stderr, "react-gpu bench: --maxbytes: expected a size like 1M, 1G, got '%s'\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--iters") || !strcmp(a, "-n")) {
			o.iters = atoi(v);
		} else if (!strcmp(a, "--warmup") || !strcmp(a, "-w")) {
			o.warmup = atoi(v);
		} else if (!strcmp(a, "--dtype") || !strcmp(a, "-d")) {
			if (react_dtype_parse(v, &o.dtype) != REACT_OK) {
				fprintf(stderr, "react-gpu bench: --dtype: expected float, half or bfloat16, got '%s'\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--nccl-comms")) {
			if (strcmp(v, "pair") && strcmp(v, "single")) {
				fprintf(stderr, "react-gpu bench: --nccl-comms: expected pair or single, got '%s'\n", v);
				return 2;
			}
			o.pair = !strcmp(v, "pair");
		} else {
			fprintf(stderr, "react-gpu bench: unknown option '%s'\n", a);
			return 2;
		}
		i += used;
	}
	if (o.iters < 1 || o.warmup < 0 || o.minb > o.maxb) {
		fprintf(stderr, "react-gpu bench: need --iters >= 1, --warmup >= 0, --minbytes <= --maxbytes\n");
		return 2;
	}
	react_rt_cfg_t cfg;
	react_rt_cfg_default(&cfg);
	cfg.transport = o.transport;
	cfg.nranks = o.nranks;
	cfg.dtype = o.dtype;
	cfg.timed = o.timed;
	cfg.nccl_pair_comms = o.pair;
	/* room for the largest message rounded up to whole elements per rank */
	cfg.max_bytes = o.maxb + react_dtype_size(o.dtype) * 1024;
	react_rt_t *rt = NULL;
	char err[320];
	if (react_rt_create(&cfg, &rt, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react-gpu bench: %s\n", err);
		return 1;
	}
	void *native = NULL;
#if defined(REACT_HAVE_NCCL) && defined(REACT_HAVE_CUDA)
	native_t nv;
	if (o.native && o.transport == REACT_TRANSPORT_NCCL) {
		if (native_init(&nv, cfg.max_bytes)) {
			fprintf(stderr, "react-gpu bench: NCCL's own communicator could not be made\n");
			react_rt_destroy(rt);
			return 1;
		}
		native = &nv;
	}
#endif
	if (react_gpu_mpi_rank() == 0)
		printf("# react-gpu bench: transport %s, %d ranks, %s, iters %d, warmup %d%s\n",
		       react_transport_name(o.transport), react_rt_nranks(rt), react_dtype_name(o.dtype),
		       o.iters, o.warmup,
		       o.transport == REACT_TRANSPORT_NCCL ? (o.pair ? ", one communicator per rank pair"
		                                                     : ", one communicator") : "");
	double sum = 0;
	int rows = 0, rc = 0;
	char *list = strdup(o.patterns), *save = NULL;
	for (char *tok = strtok_r(list, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		react_collective_t c;
		react_algorithm_t a;
		if (react_gpu_pattern_name(tok, &c, &a)) {
			fprintf(stderr, "react-gpu bench: --pattern: unknown '%s' (tree, ring, rhd, recdbl, "
			                "ring-allgather, all)\n", tok);
			rc = 2;
			break;
		}
		rc = bench_one(rt, &o, c, a, native, &sum, &rows);
	}
	free(list);
	if (react_gpu_mpi_rank() == 0 && !rc) {
		printf("# Out of bounds values : 0 OK\n");
		printf("# Avg bus bandwidth    : %g\n#\n", rows ? sum / rows : 0.0);
	}
#if defined(REACT_HAVE_NCCL) && defined(REACT_HAVE_CUDA)
	if (native) {
		ncclCommDestroy(nv.comm);
		cudaFree(nv.buf);
	}
#endif
	react_rt_destroy(rt);
	return rc;
}
