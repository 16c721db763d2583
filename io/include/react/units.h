/* react/units.h - sizes, rates and times as people write them.
 *
 * A unit is always required (a bare "100" could be bits or bytes, seconds
 * or microseconds); the only exception is a time of 0.  Units are
 * case-sensitive: B is a byte, b a bit.
 *
 * Sizes:  bytes only: "512B", "20kB"/"20KB" (10^3), "20MB" (10^6), "1GB"
 *         (10^9), "1TB" (10^12), "20KiB" (2^10), "20MiB" (2^20), "1GiB"
 *         (2^30), "1TiB" (2^40); fractions must give whole bytes
 *         ("1.5KiB" = 1536).  Bits ("1Gb") are refused: sizes are bytes.
 * Rates:  bits per second "100bps", "25kbps"/"25Kbps", "400Mbps",
 *         "100Gbps", "1.5Tbps" (also "Gbit/s"), or bytes per second
 *         "10GBps", "10GB/s" (also B, kB/KB, MB, TB); returned in bits per
 *         second.
 * Times:  "1s", "2.5ms", "1us", "100ns", "1ps", or 0; returned in seconds.
 * All return REACT_OK, or REACT_EINVAL for an empty, negative, unit-less,
 * malformed or out-of-range value (out untouched).
 */
#ifndef REACT_UNITS_H
#define REACT_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "react/status.h"

#ifdef __cplusplus
extern "C" {
#endif

react_status_t react_parse_bytes(const char *s, uint64_t *out);
react_status_t react_parse_rate_bps(const char *s, double *out);
react_status_t react_parse_time_s(const char *s, double *out);

typedef enum react_unit_kind {
	REACT_UNIT_BYTES = 0,
	REACT_UNIT_RATE,
	REACT_UNIT_TIME
} react_unit_kind_t;

/* Why s (input) is not a value of `kind`, as a phrase for an error message
 * ("'100' has no unit", "'1Gb' is in bits; sizes are in bytes ...",
 * "unknown rate unit 'Gbs'"), written to buf (output, len bytes) and
 * returned; "" when s is valid. */
const char *react_units_why(react_unit_kind_t kind, const char *s, char *buf, size_t len);

/* Names that become file names and CSV cells (scenario and job names):
 * 1..max characters, letters, digits, '_', '.' or '-', not starting with
 * '.' (no hidden files, no ".."), no ',' (a CSV cell) or '/' (a path).
 * Returns 1 when s is such a name. */
#define REACT_NAME_RULE "letters, digits, '_', '.' or '-', not starting with '.'"
int react_name_ok(const char *s, size_t max);

#ifdef __cplusplus
}
#endif
#endif
