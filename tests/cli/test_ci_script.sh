# scripts/ci-gate.sh's git plumbing, with a stand-in tlgate that records its
# arguments: which directories count as changed, the base handed to the
# gate, shallow clones, staged mode, exit statuses. The real gate on a real
# pull request is tests/cli/test_ci_gate.sh.
. "$ROOT/tests/cli/lib.sh"
set -e
command -v git >/dev/null 2>&1 || skip "git not installed"
T=$TMPDIR_TEST
CI="$ROOT/scripts/ci-gate.sh"

# the stand-in: logs one argument per line, writes each --report file
cat >"$T/stub-tlgate" <<'EOF'
#!/bin/sh
: >"$STUB_LOG"
for a in "$@"; do printf '%s\n' "$a" >>"$STUB_LOG"; done
prev=""
for a in "$@"; do
    if [ "$prev" = --report ]; then printf 'report %s\n' "${a%%:*}" >"${a#*:}"; fi
    prev=$a
done
echo "stub findings"
exit "${STUB_RC:-0}"
EOF
chmod +x "$T/stub-tlgate"
export TLGATE="$T/stub-tlgate" STUB_LOG="$T/args"
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY GITHUB_BASE_REF CI_MERGE_REQUEST_DIFF_BASE_SHA TLGATE_BASE TLGATE_OUT_DIR || true

R="$T/repo"
mkdir -p "$R/op_a/perf_opt" "$R/op_b/perf_opt" "$R/sp ace/perf_opt" "$R/docs" "$R/my_perf_opt"
cd "$R"
git init -q -b main .
git config user.email t@example.com
git config user.name t
for d in op_a op_b "sp ace"; do echo "# log" >"$d/perf_opt/opt_log.md"; echo '{}' >"$d/perf_opt/perf_records.jsonl"; done
echo doc >docs/README.md
echo x >my_perf_opt/notes.md
git add -A && git commit -qm base
BASE=$(git rev-parse HEAD)

# a change outside perf_opt only: nothing to gate, the gate is not run
git checkout -q -b docs-only
echo more >>docs/README.md
echo y >>my_perf_opt/notes.md
git commit -qam docs
rm -f "$T/args"
expect_exit 0 sh "$CI" "$BASE"
expect_grep "no perf_opt or perf_tuning changes" "$OUT"
[ ! -e "$T/args" ] || fail "the gate ran although no perf_opt file changed"
# ... and the job summary says so
expect_exit 0 env GITHUB_STEP_SUMMARY="$T/summary0.md" sh "$CI" "$BASE"
expect_grep "no perf_opt or perf_tuning changes" "$T/summary0.md"

# a pull request touching op_a's records and a doc
git checkout -q -b pr main
echo '{"x": 1}' >>op_a/perf_opt/perf_records.jsonl
echo more >>docs/README.md
git commit -qam pr
mkdir "$T/rep"
expect_exit 0 env TLGATE_OUT_DIR="$T/rep" sh "$CI" "$BASE"
expect_grep "  op_a/perf_opt" "$ERR"
expect_no_grep "op_b" "$ERR"
expect_grep "stub findings" "$OUT"
printf '%s\n' --changed-since "$BASE" --base "$BASE" --format text \
    "--report" "sarif:$T/rep/tlgate.sarif" "--report" "junit:$T/rep/tlgate-junit.xml" \
    "--report" "markdown:$T/rep/tlgate-summary.md" >"$T/want"
diff "$T/want" "$T/args" || fail "tlgate arguments differ"
for f in tlgate.sarif tlgate-junit.xml tlgate-summary.md; do [ -s "$T/rep/$f" ] || fail "no $f"; done

# gate errors exit 1; a gate that cannot run exits 2
expect_exit 1 env STUB_RC=1 TLGATE_OUT_DIR="$T/rep" sh "$CI" "$BASE"
expect_exit 2 env STUB_RC=2 TLGATE_OUT_DIR="$T/rep" sh "$CI" "$BASE"
expect_grep "tlgate failed to run (exit 2)" "$ERR"

# under GitHub Actions: workflow commands, the summary appended, extra options passed
echo "earlier step" >"$T/summary.md"
(cd docs && expect_exit 1 env STUB_RC=1 GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$T/summary.md" \
    sh "$CI" "$BASE" -- --strict)
expect_grep "earlier step" "$T/summary.md"
expect_grep "report markdown" "$T/summary.md"
grep -qx -- "--strict" "$T/args" || fail "extra option not passed"
grep -qx -- "github" "$T/args" || fail "not the github format under Actions"
[ -s "$R/docs/tlgate.sarif" ] || fail "reports not written to the current directory"
rm -f "$R"/docs/tlgate*

# the base from the environment (GitLab), and no base at all
expect_exit 0 env CI_MERGE_REQUEST_DIFF_BASE_SHA="$BASE" TLGATE_OUT_DIR="$T/rep" sh "$CI"
grep -qx "$BASE" "$T/args" || fail "CI_MERGE_REQUEST_DIFF_BASE_SHA not used"
expect_exit 2 sh "$CI"
expect_grep "no base given" "$ERR"
expect_exit 2 sh "$CI" --upload-pack=touch
expect_grep "looks like an option" "$ERR"
expect_exit 2 sh "$CI" no-such-ref
expect_grep "is not in this clone and there is no remote 'origin'" "$ERR"
expect_grep "fetch-depth: 0" "$ERR"

# a shallow clone of the pull request: the base commit is fetched
git clone -q --depth 1 --branch pr "file://$R" "$T/shallow"
cd "$T/shallow"
git config user.email t@example.com
git config user.name t
git cat-file -e "$BASE^{commit}" 2>/dev/null && fail "the shallow clone already has the base"
expect_exit 0 env TLGATE_OUT_DIR="$T/rep" sh "$CI" "$BASE"
expect_grep "fetching it from 'origin'" "$ERR"
expect_grep "  op_a/perf_opt" "$ERR"
expect_no_grep "op_b" "$ERR"
grep -qx "$BASE" "$T/args" || fail "base not passed after fetching"
# by remote branch name too
git clone -q --depth 1 --branch pr "file://$R" "$T/shallow2"
cd "$T/shallow2"
expect_exit 0 env TLGATE_OUT_DIR="$T/rep" sh "$CI" origin/main
grep -qx "origin/main" "$T/args" || fail "origin/main not passed"
expect_exit 2 sh "$CI" "0123456789012345678901234567890123456789"
expect_grep "could not be fetched from 'origin'" "$ERR"

# staged mode (pre-commit): the perf_opt directories of the given files
cd "$R"
expect_exit 0 sh "$CI" --staged "op_a/perf_opt/opt_log.md" "sp ace/perf_opt/perf_records.jsonl" \
    "op_a/perf_opt/perf_records.jsonl" "docs/README.md"
printf '%s\n' --base HEAD "op_a/perf_opt" "sp ace/perf_opt" >"$T/want"
diff "$T/want" "$T/args" || fail "staged: tlgate arguments differ"
expect_exit 0 sh "$CI" --staged docs/README.md
expect_grep "no perf_opt or perf_tuning changes" "$OUT"
# without file arguments: what is staged in the index
echo '{"y": 2}' >>"op_b/perf_opt/perf_records.jsonl"
git add op_b/perf_opt/perf_records.jsonl
expect_exit 1 env STUB_RC=1 sh "$CI" --staged
printf '%s\n' --base HEAD "op_b/perf_opt" >"$T/want"
diff "$T/want" "$T/args" || fail "staged index: tlgate arguments differ"

# outside a git work tree
cd "$T"
expect_exit 2 sh "$CI" "$BASE"
expect_grep "not inside a git work tree" "$ERR"
echo "ci-gate.sh plumbing ok"
