/* Fixture for the replay tests: writes DIR/tree16.json, DIR/trace.jsonl (a
 * controller run with rank 3's downlink at half rate), DIR/diverged.jsonl
 * (the same trace recorded with another seed's decisions: pattern hashes
 * differ after epoch 20), DIR/trace.jsonl.log (the recording controller's
 * decision log) and DIR/bad.jsonl (a malformed line 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/controller.h"
#include "react/critpath.h"
#include "react/generators.h"
#include "react/pattern_io.h"
#include "react/trace.h"

static int record(const react_pattern_t *g, const char *path, uint64_t seed, int corrupt)
{
	react_params_t prm;
	react_ctl_t *c;
	react_trace_writer_t *w;
	double *fct = malloc(g->nflows * sizeof *fct), T;
	size_t *path_ids = malloc((size_t)g->nsteps * sizeof *path_ids), len;
	react_params_default(&prm);
	prm.seed = seed;
	FILE *log = NULL;
	if (react_ctl_create(g, &prm, &c) != REACT_OK || react_trace_open(path, &w) != REACT_OK)
		return 1;
	if (corrupt == 0) {
		char lp[4096];
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
		if (corrupt == 1 && e > 20)
			h ^= 1; /* another controller's pattern */
		if (react_trace_append(w, e, T, h, fct, corrupt == 2 && e == 2 ? p->nflows - 1 : p->nflows) != REACT_OK)
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
	char buf[4096];
	if (argc != 2)
		return 2;
	if (react_gen_tree_allreduce(16, 2000000, &g) != REACT_OK)
		return 1;
	snprintf(buf, sizeof buf, "%s/tree16.json", argv[1]);
	if (react_pattern_write_json_path(g, buf, NULL, 0) != REACT_OK)
		return 1;
	snprintf(buf, sizeof buf, "%s/trace.jsonl", argv[1]);
	if (record(g, buf, 1, 0))
		return 1;
	snprintf(buf, sizeof buf, "%s/diverged.jsonl", argv[1]);
	if (record(g, buf, 1, 1))
		return 1;
	snprintf(buf, sizeof buf, "%s/bad.jsonl", argv[1]);
	if (record(g, buf, 1, 2))
		return 1;
	react_pattern_destroy(g);
	return 0;
}
