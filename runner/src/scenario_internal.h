/* Internal to libreact_sim: a small YAML document tree with source marks,
 * the unit parsers used by scenario files, and atomic file helpers. */
#ifndef REACT_SCENARIO_INTERNAL_H
#define REACT_SCENARIO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "react/status.h"

typedef enum ynode_kind { YN_SCALAR = 0, YN_MAP, YN_SEQ } ynode_kind_t;

typedef struct ynode {
	ynode_kind_t kind;
	char *str;          /* scalar text (YN_SCALAR) */
	int plain;          /* 1 for an unquoted scalar */
	const char *src;    /* file name or "--set KEY" (owned by the tree's root) */
	int line;           /* 1-based */
	size_t n;           /* map entries / sequence items */
	char **keys;        /* map keys (YN_MAP) */
	int *key_line;      /* line of each key (YN_MAP) */
	struct ynode **items; /* values (YN_MAP) or items (YN_SEQ) */
} ynode_t;

/* Parse a whole document.  src is NOT copied: it names the text in marks
 * and must outlive the tree.  An empty
 * document gives an empty map. */
react_status_t ynode_parse(const char *text, size_t len, const char *src, ynode_t **out,
                           char *err, size_t errlen);
void ynode_free(ynode_t *n);
ynode_t *ynode_clone(const ynode_t *n);
/* Value of key in a map, or NULL. */
ynode_t *ynode_get(const ynode_t *map, const char *key);
/* Replace (or add) key's value in a map; takes ownership of val. */
react_status_t ynode_put(ynode_t *map, const char *key, ynode_t *val);
ynode_t *ynode_new_map(const char *src, int line);

/* Value parsers of scenario fields: REACT_EINVAL when the text is not valid.
 * Sizes as react/units.h; rates and times as react/units.h, or a plain
 * number (bits per second, seconds). */
react_status_t sc_parse_bytes(const char *s, uint64_t *out);
react_status_t sc_parse_rate(const char *s, double *out);
react_status_t sc_parse_time(const char *s, double *out);
react_status_t sc_parse_int(const char *s, int64_t *out);
react_status_t sc_parse_double(const char *s, double *out);
react_status_t sc_parse_bool(const char *s, int *out);

/* Write len bytes to path atomically (temp file in the same directory,
 * fsync-free rename).  REACT_EIO with err naming the path. */
react_status_t react_write_atomic(const char *path, const char *data, size_t len, char *err,
                                  size_t errlen);
/* Read a whole file (NUL-terminated); *out is malloc'd. */
react_status_t react_read_file(const char *path, char **out, size_t *len, char *err,
                               size_t errlen);
/* mkdir -p. */
react_status_t react_mkdirs(const char *path, char *err, size_t errlen);
/* rm -r (best effort). */

#endif
