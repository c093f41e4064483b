#!/bin/sh
# Runs every tests/cli/test_*.sh against the built binary and prints the
# closing line "N passed, N failed". Each script exits 0 (pass), 77 (skip)
# or anything else (fail). Environment given to each script:
#   TLPERF, TLAB, TLGATE  the binaries under test
#   ROOT                  the project directory
#   TESTDATA              ROOT/testdata
#   SHARED                ../shared beside the project, or empty when absent
#   TMPDIR_TEST           a fresh scratch directory, removed afterwards
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) B=$BUILD ;; *) B=$ROOT/$BUILD ;; esac
export ROOT TLPERF="$B/bin/tlperf" TLAB="$B/bin/tlab" TLGATE="$B/bin/tlgate"
export TESTDATA="$ROOT/testdata" BUILD_DIR="$B"
# ../shared beside the project; a worktree elsewhere may point at it with SHARED=...
if [ -n "${SHARED:-}" ] && [ -d "$SHARED" ]; then SHARED=$(cd "$SHARED" && pwd)
elif [ -d "$ROOT/../shared" ]; then SHARED=$(cd "$ROOT/../shared" && pwd); else SHARED=""; fi
export SHARED
# colour is forced by these (report/term.h): the tests decide it themselves
unset FORCE_COLOR CLICOLOR_FORCE
pass=0 fail=0 skip=0 failed=""
only=${CLI_ONLY:-}
for t in "$ROOT"/tests/cli/test_*.sh; do
    name=$(basename "$t" .sh)
    if [ -n "$only" ] && [ "$name" != "$only" ]; then continue; fi
    TMPDIR_TEST=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-cli.XXXXXX")
    export TMPDIR_TEST
    out="$TMPDIR_TEST.log"
    if sh "$t" >"$out" 2>&1; then rc=0; else rc=$?; fi
    case $rc in
        0) pass=$((pass + 1)); echo "PASS $name" ;;
        77) skip=$((skip + 1)); echo "SKIP $name: $(tail -n 1 "$out")" ;;
        *) fail=$((fail + 1)); failed="$failed $name"; echo "FAIL $name (exit $rc)"; sed 's/^/    /' "$out" | tail -n 40 ;;
    esac
    rm -rf "$TMPDIR_TEST" "$out"
done
echo "cli: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
