/* cmd_pattern.c - react pattern | verify | show. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "react/check.h"
#include "react/generators.h"
#include "react/pattern_io.h"
#include "react/units.h"

static const char pattern_usage[] =
	"usage: react pattern --collective allreduce|allgather --algorithm ALGO --ranks N\n"
	"                     [--bytes SIZE] [-o FILE]\n"
	"  allreduce: tree (NCCL double binary tree), ring, rhd (Rabenseifner)\n"
	"  allgather: ring, recdbl (recursive doubling)\n"
	"  SIZE: bytes with a unit: 20MB (10^6 B), 20MiB (2^20 B), 4096B (default 20MB)\n"
	"  writes the pattern JSON to FILE (atomically) or to stdout\n";
static const char verify_usage[] =
	"usage: react verify FILE\n"
	"  exit 0 and 'ok: ...' when the pattern keeps its collective's semantics,\n"
	"  1 with the first violation when not, 2 when FILE is unreadable or malformed\n";
static const char show_usage[] =
	"usage: react show [--dot] FILE\n"
	"  per-step listing (step, src -> dst, chunks, bytes, op) and degree summary;\n"
	"  --dot prints the time-expanded network as Graphviz, edges coloured by chunk graph\n";

static int want_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

int react_cmd_pattern(int argc, char **argv)
{
	const char *coll_s = NULL, *algo_s = NULL, *ranks_s = NULL, *bytes_s = "20MB", *outp = NULL;
	react_collective_t coll;
	react_algorithm_t algo;
	uint64_t bytes;
	long ranks;
	char *end, err[512];
	react_pattern_t *p = NULL;
	react_status_t st;
	int rc = 2;

	if (want_help(argc, argv)) {
		fputs(pattern_usage, stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char **slot = NULL;
		if (!strcmp(argv[i], "--collective"))
			slot = &coll_s;
		else if (!strcmp(argv[i], "--algorithm"))
			slot = &algo_s;
		else if (!strcmp(argv[i], "--ranks"))
			slot = &ranks_s;
		else if (!strcmp(argv[i], "--bytes"))
			slot = &bytes_s;
		else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output"))
			slot = &outp;
		else {
			fprintf(stderr, "react pattern: unknown option '%s'\n%s", argv[i], pattern_usage);
			return 2;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "react pattern: option '%s' needs a value\n", argv[i]);
			return 2;
		}
		*slot = argv[++i];
	}
	if (!coll_s || !algo_s || !ranks_s) {
		fprintf(stderr, "react pattern: --collective, --algorithm and --ranks are required\n%s",
		        pattern_usage);
		return 2;
	}
	if (react_collective_parse(coll_s, &coll) != REACT_OK) {
		fprintf(stderr, "react pattern: --collective: unknown collective '%s' (expected allreduce or allgather)\n",
		        coll_s);
		return 2;
	}
	if (react_algorithm_parse(algo_s, &algo) != REACT_OK || algo == REACT_ALGO_CUSTOM) {
		fprintf(stderr, "react pattern: --algorithm: unknown algorithm '%s' (expected tree, ring, rhd or recdbl)\n",
		        algo_s);
		return 2;
	}
	errno = 0;
	ranks = strtol(ranks_s, &end, 10);
	if (errno || *end || end == ranks_s || ranks < 2 || ranks > 1000000) {
		fprintf(stderr, "react pattern: --ranks: '%s' is not a rank count in [2, 1000000]\n", ranks_s);
		return 2;
	}
	if (react_parse_bytes(bytes_s, &bytes) != REACT_OK || bytes < 1) {
		fprintf(stderr, "react pattern: --bytes: '%s' is not a size >= 1 (e.g. 20MB, 20MiB, 1K, 4096)\n",
		        bytes_s);
		return 2;
	}
	st = react_pattern_generate(coll, algo, (int32_t)ranks, bytes, &p);
	if (st == REACT_EUNSUPPORTED) {
		fprintf(stderr, "react pattern: no %s generator for %s (allreduce: tree, ring, rhd; allgather: ring, recdbl)\n",
		        algo_s, coll_s);
		goto done;
	}
	if (st != REACT_OK) {
		fprintf(stderr, "react pattern: cannot generate %s/%s for %ld ranks: %s\n", coll_s, algo_s,
		        ranks, react_status_str(st));
		goto done;
	}
	if (outp) {
		st = react_pattern_write_json_path(p, outp, err, sizeof err);
		if (st != REACT_OK) {
			fprintf(stderr, "react pattern: %s\n", err);
			goto done;
		}
	} else if (react_pattern_write_json(p, stdout) != REACT_OK || fflush(stdout)) {
		fprintf(stderr, "react pattern: writing to stdout failed\n");
		goto done;
	}
	rc = 0;
done:
	react_pattern_destroy(p);
	return rc;
}

static int load(const char *cmd, const char *path, react_pattern_t **p)
{
	char err[512];
	if (react_pattern_read_json(path, p, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react %s: %s\n", cmd, err);
		return 2;
	}
	return 0;
}

int react_cmd_verify(int argc, char **argv)
{
	react_pattern_t *p = NULL;
	react_check_result_t res;
	react_status_t st;
	int rc;

	if (want_help(argc, argv)) {
		fputs(verify_usage, stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "react verify: expected exactly one FILE\n%s", verify_usage);
		return 2;
	}
	rc = load("verify", argv[1], &p);
	if (rc)
		return rc;
	st = react_pattern_check(p, &res);
	if (st == REACT_OK) {
		printf("ok: %s/%s, %d ranks, %d steps, %d chunks in %d chunk graphs, %zu flows\n",
		       react_collective_name(p->collective), react_algorithm_name(p->algorithm), p->nranks,
		       p->nsteps, p->nchunks, react_pattern_ngraphs(p), p->nflows);
		rc = 0;
	} else if (st == REACT_ESEMANTIC) {
		printf("not ok: %s: %s\n", argv[1], res.message);
		rc = 1;
	} else {
		fprintf(stderr, "react verify: %s: %s\n", argv[1], react_status_str(st));
		rc = 2;
	}
	react_pattern_destroy(p);
	return rc;
}

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

int react_cmd_show(int argc, char **argv)
{
	react_pattern_t *p = NULL;
	const char *path = NULL;
	int dot = 0, rc;

	if (want_help(argc, argv)) {
		fputs(show_usage, stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dot"))
			dot = 1;
		else if (argv[i][0] == '-') {
			fprintf(stderr, "react show: unknown option '%s'\n%s", argv[i], show_usage);
			return 2;
		} else if (!path)
			path = argv[i];
		else {
			fprintf(stderr, "react show: expected one FILE\n%s", show_usage);
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "react show: expected one FILE\n%s", show_usage);
		return 2;
	}
	rc = load("show", path, &p);
	if (rc)
		return rc;
	if (dot) {
		printf("digraph ten {\n  rankdir=LR;\n  node [shape=circle, fontsize=10];\n");
		for (react_step_t t = 0; t <= p->nsteps; t++) {
			printf("  { rank=same;");
			for (react_rank_t r = 0; r < p->nranks; r++)
				printf(" \"%d,%d\"", t, r);
			printf(" }\n");
		}
		for (size_t i = 0; i < p->nflows; i++) {
			const react_flow_t *f = &p->flows[i];
			int32_t g = react_pattern_flow_graph(p, i);
			printf("  \"%d,%d\" -> \"%d,%d\" [color=\"%s\", label=\"c%d%s\"%s];\n", f->step, f->src,
			       f->step + 1, f->dst, palette[g % 8], f->chunk,
			       f->nchunks > 1 ? "+" : "", f->op == REACT_RECV_REDUCE ? "" : ", style=dashed");
		}
		printf("}\n");
	} else {
		printf("%s/%s: %d ranks, %d steps, %d chunks, %d chunk graphs, %zu flows, message %llu B\n",
		       react_collective_name(p->collective), react_algorithm_name(p->algorithm), p->nranks,
		       p->nsteps, p->nchunks, react_pattern_ngraphs(p), p->nflows,
		       (unsigned long long)p->message_bytes);
		for (react_step_t t = 0; t < p->nsteps; t++) {
			size_t b = react_pattern_step_begin(p, t), e = react_pattern_step_begin(p, t + 1);
			int32_t mo = 0, mi = 0;
			uint64_t sum = 0;
			for (react_rank_t r = 0; r < p->nranks; r++) {
				int32_t o = react_pattern_out_degree(p, t, r), in = react_pattern_in_degree(p, t, r);
				mo = o > mo ? o : mo;
				mi = in > mi ? in : mi;
			}
			for (size_t i = b; i < e; i++)
				sum += p->flows[i].bytes;
			printf("step %d: %zu flows, %llu B, max out-degree %d, max in-degree %d\n", t, e - b,
			       (unsigned long long)sum, mo, mi);
			for (size_t i = b; i < e; i++) {
				const react_flow_t *f = &p->flows[i];
				if (f->nchunks > 1)
					printf("  %4d -> %-4d chunks %d..%d  %llu B  %s\n", f->src, f->dst, f->chunk,
					       f->chunk + f->nchunks - 1, (unsigned long long)f->bytes,
					       f->op == REACT_RECV_REDUCE ? "reduce" : "store");
				else
					printf("  %4d -> %-4d chunk %d  %llu B  %s\n", f->src, f->dst, f->chunk,
					       (unsigned long long)f->bytes,
					       f->op == REACT_RECV_REDUCE ? "reduce" : "store");
			}
		}
	}
	react_pattern_destroy(p);
	return 0;
}
