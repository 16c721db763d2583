/* Options and helpers shared by the scenario commands (run, sweep, regress,
 * oracle). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends.h"
#include "simopts.h"

/* Handles --backend and --set; returns 1 when argv[*i] was one of them,
 * -1 on a malformed option. */
int cli_common_opt(const char *cmd, common_opts_t *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	if (!strcmp(a, "--backend") || !strcmp(a, "--set")) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "react %s: %s needs a value\n", cmd, a);
			return -1;
		}
		const char *v = argv[++*i];
		if (!strcmp(a, "--backend")) {
			o->backend = v;
		} else {
			if (!strchr(v, '=') || o->nsets == 64) {
				fprintf(stderr, "react %s: --set expects KEY=VALUE, got '%s'\n", cmd, v);
				return -1;
			}
			o->sets[o->nsets++] = v;
		}
		return 1;
	}
	if (!strncmp(a, "--backend=", 10)) {
		o->backend = a + 10;
		return 1;
	}
	if (!strncmp(a, "--set=", 6)) {
		if (!strchr(a + 6, '=') || o->nsets == 64) {
			fprintf(stderr, "react %s: --set expects KEY=VALUE, got '%s'\n", cmd, a + 6);
			return -1;
		}
		o->sets[o->nsets++] = a + 6;
		return 1;
	}
	return 0;
}

react_scenario_t *cli_load_scenario(const char *cmd, const common_opts_t *o)
{
	char err[2048];
	react_scenario_t *s = NULL;
	if (react_scenario_load(o->path, &s, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react %s: %s\n", cmd, err);
		return NULL;
	}
	for (int i = 0; i < o->nsets; i++) {
		char key[256];
		const char *eq = strchr(o->sets[i], '=');
		size_t kl = (size_t)(eq - o->sets[i]);
		if (kl >= sizeof key)
			kl = sizeof key - 1;
		memcpy(key, o->sets[i], kl);
		key[kl] = 0;
		if (react_scenario_set(s, key, eq + 1, err, sizeof err) != REACT_OK) {
			fprintf(stderr, "react %s: %s\n", cmd, err);
			react_scenario_destroy(s);
			return NULL;
		}
	}
	return s;
}

/* The backend of configuration cfg: --backend wins over the scenario. */
const react_backend_ops_t *cli_backend_of(const char *cmd, const react_scenario_t *s,
                                          const common_opts_t *o, react_config_t *cfg)
{
	char err[1024], where[700];
	const char *name = o->backend ? o->backend : cfg->backend;
	if (o->backend)
		snprintf(where, sizeof where, "--backend");
	else
		snprintf(where, sizeof where, "%s: field 'backend'", react_scenario_backend_where(s));
	const react_backend_ops_t *b = react_cli_backend_for(name, where, err, sizeof err);
	if (!b) {
		fprintf(stderr, "react %s: %s\n", cmd, err);
		return NULL;
	}
	/* congestion the backend cannot model is an error, never ignored */
	if (react_config_check_backend(s, cfg, b->name, err, sizeof err) != REACT_OK) {
		fprintf(stderr, "react %s: %s (backend %s)\n", cmd, err, b->name);
		return NULL;
	}
	/* the backend that runs it, --backend included, is what the run's
	 * config.txt and fingerprint record: a sweep resumed with another
	 * backend reruns its configurations */
	snprintf(cfg->backend, sizeof cfg->backend, "%s", b->name);
	return b;
}

int cli_parse_count(const char *cmd, const char *opt, const char *v, long *out, long min)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < min) {
		fprintf(stderr, "react %s: %s expects an integer >= %ld, got '%s'\n", cmd, opt, min, v);
		return -1;
	}
	*out = x;
	return 0;
}

int cli_parse_progress(const char *cmd, const char *v, double *every)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v || *end || !(x >= 0) || x > 1e6) {
		fprintf(stderr, "react %s: --progress: expected seconds >= 0, got '%s'\n", cmd, v);
		return -1;
	}
	*every = x;
	return 0;
}
