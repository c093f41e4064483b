#!/bin/sh
# The reference fixtures of ../shared/reference-fixtures, each row of
# EXPECTED.md applied to a scratch copy: tlgate keeps the old gates'
# verdicts under the default severities.
. "$ROOT/tests/cli/lib.sh"
need_shared
set -e
FX=$SHARED/reference-fixtures
[ -d "$FX" ] || skip "no reference fixtures"
n=0
# fresh NAME: a scratch copy of fixture NAME in $D
fresh() { n=$((n + 1)); D=$TMPDIR_TEST/c$n; mkdir -p "$D"; cp -R "$FX/$1" "$D/"; chmod -R u+w "$D"; P=$D/$1/perf_opt; }
# verdict CODE [RULE] [SEVERITY]: run the gate on $P
verdict() {
    expect_exit "$1" "$TLGATE" "$P"
    if [ -n "${2:-}" ]; then expect_grep "${3:-error}: [$2]" "$OUT"; fi
}

# ---- v1 ----
fresh v1; verdict 0
fresh v1; sed -i 's/final_latency: 100.0 us/final_latency: 100.9 us/' "$P/opt_log.md"; verdict 0
fresh v1; sed -i 's/final_latency: 100.0 us/final_latency: 50.0 us/' "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
fresh v1; sed -i '/final_latency/d' "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
fresh v1; rm "$P/perf_records.jsonl"; verdict 0 S4-PERF-RECORDS warning
fresh v1; printf '\n' > "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS
fresh v1; echo not-json >> "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-SCHEMA
fresh v1; echo '{"round": 2, "candidate_id": "x"}' >> "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-SCHEMA
fresh v1; sed -i 's/"duration_us": 100.0/"duration_us": "fast"/' "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-SCHEMA
fresh v1; sed -i '/^| 候选 | Task Duration/d; s/current best (baseline)/基线/' "$P/opt_log.md"; verdict 1 S4-OPTLOG-COMPTABLE
fresh v1; rm "$P/opt_log.md"; verdict 1 S4-OPTLOG
fresh v1; : > "$P/opt_log.md"; verdict 1 S4-OPTLOG
fresh v1; sed -i 's/## Skill Retrospective/## Notes/' "$P/opt_log.md"; verdict 0 S4-OPTLOG warning

# ---- v2 ----
fresh v2-single; verdict 0
fresh v2-multi; verdict 0
fresh v2-single; sed -i 's/| 120.5 | 100.0 |/| 120.5 | 100.5 |/' "$P/opt_log.md"; verdict 0
fresh v2-single; sed -i 's/| 120.5 | 100.0 |/| 120.5 | 50.0 |/' "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
fresh v2-single; sed -i 's/## Final Performance Test Data/## Final numbers/' "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
fresh v2-single; rm "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-COVERAGE
fresh v2-single; printf '\n' > "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-COVERAGE
fresh v2-single; sed -i 's/current best/baseline only/' "$P/opt_log.md"; verdict 1 S4-OPTLOG-COMPTABLE
fresh v2-single; rm "$P/workload_inventory.json"; verdict 1 S4-WORKLOAD-INVENTORY
fresh v2-multi; sed -i '/profiles\/final\/yolo-p4-f16/d' "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-COVERAGE
fresh v2-multi; sed -i '4s/"candidate_id": "merged-best"/"candidate_id": "other-best"/' "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-RECON
fresh v2-multi; sed -i '0,/"precision_pass": true/s//"precision_pass": false/' "$P/workload_inventory.json"; verdict 1 S4-WORKLOAD-INVENTORY
fresh v2-multi; head -n 1 "$P/perf_records.jsonl" | sed 's/yolo-p3-f16/warmup-f16/g' >> "$P/perf_records.jsonl"; verdict 1 S4-PERF-RECORDS-COVERAGE
fresh v2-multi; sed -i 's/"marks": \["smoke"\], "shape": \[128\], "dtype": "float16", "params": {}, "kind": "smoke"/"marks": ["smoke"], "shape": [128], "dtype": "float16", "params": {}, "kind": "tune"/' "$P/workload_inventory.json"; verdict 1 S4-WORKLOAD-INVENTORY
fresh v2-multi; echo "# edited" >> "$P/t.py"; verdict 1 S4-PERF-RECORDS-RECON
fresh v2-multi; sed -i '0,/, "tuning_status": "winner_merged"/s///' "$P/workload_inventory.json"; verdict 1 S4-WORKLOAD-INVENTORY
fresh v2-multi; sed -i '/^| kernels\/mish.py::main | yolo-p4-f16/a | kernels/mish.py::main | warmup-f16 | 1.0 | 1.0 | merged-best |' "$P/opt_log.md"; verdict 1 S4-PERF-RECORDS-RECON
echo "$n cases"
