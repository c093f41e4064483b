/* test_abrun.c: tlab's command line and its runs.jsonl journal. */
#include "testlib.h"
#include "run/tlab_run.h"

#include <sys/stat.h>

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/tlperf-test-abrun.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char p[400];
	snprintf(p, sizeof(p), "%s/runs.jsonl", dir);
	remove(p);
	return rmdir(dir);
}

static void test_command_line_quoting(void **state)
{
	(void)state;
	struct abrun_config c = {
		.a_cmd = "python3 bench.py --impl a", .b_cmd = "./b",
		.workdir = "my dir/it's", .kernel_name = "main*|add",
		.aic_metrics = "BasicInfo,Memory", .msprof = "/opt/ms prof",
		.launch_count = 15, .warm_up = 5,
	};
	char *line = abrun_command_line(&c, 2, 'A');
	assert_non_null(line);
	assert_string_equal(line,
			    "'/opt/ms prof' op --kernel-name='main*|add' "
			    "--output='my dir/it'\\''s/pair2A' --launch-count=15 --warm-up=5 "
			    "--dump=off --aic-metrics='BasicInfo,Memory' python3 bench.py --impl a");
	free(line);
	char buf[256];
	abrun_log_path(&c, 3, 'B', buf, sizeof(buf));
	assert_string_equal(buf, "my dir/it's/logs/pair3B.log");
	abrun_profile_path(&c, 3, 'B', buf, sizeof(buf));
	assert_string_equal(buf, "my dir/it's/pair3B");
}

static void write_file(const char *name, const char *text, const char *mode)
{
	char p[400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, mode);
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The journal's run r holds these identifying fields. */
static void assert_run(const struct abrun_run *r, char arm, long pair, int order, size_t launches,
		       double median_us, const char *cmd)
{
	assert_int_equal(r->arm, arm);
	assert_int_equal(r->pair, pair);
	assert_int_equal(r->order, order);
	assert_int_equal(r->launches, launches);
	assert_close(r->median_us, median_us, 0);
	assert_string_equal(r->cmd, cmd);
}

static void test_journal_roundtrip(void **state)
{
	(void)state;
	struct abrun_config c = { .workdir = dir };
	struct abrun_journal j;
	char err[512];
	/* no journal yet: empty */
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 0);
	abrun_journal_release(&j);

	struct abrun_run r = {
		.arm = 'B', .pair = 2, .order = 1, .launches = 15, .median_us = 8.412,
		.mad_us = 0.02, .min_us = 8.3, .max_us = 8.6, .elapsed_s = 1.5,
		.cmd = "./bench \"q\"", .kernel_name = "main", .launch_count = 15,
		.log = "w/logs/pair2B.log", .profile = "w/pair2B", .finished = "2026-01-01T00:00:00Z",
	};
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	r.arm = 'A';
	r.order = 2;
	r.median_us = 9.5;
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 2);
	assert_run(&j.v[0], 'B', 2, 1, 15, 8.412, "./bench \"q\"");
	assert_string_equal(j.v[0].kernel_name, "main");
	assert_int_equal(j.v[0].launch_count, 15);
	assert_string_equal(j.v[1].log, "w/logs/pair2B.log");
	assert_close(j.v[1].median_us, 9.5, 0);
	assert_int_equal(j.damaged, 0);
	abrun_journal_release(&j);

	/* a write cut short: skipped on load; the next append starts a new line */
	write_file("runs.jsonl", "{\"v\":1,\"arm\":\"A\",\"pa", "a");
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 2);
	assert_int_equal(j.damaged, 1);
	assert_int_equal(j.first_damaged, 3);
	abrun_journal_release(&j);
	r.pair = 3;
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 3);
	assert_int_equal(j.v[2].pair, 3);
	assert_int_equal(j.damaged, 1);
	abrun_journal_release(&j);

	/* JSON that is not a run: an error with the line */
	write_file("runs.jsonl", "\n{\"arm\":\"A\",\"pair\":0,\"order\":1,\"launches\":1,"
				 "\"median_us\":1,\"cmd\":\"x\"}\n", "w");
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "runs.jsonl:2: \"pair\" must be"));
	write_file("runs.jsonl", "[1,2]\n", "w");
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":1: not a JSON object"));
	write_file("runs.jsonl", "{\"arm\":\"A\",\"pair\":1,\"order\":3,\"launches\":1,"
				 "\"median_us\":1,\"cmd\":\"x\"}\n", "w");
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "\"order\" must be 1 or 2"));
	write_file("runs.jsonl", "{\"arm\":\"A\",\"pair\":1,\"order\":1,\"launches\":1,"
				 "\"median_us\":-1,\"cmd\":\"x\"}\n", "w");
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "\"median_us\" must be a number > 0"));
}

/* A journal line: each required field refused with its own reason, the
 * optional ones absent as NAN, 0 or NULL. */
static void test_journal_fields(void **state)
{
	(void)state;
	struct abrun_config c = { .workdir = dir };
	struct abrun_journal j;
	char err[512];
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "{\"arm\":\"C\",\"pair\":1,\"order\":1,\"launches\":1,\"median_us\":1,\"cmd\":\"x\"}",
		  ":1: \"arm\" must be \"A\" or \"B\"" },
		{ "{\"arm\":\"A\",\"pair\":1.5,\"order\":1,\"launches\":1,\"median_us\":1,\"cmd\":\"x\"}",
		  ":1: \"pair\" must be a whole number >= 1" },
		{ "{\"arm\":\"A\",\"pair\":1,\"order\":1,\"launches\":0,\"median_us\":1,\"cmd\":\"x\"}",
		  ":1: \"launches\" must be a whole number >= 1" },
		{ "{\"arm\":\"A\",\"pair\":1,\"order\":1,\"launches\":2,\"median_us\":1}",
		  ":1: \"cmd\" must be a string" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file("runs.jsonl", bad[i].line, "w");
		write_file("runs.jsonl", "\n", "a");
		assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), -1);
		assert_non_null(strstr(err, bad[i].why));
	}
	write_file("runs.jsonl", "{\"arm\":\"B\",\"pair\":4,\"order\":2,\"launches\":3,"
				 "\"median_us\":2.5,\"cmd\":\"./b\"}\n", "w");
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 1);
	assert_run(&j.v[0], 'B', 4, 2, 3, 2.5, "./b");
	assert_true(isnan(j.v[0].mad_us) && isnan(j.v[0].min_us) && isnan(j.v[0].max_us));
	assert_null(j.v[0].log);
	assert_null(j.v[0].profile);
	assert_null(j.v[0].finished);
	abrun_journal_release(&j);
}

/* The settings that define a session go with every run and come back;
 * a line from before they were recorded reads as "not recorded". */
static void test_journal_session_settings(void **state)
{
	(void)state;
	struct abrun_config c = { .workdir = dir, .protocol = "seq", .source_name = "csv:k_*.csv:us",
				  .has_seed = 1, .seed = 9007199254740991ULL, .noise = 0.03,
				  .min_gain = 0.01, .warm_up = 5 };
	struct abrun_journal j;
	char err[512];
	struct abrun_run r = { .arm = 'A', .pair = 1, .order = 1, .launches = 3, .median_us = 9,
			       .cmd = "./a", .kernel_name = "main", .launch_count = 3 };
	write_file("runs.jsonl", "", "w");
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	write_file("runs.jsonl", "{\"arm\":\"B\",\"pair\":1,\"order\":2,\"launches\":1,"
				 "\"median_us\":2.5,\"cmd\":\"./b\"}\n", "a");
	assert_int_equal(abrun_journal_load(&c, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 2);
	assert_int_equal(j.v[0].line, 1);
	assert_true(j.v[0].has_seed);
	assert_true(j.v[0].seed == 9007199254740991ULL);
	assert_true(j.v[0].noise == 0.03 && j.v[0].min_gain == 0.01);
	assert_int_equal(j.v[0].warm_up, 5);
	assert_string_equal(j.v[0].source, "csv:k_*.csv:us");
	assert_string_equal(j.v[0].protocol, "seq");
	assert_int_equal(j.v[1].line, 2);
	assert_false(j.v[1].has_seed);
	assert_true(isnan(j.v[1].noise) && isnan(j.v[1].min_gain));
	assert_int_equal(j.v[1].warm_up, -1);
	assert_null(j.v[1].source);
	abrun_journal_release(&j);
}

/* Loads the journal of c and checks what it says of its damage. */
static void expect_damage(const struct abrun_config *c, size_t runs, size_t damaged, size_t torn,
			  long torn_last, size_t unexplained, long first_unexplained)
{
	struct abrun_journal j;
	char err[512];
	assert_int_equal(abrun_journal_load(c, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, runs);
	assert_int_equal(j.damaged, damaged);
	assert_int_equal(j.torn, torn);
	assert_int_equal(j.torn_last, torn_last);
	assert_int_equal(j.unexplained, unexplained);
	assert_int_equal(j.first_unexplained, first_unexplained);
	if (runs == 2)
		assert_int_equal(j.v[1].after_torn, torn ? 2 : 0);
	abrun_journal_release(&j);
}

/* Damaged lines: a tlab line a crash cut short at the end of the file is
 * torn (and stays so once the next run acknowledges it); anything else,
 * binary junk included, is unexplained. */
static void test_journal_damage(void **state)
{
	(void)state;
	struct abrun_config c = { .workdir = dir };
	struct abrun_run r = { .arm = 'A', .pair = 1, .order = 1, .launches = 3, .median_us = 9,
			       .cmd = "./a", .kernel_name = "main", .launch_count = 3 };
	write_file("runs.jsonl", "", "w");
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	write_file("runs.jsonl", "{\"v\":1,\"arm\":\"B\",\"pa", "a"); /* line 2, no newline */
	expect_damage(&c, 1, 1, 1, 2, 0, 0);
	/* acknowledged by the next run: still torn, no longer last */
	c.after_torn = 2;
	r.arm = 'B';
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	expect_damage(&c, 2, 1, 1, 0, 0, 0);
	/* the same line followed by a run that does not acknowledge it */
	write_file("runs.jsonl", "{\"v\":1,\"arm\":\"B\",\"pa\n", "w");
	c.after_torn = 0;
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	expect_damage(&c, 1, 1, 0, 0, 1, 1);
	/* a torn-looking last line that ends with its newline: not a crash's */
	write_file("runs.jsonl", "{\"v\":1,\"arm\":\"B\",\"pa\n", "a");
	expect_damage(&c, 1, 2, 0, 0, 2, 1);
	/* binary junk, a NUL first: damage, not a blank line */
	FILE *f;
	char p[400];
	snprintf(p, sizeof(p), "%s/runs.jsonl", dir);
	assert_non_null(f = fopen(p, "w"));
	fwrite("\0\377junk\n", 1, 7, f);
	fclose(f);
	assert_int_equal(abrun_journal_append(&c, &r), 0);
	expect_damage(&c, 1, 1, 0, 0, 1, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_line_quoting),
		cmocka_unit_test(test_journal_roundtrip),
		cmocka_unit_test(test_journal_fields),
		cmocka_unit_test(test_journal_session_settings),
		cmocka_unit_test(test_journal_damage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
