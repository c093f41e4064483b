# A path is checked as given (issue 26.1): '.' or any path that is or lies
# inside a perf_opt/ (or perf_tuning/) checks that directory from its
# operator directory, and nothing else; an explicit PATH under which nothing
# is checked is exit 2 in one line (--allow-empty for a job that wants 0);
# --changed-since with no relevant change is 0 and says so. The same for
# `tlperf audit`.
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST
cp -R "$TESTDATA/gate" "$T/tree"
OP=$T/tree/v1
# a sibling operator with an error: checking v1 from inside must not see it
cp -R "$OP" "$T/tree/other"
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$T/tree/other/perf_opt/opt_log.md"
expect_exit 1 "$TLGATE" "$T/tree/other"

# the reference: the perf_opt/ named as it is
expect_exit 0 "$TLGATE" "$OP/perf_opt"
sed "s|^$OP/||" "$OUT" | grep ': warning: ' >"$T/want"
[ -s "$T/want" ] || fail "no findings to compare with"
tail -n 1 "$OUT" | grep -q '^checked 1 directory: ' || fail "reference: $(tail -n 1 "$OUT")"

# from_inside DIR ARG...: tlgate run in DIR; the findings, with the path
# each names resolved from DIR, must be the reference's
from_inside() {
    dir=$1; shift
    ( cd "$dir" && expect_exit 0 "$TLGATE" "$@" ) || fail "tlgate $* in $dir"
    tail -n 1 "$OUT" | grep -q '^checked 1 directory: 0 errors' || fail "in $dir, tlgate $*: $(tail -n 1 "$OUT")"
    grep ': warning: ' "$OUT" >"$T/got"
    [ "$(wc -l <"$T/got")" -eq "$(wc -l <"$T/want")" ] || { cat "$OUT"; fail "in $dir, tlgate $*: other findings"; }
    while IFS= read -r line; do
        f=${line%%:*}
        ( cd "$dir" && [ -f "$f" ] ) || fail "in $dir: the finding's path '$f' does not name a file from there"
        real=$(cd "$dir" && cd "$(dirname "$f")" && pwd)/$(basename "$f")
        rel=${real#"$OP"/}
        grep -qF -- "$rel:${line#*:}" "$T/want" || fail "in $dir: '$line' is not a reference finding"
    done <"$T/got"
}
from_inside "$OP/perf_opt"                  # no PATH
from_inside "$OP/perf_opt" .                # '.'
from_inside "$OP/perf_opt" ./               # '.' with a slash
from_inside "$OP/perf_opt/profiles"         # a directory inside perf_opt/
from_inside "$OP/perf_opt/profiles" .
from_inside "$T/tree" v1/perf_opt/profiles  # a relative path inside it
from_inside "$T" "$OP/perf_opt/profiles/"   # an absolute one
from_inside "$OP" .                         # the operator directory itself
# the operator's error is seen from inside too
sed -i 's/final_latency: 64.0 us/final_latency: 32.0 us/' "$OP/perf_opt/opt_log.md"
( cd "$OP/perf_opt/profiles" && expect_exit 1 "$TLGATE" ) || fail "error not found from inside"
expect_grep "../../perf_opt/opt_log.md:19: error: [S4-PERF-RECORDS-RECON]" "$OUT"
expect_grep "[S4-PERF-RECORDS-RECON]" "$OUT"
sed -i 's/final_latency: 32.0 us/final_latency: 64.0 us/' "$OP/perf_opt/opt_log.md"

# resolving up stops at the repository top: a clone inside a folder named
# perf_tuning/ is a tree, not that folder's operator
mkdir -p "$T/perf_tuning/clone/.git"
cp -R "$T/tree/v2-single" "$T/perf_tuning/clone/op"
expect_exit 0 "$TLGATE" "$T/perf_tuning/clone"
tail -n 1 "$OUT" | grep -q '^checked 1 directory: ' || fail "clone in perf_tuning/: $(tail -n 1 "$OUT")"
expect_grep "$T/perf_tuning/clone/op/perf_opt/" "$OUT"

# a perf_tuning/ folder from a directory inside it; a folder of folders
# that happens to be named perf_tuning/ is not one (nothing checked)
mkdir -p "$T/pt/op/perf_tuning/sub" "$T/coll/perf_tuning"
cp -R "$TESTDATA/ptune/good/." "$T/pt/op/perf_tuning/"
cp -R "$TESTDATA/ptune/good" "$T/coll/perf_tuning/good"
expect_exit 0 "$TLGATE" "$T/pt/op/perf_tuning"
cp "$OUT" "$T/pt.want"
( cd "$T/pt/op/perf_tuning/sub" && expect_exit 0 "$TLGATE" ) || fail "perf_tuning/ from inside"
tail -n 1 "$OUT" | grep -q '^checked 1 directory: ' || fail "perf_tuning/ from inside: $(tail -n 1 "$OUT")"
[ "$(grep -c ': warning: \|: error: ' "$OUT")" -eq "$(grep -c ': warning: \|: error: ' "$T/pt.want")" ] || fail "perf_tuning/ from inside: other findings"
expect_exit 2 "$TLGATE" "$T/coll/perf_tuning/good"
expect_grep "nothing to check under '$T/coll/perf_tuning/good'" "$ERR"
# ... and the error says which file it holds and how to check it
expect_grep "it holds perf_log.md itself, but only a folder named perf_tuning/ is checked" "$ERR"
cmd=$(sed -n "s/.*put the files there: //p" "$ERR")
( cd "$T" && eval "$(printf '%s' "$cmd" | sed "s|&& tlgate |\&\& \"$TLGATE\" |")" >"$T/hint.out" 2>&1 ) ||
    { cat "$T/hint.out"; fail "the hint's command did not check the folder: $cmd"; }
grep -q '^checked 1 directory: ' "$T/hint.out" || fail "the hint's command: $(tail -n 1 "$T/hint.out")"
# a perf_opt/ folder saved under another name: its opt_log.md named
mkdir -p "$T/saved" && cp "$TESTDATA/gate/v1/perf_opt/opt_log.md" "$T/saved/"
expect_exit 2 "$TLGATE" "$T/saved"
expect_grep "it holds opt_log.md itself, but only a folder named perf_opt/ is checked" "$ERR"
[ "$(wc -l <"$ERR")" -eq 1 ] || { cat "$ERR"; fail "not one line for a saved perf_opt/"; }
expect_exit 2 "$TLPERF" audit "$T/saved"
expect_grep "nothing to audit under '$T/saved': it holds opt_log.md itself" "$ERR"
expect_grep "op/perf_opt && tlperf audit op" "$ERR"

# nothing checked under an explicit PATH: exit 2, one line, the reason
mkdir -p "$T/empty/src" && echo x >"$T/empty/src/k.py"
for p in "$T/empty" "$T/empty/src" "$T/empty/src/"; do
    expect_exit 2 "$TLGATE" "$p"
    [ "$(wc -l <"$ERR")" -eq 1 ] || { cat "$ERR"; fail "not one line for $p"; }
    expect_grep "tlgate: error: nothing to check under '$p': no perf_opt/ or perf_tuning/ directory in it (--allow-empty accepts that)" "$ERR"
    [ ! -s "$OUT" ] || fail "output for an empty PATH: $(cat "$OUT")"
done
# one empty PATH among good ones is enough to fail
expect_exit 2 "$TLGATE" "$OP" "$T/empty"
expect_grep "nothing to check under '$T/empty'" "$ERR"
# --allow-empty: 0, as before
expect_exit 0 "$TLGATE" --allow-empty "$T/empty"
expect_grep "checked 0 directories" "$OUT"
expect_exit 0 "$TLGATE" --allow-empty --format sarif "$T/empty"
# no PATH at all in an empty directory: a note, exit 0
( cd "$T/empty" && expect_exit 0 "$TLGATE" ) || fail "no PATH in an empty directory"
expect_grep "no perf_opt/ or perf_tuning/ directory to check" "$ERR"
# a missing PATH stays what it was: exit 2, cannot read
expect_exit 2 "$TLGATE" "$T/tree/v1/perf_op"
expect_grep "cannot read '$T/tree/v1/perf_op'" "$ERR"

# --changed-since with no relevant change: 0 and said so; a relevant one
# is checked
command -v git >/dev/null 2>&1 || skip "git not installed"
(
    cd "$T/tree"
    git init -q . && git config user.email t@example.com && git config user.name t
    git add -A && git commit -qm base
    echo "notes" >README.md && git add README.md && git commit -qm readme
) >/dev/null
expect_exit 0 "$TLGATE" --changed-since HEAD~1 "$T/tree"
expect_grep "no perf_opt/ or perf_tuning/ directory changed since 'HEAD~1': nothing to check" "$ERR"
expect_grep "checked 0 directories" "$OUT"
expect_exit 0 "$TLGATE" --changed-since HEAD~1 "$T/tree/v1"
expect_grep "changed since 'HEAD~1'" "$ERR"
( cd "$T/tree" && echo "# x" >>v1/perf_opt/opt_log.md && git commit -qam touch ) >/dev/null
expect_exit 0 "$TLGATE" --changed-since HEAD~1 "$T/tree"
tail -n 1 "$OUT" | grep -q '^checked 1 directory: ' || fail "changed dir not checked: $(tail -n 1 "$OUT")"

# audit: the same paths
( cd "$OP/perf_opt" && expect_exit 0 "$TLPERF" audit ) || fail "audit from inside perf_opt"
expect_grep "1 operator checked: 1 reconciled" "$OUT"
( cd "$OP/perf_opt/profiles" && expect_exit 0 "$TLPERF" audit . ) || fail "audit . inside perf_opt"
expect_grep "1 operator checked: 1 reconciled" "$OUT"
expect_exit 2 "$TLPERF" audit "$T/empty"
[ "$(wc -l <"$ERR")" -eq 1 ] || { cat "$ERR"; fail "audit: not one line"; }
expect_grep "tlperf: error: nothing to audit under '$T/empty': no perf_opt/ or perf_tuning/ directory in it (--allow-empty accepts that)" "$ERR"
expect_exit 0 "$TLPERF" audit --allow-empty "$T/empty"
expect_grep "no perf_opt/ directory found" "$ERR"
echo "gate paths ok"
