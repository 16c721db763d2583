/*
 * react/netconfig.h - the network part of a scenario: the fields the
 * simulators read, and their resolution into a run (react/backend.h).
 *
 * The network fields are the `topology` section, `ecmp_ports`, `mtu` and
 * the `congestion` section (external flows, degraded links); docs/
 * scenarios.md describes each.  The runner owns the scenario format (YAML,
 * sweeps, --set, the jobs): it reads the fields this catalogue lists like
 * any of its own, checking each value against the field's type, and hands
 * the values one configuration picked to the resolver, in three stages:
 *
 *     react_net_open()     the topology (before the jobs: they are placed on it)
 *     react_net_place()    each job's hosts, in file order
 *     react_net_finish()   the external flows and degraded links, ecmp_ports, mtu
 *
 * Every random choice (the placements, the external flows' sources then
 * destinations, the degraded links) is drawn in that order from one
 * gsl_rng_mt19937 seeded with the configuration's seed, so a configuration
 * resolves to the same hosts, flows and links bit for bit every time.
 *
 * Errors are for a user: err (size errlen) gets "WHERE: field 'x': expected
 * ..., got ...", WHERE being where the runner says the field is written
 * (react_net_value_t.where); REACT_EINVAL for an impossible value (hosts
 * beyond the topology, a placement that does not fit, too many congested
 * pairs or degraded links), REACT_EIO or REACT_EPARSE for a topology file,
 * REACT_ENOMEM.
 */
#ifndef REACT_NETCONFIG_H
#define REACT_NETCONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "react/backend.h"
#include "react/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the catalogue ---- */

/* The network fields, in the order a scenario's sweep axes list them when
 * they share a line (or all come from --set). */
typedef enum react_net_field {
	REACT_NET_ECMP_PORTS = 0, /* ecmp_ports: connections (source ports) per logical flow */
	REACT_NET_MTU,            /* mtu: bytes (ns-3) */
	REACT_NET_TOPO_TYPE,      /* topology.type: star, fattree, alibaba or file */
	REACT_NET_TOPO_HOSTS,     /* topology.hosts: a star's hosts; alibaba csv: hosts kept */
	REACT_NET_TOPO_K,         /* topology.k: the fat-tree's parameter */
	REACT_NET_TOPO_FILE,      /* topology.file: a topology file (alibaba, file) */
	REACT_NET_TOPO_CSV,       /* topology.csv: the Alibaba cluster CSV */
	REACT_NET_TOPO_AGGS,      /* topology.aggs_per_tor: alibaba csv */
	REACT_NET_TOPO_PATH,      /* topology.path: a topology file (file) */
	REACT_NET_TOPO_RATE,      /* topology.rate: every link's rate */
	REACT_NET_TOPO_DELAY,     /* topology.delay: every link's delay */
	REACT_NET_EXT_JOB,        /* congestion.external.job: whose hosts send */
	REACT_NET_EXT_PAIRS,      /* congestion.external.congested_pairs */
	REACT_NET_EXT_P,          /* congestion.external.p: flows per pair */
	REACT_NET_EXT_START,      /* congestion.external.start */
	REACT_NET_EXT_END,        /* congestion.external.end */
	REACT_NET_DEG_COUNT,      /* congestion.degraded_links.count */
	REACT_NET_DEG_RATE,       /* congestion.degraded_links.rate */
	REACT_NET_NFIELDS
} react_net_field_t;

typedef enum react_net_type {
	REACT_NET_INT = 0, /* an integer >= imin (a sweep may give a range a..b) */
	REACT_NET_RATE,    /* a rate with a unit (react/units.h), above 0 */
	REACT_NET_TIME,    /* a time with a unit, or 0 */
	REACT_NET_STR,     /* a non-empty string */
	REACT_NET_FILE,    /* a file name: relative to the scenario file's directory */
	REACT_NET_CHOICE   /* one of `choices` */
} react_net_type_t;

/* When a field is read: the network itself before the jobs (which are
 * placed on it), the congestion after them (it names a job's hosts). */
typedef enum react_net_stage {
	REACT_NET_BEFORE_JOBS = 0,
	REACT_NET_AFTER_JOBS
} react_net_stage_t;

typedef struct react_net_field_def {
	const char *section;        /* the map holding the field: "" (the top level),
	                             * "topology", "congestion.external", ... */
	const char *key;
	const char *axis_section;   /* prefix of its sweep axis's name when two axes share
	                             * the key ("topology.rate", "degraded.rate"); "" */
	react_net_stage_t stage;
	react_net_type_t type;
	int sweep;                  /* 0: one value only (the field names something) */
	int64_t imin;               /* REACT_NET_INT: the smallest value */
	const char *const *choices; /* REACT_NET_CHOICE: the values, NULL-terminated */
	const char *desc;           /* REACT_NET_CHOICE: what is expected, for errors */
	int required;               /* 1: required when its section is given */
	const char *required_with;  /* required when this other key of its section is
	                             * given; NULL: never */
	int names_job;              /* 1: the value must be the name of a job */
} react_net_field_def_t;

/* The definition of field f (< REACT_NET_NFIELDS). */
const react_net_field_def_t *react_net_field_def(react_net_field_t f);

/* The keys the map at `section` (in: "" for the top level, "congestion",
 * "congestion.external", ...) may hold among the network fields: its
 * sections, then its fields, in the order an error about an unknown key
 * lists them; at the top level only those of `stage`.  out (out): up to
 * max keys (static strings).  Returns how many there are (0: none, the
 * section is not a network one). */
size_t react_net_keys(const char *section, react_net_stage_t stage, const char **out,
                      size_t max);

/* ---- resolution ---- */

/* One field's value as a configuration picked it. */
typedef struct react_net_value {
	const char *str;   /* the value as written (already checked against the field's
	                    * type); NULL: the field is absent */
	const char *where; /* where it is written, for errors: "FILE:LINE", or "--set KEY";
	                    * for an absent field, where its section is */
	const char *path;  /* its dotted name for errors: "topology.k" */
	const char *file;  /* REACT_NET_FILE with str: the name to open (a relative name
	                    * in a scenario file made relative to the file's directory) */
} react_net_value_t;

typedef struct react_net_in {
	const react_net_value_t *value; /* REACT_NET_NFIELDS values, by react_net_field_t */
	const char *origin;       /* where an error about the whole scenario points ("FILE:1") */
	const char *dir;          /* the scenario's directory, named when a relative file
	                           * cannot be read */
	int32_t njobs;
	const int64_t *nranks;    /* per job: its ranks; without a topology section the
	                           * topology is a star of one host per rank of every job */
	uint64_t seed;            /* the configuration's seed: every random choice */
} react_net_in_t;

/* How a job's ranks are placed on hosts; hosts another job holds are never
 * free. */
typedef enum react_placement {
	REACT_PLACE_RANDOM = 0, /* distinct free hosts drawn at random, in random rank order */
	REACT_PLACE_CONTIGUOUS, /* the first run of nranks consecutive free hosts from `start` */
	REACT_PLACE_HOSTS,      /* the hosts given, rank by rank */
	REACT_PLACE_OVERLAP     /* `shared` hosts drawn from an earlier job's, the rest free
	                         * ones, all in random rank order */
} react_placement_t;

typedef struct react_net_job {
	const char *name;
	int64_t nranks;
	const char *ranks_where;     /* where the ranks come from, for "do not fit" errors */
	react_placement_t placement;
	const char *placement_where; /* CONTIGUOUS: where `start` (or the placement, else the
	                              * ranks) is written; HOSTS: the hosts list;
	                              * OVERLAP: `shared` */
	const char *placement_path;  /* HOSTS, OVERLAP: the dotted name of that field */
	int64_t start;               /* CONTIGUOUS: the first host tried */
	const int32_t *hosts;        /* HOSTS: nhosts distinct host indices */
	size_t nhosts;
	int32_t overlap;             /* OVERLAP: the earlier job's index */
	int64_t shared;              /* OVERLAP: hosts shared with it */
} react_net_job_t;

typedef struct react_net react_net_t;

/* Stage 1: build the topology (docs/scenarios.md: star, fattree, alibaba,
 * file; a file's own rates and delays unless the scenario sets them).
 * in (in): read by every stage; it and what it points to must stay valid
 * until react_net_destroy.  out (out): the resolver, NULL on failure. */
react_status_t react_net_open(const react_net_in_t *in, react_net_t **out, char *err,
                              size_t errlen);
/* The topology built (owned by net until react_net_finish). */
const react_topology_t *react_net_topology(const react_net_t *net);
/* Stage 2: place the next job (jobs 0, 1, ... of in->njobs, in order).
 * job (in): copied.  hosts (out): job->nranks host indices, rank by rank. */
react_status_t react_net_place(react_net_t *net, const react_net_job_t *job, int32_t *hosts,
                               char *err, size_t errlen);
/* Stage 3, after every job is placed: draw the external flows (sources
 * among the job's hosts, destinations outside every job) and the degraded
 * links (any tier).  run (out): topo, ext and next, degraded and ndegraded
 * (malloc'd, the caller's to free), ecmp_ports, mtu; nothing else is
 * touched.  topo (out): the topology, the caller's to destroy (run->topo
 * points to it). */
react_status_t react_net_finish(react_net_t *net, react_run_cfg_t *run, react_topology_t **topo,
                                char *err, size_t errlen);
/* Free the resolver (and the topology unless react_net_finish handed it over). */
void react_net_destroy(react_net_t *net);

#ifdef __cplusplus
}
#endif
#endif
