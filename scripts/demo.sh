#!/bin/sh
# make demo: the whole Stage 4 loop on the bundled demo operator
# (testdata/demo-op), with the fake profiler (scripts/fake-msprof) and the
# fake kernel (build/bin/fake-kernel) standing in for msprof op and the NPU:
#   1. one tlab session (interleaved A/B/A/B arbitration), as a warm-up;
#   2. tlperf loop: init, baseline, three rounds (a clear winner; a gain
#      under 5% that goes to tlab; a branch that fails L0), status, finish,
#      which runs the gate;
#   3. the gate failing on a copy whose final_latency was edited, and on a
#      copy of its Stage Result edited the same way (tlgate --stage-result);
#   4. the Stage Result block for the conductor (tlperf loop report).
# Everything goes to demo-out/ (scratch, replaced on each run), or to
# DEMO_OUT when set (tests/cli/test_demo.sh runs the demo in a scratch dir).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
T=$B/bin/tlperf
FK=$B/bin/fake-kernel
FM=$ROOT/scripts/fake-msprof
OUT=${DEMO_OUT:-$ROOT/demo-out}
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
SHOWN=${DEMO_OUT:-demo-out}
[ -x "$FK" ] && [ -x "$T" ] || { echo "demo: build first (make)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
say() { printf '\n== %s\n' "$*"; }
# The echo goes to fd 3 (the terminal's stdout): a command whose output is
# redirected to a file (ab.json) must leave that file exactly its output.
exec 3>&1
run() { # echo the command as a user would type it, then run it
    line=
    for a in "$@"; do case $a in *" "*) line="$line '$a'" ;; *) line="$line $a" ;; esac; done
    printf '$%s\n' "$line" | sed "s|$T|tlperf|; s|$B/bin/tlab|tlab|; s|$B/bin/tlgate|tlgate|; s|$OUT/||g; s|$ROOT/||g" >&3
    "$@"
}

say "1. tlab: incumbent A (8.40 us) vs candidate B (8.00 us), the default protocol fast (stops when the verdict is clear: 3 to 16 interleaved pairs)"
W=$OUT/ab
run "$B/bin/tlab" --msprof "$FM" --workdir "$W" --launch-count 15 --warm-up 5 \
    --kernel-name main --a-cmd "$FK --mean 8.40 --seed 42" --b-cmd "$FK --mean 8.00 --seed 42" \
    >"$W.json" 2>"$OUT/ab.log"
# the top-level fields only (one tab deep): "exact" and "ref" repeat some names
sed -n 's/^\t"\(verdict\|pairs\|stop_reason\|gain\|b_rel_change\)":[[:space:]]*\(.*\),$/   \1: \2/p' "$W.json"

say "2. tlperf loop on the demo operator demo_add (two workloads, two dispatch paths)"
OP=$OUT/demo_add
mkdir -p "$OP"
cp "$ROOT"/testdata/demo-op/* "$OP"/
cd "$OP"
run "$T" loop init --op demo_add --baseline demo_add.py \
    --workload n1024@demo_add::small --workload n65536@demo_add::large \
    --bench-cmd "sh bench.sh $FK {impl} {workload}" --l0-cmd "sh l0.sh {impl}" \
    --msprof "$FM" --kernel-name demo_add
# the engineer writes candidate kernels next to the log, as the seeds say
mv demo_add_opt_v*.py perf_opt/
run "$T" loop baseline 2>>"$OUT/loop.log"
say "round 1: tile (larger tiles) and ub (UB reuse), both derived from the baseline"
run "$T" loop round 1 --branch tile=perf_opt/demo_add_opt_v1_tile.py \
    --branch ub=perf_opt/demo_add_opt_v1_ub.py 2>>"$OUT/loop.log"
say "round 2: dbuf (double buffering on tile), a gain under 5%: tlab arbitrates"
run "$T" loop round 2 --branch dbuf=perf_opt/demo_add_opt_v2_dbuf.py 2>>"$OUT/loop.log"
say "round 3: vec (another vectorisation axis), which fails L0"
run "$T" loop round 3 --branch vec=perf_opt/demo_add_opt_v3_vec.py 2>>"$OUT/loop.log"
run "$T" loop status
say "finish: perf_opt/demo_add.py, the final measurement, the Final Summary, the gate"
run "$T" loop finish >"$OUT/finish.out" 2>>"$OUT/loop.log"
sed '/^## Stage Result/,$d' "$OUT/finish.out"
echo "   (and the Stage Result, shown at the end; a copy is in perf_opt/logs/stage_result.md)"
sed -n '/^## Final Summary/,/^<!--/p' perf_opt/opt_log.md | grep -v '^<!--'

say "3. the gate on a copy whose final_latency was edited by hand"
cp -R "$OP" "$OUT/edited"
sed -i 's/^- n1024: final_latency: .*/- n1024: final_latency: 7.000 us/' "$OUT/edited/perf_opt/opt_log.md"
set +e
run "$B/bin/tlgate" "$OUT/edited/perf_opt"
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "demo: the gate should have failed on the edited copy (exit $rc)" >&2; exit 1; }
echo "   (exit 1, as it must)"
say "   ... and on a copy of the Stage Result whose final_latency was edited the same way"
sed 's/^- n1024: final_latency: .*/- n1024: final_latency: 7.000 us/' \
    "$OP/perf_opt/logs/stage_result.md" >"$OUT/edited/stage_result.md"
set +e
run "$B/bin/tlgate" --stage-result "$OUT/edited/stage_result.md" "$OUT/edited"
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "demo: the gate should have refused the edited Stage Result (exit $rc)" >&2; exit 1; }
echo "   (exit 1, as it must)"

cat <<EOF

where to look ($SHOWN/):
  the tuning log          demo_add/perf_opt/opt_log.md   (baseline, rounds with their tables, Final Summary)
  the records             demo_add/perf_opt/perf_records.jsonl
  the plan                demo_add/perf_opt/loop.json    (edit it; 'tlperf help loop')
  L0 and bench logs       demo_add/perf_opt/logs/round<N>/
  raw profiles            demo_add/perf_opt/profiles/round<N>/<branch>/<workload>/OPPROF_*/
  tlab of round 2         demo_add/perf_opt/ab_r2_dbuf/
  the tuned kernel        demo_add/perf_opt/demo_add.py
  progress messages       loop.log; the warm-up tlab session: ab.json, ab/
  the Stage Result        demo_add/perf_opt/logs/stage_result.md (fill in its 'none' fields)
EOF

say "4. the Stage Result for the conductor (tlperf loop report; finish printed it too)"
run "$T" loop report 2>>"$OUT/loop.log"
