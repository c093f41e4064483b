# tlgate's user-facing surface: the closing summary line, --statistics,
# a clear message for an unknown .tlgate.json key, and SARIF that links
# each rule to its explanation (informationUri, helpUri, help.text, a
# region for whole-file results).
. "$ROOT/tests/cli/lib.sh"
set -e
cp -R "$TESTDATA/gate" "$TMPDIR_TEST/tree"
T=$TMPDIR_TEST/tree

# text output ends with one summary line
expect_exit 0 "$TLGATE" "$T"
last=$(tail -n 1 "$OUT")
echo "$last" | grep -Eq '^checked 3 directories: 0 errors, [0-9]+ warnings? in [0-9]+\.[0-9]{2} s$' || fail "summary line: $last"
nwarn=$(grep -c ': warning: \[' "$OUT")
echo "$last" | grep -q ": 0 errors, $nwarn warning" || fail "summary counts disagree with the findings ($nwarn): $last"
# an error is counted too, and fails the gate
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$T/v1/perf_opt/opt_log.md"
expect_exit 1 "$TLGATE" "$T"
tail -n 1 "$OUT" | grep -q '^checked 3 directories: 1 error, ' || fail "summary after an error: $(tail -n 1 "$OUT")"
# machine formats carry no summary line
expect_exit 1 "$TLGATE" --format json "$T"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT" || fail "json output is not JSON alone"

# --statistics: counts per rule, then the summary; a feedback file with a
# placeholder brings a rule id longer than the others
{ cat "$T/v1/perf_feedback.example.md"; echo "TODO"; } >"$T/v1/perf_opt/perf_feedback.md"
expect_exit 1 "$TLGATE" --statistics "$T"
expect_grep "S4-PERF-FEEDBACK-PLACEHOLDER" "$OUT"
grep -Eq '^ +1  error    S4-PERF-RECORDS-RECON +the claimed final result' "$OUT" || { cat "$OUT"; fail "no RECON count"; }
grep -Eq '^ +[0-9]+  warning  S4-STOP-REASON ' "$OUT" || fail "no S4-STOP-REASON count"
expect_no_grep "opt_log.md:" "$OUT"
# the rule column fits the longest id: every summary starts in one column
cols=$(awk 'match($0, /^ +[0-9]+  (error|warning|note) +[A-Z][A-Z0-9-]* +/) { print RLENGTH }' "$OUT" | sort -u | wc -l)
[ "$cols" = 1 ] || { cat "$OUT"; fail "--statistics columns not aligned"; }
tail -n 1 "$OUT" | grep -q '^checked 3 directories: 2 errors' || fail "no summary after --statistics"
rm "$T/v1/perf_opt/perf_feedback.md"

# an unknown key in .tlgate.json is named, exit 2
echo '{"rulez": {}}' >"$T/.tlgate.json"
expect_exit 2 "$TLGATE" "$T"
expect_grep "unknown key 'rulez'" "$ERR"
expect_grep ".tlgate.json" "$ERR"
echo '{"rules": {"S4-LAYOUT": "off"}, "rulez": 1}' >"$T/.tlgate.json"
expect_exit 2 "$TLGATE" "$T"
expect_grep "unknown key 'rulez'" "$ERR"
echo '{"rules": {"S4-NOPE": "off"}}' >"$T/.tlgate.json"
expect_exit 2 "$TLGATE" "$T"
expect_grep "unknown rule 'S4-NOPE'" "$ERR"
rm "$T/.tlgate.json"

# SARIF: informationUri, and per rule helpUri (an anchor of docs/rules.md
# that exists) and help.text; a whole-file result gets startLine 1
rm "$T/v1/perf_opt/opt_log.md"
expect_exit 1 "$TLGATE" --format sarif "$T"
python3 - "$OUT" "$ROOT/docs/rules.md" <<'PY' || fail "SARIF rule links"
import json, re, sys
doc = json.load(open(sys.argv[1]))
anchors = {h.strip().lower() for h in re.findall(r'^## (.+)$', open(sys.argv[2], encoding='utf-8').read(), re.M)}
drv = doc['runs'][0]['tool']['driver']
assert '://' in drv['informationUri'], drv
for r in drv['rules']:
    if r['id'].startswith('X-'):
        continue
    uri = r['helpUri']
    anchor = uri.split('#', 1)[1]
    assert '/rules.md#' in uri and anchor in anchors, (r['id'], uri)
    assert len(r['help']['text']) > 40, r['id']
whole = [x for x in doc['runs'][0]['results'] if x['ruleId'] == 'S4-OPTLOG']
assert whole, 'no S4-OPTLOG result'
for x in doc['runs'][0]['results']:
    assert x['locations'][0]['physicalLocation']['region']['startLine'] >= 1, x
assert whole[0]['locations'][0]['physicalLocation']['region']['startLine'] == 1
PY
echo ok
