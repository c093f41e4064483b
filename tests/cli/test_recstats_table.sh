# tlperf table on the bundled v1/v2 records; the output, pasted under each
# round's heading, must satisfy gate rule S4-OPTLOG-COMPTABLE.
. "$ROOT/tests/cli/lib.sh"
set -e
R=$TESTDATA/records
V1=$R/v1_layernorm.jsonl
V2=$R/v2_argmax.jsonl

expect_exit 0 "$TLPERF" table "$V1" --round 2
head -n 1 "$OUT" >"$TMPDIR_TEST/caption"
expect_grep "**候选 vs current best 对比表（round 2）**" "$TMPDIR_TEST/caption"
expect_grep "| candidate | dispatch | workload | Task Duration(us) | vs best | AICore util | memory | L0 |" "$OUT"
# the incumbent of each key comes first, per-key best before the round
expect_grep "| v1_bm4 (current best) | ln_kernel::transit | smoke/fp16 | 3.090 | — | 50.0% | 61.7 GB/s | pass |" "$OUT"
expect_grep "| v2_op1 | ln_kernel::transit | smoke/fp16 | 3.220 | +4.2% | 41.6% | 62.1 GB/s | pass |" "$OUT"
expect_grep "| v1_bm2 (current best) | ln_kernel::transit | prefill/fp16 | 58.270 |" "$OUT"
awk '/\(current best\)|^\| v2_op1 / { print $2 }' "$OUT" | tr '\n' ' ' >"$TMPDIR_TEST/order"
expect_grep "v1_bm4 v2_op1 v1_bm4 v2_op1 v1_bm2 v2_op1 baseline v2_op1" "$TMPDIR_TEST/order"
# absent metrics are an em dash, L0 failures are shown and never compared
expect_exit 0 "$TLPERF" table "$V1" --round 5
expect_grep "| v5_deep | ln_kernel::transit | dit/fp16 | 7.900 | — | — | — | fail |" "$OUT"
# --incumbent: the adopted version instead of the per-key best
expect_exit 0 "$TLPERF" table "$V1" --round 2 --incumbent v1_bm4
expect_grep "| v1_bm4 (current best) | ln_kernel::direct | decode/fp32 | 3.170 |" "$OUT"
# v2, JSON with the Markdown inside
expect_exit 0 "$TLPERF" table "$V2" --round 1 --json
expect_grep '"current_best":	true' "$OUT"
expect_grep '"vs_best":	null' "$OUT"
expect_grep '"markdown":	"**候选 vs current best 对比表（round 1）**' "$OUT"
expect_exit 0 "$TLPERF" table "$V2" --round 2
expect_grep "| r2a_deint | argreduce.py::main | 3d-fp16 | 12.381 | -99.2% | 71.0% | 330.0 GB/s | pass |" "$OUT"

# errors
expect_exit 1 "$TLPERF" table "$V1" --round 9
expect_grep "round 9 has no record in" "$ERR"
expect_exit 2 "$TLPERF" table "$V1"
expect_grep "--round N is required" "$ERR"
expect_exit 2 "$TLPERF" table "$V1" --round 0
expect_exit 2 "$TLPERF" table "$TMPDIR_TEST/x.jsonl" --round 1
expect_grep "cannot read records '$TMPDIR_TEST/x.jsonl'" "$ERR"

# An opt_log.md whose rounds carry these tables (v1: rounds 1-6) passes the
# gate's S4-OPTLOG-COMPTABLE; without round 4's table it names round 4.
mk_log() {  # mk_log DIR SKIP_ROUND
    mkdir -p "$1"
    cp "$V1" "$1/perf_records.jsonl"
    {
        printf '# opt log\n\n## Performance Test Data（baseline, round 0）\n\n'
        for r in 1 2 3 4 5 6; do
            printf '## Iteration %s（round %s）\n\n' "$r" "$r"
            [ "$r" = "$2" ] || "$TLPERF" table "$V1" --round "$r"
            printf '\n'
        done
        printf '## Final Summary\n\nbest: v6_bm6\n'
        "$TLPERF" speedup "$V1" | grep -v '^\*\*'
        printf 'final_latency: 8.71 us\n中止原因: plateau\n\n## Skill Retrospective\n\nnone\n'
    } >"$1/opt_log.md"
}
mk_log "$TMPDIR_TEST/good/perf_opt" none
mk_log "$TMPDIR_TEST/bad/perf_opt" 4
# This log adopts v6_bm6 on gains under the noise threshold without an A/B
# verdict, which S4-AB refuses (tests/cli/test_gate_evidence.sh); here only
# the tables are at stake.
expect_exit 1 "$TLGATE" "$TMPDIR_TEST/good/perf_opt"
expect_grep "error: [S4-AB] round 6 adopted 'v6_bm6' with a gain of 0.6%" "$OUT"
printf '{"rules": {"S4-AB": "off"}}\n' >"$TMPDIR_TEST/no-ab.json"
expect_exit 0 "$TLGATE" --config "$TMPDIR_TEST/no-ab.json" "$TMPDIR_TEST/good/perf_opt"
cat "$OUT" "$ERR" >"$TMPDIR_TEST/gate_good"
expect_no_grep "S4-OPTLOG-COMPTABLE" "$TMPDIR_TEST/gate_good"
expect_exit 1 "$TLGATE" "$TMPDIR_TEST/bad/perf_opt"
cat "$OUT" "$ERR" >"$TMPDIR_TEST/gate_bad"
grep -F "S4-OPTLOG-COMPTABLE" "$TMPDIR_TEST/gate_bad" >"$TMPDIR_TEST/gate_bad_rule" ||
    fail "no S4-OPTLOG-COMPTABLE finding without round 4's table"
expect_grep "round 4" "$TMPDIR_TEST/gate_bad_rule"
expect_no_grep "round 3" "$TMPDIR_TEST/gate_bad_rule"
expect_exit 2 "$TLPERF" table "$V1" --round 2 --incumbent nosuch
expect_grep "incumbent 'nosuch' has no valid record before round 2" "$ERR"
