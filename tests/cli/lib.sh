# lib.sh: helpers for tests/cli/test_*.sh (sourced).
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
# skip WHY: exit 77 (run-all.sh counts a skip), except under CI=true, where
# everything a test needs is present (scripts/install-deps.sh installs the
# tools, ../shared sits beside the clone): there a skip is a failure.
skip() {
    if [ "${CI:-}" = true ]; then echo "FAIL: would skip under CI=true: $*" >&2; exit 1; fi
    echo "skip: $*"; exit 77
}
# need_cmd CMD...: skip (a failure under CI=true) unless each is on PATH
need_cmd() {
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || skip "$c not installed (scripts/install-deps.sh installs it)"
    done
}
# have_shared WHAT: 0 when ../shared is there; else a note that WHAT was not
# run and 1 (a failure under CI=true), for a test that goes on without it
have_shared() {
    [ -n "$SHARED" ] && return 0
    [ "${CI:-}" = true ] && fail "../shared is not beside the clone under CI=true: $1 cannot run"
    echo "note: ../shared not present: $1 not run"
    return 1
}
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
# replace_first FILE OLD NEW: FILE with the first OLD in it replaced by NEW,
# each \n in OLD and NEW a line break; fails the test when FILE holds no OLD.
# Done by the shell itself: the tests edit fixtures a few hundred times, and
# a python3 started per edit was most of their time.
replace_first() {
    unescape_nl "$2"; _rf_old=$unescaped
    unescape_nl "$3"; _rf_new=$unescaped
    _rf_s=$(cat "$1" && echo .) || fail "replace_first: cannot read $1"
    _rf_s=${_rf_s%.}
    case $_rf_s in
        *"$_rf_old"*) ;;
        *) fail "replace_first: '$2' not in $1" ;;
    esac
    printf '%s' "${_rf_s%%"$_rf_old"*}$_rf_new${_rf_s#*"$_rf_old"}" >"$1"
}
# unescape_nl S: $unescaped is S with each \n (backslash, n), left to
# right, a line break
unescape_nl() {
    _un_in=$1 unescaped=
    while :; do
        case $_un_in in
            *'\n'*) unescaped=$unescaped${_un_in%%'\n'*}'
'; _un_in=${_un_in#*'\n'} ;;
            *) unescaped=$unescaped$_un_in; return 0 ;;
        esac
    done
}
