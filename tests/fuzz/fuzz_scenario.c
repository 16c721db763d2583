/*
 * fuzz_scenario.c - the scenario reader (runner/src/scenario.c, scenario_yaml.c):
 * YAML parsing, validation and sweep axes, from memory (no file is read:
 * topology files are opened only when a configuration is resolved).
 * Contract: failure gives a non-empty error naming the file; a scenario read
 * answers every accessor, and a --set of its own seed is accepted.
 */
#include <string.h>

#include "fuzz.h"
#include "react/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024] = "";
	react_scenario_t *s = NULL;
	if (react_scenario_parse((const char *)data, size, "fuzz.yaml", &s, err, sizeof err) !=
	    REACT_OK) {
		FUZZ_CHECK(err[0] && strstr(err, "fuzz.yaml"), "error '%s'", err);
		FUZZ_CHECK(s == NULL, "a scenario on failure");
		return 0;
	}
	size_t n = react_scenario_nconfigs(s), na = react_scenario_naxes(s);
	FUZZ_CHECK(n >= 1, "%zu configurations", n);
	for (size_t a = 0; a < na; a++)
		FUZZ_CHECK(react_scenario_axis_name(s, a)[0] && react_scenario_axis_len(s, a) > 1,
		           "axis %zu", a);
	size_t x = react_scenario_plot_x(s), y = react_scenario_plot_series(s);
	FUZZ_CHECK((x == SIZE_MAX || x < na) && (y == SIZE_MAX || y < na), "plot axes %zu %zu", x, y);
	for (int32_t j = 0; j < react_scenario_njobs(s); j++)
		FUZZ_CHECK(react_scenario_job_name(s, j)[0], "job %d has no name", j);
	FUZZ_CHECK(react_scenario_name(s) && react_scenario_backend(s), "name or backend");
	err[0] = 0;
	FUZZ_CHECK(react_scenario_set(s, "seed", "7", err, sizeof err) == REACT_OK, "--set seed=7: %s",
	           err);
	react_scenario_destroy(s);
	return 0;
}
