# The examples of docs/records.md ("tlperf plateau, speedup, table,
# winner", moved there from the README) are real: every console block of
# that page is re-run from the project root and its output compared with
# the text shown.
. "$ROOT/tests/cli/lib.sh"
set -e
awk '/^# tlperf plateau, speedup, table, winner/ { on = 1; next }
     on && /^## Record contracts/ { exit }
     on' "$ROOT/docs/records.md" >"$TMPDIR_TEST/section"
[ -s "$TMPDIR_TEST/section" ] || fail "docs/records.md section not found"
# Split into blocks: ex_N.cmd (the command, continuation lines joined) and
# ex_N.out (the expected output).
awk -v dir="$TMPDIR_TEST" '
    /^(```|~~~)console$/ { fence = substr($0, 1, 3); n++; state = "cmd"; cmd = ""; next }
    state != "" && $0 == fence { state = ""; next }
    state == "cmd" {
        line = $0; sub(/^\$ /, "", line); sub(/^ +/, "", line)
        if (line ~ /\\$/) { sub(/\\$/, "", line); cmd = cmd line; next }
        cmd = cmd line; print cmd > (dir "/ex_" n ".cmd"); state = "out"
        printf "" > (dir "/ex_" n ".out"); next
    }
    state == "out" { print > (dir "/ex_" n ".out") }
' "$TMPDIR_TEST/section"
count=0
for c in "$TMPDIR_TEST"/ex_*.cmd; do
    [ -e "$c" ] || fail "no console example found"
    base=${c%.cmd}
    cmd=$(cat "$c")
    case "$cmd" in build/bin/tlperf\ *) ;; *) fail "example does not start with build/bin/tlperf: $cmd" ;; esac
    (cd "$ROOT" && eval "\"\$TLPERF\" ${cmd#build/bin/tlperf }") >"$base.got" 2>"$base.err" || fail "example failed: $cmd"
    diff -u "$base.out" "$base.got" || fail "docs/records.md output differs for: $cmd"
    count=$((count + 1))
done
[ "$count" -ge 4 ] || fail "expected at least 4 examples, found $count"
echo "$count docs/records.md examples match"
