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
expect_grep "w2/runs.jsonl:6: a run's line cut short by a crash mid-write: ignored (kept in the file)" "$ERR"
expect_grep '"resumed_runs":	5' "$OUT"
expect_grep '"lost_runs":	1' "$OUT"
[ "$(wc -l <w2/runs.jsonl)" -eq 7 ] || fail "the new run goes on a line of its own"
sed -n 7p w2/runs.jsonl | grep -q '^{"v":1,"arm":"B","pair":3,"order":2' || fail "line 7 should be the new run"
sed -n 7p w2/runs.jsonl | grep -q '"after_torn":6,' || fail "line 7 should acknowledge the torn line 6"
# and the next resume reads it all back: nothing left to run
expect_exit 0 "$TLAB" --protocol ref --msprof "$FAKE" --launch-count 3 --workdir w2 --resume --a-cmd "$A" --b-cmd "$B"
expect_grep '"resumed_runs":	6' "$OUT"
[ "$(wc -l <w2/runs.jsonl)" -eq 7 ] || fail "a complete session appends nothing"

# valid JSON that is not a run: an error naming the line, exit 2
mkdir w3
printf '{"arm":"C","pair":1}\n' >w3/runs.jsonl
expect_exit 2 "$TLAB" --protocol ref --msprof "$FAKE" --workdir w3 --resume --a-cmd "$A" --b-cmd "$B"
expect_grep 'w3/runs.jsonl:1: "arm" must be "A" or "B"' "$ERR"

# ---- a session is its journal: seed and settings (issue 37) ----
# seq sessions on --source stdout: each run prints one duration (B ~5%
# faster, the pair number in the last digit)
printf '#!/bin/sh\necho 10.0$TLAB_PAIR\n' >a.sh
printf '#!/bin/sh\necho 9.5$TLAB_PAIR\n' >b.sh
chmod +x a.sh b.sh
S="--source stdout --a-cmd ./a.sh --b-cmd ./b.sh"
expect_exit 0 "$TLAB" $S --workdir full --seed 5
cp "$OUT" full.json
n=$(wc -l <full/runs.jsonl)
[ "$(grep -c '"seed":5,' full/runs.jsonl)" -eq "$n" ] || fail "every run records its seed"
for k in '"warm_up":5,' '"source":"stdout",' '"noise":0.03,' '"min_gain":0.01,'; do
    [ "$(grep -cF "$k" full/runs.jsonl)" -eq "$n" ] || fail "every run records $k"
done
# order ORDER-FILE JOURNAL: "pair arm order" of every run, sorted
order() { grep '}$' "$1" | sed 's/.*"arm":"\(.\)","pair":\([0-9]*\),"order":\(.\).*/\2 \1 \3/' | sort; }
order full/runs.jsonl >full.order
# partial JOURNAL-DIR [LINES]: the first 4 runs of the full session
partial() { rm -rf "$1"; mkdir "$1"; head -n "${2:-4}" full/runs.jsonl >"$1/runs.jsonl"; cp "$1/runs.jsonl" "$1.before"; }
unchanged() { cmp -s "$1/runs.jsonl" "$1.before" || fail "$1/runs.jsonl changed by a refused resume"; }

# another --seed: refused, naming file, line and both seeds; nothing written
partial s1
expect_exit 2 "$TLAB" $S --workdir s1 --resume --seed 6
expect_grep "tlab: error: s1/runs.jsonl:1: run 1A was ordered with --seed 5, not --seed 6; resume without --seed (the journal's is used) or with --seed 5" "$ERR"
[ "$(grep -c 'error' "$ERR")" -eq 1 ] || fail "one line of error"
expect_grep '"error":' "$OUT"
unchanged s1
# no --seed: the journal's, said on stderr; the same order as the whole session
expect_exit 0 "$TLAB" $S --workdir s1 --resume
expect_grep "resuming with --seed 5, recorded in s1/runs.jsonl:1" "$ERR"
expect_grep '"order_seed":	5,' "$OUT"
order s1/runs.jsonl | cmp -s - full.order || fail "a resume without --seed drew another order"
# the same --seed given: accepted
partial s2
expect_exit 0 "$TLAB" $S --workdir s2 --resume --seed 5
expect_grep '"order_seed":	5,' "$OUT"
# two seeds in one journal, none given: refused
partial s3
sed -i '3,4s/"seed":5,/"seed":8,/' s3/runs.jsonl; cp s3/runs.jsonl s3.before
expect_exit 2 "$TLAB" $S --workdir s3 --resume
expect_grep "s3/runs.jsonl:3: run 2" "$ERR"
expect_grep "with --seed 8, line 1's run with --seed 5: two sessions in one journal" "$ERR"
unchanged s3
# an older journal (no seed, no settings recorded) resumes and says what it assumed
partial old
sed -i 's/"warm_up":5,"source":"stdout","seed":5,"noise":0.03,"min_gain":0.01,//' old/runs.jsonl
! grep -q '"seed"' old/runs.jsonl || fail "the old journal should have no seed"
cp -r old old2
expect_exit 0 "$TLAB" $S --workdir old --resume
expect_grep "old/runs.jsonl records no --seed (a journal from a tlab before 2026-12-05): the pairs still to measure are ordered with --seed" "$ERR"
expect_grep "(drawn now)" "$ERR"
expect_grep "old/runs.jsonl:1: a journal from a tlab before 2026-12-05 records no --warm-up --source --noise --min-gain: resuming with the values of this invocation" "$ERR"
expect_exit 0 "$TLAB" $S --workdir old2 --resume --seed 7
expect_grep "ordered with --seed 7 (given)" "$ERR"
expect_grep '"order_seed":	7,' "$OUT"
# the other settings that define the session: each refused with both values
partial st
expect_exit 2 "$TLAB" $S --workdir st --resume --noise 0.04
expect_grep "st/runs.jsonl:1: run 1A was decided with --noise 0.03, not --noise 0.04; resume with --noise 0.03" "$ERR"
expect_exit 2 "$TLAB" $S --workdir st --resume --min-gain 0.02
expect_grep "st/runs.jsonl:1: run 1A was decided with --min-gain 0.01, not --min-gain 0.02" "$ERR"
expect_exit 2 "$TLAB" $S --workdir st --resume --warm-up 2
expect_grep "st/runs.jsonl:1: run 1A was measured with --warm-up 5, not --warm-up 2" "$ERR"
expect_exit 2 "$TLAB" --source "csv:*.csv:us" --a-cmd ./a.sh --b-cmd ./b.sh --workdir st --resume
expect_grep "st/runs.jsonl:1: run 1A was measured with --source 'stdout', not 'csv:*.csv:us'" "$ERR"
unchanged st

# ---- damaged journals: lost runs are never decided on silently ----
# damage in the middle: refused (exit 2, file, first line, count), nothing
# changed; --accept-lost-runs goes on and the verdict says so
partial d1 6
sed -i '3s/.*/this line is not a run/' d1/runs.jsonl; cp d1/runs.jsonl d1.before
expect_exit 2 "$TLAB" $S --workdir d1 --resume
expect_grep "tlab: error: d1/runs.jsonl:3: 1 damaged line (the first here" "$ERR"
expect_grep "resume with --accept-lost-runs" "$ERR"
unchanged d1
expect_exit 0 "$TLAB" $S --workdir d1 --resume --accept-lost-runs
expect_grep '"lost_runs":	1,' "$OUT"
expect_grep '"resumed_runs":	5,' "$OUT"
expect_grep "this session lost 1 run (damaged lines of d1/runs.jsonl, the first at line 3)" "$ERR"
head -c "$(wc -c <d1.before)" d1/runs.jsonl | cmp -s - d1.before || fail "d1: recorded lines were rewritten"
# 22 damaged lines between the runs
partial d22 4
for i in $(seq 1 22); do echo "{broken $i" >>d22/runs.jsonl; done
sed -n 5,6p full/runs.jsonl >>d22/runs.jsonl; cp d22/runs.jsonl d22.before
expect_exit 2 "$TLAB" $S --workdir d22 --resume
expect_grep "d22/runs.jsonl:5: 22 damaged lines (the first here" "$ERR"
unchanged d22
expect_exit 0 "$TLAB" $S --workdir d22 --resume --accept-lost-runs
expect_grep '"lost_runs":	22,' "$OUT"
# binary junk in the middle, and at the end (with or without its newline)
partial bj 4
printf '\000\377\376junk\001\n' >>bj/runs.jsonl; sed -n 5p full/runs.jsonl >>bj/runs.jsonl; cp bj/runs.jsonl bj.before
expect_exit 2 "$TLAB" $S --workdir bj --resume
expect_grep "bj/runs.jsonl:5: 1 damaged line" "$ERR"
unchanged bj
partial be 4
printf '\000\377\376junk\001' >>be/runs.jsonl; cp be/runs.jsonl be.before
expect_exit 2 "$TLAB" $S --workdir be --resume
expect_grep "be/runs.jsonl:5: 1 damaged line" "$ERR"
unchanged be
partial bn 4
printf 'garbage at the end\n' >>bn/runs.jsonl; cp bn/runs.jsonl bn.before
expect_exit 2 "$TLAB" $S --workdir bn --resume
expect_grep "bn/runs.jsonl:5: 1 damaged line" "$ERR"
unchanged bn
# a torn last line (a crash mid-write): repaired by ignoring it, and said
partial t1 5
sed -n 6p full/runs.jsonl | head -c 40 >>t1/runs.jsonl
expect_exit 0 "$TLAB" $S --workdir t1 --resume
expect_grep "t1/runs.jsonl:6: a run's line cut short by a crash mid-write" "$ERR"
expect_grep '"lost_runs":	1,' "$OUT"
sed -n 7p t1/runs.jsonl | grep -q '"after_torn":6,' || fail "t1: line 7 acknowledges the torn line"
# the acknowledged torn line, now in the middle, still resumes (a second crash later)
rm -rf t2; mkdir t2; head -n 8 t1/runs.jsonl >t2/runs.jsonl
expect_exit 0 "$TLAB" $S --workdir t2 --resume
expect_grep "t2/runs.jsonl:6: a run's line cut short by a crash mid-write" "$ERR"
expect_grep '"lost_runs":	1,' "$OUT"
order t2/runs.jsonl | cmp -s - full.order || fail "t2: the order of the whole session changed"
# a torn-looking line in the middle that no run acknowledges: refused
partial t3 4
sed -n 5p full/runs.jsonl | head -c 40 >>t3/runs.jsonl; echo >>t3/runs.jsonl
sed -n 5p full/runs.jsonl >>t3/runs.jsonl; cp t3/runs.jsonl t3.before
expect_exit 2 "$TLAB" $S --workdir t3 --resume
expect_grep "t3/runs.jsonl:5: 1 damaged line" "$ERR"
unchanged t3
# without --resume, a journal of damaged lines only is not written over
mkdir dz; printf 'junk\n' >dz/runs.jsonl
expect_exit 2 "$TLAB" $S --workdir dz
expect_grep "'dz/runs.jsonl' already holds 0 runs and damaged lines: continue them with --resume" "$ERR"
# the largest --seed is kept to the digit, in the journal and in order_seed
partial big 2
sed -i 's/"seed":5,/"seed":9007199254740991,/' big/runs.jsonl
expect_exit 0 "$TLAB" $S --workdir big --resume
expect_grep "resuming with --seed 9007199254740991, recorded in big/runs.jsonl:1" "$ERR"
expect_grep '"order_seed":	9007199254740991,' "$OUT"
[ "$(grep -c '"seed":9007199254740991,' big/runs.jsonl)" -eq "$(grep -c '}$' big/runs.jsonl)" ] ||
    fail "big: a run lost digits of the seed"
