/*
 * react/trace.h - FCT traces: one JSON object per line and per epoch, after
 * a first line that records the run (version 2):
 *
 *   {"format":"react-trace","version":2,"backend":"flow",
 *    "params":{"batch_epochs":"6","delta1":"0.20000000000000001",...,"seed":"7",...}}
 *   {"epoch":0,"epoch_time":0.000576,"pattern_hash":"1f2e...","fct":[0.00008,...]}
 *
 * The header (one line): backend, the backend the run was made on (a name
 * of at most 15 characters); params, every parameter of the controller's
 * table (react_params_describe), the seed included, as the text `--set`
 * takes (react_params_get: doubles with 17 significant digits, enums by
 * name), so that replaying with them makes the same decisions.  A trace
 * without a header (version 1, written before traces recorded their run)
 * is still read: the reader says it has no header.
 *
 * Records: epoch, integer >= 0; epoch_time, seconds >= 0; pattern_hash, 16
 * lowercase hex digits of react_pattern_hash() of the pattern that ran;
 * fct, the completion time in seconds of every flow, by flow id.  Numbers
 * are written with 17 significant digits, so a trace read back gives the
 * same doubles.  Written by the epoch driver, read by `react replay`.
 */
#ifndef REACT_TRACE_H
#define REACT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "react/controller.h"
#include "react/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a trace records about its run. */
typedef struct react_trace_run {
	char backend[16];      /* "flow", "dctcp", "ns3", ... */
	react_params_t params; /* the controller's parameters, seed included */
	char missing[256];     /* reader: parameters of the table the header lacks
	                        * (kept at their defaults), comma-separated; "" if none */
} react_trace_run_t;

/* ---- writer: the file appears at `path` only on close (temp file in the
 * same directory, then rename) ---- */
typedef struct react_trace_writer react_trace_writer_t;
/* Open a trace whose first line records `run` (in; backend and params).
 * REACT_EINVAL for a backend name that is empty or too long, REACT_EIO when
 * the temp file cannot be created or written. */
react_status_t react_trace_open_run(const char *path, const react_trace_run_t *run,
                                    react_trace_writer_t **out);
/* A trace without a header (version 1): a replay of it cannot know the
 * run's parameters.  Kept for writers that do not know them. */
react_status_t react_trace_open(const char *path, react_trace_writer_t **out);
react_status_t react_trace_append(react_trace_writer_t *w, int64_t epoch, double epoch_time_s,
                                  uint64_t pattern_hash, const double *fct_s, size_t nflows);
/* Flush, rename into place, free.  REACT_EIO on a write or rename error
 * (the temp file is removed). */
react_status_t react_trace_close(react_trace_writer_t *w);
/* Free without creating the file. */
void react_trace_abort(react_trace_writer_t *w);

/* ---- reader ---- */
typedef struct react_trace_epoch {
	int64_t epoch;
	double epoch_time_s;
	uint64_t pattern_hash;
	const double *fct_s; /* owned by the reader, valid until the next call */
	size_t nflows;
	long line;           /* line number in the file, from 1 */
} react_trace_epoch_t;

typedef struct react_trace_reader react_trace_reader_t;
/* Opens the file and reads its header, if any.  why: "FILE: reason"
 * (REACT_EIO) or "FILE:LINE: field ...: reason" for a malformed header
 * (REACT_EPARSE: not version 2, a backend that is not a short name, an
 * unknown parameter or an impossible value). */
react_status_t react_trace_reader_open(const char *path, react_trace_reader_t **out, char *why,
                                       size_t whylen);
/* The run the trace records: 1 with *run (out) filled when it has a header,
 * 0 (and *run untouched) when it has none. */
int react_trace_reader_run(const react_trace_reader_t *r, react_trace_run_t *run);
/* *got = 1 and *rec filled for the next line; *got = 0 at the end of file.
 * REACT_EPARSE with why = "FILE:LINE: reason" for a malformed line (blank
 * lines are skipped). */
react_status_t react_trace_next(react_trace_reader_t *r, react_trace_epoch_t *rec, int *got,
                                char *why, size_t whylen);
void react_trace_reader_close(react_trace_reader_t *r);

#ifdef __cplusplus
}
#endif
#endif
