# tlab and Ctrl-C: SIGINT mid-session kills the running run, keeps every
# finished run in runs.jsonl, exits 130; --resume finishes the job. A
# journal is never overwritten, and a resume must be the same comparison.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
cd "$TMPDIR_TEST"
alive() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^[ZX]'; }
# The bench of pairs 2 and 3 waits for a "go" file: the session is
# interrupted while pair 2's first run is running, whatever the machine's load.
cat >gated.sh <<EOS
#!/bin/sh
case \$FAKE_MSPROF_OUTPUT in
    */pair1?) ;;
    *) echo started >"$TMPDIR_TEST/started"
       while [ ! -e "$TMPDIR_TEST/go" ]; do sleep 0.05; done ;;
esac
exec "$FK" "\$@"
EOS
chmod +x gated.sh
A="$TMPDIR_TEST/gated.sh --mean 10 --seed 7"
B="$TMPDIR_TEST/gated.sh --mean 9 --seed 7"

"$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w --a-cmd "$A" --b-cmd "$B" >int.out 2>int.err &
pid=$!
# wait (bounded) until pair 1 is recorded and pair 2 has started, then Ctrl-C
i=0
while [ ! -e started ] || [ "$(cat w/runs.jsonl 2>/dev/null | wc -l)" -lt 2 ]; do
    i=$((i + 1)); [ $i -lt 1200 ] || { kill "$pid"; fail "pair 2 never started"; }
    sleep 0.05
done
kill -INT "$pid"
set +e; wait "$pid"; rc=$?; set -e
[ "$rc" -eq 130 ] || { cat int.err; fail "interrupted tlab exited $rc, wanted 130"; }
expect_grep "interrupted by signal 2" int.err
expect_grep "rerun with --resume" int.err
expect_grep '"error":' int.out
kept=$(wc -l <w/runs.jsonl)
[ "$kept" -eq 2 ] || fail "expected the 2 runs of pair 1 recorded, got $kept"
[ -d w/pair2B ] || fail "pair 2 B (running when interrupted) should have its directory"
# no fake-kernel of this session survives
for p in $(ps -eo pid=,args= | awk -v w="$TMPDIR_TEST/w/" 'index($0, "fake-msprof") && index($0, w) {print $1}'); do
    ! alive "$p" || fail "profiler process $p survived the interrupt"
done

# without --resume an existing journal is refused and left as it was
cksum w/runs.jsonl >before
cp w/runs.jsonl before_copy
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w --a-cmd "$A" --b-cmd "$B"
expect_grep "already holds $kept runs: continue them with --resume" "$ERR"
# a resume of another comparison is refused too
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w --resume --a-cmd "$A" --b-cmd "$FK --mean 8"
expect_grep "was measured with --b-cmd" "$ERR"
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 4 --workdir w --resume --a-cmd "$A" --b-cmd "$B"
expect_grep "resume with the same settings" "$ERR"
cksum w/runs.jsonl >after
cmp -s before after || fail "refused invocations modified runs.jsonl"

# --resume runs only what is missing and reaches the verdict
: >go
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w --resume --a-cmd "$A" --b-cmd "$B"
expect_grep '"verdict":	"B_better"' "$OUT"
expect_grep "\"resumed_runs\":	$kept" "$OUT"
expect_grep "(recorded)" "$ERR"
[ "$(wc -l <w/runs.jsonl)" -eq 6 ] || fail "runs.jsonl should end with 6 runs"
# the first lines are untouched (append only)
head -c "$(wc -c <before_copy)" w/runs.jsonl | cmp -s - before_copy || fail "recorded runs were rewritten"
[ "$(ls -d w/pair[1-3][AB] | wc -l)" -eq 6 ] || fail "six run directories expected"
# the interrupted attempt was moved aside, not deleted
[ -d w/pair2B.unfinished-1 ] || fail "w/pair2B.unfinished-1 expected"
[ -f w/logs/pair2B.unfinished-1.log ] || fail "w/logs/pair2B.unfinished-1.log expected"

# an unrecorded earlier attempt (its directory and log) is moved aside, not deleted
mkdir -p w4/pair1A w4/logs
echo old >w4/pair1A/marker
echo old-log >w4/logs/pair1A.log
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w4 --a-cmd "$FK --mean 10" --b-cmd "$FK --mean 9"
expect_grep old w4/pair1A.unfinished-1/marker
expect_grep old-log w4/logs/pair1A.unfinished-1.log
expect_grep "Profiling results saved" w4/logs/pair1A.log

# a journal whose last line a crash cut short: warned, that run measured
# again, the damage kept on its own line
mkdir w2
head -n 5 w/runs.jsonl >w2/runs.jsonl
printf '{"v":1,"arm":"B","pair":3,"ord' >>w2/runs.jsonl
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w2 --resume --a-cmd "$A" --b-cmd "$B"
expect_grep "w2/runs.jsonl:6: 1 damaged line" "$ERR"
expect_grep '"resumed_runs":	5' "$OUT"
[ "$(wc -l <w2/runs.jsonl)" -eq 7 ] || fail "the new run goes on a line of its own"
sed -n 7p w2/runs.jsonl | grep -q '^{"v":1,"arm":"B","pair":3,"order":2' || fail "line 7 should be the new run"
# and the next resume reads it all back: nothing left to run
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w2 --resume --a-cmd "$A" --b-cmd "$B"
expect_grep '"resumed_runs":	6' "$OUT"
[ "$(wc -l <w2/runs.jsonl)" -eq 7 ] || fail "a complete session appends nothing"

# valid JSON that is not a run: an error naming the line, exit 2
mkdir w3
printf '{"arm":"C","pair":1}\n' >w3/runs.jsonl
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --workdir w3 --resume --a-cmd "$A" --b-cmd "$B"
expect_grep 'w3/runs.jsonl:1: "arm" must be "A" or "B"' "$ERR"
