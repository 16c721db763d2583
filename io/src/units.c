/* units.c - parsing of sizes, rates and times (react/units.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "react/units.h"

/* Parse a non-negative decimal number; *end is set past it. */
static int parse_number(const char *s, double *v, const char **end)
{
	char *e;
	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtod(s, &e);
	if (e == s || errno || !isfinite(*v) || *v < 0)
		return -1;
	*end = e;
	return 0;
}

react_status_t react_parse_bytes(const char *s, uint64_t *out)
{
	static const struct { const char *sfx; double mul; } tab[] = {
		{"", 1}, {"B", 1},
		{"K", 1e3}, {"KB", 1e3}, {"KIB", 1024.0}, {"KI", 1024.0},
		{"M", 1e6}, {"MB", 1e6}, {"MIB", 1048576.0}, {"MI", 1048576.0},
		{"G", 1e9}, {"GB", 1e9}, {"GIB", 1073741824.0}, {"GI", 1073741824.0},
		{"T", 1e12}, {"TB", 1e12}, {"TIB", 1099511627776.0}, {"TI", 1099511627776.0},
	};
	double v, r;
	const char *e;
	if (!out || parse_number(s, &v, &e))
		return REACT_EINVAL;
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcasecmp(e, tab[i].sfx)) {
			r = v * tab[i].mul;
			if (r >= 18446744073709551615.0 || r != floor(r))
				return REACT_EINVAL;
			*out = (uint64_t)r;
			return REACT_OK;
		}
	return REACT_EINVAL;
}

react_status_t react_parse_rate_bps(const char *s, double *out)
{
	static const struct { const char *sfx; double mul; } tab[] = {
		{"bps", 1}, {"bit/s", 1}, {"Kbps", 1e3}, {"Kbit/s", 1e3}, {"Mbps", 1e6},
		{"Mbit/s", 1e6}, {"Gbps", 1e9}, {"Gbit/s", 1e9}, {"Tbps", 1e12}, {"Tbit/s", 1e12},
		{"Bps", 8}, {"B/s", 8}, {"KBps", 8e3}, {"KB/s", 8e3}, {"MBps", 8e6}, {"MB/s", 8e6},
		{"GBps", 8e9}, {"GB/s", 8e9}, {"TBps", 8e12}, {"TB/s", 8e12},
	};
	double v;
	const char *e;
	if (!out || parse_number(s, &v, &e))
		return REACT_EINVAL;
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcmp(e, tab[i].sfx)) {
			*out = v * tab[i].mul;
			return REACT_OK;
		}
	return REACT_EINVAL;
}

react_status_t react_parse_time_s(const char *s, double *out)
{
	static const struct { const char *sfx; double mul; } tab[] = {
		{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12},
	};
	double v;
	const char *e;
	if (!out || parse_number(s, &v, &e))
		return REACT_EINVAL;
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcmp(e, tab[i].sfx)) {
			*out = v * tab[i].mul;
			return REACT_OK;
		}
	return REACT_EINVAL;
}
