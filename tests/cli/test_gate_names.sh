#!/bin/sh
# Names are identities (util/uname.h): a workload, candidate or Final-table
# name is compared with the records after NFKC with invisible code points
# dropped, so an invisible or fullwidth character neither drops a claim nor
# hides it; a look-alike of a recorded name (Cyrillic, Greek, digit for
# letter) is an error naming both and the odd code points; best names a
# recorded candidate and every claim comes from that candidate's records.
# Fixtures: testdata/gate_formats/claims (v1: best r1_good, r2_bad rolled
# back) and testdata/gate/v2-multi (v2 Final table), tampered one way each.
. "$ROOT/tests/cli/lib.sh"
set -e
RECON="error: [S4-PERF-RECORDS-RECON]"
n=0
# fresh FIXTURE: a scratch copy of FIXTURE/perf_opt at $P
fresh() { n=$((n + 1)); P=$TMPDIR_TEST/c$n/op/perf_opt; mkdir -p "$P"; cp -R "$TESTDATA/$1/perf_opt/." "$P/"; chmod -R u+w "$P"; }
# edit SED-SCRIPT: applied to the log
edit() { sed -i "$1" "$P/opt_log.md"; }
verdict() { expect_exit "$1" "$TLGATE" "$P"; }
# claims: the v1 fixture with its "(smoke 保持 baseline)" aside reworded:
# the reader takes 保持 baseline for "nothing adopted", which turns the
# best's checks off (a reader matter, not a names one)
claims() { fresh gate_formats/claims; edit 's/（smoke 保持 baseline）/（smoke 计 1×）/'; }

ZWSP=$(printf '\342\200\213')   # U+200B ZERO WIDTH SPACE
ZWJ=$(printf '\342\200\215')    # U+200D ZERO WIDTH JOINER
SHY=$(printf '\302\255')        # U+00AD SOFT HYPHEN
BOM=$(printf '\357\273\277')    # U+FEFF
VS16=$(printf '\357\270\217')   # U+FE0F VARIATION SELECTOR-16
CYR_A=$(printf '\320\260')      # U+0430 CYRILLIC SMALL LETTER A
CYR_E=$(printf '\320\265')      # U+0435 CYRILLIC SMALL LETTER IE
CYR_O=$(printf '\320\276')      # U+043E CYRILLIC SMALL LETTER O
GRK_O=$(printf '\316\277')      # U+03BF GREEK SMALL LETTER OMICRON
CYR_I=$(printf '\321\226')      # U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I

# ---- the fixtures pass as they are ----
claims; verdict 0; expect_no_grep "error:" "$OUT"
fresh gate/v2-multi; verdict 0; expect_no_grep "error:" "$OUT"

# ---- v1 claims: an invisible or fullwidth character in a label is the
# same workload (the claim is checked, not dropped) ----
for inv in "$ZWSP" "$ZWJ" "$SHY" "$BOM" "$VS16"; do
    claims; edit "s/  - real-a: 40.00 us/  - re${inv}al-a: 40.00 us/"; verdict 0
    expect_no_grep "error:" "$OUT"
    # the same label with a false figure is caught: before, the label named
    # no workload and the list item was dropped as a note
    claims; edit "s/  - real-a: 40.00 us/  - re${inv}al-a: 30.00 us/"; verdict 1
    # (the Final Summary is read as a reader reads it: the invisible
    # character is gone from the label the message names)
    expect_grep "$RECON claimed final_latency 30 us for real-a does not match the winner's recorded measurement 40 us" "$OUT"
done
claims; edit 's/  - real-b: 58.82 us/  - ｒｅａｌ－ｂ: 58.82 us/'; verdict 0
claims; edit 's/  - real-b: 58.82 us/  - ｒｅａｌ－ｂ: 50.00 us/'; verdict 1
expect_grep "$RECON claimed final_latency 50 us for real-b does not match" "$OUT"

# ---- v1 claims: a look-alike label is an error naming both ----
claims; edit "s/  - real-a: 40.00 us/  - re${CYR_A}l-a: 40.00 us/"; verdict 1
expect_grep "opt_log.md:26: $RECON the claim's workload 're${CYR_A}l-a' is not the recorded 'real-a' but looks like it (U+0430 CYRILLIC SMALL LETTER A where the record has U+0061 LATIN SMALL LETTER A)" "$OUT"
claims; edit "s/  - real-b: 58.82 us/  - r${CYR_E}al-b: 20.00 us/"; verdict 1
expect_grep "the claim's workload 'r${CYR_E}al-b' is not the recorded 'real-b' but looks like it (U+0435 CYRILLIC SMALL LETTER IE where the record has U+0065 LATIN SMALL LETTER E)" "$OUT"
claims; edit 's/  - real-b: 58.82 us/  - rea1-b: 58.82 us/'; verdict 1
expect_grep "the claim's workload 'rea1-b' is not the recorded 'real-b' but looks like it (U+0031 DIGIT ONE where the record has U+006C LATIN SMALL LETTER L)" "$OUT"
claims; edit "s/  - real-a: 40.00 us/  - real-a: final_latency: 40.00 us/; s/  - real-b: 58.82 us/  - r${CYR_E}al-b: final_latency: 1.00 us/"; verdict 1
expect_grep "$RECON the claim's workload 'r${CYR_E}al-b' is not the recorded 'real-b'" "$OUT"
expect_no_grep "$RECON the claim's workload 'real-a'" "$OUT"
# an unrelated note stays a note
claims; edit 's/  - real-b: 58.82 us/  - real-b: 58.82 us\n  - copy-only floor: 20.00 us/'; verdict 0

# ---- best names a recorded candidate ----
claims; edit 's/- best: r1_good/- best: r3_great/'; verdict 1
expect_grep "opt_log.md:24: $RECON the Final Summary names best 'r3_great', which is not a recorded candidate_id (the records' candidates: 'r1_good', 'r2_bad'): every claim must come from the best's records" "$OUT"
claims; edit "s/- best: r1_good/- best: r1_g${CYR_O}${GRK_O}d/"; verdict 1
expect_grep "$RECON the Final Summary's best 'r1_g${CYR_O}${GRK_O}d' is not the recorded 'r1_good' but looks like it (U+043E CYRILLIC SMALL LETTER O, U+03BF GREEK SMALL LETTER OMICRON where the record has U+006F LATIN SMALL LETTER O, U+006F LATIN SMALL LETTER O)" "$OUT"
claims; edit 's/- best: r1_good/- best: perf_opt\/r1_g0od.py/'; verdict 1
expect_grep "$RECON the file stem of the Final Summary's best 'r1_g0od' is not the recorded 'r1_good' but looks like it (U+0030 DIGIT ZERO where the record has U+006F LATIN SMALL LETTER O)" "$OUT"
# written another way, the same candidate
claims; edit 's/- best: r1_good/- best: R1-Good/'; verdict 0; expect_no_grep "best" "$OUT"
claims; edit "s/- best: r1_good/- best: r1${ZWSP}_good/"; verdict 0; expect_no_grep "best" "$OUT"
claims; edit 's/- best: r1_good/- best: perf_opt\/r1_good.py/'; verdict 0; expect_no_grep "best" "$OUT"
# a candidate id followed by a description: that candidate, with a warning
claims; edit 's/- best: r1_good/- best: r1_good_tiled/'; verdict 0
expect_grep "warning: [S4-PERF-RECORDS-RECON] the Final Summary names best 'r1_good_tiled', which is not a recorded candidate_id: taken as the candidate 'r1_good' it starts with" "$OUT"
# the delivered file, whose candidate the gate cannot tell: a warning
claims; edit 's/- best: r1_good/- best: perf_opt\/rmsnorm.py/'; verdict 0
expect_grep "warning: [S4-PERF-RECORDS-RECON] the Final Summary names best 'perf_opt/rmsnorm.py', which is not a recorded candidate_id: claims are checked against any valid non-baseline record" "$OUT"

# ---- every claim comes from the best's records ----
claims; edit 's/  - real-a: 40.00 us/  - real-a: 44.00 us/'; verdict 1
expect_grep "$RECON claimed final_latency 44 us for real-a does not match the winner's recorded measurement 40 us ('r1_good', perf_records.jsonl line 4; deviation 10.0% > 1%); it matches candidate 'r2_bad' (perf_records.jsonl line 7), which is not the named best" "$OUT"
# smoke: only the rolled-back r2_bad measured it (5 us); the best leaves it
# at its baseline, so a geomean counting r2_bad's figure is false
claims; edit 's/几何平均加速比 2.04×（smoke 计 1×）/几何平均加速比 2.57×/'; verdict 1
expect_grep "error: [S4-SPEEDUP] claimed geometric-mean speedup 2.57x" "$OUT"
claims; edit 's/- best: r1_good/- best: r2_bad/'; verdict 1
expect_grep "$RECON claimed final_latency 40 us for real-a does not match the winner's recorded measurement 44 us ('r2_bad', perf_records.jsonl line 7; deviation 9.1% > 1%)" "$OUT"
expect_grep "no valid (l0_pass) record of the winner 'r2_bad' for workload real-b to reconcile final_latency 58.82 us with; it matches candidate 'r1_good' (perf_records.jsonl line 5), which is not the named best" "$OUT"

# ---- v2: the Final table's names ----
fresh gate/v2-multi; edit "s/| ops\/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |/| ops\/gelu.py::main | mid${ZWSP}-f16 | 90.0 | 72.0 | merged${SHY}-final |/"; verdict 0
expect_no_grep "error:" "$OUT"
fresh gate/v2-multi; edit "s/| ops\/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |/| ops\/gelu.py::main | mid-f16 | 90.0 | 72.0 | m${CYR_E}rged-final |/"; verdict 1
expect_grep "$RECON the Final table's final_candidate_id 'm${CYR_E}rged-final' is not the recorded 'merged-final' but looks like it (U+0435 CYRILLIC SMALL LETTER IE where the record has U+0065 LATIN SMALL LETTER E)" "$OUT"
fresh gate/v2-multi; edit "s/| ops\/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |/| ops\/gelu.py::main | m${CYR_I}d-f16 | 90.0 | 72.0 | merged-final |/"; verdict 1
expect_grep "$RECON the Final table's workload_id 'm${CYR_I}d-f16' is not the recorded 'mid-f16' but looks like it (U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I where the record has U+0069 LATIN SMALL LETTER I)" "$OUT"
expect_no_grep "which is not a tune workload" "$OUT"
fresh gate/v2-multi; edit "s/| ops\/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |/| ${CYR_O}ps\/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |/"; verdict 1
expect_grep "$RECON the Final table's kernel_id '${CYR_O}ps/gelu.py::main' is not the recorded 'ops/gelu.py::main' but looks like it (U+043E CYRILLIC SMALL LETTER O where the record has U+006F LATIN SMALL LETTER O)" "$OUT"
# the rows after a look-alike row are still checked
fresh gate/v2-multi; edit "s/| ops\/gelu.py::main | big-f16 | 200.0 | 150.0 | merged-final |/| ops\/gelu.py::main | b${CYR_I}g-f16 | 200.0 | 150.0 | merged-final |/; s/| ops\/gelu.py::main | mid-f16 | 90.0 | 72.0 | merged-final |/| ops\/gelu.py::main | mid-f16 | 90.0 | x | merged-final |/"; verdict 1
expect_grep "$RECON the Final table's workload_id 'b${CYR_I}g-f16' is not the recorded 'big-f16'" "$OUT"
expect_grep "$RECON the Final table row for 'ops/gelu.py::main' / 'mid-f16' has a baseline_us or final_us that is not a number" "$OUT"
echo "$n cases"
