#!/bin/sh
# A candidate much faster on one workload but slower beyond noise on a
# required one is not adopted; when that workload is optional, it is.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup
expect_exit 0 loop baseline
kernel mixed 8.0 90.0
expect_exit 0 loop round 1 --branch mixed=perf_opt/mixed.py
expect_grep "current best baseline" "$OUT"
expect_no_grep "decision adopt" "$OUT"
expect_grep "n65536 +12.5% (regression)" "$LOG"
expect_grep "best=baseline" "$LOG"

# the same measurements with n65536 optional: adopted
rm -rf "$TMPDIR_TEST/op"
LARGE_FLAG=--optional loop_setup
grep -q '"required":	false' "$OP/perf_opt/loop.json" || fail "n65536 is not optional"
expect_exit 0 loop baseline
kernel mixed 8.0 90.0
expect_exit 0 loop round 1 --branch mixed=perf_opt/mixed.py
expect_grep "decision adopt; current best mixed" "$OUT"
echo ok
