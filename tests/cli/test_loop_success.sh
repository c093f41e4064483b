#!/bin/sh
# Targets: the state is success once the current best meets every target,
# not before; finish then says so.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup --target n1024=9.5 --target n65536=58
expect_grep '"target_us":	9.5' "$OP/perf_opt/loop.json"
expect_exit 0 loop baseline
kernel tile 9.0 60.0
expect_exit 0 loop round 1 --branch tile=perf_opt/tile.py
expect_grep "state: continue" "$OUT"
kernel dbuf 8.0 50.0
expect_exit 0 loop round 2 --branch dbuf=perf_opt/dbuf.py
expect_grep "state: success" "$OUT"
expect_exit 0 loop status
expect_grep "target 58.000 us" "$OUT"
expect_grep "success: run 'tlperf loop finish'" "$OUT"
expect_exit 0 loop finish
expect_grep "stop_reason: success" "$LOG"
echo ok
