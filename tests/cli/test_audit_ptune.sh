# tlperf audit with first-generation perf_tuning/ folders beside perf_opt/
# ones: one row per folder (contract perf_tuning, speedup = geometric mean
# of the per-case speedups of its latest JSON, verdict from the gate's PT-*
# findings; errors fail the row), in every format, counted in the totals.
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST
cd "$T"

# the geometric mean of the per-case speedups, computed from the JSON the
# speedup command names (tlperf speedup is tested in test_speedup_ptune.sh)
folder_geomean() {
    "$TLPERF" speedup --json "$1" >"$T/sp.json"
    json=$(sed -n 's/^	"json":	"\(.*\)",$/\1/p' "$T/sp.json")
    grep -o '"speedup": *[0-9.eE+-]*' "$1/$json" | sed 's/.*: *//' |
        awk '$1 > 0 { s += log($1); n++ } END { printf "%.3f\n", exp(s / n) }'
}

# only a passing folder: one row, reconciled, exit 0
mkdir -p ok/ops/gelu
cp -R "$TESTDATA/ptune/good" ok/ops/gelu/perf_tuning
g=$(folder_geomean ok/ops/gelu/perf_tuning)
expect_exit 0 "$TLPERF" audit ok
expect_grep "1 operator checked: 1 reconciled, 0 unreconcilable; overall geometric-mean speedup ${g}x over 1 workload." "$OUT"
grep '^| ok/ops/gelu | perf\\_tuning | ' "$OUT" | grep -qF "| ${g}x | ${g}x | | yes | pass |" ||
    fail "gelu row: $(grep '^| ok/' "$OUT")"
# a perf_tuning directory given as the root
expect_exit 0 "$TLPERF" audit ok/ops/gelu/perf_tuning
expect_grep "| ok/ops/gelu | perf\\_tuning |" "$OUT"

# the audit repository plus a passing and a broken folder (PT-JSON errors)
cp -R "$TESTDATA/audit/repo" repo
mkdir -p repo/ops/gelu repo/ops/sigmoid
cp -R "$TESTDATA/ptune/good" repo/ops/gelu/perf_tuning
cp -R "$TESTDATA/ptune/json_bad" repo/ops/sigmoid/perf_tuning
"$TLGATE" repo/ops/sigmoid >"$T/gate.out" 2>&1 || true
nerr=$(grep -c ': error: \[PT-' "$T/gate.out")
[ "$nerr" -gt 0 ] || fail "json_bad should have gate errors"
expect_exit 1 "$TLPERF" audit repo
expect_grep "6 operators checked: 3 reconciled, 3 unreconcilable" "$OUT"
expect_grep "3 of 6 operators do not reconcile" "$ERR"
[ "$(grep -c '^| repo/ops/' "$OUT")" = 8 ] || fail "want 6 perf_opt rows + 2 perf_tuning rows"
grep '^| repo/ops/sigmoid | perf\\_tuning | ' "$OUT" | grep -qF "| GATE ERRORS | fail ($nerr errors" ||
    fail "sigmoid row: $(grep '^| repo/ops/sigmoid' "$OUT")"
# the perf_opt rows are as without the folders
expect_grep "| repo/ops/argmax | v1 | vocab-32k | 62 | 40 | r1\\_vector\\_max | 50 | -20.00 | 1.240x |" "$OUT"
[ "$(grep -c 'MISMATCH' "$OUT")" = 2 ] || fail "want 2 mismatches"

# csv: the overall geomean is over the perf_opt workloads and one value per
# perf_tuning folder
expect_exit 1 "$TLPERF" audit --format csv repo
[ "$(tail -n +2 "$OUT" | wc -l)" = 8 ] || fail "want 8 csv rows"
tr -d '\r' <"$OUT" | awk -F, 'NR > 1 && $2 == "perf_tuning" {
    if ($9 != $10) { print "speedup vs operator geomean " $0; bad = 1 }
    if (($1 ~ /sigmoid/) != ($12 == "GATE ERRORS")) { print "status " $0; bad = 1 }
    if ($4 != "" || $5 != "" || $7 != "") { print "perf_opt columns " $0; bad = 1 }
} NR > 1 { s += log($9); n++ } END { printf "%.3f\n", exp(s / n) > "/dev/stderr"; exit bad }' 2>"$T/geo" ||
    fail "csv perf_tuning rows"
grep -q '^repo/ops/gelu,perf_tuning,.*,reconciled,pass,0,0' "$OUT" || fail "csv gelu row"
expect_exit 1 "$TLPERF" audit repo
expect_grep "overall geometric-mean speedup $(cat "$T/geo")x over 8 workloads" "$OUT"

# json
expect_exit 1 "$TLPERF" audit --format json repo
if need_cmd jq; then
    [ "$(jq '.operators | length' "$OUT")" = 6 ] || fail "json operators"
    [ "$(jq '[.operators[] | select(.contract == "perf_tuning")] | length' "$OUT")" = 2 ] || fail "json perf_tuning"
    [ "$(jq -r '.operators[] | select(.operator == "repo/ops/sigmoid") | .reconciled' "$OUT")" = false ] || fail "json sigmoid"
    [ "$(jq -r '.operators[] | select(.operator == "repo/ops/sigmoid") | .gate_errors' "$OUT")" = "$nerr" ] || fail "json errors"
    [ "$(jq -r '.operators[] | select(.operator == "repo/ops/gelu") | .geomean_speedup * 1000 | round' "$OUT")" = \
      "$(echo "$g" | awk '{ printf "%d", $1 * 1000 + 0.5 }')" ] || fail "json gelu geomean"
    [ "$(jq '.operators[] | select(.operator == "repo/ops/gelu") | .cases | length' "$OUT")" = 4 ] || fail "json cases"
    [ "$(jq '.totals.unreconcilable' "$OUT")" = 3 ] || fail "json totals"
else
    expect_grep '"contract":	"perf_tuning"' "$OUT"
fi

# html: a bar per operator, the broken folder's row and bar red
expect_exit 1 "$TLPERF" audit --format html -o "$T/a.html" repo
expect_grep "<td>repo/ops/sigmoid</td><td>perf_tuning</td>" "$T/a.html"
grep -F '<tr class="fail"><td>repo/ops/sigmoid</td>' "$T/a.html" >/dev/null || fail "sigmoid row should be red"
grep -F '<tr><td>repo/ops/gelu</td>' "$T/a.html" >/dev/null || fail "gelu row should not be red"
[ "$(grep -o 'class="bar[ "]' "$T/a.html" | wc -l)" = 6 ] || fail "want one bar per operator"
[ "$(grep -o 'class="bar failing"' "$T/a.html" | wc -l)" = 3 ] || fail "want 3 failing bars"
if need_cmd xmllint; then
    sed -n '/<svg /,/<\/svg>/p' "$T/a.html" >"$T/chart.svg"
    xmllint --noout "$T/chart.svg" || fail "chart is not well-formed XML"
fi

# the real folders of ../shared: one row each, speedup = their geomean, and
# the gate's errors on them (genuine inconsistencies) fail them
if have_shared "the real perf_tuning folders"; then
    n=0
    for d in "$SHARED"/real-logs/perf_tuning/*/; do
        name=$(basename "$d")
        mkdir -p "real/$name"
        cp -R "$d" "real/$name/perf_tuning"
        n=$((n + 1))
    done
    set +e
    "$TLPERF" audit --format csv real >"$T/real.csv" 2>"$T/real.err"
    rc=$?
    set -e
    [ "$(tail -n +2 "$T/real.csv" | wc -l)" = "$n" ] || fail "want one row per real folder"
    for d in real/*/perf_tuning; do
        op=${d%/perf_tuning}
        g=$(folder_geomean "$d")
        "$TLGATE" "$op" >"$T/g.out" 2>&1 || true
        e=$(grep -c ': error: \[PT-' "$T/g.out" || true)
        row=$(tr -d '\r' <"$T/real.csv" | grep "^$op,perf_tuning,")
        [ -n "$row" ] || fail "no row for $op"
        # gate_errors: the sixth field from the end (then gate_warnings, claim_line, winner_line, reason, evidence)
        echo "$row" | awk -F, -v g="$g" -v e="$e" '{
            if (sprintf("%.3f", $9) != g) { print "speedup " $9 " vs " g; exit 1 }
            if ($(NF - 5) != e) { print "errors " $(NF - 5) " vs " e; exit 1 }
            if ((e > 0) != ($12 == "GATE ERRORS")) { print "status " $12; exit 1 } }' || fail "real row $op"
        [ "$e" = 0 ] || [ "$rc" = 1 ] || fail "gate errors on $op should make the audit exit 1"
    done
    echo "$n real perf_tuning folders audited (exit $rc)"
fi
