/* csv.c - the one CSV reader and field writer (react/csv.h). */
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

int react_csv_write_field(FILE *f, const char *v)
{
	if (!react_csv_needs_quotes(v))
		return fputs(v, f) < 0 ? -1 : 0;
	if (fputc('"', f) == EOF)
		return -1;
	for (const char *c = v; *c; c++)
		if ((*c == '"' && fputc('"', f) == EOF) || fputc(*c, f) == EOF)
			return -1;
	return fputc('"', f) == EOF ? -1 : 0;
}
