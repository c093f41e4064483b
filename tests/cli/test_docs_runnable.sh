# Every shell block marked runnable in README.md and docs/*.md (an HTML
# comment "<!-- runnable -->" on the line before its ``` fence) runs, as
# copied, from the top of a fresh build: each block under `sh -e` in a
# scratch copy of the checkout's testdata with build/ and scripts/ beside
# it, and must exit 0. The README's three quick starts must be among them.
. "$ROOT/tests/cli/lib.sh"
set -e
need_cmd jq
W=$TMPDIR_TEST/clone
mkdir -p "$W"
ln -s "$BUILD_DIR" "$W/build"
ln -s "$ROOT/scripts" "$W/scripts"
cp -R "$ROOT/testdata" "$W/testdata"
n=0
for doc in "$ROOT/README.md" "$ROOT"/docs/*.md; do
    awk -v dir="$TMPDIR_TEST" -v base="$(basename "$doc")" '
        /^<!-- runnable -->$/ { want = 1; next }
        want && /^```(sh|console)$/ { k++; f = dir "/block." base "." k ".sh"; printf "" > f; inb = 1; want = 0; next }
        inb && /^```$/ { inb = 0; close(f); next }
        inb { print > f; next }
        { want = 0 }' "$doc"
done
for b in "$TMPDIR_TEST"/block.*.sh; do
    [ -e "$b" ] || fail "no runnable block found"
    n=$((n + 1))
    if ! (cd "$W" && timeout 300 sh -e "$b") >"$b.out" 2>&1; then
        echo "--- $(basename "$b")"; cat "$b"; echo "--- output"; tail -n 20 "$b.out"
        fail "runnable block $(basename "$b") failed"
    fi
done
r=$(ls "$TMPDIR_TEST"/block.README.md.*.sh | wc -l)
[ "$r" -ge 3 ] || fail "README has $r runnable blocks, wanted the three quick starts"
# what the quick starts promise
cat "$TMPDIR_TEST"/block.README.md.1.sh.out | grep -q "exit 1: the claim does not reconcile" || fail "gate quick start: the broken claim did not fail"
# the verdict alone (the top-level one: ref.verdict may differ), one word
grep -Eqx 'B_better|tie|A_better|inconclusive' "$TMPDIR_TEST"/block.README.md.2.sh.out \
    || { cat "$TMPDIR_TEST"/block.README.md.2.sh.out; fail "tlab quick start: no bare verdict line"; }
grep -q '"verdict"' "$TMPDIR_TEST"/block.README.md.2.sh.out && fail "tlab quick start: prints JSON verdict lines (ref.verdict too?)"
# the audit page is written outside the clone (nothing left for git to see)
[ ! -e "$W/audit.html" ] || fail "audit quick start: wrote audit.html into the clone"
page=$(sed -n 's/^open \(.*\) in a browser$/\1/p' "$TMPDIR_TEST"/block.README.md.3.sh.out)
[ -n "$page" ] && [ -s "$page" ] || fail "audit quick start: no audit.html at '$page'"
rm -rf "$(dirname "$page")"
# no README command line calls a bare tlperf/tlab/tlgate except those said to
# need `make install`
awk '/^```sh$/{on=1;next} /^```$/{on=0} on' "$ROOT/README.md" | grep -E '^(tlperf|tlab|tlgate) ' >"$TMPDIR_TEST/bare" || true
while read -r l; do
    case $l in
    "tlgate --changed-since"*|"tlab --a-cmd \"python3"*|"man tlgate"*) ;;
    *) fail "README calls a bare command not on PATH after make: $l" ;;
    esac
done <"$TMPDIR_TEST/bare"
[ "$(wc -c <"$ROOT/README.md")" -le 30720 ] || fail "README.md is over 30 KB"
echo "$n runnable blocks ran"
