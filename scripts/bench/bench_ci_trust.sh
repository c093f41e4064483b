#!/bin/sh
# bench_ci_trust.sh: the inputs of issue 13 that were quadratic or bounded
# by depth, doubled, through tlgate (CPU seconds, best of 3): a perf_tuning/
# bench JSON of N rows (every row's speedup wrong, so every row is a
# finding) and a perf_opt/ N directories deep. Linear means a growth factor
# near 2 per doubling. Prints a Markdown section.
set -eu
B=${BUILD:-build}
CC=${CC:-cc}
T="$B/bin/tlgate"
W=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-bench-trust.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
$CC -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$W/runstat" scripts/bench/runstat.c

# best CPU seconds of 3 runs of tlgate on DIR (exit 0 or 1)
best() {
    : >"$W/s"
    for _ in 1 2 3; do
        "$W/runstat" "$W/s" "$T" "$1" >/dev/null 2>&1 || [ $? -eq 1 ] ||
            { echo "tlgate failed on $1" >&2; exit 1; }
    done
    awk 'NR == 1 || $4 < m { m = $4 } END { printf "%.3f", m }' "$W/s"
}

json_tree() { # DIR ROWS
    mkdir -p "$1/op"
    cp -R testdata/ptune/good "$1/op/perf_tuning"
    awk -v n="$2" 'BEGIN { printf "{\"label\": \"iter1\", \"n_cases\": %d, \"avg_speedup\": 0.7, \"cases\": [\n", n
        for (i = 1; i <= n; i++) printf "{\"case_id\": %d, \"baseline_us\": 50.0, \"ours_us\": 80.0, \"speedup\": 0.9}%s\n", i, (i < n ? "," : "")
        print "]}" }' >"$1/op/perf_tuning/iter1.json"
}

deep_tree() { # DIR LEVELS
    mkdir -p "$1"
    ( cd "$1" && perl -e 'for (1 .. $ARGV[0]) { mkdir "d" or die; chdir "d" or die }
        system("cp", "-R", $ARGV[1], "perf_opt") == 0 or die' "$2" "$OLDPWD/testdata/gate/v1/perf_opt" )
}

echo "## Hostile inputs of CI (issue 13), doubled"
echo
echo "tlgate CPU seconds, best of 3, one core; growth = time / time of the previous row."
echo
echo "| input | size | CPU s | growth |"
echo "|---|---:|---:|---:|"
prev=""
for n in 30000 60000 120000; do
    json_tree "$W/j$n" "$n"
    s=$(best "$W/j$n")
    bytes=$(wc -c <"$W/j$n/op/perf_tuning/iter1.json")
    awk -v n="$n" -v b="$bytes" -v s="$s" -v p="$prev" 'BEGIN {
        printf "| bench JSON, %d rows (every row a finding) | %.1f MB | %s | %s |\n", n, b / 1e6, s, p == "" || p == 0 ? "-" : sprintf("%.2f", s / p) }'
    prev=$s
done
prev=""
if command -v perl >/dev/null 2>&1; then
    for n in 1000 2000 4000; do
        deep_tree "$W/d$n" "$n"
        s=$(best "$W/d$n")
        awk -v n="$n" -v s="$s" -v p="$prev" 'BEGIN {
            printf "| perf_opt/ under %d nested directories | %d levels | %s | %s |\n", n, n, s, p == "" || p == 0 ? "-" : sprintf("%.2f", s / p) }'
        prev=$s
    done
fi
echo
echo "Command: \`sh scripts/bench/bench_ci_trust.sh\` (BUILD=$B)."
