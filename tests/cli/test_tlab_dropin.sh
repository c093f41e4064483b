# tlab --protocol ref as a drop-in for ab_test.py: the reference fields carry
# exactly the values ab_test.py prints (Python's round(), b_rel_change
# NEGATIVE when B is faster), our own fields keep the unrounded values and
# the gain's sign, seq prints the same reference fields, and --pairs 1 and 2
# are accepted. Run medians are fixed (--source stdout, one duration per
# pair and arm) so the expected values are known: they are what CPython
# prints for these medians (tests/test_pyround.c has the derivation).
. "$ROOT/tests/cli/lib.sh"
set -e
cd "$TMPDIR_TEST"
# bench ARM: prints 3 launches of the duration of its pair (TLAB_PAIR)
cat >bench.sh <<'EOS'
#!/bin/sh
case $1$TLAB_PAIR in
    A1) d=10.0625 ;; A2) d=10.1875 ;; A3) d=9.9375 ;;
    B1) d=9.5 ;; B2) d=9.8125 ;; B3) d=9.6875 ;;
    A*) d=10 ;; B*) d=9.5 ;;
esac
i=0; while [ $i -lt "$TLAB_LAUNCH_COUNT" ]; do echo "$d"; i=$((i + 1)); done
EOS
chmod +x bench.sh
ab() { "$TLAB" --source stdout --launch-count 3 --a-cmd "sh $TMPDIR_TEST/bench.sh A" --b-cmd "sh $TMPDIR_TEST/bench.sh B" "$@"; }

expect_exit 0 ab --protocol ref --workdir ref
j=$OUT
expect_grep '"protocol":	"interleaved A/B multi-run (BP_run_state_bimodality)"' "$j"
expect_grep '"verdict":	"B_better"' "$j"
# median A = 10.0625, B = 9.6875; rel = 0.037267080745341616
expect_grep '"b_rel_change":	-0.0373,' "$j"
expect_grep '"a_merged_median_us":	10.062,' "$j"
expect_grep '"b_merged_median_us":	9.688,' "$j"
tr -d '\n\t ' <"$j" >flat.json
expect_grep '"pair_diffs_us":[-0.562,-0.375,-0.25]' flat.json
expect_grep '"sign_test_p":0.25,' flat.json
expect_grep '"a_medians_us":[10.0625,10.1875,9.9375]' flat.json
# ours: the unrounded values, and the gain with our sign (> 0: B faster)
expect_grep '"tlab_protocol":"ref"' flat.json
expect_grep '"gain":0.037267080745341616' flat.json
expect_grep '"exact":{"a_merged_median_us":10.0625,"b_merged_median_us":9.6875,"b_rel_change":-0.037267080745341616,"pair_diffs_us":[-0.5625,-0.375,-0.25],"sign_test_p":0.25}' flat.json
expect_grep 'verdict: B_better (B gain +3.73%' "$ERR"

# B slower: b_rel_change positive, gain negative
expect_exit 0 "$TLAB" --source stdout --launch-count 3 --protocol ref --workdir slower \
    --a-cmd "sh $TMPDIR_TEST/bench.sh B" --b-cmd "sh $TMPDIR_TEST/bench.sh A"
tr -d '\n\t ' <"$OUT" >flat.json
expect_grep '"b_rel_change":0.0387,' flat.json
expect_grep '"verdict":"A_better"' flat.json
expect_grep '"pair_diffs_us":[0.562,0.375,0.25]' flat.json
grep -q '"gain":-0.0387' flat.json || fail "gain should be about -0.0387 when B is slower"

# --pairs 1 and 2: accepted; as in ab_test.py the direction alone decides
expect_exit 0 ab --protocol ref --pairs 1 --workdir one
tr -d '\n\t ' <"$OUT" >flat.json
expect_grep '"pairs":1,' flat.json
expect_grep '"verdict":"B_better"' flat.json
expect_grep '"pair_diffs_us":[-0.562]' flat.json
expect_grep '"sign_test_p":1,' flat.json
expect_grep "warning: --pairs 1: as in ab_test.py" "$ERR"
expect_exit 0 ab --protocol ref --pairs 2 --workdir two
tr -d '\n\t ' <"$OUT" >flat.json
expect_grep '"pairs":2,' flat.json
expect_grep '"verdict":"B_better"' flat.json
expect_grep '"pair_diffs_us":[-0.562,-0.375]' flat.json
[ "$(grep -c . two/runs.jsonl)" -eq 4 ] || fail "two pairs: 4 runs recorded"
expect_exit 2 ab --protocol ref --pairs 0 --workdir zero
expect_grep "option '--pairs' must be between 1 and 100000, got 0" "$ERR"

# seq prints the same reference fields with the same meaning
expect_exit 0 ab --protocol seq --seed 1 --min-pairs 3 --workdir seq
tr -d '\n\t ' <"$OUT" >flat.json
expect_grep '"protocol":"seq"' flat.json
expect_grep '"tlab_protocol":"seq"' flat.json
n=$(sed -n 's/.*"pairs":\([0-9]*\),.*/\1/p' flat.json)
[ "$n" -ge 3 ] || fail "seq: pairs $n"
# pairs 4.. all 10 vs 9.5: the merged medians, rounded as the reference does
grep -q '"b_rel_change":-0\.0[0-9]*,' flat.json || fail "seq: b_rel_change must be negative when B is faster"
grep -q '"gain":0\.0' flat.json || fail "seq: gain must be positive when B is faster"
grep -q '"exact":{"a_merged_median_us":' flat.json || fail "seq: exact fields missing"

# --source stdout reads decimals only: "0x10" is not 16 us
printf '#!/bin/sh\necho 0x10\n' >hex.sh
expect_exit 1 "$TLAB" --source stdout --protocol ref --launch-count 1 --workdir hex \
    --a-cmd "sh $TMPDIR_TEST/hex.sh" --b-cmd "sh $TMPDIR_TEST/hex.sh"
expect_grep "hex/pair1A/stdout.txt:1: '0x10' is not a duration in us" "$OUT"
