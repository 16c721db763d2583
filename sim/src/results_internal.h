/* Internal to libreact_sim: growing strings and CSV splitting. */
#ifndef REACT_RESULTS_INTERNAL_H
#define REACT_RESULTS_INTERNAL_H

#include <stddef.h>

typedef struct sb {
	char *buf;
	size_t len, cap;
	int failed;
} sb_t;

/* Append; on allocation failure the buffer is marked failed (sb_take gives NULL). */
int sb_printf(sb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text (malloc'd, caller frees) or NULL after a failure; b is emptied. */
char *sb_take(sb_t *b);
/* Split one CSV line in place (double quotes supported); returns the field count. */
size_t csv_split(char *line, char **fields, size_t max);

#endif
