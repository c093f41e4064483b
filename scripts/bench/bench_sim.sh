#!/bin/sh
# Benchmark: the A/B protocols simulated (tlperf sim), 10,000 trials per
# scenario and effect for both protocols, plus the time it took. Prints
# Markdown for docs/benchmarks.md (scripts/bench/run.sh collects it).
set -eu
B=${BUILD:-build}
TLPERF=$B/bin/tlperf
TRIALS=${SIM_TRIALS:-10000}
SEED=${SIM_SEED:-1}
cmd="tlperf sim --protocol both --scenario all --effect all --trials $TRIALS --seed $SEED"
out=$(mktemp)
start=$(date +%s.%N)
"$TLPERF" sim --protocol both --scenario all --effect all --trials "$TRIALS" --seed "$SEED" >"$out"
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "## A/B protocols, simulated (\`tlperf sim\`)"
echo
echo "Command: \`$cmd\` ($secs s on one core for 2 protocols x 6 scenarios x 7 effects x $TRIALS trials)."
echo "\"B gain within state\" is the effect given to the generator; \"B gain on average\" is the resulting"
echo "change of B's mean duration over run states and outlier runs (in \`stateshift\` B lands slow 80% of the"
echo "time instead of 20%, so B is slower on average up to a 2% within-state gain). \"not faster\" marks rows"
echo "where any B_better is a false adoption. seq = \`--protocol seq\` (the default), ref = ab_test.py's rule."
echo
cat "$out"
rm -f "$out"
