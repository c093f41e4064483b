#!/bin/sh
# gen_gate_tree.sh DIR NDIRS NRECORDS: writes DIR/opNNN/perf_opt/ trees
# that pass gate 4: v1 records (10 workloads, a baseline round and one new
# candidate per round), an opt_log.md with a comparison table per round and
# a Final Summary whose claims match the last round.
set -eu
root=$1 ndirs=$2 nrec=$3
mkdir -p "$root"
i=0
while [ "$i" -lt "$ndirs" ]; do
    d=$root/op$(printf '%03d' "$i")/perf_opt
    mkdir -p "$d"
    awk -v nrec="$nrec" -v seed="$i" -v lg="$d/opt_log.md" -v recs="$d/perf_records.jsonl" '
    # one second per measurement, in order: every stamp distinct and after
    # its parent (S4-PERF-RECORDS-TIME)
    function stamp(n) {
        return sprintf("2026-10-%02dT%02d:%02d:%02dZ", 1 + int(n / 86400), int(n % 86400 / 3600), int(n % 3600 / 60), n % 60)
    }
    BEGIN {
        nw = 10; rounds = int((nrec - nw) / nw)
        # 0.5% better each round; over thousands of rounds, half in all (so
        # a duration never rounds to 0.000 and every record stays valid)
        step = rounds > 1000 ? exp(log(0.5) / rounds) : 0.995
        printf "# tuning log %d\n\n## Baseline\n\nround 0 in perf_records.jsonl\n\n", seed > lg
        for (w = 0; w < nw; w++) {
            base[w] = 100 + w * 7 + seed % 5
            printf "{\"round\": 0, \"candidate_id\": \"baseline\", \"parent_id\": null, \"dispatch_path\": \"k%d::main\", \"workload\": \"w%d\", \"duration_us\": %.3f, \"l0_pass\": true, \"msprof_raw_path\": \"profiles\", \"timestamp\": \"%s\"}\n", w % 3, w, base[w], stamp(w) > recs
            cur[w] = base[w]
        }
        for (r = 1; r <= rounds; r++) {
            printf "## Iteration %d（round %d）\n\n**候选 vs current best 对比表（round %d）**\n\n| candidate | workload | Task Duration(us) | L0 |\n|---|---|---:|---|\n", r, r, r > lg
            for (w = 0; w < nw; w++) {
                d = cur[w] * (r == rounds ? 0.9 : step) # the last winner: clear of the A/B threshold
                printf "| c%d（best） | w%d | %.3f | pass |\n| c%d | w%d | %.3f | pass |\n", r - 1, w, cur[w], r, w, d > lg
                printf "{\"round\": %d, \"candidate_id\": \"c%d\", \"parent_id\": \"%s\", \"dispatch_path\": \"k%d::main\", \"workload\": \"w%d\", \"duration_us\": %.3f, \"l0_pass\": true, \"msprof_raw_path\": \"profiles\", \"timestamp\": \"%s\"}\n", r, r, (r == 1 ? "baseline" : "c" (r - 1)), w % 3, w, d, stamp(r * nw + w) > recs
                cur[w] = d
            }
            printf "\n" > lg
        }
        printf "## Final Summary\n\nbest: c%d\n", rounds > lg
        g = 0
        for (w = 0; w < nw; w++) {
            printf "- w%d: final_latency: %.3f us\n", w, cur[w] > lg
            g += log(base[w] / cur[w])
        }
        printf "- geomean speedup: %.4fx\n中止原因: success\n\n## Skill Retrospective\n\nnone\n", exp(g / nw) > lg
    }'
    mkdir -p "$d/profiles"
    i=$((i + 1))
done
