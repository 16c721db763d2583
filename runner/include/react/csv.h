/*
 * react/csv.h - the one CSV reader and writer of the runner and the CLI:
 * comma-separated fields, RFC 4180 double quotes ("" inside quotes is one
 * quote), empty fields kept.  Lines are handled one at a time; callers
 * strip the line end.  Rows are written field by field through
 * react_csv_row_t, which puts the commas and the line end.
 */
#ifndef REACT_CSV_H
#define REACT_CSV_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Split one line in place (in-out line: quotes removed, fields terminated)
 * into at most max fields; fields (out) points into line.  Returns the
 * number of fields set (max when there are max or more). */
size_t react_csv_split(char *line, char **fields, size_t max);

/* Byte offset in line (in, unsplit) where field k starts, quotes
 * respected; strlen(line) when the line has k fields or fewer. */
size_t react_csv_field_offset(const char *line, size_t k);

/* 1 when v must be quoted as a field: it holds a comma, a quote or a
 * newline. */
int react_csv_needs_quotes(const char *v);

/* Write v as one field to f, quoted when react_csv_needs_quotes(v).
 * Returns 0, or -1 on a write error. */
int react_csv_write_field(FILE *f, const char *v);

/* Write v as one field to f, always in double quotes (a quote inside
 * doubled), for a column whose values are quoted whether or not they need
 * it.  Returns 0, or -1 on a write error. */
int react_csv_write_quoted(FILE *f, const char *v);

/* One row being written to f: react_csv_row_start, then one call per field
 * (each puts the comma before every field but the first), then
 * react_csv_row_end.  A write error is remembered and reported by
 * react_csv_row_end; the row's later fields are then not written. */
typedef struct react_csv_row {
	FILE *f;        /* the file written to */
	size_t nfields; /* fields written so far in this row */
	int failed;     /* 1 after a write error */
} react_csv_row_t;

/* Start a row on f (in): r (out) is set up, nothing is written yet. */
void react_csv_row_start(react_csv_row_t *r, FILE *f);
/* Append v (in) as a field, quoted when react_csv_needs_quotes(v); "" is
 * an empty field. */
void react_csv_row_field(react_csv_row_t *r, const char *v);
/* Append v (in) as a field, always quoted (react_csv_write_quoted). */
void react_csv_row_quoted(react_csv_row_t *r, const char *v);
/* Append printf(fmt, ...) as a field (e.g. a number: "%.6f", "%lld"),
 * quoted when it needs it, as react_csv_row_field. */
void react_csv_row_printf(react_csv_row_t *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* End the row with a newline.  Returns 0, or -1 when a write of the row
 * (or the formatting of a field, out of memory) failed. */
int react_csv_row_end(react_csv_row_t *r);

#ifdef __cplusplus
}
#endif
#endif
