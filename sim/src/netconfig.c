/* The network part of a scenario: the catalogue of the fields the
 * simulators read (react/netconfig.h). */
#include <string.h>

#include "react/netconfig.h"

/* ---- the catalogue ---- */

static const char *const topo_types[] = {"star", "fattree", "alibaba", "file", NULL};

#define TOPO "topology"
#define EXT "congestion.external"
#define DEG "congestion.degraded_links"
static const react_net_field_def_t defs[REACT_NET_NFIELDS] = {
	[REACT_NET_ECMP_PORTS] = {"", "ecmp_ports", "", REACT_NET_BEFORE_JOBS, REACT_NET_INT, 1, 1},
	[REACT_NET_MTU] = {"", "mtu", "", REACT_NET_BEFORE_JOBS, REACT_NET_INT, 1, 64},
	[REACT_NET_TOPO_TYPE] = {TOPO, "type", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_CHOICE, 1,
	                         0, topo_types, "a topology type: star, fattree, alibaba or file",
	                         .required = 1},
	[REACT_NET_TOPO_HOSTS] = {TOPO, "hosts", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_INT, 1, 0},
	[REACT_NET_TOPO_K] = {TOPO, "k", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_INT, 1, 2},
	[REACT_NET_TOPO_FILE] = {TOPO, "file", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_FILE, 1},
	[REACT_NET_TOPO_CSV] = {TOPO, "csv", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_FILE, 1},
	[REACT_NET_TOPO_AGGS] = {TOPO, "aggs_per_tor", "topology", REACT_NET_BEFORE_JOBS,
	                         REACT_NET_INT, 1, 1},
	[REACT_NET_TOPO_PATH] = {TOPO, "path", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_FILE, 1},
	[REACT_NET_TOPO_RATE] = {TOPO, "rate", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_RATE, 1},
	[REACT_NET_TOPO_DELAY] = {TOPO, "delay", "topology", REACT_NET_BEFORE_JOBS, REACT_NET_TIME, 1},
	[REACT_NET_EXT_JOB] = {EXT, "job", "external", REACT_NET_AFTER_JOBS, REACT_NET_STR, 0,
	                       .names_job = 1},
	[REACT_NET_EXT_PAIRS] = {EXT, "congested_pairs", "external", REACT_NET_AFTER_JOBS,
	                         REACT_NET_INT, 1, 0},
	[REACT_NET_EXT_P] = {EXT, "p", "external", REACT_NET_AFTER_JOBS, REACT_NET_INT, 1, 0},
	[REACT_NET_EXT_START] = {EXT, "start", "external", REACT_NET_AFTER_JOBS, REACT_NET_TIME, 1},
	[REACT_NET_EXT_END] = {EXT, "end", "external", REACT_NET_AFTER_JOBS, REACT_NET_TIME, 1},
	[REACT_NET_DEG_COUNT] = {DEG, "count", "degraded", REACT_NET_AFTER_JOBS, REACT_NET_INT, 1, 0},
	[REACT_NET_DEG_RATE] = {DEG, "rate", "degraded", REACT_NET_AFTER_JOBS, REACT_NET_RATE, 1,
	                        .required_with = "count"},
};
#undef TOPO
#undef EXT
#undef DEG

const react_net_field_def_t *react_net_field_def(react_net_field_t f)
{
	return (unsigned)f < REACT_NET_NFIELDS ? &defs[f] : NULL;
}

/* The maps network fields live in, each after its parent, in the order an
 * error about an unknown key lists them. */
static const struct {
	const char *path;   /* dotted, from the top level */
	const char *key;    /* its key in its parent */
} sections[] = {
	{"topology", "topology"},
	{"congestion", "congestion"},
	{"congestion.external", "external"},
	{"congestion.degraded_links", "degraded_links"},
};

/* Whether `path` is `section` or a section below it. */
static int within(const char *path, const char *section)
{
	size_t n = strlen(section);
	return !strncmp(path, section, n) && (path[n] == 0 || path[n] == '.');
}

size_t react_net_keys(const char *section, react_net_stage_t stage, const char **out,
                      size_t max)
{
	size_t k = 0, len = strlen(section);
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
		const char *path = sections[i].path;
		size_t plen = strlen(path) - strlen(sections[i].key);
		/* the parent's path is path[0 .. plen - 1) ("" at the top level) */
		if (plen != (len ? len + 1 : 0) || strncmp(path, section, len))
			continue;
		if (!len) {
			/* a top-level section belongs to the stage of its fields */
			int f = 0;
			while (f < REACT_NET_NFIELDS && !within(defs[f].section, path))
				f++;
			if (f == REACT_NET_NFIELDS || defs[f].stage != stage)
				continue;
		}
		if (k < max)
			out[k] = sections[i].key;
		k++;
	}
	for (int f = 0; f < REACT_NET_NFIELDS; f++)
		if (!strcmp(defs[f].section, section) && (len || defs[f].stage == stage)) {
			if (k < max)
				out[k] = defs[f].key;
			k++;
		}
	return k;
}
