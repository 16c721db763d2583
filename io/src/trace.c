/*
 * trace.c - FCT trace files (JSONL), see react/trace.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "react/trace.h"

struct react_trace_writer {
	FILE *f;
	char *path, *tmp;
	int err;
};

/* The header line of `run`, malloc'd; NULL when memory ran out. */
static char *header_text(const react_trace_run_t *run)
{
	json_t *root = json_object(), *prm = json_object();
	char *text = NULL;
	int bad = !root || !prm;
	bad = bad || json_object_set_new(root, "format", json_string("react-trace"));
	bad = bad || json_object_set_new(root, "version", json_integer(2));
	bad = bad || json_object_set_new(root, "backend", json_string(run->backend));
	for (size_t i = 0; !bad && i < react_params_count(); i++) {
		const char *name, *sym, *unit, *what;
		double def;
		char val[64];
		react_params_describe(i, &name, &sym, &unit, &def, &what);
		bad = react_params_get(&run->params, name, val, sizeof val) != REACT_OK ||
		      json_object_set_new(prm, name, json_string(val));
	}
	if (!bad && !json_object_set(root, "params", prm))
		text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(prm);
	json_decref(root);
	return text;
}

react_status_t react_trace_open_run(const char *path, const react_trace_run_t *run,
                                    react_trace_writer_t **out)
{
	react_status_t st;
	char *text;
	size_t n;
	if (!run || !out || !(n = strnlen(run->backend, sizeof run->backend)) ||
	    n == sizeof run->backend)
		return REACT_EINVAL;
	if (!(text = header_text(run)))
		return REACT_ENOMEM;
	if ((st = react_trace_open(path, out)) == REACT_OK &&
	    fprintf((*out)->f, "%s\n", text) < 0) {
		react_trace_abort(*out);
		*out = NULL;
		st = REACT_EIO;
	}
	free(text);
	return st;
}

react_status_t react_trace_open(const char *path, react_trace_writer_t **out)
{
	react_trace_writer_t *w;
	size_t n;
	int fd;
	if (!path || !out)
		return REACT_EINVAL;
	*out = NULL;
	w = calloc(1, sizeof *w);
	if (!w)
		return REACT_ENOMEM;
	n = strlen(path);
	w->path = malloc(n + 1);
	w->tmp = malloc(n + 16);
	if (!w->path || !w->tmp) {
		react_trace_abort(w);
		return REACT_ENOMEM;
	}
	memcpy(w->path, path, n + 1);
	snprintf(w->tmp, n + 16, "%s.tmpXXXXXX", path);
	fd = mkstemp(w->tmp);
	if (fd < 0 || !(w->f = fdopen(fd, "w"))) {
		if (fd >= 0) {
			close(fd);
			unlink(w->tmp);
		}
		free(w->tmp);
		w->tmp = NULL;
		react_trace_abort(w);
		return REACT_EIO;
	}
	*out = w;
	return REACT_OK;
}

react_status_t react_trace_append(react_trace_writer_t *w, int64_t epoch, double epoch_time_s,
                                  uint64_t pattern_hash, const double *fct_s, size_t nflows)
{
	if (!w || !w->f || (nflows && !fct_s) || !isfinite(epoch_time_s))
		return REACT_EINVAL;
	if (fprintf(w->f, "{\"epoch\":%" PRId64 ",\"epoch_time\":%.17g,\"pattern_hash\":\"%016" PRIx64
	            "\",\"fct\":[", epoch, epoch_time_s, pattern_hash) < 0)
		w->err = 1;
	for (size_t i = 0; i < nflows; i++) {
		if (!isfinite(fct_s[i]))
			return REACT_EINVAL;
		if (fprintf(w->f, "%s%.17g", i ? "," : "", fct_s[i]) < 0)
			w->err = 1;
	}
	if (fputs("]}\n", w->f) < 0)
		w->err = 1;
	return w->err ? REACT_EIO : REACT_OK;
}

react_status_t react_trace_close(react_trace_writer_t *w)
{
	react_status_t st = REACT_OK;
	if (!w)
		return REACT_EINVAL;
	if (fflush(w->f) != 0 || w->err)
		st = REACT_EIO;
	if (fclose(w->f) != 0)
		st = REACT_EIO;
	w->f = NULL;
	if (st == REACT_OK && rename(w->tmp, w->path) != 0)
		st = REACT_EIO;
	if (st != REACT_OK)
		unlink(w->tmp);
	free(w->tmp);
	w->tmp = NULL;
	react_trace_abort(w);
	return st;
}

void react_trace_abort(react_trace_writer_t *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	free(w);
}

struct react_trace_reader {
	FILE *f;
	char *path;
	char *line;
	size_t cap;
	long lineno;
	double *fct;
	size_t fcap;
	int pending;           /* the first record is already in `line` */
	int has_run;
	react_trace_run_t run;
};

/* The next line that is not blank into r->line: its length, or -1 at the end. */
static ssize_t next_line(react_trace_reader_t *r)
{
	for (;;) {
		ssize_t n = getline(&r->line, &r->cap, r->f);
		if (n < 0)
			return -1;
		r->lineno++;
		if (strspn(r->line, " \t\r\n") != (size_t)n)
			return n;
	}
}

/* The header in `root` (an object with "format") into r->run. */
static react_status_t read_header(react_trace_reader_t *r, json_t *root, char *why,
                                  size_t whylen)
{
	json_t *v = json_object_get(root, "format"), *prm;
	const char *key, *bk;
	const char *err = NULL;
	char buf[1024];
	react_params_t p;
	if (!json_is_string(v) || strcmp(json_string_value(v), "react-trace")) {
		err = "field \"format\": expected \"react-trace\"";
		goto bad;
	}
	v = json_object_get(root, "version");
	if (!json_is_integer(v) || json_integer_value(v) != 2) {
		err = "field \"version\": expected 2";
		goto bad;
	}
	v = json_object_get(root, "backend");
	bk = json_string_value(v);
	if (!bk || !*bk || strlen(bk) >= sizeof r->run.backend) {
		err = "field \"backend\": expected a backend name such as \"flow\"";
		goto bad;
	}
	snprintf(r->run.backend, sizeof r->run.backend, "%s", bk);
	prm = json_object_get(root, "params");
	if (!json_is_object(prm)) {
		err = "field \"params\": expected an object of the controller's parameters";
		goto bad;
	}
	/* the profile first: it sets several readings, which the others then
	 * override with the values recorded */
	react_params_default(&p);
	v = json_object_get(prm, "profile");
	if (v && (!json_is_string(v) ||
	          react_params_set(&p, "profile", json_string_value(v), buf, sizeof buf))) {
		snprintf(why, whylen, "%s:%ld: field \"params\".\"profile\": %s", r->path, r->lineno,
		         json_is_string(v) ? buf : "expected a string");
		return REACT_EPARSE;
	}
	json_object_foreach(prm, key, v) {
		if (!strcmp(key, "profile"))
			continue;
		if (!json_is_string(v)) {
			snprintf(why, whylen, "%s:%ld: field \"params\".\"%.64s\": expected a string, the "
			         "value as --set takes it", r->path, r->lineno, key);
			return REACT_EPARSE;
		}
		if (react_params_set(&p, key, json_string_value(v), buf, sizeof buf) != REACT_OK) {
			snprintf(why, whylen, "%s:%ld: field \"params\".\"%.64s\": %s", r->path, r->lineno,
			         key, buf);
			return REACT_EPARSE;
		}
	}
	r->run.params = p;
	r->run.missing[0] = 0;
	for (size_t i = 0; i < react_params_count(); i++) {
		const char *name, *sym, *unit, *what;
		double def;
		react_params_describe(i, &name, &sym, &unit, &def, &what);
		if (!json_object_get(prm, name)) {
			size_t n = strlen(r->run.missing);
			snprintf(r->run.missing + n, sizeof r->run.missing - n, "%s%s", n ? ", " : "",
			         name);
		}
	}
	r->has_run = 1;
	return REACT_OK;
bad:
	snprintf(why, whylen, "%s:%ld: %s", r->path, r->lineno, err);
	return REACT_EPARSE;
}

react_status_t react_trace_reader_open(const char *path, react_trace_reader_t **out, char *why,
                                       size_t whylen)
{
	react_trace_reader_t *r;
	if (!path || !out)
		return REACT_EINVAL;
	*out = NULL;
	r = calloc(1, sizeof *r);
	if (!r)
		return REACT_ENOMEM;
	r->path = strdup(path);
	r->f = fopen(path, "r");
	if (!r->path || !r->f) {
		if (why && whylen)
			snprintf(why, whylen, "%s: cannot open: %s", path, strerror(errno));
		react_trace_reader_close(r);
		return REACT_EIO;
	}
	/* a header is the first line that is not blank; anything else there is
	 * the first record, read by react_trace_next */
	if (next_line(r) >= 0) {
		json_t *root = json_loads(r->line, 0, NULL);
		if (json_is_object(root) && json_object_get(root, "format")) {
			char local[8];
			react_status_t st = read_header(r, root, why && whylen ? why : local,
			                                why && whylen ? whylen : sizeof local);
			json_decref(root);
			if (st != REACT_OK) {
				react_trace_reader_close(r);
				return st;
			}
		} else {
			json_decref(root);
			r->pending = 1;
		}
	}
	*out = r;
	return REACT_OK;
}

int react_trace_reader_run(const react_trace_reader_t *r, react_trace_run_t *run)
{
	if (!r || !r->has_run)
		return 0;
	if (run)
		*run = r->run;
	return 1;
}

react_status_t react_trace_next(react_trace_reader_t *r, react_trace_epoch_t *rec, int *got,
                                char *why, size_t whylen)
{
	json_t *root = NULL, *v;
	json_error_t jerr;
	const char *err = NULL;
	const char *hs;
	char *end;
	size_t nf;

	if (!r || !rec || !got)
		return REACT_EINVAL;
	*got = 0;
	if (r->pending)
		r->pending = 0;
	else if (next_line(r) < 0)
		return REACT_OK;
	root = json_loads(r->line, 0, &jerr);
	if (!root) {
		if (why && whylen)
			snprintf(why, whylen, "%s:%ld: invalid JSON (column %d): %s", r->path, r->lineno,
			         jerr.column, jerr.text);
		return REACT_EPARSE;
	}
	if (!json_is_object(root)) { err = "expected a JSON object"; goto bad; }
	if (json_object_get(root, "format")) { err = "a run header belongs on the first line only"; goto bad; }
	v = json_object_get(root, "epoch");
	if (!json_is_integer(v) || json_integer_value(v) < 0) { err = "field \"epoch\": expected an integer >= 0"; goto bad; }
	rec->epoch = (int64_t)json_integer_value(v);
	v = json_object_get(root, "epoch_time");
	if (!json_is_number(v) || !(json_number_value(v) >= 0)) { err = "field \"epoch_time\": expected a number >= 0 (seconds)"; goto bad; }
	rec->epoch_time_s = json_number_value(v);
	v = json_object_get(root, "pattern_hash");
	hs = json_string_value(v);
	if (!hs || strlen(hs) != 16) { err = "field \"pattern_hash\": expected 16 hex digits"; goto bad; }
	errno = 0;
	rec->pattern_hash = (uint64_t)strtoull(hs, &end, 16);
	if (errno || *end) { err = "field \"pattern_hash\": expected 16 hex digits"; goto bad; }
	v = json_object_get(root, "fct");
	if (!json_is_array(v)) { err = "field \"fct\": expected an array of seconds"; goto bad; }
	nf = json_array_size(v);
	if (nf > r->fcap) {
		double *nb = realloc(r->fct, nf * sizeof *nb);
		if (!nb) { json_decref(root); return REACT_ENOMEM; }
		r->fct = nb;
		r->fcap = nf;
	}
	for (size_t i = 0; i < nf; i++) {
		json_t *x = json_array_get(v, i);
		if (!json_is_number(x) || !(json_number_value(x) > 0)) {
			if (why && whylen)
				snprintf(why, whylen, "%s:%ld: field \"fct\"[%zu]: expected a number > 0 (seconds)",
				         r->path, r->lineno, i);
			json_decref(root);
			return REACT_EPARSE;
		}
		r->fct[i] = json_number_value(x);
	}
	rec->fct_s = r->fct;
	rec->nflows = nf;
	rec->line = r->lineno;
	json_decref(root);
	*got = 1;
	return REACT_OK;
bad:
	if (why && whylen)
		snprintf(why, whylen, "%s:%ld: %s", r->path, r->lineno, err);
	json_decref(root);
	return REACT_EPARSE;
}

void react_trace_reader_close(react_trace_reader_t *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	free(r->path);
	free(r->line);
	free(r->fct);
	free(r);
}
