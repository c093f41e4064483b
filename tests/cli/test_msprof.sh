# tlperf msprof: the three layouts, op_summary, --kernel-name, --json, errors.
. "$ROOT/tests/cli/lib.sh"
set -e
M=$TESTDATA/msprof

expect_exit 0 "$TLPERF" msprof "$M/per-launch"
expect_grep "per-launch layout, 12 launches" "$OUT"
expect_grep "summary: 12 launches, median 8.455 us, MAD 0.030 us, min 8.400 us, max 8.510 us" "$OUT"
expect_grep "busiest pipe aic_cube_ratio 0.600" "$OUT"
expect_grep "main memory read 9.333 GB/s, write 3.500 GB/s" "$OUT"
# launches in numeric order: 9 before 10
awk '$1 ~ /^[0-9]+$/ {print $1}' "$OUT" | tr '\n' ' ' >"$TMPDIR_TEST/order"
expect_grep "0 1 2 3 4 5 6 7 8 9 10 11 " "$TMPDIR_TEST/order"

expect_exit 0 "$TLPERF" msprof "$M/flat" --json
grep -Eq '"layout":[[:space:]]*"flat"' "$OUT" || fail "flat layout not in JSON"
grep -Eq '"duration_us":[[:space:]]*8.412' "$OUT" || fail "flat duration not in JSON"
expect_no_grep "999" "$OUT"   # the decoy under dump/

expect_exit 0 "$TLPERF" msprof --kernel-name 'topk' "$M/per-device"
expect_grep "per-device layout, 6 launches matching 'topk' (2 of other kernels left out)" "$OUT"
expect_exit 0 "$TLPERF" msprof "$M/per-device"
expect_grep "several kernels" "$ERR"

expect_exit 0 "$TLPERF" msprof --kernel-name 'main*' "$M/op_summary" --json
grep -Eq '"launches":[[:space:]]*4' "$OUT" || fail "op_summary: 4 main_kernel launches expected"
grep -Eq '"median_us":[[:space:]]*86.667' "$OUT" || fail "op_summary median"

expect_exit 0 "$TLPERF" msprof "$M/variants/missing"
expect_grep "missing: 3 launches with Task Duration(us) NA" "$OUT"

# no data: exit 1, naming the directory and what was looked for
expect_exit 1 "$TLPERF" msprof "$M/empty"
expect_grep "no profiler data in '$M/empty': looked for OPPROF_" "$ERR"
expect_exit 1 "$TLPERF" msprof --kernel-name mul "$M/per-device"
expect_grep "no launch matches kernel name 'mul'" "$ERR"
expect_exit 2 "$TLPERF" msprof "$M/bad/garbage"
expect_grep "OpBasicInfo.csv:2: Task Duration(us) is not a number: 'fast'" "$ERR"
expect_exit 2 "$TLPERF" msprof "$TMPDIR_TEST/missing"
expect_grep "cannot read" "$ERR"
expect_exit 2 "$TLPERF" msprof
expect_exit 2 "$TLPERF" msprof --bogus "$M/flat"
expect_exit 2 "$TLPERF" msprof "$M/flat" --kernel-name
expect_exit 0 "$TLPERF" help msprof
expect_grep "--kernel-name PAT" "$OUT"

# the real samples, when ../shared is there
have_shared "the real msprof samples" || exit 0
S=$SHARED/msprof-samples
expect_exit 0 "$TLPERF" msprof "$S/01_OpBasicInfo_mix_cann83RC2.csv"
expect_grep "86824.727" "$OUT"
expect_exit 0 "$TLPERF" msprof --kernel-name main "$S/10_op_summary_20260605161737_cann83RC2.csv"
expect_grep "summary: 3 launches, median 86846.720 us" "$OUT"
for f in "$S"/0[3-9]_*.csv; do
    expect_exit 1 "$TLPERF" msprof "$f"
    expect_grep "is a metric CSV" "$ERR"
done
