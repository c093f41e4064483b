/* test_ab_source.c: --source parsing and the stdout / CSV duration readers. */
#include "testlib.h"
#include "io/ab_source.h"

static void test_parse_spec(void **state)
{
	(void)state;
	struct absource s;
	char err[256];
	assert_int_equal(absource_parse("msprof", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, ABSOURCE_MSPROF);
	assert_string_equal(absource_name(&s), "msprof");
	assert_int_equal(absource_parse("stdout", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, ABSOURCE_STDOUT);
	assert_int_equal(absource_parse("csv:out/*.csv:Duration (ns):x", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, ABSOURCE_CSV);
	assert_string_equal(s.glob, "out/*.csv");
	assert_string_equal(s.column, "Duration (ns):x");
	absource_release(&s);
	assert_int_equal(absource_parse("csv:only", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "csv:GLOB:COLUMN"));
	assert_int_equal(absource_parse("csv::col", &s, err, sizeof(err)), -1);
	assert_int_equal(absource_parse("csv:g:", &s, err, sizeof(err)), -1);
	assert_int_equal(absource_parse("nsys", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown --source 'nsys'"));
}

static void test_lines(void **state)
{
	(void)state;
	double *d = NULL;
	size_t n = 0;
	char err[256];
	const char *t = "# bench v1\n12.5\n\n  13.25\t\r\n14\n";
	assert_int_equal(absource_parse_durations(t, strlen(t), "out", &d, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_close(d[0], 12.5, 0);
	assert_close(d[1], 13.25, 0);
	assert_close(d[2], 14, 0);
	free(d);
	/* no trailing newline */
	assert_int_equal(absource_parse_durations("7", 1, "out", &d, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(d);
	const char *bad = "12.5\nwarm-up done\n";
	assert_int_equal(absource_parse_durations(bad, strlen(bad), "out", &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out:2:"));
	assert_null(d);
	assert_int_equal(absource_parse_durations("1\n-3\n", 5, "o", &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "o:2:"));
	assert_int_equal(absource_parse_durations("\n\n", 2, "o", &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no durations"));
	/* decimals only: strtod would read 0x10 as 16 us, inf and nan too */
	static const char *const notdec[] = { "0x10", "0x1p3", "inf", "nan", "1e999", "8.4\0009" };
	for (size_t i = 0; i < sizeof(notdec) / sizeof(notdec[0]); i++) {
		char text[64];
		size_t len = strlen(notdec[i]);
		if (i == 5)
			len = 6; /* "8.4", NUL, "9" plus the line end below */
		memcpy(text, "9.5\n", 4);
		memcpy(text + 4, notdec[i], len);
		text[4 + len] = '\n';
		assert_int_equal(absource_parse_durations(text, 5 + len, "out", &d, &n, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "out:2: '"));
		assert_non_null(strstr(err, "is not a duration in us"));
	}
}

static void test_json_array(void **state)
{
	(void)state;
	double *d = NULL;
	size_t n = 0;
	char err[256];
	const char *t = "  [8.5, 9, 1e1]\n";
	assert_int_equal(absource_parse_durations(t, strlen(t), "o", &d, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_close(d[2], 10, 0);
	free(d);
	const char *bad = "[8.5, \"x\"]";
	assert_int_equal(absource_parse_durations(bad, strlen(bad), "o", &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "element 1"));
	assert_int_equal(absource_parse_durations("[1,", 3, "o", &d, &n, err, sizeof(err)), -1);
}

/* parse_duration_line: line numbers count blank and comment lines, a
 * line of 128 bytes or more is refused as such, a NUL byte shows as '?'. */
static void test_line_steps(void **state)
{
	(void)state;
	double *d = NULL;
	size_t n = 0;
	char err[256], text[300];
	const char *t = "\r\n# c\n\t# indented comment\n3\n";
	assert_int_equal(absource_parse_durations(t, strlen(t), "o", &d, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(d);
	memset(text, '1', 200);
	memcpy(text, "1\n", 2);
	text[200] = '\n';
	assert_int_equal(absource_parse_durations(text, 201, "o", &d, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "o:2: not a duration (line too long)");
	memcpy(text, "2\n\n4\0005\n", 8);
	assert_int_equal(absource_parse_durations(text, 8, "o", &d, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "o:3: '4?5' is not a duration in us (one decimal number > 0 per "
				 "line, or a JSON array)");
	assert_null(d);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/tlperf-absource.XXXXXX", p[512], err[512];
	double *d = NULL;
	size_t n = 0;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/stdout.txt", dir);
	write_file(p, "5\n6\n");
	assert_int_equal(absource_read_stdout(p, &d, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	free(d);
	/* two CSV files, read in name order; NA skipped; trailing commas */
	snprintf(p, sizeof(p), "%s/k_1.csv", dir);
	write_file(p, "Name,Duration(us),\nk,3.5,\nk,NA,\n");
	snprintf(p, sizeof(p), "%s/k_0.csv", dir);
	write_file(p, "\xEF\xBB\xBFName,Duration(us),\r\nk,2.5,\r\n");
	assert_int_equal(absource_read_csv(dir, "k_*.csv", "Duration(us)", &d, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_close(d[0], 2.5, 0);
	assert_close(d[1], 3.5, 0);
	free(d);
	assert_int_equal(absource_read_csv(dir, "k_*.csv", "Time", &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no column 'Time'"));
	assert_int_equal(absource_read_csv(dir, "none*.csv", "Time", &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no file matches"));
	snprintf(p, sizeof(p), "%s/k_2.csv", dir);
	write_file(p, "Name,Duration(us)\nk,abc\n");
	assert_int_equal(absource_read_csv(dir, "k_*.csv", "Duration(us)", &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "k_2.csv:2:"));
	snprintf(p, sizeof(p), "%s/missing.txt", dir);
	assert_int_equal(absource_read_stdout(p, &d, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open"));
	/* clean up */
	const char *names[] = { "stdout.txt", "k_0.csv", "k_1.csv", "k_2.csv" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_spec),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_line_steps),
		cmocka_unit_test(test_json_array),
		cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
