/* csv.c - the one CSV reader and writer (react/csv.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "react/csv.h"

size_t react_csv_field_offset(const char *line, size_t k)
{
	size_t i = 0, f = 0;
	int q = 0;
	for (; line[i] && f < k; i++) {
		if (line[i] == '"')
			q = !q;
		else if (line[i] == ',' && !q)
			f++;
	}
	return f == k ? i : strlen(line);
}

size_t react_csv_split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;
	for (;;) {
		if (n == max)
			return n;
		if (*p == '"') {
			char *w = ++p;
			fields[n++] = w;
			while (*p) {
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			while (*p && *p != ',')
				p++;
			int more = *p == ',';
			*w = 0;
			if (!more)
				return n;
			p++;
		} else {
			fields[n++] = p;
			char *c = strchr(p, ',');
			if (!c)
				return n;
			*c = 0;
			p = c + 1;
		}
	}
}

int react_csv_needs_quotes(const char *v)
{
	return strpbrk(v, ",\"\n") != NULL;
}

int react_csv_write_quoted(FILE *f, const char *v)
{
	if (fputc('"', f) == EOF)
		return -1;
	for (const char *c = v; *c; c++)
		if ((*c == '"' && fputc('"', f) == EOF) || fputc(*c, f) == EOF)
			return -1;
	return fputc('"', f) == EOF ? -1 : 0;
}

int react_csv_write_field(FILE *f, const char *v)
{
	if (!react_csv_needs_quotes(v))
		return fputs(v, f) < 0 ? -1 : 0;
	return react_csv_write_quoted(f, v);
}

void react_csv_row_start(react_csv_row_t *r, FILE *f)
{
	r->f = f;
	r->nfields = 0;
	r->failed = 0;
}

/* The comma before every field but the first; 0 when the field may follow. */
static int row_sep(react_csv_row_t *r)
{
	if (r->failed)
		return -1;
	if (r->nfields++ && fputc(',', r->f) == EOF)
		r->failed = 1;
	return r->failed ? -1 : 0;
}

void react_csv_row_field(react_csv_row_t *r, const char *v)
{
	if (row_sep(r) == 0 && react_csv_write_field(r->f, v) != 0)
		r->failed = 1;
}

void react_csv_row_quoted(react_csv_row_t *r, const char *v)
{
	if (row_sep(r) == 0 && react_csv_write_quoted(r->f, v) != 0)
		r->failed = 1;
}

void react_csv_row_printf(react_csv_row_t *r, const char *fmt, ...)
{
	char small[128], *v = small;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		r->failed = 1;
		return;
	}
	if ((size_t)n >= sizeof small) {
		if (!(v = malloc((size_t)n + 1))) {
			r->failed = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(v, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	react_csv_row_field(r, v);
	if (v != small)
		free(v);
}

int react_csv_row_end(react_csv_row_t *r)
{
	if (!r->failed && fputc('\n', r->f) == EOF)
		r->failed = 1;
	r->nfields = 0;
	return r->failed ? -1 : 0;
}
