# The plots: `tlab --plot` (one mark per run, pairs joined, the verdict in
# the title) and `tlperf speedup --plot` (one bar per workload, the geomean
# line); both valid XML.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
[ -x "$FK" ] || fail "fake kernel not built: $FK"
cd "$TMPDIR_TEST"

well_formed() {
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout "$1" || fail "$1 is not well-formed XML"
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" ||
            fail "$1 is not well-formed XML"
    else
        echo "note: no XML parser here; only the mark counts are checked"
    fi
}
count() { grep -o "$1" "$2" | wc -l | tr -d ' '; }

# tlab: 4 pairs (ref: exactly --pairs, whatever the order draw), B 10% faster
expect_exit 0 "$TLAB" --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir ab --protocol ref --pairs 4 \
    --a-cmd "$FK --mean 10 --seed 3" --b-cmd "$FK --mean 9 --seed 3" --plot ab.svg
grep -Eq '"verdict":[[:space:]]+"B_better"' "$OUT" || fail "want B_better"
well_formed ab.svg
[ "$(count 'class="run arm-a' ab.svg)" = 4 ] || fail "want 4 A runs"
[ "$(count 'class="run arm-b' ab.svg)" = 4 ] || fail "want 4 B runs"
[ "$(count 'class="pair"' ab.svg)" = 4 ] || fail "want 4 pair lines"
[ "$(count 'class="estimate"' ab.svg)" = 1 ] || fail "want the estimate"
[ "$(count 'class="interval"' ab.svg)" = 1 ] || fail "want the interval"
expect_grep "<title>tlab: B_better (B gain +" ab.svg
# an unwritable plot path is an error after the verdict
expect_exit 2 "$TLAB" --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir ab2 --pairs 3 \
    --a-cmd "$FK --mean 10 --seed 3" --b-cmd "$FK --mean 9 --seed 3" --plot no/such/dir/ab.svg
grep -q '"verdict":' "$OUT" || fail "no verdict printed before the plot error"
expect_grep "cannot write plot 'no/such/dir/ab.svg'" "$ERR"

# speedup: one bar per workload with a speedup
for rec in "$TESTDATA/records/v1_layernorm.jsonl" "$TESTDATA/records/v2_argmax.jsonl"; do
    expect_exit 0 "$TLPERF" speedup --json "$rec"
    nbars=$(grep -Ec '"speedup":[[:space:]]+[0-9]' "$OUT")
    geo=$(sed -n 's/^[[:space:]]"geomean_speedup":[[:space:]]*\([0-9.]*\).*/\1/p' "$OUT")
    [ "$nbars" -gt 1 ] && [ -n "$geo" ] || fail "$rec: speedup --json gave no speedups"
    expect_exit 0 "$TLPERF" speedup --plot sp.svg "$rec"
    expect_grep "geomean" "$OUT"
    well_formed sp.svg
    [ "$(count 'class="bar' sp.svg)" = "$nbars" ] || fail "$rec: want $nbars bars"
    [ "$(count 'class="geomean"' sp.svg)" = 1 ] || fail "$rec: want the geomean line"
    expect_grep "geomean $(printf '%.2f' "$geo")x" sp.svg
done
echo "plots ok"
