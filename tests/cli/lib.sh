# lib.sh: helpers for tests/cli/test_*.sh (sourced).
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; exit 77; }
# expect_exit CODE CMD...: runs CMD, stdout to $OUT, stderr to $ERR.
OUT=$TMPDIR_TEST/out ERR=$TMPDIR_TEST/err
expect_exit() {
    want=$1; shift
    set +e
    "$@" >"$OUT" 2>"$ERR"
    got=$?
    set -e
    [ "$got" = "$want" ] || { echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"; fail "exit $got, wanted $want: $*"; }
}
# expect_grep PATTERN FILE: fixed-string match
expect_grep() { grep -qF -- "$1" "$2" || { echo "--- $2"; cat "$2"; fail "'$1' not in $2"; }; }
expect_no_grep() { ! grep -qF -- "$1" "$2" || { echo "--- $2"; cat "$2"; fail "'$1' unexpectedly in $2"; }; }
need_shared() { [ -n "$SHARED" ] || skip "../shared not present"; }
