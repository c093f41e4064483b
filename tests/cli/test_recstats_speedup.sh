# tlperf speedup on the bundled v1/v2 records: per-workload speedups, the
# geomean row, per-dispatch geometric means, --final, regressions, errors.
. "$ROOT/tests/cli/lib.sh"
set -e
R=$TESTDATA/records
V1=$R/v1_layernorm.jsonl
V2=$R/v2_argmax.jsonl

# v2: the phase final records name the final kernel; its figure is the
# median of its runs (round 4 and the final confirmation: 12.673 and 12.523
# give 12.598), never the final record alone (stats/final.h)
expect_exit 0 "$TLPERF" speedup "$V2"
expect_grep "| argreduce.py::main | 3d-fp16 | 1632.018 | 12.598 | r4b_arange1n | 129.55x | -99.2% |" "$OUT"
expect_grep "| argreduce.py::partial | lm-head-fp16 | 25.890 | 11.890 | r4b_arange1n | 2.18x | -54.1% |" "$OUT"
expect_grep "| **geomean** | all (4) | | | | **8.07x** | **-87.6%** |" "$OUT"
expect_grep "| argreduce.py::partial | 2 | 2.38x | -57.9% | 0 |" "$OUT"
expect_grep "- geomean speedup: 8.07x over 4 workload(s) (geometric-mean latency change -87.6%)" "$OUT"
expect_grep "- regressions (speedup < 1): none" "$OUT"
# exactly one line carries "geomean" with a speedup: the overall one
[ "$(grep -c 'geomean.*[0-9]x' "$OUT")" = 2 ] || fail "geomean appears on other lines"
expect_exit 0 "$TLPERF" speedup --json "$V2"
expect_grep '"final_source":	"final"' "$OUT"
expect_grep '"final_runs":	2' "$OUT"
expect_grep '"final_us":	12.598' "$OUT"
expect_grep '"workloads":	4' "$OUT"
# geomean = exp(mean(log)) of the four speedups, recomputed here with awk
awk -F'\t' '/"speedup":/ { gsub(/[",]/, "", $NF); s += log($NF); n++ }
            /"geomean_speedup":/ { g = $NF }
            END { gsub(/[",]/, "", g); want = exp(s / n); if (n < 4 || (g - want) > 1e-9 || (want - g) > 1e-9) { print "geomean " g " != " want; exit 1 } }' "$OUT" \
    || fail "geomean is not the exp-mean-log of the per-key speedups"

# v1: without --final, the candidate the records show adopted last (round
# 6 builds on v3_bm7), never each workload's best over different kernels
expect_exit 0 "$TLPERF" speedup "$V1"
expect_grep "| ln_kernel::transit | dit/fp16 | 34.830 | 8.760 | v3_bm7 | 3.98x | -74.8% |" "$OUT"
expect_no_grep "v6_bm6" "$OUT"
expect_grep "| ln_kernel::direct | 1 | 1.20x | -16.5% | 0 |" "$OUT"
expect_exit 0 "$TLPERF" speedup --json "$V1"
expect_grep '"final_candidate":	"v3_bm7"' "$OUT"
expect_grep '"final_source":	"adopted"' "$OUT"
# an opt_log beside the records (or --opt-log) names the final: the winner
# of its last Final Summary
mkdir -p "$TMPDIR_TEST/po"
cp "$V1" "$TMPDIR_TEST/po/perf_records.jsonl"
printf '# opt log\n\n## Final Summary\n\n- best: v1_bm4\n\n## Final Summary\n\n- best: v2_op1\n' >"$TMPDIR_TEST/po/opt_log.md"
expect_exit 0 "$TLPERF" speedup "$TMPDIR_TEST/po/perf_records.jsonl"
expect_grep "| ln_kernel::transit | smoke/fp16 | 3.210 | 3.220 | v2_op1 | 1.00x | +0.3% (regression) |" "$OUT"
expect_exit 0 "$TLPERF" speedup --opt-log "$TMPDIR_TEST/po/opt_log.md" "$V1"
expect_grep "v2_op1" "$OUT"
# a winner that is no recorded candidate: a warning, the records decide
printf '## Final Summary\n\n- best: nosuch_kernel\n' >"$TMPDIR_TEST/po/opt_log.md"
expect_exit 0 "$TLPERF" speedup "$TMPDIR_TEST/po/perf_records.jsonl"
expect_grep "names best 'nosuch_kernel', which is no candidate with a valid record" "$ERR"
expect_grep "| ln_kernel::transit | dit/fp16 | 34.830 | 8.760 | v3_bm7 | 3.98x | -74.8% |" "$OUT"
# a winner named with a description after its id: the id that prefixes it
printf '## Final Summary\n\n- best: v2_op1 (fused, 2 passes)\n' >"$TMPDIR_TEST/po/opt_log.md"
expect_exit 0 "$TLPERF" speedup "$TMPDIR_TEST/po/perf_records.jsonl"
expect_grep "| ln_kernel::transit | smoke/fp16 | 3.210 | 3.220 | v2_op1 |" "$OUT"
printf '# opt log\n' >"$TMPDIR_TEST/empty_log.md"
expect_exit 2 "$TLPERF" speedup --opt-log "$TMPDIR_TEST/empty_log.md" "$V1"
expect_grep "names no winner in a Final Summary" "$ERR"
expect_exit 2 "$TLPERF" speedup --opt-log "$TMPDIR_TEST/nolog.md" "$V1"
expect_grep "cannot read opt_log" "$ERR"
expect_exit 2 "$TLPERF" speedup --final v2_op1 --opt-log "$TMPDIR_TEST/po/opt_log.md" "$V1"
# --final names the candidate; its smoke run is slower than the baseline:
# a regression, shown
expect_exit 0 "$TLPERF" speedup --final v2_op1 "$V1"
expect_grep "| ln_kernel::transit | smoke/fp16 | 3.210 | 3.220 | v2_op1 | 1.00x | +0.3% (regression) |" "$OUT"
expect_grep "- regressions (speedup < 1): ln_kernel::transit/smoke/fp16 (1.00x, +0.3%)" "$OUT"
expect_exit 0 "$TLPERF" speedup --final v2_op1 --json "$V1"
expect_grep '"regressions":	1' "$OUT"
expect_grep '"final_candidate":	"v2_op1"' "$OUT"
# a candidate that measured only some workloads: the others are not counted
line() { printf '{"round": %s, "candidate_id": "%s", "parent_id": null, "dispatch_path": "%s", "workload": "%s", "duration_us": %s, "l0_pass": true, "timestamp": "2026-10-01T00:00:00Z"}\n' "$1" "$2" "$3" "$4" "$5"; }
{ line 0 baseline k::a w1 100; line 0 baseline k::b w2 80; line 1 c k::a w1 50; line 1 d k::b w2 10; } >"$TMPDIR_TEST/two.jsonl"
# no lineage, no final record: the final cannot be told; the geomean of
# per-workload bests of c and d (4.00x) is a kernel no one has
expect_exit 2 "$TLPERF" speedup "$TMPDIR_TEST/two.jsonl"
expect_grep "cannot tell the final candidate of '$TMPDIR_TEST/two.jsonl'" "$ERR"
expect_grep "pass --final CANDIDATE" "$ERR"
expect_no_grep "4.00x" "$OUT"
expect_exit 0 "$TLPERF" speedup --final c "$TMPDIR_TEST/two.jsonl"
expect_grep "- not counted (1): k::b/w2 (no final)" "$OUT"
expect_grep "**2.00x**" "$OUT"

# errors
expect_exit 2 "$TLPERF" speedup --final nosuch "$V1"
expect_grep "final candidate 'nosuch' has no valid record" "$ERR"
expect_exit 2 "$TLPERF" speedup "$TMPDIR_TEST/none.jsonl"
expect_grep "cannot read records '$TMPDIR_TEST/none.jsonl'" "$ERR"
{ line 1 c k::a w1 50; } >"$TMPDIR_TEST/nobase.jsonl"
expect_exit 1 "$TLPERF" speedup --final c "$TMPDIR_TEST/nobase.jsonl"
expect_grep "no workload of" "$ERR"
expect_grep "(no valid round-0 baseline)" "$OUT"
{ line 0 baseline k::a w1 100; echo '{oops'; line 1 c k::a w1 50; } >"$TMPDIR_TEST/bad.jsonl"
expect_exit 0 "$TLPERF" speedup --final c "$TMPDIR_TEST/bad.jsonl"
expect_grep "$TMPDIR_TEST/bad.jsonl:2: warning:" "$ERR"
expect_exit 1 "$TLPERF" speedup --strict "$TMPDIR_TEST/bad.jsonl"
expect_exit 2 "$TLPERF" speedup "$V1" "$V2"
expect_exit 2 "$TLPERF" speedup --frobnicate "$V1"

# The shared reference fixtures, when present: v2-multi claims 120 -> 90
# and 60 -> 48 us (1.33x and 1.25x, geomean 1.29x); v1 claims 120.5 -> 100.
if have_shared "the shared reference fixtures"; then
    F=$SHARED/reference-fixtures
    expect_exit 0 "$TLPERF" speedup "$F/v2-multi/perf_opt/perf_records.jsonl"
    expect_grep "| kernels/mish.py::main | yolo-p3-f16 | 120.000 | 90.000 | merged-best | 1.33x | -25.0% |" "$OUT"
    expect_grep "**1.29x**" "$OUT"
    expect_exit 0 "$TLPERF" speedup "$F/v1/perf_opt/perf_records.jsonl"
    expect_grep "| t_kernel::main | w1 | 120.500 | 100.000 | v2 | 1.21x | -17.0% |" "$OUT"
    expect_exit 0 "$TLPERF" table "$F/v1/perf_opt/perf_records.jsonl" --round 1
    expect_grep "| baseline (current best) | t_kernel::main | w1 | 120.500 | — | — | — | pass |" "$OUT"
    expect_exit 0 "$TLPERF" plateau --json "$F/v1/perf_opt/perf_records.jsonl"
    expect_grep '"plateau":	false' "$OUT"
else
    echo "../shared absent: reference fixture checks skipped"
fi
