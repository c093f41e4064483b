#!/bin/sh
# Issue 35 item 4: a comparison-table row naming the incumbent
# (`r3_baseline (=best)`, `current best（r2_tile）`, `(=best)`, `= current
# best`, `incumbent`, `当前最优`) shows the current best of its round, not the
# round-0 baseline. The records are written from the log's own tables, as
# a reviewer rebuilding them would: every row naming a candidate gives one
# record of its round (the round-1 baseline row gives round 0); rows naming
# the incumbent give none.
. "$ROOT/tests/cli/lib.sh"
set -e
n=0
# tree LABEL FIGURE: round 3's incumbent row reads "| LABEL | FIGURE |"
tree() {
    n=$((n + 1)); P=$TMPDIR_TEST/t$n/perf_opt; mkdir -p "$P/profiles"
    cat > "$P/opt_log.md" <<EOF
# argmax tuning

## Round 1

**候选 vs current best 对比表（round 1）**

| candidate | wa (us) |
|---|---|
| baseline（current best） | 17011.9 |
| r1_vec | 5200.5 |

## Round 2

- 候选 vs current best（r1_vec）对比表：

| candidate | wa (us) |
|---|---|
| current best（r1_vec） | 5200.5 |
| r2_tile | 1189.18 |

## Round 3

| candidate | wa (us) |
|---|---|
| $1 | $2 |
| r3_pipe | 1050.0 |

## Final Summary

- best: r3_pipe
- wa: final_latency: 1050.0 us（baseline 17011.9 us）
- stop_reason: success

## Skill Retrospective

none
EOF
    # the records, from the tables: round of the section, candidate of the
    # first cell when it is an id alone (rN_..., the round-1 baseline: round 0)
    awk '
        /^## Round [0-9]+/ { round = $3 }
        /^\| (r[0-9][a-z0-9_]*|baseline|baseline（current best）) \| [0-9.]+ \|$/ {
            split($0, c, "|"); id = c[2]; gsub(/ |（current best）/, "", id); us = c[3]; gsub(/ /, "", us)
            r = (id == "baseline") ? 0 : round
            par = (r == 0) ? "null" : "\"baseline\""
            printf "{\"round\": %d, \"candidate_id\": \"%s\", \"parent_id\": %s, \"dispatch_path\": \"k::main\", \"workload\": \"wa\", \"duration_us\": %s, \"l0_pass\": true, \"msprof_raw_path\": \"profiles\", \"timestamp\": \"2026-11-01T08:%02d:00Z\"}\n", r, id, par, us, ++k
        }' "$P/opt_log.md" > "$P/perf_records.jsonl"
}
# the records hold the four candidates, none of the incumbent rows
tree 'r3_baseline (=best)' 1189.18
[ "$(wc -l < "$P/perf_records.jsonl")" -eq 4 ] || { cat "$P/perf_records.jsonl"; fail "4 records wanted"; }
grep -q '"round": 0, "candidate_id": "baseline"' "$P/perf_records.jsonl" || fail "no round-0 baseline record"

for lab in 'r3_baseline (=best)' '**r3_baseline (=best)**' 'r3_baseline（current best）' 'current best（r2_tile）' \
           '(=best)' '**= current best**' 'incumbent' '当前最优' '**当前最优**（r2_tile）' 'baseline（当前最优，即 r2_tile）'; do
    # the incumbent's figure: r2_tile's 1189.18 us, not the baseline's 17011.9
    tree "$lab" 1189.18
    expect_exit 0 "$TLGATE" "$P"
    expect_no_grep "S4-COMPTABLE-RECON" "$OUT"
    # a figure no candidate measured before round 3 holds is false
    tree "$lab" 1300.0
    expect_exit 1 "$TLGATE" "$P"
    expect_grep "opt_log.md:25: error: [S4-COMPTABLE-RECON] round 3's table shows 1300 us for" "$OUT"
    if grep -qF "for 'r2_tile' on 'wa'" "$OUT"; then
        # the row names the incumbent's id: its records
        expect_grep "but the records give 1189.18 us" "$OUT"
    else
        expect_grep "for the current best (" "$OUT"
        expect_grep "that is the median of none of the 3 candidates measured on it before round 3 (the fastest: 'r2_tile' 1189.18 us, perf_records.jsonl line 3)" "$OUT"
    fi
done
echo ok
