#!/bin/sh
# tlgate on perf_tuning/ folders: a passing folder, a broken one, and the
# two public folders of ../shared (copied under <op>/perf_tuning/, the name
# the gate looks for). Skips until `tlgate` itself is implemented.
. "$ROOT/tests/cli/lib.sh"
set -e

mkdir -p "$TMPDIR_TEST/probe"
set +e
"$TLGATE" "$TMPDIR_TEST/probe" >/dev/null 2>"$TMPDIR_TEST/probe.err"
set -e
if grep -q "not implemented" "$TMPDIR_TEST/probe.err"; then
    skip "tlgate is not implemented yet (the perf_tuning checks are tested through the C API)"
fi

# a passing folder: no finding, exit 0
mkdir -p "$TMPDIR_TEST/ok/gelu"
cp -r "$TESTDATA/ptune/good" "$TMPDIR_TEST/ok/gelu/perf_tuning"
expect_exit 0 "$TLGATE" "$TMPDIR_TEST/ok"
expect_no_grep "[PT-" "$OUT"

# a stale report: exit 1, named at its line
mkdir -p "$TMPDIR_TEST/stale/gelu"
cp -r "$TESTDATA/ptune/report_stale" "$TMPDIR_TEST/stale/gelu/perf_tuning"
expect_exit 1 "$TLGATE" "$TMPDIR_TEST/stale"
expect_grep "perf_tuning/final_report.md:8: error: [PT-REPORT] stale report" "$OUT"

# an inline suppression silences its rule in the folder only when the
# configuration lists the rule in "inline_suppressible" (none by default)
mkdir -p "$TMPDIR_TEST/sup/gelu"
cp -r "$TESTDATA/ptune/suppressed" "$TMPDIR_TEST/sup/gelu/perf_tuning"
expect_exit 1 "$TLGATE" "$TMPDIR_TEST/sup"
expect_grep "perf_tuning/optimization_log.md:37: error: [PT-DB]" "$OUT"
expect_grep "perf_tuning/optimization_log.md:29: error: [TLGATE-SUPPRESSION-DENIED] PT-DB cannot be suppressed inline" "$OUT"
printf '{"inline_suppressible": ["PT-DB"]}\n' >"$TMPDIR_TEST/sup/.tlgate.json"
expect_exit 0 "$TLGATE" "$TMPDIR_TEST/sup"
expect_grep "perf_tuning/optimization_log.md:37: suppressed error: [PT-DB]" "$OUT"
expect_grep "suppressed by $TMPDIR_TEST/sup/gelu/perf_tuning/optimization_log.md:29 (" "$OUT"
expect_no_grep "TLGATE-SUPPRESSION" "$OUT"
sed 's/tlgate-disable PT-DB/tlgate-disable PT-PLAN/' "$TESTDATA/ptune/suppressed/optimization_log.md" \
    >"$TMPDIR_TEST/sup/gelu/perf_tuning/optimization_log.md"
printf '{"inline_suppressible": ["PT-DB", "PT-PLAN"]}\n' >"$TMPDIR_TEST/sup/.tlgate.json"
expect_exit 1 "$TLGATE" "$TMPDIR_TEST/sup"
expect_grep "perf_tuning/optimization_log.md:37: error: [PT-DB]" "$OUT"
expect_grep "perf_tuning/optimization_log.md:29: warning: [TLGATE-SUPPRESSION] unused suppression of PT-PLAN" "$OUT"

have_shared "the real perf_tuning folders" || exit 0
real="$SHARED/real-logs/perf_tuning"
mkdir -p "$TMPDIR_TEST/real/foreach_norm" "$TMPDIR_TEST/real/sigmoid"
cp -r "$real/tile-ai__foreach_norm" "$TMPDIR_TEST/real/foreach_norm/perf_tuning"
cp -r "$real/tile-ai__sigmoid" "$TMPDIR_TEST/real/sigmoid/perf_tuning"
chmod -R u+w "$TMPDIR_TEST/real"

expect_exit 1 "$TLGATE" "$TMPDIR_TEST/real/foreach_norm"
expect_grep "perf_tuning/perf_report.md:8: error: [PT-REPORT] stale report: average speedup 0.2095 matches ours_iter7.json" "$OUT"
expect_grep "perf_tuning/perf_report.md:40: error: [PT-REPORT] AVG row: baseline_us 83.1" "$OUT"
expect_grep "perf_tuning/perf_report.md:40: error: [PT-REPORT] AVG row: ours_us 414.2" "$OUT"
expect_grep "perf_tuning/perf_log.md:56: error: [PT-DB]" "$OUT"
expect_grep "perf_tuning/perf_log.md:403: error: [PT-DB]" "$OUT"
expect_no_grep "[PT-JSON]" "$OUT"
expect_no_grep "[PT-ITERATION]" "$OUT"

expect_exit 1 "$TLGATE" "$TMPDIR_TEST/real/sigmoid"
expect_grep "perf_tuning/optimization_log.md:42: error: [PT-SEQUENCE]" "$OUT"
expect_grep "perf_tuning/optimization_log.md:43: error: [PT-SEQUENCE]" "$OUT"
expect_no_grep "[PT-REPORT]" "$OUT"

# an improvement stated as a change in speed (issue 24): a time that fell
# 177.48 -> 23.6 us is "+650%" faster (177.48 / 23.6 - 1 = +652%), or
# "-86.7%" in time; "+700%" is neither
for case in "+650%:0" "+652.0%:0" "-86.7%:0" "+700%:1" "+600%:1"; do
    impr=${case%:*}; want=${case##*:}
    rm -rf "$TMPDIR_TEST/speed"; mkdir -p "$TMPDIR_TEST/speed/gelu"
    cp -r "$TESTDATA/ptune/good" "$TMPDIR_TEST/speed/gelu/perf_tuning"
    python3 - "$TMPDIR_TEST/speed/gelu/perf_tuning/perf_log.md" "$impr" <<'PY'
import sys
p, impr = sys.argv[1:3]
s = open(p, encoding="utf-8").read()
old = "- baseline_time: avg_speedup=0.6500 (baseline.json)\n- candidate_time: avg_speedup=0.8063 (iter1.json)\n- improvement: +24.0%"
assert old in s
s = s.replace(old, "- baseline_time: 177.48 us\n- candidate_time: 23.6 us\n- improvement: " + impr, 1)
open(p, "w", encoding="utf-8").write(s)
PY
    expect_exit "$want" "$TLGATE" "$TMPDIR_TEST/speed"
    if [ "$want" = 1 ]; then expect_grep "[PT-ITERATION]" "$OUT"; else expect_no_grep "[PT-ITERATION]" "$OUT"; fi
done

# perf_tuning/ Markdown is read as GitHub renders it (issue 24): a figure
# hidden in a comment or struck through is not the one read
for case in "<!-- +24.0% --> +99%:1" "~~+99%~~ +24.0%:0" "<s>+99%</s> +24.0%:0" "+24.0% <!-- +99% -->:0"; do
    impr=${case%:*}; want=${case##*:}
    rm -rf "$TMPDIR_TEST/hid"; mkdir -p "$TMPDIR_TEST/hid/gelu"
    cp -r "$TESTDATA/ptune/good" "$TMPDIR_TEST/hid/gelu/perf_tuning"
    python3 - "$TMPDIR_TEST/hid/gelu/perf_tuning/perf_log.md" "$impr" <<'PY'
import sys
p, impr = sys.argv[1:3]
s = open(p, encoding="utf-8").read()
s = s.replace("- improvement: +24.0%", "- improvement: " + impr, 1)
open(p, "w", encoding="utf-8").write(s)
PY
    expect_exit "$want" "$TLGATE" "$TMPDIR_TEST/hid"
    if [ "$want" = 1 ]; then expect_grep "improvement +99%" "$OUT"; fi
done
