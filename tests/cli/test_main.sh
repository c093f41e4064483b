# The command table, help, version, aliases and exit codes of the front end.
. "$ROOT/tests/cli/lib.sh"
set -e
expect_exit 0 "$TLPERF" --help
for c in ab audit explain gate loop msprof plateau sim speedup table winner; do expect_grep "  $c " "$OUT"; done
# the table is printed sorted
awk '/^commands:/{on=1;next} on&&/^  [a-z]/{print $1} /^$/{on=0}' "$OUT" >"$TMPDIR_TEST/names"
sort -c "$TMPDIR_TEST/names" || fail "command table not sorted"
expect_exit 0 "$TLPERF" --version
expect_grep "tlperf 0." "$OUT"
expect_exit 0 "$TLAB" --version
expect_grep "tlab (tlperf)" "$OUT"
expect_exit 0 "$TLPERF" help gate
expect_grep "tlperf gate" "$OUT"
expect_exit 2 "$TLPERF" frobnicate
expect_grep "tlperf: error: unknown command 'frobnicate'" "$ERR"
expect_exit 2 "$TLPERF"
expect_exit 2 "$TLPERF" help nosuch
