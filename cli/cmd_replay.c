/*
 * react replay PATTERN FCTS.jsonl [--seed S] [--set key=value]...
 *
 * Feeds a recorded FCT trace through a fresh controller and prints its
 * decision log (one JSON line per batch) to stdout.  The controller gets
 * the parameters the trace's header records (seed included; the backend is
 * reported); --seed and --set change them, with a notice.  A trace without
 * a header (written before traces recorded their run) replays with the
 * default parameters and seed 1, with a notice.  Exit codes: 0 the trace
 * replayed; 1 the trace ran a pattern other than the one the replaying
 * controller would run at some epoch (decisions diverged); 2 bad input.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "react/controller.h"
#include "react/pattern_io.h"
#include "react/trace.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: react replay PATTERN.json FCTS.jsonl [--seed S] [--set key=value]...\n"
	           "  Replays a recorded trace through a fresh controller; prints the decision log.\n"
	           "  The controller gets the parameters and seed the trace records; --seed and\n"
	           "  --set change them (a trace without them: the defaults below, seed 1).\n"
	           "  Exit 0: replayed; 1: the trace's pattern differs from the controller's at an\n"
	           "  epoch; 2: bad input.  Parameters (--set):\n");
	for (size_t i = 0; i < react_params_count(); i++) {
		const char *name, *sym, *unit, *what;
		double def;
		react_params_describe(i, &name, &sym, &unit, &def, &what);
		fprintf(f, "    %-15s %-8s default %-6.9g %-11s %s\n", name, sym, def, unit, what);
	}
}

/* Apply one --seed / --set override on top of the trace's parameters;
 * notice when it changes what the trace recorded. */
static int apply_override(react_params_t *prm, const char *key, const char *val,
                          const char *tpath, int recorded)
{
	char why[1024], before[64], after[64];
	react_params_get(prm, key, before, sizeof before);
	if (react_params_set(prm, key, val, why, sizeof why) != REACT_OK) {
		fprintf(stderr, "react replay: %s\n", why);
		return -1;
	}
	react_params_get(prm, key, after, sizeof after);
	if (recorded && strcmp(before, after))
		fprintf(stderr, "react replay: %s: %s=%s replaces the recorded %s=%s; the decisions "
		        "may differ from the run's\n", tpath, key, after, key, before);
	return 0;
}

int react_cmd_replay(int argc, char **argv)
{
	const char *ppath = NULL, *tpath = NULL;
	react_params_t prm;
	react_pattern_t *pat = NULL;
	react_ctl_t *ctl = NULL;
	react_trace_reader_t *rd = NULL;
	react_trace_run_t run;
	char why[1024];
	int rc = 2, recorded, overrides = 0;
	int64_t expect = 0;

	/* the overrides are checked here and applied once the trace's own
	 * parameters are known */
	react_params_default(&prm);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--seed") || !strcmp(argv[i], "--set")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "react replay: %s needs a value\n", argv[i]);
				return 2;
			}
			const char *val = argv[++i], *eq = strchr(val, '=');
			if (!strcmp(argv[i - 1], "--set") && (!eq || eq == val)) {
				fprintf(stderr, "react replay: --set %s: expected key=value\n", val);
				return 2;
			}
			overrides++;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "react replay: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!ppath) {
			ppath = argv[i];
		} else if (!tpath) {
			tpath = argv[i];
		} else {
			fprintf(stderr, "react replay: unexpected argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (!ppath || !tpath) {
		usage(stderr);
		return 2;
	}
	why[0] = 0;
	if (react_pattern_read_json(ppath, &pat, why, sizeof why) != REACT_OK) {
		fprintf(stderr, "react replay: %s\n", why[0] ? why : ppath);
		goto out;
	}
	if (react_trace_reader_open(tpath, &rd, why, sizeof why) != REACT_OK) {
		fprintf(stderr, "react replay: %s\n", why);
		goto out;
	}
	recorded = react_trace_reader_run(rd, &run);
	if (recorded) {
		char seed[32];
		prm = run.params;
		react_params_get(&prm, "seed", seed, sizeof seed);
		fprintf(stderr, "react replay: %s: a %s run, seed %s; replaying with the parameters it "
		        "records\n", tpath, run.backend, seed);
		if (run.missing[0])
			fprintf(stderr, "react replay: %s: the trace does not record %s: replaying with "
			        "the defaults\n", tpath, run.missing);
	} else {
		fprintf(stderr, "react replay: %s: no run header (a trace written before traces "
		        "recorded their parameters): replaying with the default parameters and seed "
		        "1%s\n", tpath, overrides ? ", but for the values given" : "");
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") && strcmp(argv[i], "--set"))
			continue;
		char kbuf[128] = "seed";
		const char *val = argv[i + 1];
		if (!strcmp(argv[i], "--set")) {
			const char *eq = strchr(val, '=');
			snprintf(kbuf, sizeof kbuf, "%.*s", (int)(eq - val), val);
			val = eq + 1;
		}
		if (apply_override(&prm, kbuf, val, tpath, recorded))
			goto out;
		i++;
	}
	if (react_ctl_create(pat, &prm, &ctl) != REACT_OK) {
		fprintf(stderr, "react replay: %s: the controller refused the pattern (it must pass the semantic check)\n",
		        ppath);
		goto out;
	}
	react_ctl_set_log(ctl, stdout);
	for (;;) {
		react_trace_epoch_t ep;
		int got = 0;
		const react_pattern_t *run;
		uint64_t h;
		react_status_t st;
		if (react_trace_next(rd, &ep, &got, why, sizeof why) != REACT_OK) {
			fprintf(stderr, "react replay: %s\n", why);
			goto out;
		}
		if (!got)
			break;
		if (ep.epoch != expect) {
			fprintf(stderr, "react replay: %s:%ld: epoch %" PRId64 ": expected epoch %" PRId64
			        " (epochs must be consecutive from 0)\n", tpath, ep.line, ep.epoch, expect);
			goto out;
		}
		run = react_ctl_pattern_for(ctl, ep.epoch);
		if (ep.nflows != run->nflows) {
			fprintf(stderr, "react replay: %s:%ld: field \"fct\": %zu values, expected %zu (flows of the pattern)\n",
			        tpath, ep.line, ep.nflows, run->nflows);
			goto out;
		}
		h = react_pattern_hash(run);
		if (h != ep.pattern_hash) {
			fflush(stdout);
			fprintf(stderr, "react replay: %s:%ld: DIVERGED at epoch %" PRId64 ": the trace ran pattern %016" PRIx64
			        ", the replaying controller runs %016" PRIx64 "\n",
			        tpath, ep.line, ep.epoch, ep.pattern_hash, h);
			rc = 1;
			goto out;
		}
		st = react_ctl_observe(ctl, ep.epoch, ep.fct_s, ep.nflows, ep.epoch_time_s, NULL);
		if (st != REACT_OK) {
			fprintf(stderr, "react replay: %s:%ld: the controller rejected epoch %" PRId64 ": %s\n", tpath,
			        ep.line, ep.epoch, react_status_str(st));
			rc = st == REACT_ESEMANTIC ? 1 : 2;
			goto out;
		}
		expect++;
	}
	rc = 0;
out:
	fflush(stdout);
	react_trace_reader_close(rd);
	react_ctl_destroy(ctl);
	react_pattern_destroy(pat);
	return rc;
}
