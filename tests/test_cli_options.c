/* test_cli_options.c: the option tables (src/cli/options.h) of every
 * command are well formed, and the parser built from them returns keys,
 * values and operands as getopt_long would, with one wording for mistakes. */
#include "testlib.h"

#include "cli/cli.h"
#include "cli/options.h"

static const struct cli_spec *const top[] = {
	&cmd_ab_spec, &cmd_audit_spec, &cmd_gate_spec, &cmd_loop_spec, &cmd_msprof_spec,
	&cmd_plateau_spec, &cmd_sim_spec, &cmd_speedup_spec, &cmd_table_spec, &cmd_winner_spec,
};

static size_t count(const struct cli_option *t)
{
	size_t n = 0;
	for (; t && t->key; t++)
		n++;
	return n;
}

/* Keys, short letters and long names unique across a table and the common
 * options; every row documented; the table fits the parser. */
static void check_spec(const struct cli_spec *s)
{
	const struct cli_option *tables[] = { s->options, cli_common_options };
	assert_non_null(s->cmd);
	assert_non_null(s->synopsis);
	assert_true(count(s->options) + count(cli_common_options) <= CLI_MAX_OPTIONS);
	for (size_t i = 0; i < 2; i++) {
		for (const struct cli_option *a = tables[i]; a && a->key; a++) {
			assert_non_null(a->help);
			assert_true(a->long_name || a->short_name);
			for (size_t j = 0; j < 2; j++) {
				for (const struct cli_option *b = tables[j]; b && b->key; b++) {
					if (a == b)
						continue;
					if (a->key == b->key)
						fail_msg("%s: key %d twice", s->cmd, a->key);
					if (a->short_name && a->short_name == b->short_name)
						fail_msg("%s: -%c twice", s->cmd, a->short_name);
					if (a->long_name && b->long_name &&
					    strcmp(a->long_name, b->long_name) == 0)
						fail_msg("%s: --%s twice", s->cmd, a->long_name);
				}
			}
		}
	}
}

static void test_tables_well_formed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		check_spec(top[i]);
		for (const struct cli_spec *const *sub = top[i]->subcommands; sub && *sub; sub++)
			check_spec(*sub);
	}
}

enum { K_NOISE = 'n', K_OUT = 'o', K_JSON = 300 };
static const struct cli_option demo_options[] = {
	{ K_NOISE, 0, "noise", "F", "noise" },
	{ K_OUT, 'o', "output", "FILE", "output" },
	{ K_JSON, 'j', "json", NULL, "json" },
	CLI_OPT_END
};
static const struct cli_spec demo = { "demo", "tlperf demo [options] FILE", NULL, demo_options,
				      NULL, 0, NULL };

static void test_parse_keys_values_operands(void **state)
{
	(void)state;
	char *argv[] = { "demo", "a.txt", "--noise", "0.05", "-j", "-ofile", "--output=x", "b.txt",
			 NULL };
	struct cli_parser p;
	cli_parser_init(&p, &demo, 8, argv);
	assert_int_equal(cli_parser_next(&p), K_NOISE);
	assert_string_equal(p.arg, "0.05");
	assert_int_equal(cli_parser_next(&p), K_JSON);
	assert_null(p.arg);
	assert_int_equal(cli_parser_next(&p), K_OUT);
	assert_string_equal(p.arg, "file");
	assert_int_equal(cli_parser_next(&p), K_OUT);
	assert_string_equal(p.arg, "x");
	assert_int_equal(cli_parser_next(&p), CLI_PARSE_END);
	/* operands permuted to the end, in order */
	assert_int_equal(8 - p.next, 2);
	assert_string_equal(argv[p.next], "a.txt");
	assert_string_equal(argv[p.next + 1], "b.txt");
	assert_int_equal(cli_parser_no_operands(&p), CLI_USAGE);
}

static void test_stop_at_operand(void **state)
{
	(void)state;
	struct cli_spec s = demo;
	s.flags = CLI_SPEC_STOP_AT_OPERAND;
	char *argv[] = { "demo", "-j", "sub", "--noise", "1", NULL };
	struct cli_parser p;
	cli_parser_init(&p, &s, 5, argv);
	assert_int_equal(cli_parser_next(&p), K_JSON);
	assert_int_equal(cli_parser_next(&p), CLI_PARSE_END);
	assert_int_equal(p.next, 2);
	assert_string_equal(argv[p.next], "sub");
}

/* Mistakes stop parsing with exit code 2; the message goes to stderr. */
static void expect_mistake(int argc, char **argv)
{
	struct cli_parser p;
	int k;
	cli_parser_init(&p, &demo, argc, argv);
	while ((k = cli_parser_next(&p)) > 0)
		;
	assert_int_equal(k, CLI_PARSE_STOP);
	assert_int_equal(p.rc, CLI_USAGE);
}

static void test_mistakes(void **state)
{
	(void)state;
	char *unknown_long[] = { "demo", "--bogus", NULL };
	char *unknown_short[] = { "demo", "-x", NULL };
	char *missing[] = { "demo", "--noise", NULL };
	char *missing_short[] = { "demo", "-o", NULL };
	char *flag_value[] = { "demo", "--json=1", NULL };
	expect_mistake(2, unknown_long);
	expect_mistake(2, unknown_short);
	expect_mistake(2, missing);
	expect_mistake(2, missing_short);
	expect_mistake(2, flag_value);
}

static void test_usage_lists_every_option(void **state)
{
	(void)state;
	char buf[16384];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	cli_usage_print(f, &cmd_gate_spec);
	fclose(f);
	buf[sizeof(buf) - 1] = '\0';
	assert_true(strncmp(buf, "usage: tlgate", 13) == 0);
	for (const struct cli_option *o = cmd_gate_spec.options; o->key; o++) {
		char want[128];
		snprintf(want, sizeof(want), "--%s", o->long_name);
		if (!strstr(buf, want))
			fail_msg("gate usage lacks %s", want);
	}
	assert_non_null(strstr(buf, "-h, --help"));
	assert_non_null(strstr(buf, "--version"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_well_formed),
		cmocka_unit_test(test_parse_keys_values_operands),
		cmocka_unit_test(test_stop_at_operand),
		cmocka_unit_test(test_mistakes),
		cmocka_unit_test(test_usage_lists_every_option),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
