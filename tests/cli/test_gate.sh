#!/bin/sh
# tlgate end to end: discovery, exit codes, formats, reports, config,
# --strict, --warnings-as-errors, --changed-since and --base.
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST
cp -R "$TESTDATA/gate" "$T/tree"

# the fixtures pass; the tree is searched recursively
expect_exit 0 "$TLGATE" "$T/tree"
expect_exit 0 "$TLPERF" gate "$T/tree/v1/perf_opt"
expect_grep "[S4-STOP-REASON]" "$OUT"
# --strict makes the stop-reason warning an error; so does --warnings-as-errors
expect_exit 1 "$TLGATE" --strict "$T/tree/v1"
expect_grep "error: [S4-STOP-REASON]" "$OUT"
expect_exit 1 "$TLGATE" --warnings-as-errors "$T/tree/v1"

# usage errors and unreadable paths exit 2
expect_exit 2 "$TLGATE" --no-such-flag
expect_exit 2 "$TLGATE" "$T/does-not-exist"
expect_grep "does-not-exist" "$ERR"
expect_exit 2 "$TLGATE" --format yaml "$T/tree"
expect_exit 2 "$TLGATE" --report nonsense "$T/tree"
expect_exit 2 "$TLGATE" --config "$T/missing.json" "$T/tree"

# a failing directory: GNU-style findings and exit 1
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$T/tree/v1/perf_opt/opt_log.md"
expect_exit 1 "$TLGATE" "$T/tree"
expect_grep "v1/perf_opt/opt_log.md:19: error: [S4-PERF-RECORDS-RECON]" "$OUT"

# several formats in one run
expect_exit 1 "$TLGATE" --format json --report sarif:"$T/r.sarif" --report github:"$T/r.gh" \
    --report markdown:"$T/r.md" --report junit:"$T/r.xml" "$T/tree"
expect_grep "S4-PERF-RECORDS-RECON" "$OUT"
expect_grep "2.1.0" "$T/r.sarif"
expect_grep "::error file=" "$T/r.gh"
expect_grep "S4-PERF-RECORDS-RECON" "$T/r.md"
expect_grep "<testsuite" "$T/r.xml"

# .tlgate.json found by walking up to the repository top (never above it;
# outside a repository only the checked tree is searched); a rule set to
# off disappears
printf '{"rules": {"S4-PERF-RECORDS-RECON": "warning", "S4-STOP-REASON": "off"}}\n' > "$T/tree/.tlgate.json"
expect_exit 1 "$TLGATE" "$T/tree/v1"
git init -q "$T/tree"
expect_exit 0 "$TLGATE" "$T/tree/v1"
expect_grep "warning: [S4-PERF-RECORDS-RECON]" "$OUT"
expect_no_grep "S4-STOP-REASON" "$OUT"
printf '{"rules": {"S4-BOGUS": "off"}}\n' > "$T/bad.json"
expect_exit 2 "$TLGATE" --config "$T/bad.json" "$T/tree/v1"
expect_grep "S4-BOGUS" "$ERR"
rm -rf "$T/tree/.tlgate.json" "$T/tree/.git"

# an inline suppression applies only to a rule the configuration lists in
# "inline_suppressible" (none by default): otherwise the rule still fires
# and the suppression is an error of its own
printf '\n<!-- tlgate-disable S4-PERF-RECORDS-RECON -- claim under review -->\n' >> "$T/tree/v1/perf_opt/opt_log.md"
SUPLINE=$(grep -n 'tlgate-disable S4-PERF-RECORDS-RECON' "$T/tree/v1/perf_opt/opt_log.md" | cut -d: -f1)
expect_exit 1 "$TLGATE" "$T/tree/v1"
expect_grep "v1/perf_opt/opt_log.md:19: error: [S4-PERF-RECORDS-RECON]" "$OUT"
expect_grep "v1/perf_opt/opt_log.md:$SUPLINE: error: [TLGATE-SUPPRESSION-DENIED] S4-PERF-RECORDS-RECON cannot be suppressed inline: no .tlgate.json is in force" "$OUT"
printf '{"inline_suppressible": ["S4-LAYOUT"]}\n' > "$T/tree/v1/.tlgate.json"
expect_exit 1 "$TLGATE" "$T/tree/v1"
expect_grep "[TLGATE-SUPPRESSION-DENIED] S4-PERF-RECORDS-RECON cannot be suppressed inline: the configuration in force ($T/tree/v1/.tlgate.json)" "$OUT"
# listed: the finding is shown as suppressed, with where and why, and no longer fails
printf '{"inline_suppressible": ["S4-PERF-RECORDS-RECON"]}\n' > "$T/tree/v1/.tlgate.json"
expect_exit 0 "$TLGATE" "$T/tree/v1"
expect_grep "v1/perf_opt/opt_log.md:19: suppressed error: [S4-PERF-RECORDS-RECON]" "$OUT"
expect_grep "-- suppressed by $T/tree/v1/perf_opt/opt_log.md:$SUPLINE (claim under review)" "$OUT"
expect_grep ", 1 warning, 2 suppressed inline in" "$OUT"
expect_no_grep "TLGATE-SUPPRESSION" "$OUT"
printf '<!-- tlgate-disable S4-SPEEDUP -- nothing claims a speedup -->\n' >> "$T/tree/v1/perf_opt/opt_log.md"
expect_exit 1 "$TLGATE" "$T/tree/v1"
expect_grep "error: [TLGATE-SUPPRESSION-DENIED] S4-SPEEDUP cannot be suppressed inline" "$OUT"
printf '{"rules": {}, "inline_suppressible": ["S4-PERF-RECORDS-*", "S4-SPEEDUP"]}\n' > "$T/tree/v1/.tlgate.json"
expect_exit 0 "$TLGATE" "$T/tree/v1"
expect_grep "[TLGATE-SUPPRESSION] unused suppression of S4-SPEEDUP" "$OUT"
# every format shows the suppression
expect_exit 0 "$TLGATE" --format json --report sarif:"$T/s.sarif" --report github:"$T/s.gh" \
    --report markdown:"$T/s.md" --report junit:"$T/s.xml" --report gitlab:"$T/s.gl" "$T/tree/v1"
# (cJSON separates keys and values by a tab: compared without it)
sed 's/":[[:space:]]*/": /' "$OUT" > "$T/s.json"
sed -i 's/":[[:space:]]*/": /' "$T/s.sarif" "$T/s.gl"
expect_grep '"justification": "claim under review"' "$T/s.json"
expect_grep '"suppressed": 2' "$T/s.json"
expect_grep '"passed": true' "$T/s.json"
expect_grep '"kind": "inSource"' "$T/s.sarif"
expect_grep '"justification": "claim under review"' "$T/s.sarif"
expect_grep "::notice file=" "$T/s.gh"
expect_grep "title=S4-PERF-RECORDS-RECON (suppressed)::" "$T/s.gh"
expect_grep "suppressed by $T/tree/v1/perf_opt/opt_log.md:$SUPLINE (claim under review)" "$T/s.gh"
expect_grep "| suppressed error | S4-PERF-RECORDS-RECON |" "$T/s.md"
expect_grep "2 findings suppressed inline" "$T/s.md"
expect_grep "suppressed error: " "$T/s.xml"
expect_grep "(claim under review)" "$T/s.xml"
expect_grep '"severity": "info"' "$T/s.gl"
expect_grep "(claim under review)" "$T/s.gl"
# a .tlgate.json whose list names the gate's own rules is refused
printf '{"inline_suppressible": ["TLGATE-SUPPRESSION-DENIED"]}\n' > "$T/tree/v1/.tlgate.json"
expect_exit 2 "$TLGATE" "$T/tree/v1"
expect_grep "cannot be suppressed inline" "$ERR"
rm -f "$T/tree/v1/.tlgate.json"

# perf_tuning/ directories are handed to their own checks
mkdir -p "$T/pt/op/perf_tuning"
printf '# optimization log\n' > "$T/pt/op/perf_tuning/optimization_log.md"
"$TLGATE" --format json "$T/pt" > "$OUT" || true
grep -q '"dirs_checked":[[:space:]]*1' "$OUT" || fail "dirs_checked is not 1"

# `tlperf table` output pasted under a round heading satisfies S4-OPTLOG-COMPTABLE
cp -R "$TESTDATA/gate/v1" "$T/tbl"
L=$T/tbl/perf_opt/opt_log.md
"$TLPERF" table "$T/tbl/perf_opt/perf_records.jsonl" --round 1 > "$T/table.md"
{ printf '# log\n\n## Iteration 1\n\n'; cat "$T/table.md"; printf '\n## Final Summary\n\nbest: r1_tile_swap\nfinal_latency: 64.0 us\n\n## Skill Retrospective\n\nnone\n'; } > "$L"
expect_exit 0 "$TLGATE" "$T/tbl"
expect_no_grep "COMPTABLE" "$OUT"
# without the table the same log fails, naming round 1
{ printf '# log\n\n## Iteration 1\n\nsee the records\n'; sed -n '/## Final Summary/,$p' "$L"; } > "$L.new" && mv "$L.new" "$L"
expect_exit 1 "$TLGATE" "$T/tbl"
expect_grep "[S4-OPTLOG-COMPTABLE]" "$OUT"
expect_grep "round 1," "$OUT"

# git: --changed-since limits the check, --base enforces append-only records
command -v git >/dev/null 2>&1 || skip "git not installed"
R=$T/repo
mkdir -p "$R"
cp -R "$TESTDATA/gate/v1" "$R/opA"
cp -R "$TESTDATA/gate/v2-single" "$R/opB"
cd "$R"
git init -q . && git config user.email t@example.com && git config user.name t
git add -A && git commit -qm base
git tag base
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' opA/perf_opt/opt_log.md
git commit -qam "break opA"
expect_exit 0 "$TLGATE" --changed-since HEAD .
expect_exit 1 "$TLGATE" --changed-since base .
expect_grep "opA/perf_opt" "$OUT"
expect_no_grep "opB" "$OUT"
expect_exit 2 "$TLGATE" --changed-since no-such-ref .
git checkout -q base -- opA
git commit -qm "restore opA"
# appending is fine, rewriting a line is not
echo '{"round": 2, "candidate_id": "r1_tile_swap", "parent_id": "baseline", "dispatch_path": "k_kernel::main", "workload": "wa", "duration_us": 63.0, "l0_pass": true, "msprof_raw_path": "perf_opt/profiles/r1/", "timestamp": "2026-10-01T09:00:00Z"}' >> opA/perf_opt/perf_records.jsonl
expect_exit 0 "$TLGATE" --base base opA
sed -i '1s/"duration_us": 80.0/"duration_us": 70.0/' opA/perf_opt/perf_records.jsonl
expect_exit 1 "$TLGATE" --base base opA
expect_grep "perf_records.jsonl:1: error: [S4-PERF-RECORDS-APPEND]" "$OUT"
expect_exit 2 "$TLGATE" --base no-such-ref opA
# deleting the records is the same as removing every line
rm opA/perf_opt/perf_records.jsonl
expect_exit 1 "$TLGATE" --base base opA
expect_grep "perf_records.jsonl:1: error: [S4-PERF-RECORDS-APPEND]" "$OUT"
# an untouched records file passes
expect_exit 0 "$TLGATE" --base base opB
# a tlgate-disable written at the end of the claim's own line is the same
# directive as on a line of its own (issue 37.4): denied by default, applied
# when the configuration lists the rule, never silently ignored. A comment
# holding "--" is text to CommonMark; one without is an inline comment.
inline() { # inline FORM: the fixture with its claim line replaced by FORM
    rm -rf "$T/inl"; cp -R "$TESTDATA/gate/v1" "$T/inl"
    sed -i "s|^final_latency: 64.0 us\$|$1|" "$T/inl/perf_opt/opt_log.md"
    expect_grep "$1" "$T/inl/perf_opt/opt_log.md"
}
for form in 'final_latency: 32.0 us <!-- tlgate-disable S4-PERF-RECORDS-RECON -- claim under review -->' \
            '- final_latency: 32.0 us <!-- tlgate-disable S4-PERF-RECORDS-RECON -- claim under review -->' \
            '**final_latency**: 32.0 us <!--tlgate-disable S4-PERF-RECORDS-RECON -- claim under review-->' \
            '最终 final_latency：32.0 us <!-- tlgate-disable S4-PERF-RECORDS-RECON -- claim under review -->'; do
    inline "$form"
    expect_exit 1 "$TLGATE" "$T/inl"
    expect_grep "opt_log.md:19: error: [S4-PERF-RECORDS-RECON] claimed final_latency 32 us" "$OUT"
    expect_grep "opt_log.md:19: error: [TLGATE-SUPPRESSION-DENIED] S4-PERF-RECORDS-RECON cannot be suppressed inline" "$OUT"
    printf '{"inline_suppressible": ["S4-PERF-RECORDS-RECON"]}\n' >"$T/inl/.tlgate.json"
    expect_exit 0 "$TLGATE" "$T/inl"
    expect_grep "opt_log.md:19: suppressed error: [S4-PERF-RECORDS-RECON]" "$OUT"
    expect_grep "-- suppressed by $T/inl/perf_opt/opt_log.md:19 (claim under review)" "$OUT"
done
# without a reason (an inline HTML comment to CommonMark): the suppression's
# own finding, on the claim's line, and the claim's error stands
inline 'final_latency: 32.0 us <!-- tlgate-disable S4-PERF-RECORDS-RECON -->'
printf '{"inline_suppressible": ["S4-PERF-RECORDS-RECON"]}\n' >"$T/inl/.tlgate.json"
expect_exit 1 "$TLGATE" "$T/inl"
expect_grep "opt_log.md:19: error: [S4-PERF-RECORDS-RECON] claimed final_latency 32 us" "$OUT"
expect_grep "opt_log.md:19: warning: [TLGATE-SUPPRESSION] a suppression needs a rule id and a reason" "$OUT"
exit 0
