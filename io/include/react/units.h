/* react/units.h - sizes, rates and times as people write them.
 *
 * Sizes:  "20MB" (10^6), "20MiB" (2^20), "1K"/"1KB" (10^3), "1KiB", "512B",
 *         "4096" (plain bytes); suffixes K M G T, case-insensitive.
 * Rates:  "100Gbps", "25Gbit/s", "1.5Tbps", "400Mbps", "10GBps" (bytes/s),
 *         returned in bits per second.
 * Times:  "1us", "2.5ms", "3s", "100ns", returned in seconds.
 * All return REACT_OK, or REACT_EINVAL for an empty, negative, malformed or
 * out-of-range value (out untouched).
 */
#ifndef REACT_UNITS_H
#define REACT_UNITS_H

#include <stdint.h>

#include "react/status.h"

#ifdef __cplusplus
extern "C" {
#endif

react_status_t react_parse_bytes(const char *s, uint64_t *out);
react_status_t react_parse_rate_bps(const char *s, double *out);
react_status_t react_parse_time_s(const char *s, double *out);

#ifdef __cplusplus
}
#endif
#endif
