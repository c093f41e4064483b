# Faults while tlab measures, beyond test_tlab_failures.sh and
# test_tlab_resume.sh: a bench killed by a signal, a profiler that writes a
# partial CSV, no CSV or garbage, a profiler killed by SIGKILL, a bench
# that floods its output, SIGTERM mid-session, a full disk when a run is
# appended to runs.jsonl. After each: the exit code says what happened,
# runs.jsonl holds exactly the finished runs (no torn line), and --resume
# completes the session.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
D=$TMPDIR_TEST
cd "$D"
[ -x "$FK" ] || skip "no fake kernel"

# A profiler wrapper that misbehaves as $D/profmode says, from pair 2 on
# (pair 1 is measured normally, so something is on disk to keep).
cat >prof.sh <<EOS
#!/bin/sh
for a; do case \$a in --output=*) out=\${a#--output=} ;; esac; done
mode=ok
case \$out in */pair1?) ;; *) mode=\$(cat "$D/profmode" 2>/dev/null || echo ok) ;; esac
case \$mode in
    nocsv) mkdir -p "\$out"; exit 0 ;;
    kill) "$FAKE" "\$@"; kill -KILL \$\$ ;;
esac
"$FAKE" "\$@" || exit \$?
case \$mode in
    partial) for f in \$(find "\$out" -name 'OpBasicInfo*.csv'); do
                 head -c 130 "\$f" >"\$f.t" && mv "\$f.t" "\$f"; done ;;
    garbage) for f in \$(find "\$out" -name 'OpBasicInfo*.csv'); do
                 awk 'BEGIN { srand(3); for (i = 0; i < 3000; i++) printf "%c", int(rand() * 256) }' >"\$f"; done ;;
esac
exit 0
EOS
# A bench that crashes (SIGSEGV) from pair 2 on when $D/benchmode says so,
# or waits for $D/go (to be interrupted or have its disk filled).
cat >bench.sh <<EOS
#!/bin/sh
case \$FAKE_MSPROF_OUTPUT in
    */pair1?) ;;
    *) case \$(cat "$D/benchmode" 2>/dev/null) in
           segv) kill -SEGV \$\$ ;;
           gate) echo started >"$D/started"
                 while [ ! -e "$D/go" ]; do sleep 0.05; done ;;
       esac ;;
esac
exec "$FK" "\$@"
EOS
chmod +x prof.sh bench.sh
A="$D/bench.sh --mean 10 --seed 5"
B="$D/bench.sh --mean 9 --seed 5"
# (a function: run it in the foreground only; "$TLAB" itself when it must be
# signalled, else $! would be a subshell's pid)
tlab() { "$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --workdir "$W" --a-cmd "$A" --b-cmd "$B" "$@"; }
# session NAME: a fresh workdir, both modes cleared
session() { W=$D/$1; echo ok >profmode; echo ok >benchmode; rm -f started go; }
# journal N: runs.jsonl has exactly N complete lines, each a JSON object
journal() {
    [ "$(grep -c . "$W/runs.jsonl")" -eq "$1" ] || fail "$W: $(grep -c . "$W/runs.jsonl") runs recorded, wanted $1"
    [ -z "$(tail -c 1 "$W/runs.jsonl")" ] || fail "$W/runs.jsonl ends in a torn line"
    ! grep -qv '^{.*}$' "$W/runs.jsonl" || fail "$W/runs.jsonl holds a line that is not an object"
}
# resumes: the fault gone, --resume measures what is missing, verdict given
resumes() {
    echo ok >profmode; echo ok >benchmode; : >go
    cp "$W/runs.jsonl" "$D/journal.before"
    expect_exit 0 tlab --resume
    expect_grep '"verdict":	"B_better"' "$OUT"
    journal 6
    head -c "$(wc -c <"$D/journal.before")" "$W/runs.jsonl" | cmp -s - "$D/journal.before" ||
        fail "$W: recorded runs were rewritten by the resume"
}

# the bench is killed by SIGSEGV: exit 1 naming the run's log and status
session segv; echo segv >benchmode
expect_exit 1 tlab
expect_grep "pair 2 B: the run exited with status 139" "$OUT"
expect_grep "see log '$W/logs/pair2B.log'" "$OUT"
journal 2; resumes

# the profiler writes a partial CSV, no CSV, garbage, or is SIGKILLed
for mode in partial nocsv garbage kill; do
    session "prof-$mode"; echo "$mode" >profmode
    expect_exit 1 tlab
    expect_grep "pair 2 B: " "$OUT"
    expect_grep "see log '$W/logs/pair2B.log'" "$OUT"
    case $mode in
        partial) expect_grep "last row cut short" "$OUT" ;;
        nocsv) expect_grep "no profiler data in '$W/pair2B'" "$OUT" ;;
        garbage) expect_grep "OpBasicInfo_" "$OUT" ;;
        kill) expect_grep "the run exited with status 137" "$OUT" ;;
    esac
    journal 2; resumes
done

# a bench that floods stdout and stderr with binary garbage: it goes to the
# log, the measurement is unaffected
session flood
expect_exit 0 "$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --workdir "$W" \
    --a-cmd "sh -c 'head -c 200000 /dev/urandom; head -c 200000 /dev/urandom >&2; exec $FK --mean 10 --seed 5'" \
    --b-cmd "$B"
expect_grep '"verdict":	"B_better"' "$OUT"
journal 6

# SIGTERM while pair 2's first run is running: exit 143, pair 1 kept
session term; echo gate >benchmode
"$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --workdir "$W" --a-cmd "$A" --b-cmd "$B" >"$D/t.out" 2>"$D/t.err" &
pid=$!
i=0
while [ ! -e started ]; do
    i=$((i + 1)); [ $i -lt 1200 ] || { kill -9 $pid; fail "term: pair 2 never started"; }
    sleep 0.05
done
kill -TERM $pid
set +e; wait $pid; rc=$?; set -e
[ $rc -eq 143 ] || { cat "$D/t.err"; fail "SIGTERM: tlab exited $rc, wanted 143"; }
expect_grep "interrupted by signal 15" "$D/t.err"
journal 2; resumes

# a full disk when the finished run is appended: /dev/full bound over
# runs.jsonl (root only). The append fails with ENOSPC: exit 2 naming the
# journal; the file underneath still holds pair 1 intact; --resume finishes.
session full; echo gate >benchmode
"$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --workdir "$W" --a-cmd "$A" --b-cmd "$B" >"$D/f.out" 2>"$D/f.err" &
pid=$!
i=0
while [ ! -e started ] || [ "$(grep -c . "$W/runs.jsonl" 2>/dev/null || echo 0)" -lt 2 ]; do
    i=$((i + 1)); [ $i -lt 1200 ] || { kill -9 $pid; fail "full: pair 2 never started"; }
    sleep 0.05
done
if mount --bind /dev/full "$W/runs.jsonl" 2>/dev/null; then
    : >go
    set +e; wait $pid; rc=$?; set -e
    umount "$W/runs.jsonl"
    [ $rc -eq 2 ] || { cat "$D/f.err"; fail "full disk: tlab exited $rc, wanted 2"; }
    expect_grep "cannot append to '$W/runs.jsonl': No space left on device" "$D/f.err"
    journal 2; resumes
else
    : >go; wait $pid || true
    echo "note: mount --bind not permitted here; full-disk case not run"
fi
