/* test_optlog.c: the opt_log.md reader (headings, rounds, tables and their
 * captions, claims of the last Final Summary, budgets, suppressions). */
#include "testlib.h"
#include "notclaims.h"
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
	assert_true(t->cap_duration && t->has_numeric_row && t->has_incumbent);
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

/* skip_numbering's steps: the bracket opened and closed in kind
 * (numbering_open, numbering_end), digits with inner dots, Chinese and
 * Roman numerals (numbering_number), and a number then a space only
 * before a word. */
static void heading_numbering(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "## （八）Round 3\n"      /* 1 */
	     "## (4) Round 4\n"        /* 2 */
	     "## IV. Round 5\n"        /* 3 */
	     "## IVx Round 6\n"        /* 4: Roman numerals need '.' or 、 */
	     "## 8 Round 7\n"          /* 5 */
	     "## 8.1 Iteration 8\n"    /* 6 */
	     "## (8 Round 9\n"         /* 7: never closed */
	     "## 十二、Round 10\n"     /* 8 */
	     "## 8：Round 11\n"        /* 9 */
	     "## （8)Round 12\n"       /* 10: closed in the other kind */
	     "## 7 第 13 轮\n");        /* 11: a number and a space, then no word */
	static const long want[][2] = { { 1, 3 }, { 2, 4 }, { 3, 5 }, { 5, 7 }, { 6, 8 }, { 8, 10 }, { 9, 11 } };
	assert_int_equal(lg.n_rounds, 7);
	for (size_t i = 0; i < 7; i++) {
		assert_int_equal(lg.rounds[i].line, want[i][0]);
		assert_int_equal(lg.rounds[i].round, want[i][1]);
	}
	optlog_release(&lg);
}

/* scan_claim's steps: claim_final_latency (label before the key, '=' for
 * a colon, ms, the baseline after), claim_arrow with each arrow of
 * skip_arrow (B's unit from F's when unstated), soft_claim, and the lines
 * that are no claim. */
static void claim_steps(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "## Final Summary\n"
	     "- w1: final_latency = 2 ms baseline: 3000\n" /* 2 */
	     "- w2 **final_latency**: 4\n"                 /* 3: no unit: us */
	     "final_latency 5 us\n"                        /* 4: no colon, no claim */
	     "- a: 2 ms → 1500 us\n"                       /* 5 */
	     "- b: 10 -> 8 us\n"                           /* 6 */
	     "- c: 10 us ⟶ 9 us\n"                         /* 7 */
	     "- d: 10 us => 8 us\n"                        /* 8: => reads as an arrow too */
	     "- e: 10 → 8 \n"                              /* 9: no final unit */
	     "- smoke: 30.75 us（1.01×）\n"                /* 10: soft */
	     "- f: 12\n");                                 /* 11: no unit */
	static const struct { long line; const char *w; double f, b; int soft; } want[] = {
		{ 2, "w1", 2000, 3000, 0 }, { 3, "w2", 4, NAN, 0 },     { 5, "a", 1500, 2000, 0 },
		{ 6, "b", 8, 10, 0 },       { 7, "c", 9, 10, 0 },       { 8, "d", 8, 10, 0 },
		{ 10, "smoke", 30.75, NAN, 1 },
	};
	assert_int_equal(lg.n_claims, 7);
	for (size_t i = 0; i < 7; i++) {
		const struct optlog_claim *c = &lg.claims[i];
		assert_int_equal(c->line, want[i].line);
		assert_string_equal(c->workload, want[i].w);
		assert_close(c->final_us, want[i].f, 1e-9);
		if (isnan(want[i].b))
			assert_true(isnan(c->baseline_us));
		else
			assert_close(c->baseline_us, want[i].b, 1e-9);
		assert_int_equal(c->soft, want[i].soft);
	}
	optlog_release(&lg);
}

/* scan_best's steps: is_best_label (a whole word at the start),
 * after_label_colon (within 32 bytes), name_end (full-width brackets and
 * commas end the name), "none" as nothing adopted. */
static void best_steps(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg, "## Final Summary\n- **Best**: v3（fast）\n");
	assert_string_equal(lg.best, "v3");
	assert_int_equal(lg.best_line, 2);
	assert_false(lg.nothing_adopted);
	optlog_release(&lg);
	load(&lg, "## Final Summary\nbest_x: v1\nwinner: a，b\n");
	assert_string_equal(lg.best, "a");
	assert_int_equal(lg.best_line, 3);
	optlog_release(&lg);
	load(&lg, "## Final Summary\nthe final candidate named here is: v9\nfinal candidate: none\n");
	assert_string_equal(lg.best, "none");
	assert_int_equal(lg.best_line, 3);
	assert_true(lg.nothing_adopted);
	optlog_release(&lg);
	load(&lg, "## Final Summary\nwinner of the whole long session so far: v1\n");
	assert_null(lg.best); /* the colon is past the label's 32 bytes */
	optlog_release(&lg);
}

/* geomean_scope's steps: starts_integer (not inside a word or a number)
 * and scope_noun_follows (stopped by a comma or a bracket). */
static void geomean_scope_steps(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "## Final Summary\n"
	     "- geomean over 5 workloads: 2.1x\n"
	     "- geomean v2 3 shapes 1.5x\n"
	     "- geomean (12, 4 cases) 2x\n"
	     "- geomean 1.5 workloads 3x\n"
	     "- geomean 0 workloads 4x\n"
	     "- geomean 2 dispatch 5x\n");
	static const long scope[] = { 5, 3, 4, -1, -1, 2 };
	assert_int_equal(lg.n_geomeans, 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(lg.geomeans[i].scope, scope[i]);
	optlog_release(&lg);
}

/* scan_budgets' steps: budget_key (colon or '=', emphasis, the first
 * statement kept), budget_cn and budget_cn_experiments (分支 or 实验 only). */
static void budget_steps(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg, "max_rounds: **8**\nmax_experiments = 3\nmax_rounds: 9\n");
	assert_int_equal(lg.max_rounds, 8);
	assert_int_equal(lg.max_experiments, 3);
	optlog_release(&lg);
	load(&lg, "预算 10 轮，每轮 3 个实验\n");
	assert_int_equal(lg.max_rounds, 10);
	assert_int_equal(lg.max_experiments, 3);
	optlog_release(&lg);
	load(&lg, "预算 5 轮 2 次\nmax_experiments 4\n");
	assert_int_equal(lg.max_rounds, 5);
	assert_int_equal(lg.max_experiments, -1);
	optlog_release(&lg);
}

/* scan_sup's steps: rule_end (no trailing '-'), sup_reason (trimmed, up
 * to the comment's end or the line's), several comments on a line, and a
 * tlgate-disable outside any comment. */
static void suppression_steps(void **s)
{
	(void)s;
	struct optlog lg;
	const char *text = "<!-- tlgate-disable S4-X -- reason  --> <!-- tlgate-disable S4-Y-->\n";
	optlog_init(&lg);
	assert_int_equal(optlog_scan_suppressions(text, strlen(text), 7, &lg), 0);
	assert_int_equal(lg.n_suppressions, 2);
	assert_int_equal(lg.suppressions[0].line, 7);
	assert_string_equal(lg.suppressions[0].rule, "S4-X");
	assert_string_equal(lg.suppressions[0].reason, "reason");
	assert_string_equal(lg.suppressions[1].rule, "S4-Y");
	assert_null(lg.suppressions[1].reason);
	optlog_release(&lg);
	load(&lg,
	     "<!-- tlgate-disable -- why -->\n"
	     "<!-- tlgate-disable S4_* -- unterminated\n"
	     "<!-- other --> tlgate-disable S4-Z -->\n");
	assert_int_equal(lg.n_suppressions, 2);
	assert_null(lg.suppressions[0].rule);
	assert_string_equal(lg.suppressions[0].reason, "why");
	assert_string_equal(lg.suppressions[1].rule, "S4_*");
	assert_string_equal(lg.suppressions[1].reason, "unterminated");
	optlog_release(&lg);
}

/* ```json blocks are kept with their line, round section and run; other
 * fences are not, and nothing inside any fence is Markdown structure. */
static void json_code_blocks(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg,
	     "# t\n"                                      /* 1 */
	     "```json\n{\"verdict\": \"tie\"}\n```\n"       /* 2-4: no round */
	     "## Iteration 3（round 3）\n"                 /* 5 */
	     "### A/B\n"                                   /* 6 */
	     "``` JSON extra\n{\"verdict\":\n \"B_better\"}\n```\n" /* 7-10 */
	     "```python\nx = 1\n```\n"                     /* 11-13 */
	     "~~~~json\n| a | b |\n|---|---|\n~~~\n~~~~\n"     /* 14-18: ~~~ shorter: no close */
	     "## Round 4\n"                                /* 19 */
	     "```jsonl\n{}\n```\n"                         /* 20-22: not json */
	     "```json\n");                                 /* 23: never closed, empty: nothing shown */
	assert_int_equal(lg.n_codes, 3);
	assert_int_equal(lg.codes[0].line, 2);
	assert_int_equal(lg.codes[0].round, -1);
	assert_string_equal(lg.codes[0].text, "{\"verdict\": \"tie\"}\n");
	assert_int_equal(lg.codes[1].line, 7);
	assert_int_equal(lg.codes[1].round, 3);
	assert_string_equal(lg.codes[1].text, "{\"verdict\":\n \"B_better\"}\n");
	assert_int_equal(lg.codes[2].line, 14);
	assert_int_equal(lg.codes[2].round, 3);
	assert_string_equal(lg.codes[2].text, "| a | b |\n|---|---|\n~~~\n");
	assert_int_equal(lg.n_tables, 0);
	assert_int_equal(lg.codes[2].truncated, 0);
	optlog_release(&lg);
	/* a block over OPTLOG_CODE_MAX keeps what fits and says so */
	size_t n = OPTLOG_CODE_MAX + 4096;
	char *big = malloc(n + 64);
	assert_non_null(big);
	size_t k = (size_t)snprintf(big, 64, "```json\n");
	while (k < n) {
		memcpy(big + k, "0123456789abcde\n", 16);
		k += 16;
	}
	memcpy(big + k, "```\n", 5);
	load(&lg, big);
	free(big);
	assert_int_equal(lg.n_codes, 1);
	assert_int_equal(lg.codes[0].truncated, 1);
	assert_true(strlen(lg.codes[0].text) <= OPTLOG_CODE_MAX);
	assert_true(strlen(lg.codes[0].text) > OPTLOG_CODE_MAX - 32);
	optlog_release(&lg);
	/* all blocks together keep at most OPTLOG_CODES_TOTAL: the later ones
	 * keep their line and round, without text */
	size_t nb = OPTLOG_CODES_TOTAL / (200 * 1024) + 3, per = 200 * 1024;
	big = malloc(nb * (per + 32) + 64);
	assert_non_null(big);
	k = 0;
	for (size_t b = 0; b < nb; b++) {
		k += (size_t)snprintf(big + k, 16, "```json\n");
		for (size_t i = 0; i < per / 16; i++, k += 16)
			memcpy(big + k, "0123456789abcde\n", 16);
		k += (size_t)snprintf(big + k, 16, "```\n");
	}
	big[k] = '\0';
	load(&lg, big);
	free(big);
	assert_int_equal(lg.n_codes, nb);
	size_t total = 0;
	for (size_t b = 0; b < nb; b++)
		total += strlen(lg.codes[b].text);
	assert_true(total <= OPTLOG_CODES_TOTAL);
	assert_int_equal(lg.codes[0].truncated, 0);
	assert_int_equal(lg.codes[nb - 1].truncated, 1);
	assert_string_equal(lg.codes[nb - 1].text, "");
	assert_int_equal(lg.codes[nb - 1].line, (long)((nb - 1) * (per / 16 + 2) + 1));
	optlog_release(&lg);
}


/* The files a log cites as held by its folder, in several phrasings; a
 * mention the line negates is no citation (issue 35 item 3). */
static void contract_cites(void **s)
{
	(void)s;
	static const struct { const char *text; long inv, fb, rec; } C[] = {
		{ "# Log\n\n## Workload Inventory（详见 workload_inventory.json）\n", 3, 0, 0 },
		{ "# Log\n\nSee `perf_opt/perf_feedback.md` for the design feedback.\n", 0, 3, 0 },
		{ "# Log\n\n- final_latency（与 perf_records.jsonl round 5 逐条对账）\n", 0, 0, 3 },
		{ "# Log\n\n- **合并检查**：perf_records 行 15–19 复测\n", 0, 0, 3 },
		{ "# Log\n\n按标准禁止产出 perf_feedback.md。\n", 0, 0, 0 },
		{ "# Log\n\nNo perf_feedback.md was written (no design limit).\n", 0, 0, 0 },
		{ "# Log\n\nperf_feedback.md 未产出（不触发）。\n", 0, 0, 0 },
		{ "# Log\n\nThe inventory was not needed; without workload_inventory.json this is v1.\n", 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(C) / sizeof(C[0]); i++) {
		struct optlog lg;
		load(&lg, C[i].text);
		if (lg.cite_inventory_line != C[i].inv || lg.cite_feedback_line != C[i].fb ||
		    lg.cite_records_line != C[i].rec) {
			print_error("case %zu: %ld %ld %ld\n", i, lg.cite_inventory_line, lg.cite_feedback_line,
				    lg.cite_records_line);
			fail();
		}
		optlog_release(&lg);
	}
}

/* The latest word wins: a final conclusion after a Final Summary is the
 * summary; the claims it supersedes are kept, and whether a session
 * heading stands between (issue 35 item 2). */
static void final_conclusion(void **s)
{
	(void)s;
	static const char *const heads[] = { "## P.7 最终结论（Round 2 终态）", "## 最终结论", "## Final conclusion",
					     "### 终态", "## 3. Final Summary（session 2）", NULL };
	for (int i = 0; heads[i]; i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "# Log\n\n## Final Summary\n\n- w1: 103.42 → 98.80 us\n\n# Session 2\n\n%s\n\n"
			 "- w1: 103.42 → 78.30 us\n- 中止原因：success\n",
			 heads[i]);
		struct optlog lg;
		load(&lg, text);
		assert_int_equal(lg.summary_line, 9);
		assert_int_equal(lg.prev_summary_line, 3);
		assert_int_equal(lg.session_line, 7);
		assert_int_equal(lg.n_prev_claims, 1);
		assert_close(lg.prev_claims[0].final_us, 98.80, 1e-9);
		assert_int_equal(lg.n_claims, 1);
		assert_close(lg.claims[0].final_us, 78.30, 1e-9);
		optlog_release(&lg);
	}
	/* no session heading between: session_line stays 0 */
	struct optlog lg;
	load(&lg, "# Log\n\n## Final Summary\n\n- w1: 10 → 5 us\n\n## 最终结论\n\n- w1: 10 → 4 us\n");
	assert_int_equal(lg.session_line, 0);
	assert_int_equal(lg.prev_summary_line, 3);
	optlog_release(&lg);
	/* a heading that only mentions a conclusion later is not one */
	load(&lg, "# Log\n\n## Final Summary\n\n- w1: 10 → 5 us\n\n## Notes on the 最终结论 of round 1\n");
	assert_int_equal(lg.summary_line, 3);
	optlog_release(&lg);
}

/* Geometric means in % and summary lines under the final table; the
 * last table with a baseline and a final column (issue 35 item 1). */
static void own_figures(void **s)
{
	(void)s;
	struct optlog lg;
	load(&lg, "# Log\n\n## Final Performance Test Data\n\n"
		  "| workload | incumbent (R1 final) | final (v3) | 提升 |\n|---|---:|---:|---:|\n"
		  "| w1 (N=26,214,400) | 103.42（A/B 103.40） | **78.30**（5 复测中位） | -24.3% |\n"
		  "| w2 | 55.18 µs | 42.93 µs | -22.2% |\n\n"
		  "- **几何平均提升（2 workload）= 1.31×**\n\n"
		  "## Final Summary\n\n- geomean improvement: -23.3%\n- 几何平均时延下降 23.3%\n");
	assert_int_equal(lg.figs_table_line, 5);
	assert_int_equal(lg.n_figs, 2);
	assert_string_equal(lg.figs[0].label, "w1");
	assert_close(lg.figs[0].base_us, 103.42, 1e-9);
	assert_close(lg.figs[0].final_us, 78.30, 1e-9);
	assert_close(lg.figs[1].final_us, 42.93, 1e-9);
	assert_int_equal(lg.n_geomeans, 3); /* the final table's line joins the summary's */
	assert_int_equal(lg.geomeans[0].line, 10);
	assert_false(lg.geomeans[0].percent);
	assert_int_equal(lg.geomeans[0].scope, 2);
	assert_true(lg.geomeans[1].percent);
	assert_close(lg.geomeans[1].value, -23.3, 1e-9);
	assert_int_equal(lg.geomeans[1].decimals, 1);
	assert_true(lg.geomeans[2].percent);
	optlog_release(&lg);
}


/* A claim needs a claim: deviations, error ratios, bounds, figures the
 * log disowns and sample counts are no claims, in Chinese and English,
 * bold and plain, list and prose; a real claim beside them still is
 * (issue 35 item 5). */
static void not_claims(void **s)
{
	(void)s;
	const char *const *lines = not_claim_lines;
	for (int i = 0; lines[i]; i++) {
		char text[512];
		snprintf(text, sizeof(text), "# Log\n\n## Final Summary\n\n%s\n- speedup: 2.5x\n", lines[i]);
		struct optlog lg;
		load(&lg, text);
		size_t notes = 0;
		for (size_t k = 0; k < lg.n_notes; k++)
			notes += lg.notes[k].kind == OPTLOG_NOTE_PROSE;
		if (lg.n_ratios != 1 || lg.ratios[0].line != 6 || notes != 0) {
			print_error("'%s': %zu ratios, %zu prose notes\n", lines[i], lg.n_ratios, notes);
			fail();
		}
		optlog_release(&lg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_code_blocks),
		cmocka_unit_test(contract_cites),
		cmocka_unit_test(final_conclusion),
		cmocka_unit_test(own_figures),
		cmocka_unit_test(not_claims),
		cmocka_unit_test(rounds_and_captions),
		cmocka_unit_test(not_incumbent),
		cmocka_unit_test(last_summary_claims),
		cmocka_unit_test(budgets_and_noise),
		cmocka_unit_test(final_table),
		cmocka_unit_test(suppressions_and_retro),
		cmocka_unit_test(bad_bytes),
		cmocka_unit_test(runs_and_run_labels),
		cmocka_unit_test(issue12_formats),
		cmocka_unit_test(heading_numbering),
		cmocka_unit_test(claim_steps),
		cmocka_unit_test(best_steps),
		cmocka_unit_test(geomean_scope_steps),
		cmocka_unit_test(budget_steps),
		cmocka_unit_test(suppression_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
