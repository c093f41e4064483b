# tlperf sim: deterministic with --seed, JSON fields, both protocols, usage errors.
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST
expect_exit 0 "$TLPERF" sim --scenario bimodal4 --trials 300 --seed 5
cp "$OUT" "$T/a"
expect_grep "| seq | bimodal4 | +0% |" "$T/a"
expect_grep "| ref | bimodal4 | +5% |" "$T/a"
expect_grep "max pairs over all seq rows" "$T/a"
# all_met FILE [SUFFIX]: the closing line says every target is met ("8 of 8
# targets met.", not "6 of 8") and no target row says FAIL
all_met() {
    grep -q "^\([0-9][0-9]*\) of \1 targets met${2:-}\.\$" "$1" || return 1
    ! grep -q '| FAIL |' "$1"
}
# the check itself must fail on a partial result
printf '| x | 1 | <= 2 | PASS |\n\n6 of 8 targets met.\n' >"$T/partial"
all_met "$T/partial" && fail "all_met accepted '6 of 8 targets met.'"
printf '| x | 3 | <= 2 | FAIL |\n\n8 of 8 targets met.\n' >"$T/partial"
all_met "$T/partial" && fail "all_met accepted a FAIL row"
printf '\n8 of 8 targets met in every cell.\n' >"$T/partial"
all_met "$T/partial" && fail "all_met accepted the grid's line for the table's"
# seq keeps every error target on bimodal4; it misses the pairs targets and
# the 3% adoption target there, the price of its bound (docs/tlab.md, "What
# the guarantee costs"): the table says so, row by row, and the closing
# line counts them
all_met "$T/a" && fail "seq met every target on bimodal4: the docs say it does not"
for r in "false adoption, bimodal4, effect +0% (B not faster)" "false adoption, bimodal4, effect -4% (B not faster)" \
         "B_better, bimodal4, B 4% slower" "max pairs over all seq rows" "adoption, bimodal4, gain 5%"; do
    grep -q "^| $r | .* | PASS |\$" "$T/a" || fail "target '$r' not met: $(grep -F "$r" "$T/a")"
done
for r in "mean pairs, bimodal4, gain 0%" "mean pairs, bimodal4, gain 8%" "adoption, bimodal4, gain 3%"; do
    grep -q "^| $r | .* | FAIL |\$" "$T/a" || fail "target '$r': $(grep -F "$r" "$T/a")"
done
grep -qx "5 of 8 targets met." "$T/a" || fail "closing line: $(tail -1 "$T/a")"
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
         '"seq_params":{"min_pairs":3,"max_pairs":16'; do
    expect_grep "$f" "$OUT"
done
expect_no_grep '"protocol":"ref"' "$OUT"
# seq, the rule with a guarantee: a steady 8% gain waits for the two-state
# bar (below 8% from pair 7)
expect_exit 0 "$TLPERF" sim --protocol seq --scenario quiet --effect 8% --trials 50 --json
expect_grep '"protocol":"seq"' "$OUT"
expect_grep '"b_better":1,' "$OUT"
expect_grep '"mean_pairs":7,"max_pairs":7,' "$OUT"
expect_no_grep '"mean_pairs":6' "$OUT"
expect_grep '"alpha":0.025' "$OUT"
expect_grep '"futile":' "$OUT"
expect_exit 0 "$TLPERF" sim --grid evaluation --protocol seq --family gain5_g4 --trials 20 --seed 3
expect_grep "seq: pairs 3..16, alpha 0.025" "$OUT"
# seq-v1, the rule seq replaced (kept for comparison): its own first look;
# quiet, 8% faster: every trial adopts B; not at the first look, since a
# state neither arm has shown yet could still hide (prior gap 10%)
expect_exit 0 "$TLPERF" sim --protocol seq-v1 --scenario quiet --effect 8% --trials 50 --json
expect_grep '"protocol":"seq-v1"' "$OUT"
expect_grep '"seq_params":{"min_pairs":4,' "$OUT"
expect_grep '"b_better":1,' "$OUT"
grep -q '"mean_pairs":4,' "$OUT" && fail "quiet arms adopted at the first look: $(cat "$OUT")"
expect_exit 0 "$TLPERF" sim --grid evaluation --protocol seq-v1 --family gain5_g4 --trials 20 --seed 3
expect_grep "seq-v1: pairs 4..16, critical z" "$OUT"
# seq's budget is at most 24 pairs (its bars); seq-v1's is not
expect_exit 2 "$TLPERF" sim --protocol seq --scenario quiet --effect 8% --trials 5 --max-pairs 30
expect_grep "seq: max-pairs must be at most 24" "$ERR"
expect_exit 0 "$TLPERF" sim --protocol seq-v1 --scenario quiet --effect 8% --trials 5 --max-pairs 30
# the header names the rule whose settings it shows
expect_grep "seq-v1: pairs 4..30, min-gain 0.01" "$OUT"
expect_exit 0 "$TLPERF" sim --protocol seq-v1 --scenario quiet --effect 8% --trials 5 --min-pairs 5
expect_grep "seq-v1: pairs 5..16," "$OUT"
expect_exit 0 "$TLPERF" sim --protocol all --scenario quiet --effect 8% --trials 5
expect_grep "; fast: pairs 3..16," "$OUT"
expect_exit 0 "$TLPERF" sim --protocol ref --scenario quiet --effect=-0.04 --trials 20 --json
expect_grep '"protocol":"ref"' "$OUT"
expect_grep '"max_pairs":3' "$OUT"
expect_no_grep '"protocol":"seq"' "$OUT"
# --max-pairs bounds every trial
expect_exit 0 "$TLPERF" sim --protocol seq --scenario bimodal8 --effect 2% --trials 200 --max-pairs 7 --json
grep -q '"max_pairs":7,"stop_reasons"' "$OUT" || fail "no trial reached --max-pairs 7: $(cat "$OUT")"
grep -q '"max_pairs":\([89]\|[1-9][0-9]\)' "$OUT" && fail "max pairs above --max-pairs: $(cat "$OUT")"
# --grid: the scenario grids, worst cell per target with a Wilson interval
expect_exit 0 "$TLPERF" sim --grid evaluation --family gain5_g4 --trials 40 --seed 3
cp "$OUT" "$T/g"
expect_grep "evaluation grid: 9 cells, 40 trials per cell, seed 3" "$T/g"
expect_grep "| adoption of a 5% mean gain, G = 4% | 9 | G 4%, pA " "$T/g"
expect_grep "% | >= 85.0% |" "$T/g"
# seq adopts a 5% gain under 4% states less often than the issue's 85%
# (the price of its bound, docs/tlab.md); the grid says which cells fail
expect_grep "0 of 1 targets met in every cell." "$T/g"
expect_grep "| FAIL |" "$T/g"
# ... and keeps a B 4% slower out in every cell
expect_exit 0 "$TLPERF" sim --grid evaluation --family slower --trials 40 --seed 3
all_met "$OUT" " in every cell" || fail "not every grid target met: $(grep 'targets met\|FAIL' "$OUT")"
expect_grep "| adoption of a B 4% slower on average | 405 |" "$OUT"
expect_no_grep "false adoption" "$T/g"
expect_exit 0 "$TLPERF" sim --grid evaluation --family gain5_g4 --trials 40 --seed 3
cmp -s "$OUT" "$T/g" || fail "same grid and seed gave different output"
expect_exit 0 "$TLPERF" sim --grid evaluation --family pairs8 --trials 20 --cells
expect_grep "| pairs8 | 8% | 0.50 | 0.50 | far | +8% |" "$OUT"
expect_grep "| mean pairs, 8% mean gain | 18 |" "$OUT"
expect_exit 0 "$TLPERF" sim --grid calibration --family slower --trials 5 --json
for f in '"grid":"calibration"' '"trials":5' '"targets":[{"family":"slower"' '"wilson95":[' \
         '"worst_cell":"G ' '"cells_failing":' '"prior_gap":0.0953' '"variant":"near-c"' \
         '"gain":-0.04'; do
    expect_grep "$f" "$OUT"
done
# the calibration and evaluation grids share no cell
expect_exit 0 "$TLPERF" sim --grid calibration --family null --trials 1 --cells
grep '^| null' "$OUT" | awk -F'|' '{ print $3 $4 $5 $6 }' | sort >"$T/cal"
expect_exit 0 "$TLPERF" sim --grid evaluation --family null --trials 1 --cells
grep '^| null' "$OUT" | awk -F'|' '{ print $3 $4 $5 $6 }' | sort >"$T/eval"
[ "$(wc -l <"$T/cal")" -eq 1500 ] || fail "calibration null cells: $(wc -l <"$T/cal")"
[ "$(wc -l <"$T/eval")" -eq 1215 ] || fail "evaluation null cells: $(wc -l <"$T/eval")"
[ -z "$(comm -12 "$T/cal" "$T/eval")" ] || fail "cells in both grids: $(comm -12 "$T/cal" "$T/eval" | head -3)"
expect_exit 2 "$TLPERF" sim --grid nope
expect_grep "option '--grid' wants calibration or evaluation, got 'nope'" "$ERR"
expect_exit 2 "$TLPERF" sim --grid evaluation --scenario quiet
expect_grep "--grid replaces --scenario and --effect" "$ERR"
expect_exit 2 "$TLPERF" sim --grid evaluation --protocol ref
expect_exit 2 "$TLPERF" sim --family null
expect_grep "--family and --cells go with --grid" "$ERR"
expect_exit 2 "$TLPERF" sim --grid evaluation --family bogus

# usage errors
expect_exit 2 "$TLPERF" sim --protocol fastt
expect_grep "option '--protocol' wants fast, seq, seq-v1, ref, both or all, got 'fastt'" "$ERR"
expect_exit 2 "$TLPERF" sim --scenario sunny
expect_grep "option '--scenario' wants quiet, bimodal4, bimodal8, drift, outliers, stateshift, steady1, steady2 or all, got 'sunny'" "$ERR"

# fast (issue 36): the steady kernels' targets on the calibration grid,
# and its rows beside the other protocols
expect_exit 0 "$TLPERF" sim --grid calibration --protocol fast --family steady0 --trials 100 --seed 7 --cells
expect_grep "fast: pairs 3..16, alpha 0.025" "$OUT"
expect_grep "| mean pairs, steady kernel, B = A | 3 | " "$OUT"
expect_grep "| steady0 | 0% | 0.00 | 0.00 | gauss-1.2 | +0% | 0.00% |" "$OUT"
all_met "$OUT" " in every cell" || fail "fast: steady B = A over 5 pairs: $(cat "$OUT")"
expect_exit 0 "$TLPERF" sim --grid evaluation --protocol fast --family identical --trials 50 --json
for f in '"protocol":"fast"' '"family":"identical"' '"variant":"t3-5"' '"variant":"three-10","gain":0' \
         '"target":"false adoption, B identical to A, other noise shapes","cells":9'; do
    expect_grep "$f" "$OUT"
done
expect_exit 0 "$TLPERF" sim --protocol all --scenario steady1 --effect 5% --trials 50
expect_grep "| fast | steady1 | +5% | +5.0% | 100.00% |" "$OUT"
expect_grep "| seq | steady1 | +5% |" "$OUT"
expect_exit 2 "$TLPERF" sim --effect 60%
expect_exit 2 "$TLPERF" sim --trials 0
expect_exit 2 "$TLPERF" sim --min-pairs 9 --max-pairs 5
expect_grep "max-pairs must be at least min-pairs" "$ERR"
expect_exit 2 "$TLPERF" sim --bogus
expect_exit 0 "$TLPERF" help sim
expect_grep "--protocol" "$OUT"
