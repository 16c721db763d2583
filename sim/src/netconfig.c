/* The network part of a scenario: the catalogue of the fields the
 * simulators read, and their resolution into a run (react/netconfig.h).
 * The fields are described in docs/scenarios.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "react/netconfig.h"
#include "react/units.h"

/* ---- the catalogue ---- */

static const char *const topo_types[] = {"star", "fattree", "alibaba", "file", NULL};

#define TOPO "topology"
#define EXT "congestion.external"
#define DEG "congestion.degraded_links"
/* section, key, axis_section, stage, type, sweep, imin; the rest by name */
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
		/* its parent's path and a dot come before its key (nothing at the
		 * top level) */
		size_t plen = strlen(path) - strlen(sections[i].key);
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

/* ---- resolution ---- */

typedef struct placed {
	char name[64];
	int32_t nranks;
	int32_t *hosts;
} placed_t;

struct react_net {
	const react_net_in_t *in;
	react_topology_t *topo;  /* owned until react_net_finish */
	gsl_rng *rng;            /* every random choice, from in->seed */
	uint8_t *used;           /* per host: 1 when a job holds it */
	int32_t *pool;           /* nhosts + 1 entries: free hosts, in index order */
	int32_t nplaced;
	placed_t *jobs;          /* in->njobs entries; the first nplaced are placed */
};

static react_status_t fail_at(react_status_t st, char *err, size_t errlen, const char *where,
                              const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", where, msg);
	return st;
}

/* A picked value, parsed; the default when absent (the runner checked every
 * value given against its field's type). */
static const char *vstr(const react_net_t *n, react_net_field_t f, const char *def)
{
	const char *s = n->in->value[f].str;
	return s ? s : def;
}

static int64_t vint(const react_net_t *n, react_net_field_t f, int64_t def)
{
	const char *s = n->in->value[f].str;
	if (s) {
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 10);
		if (end != s && !*end && errno != ERANGE)
			return v;
	}
	return def;
}

static double vtime(const react_net_t *n, react_net_field_t f, double def)
{
	double v = def;
	const char *s = n->in->value[f].str;
	if (s)
		react_parse_time_s(s, &v);
	return v;
}

static double vrate(const react_net_t *n, react_net_field_t f, double def)
{
	double v;
	const char *s = n->in->value[f].str;
	if (s && react_parse_rate_bps(s, &v) == REACT_OK && v > 0)
		return v;
	return def;
}

static int given(const react_net_t *n, react_net_field_t f) { return n->in->value[f].str != NULL; }
static const char *where(const react_net_t *n, react_net_field_t f)
{
	return n->in->value[f].where;
}

static react_status_t build_topology(react_net_t *n, char *err, size_t errlen)
{
	const react_net_in_t *in = n->in;
	/* type is required in a topology section: absent, there is none */
	const char *type = vstr(n, REACT_NET_TOPO_TYPE, NULL);
	double rate = vrate(n, REACT_NET_TOPO_RATE, 100e9);
	double delay = vtime(n, REACT_NET_TOPO_DELAY, 1e-6);
	char terr[512] = "";
	react_topology_t **out = &n->topo;
	react_status_t st;
	if (!type) {
		/* Without a topology section: a star of as many hosts as the jobs
		 * have ranks (one switch), which is what the gpu backend's ranks
		 * see; external flows then have no host to run to. */
		int64_t h = 0;
		for (int32_t j = 0; j < in->njobs; j++)
			h += in->nranks[j];
		st = react_topo_star((int32_t)(h < 2 ? 2 : h), rate, delay, out);
		if (st != REACT_OK)
			return fail_at(st, err, errlen, in->origin,
			               "cannot build the default topology (a star of %d hosts): %s",
			               (int)h, react_status_str(st));
		return REACT_OK;
	}
	if (!strcmp(type, "star")) {
		if (!given(n, REACT_NET_TOPO_HOSTS))
			return fail_at(REACT_EINVAL, err, errlen, where(n, REACT_NET_TOPO_TYPE),
			               "field 'topology.hosts': required for a star topology");
		int64_t h = vint(n, REACT_NET_TOPO_HOSTS, 0);
		if (h < 2)
			return fail_at(REACT_EINVAL, err, errlen, where(n, REACT_NET_TOPO_HOSTS),
			               "field 'topology.hosts': expected at least 2 hosts, got %d", (int)h);
		st = react_topo_star((int32_t)h, rate, delay, out);
		if (st != REACT_OK)
			return fail_at(st, err, errlen, where(n, REACT_NET_TOPO_HOSTS),
			               "field 'topology': cannot build a star of %d hosts: %s", (int)h,
			               react_status_str(st));
		return REACT_OK;
	}
	if (!strcmp(type, "fattree")) {
		int64_t k = vint(n, REACT_NET_TOPO_K, 8);
		const char *at = where(n, given(n, REACT_NET_TOPO_K) ? REACT_NET_TOPO_K
		                                                      : REACT_NET_TOPO_TYPE);
		if (k % 2 || k < 2 || k > 64)
			return fail_at(REACT_EINVAL, err, errlen, at,
			               "field 'topology.k': expected an even k in 2..64, got %d", (int)k);
		st = react_topo_fattree((int32_t)k, rate, delay, out);
		if (st != REACT_OK)
			return fail_at(st, err, errlen, at,
			               "field 'topology': cannot build a fat-tree of k=%d: %s", (int)k,
			               react_status_str(st));
		return REACT_OK;
	}
	react_net_field_t ff;
	int is_csv = 0;
	if (!strcmp(type, "alibaba")) {
		if (given(n, REACT_NET_TOPO_CSV))
			ff = REACT_NET_TOPO_CSV, is_csv = 1;
		else if (given(n, REACT_NET_TOPO_FILE))
			ff = REACT_NET_TOPO_FILE;
		else
			return fail_at(REACT_EINVAL, err, errlen, where(n, REACT_NET_TOPO_TYPE),
			               "field 'topology': an alibaba topology needs file (a .topo) or csv "
			               "(the cluster CSV, with hosts and aggs_per_tor)");
	} else { /* file */
		if (given(n, REACT_NET_TOPO_PATH))
			ff = REACT_NET_TOPO_PATH;
		else if (given(n, REACT_NET_TOPO_FILE))
			ff = REACT_NET_TOPO_FILE;
		else
			return fail_at(REACT_EINVAL, err, errlen, where(n, REACT_NET_TOPO_TYPE),
			               "field 'topology.path': required for a file topology");
	}
	const react_net_value_t *fv = &in->value[ff];
	if (is_csv)
		st = react_topo_alibaba(fv->file, (int32_t)vint(n, REACT_NET_TOPO_HOSTS, 0),
		                        (int32_t)vint(n, REACT_NET_TOPO_AGGS, 3), rate, delay, out, terr,
		                        sizeof terr);
	else
		st = react_topo_read(fv->file, out, terr, sizeof terr);
	if (st != REACT_OK) {
		if (st == REACT_EIO && strcmp(fv->file, fv->str))
			return fail_at(st, err, errlen, fv->where,
			               "field '%s': %s (a relative path is relative to the scenario's "
			               "directory, %s)", fv->path, terr[0] ? terr : react_status_str(st),
			               in->dir);
		return fail_at(st, err, errlen, fv->where, "field '%s': %s", fv->path,
		               terr[0] ? terr : react_status_str(st));
	}
	if (!is_csv) {
		/* a file's own rates and delays, unless the scenario sets them */
		for (int32_t l = 0; l < (*out)->nlinks; l++) {
			if (given(n, REACT_NET_TOPO_RATE))
				(*out)->links[l].rate_bps = rate;
			if (given(n, REACT_NET_TOPO_DELAY))
				(*out)->links[l].delay_s = delay;
		}
	}
	return REACT_OK;
}

react_status_t react_net_open(const react_net_in_t *in, react_net_t **out, char *err,
                              size_t errlen)
{
	react_status_t st = REACT_ENOMEM;
	react_net_t *n = calloc(1, sizeof *n);
	*out = NULL;
	if (!n)
		return REACT_ENOMEM;
	n->in = in;
	if ((st = build_topology(n, err, errlen)) != REACT_OK)
		goto fail;
	st = REACT_ENOMEM;
	if (!(n->jobs = calloc(in->njobs > 0 ? (size_t)in->njobs : 1, sizeof *n->jobs)) ||
	    !(n->used = calloc((size_t)n->topo->nhosts, 1)) ||
	    !(n->pool = calloc((size_t)n->topo->nhosts + 1, sizeof *n->pool)) ||
	    !(n->rng = gsl_rng_alloc(gsl_rng_mt19937)))
		goto fail;
	gsl_rng_set(n->rng, (unsigned long)in->seed);
	*out = n;
	return REACT_OK;
fail:
	react_net_destroy(n);
	return st;
}

const react_topology_t *react_net_topology(const react_net_t *net) { return net->topo; }

void react_net_destroy(react_net_t *net)
{
	if (!net)
		return;
	if (net->jobs)
		for (int32_t j = 0; j < net->nplaced; j++)
			free(net->jobs[j].hosts);
	free(net->jobs);
	free(net->used);
	free(net->pool);
	if (net->rng)
		gsl_rng_free(net->rng);
	react_topology_destroy(net->topo);
	free(net);
}

/* Choose k distinct ints from pool[0..n) into out (in random order). */
static void choose_shuffled(gsl_rng *r, int32_t *out, size_t k, int32_t *pool, size_t n)
{
	if (k == 0)
		return;
	gsl_ran_choose(r, out, k, pool, n, sizeof *pool);
	gsl_ran_shuffle(r, out, k, sizeof *out);
}

react_status_t react_net_place(react_net_t *net, const react_net_job_t *job, int32_t *hosts,
                               char *err, size_t errlen)
{
	const react_topology_t *T = net->topo;
	const char *jn = job->name;
	int64_t nr = job->nranks;
	uint8_t *used = net->used;
	int32_t *pool = net->pool;

	if (net->nplaced >= net->in->njobs) {
		snprintf(err, errlen, "react_net_place: job '%s' is beyond the %d jobs opened", jn,
		         (int)net->in->njobs);
		return REACT_EINVAL;
	}
	/* free hosts, in index order */
	size_t nfree = 0;
	for (int32_t h = 0; h < T->nhosts; h++)
		if (!used[h])
			pool[nfree++] = h;
	if (job->placement == REACT_PLACE_HOSTS) {
		if ((int64_t)job->nhosts != nr)
			return fail_at(REACT_EINVAL, err, errlen, job->placement_where,
			               "field '%s': expected %d hosts (one per rank), got %zu",
			               job->placement_path, (int)nr, job->nhosts);
		for (size_t i = 0; i < job->nhosts; i++) {
			if (job->hosts[i] >= T->nhosts)
				return fail_at(REACT_EINVAL, err, errlen, job->placement_where,
				               "field '%s': host %d is beyond the topology (hosts 0..%d)",
				               job->placement_path, (int)job->hosts[i], (int)T->nhosts - 1);
			hosts[i] = job->hosts[i];
		}
	} else if (job->placement == REACT_PLACE_OVERLAP) {
		if (job->overlap < 0 || job->overlap >= net->nplaced) {
			snprintf(err, errlen, "react_net_place: job '%s' overlaps job %d, not an earlier one",
			         jn, (int)job->overlap);
			return REACT_EINVAL;
		}
		const placed_t *other = &net->jobs[job->overlap];
		int64_t shared = job->shared;
		if (shared > nr || shared > other->nranks)
			return fail_at(REACT_EINVAL, err, errlen, job->placement_where,
			               "field '%s': expected at most %d shared hosts (ranks of both jobs), "
			               "got %d", job->placement_path,
			               (int)(nr < other->nranks ? nr : other->nranks), (int)shared);
		if ((size_t)(nr - shared) > nfree)
			return fail_at(REACT_EINVAL, err, errlen, job->ranks_where,
			               "job '%s': %d ranks with %d shared need %d free hosts; the "
			               "topology has %zu left", jn, (int)nr, (int)shared,
			               (int)(nr - shared), nfree);
		int32_t *tmp = calloc((size_t)nr + 1, sizeof *tmp);
		if (!tmp)
			return REACT_ENOMEM;
		if (shared)
			gsl_ran_choose(net->rng, tmp, (size_t)shared, other->hosts, (size_t)other->nranks,
			               sizeof *tmp);
		if (nr - shared)
			gsl_ran_choose(net->rng, tmp + shared, (size_t)(nr - shared), pool, nfree,
			               sizeof *tmp);
		gsl_ran_shuffle(net->rng, tmp, (size_t)nr, sizeof *tmp);
		memcpy(hosts, tmp, (size_t)nr * sizeof *tmp);
		free(tmp);
	} else {
		if ((size_t)nr > nfree)
			return fail_at(REACT_EINVAL, err, errlen, job->ranks_where,
			               "job '%s': %d ranks do not fit: the topology has %d hosts, %zu "
			               "free after earlier jobs", jn, (int)nr, (int)T->nhosts, nfree);
		if (job->placement == REACT_PLACE_RANDOM) {
			choose_shuffled(net->rng, hosts, (size_t)nr, pool, nfree);
		} else {
			int64_t from = job->start;
			int32_t found = -1;
			for (int64_t h = from; h + nr <= T->nhosts && found < 0; h++) {
				int ok = 1;
				for (int64_t q = h; q < h + nr && ok; q++)
					ok = !used[q];
				if (ok)
					found = (int32_t)h;
			}
			if (found < 0)
				return fail_at(REACT_EINVAL, err, errlen, job->placement_where,
				               "job '%s': no %d consecutive free hosts from host %d (the "
				               "topology has %d)", jn, (int)nr, (int)from, (int)T->nhosts);
			for (int64_t q = 0; q < nr; q++)
				hosts[q] = found + (int32_t)q;
		}
	}
	for (int64_t q = 0; q < nr; q++)
		used[hosts[q]] = 1;

	placed_t *p = &net->jobs[net->nplaced];
	if (!(p->hosts = malloc((size_t)(nr ? nr : 1) * sizeof *p->hosts)))
		return REACT_ENOMEM;
	memcpy(p->hosts, hosts, (size_t)nr * sizeof *hosts);
	snprintf(p->name, sizeof p->name, "%s", jn);
	p->nranks = (int32_t)nr;
	net->nplaced++;
	return REACT_OK;
}

react_status_t react_net_finish(react_net_t *net, react_run_cfg_t *run, react_topology_t **topo,
                                char *err, size_t errlen)
{
	const react_topology_t *T = net->topo;
	react_ext_flow_t *ext = NULL;
	react_degraded_link_t *degraded = NULL;
	int32_t *a = NULL, *b = NULL;
	react_status_t st = REACT_ENOMEM;
	size_t next = 0, ndegraded = 0;

	*topo = NULL;
	if (net->nplaced != net->in->njobs) {
		snprintf(err, errlen, "react_net_finish: %d of %d jobs placed", (int)net->nplaced,
		         (int)net->in->njobs);
		return REACT_EINVAL;
	}
	/* external flows: sources among the job's hosts, destinations outside every job */
	int64_t pairs = vint(net, REACT_NET_EXT_PAIRS, 0), p = vint(net, REACT_NET_EXT_P, 1);
	if (pairs > 0 && p > 0) {
		int32_t ej = 0;
		if (given(net, REACT_NET_EXT_JOB))
			for (int32_t j = 0; j < net->nplaced; j++)
				if (!strcmp(net->jobs[j].name, vstr(net, REACT_NET_EXT_JOB, ""))) {
					ej = j;
					break;
				}
		const placed_t *jc = &net->jobs[ej];
		size_t nout = 0;
		for (int32_t h = 0; h < T->nhosts; h++)
			if (!net->used[h])
				net->pool[nout++] = h;
		if (pairs > jc->nranks || (size_t)pairs > nout) {
			st = fail_at(REACT_EINVAL, err, errlen, where(net, REACT_NET_EXT_PAIRS),
			             "field 'congestion.external.congested_pairs': expected at most %d "
			             "(distinct sources among job '%s''s %d hosts, distinct destinations "
			             "among the %zu hosts outside every job), got %d",
			             (int)(jc->nranks < (int64_t)nout ? jc->nranks : (int64_t)nout),
			             jc->name, (int)jc->nranks, nout, (int)pairs);
			goto fail;
		}
		if (!(a = calloc((size_t)pairs, sizeof *a)) || !(b = calloc((size_t)pairs, sizeof *b)) ||
		    !(ext = calloc((size_t)pairs, sizeof *ext)))
			goto fail;
		choose_shuffled(net->rng, a, (size_t)pairs, jc->hosts, (size_t)jc->nranks);
		choose_shuffled(net->rng, b, (size_t)pairs, net->pool, nout);
		for (int64_t i = 0; i < pairs; i++) {
			react_ext_flow_t *e = &ext[i];
			e->src_host = a[i];
			e->dst_host = b[i];
			e->count = (int32_t)p;
			e->start_s = vtime(net, REACT_NET_EXT_START, 0);
			e->end_s = vtime(net, REACT_NET_EXT_END, 0);
		}
		next = (size_t)pairs;
		free(a);
		free(b);
		a = b = NULL;
	}

	/* degraded links: any tier */
	int64_t ndeg = vint(net, REACT_NET_DEG_COUNT, 0);
	if (ndeg > 0) {
		if (ndeg > T->nlinks) {
			st = fail_at(REACT_EINVAL, err, errlen, where(net, REACT_NET_DEG_COUNT),
			             "field 'congestion.degraded_links.count': expected at most %d (the "
			             "topology's links), got %d", (int)T->nlinks, (int)ndeg);
			goto fail;
		}
		if (!(a = calloc((size_t)T->nlinks, sizeof *a)) || !(b = calloc((size_t)ndeg, sizeof *b)) ||
		    !(degraded = calloc((size_t)ndeg, sizeof *degraded)))
			goto fail;
		for (int32_t l = 0; l < T->nlinks; l++)
			a[l] = l;
		gsl_ran_choose(net->rng, b, (size_t)ndeg, a, (size_t)T->nlinks, sizeof *a);
		double rate = vrate(net, REACT_NET_DEG_RATE, 100e9);
		for (int64_t i = 0; i < ndeg; i++) {
			degraded[i].link = b[i];
			degraded[i].rate_bps = rate;
		}
		ndegraded = (size_t)ndeg;
		free(a);
		free(b);
		a = b = NULL;
	}

	run->topo = net->topo;
	run->ext = ext;
	run->next = next;
	run->degraded = degraded;
	run->ndegraded = ndegraded;
	run->ecmp_ports = (int32_t)vint(net, REACT_NET_ECMP_PORTS, 4);
	run->mtu = (uint32_t)vint(net, REACT_NET_MTU, 1500);
	*topo = net->topo;
	net->topo = NULL;
	return REACT_OK;
fail:
	free(a);
	free(b);
	free(ext);
	free(degraded);
	return st;
}
