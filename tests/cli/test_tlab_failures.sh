# tlab when things go wrong: a failing bench, a run over --timeout (its whole
# process tree killed), no profiler, an unwritable workdir, no data, usage.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
cd "$TMPDIR_TEST"
# alive PID: running and not a zombie
alive() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^[ZX]'; }

# a bench that exits non-zero: exit 1, the JSON error names the run's log
expect_exit 1 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir failing \
    --a-cmd "$FK --mean 10" --b-cmd "$FK --mean 9 --exit 3"
expect_grep '"error":	"pair 1 B: the run exited with status 3; see log '"'"'failing/logs/pair1B.log'"'"'' "$OUT"
expect_grep '"log":	"failing/logs/pair1B.log"' "$OUT"
expect_grep "tlab: error: pair 1 B" "$ERR"
expect_grep "the application exited with status 3" failing/logs/pair1B.log
# what finished before is kept
[ "$(wc -l <failing/runs.jsonl)" -eq 1 ] || fail "pair 1 A should be recorded"
expect_grep '"runs_recorded":	1' "$OUT"

# a run over --timeout: exit 1, and nothing of its process tree survives
cat >hang.sh <<EOS
#!/bin/sh
echo \$\$ > "$TMPDIR_TEST/hang.pid"
sleep 300 &
echo \$! > "$TMPDIR_TEST/bg.pid"
wait
EOS
chmod +x hang.sh
expect_exit 1 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir slow --timeout 2 \
    --a-cmd "$TMPDIR_TEST/hang.sh" --b-cmd "$FK --mean 9"
expect_grep "pair 1 A: the run timed out after" "$OUT"
expect_grep "process group killed" "$OUT"
expect_grep '"log":	"slow/logs/pair1A.log"' "$OUT"
[ -s hang.pid ] && [ -s bg.pid ] || fail "the hanging bench did not start within the timeout"
for p in "$(cat hang.pid)" "$(cat bg.pid)"; do
    ! alive "$p" || fail "process $p of the timed-out run is still alive"
done
[ ! -s slow/runs.jsonl ] || fail "a timed-out run must not be recorded"

# no profiler: exit 2, from --msprof, from TLAB_MSPROF, or from PATH
expect_exit 2 "$TLAB" --protocol ref --msprof "$TMPDIR_TEST/no-msprof" --a-cmd "$FK --mean 10" --b-cmd "$FK --mean 9"
expect_grep "profiler '$TMPDIR_TEST/no-msprof' not found" "$ERR"
expect_grep '"error":' "$OUT"
TLAB_MSPROF=/nonexistent/msprof expect_exit 2 "$TLAB" --protocol ref --a-cmd "$FK --mean 10" --b-cmd "$FK --mean 9"
expect_grep "profiler '/nonexistent/msprof' not found" "$ERR"
mkdir emptybin
PATH=$TMPDIR_TEST/emptybin expect_exit 2 "$TLAB" --protocol ref --a-cmd x --b-cmd y
expect_grep "profiler 'msprof' not found" "$ERR"
[ ! -e perf_opt ] || fail "nothing may be created when the profiler is missing"

# a workdir that cannot be created
: >afile
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --workdir afile/sub --a-cmd "$FK --mean 10" --b-cmd "$FK --mean 9"
expect_grep "work directory 'afile/sub' is not writable" "$ERR"

# the profiler runs but captures nothing of that kernel: exit 1 naming the log
expect_exit 1 "$TLAB" --protocol ref --msprof "$FAKE" --kernel-name other_kernel --workdir nodata \
    --a-cmd "$FK --mean 10" --b-cmd "$FK --mean 9"
expect_grep "pair 1 A: no profiler data in 'nodata/pair1A'" "$OUT"
expect_grep "see log 'nodata/logs/pair1A.log'" "$OUT"

# usage errors: exit 2 before anything runs
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --a-cmd x
expect_grep "option '--b-cmd' is required" "$ERR"
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --a-cmd x --b-cmd y --pairs 0
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --a-cmd x --b-cmd y --noise 2
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --a-cmd x --b-cmd y --timeout 0
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --a-cmd x --b-cmd y --launch-count 0
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --a-cmd x --b-cmd y --protocol bayes
expect_grep "option '--protocol' wants fast, seq or ref, got 'bayes'" "$ERR"
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --a-cmd x --b-cmd y --frobnicate
expect_exit 0 "$TLAB" --protocol ref --help
expect_grep "--launch-count N" "$OUT"
expect_exit 0 "$TLPERF" help ab
expect_grep "usage: tlab" "$OUT"
[ ! -e perf_opt ] || fail "usage errors must not create the default workdir"
