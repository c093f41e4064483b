#!/bin/sh
# bench_records.sh: the records reader and its callers (issue 15): peak RSS
# and CPU time of plateau/speedup/table/winner on 200,000 records, and the
# growth factor of every reader when its input doubles (records, one line
# of many keys, opt_log.md + records through the gate, msprof trees,
# perf_tuning JSON). Linear means a factor near 2; the target is < 2.5.
# Markdown on stdout (make bench collects it).
set -eu
B=${BUILD:-build}
T=$B/bin/tlperf
G=$B/bin/tlgate
W=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-bench-records.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

# best3 CMD...: "cpu_seconds peak_rss_kib" (best of 3 runs; cpu = user + sys)
best3() {
    bc="" bm=""
    for _ in 1 2 3; do
        r=$(/usr/bin/time -f '%U %S %M' "$@" 2>&1 >/dev/null | tail -n 1)
        bc=$(echo "$r $bc" | awk '{ c = $1 + $2; if ($4 != "" && $4 < c) c = $4; printf "%.3f", c }')
        bm=$(echo "$r $bm" | awk '{ m = $3; if ($5 != "" && $5 < m) m = $5; print m }')
    done
    echo "$bc $bm"
}
# cpu CMD...: CPU seconds, best of 5, after a warm-up run; task-clock from
# `perf stat` (millisecond resolution) when it works here, else user + sys
# from /usr/bin/time (10 ms resolution).
if perf stat -x, -e task-clock -o /dev/null true >/dev/null 2>&1; then HAVE_PERF=1; else HAVE_PERF=0; fi
cpu() {
    "$@" >/dev/null 2>&1 || true
    best=""
    for _ in 1 2 3 4 5; do
        if [ "$HAVE_PERF" = 1 ]; then
            perf stat -x, -e task-clock -o "$W/ps" "$@" >/dev/null 2>&1 || true
            c=$(awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }' "$W/ps")
        else
            c=$(/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.4f", $1 + $2 }')
        fi
        best=$(echo "$c $best" | awk '{ b = $1; if ($2 != "" && $2 < b) b = $2; printf "%.4f", b }')
    done
    echo "$best"
}
# growth NAME CPU_N CPU_2N: a table row
growth() {
    awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN {
        f = a > 0 ? b / a : 0
        printf "| %s | %.4f | %.4f | %.2fx | %s |\n", n, a, b, f, f < 2.5 ? "yes" : "NO"
    }'
}

# one perf_opt/ of N records (10 workloads, N/10 rounds, a table per round)
sh scripts/bench/gen_gate_tree.sh "$W/r100k" 1 100000
sh scripts/bench/gen_gate_tree.sh "$W/r200k" 1 200000
R1=$W/r100k/op000/perf_opt/perf_records.jsonl
R2=$W/r200k/op000/perf_opt/perf_records.jsonl
mb=$(wc -c <"$R2" | awk '{ printf "%.1f", $1 / 1e6 }')

echo "## Records commands on 200,000 records (streaming reader)"
echo
echo "One perf_records.jsonl of 200,000 v1 records ($mb MB, 10 workloads, 19,999 rounds), page cache warm, best of 3 runs, one process each."
echo "The commands that only aggregate read the file as a stream: memory follows the keys (and, for plateau, the (round, key) cells), not the records."
echo
echo "| command | CPU s | MB/s (CPU) | peak RSS |"
echo "|---|---:|---:|---:|"
# speedup also reads the opt_log.md beside the records (the Final Summary's
# winner), through cmark-gfm: once as generated (a log of 20,000 sections),
# once with the records alone
mkdir -p "$W/alone"
cp "$R2" "$W/alone/perf_records.jsonl"
lmb=$(wc -c <"$(dirname "$R2")/opt_log.md" | awk '{ printf "%.1f", $1 / 1e6 }')
for c in "plateau" "speedup" "speedup alone" "table --round 100" "winner --round 100"; do
    f=$R2 label=$c
    case $c in
        "speedup alone") c=speedup f=$W/alone/perf_records.jsonl label="speedup\` (the records alone)" ;;
        speedup) label="speedup\` (and the $lmb MB opt_log.md beside them)" ;;
        *) label="$c\`" ;;
    esac
    # shellcheck disable=SC2086
    set -- $(best3 "$T" $c "$f")
    awk -v c="$label" -v s="$1" -v m="$2" -v mb="$mb" 'BEGIN {
        printf "| `tlperf %s | %.3f | %.0f | %.1f MB |\n", c, s, (s > 0 ? mb / s : 0), m / 1024 }'
done
echo
echo "Target (issue 15): plateau and speedup <= 64 MB peak RSS on 200,000 records. speedup takes the winner"
echo "from the opt_log.md beside the records when there is one, and reads it as it renders (cmark-gfm, the"
echo "whole document at once, since an earlier fence or list can change what a later line is): a log of"
echo "20,000 round sections with a table each, $lmb MB, takes about 1 GB of parse tree. Real logs are 30-80 KB."
echo

echo "## Every reader linear: time when the input doubles"
echo
echo "CPU seconds (best of 5 after a warm-up; task-clock from perf stat when available, else user + sys) for an input of size N and 2N; the factor is their ratio (linear = 2, target < 2.5)."
echo
echo "| reader (command) | N | 2N | factor | < 2.5x |"
echo "|---|---:|---:|---:|---|"
a=$(cpu "$T" plateau "$R1")
b=$(cpu "$T" plateau "$R2")
growth "perf_records.jsonl, 100,000 -> 200,000 records (\`tlperf plateau\`)" "$a" "$b"
a=$(cpu "$G" "$W/r100k")
b=$(cpu "$G" "$W/r200k")
growth "opt_log.md + perf_records.jsonl, 100,000 -> 200,000 records (\`tlgate\` on one directory)" "$a" "$b"

# duplicate-key check: lines of 37,000 and 74,000 keys (under 1 MiB each)
L=$(sed -n 1p "$R1")
for k in 37000 74000; do
    awk -v l="$L" -v k="$k" 'BEGIN { s = "{"; for (i = 0; i < k; i++) s = s "\"k" i "\":1,"; s = s substr(l, 2); for (j = 0; j < 40; j++) print s }' >"$W/keys$k.jsonl"
done
a=$(cpu "$T" plateau "$W/keys37000.jsonl")
b=$(cpu "$T" plateau "$W/keys74000.jsonl")
growth "one record line of 37,000 -> 74,000 keys, 40 lines (duplicate-key check, \`tlperf plateau\`)" "$a" "$b"

# msprof trees: 2,500 -> 5,000 launches
sh scripts/bench/gen_opprof.sh "$W/m1" 5 500 8 >/dev/null
sh scripts/bench/gen_opprof.sh "$W/m2" 10 500 8 >/dev/null
a=$(cpu "$T" msprof "$W/m1" --kernel-name main)
b=$(cpu "$T" msprof "$W/m2" --kernel-name main)
growth "msprof CSV tree, 2,500 -> 5,000 launches (\`tlperf msprof\`)" "$a" "$b"

# perf_tuning/ JSON: iter1.json with 15,000 -> 30,000 cases
for n in 15000 30000; do
    d=$W/pt$n/perf_tuning
    mkdir -p "$W/pt$n"
    cp -R testdata/ptune/good "$d"
    awk -v n="$n" 'BEGIN {
        printf "{\"label\": \"iter1\", \"warmup\": 5, \"iters\": 20, \"n_cases\": %d, \"n_valid\": %d, \"cases\": [", n, n
        for (i = 1; i <= n; i++)
            printf "%s{\"case_id\": %d, \"shape\": [[2048, 2048]], \"dtype\": \"float16\", \"value_range\": [-1.0, 1.0], \"baseline_us\": 50.0, \"ours_us\": 40.0, \"speedup\": 1.25}", (i > 1 ? ", " : ""), i
        print "]}"
    }' >"$d/iter1.json"
done
a=$(cpu "$G" "$W/pt15000")
b=$(cpu "$G" "$W/pt30000")
growth "perf_tuning/ iteration JSON, 15,000 -> 30,000 cases (\`tlgate\` on the folder)" "$a" "$b"
echo
echo "Command: \`sh scripts/bench/bench_records.sh\` (BUILD=$B)."
