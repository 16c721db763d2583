/*
 * fuzz_trace.c - the FCT trace reader (io/src/trace.c): the run header and
 * the records.
 * Contract: a header is read whole (a backend name, parameters the
 * controller accepts) or refused with an error naming the file; every line
 * after it is a record or a non-empty error naming the file and the line;
 * records hold finite values in range.
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
	react_trace_run_t run;
	react_status_t st = react_trace_reader_open(path, &r, why, sizeof why);
	if (st != REACT_OK) {
		FUZZ_CHECK(st == REACT_EPARSE && why[0] && strstr(why, path), "open: %d '%s'", st, why);
		FUZZ_CHECK(r == NULL, "a reader on failure");
		return 0;
	}
	if (react_trace_reader_run(r, &run)) {
		FUZZ_CHECK(run.backend[0] && strlen(run.backend) < sizeof run.backend, "backend");
		FUZZ_CHECK(react_params_validate(&run.params, why, sizeof why) == REACT_OK,
		           "params: %s", why);
	}
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
