# tlab end to end against scripts/fake-msprof and the fake kernel: the three
# verdicts, the JSON fields, the interleaving order, runs.jsonl and logs.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
[ -x "$FK" ] || fail "fake kernel not built: $FK"
cd "$TMPDIR_TEST"

# B 10% faster, runs bimodal (+-2% per process): B_better
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir faster \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9 --seed 11"
expect_grep '"verdict":	"B_better"' "$OUT"
for f in protocol pairs launch_count a_medians_us b_medians_us a_merged_median_us \
         b_merged_median_us b_rel_change pair_diffs_us sign_test_p direction_consistent \
         noise_threshold verdict runs pair_gain_ci gain exact tlab_protocol; do
    expect_grep "\"$f\":" "$OUT"
done
expect_grep '"protocol":	"interleaved A/B multi-run (BP_run_state_bimodality)"' "$OUT"
expect_grep '"pairs":	3' "$OUT"
expect_grep '"sign_test_p":	0.25,' "$OUT"
expect_grep '"direction_consistent":	true' "$OUT"
expect_grep '"level":	0.75' "$OUT"
expect_grep '"log":	"faster/logs/pair2B.log"' "$OUT"
expect_grep '"profile":	"faster/pair3A"' "$OUT"
# progress on stderr, one line per run, in the interleaved order
grep '^pair ' "$ERR" | sed 's/: median.*//' | tr '\n' ',' >order
expect_grep "pair 1/3 A,pair 1/3 B,pair 2/3 B,pair 2/3 A,pair 3/3 A,pair 3/3 B," order
expect_grep "(5 launches)" "$ERR"
# runs.jsonl: six lines, appended in the order the runs ended
[ "$(wc -l <faster/runs.jsonl)" -eq 6 ] || fail "runs.jsonl should hold 6 runs"
sed -n 3p faster/runs.jsonl | grep -q '"arm":"B","pair":2,"order":1' || fail "pair 2 should start with B"
sed -n 4p faster/runs.jsonl | grep -q '"arm":"A","pair":2,"order":2' || fail "pair 2 should end with A"
expect_grep "Profiling results saved in $TMPDIR_TEST/faster/pair1A/OPPROF_" faster/logs/pair1A.log
# each run's profile is a per-launch OPPROF tree that tlperf msprof reads back
expect_exit 0 "$TLPERF" msprof faster/pair2B
expect_grep "per-launch layout, 5 launches" "$OUT"

# identical arms, quiet machine (no run-state bimodality): tie
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir same \
    --a-cmd "$FK --mean 10 --half-gap 0 --seed 5" --b-cmd "$FK --mean 10 --half-gap 0 --seed 5"
expect_grep '"verdict":	"tie"' "$OUT"

# B 10% slower: A_better; the profiler also comes from TLAB_MSPROF
TLAB_MSPROF=$FAKE expect_exit 0 "$TLAB" --protocol ref --launch-count 5 --warm-up 0 --workdir slower --pairs 4 \
    --a-cmd "$FK --mean 10 --seed 3" --b-cmd "$FK --mean 11 --seed 3"
expect_grep '"verdict":	"A_better"' "$OUT"
expect_grep '"pairs":	4' "$OUT"
[ "$(wc -l <slower/runs.jsonl)" -eq 8 ] || fail "4 pairs should give 8 runs"

# one launch per run: the flat OPPROF layout is read too
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 1 --workdir flat \
    --a-cmd "$FK --mean 10 --seed 2" --b-cmd "$FK --mean 9 --seed 2"
expect_grep '"verdict":	"B_better"' "$OUT"
expect_grep "pair 3/3 B: median" "$ERR"
expect_grep "(1 launch)" "$ERR"
expect_exit 0 "$TLPERF" msprof flat/pair1A
expect_grep "flat layout, 1 launch" "$OUT"

# the same seeds give the same medians (the fake kernel is deterministic)
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir again \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9 --seed 11"
cp "$OUT" again.json
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir faster2 \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9 --seed 11"
grep '_medians_us' again.json >m1
grep '_medians_us' "$OUT" >m2
cmp -s m1 m2 || fail "same seeds, different medians"
