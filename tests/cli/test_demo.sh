# make demo (scripts/demo.sh), run into a scratch directory: every file its
# "where to look" list names exists, the warm-up tlab session's ab.json is
# exactly tlab's JSON (no echoed command in it), and its summary names each
# top-level field once (the nested "exact" and "ref" objects repeat names).
. "$ROOT/tests/cli/lib.sh"
set -e
need_cmd jq
D=$TMPDIR_TEST/demo-out
expect_exit 0 env BUILD="$BUILD_DIR" DEMO_OUT="$D" sh "$ROOT/scripts/demo.sh"
jq -e '.schema == "tlperf/tlab/v1"' "$D/ab.json" >/dev/null || { head -3 "$D/ab.json"; fail "demo-out/ab.json is not tlab's JSON"; }
# the summary under step 1: each field once, the verdict the JSON's own
sed -n '/^== 1\./,/^== 2\./p' "$OUT" >"$TMPDIR_TEST/step1"
for k in verdict pairs stop_reason b_rel_change; do
    n=$(grep -c "^   $k: " "$TMPDIR_TEST/step1" || true)
    [ "$n" = 1 ] || { cat "$TMPDIR_TEST/step1"; fail "the demo's tlab summary prints '$k' $n times"; }
done
expect_grep "   verdict: \"$(jq -r .verdict "$D/ab.json")\"" "$TMPDIR_TEST/step1"
# every top-level field of tlab's JSON is documented in its schema
for k in $(jq -r 'keys[]' "$D/ab.json"); do
    jq -e --arg k "$k" '[.oneOf[].properties // {} | has($k)] | any' "$ROOT/docs/schemas/tlab.v1.json" >/dev/null ||
        fail "docs/schemas/tlab.v1.json does not document '$k'"
done
# every path the list points at exists (placeholders <N> and <branch> aside)
sed -n '/^where to look/,/^$/p' "$OUT" | tail -n +2 >"$TMPDIR_TEST/where"
[ -s "$TMPDIR_TEST/where" ] || fail "no 'where to look' list"
for p in $(grep -o '[a-z_0-9./]*\(\.[a-z]*\|/\)' "$TMPDIR_TEST/where" | grep -v '<' | sort -u); do
    case $p in */*|*.json|*.log|*.md|*.py|*.jsonl) [ -e "$D/$p" ] || fail "the demo points at $p, absent from its output" ;; esac
done
exit 0
