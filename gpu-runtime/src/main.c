/*
 * react-gpu - run collective patterns on real transports.
 *
 *   react-gpu bench    nccl-tests style table for each pattern (and NCCL's
 *                      own collective beside it on the nccl transport)
 *   react-gpu run      a scenario (YAML job fields), optionally with REACT
 *                      and injected congestion; per-epoch CSV + decision log
 *   react-gpu kernels  reduction kernel bandwidth against device copies
 *   react-gpu overhead per-flow timing cost (timed against untimed epochs)
 *   react-gpu switch   what a pattern switch costs
 *   react-gpu flows    per-step flow completion times (and a hung-peer test)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef REACT_HAVE_MPI
#include <mpi.h>
#endif

#include "gpu_cmds.h"
#include "react/generators.h"
#include "react/rt.h"

double react_gpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int react_gpu_parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || v < 0)
		return -1;
	double m = 1;
	switch (*end) {
	case 'k': case 'K': m = 1024.0; end++; break;
	case 'm': case 'M': m = 1024.0 * 1024; end++; break;
	case 'g': case 'G': m = 1024.0 * 1024 * 1024; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -1;
	*out = (uint64_t)(v * m + 0.5);
	return 0;
}

int react_gpu_pattern_name(const char *name, react_collective_t *c, react_algorithm_t *a)
{
	static const struct { const char *n; react_collective_t c; react_algorithm_t a; } tab[] = {
		{"tree", REACT_COLL_ALLREDUCE, REACT_ALGO_TREE},
		{"ring", REACT_COLL_ALLREDUCE, REACT_ALGO_RING},
		{"rhd", REACT_COLL_ALLREDUCE, REACT_ALGO_RHD},
		{"recdbl", REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL},
		{"ring-allgather", REACT_COLL_ALLGATHER, REACT_ALGO_RING},
	};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcmp(name, tab[i].n)) {
			*c = tab[i].c;
			*a = tab[i].a;
			return 0;
		}
	return -1;
}

int react_gpu_mpi_rank(void)
{
#ifdef REACT_HAVE_MPI
	int inited = 0, r = 0;
	MPI_Initialized(&inited);
	if (inited)
		MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return r;
#else
	return 0;
#endif
}

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: react-gpu <command> [options]\n\n"
	        "commands:\n"
	        "  bench     nccl-tests style table per pattern (--transport nccl|local|host --ranks N\n"
	        "            --pattern tree|ring|rhd|recdbl|ring-allgather|all --minbytes 8 --maxbytes 1G\n"
	        "            --check --dtype float|half|bfloat16 --iters 20 --warmup 5)\n"
	        "  run       run a scenario file: react-gpu run SCENARIO.yaml [--out DIR]\n"
	        "            [--apply-delay EPOCHS] [--search-threads N] [--progress SECONDS] [--quiet]\n"
	        "  kernels   reduction kernels against device copies (--bytes 1G)\n"
	        "  overhead  per-flow timing cost, timed vs untimed epochs (local transport)\n"
	        "  switch    cost of a pattern switch (local or host transport)\n"
	        "  flows     per-step flow completion times of one pattern (--nccl-comms pair|single;\n"
	        "            --hang-rank R --hang-epoch E --timeout S: a hung peer must end the job)\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	int need_mpi = 0;
	for (int i = 2; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--transport") && !strcmp(argv[i + 1], "nccl"))
			need_mpi = 1;
#ifdef REACT_HAVE_MPI
	if (need_mpi) {
		int prov = 0;
		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
		if (prov < MPI_THREAD_SERIALIZED) {
			fprintf(stderr, "react-gpu: MPI gives thread level %d, need SERIALIZED or better\n", prov);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
#else
	if (need_mpi) {
		fprintf(stderr, "react-gpu: this build has no MPI, so no nccl transport\n");
		return 2;
	}
#endif
	int rc;
	if (!strcmp(cmd, "bench"))
		rc = react_gpu_cmd_bench(argc - 1, argv + 1);
	else if (!strcmp(cmd, "run"))
		rc = react_gpu_cmd_run(argc - 1, argv + 1);
	else if (!strcmp(cmd, "kernels"))
		rc = react_gpu_cmd_kernels(argc - 1, argv + 1);
	else if (!strcmp(cmd, "overhead"))
		rc = react_gpu_cmd_overhead(argc - 1, argv + 1);
	else if (!strcmp(cmd, "switch"))
		rc = react_gpu_cmd_switch(argc - 1, argv + 1);
	else if (!strcmp(cmd, "flows"))
		rc = react_gpu_cmd_flows(argc - 1, argv + 1);
	else {
		fprintf(stderr, "react-gpu: unknown command '%s'\n", cmd);
		usage(stderr);
		rc = 2;
	}
#ifdef REACT_HAVE_MPI
	if (need_mpi) {
		if (rc)
			MPI_Abort(MPI_COMM_WORLD, rc);
		MPI_Finalize();
	}
#endif
	return rc;
}
