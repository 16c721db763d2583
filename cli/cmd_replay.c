/*
 * react replay PATTERN FCTS.jsonl [--seed S] [--set key=value]... [--estimate P.json]
 *              [--estimate-with ESTIMATOR]
 *
 * Feeds a recorded FCT trace through a fresh controller and prints its
 * decision log (one JSON line per batch) to stdout.  The controller gets
 * the parameters the trace's header records (seed included; the backend is
 * reported); --seed and --set change them, with a notice.  A trace without
 * a header (written before traces recorded their run) replays with the
 * default parameters and seed 1, with a notice.  Exit codes: 0 the trace
 * replayed; 1 the trace ran a pattern other than the one the replaying
 * controller would run at some epoch (decisions diverged); 2 bad input.
 * --estimate P.json: after every batch, one more line with the controller's
 * estimate of P against its base pattern at that point (P: a transform of
 * PATTERN, e.g. the oracle's pattern), to tell a search that did not reach
 * a better pattern from an estimate that does not see it.
 * --estimate-with E: those lines from estimator E's timing on the same
 * history (the decisions stay the controller's own), to compare how
 * estimators see one pattern along one run.
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
	           "                    [--estimate P.json [--estimate-with ESTIMATOR]]\n"
	           "  Replays a recorded trace through a fresh controller; prints the decision log.\n"
	           "  The controller gets the parameters and seed the trace records; --seed and\n"
	           "  --set change them (a trace without them: the defaults below, seed 1).\n"
	           "  --estimate P.json: after every batch, a line {\"epoch\",\"base_hash\",\n"
	           "  \"estimate_hash\",\"est_base\",\"est\",\"est_gain\"}: the controller's whole-pattern\n"
	           "  estimate of P, a transform of PATTERN (the oracle's pattern, say), against its\n"
	           "  base pattern.  --estimate-with E: those estimates by estimator E (paper,\n"
	           "  pattern, overlap or fluid; paper times as pattern does) on the same history,\n"
	           "  while the decisions stay those of the controller's own estimator.\n"
	           "  Exit 0: replayed; 1: the trace's pattern differs from the controller's at an\n"
	           "  epoch; 2: bad input.  Parameters (--set):\n");
	react_params_t dp;
	react_params_default(&dp);
	for (size_t i = 0; i < react_params_count(); i++) {
		const char *name, *sym, *unit, *what;
		char defs[64];
		double def;
		react_params_describe(i, &name, &sym, &unit, &def, &what);
		/* an enum's default by its name, not its index */
		char *end = NULL;
		if (react_params_get(&dp, name, defs, sizeof defs) != REACT_OK ||
		    (strtod(defs, &end), end && *end == '\0'))
			snprintf(defs, sizeof defs, "%.9g", def);
		fprintf(f, "    %-15s %-8s default %-8s %-11s %s\n", name, sym, defs, unit, what);
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
	const char *ppath = NULL, *tpath = NULL, *epath = NULL;
	int ewith = -1; /* --estimate-with: REACT_EST_*, -1: the controller's own */
	react_params_t prm;
	react_pattern_t *pat = NULL, *epat = NULL;
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
		} else if (!strcmp(argv[i], "--estimate")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "react replay: --estimate needs a pattern file\n");
				return 2;
			}
			epath = argv[++i];
		} else if (!strcmp(argv[i], "--estimate-with")) {
			react_params_t tmp;
			if (i + 1 >= argc) {
				fprintf(stderr, "react replay: --estimate-with needs an estimator (paper, pattern, "
				        "overlap or fluid)\n");
				return 2;
			}
			react_params_default(&tmp);
			if (react_params_set(&tmp, "estimator", argv[++i], why, sizeof why) != REACT_OK) {
				fprintf(stderr, "react replay: --estimate-with: %s\n", why);
				return 2;
			}
			ewith = tmp.estimator;
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
	if (ewith >= 0 && !epath) {
		fprintf(stderr, "react replay: --estimate-with needs --estimate P.json\n");
		return 2;
	}
	why[0] = 0;
	if (react_pattern_read_json(ppath, &pat, why, sizeof why) != REACT_OK) {
		fprintf(stderr, "react replay: %s\n", why[0] ? why : ppath);
		goto out;
	}
	if (epath) {
		why[0] = 0;
		if (react_pattern_read_json(epath, &epat, why, sizeof why) != REACT_OK) {
			fprintf(stderr, "react replay: %s\n", why[0] ? why : epath);
			goto out;
		}
		if (!react_pattern_same_flows(pat, epat)) {
			fprintf(stderr, "react replay: --estimate %s: expected a transform of %s (the same "
			        "ranks and flows: steps, chunks and bytes in the same order)\n", epath, ppath);
			goto out;
		}
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
		react_ctl_stats_t s0, s1;
		react_ctl_stats(ctl, &s0);
		st = react_ctl_observe(ctl, ep.epoch, ep.fct_s, ep.nflows, ep.epoch_time_s, NULL);
		react_ctl_stats(ctl, &s1);
		if (st == REACT_OK && epat && s1.batches > s0.batches) {
			double e0, e;
			st = ewith >= 0 ? react_ctl_estimate_with(ctl, epat, ewith, &e0, &e)
			                : react_ctl_estimate(ctl, epat, &e0, &e);
			if (st == REACT_OK)
				printf("{\"epoch\":%" PRId64 ",\"base_hash\":\"%016" PRIx64 "\",\"estimate_hash\":\"%016"
				       PRIx64 "\",\"est_base\":%.10g,\"est\":%.10g,\"est_gain\":%.6f}\n",
				       ep.epoch, react_pattern_hash(react_ctl_base(ctl)), react_pattern_hash(epat),
				       e0, e, 1.0 - e / e0);
		}
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
	react_pattern_destroy(epat);
	return rc;
}
