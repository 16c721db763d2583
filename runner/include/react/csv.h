/*
 * react/csv.h - the one CSV reader and field writer of the runner and the
 * CLI: comma-separated fields, RFC 4180 double quotes ("" inside quotes is
 * one quote), empty fields kept.  Lines are handled one at a time; callers
 * strip the line end.
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

#ifdef __cplusplus
}
#endif
#endif
