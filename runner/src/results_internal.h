/* Internal to libreact_sim: growing strings and CSV splitting. */
#ifndef REACT_RESULTS_INTERNAL_H
#define REACT_RESULTS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "react/csv.h" /* the CSV reader, for the files that include this */

typedef struct sb {
	char *buf;
	size_t len, cap;
	int failed;
} sb_t;

/* Append; on allocation failure the buffer is marked failed (sb_take gives NULL). */
int sb_printf(sb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text (malloc'd, caller frees) or NULL after a failure; b is emptied. */
char *sb_take(sb_t *b);
/* react_config_fingerprint without the REACT parameters (the controller's
 * tunables): what the oracle's result depends on. */
struct react_config;
uint64_t react_config_fingerprint_noparams(const struct react_config *cfg);

/* Append v as one CSV field, quoted as react_csv_write_field does. */
void sb_csv_field(sb_t *b, const char *v);

#endif
