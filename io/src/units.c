/* units.c - parsing of sizes, rates and times (react/units.h).
 *
 * A unit is always required: "100" could be bits or bytes, seconds or
 * microseconds, so it is refused.  Units are case-sensitive where case
 * carries meaning: B is a byte and b a bit, M is mega and m milli. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/units.h"

/* Parse a non-negative decimal number; *end is set past it. */
static int parse_number(const char *s, double *v, const char **end)
{
	char *e;
	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	/* decimal notation only: no hex floats, inf or nan */
	if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
		return -1;
	errno = 0;
	*v = strtod(s, &e);
	if (e == s || errno || !isfinite(*v) || *v < 0 || memchr(s, 'x', (size_t)(e - s)) ||
	    memchr(s, 'X', (size_t)(e - s)))
		return -1;
	*end = e;
	return 0;
}

typedef struct unit {
	const char *sfx;
	double mul;
} unit_t;

static const unit_t byte_units[] = {
	{"B", 1},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
};

/* Bit units: recognised so that the message can say what they are. */
static const char *const bit_units[] = {"b", "kb", "Kb", "Mb", "Gb", "Tb", "Kib", "Mib", "Gib",
                                        "Tib", "bit", "bits"};

static const unit_t rate_units[] = {
	{"bps", 1}, {"bit/s", 1}, {"kbps", 1e3}, {"Kbps", 1e3}, {"Kbit/s", 1e3}, {"kbit/s", 1e3},
	{"Mbps", 1e6}, {"Mbit/s", 1e6}, {"Gbps", 1e9}, {"Gbit/s", 1e9}, {"Tbps", 1e12},
	{"Tbit/s", 1e12},
	{"Bps", 8}, {"B/s", 8}, {"kBps", 8e3}, {"KBps", 8e3}, {"kB/s", 8e3}, {"KB/s", 8e3},
	{"MBps", 8e6}, {"MB/s", 8e6}, {"GBps", 8e9}, {"GB/s", 8e9}, {"TBps", 8e12}, {"TB/s", 8e12},
};

static const unit_t time_units[] = {
	{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12},
};

static const unit_t *find_unit(const unit_t *tab, size_t n, const char *sfx)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(sfx, tab[i].sfx))
			return &tab[i];
	return NULL;
}

#define N(a) (sizeof a / sizeof a[0])

react_status_t react_parse_bytes(const char *s, uint64_t *out)
{
	double v, r;
	const char *e;
	if (!out || parse_number(s, &v, &e))
		return REACT_EINVAL;
	const unit_t *u = find_unit(byte_units, N(byte_units), e);
	if (!u)
		return REACT_EINVAL;
	r = v * u->mul;
	if (r >= 18446744073709551615.0 || r != floor(r))
		return REACT_EINVAL;
	*out = (uint64_t)r;
	return REACT_OK;
}

react_status_t react_parse_rate_bps(const char *s, double *out)
{
	double v;
	const char *e;
	if (!out || parse_number(s, &v, &e))
		return REACT_EINVAL;
	const unit_t *u = find_unit(rate_units, N(rate_units), e);
	if (!u || !isfinite(v * u->mul)) /* 1e308Gbps overflows */
		return REACT_EINVAL;
	*out = v * u->mul;
	return REACT_OK;
}

react_status_t react_parse_time_s(const char *s, double *out)
{
	double v;
	const char *e;
	if (!out || parse_number(s, &v, &e))
		return REACT_EINVAL;
	if (!*e && v == 0) { /* zero is the same in every unit of time */
		*out = 0;
		return REACT_OK;
	}
	const unit_t *u = find_unit(time_units, N(time_units), e);
	if (!u)
		return REACT_EINVAL;
	*out = v * u->mul;
	return REACT_OK;
}

/* Why s is not a value of the kind: "" when it is one. */
static void why(const char *s, const unit_t *tab, size_t n, const char *kind, char *buf,
                size_t len)
{
	double v;
	const char *e;
	buf[0] = 0;
	if (!s || parse_number(s, &v, &e)) {
		snprintf(buf, len, "'%s' does not start with a non-negative decimal number", s ? s : "");
		return;
	}
	if (!*e) {
		snprintf(buf, len, "'%s' has no unit", s);
		return;
	}
	if (!find_unit(tab, n, e))
		snprintf(buf, len, "unknown %s unit '%s'", kind, e);
}

const char *react_units_why(react_unit_kind_t kind, const char *s, char *buf, size_t len)
{
	uint64_t b;
	double d;
	if (!buf || !len)
		return "";
	buf[0] = 0;
	switch (kind) {
	case REACT_UNIT_BYTES:
		if (react_parse_bytes(s, &b) == REACT_OK)
			return buf;
		why(s, byte_units, N(byte_units), "size", buf, len);
		if (buf[0] && s) {
			double v;
			const char *e;
			if (!parse_number(s, &v, &e))
				for (size_t i = 0; i < N(bit_units); i++)
					if (!strcmp(e, bit_units[i])) {
						snprintf(buf, len, "'%s' is in bits; sizes are in bytes (B, e.g. "
						         "1GB = 10^9 bytes)", s);
						break;
					}
		}
		if (!buf[0])
			snprintf(buf, len, "'%s' is not a whole number of bytes", s);
		return buf;
	case REACT_UNIT_RATE:
		if (react_parse_rate_bps(s, &d) == REACT_OK)
			return buf;
		why(s, rate_units, N(rate_units), "rate", buf, len);
		if (!buf[0])
			snprintf(buf, len, "'%s' is too large a rate", s);
		return buf;
	case REACT_UNIT_TIME:
		if (react_parse_time_s(s, &d) == REACT_OK)
			return buf;
		why(s, time_units, N(time_units), "time", buf, len);
		return buf;
	}
	snprintf(buf, len, "unknown kind of unit");
	return buf;
}

int react_name_ok(const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > max || s[0] == '.')
		return 0;
	for (const char *c = s; *c; c++)
		if (!(*c == '-' || *c == '_' || *c == '.' || (*c >= '0' && *c <= '9') ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			return 0;
	return 1;
}
