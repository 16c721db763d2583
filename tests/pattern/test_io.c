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
