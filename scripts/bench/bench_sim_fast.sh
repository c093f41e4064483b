#!/bin/sh
# Benchmark: `--protocol fast` (issue 36) on both scenario grids, with the
# issue's targets (identical arms, equal-mean shifts within G 8% and 0.3,
# B 2% slower, steady and noisy kernels) beside issue 27's. Fixed seeds:
# the calibration grid (seed 7, where fast's constants were chosen) and
# the evaluation grid (seed 20261206, 3,000 trials per cell: the 300 of
# seed 20261205 left the worst cells' intervals straddling the limits).
# Prints Markdown for docs/benchmarks.md (scripts/bench/run.sh collects it).
#   SIM_FAST_TRIALS (300, calibration), SIM_FAST_EVAL_TRIALS (3000),
#   SIM_FAST_CAL_SEED (7), SIM_FAST_EVAL_SEED (20261206)
set -eu
B=${BUILD:-build}
TLPERF=$B/bin/tlperf
CT=${SIM_FAST_TRIALS:-300}
ET=${SIM_FAST_EVAL_TRIALS:-3000}
echo "## fast on the grids (\`tlperf sim --grid ... --protocol fast\`)"
echo
echo "fast, tlab's default, is the rule for the runs users have (docs/tlab.md, \"fast: the rule for the runs"
echo "users have\"). Each row is the worst cell of its target with its 95% Wilson interval; \"cells failing\""
echo "counts cells on the wrong side of the limit (with 300 trials a cell whose true rate is 2% reads above 2.5%"
echo "about one time in four, with 3,000 about one time in twelve; the interval says how far)."
for g in calibration evaluation; do
    if [ $g = calibration ]; then s=${SIM_FAST_CAL_SEED:-7} T=$CT; else s=${SIM_FAST_EVAL_SEED:-20261206} T=$ET; fi
    echo
    echo "### $g grid"
    echo
    start=$(date +%s)
    "$TLPERF" sim --grid $g --protocol fast --trials "$T" --seed "$s" >"$B/sim-fast-$g.txt"
    echo "Command: \`tlperf sim --grid $g --protocol fast --trials $T --seed $s\` ($(( $(date +%s) - start )) s)."
    echo
    sed -n '/^| target/,$p' "$B/sim-fast-$g.txt"
done
