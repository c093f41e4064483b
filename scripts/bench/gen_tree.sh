#!/bin/sh
# gen_tree.sh ROOT DIRS RECORDS: writes DIRS operator directories
# ROOT/op<i>/perf_opt/ with RECORDS v1 records each (4 workloads, a
# baseline round then rounds of 5 candidates, each the child of the
# previous round's first candidate), an opt_log.md with one "candidate vs
# current best" table per round and a Final Summary whose final_latency
# claims are the winner's recorded durations. Numbers differ per directory
# so no two files are identical. One awk process writes everything.
# Prints the total size in bytes of the perf_records.jsonl files.
set -eu
[ $# -eq 3 ] || { echo "usage: gen_tree.sh ROOT DIRS RECORDS" >&2; exit 2; }
root=$1 dirs=$2 recs=$3
mkdir -p "$root"
i=0
while [ "$i" -lt "$dirs" ]; do mkdir -p "$root/op$i/perf_opt"; i=$((i + 1)); done
awk -v root="$root" -v dirs="$dirs" -v recs="$recs" 'BEGIN {
  W = 4; C = 5; total = 0
  for (d = 0; d < dirs; d++) {
    rf = root "/op" d "/perf_opt/perf_records.jsonl"
    lf = root "/op" d "/perf_opt/opt_log.md"
    printf "# op%d tuning log\n\n## Round 0 (baseline)\n\n", d > lf
    n = 0; r = 0; best = "baseline"
    for (w = 0; w < W; w++) base[w] = 20 + (d % 97) * 0.5 + w * 7.25
    while (n < recs) {
      ncand = (r == 0) ? 1 : C
      if (r > 0) {
        printf "## Round %d\n\n**candidate vs current best (round %d)**\n\n", r, r > lf
        printf "| candidate | workload | Task Duration (us) | vs best |\n|---|---|---|---|\n" > lf
      }
      for (c = 0; c < ncand && n < recs; c++) {
        id = (r == 0) ? "baseline" : sprintf("r%d_c%d", r, c)
        parent = (r == 0) ? "null" : "\"" best "\""
        for (w = 0; w < W && n < recs; w++) {
          dur = base[w] * (1 - 0.004 * r) * (1 + 0.01 * c)
          line = sprintf("{\"round\": %d, \"candidate_id\": \"%s\", \"parent_id\": %s, \"dispatch_path\": \"op%d_kernel::main\", \"workload\": \"w%d\", \"duration_us\": %.3f, \"l0_pass\": true, \"msprof_raw_path\": \"perf_opt/profiles/round%d/%s/w%d/\", \"timestamp\": \"2026-10-%02dT%02d:%02d:%02dZ\"}", r, id, parent, d, w, dur, r, id, w, 1 + r % 28, (n / 3600) % 24, (n / 60) % 60, n % 60)
          print line > rf
          total += length(line) + 1
          if (c == 0) fin[w] = dur
          if (r > 0) printf "| %s | w%d | %.3f | %+.1f%% |\n", id, w, dur, -0.4 + c > lf
          n++
        }
      }
      if (r > 0) { best = sprintf("r%d_c0", r); printf "\n" > lf }
      r++
    }
    printf "## Final Summary\n\n- best: %s\n", best > lf
    for (w = 0; w < W; w++) printf "- w%d: final_latency: %.3f us\n", w, fin[w] > lf
    printf "- stop_reason: budget_exhausted\n\n## Skill Retrospective\n\nGenerated for benchmarks.\n" > lf
    close(rf); close(lf)
  }
  print total
}'
