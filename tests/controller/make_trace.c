/* Fixture for the replay tests: writes into DIR
 *   tree16.json       a 16-rank tree AllReduce;
 *   trace.jsonl       a controller run with rank 3's downlink at half rate,
 *                     recorded with seed 7 and non-default parameters (the
 *                     paper profile, trials 9), which its header records;
 *   trace.jsonl.log   the recording controller's decision log;
 *   diverged.jsonl    the same trace with another controller's pattern
 *                     hashes after epoch 20;
 *   bad.jsonl         the same trace with a malformed line 4 (epoch 2);
 *   legacy.jsonl      a run with the default parameters and seed 1 written
 *                     without a header (as traces were before they
 *                     recorded their run), and legacy.jsonl.log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/controller.h"
#include "react/critpath.h"
#include "react/generators.h"
#include "react/pattern_io.h"
#include "react/trace.h"

enum { CLEAN, DIVERGED, BAD };

static int record(const react_pattern_t *g, const char *path, const react_params_t *prm,
                  int header, int corrupt)
{
	react_ctl_t *c;
	react_trace_writer_t *w;
	react_trace_run_t run = {"flow", *prm, ""};
	double *fct = malloc(g->nflows * sizeof *fct), T;
	size_t *path_ids = malloc((size_t)g->nsteps * sizeof *path_ids), len;
	FILE *log = NULL;
	if (react_ctl_create(g, prm, &c) != REACT_OK ||
	    (header ? react_trace_open_run(path, &run, &w) : react_trace_open(path, &w)) != REACT_OK)
		return 1;
	if (corrupt == CLEAN) {
		char lp[4200];
		snprintf(lp, sizeof lp, "%s.log", path);
		log = fopen(lp, "w");
		react_ctl_set_log(c, log);
	}
	for (int64_t e = 0; e < 60; e++) {
		const react_pattern_t *p = react_ctl_pattern_for(c, e);
		uint64_t h = react_pattern_hash(p);
		for (size_t f = 0; f < p->nflows; f++)
			fct[f] = 4e-6 + (double)p->flows[f].bytes * 8.0 / 100e9 * react_pattern_flow_degree(p, f) *
			                    (p->flows[f].dst == 3 ? 2.0 : 1.0);
		react_critpath(p, fct, path_ids, &len, &T);
		if (corrupt == DIVERGED && e > 20)
			h ^= 1; /* another controller's pattern */
		if (react_trace_append(w, e, T, h, fct, corrupt == BAD && e == 2 ? p->nflows - 1 : p->nflows) != REACT_OK)
			return 1;
		if (react_ctl_observe(c, e, fct, p->nflows, T, NULL) != REACT_OK)
			return 1;
	}
	free(fct);
	free(path_ids);
	react_ctl_destroy(c);
	if (log)
		fclose(log);
	return react_trace_close(w) != REACT_OK;
}

int main(int argc, char **argv)
{
	react_pattern_t *g;
	react_params_t prm, def;
	char buf[4096], why[256];
	if (argc != 2)
		return 2;
	if (react_gen_tree_allreduce(16, 2000000, &g) != REACT_OK)
		return 1;
	snprintf(buf, sizeof buf, "%s/tree16.json", argv[1]);
	if (react_pattern_write_json_path(g, buf, NULL, 0) != REACT_OK)
		return 1;
	react_params_default(&def);
	react_params_default(&prm);
	if (react_params_set(&prm, "profile", "paper", why, sizeof why) ||
	    react_params_set(&prm, "trials", "9", why, sizeof why) ||
	    react_params_set(&prm, "seed", "7", why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	const struct {
		const char *name;
		const react_params_t *prm;
		int header, corrupt;
	} out[] = {{"trace.jsonl", &prm, 1, CLEAN}, {"diverged.jsonl", &prm, 1, DIVERGED},
	           {"bad.jsonl", &prm, 1, BAD}, {"legacy.jsonl", &def, 0, CLEAN}};
	for (size_t i = 0; i < sizeof out / sizeof *out; i++) {
		snprintf(buf, sizeof buf, "%s/%s", argv[1], out[i].name);
		if (record(g, buf, out[i].prm, out[i].header, out[i].corrupt))
			return 1;
	}
	react_pattern_destroy(g);
	return 0;
}
