#!/bin/sh
# real-ab.sh: a real, noisy A/B check of `tlab --source stdout` on this
# machine. Two CPU programs built by `make` (mk/seq.mk) differ by a known
# amount of work: spin-a does 6% more iterations than spin-b, so B is ~5.7%
# faster and tlab must say B_better; spin-b against spin-b2 (the same
# program built twice) must not give B_better.
#
# usage: scripts/real-ab.sh [--protocol fast|seq|ref] [--seed S] [--sessions N]
#                           [--side-by-side N]
# Prints a Markdown section (make bench collects it into docs/benchmarks.md)
# and exits 1 when an expectation fails. A benchmark, not a CI test: the
# machine is shared and noisy. --sessions N (make bench: 100) adds a table
# of N sessions (seeds 1..N) of both comparisons under fast, seq and ref: how
# often each verdict came out on real noise, and the mean pairs.
#
# --side-by-side N (issue 36 item 4; make bench: $REAL_AB_SIDE, 10) adds seq, fast and ref
# on the same kernels at the same time: for each session seed 1..N the
# three protocols run one after the other, so they see the same machine.
# Kernels: spin-b (CPU-bound, "steady", runs of ~2-3% CV when quiet) and
# SPIN_MEM=1 spin-b (memory-bound, "noisy", a 32 MiB table read at random).
# Comparisons through SPIN_WORK: A = B (100 / 100), B 5% faster
# (105.26 / 100), B 3% slower (100 / 103). Conditions: "quiet" (nothing
# started by this script; the machine's load average is printed, since a
# shared machine is never idle) and "load", under the load generator
# below: one process per core, alternately a CPU-bound and a
# memory-bound spin loop (`spin-b 20000 0`, `SPIN_MEM=1 spin-b 2000 0`,
# restarted as they end), killed by process id when the condition ends.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD:-build}
case "$B" in /*) ;; *) B=$ROOT/$B ;; esac
TLAB=$B/bin/tlab
PROTO=fast
SEED=1
SESSIONS=0
SIDE=0
while [ $# -gt 0 ]; do
    case $1 in
        --protocol) PROTO=$2; shift 2 ;;
        --seed) SEED=$2; shift 2 ;;
        --sessions) SESSIONS=$2; shift 2 ;;
        --side-by-side) SIDE=$2; shift 2 ;;
        *) echo "usage: $0 [--protocol fast|seq|ref] [--seed S] [--sessions N] [--side-by-side N]" >&2; exit 2 ;;
    esac
done
for p in "$TLAB" "$B/bin/spin-a" "$B/bin/spin-b" "$B/bin/spin-b2"; do
    [ -x "$p" ] || { echo "real-ab.sh: '$p' missing: run make first" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/real-ab.XXXXXX")
LOADPIDS=
load_stop() { # kills the load generator's loops (by process id) and their spin
    for p in $LOADPIDS; do kill "$p" 2>/dev/null; done
    for p in $LOADPIDS; do wait "$p" 2>/dev/null; done
    LOADPIDS=
}
load_start() { # one loop per core, alternately CPU-bound and memory-bound
    i=0
    while [ "$i" -lt "$(nproc)" ]; do
        if [ $((i % 2)) -eq 0 ]; then
            ( trap 'kill $c 2>/dev/null; exit 0' TERM
              while :; do "$B/bin/spin-b" 20000 0 >/dev/null 2>&1 & c=$!; wait $c; done ) &
        else
            ( trap 'kill $c 2>/dev/null; exit 0' TERM
              while :; do SPIN_MEM=1 "$B/bin/spin-b" 2000 0 >/dev/null 2>&1 & c=$!; wait $c; done ) &
        fi
        LOADPIDS="$LOADPIDS $!"
        i=$((i + 1))
    done
    sleep 1
}
trap 'load_stop; rm -rf "$work"' EXIT

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
    for proto in fast seq ref; do
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
if [ "$SIDE" -gt 0 ]; then
    echo "### seq, fast and ref side by side (\`--side-by-side $SIDE\`)"
    echo
    echo "$SIDE sessions per row (seeds 1..$SIDE); in each session seq, fast and ref ran one after the other on the"
    echo "same kernels. steady: \`spin-b\` (CPU-bound); noisy: \`SPIN_MEM=1 spin-b\` (memory-bound). A = B and B 3% slower:"
    echo "B_better is a false adoption. load: one loop per core of \`spin-b 20000 0\` and \`SPIN_MEM=1 spin-b 2000 0\`"
    echo "(scripts/real-ab.sh). run CV: the median over sessions of the CV of A's run figures in seq's session."
    echo
    echo "| condition | kernel | comparison | protocol | B_better | tie | A_better | inconclusive | mean pairs | run CV | load avg |"
    echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|"
    for cond in ${REAL_AB_CONDITIONS:-quiet load}; do
        [ $cond = load ] && load_start
        for kern in ${REAL_AB_KERNELS:-steady noisy}; do
            mem=; [ $kern = noisy ] && mem="SPIN_MEM=1 "
            for cmp in "A_=_B 100 100" "B_5%_faster 105.26 100" "B_3%_slower 100 103"; do
                set -- $cmp
                la0=$(cut -d' ' -f1 /proc/loadavg)
                for proto in ${REAL_AB_PROTOCOLS:-seq fast ref}; do : >"$work/side.$proto"; done
                s=1
                while [ "$s" -le "$SIDE" ]; do
                    for proto in ${REAL_AB_PROTOCOLS:-seq fast ref}; do
                        "$TLAB" --protocol "$proto" --source stdout --seed "$s" --workdir "$work/s" \
                            --a-cmd "${mem}SPIN_WORK=$2 $B/bin/spin-b" --b-cmd "${mem}SPIN_WORK=$3 $B/bin/spin-b" \
                            >"$work/s.json" 2>/dev/null
                        cv=-
                        [ $proto = seq ] && cv=$(grep '"arm":"A"' "$work/s/runs.jsonl" | sed -n 's/.*"median_us":\([0-9.e+-]*\).*/\1/p' |
                            awk '{ x[NR] = $1; m += $1 } END { if (NR < 2) { print "-"; exit } m /= NR
                                   for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2; printf "%.4f", sqrt(v / (NR - 1)) / m }')
                        echo "$(field verdict "$work/s.json") $(field pairs "$work/s.json") $cv" >>"$work/side.$proto"
                        rm -rf "$work/s" "$work/s.json"
                    done
                    s=$((s + 1))
                done
                la1=$(cut -d' ' -f1 /proc/loadavg)
                cvmed=$(awk '$3 != "-" { print $3 }' "$work/side.seq" | sort -n |
                    awk '{ x[NR] = $1 } END { if (NR) printf "%.1f%%", 100 * x[int((NR + 1) / 2)]; else print "-" }')
                for proto in ${REAL_AB_PROTOCOLS:-seq fast ref}; do
                    awk -v c="$cond" -v k="$kern" -v m="$(echo "$1" | tr _ ' ')" -v p="$proto" -v cv="$cvmed" -v la="$la0-$la1" '
                        { n++; v[$1]++; pairs += $2 }
                        END { printf "| %s | %s | %s | %s | %d | %d | %d | %d | %.2f | %s | %s |\n", c, k, m, p,
                              v["B_better"], v["tie"], v["A_better"], v["inconclusive"], pairs / n, cv, la }' "$work/side.$proto"
                done
            done
        done
        [ $cond = load ] && load_stop
    done
    echo
fi
[ $fails -eq 0 ]
