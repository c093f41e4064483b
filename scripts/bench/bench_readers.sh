#!/bin/sh
# bench_readers.sh: the perf_records.jsonl reading path, stage by stage,
# over one generated tree (200 directories x 1,000 records, warm page
# cache), against read(2) of the same bytes. Prints a Markdown section.
set -eu
B=${BUILD:-build}
CC=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-bench-readers.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
$CC -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc -o "$work/readers" \
    scripts/bench/readers.c "$B/libtlperf.a" -lcjson -lcsv -lgsl -lgslcblas -lm
sh scripts/bench/gen_tree.sh "$work/tree" 200 1000 >/dev/null
files=$(find "$work/tree" -name perf_records.jsonl | sort)
# shellcheck disable=SC2086
cat $files >/dev/null
echo "## Reading perf_records.jsonl (line reader and records parser)"
echo
echo "200 files x 1,000 v1 records, page cache warm, best of 5 passes, one core."
echo "\`getc\` is a byte-at-a-time getc_unlocked loop, as src/io/lineio.c read before it"
echo "switched to 64 KiB blocks and memchr; \`read\` is read(2) alone (the floor)."
echo
echo "| stage | MB | seconds | MB/s | x read(2) time |"
echo "|---|---:|---:|---:|---:|"
floor=""
for m in read getc lineio records; do
    # shellcheck disable=SC2086
    set -- $("$work/readers" "$m" 5 $files)
    [ -n "$floor" ] || floor=$3
    awk -v m="$1" -v b="$2" -v s="$3" -v mbs="$4" -v f="$floor" \
        'BEGIN { printf "| %s | %.1f | %.4f | %.0f | %.1f |\n", m, b / 1e6, s, mbs, s / f }'
done
echo
echo "Command: \`sh scripts/bench/bench_readers.sh\` (BUILD=$B)."
