#!/bin/sh
# real-ab.sh: a real, noisy A/B check of `tlab --source stdout` on this
# machine. Two CPU programs built by `make` (mk/seq.mk) differ by a known
# amount of work: spin-a does 6% more iterations than spin-b, so B is ~5.7%
# faster and tlab must say B_better; spin-b against spin-b2 (the same
# program built twice) must not give B_better.
#
# usage: scripts/real-ab.sh [--protocol seq|ref] [--seed S] [--sessions N]
# Prints a Markdown section (make bench collects it into docs/benchmarks.md)
# and exits 1 when an expectation fails. A benchmark, not a CI test: the
# machine is shared and noisy. --sessions N (make bench: 100) adds a table
# of N sessions (seeds 1..N) of both comparisons under seq and ref: how
# often each verdict came out on real noise, and the mean pairs.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD:-build}
case "$B" in /*) ;; *) B=$ROOT/$B ;; esac
TLAB=$B/bin/tlab
PROTO=seq
SEED=1
SESSIONS=0
while [ $# -gt 0 ]; do
    case $1 in
        --protocol) PROTO=$2; shift 2 ;;
        --seed) SEED=$2; shift 2 ;;
        --sessions) SESSIONS=$2; shift 2 ;;
        *) echo "usage: $0 [--protocol seq|ref] [--seed S] [--sessions N]" >&2; exit 2 ;;
    esac
done
for p in "$TLAB" "$B/bin/spin-a" "$B/bin/spin-b" "$B/bin/spin-b2"; do
    [ -x "$p" ] || { echo "real-ab.sh: '$p' missing: run make first" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/real-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT

field() { # field NAME FILE: a top-level scalar of tlab's JSON output (cJSON_Print: TABs)
    sed -n "s/^[[:space:]]\"$1\":[[:space:]]*\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$2" | head -n 1
}

fails=0
row() { # row NAME A B WANT_PATTERN WANT_TEXT
    name=$1 a=$2 b=$3 want=$4
    start=$(date +%s)
    "$TLAB" --protocol "$PROTO" --source stdout --seed "$SEED" --workdir "$work/$name" \
        --a-cmd "$a" --b-cmd "$b" >"$work/$name.json" 2>"$work/$name.err"
    rc=$?
    secs=$(( $(date +%s) - start ))
    v=$(field verdict "$work/$name.json")
    pairs=$(field pairs "$work/$name.json")
    gain=$(field gain "$work/$name.json")
    [ -n "$gain" ] || gain=$(field b_rel_change "$work/$name.json")
    why=$(field stop_reason "$work/$name.json")
    ok=PASS
    if [ $rc -ne 0 ] || ! echo "$v" | grep -Eq "^($want)\$"; then ok=FAIL; fails=$((fails + 1)); fi
    [ -n "$gain" ] && gain=$(awk -v g="$gain" 'BEGIN { printf "%+.2f%%", 100 * g }')
    printf '| %s | %s | %s | %s | %s | %s | %s s | %s |\n' "$name" "$5" "${v:-error (exit $rc)}" \
        "${gain:--}" "${pairs:--}" "${why:--}" "$secs" "$ok"
    if [ $ok = FAIL ]; then sed 's/^/    /' "$work/$name.err" | tail -n 5 >&2; fi
}

echo "## Real A/B check on this machine (\`scripts/real-ab.sh\`)"
echo
echo "\`tlab --protocol $PROTO --source stdout --seed $SEED\` on two CPU programs (15 launches + 5 warm-up per run,"
echo "each launch timed by the program itself); spin-a does 6% more iterations than spin-b (B ~5.7% faster),"
echo "spin-b2 is spin-b built again. $(nproc) cores shared with other work, so the runs are genuinely noisy."
echo
echo "| comparison | expected | verdict | B gain (estimate) | pairs | stop reason | time | |"
echo "|---|---|---|---|---|---|---|---|"
row spin-a_vs_spin-b "$B/bin/spin-a" "$B/bin/spin-b" "B_better" "B_better"
row spin-b_vs_spin-b2 "$B/bin/spin-b" "$B/bin/spin-b2" "tie|A_better|inconclusive" "not B_better"
echo
if [ "$SESSIONS" -gt 0 ]; then
    echo "$SESSIONS sessions per row (seeds 1..$SESSIONS), the same two comparisons; B_better in the spin-b / spin-b2 rows"
    echo "is a false adoption."
    echo
    echo "| protocol | comparison | sessions | B_better | tie | A_better | inconclusive | mean pairs | time |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
    for proto in seq ref; do
        for cmp in "spin-a_vs_spin-b spin-a spin-b" "spin-b_vs_spin-b2 spin-b spin-b2"; do
            set -- $cmp
            start=$(date +%s)
            : >"$work/tally"
            s=1
            while [ "$s" -le "$SESSIONS" ]; do
                "$TLAB" --protocol "$proto" --source stdout --seed "$s" --workdir "$work/s" \
                    --a-cmd "$B/bin/$2" --b-cmd "$B/bin/$3" >"$work/s.json" 2>/dev/null
                echo "$(field verdict "$work/s.json") $(field pairs "$work/s.json")" >>"$work/tally"
                rm -rf "$work/s" "$work/s.json"
                s=$((s + 1))
            done
            awk -v p="$proto" -v c="$1" -v t="$(( $(date +%s) - start ))" '
                { n++; v[$1]++; pairs += $2 }
                END { printf "| %s | %s | %d | %d | %d | %d | %d | %.2f | %d s |\n", p, c, n,
                      v["B_better"], v["tie"], v["A_better"], v["inconclusive"], pairs / n, t }' "$work/tally"
        done
    done
    echo
fi
[ $fails -eq 0 ]
