/* test_gate.c: gate 4 verdicts on the project's fixtures (testdata/gate),
 * one test per row of the reference EXPECTED.md tables, then the rules the
 * old gates lacked. */
#include "gatelib.h"
#include "notclaims.h"

static char *scratch;
static char po[4096];   /* the perf_opt directory of the current copy */
static char path[4096];

/* Copies testdata/gate/NAME into a fresh scratch dir; po = its perf_opt. */
static const char *fx(const char *name)
{
	char src[4096], dst[4096];
	if (scratch) {
		gl_remove_tree(scratch);
		free(scratch);
	}
	scratch = gl_scratch();
	snprintf(src, sizeof(src), "%s/gate/%s", testlib_testdata(), name);
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

/* ---- EXPECTED.md, v1 table ---- */

static void v1_as_is(void **s)
{
	(void)s;
	gl_expect(fx("v1"), NULL, "v1 as is");
}

static void v1_within_1pct(void **s)
{
	(void)s;
	fx("v1");
	gl_replace(f("opt_log.md"), "final_latency: 64.0 us", "final_latency: 64.6 us");
	gl_expect(po, NULL, "claim 0.9% off");
}

static void v1_claim_off(void **s)
{
	(void)s;
	fx("v1");
	gl_replace(f("opt_log.md"), "final_latency: 64.0 us", "final_latency: 32.0 us");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "claim 50% off");
}

static void v1_claim_removed(void **s)
{
	(void)s;
	fx("v1");
	gl_delete_line(f("opt_log.md"), "final_latency:");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "no claim");
}

/* a label that is no workload (prose) still gets its number checked */
static void v1_claim_label_prose(void **s)
{
	(void)s;
	fx("v1");
	gl_replace(f("opt_log.md"), "final_latency: 64.0 us", "最终 final_latency: 64.0 us");
	gl_expect_warning(po, "S4-PERF-RECORDS-RECON", "prose label");
	gl_replace(f("opt_log.md"), "final_latency: 64.0 us", "final_latency: 70.0 us");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "prose label, number off");
}

static void v1_records_removed(void **s)
{
	(void)s;
	fx("v1");
	unlink(f("perf_records.jsonl"));
	gl_expect_warning(po, "S4-PERF-RECORDS", "records removed");
}

static void v1_records_newline(void **s)
{
	(void)s;
	fx("v1");
	gl_write(f("perf_records.jsonl"), "\n");
	gl_expect(po, "S4-PERF-RECORDS", "records only a newline");
}

static void v1_not_json(void **s)
{
	(void)s;
	fx("v1");
	gl_append(f("perf_records.jsonl"), "not-json\n");
	gl_expect(po, "S4-PERF-RECORDS-SCHEMA", "not-json line");
}

static void v1_two_fields(void **s)
{
	(void)s;
	fx("v1");
	gl_append(f("perf_records.jsonl"), "{\"round\": 2, \"candidate_id\": \"r2\"}\n");
	gl_expect(po, "S4-PERF-RECORDS-SCHEMA", "only round and candidate_id");
}

static void v1_duration_text(void **s)
{
	(void)s;
	fx("v1");
	gl_replace(f("perf_records.jsonl"), "\"duration_us\": 64.0", "\"duration_us\": \"fast\"");
	gl_expect(po, "S4-PERF-RECORDS-SCHEMA", "duration_us fast");
}

static void v1_table_broken(void **s)
{
	(void)s;
	fx("v1");
	gl_delete_line(f("opt_log.md"), "| candidate | Task Duration(us)");
	gl_replace(f("opt_log.md"), "current best (baseline)", "基线");
	gl_expect(po, "S4-OPTLOG-COMPTABLE", "header row removed, current best renamed");
}

static void v1_optlog_missing(void **s)
{
	(void)s;
	fx("v1");
	unlink(f("opt_log.md"));
	gl_expect(po, "S4-OPTLOG", "opt_log.md missing");
}

static void v1_optlog_empty(void **s)
{
	(void)s;
	fx("v1");
	gl_write(f("opt_log.md"), "");
	gl_expect(po, "S4-OPTLOG", "opt_log.md empty");
}

static void v1_no_retrospective(void **s)
{
	(void)s;
	fx("v1");
	gl_replace(f("opt_log.md"), "## Skill Retrospective", "## Closing notes");
	gl_expect_warning(po, "S4-OPTLOG", "no Skill Retrospective");
}

/* ---- EXPECTED.md, v2 table ---- */

static void v2_as_is(void **s)
{
	(void)s;
	gl_expect(fx("v2-single"), NULL, "v2-single as is");
	gl_expect(fx("v2-multi"), NULL, "v2-multi as is");
}

static void v2_within_1pct(void **s)
{
	(void)s;
	fx("v2-single");
	gl_replace(f("opt_log.md"), "| 80.0 | 64.0 |", "| 80.0 | 64.5 |");
	gl_expect(po, NULL, "final_us 0.8% off");
}

static void v2_final_off(void **s)
{
	(void)s;
	fx("v2-single");
	gl_replace(f("opt_log.md"), "| 80.0 | 64.0 |", "| 80.0 | 32.0 |");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "final_us 50% off");
}

static void v2_heading_renamed(void **s)
{
	(void)s;
	fx("v2-single");
	gl_replace(f("opt_log.md"), "## Final Performance Test Data", "## Final numbers");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "Final heading renamed");
}

static void v2_records_removed(void **s)
{
	(void)s;
	fx("v2-single");
	unlink(f("perf_records.jsonl"));
	gl_expect(po, "S4-PERF-RECORDS-COVERAGE", "v2 records removed");
}

static void v2_records_newline(void **s)
{
	(void)s;
	fx("v2-single");
	gl_write(f("perf_records.jsonl"), "\n");
	gl_expect(po, "S4-PERF-RECORDS-COVERAGE", "v2 records only a newline");
}

static void v2_baseline_only(void **s)
{
	(void)s;
	fx("v2-single");
	gl_replace(f("opt_log.md"), "current best", "baseline only");
	gl_expect(po, "S4-OPTLOG-COMPTABLE", "current best -> baseline only");
}

static void v2_inventory_removed(void **s)
{
	(void)s;
	fx("v2-single");
	unlink(f("workload_inventory.json"));
	gl_expect(po, "S4-WORKLOAD-INVENTORY", "inventory removed");
}

static void v2m_final_dropped(void **s)
{
	(void)s;
	fx("v2-multi");
	gl_delete_line(f("perf_records.jsonl"), "\"profiles/final/mid-f16\"");
	gl_expect(po, "S4-PERF-RECORDS-COVERAGE", "a final record dropped");
}

static void v2m_final_candidate_changed(void **s)
{
	(void)s;
	fx("v2-multi");
	gl_replace(f("perf_records.jsonl"),
		   "\"candidate_id\": \"merged-final\", \"parent_id\": \"baseline\", \"kernel_id\": \"ops/gelu.py::main\", \"workload_id\": \"mid-f16\"",
		   "\"candidate_id\": \"other-final\", \"parent_id\": \"baseline\", \"kernel_id\": \"ops/gelu.py::main\", \"workload_id\": \"mid-f16\"");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "final candidate changed");
}

static void v2m_smoke_precision(void **s)
{
	(void)s;
	fx("v2-multi");
	gl_replace(f("workload_inventory.json"), "\"precision_pass\": true", "\"precision_pass\": false");
	gl_expect(po, "S4-WORKLOAD-INVENTORY", "smoke precision_pass false");
}

static void v2m_smoke_record(void **s)
{
	(void)s;
	fx("v2-multi");
	size_t n;
	char *b = gl_read(f("perf_records.jsonl"), &n);
	char *line = strndup(b, (size_t)(strchr(b, '\n') - b));
	gl_write(f("extra"), line);
	gl_replace(f("extra"), "\"workload_id\": \"big-f16\"", "\"workload_id\": \"tiny-f16\"");
	char *x = gl_read(f("extra"), NULL);
	gl_append(f("perf_records.jsonl"), x);
	gl_append(f("perf_records.jsonl"), "\n");
	unlink(f("extra"));
	free(x);
	free(line);
	free(b);
	gl_expect(po, "S4-PERF-RECORDS-COVERAGE", "a record for a smoke workload");
}

static void v2m_smoke_declared_tune(void **s)
{
	(void)s;
	fx("v2-multi");
	gl_replace(f("workload_inventory.json"),
		   "\"marks\": [\"smoke\"], \"shape\": [64], \"dtype\": \"float16\", \"params\": {}, \"kind\": \"smoke\"",
		   "\"marks\": [\"smoke\"], \"shape\": [64], \"dtype\": \"float16\", \"params\": {}, \"kind\": \"tune\"");
	gl_expect(po, "S4-WORKLOAD-INVENTORY", "smoke declared tune");
}

static void v2m_kernel_edited(void **s)
{
	(void)s;
	fx("v2-multi");
	gl_append(f("k.py"), "TILE = 256\n");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "kernel edited after hashing");
}

static void v2m_tuning_status_removed(void **s)
{
	(void)s;
	fx("v2-multi");
	gl_replace(f("workload_inventory.json"), ", \"tuning_status\": \"winner_merged\"", "");
	gl_expect(po, "S4-WORKLOAD-INVENTORY", "tuning_status removed");
}

static void v2m_smoke_in_final_table(void **s)
{
	(void)s;
	fx("v2-multi");
	gl_replace(f("opt_log.md"), "| ops/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |",
		   "| ops/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |\n"
		   "| ops/gelu.py::main | tiny-f16 | 1.0 | 1.0 | merged-final |");
	gl_expect(po, "S4-PERF-RECORDS-RECON", "smoke workload in the Final table");
}

/* ---- what the old gates missed ---- */

static const char *MULTI_LOG =
	"# log\n\n## Iteration 1（round 1）：tiles\n\n"
	"**候选 vs current best 对比表（round 1）**\n\n"
	"| candidate | Task Duration(us) | L0 |\n|---|---:|---|\n| baseline（best） | 100 | pass |\n| c1 | 80 | pass |\n\n"
	"## Iteration 2（round 2）\n\nwe tried c2.\n\n"
	"| candidate | Task Duration(us) |\n|---|---:|\n| c2 | 70 |\n\n"
	"### Round 3 — c3\n\n- 候选 vs current_best（c2）对比表：\n\n"
	"| workload | c2 (us) | c3 (us) |\n|---|---:|---:|\n| w | 70 | 65 |\n\n"
	"## Final Summary\n\nbest: c3\nfinal_latency: **65.0** µs\n几何平均加速比：1.54x\n中止原因: success\n\n"
	"## Skill Retrospective\n\nnone\n";

static void write_multi(void)
{
	fx("v1");
	gl_write(f("opt_log.md"), MULTI_LOG);
	gl_write(f("perf_records.jsonl"),
		 "{\"round\": 0, \"candidate_id\": \"baseline\", \"parent_id\": null, \"dispatch_path\": \"k\", \"workload\": \"w\", \"duration_us\": 100, \"l0_pass\": true, \"timestamp\": \"2026-10-01T00:00:00Z\"}\n"
		 "{\"round\": 1, \"candidate_id\": \"c1\", \"parent_id\": \"baseline\", \"dispatch_path\": \"k\", \"workload\": \"w\", \"duration_us\": 80, \"l0_pass\": true, \"timestamp\": \"2026-10-01T00:01:00Z\"}\n"
		 "{\"round\": 2, \"candidate_id\": \"c2\", \"parent_id\": \"c1\", \"dispatch_path\": \"k\", \"workload\": \"w\", \"duration_us\": 70, \"l0_pass\": true, \"timestamp\": \"2026-10-01T00:02:00Z\"}\n"
		 "{\"round\": 3, \"candidate_id\": \"c3\", \"parent_id\": \"c2\", \"dispatch_path\": \"k\", \"workload\": \"w\", \"duration_us\": 65, \"l0_pass\": true, \"timestamp\": \"2026-10-01T00:03:00Z\"}\n");
}

static void comptable_per_round(void **s)
{
	(void)s;
	struct gate_findings fs;
	struct gatecheck_result res;
	write_multi();
	gl_run(po, &fs, &res);
	assert_true(gl_has(&fs, "S4-OPTLOG-COMPTABLE", GATE_ERROR));
	const char *m = gl_message(&fs, "S4-OPTLOG-COMPTABLE");
	/* round 2 only: round 1 has a captioned table, round 3 uses current_best */
	assert_non_null(strstr(m, "round 2,"));
	assert_null(strstr(m, "round 1"));
	assert_null(strstr(m, "3"));
	assert_int_equal(gate_count(&fs, GATE_ERROR), 1);
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	/* with the incumbent shown, round 2 passes too */
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| c1（best） | 80 |\n| c2 | 70 |");
	gl_expect(po, NULL, "every round has its table");
}

/* A row naming the incumbent (issue 35 item 4) shows the current best of
 * its round, whichever candidate that is: in round 2 c1 (80 us), not the
 * round-0 baseline (100 us) its label may name (`r2_baseline (=best)`). */
static void comptable_incumbent_rows(void **s)
{
	(void)s;
	static const char *const labels[] = {
		"r2_baseline (=best)", "**r2_baseline (=best)**", "(=best)", "= current best", "**incumbent**",
		"当前最优", "r2_baseline（当前最优）", "current best（c1）", "baseline（current best，即 c1）",
	};
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		for (int wrong = 0; wrong < 2; wrong++) {
			char row[256];
			struct gate_findings fs;
			struct gatecheck_result res;
			write_multi();
			snprintf(row, sizeof(row), "| %s | %s |\n| c2 | 70 |", labels[i], wrong ? "90" : "80");
			gl_replace(f("opt_log.md"), "| c2 | 70 |", row);
			gl_run(po, &fs, &res);
			int errs = 0, others = 0;
			for (size_t k = 0; k < fs.n; k++) {
				if (strcmp(fs.v[k].rule, "S4-COMPTABLE-RECON") != 0)
					continue;
				if (fs.v[k].severity == GATE_ERROR && fs.v[k].line == 18 && strstr(fs.v[k].message, "shows 90"))
					errs++;
				else
					others++;
			}
			if (errs != wrong || others) {
				print_error("'%s' showing %s: wanted %d error(s), got:\n", labels[i], wrong ? "90" : "80", wrong);
				gl_dump(&fs);
			}
			gate_findings_release(&fs);
			gatecheck_result_release(&res);
			assert_int_equal(errs, wrong);
			assert_int_equal(others, 0);
		}
	}
	/* the message names the row and the fastest candidate before the round */
	struct gate_findings fs;
	struct gatecheck_result res;
	write_multi();
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| r2_baseline (=best) | 90 |\n| c2 | 70 |");
	gl_run(po, &fs, &res);
	const char *m = gl_message(&fs, "S4-COMPTABLE-RECON");
	assert_non_null(m);
	assert_non_null(strstr(m, "for the current best ('r2_baseline (=best)') on 'w'"));
	assert_non_null(strstr(m, "none of the 2 candidates measured on it before round 2 (the fastest: 'c1' 80 us"));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	/* a bare `best` (the round's new best?) is not read as the incumbent */
	write_multi();
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| current best（c1） | 80 |\n| best this round | 75 |\n| c2 | 70 |");
	gl_expect(po, NULL, "a bare best is no incumbent row");
}

/* A claim needs a claim (issue 35 item 5), with records present: prose
 * that is no claim about the final result (a deviation, an error ratio, a
 * negated bound, a figure the log disowns, a sample count) adds no finding
 * beside a real claim; before, each was a speedup, % change or latency
 * the records did not support, a warning. */
static void not_claims_with_records(void **s)
{
	(void)s;
	const char *const *lines = not_claim_lines;
	struct gate_findings fs;
	struct gatecheck_result res;
	fx("v1");
	gl_run(po, &fs, &res);
	size_t errors = gate_count(&fs, GATE_ERROR), warnings = gate_count(&fs, GATE_WARNING);
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	assert_int_equal(errors, 0);
	for (int i = 0; lines[i]; i++) {
		char to[512];
		fx("v1");
		snprintf(to, sizeof(to), "overall: 20.0%%\n%s", lines[i]);
		gl_replace(f("opt_log.md"), "overall: 20.0%", to);
		gl_run(po, &fs, &res);
		if (gate_count(&fs, GATE_ERROR) != errors || gate_count(&fs, GATE_WARNING) != warnings) {
			print_error("'%s' read as a claim:\n", lines[i]);
			gl_dump(&fs);
		}
		assert_int_equal(gate_count(&fs, GATE_ERROR), errors);
		assert_int_equal(gate_count(&fs, GATE_WARNING), warnings);
		gate_findings_release(&fs);
		gatecheck_result_release(&res);
	}
	/* a real claim beside them still is: 30% where the records give 20% */
	fx("v1");
	gl_replace(f("opt_log.md"), "overall: 20.0%", "overall: 30.0%\n- 与 records 偏差 0%，性能一致");
	gl_expect(po, "S4-SPEEDUP", "overall 30% with a deviation line beside it");
}

static void speedup_claim(void **s)
{
	(void)s;
	write_multi();
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| current best c1 | 80 |\n| c2 | 70 |");
	gl_expect(po, NULL, "geomean 100/65 = 1.54");
	gl_replace(f("opt_log.md"), "1.54x", "1.62x");
	gl_expect(po, "S4-SPEEDUP", "geomean 5% off");
}

static void recon_not_baseline(void **s)
{
	(void)s;
	write_multi();
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| current best c1 | 80 |\n| c2 | 70 |");
	gl_replace(f("opt_log.md"), "final_latency: **65.0** µs", "final_latency: 100 us");
	gl_replace(f("opt_log.md"), "1.54x", "1.0x");
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	assert_true(gl_has(&fs, "S4-PERF-RECORDS-RECON", GATE_ERROR));
	assert_non_null(strstr(gl_message(&fs, "S4-PERF-RECORDS-RECON"), "baseline"));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
}

static void recon_last_summary_wins(void **s)
{
	(void)s;
	write_multi();
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| current best c1 | 80 |\n| c2 | 70 |");
	/* an older, superseded summary claiming the round-1 result comes first */
	gl_replace(f("opt_log.md"), "## Iteration 2", "## Final Summary\n\nbest: c1\nfinal_latency: 50 us\n\n## Iteration 2");
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	assert_int_equal(gate_count(&fs, GATE_ERROR), 0);
	assert_true(gl_has(&fs, "S4-PERF-RECORDS-RECON", GATE_NOTE));
	assert_int_equal(res.recon.n, 1);
	assert_close(res.recon.v[0].claimed_us, 65.0, 0);
	assert_close(res.recon.v[0].winner_us, 65.0, 0);
	assert_close(res.recon.v[0].baseline_us, 100.0, 0);
	assert_string_equal(res.recon.v[0].winner, "c3");
	assert_string_equal(res.recon.stop_reason, "success");
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
}

static void order_rules(void **s)
{
	(void)s;
	fx("v1");
	gl_append(f("perf_records.jsonl"),
		  "{\"round\": 0, \"candidate_id\": \"late\", \"parent_id\": \"nobody\", \"dispatch_path\": \"k_kernel::main\", \"workload\": \"wa\", \"duration_us\": 60, \"l0_pass\": true, \"timestamp\": \"2026-10-01T09:00:00Z\"}\n");
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	size_t order = 0;
	for (size_t i = 0; i < fs.n; i++)
		if (!strcmp(fs.v[i].rule, "S4-PERF-RECORDS-ORDER") && fs.v[i].severity == GATE_ERROR)
			order++;
	assert_int_equal(order, 2); /* round goes back; unknown parent */
	gate_findings_release(&fs);
	gatecheck_result_release(&res);

	fx("v1");
	gl_replace(f("perf_records.jsonl"), "\"round\": 0, \"candidate_id\": \"baseline\"", "\"round\": 1, \"candidate_id\": \"baseline\"");
	gl_expect(po, "S4-PERF-RECORDS-ORDER", "first record not round 0");
}

static void order_duplicate(void **s)
{
	(void)s;
	fx("v1");
	gl_append(f("perf_records.jsonl"),
		  "{\"round\": 1, \"candidate_id\": \"r1_tile_swap\", \"parent_id\": \"baseline\", \"dispatch_path\": \"k_kernel::main\", \"workload\": \"wa\", \"duration_us\": 64.2, \"l0_pass\": true, \"timestamp\": \"2026-10-01T08:06:00Z\"}\n");
	gl_expect_warning(po, "S4-PERF-RECORDS-ORDER", "duplicate measurement");
	gl_replace(f("opt_log.md"), "### Round 1\n", "### Round 1\n\nr1_tile_swap 复测 twice.\n");
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	assert_false(gl_has(&fs, "S4-PERF-RECORDS-ORDER", GATE_WARNING));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
}

static void stop_reason_rules(void **s)
{
	(void)s;
	write_multi();
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| current best c1 | 80 |\n| c2 | 70 |");
	gl_replace(f("opt_log.md"), "中止原因: success", "中止原因: plateau");
	gl_expect_warning(po, "S4-STOP-REASON", "plateau while round 3 improved");
	gl_replace(f("opt_log.md"), "中止原因: plateau", "中止原因: budget_exhausted");
	gl_expect_warning(po, "S4-STOP-REASON", "budget with 3 rounds");
	gl_replace(f("opt_log.md"), "# log\n", "# log\n\nbudget: max_rounds=3\n");
	gl_expect(po, NULL, "budget of 3 rounds reached");
}

static void plateau_holds(void **s)
{
	(void)s;
	write_multi();
	gl_replace(f("opt_log.md"), "| c2 | 70 |", "| current best c1 | 80 |\n| c2 | 70 |");
	gl_replace(f("opt_log.md"), "中止原因: success", "中止原因: plateau");
	/* rounds 4..6 re-measure c3 without gain: plateau holds */
	for (int r = 4; r <= 6; r++) {
		char line[512];
		snprintf(line, sizeof(line),
			 "{\"round\": %d, \"candidate_id\": \"c3\", \"parent_id\": \"c2\", \"dispatch_path\": \"k\", \"workload\": \"w\", \"duration_us\": %s, \"l0_pass\": true, \"timestamp\": \"2026-10-01T00:0%d:00Z\"}\n",
			 r, r == 5 ? "63.5" : "65.2", r);
		gl_append(f("perf_records.jsonl"), line);
	}
	gl_expect(po, NULL, "plateau after three flat rounds (63.5 is within 3%)");
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	assert_false(gl_has(&fs, "S4-STOP-REASON", GATE_WARNING));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
}

static void layout_rule(void **s)
{
	(void)s;
	fx("v1");
	gl_write(f("probe_tiles.log"), "x\n");
	gl_write(f("debug_log.md"), "x\n");
	gl_expect_warning(po, "S4-LAYOUT", "stray logs");
	fx("v1");
	gl_replace(f("perf_records.jsonl"), "perf_opt/profiles/r1/", "perf_opt/profiles/gone/");
	gl_expect_warning(po, "S4-LAYOUT", "missing profile");
}

/* The line of a finding of rule whose message contains text; 0 when none. */
static long line_of_finding(const struct gate_findings *fs, const char *rule, const char *text)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].rule, rule) == 0 && strstr(fs->v[i].message, text))
			return fs->v[i].line;
	return 0;
}

/* Every feedback finding names the line it quotes, also when many
 * findings of different kinds interleave through the file. */
static void feedback_lines(const char *src)
{
	size_t len;
	gl_copy_tree(src, f("perf_feedback.md"));
	char *text = gl_read(f("perf_feedback.md"), &len);
	long base = 1;
	for (size_t i = 0; i < len; i++)
		base += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		base++;
	free(text);
	/* line base: blank; base+1: a slot and a path; base+2: FIXME; base+3..: two more paths */
	gl_append(f("perf_feedback.md"), "\nA <第一个槽> and docs/gone/a.md here\nFIXME\n"
					 "examples/gone/b.py\n<第二个槽> docs/gone/c.md\n");
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(po, &fs, &res);
	assert_int_equal(line_of_finding(&fs, "S4-PERF-FEEDBACK-PLACEHOLDER", "<第一个槽>"), base + 1);
	assert_int_equal(line_of_finding(&fs, "S4-PERF-FEEDBACK-PLACEHOLDER", "<第二个槽>"), base + 4);
	assert_int_equal(line_of_finding(&fs, "S4-PERF-FEEDBACK-PLACEHOLDER", "FIXME"), base + 2);
	assert_int_equal(line_of_finding(&fs, "S4-PERF-FEEDBACK-REF", "docs/gone/a.md"), base + 1);
	assert_int_equal(line_of_finding(&fs, "S4-PERF-FEEDBACK-REF", "examples/gone/b.py"), base + 3);
	assert_int_equal(line_of_finding(&fs, "S4-PERF-FEEDBACK-REF", "docs/gone/c.md"), base + 4);
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
}

static void feedback_rules(void **s)
{
	(void)s;
	char src[4096];
	fx("v1");
	snprintf(src, sizeof(src), "%s/gate/v1/perf_feedback.example.md", testlib_testdata());
	gl_copy_tree(src, f("perf_feedback.md"));
	gl_expect(po, NULL, "valid feedback");
	gl_replace(f("perf_feedback.md"), "建议路由", "路由");
	gl_expect(po, "S4-PERF-FEEDBACK-ROUTE", "no 建议路由");
	gl_copy_tree(src, f("perf_feedback.md"));
	gl_replace(f("perf_feedback.md"), "## 影响面", "## 其他");
	gl_expect(po, "S4-PERF-FEEDBACK-SCHEMA", "section missing");
	gl_copy_tree(src, f("perf_feedback.md"));
	gl_replace(f("perf_feedback.md"), "2.6x", "1.6x");
	gl_expect(po, "S4-PERF-FEEDBACK-TRIGGER", "no estimate above 2x");
	gl_copy_tree(src, f("perf_feedback.md"));
	gl_replace(f("perf_feedback.md"), "msprof op", "profiler");
	gl_expect(po, "S4-PERF-FEEDBACK-METRIC", "no msprof");
	gl_copy_tree(src, f("perf_feedback.md"));
	gl_replace(f("perf_feedback.md"), "未找到参照 in", "examples/none/ref.py in");
	gl_replace(f("perf_feedback.md"), "- 不可移植论证: none needed (no reference found).", "- see above");
	gl_expect(po, "S4-PERF-FEEDBACK-ANCHOR", "reference without argument");
	gl_copy_tree(src, f("perf_feedback.md"));
	gl_append(f("perf_feedback.md"), "\nSee docs/not/there.md and <填写算子名>. TODO\n");
	gl_expect(po, "S4-PERF-FEEDBACK-REF", "cited path missing");
	gl_expect(po, "S4-PERF-FEEDBACK-PLACEHOLDER", "placeholders");
	feedback_lines(src);
}

/* A configuration from text (the test's own, so it must parse). */
static void cfg_from(struct gate_config *cfg, const char *json)
{
	char err[256];
	gate_config_init(cfg);
	if (gate_config_parse(json, strlen(json), "base.json", cfg, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

/* Findings of rule that count (not suppressed), and those suppressed. */
static size_t n_live(const struct gate_findings *fs, const char *rule)
{
	size_t k = 0;
	for (size_t i = 0; i < fs->n; i++)
		k += !strcmp(fs->v[i].rule, rule) && !fs->v[i].sup_file;
	return k;
}

static size_t n_suppressed(const struct gate_findings *fs, const char *rule)
{
	size_t k = 0;
	for (size_t i = 0; i < fs->n; i++)
		k += !strcmp(fs->v[i].rule, rule) && fs->v[i].sup_file;
	return k;
}

static void suppressions(void **s)
{
	(void)s;
	struct gate_findings fs;
	struct gatecheck_result res;
	struct gate_config cfg;
	write_multi();
	gl_run(po, &fs, &res);
	size_t comptable = n_live(&fs, "S4-OPTLOG-COMPTABLE");
	assert_true(comptable > 0);
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	gl_append(f("opt_log.md"), "\n<!-- tlgate-disable S4-OPTLOG-COMPTABLE -- round 2 table lost in a rebase -->\n");

	/* no configuration: nothing is inline-suppressible, the rule still
	 * fires and the suppression is an error of its own */
	gl_run(po, &fs, &res);
	assert_int_equal(n_live(&fs, "S4-OPTLOG-COMPTABLE"), comptable);
	assert_int_equal(n_suppressed(&fs, "S4-OPTLOG-COMPTABLE"), 0);
	assert_true(gl_has(&fs, "TLGATE-SUPPRESSION-DENIED", GATE_ERROR));
	assert_non_null(strstr(gl_message(&fs, "TLGATE-SUPPRESSION-DENIED"), "by default no rule"));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);

	/* a configuration that lists other rules only: the same, and the
	 * message names the configuration */
	cfg_from(&cfg, "{\"inline_suppressible\": [\"S4-LAYOUT\", \"S4-STOP-REASON\"]}");
	gl_run_cfg(po, &cfg, &fs, &res);
	assert_int_equal(n_live(&fs, "S4-OPTLOG-COMPTABLE"), comptable);
	assert_non_null(strstr(gl_message(&fs, "TLGATE-SUPPRESSION-DENIED"), "base.json"));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	gate_config_release(&cfg);

	/* listed by id, or by a prefix: the findings are kept, marked with
	 * the comment's place and reason, and count no more */
	const char *allow[] = { "{\"inline_suppressible\": [\"S4-OPTLOG-COMPTABLE\"]}",
				"{\"rules\": {}, \"inline_suppressible\": [\"S4-OPTLOG-*\"]}",
				"{\"S4-LAYOUT\": \"warning\", \"inline_suppressible\": [\"S4-*\"]}" };
	for (size_t k = 0; k < sizeof(allow) / sizeof(allow[0]); k++) {
		cfg_from(&cfg, allow[k]);
		gl_run_cfg(po, &cfg, &fs, &res);
		assert_int_equal(n_live(&fs, "S4-OPTLOG-COMPTABLE"), 0);
		assert_int_equal(n_suppressed(&fs, "S4-OPTLOG-COMPTABLE"), comptable);
		assert_int_equal(gate_count(&fs, GATE_ERROR), 0);
		assert_false(gl_has(&fs, "TLGATE-SUPPRESSION-DENIED", GATE_ERROR));
		for (size_t i = 0; i < fs.n; i++)
			if (fs.v[i].sup_file) {
				assert_string_equal(fs.v[i].sup_reason, "round 2 table lost in a rebase");
				assert_non_null(strstr(fs.v[i].sup_file, "opt_log.md"));
				assert_true(fs.v[i].sup_line > 1);
			}
		gate_findings_release(&fs);
		gatecheck_result_release(&res);
		gate_config_release(&cfg);
	}

	/* a prefix suppression over a rule not listed is denied for it */
	gl_replace(f("opt_log.md"), "tlgate-disable S4-OPTLOG-COMPTABLE", "tlgate-disable S4-OPTLOG*");
	cfg_from(&cfg, "{\"inline_suppressible\": [\"S4-LAYOUT\"]}");
	gl_run_cfg(po, &cfg, &fs, &res);
	assert_int_equal(n_live(&fs, "S4-OPTLOG-COMPTABLE"), comptable);
	assert_true(gl_has(&fs, "TLGATE-SUPPRESSION-DENIED", GATE_ERROR));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	gate_config_release(&cfg);

	/* allowed but silencing nothing, or without a reason: warnings */
	cfg_from(&cfg, "{\"inline_suppressible\": [\"S4-SPEEDUP\", \"S4-LAYOUT\", \"S4-OPTLOG*\"]}");
	gl_append(f("opt_log.md"), "<!-- tlgate-disable S4-SPEEDUP -- quoted from a paper -->\n<!-- tlgate-disable S4-LAYOUT -->\n");
	gl_run_cfg(po, &cfg, &fs, &res);
	assert_int_equal(n_live(&fs, "TLGATE-SUPPRESSION"), 2); /* unused S4-SPEEDUP, S4-LAYOUT without a reason */
	assert_false(gl_has(&fs, "TLGATE-SUPPRESSION-DENIED", GATE_ERROR));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	gate_config_release(&cfg);
}

/* "inline_suppressible" is checked like "rules": known ids only, never the
 * gate's own TLGATE-* rules, an array of strings. */
static void config_inline_key(void **s)
{
	(void)s;
	static const struct {
		const char *json, *why;
	} bad[] = {
		{ "{\"inline_suppressible\": [\"TLGATE-CONFIG\"]}", "TLGATE-CONFIG" },
		{ "{\"inline_suppressible\": [\"TLGATE-*\"]}", "TLGATE-*" },
		{ "{\"inline_suppressible\": [\"S4-NOPE\"]}", "unknown rule 'S4-NOPE'" },
		{ "{\"inline_suppressible\": [\"*\"]}", "unknown rule '*'" },
		{ "{\"inline_suppressible\": \"S4-LAYOUT\"}", "must be an array" },
		{ "{\"inline_suppressible\": [3]}", "must be an array" },
		{ "{\"rules\": {}, \"inline\": []}", "unknown key 'inline'" },
	};
	char err[256];
	struct gate_config cfg;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gate_config_init(&cfg);
		err[0] = '\0';
		assert_int_equal(gate_config_parse(bad[i].json, strlen(bad[i].json), "x.json", &cfg, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].why))
			fail_msg("%s: got '%s'", bad[i].json, err);
		gate_config_release(&cfg);
	}
	cfg_from(&cfg, "{\"S4-LAYOUT\": \"off\", \"inline_suppressible\": [\"PT-DB\", \"S4-STAGE-RESULT-*\"]}");
	assert_int_equal(cfg.n, 1);
	assert_true(gate_config_inline_ok(&cfg, "PT-DB"));
	assert_true(gate_config_inline_ok(&cfg, "S4-STAGE-RESULT-LATENCY"));
	assert_false(gate_config_inline_ok(&cfg, "S4-PERF-RECORDS-RECON"));
	assert_false(gate_config_inline_ok(&cfg, "S4-LAYOUT"));
	gate_config_release(&cfg);
	gate_config_init(&cfg);
	assert_false(gate_config_inline_ok(&cfg, "S4-LAYOUT")); /* the default: none */
	gate_config_release(&cfg);
}

/* A pull request's file that makes a rule inline-suppressible weakens the
 * base's configuration: TLGATE-CONFIG, whatever the severities say. */
static void config_weakened_inline(void **s)
{
	(void)s;
	struct gate_config base, pr;
	struct gate_findings fs;
	gate_findings_init(&fs);
	cfg_from(&base, "{\"inline_suppressible\": [\"S4-LAYOUT\"]}");
	cfg_from(&pr, "{\"inline_suppressible\": [\"S4-LAYOUT\", \"S4-PERF-RECORDS-RECON\"]}");
	assert_int_equal(gate_config_weakened(&base, "main:.tlgate.json", &pr, "/r/.tlgate.json", &fs), 0);
	assert_int_equal(fs.n, 1);
	assert_string_equal(fs.v[0].rule, "TLGATE-CONFIG");
	assert_non_null(strstr(fs.v[0].message, "S4-PERF-RECORDS-RECON inline-suppressible"));
	gate_findings_release(&fs);
	gate_config_release(&pr);

	/* a prefix the base does not cover, and a base with no list at all */
	cfg_from(&pr, "{\"inline_suppressible\": [\"S4-*\"]}");
	assert_int_equal(gate_config_weakened(&base, "main:.tlgate.json", &pr, "/r/.tlgate.json", &fs), 0);
	assert_int_equal(fs.n, 1);
	gate_findings_release(&fs);
	gate_config_release(&base);
	gate_config_release(&pr);
	gate_config_init(&base);
	cfg_from(&pr, "{\"inline_suppressible\": [\"S4-LAYOUT\"]}");
	assert_int_equal(gate_config_weakened(&base, NULL, &pr, "/r/.tlgate.json", &fs), 0);
	assert_int_equal(fs.n, 1);
	gate_findings_release(&fs);
	gate_config_release(&pr);

	/* narrowing the list, or the same list, weakens nothing */
	cfg_from(&base, "{\"inline_suppressible\": [\"S4-*\"]}");
	cfg_from(&pr, "{\"inline_suppressible\": [\"S4-LAYOUT\"]}");
	assert_int_equal(gate_config_weakened(&base, "main:.tlgate.json", &pr, "/r/.tlgate.json", &fs), 0);
	assert_int_equal(fs.n, 0);
	gate_config_release(&base);
	gate_config_release(&pr);
}

static void config_severities(void **s)
{
	(void)s;
	struct gate_findings fs;
	struct gatecheck_result res;
	struct gate_config cfg;
	char err[256];
	fx("v1");
	gl_write(f("../.tlgate.json"), "{\"rules\": {\"S4-STOP-REASON\": \"off\", \"S4-PERF-RECORDS-RECON\": \"error\"}}");
	char *found = gate_config_find(po, f(".."));
	assert_non_null(found);
	gate_config_init(&cfg);
	assert_int_equal(gate_config_load(found, &cfg, err, sizeof(err)), 0);
	gate_findings_init(&fs);
	gatecheck_result_init(&res);
	assert_int_equal(gatecheck_dir(po, po, NULL, &fs, &res), 0);
	gate_config_apply(&cfg, &fs);
	assert_false(gl_has(&fs, "S4-STOP-REASON", GATE_WARNING));
	assert_true(gl_has(&fs, "S4-PERF-RECORDS-RECON", GATE_ERROR)); /* unknown best, promoted */
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	gate_config_release(&cfg);
	free(found);

	/* --strict promotes S4-STOP-REASON */
	gate_config_init(&cfg);
	cfg.strict = 1;
	gate_findings_init(&fs);
	gatecheck_result_init(&res);
	assert_int_equal(gatecheck_dir(po, po, NULL, &fs, &res), 0);
	gate_config_apply(&cfg, &fs);
	assert_true(gl_has(&fs, "S4-STOP-REASON", GATE_ERROR));
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	gate_config_release(&cfg);

	gl_write(f("../.tlgate.json"), "{\"rules\": {\"S4-NOPE\": \"off\"}}");
	gate_config_init(&cfg);
	assert_int_equal(gate_config_load(f("../.tlgate.json"), &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "S4-NOPE"));
	gate_config_release(&cfg);
}

static void bad_input(void **s)
{
	(void)s;
	fx("v1");
	/* invalid UTF-8, NUL, CRLF and a BOM are findings, never a crash */
	static const char bad[] = "bad \xff\xfe byte\nnul \0 here\r\n";
	static const char badrec[] = "{\"round\": \xff}\n";
	FILE *o = fopen(f("opt_log.md"), "ab");
	fwrite(bad, 1, sizeof(bad) - 1, o);
	fclose(o);
	gl_expect(po, "S4-OPTLOG", "invalid UTF-8 and NUL in the log");
	fx("v1");
	o = fopen(f("perf_records.jsonl"), "ab");
	fwrite(badrec, 1, sizeof(badrec) - 1, o);
	fclose(o);
	gl_expect(po, "S4-PERF-RECORDS-SCHEMA", "invalid UTF-8 in a record");
	/* a line over 1 MiB */
	fx("v1");
	o = fopen(f("perf_records.jsonl"), "ab");
	for (int i = 0; i < (1 << 20) + 10; i++)
		fputc('x', o);
	fputc('\n', o);
	fclose(o);
	gl_expect(po, "S4-PERF-RECORDS-SCHEMA", "a line over 1 MiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(v1_as_is, teardown),
		cmocka_unit_test_teardown(v1_within_1pct, teardown),
		cmocka_unit_test_teardown(v1_claim_off, teardown),
		cmocka_unit_test_teardown(v1_claim_removed, teardown),
		cmocka_unit_test_teardown(v1_claim_label_prose, teardown),
		cmocka_unit_test_teardown(v1_records_removed, teardown),
		cmocka_unit_test_teardown(v1_records_newline, teardown),
		cmocka_unit_test_teardown(v1_not_json, teardown),
		cmocka_unit_test_teardown(v1_two_fields, teardown),
		cmocka_unit_test_teardown(v1_duration_text, teardown),
		cmocka_unit_test_teardown(v1_table_broken, teardown),
		cmocka_unit_test_teardown(v1_optlog_missing, teardown),
		cmocka_unit_test_teardown(v1_optlog_empty, teardown),
		cmocka_unit_test_teardown(v1_no_retrospective, teardown),
		cmocka_unit_test_teardown(v2_as_is, teardown),
		cmocka_unit_test_teardown(v2_within_1pct, teardown),
		cmocka_unit_test_teardown(v2_final_off, teardown),
		cmocka_unit_test_teardown(v2_heading_renamed, teardown),
		cmocka_unit_test_teardown(v2_records_removed, teardown),
		cmocka_unit_test_teardown(v2_records_newline, teardown),
		cmocka_unit_test_teardown(v2_baseline_only, teardown),
		cmocka_unit_test_teardown(v2_inventory_removed, teardown),
		cmocka_unit_test_teardown(v2m_final_dropped, teardown),
		cmocka_unit_test_teardown(v2m_final_candidate_changed, teardown),
		cmocka_unit_test_teardown(v2m_smoke_precision, teardown),
		cmocka_unit_test_teardown(v2m_smoke_record, teardown),
		cmocka_unit_test_teardown(v2m_smoke_declared_tune, teardown),
		cmocka_unit_test_teardown(v2m_kernel_edited, teardown),
		cmocka_unit_test_teardown(v2m_tuning_status_removed, teardown),
		cmocka_unit_test_teardown(v2m_smoke_in_final_table, teardown),
		cmocka_unit_test_teardown(comptable_per_round, teardown),
		cmocka_unit_test_teardown(comptable_incumbent_rows, teardown),
		cmocka_unit_test_teardown(not_claims_with_records, teardown),
		cmocka_unit_test_teardown(speedup_claim, teardown),
		cmocka_unit_test_teardown(recon_not_baseline, teardown),
		cmocka_unit_test_teardown(recon_last_summary_wins, teardown),
		cmocka_unit_test_teardown(order_rules, teardown),
		cmocka_unit_test_teardown(order_duplicate, teardown),
		cmocka_unit_test_teardown(stop_reason_rules, teardown),
		cmocka_unit_test_teardown(plateau_holds, teardown),
		cmocka_unit_test_teardown(layout_rule, teardown),
		cmocka_unit_test_teardown(feedback_rules, teardown),
		cmocka_unit_test_teardown(suppressions, teardown),
		cmocka_unit_test(config_inline_key),
		cmocka_unit_test(config_weakened_inline),
		cmocka_unit_test_teardown(config_severities, teardown),
		cmocka_unit_test_teardown(bad_input, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
