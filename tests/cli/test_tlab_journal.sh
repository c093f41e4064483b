# tlab's journal cannot be corrupted: one tlab per work directory (a second
# gets exit 2 naming the first's pid); kill -9 of tlab leaves no process
# behind (the guard of each run kills its group) and --resume completes with
# no duplicated (pair, arm) line, ten times over, the kill landing in
# different runs; when the guard is killed too, --resume finds the
# survivors through WORKDIR/tlab.run and stops them; a run directory
# holding two profiler captures or more launches than --launch-count is an
# error, never pooled; a disk that fills mid-append leaves no torn line.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
D=$TMPDIR_TEST
cd "$D"
[ -x "$FK" ] || skip "no fake kernel"

# The bench: records its pid and its profiler's, and waits for $D/go when
# it runs in the directory named in $D/gated (e.g. pair2B).
cat >bench.sh <<EOS
#!/bin/sh
echo \$\$ >>"$D/pids"; echo \$PPID >>"$D/pids"
case \$FAKE_MSPROF_OUTPUT in
    */\$(cat "$D/gated" 2>/dev/null || echo none))
        sleep 120 & echo \$! >>"$D/pids"
        echo started >"$D/started"
        i=0; while [ ! -e "$D/go" ] && [ \$i -lt 1200 ]; do sleep 0.05; i=\$((i + 1)); done
        kill \$! 2>/dev/null ;;
esac
exec "$FK" "\$@"
EOS
# A profiler that misbehaves in pair2B as $D/profmode says: writes two
# captures, or captures twice the launches asked.
cat >prof.sh <<EOS
#!/bin/sh
for a; do case \$a in --output=*) out=\${a#--output=} ;; esac; done
case \$out in */pair2B) mode=\$(cat "$D/profmode" 2>/dev/null) ;; *) mode=ok ;; esac
case \$mode in
    twice) "$FAKE" "\$@" && sleep 1.1 && exec "$FAKE" "\$@" ;;
    more) n=0; for a; do
              [ \$n -eq 0 ] && set --; n=1
              case \$a in --launch-count=*) a=--launch-count=6 ;; esac
              set -- "\$@" "\$a"
          done
          exec "$FAKE" "\$@" ;;
esac
exec "$FAKE" "\$@"
EOS
chmod +x bench.sh prof.sh
A="$D/bench.sh --mean 10 --seed 5"
B="$D/bench.sh --mean 9 --seed 5"
alive() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^[ZX]'; }
# none_alive SECONDS: every recorded pid gone within the bound
none_alive() {
    t=0
    while :; do
        left=""
        for p in $(sort -u pids 2>/dev/null); do alive "$p" && left="$left $p"; done
        [ -z "$left" ] && return 0
        [ "$t" -ge $(($1 * 20)) ] && { ps -o pid,pgid,args -p $(echo $left | tr ' ' ,) >&2 || true; return 1; }
        sleep 0.05; t=$((t + 1))
    done
}
wait_started() {
    i=0
    while [ ! -e started ]; do
        i=$((i + 1)); [ $i -lt 1200 ] || { kill -9 "$1"; fail "the gated run never started"; }
        sleep 0.05
    done
}
# journal_ok W N: N lines, each a complete object, no (pair, arm) twice
journal_ok() {
    [ "$(grep -c . "$1/runs.jsonl")" -eq "$2" ] || fail "$1: $(grep -c . "$1/runs.jsonl") runs recorded, wanted $2"
    [ -z "$(tail -c 1 "$1/runs.jsonl")" ] || fail "$1/runs.jsonl ends in a torn line"
    ! grep -qv '^{.*}$' "$1/runs.jsonl" || fail "$1/runs.jsonl holds a line that is not an object"
    dup=$(sed 's/.*"arm":"\([AB]\)","pair":\([0-9]*\),.*/\2\1/' "$1/runs.jsonl" | sort | uniq -d)
    [ -z "$dup" ] || fail "$1/runs.jsonl: (pair, arm) recorded twice: $dup"
}
reset() { rm -f pids started go gated profmode; }
# (a function: foreground only; "$TLAB" itself when it runs in the
# background, else $! would be a subshell's pid)
tl() { "$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --a-cmd "$A" --b-cmd "$B" "$@"; }

# 1. two tlab on one work directory: the second is refused naming the first
reset; echo pair1A >gated
"$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --a-cmd "$A" --b-cmd "$B" \
    --workdir two >t1.out 2>t1.err &
pid=$!
wait_started $pid
expect_exit 2 tl --workdir two
expect_grep "work directory 'two' is in use by another tlab (pid $pid, lock 'two/tlab.lock')" "$ERR"
expect_grep '"error":' "$OUT"
: >go
set +e; wait $pid; rc=$?; set -e
[ $rc -eq 0 ] || { cat t1.err; fail "the first tlab exited $rc"; }
expect_grep '"verdict":	"B_better"' t1.out
journal_ok two 6
# the lock goes with its holder: the next tlab on the directory runs
expect_exit 0 tl --workdir two --resume
expect_grep '"resumed_runs":	6' "$OUT"

# 2. kill -9 of tlab in the middle of a run, ten times, the kill landing in
# a different run each time: within a bounded wait no process of the run is
# left, and --resume completes with every (pair, arm) recorded once.
clean=0
for k in 1 2 3 4 5 6 7 8 9 10; do
    reset
    p=$(( (k - 1) % 2 + 1 )); arm=A; [ $(( (k - 1) / 2 % 2)) -eq 1 ] && arm=B
    echo "pair$p$arm" >gated
    W=kill$k
    # two pairs of one launch each keep the ten trials short
    "$TLAB" --protocol ref --pairs 2 --msprof "$D/prof.sh" --launch-count 1 --a-cmd "$A" \
        --b-cmd "$B" --workdir $W >k.out 2>k.err &
    pid=$!
    wait_started $pid
    # land in the bench or just after it: 0, 0.1 or 0.2 s after it started
    sleep "0.$(( (k - 1) % 3 ))"
    kill -9 $pid
    wait $pid 2>/dev/null || true
    none_alive 10 || fail "trial $k: processes of the killed tlab still alive after 10 s"
    : >go
    expect_exit 0 "$TLAB" --protocol ref --pairs 2 --msprof "$D/prof.sh" --launch-count 1 \
        --a-cmd "$A" --b-cmd "$B" --workdir $W --resume
    expect_grep '"verdict":	"B_better"' "$OUT"
    journal_ok $W 4
    clean=$((clean + 1))
done
echo "kill -9 trials: $clean of 10 clean"

# 3. kill -9 of tlab and of the run's guard together: the bench and its
# helper survive (only the command's own child dies with the guard);
# --resume finds them through tlab.run, stops them, and completes.
reset; echo pair2A >gated
"$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --a-cmd "$A" --b-cmd "$B" \
    --workdir orphan >o.out 2>o.err &
pid=$!
wait_started $pid
[ -s orphan/tlab.run ] || fail "orphan/tlab.run should name the running group"
guard=$(cut -d' ' -f1 orphan/tlab.run)
# tlab is stopped first, so that it cannot react to its guard's death (it
# would stop the group), and only then are the guard and tlab killed. The
# guard itself must not be the one stopped: when tlab dies, the guard's
# group loses its link to the session, and the kernel sends SIGHUP to an
# orphaned group holding a stopped process, which would end the bench too.
# SIGSTOP takes effect only when tlab next runs: wait until it is seen.
kill -STOP $pid
i=0
until sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | grep -q '^[Tt]'; do
    i=$((i + 1)); [ $i -lt 200 ] || fail "orphan: tlab $pid never showed as stopped"
    sleep 0.05
done
kill -9 $guard
kill -9 $pid
wait $pid 2>/dev/null || true
sleep 0.5
survivors=""
for p in $(sort -u pids); do alive "$p" && survivors="$survivors $p"; done
if [ -z "$survivors" ]; then
    echo "recorded pids: $(sort -u pids | tr '\n' ' ')" >&2
    ps -eo pid,ppid,pgid,stat,args | grep -E 'bench.sh|sleep 120|fake-msprof|prof.sh|tlab' | grep -v grep >&2 || true
    cat o.err >&2 || true
    fail "orphan: expected the bench to survive its guard"
fi
rm -f gated   # the resumed run is not held up
expect_exit 0 tl --workdir orphan --resume
expect_grep "orphan/tlab.run: stopped" "$ERR"
expect_grep "that a previous tlab on this work directory left running (process group $guard)" "$ERR"
for p in $survivors; do ! alive "$p" || fail "orphan: process $p still alive after --resume"; done
expect_grep '"verdict":	"B_better"' "$OUT"
journal_ok orphan 6
[ ! -e orphan/tlab.run ] || fail "orphan/tlab.run left after a finished session"

# 4. a run's directory with two captures, or more launches than asked:
# exit 1 naming the run, nothing pooled, nothing recorded for it
reset; echo twice >profmode
expect_exit 1 tl --workdir twice
expect_grep "pair 2 B: 'twice/pair2B' holds 2 profiler directories" "$OUT"
expect_grep "(not pooled)" "$OUT"
journal_ok twice 2
reset; echo more >profmode
expect_exit 1 tl --workdir more
expect_grep "pair 2 B: 6 launches in 'more/pair2B', more than --launch-count 3" "$OUT"
journal_ok more 2
# fixed, --resume measures the run again in a fresh directory
rm -f profmode
expect_exit 0 tl --workdir more --resume
journal_ok more 6
[ -d more/pair2B.unfinished-1 ] || fail "the refused attempt is kept aside"
[ "$(ls -d more/pair2B/OPPROF_* | wc -l)" -eq 1 ] || fail "the new attempt has one capture"

# 5. the disk fills while the run is appended: a small tmpfs holds
# runs.jsonl (bound over it), filled up; the line (long: a long command)
# crosses into a page that cannot be had. exit 2, "No space left on
# device" naming the journal, no torn fragment; --resume completes.
T=$D/tmpfs
mkdir -p "$T"
if mount -t tmpfs -o size=16k tmpfs "$T" 2>/dev/null; then
    reset; echo pair2A >gated
    pad=$(printf '%01500d' 0)
    LA="$D/bench.sh --mean 10 --seed 5 # $pad"
    "$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --a-cmd "$LA" --b-cmd "$B" \
        --workdir full >f.out 2>f.err &
    pid=$!
    wait_started $pid
    [ "$(grep -c . full/runs.jsonl)" -eq 3 ] || fail "full: pair 1 and pair 2 B expected on disk"
    cp full/runs.jsonl "$T/runs.jsonl"
    cp full/runs.jsonl before
    mount --bind "$T/runs.jsonl" full/runs.jsonl
    dd if=/dev/zero of="$T/filler" bs=4096 2>/dev/null || true
    : >go
    set +e; wait $pid; rc=$?; set -e
    cp "$T/runs.jsonl" after
    umount full/runs.jsonl
    umount "$T"
    [ $rc -eq 2 ] || { cat f.err; fail "full disk: tlab exited $rc, wanted 2"; }
    expect_grep "cannot append to 'full/runs.jsonl': No space left on device" f.err
    cmp -s before after || fail "full disk: runs.jsonl changed (a torn line?)"
    expect_exit 0 "$TLAB" --protocol ref --msprof "$D/prof.sh" --launch-count 3 --a-cmd "$LA" \
        --b-cmd "$B" --workdir full --resume
    journal_ok full 6
else
    echo "note: cannot mount a tmpfs here; the full-disk case was not run"
fi
