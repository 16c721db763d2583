/*
 * fuzz_pattern.c - the pattern JSON reader (io/src/pattern_io.c).
 * Contract: failure gives a non-empty error naming the file; a pattern read
 * is written back and read again unchanged (react_pattern_equal).
 */
#include <string.h>

#include "fuzz.h"
#include "react/pattern_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024] = "";
	react_pattern_t *p = NULL, *q = NULL;
	const char *path = fuzz_file(0, data, size, ".json");
	if (react_pattern_read_json(path, &p, err, sizeof err) != REACT_OK) {
		FUZZ_CHECK(err[0] && strstr(err, path), "error '%s'", err);
		FUZZ_CHECK(p == NULL, "a pattern on failure");
		return 0;
	}
	const char *back = fuzz_file(1, NULL, 0, ".json");
	FUZZ_CHECK(react_pattern_write_json_path(p, back, err, sizeof err) == REACT_OK, "write: %s",
	           err);
	FUZZ_CHECK(react_pattern_read_json(back, &q, err, sizeof err) == REACT_OK, "read back: %s",
	           err);
	FUZZ_CHECK(react_pattern_equal(p, q), "the pattern read back differs");
	react_pattern_destroy(q);
	react_pattern_destroy(p);
	return 0;
}
