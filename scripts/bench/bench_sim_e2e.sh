#!/bin/sh
# End-to-end check of `--protocol seq` (or E2E_PROTOCOL) through the real tlab binary: a few
# cells of the evaluation grid (run states with gap G, P(slow) pA / pB, 3%
# outlier runs 10-30% above their state, slight drift, B's MEAN equal to
# A's, or a 5% mean gain), each run produced by an awk generator that shares
# no code with the project (scripts/bench/sim_e2e_gen.awk) and read with
# `tlab --source stdout`. Prints a Markdown table comparing the binary's
# B_better rate with `tlperf sim --grid evaluation` for the same cell (95%
# Wilson intervals): they should overlap.
#   BUILD=build E2E_TRIALS=200 [E2E_PROTOCOL=ref] [E2E_SIM_TABLE=FILE] sh scripts/bench/bench_sim_e2e.sh
# E2E_SIM_TABLE: the output of `tlperf sim --grid evaluation --cells` (e.g.
# from the same `make bench`), read instead of simulating the cells again.
set -eu
B=${BUILD:-build}
TLPERF=$B/bin/tlperf
TLAB=$B/bin/tlab
TRIALS=${E2E_TRIALS:-300}
PROTO=${E2E_PROTOCOL:-seq}
# the grid table bench_sim.sh leaves behind, when there is one
table=$B/sim-grid-evaluation.txt
[ "$PROTO" = seq ] || table=/nonexistent
if [ -z "${E2E_SIM_TABLE:-}" ] && [ -s "$table" ]; then
    E2E_SIM_TABLE=$table
fi
SIMTRIALS=${E2E_SIM_TRIALS:-2000}
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=$HERE/sim_e2e_gen.awk
W=$(mktemp -d "${TMPDIR:-/tmp}/tlab-e2e.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

wilson() { # k n -> "lo..hi" in %
    awk -v k="$1" -v n="$2" 'BEGIN { z = 1.959963984540054; p = k / n; d = 1 + z*z/n
        c = (p + z*z/(2*n)) / d; h = z / d * sqrt(p*(1-p)/n + z*z/(4*n*n))
        lo = c - h; if (lo < 0) lo = 0; hi = c + h; if (hi > 1) hi = 1
        printf "%.1f%%..%.1f%%", 100*lo, 100*hi }'
}

echo "### $PROTO end to end: the tlab binary on an independent generator (\`scripts/bench/bench_sim_e2e.sh\`)"
echo
echo "Each trial is one \`tlab --protocol $PROTO --source stdout --launch-count 15 --warm-up 0 --seed T\` session whose arms run"
echo "\`awk -f scripts/bench/sim_e2e_gen.awk\` (its own random generator, no project code): two run states with gap G,"
echo "P(slow) pA / pB, 3% outlier runs 10-30% above their state, drift 0.05% per run, 15 launches with 1% noise,"
echo "B's mean equal to A's (or 5% lower). The right-hand columns are the in-process simulation of the same cell"
echo "(evaluation grid, \`far\` variant): the two should agree within their intervals."
echo
echo "| cell (G, pA, pB, B mean gain) | tlab binary: B_better | 95% Wilson | mean pairs | tlperf sim (far variant): B_better | 95% Wilson |"
echo "|---|---:|---|---:|---:|---|"
start=$(date +%s)
for cell in "0.08 0.1 0.3 0" "0.08 0.2 0.4 0" "0.06 0.2 0.4 0" "0.08 0.5 0.5 0.05"; do
    set -- $cell
    G=$1 PA=$2 PB=$3 GAIN=$4
    # B's fast level so that its mean is A's times (1 - gain); outliers are
    # relative to the run's state, so they keep the ratio
    MB=$(awk -v g="$G" -v a="$PA" -v b="$PB" -v e="$GAIN" 'BEGIN { printf "%.9f", 10 * (1 + a*g) / (1 + b*g) * (1 - e) }')
    k=0 pairs=0
    t=1
    while [ "$t" -le "$TRIALS" ]; do
        d=$W/t$t
        common="-v gap=$G -v q=0.03 -v olo=0.10 -v ohi=0.30 -v drift=0.0005 -v seed=$t -f $GEN"
        if "$TLAB" --protocol "$PROTO" --source stdout --launch-count 15 --warm-up 0 --workdir "$d" --seed "$t" \
            --a-cmd "awk -v mean=10 -v p=$PA $common" \
            --b-cmd "awk -v mean=$MB -v p=$PB $common" >"$W/out.json" 2>/dev/null; then
            v=$(sed -n 's/^[[:space:]]*"verdict":[[:space:]]*"\([A-Za-z_]*\)".*/\1/p' "$W/out.json" | head -n 1)
            np=$(sed -n 's/^[[:space:]]*"pairs":[[:space:]]*\([0-9]*\).*/\1/p' "$W/out.json" | head -n 1)
            [ "$v" = B_better ] && k=$((k + 1))
            pairs=$((pairs + np))
        else
            echo "tlab failed in trial $t of cell $cell" >&2
            exit 1
        fi
        rm -rf "$d"
        t=$((t + 1))
    done
    fam=$( [ "$GAIN" = 0 ] && echo null || echo gain5_g8 )
    if [ -n "${E2E_SIM_TABLE:-}" ]; then
        # E2E_SIM_WAIT: a file that appears once the table is complete
        while [ -n "${E2E_SIM_WAIT:-}" ] && [ ! -e "$E2E_SIM_WAIT" ]; do sleep 10; done
        SIMTRIALS=$(sed -n 's/.* cells, \([0-9]*\) trials per cell.*/\1/p' "$E2E_SIM_TABLE" | head -n 1)
        simsrc() { grep "^| $fam |" "$E2E_SIM_TABLE"; }
    else
        simsrc() { "$TLPERF" sim --grid evaluation --protocol "$PROTO" --trials "$SIMTRIALS" --seed 1 --cells --family "$fam"; }
    fi
    simrow=$(simsrc |
        awk -F'|' -v g="$(awk -v g="$G" 'BEGIN { printf "%.0f%%", 100*g }')" -v a="$PA" -v b="$PB" \
            '$3 ~ (" " g " ") && $4 + 0 == a + 0 && $5 + 0 == b + 0 && $6 ~ / far / { print $8 }' | head -n 1)
    simk=$(awk -v r="${simrow%\%}" -v n="$SIMTRIALS" 'BEGIN { printf "%d", r * n / 100 + 0.5 }')
    echo "| $(awk -v g="$G" 'BEGIN { printf "%.0f%%", 100*g }'), $PA, $PB, $(awk -v e="$GAIN" 'BEGIN { printf "%+.0f%%", 100*e }') | $(awk -v k=$k -v n=$TRIALS 'BEGIN { printf "%.1f%% (%d/%d)", 100*k/n, k, n }') | $(wilson $k $TRIALS) | $(awk -v s=$pairs -v n=$TRIALS 'BEGIN { printf "%.2f", s/n }') | $simrow | $(wilson "$simk" "$SIMTRIALS") |"
done
end=$(date +%s)
echo
echo "$TRIALS trials per cell through \`$TLAB --source stdout\` in $((end - start)) s."
