# Every command, alias and loop subcommand: -h/--help (usage on stdout,
# exit 0), --version, and one wording for unknown options, missing values
# and values given to flags (exit 2). Options are read from each --help, so
# a new option is covered as soon as it is in its command's table.
. "$ROOT/tests/cli/lib.sh"
set -e

# check_cmd LABEL SEE CMD...: SEE is what the "see '...'" line names.
check_cmd() {
    label=$1 see=$2; shift 2
    expect_exit 0 "$@" -h
    head -n 1 "$OUT" | grep -q '^usage: ' || fail "$label -h: no usage line"
    [ ! -s "$ERR" ] || fail "$label -h wrote to stderr"
    cp "$OUT" "$TMPDIR_TEST/short"
    expect_exit 0 "$@" --help
    cmp -s "$OUT" "$TMPDIR_TEST/short" || fail "$label: -h and --help differ"
    expect_grep "-h, --help" "$OUT"
    expect_grep "--version" "$OUT"
    cp "$OUT" "$TMPDIR_TEST/help"
    expect_exit 0 "$@" --version
    grep -Eq '^(tlperf|tlab \(tlperf\)|tlgate \(tlperf\)) [0-9]+\.[0-9]+' "$OUT" || fail "$label --version: $(cat "$OUT")"
    expect_exit 2 "$@" --no-such-option
    expect_grep "error: unknown option '--no-such-option'" "$ERR"
    expect_grep "see '$see --help'" "$ERR"
    expect_exit 2 "$@" -Z
    expect_grep "error: unknown option '-Z'" "$ERR"
    # an option's help never stops mid-sentence before its "one of:" line,
    # nor lists the same values again (the help column, "(default)" aside)
    awk '/^ +one of: / { v = $0; sub(/^ +one of: /, "", v); p = prev; gsub(/ \(default\)/, "", p)
                         if (prev ~ /( is| or| and| when|,)$/ || index(p, v)) { print prev; print $0; bad = 1 } }
         { prev = $0 } END { exit bad }' "$TMPDIR_TEST/help" || fail "$label --help: a cut or repeated choice list (above)"
    # the command's own "options:" section (loop --help adds its subcommands')
    awk '/^options:$/{on=1;next} on&&/^$/{exit} on' "$TMPDIR_TEST/help" >"$TMPDIR_TEST/own"
    # every option that takes a value, given none
    sed -n 's/^  \(-., \)\{0,1\} *--\([a-z0-9-]*\) [A-Za-z].*/\2/p' "$TMPDIR_TEST/own" | sort -u >"$TMPDIR_TEST/valued"
    case $label in
        "loop baseline"|"loop status"|"loop finish"|explain) ;;
        *) [ -s "$TMPDIR_TEST/valued" ] || fail "$label: no option with a value found in --help" ;;
    esac
    while read -r o; do
        expect_exit 2 "$@" "--$o"
        expect_grep "error: option '--$o' needs a value" "$ERR"
    done <"$TMPDIR_TEST/valued"
    # a flag given a value
    flag=$(sed -n 's/^  \(-., \)\{0,1\} *--\([a-z0-9-]*\)  .*/\2/p' "$TMPDIR_TEST/own" | grep -v '^help$\|^version$' | head -n 1)
    if [ -n "$flag" ]; then
        expect_exit 2 "$@" "--$flag=1"
        expect_grep "error: option '--$flag' takes no value" "$ERR"
    fi
}

for c in ab audit explain gate loop msprof plateau sim speedup table winner; do
    check_cmd "$c" "tlperf $c" "$TLPERF" "$c"
    # `tlperf help CMD` prints the same usage as CMD --help
    expect_exit 0 "$TLPERF" help "$c"
    cmp -s "$OUT" "$TMPDIR_TEST/help" || fail "tlperf help $c differs from tlperf $c --help"
done
for s in init baseline round status finish; do
    check_cmd "loop $s" "tlperf loop $s" "$TLPERF" loop "$s"
done
check_cmd tlab tlab "$TLAB"
check_cmd tlgate tlgate "$TLGATE"

# the alias usage names the alias
expect_exit 0 "$TLGATE" --help
expect_grep "usage: tlgate [options] [PATH...]" "$OUT"
# an operand where none is taken
expect_exit 2 "$TLPERF" sim extra
expect_grep "tlperf: error: unexpected argument 'extra'" "$ERR"
# the front end: an unknown option before any command
expect_exit 2 "$TLPERF" --bogus
expect_grep "tlperf: error: unknown option '--bogus'" "$ERR"
echo ok
