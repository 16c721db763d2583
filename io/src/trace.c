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
};

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
	*out = r;
	return REACT_OK;
}

react_status_t react_trace_next(react_trace_reader_t *r, react_trace_epoch_t *rec, int *got,
                                char *why, size_t whylen)
{
	ssize_t n;
	json_t *root = NULL, *v;
	json_error_t jerr;
	const char *err = NULL;
	const char *hs;
	char *end;
	size_t nf;

	if (!r || !rec || !got)
		return REACT_EINVAL;
	*got = 0;
	for (;;) {
		n = getline(&r->line, &r->cap, r->f);
		if (n < 0)
			return REACT_OK;
		r->lineno++;
		if (strspn(r->line, " \t\r\n") != (size_t)n)
			break;
	}
	root = json_loads(r->line, 0, &jerr);
	if (!root) {
		if (why && whylen)
			snprintf(why, whylen, "%s:%ld: invalid JSON (column %d): %s", r->path, r->lineno,
			         jerr.column, jerr.text);
		return REACT_EPARSE;
	}
	if (!json_is_object(root)) { err = "expected a JSON object"; goto bad; }
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
