# The gate reads opt_log.md as a reviewer sees it on GitHub (issue 24):
# each way a one-line edit used to get a false final latency past it, in
# several phrasings, now fails; the honest forms of the same lines pass.
# Base: testdata/gate/v1 (winner r1_tile_swap measured 64.0 us, baseline
# 80.0 us); a false claim is 32.0 us.
. "$ROOT/tests/cli/lib.sh"
set -e
cd "$TMPDIR_TEST"
# edit NAME OLD NEW: a copy of the fixture with the first OLD replaced by
# NEW (\n in OLD and NEW for line breaks)
edit() {
    rm -rf "$1"; cp -R "$TESTDATA/gate/v1" "$1"
    replace_first "$1/perf_opt/opt_log.md" "$2" "$3"
}
LAT="final_latency: 64.0 us"
SUM="## Final Summary"
false_claim() { # NAME: exit 1 with the RECON error on 32 us
    expect_exit 1 "$TLGATE" "$1"
    expect_grep "claimed final_latency 32 us does not match the winner's recorded measurement 64 us" "$OUT"
}

# 1. a later Final Summary the reader cannot see does not supersede the
#    visible one (an HTML comment, over several lines or one; struck; in
#    an image's alt text), and is shown as passed over
edit c1 "$LAT" "final_latency: 32.0 us\n\n<!--\n$SUM\n\nbest: r1_tile_swap\nfinal_latency: 64.0 us\n-->"
false_claim c1; expect_grep "[S4-OPTLOG-UNSEEN] text hidden from the rendered page (comment)" "$OUT"
edit c2 "$LAT" "final_latency: 32.0 us\n\n<!-- $SUM -->\n<!-- final_latency: 64.0 us -->"
false_claim c2
edit c3 "$LAT" "final_latency: 32.0 us\n\n~~final_latency: 64.0 us~~"
false_claim c3; expect_grep "(struck)" "$OUT"
edit c4 "$LAT" "final_latency: 32.0 us\n\n<del>\n\n$SUM\n\nfinal_latency: 64.0 us\n\n</del>"
false_claim c4
# a Final Summary folded in <details> does not supersede the shown one
edit c5 "$LAT" "final_latency: 32.0 us\n\n<details><summary>raw</summary>\n\n$SUM\n\nfinal_latency: 64.0 us\n\n</details>"
false_claim c5

# 2. a line with two figures for one key is read as a reader reads it:
#    baseline then final, or the corrected figure
for arrow in "→" "->" "=>" "降至" "to"; do
    edit "a$arrow" "$LAT" "final_latency: 64.0 us $arrow 32.0 us"
    false_claim "a$arrow"
done
edit a6 "$LAT" "final_latency: 64.0 us (corrected: 32.0 us)"
false_claim a6
edit a7 "$LAT" "final_latency: 64.0 us，更正为 32.0 us"
false_claim a7
edit a8 "$LAT" "final_latency: ~~64.0 us~~ 32.0 us"
false_claim a8
edit a9 "$LAT" "final_latency: <s>64.0 us</s> 32.0 us"
false_claim a9
# honest: baseline then the true final
edit h1 "$LAT" "final_latency: 80.0 us → 64.0 us"
expect_exit 0 "$TLGATE" h1
edit h2 "$LAT" "final_latency: 70.0 us (corrected: 64.0 us)"
expect_exit 0 "$TLGATE" h2
# a figure the gate cannot attribute is a warning naming what it read
edit w1 "$LAT" "final_latency: 64.0 us, 58.0 us on the second run"
expect_exit 0 "$TLGATE" w1
expect_grep "[S4-CLAIM-READ] the claim line shows more time figures than the gate can attribute to its key; read 64 us" "$OUT"

# 3. code fences end where the renderer ends them: a claim shown as code is
#    never read in place of the visible one (an indented closing fence, a
#    closing fence with an info string, a shorter one, the other fence
#    character); the code is shown as passed over
for close in "    \`\`\`" "\`\`\` end" "\`\`" "~~~"; do
    edit "f$close" "$LAT" "final_latency: 32.0 us\n\n\`\`\`text\nnotes\n$close\n$SUM\nfinal_latency: 64.0 us\n\`\`\`"
    false_claim "f$close"
    expect_grep "[S4-OPTLOG-UNSEEN] a Final Summary figure shown as code is not read as a claim" "$OUT"
done

# 4. figures as the page shows them: entities, units
edit e1 "$LAT" "final_latency: &#51;2.0 us"
false_claim e1
# a figure written in another unit is named as written, then in us
edit e2 "$LAT" "final_latency: 0.032 ms"
expect_exit 1 "$TLGATE" e2
expect_grep "claimed final_latency 0.032 ms (32 us) does not match the winner's recorded measurement 64 us" "$OUT"
edit e3 "$LAT" "final_latency: 32000 ns"
expect_exit 1 "$TLGATE" e3
expect_grep "claimed final_latency 32000 ns (32 us) does not match the winner's recorded measurement 64 us" "$OUT"
edit e3b "$LAT" "final_latency: 0.1 ms → 0.032 ms"
expect_exit 1 "$TLGATE" e3b
expect_grep "claimed final_latency 0.032 ms (32 us) does not match" "$OUT"
expect_grep "claimed baseline 0.1 ms (100 us) does not match the round-0 record 80 us" "$OUT"
edit e3c "$LAT" "final_latency: 0.000032 s"
expect_exit 1 "$TLGATE" e3c
expect_grep "claimed final_latency 3.2e-05 s (32 us) does not match" "$OUT"
edit e4 "$LAT" "final_latency: 0.064 ms"
expect_exit 0 "$TLGATE" e4
edit e5 "$LAT" "final_latency: 64.0 µs"
expect_exit 0 "$TLGATE" e5

# 5. what the gate read is shown: tlperf read names the claim and the
#    passed-over comment with their lines
"$TLPERF" read c1/perf_opt/opt_log.md >read.txt
expect_grep "claim final_latency 32 us" read.txt
expect_grep "passed over (hidden, comment): final_latency: 64.0 us" read.txt
"$TLPERF" read --format json c1/perf_opt/opt_log.md >read.json
python3 "$ROOT/tests/cli/schema_check.py" "$ROOT/docs/schemas/read.v1.json" read.json || fail "read --format json does not match its schema"

# 6. every claim kind is checked: speedups (x, ×, 倍) and changes in %,
#    for a workload or overall, in several wordings; the winner went
#    80.0 -> 64.0 us (1.25x, time -20%, speed +25%)
OV="overall: 20.0%"
for good in "overall: 20.0%" "overall: -20%" "overall: +25%" "speedup: 1.25x" "加速比: 1.25 倍" \
            "总提升: 1.25× ~ 1.25×" "improvement: 20%" "降低: 20.0%"; do
    edit g "$OV" "$good"
    expect_exit 0 "$TLGATE" g
    expect_no_grep "S4-SPEEDUP" "$OUT"
done
for bad in "overall: 50.0%" "speedup: 2.5x" "加速比: 2.5 倍" "Speedup: 2.5×" "总提升: 1.25x ~ 3.0x" \
           "improvement: 60%" "降低 (reduction): 45%"; do
    edit b "$OV" "$bad"
    expect_exit 1 "$TLGATE" b
    expect_grep "[S4-SPEEDUP]" "$OUT"
    expect_grep "no workload reaches it" "$OUT"
done
# on the workload's own claim line
for good in "(-20.0%)" "(1.25x)" "(+25%)"; do
    edit g "$LAT" "- wa: final_latency: 64.0 us $good"
    expect_exit 0 "$TLGATE" g
done
for bad in "(-50.0%)" "(2.0x)" "（3 倍）"; do
    edit b "$LAT" "- wa: final_latency: 64.0 us $bad"
    expect_exit 1 "$TLGATE" b
    expect_grep "claimed" "$OUT"
    expect_grep "for 'wa' does not match the records" "$OUT"
done
# understated but not matching: a warning that quotes the line
edit u "$OV" "overall: 10.0%"
expect_exit 0 "$TLGATE" u
expect_grep "warning: [S4-SPEEDUP] claimed change 10% does not match the records" "$OUT"

# 7. a comparison table naming the incumbent by its id, with no unit
#    anywhere (as real logs write it), is the round's table: no
#    S4-OPTLOG-COMPTABLE error, a warning that says the unit was assumed
TBL="| candidate | Task Duration(us) | AICore util | memory | L0 |\n|---|---|---|---|---|\n| current best (baseline) | 80.0 | 40% | 70% | pass |\n| r1_tile_swap | 64.0 | 61% | 72% | pass |"
for t in "| 候选 vs baseline | wa |\n|---|---:|\n| baseline | 80.0 |\n| r1_tile_swap | 64.0 |" \
         "| candidate | wa |\n|---|---|\n| baseline (best) | 80.0 |\n| r1_tile_swap | 64.0 |" \
         "| 分支 | wa |\n|---|---|\n| baseline（当前最优） | 80.0 |\n| r1_tile_swap | 64.0 |"; do
    edit t "$TBL" "$t"
    expect_exit 0 "$TLGATE" t
    expect_grep "warning: [S4-OPTLOG-COMPTABLE] the table of round 1 shows the current best but names no unit" "$OUT"
done
# still an error when the table shows no current best
edit t "$TBL" "| candidate | wa |\n|---|---|\n| baseline | 80.0 |\n| r1_tile_swap | 64.0 |"
expect_exit 1 "$TLGATE" t
expect_grep "error: [S4-OPTLOG-COMPTABLE]" "$OUT"

# 8. a round's comparison table holds the round's recorded numbers
#    (S4-COMPTABLE-RECON, issue 25): r1_tile_swap measured 64.0 us in
#    round 1, the baseline 80.0 us in round 0
ROW="| r1_tile_swap | 64.0 | 61% | 72% | pass |"
BEST="| current best (baseline) | 80.0 | 40% | 70% | pass |"
edit t1 "$ROW" "| r1_tile_swap | 60.0 | 61% | 72% | pass |"
expect_exit 1 "$TLGATE" t1
expect_grep "error: [S4-COMPTABLE-RECON] round 1's table shows 60 us for 'r1_tile_swap' on 'wa', but the records give 64 us" "$OUT"
edit t2 "$BEST" "| current best (baseline) | 70.0 | 40% | 70% | pass |"
expect_exit 1 "$TLGATE" t2
expect_grep "shows 70 us for 'baseline' on 'wa', but the records give 80 us" "$OUT"
edit t3 "$ROW" "| **r1_tile_swap**（adopted） | **64.00** | 61% | 72% | pass |"
expect_exit 0 "$TLGATE" t3
expect_no_grep "S4-COMPTABLE-RECON" "$OUT"
# workloads as columns, in ms
edit t4 "| candidate | Task Duration(us) | AICore util | memory | L0 |" "| candidate | wa | AICore util | memory | L0 |"
expect_exit 0 "$TLGATE" t4
expect_no_grep "S4-COMPTABLE-RECON" "$OUT"
python3 - t4/perf_opt/opt_log.md <<'PY'
import sys
p = sys.argv[1]; s = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(s.replace("| r1_tile_swap | 64.0 |", "| r1_tile_swap | 0.058 |"))
PY
expect_exit 1 "$TLGATE" t4
expect_grep "shows 0.058 for 'r1_tile_swap' on 'wa', but the records give 64 us" "$OUT"
edit t5 "| candidate | Task Duration(us) |" "| candidate | Task Duration(ms) |"
sed -i 's/| r1_tile_swap | 64.0 |/| r1_tile_swap | 0.064 |/; s/| current best (baseline) | 80.0 |/| current best (baseline) | 0.080 |/' t5/perf_opt/opt_log.md
expect_exit 0 "$TLGATE" t5
expect_no_grep "S4-COMPTABLE-RECON" "$OUT"
# a us column holding ms figures is false
sed -i 's/Task Duration(ms)/Task Duration(us)/' t5/perf_opt/opt_log.md
expect_exit 1 "$TLGATE" t5
expect_grep "shows 0.064 us for 'r1_tile_swap' on 'wa', but the records give 64 us" "$OUT"
# the best of repeats is not the round's number: a warning naming the median
edit t6 "$ROW" "| r1_tile_swap | 58.0 | 61% | 72% | pass |"
for d in 66.0 58.0; do
    sed -n 2p t6/perf_opt/perf_records.jsonl | sed "s/\"duration_us\": 64.0/\"duration_us\": $d/" >>t6/perf_opt/perf_records.jsonl
done
"$TLGATE" t6 >"$OUT" 2>&1 || true
expect_grep "warning: [S4-COMPTABLE-RECON] round 1's table shows 58 for 'r1_tile_swap' on 'wa': one of its 3 measurements, not their median 64 us" "$OUT"
# a table no row of which names a recorded candidate is said not to be checked
edit t7 "$ROW" "| tile swap (new) | 64.0 | 61% | 72% | pass |"
"$TLGATE" t7 >"$OUT" 2>&1 || true
expect_grep "warning: [S4-COMPTABLE-RECON] round 1's comparison table cannot be aligned with the records" "$OUT"
# the row's first cell names a candidate by its id standing as a word
# (no letter or digit around it), a longer id over one it contains, and
# none when it names two: a false 60.0 is caught exactly when the row is
# aligned with r1_tile_swap's records
WRONG="shows 60 us for 'r1_tile_swap' on 'wa', but the records give 64 us"
for cell in '`r1_tile_swap.py`' '候选r1_tile_swap（new）' 'opt_r1_tile_swap' '**r1_tile_swap** (best)'; do
    edit tw "$ROW" "| $cell | 60.0 | 61% | 72% | pass |"
    expect_exit 1 "$TLGATE" tw
    expect_grep "$WRONG" "$OUT"
done
for cell in 'r1_tile_swap2' 'xr1_tile_swap' 'r1_tile_swap vs baseline' 'baseline→r1_tile_swap'; do
    edit tw "$ROW" "| $cell | 60.0 | 61% | 72% | pass |"
    "$TLGATE" tw >"$OUT" 2>&1 || true
    expect_no_grep "$WRONG" "$OUT"
done
# with a recorded r1 as well (70.0 us in round 1, its record before or
# after r1_tile_swap's): r1_tile_swap contains it and wins wherever both
# stand; r1 alone is r1
add_r1() { # DIR before|after
    r1=$(sed -n 2p "$1/perf_opt/perf_records.jsonl" | sed 's/"candidate_id": "r1_tile_swap"/"candidate_id": "r1"/; s/"duration_us": 64.0/"duration_us": 70.0/')
    { sed -n 1p "$1/perf_opt/perf_records.jsonl"
      [ "$2" = before ] && echo "$r1"
      sed -n 2p "$1/perf_opt/perf_records.jsonl"
      [ "$2" = after ] && echo "$r1"
      true; } >"$1/r" && mv "$1/r" "$1/perf_opt/perf_records.jsonl"
}
for order in before after; do
    for cell in 'r1_tile_swap' 'r1 / r1_tile_swap' 'r1_tile_swap (from r1)'; do
        edit tw "$ROW" "| $cell | 60.0 | 61% | 72% | pass |"
        add_r1 tw $order
        "$TLGATE" tw >"$OUT" 2>&1 || true
        expect_grep "$WRONG" "$OUT"
        expect_no_grep "for 'r1' on" "$OUT"
    done
    edit tw "$ROW" "| r1 | 60.0 | 61% | 72% | pass |"
    add_r1 tw $order
    "$TLGATE" tw >"$OUT" 2>&1 || true
    expect_grep "shows 60 us for 'r1' on 'wa', but the records give 70 us" "$OUT"
done

# 9. a claim is read wherever a reader takes it for one (issue 24): every
#    figure of a claim line, `N-fold`, and figures next to a claim word in
#    the Final Summary's prose, in English and Chinese; the honest forms of
#    the same sentences stay silent
prose_ok() { # NAME: exit 0, none of the prose findings
    expect_exit 0 "$TLGATE" "$1"
    expect_no_grep "the Final Summary's prose" "$OUT"
    expect_no_grep "a figure read as a claimed" "$OUT"
}
for good in "Final latency is now 64.0 us." "latency went from 80.0 us to 64.0 us" \
            "最终时延从 80.0 us 降到 64.0 us，加速 1.25 倍。" "The kernel is now 1.25x faster than baseline." \
            "性能提升 25%（速度），时延降低 20%。" "UB 利用率提升到 96%，带宽 1.2 TB/s。" \
            "Tried 3 tilings over 2 rounds; r2 lost 5% to bank conflicts."; do
    edit p "$OV" "$OV\n\n$good"
    prose_ok p
done
for bad in "Final latency is now 32.0 us." "latency went from 80.0 us to 32.0 us" "最终时延从 80.0 us 降到 32.0 us。" \
           "The final kernel runs in 0.032 ms."; do
    edit p "$OV" "$OV\n\n$bad"
    expect_exit 0 "$TLGATE" p
    expect_grep "warning: [S4-CLAIM-READ] the Final Summary's prose shows" "$OUT"
done
for bad in "The kernel is now 2.5x faster." "整体加速 2.5 倍" "性能提升 150%（速度）" "a 3-fold speedup overall"; do
    edit p "$OV" "$OV\n\n$bad"
    expect_exit 0 "$TLGATE" p
    expect_grep "warning: [S4-SPEEDUP] a figure read as a claimed" "$OUT"
    expect_grep "no workload reaches it" "$OUT"
done
# naming the baseline makes the comparison certain: an error
for bad in "The kernel is now 2.5x faster than baseline." "end-to-end: 3x faster than the baseline kernel" \
           "相比基线加速 2.5 倍"; do
    edit p "$OV" "$OV\n\n$bad"
    expect_exit 1 "$TLGATE" p
    expect_grep "error: [S4-SPEEDUP] claimed speedup" "$OUT"
done
# every figure of a claim line: the second is read as well
for good in "overall: 1.25x (wa) / 1.25x" "speedup: 1.25-fold" "geomean speedup 1.25x (wa: 1.25x)"; do
    edit g "$OV" "$good"
    prose_ok g
done
for bad in "overall: 1.25x (wa) / 3.0x (wb)" "speedup: 1.25x, 4x on the large shapes" "geomean speedup 1.25x (wb: 3.0x)"; do
    edit b "$OV" "$bad"
    expect_exit 0 "$TLGATE" b
    expect_grep "warning: [S4-SPEEDUP] a figure read as a claimed speedup" "$OUT"
done
edit b "$OV" "overall: 2-fold speedup"
expect_exit 1 "$TLGATE" b
expect_grep "error: [S4-SPEEDUP] claimed speedup 2x" "$OUT"

# 10. a paragraph's lines joined by a soft break are one line on the page:
#     a claim continued on the next source line is read whole; a line that
#     starts its own `KEY:` clause is still read alone
for bad in "final_latency: 64.0 us\n→ 32.0 us" "final_latency: 64.0 us\n(corrected: 32.0 us)" \
           "final_latency: 64.0\nus → 32.0 us" "final_latency:\n32.0 us" "final_latency: 64.0 us\ncorrected: 32.0 us"; do
    edit s "$LAT" "$bad"
    false_claim s
done
edit s "$LAT" "- wa: final_latency: 64.0 us\n  → 32.0 us"
expect_exit 1 "$TLGATE" s
expect_grep "claimed final_latency 32 us for wa does not match" "$OUT"
for good in "final_latency:\n64.0 us" "final_latency: 80.0 us\n→ 64.0 us" "final_latency: 64.0 us\noverall: 20.0%"; do
    edit s "$LAT" "$good"
    expect_exit 0 "$TLGATE" s
done
# a hard break (two spaces, a backslash) is a new line: the second figure
# is its own, unattributed line
edit s "$LAT" "final_latency: 64.0 us\\\\\n32.0 us"
expect_exit 0 "$TLGATE" s

# 11. figures as a reader reads their characters: fullwidth digits and
#     units are the digits they show, an invisible character inside a
#     number is gone; a bidirectional override, which reorders what the
#     page shows, is an error wherever it stands
edit w1 "$LAT" "final_latency: ３２.０ us"
false_claim w1
edit w2 "$LAT" "final_latency: 3$(printf '\342\200\213')2.0 us"
false_claim w2
edit w3 "$LAT" "final_latency: 3$(printf '\342\201\240')2.0 $(printf '\343\216\262')"
false_claim w3
for good in "final_latency: ６４.０ us" "final_latency: 6$(printf '\342\200\213')4.0 us" "final_latency: 64.0 $(printf '\343\216\262')"; do
    edit w4 "$LAT" "$good"
    expect_exit 0 "$TLGATE" w4
done
edit w5 "$OV" "overall: ２.５x"
expect_exit 1 "$TLGATE" w5
expect_grep "error: [S4-SPEEDUP] claimed speedup 2.5x" "$OUT"
for cp in '\342\200\256' '\342\200\255' '\342\201\246' '\342\201\247'; do
    edit w6 "$LAT" "final_latency: $(printf "$cp")46$(printf '\342\200\254').0 us"
    expect_exit 1 "$TLGATE" w6
    expect_grep "error: [S4-OPTLOG] bidirectional control character U+20" "$OUT"
done
edit w7 "| r1_tile_swap | 64.0 |" "| r1_tile_swap | $(printf '\342\200\256')0.46 |"
expect_exit 1 "$TLGATE" w7
expect_grep "bidirectional control character U+202E" "$OUT"
# ... and in a table's cells: the page shows 60.0 where the records give 64
for bad in "６０.０" "6$(printf '\342\200\213')0.0" "60$(printf '\357\274\216')0"; do
    edit w8 "| r1_tile_swap | 64.0 |" "| r1_tile_swap | $bad |"
    expect_exit 1 "$TLGATE" w8
    expect_grep "error: [S4-COMPTABLE-RECON] round 1's table shows 60 us for 'r1_tile_swap' on 'wa', but the records give 64 us" "$OUT"
done
for good in "６４.０" "6$(printf '\342\200\213')4.0"; do
    edit w9 "| r1_tile_swap | 64.0 |" "| r1_tile_swap | $good |"
    expect_exit 0 "$TLGATE" w9
    expect_no_grep "S4-COMPTABLE-RECON" "$OUT"
done

# 12. a table in the Final Summary is read cell by cell where a cell reads
#     as a claim on its own
edit tc "$LAT" "$LAT\n\n| Final Summary |\n|---|\n| final_latency: 32.0 us |"
false_claim tc
edit tc "$OV" "$OV\n\n| result | note |\n|---|---|\n| r1_tile_swap | 2.5x faster than baseline |"
expect_exit 1 "$TLGATE" tc
expect_grep "error: [S4-SPEEDUP] claimed speedup 2.5x" "$OUT"
for good in "| Final Summary |\n|---|\n| final_latency: 64.0 us |" "| result | note |\n|---|---|\n| r1_tile_swap | 1.25x faster than baseline |"; do
    edit tc "$OV" "$OV\n\n$good"
    expect_exit 0 "$TLGATE" tc
    expect_no_grep "S4-SPEEDUP" "$OUT"
done

# 13. a unit written in the key (`final_latency (us): 64.0`, `_us`, `（ms）`)
#     is the figure's unit: the honest forms pass, false ones are caught
for good in "final_latency (us): 64.0" "final_latency_us: 64.0" "final_latency（ms）: 0.064" "**final_latency (µs)**: 64"; do
    edit k "$LAT" "$good"
    expect_exit 0 "$TLGATE" k
    expect_no_grep "RECON] claimed" "$OUT"
    expect_no_grep "claims no 'final_latency" "$OUT"
done
for bad in "final_latency (us): 32.0" "final_latency_us: 32.0" "final_latency (ms): 0.032"; do
    edit k "$LAT" "$bad"
    expect_exit 1 "$TLGATE" k
    expect_grep "error: [S4-PERF-RECORDS-RECON] claimed final_latency" "$OUT"
    expect_grep "does not match the winner's recorded measurement 64 us" "$OUT"
done
edit k "$LAT" "$LAT\n\nFinal latency (us): 32.0"
expect_exit 0 "$TLGATE" k
expect_grep "warning: [S4-CLAIM-READ] the Final Summary's prose shows 32 us" "$OUT"
