/* test_optlog.c: the opt_log.md reader (headings, rounds, tables and their
 * captions, claims of the last Final Summary, budgets, suppressions). */
#include "testlib.h"
#include "io/optlog.h"

static void load(struct optlog *lg, const char *text)
{
	optlog_init(lg);
	assert_int_equal(optlog_load_buffer(text, strlen(text), lg), 0);
}

static const struct optlog_table *table_at(const struct optlog *lg, long line)
{
	for (size_t i = 0; i < lg->n_tables; i++)
		if (lg->tables[i].line == line)
			return &lg->tables[i];
	print_error("no table at line %ld\n", line);
	fail();
	return NULL;
}

static void rounds_and_captions(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "# t\n"                                                   /* 1 */
	     "## Iteration 2\n"                                         /* 2 */
	     "| a | Task Duration(us) |\n|---|---|\n| current best | 1 |\n" /* 3-5 */
	     "### Round 3（tiles）\n"                                   /* 6 */
	     "| cand | task_duration_us | current_best_us |\n|---|---|---|\n| x | 1 | 2 |\n" /* 7-9 */
	     "## Iteration 1（round 1）：first\n\n"                     /* 10-11 */
	     "**候选 vs current best 对比表（round 4）**\n\n"            /* 12-13 */
	     "| c | duration |\n|---|---|\n| y | 1 |\n"                 /* 14-16 */
	     "### Iteration 5（本会话，round 5）\n"                     /* 17 */
	     "- 候选 vs current best（r1a_chain）对比表：\n\n"           /* 18-19 */
	     "| w | base (us) | r1 (us) |\n|---|---|---|\n| w1 | 2 | 1 |\n" /* 20-22 */
	     "### 候选 vs current best 对比表（Round 6 主读数，n=3）\n"  /* 23 */
	     "| c | bm | status |\n|---|---|---|\n| v1（best） | 4 | ok |\n" /* 24-26 */
	     "### Round 7 — wider\n"                                    /* 27 */
	     "```\n| not | a table |\n|---|---|\n```\n"                 /* 28-31 */
	     "| 候选 vs r6 | latency µs |\n|---|---|\n| z | 1 |\n");     /* 32-34 */
	assert_int_equal(lg.n_rounds, 5);
	assert_int_equal(lg.rounds[0].round, 2);
	assert_int_equal(lg.rounds[1].round, 3);
	assert_int_equal(lg.rounds[2].round, 1);
	assert_int_equal(lg.rounds[3].round, 5);
	assert_int_equal(lg.rounds[4].round, 7);
	const struct optlog_table *t = table_at(&lg, 3);
	assert_int_equal(t->round, 2);
	assert_true(t->has_duration && t->has_incumbent);
	t = table_at(&lg, 7);
	assert_int_equal(t->round, 3);
	assert_true(t->has_duration && t->has_incumbent);
	t = table_at(&lg, 14);
	assert_int_equal(t->round, 4); /* the caption's round wins over the section's */
	assert_int_equal(t->caption_line, 12);
	assert_true(t->has_incumbent);
	t = table_at(&lg, 20);
	assert_int_equal(t->round, 5);
	assert_true(t->has_duration && t->has_incumbent);
	t = table_at(&lg, 24);
	assert_int_equal(t->round, 6);
	assert_false(t->has_duration); /* no duration column */
	t = table_at(&lg, 32);
	assert_int_equal(t->round, 7);
	assert_true(t->has_duration && t->has_incumbent);
	assert_int_equal(lg.n_tables, 6); /* the fenced one is not a table */
	optlog_release(&lg);
}

static void not_incumbent(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg, "## Round 1\n| 候选 | Task Duration(us) |\n|---|---|\n| 基线 | 1 |\n| bestish | 2 |\n");
	assert_int_equal(lg.n_tables, 1);
	assert_true(lg.tables[0].has_duration);
	assert_false(lg.tables[0].has_incumbent);
	optlog_release(&lg);
	/* "status" and "bus" are not durations */
	load(&lg, "| status | bus |\n|---|---|\n| a | b |\n");
	assert_false(lg.tables[0].has_duration);
	optlog_release(&lg);
}

static void last_summary_claims(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "## Final Summary\n\nbest: old\nfinal_latency: 9 us\n\n"
	     "## Other\n\n"
	     "## Final Summary (session 2)\n\n"                           /* 8 */
	     "- **best 版本**：`perf_opt/op.py`（v2 结构）\n"             /* 10 */
	     "- **final_latency（msprof op, median of 20）**：\n"         /* 11: not a claim */
	     "  - smoke-dit/fp32: final_latency: 3.12 us（baseline 5.48，**-43.1%**）\n"
	     "  - dit/bf16: **final_latency**：**9.28** µs\n"
	     "  - yolo-p3 fp16: 103.42 → 98.80 us（-4.5%）\n"
	     "- cast 路径 11→9 向量 pass\n"
	     "final_latency: 0.5 ms\n"
	     "- **跨 workload 几何平均加速比：2.14x**（几何平均时延下降 53.3%）\n"
	     "- 几何平均提升（5 workload）= 11.5×\n"
	     "- **收束原因：plateau**——连续 3 轮无提升\n"
	     "- 中止原因: success\n");
	assert_int_equal(lg.n_superseded, 1);
	assert_int_equal(lg.superseded[0], 1);
	assert_int_equal(lg.summary_line, 8);
	assert_string_equal(lg.best, "perf_opt/op.py");
	assert_int_equal(lg.best_line, 10);
	assert_int_equal(lg.n_claims, 4);
	assert_string_equal(lg.claims[0].workload, "smoke-dit/fp32");
	assert_close(lg.claims[0].final_us, 3.12, 0);
	assert_close(lg.claims[0].baseline_us, 5.48, 0);
	assert_string_equal(lg.claims[1].workload, "dit/bf16");
	assert_close(lg.claims[1].final_us, 9.28, 0);
	assert_true(isnan(lg.claims[1].baseline_us));
	assert_string_equal(lg.claims[2].workload, "yolo-p3 fp16");
	assert_close(lg.claims[2].final_us, 98.80, 1e-9);
	assert_close(lg.claims[2].baseline_us, 103.42, 1e-9);
	assert_null(lg.claims[3].workload);
	assert_close(lg.claims[3].final_us, 500, 1e-9);
	assert_int_equal(lg.n_geomeans, 2);
	assert_close(lg.geomeans[0].value, 2.14, 0);
	assert_close(lg.geomeans[1].value, 11.5, 0);
	assert_int_equal(lg.stop, OPTLOG_STOP_PLATEAU); /* the first stop line counts */
	optlog_release(&lg);
}

static void budgets_and_noise(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg, "- 噪声阈值: 5%；max_rounds=12\n- 预算 8 轮 / 20 分支内\n");
	assert_close(lg.noise_pct, 5, 0);
	assert_int_equal(lg.max_rounds, 12);
	assert_int_equal(lg.max_experiments, 20);
	optlog_release(&lg);
	load(&lg, "nothing stated\n");
	assert_true(isnan(lg.noise_pct));
	assert_int_equal(lg.max_rounds, -1);
	optlog_release(&lg);
}

static void final_table(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "## Final Performance Test Data\n\n"
	     "| note | kernel_id | workload_id | baseline_us | final_us | final_candidate_id |\n"
	     "|---|---|---|---:|---:|---|\n"
	     "| x | k::main | w1 | 25.890 | **11.775** | r4b |\n"
	     "| y | k::main | w2 | n/a | 3 | r4b |\n"
	     "### Final Performance Test Data (old)\n"
	     "| dispatch_path | workload_id | task_duration_us |\n|---|---|---|\n| a | b | 1 |\n");
	assert_int_equal(lg.final_heading_line, 7);
	assert_int_equal(lg.final_table_line, 3);
	assert_int_equal(lg.n_final_rows, 2);
	assert_string_equal(lg.final_rows[0].kernel_id, "k::main");
	assert_string_equal(lg.final_rows[0].workload_id, "w1");
	assert_close(lg.final_rows[0].final_us, 11.775, 1e-12);
	assert_string_equal(lg.final_rows[0].final_candidate_id, "r4b");
	assert_true(isnan(lg.final_rows[1].baseline_us));
	optlog_release(&lg);
}

static void suppressions_and_retro(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "## Skill Retrospective\n"
	     "<!-- tlgate-disable S4-SPEEDUP -- geomean quoted from the paper -->\n"
	     "<!-- tlgate-disable S4-LAYOUT -->\n"
	     "```\n<!-- tlgate-disable S4-OPTLOG -- inside code -->\n```\n");
	assert_int_equal(lg.retrospective_line, 1);
	assert_int_equal(lg.n_suppressions, 2);
	assert_string_equal(lg.suppressions[0].rule, "S4-SPEEDUP");
	assert_string_equal(lg.suppressions[0].reason, "geomean quoted from the paper");
	assert_string_equal(lg.suppressions[1].rule, "S4-LAYOUT");
	assert_null(lg.suppressions[1].reason);
	optlog_release(&lg);
}

static void bad_bytes(void **s)
{
	(void)s;
	struct optlog lg;
	const char text[] = "\xEF\xBB\xBF# t\r\nok\nbad \xC3\x28\nnul \0 x\n";
	optlog_init(&lg);
	assert_int_equal(optlog_load_buffer(text, sizeof(text) - 1, &lg), 0);
	assert_true(lg.has_bom);
	assert_true(lg.has_crlf);
	assert_int_equal(lg.n_problems, 4);
	assert_int_equal(lg.problems[2].line, 3);
	assert_non_null(strstr(lg.problems[2].message, "UTF-8"));
	assert_int_equal(lg.problems[3].line, 4);
	optlog_release(&lg);
	load(&lg, "  \n\t\n");
	assert_true(lg.blank);
	optlog_release(&lg);
}

static void names(void **s)
{
	(void)s;
	char a[64], b[64];
	assert_string_equal(optlog_norm_name("yolo-p3 fp16", a, sizeof(a)),
			    optlog_norm_name("yolo_p3_fp16", b, sizeof(b)));
	assert_string_equal(optlog_norm_name("Smoke-DIT/fp32", a, sizeof(a)), "smoke_dit_fp32");
}

/* Appended runs: a round heading not above the run's highest round,
 * after a Final Summary, starts a new run; `Round N` in `Iteration 1
 * (Round 2)` names a run, so its captions give no round. */
static void runs_and_run_labels(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "# t\n"                                                   /* 1 */
	     "## Iteration 1\n"                                        /* 2 */
	     "| c | duration | note |\n|---|---|---|\n| current best | 1 | x |\n" /* 3-5 */
	     "## Iteration 2\n"                                        /* 6 */
	     "## Final Summary\n"                                      /* 7 */
	     "- w: 2.00 → 1.00 us\n"                                   /* 8 */
	     "# Round 2: again\n"                                      /* 9 */
	     "## Iteration 1 (Round 2)\n"                              /* 10 */
	     "### Experiment Branches（Round 2）\n"                     /* 11 */
	     "| c | p3_us |\n|---|---|\n| (incumbent) | 1 |\n"         /* 12-14 */
	     "## Final Summary (Round 2)\n"                            /* 15 */
	     "- big: 10.0 → 9.0 us\n");                                /* 16 */
	assert_int_equal(lg.runs, 2);
	assert_int_equal(lg.target_run, 1);
	assert_int_equal(lg.summary_line, 15);
	const struct optlog_table *t = table_at(&lg, 3);
	assert_int_equal(t->run, 0);
	assert_int_equal(t->round, 1);
	t = table_at(&lg, 12);
	assert_int_equal(t->run, 1);
	assert_int_equal(t->round, 1); /* not the caption's Round 2 */
	assert_int_equal(lg.n_claims, 1);
	assert_int_equal(lg.claims[0].line, 16);
	optlog_release(&lg);
}

/* Numbered headings, `RN` captions, units in captions, confirmation
 * sections, claim lists and a subset-scoped geomean. */
static void issue12_formats(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "# t\n"                                                                   /* 1 */
	     "## 3、Iteration 3\n"                                                      /* 2 */
	     "**候选 vs current best 对比表（R7，msprof op Task Duration(us)，median of 20）**\n" /* 3 */
	     "| branch | b1c2 | b2c4 |\n|---|---|---|\n| baseline（current best） | 31.83 | 40.1 |\n" /* 4-6 */
	     "## Final Confirmation（round 5）：最终文件\n"                               /* 7 */
	     "## Round 9（final 全配置复采）\n"                                          /* 8 */
	     "### Final 全组合验证\n"                                                   /* 9 */
	     "## （八）Final Summary\n"                                                 /* 10 */
	     "- smoke: 30.75 us（1.01×）\n"                                             /* 11 */
	     "- 几何平均（3 真实 workload）2.93×\n"                                      /* 12 */
	     "- 几何平均加速比 2.25×\n");                                               /* 13 */
	const struct optlog_table *t = table_at(&lg, 4);
	assert_int_equal(t->round, 7);
	assert_false(t->has_duration);
	assert_true(t->cap_duration && t->numeric_rows == 1 && t->has_incumbent);
	assert_int_equal(lg.n_rounds, 4);
	assert_int_equal(lg.rounds[0].round, 3);
	assert_true(lg.rounds[1].confirm && lg.rounds[1].numbered && lg.rounds[1].round == 5);
	assert_true(lg.rounds[2].confirm && lg.rounds[2].numbered && lg.rounds[2].round == 9);
	assert_true(lg.rounds[3].confirm && !lg.rounds[3].numbered);
	assert_int_equal(lg.summary_line, 10);
	assert_int_equal(lg.n_claims, 1);
	assert_true(lg.claims[0].soft);
	assert_string_equal(lg.claims[0].workload, "smoke");
	assert_true(lg.claims[0].final_us == 30.75);
	assert_int_equal(lg.n_geomeans, 2);
	assert_int_equal(lg.geomeans[0].scope, 3);
	assert_true(lg.geomeans[0].value == 2.93);
	assert_int_equal(lg.geomeans[1].scope, -1);
	optlog_release(&lg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rounds_and_captions),
		cmocka_unit_test(not_incumbent),
		cmocka_unit_test(last_summary_claims),
		cmocka_unit_test(budgets_and_noise),
		cmocka_unit_test(final_table),
		cmocka_unit_test(suppressions_and_retro),
		cmocka_unit_test(bad_bytes),
		cmocka_unit_test(names),
		cmocka_unit_test(runs_and_run_labels),
		cmocka_unit_test(issue12_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
