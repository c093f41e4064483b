# tlperf explain: every rule explained (purpose, trigger, fix, example),
# unknown rules refused with exit 2, and docs/rules.md not stale.
. "$ROOT/tests/cli/lib.sh"
set -e
expect_exit 0 "$TLPERF" explain --list
cut -d' ' -f1 "$OUT" >"$TMPDIR_TEST/ids"
n=$(wc -l <"$TMPDIR_TEST/ids")
[ "$n" -ge 20 ] || fail "only $n rules listed"
grep -q '^S4-PERF-RECORDS-RECON$' "$TMPDIR_TEST/ids" || fail "S4 rule missing from --list"
grep -q '^PT-DB$' "$TMPDIR_TEST/ids" || fail "PT rule missing from --list"
while read -r id; do
    expect_exit 0 "$TLPERF" explain "$id"
    head -n 1 "$OUT" | grep -q "^$id: " || fail "explain $id: first line $(head -n 1 "$OUT")"
    for h in why "what triggers it" "how to fix it" example; do
        grep -qx "$h" "$OUT" || fail "explain $id: no '$h' section"
    done
    # every section has text under it
    awk '/^(why|what triggers it|how to fix it|example)$/{h=$0; next} h!=""&&/^  [^ ]/{seen[h]=1} END{exit !(seen["why"]&&seen["what triggers it"]&&seen["how to fix it"]&&seen["example"])}' "$OUT" || fail "explain $id: an empty section"
    grep -qF "[$id" "$OUT" || fail "explain $id: the example shows no finding"
done <"$TMPDIR_TEST/ids"
# case does not matter; a feedback sub-id explains its family
expect_exit 0 "$TLPERF" explain s4-speedup
expect_grep "S4-SPEEDUP: " "$OUT"
expect_exit 0 "$TLPERF" explain S4-PERF-FEEDBACK-SECTIONS
expect_grep "S4-PERF-FEEDBACK: " "$OUT"
# several at once, in order
expect_exit 0 "$TLPERF" explain PT-DB S4-LAYOUT
[ "$(grep -c '^\(PT-DB\|S4-LAYOUT\): ' "$OUT")" = 2 ] || fail "two rules not both explained"
# unknown: exit 2, nothing on stdout, the id named
expect_exit 2 "$TLPERF" explain S4-NOPE
expect_grep "tlperf: error: unknown rule 'S4-NOPE'" "$ERR"
[ ! -s "$OUT" ] || fail "output for an unknown rule"
expect_exit 2 "$TLPERF" explain PT-DB S4-NOPE
[ ! -s "$OUT" ] || fail "partial output before an unknown rule"
expect_exit 2 "$TLPERF" explain
expect_grep "which rule?" "$ERR"
expect_exit 2 "$TLPERF" explain --all PT-DB
# --all explains every listed rule
expect_exit 0 "$TLPERF" explain --all
[ "$(grep -c '^[A-Z0-9-]*: ' "$OUT")" -ge "$n" ] || fail "--all explains fewer rules than --list"
# docs/rules.md is what `make docs` writes from the table: fail when stale
expect_exit 0 "$TLPERF" explain --markdown
if ! cmp -s "$OUT" "$ROOT/docs/rules.md"; then
    diff "$ROOT/docs/rules.md" "$OUT" | head -n 20
    fail "docs/rules.md is stale: run 'make docs'"
fi
echo ok
