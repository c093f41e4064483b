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
# best of 3 wall-clock seconds of "$@" (output discarded)
best3() {
    best=""
    for _ in 1 2 3; do
        t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
        best=$(awk -v a="$t0" -v b="$t1" -v c="$best" 'BEGIN { d = b - a; if (c == "" || d < c) c = d; printf "%.4f", c }')
    done
    echo "$best"
}
catall() { find "$1" -type f \( -name '*.md' -o -name '*.jsonl' \) -exec cat {} + >/dev/null; }
rss() { /usr/bin/time -f '%M' "$TLGATE" "$1" 2>&1 >/dev/null | tail -n 1; }

"$TLGATE" "$W/big" >/dev/null || { echo "bench_gate: the generated tree does not pass the gate" >&2; exit 1; }
bytes=$(find "$W/big" -type f \( -name '*.md' -o -name '*.jsonl' \) -exec cat {} + | wc -c)
tg=$(best3 "$TLGATE" "$W/big")
tc=$(best3 catall "$W/big")
rs=$(rss "$W/small")
rb=$(rss "$W/big")
# the old CI pattern: one process per directory
t0=$(now)
for d in "$W"/big/op*/perf_opt; do "$TLGATE" "$d" >/dev/null; done
t1=$(now)
awk -v bytes="$bytes" -v tg="$tg" -v tc="$tc" -v rs="$rs" -v rb="$rb" -v t0="$t0" -v t1="$t1" 'BEGIN {
    mb = bytes / 1e6
    printf "## tlgate (gate 4)\n\n"
    printf "Generated tree: 200 perf_opt/ directories x 1000 records (v1, 99 rounds with a comparison table each), %.1f MB of opt_log.md + perf_records.jsonl. Best of 3 runs, one core.\n\n", mb
    printf "| measure | value |\n|---|---|\n"
    printf "| tlgate, one process over the tree | %.3f s, %.0f MB/s |\n", tg, mb / tg
    printf "| cat of the same files | %.3f s, %.0f MB/s |\n", tc, mb / tc
    printf "| tlgate / cat throughput | %.2f |\n", tc / tg
    printf "| tlgate started once per directory (200 processes) | %.3f s, %.0f MB/s |\n", t1 - t0, mb / (t1 - t0)
    printf "| peak RSS, 50 directories | %d KiB |\n", rs
    printf "| peak RSS, 200 directories | %d KiB |\n", rb
}'
