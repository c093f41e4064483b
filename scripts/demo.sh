#!/bin/sh
# make demo: the main job on bundled data. For now: one tlab session against
# the fake profiler (scripts/fake-msprof + build/bin/fake-kernel), so it runs
# on any machine. The candidate B is ~4.8% faster than the incumbent A, and
# every run lands in a fast or a slow state (+-2%), as on a real NPU.
# The session directory is scratch: build/demo/ab is replaced on each run.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
FK=$B/bin/fake-kernel
W=$B/demo/ab
[ -x "$FK" ] || { echo "demo: $FK is missing; run make" >&2; exit 2; }
rm -rf "$W"
mkdir -p "$B/demo"

echo "== tlab: A = incumbent (8.40 us), B = candidate (8.00 us), 5 interleaved pairs"
echo "   profiler: scripts/fake-msprof (stands in for 'msprof op')"
set +e
"$B/bin/tlab" --msprof "$ROOT/scripts/fake-msprof" --workdir "$W" --pairs 5 \
    --launch-count 15 --warm-up 5 --kernel-name main \
    --a-cmd "$FK --mean 8.40 --seed 42" --b-cmd "$FK --mean 8.00 --seed 42" >"$W.json"
rc=$?
set -e
cat "$W.json"
[ "$rc" -eq 0 ] || { echo "demo: tlab exited $rc" >&2; exit "$rc"; }

echo
echo "== one run's profile, read back: tlperf msprof $W/pair1B"
"$B/bin/tlperf" msprof "$W/pair1B" | tail -n 4
echo
echo "where to look:"
echo "  verdict JSON        $W.json"
echo "  one line per run    $W/runs.jsonl"
echo "  run logs            $W/logs/pair<i><A|B>.log"
echo "  msprof output       $W/pair<i><A|B>/OPPROF_*/"
echo "  try it on your NPU  tlab --a-cmd 'python3 bench.py --impl base' --b-cmd 'python3 bench.py --impl cand'"
