#!/bin/sh
# Three rounds in a row without a gain above noise: plateau. A candidate a
# little slower than the current best (within noise) is no gain.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup
expect_exit 0 loop baseline
kernel win 9.0 60.0
expect_exit 0 loop round 1 --branch win=perf_opt/win.py
expect_grep "state: continue" "$OUT"
for r in 2 3; do
    kernel flat$r 9.08 60.5
    expect_exit 0 loop round $r --branch flat$r=perf_opt/flat$r.py
    expect_grep "current best win" "$OUT"
    expect_grep "state: continue" "$OUT"
done
kernel flat4 9.1 60.4
expect_exit 0 loop round 4 --branch flat4=perf_opt/flat4.py
expect_grep "state: plateau" "$OUT"
expect_grep "kind=round round=4 decision=rollback best=win state=plateau" "$LOG"
expect_exit 0 loop status
expect_grep "rounds without a gain above noise (3.0%): 3" "$OUT"
expect_grep "plateau: run 'tlperf loop finish'" "$OUT"
expect_exit 0 loop finish
expect_grep "gate: passed" "$OUT"
expect_exit 0 "$TLGATE" --strict "$OP/perf_opt"
expect_grep "stop_reason: plateau" "$LOG"
expect_grep "best: win" "$LOG"
echo ok
