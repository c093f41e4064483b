#!/bin/sh
# bench_gate_scale.sh: tlgate as the tree grows, 200 and 2,000 perf_opt/
# directories x 1,000 records (trees from gen_gate_tree.sh, which pass the
# gate), against `cat` of the same files in the same run, with peak RSS
# (getrusage of the child: no /usr/bin/time needed). Complements
# bench_gate.sh (200 directories, one process per directory). Markdown on
# stdout; the trees live in a temporary directory (about 600 MB at 2,000).
set -eu
B=${BUILD:-build}
CC=${CC:-cc}
TLGATE=$B/bin/tlgate
W=$(mktemp -d "${TMPDIR:-/tmp}/tlgate-scale.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
$CC -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$W/runstat" scripts/bench/runstat.c
echo "## tlgate as the tree grows (200 and 2,000 directories)"
echo
echo "Trees from \`scripts/bench/gen_gate_tree.sh DIR N 1000\` (they pass the gate), page cache warm, best of 3 runs, one process over the whole tree. MB/s are per CPU second (user + sys) and per wall second; the machine is shared, so CPU time is the steadier figure. \`cat\` reads the same opt_log.md and perf_records.jsonl files (\`xargs cat\`)."
echo
echo "| directories | MB | tlgate CPU s | tlgate MB/s (CPU) | tlgate MB/s (wall) | cat MB/s (CPU) | tlgate/cat time (CPU) | peak RSS |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in 200 2000; do
    sh scripts/bench/gen_gate_tree.sh "$W/t$n" "$n" 1000
    find "$W/t$n" -type f \( -name '*.md' -o -name '*.jsonl' \) | sort >"$W/list$n"
    bytes=$(xargs cat <"$W/list$n" | wc -c)
    rm -f "$W/g" "$W/c"
    for _ in 1 2 3; do
        "$W/runstat" "$W/g" "$TLGATE" "$W/t$n" >/dev/null 2>"$W/err" ||
            { echo "tlgate failed on the generated tree:"; sed 's/^/    /' "$W/err" | head; exit 0; }
        "$W/runstat" "$W/c" sh -c 'xargs cat <"$1" >/dev/null' sh "$W/list$n"
    done
    awk -v n="$n" -v b="$bytes" -v gf="$W/g" -v cf="$W/c" 'BEGIN {
      gw = gc = cc = 1e9; r = 0
      while ((getline l < gf) > 0) { split(l, a, " "); if (a[1] < gw) gw = a[1]; if (a[4] < gc) gc = a[4]; if (a[2] > r) r = a[2] }
      while ((getline l < cf) > 0) { split(l, a, " "); if (a[4] < cc) cc = a[4] }
      if (cc < 0.001) cc = 0.001
      mb = b / 1e6
      printf "| %d | %.0f | %.2f | %.0f | %.0f | %.0f | %.1fx | %.1f MB |\n", n, mb, gc, mb / gc, mb / gw, mb / cc, gc / cc, r / 1024 }'
    rm -rf "$W/t$n"
done
echo
echo "Command: \`sh scripts/bench/bench_gate_scale.sh\` (BUILD=$B)."
