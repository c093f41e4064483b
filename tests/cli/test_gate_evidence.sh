#!/bin/sh
# Issue 25, items 1, 3 and 5 on the fixtures of testdata/gate_evidence
# (v1 and v2): the honest trees pass; a claim that is one of several
# measurements instead of their median, a Final Summary that leaves out the
# winner's regression, and a small adopted gain without its A/B verdict (or
# with a summary that disagrees with its own runs) fail with their rule.
. "$ROOT/tests/cli/lib.sh"
set -e
EV=$TESTDATA/gate_evidence
n=0
# fresh NAME: a scratch copy of fixture NAME in $P (its perf_opt/)
fresh() { n=$((n + 1)); D=$TMPDIR_TEST/c$n; mkdir -p "$D"; cp -R "$EV/$1" "$D/op"; chmod -R u+w "$D"; P=$D/op/perf_opt; }
# verdict CODE [RULE [SEVERITY]]
verdict() {
    expect_exit "$1" "$TLGATE" "$P"
    if [ -n "${2:-}" ]; then expect_grep "${3:-error}: [$2]" "$OUT"; fi
}
claim_wa() { sed -i "s/wa: final_latency: 65.0 us/wa: final_latency: $1 us/" "$P/opt_log.md"; }

# ---- 25.1 repeats reconcile to their median (v1: 64, 66, 58, 67 us) ----
fresh v1; verdict 0; expect_no_grep "warning:" "$OUT"
for c in 58.0 64.0 66.0 67.0; do
    fresh v1; claim_wa "$c"; verdict 1 S4-PERF-RECORDS-RECON
    # every measurement is named, with its line
    for l in "64 us (line 3)" "66 us (line 7)" "58 us (line 8)" "67 us (line 9)" "median 65 us"; do expect_grep "$l" "$OUT"; done
done
# an unlabelled claim is matched to its workload first, then to the median
fresh v1; sed -i 's/^- wa: final_latency: 65.0 us.*/final_latency: 58.0 us/' "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
expect_grep "median 65 us" "$OUT"
fresh v1; claim_wa 65.5; verdict 0
fresh v1; claim_wa 64.4; verdict 0
# a number that is no measurement keeps its old message
fresh v1; claim_wa 30.0; verdict 1 S4-PERF-RECORDS-RECON; expect_grep "does not match the winner's recorded measurement" "$OUT"
# a re-measurement under a new id, announced by its section: counted
fresh v1
sed -n '8p' "$P/perf_records.jsonl" | sed 's/"candidate_id": "r1_tile"/"candidate_id": "r1_tile_rerun"/; s/"round": 2/"round": 3/' > "$D/rerun"
sed -i '8d' "$P/perf_records.jsonl"; cat "$D/rerun" >> "$P/perf_records.jsonl"
printf '## Final Confirmation（round 3）：复测 r1_tile\n\nr1_tile measured once more (as r1_tile_rerun).\n\n' > "$D/r3.md"
sed -i "/^## Final Summary/e cat $D/r3.md" "$P/opt_log.md"
verdict 0
claim_wa 58.0; verdict 1 S4-PERF-RECORDS-RECON; expect_grep "58 us (line 9, r1_tile_rerun)" "$OUT"
# ... but not when the re-measuring round holds another candidate too: which one is it?
fresh v1
sed -n '8p' "$P/perf_records.jsonl" | sed 's/"candidate_id": "r1_tile"/"candidate_id": "r1_tile_rerun"/; s/"round": 2/"round": 3/' > "$D/rerun"
sed -n '8p' "$P/perf_records.jsonl" | sed 's/"candidate_id": "r1_tile"/"candidate_id": "r1_wide_rerun"/; s/"round": 2/"round": 3/; s/58.0/57.0/' >> "$D/rerun"
sed -i '8d' "$P/perf_records.jsonl"; cat "$D/rerun" >> "$P/perf_records.jsonl"
printf '## Round 3（复测 top-2）\n\n复测: r1_tile and r1_wide measured once more.\n\n| candidate | workload | Task Duration(us) |\n|---|---|---|\n| current best (r1_tile) | wa | 64 |\n| r1_tile_rerun | wa | 58.0 |\n| r1_wide_rerun | wa | 57.0 |\n\n' > "$D/r3.md"
sed -i "/^## Final Summary/e cat $D/r3.md" "$P/opt_log.md"
claim_wa 66.0; verdict 0 S4-PERF-RECORDS-RECON warning; expect_grep "but not if 58 us (line 9, r1_tile_rerun), 57 us (line 10, r1_wide_rerun) re-measure it" "$OUT"
# later candidates derived from the baseline, as the winner is: other kernels
fresh v1
sed -i '8s/"candidate_id": "r1_tile"/"candidate_id": "r3_split"/; 8s/"round": 2/"round": 3/; 9d' "$P/perf_records.jsonl"
printf '{"round": 4, "candidate_id": "r4_pipe", "parent_id": "baseline", "dispatch_path": "k_kernel::main", "workload": "wa", "duration_us": 57.0, "l0_pass": true, "msprof_raw_path": "profiles", "timestamp": "2026-10-01T08:40:00Z"}\n' >> "$P/perf_records.jsonl"
printf '## Round 3\n\n| candidate | workload | Task Duration(us) |\n|---|---|---|\n| current best (r1_tile) | wa | 64 |\n| r3_split | wa | 58.0 |\n\n## Round 4\n\n| candidate | workload | Task Duration(us) |\n|---|---|---|\n| current best (r1_tile) | wa | 64 |\n| r4_pipe | wa | 57.0 |\n\n' > "$D/r34.md"
sed -i "/^## Final Summary/e cat $D/r34.md" "$P/opt_log.md"
verdict 0; expect_no_grep "warning:" "$OUT"
# derived from the winner's own (non-baseline) parent in later rounds, nothing said:
# either reading, a warning when it decides
n=$((n + 1)); D=$TMPDIR_TEST/c$n; P=$D/op/perf_opt; mkdir -p "$P/profiles"
r() { printf '{"round": %s, "candidate_id": "%s", "parent_id": %s, "dispatch_path": "k::main", "workload": "wa", "duration_us": %s, "l0_pass": true, "msprof_raw_path": "profiles", "timestamp": "2026-10-01T09:%02d:00Z"}\n' "$1" "$2" "$3" "$4" "$5"; }
{ r 0 baseline null 80.0 0; r 1 r1_base '"baseline"' 75.0 1; r 2 r2_tile '"r1_base"' 64.0 2; r 3 r2_tile '"r1_base"' 66.0 3
  r 4 r4_x '"r1_base"' 58.0 4; r 5 r5_y '"r1_base"' 57.0 5; } > "$P/perf_records.jsonl"
t() { printf '## Round %s\n\n| candidate | Task Duration(us) |\n|---|---|\n| current best | %s |\n| %s | %s |\n\n' "$1" "$2" "$3" "$4"; }
{ printf '# log\n\n'; t 1 80.0 r1_base 75.0; t 2 75.0 r2_tile 64.0; printf '## Round 3\n\nr2_tile re-measured: 66.0 us.\n\n'
  t 4 64.0 r4_x 58.0; t 5 64.0 r5_y 57.0; printf '## Final Summary\n\n- best: r2_tile\n- wa: final_latency: 65.0 us\n\n## Skill Retrospective\n\nnone\n'; } > "$P/opt_log.md"
verdict 0 S4-PERF-RECORDS-RECON warning
expect_grep "but not if 58 us (line 5, r4_x), 57 us (line 6, r5_y) re-measure it" "$OUT"; expect_grep "assumed they are other candidates" "$OUT"
sed -i 's/wa: final_latency: 65.0 us/wa: final_latency: 58.0 us/' "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
expect_grep "nor with the maybe re-measurements 58 us (line 5, r4_x), 57 us (line 6, r5_y)), it matches line 5 only" "$OUT"

# v2: the final record is one of four measurements of r1_tile
fresh v2; verdict 0
for c in 58.0 64.0; do
    fresh v2; sed -i "s/| wa | 80.0 | 65.0 |/| wa | 80.0 | $c |/" "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
    expect_grep "is not the median of the 4 measurements of 'r1_tile'" "$OUT"
done

# ---- 25.3 coverage: every workload the winner ran on is claimed ----
# (a record rewritten below is rewritten in round 1's table too, which
# S4-COMPTABLE-RECON checks)
slower_wb() { sed -i '4s/40.4/44.0/' "$P/perf_records.jsonl"; sed -i 's/| r1_tile | wb | 40.4 |/| r1_tile | wb | 44.0 |/' "$P/opt_log.md"; }
fresh v1; sed -i '/wb: final_latency/d' "$P/opt_log.md"; verdict 0 S4-PERF-RECORDS-COVERAGE warning
fresh v1; sed -i '/wb: final_latency/d' "$P/opt_log.md"; slower_wb
verdict 1 S4-PERF-RECORDS-COVERAGE; expect_grep "'k_kernel::main' / 'wb', where the winner 'r1_tile' is slower than the baseline" "$OUT"
# the regression stated honestly passes
fresh v1; slower_wb; sed -i 's/wb: final_latency: 40.4 us/wb: final_latency: 44.0 us/' "$P/opt_log.md"; verdict 0
# within the log's own noise threshold: a warning
fresh v1; sed -i '/wb: final_latency/d' "$P/opt_log.md"; slower_wb
printf '\n噪声阈值: 12%%\n' >> "$P/opt_log.md"; verdict 0 S4-PERF-RECORDS-COVERAGE warning

# ---- 25.5 S4-AB: a 3.3% adopted gain needs its B_better verdict ----
# v1-ab holds a session of the tlab whose seq is now seq-v1 (B_better after
# 4 pairs; its summary's "seq" has no "alpha"), v2-ab one of today's seq
# (B_better after 13 pairs). seq-v1's B_better still settles the adoption
# (it is what its runs gave under the rule they were decided with), with a
# warning: seq, the rule with a bound, reaches no verdict on those 4 pairs
v1warn="decided by seq-v1, the rule tlab used before 2026-12-03, which has no error bound; seq, the rule that replaced it, gives inconclusive over the same 4 pairs"
for fx in v1-ab v2-ab; do
    case $fx in v1-ab) np=4 ;; *) np=13 ;; esac
    fresh $fx
    if [ $fx = v1-ab ]; then
        verdict 0 S4-AB warning; expect_grep "on the B_better of $P/ab_round1/runs.jsonl, $v1warn" "$OUT"
        [ "$(grep -c "S4-AB" "$OUT")" -eq 1 ] || fail "v1-ab: one S4-AB finding expected"
        # the summary alone (its own runs) is noted the same way
        fresh $fx; rm -r "$P/ab_round1"; verdict 0 S4-AB warning
        expect_grep "on the B_better of the summary pasted at line 18, $v1warn" "$OUT"
        # beside it, a journal of the same round that today's seq decided
        # B_better: that stands on its own, so nothing to warn about
        fresh $fx; cp -R "$EV/v2-ab/perf_opt/ab_r1_r1_fast" "$P/"; verdict 0; expect_no_grep "S4-AB" "$OUT"
    else
        verdict 0; expect_no_grep "S4-AB" "$OUT"
    fi
    J=$(find "$P" -name runs.jsonl)
    # neither the pasted summary nor the journal
    fresh $fx; sed -i '/^```json/,/^```$/d' "$P/opt_log.md"; rm -r "$(dirname "$(find "$P" -name runs.jsonl)")"
    verdict 1 S4-AB; expect_grep "round 1 adopted 'r1_fast' with a gain of 3.3%" "$OUT"
    # the pasted summary alone, or the journal alone
    fresh $fx; rm -r "$(dirname "$(find "$P" -name runs.jsonl)")"; verdict 0
    fresh $fx; sed -i '/^```json/,/^```$/d' "$P/opt_log.md"
    if [ $fx = v1-ab ]; then
        # nothing says the journal's seq was seq-v1: ref adopts, today's seq
        # does not decide on 4 pairs, so the gate warns and names the journal
        verdict 0 S4-AB warning; expect_grep "without a B_better verdict: the runs of" "$OUT"
    else
        verdict 0; expect_no_grep "S4-AB" "$OUT"
    fi
    # the summary disagrees with the journal
    fresh $fx; sed -i 's/"verdict":\t"B_better"/"verdict":\t"tie"/' "$P/opt_log.md"
    verdict 1 S4-AB; expect_grep "the A/B summary says tie over $np pairs, but the runs of" "$OUT"
    # the journal's B runs as slow as A: no B_better, and the summary disagrees
    fresh $fx; J=$(find "$P" -name runs.jsonl)
    sed -i 's/"arm":"B","pair":\([0-9]\),"order":\([12]\),"launches":10,"median_us":[0-9.]*/"arm":"B","pair":\1,"order":\2,"launches":10,"median_us":10.19/' "$J"
    verdict 1 S4-AB; expect_grep "without a B_better verdict: the runs of" "$OUT"; expect_grep "the A/B summary says B_better over $np pairs" "$OUT"
    # a summary whose own runs do not give its verdict (no journal)
    fresh $fx; rm -r "$(dirname "$(find "$P" -name runs.jsonl)")"
    awk '/"runs":/ { r = 1 } r && /"arm":\t"B"/ { b = 1 } r && b && /"median_us":/ { sub(/"median_us":\t[0-9.]*/, "\"median_us\":\t10.3"); b = 0 } { print }' "$P/opt_log.md" > "$P/x" && mv "$P/x" "$P/opt_log.md"
    verdict 1 S4-AB; expect_grep "but its own run medians give" "$OUT"
done
# without a summary, the protocol its runs name decides: ref does not adopt
# over v2-ab's 13 pairs (pair 8 goes the other way), and runs that name no
# protocol leave two readings, so the gate warns
fresh v2-ab; sed -i '/^```json/,/^```$/d' "$P/opt_log.md"; J=$(find "$P" -name runs.jsonl)
sed -i 's/"protocol":"seq"/"protocol":"ref"/' "$J"; expect_grep '"protocol":"ref"' "$J"
verdict 1 S4-AB; expect_grep "without a B_better verdict: the runs of" "$OUT"
sed -i 's/,"protocol":"ref"//' "$J"; verdict 0 S4-AB warning
expect_grep "give it under one protocol only (none stated)" "$OUT"
# a bare verdict is no tlab / ab_test.py summary
fresh v1-ab; rm -r "$P/ab_round1"; sed -i '/^```json/,/^```$/d' "$P/opt_log.md"
printf '## Round 1 A/B\n\n```json\n{"verdict": "B_better"}\n```\n\n' > "$D/ab.md"; sed -i "/^winner: r1_fast/e cat $D/ab.md" "$P/opt_log.md"
verdict 1 S4-AB; expect_grep "is no tlab / ab_test.py summary" "$OUT"
# ab_test.py's own output (the reference rule's fields only) counts, and is replayed
fresh v1-ab; rm -r "$P/ab_round1"; sed -i '/^```json/,/^```$/d' "$P/opt_log.md"
printf '```json\n{"protocol": "interleaved A/B multi-run (BP_run_state_bimodality)", "pairs": 3, "launch_count": 15,\n "a_medians_us": [10.2, 10.3, 10.1], "b_medians_us": [9.8, 9.9, 9.7], "a_merged_median_us": 10.2, "b_merged_median_us": 9.8,\n "b_rel_change": -0.0392, "pair_diffs_us": [-0.4, -0.4, -0.4], "sign_test_p": 0.25, "direction_consistent": true, "noise_threshold": 0.03, "verdict": "B_better"}\n```\n' > "$D/ab.md"
sed -i "/^winner: r1_fast/e cat $D/ab.md" "$P/opt_log.md"; verdict 0
sed -i 's/"b_medians_us": \[9.8, 9.9, 9.7\]/"b_medians_us": [9.8, 10.4, 9.7]/' "$P/opt_log.md"
verdict 1 S4-AB; expect_grep "the A/B summary says B_better, but its own run medians give" "$OUT"
# a small kernel's soft regression (+4%) under a clear winner: a tie settles it, nothing does not
fresh v1
printf '{"round": 0, "candidate_id": "baseline", "parent_id": null, "dispatch_path": "k_kernel::main", "workload": "ws", "duration_us": 10.0, "l0_pass": true, "msprof_raw_path": "profiles", "timestamp": "2026-10-01T08:50:00Z"}\n{"round": 1, "candidate_id": "r1_tile", "parent_id": "baseline", "dispatch_path": "k_kernel::main", "workload": "ws", "duration_us": 10.4, "l0_pass": true, "msprof_raw_path": "profiles", "timestamp": "2026-10-01T08:51:00Z"}\n' >> "$P/perf_records.jsonl"
sed -i 's/^- wb: final_latency: 40.4 us/- wb: final_latency: 40.4 us\n- ws: final_latency: 10.4 us/' "$P/opt_log.md"
verdict 1 S4-AB; expect_grep "with a slowdown of 4.0% against the current best on 'k_kernel::main' / 'ws'" "$OUT"; expect_grep "without a B_better or tie verdict" "$OUT"
printf '```json\n{"protocol": "interleaved A/B multi-run (BP_run_state_bimodality)", "pairs": 3, "a_medians_us": [10.0, 10.1, 10.0], "b_medians_us": [10.1, 10.0, 10.1], "noise_threshold": 0.03, "workdir": "perf_opt/ab_r1/ws", "verdict": "tie"}\n```\n' > "$D/ab.md"
sed -i "/^winner: r1_tile/e cat $D/ab.md" "$P/opt_log.md"; verdict 0
# ab_test.py's output names no work directory: the round's only journal is its journal
fresh v1-ab; sed -i '/^```json/,/^```$/d' "$P/opt_log.md"
printf '```json\n{"protocol": "interleaved A/B multi-run (BP_run_state_bimodality)", "pairs": 4, "a_medians_us": [10.2, 10.3, 10.1, 10.2], "b_medians_us": [9.8, 9.9, 9.7, 9.8], "noise_threshold": 0.03, "verdict": "B_better"}\n```\n' > "$D/ab.md"
sed -i "/^winner: r1_fast/e cat $D/ab.md" "$P/opt_log.md"; verdict 0
sed -i 's/"arm":"B","pair":\([0-9]\),"order":\([12]\),"launches":10,"median_us":[0-9.]*/"arm":"B","pair":\1,"order":\2,"launches":10,"median_us":10.19/' "$P/ab_round1/runs.jsonl"
verdict 1 S4-AB; expect_grep "the A/B summary says B_better over 4 pairs, but the runs of" "$OUT"
# a threshold of 3% (.tlgate.json) leaves a 3.3% gain to the records
fresh v1-ab; sed -i '/^```json/,/^```$/d' "$P/opt_log.md"; rm -r "$P/ab_round1"
printf '{"ab_threshold": 0.03}\n' > "$D/op/.tlgate.json"; verdict 0
# in pull-request mode the threshold is the base's: a PR lowering it is refused
if command -v git >/dev/null 2>&1; then
    fresh v1-ab; rm -r "$P/ab_round1"
    ( cd "$D" && git init -q . && git config user.email t@example.com && git config user.name t &&
      git add -A && git commit -qm base && git branch -f main HEAD ) || fail "git"
    sed -i '/^```json/,/^```$/d' "$P/opt_log.md"; printf '{"ab_threshold": 0.02}\n' > "$D/.tlgate.json"
    ( cd "$D" && git add -A && git commit -qm "pr: drop the A/B summary, lower the threshold" ) || fail "git"
    ( cd "$D" && expect_exit 1 "$TLGATE" --changed-since main --base main . )
    expect_grep "error: [S4-AB]" "$OUT"
    expect_grep "[TLGATE-CONFIG] sets ab_threshold to 0.02, below 0.05 (its default)" "$OUT"
fi
echo "$n cases"
