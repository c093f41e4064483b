# Every JSON output carries "schema": "tlperf/<name>/v1" and validates
# against docs/schemas/<name>.v1.json: tlab (ref and seq verdicts, error),
# gate, plateau, speedup (records and perf_tuning folder), table, winner,
# audit, msprof, sim (cells and grid), and every loop step (init, baseline,
# round, status, next, finish, report), read and read --blocks.
# tests/cli/schema_check.py is the
# validator (a subset of JSON Schema 2020-12; python3-jsonschema, when
# installed, checks too). Numbers are numbers: no string value of the
# msprof, sim, tlab or loop outputs is a number with a unit or "none".
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
S=$ROOT/docs/schemas
R=$TESTDATA/records
cd "$TMPDIR_TEST"
checked=" "
check() { # check NAME FILE...
    name=$1; shift
    checked="$checked$name "
    for f in "$@"; do
        grep -Eq "\"schema\":[[:space:]]*\"tlperf/$name/v1\"" "$f" || fail "$f: no schema tlperf/$name/v1"
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
grep -q '"alpha":' ab1.json || fail "ab1.json: seq states no alpha"
check tlab ab1.json ab2.json ab3.json ab4.json
"$TLPERF" msprof --json "$TESTDATA/msprof/flat" >m1.json
"$TLPERF" msprof --json "$TESTDATA/msprof/per-launch" >m2.json
"$TLPERF" msprof --json --kernel-name 'main*' "$TESTDATA/msprof/op_summary" >m3.json
check msprof m1.json m2.json m3.json
"$TLPERF" sim --protocol seq --scenario quiet --effect 5% --trials 20 --json >sim1.json
"$TLPERF" sim --protocol ref --scenario quiet --effect=-0.04 --trials 10 --json >sim2.json
"$TLPERF" sim --grid calibration --family slower --trials 2 --json >sim3.json
"$TLPERF" sim --protocol seq-v1 --scenario bimodal8 --effect 5% --trials 20 --json >sim4.json
check sim sim1.json sim2.json sim3.json sim4.json

# every loop step, on a loop with a failed branch, an L0 failure, an A/B
# round and the finish
L() { f=$1; shift; "$TLPERF" loop -C "$OP" -q "$@" --json >"$f" || fail "loop $* --json: exit $?"; }
loop_setup
L l1.json status
L l2.json next
L l3.json baseline
L l4.json baseline
cp "$OP"/demo_add_opt_v*.py "$OP/perf_opt/"
kernel crash 7.0 40.0 "bench fail"
L l5.json round 1 --branch tile=perf_opt/demo_add_opt_v1_tile.py --branch crash=perf_opt/crash.py
L l6.json round 2 --branch dbuf=perf_opt/demo_add_opt_v2_dbuf.py
L l7.json round 3 --branch vec=perf_opt/demo_add_opt_v3_vec.py
L l8.json round 2 --branch dbuf=perf_opt/demo_add_opt_v2_dbuf.py
L l9.json status
L l10.json finish --no-gate
L l11.json report
L l12.json next
"$TLPERF" loop -C "$OP" next >nx.txt
check loop l1.json l2.json l3.json l4.json l5.json l6.json l7.json l8.json l9.json l10.json l11.json l12.json
rm -rf "$OP"; loop_setup
"$TLPERF" loop -C "$OP" init --op demo_add --baseline demo_add.py --workload n1024@demo_add::small \
    --bench-cmd "sh bench.sh $FK {impl} {workload}" --l0-cmd "sh l0.sh {impl}" --msprof "$FM" \
    --force --json >l0.json || fail "loop init --json"
check loop l0.json
python3 - l0.json l3.json l4.json l5.json l6.json l7.json l8.json l10.json l11.json l12.json <<'EOP' || fail "loop JSON contents"
import json, sys
j = [json.load(open(f)) for f in sys.argv[1:]]
init, b1, b2, r1, r2, r3, r2again, fin, rep, nxt = j
assert (init["step"], init["state"], init["next"]["action"]) == ("init", "no_baseline", "baseline")
assert (b1["outcome"], b2["outcome"]) == ("done", "already_done")
assert b1["next"]["action"] == "round" and b1["next"]["round"] == 1
br = {b["id"]: b for b in r1["round"]["branches"]}
assert br["crash"]["status"] == "failed" and br["crash"]["failure"]["log"].endswith("crash.n1024.bench.log")
assert br["tile"]["status"] == "adopted" and r1["current_best"]["id"] == "tile"
ab = r2["round"]["branches"][0]["ab"]
assert ab and all(a["verdict"] in ("B_better", "A_better", "tie", "inconclusive") for a in ab), ab
assert all(a["json"].startswith("perf_opt/ab_r2_dbuf/") and a["workdir"].startswith("perf_opt/ab_r2_dbuf/") for a in ab)
assert r2again["outcome"] == "already_done" and r2again["round"] == r2["round"]
assert r3["state"] == "blocked" and r3["round"]["branches"][0]["status"] == "l0_failed"
assert r3["next"] == {"action": "round", "round": 4, "resume": False, "command": r3["next"]["command"], "text": r3["next"]["text"]}
assert fin["state"] == "finished" and fin["gate"]["ran"] is False and fin["final"]["stop_reason"] == "blocked"
assert rep["stage_result"]["final_latency_us"] == {w["workload"]: w["final_us"] for w in fin["final"]["workloads"]}
assert nxt["next"]["action"] == "done"
EOP

# numbers are numbers: no string value is "<number> <unit>", "<number>%" or "none"
python3 - m1.json m2.json sim1.json sim3.json ab1.json ab2.json l*.json <<'EOP' || fail "a number given as a string"
import json, re, sys
bad = re.compile(r"^\s*[-+]?[0-9][0-9.]*\s*(us|ms|ns|%|x|GB/s)?\s*$|^none$")
def walk(v, path):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("text", "command", "reason", "method", "stop_reason", "target", "worst_cell", "decision"):
                continue
            yield from walk(x, path + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from walk(x, "%s[%d]" % (path, i))
    elif isinstance(v, str) and bad.match(v):
        yield path, v
for f in sys.argv[1:]:
    for p, v in walk(json.load(open(f)), "$"):
        print("%s: %s is the string %r" % (f, p, v)); sys.exit(1)
EOP
# the prose and the JSON name the same next step
python3 - l12.json nx.txt <<'EOP' || fail "prose and JSON disagree on the next step"
import json, sys
j = json.load(open(sys.argv[1])); t = open(sys.argv[2]).read()
assert "next: %s\n" % j["next"]["text"] in t and "state: %s\n" % j["state"] in t, t
EOP

# the validator refuses what does not match
# seq with the reference rule's p at the top level (two answers to one question)
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["sign_test_p"]=0.2; json.dump(d,open(sys.argv[2],"w"))' ab1.json badab.json
! python3 "$ROOT/tests/cli/schema_check.py" "$S/tlab.v1.json" badab.json >/dev/null || fail "seq JSON with a top-level sign_test_p accepted"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("ref"); json.dump(d,open(sys.argv[2],"w"))' ab1.json badab2.json
! python3 "$ROOT/tests/cli/schema_check.py" "$S/tlab.v1.json" badab2.json >/dev/null || fail "seq JSON without ref accepted"
# a loop state outside the enum, a next action as text, a latency as text
for edit in 'd["state"]="stopped"' 'd["next"]="tlperf loop baseline"' 'd["current_best"]["workloads"][0]["duration_us"]="8.6 us"'; do
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $edit; json.dump(d,open(sys.argv[2],'w'))" l9.json badl.json
    ! python3 "$ROOT/tests/cli/schema_check.py" "$S/loop.v1.json" badl.json >/dev/null || fail "loop JSON accepted after: $edit"
done
# a schema whose property has no description is refused
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["oneOf"][0]["properties"]["op"]["description"]; json.dump(d,open(sys.argv[2],"w"))' "$S/loop.v1.json" undoc.json
! python3 "$ROOT/tests/cli/schema_check.py" undoc.json l9.json >/dev/null || fail "undescribed property accepted"
sed 's/"tlperf\/plateau\/v1"/"tlperf\/plateau\/v0"/' p1.json >bad1.json
! python3 "$ROOT/tests/cli/schema_check.py" "$S/plateau.v1.json" bad1.json >/dev/null || fail "wrong schema id accepted"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["rounds"][0]["improved"]="yes"; json.dump(d,open(sys.argv[2],"w"))' p1.json bad2.json
! python3 "$ROOT/tests/cli/schema_check.py" "$S/plateau.v1.json" bad2.json >/dev/null || fail "wrong member type accepted"
! python3 "$ROOT/tests/cli/schema_check.py" "$S/plateau.v1.json" s1.json >/dev/null || fail "speedup output accepted as plateau"
# every schema names itself, describes every property, and was checked
# above against real output
for f in "$S"/*.v1.json; do
    name=$(basename "$f" .v1.json)
    grep -q "\"\$id\": \"tlperf/$name/v1\"" "$f" || fail "$f: \$id is not tlperf/$name/v1"
    case $checked in *" $name "*) ;; *) fail "$f: no output of its command was checked" ;; esac
done
echo ok
