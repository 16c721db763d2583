/* Scenario input hardening: units are required where they mean something,
 * job names are safe as file names, paths resolve beside the scenario. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "react/scenario.h"

static react_scenario_t *parse_ok(const char *text)
{
	react_scenario_t *s = NULL;
	char err[1024] = "";
	react_status_t st = react_scenario_parse(text, strlen(text), "ok.yaml", &s, err, sizeof err);
	cr_assert_eq(st, REACT_OK, "parse failed: %s\n%s", err, text);
	return s;
}

/* Parse must fail with exactly the message `want`. */
static void parse_fails_with(const char *text, const char *want)
{
	react_scenario_t *s = NULL;
	char err[1024] = "";
	react_status_t st = react_scenario_parse(text, strlen(text), "bad.yaml", &s, err, sizeof err);
	cr_assert_neq(st, REACT_OK, "expected a failure for:\n%s", text);
	cr_assert_null(s);
	cr_assert_str_eq(err, want);
}

#define STAR "topology: {type: star, hosts: 16}\n"
#define JOB "jobs:\n  - name: a\n    ranks: 4\n"

Test(units, rates_need_a_unit)
{
	parse_fails_with("topology: {type: star, hosts: 16, rate: 100}\n" JOB,
	                 "bad.yaml:1: field 'topology.rate': expected a rate with a unit, such as "
	                 "100Gbps or 12.5GBps, got '100' ('100' has no unit)");
	parse_fails_with(STAR JOB "congestion:\n  degraded_links: {count: 2, rate: 30}\n",
	                 "bad.yaml:6: field 'congestion.degraded_links.rate': expected a rate with a "
	                 "unit, such as 100Gbps or 12.5GBps, got '30' ('30' has no unit)");
	parse_fails_with("topology: {type: star, hosts: 16, rate: 100gbps}\n" JOB,
	                 "bad.yaml:1: field 'topology.rate': expected a rate with a unit, such as "
	                 "100Gbps or 12.5GBps, got '100gbps' (unknown rate unit 'gbps')");
}

Test(units, times_need_a_unit_except_zero)
{
	parse_fails_with("topology: {type: star, hosts: 16, delay: 1}\n" JOB,
	                 "bad.yaml:1: field 'topology.delay': expected a time with a unit, such as 1us "
	                 "or 2ms, or 0, got '1' ('1' has no unit)");
	parse_fails_with(STAR JOB "    compute_gap: 0.5\n",
	                 "bad.yaml:5: field 'jobs.a.compute_gap': expected a time with a unit, such as "
	                 "1us or 2ms, or 0, got '0.5' ('0.5' has no unit)");
	react_scenario_t *s = parse_ok(STAR JOB "    compute_gap: 0\n    start: 10us\n");
	react_config_t *c = NULL;
	char err[512];
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->run.jobs[0].compute_gap_s, 0);
	cr_assert_float_eq(c->run.jobs[0].start_s, 10e-6, 1e-15);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(units, sizes_are_bytes_with_a_unit)
{
	parse_fails_with(STAR JOB "    message: 1Gb\n",
	                 "bad.yaml:5: field 'jobs.a.message': expected a size in bytes with a unit, "
	                 "such as 20MB (10^6 B), 1MiB (2^20 B) or 4096B, got '1Gb' ('1Gb' is in bits; "
	                 "sizes are in bytes (B, e.g. 1GB = 10^9 bytes))");
	parse_fails_with(STAR JOB "    message: 4096\n",
	                 "bad.yaml:5: field 'jobs.a.message': expected a size in bytes with a unit, "
	                 "such as 20MB (10^6 B), 1MiB (2^20 B) or 4096B, got '4096' ('4096' has no "
	                 "unit)");
	const char *ok[][2] = {{"4096B", "4096"}, {"1MB", "1000000"}, {"1MiB", "1048576"},
	                       {"2GB", "2000000000"}, {"1.5KiB", "1536"}};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char text[256];
		snprintf(text, sizeof text, STAR JOB "    message: %s\n", ok[i][0]);
		react_scenario_t *s = parse_ok(text);
		react_config_t *c = NULL;
		char err[512];
		cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
		cr_assert_eq(c->run.jobs[0].message_bytes, strtoull(ok[i][1], NULL, 10), "%s", ok[i][0]);
		react_config_destroy(c);
		react_scenario_destroy(s);
	}
}

/* Every shipped scenario still reads under the strict units. */
Test(units, shipped_scenarios_parse)
{
	const char *files[] = {"scenarios/quickstart.yaml", "scenarios/paper/fig5a.yaml",
	                       "scenarios/paper/fig5b.yaml", "scenarios/paper/fig6.yaml",
	                       "scenarios/paper/fig7a.yaml", "scenarios/paper/fig7b.yaml",
	                       "scenarios/paper/fig8.yaml", "scenarios/paper/fig12.yaml",
	                       "scenarios/regress/degraded-recdbl.yaml",
	                       "scenarios/regress/ring-dctcp.yaml",
	                       "scenarios/regress/tree-fattree.yaml",
	                       "scenarios/regress/two-jobs-star.yaml",
	                       "scenarios/validation/v-fattree-recdbl-degraded.yaml",
	                       "scenarios/validation/v-fattree-ring-ext.yaml",
	                       "scenarios/validation/v-file-leafspine-tree-ext.yaml",
	                       "scenarios/validation/v-star-tree-ext.yaml",
	                       "scenarios/validation/v-star-two-jobs.yaml"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[1024], err[1024] = "";
		react_scenario_t *s = NULL;
		react_config_t *c = NULL;
		snprintf(path, sizeof path, "%s/%s", REACT_SOURCE_DIR, files[i]);
		cr_assert_eq(react_scenario_load(path, &s, err, sizeof err), REACT_OK, "%s", err);
		cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
		react_config_destroy(c);
		react_scenario_destroy(s);
	}
}

Test(names, job_names_are_safe_file_names)
{
	const char *bad[] = {"a,b", "a/b", "..", ".hidden", "a b", "x;rm", "\\\"q\\\""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[256], want[512];
		snprintf(text, sizeof text, STAR "jobs:\n  - ranks: 4\n    name: \"%s\"\n", bad[i]);
		react_scenario_t *s = NULL;
		char err[1024] = "";
		cr_assert_neq(react_scenario_parse(text, strlen(text), "bad.yaml", &s, err, sizeof err),
		              REACT_OK, "name %s accepted", bad[i]);
		snprintf(want, sizeof want, "bad.yaml:4: field 'jobs[0].name': expected a job name of at "
		         "most 63 letters, digits, '_', '.' or '-', not starting with '.', got '");
		cr_assert(!strncmp(err, want, strlen(want)), "%s", err);
	}
	char n63[64], n64[65], text[256];
	memset(n63, 'x', 63);
	n63[63] = 0;
	memset(n64, 'y', 64);
	n64[64] = 0;
	snprintf(text, sizeof text, STAR "jobs:\n  - {name: %s, ranks: 4}\n", n63);
	react_scenario_destroy(parse_ok(text));
	snprintf(text, sizeof text, STAR "jobs:\n  - {name: %s, ranks: 4}\n", n64);
	char want[512];
	snprintf(want, sizeof want, "bad.yaml:3: field 'jobs[0].name': expected a job name of at most "
	         "63 letters, digits, '_', '.' or '-', not starting with '.', got '%s'", n64);
	parse_fails_with(text, want);
	react_scenario_destroy(parse_ok(STAR "jobs:\n  - {name: Tree-1_v2.0, ranks: 4}\n"));
}

Test(names, set_cannot_smuggle_a_bad_name)
{
	react_scenario_t *s = parse_ok(STAR JOB);
	char err[1024] = "";
	cr_assert_neq(react_scenario_set(s, "jobs.0.name", "../x", err, sizeof err), REACT_OK);
	cr_assert_str_eq(err, "--set jobs.0.name: field 'jobs[0].name': expected a job name of at "
	                      "most 63 letters, digits, '_', '.' or '-', not starting with '.', got "
	                      "'../x'");
	cr_assert_str_eq(react_scenario_job_name(s, 0), "a", "the scenario is unchanged");
	react_scenario_destroy(s);
}

Test(names, scenario_name_cannot_leave_the_results_directory)
{
	parse_fails_with("name: ..\n" STAR JOB,
	                 "bad.yaml:1: field 'name': expected a name of at most 127 letters, digits, "
	                 "'_', '.' or '-', not starting with '.' (it names the results directory), got "
	                 "'..'");
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static const char *star_topo(int hosts)
{
	static char buf[512];
	size_t n = (size_t)snprintf(buf, sizeof buf, "node s switch\n");
	for (int h = 0; h < hosts; h++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "node h%d host\nlink h%d s\n", h, h);
	return buf;
}

/* A topology file of the same name in the working directory must not
 * replace the one beside the scenario; --set paths are the command line's. */
Test(paths, relative_to_the_scenario_not_the_working_directory)
{
	char dir[] = "/tmp/react-paths-XXXXXX", p[512], err[1024] = "";
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0); /* Criterion runs each test in its own process */
	cr_assert_eq(mkdir("sc", 0777), 0);
	write_text("sc/t.topo", star_topo(4)); /* beside the scenario: 4 hosts */
	write_text("t.topo", star_topo(3));    /* same name, working directory: 3 */
	write_text("cwd-only.topo", star_topo(3));
	write_text("sc/s.yaml", "topology: {type: file, path: t.topo}\njobs:\n  - {name: a, ranks: 2}\n");
	react_scenario_t *s = NULL;
	react_config_t *c = NULL;
	cr_assert_eq(react_scenario_load("sc/s.yaml", &s, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->topo->nhosts, 4, "read %d hosts: not the file beside the scenario",
	             (int)c->topo->nhosts);
	react_config_destroy(c);
	/* --set: relative to the working directory */
	cr_assert_eq(react_scenario_set(s, "topology.path", "t.topo", err, sizeof err), REACT_OK, "%s",
	             err);
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->topo->nhosts, 3);
	react_config_destroy(c);
	react_scenario_destroy(s);
	/* found only in the working directory: an error that says where it looked */
	write_text("sc/s2.yaml",
	           "topology: {type: file, path: cwd-only.topo}\njobs:\n  - {name: a, ranks: 2}\n");
	cr_assert_eq(react_scenario_load("sc/s2.yaml", &s, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_neq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK);
	cr_assert_str_eq(err, "sc/s2.yaml:1: field 'topology.path': sc/cwd-only.topo: cannot open: No "
	                      "such file or directory (a relative path is relative to the scenario's "
	                      "directory, sc)");
	react_scenario_destroy(s);
	/* an absolute path is itself */
	snprintf(p, sizeof p, "topology: {type: file, path: %s/t.topo}\njobs:\n  - {name: a, ranks: 2}\n",
	         dir);
	write_text("sc/s3.yaml", p);
	cr_assert_eq(react_scenario_load("sc/s3.yaml", &s, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->topo->nhosts, 3);
	react_config_destroy(c);
	react_scenario_destroy(s);
	snprintf(p, sizeof p, "rm -rf %s", dir);
	cr_assert_eq(system(p), 0);
}

/* SimAI's generator output as a scenario's topology: a job on its GPUs. */
Test(paths, simai_topology_in_a_scenario)
{
	char text[512], err[1024] = "";
	snprintf(text, sizeof text,
	         "topology: {type: file, path: %s/simai-rail-16g.txt}\n"
	         "jobs:\n  - {name: ring, ranks: 16, algorithm: ring, placement: contiguous}\n",
	         REACT_TOPO_DIR);
	react_scenario_t *s = parse_ok(text);
	react_config_t *c = NULL;
	cr_assert_eq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(c->topo->nhosts, 16);
	cr_assert_eq(c->run.jobs[0].hosts[15], 15);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

/* A rank count past the limit is named as written, not truncated to int. */
Test(limits, ranks_above_the_limit_are_quoted_whole)
{
	parse_fails_with(STAR "jobs:\n  - name: a\n    ranks: 4294967298\n",
	                 "bad.yaml:4: field 'jobs.a.ranks': expected at most 4096 ranks, got 4294967298");
	parse_fails_with(STAR "jobs:\n  - name: a\n    ranks: 5000\n",
	                 "bad.yaml:4: field 'jobs.a.ranks': expected at most 4096 ranks, got 5000");
}
