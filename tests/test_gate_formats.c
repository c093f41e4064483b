/* test_gate_formats.c: the opt_log.md formats of issue 12 (testdata/gate_formats/
 * formats, written for this project): each honest fixture passes, and
 * each tampering fails with its rule, naming the round or the claim. */
#include "gatelib.h"

static char *scratch;
static char po[4096];
static char path[4096];

static const char *fx(const char *name)
{
	char src[4096], dst[4096];
	if (scratch) {
		gl_remove_tree(scratch);
		free(scratch);
	}
	scratch = gl_scratch();
	snprintf(src, sizeof(src), "%s/gate_formats/%s", testlib_testdata(), name);
	snprintf(dst, sizeof(dst), "%s/%s", scratch, name);
	gl_copy_tree(src, dst);
	snprintf(po, sizeof(po), "%s/perf_opt", dst);
	return po;
}

static const char *f(const char *file)
{
	snprintf(path, sizeof(path), "%s/%s", po, file);
	return path;
}

static int teardown(void **state)
{
	(void)state;
	if (scratch) {
		gl_remove_tree(scratch);
		free(scratch);
		scratch = NULL;
	}
	return 0;
}

/* An error of rule whose message holds needle (and no other error). */
static void expect_error(const char *rule, const char *needle)
{
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	int ok = 0;
	for (size_t i = 0; i < fs.n; i++)
		if (fs.v[i].severity == GATE_ERROR && strcmp(fs.v[i].rule, rule) == 0 &&
		    strstr(fs.v[i].message, needle) && fs.v[i].line > 0)
			ok = 1;
	if (!ok) {
		print_error("wanted %s naming '%s' (with a line), got:\n", rule, needle);
		gl_dump(&fs);
	}
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	assert_true(ok);
}

/* No error and no warning at all. */
static void expect_clean(const char *why)
{
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	int ok = gate_count(&fs, GATE_ERROR) == 0 && gate_count(&fs, GATE_WARNING) == 0;
	if (!ok) {
		print_error("%s: wanted no error or warning, got:\n", why);
		gl_dump(&fs);
	}
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	assert_true(ok);
}

/* Removes the line holding `from` and the table that follows it. */
static void delete_table_after(const char *file, const char *from)
{
	size_t n;
	char *b = gl_read(file, &n);
	char *p = strstr(b, from);
	assert_non_null(p);
	while (p > b && p[-1] != '\n')
		p--;
	char *e = strchr(p, '\n') + 1;
	while (*e == '\n')
		e++;
	while (*e == '|') {
		char *nl = strchr(e, '\n');
		e = nl ? nl + 1 : e + strlen(e);
	}
	FILE *o = fopen(file, "wb");
	fwrite(b, 1, (size_t)(p - b), o);
	fputs(e, o);
	fclose(o);
	free(b);
}

/* ---- workloads as columns, the unit only in the caption ---- */

static void columns(void **s)
{
	(void)s;
	fx("columns");
	expect_clean("workloads as columns");
}

static void columns_heading_caption_removed(void **s)
{
	(void)s;
	fx("columns");
	delete_table_after(f("opt_log.md"), "#### Experiment Branches（候选 vs current best");
	expect_error("S4-OPTLOG-COMPTABLE", "for round 1,");
}

static void columns_bold_caption_removed(void **s)
{
	(void)s;
	fx("columns");
	delete_table_after(f("opt_log.md"), "**候选 vs current best 对比表（R2");
	expect_error("S4-OPTLOG-COMPTABLE", "for round 2,");
}

static void columns_paragraph_caption_removed(void **s)
{
	(void)s;
	fx("columns");
	delete_table_after(f("opt_log.md"), "下表为各 workload 的 Task Duration");
	expect_error("S4-OPTLOG-COMPTABLE", "for round 3,");
}

/* the incumbent is still required: a caption unit does not make any
 * table a comparison */
static void columns_no_incumbent(void **s)
{
	(void)s;
	fx("columns");
	gl_replace(f("opt_log.md"), "| c1_block64（best） | 10.10 |", "| c1_block64 | 10.10 |");
	gl_replace(f("opt_log.md"), "**候选 vs current best 对比表（R2", "**候选对比表（R2");
	expect_error("S4-OPTLOG-COMPTABLE", "for round 2,");
}

static void columns_claim_5pct(void **s)
{
	(void)s;
	fx("columns");
	gl_replace(f("opt_log.md"), "w_large: final_latency: 52.00 us", "w_large: final_latency: 54.60 us");
	expect_error("S4-PERF-RECORDS-RECON", "54.6");
}

/* numbered Final Summary headings, ASCII and Chinese punctuation */
static void numbered_summary_headings(void **s)
{
	(void)s;
	static const char *const heads[] = { "## 8. Final Summary", "## 8、Final Summary", "## 8．Final Summary",
					     "## Final Summary（总结）", "## 一、Final Summary",
					     "## （八）Final Summary", "## 8.1 Final Summary", "## **8. Final Summary**",
					     "## 8) Final Summary", "## 最终总结", "## ✅ Final Summary", NULL };
	for (int i = 0; heads[i]; i++) {
		fx("columns");
		gl_replace(f("opt_log.md"), "## 4. Final Summary", heads[i]);
		expect_clean(heads[i]);
		/* and the claims under it are read */
		gl_replace(f("opt_log.md"), "w_small: final_latency: 9.80 us", "w_small: final_latency: 10.29 us");
		expect_error("S4-PERF-RECORDS-RECON", "10.29");
	}
}

/* ---- a final confirmation round under a new candidate_id ---- */

static void confirm(void **s)
{
	(void)s;
	fx("confirm");
	expect_clean("final confirmation round");
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	assert_int_equal(res.recon.n, 2);
	for (size_t i = 0; i < res.recon.n; i++) {
		assert_true(res.recon.v[i].ok);
		assert_string_equal(res.recon.v[i].winner, "final_gelu");
	}
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
}

static void confirm_heading_variants(void **s)
{
	(void)s;
	fx("confirm");
	gl_replace(f("opt_log.md"), "## Final Confirmation（round 3）：最终文件 × 2 workload", "## Round 3（final 全配置复采）");
	expect_clean("Round 3（final 全配置复采）");
	fx("confirm");
	gl_replace(f("opt_log.md"), "## Final Confirmation（round 3）：最终文件 × 2 workload", "## 5. Final Confirmation (round 3): final file x 2 workloads");
	expect_clean("numbered ASCII confirmation heading");
}

/* an unnumbered confirmation section is assumed to be the last round:
 * a warning quoting it, no error */
static void confirm_unnumbered(void **s)
{
	(void)s;
	fx("confirm");
	gl_replace(f("opt_log.md"), "## Final Confirmation（round 3）：最终文件 × 2 workload", "### Final 全组合验证");
	gl_replace(f("opt_log.md"), "（与 perf_records round 3 对账）", "");
	gl_expect_warning(po, "S4-OPTLOG-COMPTABLE", "unnumbered confirmation section");
}

/* the same round with an experiment heading needs its table */
static void confirm_not_a_confirmation(void **s)
{
	(void)s;
	fx("confirm");
	gl_replace(f("opt_log.md"), "## Final Confirmation（round 3）：最终文件 × 2 workload", "## Iteration 3（round 3）");
	gl_replace(f("opt_log.md"), "（与 perf_records round 3 对账）", "");
	expect_error("S4-OPTLOG-COMPTABLE", "for round 3,");
}

static void confirm_claim_5pct(void **s)
{
	(void)s;
	fx("confirm");
	gl_replace(f("opt_log.md"), "- w2-780m-s4k: 219.23 us（2.77×）", "- w2-780m-s4k: 230.19 us（2.77×）");
	expect_error("S4-PERF-RECORDS-RECON", "230.19");
}

static void confirm_experiment_table_removed(void **s)
{
	(void)s;
	fx("confirm");
	/* the rows go, the heading and the header row stay */
	delete_table_after(f("opt_log.md"), "| g1_tile（current best） | w2-780m-s4k | 230.00 | — |");
	expect_error("S4-OPTLOG-COMPTABLE", "for round 2,");
}

/* ---- per-workload claim lists, subset-scoped geomean ---- */

static void claims(void **s)
{
	(void)s;
	fx("claims");
	expect_clean("claim lists and a subset geomean");
}

static void claims_list_5pct(void **s)
{
	(void)s;
	fx("claims");
	gl_replace(f("opt_log.md"), "- real-b: 58.82 us（3.40×）", "- real-b: 61.76 us（3.40×）");
	expect_error("S4-PERF-RECORDS-RECON", "61.76");
}

/* the same claims as a table in the Final Summary */
static void claims_table(void **s)
{
	(void)s;
	fx("claims");
	gl_replace(f("opt_log.md"), "- 每个 workload 的最终时延：\n  - real-a: 40.00 us（2.50×）\n  - real-b: 58.82 us（3.40×）\n",
		   "\n| workload | baseline (us) | final (us) | speedup |\n|---|---:|---:|---:|\n| real-a | 100.00 | 40.00 | 2.50× |\n| real-b | 200.00 | 58.82 | 3.40× |\n\n");
	expect_clean("claims in a Final Summary table");
	gl_replace(f("opt_log.md"), "| real-b | 200.00 | 58.82 |", "| real-b | 200.00 | 61.76 |");
	expect_error("S4-PERF-RECORDS-RECON", "61.76");
}

static void claims_subset_geomean_wrong(void **s)
{
	(void)s;
	fx("claims");
	gl_replace(f("opt_log.md"), "几何平均（2 真实 workload）2.92×", "几何平均（2 真实 workload）3.07×");
	expect_error("S4-SPEEDUP", "3.07x");
}

static void claims_all_geomean_wrong(void **s)
{
	(void)s;
	fx("claims");
	gl_replace(f("opt_log.md"), "几何平均加速比 2.04×", "几何平均加速比 2.14×");
	expect_error("S4-SPEEDUP", "2.14");
}

/* ---- appended runs: the records are the last run's ---- */

static void runs(void **s)
{
	(void)s;
	fx("runs");
	expect_clean("two appended runs");
}

static void runs_last_round1_removed(void **s)
{
	(void)s;
	fx("runs");
	delete_table_after(f("opt_log.md"), "### Experiment Branches（Round 2）");
	expect_error("S4-OPTLOG-COMPTABLE", "round 1 of the log's last tuning run (run 2 of 2)");
}

static void runs_first_run_table_removed(void **s)
{
	(void)s;
	fx("runs");
	delete_table_after(f("opt_log.md"), "| candidate | workload | task_duration_us |");
	expect_clean("a first-run table is not the last run's");
}

static void runs_last_claim_5pct(void **s)
{
	(void)s;
	fx("runs");
	gl_replace(f("opt_log.md"), "big_fp16: 100.00 → 90.00 us", "big_fp16: 100.00 → 94.50 us");
	expect_error("S4-PERF-RECORDS-RECON", "94.5");
}

/* ---- the baseline measured again, as the log explains ---- */

static void remeasure(void **s)
{
	(void)s;
	fx("remeasure");
	expect_clean("a re-measured baseline the log explains");
}

static void remeasure_unexplained(void **s)
{
	(void)s;
	fx("remeasure");
	gl_delete_line(f("opt_log.md"), "会话中断重启后");
	expect_error("S4-PERF-RECORDS-ORDER", "round goes back from 1 to 0");
}

static void remeasure_swapped(void **s)
{
	(void)s;
	fx("remeasure");
	/* round 1 and round 2 swapped: still out of order */
	size_t n;
	char *b = gl_read(f("perf_records.jsonl"), &n);
	char *l2 = strchr(b, '\n') + 1, *l3 = strchr(l2, '\n') + 1, *l4 = strchr(l3, '\n') + 1;
	char *e4 = strchr(l4, '\n') + 1;
	FILE *o = fopen(f("perf_records.jsonl"), "wb");
	fwrite(b, 1, (size_t)(l2 - b), o);
	fwrite(l4, 1, (size_t)(e4 - l4), o);
	fwrite(l3, 1, (size_t)(l4 - l3), o);
	fwrite(l2, 1, (size_t)(l3 - l2), o);
	fputs(e4, o);
	fclose(o);
	free(b);
	expect_error("S4-PERF-RECORDS-ORDER", "parent_id 'm1_split' names no candidate recorded earlier");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(columns, teardown),
		cmocka_unit_test_teardown(columns_heading_caption_removed, teardown),
		cmocka_unit_test_teardown(columns_bold_caption_removed, teardown),
		cmocka_unit_test_teardown(columns_paragraph_caption_removed, teardown),
		cmocka_unit_test_teardown(columns_no_incumbent, teardown),
		cmocka_unit_test_teardown(columns_claim_5pct, teardown),
		cmocka_unit_test_teardown(numbered_summary_headings, teardown),
		cmocka_unit_test_teardown(confirm, teardown),
		cmocka_unit_test_teardown(confirm_heading_variants, teardown),
		cmocka_unit_test_teardown(confirm_unnumbered, teardown),
		cmocka_unit_test_teardown(confirm_not_a_confirmation, teardown),
		cmocka_unit_test_teardown(confirm_claim_5pct, teardown),
		cmocka_unit_test_teardown(confirm_experiment_table_removed, teardown),
		cmocka_unit_test_teardown(claims, teardown),
		cmocka_unit_test_teardown(claims_list_5pct, teardown),
		cmocka_unit_test_teardown(claims_table, teardown),
		cmocka_unit_test_teardown(claims_subset_geomean_wrong, teardown),
		cmocka_unit_test_teardown(claims_all_geomean_wrong, teardown),
		cmocka_unit_test_teardown(runs, teardown),
		cmocka_unit_test_teardown(runs_last_round1_removed, teardown),
		cmocka_unit_test_teardown(runs_first_run_table_removed, teardown),
		cmocka_unit_test_teardown(runs_last_claim_5pct, teardown),
		cmocka_unit_test_teardown(remeasure, teardown),
		cmocka_unit_test_teardown(remeasure_unexplained, teardown),
		cmocka_unit_test_teardown(remeasure_swapped, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
