#!/bin/sh
# Two loops started at once on the same directory: the second waits for
# the first, then finds everything recorded. No line is torn, lost or
# written twice.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup
expect_exit 0 loop baseline
kernel a 9.0 60.0
kernel b 9.5 62.0
"$TLPERF" loop -C "$OP" round 1 --branch a=perf_opt/a.py --branch b=perf_opt/b.py >"$TMPDIR_TEST/1.out" 2>"$TMPDIR_TEST/1.err" &
p1=$!
"$TLPERF" loop -C "$OP" round 1 --branch a=perf_opt/a.py --branch b=perf_opt/b.py >"$TMPDIR_TEST/2.out" 2>"$TMPDIR_TEST/2.err" &
p2=$!
set +e; wait $p1; r1=$?; wait $p2; r2=$?; set -e
[ $r1 = 0 ] && [ $r2 = 0 ] || { cat "$TMPDIR_TEST"/*.err; fail "exits $r1 $r2"; }
[ "$(nrec)" = 6 ] || fail "$(nrec) records, wanted 6"
[ "$(nrec 1 a)" = 2 ] && [ "$(nrec 1 b)" = 2 ] || fail "a branch measured twice"
# every line is a whole record
while IFS= read -r line; do
    case $line in '{"round":'*'}') ;; *) fail "torn line: $line" ;; esac
done <"$REC"
[ "$(grep -c 'kind=round round=1 ' "$LOG")" = 1 ] || fail "round 1 written twice"
cat "$TMPDIR_TEST/1.err" "$TMPDIR_TEST/2.err" >"$TMPDIR_TEST/both.err"
expect_grep "decided already" "$TMPDIR_TEST/both.err"
echo ok
