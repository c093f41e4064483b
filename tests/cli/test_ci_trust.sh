#!/bin/sh
# The gate in CI, tried as an attacker would (issue 13): a pull request can
# neither hang tlgate, nor get errors past it with exit 0, nor make it read
# (or tell about) anything outside the checked tree. Every attack tree is
# built here, in a scratch directory. Each run is bounded by `timeout $TO`
# (60 s): a run that does not finish fails the test (exit 124). It is a
# guard against a hang, not a speed measurement: the bound is far above a
# run's time even under ASan on a loaded machine (the 30,000-case JSON takes
# seconds there), and a hang still ends the test. docs/reliability.md ("CI threat model") lists every
# case with the section of this file that shows it.
. "$ROOT/tests/cli/lib.sh"
set -e
TO=60
D=$TMPDIR_TEST
V1=$TESTDATA/gate/v1
V2=$TESTDATA/gate/v2-single
ESC=$(printf '\033')
BEL=$(printf '\007')

# gate WANT ARGS...: tlgate within $TO s with exit WANT
gate() { want=$1; shift; expect_exit "$want" timeout "$TO" "$TLGATE" "$@"; }
# tampered DEST: v1 with its final_latency claim falsified (a RECON error)
tampered() {
    mkdir -p "$(dirname "$1")"
    cp -R "$V1/perf_opt" "$1"
    sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$1/opt_log.md"
}
RECON='error: [S4-PERF-RECORDS-RECON] claimed final_latency 32 us'
# v2 DIR: a v2 operator directory DIR/op whose perf_opt passes
v2() { rm -rf "$1"; mkdir -p "$1"; cp -R "$V2" "$1/op"; }
# rec2 DIR SED: edits line 2 (the final record) of DIR/op's records
rec2() { sed -i "2$2" "$1/op/perf_opt/perf_records.jsonl"; }
no_raw_controls() {
    for f in "$@"; do
        if grep -q "[$ESC$BEL]" "$f"; then
            od -c "$f" | grep -E '033|007' | head -3
            fail "raw ESC/BEL bytes in $f"
        fi
    done
}

## 1. hangs: the perf_tuning/ JSON check is linear; a JSON file has a cap
mkdir -p "$D/pt/op"
cp -R "$TESTDATA/ptune/good" "$D/pt/op/perf_tuning"
awk 'BEGIN { n = 30000; printf "{\"label\": \"iter1\", \"n_cases\": %d, \"avg_speedup\": 0.7, \"cases\": [\n", n
    for (i = 1; i <= n; i++) printf "{\"case_id\": %d, \"baseline_us\": 50.0, \"ours_us\": 80.0, \"speedup\": 0.9}%s\n", i, (i < n ? "," : "")
    print "]}" }' >"$D/pt/op/perf_tuning/iter1.json"
[ "$(wc -c <"$D/pt/op/perf_tuning/iter1.json")" -gt 2000000 ] || fail "the 30,000-row JSON should be over 2 MB"
gate 1 "$D/pt"
expect_grep 'iter1.json:1: error: [PT-JSON] "avg_speedup" 0.7 is not the mean of the 30000 rows' "$OUT"
expect_grep 'iter1.json:30001: error: [PT-JSON] case 30000: "speedup" 0.9 does not match its times' "$OUT"
expect_exit 1 timeout "$TO" "$TLPERF" audit "$D/pt"
expect_grep "GATE ERRORS" "$OUT"
# over the cap (16 MiB): not parsed, an error naming the cap
truncate -s 17M "$D/pt/op/perf_tuning/iter1.json"
gate 1 "$D/pt"
expect_grep "iter1.json: error: [PT-JSON] file larger than 16 MiB (the cap on such a file), not read" "$OUT"

## 2. artifact_path: nothing outside the tree is opened, devices and FIFOs
## never, sizes capped; the finding says why
mkdir -p "$D/outside"
printf 'root:$6$secret-hash:19000:0:99999:7:::\n' >"$D/outside/shadow"
SECRET_SHA=$(sha256sum "$D/outside/shadow" | cut -d' ' -f1)
art() { v2 "$D/a"; rec2 "$D/a" "s#\"artifact_path\": \"k.py\"#\"artifact_path\": \"$1\"#"; }
art /dev/zero
gate 1 "$D/a"
expect_grep "names artifact '/dev/zero', which leads outside the checked tree (not read)" "$OUT"
art /dev/urandom
gate 1 "$D/a"
expect_grep "names artifact '/dev/urandom', which leads outside the checked tree (not read)" "$OUT"
art "$D/outside/shadow"
gate 1 "$D/a"
expect_grep "which leads outside the checked tree (not read)" "$OUT"
expect_no_grep "$SECRET_SHA" "$OUT"
art ../../../outside/shadow
gate 1 "$D/a"
expect_grep "names artifact '../../../outside/shadow', which leads outside the checked tree (not read)" "$OUT"
expect_no_grep "$SECRET_SHA" "$OUT"
art zero.py; ln -s /dev/zero "$D/a/op/perf_opt/zero.py"
gate 1 "$D/a"
expect_grep "names artifact 'zero.py', which leads outside the checked tree (not read)" "$OUT"
art up.py; ln -s ../../../outside/shadow "$D/a/op/perf_opt/up.py"
gate 1 "$D/a"
expect_grep "names artifact 'up.py', which leads outside the checked tree (not read)" "$OUT"
expect_no_grep "$SECRET_SHA" "$OUT"
art fifo.py; mkfifo "$D/a/op/perf_opt/fifo.py"
gate 1 "$D/a"
expect_grep "names artifact 'fifo.py', which is not a regular file (not read)" "$OUT"
art big.py; truncate -s 65M "$D/a/op/perf_opt/big.py"
gate 1 "$D/a"
expect_grep "names artifact 'big.py', which is larger than 64 MiB (not read)" "$OUT"
# an in-tree link stays usable
art link.py; ln -s k.py "$D/a/op/perf_opt/link.py"
gate 0 "$D/a"

## 3. msprof_raw_path is no oracle: an existing and a missing path outside
## give the same finding
v2 "$D/m"; rec2 "$D/m" 's#"msprof_raw_path": "[^"]*"#"msprof_raw_path": "../../.."#'
gate 1 "$D/m"
expect_grep "perf_records.jsonl:2: error: [TLGATE-PATH] msprof_raw_path '../../..' leads outside the checked tree (not read)" "$OUT"
# (the summary line's elapsed time differs from run to run: left out)
sed 's#\.\./\.\./\.\.#P#g; s/ in [0-9.]* s$//' "$OUT" >"$D/m.exists"
v2 "$D/m"; rec2 "$D/m" 's#"msprof_raw_path": "[^"]*"#"msprof_raw_path": "../../../no-such-dir-xyz"#'
gate 1 "$D/m"
sed 's#\.\./\.\./\.\./no-such-dir-xyz#P#g; s/ in [0-9.]* s$//' "$OUT" >"$D/m.missing"
diff "$D/m.exists" "$D/m.missing" || fail "msprof_raw_path outside the tree: the answer depends on whether it exists"
expect_no_grep "does not exist" "$D/m.missing"
# inside the tree, a missing profile is still named
v2 "$D/m"; rec2 "$D/m" 's#"msprof_raw_path": "[^"]*"#"msprof_raw_path": "profiles/gone"#'
gate 0 "$D/m"
expect_grep "[S4-LAYOUT] msprof_raw_path 'profiles/gone' does not exist" "$OUT"

## 4. symlinks out of the tree: the gate's own files are never read through
## them, nothing from outside is echoed
sed 's/best: r1_tile_swap_long_name/best: TOPSECRET_abc123/' "$V1/perf_opt/opt_log.md" >"$D/outside/opt_log.md"
printf '{"TOPSECRET_abc123": 1}\n' >"$D/outside/secret.json"
rm -rf "$D/s"; mkdir -p "$D/s/op"; cp -R "$V1/perf_opt" "$D/s/op/perf_opt"
ln -sf "$D/outside/opt_log.md" "$D/s/op/perf_opt/opt_log.md"
gate 1 "$D/s"
expect_grep "opt_log.md: error: [TLGATE-PATH] opt_log.md leads outside the checked tree (not read)" "$OUT"
expect_no_grep "TOPSECRET" "$OUT"; expect_no_grep "TOPSECRET" "$ERR"
rm -rf "$D/s"; mkdir -p "$D/s/op"; cp -R "$V1/perf_opt" "$D/s/op/perf_opt"
ln -sf ../../../outside/opt_log.md "$D/s/op/perf_opt/perf_records.jsonl"
gate 1 "$D/s"
expect_grep "perf_records.jsonl: error: [TLGATE-PATH] perf_records.jsonl leads outside the checked tree (not read)" "$OUT"
expect_no_grep "TOPSECRET" "$OUT"
rm -rf "$D/s"; mkdir -p "$D/s/op"; cp -R "$TESTDATA/ptune/good" "$D/s/op/perf_tuning"
ln -s "$D/outside/secret.json" "$D/s/op/perf_tuning/iter9.json"
gate 1 "$D/s"
expect_grep "iter9.json: error: [PT-JSON] not read: it leads outside the checked tree" "$OUT"
expect_no_grep "TOPSECRET" "$OUT"
# a link out of the tree anywhere else in it: never walked
rm -rf "$D/s"; mkdir -p "$D/s"; tampered "$D/elsewhere/op/perf_opt"; ln -s "$D/elsewhere" "$D/s/link"
gate 0 --allow-empty "$D/s"
expect_no_grep "elsewhere" "$OUT"
# and what lies behind the link does not count as something to check
gate 2 "$D/s"
expect_grep "nothing to check under '$D/s'" "$ERR"

## 5. discovery: any depth, any path length, symlinked perf_opt/ reported
mkdir -p "$D/deep"
( cd "$D/deep"; i=0; while [ $i -lt 70 ]; do mkdir d; cd d; i=$((i + 1)); done; tampered "$PWD/op/perf_opt" )
gate 1 "$D/deep"
expect_grep "$RECON" "$OUT"
expect_grep "/d/d/d/op/perf_opt/opt_log.md:19:" "$OUT"
N200=$(printf '%0200d' 0)
mkdir -p "$D/long"
# the shell's cd keeps a whole path, which breaks past PATH_MAX: perl's
# chdir is relative
command -v perl >/dev/null 2>&1 || skip "perl not installed (builds the path longer than PATH_MAX)"
( cd "$D/long" && perl -e 'my ($n, $src) = @ARGV; for (1 .. 25) { mkdir $n or die "mkdir: $!"; chdir $n or die "chdir: $!" }
    system("cp", "-R", $src, "perf_opt") == 0 or die "cp";
    system("sed", "-i", "s/final_latency: 64.0 us/final_latency: 32.0 us/", "perf_opt/opt_log.md") == 0 or die "sed"' \
    "$N200" "$V1/perf_opt" ) || fail "cannot build a path longer than PATH_MAX"
gate 1 "$D/long"
expect_grep "$RECON" "$OUT"
[ "$(grep -F "$RECON" "$OUT" | cut -d: -f1 | wc -c)" -gt 5000 ] || fail "the deep directory's path should be printed whole (> PATH_MAX)"
rm -rf "$D/sl"; mkdir -p "$D/sl/op"; tampered "$D/elsewhere2/perf_opt"
ln -s "$D/elsewhere2/perf_opt" "$D/sl/op/perf_opt"
gate 1 "$D/sl"
expect_grep "op/perf_opt: error: [TLGATE-TREE] perf_opt/ is a symbolic link" "$OUT"
expect_no_grep "$RECON" "$OUT"
gate 1 "$D/sl/op/perf_opt"
expect_grep "[TLGATE-TREE] perf_opt/ is a symbolic link" "$OUT"

## 6..9 in a git repository, as CI sees a pull request
command -v git >/dev/null 2>&1 || skip "git not installed (the pull-request cases need it)"
GIT=$(command -v git)
# repo DIR: a repository whose main holds a passing operator (ops/good)
repo() {
    rm -rf "$1"; mkdir -p "$1/ops"
    cp -R "$V1" "$1/ops/good"
    ( cd "$1" && git init -q -b main . && git config user.email t@example.com && git config user.name t &&
      git config commit.gpgsign false && git add -A && git commit -qm base && git checkout -q -b pr ) ||
        fail "cannot build a repository"
}
commit() { ( cd "$1" && git add -A && git commit -qm "$2" ) || fail "commit failed"; }

# node_modules named by the change list: checked
repo "$D/r"; tampered "$D/r/node_modules/pkg/perf_opt"; commit "$D/r" "pr: node_modules"
( cd "$D/r" && gate 1 --changed-since main --base main )
expect_grep "node_modules/pkg/perf_opt/opt_log.md:19: $RECON" "$OUT"
( cd "$D/r" && expect_exit 1 timeout "$TO" env TLGATE="$TLGATE" sh "$ROOT/scripts/ci-gate.sh" main )
expect_grep "$RECON" "$OUT"
# two repositories on one command line: each one's own changes
repo "$D/r2"; tampered "$D/r2/ops/two/perf_opt"; commit "$D/r2" "pr: two"
gate 1 --changed-since main --base main "$D/r" "$D/r2"
expect_grep "r/node_modules/pkg/perf_opt/opt_log.md:19: $RECON" "$OUT"
expect_grep "r2/ops/two/perf_opt/opt_log.md:19: $RECON" "$OUT"
# a symlinked perf_opt/ in the change list: a finding
repo "$D/r"; mkdir -p "$D/r/ops/sym"; ln -s ../good/perf_opt "$D/r/ops/sym/perf_opt"; commit "$D/r" "pr: link"
( cd "$D/r" && gate 1 --changed-since main )
expect_grep "ops/sym/perf_opt: error: [TLGATE-TREE] perf_opt/ is a symbolic link" "$OUT"

## 6. ci-gate.sh triggers on perf_tuning/ too
repo "$D/r"; mkdir -p "$D/r/ops/gelu"; cp -R "$TESTDATA/ptune/report_stale" "$D/r/ops/gelu/perf_tuning"
commit "$D/r" "pr: perf_tuning only"
( cd "$D/r" && expect_exit 1 timeout "$TO" env TLGATE="$TLGATE" sh "$ROOT/scripts/ci-gate.sh" main )
expect_grep "perf_tuning/final_report.md:8: error: [PT-REPORT] stale report" "$OUT"
expect_no_grep "no perf_opt or perf_tuning changes" "$OUT"

## 7. configuration: never from the pull request, never above the repository
repo "$D/r"; sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$D/r/ops/good/perf_opt/opt_log.md"
printf '{"rules": {"S4-PERF-RECORDS-RECON": "off"}}\n' >"$D/r/.tlgate.json"
commit "$D/r" "pr: tamper and switch the rule off"
( cd "$D/r" && gate 1 --changed-since main --base main )
expect_grep "$RECON" "$OUT"
expect_grep ".tlgate.json: error: [TLGATE-CONFIG] sets S4-PERF-RECORDS-RECON to off, weaker than error (its default)" "$OUT"
( cd "$D/r" && expect_exit 1 timeout "$TO" env TLGATE="$TLGATE" sh "$ROOT/scripts/ci-gate.sh" main )
expect_grep "$RECON" "$OUT"
expect_grep "[TLGATE-CONFIG]" "$OUT"
# the base's own configuration does apply, and a PR keeping it is fine
repo "$D/r"; printf '{"rules": {"S4-STOP-REASON": "error"}}\n' >"$D/r/.tlgate.json"
( cd "$D/r" && git add -A && git commit -qm "base config" && git branch -f main HEAD ) || fail "git"
printf '\n' >>"$D/r/ops/good/perf_opt/opt_log.md"; commit "$D/r" "pr: harmless"
( cd "$D/r" && gate 1 --changed-since main --base main )
expect_grep "error: [S4-STOP-REASON]" "$OUT"
expect_no_grep "TLGATE-CONFIG" "$OUT"
printf '{"rules": {"S4-STOP-REASON": "warning"}}\n' >"$D/r/.tlgate.json"; commit "$D/r" "pr: weaken"
( cd "$D/r" && gate 1 --changed-since main --base main )
expect_grep "error: [S4-STOP-REASON]" "$OUT"
expect_grep "[TLGATE-CONFIG] sets S4-STOP-REASON to warning, weaker than error (main:.tlgate.json)" "$OUT"
rm "$D/r/.tlgate.json"; commit "$D/r" "pr: remove the configuration"
( cd "$D/r" && gate 1 --changed-since main --base main )
expect_grep "error: [S4-STOP-REASON]" "$OUT"
expect_grep ".tlgate.json: error: [TLGATE-CONFIG] removing it sets S4-STOP-REASON to warning, weaker than error (main:.tlgate.json)" "$OUT"
# a .tlgate.json above the repository top is never read
mkdir -p "$D/outer"; repo "$D/outer/r"
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$D/outer/r/ops/good/perf_opt/opt_log.md"
printf '{"rules": {"S4-PERF-RECORDS-RECON": "off"}}\n' >"$D/outer/.tlgate.json"
gate 1 "$D/outer/r"
expect_grep "$RECON" "$OUT"

## 8. inline suppressions: the pull request cannot switch a rule off
OPTLOG=ops/good/perf_opt/opt_log.md
DENIED='error: [TLGATE-SUPPRESSION-DENIED] S4-PERF-RECORDS'
# suppress DIR TEXT: the tampered v1 log of DIR/ops/good with TEXT appended
suppress() { repo "$1"; sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$1/$OPTLOG"; printf '\n%s\n' "$2" >>"$1/$OPTLOG"; }
# a comment in the pull request's own log, in several phrasings: the rule
# still fires, the suppression is an error, nothing is shown as suppressed
for sup in '<!-- tlgate-disable S4-PERF-RECORDS-RECON -- re-measured offline -->' \
           '<!--tlgate-disable S4-PERF-RECORDS-RECON -- re-measured offline-->' \
           '<!-- tlgate-disable S4-PERF-RECORDS-* -- the records are known to lag -->' \
           '<!-- tlgate-disable S4-PERF-RECORDS-RECON -- a --> <!-- tlgate-disable S4-* -- b -->'; do
    suppress "$D/r" "$sup"; commit "$D/r" "pr: tamper and suppress"
    ( cd "$D/r" && gate 1 --changed-since main --base main )
    expect_grep "$RECON" "$OUT"
    expect_grep "$OPTLOG:27: $DENIED" "$OUT"
    expect_no_grep "suppressed error" "$OUT"
    ( cd "$D/r" && expect_exit 1 timeout "$TO" env TLGATE="$TLGATE" sh "$ROOT/scripts/ci-gate.sh" main )
    expect_grep "$RECON" "$OUT"
done
# in perf_feedback.md too
repo "$D/r"; sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$D/r/$OPTLOG"
printf '<!-- tlgate-disable S4-PERF-RECORDS-RECON -- see the feedback -->\n' >"$D/r/ops/good/perf_opt/perf_feedback.md"
commit "$D/r" "pr: tamper, suppress in the feedback"
( cd "$D/r" && gate 1 --changed-since main --base main )
expect_grep "$RECON" "$OUT"
expect_grep "perf_opt/perf_feedback.md:1: $DENIED" "$OUT"
# ... nor by making the rule suppressible in its own .tlgate.json, wherever
# it puts the file and however it spells the list: the base's rules
for cfg in '{"inline_suppressible": ["S4-PERF-RECORDS-RECON"]}' \
           '{"rules": {"S4-LAYOUT": "error"}, "inline_suppressible": ["S4-*"]}' \
           '{"S4-STOP-REASON": "warning", "inline_suppressible": ["S4-PERF-RECORDS-RECON", "S4-LAYOUT"]}'; do
    for at in . ops/good; do
        suppress "$D/r" '<!-- tlgate-disable S4-PERF-RECORDS-RECON -- re-measured offline -->'
        printf '%s\n' "$cfg" >"$D/r/$at/.tlgate.json"; commit "$D/r" "pr: tamper, suppress, allow"
        ( cd "$D/r" && gate 1 --changed-since main --base main )
        expect_grep "$RECON" "$OUT"
        expect_grep "$DENIED" "$OUT"
        expect_grep "[TLGATE-CONFIG] makes S4-" "$OUT"
        expect_grep "inline-suppressible, which the base revision (no .tlgate.json) does not" "$OUT"
        ( cd "$D/r" && expect_exit 1 timeout "$TO" env TLGATE="$TLGATE" sh "$ROOT/scripts/ci-gate.sh" main )
        expect_grep "$RECON" "$OUT"
    done
done
# a base that lists other rules: the same, and the base's file is named
repo "$D/r"; printf '{"inline_suppressible": ["S4-LAYOUT"]}\n' >"$D/r/.tlgate.json"
( cd "$D/r" && git add -A && git commit -qm "base config" && git branch -f main HEAD ) || fail "git"
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$D/r/$OPTLOG"
printf '\n<!-- tlgate-disable S4-PERF-RECORDS-RECON -- re-measured offline -->\n' >>"$D/r/$OPTLOG"
printf '{"inline_suppressible": ["S4-LAYOUT", "S4-PERF-RECORDS-RECON"]}\n' >"$D/r/.tlgate.json"
commit "$D/r" "pr: widen the list"
( cd "$D/r" && gate 1 --changed-since main --base main )
expect_grep "$RECON" "$OUT"
expect_grep "[TLGATE-SUPPRESSION-DENIED] S4-PERF-RECORDS-RECON cannot be suppressed inline: the configuration in force (main:.tlgate.json)" "$OUT"
expect_grep "[TLGATE-CONFIG] makes S4-PERF-RECORDS-RECON inline-suppressible, which main:.tlgate.json does not" "$OUT"
# a base that lists the rule: the suppression applies, and every format
# shows it with its place and reason
repo "$D/r"; printf '{"inline_suppressible": ["S4-PERF-RECORDS-RECON"]}\n' >"$D/r/.tlgate.json"
( cd "$D/r" && git add -A && git commit -qm "base config" && git branch -f main HEAD ) || fail "git"
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$D/r/$OPTLOG"
printf '\n<!-- tlgate-disable S4-PERF-RECORDS-RECON -- re-measured offline -->\n' >>"$D/r/$OPTLOG"
commit "$D/r" "pr: suppress, as the base allows"
( cd "$D/r" && gate 0 --changed-since main --base main --report json:"$D/s.json" --report sarif:"$D/s.sarif" \
    --report github:"$D/s.gh" --report markdown:"$D/s.md" )
expect_grep "$OPTLOG:19: suppressed error: [S4-PERF-RECORDS-RECON] claimed final_latency 32 us" "$OUT"
expect_grep "suppressed by $OPTLOG:27 (re-measured offline)" "$OUT"
expect_no_grep "TLGATE-" "$OUT"
sed -i 's/":[[:space:]]*/": /' "$D/s.json" "$D/s.sarif"
expect_grep '"justification": "re-measured offline"' "$D/s.json"
expect_grep '"kind": "inSource"' "$D/s.sarif"
expect_grep '"justification": "re-measured offline"' "$D/s.sarif"
expect_grep "::notice file=$OPTLOG,line=19,title=S4-PERF-RECORDS-RECON (suppressed)::" "$D/s.gh"
expect_grep "| suppressed error | S4-PERF-RECORDS-RECON |" "$D/s.md"
# --stage-result in pull-request mode: the base's configuration too
repo "$D/r"; printf '## Stage Result\n\n- stage: 4\n' >"$D/r/sr.md"
printf '{"rules": {"S4-STAGE-RESULT-FORMAT": "off"}}\n' >"$D/r/.tlgate.json"; commit "$D/r" "pr: switch the format off"
( cd "$D/r" && gate 1 --base main --stage-result sr.md ops/good )
expect_grep "sr.md:1: error: [S4-STAGE-RESULT-FORMAT]" "$OUT"
expect_grep "[TLGATE-CONFIG] sets S4-STAGE-RESULT-FORMAT to off" "$OUT"
( cd "$D/r" && gate 1 --changed-since main --stage-result sr.md ops/good )
expect_grep "sr.md:1: error: [S4-STAGE-RESULT-FORMAT]" "$OUT"

## 9. git: only when asked for, never through a relative PATH entry
repo "$D/r"; tampered "$D/r/ops/bad/perf_opt"; commit "$D/r" "pr: bad"
printf '#!/bin/sh\ntouch "%s/PWNED"\nexit 0\n' "$D" >"$D/r/git"; chmod +x "$D/r/git"
( cd "$D/r" && expect_exit 1 timeout "$TO" env PATH=":/usr/bin:/bin" "$TLGATE" . )
[ ! -e "$D/PWNED" ] || fail "a git from the checked tree ran (no --changed-since)"
( cd "$D/r" && expect_exit 1 timeout "$TO" env PATH="::.:$(dirname "$GIT"):/usr/bin:/bin" "$TLGATE" --changed-since main --base main )
[ ! -e "$D/PWNED" ] || fail "a git from the checked tree ran (--changed-since)"
expect_grep "ops/bad/perf_opt/opt_log.md:19: $RECON" "$OUT"
( cd "$D/r" && expect_exit 2 timeout "$TO" env PATH=".:bin" "$TLGATE" --changed-since main )
expect_grep "git not found in the absolute directories of PATH" "$ERR"
[ ! -e "$D/PWNED" ] || fail "a git from the checked tree ran (relative PATH)"

## 10. control characters from inputs never reach the terminal raw
rm -rf "$D/c"; mkdir -p "$D/c/op"; cp -R "$V1/perf_opt" "$D/c/op/perf_opt"
sed -i "s/best: r1_tile_swap_long_name/best: r1${ESC}[2J${ESC}]0;pwned${BEL}/" "$D/c/op/perf_opt/opt_log.md"
sed -i '2s/"candidate_id": "r1_tile_swap"/"candidate_id": "r1\\u001b[31mred\\u0007"/' "$D/c/op/perf_opt/perf_records.jsonl"
# run CMD...: within $TO s, exit 0 or 1 (findings), never a hang or a crash
run() {
    set +e; timeout "$TO" "$@" >"$OUT" 2>"$ERR"; rc=$?; set -e
    [ "$rc" -le 1 ] || { cat "$ERR"; fail "exit $rc: $*"; }
}
for f in text github markdown junit sarif gitlab json; do
    run "$TLGATE" --format "$f" "$D/c"
    no_raw_controls "$OUT" "$ERR"
done
run "$TLGATE" "$D/c"
expect_grep "best 'r1\x1b[2J\x1b]0'" "$OUT"
for f in markdown csv json html; do
    run "$TLPERF" audit --format "$f" "$D/c"
    no_raw_controls "$OUT" "$ERR"
done
run "$TLPERF" audit "$D/c"
expect_grep 'r1\\x1b\[31mred\\x07' "$OUT"
mkdir -p "$D/prof/OPPROF_1_X"
printf 'Op Name,Task Duration(us)\nk%s[31mred%s,8.5\nk%s[31mred%s,8.6\n' "$ESC" "$BEL" "$ESC" "$BEL" \
    >"$D/prof/OPPROF_1_X/OpBasicInfo.csv"
run "$TLPERF" msprof "$D/prof"
no_raw_controls "$OUT" "$ERR"
expect_grep 'k\x1b[31mred\x07' "$OUT"
run "$TLPERF" msprof --kernel-name 'k*' "$D/prof"
no_raw_controls "$OUT" "$ERR"
echo "ci trust: all attacks stopped"
