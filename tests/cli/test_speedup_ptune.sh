# tlperf speedup on a perf_tuning/ folder (first-generation workflow): the
# per-case speedups of the folder's latest bench JSON and their geometric
# mean, in Markdown, --json and --plot; a broken folder and the real folders
# of ../shared when present.
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST

# geomean_of FILE: geometric mean of the rows' "speedup" members, computed
# here from the file (not by tlperf)
geomean_of() {
    grep -o '"speedup": *[0-9.eE+-]*' "$1" | sed 's/.*: *//' |
        awk '$1 > 0 { s += log($1); n++ } END { printf "%.2f %d\n", exp(s / n), n }'
}

# a passing folder, given as the operator directory holding perf_tuning/
mkdir -p "$T/ok/gelu"
cp -R "$TESTDATA/ptune/good" "$T/ok/gelu/perf_tuning"
expect_exit 0 "$TLPERF" speedup "$T/ok/gelu"
json=$(sed -n '1s/.*, \(.*\))\*\*$/\1/p' "$OUT")
[ -f "$T/ok/gelu/perf_tuning/$json" ] || fail "heading should name the JSON read, got '$json'"
set -- $(geomean_of "$T/ok/gelu/perf_tuning/$json")
gm=$1 ncases=$2
[ "$(grep -c '^| case [0-9]' "$OUT")" = "$ncases" ] || fail "want $ncases case rows"
expect_grep "| **geomean** (all $ncases) | **${gm}x** |" "$OUT"
expect_grep "- geomean speedup: ${gm}x over $ncases case(s)" "$OUT"
# change = 1/speedup - 1; a speedup below 1 is a regression
grep '^| case [0-9]' "$OUT" | awk -F'|' '{
    sp = $3 + 0; ch = $4 + 0; want = 100 * (1 / sp - 1)
    if ((ch - want) ^ 2 > 0.01) { print "change " $0; bad = 1 }
    if ((sp < 1) != ($4 ~ /regression/)) { print "regression " $0; bad = 1 }
} END { exit bad }' || fail "change or regression column wrong"

# the perf_tuning directory itself, --json and --plot
expect_exit 0 "$TLPERF" speedup --json --plot "$T/ok.svg" "$T/ok/gelu/perf_tuning"
if need_cmd jq; then
    [ "$(jq -r .json "$OUT")" = "$json" ] || fail "json: file read"
    [ "$(jq '.cases | length' "$OUT")" = "$ncases" ] || fail "json: cases"
    [ "$(jq -r '.geomean_speedup * 100 | round / 100 | tostring' "$OUT")" = "$(echo "$gm" | sed 's/0*$//; s/\.$//')" ] ||
        fail "json: geomean $(jq .geomean_speedup "$OUT") vs $gm"
    [ "$(jq '[.cases[] | select(.regression)] | length' "$OUT")" = "$(jq .regressions "$OUT")" ] || fail "json: regressions"
else
    expect_grep "\"json\":	\"$json\"" "$OUT"
fi
expect_grep "<svg xmlns=\"http://www.w3.org/2000/svg\"" "$T/ok.svg"
[ "$(grep -o 'class="bar[ "]' "$T/ok.svg" | wc -l)" = "$ncases" ] || fail "want one bar per case"
expect_grep 'class="geomean"' "$T/ok.svg"
expect_grep "geomean ${gm}x over $ncases cases" "$T/ok.svg"
if need_cmd xmllint; then
    xmllint --noout "$T/ok.svg" || fail "plot is not well-formed XML"
fi

# --final is for records only; --strict passes when every case has a speedup
expect_exit 2 "$TLPERF" speedup --final r1 "$T/ok/gelu"
expect_grep "--final does not apply to a perf_tuning folder" "$ERR"
expect_exit 0 "$TLPERF" speedup --strict "$T/ok/gelu"

# a broken folder: the JSON's own aggregates are wrong (the gate's PT-JSON
# finds that); speedup reports the rows and says what the file states
mkdir -p "$T/bad/gelu"
cp -R "$TESTDATA/ptune/json_bad" "$T/bad/gelu/perf_tuning"
expect_exit 0 "$TLPERF" speedup "$T/bad/gelu"
json=$(sed -n '1s/.*, \(.*\))\*\*$/\1/p' "$OUT")
set -- $(geomean_of "$T/bad/gelu/perf_tuning/$json")
expect_grep "| **geomean** (all $2) | **${1}x** |" "$OUT"
stated=$(grep -o '"avg_speedup": *[0-9.]*' "$T/bad/gelu/perf_tuning/$json" | sed 's/.*: *//')
expect_grep "the JSON states $(printf '%.2f' "$stated")x" "$OUT"

# no bench JSON with rows: exit 1; a case without a speedup: counted out,
# refused under --strict
mkdir -p "$T/empty/perf_tuning"
cp "$TESTDATA/ptune/good/optimization_log.md" "$T/empty/perf_tuning/"
expect_exit 2 "$TLPERF" speedup "$T/empty"
expect_grep "holds no bench JSON with per-case rows" "$ERR"
mkdir -p "$T/nan"
cp -R "$TESTDATA/ptune/only_json" "$T/nan/perf_tuning"
for j in "$T/nan/perf_tuning"/*.json; do
    awk '/"speedup":/ && !done { sub(/"speedup": *[0-9.eE+-]*/, "\"speedup\": Infinity"); done = 1 } { print }' "$j" >"$j.tmp"
    mv "$j.tmp" "$j"
done
expect_exit 0 "$TLPERF" speedup "$T/nan"
expect_grep "- not counted (1): " "$OUT"
expect_exit 1 "$TLPERF" speedup --strict "$T/nan"
expect_grep "(--strict)" "$ERR"

# a records file is still a records file
expect_exit 2 "$TLPERF" speedup "$T/no-such-records.jsonl"
expect_grep "cannot read records" "$ERR"

# the real folders of ../shared
if have_shared "the real perf_tuning folders"; then
    n=0
    for d in "$SHARED"/real-logs/perf_tuning/*/; do
        expect_exit 0 "$TLPERF" speedup "$d"
        json=$(sed -n '1s/.*, \(.*\))\*\*$/\1/p' "$OUT")
        [ -f "$d/$json" ] || fail "$d: heading should name the JSON read"
        set -- $(geomean_of "$d/$json")
        expect_grep "- geomean speedup: ${1}x over $2 case(s)" "$OUT"
        n=$((n + 1))
    done
    [ "$n" -ge 2 ] || fail "want the real folders, found $n"
    echo "$n real perf_tuning folders checked"
else
    echo "skip: real folders (no \$SHARED)"
fi
