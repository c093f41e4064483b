#!/bin/sh
# The budget: max_experiments refuses a round that would exceed it before
# anything runs; reaching max_rounds ends the loop (budget_exhausted).
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup --max-rounds 2 --max-experiments 3
expect_exit 0 loop baseline
kernel a 9.0 60.0
kernel b 9.5 62.0
kernel c 8.0 55.0
kernel d 7.0 50.0
expect_exit 0 loop round 1 --branch a=perf_opt/a.py --branch b=perf_opt/b.py
expect_grep "state: continue" "$OUT"
cp "$REC" "$TMPDIR_TEST/rec.before"
cp "$LOG" "$TMPDIR_TEST/log.before"
expect_exit 2 loop round 2 --branch c=perf_opt/c.py --branch d=perf_opt/d.py
expect_grep "budget exhausted: 2 of max_experiments 3 branches used, 2 more asked" "$ERR"
cmp -s "$REC" "$TMPDIR_TEST/rec.before" || fail "records changed by a refused round"
cmp -s "$LOG" "$TMPDIR_TEST/log.before" || fail "log changed by a refused round"
[ ! -e "$OP/perf_opt/logs/round2" ] || fail "a refused round ran something"
expect_exit 0 loop round 2 --branch c=perf_opt/c.py
expect_grep "state: budget_exhausted" "$OUT"
expect_exit 2 loop round 3 --branch d=perf_opt/d.py
expect_grep "budget exhausted: max_rounds is 2" "$ERR"
expect_exit 0 loop status
expect_grep "rounds: 2 of 2; branches: 3 of 3" "$OUT"
expect_exit 0 loop finish
expect_grep "gate: passed" "$OUT"
expect_exit 0 "$TLGATE" --strict "$OP/perf_opt"
expect_grep "stop_reason: budget_exhausted" "$LOG"
expect_grep "best: c" "$LOG"
echo ok
