/*
 * react/trace.h - FCT traces: one JSON object per line and per epoch.
 *
 *   {"epoch":0,"epoch_time":0.000576,"pattern_hash":"1f2e...","fct":[0.00008,...]}
 *
 * epoch: integer >= 0; epoch_time: seconds >= 0; pattern_hash: 16 lowercase
 * hex digits of react_pattern_hash() of the pattern that ran; fct: the
 * completion time in seconds of every flow, by flow id.  Numbers are
 * written with 17 significant digits, so a trace read back gives the same
 * doubles.  Written by the epoch driver and the GPU runtime, read by
 * `react replay`.
 */
#ifndef REACT_TRACE_H
#define REACT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "react/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- writer: the file appears at `path` only on close (temp file in the
 * same directory, then rename) ---- */
typedef struct react_trace_writer react_trace_writer_t;
/* REACT_EIO when the temp file cannot be created. */
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
/* why: "FILE: reason" on failure. */
react_status_t react_trace_reader_open(const char *path, react_trace_reader_t **out, char *why,
                                       size_t whylen);
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
