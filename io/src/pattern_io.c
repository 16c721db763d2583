/* pattern_io.c - pattern JSON files: writer (atomic) and validating reader. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "react/check.h"
#include "react/pattern_io.h"

react_status_t react_pattern_write_json(const react_pattern_t *p, FILE *f)
{
	if (!p || !f)
		return REACT_EINVAL;
	fprintf(f, "{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"%s\",\"algorithm\":\"%s\",",
	        react_collective_name(p->collective), react_algorithm_name(p->algorithm));
	fprintf(f, "\"ranks\":%d,\"chunks\":%d,\"message_bytes\":%" PRIu64 ",", p->nranks, p->nchunks,
	        p->message_bytes);
	if (p->root == REACT_RANK_NONE)
		fputs("\"root\":null,\n\"flows\":[", f);
	else
		fprintf(f, "\"root\":%d,\n\"flows\":[", p->root);
	for (size_t i = 0; i < p->nflows; i++) {
		const react_flow_t *x = &p->flows[i];
		fprintf(f, "%s\n[%d,%d,%d,%d,%d,%" PRIu64 ",\"%s\"]", i ? "," : "", x->step, x->src, x->dst,
		        x->chunk, x->nchunks, x->bytes, x->op == REACT_RECV_REDUCE ? "reduce" : "store");
	}
	fputs("\n]}\n", f);
	return ferror(f) ? REACT_EIO : REACT_OK;
}

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

react_status_t react_pattern_write_json_path(const react_pattern_t *p, const char *path,
                                             char *err, size_t errlen)
{
	react_status_t st = REACT_EIO;
	char *tmp = NULL;
	FILE *f = NULL;
	int fd = -1;
	size_t n;

	if (!p || !path) {
		seterr(err, errlen, "no pattern or path");
		return REACT_EINVAL;
	}
	n = strlen(path) + 16;
	tmp = malloc(n);
	if (!tmp) {
		st = REACT_ENOMEM;
		goto fail;
	}
	snprintf(tmp, n, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		seterr(err, errlen, "%s: cannot create a temporary file next to it: %s", path,
		       strerror(errno));
		goto fail;
	}
	/* mkstemp creates 0600; a pattern file is an ordinary readable output */
	if (fchmod(fd, 0644) != 0) {
		seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	f = fdopen(fd, "w");
	if (!f) {
		seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	fd = -1;
	st = react_pattern_write_json(p, f);
	if (fflush(f) != 0 || st != REACT_OK) {
		seterr(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
		st = REACT_EIO;
		goto fail;
	}
	if (fclose(f) != 0) {
		f = NULL;
		seterr(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
		st = REACT_EIO;
		goto fail;
	}
	f = NULL;
	if (rename(tmp, path) != 0) {
		seterr(err, errlen, "%s: cannot rename %s into place: %s", path, tmp, strerror(errno));
		st = REACT_EIO;
		goto fail;
	}
	free(tmp);
	return REACT_OK;
fail:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	return st;
}

/* jansson reports an allocation failure in the middle of a document as a
 * syntax error ("invalid token") or with no text at all; its allocator
 * hook notes the failure (per thread) so the reader can say what it was. */
static _Thread_local int json_oom;

static void *json_malloc_noted(size_t n)
{
	void *p = malloc(n);
	if (!p)
		json_oom = 1;
	return p;
}

static pthread_once_t json_hook_once = PTHREAD_ONCE_INIT;

static void json_hook(void)
{
	json_set_alloc_funcs(json_malloc_noted, free);
}

/* Integer field: 1 and *v on success. */
static int get_int(json_t *j, json_int_t *v)
{
	if (!json_is_integer(j))
		return 0;
	*v = json_integer_value(j);
	return 1;
}

static int require_int(json_t *root, const char *key, const char *path, json_int_t lo,
                       json_int_t hi, json_int_t *v, char *err, size_t errlen)
{
	json_t *j = json_object_get(root, key);
	if (!j) {
		seterr(err, errlen, "%s: field \"%s\": missing", path, key);
		return 0;
	}
	if (!get_int(j, v)) {
		seterr(err, errlen, "%s: field \"%s\": expected an integer", path, key);
		return 0;
	}
	if (*v < lo || *v > hi) {
		seterr(err, errlen, "%s: field \"%s\": %lld out of range [%lld, %lld]", path, key,
		       (long long)*v, (long long)lo, (long long)hi);
		return 0;
	}
	return 1;
}

/* Memory the reader and the semantic check will need for a pattern of
 * these sizes (bytes, as a double: no overflow): the checker's state, one
 * bitset over ranks per (rank, chunk); the step index, two offsets per
 * (step, rank); and the flows themselves. */
static double need_bytes(double ranks, double chunks, double steps, double flows)
{
	double words = ceil(ranks / 64);
	return ranks * chunks * words * 8 + steps * ranks * 2 * sizeof(size_t) +
	       flows * (sizeof(react_flow_t) + 8 * sizeof(size_t));
}

static void fmt_bytes(char *buf, size_t n, double b)
{
	if (b >= 1e9)
		snprintf(buf, n, "%.3g GB", b / 1e9);
	else
		snprintf(buf, n, "%.3g MB", b / 1e6);
}

react_status_t react_pattern_read_json(const char *path, react_pattern_t **out, char *err,
                                       size_t errlen)
{
	react_status_t st = REACT_EPARSE;
	json_t *root = NULL, *j, *flows;
	json_error_t jerr;
	react_pattern_t *p = NULL;
	react_collective_t coll;
	react_algorithm_t algo;
	json_int_t ranks, chunks, msg, ver, rootrank = REACT_RANK_NONE;
	size_t nflows;
	double carried = 0; /* chunk-transfers of all flows: sum of nchunks */
	char why[200];
	react_check_result_t res;

	if (err && errlen)
		err[0] = '\0';
	if (!out || !path)
		return REACT_EINVAL;
	*out = NULL;
	pthread_once(&json_hook_once, json_hook);
	json_oom = 0;
	root = json_load_file(path, 0, &jerr);
	if (!root) {
		FILE *probe = fopen(path, "r");
		if (!probe) {
			seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
			return REACT_EIO;
		}
		fclose(probe);
		if (json_oom || json_error_code(&jerr) == json_error_out_of_memory || !jerr.text[0]) {
			seterr(err, errlen, "%s: out of memory reading the file", path);
			return REACT_ENOMEM;
		}
		seterr(err, errlen, "%s:%d:%d: malformed JSON: %s", path, jerr.line, jerr.column,
		       jerr.text);
		return REACT_EPARSE;
	}
	if (!json_is_object(root)) {
		seterr(err, errlen, "%s: expected a JSON object at the top", path);
		goto fail;
	}
	j = json_object_get(root, "format");
	if (!json_is_string(j) || strcmp(json_string_value(j), "react-pattern")) {
		seterr(err, errlen, "%s: field \"format\": expected \"react-pattern\"", path);
		goto fail;
	}
	if (!require_int(root, "version", path, 1, 1, &ver, err, errlen))
		goto fail;
	j = json_object_get(root, "collective");
	if (!json_is_string(j) || react_collective_parse(json_string_value(j), &coll) != REACT_OK) {
		seterr(err, errlen,
		       "%s: field \"collective\": unknown collective %s%s%s (expected allreduce, "
		       "allgather, reducescatter, broadcast or reduce)",
		       path, json_is_string(j) ? "\"" : "", json_is_string(j) ? json_string_value(j) : "(not a string)",
		       json_is_string(j) ? "\"" : "");
		goto fail;
	}
	j = json_object_get(root, "algorithm");
	if (!json_is_string(j) || react_algorithm_parse(json_string_value(j), &algo) != REACT_OK) {
		seterr(err, errlen,
		       "%s: field \"algorithm\": unknown algorithm (expected tree, ring, recdbl, rhd or custom)",
		       path);
		goto fail;
	}
	if (!require_int(root, "ranks", path, 1, REACT_PATTERN_MAX_RANKS, &ranks, err, errlen) ||
	    !require_int(root, "chunks", path, 1, REACT_PATTERN_MAX_CHUNKS, &chunks, err, errlen) ||
	    !require_int(root, "message_bytes", path, 0, INT64_MAX, &msg, err, errlen))
		goto fail;
	j = json_object_get(root, "root");
	if (j && !json_is_null(j)) {
		if (!get_int(j, &rootrank) || rootrank < 0 || rootrank >= ranks) {
			seterr(err, errlen, "%s: field \"root\": expected null or a rank in [0, %lld)", path,
			       (long long)ranks);
			goto fail;
		}
	}
	if ((coll == REACT_COLL_BROADCAST || coll == REACT_COLL_REDUCE) && rootrank == REACT_RANK_NONE) {
		seterr(err, errlen, "%s: field \"root\": %s needs a root rank", path,
		       react_collective_name(coll));
		goto fail;
	}
	flows = json_object_get(root, "flows");
	if (!json_is_array(flows)) {
		seterr(err, errlen, "%s: field \"flows\": expected an array", path);
		goto fail;
	}
	/* Sizes against the flows actually in the file (limits in
	 * react/pattern_io.h): the flows first, each checked as it is read;
	 * ranks, chunks and the memory they need before the index and the
	 * check allocate anything. */
	nflows = json_array_size(flows);
	if (nflows > REACT_PATTERN_MAX_FLOWS) {
		seterr(err, errlen, "%s: field \"flows\": %zu flows, at most %d", path, nflows,
		       REACT_PATTERN_MAX_FLOWS);
		goto fail;
	}
	st = react_pattern_create(coll, algo, (int32_t)ranks, (int32_t)chunks, (uint64_t)msg, &p);
	if (st != REACT_OK) {
		seterr(err, errlen, "%s: cannot create a pattern of %lld ranks and %lld chunks: %s",
		       path, (long long)ranks, (long long)chunks, react_status_str(st));
		goto fail;
	}
	st = REACT_EPARSE;
	p->root = (react_rank_t)rootrank;
	for (size_t i = 0; i < nflows; i++) {
		json_t *a = json_array_get(flows, i);
		json_int_t v[6];
		static const char *const names[6] = {"step", "src", "dst", "chunk", "nchunks", "bytes"};
		react_flow_t f;
		const char *op;
		if (!json_is_array(a) || json_array_size(a) != 7) {
			seterr(err, errlen,
			       "%s: flows[%zu]: expected [step, src, dst, chunk, nchunks, bytes, op]", path, i);
			goto fail;
		}
		for (int k = 0; k < 6; k++)
			if (!get_int(json_array_get(a, (size_t)k), &v[k])) {
				seterr(err, errlen, "%s: flows[%zu][%d] (%s): expected an integer", path, i, k,
				       names[k]);
				goto fail;
			}
		if (v[0] < 0 || (size_t)v[0] >= nflows) {
			seterr(err, errlen,
			       "%s: flows[%zu][0] (step): %lld is not a step in [0, %zu) (steps are numbered "
			       "from 0; a pattern of %zu flows has at most that many steps)",
			       path, i, (long long)v[0], nflows, nflows);
			goto fail;
		}
		for (int k = 1; k <= 2; k++)
			if (v[k] < 0 || v[k] >= ranks) {
				seterr(err, errlen, "%s: flows[%zu][%d] (%s): rank %lld out of range [0, %lld)",
				       path, i, k, names[k], (long long)v[k], (long long)ranks);
				goto fail;
			}
		if (v[1] == v[2]) {
			seterr(err, errlen, "%s: flows[%zu][2] (dst): equals src %lld", path, i,
			       (long long)v[1]);
			goto fail;
		}
		if (v[3] < 0 || v[3] >= chunks) {
			seterr(err, errlen, "%s: flows[%zu][3] (chunk): %lld out of range [0, %lld)", path, i,
			       (long long)v[3], (long long)chunks);
			goto fail;
		}
		if (v[4] < 1 || v[3] + v[4] > chunks) {
			seterr(err, errlen,
			       "%s: flows[%zu][4] (nchunks): %lld chunks from %lld do not fit in %lld chunks",
			       path, i, (long long)v[4], (long long)v[3], (long long)chunks);
			goto fail;
		}
		if (v[5] < 1) {
			seterr(err, errlen, "%s: flows[%zu][5] (bytes): %s size %lld, expected >= 1", path, i,
			       v[5] < 0 ? "negative" : "zero", (long long)v[5]);
			goto fail;
		}
		j = json_array_get(a, 6);
		op = json_is_string(j) ? json_string_value(j) : NULL;
		if (!op || (strcmp(op, "reduce") && strcmp(op, "store"))) {
			seterr(err, errlen, "%s: flows[%zu][6] (op): bad op, expected \"reduce\" or \"store\"",
			       path, i);
			goto fail;
		}
		f.step = (react_step_t)v[0];
		f.src = (react_rank_t)v[1];
		f.dst = (react_rank_t)v[2];
		f.chunk = (int32_t)v[3];
		f.nchunks = (int32_t)v[4];
		f.bytes = (uint64_t)v[5];
		f.op = strcmp(op, "reduce") ? REACT_RECV_STORE : REACT_RECV_REDUCE;
		if (i > 0 && f.step < p->flows[i - 1].step) {
			seterr(err, errlen, "%s: flows[%zu][0] (step): flows must be sorted by step", path, i);
			goto fail;
		}
		st = react_pattern_add_flow(p, &f);
		if (st != REACT_OK) {
			seterr(err, errlen, "%s: flows[%zu]: cannot hold %zu flows: %s", path, i, nflows,
			       react_status_str(st));
			goto fail;
		}
		st = REACT_EPARSE;
		carried += (double)f.nchunks;
	}
	if ((size_t)ranks > nflows + 1) {
		seterr(err, errlen,
		       "%s: field \"ranks\": %lld ranks but %zu flows; every rank but one must send or "
		       "receive, so at most %zu ranks", path, (long long)ranks, nflows, nflows + 1);
		goto fail;
	}
	if ((double)chunks > carried) {
		seterr(err, errlen,
		       "%s: field \"chunks\": %lld chunks but the flows carry %.0f chunk-transfers in "
		       "all; every chunk must be moved by some flow, so at most %.0f chunks",
		       path, (long long)chunks, carried, carried);
		goto fail;
	}
	{
		double steps = p->nflows ? (double)p->flows[p->nflows - 1].step + 1 : 0;
		double need = need_bytes((double)ranks, (double)chunks, steps, (double)nflows);
		if (need > REACT_PATTERN_MAX_BYTES) {
			char nb[32];
			fmt_bytes(nb, sizeof nb, need);
			seterr(err, errlen,
			       "%s: fields \"ranks\" x \"chunks\": %lld ranks x %lld chunks over %.0f steps "
			       "need about %s to index and check (at most %.3g GB)",
			       path, (long long)ranks, (long long)chunks, steps, nb,
			       REACT_PATTERN_MAX_BYTES / 1e9);
			goto fail;
		}
	}
	/* the JSON text is no longer needed: give its memory back first */
	json_decref(root);
	root = NULL;
	st = react_pattern_finalize(p, why, sizeof why);
	if (st == REACT_ENOMEM) {
		seterr(err, errlen, "%s: out of memory indexing %zu flows over %d steps and %lld ranks",
		       path, nflows, p->nsteps, (long long)ranks);
		goto fail;
	}
	if (st != REACT_OK) {
		seterr(err, errlen, "%s: %s", path, why[0] ? why : react_status_str(st));
		st = REACT_EPARSE;
		goto fail;
	}
	st = react_pattern_check(p, &res);
	if (st == REACT_ESEMANTIC && res.kind == REACT_CHECK_NO_DATA) {
		seterr(err, errlen, "%s: flows[%zu]: source rank %d does not hold chunk %d before step %d",
		       path, res.flow, res.rank, res.chunk, p->flows[res.flow].step);
		goto fail;
	}
	if (st == REACT_ENOMEM) {
		seterr(err, errlen, "%s: fields \"ranks\" x \"chunks\": out of memory for the semantic "
		       "check of %lld ranks x %lld chunks", path, (long long)ranks, (long long)chunks);
		goto fail;
	}
	json_decref(root);
	*out = p;
	return REACT_OK;
fail:
	/* every failure says what it was, never an empty message */
	if (err && errlen && !err[0])
		seterr(err, errlen, "%s: %s", path, react_status_str(st));
	json_decref(root);
	react_pattern_destroy(p);
	return st;
}
