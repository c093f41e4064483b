#!/bin/sh
# perf_tuning/ claims read whole (issue 24.6), each on a fixture of
# testdata/ptune and one-line edits of it:
#   - a line with two figures (a subset's, then the overall one, in either
#     order) is right when either figure is; both false still fails;
#   - one RESULT written over several [RESULT-#N] lines is one RESULT,
#     its performance may be the table after its bullet, its comparison
#     a change in its performance line or `X (baseline Y)`;
#   - report totals reconcile with the JSON they cite, to the figure's
#     printed precision; a cited JSON that is missing is a warning;
#   - a total whose JSON the report's own figures identify (the same
#     column of its table, the same line of prose) is an error when that
#     JSON contradicts it and the line names the column or the case
#     count, a warning saying what it assumed when it names neither; the
#     same totals in perf_log.md are checked the same way (issue 35);
#   - a stale figure restated further on is one finding naming each line;
#     a section labelled rolled back is a record, not a claim.
. "$ROOT/tests/cli/lib.sh"
set -e
cd "$TMPDIR_TEST"
# edit NAME FIXTURE FILE OLD NEW: NAME/op/perf_tuning is a copy of
# testdata/ptune/FIXTURE with the first OLD in FILE replaced by NEW (\n in
# OLD and NEW for line breaks)
edit() {
    rm -rf "$1"; mkdir -p "$1/op"; cp -R "$TESTDATA/ptune/$2" "$1/op/perf_tuning"
    replace_first "$1/op/perf_tuning/$3" "$4" "$5"
}

# ---- (a) two figures on one line ----------------------------------------
# the fixture as written: subset then overall, overall then subset, and a
# "(subset: x) / overall y" line, in the report and in perf_log.md
edit ok two_figures final_report.md "# GELU" "# GELU"
expect_exit 0 "$TLGATE" ok
expect_no_grep "[PT-" "$OUT"
# the subset's figure is not checked: another one still passes
edit sub two_figures final_report.md "1.2247x（大 shape" "1.5000x（大 shape"
expect_exit 0 "$TLGATE" sub
edit sub2 two_figures perf_log.md "+31.5% on the large" "+45.0% on the large"
expect_exit 0 "$TLGATE" sub2
edit iord two_figures perf_log.md "+31.5% on the large shapes (case 2, case 4), +24.0% overall" "+24.0% overall, +31.5% on the large shapes"
expect_exit 0 "$TLGATE" iord
# both figures false: the finding fires, naming both
edit r1 two_figures final_report.md "0.9740x（全部" "1.1000x（全部"
expect_exit 1 "$TLGATE" r1
expect_grep "final_report.md:14: error: [PT-REPORT] geometric-mean speedup 1.1 does not match the latest results iter2.json (0.974 over 4 cases, +12.9%) (nor its other figure 1.2247)" "$OUT"
edit r2 two_figures final_report.md "0.974x across all cases" "1.100x across all cases"
expect_exit 1 "$TLGATE" r2
expect_grep "final_report.md:15: error: [PT-REPORT] geometric-mean speedup 1.22 does not match the latest results iter2.json" "$OUT"
expect_grep "(nor its other figure 1.1)" "$OUT"
edit r3 two_figures final_report.md "overall 1.000" "overall 1.300"
expect_exit 1 "$TLGATE" r3
expect_grep "final_report.md:16: error: [PT-REPORT] average speedup 1.3 does not match the latest results iter2.json (1 over 4 cases, +30.0%) (nor its other figure 1.225)" "$OUT"
# a start and a result joined by an arrow are not two claims: the result is
edit r4 two_figures final_report.md "平均加速比（large shapes: 1.225）/ overall 1.000" "平均加速比 1.000 → 1.300"
expect_exit 1 "$TLGATE" r4
expect_grep "final_report.md:16: error: [PT-REPORT] average speedup 1.3 does not match" "$OUT"
edit r5 two_figures final_report.md "平均加速比（large shapes: 1.225）/ overall 1.000" "平均加速比从 0.8063 提升至 1.3000"
expect_exit 1 "$TLGATE" r5
expect_grep "final_report.md:16: error: [PT-REPORT] average speedup 1.3 does not match" "$OUT"
edit i1 two_figures perf_log.md "+24.0% overall" "+40.0% overall"
expect_exit 1 "$TLGATE" i1
expect_grep "perf_log.md:20: error: [PT-ITERATION] 'Iteration 2 — 双缓冲流水 (ADOPTED)': improvement +31.5% does not match baseline_time 0.8063 and candidate_time 1 (+24.02%) (nor its other figure +40%)" "$OUT"
edit i2 two_figures perf_log.md "/ -1.2% overall" "/ -6.0% overall"
expect_exit 1 "$TLGATE" i2
expect_grep "perf_log.md:31: error: [PT-ITERATION] 'Iteration 3 — block_N=16384 (ROLLED BACK)': improvement +2.6% does not match baseline_time 1 and candidate_time 0.9883 (-1.17%) (nor its other figure -6%)" "$OUT"
# a RESULT's comparison: overall first is as good as subset first; both
# false fails, naming both
edit c1 formats optimization_log.md "对比: 小 shape -13.0%，overall -4.4%" "对比: overall -4.4%，小 shape -13.0%"
expect_exit 0 "$TLGATE" c1
edit c2 formats optimization_log.md "对比: 小 shape -13.0%，overall -4.4%" "对比: 小 shape -20.0%，overall -9.9%"
expect_exit 1 "$TLGATE" c2
expect_grep "optimization_log.md:60: error: [PT-RESULT] [RESULT-#4] compares -20% (nor its other figure -9.9%), which matches none of the changes it quotes" "$OUT"
# ---- (b) one RESULT over several [RESULT-#N] lines -----------------------
# result4 NAME TEXT: the formats fixture with its [RESULT-#4] lines replaced
# by TEXT (\n for line breaks)
result4() {
    rm -rf "$1"; mkdir -p "$1/op"; cp -R "$TESTDATA/ptune/formats" "$1/op/perf_tuning"
    f=$1/op/perf_tuning/optimization_log.md
    s=$(cat "$f" && echo .); s=${s%.}
    case $s in *"[RESULT-#4] 优化点"*"## 结论"*) ;; *) fail "result4: $f has no [RESULT-#4] before its ## 结论" ;; esac
    unescape_nl "$2"
    printf '%s\n\n%s' "${s%%"[RESULT-#4] 优化点"*}$unescaped" "## 结论${s#*"## 结论"}" >"$f"
}
P1="优化点: Host 侧 cast | 精度: pass"
P2="性能: case 2 kernel 177.48 → 23.6 us (+650%)"
P3="对比: +650%（kernel 时间）"
# the parts on lines of their own: blank lines between, part markers,
# emphasis on the tag, list items, a heading continued by a tagged line
for form in "[RESULT-#4] $P1\n\n[RESULT-#4] $P2\n\n[RESULT-#4] $P3" \
            "[RESULT-#4] (1/3) $P1\n[RESULT-#4] (2/3) $P2\n[RESULT-#4] (3/3) $P3" \
            "[RESULT-#4] $P1\n[RESULT-#4]（续）$P2\n[RESULT-#4]（续）$P3" \
            "**[RESULT-#4]** $P1\n**[RESULT-#4]** $P2\n**[RESULT-#4]** $P3" \
            "- [RESULT-#4] $P1\n- [RESULT-#4] $P2\n- [RESULT-#4] $P3" \
            "### [RESULT-#4] Host 侧 cast\n- 精度: pass\n\n[RESULT-#4] $P2 | $P3"; do
    result4 m "$form"
    expect_exit 0 "$TLGATE" m
    expect_no_grep "[PT-" "$OUT"
done
# read as one, still checked as one: a false comparison on its last line,
# no precision on any line
result4 t1 "[RESULT-#4] $P1\n\n[RESULT-#4] $P2\n\n[RESULT-#4] 对比: +900%"
expect_exit 1 "$TLGATE" t1
expect_grep "optimization_log.md:61: error: [PT-RESULT] [RESULT-#4] compares +900%, which matches none of the changes it quotes (first: 177.48 → 23.6, -86.7%)" "$OUT"
result4 t2 "[RESULT-#4] (1/3) 优化点: Host 侧 cast\n[RESULT-#4] (2/3) $P2\n[RESULT-#4] (3/3) $P3"
expect_exit 1 "$TLGATE" t2
expect_grep "optimization_log.md:57: error: [PT-RESULT] [RESULT-#4] states no precision (精度)" "$OUT"
# a second verdict is a second RESULT (the one after a fix): precision
# failed, then passed, and the next item is not started while it fails
result4 t3 "[RESULT-#4] 优化点: Host 侧 cast | 精度: fail | 性能: 30 us | 对比: 未比较（精度失败）\n\n[RESULT-#4] 优化点: Host 侧 cast（修复后）| 精度: pass | $P2 | $P3\n\n[ORDER-CHECK] 准备实施: [#5] 下一项 | 前置依赖: 无 | 结论: ✅"
expect_exit 1 "$TLGATE" t3
expect_no_grep "[PT-PRECISION]" "$OUT"
expect_no_grep "[PT-RESULT]" "$OUT"
# ---- (d) a RESULT's performance in the table after its bullet, in its
# own tagged line, or as `X (baseline Y)` (issue 35) ----------------------
TB="| case | before (us) | after (us) | change |\n|---|---|---|---|\n| 2 | 177.48 | 23.6 | -86.7% |\n| 4 | 72.88 | 22.44 | -69.2% |"
for form in "### [RESULT-#4] Host 侧 cast\n- 精度: pass\n- 性能 (cann-bench official, run 20260806_113224):\n\n$TB\n\n- 对比: +650%（kernel 时间）" \
            "### [RESULT-#4] Host-side cast — KEPT\n- precision: pass\n- performance (official run 20260806_113224):\n\n$TB\n\n- comparison: case 2 -86.7% kernel time" \
            "[RESULT-#4] 精度: pass\n\n**[RESULT-#4] 性能（官方 cann-bench）：**\n\n$TB\n\n[RESULT-#4] 对比: -86.7%（case 2 kernel 时间）"; do
    result4 p "$form"
    expect_exit 0 "$TLGATE" p
    expect_no_grep "states no" "$OUT"
    expect_no_grep "error:" "$OUT"
done
# a performance bullet followed by nothing still states none
result4 p "### [RESULT-#4] Host 侧 cast\n- 精度: pass\n- 性能 (cann-bench official):\n- 对比: +650%"
expect_exit 1 "$TLGATE" p
expect_grep "error: [PT-RESULT] [RESULT-#4] states no performance (性能)" "$OUT"
# the comparison in the performance line: three tagged lines (精度 / 性能
# / 采纳), plain and bold, Chinese and English
for form in "[RESULT-#4] 精度: pass\n[RESULT-#4] 性能: +10.4% avg_speedup (beyond the ±3% 噪声阈值)\n[RESULT-#4] 采纳: yes" \
            "**[RESULT-#4]** precision: pass\n**[RESULT-#4]** performance: +10.4% mean speedup\n**[RESULT-#4]** adopted: yes" \
            "[RESULT-#4] 精度: pass\n[RESULT-#4] 性能: case 2 kernel 177.48 → 23.6 us (+650%)\n[RESULT-#4] 采纳: 是"; do
    result4 q "$form"
    expect_exit 0 "$TLGATE" q
    expect_no_grep "states no" "$OUT"
    expect_no_grep "error:" "$OUT"
done
# read as its comparison, still checked: a change no figure gives
result4 q "[RESULT-#4] 精度: pass\n[RESULT-#4] 性能: +25.0% 加速比\n[RESULT-#4] 采纳: yes"
expect_exit 1 "$TLGATE" q
expect_grep "optimization_log.md:58: error: [PT-RESULT] [RESULT-#4] compares +25%, which matches no figure of 'Iteration 3" "$OUT"
# a RESULT with neither a comparison nor a change in its performance
result4 q "[RESULT-#4] 精度: pass\n[RESULT-#4] 性能: 23.6 us\n[RESULT-#4] 采纳: yes"
expect_exit 1 "$TLGATE" q
expect_grep "error: [PT-RESULT] [RESULT-#4] states no comparison (对比)" "$OUT"
# `X (baseline Y)`: the change from Y to X is the comparison it states
for form in "[RESULT-#4] 优化点: Host 侧 cast | 精度: pass | 性能: mean_speedup 0.4573x (baseline 0.4414x) | 对比: +3.6% (采纳)" \
            "### [RESULT-#4] Host-side cast\n- precision: pass\n- performance: **0.4573x** (iter3 0.4414x)\n- comparison: +3.6% vs iter3" \
            "[RESULT-#4] 精度: pass\n[RESULT-#4] 性能: avg_speedup 0.4573（基线 0.4414）\n[RESULT-#4] 对比: +3.6%" \
            "[RESULT-#4] 精度: pass\n[RESULT-#4] 性能: avg_speedup 0.4573 (baseline 0.4414), +3.6%"; do
    result4 x "$form"
    expect_exit 0 "$TLGATE" x
    expect_no_grep "[PT-RESULT]" "$OUT"
done
result4 x "[RESULT-#4] 优化点: Host 侧 cast | 精度: pass | 性能: mean_speedup 0.4573x (baseline 0.4414x) | 对比: +9.0% (采纳)"
expect_exit 1 "$TLGATE" x
expect_grep "error: [PT-RESULT] [RESULT-#4] compares +9%, but its performance 0.4573 against the 0.4414 it names beside it (line 57) is +3.6%" "$OUT"
result4 x "[RESULT-#4] 精度: pass\n[RESULT-#4] performance: 0.4573x (iter3 0.4414x), +9.0%"
expect_exit 1 "$TLGATE" x
expect_grep "error: [PT-RESULT] [RESULT-#4] compares +9%, but its performance 0.4573 against the 0.4414 it names beside it (line 58) is +3.6%" "$OUT"
# ---- (c) report totals against the JSON they cite ------------------------
# formats/perf_report.md:11 sums ours_v2.json's ours_us (7.27 ms) from
# baseline.json's (8.60 ms); the total is right to the digits it prints
T="kernel 时间合计（ours_v2.json 的 4 个 case 之和）: 8.60 → 7.27 ms"
for ok in "8.60 → 7.3 ms" "8.6 → 7.270 ms" "8600 → 7270 us" "8.600 → 7.2700 ms" "8.60 → 7.27ms"; do
    edit t formats perf_report.md "$T" "kernel 时间合计（ours_v2.json 的 4 个 case 之和）: $ok"
    expect_exit 0 "$TLGATE" t
    expect_no_grep "[PT-REPORT]" "$OUT"
done
# off in the last printed digit (within 1%): an error naming both files
# and lines
edit t formats perf_report.md "$T" "kernel 时间合计（ours_v2.json 的 4 个 case 之和）: 8.60 → 7.28 ms"
expect_exit 1 "$TLGATE" t
expect_grep "t/op/perf_tuning/perf_report.md:11: error: [PT-REPORT] totals 8.6 → 7.28 ms: 7.28 does not reconcile with t/op/perf_tuning/ours_v2.json:9, whose 4 cases' ours_us sum to 7.27 ms (+0.1%)" "$OUT"
edit t formats perf_report.md "$T" "kernel 时间合计（ours_v2.json 的 4 个 case 之和）: 8600 → 7272 us"
expect_exit 1 "$TLGATE" t
expect_grep "perf_report.md:11: error: [PT-REPORT] totals 8600 → 7272 us: 7272 does not reconcile with t/op/perf_tuning/ours_v2.json:9" "$OUT"
edit t formats perf_report.md "$T" "kernel 时间合计（ours_v2.json 的 4 个 case 之和）: 8.62 → 7.27 ms"
expect_exit 1 "$TLGATE" t
expect_grep "perf_report.md:11: error: [PT-REPORT] totals 8.62 → 7.27 ms against t/op/perf_tuning/ours_v2.json:9: 8.62 is no sum of a time column of it or of an older JSON (closest: baseline.json's ours_us, 8.6 ms)" "$OUT"
# other phrasings: one figure, the JSON by its path, the column named
edit t formats perf_report.md "$T" "sum kernel_ms (custom/ln/perf_tuning/ours_v2.json): 7.27"
expect_exit 0 "$TLGATE" t
edit t formats perf_report.md "$T" "sum kernel_ms (custom/ln/perf_tuning/ours_v2.json): 7.24"
expect_exit 1 "$TLGATE" t
expect_grep "perf_report.md:11: error: [PT-REPORT] total 7.24 ms does not reconcile with t/op/perf_tuning/ours_v2.json:9: the sum of its 4 cases' ours_us is 7.27 ms (-0.4%)" "$OUT"
edit t formats perf_report.md "$T" "- total ours_us = 7270.0 (ours_v2.json)"
expect_exit 0 "$TLGATE" t
# a cited JSON that is not in the folder: a warning quoting the line
edit t formats perf_report.md "$T" "kernel 时间合计（ours_v3.json 的 4 个 case 之和）: 8.60 → 7.27 ms"
expect_exit 0 "$TLGATE" t
expect_grep "perf_report.md:11: warning: [PT-REPORT] '- kernel 时间合计（ours_v3.json 的 4 个 case 之和）: 8.60 → 7.27 ms' cites ours_v3.json, which is not in the folder: the total is not reconciled" "$OUT"
# no JSON cited: compared with the latest results, a warning quoting the
# line when it does not reconcile
edit t formats perf_report.md "## 2. 迭代" "## 2. 合计\n\n- total kernel time: 7.27 ms\n\n## 3. 迭代"
expect_exit 0 "$TLGATE" t
expect_no_grep "[PT-REPORT]" "$OUT"
edit t formats perf_report.md "## 2. 迭代" "## 2. 合计\n\n- total kernel time: 7.31 ms\n\n## 3. 迭代"
expect_exit 0 "$TLGATE" t
expect_grep "perf_report.md:15: warning: [PT-REPORT] total 7.31 ms does not reconcile with t/op/perf_tuning/ours_v2.json:9: the sum of its 4 cases' ours_us is 7.27 ms (+0.6%) ('- total kernel time: 7.31 ms' names no JSON and no figure beside it identifies one: assumed the latest results)" "$OUT"
# a cited JSON without per-case times: a warning quoting the line
edit t formats perf_report.md "$T" "kernel 时间合计（speedups.json 的 4 个 case 之和）: 8.60 → 7.27 ms"
printf '{"cases": [{"case_id": 1, "speedup": 0.5}, {"case_id": 2, "speedup": 0.4}]}\n' >t/op/perf_tuning/speedups.json
expect_exit 0 "$TLGATE" t
expect_grep "perf_report.md:11: warning: [PT-REPORT] '- kernel 时间合计（speedups.json 的 4 个 case 之和）: 8.60 → 7.27 ms' cites t/op/perf_tuning/speedups.json, which has no per-case times (a key ending in _us or _ms): the total is not reconciled" "$OUT"
# ---- (d) totals whose JSON the report's own figures identify ------------
# formats/perf_report.md:7 is `| mean_speedup | 0.3726x | 0.4414x |`:
# baseline.json's and ours_v2.json's avg_speedup, so the row below it sums
# baseline.json (ours_us 8.60 ms) and ours_v2.json (7.27 ms)
R="| kernel 总耗时 (ms) | 8.60 | 7.27 | -15.5% |"
for ok in "| total ours_us (4 cases) | 8.60 ms | 7.27 ms | -15.5% |" \
          "| 合计 ours_us（4 个 case） | 8600.0 us | 7270.0 us | -15.5% |" \
          "| kernel 总计 (4 cases) | 8.6ms | 7.3ms | -15% |"; do
    edit t formats perf_report.md "$R" "$ok"
    expect_exit 0 "$TLGATE" t
    expect_no_grep "[PT-REPORT]" "$OUT"
done
ID="(line 7's 0.3726 is baseline.json's avg_speedup, line 7's 0.4414 is ours_v2.json's avg_speedup)"
edit t formats perf_report.md "$R" "| sum ours_us (4 cases) | 8.60ms | 7.31ms | -15.0% |"
expect_exit 1 "$TLGATE" t
expect_grep "t/op/perf_tuning/perf_report.md:8: error: [PT-REPORT] totals 8.6 → 7.31 ms contradicted by the JSONs they summarise: 7.31 ms against t/op/perf_tuning/ours_v2.json:9, whose 4 cases' ours_us sum to 7.27 ms (+0.6%) $ID" "$OUT"
edit t formats perf_report.md "$R" "| 合计 ours_us（4 个 case） | 8600.0 us | 7310.0 us | -15.0% |"
expect_exit 1 "$TLGATE" t
expect_grep "perf_report.md:8: error: [PT-REPORT] totals 8600 → 7310 us contradicted by the JSONs they summarise: 7310 us against t/op/perf_tuning/ours_v2.json:9, whose 4 cases' ours_us sum to 7270 us (+0.6%) $ID" "$OUT"
# the start is checked against its own JSON, the case count is enough
edit t formats perf_report.md "$R" "| kernel 总计 (4 cases) | 8.70 ms | 7.27 ms | -16.4% |"
expect_exit 1 "$TLGATE" t
expect_grep "perf_report.md:8: error: [PT-REPORT] totals 8.7 → 7.27 ms contradicted by the JSONs they summarise: 8.7 ms against t/op/perf_tuning/baseline.json:9, whose 4 cases' ours_us sum to 8.6 ms (+1.2%) $ID" "$OUT"
# neither column nor case count named: which column it sums is assumed, a warning
edit t formats perf_report.md "$R" "| kernel 总耗时 (ms) | 8.60 | 7.31 | -15.0% |"
expect_exit 0 "$TLGATE" t
expect_grep "perf_report.md:8: warning: [PT-REPORT] totals 8.6 → 7.31 ms: 7.31 ms against t/op/perf_tuning/ours_v2.json:9, whose 4 cases' ours_us sum to 7.27 ms (+0.6%) (line 7's 0.3726 is baseline.json's avg_speedup, line 7's 0.4414 is ours_v2.json's avg_speedup; '| kernel 总耗时 (ms) | 8.60 | 7.31 | -15.0% |' names no column and no case count: assumed the closest time column)" "$OUT"
# prose: the figures beside it, in order
edit t formats perf_report.md "- 数据来源" "- total ours_us over 4 cases: 8.60 → 7.31 ms (avg_speedup 0.3726 → 0.4414)\n- 数据来源"
expect_exit 1 "$TLGATE" t
expect_grep "perf_report.md:10: error: [PT-REPORT] totals 8.6 → 7.31 ms contradicted by the JSONs they summarise: 7.31 ms against t/op/perf_tuning/ours_v2.json:9" "$OUT"
expect_grep "(this line's 0.3726 is baseline.json's avg_speedup, this line's 0.4414 is ours_v2.json's avg_speedup)" "$OUT"
edit t formats perf_report.md "- 数据来源" "- total ours_us over 4 cases: 8.60 → 7.27 ms (avg_speedup 0.3726 → 0.4414)\n- 数据来源"
expect_exit 0 "$TLGATE" t
expect_no_grep "[PT-REPORT]" "$OUT"
# two figures naming different JSONs for one total: nothing identified,
# the latest results assumed, a warning
edit t formats perf_report.md "- 数据来源" "- avg_speedup 0.3726 → 0.4414, total kernel time 7.31 ms\n- 数据来源"
expect_exit 0 "$TLGATE" t
expect_grep "perf_report.md:10: warning: [PT-REPORT] total 7.31 ms does not reconcile with t/op/perf_tuning/ours_v2.json:9" "$OUT"
# a total speedup, a mean speedup: no time
edit t formats perf_report.md "- 数据来源" "- total speedup 1.35x over 4 cases, 平均加速比 0.4414，合计加速比 2.1\n- 数据来源"
expect_exit 0 "$TLGATE" t
expect_no_grep "[PT-REPORT]" "$OUT"

# ---- (e) the same sums in perf_log.md ------------------------------------
C="- candidate_time: avg_speedup=0.4414 (ours_v2.json)"
for ok in "- candidate_time: avg_speedup=0.4414 (total ours_us 7.27 ms over 4 cases)" \
          "- candidate_time: avg_speedup=0.4414（4 个 case 的 kernel 时间合计 7270 us）" \
          "- candidate_time: avg_speedup=0.4414 (ours_v2.json; host total 80us per call)" \
          "- candidate_time: avg_speedup=0.4414 (ours_v2.json)\n- note: CANN native sum/sqrt ~80us"; do
    edit t formats perf_log.md "$C" "$ok"
    expect_exit 0 "$TLGATE" t
    expect_no_grep "[PT-ITERATION]" "$OUT"
done
edit t formats perf_log.md "$C" "- candidate_time: avg_speedup=0.4414（4 个 case 的 kernel 时间合计 7310 us）"
expect_exit 1 "$TLGATE" t
expect_grep "t/op/perf_tuning/perf_log.md:32: error: [PT-ITERATION] total 7310 us contradicted by the JSON it summarises: 7310 us against t/op/perf_tuning/ours_v2.json:9, whose 4 cases' ours_us sum to 7270 us (+0.6%) (this line's 0.4414 is ours_v2.json's avg_speedup)" "$OUT"
edit t formats perf_log.md "$C" "- candidate_time: avg_speedup=0.4414 (sum ours_us=7.31ms across 4 cases)"
expect_exit 1 "$TLGATE" t
expect_grep "perf_log.md:32: error: [PT-ITERATION] total 7.31 ms contradicted by the JSON it summarises" "$OUT"
edit t formats perf_log.md "$C" "- candidate_time: avg_speedup=0.4414 (ours_v2.json, 总计 ours_us 7.31 ms)"
expect_exit 1 "$TLGATE" t
expect_grep "perf_log.md:32: error: [PT-ITERATION] total 7.31 ms does not reconcile with t/op/perf_tuning/ours_v2.json:9: the sum of its 4 cases' ours_us is 7.27 ms (+0.6%)" "$OUT"
# identified, but no column or count named: a warning saying so
edit t formats perf_log.md "$C" "- candidate_time: avg_speedup=0.4414 (kernel 总计 7.31 ms)"
expect_exit 0 "$TLGATE" t
expect_grep "perf_log.md:32: warning: [PT-ITERATION] total 7.31 ms: 7.31 ms against t/op/perf_tuning/ours_v2.json:9" "$OUT"
expect_grep "names no column and no case count: assumed the closest time column)" "$OUT"
# nothing identifies it and it is the sum of no JSON's column: a warning
edit t formats perf_log.md "$C" "$C\n- note: 7.31 ms (total ours_us)"
expect_exit 0 "$TLGATE" t
expect_grep "perf_log.md:33: warning: [PT-ITERATION] total 7.31 ms is the sum of no time column of any JSON of the folder (closest: ours_v2.json's ours_us, 7.27 ms); '- note: 7.31 ms (total ours_us)' names no JSON and no figure beside it identifies one: not reconciled" "$OUT"
edit t formats perf_log.md "$C" "$C\n- note: 8000 us (total ours_us)"
expect_exit 0 "$TLGATE" t
expect_no_grep "[PT-ITERATION]" "$OUT"

# ---- (f) one stale figure restated: one finding --------------------------
# report_stale/final_report.md:8 claims iter1.json's 0.8063 where iter2.json
# (1.0) is the latest
stale() {
    rm -rf t; mkdir -p t/op; cp -R "$TESTDATA/ptune/report_stale" t/op/perf_tuning
    printf "$1" >>t/op/perf_tuning/final_report.md
}
stale '\n## 5. 下一轮建议\n\n1. 接受当前性能: 平均加速比 0.8063，目标未达。\n'
expect_exit 1 "$TLGATE" t
expect_grep "final_report.md:8: error: [PT-REPORT] stale report: average speedup 0.8063 matches iter1.json, not the latest results iter2.json (1 over 4 cases) (restated at line 38: the same stale figure, one finding)" "$OUT"
expect_no_grep "final_report.md:38:" "$OUT"
stale '\n## 5. Next round\n\n- start from the current mean speedup **0.8063x**; the 1.0x target is not met\n- keep average speedup 0.8063 as the reference\n'
expect_exit 1 "$TLGATE" t
expect_grep "(restated at lines 38 and 39: the same stale figure, one finding)" "$OUT"
[ "$(grep -c 'error: \[PT-REPORT\]' "$OUT")" = 1 ] || fail "one stale finding wanted"
# a rolled-back section or row records an attempt: no claim
stale '\n### 4.1 iter3 回滚数据（已回滚，仅记录）\n\n| 指标 | iter2 | iter3 |\n|---|---|---|\n| avg_speedup | 1.0000 | 0.9883 |\n\n## 5. Rolled back\n\n- iter3 mean speedup 0.9883 (rolled back)\n'
expect_exit 1 "$TLGATE" t
expect_no_grep "final_report.md:3" "$OUT"
expect_no_grep "final_report.md:4" "$OUT"
# the same row unlabelled is a claim of its own, with its own finding
stale '\n### 4.1 iter3\n\n| 指标 | iter2 | iter3 |\n|---|---|---|\n| avg_speedup | 1.0000 | 0.9883 |\n'
expect_exit 1 "$TLGATE" t
expect_grep "final_report.md:40: error: [PT-REPORT] stale report: average speedup 0.9883 matches iter3.json" "$OUT"
exit 0
