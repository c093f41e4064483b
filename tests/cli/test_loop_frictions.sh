#!/bin/sh
# Issue 37 friction 5: an interrupted round's next.command runs as given;
# the final confirmation does not count as a round without a gain; with
# --json a failed command prints a JSON error object on stdout.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup
expect_exit 0 loop baseline
kernel tile 9.0 60.0
expect_exit 0 loop round 1 --branch tile=perf_opt/tile.py
kernel a 9.1 60.5
kernel b 9.05 61.0
expect_exit 0 loop round 2 --branch a=perf_opt/a.py --branch b=perf_opt/b.py
# as if round 2 stopped after its measurements: its section is not written
cp "$LOG" "$OP/log.full"
awk '/kind=round round=1 /{ print; exit } { print }' "$OP/log.full" >"$LOG"
expect_exit 0 loop next --json
cmd=$(python3 -c 'import json,sys; n=json.load(open(sys.argv[1]))["next"]; assert n["resume"] and n["round"] == 2, n; print(n["command"])' "$OUT")
[ "$cmd" = "tlperf loop round 2 --branch a=perf_opt/a.py@tile --branch b=perf_opt/b.py@tile" ] || fail "next.command: $cmd"
expect_exit 0 loop next
expect_grep "round 2 was interrupted: run the same command again" "$OUT"
# ... and it runs as given (tlperf is the binary under test)
set -- $cmd
shift
cd "$OP"
expect_exit 0 "$TLPERF" "$@"
cd - >/dev/null
expect_grep "kind=round round=2 decision=" "$LOG"
[ "$(nrec 2)" = 4 ] || fail "the resumed round measured again"
# one round without a gain: 1 before finish, 1 after (the confirmation is no round)
expect_exit 0 loop status --json
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["consecutive_no_improvement"] == 1' "$OUT" || fail "before finish"
expect_exit 0 loop finish
expect_exit 0 loop status
expect_grep "rounds without a gain above noise (3.0%): 1 (plateau at 3)" "$OUT"
expect_exit 0 loop status --json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["state"] == "finished" and j["consecutive_no_improvement"] == 1, j["consecutive_no_improvement"]' "$OUT" \
    || fail "consecutive_no_improvement moved at finish"
# --json: a failure prints one JSON error object on stdout, the message on stderr
expect_exit 2 loop round 3 --branch x=perf_opt/nope.py --json
expect_grep "the loop is finished" "$ERR"
python3 "$ROOT/tests/cli/schema_check.py" "$ROOT/docs/schemas/loop.v1.json" "$OUT" || fail "the error object against loop.v1.json"
python3 - "$OUT" <<'EOP' || fail "round --json error object"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema"] == "tlperf/loop/v1" and j["step"] == "round" and j["outcome"] == "error", j
assert j["exit_code"] == 2 and "the loop is finished" in j["error"], j
EOP
expect_exit 2 loop report --bogus --json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["outcome"] == "error" and j["exit_code"] == 2 and "bogus" in j["error"], j' "$OUT" \
    || fail "usage error as JSON"
(cd "$OP" && "$TLPERF" loop init --op demo_add --baseline demo_add.py --workload n1024@demo_add::small \
    --bench-cmd "sh bench.sh {impl}" --l0-cmd "sh l0.sh {impl}" --json) >"$OUT" 2>"$ERR" && fail "init over a plan"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["step"] == "init" and j["outcome"] == "error" and "exists already" in j["error"], j' "$OUT" \
    || fail "init --json error object"
# without --json, nothing on stdout
expect_exit 2 loop round 3 --branch x=perf_opt/nope.py
[ ! -s "$OUT" ] || fail "stdout without --json"
echo ok
