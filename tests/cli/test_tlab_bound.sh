# tlab's error bound is told one way everywhere: the figure the README,
# docs/tlab.md, docs/sim.md and `tlab --help` give for adopting a B that is
# not faster is the false_adoption_bound tlab prints under seq and fast,
# the alpha they name is the alpha it prints, and ref prints neither (no
# bound). The figures are read from tlab's JSON, never written here.
. "$ROOT/tests/cli/lib.sh"
set -e
cd "$TMPDIR_TEST"

# field NAME FILE: a top-level number of tlab's JSON (tab-indented), or ""
field() { awk -F'\t' -v k="\"$1\":" '$2 == k { v = $3; sub(/,$/, "", v); print v }' "$2"; }
pct() { awk -v x="$1" 'BEGIN { printf "%.1f%%", 100 * x }'; }

for p in seq fast ref; do
    expect_exit 0 "$TLAB" --protocol $p --source stdout --workdir "w_$p" --seed 1 \
        --a-cmd "echo 10" --b-cmd "echo 9"
    cp "$OUT" "$p.json"
done
bound=$(field false_adoption_bound seq.json)
alpha=$(field alpha seq.json)
[ -n "$bound" ] || fail "seq prints no false_adoption_bound"
[ -n "$alpha" ] || fail "seq prints no alpha"
[ "$(field false_adoption_bound fast.json)" = "$bound" ] || fail "fast's bound differs from seq's"
[ "$(field alpha fast.json)" = "$alpha" ] || fail "fast's alpha differs from seq's"
[ -z "$(field false_adoption_bound ref.json)$(field alpha ref.json)" ] ||
    fail "ref has no error bound but prints one"
awk -v b="$bound" -v a="$alpha" 'BEGIN { exit !(b > 0 && b < a) }' ||
    fail "the proven bound ($bound) should be a share of alpha ($alpha)"
B=$(pct "$bound") A=$(pct "$alpha")

"$TLAB" --help >help.txt
# one_truth NAME FILE: every "... not faster ... at most X%" sentence of FILE
# (lines joined) says the bound tlab prints; at least one does; alpha is
# named with its figure
one_truth() {
    tr '\n' ' ' <"$2" | tr -s ' ' >flat.txt
    grep -oE 'not faster[^.;]*at most [0-9.]+%' flat.txt >said.txt || fail "$1 states no bound on false adoption"
    while read -r line; do
        got=${line##*at most }
        [ "$got" = "$B" ] || fail "$1 says '$line', tlab prints false_adoption_bound $bound ($B)"
    done <said.txt
}
one_truth README "$ROOT/README.md"
one_truth docs/tlab.md "$ROOT/docs/tlab.md"
one_truth docs/sim.md "$ROOT/docs/sim.md"
one_truth "tlab --help" help.txt
for f in "$ROOT/README.md" "$ROOT/docs/tlab.md" help.txt; do
    tr '\n' ' ' <"$f" | tr -s ' ' | grep -qE "alpha\`?, $A" || fail "$f does not give alpha as $A (tlab prints $alpha)"
    tr '\n' ' ' <"$f" | tr -s ' ' | grep -q "false_adoption_bound" || fail "$f does not name false_adoption_bound"
done
grep -q "ref has no error bound" help.txt || fail "tlab --help does not say ref has no bound"
tr '\n' ' ' <"$ROOT/README.md" | tr -s ' ' | grep -q "(ab_test.py's rule) has no bound" ||
    fail "README does not say ref has no bound"
echo "ok: bound $B, alpha $A, one figure in README, docs/tlab.md, docs/sim.md and --help"
