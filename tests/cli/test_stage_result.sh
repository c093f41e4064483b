#!/bin/sh
# The Stage Result: printed by `loop finish` and `loop report` (every seed
# field in order, values from the records), kept in
# perf_opt/logs/stage_result.md (written once), checked by
# `tlgate --stage-result` field by field and bad input by bad input, in
# every output format, and shown by `tlperf audit`.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup --target n1024=9.5 --target n65536=58
expect_exit 0 loop baseline
kernel tile 9.0 60.0
expect_exit 0 loop round 1 --branch tile=perf_opt/tile.py
kernel dbuf 8.0 50.0
expect_exit 0 loop round 2 --branch dbuf=perf_opt/dbuf.py
expect_exit 0 loop finish
SR=$OP/perf_opt/logs/stage_result.md
[ -f "$SR" ] || fail "no copy in perf_opt/logs"
[ ! -e "$OP/perf_opt/stage_result.md" ] || fail "a copy at the perf_opt/ top level"
expect_grep "## Stage Result" "$OUT"
# the printed block is the copy, and it ends the output
sed -n '/^## Stage Result/,$p' "$OUT" >"$TMPDIR_TEST/printed"
cmp -s "$TMPDIR_TEST/printed" "$SR" || { diff "$TMPDIR_TEST/printed" "$SR"; fail "printed block differs from the copy"; }
# every field of the seed, in its order
keys=$(sed -n 's/^- \([a-z_]*\): .*/\1/p; s/^- [a-z0-9]*: \([a-z_]*\): .*/\1/p' "$SR" | uniq | tr '\n' ' ')
[ "$keys" = "stage project operator output log summary_doc verdict design_limit_signal perf_feedback iterations primary_metric baseline_latency final_latency improvement stop_reason skill_retrospective value_point_proposals skills_consulted summary issues " ] \
    || fail "fields: $keys"
expect_grep "- iterations: 2" "$SR"
expect_grep "- stop_reason: success" "$SR"
expect_grep "- design_limit_signal: none" "$SR"
expect_grep "- perf_feedback: none" "$SR"
expect_grep "- summary: none" "$SR"
expect_grep "- operator: demo_add" "$SR"
# per workload, from the records
b=$(grep '"round":0,' "$REC" | grep '"workload":"n1024"' | sed 's/.*"duration_us":\([0-9.]*\).*/\1/')
f=$(grep '"round":3,' "$REC" | grep '"workload":"n65536"' | sed 's/.*"duration_us":\([0-9.]*\).*/\1/')
bb=$(printf '%.3f' "$b"); ff=$(printf '%.3f' "$f")
expect_grep "- n1024: baseline_latency: $bb us" "$SR"
expect_grep "- n65536: final_latency: $ff us" "$SR"
# the whole gate on the tree stays clean of it (S4-LAYOUT)
expect_exit 0 "$TLGATE" "$OP"
expect_no_grep "S4-LAYOUT" "$OUT"

# report: the same block; JSON; the copy is never replaced
expect_exit 0 loop report
cmp -s "$OUT" "$SR" || fail "loop report prints another block"
# report --json: the loop object with the Stage Result typed: numbers as
# numbers (the same figures as the block), none as null
expect_exit 0 loop report --json
python3 - "$OUT" "$SR" <<'EOP' || fail "loop report --json"
import json, re, sys
j = json.load(open(sys.argv[1]))
block = open(sys.argv[2]).read()
assert j["schema"] == "tlperf/loop/v1" and j["step"] == "report" and j["state"] == "finished"
sr = j["stage_result"]
assert sr["stop_reason"] == "success" and sr["iterations"] == 2 and sr["stage"] == 4
for w in ("n1024", "n65536"):
    for f in ("baseline_latency", "final_latency"):
        want = float(re.search(r"^- %s: %s: ([0-9.]+) us$" % (w, f), block, re.M).group(1))
        got = sr[f + "_us"][w]
        assert isinstance(got, float) and got == want, (w, f, got, want)
imp = float(re.search(r"^- improvement: ([0-9.]+)%$", block, re.M).group(1))
assert sr["improvement_pct"] == imp, (sr["improvement_pct"], imp)
for f in ("summary_doc", "design_limit_signal", "perf_feedback", "summary", "issues"):
    assert sr[f] is None, f
assert not any(isinstance(v, str) and (v.endswith(" us") or v.endswith("%") or v == "none")
               for v in sr.values()), sr
assert j["next"]["action"] == "done"
EOP
sed -i 's/^- summary: none/- summary: dbuf wins both shapes/' "$SR"
cp "$SR" "$TMPDIR_TEST/filled"
expect_exit 0 loop report
expect_grep "exists and differs" "$ERR"
cmp -s "$SR" "$TMPDIR_TEST/filled" || fail "the filled-in copy was rewritten"

# the gate: clean, from a file and from standard input
expect_exit 0 "$TLGATE" --stage-result "$SR" "$OP"
expect_grep "checked 1 directory: 0 errors, 0 warnings" "$OUT"
[ "$(wc -l <"$OUT")" -eq 1 ] || { cat "$OUT"; fail "findings on the loop's own block"; }
set +e; "$TLGATE" --stage-result - "$OP/perf_opt" <"$SR" >"$OUT" 2>"$ERR"; rc=$?; set -e
[ "$rc" = 0 ] || { cat "$OUT" "$ERR"; fail "stdin: exit $rc"; }

# one edit per field: rule and line
bad() { # bad RULE LINE SED-SCRIPT
    sed "$3" "$SR" >"$TMPDIR_TEST/bad.md"
    expect_exit 1 "$TLGATE" --stage-result "$TMPDIR_TEST/bad.md" "$OP"
    expect_grep "bad.md:$2: error: [$1]" "$OUT"
}
bad S4-STAGE-RESULT-LATENCY 16 's/^- n1024: final_latency: .*/- n1024: final_latency: 7.000 us/'
bad S4-STAGE-RESULT-LATENCY 15 's/^- n65536: baseline_latency: .*/- n65536: baseline_latency: 99 us/'
bad S4-STAGE-RESULT-IMPROVEMENT 18 's/^- improvement: .*/- improvement: 45.0%/'
# the block is read as GitHub renders it (issue 24): the true figure in a
# comment or struck through is not the one read, the shown false one is
bad S4-STAGE-RESULT-LATENCY 16 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency: <!-- \1 --> 7.000 us/'
bad S4-STAGE-RESULT-LATENCY 16 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency: 7.000 us ~~\1~~/'
bad S4-STAGE-RESULT-IMPROVEMENT 18 's/^- improvement: \(.*\)/- improvement: <s>\1<\/s> 45.0%/'
# a figure continued on the next source line of the item is on the same
# line of the page (a soft break): the one shown after the arrow is read
bad S4-STAGE-RESULT-LATENCY 16 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency: \1\n  → 7.000 us/'
bad S4-STAGE-RESULT-LATENCY 16 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency:\n  7.000 us/'
bad S4-STAGE-RESULT-LATENCY 16 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency: \1\n  (corrected: 7.000 us)/'
# a bidirectional override shows the digits in another order than the
# file holds them: an error of form on its line, whatever it wraps
for cp in '\342\200\256' '\342\201\247'; do
    bad S4-STAGE-RESULT-FORMAT 16 "s/^- n1024: final_latency: \(.*\)/- n1024: final_latency: $(printf "$cp")\1$(printf '\342\200\254')/"
    expect_grep "bidirectional control character U+20" "$OUT"
done
# the honest forms: a figure before the arrow is not the claim; another
# figure after the one read is said to be passed over
sed 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency: 99 us → \1/' "$SR" >"$TMPDIR_TEST/arrow.md"
expect_exit 0 "$TLGATE" --stage-result "$TMPDIR_TEST/arrow.md" "$OP"
sed 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency:\n  \1/' "$SR" >"$TMPDIR_TEST/arrow.md"
expect_exit 0 "$TLGATE" --stage-result "$TMPDIR_TEST/arrow.md" "$OP"
sed 's/^- n1024: final_latency: \(.*\)/- n1024: final_latency: \1 (5 runs, spread 3 us)/' "$SR" >"$TMPDIR_TEST/arrow.md"
expect_exit 0 "$TLGATE" --stage-result "$TMPDIR_TEST/arrow.md" "$OP"
expect_grep "warning: [S4-STAGE-RESULT-FORMAT] the value shows more figures than the one read" "$OUT"
# ... and the honest block wrapped in a code fence is still the block
{ echo '```markdown'; cat "$SR"; echo '```'; } >"$TMPDIR_TEST/fenced.md"
expect_exit 0 "$TLGATE" --stage-result "$TMPDIR_TEST/fenced.md" "$OP"
bad S4-STAGE-RESULT-ITERATIONS 12 's/^- iterations: .*/- iterations: 7/'
bad S4-STAGE-RESULT-STOP 19 's/^- stop_reason: .*/- stop_reason: plateau/'
bad S4-STAGE-RESULT-STOP 19 's/^- stop_reason: .*/- stop_reason: finished/'
bad S4-STAGE-RESULT-LITERAL 9 's/^- verdict: .*/- verdict: DONE/'
bad S4-STAGE-RESULT-LITERAL 13 's/^- primary_metric: .*/- primary_metric: wall_time/'
bad S4-STAGE-RESULT-PATHS 6 's|^- output: .*|- output: perf_opt/nothing.py|'
bad S4-STAGE-RESULT-PATHS 7 's|^- log: .*|- log: /etc/passwd|'
bad S4-STAGE-RESULT-DESIGN-LIMIT 10 's/^- design_limit_signal: .*/- design_limit_signal: [DESIGN_LIMIT]/'
# a workload label is a name: fullwidth is the same workload, a look-alike
# (the letter O for the digit 0) an error naming both
bad S4-STAGE-RESULT-LATENCY 16 's/^- n1024: final_latency:/- n1O24: final_latency:/'
expect_grep "the label 'n1O24' in '- n1O24: final_latency:" "$OUT"
expect_grep "is not the recorded 'n1024' but looks like it (U+006F LATIN SMALL LETTER O where the record has U+0030 DIGIT ZERO)" "$OUT"
sed 's/^- n1024: final_latency:/- ｎ１０２４: final_latency:/' "$SR" >"$TMPDIR_TEST/wide.md"
expect_exit 0 "$TLGATE" --stage-result "$TMPDIR_TEST/wide.md" "$OP"
bad S4-STAGE-RESULT-FORMAT 1 '/^- iterations:/d'
bad S4-STAGE-RESULT-FORMAT 5 '/^- project:/{p;}'
# success against the targets of loop.json: one target out of reach
cp "$OP/perf_opt/loop.json" "$TMPDIR_TEST/plan"
sed -i 's/"target_us":	58/"target_us":	40/' "$OP/perf_opt/loop.json"
expect_exit 1 "$TLGATE" --stage-result "$SR" "$OP"
expect_grep "above its target 40 us" "$OUT"
cp "$TMPDIR_TEST/plan" "$OP/perf_opt/loop.json"
# perf_feedback.md present: 'none' is wrong
echo "# feedback" >"$OP/perf_opt/perf_feedback.md"
expect_exit 1 "$TLGATE" --stage-result "$SR" "$OP"
expect_grep ":10: error: [S4-STAGE-RESULT-DESIGN-LIMIT]" "$OUT"
rm "$OP/perf_opt/perf_feedback.md"

# bad input that is only a warning: the line quoted, what was assumed
warn() { # warn RULE LINE TEXT SED-SCRIPT
    sed "$4" "$SR" >"$TMPDIR_TEST/w.md"
    expect_exit 0 "$TLGATE" --stage-result "$TMPDIR_TEST/w.md" "$OP"
    expect_grep "w.md:$2: warning: [$1]" "$OUT"
    expect_grep "$3" "$OUT"
    expect_exit 1 "$TLGATE" --warnings-as-errors --stage-result "$TMPDIR_TEST/w.md" "$OP"
}
warn S4-STAGE-RESULT-FORMAT 16 "assumed us" "s/^\(- n1024: final_latency: [0-9.]*\) us/\1/"
warn S4-STAGE-RESULT-FORMAT 12 "full-width" 's/^- iterations: /- iterations：/'
warn S4-STAGE-RESULT-FORMAT 25 "unknown field 'speedup'" '$a- speedup: 1.4x'
warn S4-STAGE-RESULT-LITERAL 9 "assumed the same" 's/^- verdict: .*/- verdict: tuning_completed/'
# two blocks: an error naming both
{ cat "$SR"; echo; cat "$SR"; } >"$TMPDIR_TEST/two.md"
expect_exit 1 "$TLGATE" --stage-result "$TMPDIR_TEST/two.md" "$OP"
expect_grep "2 'Stage Result' blocks (another at line 1)" "$OUT"
# --strict: a records-based stop reason warning becomes an error
sed 's/^- stop_reason: .*/- stop_reason: budget_exhausted/' "$SR" >"$TMPDIR_TEST/budget.md"
expect_exit 1 "$TLGATE" --stage-result "$TMPDIR_TEST/budget.md" "$OP"
expect_grep "warning: [S4-STAGE-RESULT-STOP] stop_reason budget_exhausted, but the records hold" "$OUT"
expect_exit 1 "$TLGATE" --strict --stage-result "$TMPDIR_TEST/budget.md" "$OP"
expect_no_grep "warning: [S4-STAGE-RESULT-STOP]" "$OUT"

expect_exit 1 "$TLGATE" --statistics --stage-result "$TMPDIR_TEST/budget.md" "$OP"
expect_grep "checked 1 directory: 2 errors, 1 warning" "$OUT"

# every output format carries the finding
sed 's/^- n1024: final_latency: .*/- n1024: final_latency: 7.000 us/' "$SR" >"$TMPDIR_TEST/e.md"
for fmt in text json sarif github junit markdown gitlab; do
    expect_exit 1 "$TLGATE" --format "$fmt" --stage-result "$TMPDIR_TEST/e.md" "$OP"
    expect_grep "S4-STAGE-RESULT-LATENCY" "$OUT"
done
expect_exit 1 "$TLGATE" --format sarif --stage-result "$TMPDIR_TEST/e.md" "$OP"
grep -q '"startLine":[[:space:]]*16$' "$OUT" || fail "sarif: no finding at line 16"

# usage errors: exit 2, nothing checked
expect_exit 2 "$TLGATE" --stage-result "$TMPDIR_TEST/missing.md" "$OP"
expect_grep "cannot read '$TMPDIR_TEST/missing.md'" "$ERR"
expect_exit 2 "$TLGATE" --stage-result "$SR" "$TMPDIR_TEST"
expect_grep "holds no perf_opt/ directory" "$ERR"
expect_exit 2 "$TLGATE" --stage-result "$SR" "$OP" "$OP"

# audit: the claims next to the records
expect_exit 0 "$TLPERF" audit "$OP"
expect_grep "## Stage Result claims" "$OUT"
expect_grep "| 16 | final\\_latency | n1024 | $(printf '%.3f' "$(grep '"round":3,' "$REC" | grep '"workload":"n1024"' | sed 's/.*"duration_us":\([0-9.]*\).*/\1/')") us |" "$OUT"
expect_exit 0 "$TLPERF" audit --format json "$OP"
expect_grep '"stage_result":' "$OUT"
cp "$TMPDIR_TEST/e.md" "$SR"
expect_exit 1 "$TLPERF" audit "$OP"
expect_grep "error: \\[S4-STAGE-RESULT-LATENCY\\]" "$OUT"
expect_exit 1 "$TLPERF" audit --format html "$OP"
expect_grep "<h2>Stage Result claims</h2>" "$OUT"
expect_grep '<tr class="bad"><td>' "$OUT"
echo ok
