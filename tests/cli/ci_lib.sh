# ci_lib.sh: helpers for tests/cli/test_ci_*.sh (sourced after lib.sh).

need_cmd jq

# ci_make_repo DIR: a git repository with a base commit holding two
# perf_opt directories that pass the gate (ops/layer_norm v1, ops/mish v2,
# from testdata/audit) and a branch "pr" whose commit tampers with
# layer_norm: the dit-small final_latency claim moved from 30.0 to 27.0 us
# and record line 3 rewritten (38.0 -> 37.0 us), plus a README edit.
# Sets BASE (the base commit), CLAIM_LINE (the claim's line) and GEO_LINE
# (the geometric-mean line the tampered claim contradicts); leaves the
# work tree on "pr".
ci_make_repo() {
    mkdir -p "$1/ops"
    (
        cd "$1"
        git init -q -b main .
        git config user.email ci@example.com
        git config user.name ci
        git config commit.gpgsign false
        cp -R "$TESTDATA/audit/repo/ops/layer_norm" "$TESTDATA/audit/repo/ops/mish" ops/
        echo "# operators" >README.md
        git add -A
        git commit -qm base
        git checkout -q -b pr
        sed -i 's/dit-small: final_latency: 30.0 us/dit-small: final_latency: 27.0 us/' \
            ops/layer_norm/perf_opt/opt_log.md
        sed -i '3s/"duration_us": 38.0/"duration_us": 37.0/' ops/layer_norm/perf_opt/perf_records.jsonl
        # the tables follow the rewritten record (else S4-COMPTABLE-RECON
        # would report them too): only APPEND can tell
        sed -i 's/| dit-small | 38.0 |/| dit-small | 37.0 |/' ops/layer_norm/perf_opt/opt_log.md
        echo "more" >>README.md
        git commit -qam "pr: tamper with layer_norm"
    ) || fail "cannot build the test repository"
    BASE=$(git -C "$1" rev-parse main)
    CLAIM_LINE=$(grep -n 'dit-small: final_latency: 27.0 us' "$1/ops/layer_norm/perf_opt/opt_log.md" | cut -d: -f1)
    [ -n "$CLAIM_LINE" ] || fail "tampering failed"
    # the geometric-mean line below the claims, which the tampered claim no
    # longer supports (a warning: the log's own figures disagree with it)
    GEO_LINE=$(grep -n '几何平均加速比' "$1/ops/layer_norm/perf_opt/opt_log.md" | cut -d: -f1)
    git -C "$1" diff --quiet main pr -- ops/mish || fail "mish must be untouched"
}

# ci_json_rules FILE FILTER: jq -r FILTER FILE (fails the test on bad JSON)
ci_json_rules() { jq -r "$2" "$1" || fail "$1: not the JSON expected"; }

# ci_same WANT GOT LABEL: the same lines in any order
ci_same() {
    sort "$1" >"$1.sorted"
    sort "$2" >"$2.sorted"
    diff "$1.sorted" "$2.sorted" || fail "$3: findings differ (want < > got)"
}

# ci_xml_ok FILE: well-formed XML
ci_xml_ok() {
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout "$1" || fail "$1: not well-formed XML"
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" ||
            fail "$1: not well-formed XML"
    else
        echo "note: no XML parser here; $1 only grepped"
    fi
}
