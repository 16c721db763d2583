/* Jobs that run a pattern file (`pattern: FILE`) and the `ecmp_seed` field:
 * resolution, errors with file, line and field, the baseline and REACT on the
 * flow and DCTCP window backends, and end to end through react run, sweep,
 * replay and oracle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h" /* react(), workdir(), slurp(), sh(), assert_contains() */
#include "react/driver.h"
#include "react/flowsim.h"
#include "react/generators.h"
#include "react/pattern_io.h"
#include "react/results.h"
#include "react/scenario.h"

/* A generated pattern, its ranks relabelled by perm (NULL: as generated),
 * written to path.  out (may be NULL): the pattern. */
static void write_pattern(const char *path, react_collective_t c, react_algorithm_t a,
                          int32_t n, uint64_t bytes, const react_rank_t *perm,
                          react_pattern_t **out)
{
	react_pattern_t *p = NULL;
	char err[1024];
	cr_assert_eq(react_pattern_generate(c, a, n, bytes, &p), REACT_OK);
	if (perm)
		cr_assert_eq(react_pattern_permute(p, perm), REACT_OK);
	cr_assert_eq(react_pattern_write_json_path(p, path, err, sizeof err), REACT_OK, "%s", err);
	if (out)
		*out = p;
	else
		react_pattern_destroy(p);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

static react_scenario_t *load_ok(const char *path)
{
	react_scenario_t *s = NULL;
	char err[2048] = "";
	cr_assert_eq(react_scenario_load(path, &s, err, sizeof err), REACT_OK, "%s", err);
	return s;
}

static react_config_t *config_ok(const react_scenario_t *s, size_t i)
{
	react_config_t *c = NULL;
	char err[2048] = "";
	cr_assert_eq(react_scenario_config(s, i, &c, err, sizeof err), REACT_OK, "%s", err);
	return c;
}

/* Loading and resolving `path` fails; err holds every fragment given. */
static void resolve_fails(const char *path, const char *const *frags)
{
	react_scenario_t *s = NULL;
	react_config_t *c = NULL;
	char err[2048] = "";
	react_status_t st = react_scenario_load(path, &s, err, sizeof err);
	if (st == REACT_OK) {
		st = react_scenario_config(s, 0, &c, err, sizeof err);
		react_scenario_destroy(s);
	}
	cr_assert_neq(st, REACT_OK, "%s: expected a failure", path);
	cr_assert_null(c);
	for (const char *const *f = frags; *f; f++)
		cr_assert(strstr(err, *f), "error '%s' lacks '%s'", err, *f);
}

/* A scenario in dir: a k = 4 fat-tree with two congested hosts, one job
 * whose fields (after "  - name: j\n") are `job`. */
static void write_scenario(const char *path, const char *job)
{
	char text[2048];
	snprintf(text, sizeof text,
	         "seed: 3\n"
	         "topology: {type: fattree, k: 4}\n"
	         "jobs:\n"
	         "  - name: j\n"
	         "%s"
	         "    epochs: 24\n"
	         "    warmup: 4\n"
	         "congestion:\n"
	         "  external: {congested_pairs: 2, p: 2}\n",
	         job);
	write_text(path, text);
}

Test(pattern_file, job_takes_ranks_collective_message_from_the_file)
{
	char w[4096], sc[4200], pf[4200];
	react_pattern_t *p = NULL;
	workdir("pf-defaults", w, sizeof w);
	snprintf(pf, sizeof pf, "%s/ag5.json", w);
	write_pattern(pf, REACT_COLL_ALLGATHER, REACT_ALGO_RING, 5, 1000000, NULL, &p);
	/* relative to the scenario's directory, not to the working directory */
	snprintf(sc, sizeof sc, "%s/s.yaml", w);
	write_scenario(sc, "    pattern: ag5.json\n");
	react_scenario_t *s = load_ok(sc);
	react_config_t *c = config_ok(s, 0);
	const react_job_cfg_t *jc = &c->run.jobs[0];
	cr_assert_eq(jc->nranks, 5);
	cr_assert_eq(jc->collective, REACT_COLL_ALLGATHER);
	cr_assert_eq(jc->algorithm, REACT_ALGO_RING);
	cr_assert_eq(jc->message_bytes, 1000000u);
	cr_assert_not_null(c->pattern[0]);
	cr_assert(react_pattern_equal(c->pattern[0], p));
	cr_assert_str_eq(c->pattern_file[0], "ag5.json");
	uint64_t fp = react_config_fingerprint(c);
	react_config_destroy(c);
	react_scenario_destroy(s);
	/* the same values given in the job agree with the file */
	write_scenario(sc, "    ranks: 5\n    collective: allgather\n    message: 1MB\n"
	                   "    pattern: ag5.json\n");
	s = load_ok(sc);
	c = config_ok(s, 0);
	cr_assert_eq(react_config_fingerprint(c), fp);
	react_config_destroy(c);
	react_scenario_destroy(s);
	/* the generated pattern of the same shape is another configuration */
	write_scenario(sc, "    ranks: 5\n    collective: allgather\n    algorithm: ring\n"
	                   "    message: 1MB\n");
	s = load_ok(sc);
	c = config_ok(s, 0);
	cr_assert_null(c->pattern[0]);
	cr_assert_neq(react_config_fingerprint(c), fp);
	react_config_destroy(c);
	react_scenario_destroy(s);
	react_pattern_destroy(p);
}

Test(pattern_file, mismatch_and_algorithm_errors_name_file_line_field)
{
	char w[4096], sc[4200], pf[4200], f1[4400], f2[4400];
	workdir("pf-mismatch", w, sizeof w);
	snprintf(pf, sizeof pf, "%s/r6.json", w);
	write_pattern(pf, REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 6, 600000, NULL, NULL);
	snprintf(sc, sizeof sc, "%s/bad.yaml", w);
	/* line 5 is the job's first field, line 6 its second */
	write_scenario(sc, "    algorithm: ring\n    pattern: r6.json\n");
	snprintf(f1, sizeof f1, "%s:6: field 'jobs.j.pattern'", sc);
	snprintf(f2, sizeof f2, "field 'jobs.j.algorithm' at %s:5", sc);
	resolve_fails(sc, (const char *[]){f1, f2, "not both", NULL});
	write_scenario(sc, "    ranks: 4\n    pattern: r6.json\n");
	snprintf(f1, sizeof f1, "%s:5: field 'jobs.j.ranks': the job says 4 ranks", sc);
	snprintf(f2, sizeof f2, "r6.json (field 'jobs.j.pattern' at %s:6) has ranks 6", sc);
	resolve_fails(sc, (const char *[]){f1, f2, NULL});
	write_scenario(sc, "    pattern: r6.json\n    collective: allgather\n");
	snprintf(f1, sizeof f1, "%s:6: field 'jobs.j.collective': the job says allgather", sc);
	resolve_fails(sc, (const char *[]){f1, "has collective allreduce", NULL});
	write_scenario(sc, "    pattern: r6.json\n    message: 6MB\n");
	snprintf(f1, sizeof f1, "%s:6: field 'jobs.j.message': the job says 6000000 bytes (6MB)", sc);
	resolve_fails(sc, (const char *[]){f1, "has message_bytes 600000 bytes", NULL});
}

Test(pattern_file, bad_files_name_the_scenario_line_and_the_file_error)
{
	char w[4096], sc[4200], p[4200], f1[4400];
	workdir("pf-bad", w, sizeof w);
	snprintf(sc, sizeof sc, "%s/bad.yaml", w);
	snprintf(f1, sizeof f1, "%s:5: field 'jobs.j.pattern': ", sc);
	/* missing */
	write_scenario(sc, "    pattern: nowhere.json\n");
	resolve_fails(sc, (const char *[]){f1, "nowhere.json: cannot open",
	                                   "relative to the scenario's directory", NULL});
	/* malformed JSON: the reader's line and column */
	snprintf(p, sizeof p, "%s/cut.json", w);
	write_text(p, "{\"format\":\"react-pattern\",\n\"version\":1,\n\"flows\":[[0,0,");
	write_scenario(sc, "    pattern: cut.json\n");
	resolve_fails(sc, (const char *[]){f1, "cut.json:3:", "malformed JSON", NULL});
	/* a rank out of range: the reader's field */
	snprintf(p, sizeof p, "%s/range.json", w);
	write_text(p, "{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	              "\"algorithm\":\"custom\",\"ranks\":2,\"chunks\":2,\"message_bytes\":1000,"
	              "\"root\":null,\"flows\":[[0,0,9,0,1,500,\"reduce\"]]}");
	write_scenario(sc, "    pattern: range.json\n");
	resolve_fails(sc, (const char *[]){f1, "range.json", "flows[0][2] (dst)", NULL});
	/* readable but incorrect: the semantic check's verdict */
	snprintf(p, sizeof p, "%s/missing.json", w);
	write_text(p, "{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	              "\"algorithm\":\"custom\",\"ranks\":2,\"chunks\":2,\"message_bytes\":1000,"
	              "\"root\":null,\"flows\":[[0,0,1,0,1,500,\"reduce\"],[0,1,0,1,1,500,"
	              "\"reduce\"],[1,1,0,0,1,500,\"store\"]]}");
	write_scenario(sc, "    pattern: missing.json\n");
	resolve_fails(sc, (const char *[]){f1, "missing.json: fails the semantic check",
	                                   "rank 1 chunk 1 lacks the contribution of rank 0", NULL});
	/* the same file, complete, is accepted */
	write_text(p, "{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	              "\"algorithm\":\"custom\",\"ranks\":2,\"chunks\":2,\"message_bytes\":1000,"
	              "\"root\":null,\"flows\":[[0,0,1,0,1,500,\"reduce\"],[0,1,0,1,1,500,"
	              "\"reduce\"],[1,1,0,0,1,500,\"store\"],[1,0,1,1,1,500,\"store\"]]}");
	react_scenario_t *s = load_ok(sc);
	react_config_t *c = config_ok(s, 0);
	cr_assert_eq(c->run.jobs[0].algorithm, REACT_ALGO_CUSTOM);
	cr_assert_eq(c->run.jobs[0].nranks, 2);
	react_config_destroy(c);
	react_scenario_destroy(s);
}

Test(pattern_file, set_replaces_the_algorithm_and_sweeps_over_files)
{
	char w[4096], sc[4200], pa[4200], pb[4200], list[9000], err[2048] = "";
	react_pattern_t *a = NULL, *b = NULL;
	workdir("pf-set", w, sizeof w);
	snprintf(pa, sizeof pa, "%s/a.json", w);
	snprintf(pb, sizeof pb, "%s/b.json", w);
	react_rank_t perm[8] = {1, 0, 2, 3, 4, 5, 7, 6};
	write_pattern(pa, REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 8, 20000000, NULL, &a);
	write_pattern(pb, REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 8, 20000000, perm, &b);
	snprintf(sc, sizeof sc, "%s/s.yaml", w);
	write_scenario(sc, "    ranks: 8\n    algorithm: tree\n");
	react_scenario_t *s = load_ok(sc);
	/* --set pattern on a job that names its algorithm: the pattern runs
	 * (a --set path is relative to the working directory: absolute here) */
	cr_assert_eq(react_scenario_set(s, "jobs.0.pattern", pb, err, sizeof err), REACT_OK, "%s",
	             err);
	react_config_t *c = config_ok(s, 0);
	cr_assert(react_pattern_equal(c->pattern[0], b));
	react_config_destroy(c);
	/* and --set algorithm takes the job back to a generated pattern */
	cr_assert_eq(react_scenario_set(s, "jobs.j.algorithm", "ring", err, sizeof err), REACT_OK,
	             "%s", err);
	c = config_ok(s, 0);
	cr_assert_null(c->pattern[0]);
	cr_assert_eq(c->run.jobs[0].algorithm, REACT_ALGO_RING);
	react_config_destroy(c);
	/* a list of files is a sweep axis named pattern, values as written */
	snprintf(list, sizeof list, "[%s, %s]", pa, pb);
	cr_assert_eq(react_scenario_set(s, "jobs.0.pattern", list, err, sizeof err), REACT_OK, "%s",
	             err);
	cr_assert_eq(react_scenario_nconfigs(s), 2);
	cr_assert_eq(react_scenario_naxes(s), 1);
	cr_assert_str_eq(react_scenario_axis_name(s, 0), "pattern");
	react_config_t *c0 = config_ok(s, 0), *c1 = config_ok(s, 1);
	cr_assert_str_eq(c0->axis_value[0], pa);
	cr_assert_str_eq(c1->axis_value[0], pb);
	cr_assert(react_pattern_equal(c0->pattern[0], a));
	cr_assert(react_pattern_equal(c1->pattern[0], b));
	/* same placement and congestion, another pattern */
	cr_assert_arr_eq(c0->run.jobs[0].hosts, c1->run.jobs[0].hosts, 8 * sizeof(int32_t));
	cr_assert_neq(react_config_fingerprint(c0), react_config_fingerprint(c1));
	react_config_destroy(c0);
	react_config_destroy(c1);
	/* an error in a --set value is named by its key */
	cr_assert_eq(react_scenario_set(s, "jobs.0.pattern", "nowhere.json", err, sizeof err),
	             REACT_OK, "%s", err);
	c = NULL;
	cr_assert_neq(react_scenario_config(s, 0, &c, err, sizeof err), REACT_OK);
	cr_assert(strstr(err, "--set jobs.0.pattern: field 'jobs.j.pattern': nowhere.json: "
	                      "cannot open"), "%s", err);
	react_scenario_destroy(s);
	react_pattern_destroy(a);
	react_pattern_destroy(b);
}

/* The baseline runs the file's pattern in every epoch, REACT starts from it,
 * and the baseline equals react_drive with the pattern as the fixed one. */
static void run_on(const react_backend_ops_t *be)
{
	char name[64], w[4096], sc[4200], pf[4200], err[2048] = "";
	react_pattern_t *p = NULL;
	snprintf(name, sizeof name, "pf-run-%s", be->name);
	workdir(name, w, sizeof w);
	snprintf(pf, sizeof pf, "%s/t.json", w);
	react_rank_t perm[8] = {5, 2, 7, 0, 3, 6, 1, 4};
	write_pattern(pf, REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 8, 4000000, perm, &p);
	uint64_t h = react_pattern_hash(p);
	snprintf(sc, sizeof sc, "%s/s.yaml", w);
	write_scenario(sc, "    pattern: t.json\n");
	react_scenario_t *s = load_ok(sc);
	react_config_t *c = config_ok(s, 0);
	react_pair_result_t pr = {0};
	cr_assert_eq(react_run_pair(be, c, NULL, &pr, err, sizeof err), REACT_OK, "%s", err);
	cr_assert_eq(pr.baseline->nrecs, 24);
	for (size_t i = 0; i < pr.baseline->nrecs; i++)
		cr_assert_eq(pr.baseline->recs[i].pattern_hash, h, "%s: baseline epoch %zu", be->name,
		             i);
	cr_assert_eq(pr.react->recs[0].pattern_hash, h, "%s: REACT's first epoch", be->name);
	cr_assert_gt(pr.react->jobs[0].ctl.batches, 0);
	react_drive_opts_t d;
	memset(&d, 0, sizeof d);
	const react_pattern_t *fx[1] = {p};
	d.fixed = fx;
	d.warmup = c->warmup;
	react_drive_result_t *r = NULL;
	cr_assert_eq(react_drive(be, &c->run, &d, &r, err, sizeof err), REACT_OK, "%s", err);
	cr_assert(r->jobs[0].mean_algbw_gbps == pr.baseline->jobs[0].mean_algbw_gbps,
	          "%s: %.17g vs %.17g", be->name, r->jobs[0].mean_algbw_gbps,
	          pr.baseline->jobs[0].mean_algbw_gbps);
	react_drive_result_destroy(r);
	react_pair_result_clear(&pr);
	react_config_destroy(c);
	react_scenario_destroy(s);
	react_pattern_destroy(p);
}

Test(pattern_file, baseline_runs_it_react_starts_from_it_flow) { run_on(&react_backend_flow); }
Test(pattern_file, baseline_runs_it_react_starts_from_it_dctcp) { run_on(&react_backend_dctcp); }

Test(ecmp_seed, redraws_ecmp_only)
{
	static const char base[] =
	    "seed: 2\n"
	    "topology: {type: fattree, k: 4}\n"
	    "jobs:\n"
	    "  - {name: j, ranks: 8, message: 4MB, epochs: 20, warmup: 4}\n"
	    "congestion:\n"
	    "  degraded_links: {count: 8, rate: 30Gbps}\n";
	char text[1024], err[2048] = "";
	react_scenario_t *s = NULL;
	react_config_t *c[3] = {NULL};
	const char *extra[3] = {"", "ecmp_seed: 2\n", "ecmp_seed: 11\n"};
	for (int k = 0; k < 3; k++) {
		snprintf(text, sizeof text, "%s%s", extra[k], base);
		cr_assert_eq(react_scenario_parse(text, strlen(text), "e.yaml", &s, err, sizeof err),
		             REACT_OK, "%s", err);
		c[k] = config_ok(s, 0);
		react_scenario_destroy(s);
	}
	cr_assert_eq(c[0]->run.seed, 2);
	cr_assert_eq(c[2]->run.seed, 11);
	cr_assert_eq(c[2]->seed, 2);
	/* the default is the configuration's seed: the same configuration */
	cr_assert_eq(react_config_fingerprint(c[0]), react_config_fingerprint(c[1]));
	cr_assert_neq(react_config_fingerprint(c[0]), react_config_fingerprint(c[2]));
	/* placement and degraded links do not move */
	cr_assert_arr_eq(c[0]->run.jobs[0].hosts, c[2]->run.jobs[0].hosts, 8 * sizeof(int32_t));
	cr_assert_eq(c[0]->run.ndegraded, c[2]->run.ndegraded);
	for (size_t i = 0; i < c[0]->run.ndegraded; i++)
		cr_assert_eq(c[0]->run.degraded[i].link, c[2]->run.degraded[i].link);
	/* the paths do */
	react_pair_result_t p0 = {0}, p2 = {0};
	cr_assert_eq(react_run_pair(&react_backend_flow, c[0], NULL, &p0, err, sizeof err), REACT_OK);
	cr_assert_eq(react_run_pair(&react_backend_flow, c[2], NULL, &p2, err, sizeof err), REACT_OK);
	int differ = 0;
	for (size_t i = 0; i < p0.baseline->nrecs; i++)
		differ += p0.baseline->recs[i].time_s != p2.baseline->recs[i].time_s;
	cr_assert_gt(differ, 0, "another ecmp_seed should change some epoch's paths");
	react_pair_result_clear(&p0);
	react_pair_result_clear(&p2);
	for (int k = 0; k < 3; k++)
		react_config_destroy(c[k]);
	/* a sweep axis of its own */
	snprintf(text, sizeof text, "ecmp_seed: [5, 6]\n%s", base);
	cr_assert_eq(react_scenario_parse(text, strlen(text), "e.yaml", &s, err, sizeof err),
	             REACT_OK, "%s", err);
	cr_assert_eq(react_scenario_nconfigs(s), 2);
	cr_assert_str_eq(react_scenario_axis_name(s, 0), "ecmp_seed");
	react_scenario_destroy(s);
}

/* ---- end to end ---- */

Test(pattern_file_e2e, run_records_it_and_replay_reproduces)
{
	char w[4096], sc[4200], pf[4200], out[4200], p[4400], q[4400];
	workdir("pf-e2e-run", w, sizeof w);
	snprintf(pf, sizeof pf, "%s/t.json", w);
	react_rank_t perm[8] = {5, 2, 7, 0, 3, 6, 1, 4};
	write_pattern(pf, REACT_COLL_ALLREDUCE, REACT_ALGO_TREE, 8, 4000000, perm, NULL);
	snprintf(sc, sizeof sc, "%s/s.yaml", w);
	write_scenario(sc, "    pattern: t.json\n");
	snprintf(out, sizeof out, "%s/out", w);
	cr_assert_eq(react("run", sc, "-o", out, "--trace", "--quiet", NULL), 0, "%s",
	             slurp(g_err));
	assert_contains(g_out, "job j: 8 ranks, allreduce tree from pattern file t.json, 4 MB");
	snprintf(p, sizeof p, "%s/runs/c0000/config.txt", out);
	assert_contains(p, "\npattern j file t.json hash ");
	/* the trace's initial pattern is the file's: replay makes the decisions
	 * of decisions.jsonl */
	snprintf(p, sizeof p, "%s/runs/c0000/pattern-j.json", out);
	sh("cmp '%s' '%s'", p, pf);
	snprintf(q, sizeof q, "%s/runs/c0000/trace-j.jsonl", out);
	cr_assert_eq(react("replay", p, q, NULL), 0, "%s", slurp(g_err));
	sh("sed 's/^{\"job\":\"j\",/{/' '%s/runs/c0000/decisions.jsonl' > '%s/run.log'", out, w);
	sh("grep -q '\"action\":\"change\"' '%s/run.log'", w);
	snprintf(p, sizeof p, "%s/run.log", w);
	assert_same_file(g_out, p);
	/* its parameter list gives an enum's default by name */
	cr_assert_eq(react("replay", "--help", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "    estimator       -        default overlap  -  ");
	assert_contains(g_out, "    delta1          delta_1  default 0.2      fraction ");
	assert_contains(g_out, "undecided, early_revert, role_moves at once");
}

Test(pattern_file_e2e, bad_file_exit_2_naming_file_and_line_nothing_written)
{
	char w[4096], sc[4200], pf[4200], out[4200], want[9000];
	workdir("pf-e2e-bad", w, sizeof w);
	snprintf(pf, sizeof pf, "%s/cut.json", w);
	write_text(pf, "{\"format\":\"react-pattern\",\n\"version\":1,\n\"flows\":[[0,0,");
	snprintf(sc, sizeof sc, "%s/s.yaml", w);
	write_scenario(sc, "    pattern: cut.json\n");
	snprintf(out, sizeof out, "%s/out", w);
	snprintf(want, sizeof want, "react run: %s:5: field 'jobs.j.pattern': %s/cut.json:3:", sc, w);
	cr_assert_eq(react("run", sc, "-o", out, NULL), 2);
	assert_contains(g_err, want);
	char *e = slurp(g_err);
	cr_assert_eq(strchr(e, '\n'), e + strlen(e) - 1, "one line expected: %s", e);
	free(e);
	snprintf(want, sizeof want, "react sweep: configuration 0: %s:5: field 'jobs.j.pattern'", sc);
	cr_assert_eq(react("sweep", sc, "-o", out, "--quiet", NULL), 2);
	assert_contains(g_err, want);
	sh("test ! -e '%s'", out);
	/* --set of a missing file is named by its key */
	cr_assert_eq(react("run", sc, "--set", "jobs.0.pattern=nowhere.json", NULL), 2);
	assert_contains(g_err, "react run: --set jobs.0.pattern: field 'jobs.j.pattern': "
	                       "nowhere.json: cannot open");
	/* algorithm and pattern in one file */
	write_scenario(sc, "    algorithm: tree\n    pattern: cut.json\n");
	snprintf(want, sizeof want, "%s:6: field 'jobs.j.pattern': a job runs either a pattern "
	         "file or a generated algorithm, not both", sc);
	cr_assert_eq(react("run", sc, NULL), 2);
	assert_contains(g_err, want);
}

Test(pattern_file_e2e, sweep_column_shows_the_file_names)
{
	char w[4096], sc[4200], out[4200], p[4400];
	workdir("pf-e2e-sweep", w, sizeof w);
	snprintf(p, sizeof p, "%s/a.json", w);
	write_pattern(p, REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 8, 4000000, NULL, NULL);
	react_rank_t perm[8] = {1, 0, 2, 3, 4, 5, 7, 6};
	snprintf(p, sizeof p, "%s/b.json", w);
	write_pattern(p, REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 8, 4000000, perm, NULL);
	snprintf(sc, sizeof sc, "%s/s.yaml", w);
	write_scenario(sc, "    pattern: [a.json, b.json]\n");
	snprintf(out, sizeof out, "%s/out", w);
	cr_assert_eq(react("sweep", sc, "-o", out, "-j", "1", "--quiet", "--no-plot", NULL), 0, "%s",
	             slurp(g_err));
	snprintf(p, sizeof p, "%s/runs.csv", out);
	assert_contains(p, "id,pattern,job,react,");
	assert_contains(p, "\nc0000,a.json,j,1,");
	assert_contains(p, "\nc0001,b.json,j,1,");
	/* a rerun finds both runs done */
	cr_assert_eq(react("sweep", sc, "-o", out, "--quiet", "--no-plot", NULL), 0);
	assert_contains(g_out, "0 run now, 2 already done");
}

/* The oracle's best pattern, run through `pattern:` on the same
 * configuration (same seed, placement, congestion and ECMP draws), gives the
 * oracle's algbw: the printed oracle_mean_gbps equals the run's baseline
 * mean (both %.6f of the same double; tests/oracle checks the doubles). */
Test(pattern_file_e2e, oracle_pattern_gives_the_oracle_algbw)
{
	char w[4096], sc[4200], od[4200], out[4200], set[4400], p[4400];
	workdir("pf-e2e-oracle", w, sizeof w);
	snprintf(sc, sizeof sc, "%s/s.yaml", w);
	write_text(sc, "seed: 4\n"
	               "topology: {type: fattree, k: 4}\n"
	               "jobs:\n"
	               "  - {name: t, ranks: 5, algorithm: tree, message: 4MB, epochs: 30,\n"
	               "     warmup: 6}\n"
	               "congestion:\n"
	               "  degraded_links: {count: 8, rate: 30Gbps}\n");
	snprintf(od, sizeof od, "%s/oracle", w);
	cr_assert_eq(react("oracle", sc, "-o", od, "--quiet", NULL), 0, "%s", slurp(g_err));
	snprintf(set, sizeof set, "jobs.0.pattern=%s/oracle-t.json", od);
	snprintf(out, sizeof out, "%s/run", w);
	cr_assert_eq(react("run", sc, "--set", set, "--set", "jobs.0.react=false", "-o", out,
	                   "--quiet", NULL), 0, "%s", slurp(g_err));
	snprintf(p, sizeof p, "%s/oracle.csv", od);
	char *oc = slurp(p);
	snprintf(p, sizeof p, "%s/runs/c0000/summary.csv", out);
	char *sm = slurp(p);
	/* oracle.csv: fingerprint,job,react,baseline,oracle,...; summary.csv:
	 * id,job,react,baseline,... */
	char ob[32] = "", oo[32] = "", sb[32] = "";
	const char *l = strchr(oc, '\n');
	cr_assert(l && sscanf(l + 1, "%*[^,],%*[^,],%*[^,],%31[^,],%31[^,],", ob, oo) == 2, "%s", oc);
	l = strchr(sm, '\n');
	cr_assert(l && sscanf(l + 1, "%*[^,],%*[^,],%*[^,],%31[^,],", sb) == 1, "%s", sm);
	cr_assert_str_eq(sb, oo, "the oracle's pattern as a fixed pattern: %s GB/s, the oracle "
	                 "said %s GB/s (baseline %s)", sb, oo, ob);
	cr_assert_str_neq(oo, ob, "the oracle should beat the generated pattern here");
	free(oc);
	free(sm);
}

/* The gpu backend (host transport) runs a job's pattern file: the baseline's
 * every epoch has the file's pattern hash; ecmp_seed is refused there. */
Test(pattern_file_e2e, gpu_host_transport)
{
	char w[4096], sc[4200], pf[4200], out[4200], p[4400];
	react_pattern_t *pat = NULL;
	workdir("pf-e2e-gpu", w, sizeof w);
	snprintf(pf, sizeof pf, "%s/r4.json", w);
	react_rank_t perm[4] = {2, 0, 3, 1};
	write_pattern(pf, REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 4, 400000, perm, &pat);
	snprintf(sc, sizeof sc, "%s/g.yaml", w);
	write_text(sc, "backend: gpu\n"
	               "gpu: {transport: host}\n"
	               "jobs:\n"
	               "  - {name: j, pattern: r4.json, epochs: 4, warmup: 1}\n");
	snprintf(out, sizeof out, "%s/out", w);
	cr_assert_eq(react("run", sc, "-o", out, "--quiet", NULL), 0, "%s", slurp(g_err));
	assert_contains(g_out, "job j: 4 ranks, allreduce ring from pattern file r4.json");
	char hash[32];
	snprintf(hash, sizeof hash, ",%016llx,", (unsigned long long)react_pattern_hash(pat));
	snprintf(p, sizeof p, "%s/runs/c0000/epochs.csv", out);
	char *e = slurp(p);
	int n = 0;
	for (char *l = strstr(e, "\nbaseline,"); l; l = strstr(l + 1, "\nbaseline,")) {
		char row[512];
		snprintf(row, sizeof row, "%s", l + 1);
		char *end = strchr(row, '\n');
		if (end)
			*end = 0;
		cr_assert(strstr(row, hash), "baseline row without the file's pattern: %s", row);
		n++;
	}
	cr_assert_eq(n, 4, "%s", e);
	free(e);
	react_pattern_destroy(pat);
	cr_assert_eq(react("run", sc, "--set", "ecmp_seed=3", NULL), 2);
	assert_contains(g_err, "field 'ecmp_seed': the gpu backend has no ECMP paths");
}
