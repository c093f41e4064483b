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
	struct records rs;
	char err[256];
	records_init(&rs);
	assert_int_equal(records_parse_one(V1, strlen(V1), 3, &rs, err, sizeof(err)), 0);
	struct record r = rs.v[0];
	assert_int_equal(r.contract, RECORDS_V1);
	assert_int_equal(r.line, 3);
	assert_null(r.parent_id);
	assert_string_equal(r.dispatch, "k::main");
	assert_close(r.duration_us, 120.5, 0);
	assert_true(record_valid(&r));
	assert_true(isnan(r.aicore_util));

	assert_int_equal(records_parse_one(V2, strlen(V2), 1, &rs, err, sizeof(err)), 0);
	r = rs.v[1];
	assert_int_equal(r.contract, RECORDS_V2);
	assert_string_equal(r.phase, "candidate");
	assert_string_equal(r.workload, "w1");
	assert_false(record_valid(&r)); /* l0_pass false */
	assert_close(r.aicore_util, 0.5, 0);
	records_release(&rs);
}

static void expect_bad(const char *line, const char *want)
{
	struct records rs;
	char err[256];
	records_init(&rs);
	assert_int_equal(records_parse_one(line, strlen(line), 1, &rs, err, sizeof(err)), -1);
	assert_int_equal(rs.n, 0);
	records_release(&rs);
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

/* Issue 13 item 7: strict JSONL. */
static void test_strict_jsonl(void **state)
{
	(void)state;
	/* two objects on a line: the second is not silently dropped */
	expect_bad(V1 V1, "trailing content after the JSON object");
	expect_bad(V1 " x", "trailing content");
	expect_bad("[1] 2", "trailing content after the JSON value");
	/* \u0000 would cut an id short */
	expect_bad("{\"round\": 0, \"candidate_id\": \"a\\u0000b\"}", "\\u0000 in a string");
	expect_bad("{\"round\": 0, \"x\": [\"\\u0000\"]}", "\\u0000 in a string");
	/* a lone surrogate, a raw control character, a bad escape */
	expect_bad("{\"round\": 0, \"candidate_id\": \"\\udc00\"}", "surrogate");
	expect_bad("{\"round\": 0, \"candidate_id\": \"a\tb\"}", "control character");
	expect_bad("{\"round\": 0, \"candidate_id\": \"\\q\"}", "bad escape");
	/* a CR inside a line */
	expect_bad("{\"round\": 0}\r{\"round\": 1}", "carriage return inside the line");
	/* nesting is bounded */
	char deep[2 * RECORDS_MAX_DEPTH + 32];
	size_t n = (size_t)snprintf(deep, sizeof(deep), "{\"x\": ");
	for (int i = 0; i <= RECORDS_MAX_DEPTH; i++)
		deep[n++] = '[';
	deep[n] = '\0';
	expect_bad(deep, "nested too deep");
}

/* V1 with one more field, "extra": value (value taken as it is). */
static const char *with_extra(const char *value, char *buf, size_t len)
{
	const char v1[] = V1;
	snprintf(buf, len, "%.*s, \"extra\": %s}", (int)(sizeof(v1) - 2), v1, value);
	return buf;
}

/* skip_nested's steps: nest_value (empty levels closed at once, the
 * depth bound reached exactly), nest_after (',' or the level's own close)
 * and nest_member (an object's key and ':', the end of the line). */
static void test_nested_steps(void **state)
{
	(void)state;
	char line[1024];
	static const char *const good[] = { "{}", "[]", "[[]]", "{\"a\":[1,{\"b\":null}],\"c\":\"x\"}",
					    "[ 1 , [ 2 , { \"x\" : [ ] } ] ]", "{\"\":{}}",
					    "[true,false,null,\"s\"]" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct records rs;
		char err[256];
		records_init(&rs);
		with_extra(good[i], line, sizeof(line));
		assert_int_equal(records_parse_one(line, strlen(line), 1, &rs, err, sizeof(err)), 0);
		assert_int_equal(rs.n, 1);
		assert_true(rs.v[0].duration_us == 120.5);
		records_release(&rs);
	}
	/* a value nested RECORDS_MAX_DEPTH levels deep is read, one more is not */
	char deep[2 * RECORDS_MAX_DEPTH + 4];
	struct records rs;
	char err[256];
	for (int levels = RECORDS_MAX_DEPTH; levels <= RECORDS_MAX_DEPTH + 1; levels++) {
		for (int i = 0; i < levels; i++)
			deep[i] = '[', deep[2 * levels - 1 - i] = ']';
		deep[2 * levels] = '\0';
		with_extra(deep, line, sizeof(line));
		records_init(&rs);
		int rc = records_parse_one(line, strlen(line), 1, &rs, err, sizeof(err));
		records_release(&rs);
		assert_int_equal(rc, levels == RECORDS_MAX_DEPTH ? 0 : -1);
	}
	assert_non_null(strstr(err, "values nested too deep"));
	expect_bad(with_extra("[[]", line, sizeof(line)), "expected ',' or the end of an object or array");
	expect_bad(with_extra("[1 2]", line, sizeof(line)), "expected ',' or the end of an object or array");
	expect_bad(with_extra("[1}", line, sizeof(line)), "expected ',' or the end of an object or array");
	expect_bad(with_extra("{a:1}", line, sizeof(line)), "expected a key");
	expect_bad(with_extra("{\"a\",1}", line, sizeof(line)), "expected ':'");
	expect_bad(with_extra("[1,]", line, sizeof(line)), "unexpected character");
	expect_bad("{\"round\": 0, \"x\": {\"a\":", "unexpected end of line");
	expect_bad("{\"round\": 0, \"x\": [1,", "unexpected end of line");
}

/* A CR-only file reads as one line and is refused as such, never as a
 * record. */
static void test_cr_only_file(void **state)
{
	(void)state;
	const char buf[] = V1 "\r" V1 "\r" V1 "\r";
	struct records rs;
	struct records_problems ps;
	records_init(&rs);
	records_problems_init(&ps);
	assert_int_equal(records_load_buffer(buf, sizeof(buf) - 1, &rs, &ps), 0);
	assert_int_equal(rs.n, 0);
	assert_int_equal(ps.n, 1);
	assert_int_equal(ps.v[0].line, 1);
	assert_non_null(strstr(ps.v[0].message, "CR-only line endings"));
	records_release(&rs);
	records_problems_release(&ps);
}

/* Issue 13 item 3: a line of 74,000 keys; the duplicate is found (the
 * check is a hash set: linear; `make bench` measures the time). */
static void test_many_keys(void **state)
{
	(void)state;
	size_t cap = 74000 * 16 + 512, n = 0;
	char *line = malloc(cap);
	assert_non_null(line);
	line[n++] = '{';
	for (int i = 0; i < 74000; i++)
		n += (size_t)snprintf(line + n, cap - n, "\"k%d\":1,", i);
	const char *tail = "\"round\": 0, \"candidate_id\": \"b\", \"dispatch_path\": \"d\", "
			   "\"workload\": \"w\", \"duration_us\": 1, \"l0_pass\": true, "
			   "\"timestamp\": \"2026-01-01\"}";
	size_t base = n;
	n += (size_t)snprintf(line + n, cap - n, "%s", tail);
	assert_true(n < RECORDS_LINE_MAX);
	struct records rs;
	char err[256];
	records_init(&rs);
	assert_int_equal(records_parse_one(line, n, 1, &rs, err, sizeof(err)), 0);
	/* the same with one key repeated near the end */
	n = base + (size_t)snprintf(line + base, cap - base, "\"k73990\":2,%s", tail);
	assert_int_equal(records_parse_one(line, n, 1, &rs, err, sizeof(err)), -1);
	assert_string_equal(err, "duplicate key 'k73990'");
	/* escaped spelling of a known key is the same key */
	expect_bad("{\"round\": 0, \"\\u0072ound\": 1}", "duplicate key 'round'");
	expect_bad("{\"a\\/b\": 0, \"a/b\": 1}", "duplicate key 'a/b'");
	assert_int_equal(rs.n, 1);
	records_release(&rs);
	free(line);
}

/* Time stamps as intervals: the precision written, the zone or none. */
static void test_time_parse(void **state)
{
	(void)state;
	struct records_time t, u;
	/* 2026-10-01T08:00:00Z is 1790841600 s after 1970 */
	assert_int_equal(records_time_parse("2026-10-01T08:00:00Z", &t), 0);
	assert_true(t.lo == 1790841600LL && t.hi == t.lo && t.zoned && t.precise);
	assert_int_equal(records_time_parse("2026-10-01T16:00:00+08:00", &u), 0);
	assert_true(u.lo == t.lo && u.zoned);
	assert_int_equal(records_time_parse("2026-10-01T02:30:00-0530", &u), 0);
	assert_true(u.lo == t.lo);
	assert_int_equal(records_time_parse("2026-10-01 08:00:00.250Z", &u), 0);
	assert_true(u.lo == t.lo && u.frac_ns == 250000000L);
	/* hh:mm covers its minute, a date its day; no zone: not zoned */
	assert_int_equal(records_time_parse("2026-10-01T08:00Z", &u), 0);
	assert_true(u.lo == t.lo && u.hi == t.lo + 59 && !u.precise);
	assert_int_equal(records_time_parse("2026-10-01", &u), 0);
	assert_true(u.lo == t.lo - 8 * 3600 && u.hi == u.lo + 86399 && !u.zoned);
	/* leap years and the epoch */
	assert_int_equal(records_time_parse("2024-02-29T00:00:00Z", &u), 0);
	assert_true(u.lo == 1709164800LL);
	assert_int_equal(records_time_parse("1970-01-01T00:00:00Z", &u), 0);
	assert_true(u.lo == 0);
	assert_int_equal(records_time_parse("2026-13-01T00:00:00Z", &u), -1);
	assert_int_equal(records_time_parse("yesterday", &u), -1);
}

/* "Certainly before": precision, zones and unzoned stamps. */
static void test_time_before(void **state)
{
	(void)state;
	struct records_time a, b;
	records_time_parse("2026-10-01T08:00:00Z", &a);
	records_time_parse("2026-10-01T08:00:01Z", &b);
	assert_true(records_time_before(&a, &b));
	assert_false(records_time_before(&b, &a));
	assert_false(records_time_before(&a, &a));
	/* fractions of one second */
	records_time_parse("2026-10-01T08:00:00.1Z", &a);
	records_time_parse("2026-10-01T08:00:00.2Z", &b);
	assert_true(records_time_before(&a, &b));
	/* a minute-precision stamp overlaps the seconds inside it */
	records_time_parse("2026-10-01T08:00Z", &a);
	records_time_parse("2026-10-01T08:00:30Z", &b);
	assert_false(records_time_before(&a, &b));
	assert_false(records_time_before(&b, &a));
	/* unzoned against zoned: 14 hours either way cannot be told */
	records_time_parse("2026-10-01T08:00:00", &a);
	records_time_parse("2026-10-01T20:00:00Z", &b);
	assert_false(records_time_before(&a, &b));
	records_time_parse("2026-10-01T23:00:00Z", &b);
	assert_true(records_time_before(&a, &b));
	/* two unzoned stamps: one writer's clock */
	records_time_parse("2026-10-01T09:00:00", &b);
	assert_true(records_time_before(&a, &b));
	/* the same instant in two zones is not before itself */
	records_time_parse("2026-10-01T08:00:00Z", &a);
	records_time_parse("2026-10-01T16:00:00+08:00", &b);
	assert_false(records_time_before(&a, &b));
	assert_false(records_time_before(&b, &a));
}

/* Ids are interned once per set; the reader streams records whose other
 * strings live until the next line. */
static void test_interned_and_streamed(void **state)
{
	(void)state;
	const char buf[] = V1 "\n" V1 "\n\n" V2 "\n";
	struct records rs;
	records_init(&rs);
	assert_int_equal(records_load_buffer(buf, sizeof(buf) - 1, &rs, NULL), 0);
	assert_int_equal(rs.n, 3);
	assert_ptr_equal(rs.v[0].candidate_id, rs.v[1].candidate_id);
	assert_ptr_equal(rs.v[0].workload, rs.v[2].workload); /* "w1" in both contracts */
	assert_ptr_not_equal(rs.v[0].timestamp, rs.v[1].timestamp); /* copied, not interned */
	assert_string_equal(rs.v[1].timestamp, "2026-09-06T00:00:00Z");

	struct strpool ids;
	struct records_reader rd;
	struct record r;
	strpool_init(&ids);
	records_reader_buffer(&rd, buf, sizeof(buf) - 1, &ids);
	assert_int_equal(records_reader_next(&rd, &r), RECORDS_NEXT_RECORD);
	assert_string_equal(r.msprof_raw_path, "p/");
	const char *cand = r.candidate_id;
	assert_int_equal(records_reader_next(&rd, &r), RECORDS_NEXT_RECORD);
	assert_ptr_equal(r.candidate_id, cand);
	assert_int_equal(records_reader_next(&rd, &r), RECORDS_NEXT_BLANK);
	assert_int_equal(records_reader_next(&rd, &r), RECORDS_NEXT_RECORD);
	assert_int_equal(rd.line, 4);
	assert_int_equal(records_reader_next(&rd, &r), RECORDS_NEXT_EOF);
	assert_int_equal(rd.bytes, sizeof(buf) - 1);
	records_reader_close(&rd);
	assert_ptr_equal(strpool_find(&ids, "baseline", 8), cand);
	assert_null(strpool_find(&ids, "nope", 4));
	strpool_release(&ids);
	records_release(&rs);
}

/* Numbers: the exact fast path and strtod give the same doubles. */
static void test_numbers(void **state)
{
	(void)state;
	static const char *const nums[] = { "120.5", "0.1", "0.3", "100.000", "9007199254740993",
					    "123456789012345", "1.5e2", "2E-3", "-0.5", "0.000001",
					    "99999999999999.9", "1234567.8901234567" };
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		char line[512];
		snprintf(line, sizeof(line), "{\"round\": 0, \"candidate_id\": \"b\", \"dispatch_path\": \"d\", "
			 "\"workload\": \"w\", \"duration_us\": 1, \"l0_pass\": true, "
			 "\"timestamp\": \"2026-01-01\", \"aicore_util\": %s}", nums[i]);
		struct records rs;
		char err[256];
		records_init(&rs);
		assert_int_equal(records_parse_one(line, strlen(line), 1, &rs, err, sizeof(err)), 0);
		assert_true(rs.v[0].aicore_util == strtod(nums[i], NULL));
		records_release(&rs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_v1_v2),
		cmocka_unit_test(test_schema_errors),
		cmocka_unit_test(test_iso8601),
		cmocka_unit_test(test_load_buffer),
		cmocka_unit_test(test_load_file_long_line),
		cmocka_unit_test(test_strict_jsonl),
		cmocka_unit_test(test_nested_steps),
		cmocka_unit_test(test_cr_only_file),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_interned_and_streamed),
		cmocka_unit_test(test_time_parse),
		cmocka_unit_test(test_time_before),
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
