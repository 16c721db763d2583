/* Scenario files: schema, sweep axes, resolution of one configuration.
 * The fields are described in docs/scenarios.md. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "react/check.h"
#include "react/generators.h"
#include "react/netconfig.h"
#include "react/pattern_io.h"
#include "react/scenario.h"
#include "react/units.h"
#include "scenario_internal.h"

/* ---- field values ---- */

typedef enum vt {
	VT_INT = 0,
	VT_DOUBLE,
	VT_BYTES,
	VT_RATE,
	VT_TIME,
	VT_BOOL,
	VT_STR,
	VT_COLL,
	VT_ALGO,
	VT_PLACE,
	VT_CHOICE  /* one of sv->choices (sv->desc says which) */
} vt_t;

/* One scalar field: absent (n = 0), one value, or a sweep axis. */
typedef struct sv {
	const char *key;      /* the field's key */
	char path[160];       /* dotted path, for messages ("jobs.tree.message") */
	char section[64];     /* prefix that disambiguates axis names */
	vt_t type;
	size_t n, cap;
	char **vals;
	const char *src;
	int line;
	long axis;            /* index into spec->axes, or -1 */
	const char *const *choices; /* VT_CHOICE: the values, NULL-terminated */
	const char *desc;     /* VT_CHOICE: what is expected */
} sv_t;

enum { PL_SCALAR = 0, PL_HOSTS, PL_OVERLAP, PL_START };

typedef struct job_spec {
	sv_t name, ranks, collective, algorithm, message, epochs, warmup, compute_gap, start, react;
	sv_t keep_running;        /* after its epochs, on while another job runs its */
	sv_t pattern;             /* a pattern file instead of a generated algorithm */
	int pl_form;
	sv_t placement;           /* PL_SCALAR: random | contiguous */
	int32_t *hosts;           /* PL_HOSTS */
	size_t nhosts;
	sv_t pl_hosts_where;      /* only src/line/path used */
	sv_t overlap, shared;     /* PL_OVERLAP */
	sv_t pl_start;            /* PL_START: contiguous from this host */
} job_spec_t;

/* REACT parameter overrides: the file's key (the controller's own name, or
 * the paper's symbol) and the name react_params_set() knows, derived from
 * the controller's parameter table (react_params_describe), so every
 * parameter is reachable from every scenario. */
typedef struct param_def {
	const char *key;
	const char *name;
	char type;       /* react_params_type: 'i', 'd', 'u', 'e' */
} param_def_t;

static param_def_t param_defs[REACT_PARAMS_MAX];
static size_t nparam_defs;

static void param_defs_init(void)
{
	if (nparam_defs)
		return;
	for (size_t i = 0; i < react_params_count() && nparam_defs + 2 <= REACT_PARAMS_MAX; i++) {
		const char *name, *sym;
		react_params_describe(i, &name, &sym, NULL, NULL, NULL);
		param_defs[nparam_defs++] = (param_def_t){name, name, react_params_type(i)};
		if (strcmp(sym, "-") && strcmp(sym, name))
			param_defs[nparam_defs++] = (param_def_t){sym, name, react_params_type(i)};
	}
}
#define NPARAMS nparam_defs
#define NPARAMS_MAX REACT_PARAMS_MAX

typedef struct spec {
	sv_t name, backend, seed, tolerance, description;
	sv_t ecmp_seed;           /* the backend's ECMP draws; absent: seed */
	sv_t net[REACT_NET_NFIELDS]; /* the simulators' fields (react/netconfig.h) */
	int32_t njobs;
	job_spec_t *jobs;
	/* gpu: the gpu backend's section */
	sv_t gpu_transport, gpu_dtype, gpu_check, gpu_latency, gpu_bw, gpu_p, gpu_start;
	int32_t (*gpu_pairs)[2];
	int32_t gpu_npairs;
	const char *gpu_pairs_src;  /* where gpu.congestion.pairs is written */
	int gpu_pairs_line;
	sv_t params[NPARAMS_MAX];
	sv_t plot_x, plot_series, plot_also;
	size_t naxes;
	sv_t **axes;
	char **axis_names;
	size_t nconfigs;
	size_t plot_xi, plot_si;
	unsigned plot_extra;    /* plot.also: REACT_PLOT_P95 | REACT_PLOT_ALGBW */
	char backend_where[512];
} spec_t;

struct react_scenario {
	char *path;
	char *dir;
	char **srcs;
	size_t nsrcs;
	ynode_t *root;
	spec_t *spec;
};

/* ---- messages ---- */

static void where_of(const char *src, int line, char *buf, size_t n)
{
	if (!strncmp(src, "--set ", 6))
		snprintf(buf, n, "%s", src);
	else
		snprintf(buf, n, "%s:%d", src, line);
}

static react_status_t fail_at(react_status_t st, char *err, size_t errlen, const char *src,
                              int line, const char *fmt, ...)
{
	char w[600], msg[1200];
	va_list ap;
	where_of(src, line, w, sizeof w);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", w, msg);
	return st;
}

static const char *type_desc(const sv_t *sv)
{
	switch (sv->type) {
	case VT_INT: return "an integer";
	case VT_DOUBLE: return "a number";
	case VT_BYTES: return "a size in bytes with a unit, such as 20MB (10^6 B), 1MiB (2^20 B) or 4096B";
	case VT_RATE: return "a rate with a unit, such as 100Gbps or 12.5GBps";
	case VT_TIME: return "a time with a unit, such as 1us or 2ms, or 0";
	case VT_BOOL: return "true or false";
	case VT_STR: return "a string";
	case VT_COLL: return "a collective: allreduce, allgather, reducescatter, broadcast or reduce";
	case VT_ALGO: return "an algorithm: tree, ring, recdbl or rhd";
	case VT_PLACE: return "random or contiguous (or a map {hosts}, {overlap, shared}, {start})";
	case VT_CHOICE: return sv->desc;
	}
	return "?";
}

/* Names of the scenario and its jobs become directory and file names, CSV
 * cells and plot titles (react_name_ok) */
#define NAME_RULE REACT_NAME_RULE

static react_status_t check_value(const sv_t *sv, const char *v)
{
	int64_t i;
	double d;
	uint64_t b;
	int bo;
	react_collective_t c;
	react_algorithm_t a;
	switch (sv->type) {
	case VT_INT: return sc_parse_int(v, &i);
	case VT_DOUBLE: return sc_parse_double(v, &d);
	case VT_BYTES: return sc_parse_bytes(v, &b);
	case VT_RATE: return sc_parse_rate(v, &d);
	case VT_TIME: return sc_parse_time(v, &d);
	case VT_BOOL: return sc_parse_bool(v, &bo);
	case VT_STR: return *v ? REACT_OK : REACT_EINVAL;
	case VT_COLL: return react_collective_parse(v, &c);
	case VT_ALGO: return react_algorithm_parse(v, &a);
	case VT_PLACE:
		return (!strcmp(v, "random") || !strcmp(v, "contiguous")) ? REACT_OK : REACT_EINVAL;
	case VT_CHOICE:
		for (const char *const *c = sv->choices; *c; c++)
			if (!strcmp(*c, v))
				return REACT_OK;
		return REACT_EINVAL;
	}
	return REACT_EINVAL;
}

static void sv_clear(sv_t *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->vals[i]);
	free(sv->vals);
	sv->vals = NULL;
	sv->n = sv->cap = 0;
}

static react_status_t sv_push(sv_t *sv, const char *v)
{
	if (sv->n == sv->cap) {
		size_t cap = sv->cap ? 2 * sv->cap : 4;
		char **nv = realloc(sv->vals, cap * sizeof *nv);
		if (!nv)
			return REACT_ENOMEM;
		sv->vals = nv;
		sv->cap = cap;
	}
	if (!(sv->vals[sv->n] = strdup(v)))
		return REACT_ENOMEM;
	sv->n++;
	return REACT_OK;
}

/* The most values one field may sweep (a range and a list together). */
#define MAX_VALUES 100000

/* "a..b" for integer fields: inclusive. */
static int is_range(const char *s, int64_t *a, int64_t *b)
{
	const char *dots = strstr(s, "..");
	char left[64];
	if (!dots || (size_t)(dots - s) >= sizeof left)
		return 0;
	memcpy(left, s, (size_t)(dots - s));
	left[dots - s] = 0;
	return sc_parse_int(left, a) == REACT_OK && sc_parse_int(dots + 2, b) == REACT_OK;
}

typedef struct walk {
	spec_t *sp;
	char *err;
	size_t errlen;
} walk_t;

/* Read field `key` of `map` into sv.  allow_list: 0 for names that other
 * fields refer to.  VT_CHOICE: the caller sets sv->choices and sv->desc. */
static react_status_t field(walk_t *w, const ynode_t *map, const char *key, const char *section,
                            const char *path_prefix, vt_t type, int allow_list, int64_t imin,
                            sv_t *sv)
{
	react_status_t st = REACT_OK;
	sv->key = key;
	sv->type = type;
	sv->axis = -1;
	snprintf(sv->path, sizeof sv->path, "%s%s", path_prefix, key);
	snprintf(sv->section, sizeof sv->section, "%s", section);
	sv->src = map ? map->src : "";
	sv->line = map ? map->line : 0;
	const ynode_t *v = ynode_get(map, key);
	if (!v)
		return REACT_OK;
	sv->src = v->src;
	sv->line = v->line;
	const ynode_t *one = v;
	size_t nitems = 1;
	if (v->kind == YN_SEQ) {
		if (!allow_list)
			return fail_at(REACT_EPARSE, w->err, w->errlen, v->src, v->line,
			               "field '%s': expected %s, got a list (this field cannot be swept)",
			               sv->path, type_desc(sv));
		if (v->n == 0)
			return fail_at(REACT_EPARSE, w->err, w->errlen, v->src, v->line,
			               "field '%s': expected %s or a non-empty list, got []", sv->path,
			               type_desc(sv));
		nitems = v->n;
	} else if (v->kind == YN_MAP) {
		return fail_at(REACT_EPARSE, w->err, w->errlen, v->src, v->line,
		               "field '%s': expected %s, got a map", sv->path, type_desc(sv));
	}
	for (size_t i = 0; i < nitems; i++) {
		if (v->kind == YN_SEQ)
			one = v->items[i];
		if (one->kind != YN_SCALAR)
			return fail_at(REACT_EPARSE, w->err, w->errlen, one->src, one->line,
			               "field '%s': expected %s, got a %s", sv->path, type_desc(sv),
			               one->kind == YN_MAP ? "map" : "nested list");
		int64_t a, b;
		if (type == VT_INT && one->plain && is_range(one->str, &a, &b)) {
			if (!allow_list)
				return fail_at(REACT_EPARSE, w->err, w->errlen, one->src, one->line,
				               "field '%s': expected %s, got a range (this field cannot be swept)",
				               sv->path, type_desc(sv));
			if (b < a)
				return fail_at(REACT_EPARSE, w->err, w->errlen, one->src, one->line,
				               "field '%s': range '%s': expected a..b with a <= b", sv->path,
				               one->str);
			if ((uint64_t)b - (uint64_t)a >= MAX_VALUES - sv->n)
				return fail_at(REACT_EINVAL, w->err, w->errlen, one->src, one->line,
				               "field '%s': range '%s': more than %d values in the field",
				               sv->path, one->str, MAX_VALUES);
			for (int64_t x = a; x <= b; x++) {
				char buf[32];
				if (x < imin)
					return fail_at(REACT_EINVAL, w->err, w->errlen, one->src, one->line,
					               "field '%s': expected an integer >= %" PRId64 ", got %" PRId64,
					               sv->path, imin, x);
				snprintf(buf, sizeof buf, "%" PRId64, x);
				if ((st = sv_push(sv, buf)) != REACT_OK)
					return st;
			}
			continue;
		}
		if (check_value(sv, one->str) != REACT_OK) {
			char why[160] = "";
			if (type == VT_BYTES || type == VT_RATE || type == VT_TIME) {
				react_units_why(type == VT_BYTES ? REACT_UNIT_BYTES
				                : type == VT_RATE ? REACT_UNIT_RATE : REACT_UNIT_TIME,
				                one->str, why, sizeof why);
				if (!why[0] && type == VT_RATE)
					snprintf(why, sizeof why, "a rate must be above 0");
			}
			return fail_at(REACT_EPARSE, w->err, w->errlen, one->src, one->line,
			               "field '%s': expected %s, got '%s'%s%s%s", sv->path,
			               type_desc(sv), one->str, why[0] ? " (" : "", why,
			               why[0] ? ")" : "");
		}
		if (type == VT_INT) {
			int64_t x;
			sc_parse_int(one->str, &x);
			if (x < imin)
				return fail_at(REACT_EINVAL, w->err, w->errlen, one->src, one->line,
				               "field '%s': expected an integer >= %" PRId64 ", got %s",
				               sv->path, imin, one->str);
		}
		if (sv->n >= MAX_VALUES)
			return fail_at(REACT_EINVAL, w->err, w->errlen, one->src, one->line,
			               "field '%s': more than %d values", sv->path, MAX_VALUES);
		if ((st = sv_push(sv, one->str)) != REACT_OK)
			return st;
	}
	return REACT_OK;
}

/* Reject keys of `map` not in `allowed` (NULL-terminated). */
static react_status_t only_keys(walk_t *w, const ynode_t *map, const char *section,
                                const char *const *allowed)
{
	for (size_t i = 0; i < map->n; i++) {
		int ok = 0;
		for (const char *const *a = allowed; *a; a++)
			if (!strcmp(*a, map->keys[i]))
				ok = 1;
		if (!ok) {
			/* every allowed key, however many: the list is sized to them */
			size_t len = 1, at = 0;
			for (const char *const *a = allowed; *a; a++)
				len += strlen(*a) + 2;
			char *list = malloc(len);
			if (!list)
				return REACT_ENOMEM;
			list[0] = '\0';
			for (const char *const *a = allowed; *a; a++)
				at += (size_t)snprintf(list + at, len - at, "%s%s", *a, a[1] ? ", " : "");
			const ynode_t *v = map->items[i];
			const char *src = v->src != map->src ? v->src : map->src;
			int line = v->src != map->src ? v->line : map->key_line[i];
			react_status_t st = fail_at(REACT_EPARSE, w->err, w->errlen, src, line,
			                            "unknown field '%s' in %s; expected one of: %s",
			                            map->keys[i], section, list);
			free(list);
			return st;
		}
	}
	return REACT_OK;
}

static react_status_t need_map(walk_t *w, const ynode_t *n, const char *path)
{
	if (n->kind != YN_MAP)
		return fail_at(REACT_EPARSE, w->err, w->errlen, n->src, n->line,
		               "field '%s': expected a map of fields, got a %s", path,
		               n->kind == YN_SEQ ? "list" : "scalar");
	return REACT_OK;
}

static void spec_free(spec_t *sp)
{
	if (!sp)
		return;
	sv_t *tops[] = {&sp->name, &sp->backend, &sp->seed, &sp->tolerance, &sp->description,
	                &sp->plot_x, &sp->plot_series, &sp->plot_also, &sp->gpu_transport,
	                &sp->gpu_dtype, &sp->gpu_check, &sp->gpu_latency, &sp->gpu_bw, &sp->gpu_p,
	                &sp->gpu_start, &sp->ecmp_seed};
	for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++)
		sv_clear(tops[i]);
	for (size_t i = 0; i < REACT_NET_NFIELDS; i++)
		sv_clear(&sp->net[i]);
	for (size_t i = 0; i < NPARAMS; i++)
		sv_clear(&sp->params[i]);
	for (int32_t j = 0; j < sp->njobs; j++) {
		job_spec_t *js = &sp->jobs[j];
		sv_t *f[] = {&js->name, &js->ranks, &js->collective, &js->algorithm, &js->message,
		             &js->epochs, &js->warmup, &js->compute_gap, &js->start, &js->react,
		             &js->keep_running, &js->placement, &js->overlap, &js->shared,
		             &js->pl_start, &js->pattern};
		for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
			sv_clear(f[i]);
		free(js->hosts);
	}
	free(sp->jobs);
	free(sp->gpu_pairs);
	for (size_t i = 0; i < sp->naxes; i++)
		free(sp->axis_names[i]);
	free(sp->axis_names);
	free(sp->axes);
	free(sp);
}

static react_status_t add_axis(spec_t *sp, sv_t *sv)
{
	if (sv->n <= 1)
		return REACT_OK;
	sv_t **na = realloc(sp->axes, (sp->naxes + 1) * sizeof *na);
	if (!na)
		return REACT_ENOMEM;
	sp->axes = na;
	sv->axis = (long)sp->naxes;
	na[sp->naxes++] = sv;
	return REACT_OK;
}

static int job_index(const spec_t *sp, const char *name, int32_t below)
{
	for (int32_t j = 0; j < below; j++)
		if (sp->jobs[j].name.n && !strcmp(sp->jobs[j].name.vals[0], name))
			return j;
	return -1;
}

/* ---- the simulators' fields (react/netconfig.h) ---- */

/* Read network field f of `map` (NULL: its section is absent). */
static react_status_t net_field(walk_t *w, const ynode_t *map, react_net_field_t f)
{
	static const vt_t vt[] = {[REACT_NET_INT] = VT_INT, [REACT_NET_RATE] = VT_RATE,
	                          [REACT_NET_TIME] = VT_TIME, [REACT_NET_STR] = VT_STR,
	                          [REACT_NET_FILE] = VT_STR, [REACT_NET_CHOICE] = VT_CHOICE};
	const react_net_field_def_t *d = react_net_field_def(f);
	sv_t *sv = &w->sp->net[f];
	char prefix[96];
	snprintf(prefix, sizeof prefix, "%s%s", d->section, d->section[0] ? "." : "");
	sv->choices = d->choices;
	sv->desc = d->desc;
	return field(w, map, d->key, d->axis_section, prefix, vt[d->type], d->sweep, d->imin, sv);
}

/* The map at the dotted `path` (a network section), checked to be a map of
 * the keys react_net_keys allows, and so is each map above it.  out: the
 * map, NULL when absent. */
static react_status_t net_section(walk_t *w, const ynode_t *root, const char *path,
                                  react_net_stage_t stage, const ynode_t **out)
{
	const char *keys[REACT_NET_NFIELDS + 1];
	const ynode_t *n = root;
	react_status_t st;
	*out = NULL;
	for (size_t at = 0;;) {
		char sub[128], key[64];
		size_t len = strcspn(path + at, ".");
		snprintf(key, sizeof key, "%.*s", (int)len, path + at);
		snprintf(sub, sizeof sub, "%.*s", (int)(at + len), path);
		if (!(n = ynode_get(n, key)))
			return REACT_OK;
		size_t nk = react_net_keys(sub, stage, keys, REACT_NET_NFIELDS);
		keys[nk < REACT_NET_NFIELDS ? nk : REACT_NET_NFIELDS] = NULL;
		if ((st = need_map(w, n, sub)) != REACT_OK || (st = only_keys(w, n, sub, keys)) != REACT_OK)
			return st;
		if (!path[at + len])
			break;
		at += len + 1;
	}
	*out = n;
	return REACT_OK;
}

/* The network fields of the top level (ecmp_ports, mtu). */
static react_status_t walk_net_scalars(walk_t *w, const ynode_t *root)
{
	react_status_t st;
	for (int f = 0; f < REACT_NET_NFIELDS; f++)
		if (!react_net_field_def(f)->section[0] && (st = net_field(w, root, f)) != REACT_OK)
			return st;
	return REACT_OK;
}

/* The network sections of one stage, section by section: each one's
 * fields, then what its fields require of each other. */
static react_status_t walk_net_sections(walk_t *w, const ynode_t *root, react_net_stage_t stage)
{
	spec_t *sp = w->sp;
	react_status_t st;
	for (int f = 0, e; f < REACT_NET_NFIELDS; f = e) {
		const react_net_field_def_t *d = react_net_field_def(f);
		for (e = f + 1; e < REACT_NET_NFIELDS && !strcmp(react_net_field_def(e)->section,
		                                                 d->section); e++)
			;
		if (!d->section[0] || d->stage != stage)
			continue;
		const ynode_t *map;
		if ((st = net_section(w, root, d->section, stage, &map)) != REACT_OK)
			return st;
		for (int g = f; g < e; g++)
			if ((st = net_field(w, map, g)) != REACT_OK)
				return st;
		for (int g = f; map && g < e; g++) {
			const react_net_field_def_t *dg = react_net_field_def(g);
			const sv_t *sv = &sp->net[g];
			if (dg->required && !sv->n)
				return fail_at(REACT_EPARSE, w->err, w->errlen, map->src, map->line,
				               "field '%s': required; expected %s", sv->path, type_desc(sv));
			if (dg->names_job && sv->n && job_index(sp, sv->vals[0], sp->njobs) < 0)
				return fail_at(REACT_EINVAL, w->err, w->errlen, sv->src, sv->line,
				               "field '%s': expected the name of a job, got '%s'", sv->path,
				               sv->vals[0]);
			for (int h = f; dg->required_with && !sv->n && h < e; h++)
				if (!strcmp(react_net_field_def(h)->key, dg->required_with) && sp->net[h].n)
					return fail_at(REACT_EPARSE, w->err, w->errlen, map->src, map->line,
					               "field '%s': required with %s", sv->path,
					               dg->required_with);
		}
	}
	return REACT_OK;
}

static react_status_t walk_job(walk_t *w, const ynode_t *jn, int32_t j)
{
	static const char *const keys[] = {"name", "ranks", "placement", "collective", "algorithm",
	                                   "message", "epochs", "warmup", "compute_gap", "start",
	                                   "react", "keep_running", "pattern", NULL};
	static const char *const plkeys[] = {"hosts", "overlap", "shared", "start", NULL};
	spec_t *sp = w->sp;
	job_spec_t *js = &sp->jobs[j];
	react_status_t st;
	char prefix[96], sect[64], path[100];

	snprintf(path, sizeof path, "jobs[%d]", (int)j);
	if ((st = need_map(w, jn, path)) != REACT_OK)
		return st;
	if ((st = only_keys(w, jn, "a job", keys)) != REACT_OK)
		return st;
	snprintf(prefix, sizeof prefix, "jobs[%d].", (int)j);
	if ((st = field(w, jn, "name", "", prefix, VT_STR, 0, 0, &js->name)) != REACT_OK)
		return st;
	if (!js->name.n) {
		char def[32];
		snprintf(def, sizeof def, "job%d", (int)j + 1);
		if ((st = sv_push(&js->name, def)) != REACT_OK)
			return st;
	} else if (!react_name_ok(js->name.vals[0], 63)) {
		return fail_at(REACT_EINVAL, w->err, w->errlen, js->name.src, js->name.line,
		               "field 'jobs[%d].name': expected a job name of at most 63 %s, got '%s'",
		               (int)j, NAME_RULE, js->name.vals[0]);
	} else if (job_index(sp, js->name.vals[0], j) >= 0) {
		return fail_at(REACT_EINVAL, w->err, w->errlen, js->name.src, js->name.line,
		               "field 'jobs[%d].name': expected a name no other job has, got '%s' again",
		               (int)j, js->name.vals[0]);
	}
	snprintf(sect, sizeof sect, "%s", js->name.vals[0]);
	snprintf(prefix, sizeof prefix, "jobs.%s.", sect);
#define F(fld, key, t, imin) \
	if ((st = field(w, jn, key, sect, prefix, t, 1, imin, &js->fld)) != REACT_OK) \
		return st;
	F(ranks, "ranks", VT_INT, 2)
	F(collective, "collective", VT_COLL, 0)
	F(algorithm, "algorithm", VT_ALGO, 0)
	F(message, "message", VT_BYTES, 0)
	F(epochs, "epochs", VT_INT, 1)
	F(warmup, "warmup", VT_INT, 0)
	F(compute_gap, "compute_gap", VT_TIME, 0)
	F(start, "start", VT_TIME, 0)
	F(react, "react", VT_BOOL, 0)
	F(keep_running, "keep_running", VT_BOOL, 0)
	F(pattern, "pattern", VT_STR, 0)
#undef F
	/* A pattern file replaces the generated algorithm: not both (a --set of
	 * one removes the other, react_scenario_set). */
	if (js->pattern.n && js->algorithm.n) {
		char aw[600];
		where_of(js->algorithm.src, js->algorithm.line, aw, sizeof aw);
		return fail_at(REACT_EINVAL, w->err, w->errlen, js->pattern.src, js->pattern.line,
		               "field '%s': a job runs either a pattern file or a generated "
		               "algorithm, not both (field '%s' at %s); remove one",
		               js->pattern.path, js->algorithm.path, aw);
	}
	if (js->pattern.n)
		return REACT_OK; /* ranks, collective and message are checked against the file
		                  * when a configuration is resolved */
	const ynode_t *pl = ynode_get(jn, "placement");
	js->pl_form = PL_SCALAR;
	if (pl && pl->kind == YN_MAP) {
		char pp[112];
		snprintf(pp, sizeof pp, "%splacement.", prefix);
		if ((st = only_keys(w, pl, "placement", plkeys)) != REACT_OK)
			return st;
		const ynode_t *h = ynode_get(pl, "hosts");
		const ynode_t *ov = ynode_get(pl, "overlap");
		const ynode_t *stn = ynode_get(pl, "start");
		if ((h != NULL) + (ov != NULL) + (stn != NULL) != 1)
			return fail_at(REACT_EPARSE, w->err, w->errlen, pl->src, pl->line,
			               "field '%splacement': expected exactly one of hosts (a list), "
			               "overlap (a job name, with shared), start (a host index)", prefix);
		if (h) {
			js->pl_form = PL_HOSTS;
			snprintf(js->pl_hosts_where.path, sizeof js->pl_hosts_where.path, "%shosts", pp);
			js->pl_hosts_where.src = h->src;
			js->pl_hosts_where.line = h->line;
			if (h->kind != YN_SEQ || h->n == 0)
				return fail_at(REACT_EPARSE, w->err, w->errlen, h->src, h->line,
				               "field '%shosts': expected a list of host indices", pp);
			js->hosts = calloc(h->n, sizeof *js->hosts);
			if (!js->hosts)
				return REACT_ENOMEM;
			js->nhosts = h->n;
			for (size_t i = 0; i < h->n; i++) {
				int64_t x;
				const ynode_t *it = h->items[i];
				if (it->kind != YN_SCALAR || sc_parse_int(it->str, &x) != REACT_OK ||
				    x < 0 || x > INT32_MAX)
					return fail_at(REACT_EPARSE, w->err, w->errlen, it->src, it->line,
					               "field '%shosts': expected host indices >= 0, got '%s'",
					               pp, it->kind == YN_SCALAR ? it->str : "a collection");
				for (size_t k = 0; k < i; k++)
					if (js->hosts[k] == (int32_t)x)
						return fail_at(REACT_EINVAL, w->err, w->errlen, it->src, it->line,
						               "field '%shosts': expected distinct hosts, got %d twice",
						               pp, (int)x);
				js->hosts[i] = (int32_t)x;
			}
		} else if (ov) {
			js->pl_form = PL_OVERLAP;
			if ((st = field(w, pl, "overlap", sect, pp, VT_STR, 0, 0, &js->overlap)) != REACT_OK)
				return st;
			if ((st = field(w, pl, "shared", sect, pp, VT_INT, 1, 0, &js->shared)) != REACT_OK)
				return st;
			if (job_index(sp, js->overlap.vals[0], j) < 0)
				return fail_at(REACT_EINVAL, w->err, w->errlen, js->overlap.src,
				               js->overlap.line,
				               "field '%soverlap': expected the name of an earlier job, got '%s'",
				               pp, js->overlap.vals[0]);
			if (!js->shared.n)
				return fail_at(REACT_EPARSE, w->err, w->errlen, pl->src, pl->line,
				               "field '%sshared': required with overlap (hosts shared)", pp);
		} else {
			js->pl_form = PL_START;
			if ((st = field(w, pl, "start", sect, pp, VT_INT, 1, 0, &js->pl_start)) != REACT_OK)
				return st;
		}
		if (!h && ynode_get(pl, "shared") && !ov)
			return fail_at(REACT_EPARSE, w->err, w->errlen, pl->src, pl->line,
			               "field '%sshared': only valid with overlap", pp);
	} else {
		if ((st = field(w, jn, "placement", sect, prefix, VT_PLACE, 1, 0, &js->placement)) !=
		    REACT_OK)
			return st;
	}
	/* Every collective x algorithm x ranks combination must have a generator.
	 * A generator's only requirement on the rank count is 2 <= N (react/
	 * generators.h; ranks' own minimum) up to the 4096 checked here, so one
	 * pattern per collective x algorithm, at the job's fewest ranks, tells. */
	const char *cdef = "allreduce", *adef = "tree", *rdef = "8";
	size_t nc = js->collective.n ? js->collective.n : 1;
	size_t na = js->algorithm.n ? js->algorithm.n : 1;
	size_t nr = js->ranks.n ? js->ranks.n : 1;
	int64_t rmin = INT64_MAX;
	for (size_t ri = 0; ri < nr; ri++) {
		int64_t r;
		sc_parse_int(js->ranks.n ? js->ranks.vals[ri] : rdef, &r);
		if (r > 4096)
			return fail_at(REACT_EINVAL, w->err, w->errlen, js->ranks.src, js->ranks.line,
			               "field 'jobs.%s.ranks': expected at most 4096 ranks, got %lld", sect,
			               (long long)r);
		if (r < rmin)
			rmin = r;
	}
	for (size_t ci = 0; ci < nc; ci++)
		for (size_t ai = 0; ai < na; ai++) {
			react_collective_t c;
			react_algorithm_t a;
			react_pattern_t *p = NULL;
			react_collective_parse(js->collective.n ? js->collective.vals[ci] : cdef, &c);
			react_algorithm_parse(js->algorithm.n ? js->algorithm.vals[ai] : adef, &a);
			st = react_pattern_generate(c, a, (int32_t)rmin, (uint64_t)rmin * 1024, &p);
			react_pattern_destroy(p);
			if (st == REACT_ENOMEM)
				return st;
			if (st != REACT_OK) {
				const sv_t *at = js->algorithm.n ? &js->algorithm : js->collective.n
				                     ? &js->collective : &js->name;
				return fail_at(REACT_EINVAL, w->err, w->errlen, at->src, at->line,
				               "job '%s': no %s pattern for %s %s with %d ranks; expected "
				               "allreduce with tree, ring or rhd, or allgather with ring "
				               "or recdbl",
				               sect, st == REACT_EUNSUPPORTED ? "generated" : "valid",
				               react_collective_name(c), react_algorithm_name(a), (int)rmin);
			}
		}
	return REACT_OK;
}

static react_status_t build_spec(const react_scenario_t *s, const ynode_t *root, spec_t **out,
                                 char *err, size_t errlen)
{
	/* the top-level keys, in the order an error lists them: the simulators'
	 * network keys (react/netconfig.h) before jobs, their congestion after */
	static const char *const top_head[] = {"name", "description", "backend", "seed"};
	static const char *const top_tail[] = {"params", "tolerance", "plot", "gpu", "ecmp_seed"};
	const char *top_keys[sizeof top_head / sizeof top_head[0] + 1 + sizeof top_tail /
	                     sizeof top_tail[0] + 2 * REACT_NET_NFIELDS + 1];
	size_t ntop = 0;
	static const char *const gpu_keys[] = {"transport", "dtype", "check", "latency",
	                                       "bandwidth", "congestion", NULL};
	static const char *const gpu_cong_keys[] = {"pairs", "p", "start_epoch", NULL};
	static const char *const plot_keys[] = {"x", "series", "also", NULL};
	const char *param_keys[NPARAMS_MAX + 1];
	react_status_t st = REACT_OK;
	spec_t *sp = calloc(1, sizeof *sp);
	walk_t w = {sp, err, errlen};
	const ynode_t *n;

	*out = NULL;
	if (!sp)
		return REACT_ENOMEM;
	for (size_t i = 0; i < sizeof top_head / sizeof top_head[0]; i++)
		top_keys[ntop++] = top_head[i];
	size_t nk = react_net_keys("", REACT_NET_BEFORE_JOBS, top_keys + ntop, REACT_NET_NFIELDS);
	ntop += nk < REACT_NET_NFIELDS ? nk : REACT_NET_NFIELDS;
	top_keys[ntop++] = "jobs";
	nk = react_net_keys("", REACT_NET_AFTER_JOBS, top_keys + ntop, REACT_NET_NFIELDS);
	ntop += nk < REACT_NET_NFIELDS ? nk : REACT_NET_NFIELDS;
	for (size_t i = 0; i < sizeof top_tail / sizeof top_tail[0]; i++)
		top_keys[ntop++] = top_tail[i];
	top_keys[ntop] = NULL;
	if ((st = need_map(&w, root, "(document)")) != REACT_OK)
		goto fail;
	if ((st = only_keys(&w, root, "the scenario", top_keys)) != REACT_OK)
		goto fail;
#define T(node, fld, key, sect, pre, t, list, imin) \
	if ((st = field(&w, node, key, sect, pre, t, list, imin, &sp->fld)) != REACT_OK) \
		goto fail;
	T(root, name, "name", "", "", VT_STR, 0, 0)
	T(root, description, "description", "", "", VT_STR, 0, 0)
	T(root, backend, "backend", "", "", VT_STR, 1, 0)
	T(root, seed, "seed", "", "", VT_INT, 1, 0)
	T(root, ecmp_seed, "ecmp_seed", "", "", VT_INT, 1, 0)
	if ((st = walk_net_scalars(&w, root)) != REACT_OK)
		goto fail;
	T(root, tolerance, "tolerance", "", "", VT_DOUBLE, 0, 0)
	if (!sp->name.n) {
		/* default: the file's base name without extension */
		const char *b = strrchr(s->path, '/');
		char nm[128];
		snprintf(nm, sizeof nm, "%s", b ? b + 1 : s->path);
		char *dot = strrchr(nm, '.');
		if (dot && dot != nm)
			*dot = 0;
		if ((st = sv_push(&sp->name, nm)) != REACT_OK)
			goto fail;
	}
	if (!react_name_ok(sp->name.vals[0], 127)) {
		st = fail_at(REACT_EINVAL, err, errlen, sp->name.src, sp->name.line,
		             "field 'name'%s: expected a name of at most 127 %s (it names the "
		             "results directory), got '%s'",
		             ynode_get(root, "name") ? "" : " (default: the file name)", NAME_RULE,
		             sp->name.vals[0]);
		goto fail;
	}
	if (sp->backend.n) {
		char wbuf[512];
		where_of(sp->backend.src, sp->backend.line, wbuf, sizeof wbuf);
		snprintf(sp->backend_where, sizeof sp->backend_where, "%s", wbuf);
	} else {
		snprintf(sp->backend_where, sizeof sp->backend_where, "%s", s->path);
	}

	/* the network the jobs are placed on (react/netconfig.h) */
	if ((st = walk_net_sections(&w, root, REACT_NET_BEFORE_JOBS)) != REACT_OK)
		goto fail;

	n = ynode_get(root, "jobs");
	if (!n || n->kind != YN_SEQ || n->n == 0) {
		st = fail_at(REACT_EPARSE, err, errlen, n ? n->src : root->src, n ? n->line : root->line,
		             "field 'jobs': expected a non-empty list of jobs");
		goto fail;
	}
	sp->jobs = calloc(n->n, sizeof *sp->jobs);
	if (!sp->jobs) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (size_t j = 0; j < n->n; j++) {
		sp->njobs = (int32_t)j + 1;
		if ((st = walk_job(&w, n->items[j], (int32_t)j)) != REACT_OK)
			goto fail;
	}

	/* the congestion on it, which names jobs */
	if ((st = walk_net_sections(&w, root, REACT_NET_AFTER_JOBS)) != REACT_OK)
		goto fail;

	n = ynode_get(root, "gpu");
	if (n) {
		if ((st = need_map(&w, n, "gpu")) != REACT_OK ||
		    (st = only_keys(&w, n, "gpu", gpu_keys)) != REACT_OK)
			goto fail;
	}
	T(n, gpu_transport, "transport", "gpu", "gpu.", VT_STR, 1, 0)
	T(n, gpu_dtype, "dtype", "gpu", "gpu.", VT_STR, 1, 0)
	T(n, gpu_check, "check", "gpu", "gpu.", VT_BOOL, 1, 0)
	T(n, gpu_latency, "latency", "gpu", "gpu.", VT_TIME, 1, 0)
	T(n, gpu_bw, "bandwidth", "gpu", "gpu.", VT_RATE, 1, 0)
	for (size_t i = 0; i < sp->gpu_transport.n; i++) {
		const char *t = sp->gpu_transport.vals[i];
		if (strcmp(t, "host") && strcmp(t, "local") && strcmp(t, "nccl")) {
			st = fail_at(REACT_EINVAL, err, errlen, sp->gpu_transport.src,
			             sp->gpu_transport.line,
			             "field 'gpu.transport': expected host, local or nccl, got '%s'", t);
			goto fail;
		}
	}
	for (size_t i = 0; i < sp->gpu_dtype.n; i++) {
		static const char *const dts[] = {"float", "half", "bfloat16", "fp32", "fp16", "bf16",
		                                  NULL};
		int ok = 0;
		for (const char *const *d = dts; *d; d++)
			ok |= !strcmp(*d, sp->gpu_dtype.vals[i]);
		if (!ok) {
			st = fail_at(REACT_EINVAL, err, errlen, sp->gpu_dtype.src, sp->gpu_dtype.line,
			             "field 'gpu.dtype': expected float, half or bfloat16, got '%s'",
			             sp->gpu_dtype.vals[i]);
			goto fail;
		}
	}
	{
		const ynode_t *g = n ? ynode_get(n, "congestion") : NULL;
		if (g && ((st = need_map(&w, g, "gpu.congestion")) != REACT_OK ||
		          (st = only_keys(&w, g, "gpu.congestion", gpu_cong_keys)) != REACT_OK))
			goto fail;
		T(g, gpu_p, "p", "gpu", "gpu.congestion.", VT_DOUBLE, 1, 0)
		T(g, gpu_start, "start_epoch", "gpu", "gpu.congestion.", VT_INT, 1, 0)
		for (size_t i = 0; i < sp->gpu_p.n; i++) {
			double pv0;
			sc_parse_double(sp->gpu_p.vals[i], &pv0);
			if (!(pv0 >= 0 && pv0 < 1)) {
				st = fail_at(REACT_EINVAL, err, errlen, sp->gpu_p.src, sp->gpu_p.line,
				             "field 'gpu.congestion.p': expected the fraction of the rate the "
				             "pairs lose, in [0, 1), got '%s'", sp->gpu_p.vals[i]);
				goto fail;
			}
		}
		const ynode_t *pr = g ? ynode_get(g, "pairs") : NULL;
		if (pr) {
			sp->gpu_pairs_src = pr->src;
			sp->gpu_pairs_line = pr->line;
			if (pr->kind != YN_SEQ || pr->n > 4096) {
				st = fail_at(REACT_EPARSE, err, errlen, pr->src, pr->line,
				             "field 'gpu.congestion.pairs': expected a list of at most 4096 "
				             "[src, dst] rank pairs, such as [[3, 4]]");
				goto fail;
			}
			if (pr->n && !(sp->gpu_pairs = calloc(pr->n, sizeof *sp->gpu_pairs))) {
				st = REACT_ENOMEM;
				goto fail;
			}
			for (size_t i = 0; i < pr->n; i++) {
				const ynode_t *it = pr->items[i];
				int64_t a = -1, b = -1;
				if (it->kind != YN_SEQ || it->n != 2 || it->items[0]->kind != YN_SCALAR ||
				    it->items[1]->kind != YN_SCALAR ||
				    sc_parse_int(it->items[0]->str, &a) != REACT_OK ||
				    sc_parse_int(it->items[1]->str, &b) != REACT_OK || a < 0 || b < 0 ||
				    a > 65535 || b > 65535 || a == b) {
					st = fail_at(REACT_EINVAL, err, errlen, it->src, it->line,
					             "field 'gpu.congestion.pairs[%zu]': expected [src, dst], two "
					             "distinct ranks >= 0", i);
					goto fail;
				}
				sp->gpu_pairs[i][0] = (int32_t)a;
				sp->gpu_pairs[i][1] = (int32_t)b;
			}
			sp->gpu_npairs = (int32_t)pr->n;
		}
	}

	param_defs_init();
	n = ynode_get(root, "params");
	for (size_t i = 0; i < NPARAMS; i++)
		param_keys[i] = param_defs[i].key;
	param_keys[NPARAMS] = NULL;
	if (n) {
		if ((st = need_map(&w, n, "params")) != REACT_OK ||
		    (st = only_keys(&w, n, "params (REACT parameters)", param_keys)) != REACT_OK)
			goto fail;
	}
	for (size_t i = 0; i < NPARAMS; i++) {
		char ty = param_defs[i].type;
		int is_int = ty == 'i' || ty == 'u';
		if ((st = field(&w, n, param_defs[i].key, "params", "params.",
		                is_int ? VT_INT : ty == 'e' ? VT_STR : VT_DOUBLE, 1,
		                is_int ? 0 : INT64_MIN, &sp->params[i])) != REACT_OK)
			goto fail;
		/* Validate each value with the controller's own checks. */
		for (size_t k = 0; k < sp->params[i].n; k++) {
			react_params_t p;
			char why[512];
			react_params_default(&p);
			if (react_params_set(&p, param_defs[i].name, sp->params[i].vals[k], why,
			                     sizeof why) != REACT_OK) {
				st = fail_at(REACT_EINVAL, err, errlen, sp->params[i].src, sp->params[i].line,
				             "field 'params.%s': %s", param_defs[i].key, why);
				goto fail;
			}
		}
	}

	n = ynode_get(root, "plot");
	if (n) {
		if ((st = need_map(&w, n, "plot")) != REACT_OK ||
		    (st = only_keys(&w, n, "plot", plot_keys)) != REACT_OK)
			goto fail;
		T(n, plot_x, "x", "plot", "plot.", VT_STR, 0, 0)
		T(n, plot_series, "series", "plot", "plot.", VT_STR, 0, 0)
		T(n, plot_also, "also", "plot", "plot.", VT_STR, 1, 0)
		for (size_t i = 0; i < sp->plot_also.n; i++) {
			const char *a = sp->plot_also.vals[i];
			if (!strcmp(a, "p95")) {
				sp->plot_extra |= REACT_PLOT_P95;
			} else if (!strcmp(a, "algbw")) {
				sp->plot_extra |= REACT_PLOT_ALGBW;
			} else {
				st = fail_at(REACT_EINVAL, err, errlen, sp->plot_also.src,
				             sp->plot_also.line, "field 'plot.also': expected p95 or "
				             "algbw, got '%s'", a);
				goto fail;
			}
		}
	}
#undef T

	/* Sweep axes in file order: walk the tree again and pick up every sv
	 * with more than one value, ordered by (line, path). */
	{
		sv_t *all[256];
		size_t na = 0;
		sv_t *tops[] = {&sp->gpu_transport, &sp->gpu_dtype, &sp->gpu_check, &sp->gpu_latency,
		                &sp->gpu_bw, &sp->gpu_p, &sp->gpu_start, &sp->ecmp_seed};
		if (sp->backend.n > 1)
			all[na++] = &sp->backend;
		if (sp->seed.n > 1)
			all[na++] = &sp->seed;
		for (size_t i = 0; i < REACT_NET_NFIELDS; i++)
			if (sp->net[i].n > 1)
				all[na++] = &sp->net[i];
		for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++)
			if (tops[i]->n > 1)
				all[na++] = tops[i];
		for (size_t i = 0; i < NPARAMS; i++)
			if (sp->params[i].n > 1)
				all[na++] = &sp->params[i];
		for (int32_t j = 0; j < sp->njobs; j++) {
			job_spec_t *js = &sp->jobs[j];
			sv_t *f[] = {&js->ranks, &js->collective, &js->algorithm, &js->message,
			             &js->epochs, &js->warmup, &js->compute_gap, &js->start, &js->react,
			             &js->keep_running, &js->placement, &js->shared, &js->pl_start,
			             &js->pattern};
			for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
				if (f[i]->n > 1 && na < sizeof all / sizeof all[0])
					all[na++] = f[i];
		}
		/* stable insertion sort by (src is the file first, line) */
		for (size_t i = 1; i < na; i++) {
			sv_t *x = all[i];
			size_t k = i;
			while (k > 0) {
				sv_t *y = all[k - 1];
				int xs = !strncmp(x->src, "--set ", 6), ys = !strncmp(y->src, "--set ", 6);
				if (ys > xs || (ys == xs && !xs && y->line > x->line))
					all[k] = y, k--;
				else
					break;
			}
			all[k] = x;
		}
		size_t total = 1;
		for (size_t i = 0; i < na; i++) {
			if ((st = add_axis(sp, all[i])) != REACT_OK)
				goto fail;
			if (total > SIZE_MAX / all[i]->n || total * all[i]->n > 10000000) {
				st = fail_at(REACT_EINVAL, err, errlen, all[i]->src, all[i]->line,
				             "field '%s': the sweep has more than 10 million configurations",
				             all[i]->path);
				goto fail;
			}
			total *= all[i]->n;
		}
		sp->nconfigs = total;
		sp->axis_names = calloc(sp->naxes ? sp->naxes : 1, sizeof *sp->axis_names);
		if (!sp->axis_names) {
			st = REACT_ENOMEM;
			goto fail;
		}
		for (size_t i = 0; i < sp->naxes; i++) {
			/* runs.csv has its own columns of these names */
			static const char *const reserved[] = {"id", "job", "react", "pattern_changes",
			                                       "decisions", "reverts", "batches", NULL};
			int clash = 0;
			for (const char *const *r = reserved; *r; r++)
				clash |= !strcmp(*r, sp->axes[i]->key);
			for (size_t k = 0; k < sp->naxes; k++)
				if (k != i && !strcmp(sp->axes[k]->key, sp->axes[i]->key))
					clash = 1;
			char nm[160];
			if (clash && sp->axes[i]->section[0])
				snprintf(nm, sizeof nm, "%s.%s", sp->axes[i]->section, sp->axes[i]->key);
			else
				snprintf(nm, sizeof nm, "%s", sp->axes[i]->key);
			if (!(sp->axis_names[i] = strdup(nm))) {
				st = REACT_ENOMEM;
				goto fail;
			}
		}
	}
	sp->plot_xi = sp->plot_si = SIZE_MAX;
	if (sp->plot_x.n || sp->plot_series.n) {
		sv_t *pv[2] = {&sp->plot_x, &sp->plot_series};
		size_t *pi[2] = {&sp->plot_xi, &sp->plot_si};
		for (int q = 0; q < 2; q++) {
			if (!pv[q]->n)
				continue;
			for (size_t i = 0; i < sp->naxes; i++)
				if (!strcmp(sp->axis_names[i], pv[q]->vals[0]))
					*pi[q] = i;
			/* A known field that is not swept (e.g. after --set) gives no plot. */
			static const char *const known[] = {
				"seed", "backend", "ranks", "collective", "algorithm", "message", "epochs",
				"warmup", "compute_gap", "start", "react", "keep_running", "placement",
				"shared", "transport",
				"dtype", "check", "latency", "bandwidth", "p", "start_epoch", "pattern",
				"ecmp_seed", NULL};
			int is_known = strchr(pv[q]->vals[0], '.') != NULL;
			for (const char *const *k = known; *k; k++)
				is_known |= !strcmp(*k, pv[q]->vals[0]);
			for (int f = 0; f < REACT_NET_NFIELDS; f++)
				is_known |= react_net_field_def(f)->sweep &&
				            !strcmp(react_net_field_def(f)->key, pv[q]->vals[0]);
			for (size_t i = 0; i < NPARAMS; i++)
				is_known |= !strcmp(param_defs[i].key, pv[q]->vals[0]);
			if (*pi[q] == SIZE_MAX && !is_known) {
				char list[512] = "";
				for (size_t i = 0; i < sp->naxes; i++) {
					strncat(list, sp->axis_names[i], sizeof list - strlen(list) - 3);
					if (i + 1 < sp->naxes)
						strncat(list, ", ", sizeof list - strlen(list) - 1);
				}
				st = fail_at(REACT_EINVAL, err, errlen, pv[q]->src, pv[q]->line,
				             "field '%s': expected the name of a field to sweep (swept now: %s), "
				             "got '%s'",
				             pv[q]->path, sp->naxes ? list : "this scenario sweeps nothing",
				             pv[q]->vals[0]);
				goto fail;
			}
		}
	} else {
		for (size_t i = 0; i < sp->naxes; i++) {
			if (!strcmp(sp->axis_names[i], "seed"))
				continue;
			if (sp->plot_xi == SIZE_MAX)
				sp->plot_xi = i;
			else if (sp->plot_si == SIZE_MAX)
				sp->plot_si = i;
		}
	}
	*out = sp;
	return REACT_OK;
fail:
	spec_free(sp);
	return st;
}

/* ---- public: load, set, queries ---- */

static const char *intern(react_scenario_t *s, const char *str)
{
	char **ns = realloc(s->srcs, (s->nsrcs + 1) * sizeof *ns);
	if (!ns)
		return NULL;
	s->srcs = ns;
	if (!(ns[s->nsrcs] = strdup(str)))
		return NULL;
	return ns[s->nsrcs++];
}

void react_scenario_destroy(react_scenario_t *s)
{
	if (!s)
		return;
	spec_free(s->spec);
	ynode_free(s->root);
	for (size_t i = 0; i < s->nsrcs; i++)
		free(s->srcs[i]);
	free(s->srcs);
	free(s->path);
	free(s->dir);
	free(s);
}

react_status_t react_scenario_parse(const char *text, size_t len, const char *path,
                                    react_scenario_t **out, char *err, size_t errlen)
{
	react_status_t st = REACT_ENOMEM;
	react_scenario_t *s = calloc(1, sizeof *s);
	const char *src;

	*out = NULL;
	if (!s)
		return REACT_ENOMEM;
	if (!(s->path = strdup(path)) || !(s->dir = strdup(path)))
		goto fail;
	char *slash = strrchr(s->dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(s->dir, ".");
	if (!(src = intern(s, path)))
		goto fail;
	if ((st = ynode_parse(text, len, src, &s->root, err, errlen)) != REACT_OK)
		goto fail;
	if ((st = build_spec(s, s->root, &s->spec, err, errlen)) != REACT_OK)
		goto fail;
	*out = s;
	return REACT_OK;
fail:
	react_scenario_destroy(s);
	return st;
}

react_status_t react_scenario_load(const char *path, react_scenario_t **out, char *err,
                                   size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	react_status_t st = react_read_file(path, &text, &len, err, errlen);
	*out = NULL;
	if (st != REACT_OK)
		return st;
	st = react_scenario_parse(text, len, path, out, err, errlen);
	free(text);
	return st;
}

/* Remove key (and its value) from a map, when present. */
static void ynode_drop(ynode_t *map, const char *key)
{
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key)) {
			ynode_free(map->items[i]);
			free(map->keys[i]);
			memmove(&map->keys[i], &map->keys[i + 1], (map->n - i - 1) * sizeof *map->keys);
			memmove(&map->items[i], &map->items[i + 1], (map->n - i - 1) * sizeof *map->items);
			memmove(&map->key_line[i], &map->key_line[i + 1],
			        (map->n - i - 1) * sizeof *map->key_line);
			map->n--;
			return;
		}
}

react_status_t react_scenario_set(react_scenario_t *s, const char *key, const char *value,
                                  char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	char label[300];
	const char *src;
	ynode_t *copy = NULL, *val = NULL;
	spec_t *sp = NULL;
	char kbuf[256];

	snprintf(label, sizeof label, "--set %s", key);
	if (!(src = intern(s, label)))
		return REACT_ENOMEM;
	if (!*key || strlen(key) >= sizeof kbuf) {
		snprintf(err, errlen, "%s: expected a key such as congestion.external.p", label);
		return REACT_EINVAL;
	}
	if ((st = ynode_parse(value, strlen(value), src, &val, err, errlen)) != REACT_OK)
		return st;
	if (!(copy = ynode_clone(s->root))) {
		st = REACT_ENOMEM;
		goto fail;
	}
	snprintf(kbuf, sizeof kbuf, "%s", key);
	ynode_t *cur = copy;
	char *save = NULL;
	char *part = strtok_r(kbuf, ".", &save);
	while (part) {
		char *next = strtok_r(NULL, ".", &save);
		if (cur->kind == YN_SEQ) {
			ynode_t *found = NULL;
			char *end;
			long idx = strtol(part, &end, 10);
			if (!*end && idx >= 0 && (size_t)idx < cur->n)
				found = cur->items[idx];
			for (size_t i = 0; !found && i < cur->n; i++) {
				ynode_t *nm = ynode_get(cur->items[i], "name");
				if (nm && nm->kind == YN_SCALAR && !strcmp(nm->str, part))
					found = cur->items[i];
			}
			if (!found || !next) {
				snprintf(err, errlen, "%s: no list item '%s' (expected a job name or index "
				         "followed by a field)", label, part);
				st = REACT_EINVAL;
				goto fail;
			}
			cur = found;
		} else if (cur->kind == YN_MAP) {
			if (!next) {
				if ((st = ynode_put(cur, part, val)) != REACT_OK)
					goto fail;
				val = NULL;
				/* a job's pattern file and its algorithm exclude each other:
				 * setting one removes the other */
				if (!strncmp(key, "jobs.", 5) && cur != copy &&
				    (!strcmp(part, "pattern") || !strcmp(part, "algorithm")))
					ynode_drop(cur, !strcmp(part, "pattern") ? "algorithm" : "pattern");
				break;
			}
			ynode_t *child = ynode_get(cur, part);
			if (!child) {
				if (!(child = ynode_new_map(src, 1))) {
					st = REACT_ENOMEM;
					goto fail;
				}
				if ((st = ynode_put(cur, part, child)) != REACT_OK) {
					ynode_free(child);
					goto fail;
				}
			}
			cur = child;
		} else {
			snprintf(err, errlen, "%s: '%s' is a scalar, it has no field '%s'", label,
			         key, part);
			st = REACT_EINVAL;
			goto fail;
		}
		part = next;
	}
	if ((st = build_spec(s, copy, &sp, err, errlen)) != REACT_OK)
		goto fail;
	ynode_free(s->root);
	spec_free(s->spec);
	s->root = copy;
	s->spec = sp;
	return REACT_OK;
fail:
	ynode_free(val);
	ynode_free(copy);
	return st;
}

const char *react_scenario_name(const react_scenario_t *s) { return s->spec->name.vals[0]; }
const char *react_scenario_path(const react_scenario_t *s) { return s->path; }
const char *react_scenario_backend(const react_scenario_t *s)
{
	return s->spec->backend.n ? s->spec->backend.vals[0] : "flow";
}
const char *react_scenario_backend_where(const react_scenario_t *s)
{
	return s->spec->backend_where;
}
double react_scenario_tolerance(const react_scenario_t *s)
{
	double t = 0;
	if (s->spec->tolerance.n)
		sc_parse_double(s->spec->tolerance.vals[0], &t);
	return t;
}
int32_t react_scenario_njobs(const react_scenario_t *s) { return s->spec->njobs; }
const char *react_scenario_job_name(const react_scenario_t *s, int32_t job)
{
	return (job >= 0 && job < s->spec->njobs) ? s->spec->jobs[job].name.vals[0] : NULL;
}
size_t react_scenario_nconfigs(const react_scenario_t *s) { return s->spec->nconfigs; }
size_t react_scenario_naxes(const react_scenario_t *s) { return s->spec->naxes; }
const char *react_scenario_axis_name(const react_scenario_t *s, size_t axis)
{
	return axis < s->spec->naxes ? s->spec->axis_names[axis] : NULL;
}
size_t react_scenario_axis_len(const react_scenario_t *s, size_t axis)
{
	return axis < s->spec->naxes ? s->spec->axes[axis]->n : 0;
}
size_t react_scenario_plot_x(const react_scenario_t *s) { return s->spec->plot_xi; }
size_t react_scenario_plot_series(const react_scenario_t *s) { return s->spec->plot_si; }
unsigned react_scenario_plot_also(const react_scenario_t *s) { return s->spec->plot_extra; }

/* ---- resolution ---- */

typedef struct pick {
	const spec_t *sp;
	size_t *choice; /* per axis */
} pick_t;

static const char *pv(const pick_t *pk, const sv_t *sv, const char *def)
{
	if (!sv->n)
		return def;
	if (sv->axis >= 0)
		return sv->vals[pk->choice[sv->axis]];
	return sv->vals[0];
}

static int64_t pint(const pick_t *pk, const sv_t *sv, int64_t def)
{
	int64_t v = def;
	const char *t = pv(pk, sv, NULL);
	if (t)
		sc_parse_int(t, &v);
	return v;
}

static double ptime(const pick_t *pk, const sv_t *sv, double def)
{
	double v = def;
	const char *t = pv(pk, sv, NULL);
	if (t)
		sc_parse_time(t, &v);
	return v;
}

static double prate(const pick_t *pk, const sv_t *sv, double def)
{
	double v = def;
	const char *t = pv(pk, sv, NULL);
	if (t)
		sc_parse_rate(t, &v);
	return v;
}

/* A relative path in a scenario file is relative to the file's directory,
 * never to the working directory: a same-named file where the command runs
 * must not replace the one beside the scenario.  A path given with --set
 * was typed on the command line, so it is relative to the working
 * directory. */
static void resolve_path(const react_scenario_t *s, const sv_t *sv, const char *rel, char *out,
                         size_t n)
{
	if (rel[0] == '/' || !strncmp(sv->src, "--set ", 6) || !strcmp(s->dir, "."))
		snprintf(out, n, "%s", rel);
	else
		snprintf(out, n, "%s/%s", s->dir, rel);
}

/* The network fields (react/netconfig.h) as one configuration picked
 * them, for the simulators' resolver. */
typedef struct net_pick {
	react_net_value_t value[REACT_NET_NFIELDS];
	char where[REACT_NET_NFIELDS][600];
	char file[REACT_NET_NFIELDS][4096];
	char origin[600];
} net_pick_t;

static void net_pick(const react_scenario_t *s, const pick_t *pk, net_pick_t *np)
{
	for (int f = 0; f < REACT_NET_NFIELDS; f++) {
		const sv_t *sv = &s->spec->net[f];
		react_net_value_t *v = &np->value[f];
		v->str = pv(pk, sv, NULL);
		where_of(sv->src, sv->line, np->where[f], sizeof np->where[f]);
		v->where = np->where[f];
		v->path = sv->path;
		v->file = NULL;
		if (v->str && react_net_field_def(f)->type == REACT_NET_FILE) {
			resolve_path(s, sv, v->str, np->file[f], sizeof np->file[f]);
			v->file = np->file[f];
		}
	}
	where_of(s->path, 1, np->origin, sizeof np->origin);
}

/* A job's placement as the simulators' resolver takes it. */
typedef struct net_job {
	react_net_job_t job;
	char ranks_where[600], placement_where[600];
} net_job_t;

/* Job j of nr ranks (given at rat: the ranks, pattern or name field). */
static void net_job(const pick_t *pk, int32_t j, int64_t nr, const sv_t *rat, net_job_t *out)
{
	const job_spec_t *js = &pk->sp->jobs[j];
	react_net_job_t *nj = &out->job;
	const sv_t *at;
	*nj = (react_net_job_t){.name = js->name.vals[0], .nranks = nr,
	                        .ranks_where = out->ranks_where,
	                        .placement_where = out->placement_where};
	where_of(rat->src, rat->line, out->ranks_where, sizeof out->ranks_where);
	if (js->pl_form == PL_HOSTS) {
		nj->placement = REACT_PLACE_HOSTS;
		at = &js->pl_hosts_where;
		nj->hosts = js->hosts;
		nj->nhosts = js->nhosts;
	} else if (js->pl_form == PL_OVERLAP) {
		nj->placement = REACT_PLACE_OVERLAP;
		at = &js->shared;
		nj->overlap = job_index(pk->sp, js->overlap.vals[0], j);
		nj->shared = pint(pk, &js->shared, 0);
	} else if (js->pl_form == PL_START) {
		nj->placement = REACT_PLACE_CONTIGUOUS;
		at = &js->pl_start;
		nj->start = pint(pk, &js->pl_start, 0);
	} else {
		nj->placement = strcmp(pv(pk, &js->placement, "random"), "random")
		                    ? REACT_PLACE_CONTIGUOUS : REACT_PLACE_RANDOM;
		at = js->placement.n ? &js->placement : rat;
	}
	where_of(at->src, at->line, out->placement_where, sizeof out->placement_where);
	nj->placement_path = at->path;
}

/* The job's `pattern` file: read (react_pattern_read_json) and checked
 * (react_pattern_check).  Errors name the scenario file, the line of the
 * field and the pattern file's own error.  out: the pattern (owned by the
 * caller); file: the field's value as written (malloc'd). */
static react_status_t read_job_pattern(const react_scenario_t *s, const pick_t *pk,
                                       const job_spec_t *js, react_pattern_t **out, char **file,
                                       char *err, size_t errlen)
{
	const sv_t *sv = &js->pattern;
	const char *rel = pv(pk, sv, "");
	char path[4096], perr[1024] = "";
	react_check_result_t cr;
	react_status_t st;

	*out = NULL;
	resolve_path(s, sv, rel, path, sizeof path);
	st = react_pattern_read_json(path, out, perr, sizeof perr);
	if (st == REACT_OK && (st = react_pattern_check(*out, &cr)) != REACT_OK) {
		if (st == REACT_ESEMANTIC)
			snprintf(perr, sizeof perr, "%.600s: fails the semantic check: %s", path,
			         cr.message);
		else
			snprintf(perr, sizeof perr, "%.600s: cannot be checked: %s", path,
			         react_status_str(st));
	}
	if (st != REACT_OK) {
		react_pattern_destroy(*out);
		*out = NULL;
		if (st == REACT_EIO && strcmp(path, rel))
			return fail_at(st, err, errlen, sv->src, sv->line,
			               "field '%s': %s (a relative path is relative to the scenario's "
			               "directory, %s)", sv->path, perr[0] ? perr : react_status_str(st),
			               s->dir);
		return fail_at(st, err, errlen, sv->src, sv->line, "field '%s': %s", sv->path,
		               perr[0] ? perr : react_status_str(st));
	}
	if (!(*file = strdup(rel))) {
		react_pattern_destroy(*out);
		*out = NULL;
		return REACT_ENOMEM;
	}
	return REACT_OK;
}

/* A job field given beside a pattern file must agree with the file. */
static react_status_t pattern_mismatch(char *err, size_t errlen, const sv_t *at, const sv_t *psv,
                                       const char *file, const char *what, const char *job_val,
                                       const char *file_val)
{
	char pw[600];
	where_of(psv->src, psv->line, pw, sizeof pw);
	return fail_at(REACT_EINVAL, err, errlen, at->src, at->line,
	               "field '%s': the job says %s, its pattern file %s (field '%s' at %s) has %s "
	               "%s; leave the field out to take the file's", at->path, job_val, file,
	               psv->path, pw, what, file_val);
}

void react_config_destroy(react_config_t *c)
{
	if (!c)
		return;
	if (c->pattern)
		for (int32_t j = 0; j < c->run.njobs; j++)
			react_pattern_destroy(c->pattern[j]);
	if (c->pattern_file)
		for (int32_t j = 0; j < c->run.njobs; j++)
			free(c->pattern_file[j]);
	free(c->pattern);
	free(c->pattern_file);
	for (size_t i = 0; i < c->naxes; i++)
		free(c->axis_value[i]);
	free(c->axis_value);
	if (c->run.jobs)
		for (int32_t j = 0; j < c->run.njobs; j++)
			free(c->run.jobs[j].hosts);
	free(c->run.jobs);
	free(c->run.ext);
	free(c->run.degraded);
	free(c->react_on);
	free(c->params);
	free(c->warmup);
	free(c->gpu.pairs);
	react_topology_destroy(c->topo);
	free(c);
}

react_status_t react_scenario_config(const react_scenario_t *s, size_t index,
                                     react_config_t **out, char *err, size_t errlen)
{
	const spec_t *sp = s->spec;
	react_status_t st = REACT_ENOMEM;
	react_config_t *c = NULL;
	size_t *choice = NULL;
	int64_t *nranks = NULL;
	net_pick_t *np = NULL;
	react_net_t *net = NULL;
	pick_t pk = {sp, NULL};

	*out = NULL;
	if (index >= sp->nconfigs) {
		snprintf(err, errlen, "%s: configuration %zu does not exist (the scenario has %zu)",
		         s->path, index, sp->nconfigs);
		return REACT_EINVAL;
	}
	if (!(c = calloc(1, sizeof *c)))
		return REACT_ENOMEM;
	if (!(choice = calloc(sp->naxes ? sp->naxes : 1, sizeof *choice)))
		goto fail;
	pk.choice = choice;
	{
		size_t rem = index;
		for (size_t i = sp->naxes; i-- > 0;) {
			choice[i] = rem % sp->axes[i]->n;
			rem /= sp->axes[i]->n;
		}
	}
	c->index = index;
	snprintf(c->id, sizeof c->id, "c%04u", (unsigned)(index % 100000000u));
	c->naxes = sp->naxes;
	if (!(c->axis_value = calloc(sp->naxes ? sp->naxes : 1, sizeof *c->axis_value)))
		goto fail;
	c->key[0] = 0;
	for (size_t i = 0; i < sp->naxes; i++) {
		if (!(c->axis_value[i] = strdup(sp->axes[i]->vals[choice[i]])))
			goto fail;
		size_t L = strlen(c->key);
		snprintf(c->key + L, sizeof c->key - L, "%s%s=%s", i ? " " : "", sp->axis_names[i],
		         c->axis_value[i]);
	}
	snprintf(c->backend, sizeof c->backend, "%s", pv(&pk, &sp->backend, "flow"));
	c->seed = (uint64_t)pint(&pk, &sp->seed, 1);

	/* the jobs' pattern files first: their ranks size a default topology */
	c->run.njobs = sp->njobs;
	if (!(c->pattern = calloc((size_t)sp->njobs, sizeof *c->pattern)) ||
	    !(c->pattern_file = calloc((size_t)sp->njobs, sizeof *c->pattern_file)))
		goto fail;
	for (int32_t j = 0; j < sp->njobs; j++)
		if (sp->jobs[j].pattern.n &&
		    (st = read_job_pattern(s, &pk, &sp->jobs[j], &c->pattern[j], &c->pattern_file[j],
		                           err, errlen)) != REACT_OK)
			goto fail;
	/* the network the jobs are placed on (react/netconfig.h): the
	 * simulators' fields resolve on their side */
	st = REACT_ENOMEM;
	if (!(nranks = calloc((size_t)sp->njobs, sizeof *nranks)) || !(np = malloc(sizeof *np)))
		goto fail;
	for (int32_t j = 0; j < sp->njobs; j++)
		nranks[j] = pint(&pk, &sp->jobs[j].ranks, c->pattern[j] ? c->pattern[j]->nranks : 8);
	net_pick(s, &pk, np);
	const react_net_in_t net_in = {np->value, np->origin, s->dir, sp->njobs, nranks, c->seed};
	if ((st = react_net_open(&net_in, &net, err, errlen)) != REACT_OK)
		goto fail;
	st = REACT_ENOMEM;
	/* the backend's draws (ECMP): by default the configuration's seed */
	c->run.seed = sp->ecmp_seed.n ? (uint64_t)pint(&pk, &sp->ecmp_seed, 0) : c->seed;
	c->run.njobs = sp->njobs;
	snprintf(c->gpu.transport, sizeof c->gpu.transport, "%s", pv(&pk, &sp->gpu_transport, "host"));
	{
		const char *dt = pv(&pk, &sp->gpu_dtype, "float");
		snprintf(c->gpu.dtype, sizeof c->gpu.dtype, "%s",
		         !strcmp(dt, "fp32") ? "float" : !strcmp(dt, "fp16") ? "half"
		         : !strcmp(dt, "bf16") ? "bfloat16" : dt);
	}
	c->gpu.check = 1;
	sc_parse_bool(pv(&pk, &sp->gpu_check, "true"), &c->gpu.check);
	c->gpu.latency_s = ptime(&pk, &sp->gpu_latency, 5e-6);
	c->gpu.bandwidth_Bps = prate(&pk, &sp->gpu_bw, 80e9) / 8;
	c->gpu.p = 0;
	sc_parse_double(pv(&pk, &sp->gpu_p, "0"), &c->gpu.p);
	c->gpu.start_epoch = pint(&pk, &sp->gpu_start, 0);
	if (sp->gpu_npairs) {
		if (!(c->gpu.pairs = calloc((size_t)sp->gpu_npairs, sizeof *c->gpu.pairs)))
			goto fail;
		memcpy(c->gpu.pairs, sp->gpu_pairs, (size_t)sp->gpu_npairs * sizeof *c->gpu.pairs);
		c->gpu.npairs = sp->gpu_npairs;
	}
	c->run.gpu = &c->gpu;
	if (!(c->run.jobs = calloc((size_t)sp->njobs, sizeof *c->run.jobs)) ||
	    !(c->react_on = calloc((size_t)sp->njobs, sizeof *c->react_on)) ||
	    !(c->params = calloc((size_t)sp->njobs, sizeof *c->params)) ||
	    !(c->warmup = calloc((size_t)sp->njobs, sizeof *c->warmup)))
		goto fail;

	for (int32_t j = 0; j < sp->njobs; j++) {
		const job_spec_t *js = &sp->jobs[j];
		react_job_cfg_t *jc = &c->run.jobs[j];
		const char *jn = js->name.vals[0];
		snprintf(jc->name, sizeof jc->name, "%s", jn);
		const react_pattern_t *pf = c->pattern[j]; /* a pattern file's, read above */
		int64_t nr = pint(&pk, &js->ranks, pf ? pf->nranks : 8);
		const sv_t *rat = js->ranks.n ? &js->ranks : pf ? &js->pattern : &js->name;
		react_collective_parse(pv(&pk, &js->collective, "allreduce"), &jc->collective);
		react_algorithm_parse(pv(&pk, &js->algorithm, "tree"), &jc->algorithm);
		if (sc_parse_bytes(pv(&pk, &js->message, "20MB"), &jc->message_bytes) != REACT_OK)
			jc->message_bytes = 0;
		if (pf) {
			/* the file's ranks, collective and message unless the job gives them;
			 * given, they must agree with the file */
			char a[64], b[64];
			const char *file = c->pattern_file[j];
			if (js->ranks.n && nr != pf->nranks) {
				snprintf(a, sizeof a, "%d ranks", (int)nr);
				snprintf(b, sizeof b, "%d", (int)pf->nranks);
				st = pattern_mismatch(err, errlen, &js->ranks, &js->pattern, file, "ranks", a, b);
				goto fail;
			}
			if (js->collective.n && jc->collective != pf->collective) {
				st = pattern_mismatch(err, errlen, &js->collective, &js->pattern, file,
				                      "collective", react_collective_name(jc->collective),
				                      react_collective_name(pf->collective));
				goto fail;
			}
			if (js->message.n && jc->message_bytes != pf->message_bytes) {
				snprintf(a, sizeof a, "%" PRIu64 " bytes (%s)", jc->message_bytes,
				         pv(&pk, &js->message, ""));
				snprintf(b, sizeof b, "%" PRIu64 " bytes", pf->message_bytes);
				st = pattern_mismatch(err, errlen, &js->message, &js->pattern, file,
				                      "message_bytes", a, b);
				goto fail;
			}
			jc->collective = pf->collective;
			jc->algorithm = pf->algorithm;
			jc->message_bytes = pf->message_bytes;
		}
		if (jc->message_bytes < (uint64_t)nr) {
			st = fail_at(REACT_EINVAL, err, errlen, js->message.src, js->message.line,
			             "field 'jobs.%s.message': expected at least one byte per rank (%d)",
			             jn, (int)nr);
			goto fail;
		}
		jc->epochs = pint(&pk, &js->epochs, 100);
		c->warmup[j] = pint(&pk, &js->warmup, jc->epochs >= 50 ? 25 : jc->epochs / 4);
		if (c->warmup[j] >= jc->epochs) {
			const sv_t *at = js->warmup.n ? &js->warmup : &js->epochs;
			st = fail_at(REACT_EINVAL, err, errlen, at->src, at->line,
			             "field 'jobs.%s.warmup': expected fewer warm-up epochs (%d) than "
			             "epochs (%d)", jn, (int)c->warmup[j], (int)jc->epochs);
			goto fail;
		}
		jc->compute_gap_s = ptime(&pk, &js->compute_gap, 0);
		jc->start_s = ptime(&pk, &js->start, 0);
		int on = 1;
		sc_parse_bool(pv(&pk, &js->react, "true"), &on);
		c->react_on[j] = on;
		int keep = 0;
		sc_parse_bool(pv(&pk, &js->keep_running, "false"), &keep);
		jc->keep_running = keep;
		jc->nranks = (int32_t)nr;
		if (!(jc->hosts = calloc((size_t)nr, sizeof *jc->hosts))) {
			st = REACT_ENOMEM;
			goto fail;
		}
		/* its hosts, drawn by the simulators' resolver */
		net_job_t nj;
		net_job(&pk, j, nr, rat, &nj);
		if ((st = react_net_place(net, &nj.job, jc->hosts, err, errlen)) != REACT_OK)
			goto fail;

		react_params_default(&c->params[j]);
		c->params[j].seed = c->seed + (uint64_t)j;
		for (size_t i = 0; i < NPARAMS; i++) {
			const char *v = pv(&pk, &sp->params[i], NULL);
			if (!v)
				continue;
			char why[512];
			if (react_params_set(&c->params[j], param_defs[i].name, v, why, sizeof why) !=
			    REACT_OK) {
				st = fail_at(REACT_EINVAL, err, errlen, sp->params[i].src, sp->params[i].line,
				             "field 'params.%s': %s", param_defs[i].key, why);
				goto fail;
			}
			if (!strcmp(param_defs[i].name, "seed"))
				c->params[j].seed += (uint64_t)j;
		}
	}

	/* the congestion on it: external flows, degraded links */
	if ((st = react_net_finish(net, &c->run, &c->topo, err, errlen)) != REACT_OK)
		goto fail;

	react_net_destroy(net);
	free(np);
	free(nranks);
	free(choice);
	*out = c;
	return REACT_OK;
fail:
	react_net_destroy(net);
	free(np);
	free(nranks);
	free(choice);
	react_config_destroy(c);
	return st;
}

react_status_t react_config_check_backend(const react_scenario_t *s, const react_config_t *c,
                                          const char *backend, char *err, size_t errlen)
{
	const spec_t *sp = s->spec;
	if (strcmp(backend, "gpu")) {
		if (c->gpu.npairs && c->gpu.p > 0)
			return fail_at(REACT_EINVAL, err, errlen, sp->gpu_pairs_src, sp->gpu_pairs_line,
			               "field 'gpu.congestion': rank-pair congestion is modelled by the "
			               "gpu backend only; the %s backend models congestion.external and "
			               "congestion.degraded_links", backend);
		return REACT_OK;
	}
	if (c->run.njobs != 1) {
		const sv_t *at = &sp->jobs[1].name;
		return fail_at(REACT_EINVAL, err, errlen, at->src, at->line,
		               "field 'jobs': the gpu backend runs one job at a time; this scenario "
		               "has %d", (int)c->run.njobs);
	}
	const sv_t *ext = &sp->net[REACT_NET_EXT_PAIRS], *deg = &sp->net[REACT_NET_DEG_COUNT];
	if (c->run.next)
		return fail_at(REACT_EINVAL, err, errlen, ext->src, ext->line,
		               "field 'congestion.external': the gpu backend cannot model external "
		               "flows (they need a simulated network); use gpu.congestion (rank-pair "
		               "congestion) or a simulation backend");
	if (c->run.ndegraded)
		return fail_at(REACT_EINVAL, err, errlen, deg->src, deg->line,
		               "field 'congestion.degraded_links': the gpu backend cannot model "
		               "degraded links (they need a simulated network); use gpu.congestion "
		               "(rank-pair congestion) or a simulation backend");
	if (sp->ecmp_seed.n)
		return fail_at(REACT_EINVAL, err, errlen, sp->ecmp_seed.src, sp->ecmp_seed.line,
		               "field 'ecmp_seed': the gpu backend has no ECMP paths to draw (they "
		               "need a simulated network)");
	for (int32_t i = 0; i < c->gpu.npairs; i++)
		if (c->gpu.pairs[i][0] >= c->run.jobs[0].nranks ||
		    c->gpu.pairs[i][1] >= c->run.jobs[0].nranks)
			return fail_at(REACT_EINVAL, err, errlen, sp->gpu_pairs_src, sp->gpu_pairs_line,
			               "field 'gpu.congestion.pairs[%d]': expected ranks below %d (job "
			               "'%s'), got [%d, %d]", (int)i, (int)c->run.jobs[0].nranks,
			               c->run.jobs[0].name, (int)c->gpu.pairs[i][0],
			               (int)c->gpu.pairs[i][1]);
	return REACT_OK;
}
