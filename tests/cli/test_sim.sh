# tlperf sim: deterministic with --seed, JSON fields, both protocols, usage errors.
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST
expect_exit 0 "$TLPERF" sim --scenario bimodal4 --trials 300 --seed 5
cp "$OUT" "$T/a"
expect_grep "| seq | bimodal4 | +0% |" "$T/a"
expect_grep "| ref | bimodal4 | +5% |" "$T/a"
expect_grep "max pairs over all seq rows" "$T/a"
expect_grep "targets met" "$T/a"
# same seed, same output; another seed, other numbers
expect_exit 0 "$TLPERF" sim --scenario bimodal4 --trials 300 --seed 5
cmp -s "$OUT" "$T/a" || fail "same seed gave different output"
expect_exit 0 "$TLPERF" sim --scenario bimodal4 --trials 300 --seed 6
cmp -s "$OUT" "$T/a" && fail "another seed gave identical output"
# one protocol, one effect (a percentage or a fraction), JSON fields
expect_exit 0 "$TLPERF" sim --protocol seq --scenario quiet --effect 5% --trials 50 --json
for f in '"trials":50' '"seed":1' '"cells":[' '"protocol":"seq"' '"scenario":"quiet"' \
         '"effect":0.05' '"true_gain":' '"b_better":' '"tie":' '"a_better":' \
         '"inconclusive":' '"mean_pairs":' '"max_pairs":' '"stop_reasons":' '"targets":[' \
         '"seq_params":{"min_pairs":4,"max_pairs":16'; do
    expect_grep "$f" "$OUT"
done
expect_no_grep '"protocol":"ref"' "$OUT"
# quiet, 5% faster: every trial adopts B, at the first look
expect_grep '"b_better":1,' "$OUT"
expect_grep '"mean_pairs":4,' "$OUT"
expect_exit 0 "$TLPERF" sim --protocol ref --scenario quiet --effect=-0.04 --trials 20 --json
expect_grep '"protocol":"ref"' "$OUT"
expect_grep '"max_pairs":3' "$OUT"
expect_no_grep '"protocol":"seq"' "$OUT"
# --max-pairs bounds every trial
expect_exit 0 "$TLPERF" sim --protocol seq --scenario bimodal8 --effect 2% --trials 200 --max-pairs 7 --json
grep -q '"max_pairs":7,"stop_reasons"' "$OUT" || fail "no trial reached --max-pairs 7: $(cat "$OUT")"
grep -q '"max_pairs":\([89]\|[1-9][0-9]\)' "$OUT" && fail "max pairs above --max-pairs: $(cat "$OUT")"
# usage errors
expect_exit 2 "$TLPERF" sim --protocol fast
expect_grep "unknown protocol 'fast'" "$ERR"
expect_exit 2 "$TLPERF" sim --scenario sunny
expect_grep "unknown scenario 'sunny'" "$ERR"
expect_exit 2 "$TLPERF" sim --effect 60%
expect_exit 2 "$TLPERF" sim --trials 0
expect_exit 2 "$TLPERF" sim --min-pairs 9 --max-pairs 5
expect_grep "max-pairs must be at least min-pairs" "$ERR"
expect_exit 2 "$TLPERF" sim --bogus
expect_exit 0 "$TLPERF" help sim
expect_grep "--protocol" "$OUT"
