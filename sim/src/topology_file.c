/*
 * topology_file.c - topology files: the project's own line format and the
 * HPCC / ASTRA-sim ns-3 / SimAI plain-text format (see topologies/README.md).
 *
 * Own format, one statement per line, '#' starts a comment:
 *   topology NAME
 *   node NAME KIND               KIND: host tor agg core switch
 *   link NAME NAME [RATE [DELAY]]  defaults 100Gbps 1us
 * HPCC format: "total_nodes switch_nodes links", then the switch ids, then
 * "src dst rate delay error_rate" per link; the non-switch ids are the hosts.
 * SimAI's format (what its gen_Topo_Template.py writes and its ns-3 and
 * flow-level frontends read) differs only in the header, "nodes
 * gpus_per_server nvswitches switches links gpu_type [ngpus_per_node]",
 * and lists the NVSwitch ids, then the other switch ids.
 * The format is chosen by the first statement: a number means HPCC or
 * SimAI (3 fields: HPCC; 6 or 7: SimAI).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "react/units.h"
#include "topology_priv.h"

#define DEFAULT_RATE 100e9
#define DEFAULT_DELAY 1e-6
typedef struct reader {
	FILE *f;
	const char *path;
	int lineno;
	char *line;      /* getline buffer */
	size_t linecap;
	char **tok;
	int ntok, tokcap;
} reader_t;

/* Next non-empty line split into tokens (any number, lines of any length);
 * 0 at end of file, -1 on a read or memory error. */
static int next_line(reader_t *r)
{
	while (getline(&r->line, &r->linecap, r->f) >= 0) {
		r->lineno++;
		char *c = strchr(r->line, '#');
		if (c)
			*c = 0;
		r->ntok = 0;
		for (char *p = strtok(r->line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
			if (r->ntok == r->tokcap) {
				int nc = r->tokcap ? 2 * r->tokcap : 16;
				char **q = realloc(r->tok, (size_t)nc * sizeof *q);
				if (!q)
					return -1;
				r->tok = q;
				r->tokcap = nc;
			}
			r->tok[r->ntok++] = p;
		}
		if (r->ntok)
			return 1;
	}
	return ferror(r->f) ? -1 : 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10);
	if (errno || e == s || *e || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Node names of the own format, looked up in a hash table (open addressing,
 * FNV-1a, at most half full) so that reading is linear in the file: a list
 * searched per statement made it quadratic (40k nodes: 12 s, now 0.05 s). */
typedef struct name_index {
	int32_t *slot; /* node id + 1, 0 = empty */
	size_t cap;    /* a power of two */
	size_t n;
} name_index_t;

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Id of `name` among the builder's nodes, or -1; *at: the slot it has or gets. */
static int32_t index_find(const name_index_t *x, const react_topology_t *t, const char *name,
                          size_t *at)
{
	size_t i = (size_t)name_hash(name) & (x->cap - 1);
	for (; x->slot[i]; i = (i + 1) & (x->cap - 1))
		if (!strcmp(t->node_name[x->slot[i] - 1], name))
			break;
	if (at)
		*at = i;
	return x->slot[i] - 1;
}

static int32_t find_node(const name_index_t *x, const react_topology_t *t, const char *name)
{
	return x->cap ? index_find(x, t, name, NULL) : -1;
}

/* Record node `id` (just added to t) under its name.  -1 when memory ran out. */
static int index_add(name_index_t *x, const react_topology_t *t, int32_t id)
{
	if (2 * (x->n + 1) > x->cap) {
		name_index_t y = {NULL, x->cap ? 2 * x->cap : 64, x->n};
		if (!(y.slot = calloc(y.cap, sizeof *y.slot)))
			return -1;
		for (size_t i = 0; i < x->cap; i++)
			if (x->slot[i]) {
				size_t at;
				index_find(&y, t, t->node_name[x->slot[i] - 1], &at);
				y.slot[at] = x->slot[i];
			}
		free(x->slot);
		*x = y;
	}
	size_t at;
	index_find(x, t, t->node_name[id], &at);
	x->slot[at] = id + 1;
	x->n++;
	return 0;
}

static react_status_t parse_kind(const char *s, react_node_kind_t *k)
{
	static const react_node_kind_t all[] = {REACT_NODE_HOST, REACT_NODE_TOR, REACT_NODE_AGG,
	                                        REACT_NODE_CORE, REACT_NODE_SWITCH};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (!strcmp(s, react_node_kind_name(all[i]))) {
			*k = all[i];
			return REACT_OK;
		}
	return REACT_EINVAL;
}

#define PERR(...)                                                                   \
	do {                                                                            \
		snprintf(err, errlen, __VA_ARGS__);                                         \
		st = REACT_EPARSE;                                                          \
		goto fail;                                                                  \
	} while (0)

/* A node id of a host without any link, or -1.  A host alone needs none. */
static int32_t lone_host(const react_topology_t *t)
{
	int32_t lone = -1;
	if (t->nhosts < 2)
		return -1;
	unsigned char *linked = calloc((size_t)t->nnodes, 1);
	if (!linked)
		return -1; /* the check is skipped; routing reports the host */
	for (int32_t l = 0; l < t->nlinks; l++)
		linked[t->links[l].a] = linked[t->links[l].b] = 1;
	for (int32_t h = 0; h < t->nhosts && lone < 0; h++)
		if (!linked[t->host_node[h]])
			lone = t->host_node[h];
	free(linked);
	return lone;
}

static react_status_t read_own(reader_t *r, react_topo_builder_t *b, char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	name_index_t names = {0};
	int *lines = NULL; /* per node: the line defining it */
	int32_t lines_cap = 0;
	int more = 1;
	/* the first statement is already tokenised */
	while (more > 0) {
		const char *kw = r->tok[0];
		if (!strcmp(kw, "topology")) {
			if (r->ntok != 2)
				PERR("%s:%d: expected 'topology NAME'", r->path, r->lineno);
			snprintf(b->t->name, sizeof b->t->name, "%s", r->tok[1]);
		} else if (!strcmp(kw, "node")) {
			react_node_kind_t k;
			if (r->ntok != 3)
				PERR("%s:%d: expected 'node NAME KIND'", r->path, r->lineno);
			if (parse_kind(r->tok[2], &k))
				PERR("%s:%d: expected a node kind (host, tor, agg, core, switch), got '%s'",
				     r->path, r->lineno, r->tok[2]);
			if (find_node(&names, b->t, r->tok[1]) >= 0)
				PERR("%s:%d: node '%s' defined twice", r->path, r->lineno, r->tok[1]);
			int32_t id;
			if ((st = react_tb_node(b, k, r->tok[1], &id)))
				goto fail;
			if (react_tb_grow((void **)&lines, &lines_cap, id + 1, sizeof *lines)) {
				st = REACT_ENOMEM;
				goto fail;
			}
			lines[id] = r->lineno;
			if (index_add(&names, b->t, id)) {
				st = REACT_ENOMEM;
				goto fail;
			}
		} else if (!strcmp(kw, "link")) {
			double rate = DEFAULT_RATE, delay = DEFAULT_DELAY;
			if (r->ntok < 3 || r->ntok > 5)
				PERR("%s:%d: expected 'link NAME NAME [RATE [DELAY]]'", r->path, r->lineno);
			int32_t a = find_node(&names, b->t, r->tok[1]);
			int32_t c = find_node(&names, b->t, r->tok[2]);
			if (a < 0 || c < 0)
				PERR("%s:%d: expected a node defined above, got '%s'", r->path, r->lineno,
				     r->tok[a < 0 ? 1 : 2]);
			if (a == c)
				PERR("%s:%d: expected two different nodes", r->path, r->lineno);
			if (r->ntok > 3 && (react_parse_rate_bps(r->tok[3], &rate) || !(rate > 0)))
				PERR("%s:%d: expected a rate like 100Gbps, got '%s'", r->path, r->lineno,
				     r->tok[3]);
			if (r->ntok > 4 && react_parse_time_s(r->tok[4], &delay))
				PERR("%s:%d: expected a delay like 1us, got '%s'", r->path, r->lineno,
				     r->tok[4]);
			if ((st = react_tb_link(b, a, c, rate, delay)))
				goto fail;
		} else {
			PERR("%s:%d: expected 'topology', 'node' or 'link', got '%s'", r->path, r->lineno,
			     kw);
		}
		more = next_line(r);
	}
	if (more < 0) {
		snprintf(err, errlen, "%s: read error", r->path);
		st = REACT_EIO;
		goto fail;
	}
	if (b->t->nhosts == 0)
		PERR("%s:%d: expected at least one 'node NAME host'", r->path, r->lineno);
	int32_t lone = lone_host(b->t);
	if (lone >= 0)
		PERR("%s:%d: host '%s' has no link: it cannot reach the other hosts", r->path,
		     lines[lone], b->t->node_name[lone]);
fail:
	free(names.slot);
	free(lines);
	return st;
}

static react_status_t read_hpcc(reader_t *r, react_topo_builder_t *b, char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	long nn, ns, nl, gps, nvs, npn;
	unsigned char *isw = NULL;
	react_link_t *lk = NULL;
	int32_t lcap = 0;
	int hline = r->lineno;
	if (r->ntok == 3) { /* HPCC: total_nodes switch_nodes links */
		if (parse_long(r->tok[0], 1, 10000000, &nn) || parse_long(r->tok[1], 0, nn, &ns) ||
		    parse_long(r->tok[2], 0, 100000000, &nl))
			PERR("%s:%d: expected 'total_nodes switch_nodes links' (switch_nodes <= "
			     "total_nodes)", r->path, r->lineno);
	} else if (r->ntok == 6 || r->ntok == 7) {
		/* SimAI: nodes gpus_per_server nvswitches switches links gpu_type [ngpus_per_node];
		 * the GPU type and the per-server counts do not change the network */
		if (parse_long(r->tok[0], 1, 10000000, &nn) || parse_long(r->tok[1], 1, 1000000, &gps) ||
		    parse_long(r->tok[2], 0, nn, &nvs) || parse_long(r->tok[3], 0, nn, &ns) ||
		    parse_long(r->tok[4], 0, 100000000, &nl) || isdigit((unsigned char)r->tok[5][0]) ||
		    (r->ntok == 7 && parse_long(r->tok[6], 1, 1000000, &npn)))
			PERR("%s:%d: expected SimAI's 'nodes gpus_per_server nvswitches switches links "
			     "gpu_type [ngpus_per_node]' (counts >= 0, gpu_type a name such as H100)",
			     r->path, r->lineno);
		if (nvs + ns > nn)
			PERR("%s:%d: %ld NVSwitches and %ld switches are more than the %ld nodes", r->path,
			     r->lineno, nvs, ns, nn);
		ns += nvs; /* both are switches here: the ids that follow list them all */
	} else {
		PERR("%s:%d: expected 'total_nodes switch_nodes links' (HPCC) or 'nodes "
		     "gpus_per_server nvswitches switches links gpu_type' (SimAI), got %d fields",
		     r->path, r->lineno, r->ntok);
	}
	if (!(isw = calloc((size_t)nn, 1))) {
		st = REACT_ENOMEM;
		goto fail;
	}
	long got = 0;
	while (got < ns) { /* switch ids may span lines */
		int m = next_line(r);
		if (m <= 0)
			PERR("%s:%d: expected %ld switch ids, found %ld", r->path, r->lineno, ns, got);
		for (int i = 0; i < r->ntok; i++) {
			long id;
			if (got == ns)
				PERR("%s:%d: expected %ld switch ids, found more", r->path, r->lineno, ns);
			if (parse_long(r->tok[i], 0, nn - 1, &id))
				PERR("%s:%d: expected a switch id in 0..%ld, got '%s'", r->path, r->lineno,
				     nn - 1, r->tok[i]);
			if (isw[id])
				PERR("%s:%d: switch id %ld listed twice", r->path, r->lineno, id);
			isw[id] = 1;
			got++;
		}
	}
	/* the links are read before the nodes are made (see below) */
	for (long l = 0; l < nl; l++) {
		long a, c;
		double rate, delay, er;
		char *e;
		int m = next_line(r);
		if (m <= 0)
			PERR("%s:%d: expected %ld links, found %ld", r->path, r->lineno, nl, l);
		if (r->ntok != 5 && r->ntok != 4)
			PERR("%s:%d: expected 'src dst rate delay error_rate'", r->path, r->lineno);
		if (parse_long(r->tok[0], 0, nn - 1, &a) || parse_long(r->tok[1], 0, nn - 1, &c))
			PERR("%s:%d: expected node ids in 0..%ld", r->path, r->lineno, nn - 1);
		if (a == c)
			PERR("%s:%d: expected two different nodes", r->path, r->lineno);
		if (react_parse_rate_bps(r->tok[2], &rate) || !(rate > 0))
			PERR("%s:%d: expected a rate like 100Gbps, got '%s'", r->path, r->lineno, r->tok[2]);
		if (react_parse_time_s(r->tok[3], &delay))
			PERR("%s:%d: expected a delay like 0.001ms, got '%s'", r->path, r->lineno,
			     r->tok[3]);
		if (r->ntok == 5) {
			er = strtod(r->tok[4], &e);
			if (e == r->tok[4] || *e || er < 0 || er > 1)
				PERR("%s:%d: expected an error rate in [0,1], got '%s'", r->path, r->lineno,
				     r->tok[4]);
		}
		if (react_tb_grow((void **)&lk, &lcap, (int32_t)l + 1, sizeof *lk)) {
			st = REACT_ENOMEM;
			goto fail;
		}
		lk[l] = (react_link_t){(int32_t)a, (int32_t)c, rate, delay};
	}
	int m = next_line(r);
	if (m > 0)
		PERR("%s:%d: expected the end of the file after %ld links", r->path, r->lineno, nl);
	/* checked before the nodes are made: a header alone may ask for ten
	 * million; one host alone needs no link */
	if (nn - ns > 1 && nn - ns > 2 * nl)
		PERR("%s:%d: %ld hosts (nodes not listed as switches) and %ld links: some host has no "
		     "link, so it cannot reach the other hosts", r->path, hline, nn - ns, nl);
	for (long i = 0; i < nn; i++) {
		char nm[32];
		snprintf(nm, sizeof nm, "n%ld", i);
		if ((st = react_tb_node(b, isw[i] ? REACT_NODE_SWITCH : REACT_NODE_HOST, nm, NULL)))
			goto fail;
	}
	for (long l = 0; l < nl; l++)
		if ((st = react_tb_link(b, lk[l].a, lk[l].b, lk[l].rate_bps, lk[l].delay_s)))
			goto fail;
	if (b->t->nhosts == 0)
		PERR("%s:%d: expected at least one host (a node that is not a switch)", r->path, hline);
	int32_t lone = lone_host(b->t);
	if (lone >= 0)
		PERR("%s:%d: host n%d (not listed as a switch) has no link: it cannot reach the other "
		     "hosts", r->path, hline, lone);
fail:
	free(isw);
	free(lk);
	return st;
}

react_status_t react_topo_read(const char *path, react_topology_t **out, char *err,
                               size_t errlen)
{
	react_status_t st;
	reader_t r = {0};
	react_topo_builder_t b = {0};
	if (!path || !out)
		return REACT_EINVAL;
	r.path = path;
	if (!(r.f = fopen(path, "r"))) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return REACT_EIO;
	}
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	char nm[64];
	snprintf(nm, sizeof nm, "%s", base);
	char *dot = strrchr(nm, '.');
	if (dot && dot != nm)
		*dot = 0;
	if ((st = react_tb_init(&b, nm)))
		goto fail;
	int m = next_line(&r);
	if (m <= 0) {
		snprintf(err, errlen, "%s:%d: expected a topology, found %s", path, r.lineno,
		         m < 0 ? "a read error" : "an empty file");
		st = m < 0 ? REACT_EIO : REACT_EPARSE;
		goto fail;
	}
	if (isdigit((unsigned char)r.tok[0][0]))
		st = read_hpcc(&r, &b, err, errlen);
	else
		st = read_own(&r, &b, err, errlen);
	if (st)
		goto fail;
	fclose(r.f);
	free(r.line);
	free(r.tok);
	*out = react_tb_finish(&b);
	return REACT_OK;
fail:
	if (st == REACT_EINVAL) { /* from the builder: a link it refused */
		snprintf(err, errlen, "%s:%d: invalid link", path, r.lineno);
		st = REACT_EPARSE;
	} else if (st == REACT_ENOMEM) {
		snprintf(err, errlen, "%s:%d: out of memory", path, r.lineno);
	}
	fclose(r.f);
	free(r.line);
	free(r.tok);
	react_tb_abort(&b);
	return st;
}

/* Shortest text for a rate in bits per second. */
static void fmt_rate(char *buf, size_t n, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, n, "%.15gGbps", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, n, "%.15gMbps", bps / 1e6);
	else
		snprintf(buf, n, "%.15gbps", bps);
}

static FILE *open_tmp(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen)
{
	snprintf(tmp, tmplen, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a temporary file: %s", path, strerror(errno));
		return NULL;
	}
	(void)fchmod(fd, 0644);
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	return f;
}

static react_status_t close_tmp(FILE *f, const char *tmp, const char *path, char *err,
                                size_t errlen)
{
	int bad = ferror(f);
	bad |= fclose(f);
	if (bad || rename(tmp, path)) {
		snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
		unlink(tmp);
		return REACT_EIO;
	}
	return REACT_OK;
}

react_status_t react_topo_write(const react_topology_t *t, const char *path, char *err,
                                size_t errlen)
{
	char tmp[4096], r[64];
	if (!t || !path)
		return REACT_EINVAL;
	FILE *f = open_tmp(path, tmp, sizeof tmp, err, errlen);
	if (!f)
		return REACT_EIO;
	fprintf(f, "# REACT topology: %d nodes (%d hosts), %d links\n", t->nnodes, t->nhosts,
	        t->nlinks);
	fprintf(f, "topology %s\n", t->name[0] ? t->name : "unnamed");
	for (int32_t i = 0; i < t->nnodes; i++)
		fprintf(f, "node %s %s\n", t->node_name[i], react_node_kind_name(t->kind[i]));
	for (int32_t i = 0; i < t->nlinks; i++) {
		fmt_rate(r, sizeof r, t->links[i].rate_bps);
		fprintf(f, "link %s %s %s %.15gus\n", t->node_name[t->links[i].a],
		        t->node_name[t->links[i].b], r, t->links[i].delay_s * 1e6);
	}
	return close_tmp(f, tmp, path, err, errlen);
}

react_status_t react_topo_write_hpcc(const react_topology_t *t, const char *path, char *err,
                                     size_t errlen)
{
	char tmp[4096], r[64];
	if (!t || !path)
		return REACT_EINVAL;
	FILE *f = open_tmp(path, tmp, sizeof tmp, err, errlen);
	if (!f)
		return REACT_EIO;
	fprintf(f, "%d %d %d\n", t->nnodes, t->nnodes - t->nhosts, t->nlinks);
	const char *sep = "";
	for (int32_t i = 0; i < t->nnodes; i++)
		if (t->kind[i] != REACT_NODE_HOST) {
			fprintf(f, "%s%d", sep, i);
			sep = " ";
		}
	fprintf(f, "\n");
	for (int32_t i = 0; i < t->nlinks; i++) {
		fmt_rate(r, sizeof r, t->links[i].rate_bps);
		fprintf(f, "%d %d %s %.15gms 0\n", t->links[i].a, t->links[i].b, r,
		        t->links[i].delay_s * 1e3);
	}
	return close_tmp(f, tmp, path, err, errlen);
}
