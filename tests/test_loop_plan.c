/* test_loop_plan.c: perf_opt/loop.json parsing, checking, templates. */
#include "testlib.h"

#include "io/loopplan.h"

static const char *good =
	"{\"op\":\"demo_add\",\"baseline\":\"demo_add.py\",\"kernel_name\":\"demo_add\","
	"\"workloads\":[{\"id\":\"n1024\",\"dispatch\":\"add::small\",\"target_us\":5},"
	"{\"id\":\"n65536\",\"dispatch\":\"add::large\",\"required\":false}],"
	"\"bench_cmd\":\"sh bench.sh {impl} {workload}\",\"l0_cmd\":\"sh l0.sh {impl}\"}";

static void test_defaults_and_fields(void **state)
{
	(void)state;
	struct loop_plan p;
	char err[256];
	assert_int_equal(loop_plan_parse(good, strlen(good), &p, err, sizeof(err)), 0);
	assert_string_equal(p.op, "demo_add");
	assert_int_equal(p.contract, 1);
	assert_int_equal(p.nworkloads, 2);
	assert_true(p.workloads[0].required);
	assert_false(p.workloads[1].required);
	assert_close(p.workloads[0].target_us, 5.0, 0);
	assert_true(isnan(p.workloads[1].target_us));
	assert_close(p.noise, 0.03, 0);
	assert_int_equal(p.max_rounds, 10);
	assert_int_equal(p.max_experiments, 30);
	assert_close(p.small_us, 20.0, 0);
	assert_close(p.ab_threshold, 0.05, 0);
	assert_int_equal(p.tlab_pairs, 3);
	assert_int_equal(p.tlab_protocol, LOOP_AB_FAST); /* a plan naming none runs fast */
	assert_string_equal(p.msprof, "msprof");
	assert_non_null(loop_plan_workload(&p, "n65536"));
	assert_null(loop_plan_workload(&p, "n9"));
	loop_plan_release(&p);
}

/* The plan written by loop_plan_to_json reads back the same. */
static void test_round_trip(void **state)
{
	(void)state;
	struct loop_plan p, q;
	char err[256];
	assert_int_equal(loop_plan_parse(good, strlen(good), &p, err, sizeof(err)), 0);
	p.contract = 2;
	p.tlab_pairs = 5;
	assert_int_equal(p.tlab_protocol, LOOP_AB_FAST); /* tlab's default */
	p.tlab_protocol = LOOP_AB_REF;
	char *j = loop_plan_to_json(&p);
	assert_non_null(j);
	assert_int_equal(loop_plan_parse(j, strlen(j), &q, err, sizeof(err)), 0);
	assert_int_equal(q.contract, 2);
	assert_int_equal(q.tlab_pairs, 5);
	assert_int_equal(q.tlab_protocol, LOOP_AB_REF);
	assert_string_equal(loop_ab_protocol_name(q.tlab_protocol), "ref");
	assert_string_equal(q.bench_cmd, p.bench_cmd);
	assert_close(q.workloads[0].target_us, 5.0, 0);
	char *k = loop_plan_to_json(&q);
	assert_string_equal(j, k);
	free(j);
	free(k);
	loop_plan_release(&p);
	loop_plan_release(&q);
}

/* Replaces the first `from` of good by `to`, parses, expects failure with
 * `want` in the message. */
static void refuse(const char *from, const char *to, const char *want)
{
	char text[2048], err[256];
	const char *at = strstr(good, from);
	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	struct loop_plan p;
	assert_int_equal(loop_plan_parse(text, strlen(text), &p, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s' not in '%s'", want, err);
}

static void test_bad_fields_named(void **state)
{
	(void)state;
	refuse("sh bench.sh {impl} {workload}", "sh bench.sh {workload}",
	       "field 'bench_cmd': missing placeholder {impl}");
	refuse("sh bench.sh {impl} {workload}", "sh bench.sh {impl}",
	       "field 'bench_cmd': missing placeholder {workload}");
	refuse("sh l0.sh {impl}", "sh l0.sh {impl} {workload}", "field 'l0_cmd'");
	refuse("sh l0.sh {impl}", "sh l0.sh {iml}", "unknown placeholder '{iml}'");
	refuse("\"op\"", "\"opp\"", "field 'opp': unknown field");
	refuse("\"target_us\":5", "\"target_us\":\"5\"", "field 'workloads[0].target_us'");
	refuse("\"target_us\":5", "\"target_us\":-1", "field 'workloads[0].target_us'");
	refuse("\"required\":false", "\"required\":0", "field 'workloads[1].required'");
	refuse("\"dispatch\":\"add::small\"", "\"dispatch\":\"add::small\",\"x\":1",
	       "field 'workloads[0].x': unknown field");
	refuse("\"id\":\"n65536\"", "\"id\":\"n1024\"", "listed twice");
	refuse("\"id\":\"n65536\",\"dispatch\":\"add::large\"",
	       "\"id\":\"n/1\",\"dispatch\":\"a\"},{\"id\":\"n:1\",\"dispatch\":\"b\"",
	       "same directory name");
	refuse("\"op\":\"demo_add\"", "\"op\":\"../x\"", "field 'op'");
	refuse("\"op\":\"demo_add\",", "", "field 'op': missing");
	refuse("{\"op\"", "[{\"op\"", "not valid JSON");
	refuse("\"l0_cmd\"", "\"noise\":1.5,\"l0_cmd\"", "field 'noise'");
	refuse("\"l0_cmd\"", "\"tlab\":{\"pairs\":2},\"l0_cmd\"", "field 'tlab.pairs'");
	refuse("\"l0_cmd\"", "\"tlab\":{\"protocol\":\"seq-v3\"},\"l0_cmd\"", "field 'tlab.protocol'");
	refuse("\"l0_cmd\"", "\"contract\":\"v3\",\"l0_cmd\"", "field 'contract'");
}

/* check_template's steps: only a {name} of letters, digits and '_' is a
 * placeholder; "{{", "${VAR}", "{a-b}" and "{}" stay the shell's; the
 * names are case-sensitive; the checks run in field order. */
static void test_template_steps(void **state)
{
	(void)state;
	struct loop_plan p;
	char text[2048], err[256];
	const char *from = "sh bench.sh {impl} {workload}";
	const char *at = strstr(good, from);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good,
		 "sh bench.sh {impl} {workload} {{x} ${HOME} {a-b} {} {dispatch}", at + strlen(from));
	assert_int_equal(loop_plan_parse(text, strlen(text), &p, err, sizeof(err)), 0);
	loop_plan_release(&p);
	refuse("sh l0.sh {impl}", "sh l0.sh {IMPL}", "field 'l0_cmd': unknown placeholder '{IMPL}'");
	refuse("sh l0.sh {impl}", "sh l0.sh {impl} {dispatch}",
	       "field 'l0_cmd': {workload} and {dispatch} are not available");
	/* a bad template is named before a bad fraction, a bad count
	 * before a bad timeout */
	refuse("\"l0_cmd\":\"sh l0.sh {impl}\"", "\"l0_cmd\":\"\",\"noise\":2",
	       "field 'l0_cmd': missing or empty");
	refuse("\"l0_cmd\"", "\"max_rounds\":0,\"timeout_s\":0,\"l0_cmd\"", "field 'max_rounds'");
}

static void test_expand_quotes(void **state)
{
	(void)state;
	char err[256];
	char *s = loop_plan_expand("run {impl} --w {workload} ${HOME} {{x}} {dispatch}",
				   "a b's.py", "n1", "k::m", err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(s, "run 'a b'\\''s.py' --w 'n1' ${HOME} {x}} 'k::m'");
	free(s);
	assert_null(loop_plan_expand("x {workload}", "a.py", NULL, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "{workload}"));
}

static void test_path_name(void **state)
{
	(void)state;
	char b[64];
	assert_string_equal(loop_path_name("smoke-dit/fp32", b, sizeof(b)), "smoke-dit_fp32");
	assert_string_equal(loop_path_name("..", b, sizeof(b)), "_.");
	assert_string_equal(loop_path_name("n1024", b, 4), "n10");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_fields),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_fields_named),
		cmocka_unit_test(test_template_steps),
		cmocka_unit_test(test_expand_quotes),
		cmocka_unit_test(test_path_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
