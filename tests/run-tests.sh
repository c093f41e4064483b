#!/bin/sh
# run-tests.sh LABEL TEST...: runs each TEST (a tests/cli/test_*.sh script,
# run with sh, or a unit-test binary), JOBS at a time, and prints
#   [k/N] NAME ... PASS 3.2s (cpu 2.9s)
# as each one ends (k counts the tests ended so far), a failing test's last
# 40 lines of output right after its line, and the closing line
#   LABEL: N passed, N failed, N skipped (wall 61s, cpu 98s)
# Exit 0 when none failed. A test exits 0 (pass), 77 (skip) or anything else
# (fail). Each one gets a fresh TMPDIR_TEST, removed afterwards, and its own
# output file, so parallel tests never interleave their output.
#   JOBS   how many tests run at once (default: the number of CPUs)
# The slowest tests start first (their times from the last run are kept in
# $TIMES_FILE when set), which keeps both CPUs busy until the end.
set -u
if [ "${1:-}" = --one ]; then
    # one test, in a worker started by xargs below
    t=$2 name=$(basename "$2" .sh)
    TMPDIR_TEST=$(mktemp -d "$TMPDIR/tlperf-test.XXXXXX") || exit 0
    export TMPDIR_TEST
    log=$RUN_DIR/$name.log
    t0=$(date +%s.%N)
    (
        case $t in *.sh) sh "$t" ;; *) "$t" ;; esac >"$log" 2>&1
        echo $? >"$RUN_DIR/$name.rc"
        times >"$RUN_DIR/$name.times"
    )
    t1=$(date +%s.%N)
    rm -rf "$TMPDIR_TEST"
    rc=$(cat "$RUN_DIR/$name.rc" 2>/dev/null || echo 1)
    # `times`: the second line is the children's user and system time
    cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); n += p[1] * 60 + p[2] } printf "%.1f", n }' \
        "$RUN_DIR/$name.times" 2>/dev/null)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    echo "$name $wall ${cpu:-0}" >"$RUN_DIR/$name.time"
    case $rc in 0) verdict=PASS ;; 77) verdict=SKIP ;; *) verdict="FAIL (exit $rc)" ;; esac
    # one writer at a time: the counter and the lines of this test together
    while ! mkdir "$RUN_DIR/lock" 2>/dev/null; do sleep 0.05; done
    k=$(($(cat "$RUN_DIR/count") + 1))
    echo "$k" >"$RUN_DIR/count"
    case $rc in
        0) printf '[%d/%d] %s ... PASS %ss (cpu %ss)\n' "$k" "$RUN_TOTAL" "$name" "$wall" "${cpu:-0}" ;;
        77) printf '[%d/%d] %s ... SKIP: %s\n' "$k" "$RUN_TOTAL" "$name" "$(tail -n 1 "$log")" ;;
        *) printf '[%d/%d] %s ... %s %ss (cpu %ss)\n' "$k" "$RUN_TOTAL" "$name" "$verdict" "$wall" "${cpu:-0}"
           sed 's/^/    /' "$log" | tail -n 40 ;;
    esac
    rmdir "$RUN_DIR/lock"
    exit 0
fi

label=$1; shift
RUN_TOTAL=$#
# scratch on tmpfs when there is one: creating and removing the thousands of
# small files the tests write costs seconds on a disk (20 s to remove one
# test's 7,700 files on this machine's ext4), nothing in memory
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then TMPDIR=/dev/shm; fi
TMPDIR=${TMPDIR:-/tmp}
export TMPDIR
RUN_DIR=$(mktemp -d "$TMPDIR/tlperf-run.XXXXXX")
export RUN_DIR RUN_TOTAL
echo 0 >"$RUN_DIR/count"
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
t0=$(date +%s.%N)
# slowest first, by the times of the last run (unknown ones first of all)
for t in "$@"; do
    n=$(basename "$t" .sh)
    w=$(awk -v n="$n" '$1 == n { w = $2 } END { print w == "" ? 1e9 : w }' "${TIMES_FILE:-/dev/null}" 2>/dev/null)
    printf '%s %s\n' "${w:-1e9}" "$t"
done | sort -k1,1gr | cut -d' ' -f2- | tr '\n' '\0' |
    xargs -0 -n 1 -P "$JOBS" sh "$self" --one
t1=$(date +%s.%N)
pass=0 fail=0 skip=0 cpu=0
for t in "$@"; do
    n=$(basename "$t" .sh)
    rc=$(cat "$RUN_DIR/$n.rc" 2>/dev/null || echo 1)
    case $rc in 0) pass=$((pass + 1)) ;; 77) skip=$((skip + 1)) ;; *) fail=$((fail + 1)) ;; esac
done
cat "$RUN_DIR"/*.time 2>/dev/null | sort >"$RUN_DIR/all.times"
cpu=$(awk '{ c += $3 } END { printf "%.0f", c }' "$RUN_DIR/all.times")
if [ -n "${TIMES_FILE:-}" ]; then # this run's times, then the others kept
    cat "$RUN_DIR/all.times" "$TIMES_FILE" 2>/dev/null | awk '!seen[$1]++' >"$RUN_DIR/merged" &&
        cp "$RUN_DIR/merged" "$TIMES_FILE" 2>/dev/null
fi
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
echo "$label: $pass passed, $fail failed, $skip skipped (wall ${wall}s, cpu ${cpu}s, $JOBS at a time)"
rm -rf "$RUN_DIR"
[ "$fail" -eq 0 ]
