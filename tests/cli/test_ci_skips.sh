# Nothing skips silently in CI (issue 26.7): under CI=true a test that
# would skip (a missing program, a missing ../shared, a cmocka skip()) is
# a failure, since CI has every dependency (scripts/install-deps.sh, and
# ../shared beside the clone); elsewhere it is a skip (exit 77) or a note.
. "$ROOT/tests/cli/lib.sh"
set -e
L=$ROOT/tests/cli/lib.sh
# run_lib CI SHARED SCRIPT: SCRIPT after sourcing lib.sh; exit code in $rc
run_lib() {
    set +e
    env CI="$1" SHARED="$2" TMPDIR_TEST="$TMPDIR_TEST" sh -c ". '$L'; $3" >"$OUT" 2>"$ERR"
    rc=$?
    set -e
}
run_lib "" "" 'skip "no widget"'
[ "$rc" = 77 ] && grep -q "skip: no widget" "$OUT" || fail "skip outside CI: exit $rc"
run_lib false "" 'skip "no widget"'
[ "$rc" = 77 ] || fail "skip with CI=false: exit $rc"
run_lib true "" 'skip "no widget"'
[ "$rc" = 1 ] && grep -q "would skip under CI=true: no widget" "$ERR" || fail "skip under CI=true: exit $rc"
# need_cmd: present passes, missing skips (fails in CI)
run_lib true "" 'need_cmd sh; echo fine'
[ "$rc" = 0 ] && grep -q fine "$OUT" || fail "need_cmd sh: exit $rc"
run_lib "" "" 'need_cmd no-such-program-xyz; echo ran'
[ "$rc" = 77 ] && ! grep -q ran "$OUT" || fail "need_cmd missing outside CI: exit $rc"
run_lib true "" 'need_cmd no-such-program-xyz; echo ran'
[ "$rc" = 1 ] && grep -q "no-such-program-xyz not installed" "$ERR" || fail "need_cmd missing under CI: exit $rc"
# ../shared: need_shared skips, have_shared notes and goes on; both fail in CI
run_lib "" "" 'need_shared; echo ran'
[ "$rc" = 77 ] || fail "need_shared outside CI: exit $rc"
run_lib true "" 'need_shared; echo ran'
[ "$rc" = 1 ] || fail "need_shared under CI: exit $rc"
run_lib "" "" 'have_shared "the samples" || echo went-on'
[ "$rc" = 0 ] && grep -q "went-on" "$OUT" && grep -q "note: ../shared not present: the samples not run" "$OUT" || fail "have_shared outside CI: exit $rc"
run_lib true "" 'have_shared "the samples" || echo went-on'
[ "$rc" = 1 ] && ! grep -q went-on "$OUT" || fail "have_shared under CI: exit $rc"
run_lib true /somewhere 'have_shared "the samples" && echo present'
[ "$rc" = 0 ] && grep -q present "$OUT" || fail "have_shared with SHARED: exit $rc"

# cmocka: skip() of tests/testlib.h, through a real unit test that reads
# ../shared (pointed elsewhere): skipped, and failed under CI=true
U=$BUILD_DIR/tests/test_msprof
[ -x "$U" ] || skip "unit tests not built ($U): make unit first"
set +e
env -u CI TLPERF_SHARED=/nonexistent TLPERF_TESTDATA="$TESTDATA" "$U" >"$OUT" 2>&1; rc=$?
set -e
[ "$rc" = 0 ] && grep -q "SKIPPED.*test_shared_samples" "$OUT" || { cat "$OUT"; fail "cmocka skip outside CI: exit $rc"; }
set +e
env CI=true TLPERF_SHARED=/nonexistent TLPERF_TESTDATA="$TESTDATA" "$U" >"$OUT" 2>&1; rc=$?
set -e
[ "$rc" != 0 ] && grep -q "FAILED.*test_shared_samples" "$OUT" && grep -q "CI=true: failed instead" "$OUT" ||
    { cat "$OUT"; fail "cmocka skip under CI=true: exit $rc"; }

# CI's ../shared is where run-all.sh looks: beside the clone
if [ "${CI:-}" = true ]; then
    [ -d "$ROOT/../shared" ] || [ -n "$SHARED" ] || fail "CI=true and no ../shared beside $ROOT"
fi
echo "ci skips ok"
