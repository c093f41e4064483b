# Strict JSONL (issue 13 items 3 and 7) through the gate and through the
# records commands: two objects on a line, CR-only line endings, \u0000 in
# a string, a line of 74,000 keys (the duplicate-key check is linear), and
# the documented line cap. The gate exits 1 with a finding naming file and
# line; plateau/speedup exit 1 under --strict (2 for CR line endings, which
# make the file unreadable as JSONL); everything finishes under `timeout 60` (a guard against a hang, not a speed bound).
. "$ROOT/tests/cli/lib.sh"
set -e
D=$TMPDIR_TEST
BASE=$TESTDATA/gate/v1
P=$D/op/perf_opt
REC=$P/perf_records.jsonl
fresh() { rm -rf "$D/op"; cp -a "$BASE" "$D/op"; }
gate() { expect_exit "$1" timeout 60 "$TLGATE" "$D/op"; }
L1=$(sed -n 1p "$BASE/perf_opt/perf_records.jsonl")
L2=$(sed -n 2p "$BASE/perf_opt/perf_records.jsonl")
stat_strict() { # FILE EXIT MESSAGE: plateau and speedup under --strict
    for c in plateau speedup; do
        expect_exit "$2" timeout 60 "$TLPERF" $c "$1" --strict
        expect_grep "$3" "$ERR"
    done
}

fresh; gate 0

# two objects on one line: an error, the second is not silently dropped
fresh; printf '%s\n%s %s\n' "$L1" "$L2" "$L2" >"$REC"
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] not valid JSON at byte" "$OUT"
expect_grep "trailing content after the JSON object" "$OUT"
stat_strict "$REC" 1 "$REC:2: error: not valid JSON at byte"
expect_exit 0 timeout 60 "$TLPERF" plateau "$REC"
expect_grep "$REC:2: warning: not valid JSON" "$ERR"

# CR-only line endings: never one record, never exit 0 under --strict
fresh; printf '%s\r%s\r' "$L1" "$L2" >"$REC"
gate 1; expect_grep "$REC:1: error: [S4-PERF-RECORDS-SCHEMA] carriage return inside the line" "$OUT"
for c in plateau speedup; do
    for s in "" --strict; do
        expect_exit 2 timeout 60 "$TLPERF" $c "$REC" $s
        expect_grep "tlperf: error: cannot read records '$REC': line 1: carriage return inside a line (CR-only line endings?)" "$ERR"
    done
done
# ... also when the CR-only file is longer than the line cap
fresh; { i=0; while [ $i -lt 6000 ]; do printf '%s\r' "$L2"; i=$((i + 1)); done; } >"$REC"
gate 1; expect_grep "$REC:1: error: [S4-PERF-RECORDS-SCHEMA] carriage return inside the line" "$OUT"
expect_exit 2 timeout 60 "$TLPERF" plateau "$REC" --strict

# \u0000 inside a string: refused, ids are never silently cut short
fresh; { printf '%s\n' "$L1"; printf '%s\n' "$L2" | sed 's/"candidate_id": "/"candidate_id": "x\\u0000/'; } >"$REC"
grep -qF 'x\u0000' "$REC" || fail "the fixture lacks \\u0000"
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] not valid JSON at byte" "$OUT"
expect_grep '\u0000 in a string' "$OUT"
stat_strict "$REC" 1 "$REC:2: error: not valid JSON at byte"

# 74,000 keys on one line under 1 MiB, one of them twice: found in linear time
# (the line is printed key by key: joining it into one awk string first
# took mawk 2 minutes)
fresh
awk -v l2="$L2" 'BEGIN { printf "{"; for (i = 0; i < 74000; i++) printf "\"k%d\":1,", i; printf "\"k7\":2,%s\n", substr(l2, 2) }' >"$D/keys.line"
[ "$(wc -c <"$D/keys.line")" -lt 1048576 ] || fail "the 74,000-key line is not under 1 MiB"
{ printf '%s\n' "$L1"; cat "$D/keys.line"; } >"$REC"
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] duplicate key 'k7'" "$OUT"
stat_strict "$REC" 1 "$REC:2: error: duplicate key 'k7'"

# the line cap: RECORDS_LINE_MAX = 1 MiB, named with file and line
fresh; { printf '%s\n%s\n' "$L1" "$L2"; head -c 1048577 /dev/zero | tr '\0' ' '; printf '\n'; } >"$REC"
gate 1; expect_grep "$REC:3: error: [S4-PERF-RECORDS-SCHEMA] line longer than 1048576 bytes" "$OUT"
stat_strict "$REC" 1 "$REC:3: error: line longer than 1048576 bytes"
echo ok
