#!/bin/sh
# A round interrupted between two branches (Ctrl-C while the second one's
# bench runs): what finished is recorded, the bench's process group is
# gone, and the same command run again adds only the missing records.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup
expect_exit 0 loop baseline
kernel a 9.0 60.0
kernel b 9.5 62.0 "bench hang"

"$TLPERF" loop -C "$OP" round 1 --branch a=perf_opt/a.py --branch b=perf_opt/b.py >"$TMPDIR_TEST/r1.out" 2>"$TMPDIR_TEST/r1.err" &
pid=$!
# wait (bounded) until branch a is recorded and b's bench is running
i=0
while [ "$(nrec 1 a 2>/dev/null || echo 0)" != 2 ] || [ ! -e "$OP/perf_opt/logs/round1/b.n1024.bench.log" ]; do
    i=$((i + 1)); [ $i -lt 600 ] || { kill -9 $pid; fail "round 1 never reached branch b"; }
    sleep 0.1
done
sleep 0.3
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null; do
    i=$((i + 1)); [ $i -lt 300 ] || { kill -9 $pid; fail "SIGINT did not stop the loop"; }
    sleep 0.1
done
set +e; wait $pid; rc=$?; set -e
[ $rc = 130 ] || { cat "$TMPDIR_TEST/r1.err"; fail "interrupted round exited $rc, wanted 130"; }
grep -q "run the same command again" "$TMPDIR_TEST/r1.err" || fail "no resume hint"
[ "$(nrec 1 a)" = 2 ] || fail "branch a records lost"
[ "$(nrec 1 b)" = 0 ] || fail "branch b recorded although interrupted"
! pgrep -f "bench.sh $FK perf_opt/b.py" >/dev/null || fail "the interrupted bench is still running"
expect_no_grep "kind=round" "$LOG"

expect_exit 0 loop status
expect_grep "round 1 was interrupted" "$OUT"
cp "$REC" "$TMPDIR_TEST/rec.before"
expect_exit 2 loop finish
expect_grep "measured but not decided" "$ERR"

# resume: the hang is fixed; a is not measured again
kernel b 9.5 62.0
expect_exit 0 loop round 1 --branch a=perf_opt/a.py --branch b=perf_opt/b.py
[ "$(nrec 1 a)" = 2 ] || fail "branch a measured twice"
[ "$(nrec 1 b)" = 2 ] || fail "branch b not completed"
expect_no_grep "a: measuring" "$ERR"
expect_no_grep "a: L0" "$ERR"
# what was there is a byte prefix of what is there
n=$(wc -c <"$TMPDIR_TEST/rec.before")
head -c "$n" "$REC" | cmp -s - "$TMPDIR_TEST/rec.before" || fail "records rewritten"
[ "$(grep -c 'kind=round round=1 ' "$LOG")" = 1 ] || fail "round 1 decided twice"
# the interrupted profile of b was kept aside, not mixed into the new one
ls -d "$OP"/perf_opt/profiles/round1/b/n1024.interrupted-1 >/dev/null || fail "partial profile not set aside"
# a bench that fails beside one that works: the failing branch is recorded
# as failed (measured:false, its failure and log), not adopted, and the
# round is decided with the other; prose and JSON say so
kernel c 8.0 55.0 "bench fail"
kernel d 8.5 56.0
expect_exit 0 loop round 2 --branch c=perf_opt/c.py --branch d=perf_opt/d.py
expect_grep "perf_opt/logs/round2/c.n1024.bench.log" "$ERR"
expect_grep "branch c: measurement failed (the bench failed (exited with status 4)), see 'perf_opt/logs/round2/c.n1024.bench.log'" "$OUT"
expect_grep "current best d" "$OUT"
[ "$(nrec 2 c)" = 2 ] || fail "the failed branch is not recorded"
[ "$(grep '"candidate_id":"c"' "$REC" | grep -c '"measured":false,.*"failure":"the bench failed')" = 2 ] \
    || fail "the failed branch's records"
expect_grep "kind=round round=2 decision=adopt best=d " "$LOG"
expect_grep "measurement FAILED: the bench failed (exited with status 4) (log \`perf_opt/logs/round2/c.n1024.bench.log\`)" "$LOG"
# run again: decided already, the same outcome, as JSON too
expect_exit 0 loop round 2 --branch c=perf_opt/c.py --branch d=perf_opt/d.py --json
python3 - "$OUT" <<'EOP' || fail "round 2 JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["step"] == "round" and j["outcome"] == "already_done", j["outcome"]
b = {x["id"]: x for x in j["round"]["branches"]}
assert b["c"]["status"] == "failed", b["c"]
assert b["c"]["failure"]["log"] == "perf_opt/logs/round2/c.n1024.bench.log"
assert b["c"]["failure"]["reason"].startswith("the bench failed")
assert b["d"]["status"] == "adopted" and b["d"]["failure"] is None
assert j["current_best"]["id"] == "d" and j["next"] == {"action": "round", "round": 3, "resume": False,
    "command": "tlperf loop round 3 --branch ID=FILE ...", "text": j["next"]["text"]}
EOP
# and once more: nothing to do
expect_exit 0 loop round 1 --branch a=perf_opt/a.py --branch b=perf_opt/b.py
expect_grep "decided already" "$ERR"
[ "$(nrec 1)" = 4 ] || fail "records added by a no-op"
echo ok
