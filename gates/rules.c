/* rules.c: the rule registry (rules.h). Add a row per new rule id and fill
 * every field: `tlperf explain`, SARIF and docs/rules.md are made from it. */
#include "gates/rules.h"

#include <string.h>

const struct gate_rule_info gate_rules[] = {
	{ "PT-DB", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: a double-buffer change has its own [DB-ANALYSIS] (Q1-Q3) before it",
	  "Double buffering (and deeper pipelining) on Ascend changes the order of MTE and vector "
	  "work; done without thought it corrupts results or hides a slowdown. The workflow asks "
	  "for a short analysis (Q1 copies out inside the loop, Q2 accumulators carried across "
	  "iterations, Q3 synchronisation) before each such change.",
	  "An iteration or [IMPL] that makes a double-buffer change (double buffer, multi-buffer, "
	  "num_stages, T.Pipelined, 双缓冲) without a [DB-ANALYSIS] answering Q1, Q2 and Q3 between "
	  "the previous [RESULT] and the change, or inside (or just before) its perf_log section. "
	  "An analysis written for an earlier change does not count.",
	  "Write the [DB-ANALYSIS] for this change, answering Q1-Q3, before its [IMPL] or at the "
	  "top of its perf_log section. If the change is not a double-buffer change, reword the "
	  "section so it does not claim one.",
	  "perf_log.md:\n"
	  "  ## Iteration 5 — T.Pipelined double buffer\n"
	  "  - optimization: num_stages=2\n"
	  "finding:\n"
	  "  perf_log.md:56: error: [PT-DB] 'Iteration 5 — T.Pipelined double buffer' makes a\n"
	  "  double-buffer change without a [DB-ANALYSIS] (Q1 MTE3 in the loop, Q2\n"
	  "  cross-iteration accumulator, Q3 sync) before it" },
	{ "PT-ITERATION", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: perf_log improvements match their times; adopted ones improve or say why",
	  "perf_log.md is the evidence behind every adopted change. A stated improvement that "
	  "does not follow from its own baseline and candidate times, or an adoption without a "
	  "gain, lets a regression into the kernel unnoticed.",
	  "An iteration whose `improvement` differs by more than 1 point from "
	  "(candidate_time - baseline_time) / baseline_time (an improvement stating a subset's "
	  "change and the overall one, in either order, is right when either is); an adopted "
	  "iteration that does not "
	  "improve beyond the noise threshold (3%, or the folder's own) and gives no reason; a "
	  "rolled-back iteration without a `rollback_reason`; in perf_log.md's tables, an "
	  "aggregate row (`bf16 mean`, `AVG`, `geomean`, `合计`) that is not the mean (geometric "
	  "mean, sum) of the rows above it, since the previous aggregate row or of the whole "
	  "table, to the digits printed; a before / after / change row (`baseline speedup | "
	  "iter1 speedup | delta`, `baseline | candidate | 变化`) whose change no reading reaches "
	  "(as in PT-REPORT); a total of times over the cases (`sum kernel_ms=8.03ms "
	  "across 20 cases`) that is not the sum of a time column of the JSON it cites or that "
	  "the figure beside it identifies (`mean_speedup=0.3733x`: the JSON with that "
	  "mean_speedup), when the line names the column or the case count (a warning when it "
	  "names neither, or when nothing identifies the JSON and no JSON's column sums to it).",
	  "Recompute the improvement from the two times you measured (negative is faster for a "
	  "time); for an adopted change below the noise threshold, say why it is kept; for a "
	  "rollback, write its rollback_reason.",
	  "perf_log.md:\n"
	  "  - baseline_time: 71.9 us\n"
	  "  - candidate_time: 53.6 us\n"
	  "  - improvement: -15%\n"
	  "finding:\n"
	  "  perf_log.md:12: error: [PT-ITERATION] 'Iteration 2 — tile 128': improvement -15%\n"
	  "  does not match baseline_time 71.9 and candidate_time 53.6 (-25.45%)" },
	{ "PT-JSON", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: bench JSON parses and its aggregates match its rows",
	  "The bench JSON files are the measurements every report quotes; an aggregate that "
	  "disagrees with its own rows (or a mean labelled geometric that is arithmetic) "
	  "overstates the result everywhere it is copied.",
	  "A JSON file that does not parse; a row whose speedup is not its reference time over its "
	  "own time within 0.5%; an aggregate (avg_speedup, geomean_speedup, n_cases, total_*, "
	  "avg_*) that is not the mean, geometric mean, count or sum of the rows within 0.5%; a "
	  "figure quoted from another file (\"source\": \"x.json\") that is not that file's.",
	  "Regenerate the JSON from the bench instead of editing it by hand, or correct the "
	  "aggregate to what the rows give. Name a geometric mean only when it is one.",
	  "iter3.json:\n"
	  "  {\"cases\": [{\"speedup\": 1.2}, {\"speedup\": 0.8}], \"avg_speedup\": 1.1}\n"
	  "finding:\n"
	  "  iter3.json:1: error: [PT-JSON] \"avg_speedup\" 1.1 is not the mean of the 2 rows'\n"
	  "  \"speedup\" (1, +10.00%)" },
	{ "PT-PLAN", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: Part A verdicts, [ORDER-PLAN] items and dependencies, reuse precheck",
	  "The plan decides what is tried and in which order. A Part A item without a verdict, a "
	  "plan that schedules an item found not to apply, or a prerequisite planned after the "
	  "item that needs it wastes rounds and makes results impossible to attribute.",
	  "A Part A [#N] item without 适用 / 不适用 / 部分适用 and a reason; no [ORDER-PLAN]; a "
	  "planned item that is not a Part A item or was found 不适用; a prerequisite (前置依赖:) "
	  "planned after its dependant; a [KERNEL-REUSE-PRECHECK] with unknown or false dimensions "
	  "followed by a plan of direct reuse.",
	  "Give every Part A item a verdict and a reason, then write the [ORDER-PLAN] from the "
	  "applicable items only, prerequisites first.",
	  "optimization_log.md:\n"
	  "  [ORDER-PLAN] 1. [#3] 2. [#2]\n"
	  "  [#3] 前置依赖: [#2]\n"
	  "finding:\n"
	  "  optimization_log.md:20: error: [PT-PLAN] [ORDER-PLAN] makes [#3] depend on [#2],\n"
	  "  which is planned later (line 21)" },
	{ "PT-PRECISION", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: no performance change while precision fails",
	  "A faster kernel that computes the wrong answer is not an optimisation. Once precision "
	  "fails, every later measurement is of a broken kernel until precision is restored.",
	  "After a [RESULT] or iteration that reports a precision failure, another item is started "
	  "(another iteration changes performance) before a RESULT shows precision passing, unless "
	  "that iteration fixes precision or the failing change was rolled back.",
	  "Fix precision (or roll the failing change back) first, record the passing RESULT, then "
	  "continue with the next item.",
	  "optimization_log.md:\n"
	  "  [RESULT-#2] 精度: FAIL | 性能: 40 -> 35 us\n"
	  "  [IMPL-#3] ...\n"
	  "finding:\n"
	  "  optimization_log.md:31: error: [PT-PRECISION] [#3] is started while precision\n"
	  "  fails since the [RESULT] at line 30; no RESULT shows precision passing in between" },
	{ "PT-REPORT", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: the report's numbers match the latest JSON and iteration (not stale)",
	  "The final report is what reviewers read. If it quotes an older iteration than the last "
	  "adopted one, or its table rows do not add up, the delivered result is misstated.",
	  "A claimed average or geometric-mean speedup that is not the adopted result's (the JSON "
	  "of the last perf_log iteration not rolled back; a line stating a subset's figure and the "
	  "overall one is right when either is, figures joined by an arrow are a start and the "
	  "result, a target beside it is no claim, a line, row or section labelled rolled back is "
	  "a record); an AVG or SUM row that is not the mean/sum of its rows and of their JSON "
	  "within 1%; a before/after/变化 row (also Baseline | Final | 提升, baseline speedup | "
	  "final speedup | delta) whose change is none of (after - before) / before, for times "
	  "before / after - 1, nor either without its sign, within 1 point (a change against "
	  "another reference, `Δ vs torch`, is not read); a total or mean of times (`sum kernel_ms: 7.27`) that is not the sum "
	  "or mean of a time column of the JSON it cites (on the line or above it in its section) "
	  "or that the report's own figures identify (the same column of a `| mean_speedup | "
	  "0.3733x | 0.3916x |` row, a figure beside it on the line), to the digits it prints, "
	  "when it cites the JSON or names the column or the case count. A stale figure restated "
	  "further on is one finding naming each line. A cited JSON that is not in the folder or "
	  "has no per-case times, an identified total naming neither column nor case count, or a "
	  "total nothing identifies that does not match the latest results, is a warning.",
	  "Regenerate the report's figures from the latest adopted JSON, and recompute AVG/SUM rows "
	  "and changes from the rows shown.",
	  "perf_report.md:\n"
	  "  平均加速比 = 0.2095   (latest adopted JSON says 0.2486)\n"
	  "finding:\n"
	  "  perf_report.md:8: error: [PT-REPORT] stale report: average speedup 0.2095\n"
	  "  matches ours_iter7.json, not the latest results best_plus_list.json (0.2486)" },
	{ "PT-RESULT", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: each [RESULT] states precision, performance and a matching comparison",
	  "A [RESULT] closes an item: it is the only place that says whether the change was "
	  "correct and what it gained. Missing parts or wrong arithmetic make the log unusable as "
	  "evidence.",
	  "A [RESULT-#N] (one RESULT may span several [RESULT-#N] lines with only blank lines "
	  "between them) without precision, performance or a comparison (a performance stated "
	  "by the table after its bullet, or a change in its performance line, counts; a field "
	  "may be a `- key: value` line, a `key: value` clause after `;`, or a `| key | value |` "
	  "row; where nothing labels a field but a line of the RESULT says such a thing, a "
	  "pass, a time, a percentage, it is a warning quoting that line); an "
	  "`a -> b (x%)` or a before | after | change% row whose percentage is off by more than "
	  "1 point; a comparison that matches neither its own figures (`X (baseline Y)`), the "
	  "perf_log iteration naming the item, nor (one-line form) the previous RESULT's "
	  "performance; in an optimization log's tables, an aggregate row that is not the mean "
	  "(geometric mean, sum) of the rows above it.",
	  "State 精度 (precision), 性能 (performance) and 对比 (comparison) in every RESULT, and "
	  "compute the percentage from the two figures quoted.",
	  "optimization_log.md:\n"
	  "  [RESULT-#1] 精度: PASS | 性能: 747.9 -> 316.6 us (-30%)\n"
	  "finding:\n"
	  "  optimization_log.md:40: error: [PT-RESULT] [RESULT-#1] quotes 747.9 → 316.6 as -30%,\n"
	  "  but the change is -57.7% (a speed-up of +136.2%)" },
	{ "PT-SEQUENCE", GATE_ERROR, GATE_ERROR,
	  "perf_tuning: ORDER-CHECK, IMPL, SELF-CHECK, RESULT in order, plan order and prerequisites kept",
	  "The protocol checks each item before it is built and measures it before the next one "
	  "starts, so every gain is attributed to one change. Skipping or reordering steps mixes "
	  "changes together.",
	  "Per item, the tags out of order ([ORDER-CHECK] -> [IMPL-#N] -> [SELF-CHECK] -> "
	  "[RESULT-#N]); an [IMPL] after an ORDER-CHECK that concluded ❌; items implemented out of "
	  "plan order; an item implemented before its planned prerequisite has a RESULT; a new item "
	  "opened before the previous item's RESULT.",
	  "Follow the plan: finish each item with its RESULT before opening the next, and do "
	  "prerequisites first. If the plan changed, update the [ORDER-PLAN] and say why.",
	  "optimization_log.md:\n"
	  "  [ORDER-CHECK] [#3] ...    (line 42)\n"
	  "  [RESULT-#1] ...           (line 46)\n"
	  "finding (abridged):\n"
	  "  optimization_log.md:42: error: [PT-SEQUENCE] [#3] is opened before\n"
	  "  [RESULT-#1] (line 46) closes the previous item" },
	{ "PT-STOP", GATE_WARNING, GATE_ERROR,
	  "perf_tuning: 3 attempts without improvement stop the log or say why it goes on",
	  "Three attempts in a row without a gain beyond noise mean the current direction is "
	  "exhausted; going on without a reason burns NPU time and invites cherry-picked noise.",
	  "Three consecutive iterations without an improvement beyond the threshold, followed by "
	  "another iteration that neither is a stop section ([DESIGN_ERROR] and the like) nor says "
	  "why it continues (继续, continue, 用户要求).",
	  "Stop the log with a stop section, or state in the next iteration why it goes on.",
	  "perf_log.md:\n"
	  "  ## Iteration 5 (no gain) ## Iteration 6 (no gain) ## Iteration 7 (no gain)\n"
	  "  ## Iteration 8 — try num_stages=4\n"
	  "finding:\n"
	  "  perf_log.md:160: warning: [PT-STOP] 3 consecutive attempts without an\n"
	  "  improvement beyond 3% (...), but the log goes on with 'Iteration 8 — try\n"
	  "  num_stages=4' without saying why" },
	{ "S4-AB", GATE_ERROR, GATE_ERROR,
	  "a winner adopted with a gain under 5% carries a B_better A/B verdict that its runs give",
	  "Small kernels land in a fast or a slow state from one run to the next (+-3-5%), so one "
	  "measurement each cannot tell a 3% gain from noise. The seed (Phase 2 step 10, T-2) lets "
	  "a gain under 5% become the winner only after the interleaved A/B protocol (tlab, "
	  "ab_test.py) said B_better, and asks for its JSON summary in the round's log.",
	  "The summary's best (v1) or the final candidate (v2), in the round it was first measured, "
	  "has keys that need A/B by the winner rule `tlperf loop` applies (stats/winner.h: a gain "
	  "beyond the noise threshold but under the A/B threshold, 5% or .tlgate.json "
	  "\"ab_threshold\"; a small kernel's soft regression; no gain beyond noise anywhere), and "
	  "for one of them no B_better verdict (for a soft regression, B_better or tie): none in a "
	  "```json tlab / ab_test.py summary (its protocol and run medians) pasted "
	  "in that round's section, and none recomputed from a runs.jsonl of a perf_opt/ab_<round> "
	  "work directory (the loop's ab_r<N>_<ID>/<workload>/ too). The verdict of a journal is "
	  "recomputed from its runs with the protocol and settings its summary states (ref: "
	  "ab_test.py's rule; seq: tlab's); a summary (pasted, or kept beside the work directory) "
	  "whose verdict or pair count differs from that is an error, and so is a pasted summary "
	  "without a journal whose own runs give another verdict. A journal whose protocol no "
	  "summary states is read both ways: B_better under only one of them is a warning. A "
	  "B_better that seq-v1 decided (the rule tlab used before 2026-12-03, without an error "
	  "bound: runs naming it, or a \"seq\" summary without \"alpha\") still settles the key, "
	  "with a warning when seq, replayed on the same runs, does not give it too.",
	  "Run `tlab --workdir perf_opt/ab_<round> ...` (or let `tlperf loop` do it) and paste its "
	  "JSON output in the round's section as a ```json block; adopt the candidate only when "
	  "the verdict is B_better. Never edit a verdict or a journal by hand.",
	  "opt_log.md: ## Round 1 ... r1_fast 9.85 us vs 10.19 us, adopted, no A/B\n"
	  "finding:\n"
	  "  opt_log.md:7: error: [S4-AB] round 1 adopted 'r1_fast' with a gain of 3.3% against the\n"
	  "  current best on 'k::main' / 'wa' (under the 5% A/B threshold: the interleaved A/B\n"
	  "  protocol decides), without a B_better verdict: no ```json tlab / ab_test.py summary in\n"
	  "  round 1's section, no perf_opt/ab_<round> runs.jsonl of round 1" },
	{ "S4-CLAIM-READ", GATE_WARNING, GATE_WARNING,
	  "a claim line is read whole, or the gate says which figure it took",
	  "A reviewer reads `final_latency: 64.0 us → 32.0 us` as a baseline then a final, and "
	  "`64 us (corrected: 58 us)` as 58; the gate does the same. When a line shows more time "
	  "figures than the gate can attribute to its key, reading the first one silently could "
	  "check a number the reviewer does not take for the claim.",
	  "A claim line (final_latency: ...) that, after its own figure, an arrow and a final "
	  "figure (→, ->, =>, 降至, to ...), a correction (corrected:, 更正为 ...) and a baseline "
	  "figure, still shows another number with a time unit (us, µs, μs, ms, ns, s). Also a "
	  "line of the last Final Summary's prose that no claim key introduces (`final latency is "
	  "now 32 us`, `时延从 80 us 降到 32 us`) with a time figure next to a claim word "
	  "(latency, final, time, 时延, 耗时, 最终 ...) that is within 1% of no baseline or "
	  "winner measurement: which workload a sentence means is prose, so never an error.",
	  "Write one claim per line: `- W: final_latency: 32.0 us (baseline 64.0 us)`, or "
	  "`- W: 64.0 us → 32.0 us`.",
	  "opt_log.md:\n"
	  "  final_latency: 32.0 us, 30.5 us on the second run\n"
	  "finding:\n"
	  "  opt_log.md:40: warning: [S4-CLAIM-READ] the claim line shows more time figures than\n"
	  "  the gate can attribute to its key; read 32 us: 'final_latency: 32.0 us, 30.5 us on ...'" },
	{ "S4-COMPTABLE-RECON", GATE_ERROR, GATE_ERROR,
	  "a round's comparison table shows the round's recorded numbers",
	  "The 'candidate vs current best' table is where a reviewer sees a round's decision. "
	  "Numbers in it that the records do not hold make a rejected candidate look worse or an "
	  "adopted one look better than it measured.",
	  "In a table of round r that shows the current best, a row whose first cell names a "
	  "candidate_id recorded in the run (c2, c1（best）, current best（c2_pipe）) and a column "
	  "naming a recorded workload (or a duration column, with a workload column or one "
	  "workload in the run): a number that is not the median of that candidate's valid "
	  "records of round r (the current best: of r when re-measured there, else of its latest "
	  "round) within the figure's precision plus 1%, in the column's unit, else in us or ms. "
	  "A row naming the incumbent without its id ((=best), = current best, incumbent, 当前最优) "
	  "or as the round's baseline (r6_baseline (=best)) shows the current best of round r: "
	  "the median of one of the candidates measured on that workload before r (the baseline "
	  "among them). "
	  "A number equal to one repeat but not the median warns; a table no row of which names a "
	  "candidate measured in its round warns that those numbers were not checked.",
	  "Paste the table from `tlperf table perf_opt/perf_records.jsonl --round N` instead of "
	  "typing it.",
	  "opt_log.md, round 2:\n"
	  "  | c2_pipe | 9.80 | 52.00 | pass |     (records: 10.10 us on w_small)\n"
	  "finding:\n"
	  "  opt_log.md:28: error: [S4-COMPTABLE-RECON] round 2's table shows 9.8 for 'c2_pipe' on\n"
	  "  'w_small', but the records give 10.1 us (the one measurement of 1, perf_records.jsonl line 7)" },
	{ "S4-FINAL-RESTATED", GATE_ERROR, GATE_ERROR,
	  "a final result restated later agrees with the one it restates",
	  "A log that grows over several sessions states its final result more than once: a "
	  "later Final Summary, a `最终结论` or `终态` section, a P.7-style conclusion. The latest "
	  "word is the claim the gate checks; an earlier statement that says something else "
	  "leaves a reader with two final results for one kernel.",
	  "A superseded Final Summary (or final conclusion) and the last one both give a final "
	  "latency for a workload (its claim lines, or, when the last one states none, the log's "
	  "last table with a baseline and a final column after the superseded one) and the two "
	  "differ by more than 1%. One finding names both lines per workload (up to four). A "
	  "warning when a new session's H1 heading stands between the two (the earlier block is "
	  "plainly superseded), an error otherwise.",
	  "Restate the delivered result in the last summary and mark the earlier block as "
	  "superseded under a new session heading, or correct the one that is wrong.",
	  "opt_log.md: ## Final Summary  - w1: 103.4 → 98.8 us  ...  ## 最终结论  - w1: 103.4 → 78.3 us\n"
	  "finding:\n"
	  "  opt_log.md:40: error: [S4-FINAL-RESTATED] the final result is stated twice and the two\n"
	  "  disagree for 1 workload: 'w1' 98.8 us (line 12) then 78.3 us (line 41); nothing between\n"
	  "  the summary at line 10 and this one supersedes it, so one of them is false" },
	{ "S4-LAYOUT", GATE_WARNING, GATE_ERROR,
	  "perf_opt/ holds files that belong in logs/, or a record names a missing profile",
	  "perf_opt/ is the delivered artifact; raw logs at its top bury the files reviewers need, "
	  "and a record pointing at a profile that is not there cannot be re-checked.",
	  "op*.log, probe*.log, final*.log or debug_log.md at the top of perf_opt/; a record whose "
	  "msprof_raw_path does not exist.",
	  "Move logs into perf_opt/logs/; keep (or re-point) the profile a record names.",
	  "perf_opt/probe_1.log\n"
	  "finding:\n"
	  "  perf_opt: warning: [S4-LAYOUT] 'probe_1.log' must not sit at the top of\n"
	  "  perf_opt/ (experiment output goes to logs/)" },
	{ "S4-OPTLOG", GATE_ERROR, GATE_ERROR,
	  "opt_log.md exists, is not empty and has a Skill Retrospective",
	  "opt_log.md is the human record of the Stage 4 loop, read by every other rule and by "
	  "reviewers. A missing or unreadable log means nothing else can be checked.",
	  "opt_log.md missing or empty; invalid UTF-8, NUL bytes or lines over 1 MiB (CRLF or a "
	  "BOM only warn); a bidirectional embedding, override or isolate control (U+202A-U+202E, "
	  "U+2066-U+2069), which makes the page show characters in another order than the file "
	  "holds them; no `Skill Retrospective` heading (a warning).",
	  "Write opt_log.md as UTF-8 text with the rounds, the Final Summary and a Skill "
	  "Retrospective section.",
	  "perf_opt/ without opt_log.md\n"
	  "finding:\n"
	  "  perf_opt/opt_log.md: error: [S4-OPTLOG] opt_log.md is missing" },
	{ "S4-OPTLOG-COMPTABLE", GATE_ERROR, GATE_ERROR,
	  "every candidate round has a 'candidate vs current best' table",
	  "A round's decision is only reviewable when its candidates are shown next to the "
	  "incumbent they had to beat, with their durations.",
	  "A round r >= 1 in which the records hold a candidate experiment (v2: phase candidate; "
	  "v1: a candidate first measured in r) has no table with a duration column and the "
	  "incumbent shown (current best, (best), incumbent, or a 候选 vs X header) inside round "
	  "r's section or under a caption naming round r.",
	  "Paste `tlperf table perf_opt/perf_records.jsonl --round N` under the round's heading.",
	  "opt_log.md: '## Round 2' without a table; records hold round-2 candidates\n"
	  "finding:\n"
	  "  opt_log.md:30: error: [S4-OPTLOG-COMPTABLE] no 'candidate vs current best' table\n"
	  "  (a duration column and the current best shown) for round 2, where the records\n"
	  "  hold candidate experiments" },
	{ "S4-OPTLOG-UNSEEN", GATE_WARNING, GATE_WARNING,
	  "a claim the rendered page hides, or shows only as code, is not read",
	  "The gate reads opt_log.md as GitHub renders it, so what it checks is what a reviewer "
	  "sees. A figure in an HTML comment, struck through, in an image's alternative text or in "
	  "an element GitHub does not render is invisible to the reviewer and is never taken as a "
	  "claim (nor can a Final Summary hidden there replace the one on the page); a figure in a "
	  "code block of the Final Summary is shown, but as code, and is not reconciled either. "
	  "Either way the reviewer should know the gate passed over it.",
	  "Text that reads as a claim or a Final Summary (a figure next to final, latency, "
	  "speedup, geomean, improvement, reduction, faster, 时延, 耗时, 加速, 提升, 降低, 最终, 倍) "
	  "inside <!-- -->, ~~...~~ / <s> / <del>, an image's alt text, <script>, <style>, "
	  "<template> and the like; or such a figure on a code-block line in the last Final Summary.",
	  "Put the claim on the page as prose, a list item or a table row so it is checked, or "
	  "delete it. `tlperf read opt_log.md` shows what the gate read and what it passed over.",
	  "opt_log.md:\n"
	  "  - final_latency: 58.0 us\n"
	  "  <!-- final_latency: 64.0 us -->\n"
	  "finding:\n"
	  "  opt_log.md:12: warning: [S4-OPTLOG-UNSEEN] text hidden from the rendered page (comment)\n"
	  "  reads as a claim and is not read: '<!-- final_latency: 64.0 us -->'" },
	{ "S4-PERF-FEEDBACK", GATE_ERROR, GATE_ERROR,
	  "perf_feedback.md follows the [DESIGN_LIMIT] schema",
	  "perf_feedback.md routes a design limit back to the people who can lift it; a vague or "
	  "unsupported one is noise to them. Its findings carry S4-PERF-FEEDBACK-<PART> ids.",
	  "perf_feedback.md missing while the log cites it (`perf_opt/perf_feedback.md 已产出`; a "
	  "negated mention such as `按标准禁止产出 perf_feedback.md` is none), or present but "
	  "missing one of its six sections, holding placeholders, "
	  "without 设计层归因 and a >2x estimate (or 矛盾), without 参照实现 saying 未找到参照 or "
	  "不可移植, without msprof figures in 实测, without 建议路由, or citing repository paths "
	  "that do not exist.",
	  "Fill every section with measured facts (msprof figures), the estimate, the reference "
	  "implementation searched and the route; remove placeholders.",
	  "perf_feedback.md:\n"
	  "  ## 实测\n"
	  "  TODO\n"
	  "finding:\n"
	  "  perf_feedback.md:7: error: [S4-PERF-FEEDBACK-PLACEHOLDER] placeholder 'TODO' left in\n"
	  "  the feedback" },
	{ "S4-PERF-RECORDS", GATE_ERROR, GATE_ERROR,
	  "perf_records.jsonl exists and is not empty",
	  "perf_records.jsonl holds the measurements every claim is reconciled with; without it "
	  "no claim in opt_log.md can be checked.",
	  "perf_records.jsonl empty; missing while the log declares contract v2 (it writes the v2 "
	  "Final table, `kernel_id | workload_id | baseline_us | final_us`, or cites "
	  "workload_inventory.json: an error at that line) and the inventory is missing too (with "
	  "the inventory, the coverage rule fails). Missing under contract v1: a warning (naming "
	  "the line that mentions the records, if one does); the log's claims are then reconciled "
	  "with its own figures only.",
	  "Append one JSON record per measurement (`tlperf loop` does it for you).",
	  "perf_opt/perf_records.jsonl of 0 bytes\n"
	  "finding:\n"
	  "  perf_opt/perf_records.jsonl: error: [S4-PERF-RECORDS] perf_records.jsonl is empty" },
	{ "S4-PERF-RECORDS-APPEND", GATE_ERROR, GATE_ERROR,
	  "perf_records.jsonl only grew since the base revision, also when moved, copied or removed",
	  "Records are an append-only journal: rewriting an old measurement is how a result gets "
	  "improved without measuring it. Moving the operator directory, copying its records or "
	  "deleting them must not be a way around that.",
	  "With --base REF, for each records file (perf_opt/perf_records.jsonl): its base is the "
	  "same path at REF, else the file git's rename or copy detection (git diff -M -C) matches "
	  "it with, else a records file of REF that holds one of its first 256 lines; that base "
	  "is not a byte prefix of the file now (the first changed line is named). A records file "
	  "of REF that is gone (deleted, or renamed to another name) is an error unless a records "
	  "file now holds its first record and keeps all its lines.",
	  "Restore the old lines exactly and append new records at the end; a re-measurement is a "
	  "new record, not an edit. Move an operator directory with its records file whole; "
	  "never delete or truncate one.",
	  "tlgate --base origin/main .   (ops/a moved to ops/b, line 3 edited)\n"
	  "finding:\n"
	  "  ops/b/perf_opt/perf_records.jsonl:3: error: [S4-PERF-RECORDS-APPEND] perf_records.jsonl\n"
	  "  is append-only, but this file, renamed from ops/a/perf_opt/perf_records.jsonl at\n"
	  "  origin/main, changes or drops its line 3: a records file keeps every line of the\n"
	  "  one it continues" },
	{ "S4-PERF-RECORDS-COVERAGE", GATE_ERROR, GATE_ERROR,
	  "records cover every tune workload, and only those (v2); the winner's workloads are all claimed (v1)",
	  "Under contract v2 the inventory says which workloads are tuned; a speedup is only "
	  "honest when every one of them has a baseline and a final measurement. Under v1 a Final "
	  "Summary that claims only the workloads that improved hides where the winner got slower.",
	  "v2: a record for a workload that is not a tune workload of workload_inventory.json, or "
	  "a tune workload without a baseline or a final record. v1: a (dispatch, workload) the "
	  "winner (the summary's best, else the one candidate every claim reconciles with) has a "
	  "valid record of, without a claim in the last Final Summary: an error when the winner's "
	  "median there is slower than the round-0 baseline by more than the noise threshold (3%, "
	  "or the log's 噪声阈值), a warning otherwise.",
	  "Measure the missing baseline/final records, or correct the inventory; claim every "
	  "workload the winner ran on, its regressions included.",
	  "inventory tune workloads: w1, w2; records only for w1\n"
	  "finding:\n"
	  "  perf_opt/perf_records.jsonl: error: [S4-PERF-RECORDS-COVERAGE] tune workload\n"
	  "  'k::main' / 'w2' has no baseline record" },
	{ "S4-PERF-RECORDS-ORDER", GATE_ERROR, GATE_ERROR,
	  "round 0 baseline first, rounds never go back, parents exist",
	  "Speedups are measured from the round-0 baseline along a chain of parents; records out of "
	  "order or with unknown parents break that chain.",
	  "The first record of a (dispatch, workload) is not round 0 with parent_id null; a round "
	  "lower than an earlier record's; a parent_id that names no earlier candidate; a repeated "
	  "(round, candidate, dispatch, workload) (a warning unless the round says it re-measures). "
	  "After an invalid line the first two are not reported: the baseline or parent a record "
	  "seems to lack may be that line, whose S4-PERF-RECORDS-SCHEMA error already fails the gate.",
	  "Record the baseline first, append rounds in order, and name parents that were recorded.",
	  "{\"round\": 1, \"candidate_id\": \"r1a\", \"parent_id\": null, ...}   (first line)\n"
	  "finding:\n"
	  "  perf_opt/perf_records.jsonl:1: error: [S4-PERF-RECORDS-ORDER] the first record of\n"
	  "  'main' / 'w1' must be the round-0 baseline with parent_id null (got round 1,\n"
	  "  parent_id null)" },
	{ "S4-PERF-RECORDS-RECON", GATE_ERROR, GATE_ERROR,
	  "the claimed final result is the winner's recorded measurement",
	  "The final latency in opt_log.md is the number that is delivered; it must be a "
	  "measurement that exists, of the winner, not the baseline or a number typed by hand.",
	  "v1: a final_latency claim in the last Final Summary (also `Final latency (W): 70 us` "
	  "and `W final latency: 70 us`, spelled out with a time unit) that is not within 1% of a valid "
	  "record of the winner named by `best:`. v2: the Final Performance Test Data table's "
	  "baseline_us/final_us not within 1% of the baseline and final records, or a "
	  "final_candidate_id or artifact_sha256 that does not match. When the kernel was "
	  "measured several times on the key (its own candidate_id; v1 a final confirmation round "
	  "or a section that says it re-measures, for a record with the kernel's parent; v2 the "
	  "final candidate's records with its artifact_sha256), the claim is the final figure: "
	  "within 1% of their median (or of the confirmation round's median, when that is not "
	  "better than the median of all). The median policy (stats/final.h, the one definition "
	  "`tlperf speedup`, `tlperf loop` and `tlperf audit` share): a claim equal to the final "
	  "confirmation run, the only one, within the noise threshold of the median (the log's, "
	  "else 3%) and with the other runs shown in the log's tables, is a warning; a claim "
	  "picked among the runs of one round, the round's run, or a run outside the threshold, "
	  "is an error naming them all. A record "
	  "that may re-measure it under another id (same parent, another round, nothing said) is "
	  "counted both ways: a warning when that decides. Without records, a final_latency "
	  "claim that the log's own figure for its workload (its last table with a baseline and "
	  "a final column, on another line) contradicts by more than 1% is a warning naming that "
	  "line (which table holds the delivered kernel's final is the log's reading)."
	  " Names are compared in identity form (NFKC, invisible code points dropped); a name "
	  "that looks like a recorded one (Unicode confusables) without being it, a `best:` that "
	  "names no recorded candidate, or a claim that matches only another candidate's record."
	  " A figure written in ms, ns or s is compared in us and quoted as written, then in us "
	  "(`claimed final_latency 0.032 ms (32 us)`).",
	  "Report the final figure: the median of the kernel's runs, which `tlperf speedup` "
	  "prints as final_us and `tlperf loop finish` writes; or measure again and append the "
	  "record. A final confirmation that disagrees with the round beyond noise is measured "
	  "once more (`tlperf loop finish --remeasure`) or reported beside the round's run.",
	  "opt_log.md: final_latency: 32.0 us   (winner's record: 64.0 us)\n"
	  "finding:\n"
	  "  opt_log.md:19: error: [S4-PERF-RECORDS-RECON] claimed final_latency 32 us does not\n"
	  "  match the winner's recorded measurement 64 us (...; deviation 50.0% > 1%)" },
	{ "S4-PERF-RECORDS-SCHEMA", GATE_ERROR, GATE_ERROR,
	  "every record line is a valid object of its contract",
	  "Every statistic and claim check reads the records; a malformed line would silently "
	  "drop a measurement or invent one.",
	  "A line that is not a JSON object of its contract: wrong types, duration_us not finite "
	  "and > 0, l0_pass not a boolean, round not an integer >= 0, timestamp not ISO 8601, "
	  "parent_id neither a string nor null.",
	  "Fix the writer that produced the line; append a corrected record rather than editing "
	  "old ones when the base revision already holds them.",
	  "{\"round\": 1, \"duration_us\": \"12.5\", ...}\n"
	  "finding:\n"
	  "  perf_opt/perf_records.jsonl:4: error: [S4-PERF-RECORDS-SCHEMA] field\n"
	  "  'duration_us' must be a number" },
	{ "S4-PERF-RECORDS-TIME", GATE_ERROR, GATE_ERROR,
	  "no record is stamped after it was committed, or before the parent it derives from",
	  "A time stamp is part of the evidence: a measurement cannot have been taken after the "
	  "commit that records it, nor before the candidate it was derived from was measured. "
	  "Either one means the record was written by hand, not by a profile run.",
	  "A record whose timestamp is after the committer date of the commit that added its line "
	  "(with --base: git blame; a line not committed yet, or without --base: after the time "
	  "of the check), by more than 300 s of clock skew; a record whose timestamp is before the "
	  "first record of its parent_id. Only certain cases: a stamp covers its precision (a "
	  "date its day, hh:mm its minute), a stamp without a zone may be any zone (14 h either "
	  "way) unless compared with another stamp without one.",
	  "Record the time of the profile run (UTC, with Z) when the record is written, never "
	  "edit it afterwards; derive a candidate only from a measured parent.",
	  "perf_records.jsonl:\n"
	  "  {\"round\": 0, \"candidate_id\": \"baseline\", ..., \"timestamp\": \"2026-10-02T09:00:00Z\"}\n"
	  "  {\"round\": 1, \"candidate_id\": \"v1\", \"parent_id\": \"baseline\", ...,\n"
	  "   \"timestamp\": \"2026-10-02T08:00:00Z\"}\n"
	  "finding:\n"
	  "  perf_records.jsonl:2: error: [S4-PERF-RECORDS-TIME] candidate 'v1' ('k' / 'w1') is\n"
	  "  stamped '2026-10-02T08:00:00Z', before its parent 'baseline' was first measured\n"
	  "  ('2026-10-02T09:00:00Z', line 1): a candidate is derived from a measured parent" },
	{ "S4-PERF-RECORDS-TIME-DUP", GATE_WARNING, GATE_WARNING,
	  "different measurements do not share one time stamp",
	  "One bench run measures one candidate (on each of its workloads). Records of different "
	  "measurements stamped with the same second were written by hand or stamped in a batch "
	  "after the fact; the reader should know the stamps do not date the runs.",
	  "Two records with the same timestamp text (with seconds or finer) of different "
	  "candidate_ids, or of one candidate on one key with different duration_us (one "
	  "candidate's workloads may share the stamp of their run); one warning per time stamp, "
	  "at the first line that repeats it. Stamps without seconds are not compared.",
	  "Stamp each record when its own profile run ends (tlperf loop does), with seconds or "
	  "finer; if a batch runner stamps once, record each run's own time instead.",
	  "perf_records.jsonl:\n"
	  "  line 2: v1 / w1  \"timestamp\": \"2026-10-02T09:00:00Z\"\n"
	  "  line 3: v2 / w1  \"timestamp\": \"2026-10-02T09:00:00Z\"\n"
	  "finding:\n"
	  "  perf_records.jsonl:3: warning: [S4-PERF-RECORDS-TIME-DUP] timestamp\n"
	  "  '2026-10-02T09:00:00Z' of candidate 'v2' ('k' / 'w1') is also the timestamp of a\n"
	  "  different measurement at line 2 (candidate 'v1', 'k' / 'w1'): ..." },
	{ "S4-SPEEDUP", GATE_ERROR, GATE_ERROR,
	  "a claimed speedup or improvement matches the records",
	  "A speedup or an improvement in % is the number a reader remembers; it must be computed "
	  "from the recorded baseline and final durations, not estimated or rounded up.",
	  "A geometric-mean speedup claimed in the Final Summary (几何平均 2.14x, geomean 2.14x) "
	  "that is not within 1% of the geometric mean of baseline/final over the recorded "
	  "workloads. A speedup (2.5x, 2.5×, 2.5 倍) or a change in % (-43.1%, +650%) on a "
	  "workload's claim line, or in its own cell of a row of a Final Summary table (`| small "
	  "| 100.0 | 80.0 | 1.25x | -20.0% |`, the row named by its workload column when it has "
	  "one), that is none of that workload's readings (baseline / final; the "
	  "change in time; the change in speed) within the figure's precision plus 1%; an overall "
	  "one (`总提升: 2.72x ~ 3.13x`, `overall: 20%`, `speedup: 2.5x`) that is neither the "
	  "geometric mean nor one workload's reading (a range: its two ends). An error when no "
	  "workload reaches the claim, a warning quoting it otherwise. Every figure of a claim "
	  "line is read: after the first of its kind (and after a geomean's factor), any further "
	  "speedup or % (`1.25x (wa) / 3.0x (wb)`) is checked too, as are speedups (also "
	  "`2-fold`) and changes in % next to a claim word in the Final Summary's prose (`now "
	  "2.5x faster`); those are warnings, since what they compare is prose, unless the line "
	  "names the baseline (`2.5x faster than baseline`), which makes one no workload reaches "
	  "an error.",
	  "Take the figures from `tlperf speedup perf_opt/perf_records.jsonl`.",
	  "opt_log.md: geomean speedup 2.50x   (records give 2.14x)\n"
	  "finding:\n"
	  "  opt_log.md:22: error: [S4-SPEEDUP] claimed geometric-mean speedup 2.5x, but the\n"
	  "  records give 2.140x over 3 workloads (baseline / final; deviation 16.8% > 1%)" },
	{ "S4-STAGE-RESULT-DESIGN-LIMIT", GATE_ERROR, GATE_ERROR,
	  "Stage Result: design_limit_signal and perf_feedback agree with perf_feedback.md's presence",
	  "The [DESIGN_LIMIT] signal sends the operator back to the design stage. The seed allows "
	  "it only together with perf_opt/perf_feedback.md, so a signal without the file (or a "
	  "file the report keeps quiet about) misroutes the conductor.",
	  "design_limit_signal is [DESIGN_LIMIT] while perf_opt/perf_feedback.md does not exist, "
	  "or none while it exists, or neither word; perf_feedback names a file while there is "
	  "none, or is none while there is one.",
	  "Report [DESIGN_LIMIT] and the path of perf_opt/perf_feedback.md exactly when that file "
	  "was produced under the seed's two conditions; otherwise write none in both fields.",
	  "stage_result.md:\n"
	  "  - design_limit_signal: [DESIGN_LIMIT]\n"
	  "finding (no perf_opt/perf_feedback.md):\n"
	  "  stage_result.md:10: error: [S4-STAGE-RESULT-DESIGN-LIMIT] design_limit_signal\n"
	  "  [DESIGN_LIMIT], but there is no perf_opt/perf_feedback.md (the signal comes with that file)" },
	{ "S4-STAGE-RESULT-FORMAT", GATE_ERROR, GATE_ERROR,
	  "Stage Result: one block, every seed field once, numbers with their units",
	  "The conductor reads the Stage Result mechanically. A missing field, a field given twice, "
	  "two blocks or a number without its unit make it read something else than what was meant.",
	  "No `Stage Result` heading with `key: value` lines (error); two blocks (error, the last "
	  "one is checked); a seed field missing (error; `issues`: warning) or given twice, a "
	  "template placeholder such as {v} left in, an empty value, a latency or improvement "
	  "that is not a number, a bidirectional override or isolate control (U+202A-U+202E, "
	  "U+2066-U+2069), which shows digits in another order than the file holds (errors). "
	  "Warnings, which say what was assumed: a latency without "
	  "a unit (us) or in ms/ns (converted), an improvement without % or as a speedup (1 - 1/x), "
	  "full-width punctuation (：, ％), a key written another way (`Final latency`), an unknown "
	  "field, a figure after the one read (`7.0 us (5 runs, 3 us spread)`).",
	  "Write one `## Stage Result` block with the seed's fields in the seed's order, one "
	  "`- key: value` line each (one line per workload for the latencies), ASCII colons, "
	  "latencies as `N us` and the improvement as `N%`. `tlperf loop report` prints such a block.",
	  "stage_result.md:\n"
	  "  - iterations：3\n"
	  "finding:\n"
	  "  stage_result.md:12: warning: [S4-STAGE-RESULT-FORMAT] full-width punctuation in\n"
	  "  '- iterations：3': read as ASCII ':' / '%'" },
	{ "S4-STAGE-RESULT-IMPROVEMENT", GATE_ERROR, GATE_ERROR,
	  "Stage Result: improvement matches the records and the block's latencies (0.1 point)",
	  "The improvement is the figure a summary quotes first. It must be the records' figure, "
	  "and it must follow from the latencies the same block states.",
	  "improvement more than 0.1 point from the records' latency reduction, "
	  "100 * (1 - geomean(final / baseline)) over the workloads (per workload for a labelled "
	  "line), or from the one the block's own baseline_latency and final_latency give (allowing "
	  "for how they were rounded). The speedup form (baseline/final - 1) or an arithmetic mean "
	  "over the workloads: warning, assumed.",
	  "Take the improvement from the records (`tlperf loop report`, or the Final Summary's "
	  "geometric-mean line) and state it to one decimal.",
	  "stage_result.md:\n"
	  "  - improvement: 35.0%   (records: 27.9%)\n"
	  "finding:\n"
	  "  stage_result.md:18: error: [S4-STAGE-RESULT-IMPROVEMENT] improvement 35.0% does not\n"
	  "  match the records' 27.9% (geometric mean over the workloads) (more than 0.1 point apart)" },
	{ "S4-STAGE-RESULT-ITERATIONS", GATE_ERROR, GATE_ERROR,
	  "Stage Result: iterations is the number of rounds recorded",
	  "The number of rounds tells the conductor how much search backs the result; a larger "
	  "number than was run overstates it.",
	  "iterations differs from the rounds run: the loop's final marker in opt_log.md (its "
	  "round minus one) when the loop wrote the log, else the highest round in "
	  "perf_records.jsonl (a v2 round holding only final records does not count). One less "
	  "than the highest round: warning, assumed that round was the final re-measurement.",
	  "Count the rounds with experiment branches; the final re-measurement is not a round.",
	  "stage_result.md:\n"
	  "  - iterations: 7   (the loop ran 3)\n"
	  "finding:\n"
	  "  stage_result.md:12: error: [S4-STAGE-RESULT-ITERATIONS] iterations 7, but the loop\n"
	  "  ran 3 rounds (its final measurement is round 4 in perf_opt/opt_log.md)" },
	{ "S4-STAGE-RESULT-LATENCY", GATE_ERROR, GATE_ERROR,
	  "Stage Result: baseline_latency and final_latency are the records' (1%, per workload)",
	  "A Stage Result that claims a latency the records do not hold goes straight into a "
	  "summary. Like the Final Summary's final_latency (S4-PERF-RECORDS-RECON), its numbers "
	  "must be the recorded measurements.",
	  "baseline_latency more than 1% from the round-0 (v2: phase baseline) record, or "
	  "final_latency more than 1% from the winner's record, of the workload the line names "
	  "(or the only workload). An unlabelled line among several workloads: warning naming the "
	  "workload it matches, error when it matches none; a workload without its line: warning. "
	  "The figure read is the one a reader takes: after an arrow (`9.1 us → 7.0 us`) or a "
	  "correction (`(corrected: 7.0 us)`) the last, also when the page joins it from the next "
	  "source line of the item; another figure after it is an S4-STAGE-RESULT-FORMAT warning.",
	  "Copy the numbers from perf_records.jsonl (or `tlperf loop report`), one line per "
	  "workload when there are several: `- WORKLOAD: final_latency: N us`.",
	  "stage_result.md:\n"
	  "  - n1024: final_latency: 7.000 us   (record: 8.608 us)\n"
	  "finding:\n"
	  "  stage_result.md:16: error: [S4-STAGE-RESULT-LATENCY] final_latency 7 us for 'n1024'\n"
	  "  does not match the final (winner) record 8.608 us (deviation 18.7% > 1%, perf_records.jsonl line 7)" },
	{ "S4-STAGE-RESULT-LITERAL", GATE_ERROR, GATE_ERROR,
	  "Stage Result: stage 4, verdict TUNING_COMPLETED, primary_metric msprof_task_duration",
	  "The conductor dispatches on these literals; another word is another protocol.",
	  "stage is not 4, verdict not TUNING_COMPLETED, primary_metric not msprof_task_duration "
	  "(the right word in another case: warning); operator differs from `op` in "
	  "perf_opt/loop.json (warning).",
	  "Write the seed's literals as they are.",
	  "stage_result.md:\n"
	  "  - verdict: DONE\n"
	  "finding:\n"
	  "  stage_result.md:9: error: [S4-STAGE-RESULT-LITERAL] field 'verdict' must be\n"
	  "  'TUNING_COMPLETED', not 'DONE': '- verdict: DONE'" },
	{ "S4-STAGE-RESULT-PATHS", GATE_ERROR, GATE_ERROR,
	  "Stage Result: output, log and summary_doc exist under the operator directory",
	  "The conductor adopts the kernel the report names. A path to a file that is not there, "
	  "or outside the operator, hands it something else; the gate never opens such a path.",
	  "output, log, summary_doc (unless none) or perf_feedback names no regular file under "
	  "the operator directory, or a path outside it (absolute elsewhere, '..', a symlink "
	  "out). Warnings: leading directories that are not the end of the operator directory's "
	  "path (a moved or copied tree; read from perf_opt/ on), output other than "
	  "perf_opt/{operator}.py, log other than perf_opt/opt_log.md.",
	  "Name the files the seed names, as paths from the repository top "
	  "(examples/{project}/{op}/perf_opt/{op}.py) or from the operator directory.",
	  "stage_result.md:\n"
	  "  - output: perf_opt/nothing.py\n"
	  "finding:\n"
	  "  stage_result.md:6: error: [S4-STAGE-RESULT-PATHS] output 'perf_opt/nothing.py' does\n"
	  "  not exist under the operator directory '/repo/examples/p/op'" },
	{ "S4-STAGE-RESULT-STOP", GATE_WARNING, GATE_ERROR,
	  "Stage Result: stop_reason agrees with the records, loop.json targets, the loop and the Final Summary",
	  "Why the loop stopped decides what the conductor does next (accept, re-plan, go back to "
	  "design). A plateau or a success the records do not show sends it the wrong way.",
	  "stop_reason not one of success, budget_exhausted, plateau, blocked, user_stop; another "
	  "reason than the loop's final marker or the Final Summary; success while a required "
	  "workload ends above its target in perf_opt/loop.json (these are errors). Warnings "
	  "(errors with --strict): plateau without 3 rounds under the noise threshold, "
	  "budget_exhausted before max_rounds and max_experiments, blocked with a valid branch "
	  "in the last round, success without targets to check.",
	  "Report the stop reason the loop (or the Final Summary) states, and only claim success "
	  "when the targets are met.",
	  "stage_result.md:\n"
	  "  - stop_reason: plateau   (the loop stopped blocked)\n"
	  "finding:\n"
	  "  stage_result.md:19: error: [S4-STAGE-RESULT-STOP] stop_reason plateau, but the loop\n"
	  "  stopped with blocked (its final marker in perf_opt/opt_log.md)" },
	{ "S4-STOP-REASON", GATE_WARNING, GATE_ERROR,
	  "a claimed stop reason (plateau, budget) agrees with the records",
	  "Stopping is a claim too: 'plateau' says further rounds would not help, 'budget' that "
	  "the allowed rounds were spent. Both can be checked against the records.",
	  "stop reason plateau while one of the last 3 rounds improved a workload's best by more "
	  "than the noise threshold (3%, or the log's 噪声阈值); budget_exhausted while rounds < "
	  "max_rounds (10) and branches < max_experiments (30), or the budgets the log states.",
	  "State the stop reason `tlperf plateau` supports, or go on tuning.",
	  "opt_log.md: stop_reason: plateau   (round 3 gained 6%)\n"
	  "finding:\n"
	  "  opt_log.md:25: warning: [S4-STOP-REASON] stop reason plateau, but round 3 improved\n"
	  "  'main' / 'w1' by 6.0% (> noise threshold 3%; perf_records.jsonl line 9) within\n"
	  "  the last 3 rounds" },
	{ "S4-WORKLOAD-INVENTORY", GATE_ERROR, GATE_ERROR,
	  "workload_inventory.json is present and consistent (v2)",
	  "Under contract v2 the inventory fixes which workloads are tuned and which are only "
	  "smoke-tested, before results are known; it is what coverage is judged against.",
	  "v2 (v2 records, or a log that writes the v2 Final table or cites the inventory: the "
	  "finding then names that line): workload_inventory.json missing or unparsable, an item incomplete, kind "
	  "inconsistent with its marks and label, a tune item not finished, a smoke item whose "
	  "precision did not pass.",
	  "Write the inventory before tuning and keep it complete and consistent.",
	  "workload_inventory.json: {\"kernel_id\": \"k::main\", \"workload_id\": \"w1\",\n"
	  "  \"kind\": \"tune\", \"tuning_status\": \"in_progress\", ...}\n"
	  "finding:\n"
	  "  perf_opt/workload_inventory.json: error: [S4-WORKLOAD-INVENTORY] tune workload\n"
	  "  'k::main' / 'w1' has no finished tuning_status (winner_merged, no_gain, merge_blocked)" },
	{ "TLGATE-CONFIG", GATE_ERROR, GATE_ERROR,
	  "a pull request's .tlgate.json does not weaken a rule of the base revision",
	  "In CI the gate checks a pull request; a .tlgate.json the pull request adds or edits "
	  "could switch off the very rule its changes break. In pull-request mode (--changed-since "
	  "or --base) the configuration comes from the base revision (or --config), so such a file "
	  "has no effect, and this rule says it was tried.",
	  "A .tlgate.json of the working tree that gives some rule a lower severity (off < note < "
	  "warning < error) than the base revision's configuration does (the rule's default where "
	  "the base says nothing), lists in \"inline_suppressible\" a rule the base's list does "
	  "not cover, or a lower ab_threshold (S4-AB; 5% by default); a pull request that removes "
	  "the base's file, which made some rule stricter; or a working-tree file that cannot be "
	  "read or parsed. Only in pull-request mode.",
	  "Change the configuration in its own pull request, reviewed on its own; do not weaken a "
	  "rule in the change it would excuse. To silence one finding, use an inline suppression "
	  "with a reason, for a rule the base's configuration lists in \"inline_suppressible\".",
	  ".tlgate.json (added by the pull request):\n"
	  "  {\"rules\": {\"S4-PERF-RECORDS-RECON\": \"off\"}}\n"
	  "finding:\n"
	  "  .tlgate.json: error: [TLGATE-CONFIG] sets S4-PERF-RECORDS-RECON to off, weaker than\n"
	  "  error (its default): a pull request cannot weaken the gate; the base revision's\n"
	  "  configuration is applied instead" },
	{ "TLGATE-PATH", GATE_ERROR, GATE_ERROR,
	  "every path the gate reads stays inside the checked tree and is a regular file within the size caps",
	  "The checked tree may come from an untrusted pull request. A path it names (a record's "
	  "artifact_path or msprof_raw_path, or opt_log.md itself as a symbolic link) must not make "
	  "the gate read files of the CI runner, hang on a device or FIFO, or tell whether a path "
	  "exists outside the tree.",
	  "A path that leads outside the checked tree (\"..\" above it, an absolute path elsewhere, "
	  "a symbolic link pointing out), or names something that is not a regular file, or a file "
	  "above its cap (64 MiB for an artifact). The finding says which; nothing is opened.",
	  "Keep every file the records and the logs name inside the repository, as regular files; "
	  "name them relative to perf_opt/ (or as perf_opt/...).",
	  "perf_records.jsonl:\n"
	  "  {..., \"msprof_raw_path\": \"../../..\", ...}\n"
	  "finding:\n"
	  "  perf_records.jsonl:2: error: [TLGATE-PATH] msprof_raw_path '../../..' leads outside\n"
	  "  the checked tree (not read)" },
	{ "TLGATE-SUPPRESSION", GATE_WARNING, GATE_WARNING,
	  "an inline suppression is malformed or unused",
	  "Suppressions are allowed only with a reason and only where they silence something; a "
	  "stale one hides the next real finding.",
	  "A `<!-- tlgate-disable RULE -- reason -->` without a reason, naming an unknown rule, or "
	  "silencing nothing (of a rule the configuration lets be suppressed inline).",
	  "Give the reason, correct the rule id, or delete the suppression.",
	  "opt_log.md: <!-- tlgate-disable S4-SPEEDUP -->\n"
	  "finding:\n"
	  "  opt_log.md:3: warning: [TLGATE-SUPPRESSION] a suppression needs a rule id and a\n"
	  "  reason: <!-- tlgate-disable RULE -- reason -->" },
	{ "TLGATE-SUPPRESSION-DENIED", GATE_ERROR, GATE_ERROR,
	  "an inline suppression names a rule the configuration in force does not let be suppressed inline",
	  "An inline suppression sits in the pull request it would excuse: one comment in opt_log.md "
	  "could switch reconciliation off. So a suppression only applies to rules that the "
	  "configuration in force (the base revision's .tlgate.json in pull-request mode, never the "
	  "pull request's) lists in \"inline_suppressible\"; by default that list is empty and no "
	  "rule can be suppressed inline. The rule's findings stand either way; this finding shows "
	  "the attempt.",
	  "A `<!-- tlgate-disable RULE -- reason -->` (in opt_log.md, perf_feedback.md or a "
	  "perf_tuning/ Markdown file) whose RULE is not listed in the configuration's "
	  "\"inline_suppressible\", or a prefix RULE* that matches a finding of a rule not listed.",
	  "Fix what the rule found. If a rule really has to be suppressible inline for some "
	  "directories, list it in \"inline_suppressible\" of .tlgate.json in its own pull request, "
	  "reviewed on its own; the suppressions it then allows are shown in every report.",
	  "opt_log.md:\n"
	  "  <!-- tlgate-disable S4-PERF-RECORDS-RECON -- numbers re-measured offline -->\n"
	  "finding:\n"
	  "  opt_log.md:40: error: [TLGATE-SUPPRESSION-DENIED] S4-PERF-RECORDS-RECON cannot be\n"
	  "  suppressed inline: no .tlgate.json is in force and by default no rule is\n"
	  "  inline-suppressible, so its findings stand (reason given: numbers re-measured offline)" },
	{ "TLGATE-TREE", GATE_ERROR, GATE_ERROR,
	  "every perf_opt/ and perf_tuning/ directory can be found and read (no symbolic link, no unreadable directory)",
	  "A directory the gate skips is a directory whose claims nobody checks. A perf_opt/ that is "
	  "a symbolic link (possibly to a place outside the tree), or a directory the walk cannot "
	  "read, would otherwise pass silently.",
	  "A perf_opt/ or perf_tuning/ that is a symbolic link (or lies under one in the changed-files "
	  "list), or a directory under the checked PATH that cannot be read.",
	  "Commit the directory itself instead of a link; make the directory readable.",
	  "ops/x/perf_opt -> ../../elsewhere/perf_opt\n"
	  "finding:\n"
	  "  ops/x/perf_opt: error: [TLGATE-TREE] perf_opt/ is a symbolic link: tlgate never follows\n"
	  "  links, so it is not checked (commit the directory itself)" },
};
const size_t gate_nrules = sizeof(gate_rules) / sizeof(gate_rules[0]);

const struct gate_rule_info *gate_rule_find(const char *id)
{
	for (size_t i = 0; i < gate_nrules; i++)
		if (strcmp(gate_rules[i].id, id) == 0)
			return &gate_rules[i];
	/* S4-PERF-FEEDBACK-* share the family's entry */
	if (strncmp(id, "S4-PERF-FEEDBACK-", 17) == 0)
		return gate_rule_find("S4-PERF-FEEDBACK");
	return NULL;
}
