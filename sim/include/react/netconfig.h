/*
 * react/netconfig.h - the network part of a scenario: the fields the
 * simulators read.
 *
 * The network fields are the `topology` section, `ecmp_ports`, `mtu` and
 * the `congestion` section (external flows, degraded links); docs/
 * scenarios.md describes each.  The runner owns the scenario format (YAML,
 * sweeps, --set, the jobs): it reads the fields this catalogue lists like
 * any of its own, checking each value against the field's type.
 */
#ifndef REACT_NETCONFIG_H
#define REACT_NETCONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "react/status.h"

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

#ifdef __cplusplus
}
#endif
#endif
