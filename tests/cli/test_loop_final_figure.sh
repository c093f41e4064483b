#!/bin/sh
# Issue 37 item 1: one final figure per kernel and workload (stats/final.h,
# the median of the kernel's runs). The fake kernel drifts between round 1
# and the final confirmation, both ways, within and beyond the noise
# threshold (3%): the Final Summary, loop status, loop report, tlperf
# speedup, tlperf audit and the gate all give the same figure, and the
# loop's output passes its own gate. A confirmation beyond noise stops
# before the summary and offers --remeasure or --report-both.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
# round1 US: a loop whose kernel 'tile' measured US on n1024 in round 1
round1() {
    rm -rf "$TMPDIR_TEST/op"; loop_setup
    expect_exit 0 loop baseline
    kernel tile "$1" 60.0
    expect_exit 0 loop round 1 --branch tile=perf_opt/tile.py
}
# us FILE PATTERN: the first figure after PATTERN in FILE
us() { grep -F -- "$2" "$1" | head -n 1 | sed "s/.*$2 *//; s/[^0-9.].*//"; }
# same_figure: the Final Summary's figure for n1024 is the one every command gives
same_figure() {
    F=$(us "$LOG" "n1024: final_latency:")
    [ -n "$F" ] || fail "no final_latency in the log"
    expect_exit 0 loop status
    expect_grep "demo_add::small n1024: $F us" "$OUT"
    expect_exit 0 loop report
    expect_grep "n1024: final_latency: $F us" "$OUT"
    expect_exit 0 "$TLPERF" speedup "$REC"
    expect_grep "| demo_add::small | n1024 | " "$OUT"
    grep -F "| demo_add::small | n1024 | " "$OUT" | grep -qF "| $F | tile |" || fail "speedup's final_us is not $F"
    expect_exit 0 "$TLPERF" audit "$OP/perf_opt" --format json
    python3 - "$OUT" "$F" <<'EOP' || fail "audit's final figure"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [r for o in j["operators"] for r in o["workloads"] if r["workload"] == "n1024"]
assert rows and abs(rows[0]["winner_us"] - float(sys.argv[2])) <= 5e-4 + 1e-9, rows
assert abs(rows[0]["claimed_us"] - float(sys.argv[2])) < 1e-9 and rows[0]["reconciled"], rows
EOP
    expect_exit 0 "$TLGATE" "$OP/perf_opt"
    expect_no_grep "S4-PERF-RECORDS" "$OUT"
}
# runs: the n1024 durations of tile in file order
runs() { grep '"candidate_id":"tile"' "$REC" | grep '"workload":"n1024"' | sed 's/.*"duration_us":\([0-9.]*\).*/\1/' | tr '\n' ' '; }

# within noise, faster (9.0 -> 8.8) and slower (9.0 -> 9.2): finished, green
for fin in 8.8 9.2; do
    round1 9.0
    kernel tile "$fin" 60.0
    expect_exit 0 loop finish
    expect_grep "gate: passed" "$OUT"
    expect_grep "### Final Confirmation（round 2）" "$LOG"
    set -- $(runs)
    [ $# = 2 ] || fail "two runs of tile on n1024 expected, got: $*"
    want=$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a + b) / 2 }')
    expect_grep "n1024: final_latency: $want us" "$LOG"
    expect_grep "| demo_add::small | n1024 | $1 (round 1), $2 (final) | $want |" "$LOG"
    same_figure
    # the final confirmation is no round: the counter does not move
    expect_exit 0 loop status --json
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["consecutive_no_improvement"] == 0, j["consecutive_no_improvement"]' "$OUT" \
        || fail "consecutive_no_improvement moved at finish"
done

# beyond noise, faster (9.0 -> 8.4: the issue's case): no red finish, a choice
round1 9.0
kernel tile 8.4 60.0
expect_exit 0 loop finish
expect_grep "(beyond noise)" "$OUT"
expect_grep "state: finishing" "$OUT"
expect_grep "faster than round 1's" "$OUT"
expect_grep "run 'tlperf loop finish --remeasure' for one more run, or 'tlperf loop finish --report-both'" "$OUT"
expect_no_grep "## Final Summary" "$LOG"
expect_exit 0 loop next --json
python3 - "$OUT" <<'EOP' || fail "next after a disagreeing confirmation"
import json, sys
n = json.load(open(sys.argv[1]))["next"]
assert n["action"] == "finish" and n["command"] == "tlperf loop finish --remeasure" and not n["resume"], n
EOP
expect_exit 0 loop finish --json
python3 "$ROOT/tests/cli/schema_check.py" "$ROOT/docs/schemas/loop.v1.json" "$OUT" || fail "confirm_disagrees against loop.v1.json"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["outcome"] == "confirm_disagrees" and not j["confirmation"][0]["settled"], j' "$OUT" \
    || fail "finish --json on a disagreeing confirmation"
# report both: the median, both runs shown, the disagreement stated, green
expect_exit 0 loop finish --report-both --json
python3 "$ROOT/tests/cli/schema_check.py" "$ROOT/docs/schemas/loop.v1.json" "$OUT" || fail "finish --json against loop.v1.json"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["outcome"] == "done" and j["gate"]["passed"] and j["final"]["workloads"][0]["final_runs"] == 2, j["final"]' "$OUT" \
    || fail "finish --report-both --json"
expect_exit 0 loop finish
expect_grep "gate: passed" "$OUT"
expect_grep "beyond the noise threshold 3.0%: both are reported, the final figure is the median of the runs" "$LOG"
set -- $(runs)
want=$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a + b) / 2 }')
expect_grep "n1024: final_latency: $want us" "$LOG"
same_figure

# beyond noise, slower (9.0 -> 9.6): one more run (back at 9.0) settles it
round1 9.0
kernel tile 9.6 60.0
expect_exit 0 loop finish
expect_grep "slower than round 1's" "$OUT"
kernel tile 9.05 60.0
expect_exit 0 loop finish --remeasure
expect_grep "gate: passed" "$OUT"
set -- $(runs)
[ $# = 3 ] || fail "three runs expected after --remeasure, got: $*"
want=$(printf '%s\n%s\n%s\n' "$1" "$2" "$3" | sort -n | sed -n 2p)
expect_grep "n1024: final_latency: $want us" "$LOG"
[ -d "$OP/perf_opt/profiles/final2/tile/n1024" ] || fail "the second confirmation's profile"
same_figure

# Issue 37 friction 4: an honest round added after the finished loop (r3
# derived from tile, a new Final Summary) draws no RECON warning from the
# loop's own final confirmation records (tile measuring itself again); a
# new session's heading marks the earlier summary as superseded
# (S4-FINAL-RESTATED then only warns)
ts=$(date -u +%Y-%m-%dT%H:%M:%S)
for w in "demo_add::small n1024 7.5" "demo_add::large n65536 50.0"; do
    set -- $w
    printf '{"round":3,"candidate_id":"r3","parent_id":"tile","dispatch_path":"%s","workload":"%s","artifact_path":"perf_opt/r3.py","duration_us":%s,"l0_pass":true,"msprof_raw_path":"perf_opt/profiles","timestamp":"%s.%sZ"}\n' \
        "$1" "$2" "$3" "$ts" "$(printf '%s' "$2" | wc -c)00" >>"$REC"
done
cp "$OP/perf_opt/tile.py" "$OP/perf_opt/r3.py"
cat >>"$LOG" <<'EOL'

# Session 2: one more round after the loop's finish

### Round 3

**候选 vs current best 对比表（round 3）**

| candidate | dispatch | workload | Task Duration(us) | vs best |
|---|---|---|---:|---:|
| tile (current best) | demo_add::small | n1024 | 9.000 | — |
| r3 | demo_add::small | n1024 | 7.500 | -16.7% |
| tile (current best) | demo_add::large | n65536 | 60.000 | — |
| r3 | demo_add::large | n65536 | 50.000 | -16.7% |

## Final Summary

- best: r3
- n1024: final_latency: 7.500 us
- n65536: final_latency: 50.000 us
- stop_reason: user_stop

## Skill Retrospective

none
EOL
expect_exit 0 "$TLGATE" "$OP/perf_opt"
expect_no_grep "S4-PERF-RECORDS-RECON] claimed" "$OUT"
expect_no_grep "re-measures it under another id" "$OUT"
echo ok
