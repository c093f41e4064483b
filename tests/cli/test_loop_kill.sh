# kill -9 of `tlperf loop` while tlab arbitrates (an A/B): tlab, the
# profiler, the bench and the bench's own helper all end within a bounded
# wait (each run's guard kills its group when its parent dies), and running
# the round again completes it with every (pair, arm) of the A/B recorded
# once.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
D=$TMPDIR_TEST
loop_setup
alive() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^[ZX]'; }
ppid_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f2; }
# the bench under tlab (its profile goes to perf_opt/ab_r*) records its
# pid, its profiler's and a helper's, then waits for $D/go
mv "$OP/bench.sh" "$OP/bench0.sh"
cat >"$OP/bench.sh" <<EOS
#!/bin/sh
case \${FAKE_MSPROF_OUTPUT:-} in
    */ab_r*)
        echo \$\$ >>"$D/pids"; echo \$PPID >>"$D/pids"
        sleep 120 & echo \$! >>"$D/pids"
        echo started >"$D/started"
        i=0; while [ ! -e "$D/go" ] && [ \$i -lt 1200 ]; do sleep 0.05; i=\$((i + 1)); done
        kill \$! 2>/dev/null ;;
esac
exec sh "$OP/bench0.sh" "\$@"
EOS
expect_exit 0 loop baseline
kernel x 11.52 76.9   # a gain under 5% on a small kernel: tlab decides
"$TLPERF" loop -C "$OP" round 1 --branch x=perf_opt/x.py >"$D/l.out" 2>"$D/l.err" &
pid=$!
i=0
while [ ! -e "$D/started" ]; do
    i=$((i + 1)); [ $i -lt 1200 ] || { kill -9 $pid; cat "$D/l.err"; fail "the A/B never started"; }
    sleep 0.05
done
# every process between the loop and the profiler (guards, tlab) too
p=$(sed -n 2p "$D/pids")
while [ -n "$p" ] && [ "$p" != "$pid" ] && [ "$p" -gt 1 ]; do
    echo "$p" >>"$D/pids"; p=$(ppid_of "$p")
done
[ "$p" = "$pid" ] || fail "the profiler is not below the loop"
[ "$(sort -u "$D/pids" | wc -l)" -ge 6 ] || fail "expected bench, helper, profiler, guards and tlab"
kill -9 $pid
wait $pid 2>/dev/null || true
t=0
while :; do
    left=""
    for q in $(sort -u "$D/pids"); do alive "$q" && left="$left $q"; done
    [ -z "$left" ] && break
    [ $t -lt 300 ] || { ps -o pid,ppid,pgid,args -p $(echo $left | tr ' ' ,) || true; fail "still alive 15 s after kill -9 of the loop:$left"; }
    sleep 0.05; t=$((t + 1))
done
echo "no process of the A/B left, $((t * 50)) ms after kill -9 of the loop"
: >"$D/go"
expect_exit 0 loop round 1 --branch x=perf_opt/x.py
J=$OP/perf_opt/ab_r1_x/n1024
[ -s "$J.json" ] || fail "no tlab verdict kept"
expect_grep '"verdict"' "$J.json"
dup=$(sed 's/.*"arm":"\([AB]\)","pair":\([0-9]*\),.*/\2\1/' "$J/runs.jsonl" | sort | uniq -d)
[ -z "$dup" ] || fail "$J/runs.jsonl: (pair, arm) recorded twice: $dup"
[ -z "$(tail -c 1 "$J/runs.jsonl")" ] || fail "$J/runs.jsonl ends in a torn line"
