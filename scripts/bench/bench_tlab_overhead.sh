#!/bin/sh
# bench_tlab_overhead.sh: what tlab itself costs per run. A profiler that
# does nothing (scripts/bench/nullprof.c: runs the app, writes one launch)
# wraps `true`; tlab runs it for PAIRS pairs (2 x PAIRS runs, runs.jsonl
# journal, logs, reading the capture, the verdict), and the same profiler
# command line is spawned directly the same number of times through
# /bin/sh -c (scripts/bench/spawnloop.c). Prints a Markdown section.
set -eu
B=${BUILD:-build}
CC=${CC:-cc}
PAIRS=${PAIRS:-100}
work=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-bench-tlab.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
for p in runstat nullprof spawnloop; do
    $CC -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$work/$p" "scripts/bench/$p.c"
done
runs=$((2 * PAIRS))
echo "## tlab overhead per run"
echo
for i in 1 2 3; do
    rm -rf "$work/ab" "$work/direct"
    if ! "$work/runstat" "$work/t" "$B/bin/tlab" --protocol ref --a-cmd true --b-cmd true --pairs "$PAIRS" \
        --launch-count 1 --warm-up 0 --kernel-name main --msprof "$work/nullprof" \
        --workdir "$work/ab" >"$work/out" 2>"$work/err"; then
        echo "\`tlab\` failed:"; echo; sed 's/^/    /' "$work/err" | tail -n 20; exit 0
    fi
    "$work/runstat" "$work/d" "$work/spawnloop" "$runs" \
        "$work/nullprof op --kernel-name=main --output=$work/direct/run%ld --launch-count=1 --warm-up=0 --dump=off --aic-metrics=PipeUtilization true >$work/direct-log.%ld 2>&1"
done
got=$(grep -c . "$work/ab/runs.jsonl" || true)
echo "$PAIRS pairs ($runs runs), \`true\` as both bench commands, the null profiler, best of 3."
echo "tlab wrote $got lines to runs.jsonl."
echo
echo "| what | seconds for $runs runs | ms per run | peak RSS |"
echo "|---|---:|---:|---:|"
awk -v n="$runs" -v tf="$work/t" -v df="$work/d" 'BEGIN {
  t = 1e9; d = 1e9; r = 0
  while ((getline line < tf) > 0) { split(line, a, " "); if (a[1] < t) t = a[1]; if (a[2] > r) r = a[2] }
  while ((getline line < df) > 0) { split(line, a, " "); if (a[1] < d) d = a[1] }
  printf "| `tlab --protocol ref --pairs %d --launch-count 1 --msprof nullprof` | %.3f | %.2f | %d KB |\n", n / 2, t, 1000 * t / n, r
  printf "| the same profiler command spawned directly (/bin/sh -c) | %.3f | %.2f | |\n", d, 1000 * d / n
  printf "\ntlab overhead: %.2f ms per run (%.2fx the direct spawn time).\n\n", 1000 * (t - d) / n, t / d }'
echo "Command: \`sh scripts/bench/bench_tlab_overhead.sh\` (BUILD=$B, PAIRS=$PAIRS)."
