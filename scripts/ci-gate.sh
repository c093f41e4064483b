#!/bin/sh
# ci-gate.sh: run tlgate on the perf_opt/ and perf_tuning/ directories a
# change touches.
#
#   scripts/ci-gate.sh [BASE_REF] [-- TLGATE_OPTION...]   pull/merge requests
#   scripts/ci-gate.sh --staged [FILE...]                  pre-commit
#
# Pull request mode: when a file changed in BASE_REF...HEAD lies in a
# perf_opt or perf_tuning directory (deleted ones included), is a
# .tlgate.json, or is named by a record as its measured artifact (its file
# name ends an "artifact_path" of a perf_records.jsonl), runs `tlgate
# --changed-since BASE_REF --base BASE_REF`, which picks the directories
# (perf_records.jsonl must only have grown since the base, also when
# moved, copied or deleted), and writes
#   tlgate.sarif        SARIF 2.1.0 (code scanning)
#   tlgate-junit.xml    JUnit XML (test report)
#   tlgate-summary.md   Markdown summary, also appended to $GITHUB_STEP_SUMMARY
# into $TLGATE_OUT_DIR (default: the current directory). Findings go to
# stdout as workflow commands under GitHub Actions, as text elsewhere.
# BASE_REF defaults to $TLGATE_BASE, then the base of the pull or merge
# request ($GITHUB_BASE_REF as origin/<branch>, $CI_MERGE_REQUEST_DIFF_BASE_SHA).
# On a shallow clone the base commit is fetched from $TLGATE_REMOTE
# (default origin); when that fails the script says so and exits 2.
#
# Staged mode: gates the perf_opt/perf_tuning directories holding the given files (the
# staged files when none are given) against HEAD; pre-commit passes them.
#
# Exit: 0 no errors (or no such changes), 1 gate errors, 2 usage or
# environment error (no base commit, tlgate missing or failing to run).
# Environment: TLGATE (the binary; default: tlgate on PATH, else this
# checkout's build/bin/tlgate, built with make when missing).
set -eu

prog=ci-gate
say() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { say "error: $*"; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
# a path's perf_opt (else perf_tuning) directory: everything up to its
# (last) perf_opt component; a path that IS one (a symbolic link) counts
perf_dir_sed='s#^\(\(.*/\)\{0,1\}perf_opt\)\(/.*\)\{0,1\}$#\1#p;t
s#^\(\(.*/\)\{0,1\}perf_tuning\)\(/.*\)\{0,1\}$#\1#p'
# what the gate cares about: perf dirs, and configuration (a weakened
# .tlgate.json is an error)
watched='(^|/)(perf_opt|perf_tuning)(/|$)|(^|/)\.tlgate\.json$'

find_tlgate() {
    if [ -n "${TLGATE:-}" ]; then
        [ -x "$TLGATE" ] || die "TLGATE='$TLGATE' is not an executable file"
        return
    fi
    if command -v tlgate >/dev/null 2>&1; then
        TLGATE=$(command -v tlgate)
        return
    fi
    TLGATE="$here/../build/bin/tlgate"
    if [ ! -x "$TLGATE" ]; then
        [ -f "$here/../Makefile" ] || die "tlgate not found: set TLGATE or put tlgate on PATH"
        say "building tlgate in $(cd "$here/.." && pwd) (once)"
        make -C "$here/.." >&2 || die "building tlgate failed"
    fi
}

# Maps the tlgate exit status to ours, after a message for the unexpected.
finish() {
    case $1 in
        0) exit 0 ;;
        1) exit 1 ;;
        *) die "tlgate failed to run (exit $1)" ;;
    esac
}

staged=0
case "${1:-}" in
    --staged) staged=1; shift ;;
    -h|--help) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

top=$(git rev-parse --show-toplevel 2>/dev/null) || die "not inside a git work tree"
out_dir=${TLGATE_OUT_DIR:-$(pwd)}
mkdir -p "$out_dir" || die "cannot create '$out_dir'"
out_dir=$(cd "$out_dir" && pwd)
find_tlgate
case "$TLGATE" in /*) ;; *) TLGATE="$(pwd)/$TLGATE" ;; esac

if [ "$staged" = 1 ]; then
    cd "$top"
    if [ $# -eq 0 ]; then
        files=$(git -c core.quotePath=false diff --cached --name-only --diff-filter=d)
    else
        files=$(printf '%s\n' "$@")
    fi
    # the nearest perf_opt/perf_tuning ancestor of each file, once each
    dirs=$(printf '%s\n' "$files" | sed -n "$perf_dir_sed" | sort -u)
    set --
    old_ifs=$IFS
    IFS='
'
    for d in $dirs; do
        [ -d "$d" ] && set -- "$@" "$d"
    done
    IFS=$old_ifs
    if [ $# -eq 0 ]; then
        echo "no perf_opt or perf_tuning changes"
        exit 0
    fi
    if git rev-parse --verify --quiet HEAD >/dev/null; then
        set -- --base HEAD "$@"
    fi
    set +e
    "$TLGATE" "$@"
    rc=$?
    set -e
    finish "$rc"
fi

base=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    base=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
if [ -z "$base" ]; then
    if [ -n "${TLGATE_BASE:-}" ]; then
        base=$TLGATE_BASE
    elif [ -n "${GITHUB_BASE_REF:-}" ]; then
        base="origin/$GITHUB_BASE_REF"
    elif [ -n "${CI_MERGE_REQUEST_DIFF_BASE_SHA:-}" ]; then
        base=$CI_MERGE_REQUEST_DIFF_BASE_SHA
    else
        die "no base given: usage: ci-gate.sh BASE_REF [-- TLGATE_OPTION...]"
    fi
fi
case "$base" in -*) die "base '$base' looks like an option, not a git revision" ;; esac
cd "$top"
remote=${TLGATE_REMOTE:-origin}

# The base commit must be in the clone; CI checkouts are often shallow.
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    if ! git remote get-url "$remote" >/dev/null 2>&1; then
        die "base '$base' is not in this clone and there is no remote '$remote' to fetch it from: clone with full history (GitHub: actions/checkout with fetch-depth: 0; GitLab: GIT_DEPTH: 0) or fetch the base commit first"
    fi
    case "$base" in
        "$remote"/*) spec="+refs/heads/${base#"$remote"/}:refs/remotes/$base" ;;
        *) spec=$base ;;
    esac
    say "base '$base' is not in this clone: fetching it from '$remote'"
    git fetch --quiet --no-tags "$remote" "$spec" >&2 || true
    if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
        git rev-parse --verify --quiet FETCH_HEAD >/dev/null && [ "$spec" = "$base" ] &&
            base=$(git rev-parse FETCH_HEAD)
    fi
    git rev-parse --verify --quiet "$base^{commit}" >/dev/null ||
        die "base '$base' is not in this clone and could not be fetched from '$remote': clone with full history (GitHub: actions/checkout with fetch-depth: 0; GitLab: GIT_DEPTH: 0) or fetch the base commit first"
fi
# Without a merge base (a shallow clone cut above the branch point) the
# three-dot diff is impossible: deepen once, else tlgate compares trees.
range="$base...HEAD"
if ! git merge-base "$base" HEAD >/dev/null 2>&1; then
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ] &&
        git remote get-url "$remote" >/dev/null 2>&1; then
        say "shallow clone without a merge base: fetching full history from '$remote'"
        git fetch --quiet --no-tags --unshallow "$remote" >&2 || true
    fi
    if ! git merge-base "$base" HEAD >/dev/null 2>&1; then
        say "warning: no merge base between '$base' and HEAD: comparing '$base..HEAD' directly (changes on the base branch count as changes)"
        range="$base..HEAD"
    fi
fi

all_changed=$(git -c core.quotePath=false diff --name-only "$range" --)
changed=$(printf '%s\n' "$all_changed" | grep -E "$watched" || true)
# files outside them that a record names as its measured artifact: a
# quick look by file name (tlgate resolves the paths exactly)
artifacts=""
if [ -z "$changed" ] && [ -n "$all_changed" ]; then
    artifacts=$(printf '%s\n' "$all_changed" | while IFS= read -r f; do
        [ -n "$f" ] || continue
        name=$(printf '%s' "${f##*/}" | sed 's/[][\.*^$+?(){}|]/\\&/g')
        if git grep -q -E "\"artifact_path\": *\"([^\"]*/)?$name\"" -- '*perf_opt/perf_records.jsonl' 2>/dev/null; then
            printf '%s\n' "$f"
        fi
    done)
fi
if [ -z "$changed" ] && [ -z "$artifacts" ]; then
    echo "no perf_opt or perf_tuning changes since $base"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        # shellcheck disable=SC2016 # backticks are Markdown
        printf '### tlgate: passed\n\nno perf_opt or perf_tuning changes since `%s`.\n' "$base" >>"$GITHUB_STEP_SUMMARY"
    fi
    exit 0
fi
say "perf_opt/perf_tuning directories (and .tlgate.json files, measured artifacts) changed since $base:"
{
    printf '%s\n' "$changed" | sed -n "$perf_dir_sed"
    printf '%s\n' "$changed" | grep -E '(^|/)\.tlgate\.json$' || true
    [ -z "$artifacts" ] || printf '%s\n' "$artifacts" | sed 's/$/ (artifact)/'
} | sort -u | sed 's/^/  /' >&2

fmt=text
[ "${GITHUB_ACTIONS:-}" = true ] && fmt=github
summary="$out_dir/tlgate-summary.md"
set +e
"$TLGATE" --changed-since "$base" --base "$base" --format "$fmt" \
    --report "sarif:$out_dir/tlgate.sarif" \
    --report "junit:$out_dir/tlgate-junit.xml" \
    --report "markdown:$summary" "$@"
rc=$?
set -e
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$summary" ]; then
    cat "$summary" >>"$GITHUB_STEP_SUMMARY"
fi
finish "$rc"
