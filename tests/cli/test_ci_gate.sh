# The CI gate on a real pull request: a temporary git repository with a base
# commit holding two passing perf_opt directories, and a pull-request commit
# that tampers with one of them (a final_latency claim moved 10%, a record
# line rewritten). scripts/ci-gate.sh must flag exactly that directory, with
# S4-PERF-RECORDS-RECON and S4-PERF-RECORDS-APPEND as its only errors, in
# every report format (plus one S4-SPEEDUP warning: the log's geometric mean
# no longer follows from the tampered claim line).
. "$ROOT/tests/cli/lib.sh"
set -e
command -v git >/dev/null 2>&1 || skip "git not installed"
if "$TLGATE" --help 2>&1 | grep -q "not implemented"; then skip "tlgate not implemented yet"; fi
. "$ROOT/tests/cli/ci_lib.sh"
ci_make_repo "$TMPDIR_TEST/repo"
cd "$TMPDIR_TEST/repo"
CI="$ROOT/scripts/ci-gate.sh"
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY GITHUB_BASE_REF CI_MERGE_REQUEST_DIFF_BASE_SHA TLGATE_BASE || true
export TLGATE
R=$TMPDIR_TEST/reports
mkdir -p "$R"

# the base itself passes the gate
git checkout -q main
expect_exit 0 "$TLGATE" ops
git checkout -q pr

# text: exactly the two findings, in layer_norm only
echo "earlier step" >"$TMPDIR_TEST/summary.md"
expect_exit 1 env TLGATE_OUT_DIR="$R" GITHUB_STEP_SUMMARY="$TMPDIR_TEST/summary.md" \
    sh "$CI" "$BASE" -- --report "json:$R/tlgate.json" --report "gitlab:$R/gl.json"
expect_grep "  ops/layer_norm/perf_opt" "$ERR"
expect_no_grep "ops/mish" "$ERR"
grep -E '^(\./)?ops/layer_norm/perf_opt/perf_records\.jsonl:3: error: \[S4-PERF-RECORDS-APPEND\]' "$OUT" >/dev/null ||
    fail "text: no APPEND error on line 3"
grep -E "^(\./)?ops/layer_norm/perf_opt/opt_log\.md:$CLAIM_LINE: error: \[S4-PERF-RECORDS-RECON\]" "$OUT" >/dev/null ||
    fail "text: no RECON error on the claim line $CLAIM_LINE"
[ "$(grep -c ': error: ' "$OUT")" = 2 ] || fail "text: want exactly 2 errors"
expect_no_grep "mish" "$OUT"

# json
ci_json_rules "$R/tlgate.json" '.findings[] | "\(.rule) \(.severity) \(.line)"' >"$TMPDIR_TEST/j"
printf '%s\n' "S4-PERF-RECORDS-APPEND error 3" "S4-PERF-RECORDS-RECON error $CLAIM_LINE" \
    "S4-SPEEDUP warning $GEO_LINE" >"$TMPDIR_TEST/want"
ci_same "$TMPDIR_TEST/want" "$TMPDIR_TEST/j" json
ci_json_rules "$R/tlgate.json" '.findings[].file' | grep -v 'ops/layer_norm/perf_opt/' && fail "json: a finding outside layer_norm"

# sarif: repo-relative URIs, rule index pointing at the right rule object
ci_json_rules "$R/tlgate.sarif" '.runs[0].results[] | "\(.ruleId) \(.level) \(.locations[0].physicalLocation.artifactLocation.uri) \(.locations[0].physicalLocation.region.startLine)"' >"$TMPDIR_TEST/s"
printf '%s\n' "S4-PERF-RECORDS-APPEND error ops/layer_norm/perf_opt/perf_records.jsonl 3" \
    "S4-PERF-RECORDS-RECON error ops/layer_norm/perf_opt/opt_log.md $CLAIM_LINE" \
    "S4-SPEEDUP warning ops/layer_norm/perf_opt/opt_log.md $GEO_LINE" >"$TMPDIR_TEST/want"
ci_same "$TMPDIR_TEST/want" "$TMPDIR_TEST/s" sarif
ci_json_rules "$R/tlgate.sarif" '.runs[0] as $r | $r.results[] | ($r.tool.driver.rules[.ruleIndex].id == .ruleId)' |
    grep -q false && fail "sarif: ruleIndex does not point at the rule"
ci_json_rules "$R/tlgate.sarif" '.version' | grep -qx '2.1.0' || fail "sarif: not version 2.1.0"

# gitlab code quality
ci_json_rules "$R/gl.json" '.[] | "\(.check_name) \(.severity) \(.location.path) \(.location.lines.begin)"' >"$TMPDIR_TEST/g"
printf '%s\n' "S4-PERF-RECORDS-APPEND blocker ops/layer_norm/perf_opt/perf_records.jsonl 3" \
    "S4-PERF-RECORDS-RECON blocker ops/layer_norm/perf_opt/opt_log.md $CLAIM_LINE" \
    "S4-SPEEDUP minor ops/layer_norm/perf_opt/opt_log.md $GEO_LINE" >"$TMPDIR_TEST/want"
ci_same "$TMPDIR_TEST/want" "$TMPDIR_TEST/g" gitlab

# junit: well-formed, two failing testcases, both in layer_norm
ci_xml_ok "$R/tlgate-junit.xml"
[ "$(grep -c '<failure ' "$R/tlgate-junit.xml")" = 2 ] || fail "junit: want 2 failures"
grep '<testcase ' "$R/tlgate-junit.xml" | grep -q mish && fail "junit: mish has a testcase"
grep -q '<testsuite name="tlgate" tests="[0-9]*" failures="2"' "$R/tlgate-junit.xml" || fail "junit: failures attribute"
for rule in S4-PERF-RECORDS-APPEND S4-PERF-RECORDS-RECON; do
    grep -q "<testcase classname=\"$rule\" name=\"$rule ops/layer_norm/perf_opt/" "$R/tlgate-junit.xml" ||
        fail "junit: no failing testcase for $rule"
done

# markdown, also appended to the job summary after what was there
for md in "$R/tlgate-summary.md" "$TMPDIR_TEST/summary.md"; do
    expect_grep "### tlgate: failed" "$md"
    expect_grep "2 errors, 1 warning, 0 notes in 1 perf_opt directory checked" "$md"
    expect_grep "| error | S4-PERF-RECORDS-APPEND | ops/layer\\_norm/perf\\_opt/perf\\_records.jsonl:3 |" "$md"
    expect_grep "| error | S4-PERF-RECORDS-RECON | ops/layer\\_norm/perf\\_opt/opt\\_log.md:$CLAIM_LINE |" "$md"
    expect_no_grep "mish" "$md"
done
head -n 1 "$TMPDIR_TEST/summary.md" | grep -qx "earlier step" || fail "job summary overwritten"

# github workflow commands (what GitHub Actions shows on the diff)
expect_exit 1 env TLGATE_OUT_DIR="$R" GITHUB_ACTIONS=true sh "$CI" "$BASE"
expect_grep "::error file=ops/layer_norm/perf_opt/perf_records.jsonl,line=3,title=S4-PERF-RECORDS-APPEND::" "$OUT"
expect_grep "::error file=ops/layer_norm/perf_opt/opt_log.md,line=$CLAIM_LINE,title=S4-PERF-RECORDS-RECON::" "$OUT"
expect_grep "deviation 10.0%25" "$OUT"
expect_grep "::warning file=ops/layer_norm/perf_opt/opt_log.md,line=$GEO_LINE,title=S4-SPEEDUP::" "$OUT"
[ "$(grep -c '^::' "$OUT")" = 3 ] || fail "github: want exactly 3 commands"

# a shallow clone of the pull request (as CI checks it out by default):
# the base commit and the history down to the merge base are fetched, the
# findings are the same
git clone -q --depth 1 --branch pr "file://$TMPDIR_TEST/repo" "$TMPDIR_TEST/shallow"
(
    cd "$TMPDIR_TEST/shallow"
    expect_exit 1 env TLGATE_OUT_DIR="$R/shallow" sh "$CI" "$BASE"
    expect_grep "fetching it from 'origin'" "$ERR"
    [ "$(grep -c ': error: ' "$OUT")" = 2 ] || fail "shallow: want exactly 2 errors"
    expect_grep "[S4-PERF-RECORDS-APPEND]" "$OUT"
    expect_grep "[S4-PERF-RECORDS-RECON]" "$OUT"
    expect_no_grep "mish" "$OUT"
)

# the base branch moved on (another directory changed there): still only
# the pull request's directory is checked
git checkout -q main
echo "note" >>ops/mish/perf_opt/opt_log.md
git commit -qam "main moves on"
git checkout -q pr
expect_exit 1 env TLGATE_OUT_DIR="$R" sh "$CI" main
expect_no_grep "mish" "$ERR"
expect_no_grep "mish" "$OUT"

# a pull request that leaves perf_opt alone
git checkout -q -b docs main
echo "more" >>README.md
git commit -qam docs
rm -f "$R"/tlgate*
expect_exit 0 env TLGATE_OUT_DIR="$R" sh "$CI" main
expect_grep "no perf_opt or perf_tuning changes" "$OUT"
[ ! -e "$R/tlgate.sarif" ] || fail "reports written without perf_opt changes"
echo "ci gate ok"
