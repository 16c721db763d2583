/* test_io.c - pattern files round-trip; bad files fail naming file, field
 * and reason; size/rate/time parsing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "react/generators.h"
#include "react/pattern_io.h"
#include "react/units.h"

static char dir[64];

static void mkdir_tmp(void)
{
	strcpy(dir, "/tmp/react-test-io-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void rm_tmp(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	(void)system(cmd);
}

TestSuite(io, .init = mkdir_tmp, .fini = rm_tmp);

Test(io, round_trip_every_generator)
{
	static const struct { react_collective_t c; react_algorithm_t a; } g[] = {
		{REACT_COLL_ALLREDUCE, REACT_ALGO_TREE}, {REACT_COLL_ALLREDUCE, REACT_ALGO_RING},
		{REACT_COLL_ALLREDUCE, REACT_ALGO_RHD},  {REACT_COLL_ALLGATHER, REACT_ALGO_RING},
		{REACT_COLL_ALLGATHER, REACT_ALGO_RECDBL},
	};
	char path[128], err[512];
	snprintf(path, sizeof path, "%s/p.json", dir);
	for (size_t k = 0; k < sizeof g / sizeof g[0]; k++)
		for (int n = 2; n <= 14; n += 3) {
			react_pattern_t *p = NULL, *q = NULL;
			cr_assert_eq(react_pattern_generate(g[k].c, g[k].a, n, 20000000, &p), REACT_OK);
			cr_assert_eq(react_pattern_write_json_path(p, path, err, sizeof err), REACT_OK, "%s", err);
			cr_assert_eq(react_pattern_read_json(path, &q, err, sizeof err), REACT_OK, "%s", err);
			cr_assert(react_pattern_equal(p, q), "%s/%s N=%d differs after a round trip",
			          react_collective_name(g[k].c), react_algorithm_name(g[k].a), n);
			cr_assert_eq(react_pattern_hash(p), react_pattern_hash(q));
			react_pattern_destroy(p);
			react_pattern_destroy(q);
		}
	/* no temp file left behind */
	char cmd[160];
	snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1", dir);
	cr_assert_eq(system(cmd), 0);
}

static void expect_bad(const char *body, react_status_t want, const char *needle)
{
	char path[128], err[512];
	react_pattern_t *p = NULL;
	snprintf(path, sizeof path, "%s/bad.json", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(body, f);
	fclose(f);
	react_status_t st = react_pattern_read_json(path, &p, err, sizeof err);
	cr_assert_eq(st, want, "status %d for %s (%s)", st, body, err);
	cr_assert_null(p);
	cr_assert(strstr(err, path) != NULL, "error does not name the file: %s", err);
	cr_assert(strstr(err, needle) != NULL, "error '%s' lacks '%s'", err, needle);
}

#define HDR(coll) "{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"" coll "\",\"algorithm\":\"custom\"," \
	"\"ranks\":4,\"chunks\":1,\"message_bytes\":100,\"root\":null,\"flows\":"

Test(io, bad_inputs)
{
	expect_bad("{\"format\":\"react-pattern\",", REACT_EPARSE, "malformed JSON");
	expect_bad(HDR("alltoall") "[]}", REACT_EPARSE, "unknown collective");
	expect_bad(HDR("allgather") "[[0,0,4,0,1,25,\"store\"]]}", REACT_EPARSE, "flows[0][2]");
	expect_bad(HDR("allgather") "[[0,0,4,0,1,25,\"store\"]]}", REACT_EPARSE, "rank 4 out of range");
	expect_bad(HDR("allgather") "[[0,0,1,0,1,-25,\"store\"]]}", REACT_EPARSE, "negative size");
	expect_bad(HDR("allgather") "[[0,0,1,0,1,25,\"add\"]]}", REACT_EPARSE, "bad op");
	expect_bad(HDR("allgather") "[[0,0,1,0,1,25,\"store\"],[0,1,2,0,2,25,\"store\"]]}", REACT_EPARSE,
	           "flows[1][4]");
	expect_bad(HDR("allgather") "[[0,0,1,0,1,25]]}", REACT_EPARSE, "flows[0]");
	expect_bad(HDR("allgather") "[[1,0,1,0,1,25,\"store\"],[0,1,2,0,1,25,\"store\"]]}", REACT_EPARSE,
	           "sorted");
	expect_bad("{\"format\":\"other\"}", REACT_EPARSE, "\"format\"");
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\",\"algorithm\":\"ring\","
	           "\"ranks\":0,\"chunks\":1,\"message_bytes\":1,\"flows\":[]}",
	           REACT_EPARSE, "\"ranks\"");
	/* broadcast from 0: rank 2 forwards at step 0 before it has anything */
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"broadcast\",\"algorithm\":\"custom\","
	           "\"ranks\":4,\"chunks\":1,\"message_bytes\":100,\"root\":0,\"flows\":"
	           "[[0,0,1,0,1,100,\"store\"],[0,2,3,0,1,100,\"store\"],[1,0,2,0,1,100,\"store\"]]}",
	           REACT_ESEMANTIC, "flows[1]");
}

Test(io, unreadable_file)
{
	char err[256];
	react_pattern_t *p = NULL;
	cr_assert_eq(react_pattern_read_json("/nonexistent/x.json", &p, err, sizeof err), REACT_EIO);
	cr_assert(strstr(err, "/nonexistent/x.json") != NULL);
}

Test(io, units)
{
	uint64_t b;
	double d;
	cr_assert_eq(react_parse_bytes("20MB", &b), REACT_OK);
	cr_assert_eq(b, 20000000);
	cr_assert_eq(react_parse_bytes("20MiB", &b), REACT_OK);
	cr_assert_eq(b, 20971520);
	cr_assert_eq(react_parse_bytes("1KB", &b), REACT_OK);
	cr_assert_eq(b, 1000);
	cr_assert_eq(react_parse_bytes("1kB", &b), REACT_OK);
	cr_assert_eq(b, 1000);
	cr_assert_eq(react_parse_bytes("4096B", &b), REACT_OK);
	cr_assert_eq(b, 4096);
	cr_assert_eq(react_parse_bytes("1.5KiB", &b), REACT_OK);
	cr_assert_eq(b, 1536);
	cr_assert_eq(react_parse_bytes("1GiB", &b), REACT_OK);
	cr_assert_eq(b, 1073741824);
	cr_assert_eq(react_parse_bytes("-1B", &b), REACT_EINVAL);
	cr_assert_eq(react_parse_bytes("12XB", &b), REACT_EINVAL);
	cr_assert_eq(react_parse_bytes("", &b), REACT_EINVAL);
	cr_assert_eq(react_parse_bytes("0.5B", &b), REACT_EINVAL);
	cr_assert_eq(react_parse_bytes("0x10B", &b), REACT_EINVAL);
	cr_assert_eq(react_parse_rate_bps("100Gbps", &d), REACT_OK);
	cr_assert_float_eq(d, 100e9, 1);
	cr_assert_eq(react_parse_rate_bps("10GBps", &d), REACT_OK);
	cr_assert_float_eq(d, 80e9, 1);
	cr_assert_eq(react_parse_rate_bps("12.5GB/s", &d), REACT_OK);
	cr_assert_float_eq(d, 100e9, 1);
	cr_assert_eq(react_parse_rate_bps("100", &d), REACT_EINVAL);
	cr_assert_eq(react_parse_rate_bps("100gbps", &d), REACT_EINVAL);
	cr_assert_eq(react_parse_time_s("1us", &d), REACT_OK);
	cr_assert_float_eq(d, 1e-6, 1e-15);
	cr_assert_eq(react_parse_time_s("2.5ms", &d), REACT_OK);
	cr_assert_float_eq(d, 2.5e-3, 1e-12);
	cr_assert_eq(react_parse_time_s("0", &d), REACT_OK);
	cr_assert_eq(d, 0);
	cr_assert_eq(react_parse_time_s("3 s", &d), REACT_EINVAL);
}

/* A unit is required where one is meaningful, and bits are not bytes. */
Test(io, units_are_required_and_bits_are_not_bytes)
{
	uint64_t b = 7;
	double d = 7;
	char why[160];
	cr_assert_eq(react_parse_bytes("4096", &b), REACT_EINVAL);
	cr_assert_eq(react_parse_bytes("1Gb", &b), REACT_EINVAL, "1Gb is a gigabit, not a gigabyte");
	cr_assert_eq(react_parse_bytes("8b", &b), REACT_EINVAL);
	cr_assert_eq(react_parse_bytes("1K", &b), REACT_EINVAL, "K alone: bits or bytes?");
	cr_assert_eq(react_parse_bytes("1mB", &b), REACT_EINVAL, "m is milli");
	cr_assert_eq(b, 7, "out untouched on failure");
	cr_assert_eq(react_parse_rate_bps("100", &d), REACT_EINVAL);
	cr_assert_eq(react_parse_time_s("1", &d), REACT_EINVAL);
	cr_assert_eq(react_parse_time_s("1.5", &d), REACT_EINVAL);
	cr_assert_eq(d, 7, "out untouched on failure");
	cr_assert_str_eq(react_units_why(REACT_UNIT_BYTES, "1Gb", why, sizeof why),
	                 "'1Gb' is in bits; sizes are in bytes (B, e.g. 1GB = 10^9 bytes)");
	cr_assert_str_eq(react_units_why(REACT_UNIT_BYTES, "4096", why, sizeof why), "'4096' has no unit");
	cr_assert_str_eq(react_units_why(REACT_UNIT_RATE, "100", why, sizeof why), "'100' has no unit");
	cr_assert_str_eq(react_units_why(REACT_UNIT_TIME, "1", why, sizeof why), "'1' has no unit");
	cr_assert_str_eq(react_units_why(REACT_UNIT_RATE, "100Gbs", why, sizeof why),
	                 "unknown rate unit 'Gbs'");
	cr_assert_str_eq(react_units_why(REACT_UNIT_BYTES, "0.5B", why, sizeof why),
	                 "'0.5B' is not a whole number of bytes");
	cr_assert_str_eq(react_units_why(REACT_UNIT_TIME, "1us", why, sizeof why), "");
}

/* A tiny file must not make the reader allocate for sizes its flows do
 * not have: every limit names its field. */
Test(io, sizes_are_limited_by_the_flows_in_the_file, .timeout = 10)
{
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	           "\"algorithm\":\"custom\",\"ranks\":60000,\"chunks\":1,\"message_bytes\":100,"
	           "\"root\":null,\"flows\":[[0,0,1,0,1,25,\"reduce\"],[1,1,0,0,1,25,\"store\"]]}",
	           REACT_EPARSE, "field \"ranks\": 60000 ranks but 2 flows; every rank but one must "
	           "send or receive, so at most 3 ranks");
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	           "\"algorithm\":\"custom\",\"ranks\":100000,\"chunks\":1,\"message_bytes\":100,"
	           "\"root\":null,\"flows\":[[0,0,1,0,1,25,\"reduce\"],[1,1,0,0,1,25,\"store\"]]}",
	           REACT_EPARSE, "field \"ranks\": 100000 out of range [1, 65536]");
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	           "\"algorithm\":\"custom\",\"ranks\":1000000,\"chunks\":1,\"message_bytes\":100,"
	           "\"root\":null,\"flows\":[]}",
	           REACT_EPARSE, "field \"ranks\": 1000000 out of range [1, 65536]");
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	           "\"algorithm\":\"custom\",\"ranks\":2,\"chunks\":16000000,\"message_bytes\":100,"
	           "\"root\":null,\"flows\":[[0,0,1,0,1,25,\"reduce\"],[1,1,0,0,1,25,\"store\"]]}",
	           REACT_EPARSE, "field \"chunks\": 16000000 chunks but the flows carry 2 "
	           "chunk-transfers in all; every chunk must be moved by some flow, so at most 2 chunks");
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	           "\"algorithm\":\"custom\",\"ranks\":2,\"chunks\":1,\"message_bytes\":100,"
	           "\"root\":null,\"flows\":[[0,0,1,0,1,25,\"reduce\"],[2000000000,1,0,0,1,25,\"store\"]]}",
	           REACT_EPARSE, "flows[1][0] (step): 2000000000 is not a step in [0, 2)");
	expect_bad("{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allreduce\","
	           "\"algorithm\":\"custom\",\"ranks\":2,\"chunks\":99999999,\"message_bytes\":100,"
	           "\"root\":null,\"flows\":[[0,0,1,0,99999999,25,\"reduce\"]]}",
	           REACT_EPARSE, "field \"chunks\": 99999999 out of range [1, 16777216]");
}

/* Within every per-field limit, the memory the index and the check need
 * is bounded too: 40000 ranks, each sending its own chunk. */
Test(io, memory_for_the_check_is_limited, .timeout = 20)
{
	char path[128], err[512];
	react_pattern_t *p = NULL;
	const int n = 40000;
	snprintf(path, sizeof path, "%s/wide.json", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "{\"format\":\"react-pattern\",\"version\":1,\"collective\":\"allgather\","
	           "\"algorithm\":\"custom\",\"ranks\":%d,\"chunks\":%d,\"message_bytes\":%d,"
	           "\"root\":null,\"flows\":[", n, n, n);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s[0,%d,%d,%d,1,1,\"store\"]", i ? "," : "", i, (i + 1) % n, i);
	fputs("]}\n", f);
	fclose(f);
	cr_assert_eq(react_pattern_read_json(path, &p, err, sizeof err), REACT_EPARSE, "%s", err);
	cr_assert_null(p);
	cr_assert(strstr(err, "wide.json: fields \"ranks\" x \"chunks\": 40000 ranks x 40000 chunks "
	                      "over 1 steps need about 8e+03 GB to index and check (at most 4 GB)"),
	          "%s", err);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#include <sys/resource.h>

/* Out of memory (an address-space limit): the error names the file and
 * what ran out, never an empty message. */
Test(io, out_of_memory_is_named, .timeout = 30)
{
#ifdef UNDER_ASAN
	cr_skip_test("an address-space limit and AddressSanitizer's shadow memory do not mix");
#else
	char path[128], err[512] = "";
	react_pattern_t *p = NULL, *q = NULL;
	snprintf(path, sizeof path, "%s/ring.json", dir);
	cr_assert_eq(react_pattern_generate(REACT_COLL_ALLREDUCE, REACT_ALGO_RING, 256, 1 << 20, &p),
	             REACT_OK);
	cr_assert_eq(react_pattern_write_json_path(p, path, err, sizeof err), REACT_OK, "%s", err);
	react_pattern_destroy(p);
	/* the address space now plus 24 MB: reading 130560 flows needs more */
	long pages = 0;
	FILE *sm = fopen("/proc/self/statm", "r");
	cr_assert_not_null(sm);
	cr_assert_eq(fscanf(sm, "%ld", &pages), 1);
	fclose(sm);
	struct rlimit rl = {0};
	rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (24u << 20);
	cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0);
	react_status_t st = react_pattern_read_json(path, &q, err, sizeof err);
	cr_assert_eq(st, REACT_ENOMEM, "status %s: %s", react_status_str(st), err);
	cr_assert_null(q);
	cr_assert(strstr(err, path) == err, "error does not start with the file: '%s'", err);
	cr_assert(strstr(err, "out of memory") || strstr(err, "cannot hold"), "'%s'", err);
#endif
}
