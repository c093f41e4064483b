#!/bin/sh
# bench_startup.sh: what one tlgate call costs in CPU, the way a pre-commit
# hook or a CI step calls it: `tlgate --version`, one real operator folder
# (a copy of ../shared/real-logs/grandliu__mish/opt_log.md as
# DIR/perf_opt/opt_log.md) and testdata/audit/repo/ops/layer_norm. The
# binary as `make` links it (GSL, libcsv, cmark-gfm, ICU and libstdc++
# from their static archives) is measured beside the same objects linked
# against the shared libraries (`make print-link STATIC=0`, the link before
# issue 35) and linked static without PIE, and beside /bin/true, in the
# same run. scripts/bench/cpurun.c runs each command RUNS times and gives
# the median of each run's user + system time (wait4) and its minor page
# faults; three rounds, interleaved, the lowest median kept. Markdown on
# stdout.
set -eu
B=${BUILD:-build}
CC=${CC:-cc}
RUNS=${RUNS:-200}
W=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-startup.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
$CC -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$W/cpurun" scripts/bench/cpurun.c
OBJS="$B/obj/src/main.o $B/libtlperf.a"
link() { # OUT STATIC EXTRA-LDFLAGS
    make -s --no-print-directory print-link BUILD="$B" STATIC="$2" >"$W/link"
    # shellcheck disable=SC2046,SC2086
    $CC $(sed -n 1p "$W/link") $3 -o "$1" $OBJS $(sed -n 2p "$W/link")
}
link "$W/shared" 0 ""
link "$W/static" 1 ""
link "$W/nopie" 1 "-no-pie"
echo "## Start-up: one tlgate call"
echo
MISH=../shared/real-logs/grandliu__mish/opt_log.md
set -- "--version" testdata/audit/repo/ops/layer_norm
if [ -f "$MISH" ]; then
    mkdir -p "$W/op/perf_opt" && cp "$MISH" "$W/op/perf_opt/opt_log.md"
    set -- "--version" "$W/op" testdata/audit/repo/ops/layer_norm
fi
for r in 1 2 3; do
    printf '%s ' true x "$r" >>"$W/res"; "$W/cpurun" "$RUNS" /bin/true >>"$W/res"
    for v in shared static nopie; do
        k=0
        for a in "$@"; do
            k=$((k + 1))
            printf '%s ' "$v" "$k" "$r" >>"$W/res"
            "$W/cpurun" "$RUNS" "$W/$v" gate "$a" >>"$W/res"
        done
    done
done
size() { wc -c <"$1" | awk '{ printf "%.1f MB", $1 / 1e6 }'; }
echo "CPU per call (user + system, median of $RUNS runs, lowest of 3 interleaved rounds) and minor page faults per call, on this shared $(nproc)-core machine. Binaries: \`make\`'s link ($(size "$W/static")), the same objects linked against the shared libraries ($(size "$W/shared") and the libraries), static without PIE ($(size "$W/nopie")). The mish folder is \`../shared/real-logs/grandliu__mish/opt_log.md\` as DIR/perf_opt/opt_log.md$([ -f "$MISH" ] || echo " (absent here: not measured)")."
echo
echo "| command | shared libraries | \`make\` (static) | static, no PIE | shared / static |"
echo "|---|---:|---:|---:|---:|"
names="tlgate --version"
[ -f "$MISH" ] && names="$names|tlgate MISH (real operator folder)"
names="$names|tlgate testdata/audit/repo/ops/layer_norm"
awk -v names="$names" -v f="$W/res" 'BEGIN {
  nn = split(names, nm, "|")
  while ((getline l < f) > 0) {
    split(l, a, " "); key = a[1] SUBSEP a[2]
    if (!(key in cpu) || a[4] < cpu[key]) { cpu[key] = a[4]; flt[key] = a[7] }
  }
  t = cpu["true" SUBSEP "x"]
  for (k = 1; k <= nn; k++) {
    s = "shared" SUBSEP k; st = "static" SUBSEP k; np = "nopie" SUBSEP k
    printf "| `%s` | %.2f ms, %d faults | %.2f ms, %d faults | %.2f ms, %d faults | %.1fx |\n", nm[k],
      cpu[s], flt[s], cpu[st], flt[st], cpu[np], flt[np], cpu[s] / cpu[st]
  }
  printf "| `/bin/true` (the floor of any process here) | | %.2f ms, %d faults | | |\n", t, flt["true" SUBSEP "x"] }'
echo
echo "Command: \`sh scripts/bench/bench_startup.sh\` (BUILD=$B, RUNS=$RUNS)."
