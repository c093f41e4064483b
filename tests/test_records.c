/* test_records.c: the perf_records.jsonl reader and its schema checks. */
#include "testlib.h"
#include "io/records.h"

#define V1 "{\"round\": 0, \"candidate_id\": \"baseline\", \"parent_id\": null, " \
	   "\"dispatch_path\": \"k::main\", \"workload\": \"w1\", \"duration_us\": 120.5, " \
	   "\"l0_pass\": true, \"msprof_raw_path\": \"p/\", \"timestamp\": \"2026-09-06T00:00:00Z\"}"
#define V2 "{\"round\": 1, \"candidate_id\": \"c1\", \"parent_id\": \"baseline\", " \
	   "\"kernel_id\": \"t.py::main\", \"workload_id\": \"w1\", \"phase\": \"candidate\", " \
	   "\"artifact_path\": \"t.py\", \"artifact_sha256\": \"ab\", \"duration_us\": 100, " \
	   "\"l0_pass\": false, \"msprof_raw_path\": \"x\", \"timestamp\": \"2026-09-06T00:00:00+08:00\", " \
	   "\"aicore_util\": 0.5}"

static void test_parse_v1_v2(void **state)
{
	(void)state;
	struct record r;
	char err[256];
	assert_int_equal(record_parse(V1, strlen(V1), 3, &r, err, sizeof(err)), 0);
	assert_int_equal(r.contract, RECORDS_V1);
	assert_int_equal(r.line, 3);
	assert_null(r.parent_id);
	assert_string_equal(r.dispatch, "k::main");
	assert_close(r.duration_us, 120.5, 0);
	assert_true(record_valid(&r));
	assert_true(isnan(r.aicore_util));
	record_release(&r);

	assert_int_equal(record_parse(V2, strlen(V2), 1, &r, err, sizeof(err)), 0);
	assert_int_equal(r.contract, RECORDS_V2);
	assert_string_equal(r.phase, "candidate");
	assert_string_equal(r.workload, "w1");
	assert_false(record_valid(&r)); /* l0_pass false */
	assert_close(r.aicore_util, 0.5, 0);
	record_release(&r);
}

static void expect_bad(const char *line, const char *want)
{
	struct record r;
	char err[256];
	assert_int_equal(record_parse(line, strlen(line), 1, &r, err, sizeof(err)), -1);
	if (!strstr(err, want)) {
		print_error("message '%s' lacks '%s'\n", err, want);
		fail();
	}
}

static void test_schema_errors(void **state)
{
	(void)state;
	expect_bad("not-json", "not valid JSON");
	expect_bad("[1,2]", "not a JSON object");
	expect_bad("{\"round\": 0, \"candidate_id\": \"x\"}", "missing required field");
	expect_bad("{\"round\": 0, \"candidate_id\": \"b\", \"dispatch_path\": \"d\", \"workload\": \"w\", "
		   "\"duration_us\": \"fast\", \"l0_pass\": true, \"timestamp\": \"2026-01-01\"}",
		   "'duration_us' must be a number");
	expect_bad("{\"round\": 0, \"candidate_id\": \"b\", \"dispatch_path\": \"d\", \"workload\": \"w\", "
		   "\"duration_us\": -0.0, \"l0_pass\": true, \"timestamp\": \"2026-01-01\"}",
		   "finite number > 0");
	expect_bad("{\"round\": 0, \"candidate_id\": \"b\", \"dispatch_path\": \"d\", \"workload\": \"w\", "
		   "\"duration_us\": 1e999, \"l0_pass\": true, \"timestamp\": \"2026-01-01\"}",
		   "finite number > 0");
	expect_bad("{\"round\": 1.5, \"candidate_id\": \"b\"}", "'round' must be an integer");
	expect_bad("{\"round\": -1, \"candidate_id\": \"b\"}", "'round' must be an integer");
	expect_bad("{\"round\": 0, \"candidate_id\": \"b\", \"dispatch_path\": \"d\", \"workload\": \"w\", "
		   "\"duration_us\": 1, \"l0_pass\": 1, \"timestamp\": \"2026-01-01\"}",
		   "'l0_pass' must be a boolean");
	expect_bad("{\"round\": 0, \"candidate_id\": \"b\", \"dispatch_path\": \"d\", \"workload\": \"w\", "
		   "\"duration_us\": 1, \"l0_pass\": true, \"timestamp\": \"yesterday\"}",
		   "not ISO 8601");
	expect_bad("{\"round\": 0, \"round\": 1}", "duplicate key 'round'");
	expect_bad("{\"round\": 0, \"candidate_id\": \"\xff\"}", "invalid UTF-8");
	/* v2 needs parent_id present (string or null) and a known phase */
	expect_bad("{\"round\": 0, \"candidate_id\": \"b\", \"kernel_id\": \"k\", \"workload_id\": \"w\"}",
		   "'parent_id'");
}

static void test_iso8601(void **state)
{
	(void)state;
	assert_true(records_is_iso8601("2026-09-06"));
	assert_true(records_is_iso8601("2026-09-06T00:01:02Z"));
	assert_true(records_is_iso8601("2026-09-06T00:01:02.123+08:00"));
	assert_true(records_is_iso8601("2026-09-06 00:01"));
	assert_false(records_is_iso8601("2026-13-06"));
	assert_false(records_is_iso8601("2026-09-06T25:00:00Z"));
	assert_false(records_is_iso8601("2026-09-06T00:00:00Zjunk"));
}

static void test_load_buffer(void **state)
{
	(void)state;
	const char buf[] = "\xEF\xBB\xBF" V1 "\r\n\n" "not-json\n" V2;
	struct records rs;
	struct records_problems ps;
	records_init(&rs);
	records_problems_init(&ps);
	assert_int_equal(records_load_buffer(buf, sizeof(buf) - 1, &rs, &ps), 0);
	assert_int_equal(rs.n, 2);
	assert_int_equal(rs.v[0].line, 1);
	assert_int_equal(rs.v[1].line, 4);
	assert_int_equal(ps.n, 1);
	assert_int_equal(ps.v[0].line, 3);
	/* one v1 and one v2: ties go to v1 */
	assert_int_equal(rs.contract, RECORDS_V1);
	records_release(&rs);
	records_problems_release(&ps);
}

static void test_load_file_long_line(void **state)
{
	(void)state;
	char path[] = "/tmp/tlperf-records-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(V1 "\n", f);
	for (int i = 0; i < 1100 * 1024; i++)
		fputc('x', f);
	fputs("\n" V1 "\n", f);
	fclose(f);
	struct records rs;
	struct records_problems ps;
	records_init(&rs);
	records_problems_init(&ps);
	assert_int_equal(records_load(path, &rs, &ps), 0);
	assert_int_equal(rs.n, 2);
	assert_int_equal(rs.v[1].line, 3);
	assert_int_equal(ps.n, 1);
	assert_int_equal(ps.v[0].line, 2);
	assert_non_null(strstr(ps.v[0].message, "longer than"));
	records_release(&rs);
	records_problems_release(&ps);
	unlink(path);
	assert_int_equal(records_load("/nonexistent/x.jsonl", &rs, &ps), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_v1_v2),
		cmocka_unit_test(test_schema_errors),
		cmocka_unit_test(test_iso8601),
		cmocka_unit_test(test_load_buffer),
		cmocka_unit_test(test_load_file_long_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
