# Colour and progress: colour on a terminal only (NO_COLOR, --color=never
# turn it off, --color=always forces it); progress as one redrawn stderr
# line on a terminal and plain lines otherwise; --quiet silences progress
# and notes, --verbose adds per-run detail. The terminal is a pty from
# script(1).
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
command -v script >/dev/null 2>&1 || skip "script(1) not installed"
ESC=$(printf '\033')
# tty CMD...: runs CMD on a pty; its output (stdout and stderr) in $TTY_OUT
TTY_OUT=$TMPDIR_TEST/tty
tty() {
    q=""
    for a in "$@"; do q="$q '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done
    script -qec "$q" /dev/null >"$TTY_OUT" 2>&1 || true
}
has_esc() { grep -q "$ESC\[" "$1"; }

# --- colour: gate findings and the summary line
tty env -u NO_COLOR TERM=xterm "$TLGATE" "$TESTDATA/gate"
has_esc "$TTY_OUT" || fail "no colour on a terminal"
grep -q "$ESC\[1;33mwarning$ESC\[0m: \[S4-" "$TTY_OUT" || fail "warning word not coloured"
tty env NO_COLOR=1 TERM=xterm "$TLGATE" "$TESTDATA/gate"
! has_esc "$TTY_OUT" || fail "colour despite NO_COLOR"
tty env -u NO_COLOR TERM=xterm "$TLGATE" --color=never "$TESTDATA/gate"
! has_esc "$TTY_OUT" || fail "colour despite --color=never"
expect_exit 0 env -u NO_COLOR "$TLGATE" "$TESTDATA/gate"
! has_esc "$OUT" || fail "colour into a pipe"
expect_exit 0 env NO_COLOR=1 "$TLGATE" --color=always "$TESTDATA/gate"
has_esc "$OUT" || fail "--color=always did not force colour"
# FORCE_COLOR / CLICOLOR_FORCE (set, not empty, not "0") colour even a
# pipe; NO_COLOR wins over them; --color=never over everything
for v in FORCE_COLOR=1 FORCE_COLOR=true FORCE_COLOR=3 CLICOLOR_FORCE=1 CLICOLOR_FORCE=yes; do
    expect_exit 0 env -u NO_COLOR "$v" "$TLGATE" "$TESTDATA/gate"
    has_esc "$OUT" || fail "$v did not force colour into a pipe"
    expect_exit 2 env -u NO_COLOR "$v" "$TLPERF" plateau --bogus
    grep -q "^tlperf: $ESC\[1;31merror$ESC\[0m: " "$ERR" || fail "$v: message not coloured"
done
for v in FORCE_COLOR=0 FORCE_COLOR= CLICOLOR_FORCE=0 CLICOLOR_FORCE=; do
    expect_exit 0 env -u NO_COLOR "$v" "$TLGATE" "$TESTDATA/gate"
    ! has_esc "$OUT" || fail "$v forced colour"
done
expect_exit 0 env NO_COLOR=1 FORCE_COLOR=1 CLICOLOR_FORCE=1 "$TLGATE" "$TESTDATA/gate"
! has_esc "$OUT" || fail "FORCE_COLOR won over NO_COLOR"
expect_exit 0 env -u NO_COLOR FORCE_COLOR=1 "$TLGATE" --color=never "$TESTDATA/gate"
! has_esc "$OUT" || fail "FORCE_COLOR won over --color=never"
# messages: the level word
expect_exit 2 "$TLPERF" plateau --color=always --bogus
grep -q "^tlperf: $ESC\[1;31merror$ESC\[0m: unknown option '--bogus'" "$ERR" || fail "error word not coloured"
expect_exit 2 "$TLPERF" plateau --bogus
! has_esc "$ERR" || fail "coloured message into a pipe"
expect_exit 2 "$TLPERF" plateau --color=sometimes x
expect_grep "option '--color' wants auto, always or never, got 'sometimes'" "$ERR"
expect_exit 2 "$TLPERF" plateau --color=allways x
expect_grep "option '--color' wants auto, always or never, got 'allways'; did you mean 'always'?" "$ERR"

# --- tlab: progress line on a terminal, plain lines otherwise
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
cd "$TMPDIR_TEST"
ab() { "$TLAB" --msprof "$FAKE" --launch-count 5 --warm-up 0 --seed 7 --workdir "$@" \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9.9 --seed 11"; }
tty env -u NO_COLOR TERM=xterm "$TLAB" --msprof "$FAKE" --launch-count 5 --warm-up 0 --seed 7 \
    --workdir t1 --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9.9 --seed 11"
grep -q "pair 1 of at most 16.*elapsed" "$TTY_OUT" || { cat -v "$TTY_OUT"; fail "no progress line on a terminal"; }
grep -q "ETA <= [0-9]*:[0-9][0-9]" "$TTY_OUT" || fail "no ETA on the progress line"
grep -q "first look after 3 pairs" "$TTY_OUT" || fail "no verdict state on the progress line"
grep -q "$(printf '\r')$ESC\[K" "$TTY_OUT" || fail "the progress line is not redrawn in place"
! grep -q "^pair 1/16 A: median" "$TTY_OUT" || fail "per-run lines on a terminal without --verbose"
grep -q "verdict: $ESC\[1m" "$TTY_OUT" || fail "verdict word not highlighted"
# not a terminal: plain per-run lines, no escapes
expect_exit 0 ab p1
expect_grep "pair 1/16 A: median" "$ERR"
expect_grep "verdict: " "$ERR"
! has_esc "$ERR" || fail "escapes in plain progress"
expect_no_grep "run took" "$ERR"
# --verbose: per-run detail
expect_exit 0 ab p2 --verbose
expect_grep "run took" "$ERR"
expect_grep "log p2/logs/pair1A.log" "$ERR"
# --quiet: nothing on stderr, the verdict still on stdout
expect_exit 0 ab p3 -q
[ ! -s "$ERR" ] || { cat "$ERR"; fail "--quiet left output on stderr"; }
expect_grep '"verdict":' "$OUT"

# --- audit over a larger tree
mkdir tree
i=1; while [ $i -le 25 ]; do cp -R "$TESTDATA/gate/v1" "tree/op$i"; i=$((i + 1)); done
expect_exit 0 "$TLPERF" audit tree
expect_grep "directory 25 of 25, " "$ERR"
[ "$(grep -c '^directory [0-9]* of 25' "$ERR")" -le 10 ] || fail "more than one plain line per tenth"
expect_exit 0 "$TLPERF" audit -q tree
[ ! -s "$ERR" ] || { cat "$ERR"; fail "audit --quiet wrote to stderr"; }
expect_exit 0 "$TLPERF" audit -v tree
[ "$(grep -c '/perf_opt: 0 errors, ' "$ERR")" = 25 ] || fail "audit --verbose: not one line per directory"
tty env TERM=xterm "$TLPERF" audit -o audit.md tree
grep -q "directory 1 of 25" "$TTY_OUT" || fail "audit: no progress line on a terminal"

# --- loop: plain lines, silenced by --quiet
loop_setup
expect_exit 0 "$TLPERF" loop -C "$OP" baseline
expect_grep "baseline: n1024 median" "$ERR"
kernel tile 9.0 60.0
expect_exit 0 "$TLPERF" loop -C "$OP" -q round 1 --branch tile=perf_opt/tile.py
expect_no_grep "measuring" "$ERR"
expect_no_grep "median" "$ERR"
# on a terminal: one redrawn line (measurement i of N), results stay
# dbuf gains 10% on the large shape: its runs show no state, so seq adopts
# only once a state it has not seen is bounded (about 6 pairs)
kernel dbuf 8.5 54.0
tty env TERM=xterm "$TLPERF" loop -C "$OP" round 2 --branch dbuf=perf_opt/dbuf.py
grep -q "measurement 1 of 2.*elapsed.*dbuf on n1024" "$TTY_OUT" || { cat -v "$TTY_OUT"; fail "loop: no progress line on a terminal"; }
grep -q "dbuf: n65536 median" "$TTY_OUT" || fail "loop: result line missing on a terminal"
grep -q "decision $ESC\[1;3[12]m" "$TTY_OUT" || fail "loop: decision not coloured on a terminal"
grep -q "^state: $ESC\[" "$TTY_OUT" || fail "loop: state not coloured on a terminal"
# --verbose adds where each measurement went
kernel wide 8.9 59.0
expect_exit 0 "$TLPERF" loop -C "$OP" -v round 3 --branch wide=perf_opt/wide.py
expect_grep "took" "$ERR"
expect_grep "profile perf_opt/profiles/round3/wide" "$ERR"
echo ok
