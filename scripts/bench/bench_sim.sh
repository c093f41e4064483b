#!/bin/sh
# Benchmark: the A/B protocols simulated (tlperf sim). First the evaluation
# grid of `--protocol seq` (the worst cell of every target, with its 95%
# Wilson interval, and the worst null cells), then the six named scenarios
# for both protocols. Prints Markdown for docs/benchmarks.md
# (scripts/bench/run.sh collects it). The grid's cell table is kept in
# $BUILD/sim-grid-evaluation.txt for bench_sim_e2e.sh.
#   SIM_GRID_TRIALS (2000), SIM_GRID_SEED (1), SIM_TRIALS (4000), SIM_SEED (1)
#   SIM_GRID_FROM=FILE SIM_GRID_SECS="N s ...": take the grid table from FILE (the
#   output of the same command, run earlier) instead of running it again
set -eu
B=${BUILD:-build}
TLPERF=$B/bin/tlperf
GT=${SIM_GRID_TRIALS:-2000}
GS=${SIM_GRID_SEED:-1}
TRIALS=${SIM_TRIALS:-4000}
SEED=${SIM_SEED:-1}
grid=$B/sim-grid-evaluation.txt
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

echo "## A/B protocols, simulated (\`tlperf sim\`)"
echo
echo "### seq on the evaluation grid (\`tlperf sim --grid evaluation\`)"
echo
if [ -n "${SIM_GRID_FROM:-}" ]; then
    cp "$SIM_GRID_FROM" "$grid"
    took=${SIM_GRID_SECS:-? s}
else
    start=$(now)
    "$TLPERF" sim --grid evaluation --trials "$GT" --seed "$GS" --cells >"$grid"
    end=$(now)
    took="$(secs "$start" "$end") s on one core"
fi
ncells=$(sed -n 's/^evaluation grid: \([0-9]*\) cells.*/\1/p' "$grid")
echo "Command: \`tlperf sim --grid evaluation --trials $GT --seed $GS --cells\` ($took, $ncells cells x $GT trials)."
echo "The constants of seq were tuned on \`--grid calibration\` (gaps 3-11%, P(slow) 0.05-0.95, other outlier"
echo "sizes and rates, other drift, a gap jittering by 20%, seed 1), never on these cells: gaps 2, 4, 6, 8, 10%,"
echo "P(slow) 0.1 ... 0.9 for A and B, 3% outlier runs near the slow cluster (\`near\`: 0.5-4% above the slow"
echo "level), far above their state (\`far\`: 10-30%) or anywhere 2-12% above with random-walk drift, a gap"
echo "jittering by 15% and a second-run penalty (\`walk\`). In \`null\` cells B's mean duration equals A's"
echo "(B faster within each state where it lands slow more often), so every B_better is a false adoption."
echo "Each row is the worst cell of its target; \"cells failing\" counts the cells whose measured rate is on the"
echo "wrong side of the limit (with $ncells cells and $GT trials, a few cells whose true rate is near the limit"
echo "cross it by chance; the Wilson interval says how far)."
echo
sed -n '/^| target |/,/targets met/p' "$grid"
echo
echo "The 12 null cells with the most false adoptions:"
echo
echo "| family | G | pA | pB | variant | B mean gain | B_better | tie | A_better | inconclusive | mean pairs | max pairs |"
echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
grep '^| null |' "$grid" | sort -t'|' -k8 -g -r | head -n 12
echo
echo "Worst null cell per variant and gap (B_better):"
echo
echo "| variant | G 2% | G 4% | G 6% | G 8% | G 10% |"
echo "|---|---:|---:|---:|---:|---:|"
for v in near far walk; do
    printf '| %s |' "$v"
    for g in 2 4 6 8 10; do
        w=$(grep '^| null |' "$grid" | awk -F'|' -v v=" $v " -v g=" $g% " '$6 == v && $3 == g { x = $8 + 0; if (x > m) m = x } END { printf "%.2f%%", m }')
        printf ' %s |' "$w"
    done
    echo
done
echo

echo "### Named scenarios, both protocols"
echo
cmd="tlperf sim --protocol both --scenario all --effect all --trials $TRIALS --seed $SEED"
out=$(mktemp)
start=$(now)
"$TLPERF" sim --protocol both --scenario all --effect all --trials "$TRIALS" --seed "$SEED" >"$out"
end=$(now)
echo "Command: \`$cmd\` ($(secs "$start" "$end") s on one core for 2 protocols x 6 scenarios x 7 effects x $TRIALS trials)."
echo "\"B gain within state\" is the effect given to the generator; \"B gain on average\" is the resulting"
echo "change of B's mean duration over run states and outlier runs (in \`stateshift\` B lands slow 80% of the"
echo "time instead of 20%, so B is slower on average up to a 2% within-state gain). \"not faster\" marks rows"
echo "where any B_better is a false adoption. seq = \`--protocol seq\` (the default), ref = ab_test.py's rule."
echo "\`quiet\` arms show no state at all, so seq pays for a state that could still hide (docs/tlab.md)."
echo
cat "$out"
rm -f "$out"
