#!/bin/sh
# Records are evidence (issue 25, items 2 and 6): in pull-request mode
# (--base) a records file stays append-only when its operator directory is
# moved, copied or deleted; a change to the file a record names as its
# artifact gets the directory checked; time stamps are plausible (not after
# the commit or now, not before the parent, not shared by two different
# measurements). Every repository is built here, in a scratch directory.
. "$ROOT/tests/cli/lib.sh"
set -e
command -v git >/dev/null 2>&1 || skip "git not installed"
D=$TMPDIR_TEST
LN=$TESTDATA/audit/repo/ops/layer_norm
MISH=$TESTDATA/audit/repo/ops/mish
APPEND='[S4-PERF-RECORDS-APPEND]'
TIME='[S4-PERF-RECORDS-TIME]'
DUP='[S4-PERF-RECORDS-TIME-DUP]'

gate() { want=$1; shift; expect_exit "$want" timeout 20 "$TLGATE" "$@"; }
git_q() { git -c user.email=t@example.com -c user.name=t -c commit.gpgsign=false "$@"; }

# repo DIR: a repository whose base commit (branch main) holds ops/ln (v1,
# 6 records) and ops/mish (v2) whose kernel lies outside perf_opt/
# (ops/mish/mish.py, named "../mish.py" by its records); the work tree is
# left on a new branch "pr".
repo() {
    rm -rf "$1"
    mkdir -p "$1/ops"
    cp -R "$LN" "$1/ops/ln"
    cp -R "$MISH" "$1/ops/mish"
    mv "$1/ops/mish/perf_opt/mish.py" "$1/ops/mish/mish.py"
    sed -i 's#"artifact_path": "mish.py"#"artifact_path": "../mish.py"#' "$1/ops/mish/perf_opt/perf_records.jsonl"
    echo "# ops" >"$1/README.md"
    (cd "$1" && git init -q -b main . && git add -A && git_q commit -qm base && git checkout -q -b pr) ||
        fail "cannot build the repository"
}
commit() { (cd "$1" && git add -A && git_q commit -qm "$2") || fail "commit failed"; }
pr_gate() { want=$1; shift; (cd "$R" && gate "$want" --changed-since main --base main "$@" .); }

R=$D/r
repo "$R"
gate 0 "$R/ops/ln" "$R/ops/mish"

## 1. git mv of the operator directory plus a rewritten record: error, at the
## moved file, naming where it came from
git -C "$R" mv ops/ln ops/ln2
sed -i '3s/"duration_us": 38.0/"duration_us": 37.0/' "$R/ops/ln2/perf_opt/perf_records.jsonl"
commit "$R" "move and rewrite"
pr_gate 1
expect_grep "ops/ln2/perf_opt/perf_records.jsonl:3: error: $APPEND" "$OUT"
expect_grep "renamed from ops/ln/perf_opt/perf_records.jsonl at main, changes or drops its line 3" "$OUT"
# the same rewrite with a record appended: still an error
echo '{"round": 2, "candidate_id": "r2_double_buffer", "parent_id": "r1_fused_reduce", "dispatch_path": "layer_norm::main", "workload": "dit-small", "duration_us": 30.0, "l0_pass": true, "msprof_raw_path": null, "timestamp": "2026-10-01T11:00:00Z"}' \
    >>"$R/ops/ln2/perf_opt/perf_records.jsonl"
commit "$R" "append too"
pr_gate 1
expect_grep "ops/ln2/perf_opt/perf_records.jsonl:3: error: $APPEND" "$OUT"

## 2. a rename without a rewrite passes, also with records appended, also
## when the operand is the moved directory itself
repo "$R"
git -C "$R" mv ops/ln ops/ln2
commit "$R" "move"
pr_gate 0
expect_no_grep "$APPEND" "$OUT"
(cd "$R" && gate 0 --base main ops/ln2)
echo '{"round": 2, "candidate_id": "r2_double_buffer", "parent_id": "r1_fused_reduce", "dispatch_path": "layer_norm::main", "workload": "dit-small", "duration_us": 30.0, "l0_pass": true, "msprof_raw_path": null, "timestamp": "2026-10-01T11:00:00Z"}' \
    >>"$R/ops/ln2/perf_opt/perf_records.jsonl"
commit "$R" "append"
pr_gate 0
expect_no_grep "$APPEND" "$OUT"
# a move in the working tree only (not committed): the same
repo "$R"
mv "$R/ops/ln" "$R/ops/moved"
(cd "$R" && git add -A) || fail "git add"
(cd "$R" && gate 0 --base main .)
expect_no_grep "$APPEND" "$OUT"

## 3. copy and truncate: an error at the copy, whatever git's similarity
## score (3 of 6 lines, 1 of 6 lines); a whole copy passes
for keep in 3 1; do
    repo "$R"
    cp -R "$R/ops/ln" "$R/ops/ln_copy"
    head -n "$keep" "$R/ops/ln/perf_opt/perf_records.jsonl" >"$R/ops/ln_copy/perf_opt/perf_records.jsonl"
    commit "$R" "copy and truncate to $keep"
    pr_gate 1
    expect_grep "ops/ln_copy/perf_opt/perf_records.jsonl:$((keep + 1)): error: $APPEND" "$OUT"
    expect_grep "shares lines with ops/ln/perf_opt/perf_records.jsonl" "$OUT"
    expect_no_grep "ops/ln/perf_opt/perf_records.jsonl:" "$OUT"
done
# a copy whose first line is rewritten and the rest kept: still found by its lines
repo "$R"
cp -R "$R/ops/ln" "$R/ops/ln_copy"
sed -i '1s/"duration_us": 45.0/"duration_us": 44.0/' "$R/ops/ln_copy/perf_opt/perf_records.jsonl"
commit "$R" "copy and rewrite line 1"
pr_gate 1
expect_grep "ops/ln_copy/perf_opt/perf_records.jsonl:1: error: $APPEND" "$OUT"
# a whole copy, and a copy with records appended: no APPEND finding
repo "$R"
cp -R "$R/ops/ln" "$R/ops/ln_copy"
commit "$R" "copy"
pr_gate 0
expect_no_grep "$APPEND" "$OUT"

## 4. deletion: the records file alone, the whole operator directory, or a
## move that rewrites every line (nothing left to match): errors naming the
## base file; a brand-new operator sharing nothing with the base passes
repo "$R"
git -C "$R" rm -q ops/ln/perf_opt/perf_records.jsonl
commit "$R" "delete the records"
pr_gate 1
expect_grep "ops/ln/perf_opt/perf_records.jsonl:1: error: $APPEND" "$OUT"
expect_grep "was deleted" "$OUT"
repo "$R"
git -C "$R" rm -qr ops/ln
commit "$R" "delete the operator"
pr_gate 1
expect_grep "ops/ln/perf_opt/perf_records.jsonl:1: error: $APPEND" "$OUT"
repo "$R"
git -C "$R" mv ops/ln ops/ln2
sed -i 's/"timestamp": "2026-10-01T/"timestamp": "2026-10-02T/' "$R/ops/ln2/perf_opt/perf_records.jsonl"
commit "$R" "move and rewrite every line"
pr_gate 1
# git may still pair the two files (an error at the new one, line 1) or
# not (the old one is gone): an APPEND error either way
grep -qF -e "ops/ln2/perf_opt/perf_records.jsonl:1: error: $APPEND" -e "ops/ln/perf_opt/perf_records.jsonl:1: error: $APPEND" "$OUT" ||
    fail "a move rewriting every line: $(cat "$OUT")"
# a new operator whose records share nothing with the base's: no finding
repo "$R"
cp -R "$R/ops/ln" "$R/ops/fresh"
sed -i 's/"timestamp": "2026-10-01T/"timestamp": "2026-10-02T/' "$R/ops/fresh/perf_opt/perf_records.jsonl"
commit "$R" "a new operator"
pr_gate 0
expect_no_grep "$APPEND" "$OUT"
# the records file renamed to a name the gate does not read: gone too
repo "$R"
git -C "$R" mv ops/ln/perf_opt/perf_records.jsonl ops/ln/perf_opt/old_records.jsonl
commit "$R" "rename the records away"
(cd "$R" && gate 1 --base main .)
expect_grep "ops/ln/perf_opt/perf_records.jsonl:1: error: $APPEND" "$OUT"
# without --base nothing is compared: a v1 log that only mentions the
# records gets a warning at the mention (the reference fixtures' verdict for
# records removed), never an APPEND finding
(cd "$R" && gate 0 .)
expect_no_grep "$APPEND" "$OUT"
expect_grep "ops/ln/perf_opt/opt_log.md:5: warning: [S4-PERF-RECORDS] perf_records.jsonl is missing" "$OUT"

## 5. the measured artifact changed outside perf_opt/: the directory is
## checked (its final record's sha256 no longer matches); an unrelated
## change checks nothing
repo "$R"
echo "# unrelated" >>"$R/README.md"
commit "$R" "readme"
pr_gate 0
expect_grep "changed since 'main': nothing to check" "$ERR"
echo "# edited after it was measured" >>"$R/ops/mish/mish.py"
commit "$R" "edit the kernel only"
pr_gate 1
expect_grep "ops/mish/perf_opt/perf_records.jsonl" "$OUT"
expect_grep "[S4-PERF-RECORDS-RECON]" "$OUT"
expect_grep "checked 1 directory" "$OUT"
# the CI script runs the gate for such a change too
(cd "$R" && TLGATE="$TLGATE" TLGATE_OUT_DIR="$D/ci" expect_exit 1 sh "$ROOT/scripts/ci-gate.sh" main)
expect_grep "[S4-PERF-RECORDS-RECON]" "$OUT"

## 6. time stamps. T DIR: a copy of ops/ln to edit
T=$D/t
tdir() { rm -rf "$T"; mkdir -p "$T"; cp -R "$LN" "$T/op"; }
REC=$T/op/perf_opt/perf_records.jsonl
stamp() { sed -i "$1s/\"timestamp\": \"[^\"]*\"/\"timestamp\": \"$2\"/" "$REC"; }
# a future stamp, with or without a zone; near now within the skew: fine
future=$(date -u -d '+2 days' +%Y-%m-%dT%H:%M:%SZ)
tdir; stamp 6 "$future"; gate 1 "$T/op"
expect_grep "perf_records.jsonl:6: error: $TIME" "$OUT"
expect_grep "is in the future" "$OUT"
tdir; stamp 6 "2999-01-01"; gate 1 "$T/op"
expect_grep "perf_records.jsonl:6: error: $TIME" "$OUT"
tdir; stamp 6 "$(date -u -d '+2 min' +%Y-%m-%dT%H:%M:%SZ)"; gate 0 "$T/op"
expect_no_grep "$TIME" "$OUT"
# an unzoned stamp 10 hours ahead of UTC could be local time east of UTC: no error
tdir; stamp 6 "$(date -u -d '+10 hours' +%Y-%m-%dT%H:%M:%S)"; gate 0 "$T/op"
expect_no_grep "$TIME" "$OUT"
tdir; stamp 6 "$(date -u -d '+10 hours' +%Y-%m-%dT%H:%M:%S+00:00)"; gate 1 "$T/op"
expect_grep "perf_records.jsonl:6: error: $TIME" "$OUT"

# a child measured before its parent (line 5 derives from r1_fused_reduce,
# first measured at 09:00Z)
tdir; stamp 5 "2026-10-01T08:30:00Z"; gate 1 "$T/op"
expect_grep "perf_records.jsonl:5: error: $TIME" "$OUT"
expect_grep "before its parent 'r1_fused_reduce' was first measured ('2026-10-01T09:00:00Z', line 3)" "$OUT"
# the same instant in another zone (17:30+08:00 is 09:30Z): fine
tdir; stamp 5 "2026-10-01T17:30:00+08:00"; gate 0 "$T/op"
expect_no_grep "$TIME" "$OUT"
# 16:30+08:00 is 08:30Z: before the parent
tdir; stamp 5 "2026-10-01T16:30:00+08:00"; gate 1 "$T/op"
expect_grep "perf_records.jsonl:5: error: $TIME" "$OUT"
# a parent re-measured later does not make its child early (first record counts)
tdir; stamp 3 "2026-10-01T09:00:00Z"; stamp 4 "2026-10-01T11:00:00Z"; gate 0 "$T/op"
expect_no_grep "$TIME" "$OUT"
# unzoned against zoned within 14 hours: cannot be told
tdir; stamp 5 "2026-10-01T08:30:00"; gate 0 "$T/op"
expect_no_grep "$TIME" "$OUT"
# a parent stamped with the date alone covers its whole day
tdir; stamp 3 "2026-10-01"; gate 0 "$T/op"
expect_no_grep "$TIME" "$OUT"

# duplicate stamps: two different candidates -> one warning, exit 0
tdir; stamp 5 "2026-10-01T09:00:00Z"
sed -i '5s/"parent_id": "r1_fused_reduce"/"parent_id": "baseline"/' "$REC"
gate 0 "$T/op"
expect_grep "perf_records.jsonl:5: warning: $DUP" "$OUT"
expect_grep "different measurement at line 3" "$OUT"
tdir; stamp 4 "2026-10-01T09:00:00Z"; stamp 5 "2026-10-01T09:00:00Z"; stamp 6 "2026-10-01T09:00:00Z"
sed -i '5s/"parent_id": "r1_fused_reduce"/"parent_id": "baseline"/; 6s/"parent_id": "r1_fused_reduce"/"parent_id": "baseline"/' "$REC"
gate 0 "$T/op"
[ "$(grep -cF "$DUP" "$OUT")" = 1 ] || fail "one warning per shared stamp: $(cat "$OUT")"
# one candidate's workloads measured in one bench run share its stamp
tdir; stamp 4 "2026-10-01T09:00:00Z"; gate 0 "$T/op"
expect_no_grep "$DUP" "$OUT"
# without seconds a stamp cannot tell runs apart: not compared
tdir; stamp 3 "2026-10-01T09:00Z"; stamp 4 "2026-10-01T09:00Z"; gate 0 "$T/op"
expect_no_grep "$DUP" "$OUT"
# the same measurement recorded twice is not a different one
tdir; sed -n 6p "$REC" >>"$REC"; gate 0 "$T/op"
expect_no_grep "$DUP" "$OUT"

## 7. with --base, a record stamped after the commit that added it: error
## naming the commit (the time of the check would let it pass)
R7='{"round": 2, "candidate_id": "r2_double_buffer", "parent_id": "r1_fused_reduce", "dispatch_path": "layer_norm::main", "workload": "dit-small", "duration_us": 30.0, "l0_pass": true, "msprof_raw_path": null, "timestamp": "2026-10-05T00:00:00Z"}'
repo "$R"
echo "$R7" >>"$R/ops/ln/perf_opt/perf_records.jsonl"
(cd "$R" && git add -A && GIT_COMMITTER_DATE='2026-10-04T00:00:00Z' git_q commit -qm "backdated") || fail "commit"
sha=$(git -C "$R" rev-parse --short=12 HEAD)
(cd "$R" && gate 1 --base main .)
expect_grep "perf_records.jsonl:7: error: $TIME" "$OUT"
expect_grep "after commit $sha that added this line (committed 2026-10-04T00:00:00Z)" "$OUT"
expect_no_grep "$APPEND" "$OUT"
(cd "$R" && gate 0 .)
expect_no_grep "$TIME" "$OUT"
# appended in a commit made after the stamp: fine
repo "$R"
echo '{"round": 2, "candidate_id": "r2_double_buffer", "parent_id": "r1_fused_reduce", "dispatch_path": "layer_norm::main", "workload": "dit-small", "duration_us": 30.0, "l0_pass": true, "msprof_raw_path": null, "timestamp": "2026-10-03T23:59:00Z"}' \
    >>"$R/ops/ln/perf_opt/perf_records.jsonl"
# (the line appended in the working tree, not committed yet: the time of the check)
(cd "$R" && gate 0 --base main .)
expect_no_grep "$TIME" "$OUT"
(cd "$R" && git add -A && GIT_COMMITTER_DATE='2026-10-04T00:00:00Z' git_q commit -qm "appended") || fail "commit"
(cd "$R" && gate 0 --base main .)
expect_no_grep "$TIME" "$OUT"
expect_no_grep "$APPEND" "$OUT"
echo "ok"
