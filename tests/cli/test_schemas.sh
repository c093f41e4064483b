# Every JSON output carries "schema": "tlperf/<name>/v1" and validates
# against docs/schemas/<name>.v1.json: tlab (verdict and error), gate,
# plateau, speedup (records and perf_tuning folder), table, winner, audit,
# loop status, read and read --blocks. tests/cli/schema_check.py is the validator (a subset of
# JSON Schema 2020-12; python3-jsonschema, when installed, checks too).
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
S=$ROOT/docs/schemas
R=$TESTDATA/records
cd "$TMPDIR_TEST"
check() { # check NAME FILE...
    name=$1; shift
    for f in "$@"; do
        grep -q "\"schema\":	\"tlperf/$name/v1\"" "$f" || fail "$f: no schema tlperf/$name/v1"
    done
    python3 "$ROOT/tests/cli/schema_check.py" "$S/$name.v1.json" "$@" || fail "$name: output does not match its schema"
}
"$TLGATE" --format json "$TESTDATA/gate" >gate1.json || true
"$TLGATE" --format json "$TESTDATA/ptune" >gate2.json || true
# with findings an inline suppression silenced (the configuration allows it)
mkdir -p sup/op; cp -R "$TESTDATA/ptune/suppressed" sup/op/perf_tuning
printf '{"inline_suppressible": ["PT-DB"]}\n' >sup/.tlgate.json
"$TLGATE" --format json sup >gate3.json || true
grep -q '"justification":' gate3.json || fail "gate3.json: no suppression shown"
check gate gate1.json gate2.json gate3.json
"$TLPERF" plateau --json "$R/v1_layernorm.jsonl" >p1.json
"$TLPERF" plateau --json "$R/v2_argmax.jsonl" >p2.json
check plateau p1.json p2.json
"$TLPERF" speedup --json "$R/v1_layernorm.jsonl" >s1.json
"$TLPERF" speedup --json "$R/v2_argmax.jsonl" >s2.json
check speedup s1.json s2.json
"$TLPERF" speedup --json "$TESTDATA/ptune/good" >f1.json || true
check speedup-perf-tuning f1.json
for r in 1 2 3; do
    "$TLPERF" table --json --round $r "$R/v1_layernorm.jsonl" >t$r.json
    "$TLPERF" winner --json --round $r "$R/v1_layernorm.jsonl" >w$r.json
done
check table t1.json t2.json t3.json
check winner w1.json w2.json w3.json
"$TLPERF" audit --format json "$TESTDATA/gate" "$TESTDATA/ptune" >a1.json 2>/dev/null || true
"$TLPERF" audit --format json "$TESTDATA/audit" >a2.json 2>/dev/null || true
check audit a1.json a2.json
n=0
for f in "$TESTDATA"/gate/*/perf_opt/opt_log.md "$TESTDATA"/fuzz/mdread/*.md; do
    n=$((n + 1))
    "$TLPERF" read --format json "$f" >r$n.json
    "$TLPERF" read --blocks --format json "$f" >b$n.json
done
check read r*.json
check read-blocks b*.json
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
"$TLAB" -q --msprof "$FAKE" --launch-count 5 --warm-up 0 --seed 3 --workdir ab1 \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9 --seed 11" >ab1.json
"$TLAB" -q --protocol ref --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir ab2 \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 10 --seed 12" >ab2.json
"$TLAB" -q --msprof /nonexistent --workdir ab3 --a-cmd x --b-cmd y >ab3.json 2>/dev/null || true
"$TLAB" -q --msprof "$FAKE" --launch-count 5 --warm-up 0 --workdir ab4 --a-cmd false --b-cmd false >ab4.json 2>/dev/null || true
grep -q '"error":' ab3.json && grep -q '"error":' ab4.json || fail "tlab error outputs missing"
check tlab ab1.json ab2.json ab3.json ab4.json
loop_setup
"$TLPERF" loop -C "$OP" status --json >l1.json
"$TLPERF" loop -C "$OP" -q baseline >/dev/null
"$TLPERF" loop -C "$OP" status --json >l2.json
check loop-status l1.json l2.json

# the validator refuses what does not match
sed 's/"tlperf\/plateau\/v1"/"tlperf\/plateau\/v0"/' p1.json >bad1.json
! python3 "$ROOT/tests/cli/schema_check.py" "$S/plateau.v1.json" bad1.json >/dev/null || fail "wrong schema id accepted"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["rounds"][0]["improved"]="yes"; json.dump(d,open(sys.argv[2],"w"))' p1.json bad2.json
! python3 "$ROOT/tests/cli/schema_check.py" "$S/plateau.v1.json" bad2.json >/dev/null || fail "wrong member type accepted"
! python3 "$ROOT/tests/cli/schema_check.py" "$S/plateau.v1.json" s1.json >/dev/null || fail "speedup output accepted as plateau"
# every schema names itself
for f in "$S"/*.v1.json; do
    name=$(basename "$f" .v1.json)
    grep -q "\"\$id\": \"tlperf/$name/v1\"" "$f" || fail "$f: \$id is not tlperf/$name/v1"
done
echo ok
