#!/bin/sh
# Benchmark: the A/B protocols simulated (tlperf sim). First the evaluation
# grid of `--protocol seq` (the worst cell of every target, with its 95%
# Wilson interval, and the worst null cells), then the six named scenarios
# for both protocols. Prints Markdown for docs/benchmarks.md
# (scripts/bench/run.sh collects it). The grid's cell table is kept in
# $BUILD/sim-grid-evaluation.txt for bench_sim_e2e.sh.
#   SIM_GRID_TRIALS (2000), SIM_GRID_SEED (20261204), SIM_TRIALS (1000), SIM_SEED (1)
#   SIM_GRID_FROM=FILE SIM_GRID_SECS="N s ...": take the grid table from FILE (the
#   output of the same command, run earlier) instead of running it again;
#   SIM_NAMED_FROM=FILE SIM_NAMED_SECS="N s ...": the same for the named scenarios
#   SIM_CAL_TRIALS (600; 0 = skip), SIM_CAL_SEED (7): the calibration grid too, the
#   grid the constants were chosen on;
#   SIM_CAL_FROM=FILE SIM_CAL_SECS="N s ...": its table, run earlier
#   SIM_V1_TRIALS (400; 0 = skip), SIM_V1_CAL_TRIALS (200; 0 = skip; seq-v1 is slow,
#   about 3 ms a session):
#   seq-v1 (the rule seq replaced, kept for comparison) on the evaluation grid,
#   compared with seq cell by cell, and on the calibration grid (seed SIM_CAL_SEED);
#   SIM_V1_FROM / SIM_V1_SECS, SIM_V1_CAL_FROM / SIM_V1_CAL_SECS: tables run earlier
set -eu
B=${BUILD:-build}
TLPERF=$B/bin/tlperf
GT=${SIM_GRID_TRIALS:-2000}
GS=${SIM_GRID_SEED:-20261204}
TRIALS=${SIM_TRIALS:-1000}
SEED=${SIM_SEED:-1}
grid=$B/sim-grid-evaluation.txt
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }
# grid_table GRID TRIALS SEED OUT FROM SECS: OUT gets the grid's cell table,
# copied from FROM when set (SECS says how long it took then), else run now;
# sets $took
grid_table() {
    if [ -n "$5" ]; then
        cp "$5" "$4"
        took=${6:-? s}
    else
        start=$(now)
        "$TLPERF" sim --grid "$1" --trials "$2" --seed "$3" --cells >"$4"
        end=$(now)
        took="$(secs "$start" "$end") s on one core"
    fi
}

echo "## A/B protocols, simulated (\`tlperf sim\`)"
echo
echo "### seq on the evaluation grid (\`tlperf sim --grid evaluation\`)"
echo
grid_table evaluation "$GT" "$GS" "$grid" "${SIM_GRID_FROM:-}" "${SIM_GRID_SECS:-}"
ncells=$(sed -n 's/^evaluation grid: \([0-9]*\) cells.*/\1/p' "$grid")
echo "Command: \`tlperf sim --grid evaluation --trials $GT --seed $GS --cells\` ($took, $ncells cells x $GT trials)."
echo "The constants of seq were chosen on \`--grid calibration\` (gaps 3-11%, P(slow) 0.05-0.95, other outlier"
echo "sizes and rates, other drift, a gap jittering by 20%; seed 7, 600 trials per cell), never on these cells: gaps"
echo "2, 4, 6, 8, 10%, P(slow) 0.1 ... 0.9 for A and B, 3% outlier runs near the slow cluster (\`near\`: 0.5-4% above"
echo "the slow level), far above their state (\`far\`: 10-30%) or anywhere 2-12% above with random-walk drift, a gap"
echo "jittering by 15% and a second-run penalty (\`walk\`). In \`null\` cells B's mean duration equals A's"
echo "(B faster within each state where it lands slow more often), so every B_better is a false adoption."
echo "Each row is the worst cell of its target; \"cells failing\" counts the cells whose measured rate is on the"
echo "wrong side of the limit (with $ncells cells and $GT trials, a few cells whose true rate is near the limit"
echo "cross it by chance; the Wilson interval says how far). The limits of the power rows are the issue's"
echo "targets as first written (85% for a 5% gain at G 8%, 80% for a 3% gain), not 90% of seq-v1 cell by cell:"
echo "that comparison is the seq-v1 table below."
echo "How often this grid has been looked at for seq: once before these figures (seed 20261203, 1,000 trials per"
echo "cell), to report, with no constant changed after it; seed $GS was never used before."
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

CT=${SIM_CAL_TRIALS:-600}
CS=${SIM_CAL_SEED:-7}
if [ -n "${SIM_CAL_FROM:-}" ] || [ "$CT" -gt 0 ]; then
    cal=$(mktemp)
    grid_table calibration "$CT" "$CS" "$cal" "${SIM_CAL_FROM:-}" "${SIM_CAL_SECS:-}"
    ctook=$took
    ct=$(sed -n 's/.* cells, \([0-9]*\) trials per cell.*/\1/p' "$cal" | head -n 1)
    cs=$(sed -n 's/.* trials per cell, seed \([0-9]*\),.*/\1/p' "$cal" | head -n 1)
    ccells=$(sed -n 's/^calibration grid: \([0-9]*\) cells.*/\1/p' "$cal")
    echo "### seq on the calibration grid (\`tlperf sim --grid calibration\`)"
    echo
    echo "Command: \`tlperf sim --grid calibration --trials $ct --seed $cs --cells\` ($ctook, $ccells cells x $ct trials)."
    echo "The grid the constants were tuned on (with seed 1), wider than the issue's range: gaps 3-11% and P(slow)"
    echo "up to 0.95. Shown because a rule should also hold where it was designed, and to show where it stops"
    echo "holding; cells outside the issue's range (G 11% or a P(slow) of 0.05 or 0.95) are marked in the list."
    echo
    sed -n '/^| target |/,/targets met/p' "$cal"
    echo
    inside() { awk -F'|' '{ g = $3 + 0; a = $4 + 0; b = $5 + 0
        print $0 " " ((g > 10 || a < 0.1 || a > 0.9 || b < 0.1 || b > 0.9) ? "outside" : "inside") " |" }'; }
    echo "Null cells above 2.5% false adoption: the 5 worst, then every one inside the issue's range (G 2-10%,"
    echo "P(slow) 0.1-0.9); with $ct trials a cell whose true rate is 2% reads above 2.5% about one time in seven."
    echo
    echo "| family | G | pA | pB | variant | B mean gain | B_better | tie | A_better | inconclusive | mean pairs | max pairs | range |"
    echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
    grep '^| null |' "$cal" | sort -t'|' -k8 -g -r | awk -F'|' '$8 + 0 > 2.5' | inside >"$cal.top"
    head -n 5 "$cal.top"
    tail -n +6 "$cal.top" | grep ' inside |$' || true
    echo
    rm -f "$cal.top"
    rm -f "$cal"
fi

# seq-v1 (the rule seq replaced, kept for comparison) on the evaluation grid, beside seq
V2T=${SIM_V1_TRIALS:-400}
if [ -n "${SIM_V1_FROM:-}" ] || [ "$V2T" -gt 0 ]; then
    v2=$B/sim-grid-evaluation-v1.txt
    if [ -n "${SIM_V1_FROM:-}" ]; then
        cp "$SIM_V1_FROM" "$v2"
        v2took=${SIM_V1_SECS:-? s}
    else
        start=$(now)
        "$TLPERF" sim --grid evaluation --protocol seq-v1 --trials "$V2T" --seed "$GS" --cells >"$v2"
        end=$(now)
        v2took="$(secs "$start" "$end") s on one core"
    fi
    v2t=$(sed -n 's/.* cells, \([0-9]*\) trials per cell.*/\1/p' "$v2" | head -n 1)
    st=$(sed -n 's/.* cells, \([0-9]*\) trials per cell.*/\1/p' "$grid" | head -n 1)
    echo "### seq-v1 on the evaluation grid, beside seq"
    echo
    echo "Command: \`tlperf sim --grid evaluation --protocol seq-v1 --trials $v2t --seed $GS --cells\` ($v2took)."
    echo "seq-v1 is the state-fitting rule seq replaced (docs/tlab.md, \"seq-v1\"), kept for this comparison: it"
    echo "has no error bound, and meets power targets that seq, whose false adoption is at most 2.0% by theorem"
    echo "for Gaussian log-ratios and for two run states, misses."
    echo
    sed -n '/^| target |/,/targets met/p' "$v2"
    echo
    echo "Cell by cell (seq $st trials per cell; seq-v1 $v2t): per family the worst B_better of each rule (the"
    echo "highest in null and slower, the lowest in the gain families), the cell where seq takes the most extra"
    echo "pairs on average, and, in the gain families, the cell with the lowest ratio of adoption rates"
    echo "(seq / seq-v1). With few trials per cell the worst of 1,215 cells reads high by chance (at 100 trials"
    echo "a cell whose true rate is 2% reads 5% or more about one time in twenty)."
    echo
    echo "The last two columns are issue 27's targets cell by cell: a gain adopted at least 0.9 times as often as"
    echo "seq-v1 adopts it, and at most one pair more on average (docs/tlab.md, \"What the guarantee costs\", says"
    echo "which cells miss them and why)."
    echo
    echo "| family | cells | seq: worst B_better | seq-v1: worst B_better | most extra mean pairs of seq (cell: G, pA, pB, variant) | lowest adoption ratio (cell) | cells with ratio >= 0.9 | cells within +1 pair |"
    echo "|---|---:|---:|---:|---|---|---:|---:|"
    for f in null slower gain5_g4 gain5_g8 gain3_g4 pairs8; do
        awk -F'|' -v f=" $f " '
            FNR == 1 { file++ }
            $2 == f { k = $3 "," $4 "," $5 "," $6; bb[file, k] = $8 + 0; mp[file, k] = $12 + 0; keys[k] = 1 }
            END {
                gain = f != " null " && f != " slower "
                n = 0; w1 = gain ? 101 : -1; w2 = w1; dmax = -1e9; rmin = 1e9; n90 = 0; n1 = 0
                for (k in keys) {
                    if (!((1, k) in bb) || !((2, k) in bb)) continue
                    n++
                    if (gain ? bb[1, k] < w1 : bb[1, k] > w1) w1 = bb[1, k]
                    if (gain ? bb[2, k] < w2 : bb[2, k] > w2) w2 = bb[2, k]
                    d = mp[1, k] - mp[2, k]
                    if (d > dmax) { dmax = d; dk = k }
                    if (d <= 1) n1++
                    if (gain && bb[2, k] > 0 && bb[1, k] >= 0.9 * bb[2, k]) n90++
                    if (f != " null " && f != " slower " && bb[2, k] > 0 && bb[1, k] / bb[2, k] < rmin) {
                        rmin = bb[1, k] / bb[2, k]; rk = k
                    }
                }
                gsub(/ /, "", dk); gsub(/ /, "", rk)
                printf "|%s| %d | %.2f%% | %.2f%% | %+.2f (%s) | %s | %s | %d |\n", f, n, w1, w2, dmax, dk,
                    rmin < 1e9 ? sprintf("%.2f (%s)", rmin, rk) : "-", gain ? n90 "" : "-", n1
            }' "$grid" "$v2"
    done
    echo
    echo "The 8 null cells where seq-v1 adopts most often:"
    echo
    echo "| family | G | pA | pB | variant | B mean gain | B_better | tie | A_better | inconclusive | mean pairs | max pairs |"
    echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
    grep '^| null |' "$v2" | sort -t'|' -k8 -g -r | head -n 8
    echo
fi
V2CT=${SIM_V1_CAL_TRIALS:-200}
if [ -n "${SIM_V1_CAL_FROM:-}" ] || [ "$V2CT" -gt 0 ]; then
    v2c=$(mktemp)
    if [ -n "${SIM_V1_CAL_FROM:-}" ]; then
        cp "$SIM_V1_CAL_FROM" "$v2c"
        took=${SIM_V1_CAL_SECS:-? s}
    else
        start=$(now)
        "$TLPERF" sim --grid calibration --protocol seq-v1 --trials "$V2CT" --seed "${SIM_CAL_SEED:-7}" --cells >"$v2c"
        end=$(now)
        took="$(secs "$start" "$end") s on one core"
    fi
    ct=$(sed -n 's/.* cells, \([0-9]*\) trials per cell.*/\1/p' "$v2c" | head -n 1)
    cs=$(sed -n 's/.* trials per cell, seed \([0-9]*\),.*/\1/p' "$v2c" | head -n 1)
    echo "### seq-v1 on the calibration grid"
    echo
    echo "Command: \`tlperf sim --grid calibration --protocol seq-v1 --trials $ct --seed $cs --cells\` ($took)."
    echo
    sed -n '/^| target |/,/targets met/p' "$v2c"
    echo
    rm -f "$v2c"
fi

echo "### Named scenarios, every protocol"
echo
cmd="tlperf sim --protocol all --scenario all --effect all --trials $TRIALS --seed $SEED"
out=$(mktemp)
if [ -n "${SIM_NAMED_FROM:-}" ]; then
    cp "$SIM_NAMED_FROM" "$out"
    took=${SIM_NAMED_SECS:-? s}
else
    start=$(now)
    "$TLPERF" sim --protocol all --scenario all --effect all --trials "$TRIALS" --seed "$SEED" >"$out"
    end=$(now)
    took="$(secs "$start" "$end") s on one core"
fi
echo "Command: \`$cmd\` ($took for 3 protocols x 6 scenarios x 7 effects x $TRIALS trials)."
echo "\"B gain within state\" is the effect given to the generator; \"B gain on average\" is the resulting"
echo "change of B's mean duration over run states and outlier runs (in \`stateshift\` B lands slow 80% of the"
echo "time instead of 20%, so B is slower on average up to a 2% within-state gain). \"not faster\" marks rows"
echo "where any B_better is a false adoption. seq = \`--protocol seq\` (the default, the rule with a proven"
echo "bound; a steady gain waits for its two-state bar, docs/tlab.md), ref = ab_test.py's rule, seq-v1 = the"
echo "rule seq replaced (kept for comparison; on \`quiet\` it pays for a state that could still hide)."
echo
cat "$out"
rm -f "$out"
