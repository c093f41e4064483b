#!/bin/sh
# Runs tests/cli/test_*.sh against the built binary (tests/run-tests.sh:
# JOBS at a time, one progress line with its wall and CPU time per script)
# and prints the closing line "cli: N passed, N failed, N skipped ...".
# Each script exits 0 (pass), 77 (skip) or anything else (fail).
#   CLI_ONLY   names of the scripts to run (test_gate test_tlab ...); all when empty
#   CLI_EXCEPT names of scripts not to run
# Environment given to each script:
#   TLPERF, TLAB, TLGATE  the binaries under test
#   ROOT                  the project directory
#   TESTDATA              ROOT/testdata
#   SHARED                ../shared beside the project or its origin, or empty when absent
#   TMPDIR_TEST           a fresh scratch directory, removed afterwards
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) B=$BUILD ;; *) B=$ROOT/$BUILD ;; esac
export ROOT TLPERF="$B/bin/tlperf" TLAB="$B/bin/tlab" TLGATE="$B/bin/tlgate"
export TESTDATA="$ROOT/testdata" BUILD_DIR="$B"
# ../shared beside the project, else beside the repository it was cloned
# from (scripts/find-shared.sh); SHARED=... chooses
if [ -n "${SHARED:-}" ] && [ -d "$SHARED" ]; then SHARED=$(cd "$SHARED" && pwd)
else SHARED=$(sh "$ROOT/scripts/find-shared.sh"); fi
export SHARED
# python3 resolved once: the tests call it hundreds of times, and where
# python3 on PATH is a version manager's shim (pyenv's is a bash script that
# starts pyenv, about 0.4 s of CPU a call on the 2-core test machine, more
# than the rest of test_gate_render together) each call paid for it. The
# interpreter the shim picks, linked as python3 in BUILD/test-path, goes
# first on PATH; a virtualenv's python (sys.prefix != sys.base_prefix) is
# left as it is, since a link elsewhere would lose its packages.
if py=$(python3 -c 'import sys; print(sys.executable if sys.prefix == sys.base_prefix else "")' 2>/dev/null) &&
    [ -n "$py" ] && [ -x "$py" ] && [ "$py" != "$(command -v python3)" ]; then
    mkdir -p "$B/test-path" && ln -sf "$py" "$B/test-path/python3" && PATH=$B/test-path:$PATH && export PATH
fi
# colour is forced by these (report/term.h): the tests decide it themselves
unset FORCE_COLOR CLICOLOR_FORCE
set --
if [ -n "${CLI_ONLY:-}" ]; then
    for name in $CLI_ONLY; do
        [ -f "$ROOT/tests/cli/$name.sh" ] || { echo "run-all.sh: no tests/cli/$name.sh" >&2; exit 2; }
        set -- "$@" "$ROOT/tests/cli/$name.sh"
    done
else
    for t in "$ROOT"/tests/cli/test_*.sh; do
        case " ${CLI_EXCEPT:-} " in *" $(basename "$t" .sh) "*) continue ;; esac
        set -- "$@" "$t"
    done
fi
TIMES_FILE=$B/cli-times.txt exec sh "$ROOT/tests/run-tests.sh" cli "$@"
