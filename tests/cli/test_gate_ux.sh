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
# under the https base TLPERF_DOCS_URL names (issue 26.5)
rm "$T/v1/perf_opt/opt_log.md"
expect_exit 1 env TLPERF_DOCS_URL=https://docs.example/tlperf/ "$TLGATE" --format sarif "$T"
python3 - "$OUT" "$ROOT/docs/rules.md" <<'PY' || fail "SARIF rule links"
import json, re, sys
doc = json.load(open(sys.argv[1]))
anchors = {h.strip().lower() for h in re.findall(r'^## (.+)$', open(sys.argv[2], encoding='utf-8').read(), re.M)}
drv = doc['runs'][0]['tool']['driver']
assert drv['informationUri'] == 'https://docs.example/tlperf/README.md', drv
for r in drv['rules']:
    if r['id'].startswith('X-'):
        continue
    uri = r['helpUri']
    anchor = uri.split('#', 1)[1]
    assert uri.startswith('https://docs.example/tlperf/rules.md#') and anchor in anchors, (r['id'], uri)
    assert len(r['help']['text']) > 40, r['id']
whole = [x for x in doc['runs'][0]['results'] if x['ruleId'] == 'S4-OPTLOG']
assert whole, 'no S4-OPTLOG result'
for x in doc['runs'][0]['results']:
    assert x['locations'][0]['physicalLocation']['region']['startLine'] >= 1, x
assert whole[0]['locations'][0]['physicalLocation']['region']['startLine'] == 1
PY
# no base (TLPERF_DOCS_URL set and empty, or not https): no link at all,
# never a dead file:// one; a bad base is said once on stderr
for base in "" "file:///usr/local/share/doc/tlperf" "http://docs.example/t" "docs.example"; do
    expect_exit 1 env TLPERF_DOCS_URL="$base" "$TLGATE" --format sarif "$T"
    python3 - "$OUT" <<'PY' || fail "SARIF links without a docs base ('$base')"
import json, sys
doc = json.load(open(sys.argv[1]))
drv = doc['runs'][0]['tool']['driver']
assert 'informationUri' not in drv, drv.get('informationUri')
assert all('helpUri' not in r for r in drv['rules']), 'helpUri without a base'
assert all(r.get('help', {}).get('text') for r in drv['rules'] if not r['id'].startswith('X-'))
PY
    if [ -n "$base" ]; then
        [ "$(grep -c "TLPERF_DOCS_URL '$base' is not an https:// URL" "$ERR")" -eq 1 ] || { cat "$ERR"; fail "no single warning for '$base'"; }
    fi
done
# the build's base (make DOCS_URL=...): compiled into rules_doc.o, which is
# rebuilt whenever the value changes (it was not when PREFIX changed), and
# not when it stays the same; a value that is not https is refused
B2=$TMPDIR_TEST/b2
O=$B2/obj/src/report/rules_doc.o
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$ROOT" BUILD="$B2" SAN=0 "$@" "$O" >"$TMPDIR_TEST/mk.log" 2>&1 || { cat "$TMPDIR_TEST/mk.log"; fail "make $*"; }; }
mk DOCS_URL=https://one.example/d
grep -q "https://one.example/d" "$O" || fail "DOCS_URL not compiled in"
mk DOCS_URL=https://one.example/d
! grep -q "rules_doc.c" "$TMPDIR_TEST/mk.log" || fail "rules_doc.o rebuilt with the same DOCS_URL"
mk DOCS_URL=https://two.example/d
grep -q "rules_doc.c" "$TMPDIR_TEST/mk.log" || fail "DOCS_URL changed, rules_doc.o not rebuilt"
grep -q "https://two.example/d" "$O" && ! grep -q "https://one.example/d" "$O" || fail "the object holds the old DOCS_URL"
mk DOCS_URL=
! grep -q "example/d" "$O" || fail "DOCS_URL emptied, the object still holds a base"
set +e; make -C "$ROOT" BUILD="$B2" DOCS_URL=file:///usr/share/doc "$O" >"$TMPDIR_TEST/mk.log" 2>&1; rc=$?; set -e
[ "$rc" -ne 0 ] && grep -q "DOCS_URL must be one https:// URL" "$TMPDIR_TEST/mk.log" || fail "a file:// DOCS_URL was accepted by make"
echo ok
