# The integration files run what they say: the gate commands of the GitHub
# workflow and the GitLab job (the lines between "# tlgate-ci: begin" and
# "# tlgate-ci: end") and the pre-commit hook's entry, run here the way
# each CI system would run them, on the tampered pull request of
# tests/cli/ci_lib.sh.
. "$ROOT/tests/cli/lib.sh"
set -e
command -v git >/dev/null 2>&1 || skip "git not installed"
if "$TLGATE" --help 2>&1 | grep -q "not implemented"; then skip "tlgate not implemented yet"; fi
. "$ROOT/tests/cli/ci_lib.sh"
GH="$ROOT/integrations/github/tlgate.yml"
GL="$ROOT/integrations/gitlab/tlgate.gitlab-ci.yml"
PC="$ROOT/.pre-commit-hooks.yaml"
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY GITHUB_BASE_REF CI_MERGE_REQUEST_DIFF_BASE_SHA TLGATE_BASE TLGATE_OUT_DIR || true

# static checks of the files themselves
expect_grep "pull_request:" "$GH"
# every pull/merge request runs the script (a changed artifact outside
# perf_opt/ or a deleted operator directory matters): no path filter
expect_no_grep "paths:" "$GH"
expect_no_grep "changes:" "$GL"
expect_grep 'merge_request_event' "$GL"
expect_grep "files: (^|/)(perf_opt|perf_tuning)(/|$)" "$PC"
expect_grep "fetch-depth: 0" "$GH"
expect_grep "github/codeql-action/upload-sarif" "$GH"
expect_grep "sarif_file: tlgate.sarif" "$GH"
expect_grep 'GIT_DEPTH: "0"' "$GL"
expect_grep "codequality: gl-code-quality-report.json" "$GL"
expect_grep "junit: tlgate-junit.xml" "$GL"
expect_grep "require_serial: true" "$PC"
# docs/ci.md's copy of the workflow has no path filter either
awk '/^```yaml$/{on=1;next} /^```$/{on=0} on' "$ROOT/docs/ci.md" >"$TMPDIR_TEST/ci-md.yml"
expect_no_grep "paths:" "$TMPDIR_TEST/ci-md.yml"
# the gate-only jobs install exactly what `make` builds tlgate with: every
# build package (build-essential aside: make, gcc, libc6-dev), none the
# tests alone need (so `make` runs no install-deps.sh there)
sed -n 's/.*apt-get install -y -qq //p' "$GL" | tr ' ' '\n' | sort >"$TMPDIR_TEST/gl-pkgs"
for p in $(sh "$ROOT/scripts/install-deps.sh" build --list) make gcc libc6-dev git; do
    [ "$p" = build-essential ] && continue
    grep -qx "$p" "$TMPDIR_TEST/gl-pkgs" || fail "gitlab: the job does not install $p (make would install it and the test tools)"
done
for p in $(sh "$ROOT/scripts/install-deps.sh" --list); do
    sh "$ROOT/scripts/install-deps.sh" build --list | tr ' ' '\n' | grep -qx "$p" && continue
    case $p in git) continue ;; esac
    grep -qx "$p" "$TMPDIR_TEST/gl-pkgs" && fail "gitlab: the gate-only job installs the test-only package $p"
done
expect_grep "install-deps.sh build" "$GH"
# `make deps` (what building the binary needs) does not insist on the test
# tools: with the headers present and no jq, git, zsh... on PATH, it runs no
# install-deps.sh; `make test-deps` does. A stand-in install-deps.sh records
# its calls (make runs scripts/install-deps.sh relative to where it runs).
M=$TMPDIR_TEST/mkdeps
mkdir -p "$M/scripts" "$M/bin"
printf 'echo "install-deps $*" >>"%s/calls"\n' "$M" >"$M/scripts/install-deps.sh"
for c in sh cc mkdir touch; do ln -s "$(command -v $c)" "$M/bin/$c"; done
MAKE_BIN=$(command -v make)
(cd "$M" && PATH="$M/bin" "$MAKE_BIN" -s -f "$ROOT/Makefile" BUILD="$M/b" deps) >"$M/out" 2>&1 || { cat "$M/out"; fail "make deps failed"; }
[ ! -e "$M/calls" ] || fail "make deps ran install-deps for test-only tools: $(cat "$M/calls")"
(cd "$M" && PATH="$M/bin" "$MAKE_BIN" -s -f "$ROOT/Makefile" BUILD="$M/b" test-deps) >"$M/out" 2>&1 || true
grep -qx "install-deps " "$M/calls" || fail "make test-deps did not install the test tools: $(cat "$M/out")"
need_cmd python3
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml not installed (scripts/install-deps.sh installs it)"
if true; then
    for y in "$GH" "$GL" "$PC"; do
        python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$y" || fail "$y: not valid YAML"
    done
fi

# the commands between the markers, with YAML list dashes and indentation
# taken off (GitLab's script: is a list, GitHub's run: a block)
ci_commands() {
    sed -n '/# tlgate-ci: begin/,/# tlgate-ci: end/p' "$1" | sed '1d;$d' |
        sed -e 's/^[[:space:]]*- //' -e 's/^[[:space:]]*//'
}
ci_commands "$GH" >"$TMPDIR_TEST/gh.sh"
ci_commands "$GL" >"$TMPDIR_TEST/gl.sh"
[ -s "$TMPDIR_TEST/gh.sh" ] || fail "no gate commands in $GH"
[ -s "$TMPDIR_TEST/gl.sh" ] || fail "no gate commands in $GL"

ci_make_repo "$TMPDIR_TEST/repo"
cd "$TMPDIR_TEST/repo"
# .tlperf: the checkout of tlperf both files make, here the tree under
# test with the binary under test
mkdir -p .tlperf/build/bin
ln -s "$ROOT/scripts" .tlperf/scripts
ln -s "$TLGATE" .tlperf/build/bin/tlgate
printf '.tlperf\n' >>.git/info/exclude

# GitHub Actions: env as the workflow sets it, plus what the runner sets
expect_exit 1 env BASE_SHA="$BASE" TLGATE="$PWD/.tlperf/build/bin/tlgate" GITHUB_ACTIONS=true \
    GITHUB_STEP_SUMMARY="$TMPDIR_TEST/gh-summary.md" GITHUB_WORKSPACE="$PWD" \
    sh -e "$TMPDIR_TEST/gh.sh"
expect_grep "::error file=ops/layer_norm/perf_opt/perf_records.jsonl,line=3,title=S4-PERF-RECORDS-APPEND::" "$OUT"
expect_grep "::error file=ops/layer_norm/perf_opt/opt_log.md,line=$CLAIM_LINE,title=S4-PERF-RECORDS-RECON::" "$OUT"
expect_no_grep "mish" "$OUT"
expect_grep "| error | S4-PERF-RECORDS-RECON |" "$TMPDIR_TEST/gh-summary.md"
# the files the later steps upload (hashFiles('tlgate.sarif') != '')
for f in tlgate.sarif tlgate-junit.xml tlgate-summary.md; do [ -s "$f" ] || fail "github: no $f"; done
[ "$(jq '.runs[0].results | length' tlgate.sarif)" = 3 ] || fail "github: want 3 SARIF results (2 errors, the geometric-mean warning)"
rm -f tlgate.sarif tlgate-junit.xml tlgate-summary.md

# GitLab CI: the job's variables, the script in the checkout
expect_exit 1 env CI_MERGE_REQUEST_DIFF_BASE_SHA="$BASE" GITLAB_CI=true sh -e "$TMPDIR_TEST/gl.sh"
for f in gl-code-quality-report.json tlgate-junit.xml tlgate.sarif; do [ -s "$f" ] || fail "gitlab: no $f (an artifact of the job)"; done
[ "$(jq 'length' gl-code-quality-report.json)" = 3 ] || fail "gitlab: want 3 code quality issues"
jq -r '.[].location.path' gl-code-quality-report.json | grep -v '^ops/layer_norm/perf_opt/' && fail "gitlab: a path outside layer_norm"
jq -r '.[].fingerprint' gl-code-quality-report.json | sort -u | wc -l | grep -qx 3 || fail "gitlab: fingerprints not unique"
ci_xml_ok tlgate-junit.xml
# a second run gives the same fingerprints (GitLab matches issues by them)
cp gl-code-quality-report.json "$TMPDIR_TEST/gl1.json"
expect_exit 1 env CI_MERGE_REQUEST_DIFF_BASE_SHA="$BASE" sh -e "$TMPDIR_TEST/gl.sh"
[ "$(jq -c '[.[].fingerprint]' gl-code-quality-report.json)" = "$(jq -c '[.[].fingerprint]' "$TMPDIR_TEST/gl1.json")" ] ||
    fail "gitlab: fingerprints changed between identical runs"
rm -f gl-code-quality-report.json tlgate-junit.xml tlgate.sarif tlgate-summary.md

# pre-commit: the hook's entry, run from the repository top with the staged
# files that match its files: pattern, executed directly (language: script)
entry=$(sed -n 's/^[[:space:]]*entry:[[:space:]]*//p' "$PC")
files_re=$(sed -n 's/^[[:space:]]*files:[[:space:]]*//p' "$PC")
[ -n "$entry" ] && [ -n "$files_re" ] || fail "cannot read entry/files from $PC"
git checkout -q main
# pre-commit splits the entry into words (shlex); ours has no quoting
entry_prog=${entry%% *}
entry_args=""
case "$entry" in *" "*) entry_args=${entry#* } ;; esac
[ -x "$ROOT/$entry_prog" ] || fail "hook entry $ROOT/$entry_prog is not executable"
# a staged edit that keeps the records append-only passes
echo "复测无变化。" >>ops/mish/perf_opt/opt_log.md
git add ops/mish/perf_opt/opt_log.md
staged=$(git diff --cached --name-only | grep -E "$files_re" || true)
[ "$staged" = "ops/mish/perf_opt/opt_log.md" ] || fail "files: pattern does not match perf_opt files"
# shellcheck disable=SC2086
expect_exit 0 env TLGATE="$TLGATE" "$ROOT/$entry_prog" $entry_args $staged
git commit -qm "mish: note"
# a staged rewrite of a record line fails, naming that directory only
sed -i '1s/"duration_us": 120.0/"duration_us": 119.0/' ops/mish/perf_opt/perf_records.jsonl
git add ops/mish/perf_opt/perf_records.jsonl
staged=$(git diff --cached --name-only | grep -E "$files_re" || true)
# shellcheck disable=SC2086
expect_exit 1 env TLGATE="$TLGATE" "$ROOT/$entry_prog" $entry_args $staged
grep -E '^(\./)?ops/mish/perf_opt/perf_records\.jsonl:1: error: \[S4-PERF-RECORDS-APPEND\]' "$OUT" >/dev/null ||
    fail "pre-commit: no APPEND error for the staged rewrite"
expect_no_grep "layer_norm" "$OUT"
# a commit touching no perf_opt file: the hook is not even called
# (files: does not match), and called anyway it passes
git reset -q --hard
echo x >>README.md
git add README.md
# shellcheck disable=SC2086
expect_exit 0 env TLGATE="$TLGATE" "$ROOT/$entry_prog" $entry_args README.md
expect_grep "no perf_opt or perf_tuning changes" "$OUT"
echo "integrations ok"
