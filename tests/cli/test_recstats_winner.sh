# tlperf winner on the bundled v1/v2 records and hand-made cases: every
# decision, the tlab command, required keys and bad input.
. "$ROOT/tests/cli/lib.sh"
set -e
R=$TESTDATA/records
V1=$R/v1_layernorm.jsonl
V2=$R/v2_argmax.jsonl

# round 1: v1_bm2 gains on dit/prefill but regresses smoke and decode
expect_exit 0 "$TLPERF" winner "$V1" --round 1
expect_grep "**Winner（round 1）: defer — v1_bm2**" "$OUT"
expect_grep "regresses on required keys: smoke/fp16 (+22.1%), decode/fp32 (+8.9%)" "$OUT"
expect_grep "| v1_bm4 | no |" "$OUT"   # prefill failed L0: cannot compete
# without the regressing keys it is adopted
expect_exit 0 "$TLPERF" winner "$V1" --round 1 --required dit/fp16 --required ln_kernel::transit/prefill/fp16
expect_grep "adopt — v1_bm2" "$OUT"
# round 2: +4.2% on the 3 us smoke kernel is a soft regression -> tlab
expect_exit 0 "$TLPERF" winner "$V1" --round 2 --bench-cmd 'python bench.py --impl {impl} --workload {workload}'
expect_grep "needs_ab — v2_op1" "$OUT"
expect_grep "tlab --a-cmd 'python bench.py --impl v1_bm4 --workload smoke/fp16' --b-cmd 'python bench.py --impl v2_op1 --workload smoke/fp16' --workdir perf_opt/ab_r2_v2_op1" "$OUT"
# the same, without a template: placeholders to fill in
expect_exit 0 "$TLPERF" winner "$V1" --round 2 --json
expect_grep '"decision":	"needs_ab"' "$OUT"
expect_grep "\"command\":	\"tlab --a-cmd '<bench command: v1_bm4 on ln_kernel::transit/smoke/fp16>' --b-cmd '<bench command: v2_op1 on ln_kernel::transit/smoke/fp16>' --workdir perf_opt/ab_r2_v2_op1\"" "$OUT"
# a larger small-us threshold turns nothing into a hard regression here,
# a zero one makes smoke's +4.2% a hard regression: defer
expect_exit 0 "$TLPERF" winner "$V1" --round 2 --small-us 0
expect_grep "defer — v2_op1" "$OUT"
expect_grep "smoke/fp16 (+4.2%)" "$OUT"
# round 4: nothing faster -> rollback; round 5: all L0 failures -> none
expect_exit 0 "$TLPERF" winner "$V1" --round 4
expect_grep "rollback — v4_fma" "$OUT"
expect_exit 0 "$TLPERF" winner "$V1" --round 5 --json
expect_grep '"decision":	"none"' "$OUT"
expect_grep '"candidate":	null' "$OUT"

# v2: round 3 and 4 adopted, the failing r1b_fused never competes
expect_exit 0 "$TLPERF" winner "$V2" --round 1
expect_grep "adopt — r1a_chain" "$OUT"
expect_grep "| r1b_fused | no | — |" "$OUT"
expect_exit 0 "$TLPERF" winner "$V2" --round 4 --json
expect_grep '"decision":	"adopt"' "$OUT"
expect_grep '"candidate":	"r4b_arange1n"' "$OUT"
# {artifact} comes from the v2 record
expect_exit 0 "$TLPERF" winner "$V2" --round 4 --ab-threshold 0.5 --bench-cmd 'python bench.py {artifact} {workload}'
expect_grep "needs_ab" "$OUT"
expect_grep "--b-cmd 'python bench.py perf_opt/argreduce_r4b_arange1n.py hidden-state-fp16'" "$OUT"

# tie: two candidates within noise of each other
line() { printf '{"round": %s, "candidate_id": "%s", "parent_id": null, "dispatch_path": "k::main", "workload": "%s", "duration_us": %s, "l0_pass": %s, "timestamp": "2026-10-01T00:00:00Z"}\n' "$1" "$2" "$3" "$4" "${5:-true}"; }
{ line 0 baseline w1 100; line 0 baseline w2 50; line 1 a w1 80; line 1 a w2 40; line 1 b w1 79.5; line 1 b w2 40.1; } >"$TMPDIR_TEST/tie.jsonl"
expect_exit 0 "$TLPERF" winner "$TMPDIR_TEST/tie.jsonl" --round 1 --json
expect_grep '"decision":	"tie"' "$OUT"
expect_grep '"candidate":	"b"' "$OUT"
expect_grep '"tied":	["a"]' "$OUT"
expect_exit 0 "$TLPERF" winner "$TMPDIR_TEST/tie.jsonl" --round 1
expect_grep "load balance, resource use and code simplicity" "$OUT"
# a regression on one required key blocks adoption
{ line 0 baseline w1 100; line 0 baseline w2 50; line 1 c w1 60; line 1 c w2 52; } >"$TMPDIR_TEST/reg.jsonl"
expect_exit 0 "$TLPERF" winner "$TMPDIR_TEST/reg.jsonl" --round 1
expect_grep "defer — c" "$OUT"
expect_grep "w2 (+4.0%)" "$OUT"
expect_exit 0 "$TLPERF" winner "$TMPDIR_TEST/reg.jsonl" --round 1 --noise 0.05
expect_grep "adopt — c" "$OUT"

# bad input and usage
expect_exit 2 "$TLPERF" winner "$V1"
expect_grep "--round N is required" "$ERR"
expect_exit 2 "$TLPERF" winner "$V1" --round 0
expect_exit 2 "$TLPERF" winner "$V1" --round 1 --required nosuch/wl
expect_grep "required key 'nosuch/wl' matches no dispatch/workload" "$ERR"
expect_exit 2 "$TLPERF" winner "$TMPDIR_TEST/missing.jsonl" --round 1
expect_grep "cannot read records '$TMPDIR_TEST/missing.jsonl'" "$ERR"
expect_exit 2 "$TLPERF" winner "$V1" --round 1 --noise -1
{ cat "$TMPDIR_TEST/reg.jsonl"; echo '{"round": 1, "candidate_id": "x", "duration_us": "fast"}'; } >"$TMPDIR_TEST/bad.jsonl"
expect_exit 0 "$TLPERF" winner "$TMPDIR_TEST/bad.jsonl" --round 1
expect_grep "$TMPDIR_TEST/bad.jsonl:5: warning:" "$ERR"
expect_exit 1 "$TLPERF" winner "$TMPDIR_TEST/bad.jsonl" --round 1 --strict
expect_exit 2 "$TLPERF" winner "$V1" --round 2 --incumbent v2_op1
expect_grep "incumbent 'v2_op1' has no valid record before round 2" "$ERR"
expect_exit 0 "$TLPERF" winner "$V1" --round 3 --incumbent v2_op1
expect_grep "| ln_kernel::transit | smoke/fp16 | v2_op1 | 3.220 |" "$OUT"
# a round of 2100 candidates x 2100 keys is refused, not a memory blow-up
awk 'BEGIN { for (p = 0; p < 2; p++) for (k = 0; k < 2100; k++)
    printf "{\"round\": %d, \"candidate_id\": \"%s%d\", \"parent_id\": null, \"dispatch_path\": \"d\", \"workload\": \"w%d\", \"duration_us\": 10, \"l0_pass\": true, \"timestamp\": \"2026-10-01T00:00:00Z\"}\n", p, p ? "c" : "base", p ? k : 0, k }' >"$TMPDIR_TEST/huge.jsonl"
expect_exit 2 "$TLPERF" winner "$TMPDIR_TEST/huge.jsonl" --round 1
expect_grep "too many candidates x required keys" "$ERR"
# narrowing the required keys makes it decidable
expect_exit 0 "$TLPERF" winner "$TMPDIR_TEST/huge.jsonl" --round 1 --required w7
expect_grep "rollback — c7" "$OUT"
