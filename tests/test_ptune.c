/* test_ptune.c: the perf_tuning/ gate checks (ptune_check_dir) on the
 * folders in testdata/ptune/, one per rule, and on the two real folders
 * of ../shared when present; ptune_speedups on both. */
#include "testlib.h"
#include "run/gate_perf_tuning.h"
#include "gates/rules.h"
#include "run/gate_perf_opt.h"

struct want {
	const char *file;   /* file name the finding names (suffix of its path) */
	long line;
	const char *frag;   /* a piece of the message */
};

static void run(const char *base, const char *dir, struct gate_findings *fs)
{
	char path[4096], shown[512];
	snprintf(path, sizeof(path), "%s/%s", base, dir);
	snprintf(shown, sizeof(shown), "%s", dir);
	gate_findings_init(fs);
	assert_int_equal(ptune_check_dir(path, shown, fs), 0);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static void dump(const struct gate_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		print_message("  %s:%ld: %s [%s] %s\n", fs->v[i].file, fs->v[i].line,
			      gate_severity_name(fs->v[i].severity), fs->v[i].rule, fs->v[i].message);
}

/* The findings of `rule` are exactly `w` (in any order), with severity sev. */
static void expect_rule(const struct gate_findings *fs, const char *rule, enum gate_severity sev,
			const struct want *w, size_t n)
{
	size_t got = 0;
	int used[64] = { 0 };
	for (size_t i = 0; i < fs->n; i++) {
		if (strcmp(fs->v[i].rule, rule) != 0)
			continue;
		got++;
		size_t k = 0;
		for (; k < n; k++)
			if (!used[k] && ends_with(fs->v[i].file, w[k].file) && fs->v[i].line == w[k].line &&
			    strstr(fs->v[i].message, w[k].frag))
				break;
		if (k == n) {
			dump(fs);
			fail_msg("unexpected %s finding %s:%ld: %s", rule, fs->v[i].file, fs->v[i].line,
				 fs->v[i].message);
		}
		used[k] = 1;
		assert_int_equal(fs->v[i].severity, sev);
	}
	if (got != n) {
		dump(fs);
		fail_msg("%s: %zu findings, wanted %zu", rule, got, n);
	}
}

static size_t count_rule(const struct gate_findings *fs, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < fs->n; i++)
		n += strcmp(fs->v[i].rule, rule) == 0;
	return n;
}

static char base[4096];

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "%s/ptune", testlib_testdata());
	return 0;
}

static void test_good_folder_passes(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "good", &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	gate_findings_release(&fs);
}

static void test_rule_ids_registered(void **state)
{
	(void)state;
	static const char *const ids[] = { "PT-JSON", "PT-PLAN", "PT-SEQUENCE", "PT-RESULT", "PT-ITERATION",
					   "PT-PRECISION", "PT-DB", "PT-STOP", "PT-REPORT" };
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct gate_rule_info *r = gate_rule_find(ids[i]);
		assert_non_null(r);
		assert_int_equal(r->strict_severity, GATE_ERROR);
	}
	assert_int_equal(gate_rule_find("PT-STOP")->default_severity, GATE_WARNING);
	assert_int_equal(gate_rule_find("PT-REPORT")->default_severity, GATE_ERROR);
}

static void test_json(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "json_bad", &fs);
	const struct want w[] = {
		{ "iter2.json", 5, "\"n_cases\" is 5 but \"cases\" holds 4 rows" },
		{ "iter2.json", 7, "\"avg_speedup\" 1.05 is not the mean" },
		{ "iter2.json", 8, "labelled a geometric mean but is the arithmetic mean" },
		{ "iter2.json", 9, "\"total_ours_us\" 270 is not the sum" },
		{ "iter4.json", 6, "not valid JSON" },
		{ "iter1.json", 81, "case 4: \"speedup\" 1.1 does not match its times (120 / 120 = 1)" },
	};
	expect_rule(&fs, "PT-JSON", GATE_ERROR, w, 6);
	gate_findings_release(&fs);
}

static void test_plan(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "plan_bad", &fs);
	const struct want w[] = {
		{ "optimization_log.md", 10, "[#2] has no verdict" },
		{ "optimization_log.md", 11, "[#3] gives a verdict without a reason" },
		{ "optimization_log.md", 19, "unknown or false dimensions (line 18" },
		{ "optimization_log.md", 24, "[#2] depend on [#3], which is planned later" },
		{ "optimization_log.md", 25, "[#3] depend on [#5], which the plan does not list" },
		{ "optimization_log.md", 26, "[#4], which Part A found not applicable (line 12)" },
		{ "optimization_log.md", 27, "[#6], which is not an item of Part A" },
		{ "optimization_log.md", 27, "[#6] depend on [#7]" },
	};
	expect_rule(&fs, "PT-PLAN", GATE_ERROR, w, 8);
	gate_findings_release(&fs);

	run(base, "plan_missing", &fs);
	const struct want m[] = { { "optimization_log.md", 0, "no [ORDER-PLAN]" } };
	expect_rule(&fs, "PT-PLAN", GATE_ERROR, m, 1);
	gate_findings_release(&fs);
}

static void test_sequence(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "sequence_bad", &fs);
	const struct want w[] = {
		{ "optimization_log.md", 39, "[IMPL-#2] without an [ORDER-CHECK]" },
		{ "optimization_log.md", 43, "follows an [ORDER-CHECK] that concluded" },
		{ "optimization_log.md", 42, "[#3] starts before [RESULT-#2] (line 46)" },
		{ "optimization_log.md", 43, "before its prerequisite [#2] is done" },
	};
	expect_rule(&fs, "PT-SEQUENCE", GATE_ERROR, w, 4);
	gate_findings_release(&fs);

	run(base, "sequence_order", &fs);
	const struct want o[] = {
		{ "optimization_log.md", 35, "[#2] is implemented before its prerequisite [#1]" },
		{ "optimization_log.md", 43, "[#1] is implemented after [#2] (line 34), but [ORDER-PLAN] puts it first" },
	};
	expect_rule(&fs, "PT-SEQUENCE", GATE_ERROR, o, 2);
	gate_findings_release(&fs);
}

static void test_result(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "result_bad", &fs);
	const struct want w[] = {
		{ "optimization_log.md", 32, "[RESULT-#1] states no precision" },
		{ "optimization_log.md", 45, "quotes 100 → 62.5 as -30%, but the change is -37.5%" },
		{ "optimization_log.md", 46, "compares +40%, which matches none" },
		{ "optimization_log.md", 51, "compares -5%, which matches no figure of 'Iteration 3" },
	};
	expect_rule(&fs, "PT-RESULT", GATE_ERROR, w, 4);
	gate_findings_release(&fs);
}

static void test_iteration(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "iteration_bad", &fs);
	const struct want w[] = {
		{ "perf_log.md", 9, "improvement +30% does not match baseline_time 0.65 and candidate_time 0.8063" },
		{ "perf_log.md", 33, "rolled back without a rollback_reason" },
		{ "perf_log.md", 42, "adopted with an improvement of 1.00%, not beyond the 3% noise threshold" },
		{ "perf_log.md", 49, "opposite sign of the folder's convention" },
	};
	expect_rule(&fs, "PT-ITERATION", GATE_ERROR, w, 4);
	gate_findings_release(&fs);
}

static void test_precision(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "precision_bad", &fs);
	const struct want w[] = {
		{ "optimization_log.md", 39, "[#2] is started while precision fails since the [RESULT] at line 32" },
		{ "perf_log.md", 17, "while precision fails since line 10" },
	};
	expect_rule(&fs, "PT-PRECISION", GATE_ERROR, w, 2);
	gate_findings_release(&fs);
}

static void test_db(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "db_missing", &fs);
	const struct want w[] = {
		{ "optimization_log.md", 35, "[IMPL-#2] makes a double-buffer change without a [DB-ANALYSIS]" },
		{ "perf_log.md", 17, "'Iteration 2 — 双缓冲流水 (ADOPTED)' makes a double-buffer change" },
	};
	expect_rule(&fs, "PT-DB", GATE_ERROR, w, 2);
	gate_findings_release(&fs);

	run(base, "db_partial", &fs);
	const struct want p[] = { { "optimization_log.md", 34, "does not answer Q2" } };
	expect_rule(&fs, "PT-DB", GATE_ERROR, p, 1);
	gate_findings_release(&fs);
}

static void test_stop(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "stop_bad", &fs);
	const struct want w[] = {
		{ "perf_log.md", 54, "but the log goes on with 'Iteration 6" },
	};
	expect_rule(&fs, "PT-STOP", GATE_WARNING, w, 1);
	assert_int_equal(fs.n, 1);
	gate_findings_release(&fs);

	/* the same log saying why it goes on */
	run(base, "stop_ok", &fs);
	assert_int_equal(fs.n, 0);
	gate_findings_release(&fs);
}

/* The formats of issue 12 that are not errors: a Part A verdict
 * `**适用但低优先级**`, a RESULT compared against the mean of two runs or
 * against a named earlier iteration after a rolled-back one, `case 13` as
 * an index, a change written as a speed-up (177.48 → 23.6 us, +650%), a
 * line with two figures, one RESULT over several [RESULT-#4] lines, JSON
 * files whose names do not say which is newest (their timestamps do), a
 * report row with both columns, and totals that reconcile. */
static void test_formats(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "formats", &fs);
	if (gate_count(&fs, GATE_ERROR) != 0 || gate_count(&fs, GATE_WARNING) != 0) {
		dump(&fs);
		fail_msg("the formats fixture has findings");
	}
	gate_findings_release(&fs);
}

/* A line with two figures, a subset's and the overall one (either order,
 * "(subset: x) / overall y"), is right when either is: the report's
 * speedup claims and perf_log's improvements of testdata/ptune/two_figures
 * have no finding (issue 24.6). */
static void test_two_figures(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "two_figures", &fs);
	if (fs.n != 0) {
		dump(&fs);
		fail_msg("the two_figures fixture has findings");
	}
	gate_findings_release(&fs);
}

/* A RESULT comparing against the mean of two runs it quotes: the
 * percentage follows from the figures it states (+7.3%, not +9.3%). */
static void test_result_mean(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "result_mean_bad", &fs);
	const struct want w[] = {
		{ "optimization_log.md", 29, "compares +9.3%, but its performance 0.3998 against the figure its comparison quotes (0.3726) is +7.3%" },
	};
	expect_rule(&fs, "PT-RESULT", GATE_ERROR, w, 1);
	gate_findings_release(&fs);
}

/* Report totals must reconcile with the JSON they cite, to the digits
 * they print: which file and line, and by how much (8.03 is within 1% of
 * round_final.json's 8.00 but not its printed 8.03). */
static void test_report_totals(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "report_totals_bad", &fs);
	const struct want w[] = {
		{ "perf_report.md", 11, "totals 8.03 → 7.66 ms: 7.66 does not reconcile with report_totals_bad/ours_v2.json:9, whose 4 cases' ours_us sum to 7.27 ms (+5.4%); and 8.03 is no sum of a time column of it or of an older JSON (closest: round_final.json's ours_us, 8 ms)" },
	};
	expect_rule(&fs, "PT-REPORT", GATE_ERROR, w, 1);
	gate_findings_release(&fs);
}

static void test_report(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "report_stale", &fs);
	const struct want w[] = {
		{ "final_report.md", 8, "stale report: average speedup 0.8063 matches iter1.json, not the latest results iter2.json" },
	};
	expect_rule(&fs, "PT-REPORT", GATE_ERROR, w, 1);
	gate_findings_release(&fs);

	run(base, "report_sums", &fs);
	const struct want s[] = {
		{ "final_report.md", 9, "geometric-mean speedup 1, but that is the arithmetic mean of iter2.json" },
		{ "final_report.md", 22, "AVG row: ours_us 70 is not the mean of the 4 rows above" },
		{ "final_report.md", 37, "'Task Duration': before 80 -> after 62 is -22.5%, not -12.5%" },
	};
	expect_rule(&fs, "PT-REPORT", GATE_ERROR, s, 3);
	gate_findings_release(&fs);

	/* a report left behind by a later, adopted iteration */
	run(base, "iteration_bad", &fs);
	const struct want l[] = {
		{ "final_report.md", 12, "stale report: it quotes 'Iteration 3" },
	};
	expect_rule(&fs, "PT-REPORT", GATE_ERROR, l, 1);
	gate_findings_release(&fs);
}

static void test_report_beside_folder(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "op_up/perf_tuning", &fs);
	assert_int_equal(fs.n, 0);
	gate_findings_release(&fs);
	/* a stale report one level up is found and named there */
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/op_up_stale/perf_tuning", base);
	gate_findings_init(&fs);
	assert_int_equal(ptune_check_dir(dir, "x/op_up_stale/perf_tuning", &fs), 0);
	assert_int_equal(fs.n, 1);
	assert_string_equal(fs.v[0].file, "x/op_up_stale/perf_report.md");
	assert_int_equal(fs.v[0].line, 8);
	assert_string_equal(fs.v[0].rule, "PT-REPORT");
	gate_findings_release(&fs);
}

static void test_missing_files_warn(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "only_json", &fs);
	const struct want p[] = { { "only_json", 0, "no optimization_log.md" } };
	expect_rule(&fs, "PT-PLAN", GATE_WARNING, p, 1);
	const struct want i[] = { { "only_json", 0, "no perf_log.md" } };
	expect_rule(&fs, "PT-ITERATION", GATE_WARNING, i, 1);
	const struct want r[] = { { "only_json", 0, "no final_report.md or perf_report.md" } };
	expect_rule(&fs, "PT-REPORT", GATE_WARNING, r, 1);
	assert_int_equal(gate_count(&fs, GATE_ERROR), 0);
	gate_findings_release(&fs);
}

static void test_suppressions(void **state)
{
	(void)state;
	struct gate_findings fs;
	run(base, "suppressed", &fs);
	assert_int_equal(count_rule(&fs, "PT-DB"), 2);
	char dir[4200], err[256];
	snprintf(dir, sizeof(dir), "%s/suppressed", base);
	struct gate_config_suppressions sups;
	struct gate_config cfg;
	gate_config_suppressions_init(&sups);
	assert_int_equal(ptune_suppressions(dir, "suppressed", &sups), 0);
	assert_int_equal(sups.n, 1);
	assert_string_equal(sups.v[0].rule, "PT-DB");
	assert_string_equal(sups.v[0].file, "suppressed/optimization_log.md");
	assert_int_equal(sups.v[0].line, 29);

	/* no configuration: PT-DB is not inline-suppressible, so both
	 * findings stand and the suppression is itself an error */
	gate_config_init(&cfg);
	assert_int_equal(gate_config_apply_suppressions(&cfg, &fs, &sups), 0);
	assert_int_equal(gate_count(&fs, GATE_ERROR), 3);
	assert_int_equal(count_rule(&fs, "TLGATE-SUPPRESSION-DENIED"), 1);
	assert_int_equal(gate_count_suppressed(&fs), 0);
	gate_config_release(&cfg);
	gate_findings_release(&fs);

	/* a configuration listing it: both findings are kept, marked
	 * suppressed by the comment, and count no more */
	run(base, "suppressed", &fs);
	static const char allow[] = "{\"inline_suppressible\": [\"PT-DB\"]}";
	assert_int_equal(gate_config_parse(allow, strlen(allow), "cfg", &cfg, err, sizeof(err)), 0);
	sups.v[0].used = sups.v[0].denied = 0;
	assert_int_equal(gate_config_apply_suppressions(&cfg, &fs, &sups), 0);
	assert_int_equal(fs.n, 2);
	assert_int_equal(gate_count(&fs, GATE_ERROR), 0);
	assert_int_equal(gate_count_suppressed(&fs), 2);
	assert_string_equal(fs.v[0].sup_file, "suppressed/optimization_log.md");
	assert_int_equal(fs.v[0].sup_line, 29);
	assert_non_null(fs.v[0].sup_reason);
	gate_config_release(&cfg);
	gate_config_suppressions_release(&sups);
	gate_findings_release(&fs);

	/* the good folder has none, and nothing is reported unused */
	run(base, "good", &fs);
	snprintf(dir, sizeof(dir), "%s/good", base);
	gate_config_suppressions_init(&sups);
	assert_int_equal(ptune_suppressions(dir, "good", &sups), 0);
	assert_int_equal(sups.n, 0);
	gate_config_suppressions_release(&sups);
	gate_findings_release(&fs);
}

static void test_unreadable_dir(void **state)
{
	(void)state;
	struct gate_findings fs;
	gate_findings_init(&fs);
	assert_int_equal(ptune_check_dir("/nonexistent/perf_tuning", "x", &fs), -1);
	assert_int_equal(fs.n, 0);
	gate_findings_release(&fs);
}

static void test_speedups(void **state)
{
	(void)state;
	char dir[4200], err[256];
	struct ptune_speedups s;
	snprintf(dir, sizeof(dir), "%s/good", base);
	assert_int_equal(ptune_speedups(dir, &s, err, sizeof(err)), 0);
	/* iteration 3 was rolled back: the folder's state is iter2.json */
	assert_string_equal(s.json, "iter2.json");
	assert_string_equal(s.key, "speedup");
	assert_int_equal(s.n, 4);
	assert_int_equal(s.nvalid, 4);
	assert_string_equal(s.v[0].label, "case 1");
	assert_close(s.v[1].speedup, 80.0 / 64.0, 1e-12);
	assert_close(s.mean, (0.8 + 1.25 + 0.75 + 1.2) / 4, 1e-12);
	assert_close(s.geomean, pow(0.8 * 1.25 * 0.75 * 1.2, 0.25), 1e-12);
	assert_close(s.stated_mean, 1.0, 1e-12);
	ptune_speedups_release(&s);

	/* the operator directory holding perf_tuning/ works too */
	snprintf(dir, sizeof(dir), "%s/op_up", base);
	assert_int_equal(ptune_speedups(dir, &s, err, sizeof(err)), 0);
	assert_string_equal(s.json, "iter2.json");
	ptune_speedups_release(&s);

	snprintf(dir, sizeof(dir), "%s/nope", base);
	assert_int_equal(ptune_speedups(dir, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read"));
	ptune_speedups_release(&s);
}

/* ---- the real folders (../shared) ---------------------------------- */

static void test_real_sigmoid(void **state)
{
	(void)state;
	const char *sh = testlib_shared();
	if (!sh)
		skip();
	char b[4200];
	snprintf(b, sizeof(b), "%s/real-logs/perf_tuning", sh);
	struct gate_findings fs;
	run(b, "tile-ai__sigmoid", &fs);
	/* [#3] opened at line 42 before [RESULT-#1] at line 46; its planned
	 * prerequisite [#2] (前置: [#2], line 32) never implemented */
	const struct want s[] = {
		{ "optimization_log.md", 42, "[#3] starts before [RESULT-#1] (line 46)" },
		{ "optimization_log.md", 43, "prerequisite [#2] (ORDER-PLAN line 32) was never done" },
	};
	expect_rule(&fs, "PT-SEQUENCE", GATE_ERROR, s, 2);
	const struct want p[] = { { "optimization_log.md", 28, "anti-pattern scan" } };
	expect_rule(&fs, "PT-PLAN", GATE_WARNING, p, 1);
	assert_int_equal(fs.n, 3);
	gate_findings_release(&fs);

	struct ptune_speedups sp;
	snprintf(b, sizeof(b), "%s/real-logs/perf_tuning/tile-ai__sigmoid", sh);
	assert_int_equal(ptune_speedups(b, &sp, NULL, 0), 0);
	assert_string_equal(sp.json, "bench_perf_result.json");
	assert_int_equal(sp.n, 2);
	assert_close(sp.geomean, sqrt(0.25321612767199714 * 0.20721112760039026), 1e-12);
	ptune_speedups_release(&sp);
}

static void test_real_foreach_norm(void **state)
{
	(void)state;
	const char *sh = testlib_shared();
	if (!sh)
		skip();
	char b[4200];
	snprintf(b, sizeof(b), "%s/real-logs/perf_tuning", sh);
	struct gate_findings fs;
	run(b, "tile-ai__foreach_norm", &fs);
	const struct want r[] = {
		{ "perf_report.md", 8, "stale report: average speedup 0.2095 matches ours_iter7.json, not the latest results best_plus_list.json" },
		{ "perf_report.md", 40, "baseline_us 83.1 is not the mean of the 20 rows above (91.43)" },
		{ "perf_report.md", 40, "ours_us 414.2 is not the mean of the 20 rows above (426.3)" },
	};
	expect_rule(&fs, "PT-REPORT", GATE_ERROR, r, 3);
	const struct want d[] = {
		{ "perf_log.md", 56, "'Iteration 5 — T.Pipelined double buffer (ROLLED BACK)'" },
		{ "perf_log.md", 403, "without its own [DB-ANALYSIS] (the last one, line 240" },
	};
	expect_rule(&fs, "PT-DB", GATE_ERROR, d, 2);
	assert_int_equal(count_rule(&fs, "PT-JSON"), 0);
	assert_int_equal(count_rule(&fs, "PT-ITERATION"), 0);
	assert_int_equal(count_rule(&fs, "PT-STOP"), 0);
	assert_int_equal(count_rule(&fs, "PT-RESULT"), 0);
	assert_int_equal(gate_count(&fs, GATE_ERROR), 5);
	gate_findings_release(&fs);

	struct ptune_speedups sp;
	snprintf(b, sizeof(b), "%s/real-logs/perf_tuning/tile-ai__foreach_norm", sh);
	assert_int_equal(ptune_speedups(b, &sp, NULL, 0), 0);
	assert_string_equal(sp.json, "best_plus_list.json");
	assert_int_equal(sp.n, 20);
	assert_close(sp.mean, sp.stated_mean, 1e-12);
	ptune_speedups_release(&sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_folder_passes),
		cmocka_unit_test(test_rule_ids_registered),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_result),
		cmocka_unit_test(test_iteration),
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_db),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_two_figures),
		cmocka_unit_test(test_report_totals),
		cmocka_unit_test(test_result_mean),
		cmocka_unit_test(test_report_beside_folder),
		cmocka_unit_test(test_missing_files_warn),
		cmocka_unit_test(test_suppressions),
		cmocka_unit_test(test_unreadable_dir),
		cmocka_unit_test(test_speedups),
		cmocka_unit_test(test_real_sigmoid),
		cmocka_unit_test(test_real_foreach_norm),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
