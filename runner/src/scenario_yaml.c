/* A small YAML document tree over libyaml's event parser, with line marks
 * for error messages; unit parsers; atomic file helpers. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "react/units.h"
#include "react/results.h"
#include "scenario_internal.h"

static ynode_t *node_new(ynode_kind_t kind, const char *src, int line)
{
	ynode_t *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->kind = kind;
	n->src = src;
	n->line = line;
	return n;
}

ynode_t *ynode_new_map(const char *src, int line)
{
	return node_new(YN_MAP, src, line);
}

static void node_free_rec(ynode_t *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		node_free_rec(n->items[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->items);
	free(n->keys);
	free(n->key_line);
	free(n->str);
	free(n);
}

void ynode_free(ynode_t *n)
{
	node_free_rec(n);
}

static ynode_t *clone_rec(const ynode_t *n)
{
	ynode_t *c = node_new(n->kind, n->src, n->line);
	if (!c)
		return NULL;
	c->plain = n->plain;
	if (n->str && !(c->str = strdup(n->str)))
		goto fail;
	if (n->n) {
		c->items = calloc(n->n, sizeof *c->items);
		if (!c->items)
			goto fail;
		if (n->kind == YN_MAP) {
			c->keys = calloc(n->n, sizeof *c->keys);
			c->key_line = calloc(n->n, sizeof *c->key_line);
			if (!c->keys || !c->key_line)
				goto fail;
		}
		for (size_t i = 0; i < n->n; i++) {
			c->n = i + 1;
			if (!(c->items[i] = clone_rec(n->items[i])))
				goto fail;
			if (n->kind == YN_MAP) {
				if (!(c->keys[i] = strdup(n->keys[i])))
					goto fail;
				c->key_line[i] = n->key_line[i];
			}
		}
	}
	return c;
fail:
	node_free_rec(c);
	return NULL;
}

ynode_t *ynode_clone(const ynode_t *n)
{
	return clone_rec(n);
}

ynode_t *ynode_get(const ynode_t *map, const char *key)
{
	if (!map || map->kind != YN_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return map->items[i];
	return NULL;
}

static react_status_t append(ynode_t *parent, char *key, int key_line, ynode_t *child)
{
	ynode_t **items = realloc(parent->items, (parent->n + 1) * sizeof *items);
	if (!items)
		return REACT_ENOMEM;
	parent->items = items;
	if (parent->kind == YN_MAP) {
		char **keys = realloc(parent->keys, (parent->n + 1) * sizeof *keys);
		if (!keys)
			return REACT_ENOMEM;
		parent->keys = keys;
		int *kl = realloc(parent->key_line, (parent->n + 1) * sizeof *kl);
		if (!kl)
			return REACT_ENOMEM;
		parent->key_line = kl;
		keys[parent->n] = key;
		kl[parent->n] = key_line;
	}
	items[parent->n++] = child;
	return REACT_OK;
}

react_status_t ynode_put(ynode_t *map, const char *key, ynode_t *val)
{
	if (!map || map->kind != YN_MAP)
		return REACT_EINVAL;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key)) {
			node_free_rec(map->items[i]);
			map->items[i] = val;
			return REACT_OK;
		}
	char *k = strdup(key);
	if (!k)
		return REACT_ENOMEM;
	react_status_t st = append(map, k, val->line, val);
	if (st != REACT_OK)
		free(k);
	return st;
}

typedef struct frame {
	ynode_t *node;
	char *pending_key; /* map: key read, value awaited */
	int pending_line;
} frame_t;

react_status_t ynode_parse(const char *text, size_t len, const char *src, ynode_t **out,
                           char *err, size_t errlen)
{
	react_status_t st = REACT_OK;
	yaml_parser_t parser;
	yaml_event_t ev;
	frame_t stack[64];
	int depth = 0;
	ynode_t *root = NULL;
	int done = 0;
	const char *S = src;

	*out = NULL;
	if (!yaml_parser_initialize(&parser))
		return REACT_ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			snprintf(err, errlen, "%s:%zu: YAML syntax error: %s%s%s", S,
			         parser.problem_mark.line + 1, parser.problem ? parser.problem : "?",
			         parser.context ? " " : "", parser.context ? parser.context : "");
			st = REACT_EPARSE;
			goto fail;
		}
		int line = (int)ev.start_mark.line + 1;
		ynode_t *nn = NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (root) {
				snprintf(err, errlen, "%s:%d: expected one YAML document, found a second", S,
				         line);
				st = REACT_EPARSE;
				yaml_event_delete(&ev);
				goto fail;
			}
			break;
		case YAML_ALIAS_EVENT:
			snprintf(err, errlen, "%s:%d: YAML aliases (*name) are not supported", S, line);
			st = REACT_EPARSE;
			yaml_event_delete(&ev);
			goto fail;
		case YAML_SCALAR_EVENT:
			nn = node_new(YN_SCALAR, S, line);
			if (!nn || !(nn->str = strdup((const char *)ev.data.scalar.value))) {
				free(nn);
				st = REACT_ENOMEM;
				yaml_event_delete(&ev);
				goto fail;
			}
			nn->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			break;
		case YAML_MAPPING_START_EVENT:
			nn = node_new(YN_MAP, S, line);
			break;
		case YAML_SEQUENCE_START_EVENT:
			nn = node_new(YN_SEQ, S, line);
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		if ((ev.type == YAML_SCALAR_EVENT || ev.type == YAML_MAPPING_START_EVENT ||
		     ev.type == YAML_SEQUENCE_START_EVENT)) {
			if (!nn) {
				st = REACT_ENOMEM;
				yaml_event_delete(&ev);
				goto fail;
			}
			if (depth == 0) {
				if (root) {
					node_free_rec(nn);
					snprintf(err, errlen, "%s:%d: expected one YAML document", S, line);
					st = REACT_EPARSE;
					yaml_event_delete(&ev);
					goto fail;
				}
				root = nn;
			} else {
				frame_t *f = &stack[depth - 1];
				if (f->node->kind == YN_MAP && !f->pending_key) {
					if (nn->kind != YN_SCALAR) {
						snprintf(err, errlen,
						         "%s:%d: expected a plain key, got a %s as a map key", S,
						         line, nn->kind == YN_MAP ? "map" : "list");
						node_free_rec(nn);
						st = REACT_EPARSE;
						yaml_event_delete(&ev);
						goto fail;
					}
					if (ynode_get(f->node, nn->str)) {
						snprintf(err, errlen, "%s:%d: field '%s' appears twice", S, line,
						         nn->str);
						node_free_rec(nn);
						st = REACT_EPARSE;
						yaml_event_delete(&ev);
						goto fail;
					}
					f->pending_key = nn->str;
					f->pending_line = line;
					nn->str = NULL;
					node_free_rec(nn);
					nn = NULL;
				} else {
					char *k = f->pending_key;
					f->pending_key = NULL;
					st = append(f->node, k, f->pending_line, nn);
					if (st != REACT_OK) {
						free(k);
						node_free_rec(nn);
						yaml_event_delete(&ev);
						goto fail;
					}
				}
			}
			if (nn && nn->kind != YN_SCALAR) {
				if (depth >= (int)(sizeof stack / sizeof stack[0])) {
					snprintf(err, errlen, "%s:%d: YAML nested too deeply", S, line);
					st = REACT_EPARSE;
					yaml_event_delete(&ev);
					goto fail;
				}
				stack[depth].node = nn;
				stack[depth].pending_key = NULL;
				depth++;
			}
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (!root)
		root = node_new(YN_MAP, S, 1);
	if (!root)
		return REACT_ENOMEM;
	*out = root;
	return REACT_OK;
fail:
	for (int i = 0; i < depth; i++)
		free(stack[i].pending_key);
	yaml_parser_delete(&parser);
	node_free_rec(root);
	return st;
}

/* ---- values ---- */

react_status_t sc_parse_bytes(const char *s, uint64_t *out)
{
	return react_parse_bytes(s, out);
}

/* Rates and times need a unit (docs/scenarios.md): a bare 100 is refused. */
react_status_t sc_parse_rate(const char *s, double *out)
{
	double v;
	if (react_parse_rate_bps(s, &v) != REACT_OK || !(v > 0))
		return REACT_EINVAL;
	*out = v;
	return REACT_OK;
}

react_status_t sc_parse_time(const char *s, double *out)
{
	return react_parse_time_s(s, out);
}

react_status_t sc_parse_int(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end || errno == ERANGE)
		return REACT_EINVAL;
	*out = v;
	return REACT_OK;
}

react_status_t sc_parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return REACT_EINVAL;
	*out = v;
	return REACT_OK;
}

react_status_t sc_parse_bool(const char *s, int *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")) {
		*out = 1;
		return REACT_OK;
	}
	if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off")) {
		*out = 0;
		return REACT_OK;
	}
	return REACT_EINVAL;
}

/* ---- files ---- */

react_status_t react_write_atomic(const char *path, const char *data, size_t len, char *err,
                                  size_t errlen)
{
	char tmp[4096];
	FILE *f = NULL;
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
		snprintf(err, errlen, "%s: path too long", path);
		return REACT_EIO;
	}
	f = fopen(tmp, "wb");
	if (!f)
		goto fail;
	if (len && fwrite(data, 1, len, f) != len)
		goto fail;
	if (fclose(f) != 0) {
		f = NULL;
		goto fail;
	}
	f = NULL;
	if (rename(tmp, path) != 0)
		goto fail;
	return REACT_OK;
fail:
	snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	if (f)
		fclose(f);
	unlink(tmp);
	return REACT_EIO;
}

react_status_t react_read_file(const char *path, char **out, size_t *len, char *err,
                               size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	*out = NULL;
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return REACT_EIO;
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			size_t nc = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, nc);
			if (!nb) {
				free(buf);
				fclose(f);
				return REACT_ENOMEM;
			}
			buf = nb;
			cap = nc;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		free(buf);
		fclose(f);
		return REACT_EIO;
	}
	fclose(f);
	buf[n] = 0;
	*out = buf;
	if (len)
		*len = n;
	return REACT_OK;
}

react_status_t react_mkdirs(const char *path, char *err, size_t errlen)
{
	char buf[4096];
	size_t n = strlen(path);
	if (n >= sizeof buf) {
		snprintf(err, errlen, "%s: path too long", path);
		return REACT_EIO;
	}
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] == '/' || buf[i] == 0) {
			char c = buf[i];
			buf[i] = 0;
			if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
				snprintf(err, errlen, "%s: cannot create directory: %s", buf,
				         strerror(errno));
				return REACT_EIO;
			}
			buf[i] = c;
		}
	}
	return REACT_OK;
}

void react_rmtree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			struct stat stt;
			if (lstat(sub, &stt) == 0 && S_ISDIR(stt.st_mode))
				react_rmtree(sub);
			else
				unlink(sub);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}
