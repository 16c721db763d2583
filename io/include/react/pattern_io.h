/*
 * react/pattern_io.h - pattern files (JSON, see docs/patterns.md).
 *
 *   {"format":"react-pattern","version":1,"collective":"allreduce",
 *    "algorithm":"tree","ranks":8,"chunks":2,"message_bytes":20000000,
 *    "root":null,"flows":[[step,src,dst,chunk,nchunks,bytes,"reduce"], ...]}
 *
 * Writing and reading round-trips exactly (react_pattern_equal).
 */
#ifndef REACT_PATTERN_IO_H
#define REACT_PATTERN_IO_H

#include <stddef.h>
#include <stdio.h>

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write p (input) as JSON to f, one flow per line.  REACT_EIO on a write error. */
react_status_t react_pattern_write_json(const react_pattern_t *p, FILE *f);
/* Write p to `path` atomically (temp file in the same directory, then
 * rename).  On failure err (may be NULL) names the path and the reason. */
react_status_t react_pattern_write_json_path(const react_pattern_t *p, const char *path,
                                             char *err, size_t errlen);
/* Read a pattern file.  out: a finalized pattern on success, NULL otherwise.
 * Fails with REACT_EIO (unreadable), REACT_EPARSE (malformed: err names the
 * file, the line or field such as "flows[12][2]", and the reason, e.g. rank
 * out of range, negative size, bad op, unknown collective) or REACT_ESEMANTIC
 * (a flow whose source does not yet hold the data it sends: err names the
 * flow index).  Other check failures (MISSING, DUPLICATE) are not read
 * errors: `react verify` reports them. */
react_status_t react_pattern_read_json(const char *path, react_pattern_t **out, char *err,
                                       size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
