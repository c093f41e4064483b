#!/bin/sh
# bench_msprof.sh: `tlperf msprof` over a generated 5,000-launch OPPROF tree
# (10 devices x 500 launches, OpBasicInfo + PipeUtilization + Memory per
# launch, 8 block rows each), against `cat` of the same 15,000 files.
# Prints a Markdown section. The tree lives in a temporary directory.
set -eu
B=${BUILD:-build}
T=$B/bin/tlperf
CC=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-bench-msprof.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
$CC -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$work/runstat" scripts/bench/runstat.c
echo "## tlperf msprof over a 5,000-launch tree"
echo
sh scripts/bench/gen_opprof.sh "$work/out" 10 500 8
find "$work/out" -name '*.csv' | sort >"$work/list"
files=$(wc -l <"$work/list")
bytes=$(xargs cat <"$work/list" | wc -c)
for i in 1 2 3; do
    if ! "$work/runstat" "$work/t" "$T" msprof "$work/out" --kernel-name main \
        >"$work/text" 2>"$work/err"; then
        echo "\`tlperf msprof\` failed:"; echo; sed 's/^/    /' "$work/err"; exit 0
    fi
    "$work/runstat" "$work/c" sh -c 'xargs cat <"$1" >/dev/null' sh "$work/list"
done
launches=$(sed -n 's/^summary: \([0-9]*\) launches.*/\1/p' "$work/text" | head -n 1)
awk -v f="$files" -v b="$bytes" 'BEGIN { printf "%d CSV files, %.1f MB, page cache warm, best of 3 runs, one process each.\n\n", f, b / 1e6 }'
echo "| what | seconds | launches/s | MB/s | peak RSS |"
echo "|---|---:|---:|---:|---:|"
awk -v l="${launches:-?}" -v b="$bytes" -v tf="$work/t" -v cf="$work/c" 'BEGIN {
  t = 1e9; c = 1e9; r = 0
  while ((getline line < tf) > 0) { split(line, a, " "); if (a[1] < t) t = a[1]; if (a[2] > r) r = a[2] }
  while ((getline line < cf) > 0) { split(line, a, " "); if (a[1] < c) c = a[1] }
  printf "| `tlperf msprof DIR --kernel-name main` (%s launches in its summary) | %.3f | %.0f | %.1f | %d KB |\n", l, t, 5000 / t, b / t / 1e6, r
  printf "| `cat` of the same files (xargs) | %.3f | %.0f | %.1f | |\n", c, 5000 / c, b / c / 1e6
  printf "\nRatio of `tlperf msprof` time to `cat` time: %.1fx.\n\n", t / c }'
echo "Command: \`sh scripts/bench/bench_msprof.sh\` (BUILD=$B)."
