#!/bin/sh
# perf_tuning/ folders with official CANN-Bench result files (issue 35):
# the cases under "operators"[] are the rows (not the one operator), each
# finding once; the adopted result is the JSON of the latest perf_log
# iteration that was not rolled back, matched by the figures it states
# (its candidate and the result its improvement reaches, `0.41 → 0.60`),
# never a newer file a rolled-back iteration left; `tlperf speedup` and
# `tlperf audit` read that one.
. "$ROOT/tests/cli/lib.sh"
set -e
cd "$TMPDIR_TEST"
# fresh NAME: NAME/gelu/perf_tuning is a copy of testdata/ptune/cannbench
fresh() { rm -rf "$1"; mkdir -p "$1/gelu"; cp -R "$TESTDATA/ptune/cannbench" "$1/gelu/perf_tuning"; chmod -R u+w "$1"; }

# ---- the result files are read as their cases -------------------------
fresh a
expect_exit 0 "$TLGATE" a
expect_no_grep "[PT-JSON]" "$OUT"
expect_no_grep "error:" "$OUT"
# an aggregate of the operator that its cases contradict is still caught,
# at the operator's own figure, once
sed -i '0,/"avg_speedup": 0.6/s//"avg_speedup": 0.66/' a/gelu/perf_tuning/official_iter2.json
expect_exit 1 "$TLGATE" a
expect_grep "official_iter2.json:" "$OUT"
expect_grep "error: [PT-JSON] \"avg_speedup\" 0.66 is not the mean of the 3 rows' \"speedup\" (0.6, +10.00%)" "$OUT"
[ "$(grep -c 'PT-JSON' "$OUT")" = 1 ] || fail "one PT-JSON finding, printed once"
fresh a
python3 - a/gelu/perf_tuning/official_iter2.json <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["operators"][0]["total_cases"] = 5
open(p, "w").write(json.dumps(d, indent=2) + "\n")
PY
expect_exit 1 "$TLGATE" a
expect_grep "error: [PT-JSON] \"total_cases\" is 5 but \"cases\" holds 4 rows" "$OUT"
[ "$(grep -c 'PT-JSON' "$OUT")" = 1 ] || fail "one PT-JSON finding, printed once"

# ---- the adopted result ------------------------------------------------
# iteration 3 (newest file, rolled back) is a record; iteration 2 adopted
fresh b
expect_exit 0 "$TLPERF" speedup --json b/gelu/perf_tuning
expect_grep '"json":	"official_iter2.json"' "$OUT"
# the same when only the stamped official files are there (the newest
# stamp is the rolled-back attempt's)
rm b/gelu/perf_tuning/bench_*.json
expect_exit 0 "$TLPERF" speedup --json b/gelu/perf_tuning
expect_grep '"json":	"official_iter2.json"' "$OUT"
# the audit reports the adopted result: geometric mean of 0.5, 0.6, 0.7
fresh c
expect_exit 0 "$TLPERF" audit --format csv c
expect_grep "c/gelu,perf_tuning," "$OUT"
tr -d '\r' <"$OUT" | awk -F, '$1 == "c/gelu" { if (sprintf("%.3f", $9) != "0.594") { print "speedup " $9; exit 1 } }' ||
    fail "the audit should read official_iter2.json"
# once iteration 3 is adopted, its file is the result
fresh d
sed -i 's/^- adopted: NO — rolled back/- adopted: yes/; s/direction 2, ROLLED BACK/direction 2/' d/gelu/perf_tuning/perf_log.md
expect_exit 0 "$TLPERF" speedup --json d/gelu/perf_tuning
expect_grep '"json":	"official_iter3.json"' "$OUT"

# ---- the report against the adopted result -----------------------------
# as bundled: the headline is iteration 2's; the rolled-back section and
# row are a record, not a claim
fresh r
expect_exit 0 "$TLGATE" r
expect_no_grep "[PT-REPORT]" "$OUT"
# report EDIT...: r with perf_report.md edited by python (OLD, NEW pairs)
report() {
    fresh r
    python3 - r/gelu/perf_tuning/perf_report.md "$@" <<'PY'
import sys
p, pairs = sys.argv[1], sys.argv[2:]
s = open(p, encoding="utf-8").read()
for old, new in zip(pairs[::2], pairs[1::2]):
    old, new = old.replace("\\n", "\n"), new.replace("\\n", "\n")
    assert old in s, old
    s = s.replace(old, new, 1)
open(p, "w", encoding="utf-8").write(s)
PY
}
H='**cann-bench official 结论**: mean speedup 0.41x → 0.60x（case 3 kernel 24.0 → 20.0 us）。0.6x 目标达成。'
# a stale headline, in several phrasings, beside a target it names: an
# error on the headline's own line, naming the file it matches
for stale in '**bench 端到端结论**: mean speedup 0.41x → 0.41x（无变化）。0.6x 目标未达。' \
             '**Mean speedup: 0.41x** (target ≥ 0.6x: NOT MET)' \
             '- 平均加速比 0.41（目标 0.6，未达）' \
             'mean_speedup = 0.410 (goal 0.6x not met; case 3 kernel 24.0 → 20.0 us)'; do
    report "$H" "$stale"
    expect_exit 1 "$TLGATE" r
    expect_grep "perf_report.md:11: error: [PT-REPORT] stale report: average speedup 0.41 matches bench_iter1.json, not the latest results official_iter2.json (0.6 over 3 cases)" "$OUT"
done
# a target alone is no claim
report "$H" '- 目标: mean speedup ≥ 0.6x (target met: yes; case 3 kernel 24.0 → 20.0 us)'
expect_exit 0 "$TLGATE" r
expect_no_grep "[PT-REPORT]" "$OUT"
# rolled back, in other words: still a record
for rec in '| **mean speedup** | **0.60x** | **0.58x** | **-3.3%** | rolled back |' \
           '| mean speedup | 0.60x | 0.58x | -3.3% | 已回滚，仅记录 |' \
           '- mean speedup 0.60x → 0.58x (-3.3%), reverted'; do
    report '### 2.2 Iteration 3 回滚数据（已回滚，仅记录）' '### 2.2 Iteration 3' \
        '| **mean speedup** | **0.60x** | **0.58x** | **-3.3%** | **回滚** |' "$rec"
    expect_exit 0 "$TLGATE" r
    expect_no_grep "[PT-REPORT]" "$OUT"
done
# the same row not labelled rolled back is a claim of 0.58, the
# rolled-back attempt's: a stale report at that row
report '### 2.2 Iteration 3 回滚数据（已回滚，仅记录）' '### 2.2 Iteration 3' \
    '| **mean speedup** | **0.60x** | **0.58x** | **-3.3%** | **回滚** |' '| **mean speedup** | **0.60x** | **0.58x** | **-3.3%** | 退化 |'
expect_exit 1 "$TLGATE" r
expect_grep "perf_report.md:23: error: [PT-REPORT] stale report: average speedup 0.58 matches official_iter3.json, not the latest results official_iter2.json" "$OUT"

# ---- aggregate rows of the logs' own tables ----------------------------
# agg NAME FILE ROWS: NAME/gelu/perf_tuning (cannbench, plus formats'
# optimization_log.md) with a table of three cases and ROWS (\n between)
# appended to FILE
agg() {
    fresh "$1"
    cp "$TESTDATA/ptune/formats/optimization_log.md" "$1/gelu/perf_tuning/"
    chmod u+w "$1/gelu/perf_tuning/optimization_log.md"
    printf '\n### cases\n\n| Case | dtype | iter2 speedup | iter3 speedup | kernel_us |\n|------|-------|------|------|------|\n| 2 | bf16 | 0.500 | 0.480 | 20.0 |\n| 3 | bf16 | 0.600 | 0.580 | 22.0 |\n| 4 | bf16 | 0.700 | 0.680 | 24.0 |\n%b\n' "$3" >>"$1/gelu/perf_tuning/$2"
}
# right, in several phrasings: a mean, AVG, 均值, a geometric mean, a sum,
# a count the rows above do not hold (not all rows shown)
for rows in '| **bf16 mean** | — | **0.600** | **0.580** | 22.0 |' \
            '| AVG | | 0.6 | 0.58 | 22.0 us |' \
            '| **bf16 均值** | — | 0.600x | 0.580x | — |' \
            '| geomean | | 0.5944 | 0.5739 | |' \
            '| 合计 | | | | 66.0 |' \
            '| all-17 mean | — | 0.7168 | 0.7140 | — |'; do
    for file in perf_log.md optimization_log.md; do
        agg g "$file" "$rows"
        expect_exit 0 "$TLGATE" g
        expect_no_grep "row:" "$OUT"
    done
done
# wrong: an error at the aggregate row naming the rows it summarises, in
# perf_log.md (PT-ITERATION) and an optimization log (PT-RESULT)
agg w perf_log.md '| **bf16 mean** | — | **0.690** | **0.580** | 22.0 |'
expect_exit 1 "$TLGATE" w
expect_grep "perf_log.md:53: error: [PT-ITERATION] 'bf16 mean' row: iter2 speedup 0.69 is not the mean of the 3 rows above it (lines 50-52: 0.6, +15.0%)" "$OUT"
[ "$(grep -c "row:" "$OUT")" = 1 ] || fail "one finding, the wrong cell's"
agg w optimization_log.md '| 平均 | | 0.600 | 0.580 | 24.0 us |'
expect_exit 1 "$TLGATE" w
expect_grep "error: [PT-RESULT] '平均' row: kernel_us 24 is not the mean of the 3 rows above it" "$OUT"
agg w perf_log.md '| geomean | | 0.650 | 0.5739 | |'
expect_exit 1 "$TLGATE" w
expect_grep "error: [PT-ITERATION] 'geomean' row: iter2 speedup 0.65 is not the geometric mean of the 3 rows above it" "$OUT"
agg w perf_log.md '| total | | | | 60.0 |'
expect_exit 1 "$TLGATE" w
expect_grep "error: [PT-ITERATION] 'total' row: kernel_us 60 is not the sum of the 3 rows above it" "$OUT"
# a second aggregate row: the rows since the first, or all of them
agg w perf_log.md '| bf16 mean | | 0.600 | 0.580 | 22.0 |\n| 5 | fp16 | 0.800 | 0.790 | 20.0 |\n| 6 | fp16 | 0.900 | 0.880 | 20.0 |\n| fp16 mean | | 0.850 | 0.835 | 20.0 |\n| all mean | | 0.700 | 0.682 | 21.2 |'
expect_exit 0 "$TLGATE" w
expect_no_grep "row:" "$OUT"
exit 0
