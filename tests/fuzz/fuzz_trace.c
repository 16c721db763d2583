/*
 * fuzz_trace.c - the FCT trace reader (io/src/trace.c).
 * Contract: every line is a record or a non-empty error naming the file and
 * the line; records hold finite values in range.
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "react/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[1024] = "";
	react_trace_reader_t *r = NULL;
	const char *path = fuzz_file(0, data, size, ".jsonl");
	FUZZ_CHECK(react_trace_reader_open(path, &r, why, sizeof why) == REACT_OK, "open: %s", why);
	for (long n = 0;; n++) {
		react_trace_epoch_t rec;
		int got = 0;
		why[0] = 0;
		if (react_trace_next(r, &rec, &got, why, sizeof why) != REACT_OK) {
			FUZZ_CHECK(why[0] && strstr(why, path), "error '%s'", why);
			break;
		}
		if (!got)
			break;
		FUZZ_CHECK(rec.epoch >= 0 && isfinite(rec.epoch_time_s) && rec.epoch_time_s >= 0 &&
		           rec.line > n, "record %ld", n);
		for (size_t i = 0; i < rec.nflows; i++)
			FUZZ_CHECK(isfinite(rec.fct_s[i]) && rec.fct_s[i] > 0, "fct[%zu]", i);
	}
	react_trace_reader_close(r);
	return 0;
}
