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
/* Size limits of a pattern file, checked before anything is allocated for
 * it, so that a small file cannot ask for gigabytes (docs/patterns.md):
 *   flows   at most REACT_PATTERN_MAX_FLOWS;
 *   ranks   at most REACT_PATTERN_MAX_RANKS, and at most flows + 1 (every
 *           rank but one must send or receive);
 *   steps   a flow's step below the number of flows;
 *   chunks  at most REACT_PATTERN_MAX_CHUNKS, and at most the sum of the
 *           flows' nchunks (every chunk must be moved by some flow);
 *   memory  the step index and the semantic check's state, about
 *           ranks x chunks x ceil(ranks/64) x 8 + steps x ranks x 16 bytes,
 *           at most REACT_PATTERN_MAX_BYTES. */
#define REACT_PATTERN_MAX_FLOWS (1 << 24)
#define REACT_PATTERN_MAX_RANKS 65536
#define REACT_PATTERN_MAX_CHUNKS (1 << 24)
#define REACT_PATTERN_MAX_BYTES 4e9

/* Read a pattern file.  out: a finalized pattern on success, NULL otherwise.
 * Fails with REACT_EIO (unreadable), REACT_EPARSE (malformed: err names the
 * file, the line or field such as "flows[12][2]", and the reason, e.g. rank
 * out of range, negative size, bad op, unknown collective) or REACT_ESEMANTIC
 * (a flow whose source does not yet hold the data it sends: err names the
 * flow index), REACT_ENOMEM (memory ran out: err names the file and the
 * fields whose sizes asked for it).  err is never empty on failure.
 * Other check failures (MISSING, DUPLICATE) are not read errors: `react
 * verify` reports them. */
react_status_t react_pattern_read_json(const char *path, react_pattern_t **out, char *err,
                                       size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
