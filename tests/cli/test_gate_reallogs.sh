#!/bin/sh
# The real opt_log.md files of ../shared/real-logs with the records of
# testdata/gate_reallogs (written for this project to agree with each log's
# own numbers): each passes as is, and each tampering fails with its rule:
# a claimed final +5% (RECON), a round's table deleted (COMPTABLE naming the
# round; for mish the LAST run's round 1), two records of one key swapped
# (ORDER), an earlier record rewritten and checked with --base from another
# directory (APPEND). Skipped without ../shared.
. "$ROOT/tests/cli/lib.sh"
need_shared
set -e
RL=$SHARED/real-logs
[ -d "$RL" ] || skip "no real logs"
n=0
# fresh NAME LOG: op/perf_opt in a fresh directory $D, the real log + our records
fresh() {
    n=$((n + 1)); D=$TMPDIR_TEST/c$n; P=$D/op/perf_opt
    mkdir -p "$P"
    cp "$RL/$2/opt_log.md" "$P/opt_log.md"
    cp "$TESTDATA/gate_reallogs/$1/"* "$P/"
    mkdir -p "$P/profiles/stage4"
    chmod -R u+w "$D"
}
verdict() {
    expect_exit "$1" "$TLGATE" "$P"
    if [ -n "${2:-}" ]; then expect_grep "error: [$2]" "$OUT"; fi
}
# delete_table CAPTION: removes the caption line and the table under it
delete_table() {
    awk -v cap="$1" '
        skip == 1 && /^[[:space:]]*$/ { next }
        skip >= 1 && /^\|/ { skip = 2; next }
        skip == 2 { skip = 0 }
        skip == 1 { skip = 0 }
        index($0, cap) == 1 { skip = 1; next }
        { print }' "$P/opt_log.md" > "$P/opt_log.md.new"
    mv "$P/opt_log.md.new" "$P/opt_log.md"
}
# swap_records A B: exchanges lines A and B of perf_records.jsonl
swap_records() {
    awk -v a="$1" -v b="$2" '{ l[NR] = $0 } END { t = l[a]; l[a] = l[b]; l[b] = t; for (i = 1; i <= NR; i++) print l[i] }' \
        "$P/perf_records.jsonl" > "$P/r.new"
    mv "$P/r.new" "$P/perf_records.jsonl"
}
# append_check LINE: commit the tree, rewrite record LINE, run --base from /
append_check() {
    ( cd "$D" && git init -q . && git config user.email t@example.com && git config user.name t &&
      git add -A && git commit -qm records )
    sed -i "${1}s/\"duration_us\": \([0-9.]*\)/\"duration_us\": 1\1/" "$P/perf_records.jsonl"
    ( cd / && expect_exit 1 "$TLGATE" --base HEAD "$P" )
    expect_grep "perf_records.jsonl:$1: error: [S4-PERF-RECORDS-APPEND]" "$OUT"
    # the revision is resolved in the repository holding the directory
    ( cd / && expect_exit 2 "$TLGATE" --base no-such-rev "$P" )
    expect_grep "not a revision of the git repository holding" "$ERR"
}
command -v git >/dev/null 2>&1 || skip "git not installed"

# ---- ada_layer_norm: numbered workloads, final confirmation round 5 ----
fresh ada grandliu__ada_layer_norm; verdict 0
expect_no_grep "error:" "$OUT"
fresh ada grandliu__ada_layer_norm
sed -i 's|dit-xl-2/fp16: final_latency: 8.94 us|dit-xl-2/fp16: final_latency: 9.39 us|' "$P/opt_log.md"
verdict 1 S4-PERF-RECORDS-RECON
fresh ada grandliu__ada_layer_norm; delete_table '**候选 vs current best 对比表（round 2）**'
verdict 1 S4-OPTLOG-COMPTABLE; expect_grep "for round 2," "$OUT"
# records 9 and 17: smoke-dit/fp32 rounds 1 and 2 (v1_bm4, v2_op1_bm4)
fresh ada grandliu__ada_layer_norm; swap_records 9 17; verdict 1 S4-PERF-RECORDS-ORDER
fresh ada grandliu__ada_layer_norm; append_check 3

# ---- argmax: v2, inventory, Final table ----
# line 199 claims a geomean of 11.5x; its own table (183-187) and the records give 7.19x
fresh argmax grandliu__argmax; verdict 1 S4-SPEEDUP
expect_grep "opt_log.md:199: error: [S4-SPEEDUP] claimed geometric-mean speedup 11.5x, but the log's own figures (its Final Performance Test Data table, lines 183-187) give 7.187x" "$OUT"
# the same false claim in other phrasings, and under the heading in other words
for claim in '几何均值加速比（5 workload）：11.5×' 'geomean speedup over 5 workloads: 11.5x' \
    'Geometric-mean speedup (5 workloads) = 11.5×' '5 个 workload 的几何平均加速 11.5 倍' \
    'gmean (5 workloads): 11.5 x'; do
    fresh argmax grandliu__argmax; sed -i "s/几何平均提升（5 workload）= 11.5×/$claim/" "$P/opt_log.md"
    verdict 1 S4-SPEEDUP; expect_grep "opt_log.md:199: error: [S4-SPEEDUP] claimed geometric-mean speedup 11.5x" "$OUT"
done
for head in '## 最终性能测试数据' '## Final Performance Data' '### Final Performance Test Data (round 6)'; do
    fresh argmax grandliu__argmax; sed -i "s/^## Final Performance Test Data\$/$head/" "$P/opt_log.md"
    verdict 1 S4-SPEEDUP; expect_grep "give 7.187x over 5 workloads" "$OUT"
done
# the true figure, in any of them, is no error
fresh argmax grandliu__argmax; sed -i "s/几何平均提升（5 workload）= 11.5×/几何均值（5 workload）= 7.19×/" "$P/opt_log.md"
verdict 0; expect_no_grep "S4-SPEEDUP" "$OUT"
expect_no_grep "error: [S4-PERF" "$OUT"
fresh argmax grandliu__argmax; sed -i 's/| 25.890 | 11.775 |/| 25.890 | 12.364 |/' "$P/opt_log.md"
verdict 1 S4-PERF-RECORDS-RECON
fresh argmax grandliu__argmax; delete_table '- 候选 vs current best（r1a_chain）对比表：'
verdict 1 S4-OPTLOG-COMPTABLE; expect_grep "for round 2," "$OUT"
# records 1 and 6: lm-head fp16 baseline and round 1
fresh argmax grandliu__argmax; swap_records 1 6; verdict 1 S4-PERF-RECORDS-ORDER
fresh argmax grandliu__argmax; append_check 2

# ---- mish: three appended sessions; the records are the last run's ----
fresh mish grandliu__mish; verdict 0
expect_grep "warning: [S4-FINAL-RESTATED]" "$OUT"
# the latest word under other headings (after a Final Summary, a section
# of the log): still read as the final one, superseding line 499's (the
# warning at 703 says so; read as before, 499's block was final)
for head in '## P.7 最终结果（Round 2）' '## P.7 Final Result (Round 2)' '## P.7 交付结论' '## Final Results'; do
    fresh mish grandliu__mish; sed -i "s/^## P.7 最终结论（Round 2 终态）\$/$head/" "$P/opt_log.md"
    verdict 0; expect_grep "opt_log.md:703: warning: [S4-FINAL-RESTATED]" "$OUT"
done
# the final figures are the P.5 table's, which P.7 (the latest word) concludes on
fresh mish grandliu__mish; sed -i 's/| 53.84（A\/B 53.80） | 41.02 |/| 53.84（A\/B 53.80） | 43.07 |/' "$P/opt_log.md"
verdict 1 S4-PERF-RECORDS-RECON
fresh mish grandliu__mish; delete_table '### Experiment Branches（Round 2）'
verdict 1 S4-OPTLOG-COMPTABLE; expect_grep "for round 1 of the log's last tuning run" "$OUT"
# records 3 and 10: yolo_p4_fp16 baseline and its round-1 v5_op8
fresh mish grandliu__mish; swap_records 3 10; verdict 1 S4-PERF-RECORDS-ORDER
fresh mish grandliu__mish; append_check 2
exit 0
