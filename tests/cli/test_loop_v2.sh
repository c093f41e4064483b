#!/bin/sh
# The v2 record contract: phases, artifact hashes, the final record of the
# tuned file, the Final Performance Test Data table, the inventory.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup --contract v2
expect_exit 0 loop baseline
grep '"round":0,' "$REC" | grep -q '"phase":"baseline"' || fail "baseline phase"
kernel tile 9.0 60.0
kernel bad 5.0 30.0 "l0 fail"
expect_exit 0 loop round 1 --branch tile=perf_opt/tile.py --branch bad=perf_opt/bad.py
grep '"candidate_id":"tile"' "$REC" | grep -q '"phase":"candidate","artifact_path":"tile.py"' || fail "v2 candidate record"
sha=$(sha256sum "$OP/perf_opt/tile.py" | cut -d' ' -f1)
grep '"candidate_id":"tile"' "$REC" | grep -q "\"artifact_sha256\":\"$sha\"" || fail "candidate hash"
expect_exit 0 loop finish
expect_grep "gate: passed" "$OUT"
[ "$(grep -c '"phase":"final"' "$REC")" = 2 ] || fail "two final records"
sha=$(sha256sum "$OP/perf_opt/demo_add.py" | cut -d' ' -f1)
[ "$(grep '"phase":"final"' "$REC" | grep -c "\"artifact_path\":\"demo_add.py\",\"artifact_sha256\":\"$sha\"")" = 2 ] || fail "final hash"
expect_grep "## Final Performance Test Data" "$LOG"
expect_grep "| demo_add::small | n1024 |" "$LOG"
expect_grep '"tuning_status":	"winner_merged"' "$OP/perf_opt/workload_inventory.json"
expect_grep "stop_reason: user_stop" "$LOG"
# the tuned file edited after its hash was recorded: the gate fails
echo "# edited" >>"$OP/perf_opt/demo_add.py"
expect_exit 1 "$TLGATE" "$OP/perf_opt"
expect_grep "S4-PERF-RECORDS-RECON" "$OUT"
echo ok
