#!/bin/sh
# bench_gate.sh: tlgate throughput on generated perf_opt trees (MB/s, and
# the ratio to `cat` of the same files in the same run) and peak RSS at two
# tree sizes. Markdown on stdout (make bench collects it).
set -eu
B=${BUILD:-build}
TLGATE=$B/bin/tlgate
W=$(mktemp -d "${TMPDIR:-/tmp}/tlgate-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
sh scripts/bench/gen_gate_tree.sh "$W/small" 50 1000
sh scripts/bench/gen_gate_tree.sh "$W/big" 200 1000

now() { date +%s.%N; }
# one run of "$@": "wall cpu" seconds (cpu: task-clock from perf stat when
# available, millisecond resolution; else user + sys of the command)
once() {
    r=$(/usr/bin/time -f '%e %U %S' "$@" 2>&1 >/dev/null | tail -n 1)
    if [ "$HAVE_PERF" = 1 ]; then
        perf stat -x, -e task-clock -o "$W/ps" "$@" >/dev/null 2>&1 || true
        c=$(awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }' "$W/ps")
        echo "$r" | awk -v c="$c" '{ printf "%.3f %.4f", $1, c }'
    else
        echo "$r" | awk '{ printf "%.3f %.4f", $1, $2 + $3 }'
    fi
}
# the smaller of two "wall cpu" pairs, field by field ("" counts as none)
best() { echo "$1 $2" | awk '{ if ($3 == "") { print $1, $2; exit } printf "%.3f %.4f", ($1 < $3 ? $1 : $3), ($2 < $4 ? $2 : $4) }'; }
if perf stat -x, -e task-clock -o /dev/null true >/dev/null 2>&1; then HAVE_PERF=1; else HAVE_PERF=0; fi
rss() { /usr/bin/time -f '%M' "$TLGATE" "$1" 2>&1 >/dev/null | tail -n 1; }

"$TLGATE" "$W/big" >/dev/null || { echo "bench_gate: the generated tree does not pass the gate" >&2; exit 1; }
bytes=$(find "$W/big" -type f \( -name '*.md' -o -name '*.jsonl' \) -exec cat {} + | wc -c)
# ROUNDS rounds, each running tlgate, cat and the Python model once in turn
# (the Python gate's records check, modelled in one process over the same
# tree), so a slower or faster spell of the shared machine reaches all
# three alike; the best of each is kept, and the tlgate/Python ratio of
# every round is reported too.
ROUNDS=${GATE_ROUNDS:-5}
tg="" tc="" tp="" ratios=""
i=0
while [ "$i" -lt "$ROUNDS" ]; do
    g=$(once "$TLGATE" "$W/big")
    c=$(once sh -c "find '$W/big' -type f \\( -name '*.md' -o -name '*.jsonl' \\) -exec cat {} + >/dev/null")
    p=$(once python3 scripts/bench/py_records_gate.py "$W/big")
    tg=$(best "$g" "$tg") tc=$(best "$c" "$tc") tp=$(best "$p" "$tp")
    ratios="$ratios $(echo "$g $p" | awk '{ printf "%.1f", $4 / $2 }')"
    i=$((i + 1))
done
rs=$(rss "$W/small")
rb=$(rss "$W/big")
# the CI pattern the old gate had: one process per directory
t0=$(now)
for d in "$W"/big/op*/perf_opt; do "$TLGATE" "$d" >/dev/null; done
t1=$(now)
awk -v bytes="$bytes" -v tg="$tg" -v tc="$tc" -v tp="$tp" -v rs="$rs" -v rb="$rb" -v t0="$t0" -v t1="$t1" -v rounds="$ROUNDS" -v ratios="$ratios" 'BEGIN {
    mb = bytes / 1e6
    split(tg, g, " "); split(tc, c, " "); split(tp, p, " ")
    printf "## tlgate (gate 4)\n\n"
    printf "Generated tree: 200 perf_opt/ directories x 1000 records (v1, 99 rounds with a comparison table each), %.1f MB of opt_log.md + perf_records.jsonl. Best of %d rounds, each running tlgate, cat and the Python model once in turn; the machine is shared, so CPU time (one core; task-clock from perf stat when available) is the steadier figure.\n\n", mb, rounds
    printf "| measure | value |\n|---|---|\n"
    printf "| tlgate, one process over the tree: CPU time | %.3f s, %.0f MB/s |\n", g[2], mb / g[2]
    printf "| tlgate, one process over the tree: wall clock | %.3f s, %.0f MB/s |\n", g[1], mb / g[1]
    printf "| cat of the same files (find + cat): CPU time | %.3f s, %.0f MB/s |\n", c[2], mb / c[2]
    printf "| cat of the same files: wall clock | %.3f s, %.0f MB/s |\n", c[1], mb / c[1]
    printf "| tlgate throughput / cat throughput (CPU time) | %.2f |\n", c[2] / g[2]
    printf "| tlgate throughput / cat throughput (wall clock) | %.2f |\n", c[1] / g[1]
    printf "| Python gate model (scripts/bench/py_records_gate.py), one process: CPU time | %.3f s, %.0f MB/s |\n", p[2], mb / p[2]
    printf "| tlgate speed / Python gate speed (CPU time) | %.1fx |\n", p[2] / g[2]
    n = split(ratios, rr, " "); lo = rr[1]; hi = rr[1]
    for (k = 2; k <= n; k++) { if (rr[k] + 0 < lo + 0) lo = rr[k]; if (rr[k] + 0 > hi + 0) hi = rr[k] }
    printf "| the same ratio within each round (lowest - highest of %d) | %sx - %sx |\n", n, lo, hi
    printf "| tlgate time / cat time (CPU time) | %.1fx |\n", g[2] / c[2]
    printf "| tlgate started once per directory (200 processes) | %.3f s, %.0f MB/s |\n", t1 - t0, mb / (t1 - t0)
    printf "| peak RSS, 50 directories | %d KiB |\n", rs
    printf "| peak RSS, 200 directories | %d KiB |\n", rb
    printf "\nTargets (issue 15): >= 300 MB/s of CPU time; tlgate time <= 5x cat; >= 10x the Python gate in one process. "
    printf "The Python model does what gate_lint.py'"'"'s perf_records_lint does per directory (json.loads per line, required fields, types, the comparison table and final_latency reconciliation), not the other S4 rules tlgate also runs.\n"
}'
