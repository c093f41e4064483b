# Mistakes get one line on stderr that names the option, command or file,
# and the exit code the man pages document (issue 26.6): 'did you mean'
# for unknown options, commands, subcommands, rules and values; wrong
# values list the valid ones; a file that is not text is one error.
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST
# one_line CODE WANT CMD...: exit CODE, stderr exactly one line holding WANT,
# nothing on stdout
one_line() {
    ol_code=$1 ol_msg=$2; shift 2
    expect_exit "$ol_code" "$@"
    [ "$(wc -l <"$ERR")" -eq 1 ] || { cat "$ERR"; fail "not one line: $*"; }
    expect_grep "$ol_msg" "$ERR"
    [ ! -s "$OUT" ] || { cat "$OUT"; fail "stdout not empty: $*"; }
}

# unknown options: did you mean, per command and alias
one_line 2 "tlab: error: unknown option '--warmup'; did you mean '--warm-up'? (see 'tlab --help')" "$TLAB" --warmup 3
one_line 2 "unknown option '--launchcount'; did you mean '--launch-count'?" "$TLAB" --launchcount 3
one_line 2 "tlgate: error: unknown option '--strikt'; did you mean '--strict'?" "$TLGATE" --strikt
one_line 2 "unknown option '--jsn'; did you mean '--json'? (see 'tlperf plateau --help')" "$TLPERF" plateau --jsn x
one_line 2 "unknown option '--colour'; did you mean '--color'?" "$TLPERF" sim --colour never
one_line 2 "unknown option '--brnch'; did you mean '--branch'? (see 'tlperf loop round --help')" "$TLPERF" loop round 1 --brnch x=y
# nothing close: no guess
one_line 2 "tlab: error: unknown option '--frobnicate' (see 'tlab --help')" "$TLAB" --frobnicate
# unknown commands and top-level options: one line, not the overview
one_line 2 "tlperf: error: unknown command 'gat'; did you mean 'gate'? (see 'tlperf --help')" "$TLPERF" gat
one_line 2 "unknown command 'plateu'; did you mean 'plateau'?" "$TLPERF" plateu
one_line 2 "unknown command 'expl'; did you mean 'explain'?" "$TLPERF" expl
one_line 2 "tlperf: error: unknown command 'xyzzy' (see 'tlperf --help')" "$TLPERF" xyzzy
one_line 2 "tlperf: error: unknown option '--bogus' (see 'tlperf --help')" "$TLPERF" --bogus
one_line 2 "unknown option '--verison'; did you mean '--version'?" "$TLPERF" --verison
one_line 2 "unknown command 'gat'; did you mean 'gate'?" "$TLPERF" help gat
one_line 2 "unknown subcommand 'roud'; did you mean 'round'? (see 'tlperf loop --help')" "$TLPERF" loop roud
one_line 2 "unknown rule 'S4-STOP-REASN'; did you mean 'S4-STOP-REASON'?" "$TLPERF" explain S4-STOP-REASN
one_line 2 "unknown rule 's4-perf-record-recon'; did you mean 'S4-PERF-RECORDS-RECON'?" "$TLPERF" explain s4-perf-record-recon

# wrong values list the valid ones (and guess when one is close)
one_line 2 "tlgate: error: option '--format' wants text, json, sarif, github, junit, markdown or gitlab, got 'jsonn'; did you mean 'json'? (see 'tlgate --help')" "$TLGATE" --format jsonn
one_line 2 "option '--format' wants text, json, sarif, github, junit, markdown or gitlab, got 'pdf' (see" "$TLGATE" --format=pdf
one_line 2 "option '--report' wants text, json, sarif, github, junit, markdown or gitlab, got 'srif'; did you mean 'sarif'?" "$TLGATE" --report srif:x.sarif
one_line 2 "option '--format' wants markdown, csv, json or html, got 'htm'; did you mean 'html'?" "$TLPERF" audit --format htm
one_line 2 "tlab: error: option '--protocol' wants fast, seq or ref, got 'sequential'" "$TLAB" --protocol sequential --a-cmd a --b-cmd b
one_line 2 "option '--protocol' wants fast, seq, seq-v1, ref, both or all, got 'rf'; did you mean 'ref'?" "$TLPERF" sim --protocol rf
one_line 2 "option '--color' wants auto, always or never, got 'yes please'" "$TLGATE" --color "yes please"
# a number out of range: one line, not two
one_line 2 "tlab: error: option '--pairs' must be between 1 and 100000, got -1" "$TLAB" --pairs -1
one_line 2 "option '--launch-count' wants a whole number, got 'x'" "$TLAB" --launch-count x
one_line 2 "option '--noise' must be in [0, 1), got '2'" "$TLAB" --noise 2 --a-cmd a --b-cmd b
one_line 2 "option '--ci' must be in (0, 1), got '1.5'" "$TLAB" --ci 1.5
# required and empty are told apart
one_line 2 "tlab: error: option '--a-cmd' is required" "$TLAB" --b-cmd x
one_line 2 "tlab: error: option '--a-cmd' is empty (see 'tlab --help')" "$TLAB" --a-cmd "" --b-cmd x
one_line 2 "tlab: error: option '--b-cmd' is empty" "$TLAB" --a-cmd x --b-cmd ""
one_line 2 "tlab: error: option '--workdir' is empty" "$TLAB" --a-cmd x --b-cmd y --workdir ""
# the usage lists the values a choice option takes
expect_exit 0 "$TLGATE" --help
expect_grep "one of: text, json, sarif, github, junit, markdown, gitlab" "$OUT"
expect_grep "one of: auto, always, never" "$OUT"

# a file that is not text: one error, not one per pseudo-line
head -c 6000 "$TLPERF" >"$T/bin.jsonl"
one_line 2 "tlperf: error: cannot read records '$T/bin.jsonl': not a text file (a NUL byte at byte" "$TLPERF" plateau "$T/bin.jsonl"
one_line 2 "cannot read records '$T/bin.jsonl': not a text file" "$TLPERF" speedup "$T/bin.jsonl"
cp -R "$TESTDATA/gate/v1" "$T/op"
cp "$T/bin.jsonl" "$T/op/perf_opt/perf_records.jsonl"
expect_exit 1 "$TLGATE" "$T/op"
[ "$(grep -c 'perf_records.jsonl' "$OUT")" -eq 1 ] || { cat "$OUT"; fail "records: not one finding"; }
expect_grep "$T/op/perf_opt/perf_records.jsonl:1: error: [S4-PERF-RECORDS-SCHEMA] not a text file (a NUL byte at byte" "$OUT"
cp "$TESTDATA/gate/v1/perf_opt/perf_records.jsonl" "$T/op/perf_opt/"
head -c 3000 "$TLPERF" >"$T/op/perf_opt/opt_log.md"
expect_exit 1 "$TLGATE" "$T/op"
[ "$(grep -c 'opt_log.md' "$OUT")" -eq 1 ] || { cat "$OUT"; fail "opt_log.md: not one finding"; }
expect_grep "$T/op/perf_opt/opt_log.md: error: [S4-OPTLOG] opt_log.md cannot be read: not a text file (a NUL byte at byte" "$OUT"
# a stray NUL in one line of a text file is still that line's error
cp "$TESTDATA/gate/v1/perf_opt/opt_log.md" "$T/op/perf_opt/"
printf 'x\000y\n' >>"$T/op/perf_opt/opt_log.md"
n=$(wc -l <"$T/op/perf_opt/opt_log.md")
expect_exit 1 "$TLGATE" "$T/op"
expect_grep "opt_log.md:$n: error: [S4-OPTLOG] line contains a NUL byte" "$OUT"

# input that cannot be used is exit 2 with one line naming it, never 1 or 0
# with an empty answer (issue 37.8)
: >"$T/empty.jsonl"
printf '\n\n' >"$T/blank.jsonl"
head -c 3000 "$TLPERF" >"$T/binary.csv"
mkdir -p "$T/nojson/perf_tuning"
cp "$TESTDATA/ptune/good/optimization_log.md" "$T/nojson/perf_tuning/"
one_line 2 "tlperf: error: '$T/empty.jsonl' is empty (no header line)" "$TLPERF" msprof "$T/empty.jsonl"
one_line 2 "tlperf: error: $T/binary.csv" "$TLPERF" msprof "$T/binary.csv"
one_line 2 "tlperf: error: '$T/nojson/perf_tuning' holds no bench JSON with per-case rows" "$TLPERF" speedup "$T/nojson"
for c in speedup plateau "winner --round 1" "table --round 1"; do
    # shellcheck disable=SC2086
    one_line 2 "tlperf: error: '$T/empty.jsonl' is empty: no record" "$TLPERF" $c "$T/empty.jsonl"
    # shellcheck disable=SC2086
    one_line 2 "tlperf: error: '$T/blank.jsonl' is empty: no record" "$TLPERF" $c --json "$T/blank.jsonl"
done
printf 'not json\n' >"$T/allbad.jsonl"
expect_exit 2 "$TLPERF" plateau "$T/allbad.jsonl"
expect_grep "'$T/allbad.jsonl' holds no valid record (1 invalid line(s))" "$ERR"
[ ! -s "$OUT" ] || fail "plateau printed a result for a file without a valid record"
# a whole number beyond a long is out of range, not "not a whole number"
one_line 2 "tlab: error: option '--max-pairs' must be between 3 and" "$TLAB" --max-pairs 99999999999999999999 --a-cmd x --b-cmd y
expect_no_grep "whole number" "$ERR"
one_line 2 "option '--max-pairs' wants a whole number, got '12x'" "$TLAB" --max-pairs 12x --a-cmd x --b-cmd y
# a binary Stage Result cannot be read: not "no Stage Result block"
rm -rf "$T/sr"; cp -R "$TESTDATA/gate/v1" "$T/sr"
one_line 2 "tlgate: error: cannot read '$T/binary.csv': not a text file (a NUL byte at byte" "$TLGATE" --stage-result "$T/binary.csv" "$T/sr"
# a corrupt first record is that line's error only: no ORDER error for the
# round-1 record after it (its baseline may be the corrupt line)
sed -i '1s/.*/{"round": 0, "candidate_id": "base/' "$T/sr/perf_opt/perf_records.jsonl"
expect_exit 1 "$TLGATE" "$T/sr"
expect_grep "perf_records.jsonl:1: error: [S4-PERF-RECORDS-SCHEMA]" "$OUT"
expect_no_grep "S4-PERF-RECORDS-ORDER" "$OUT"
# ... while the same round-1 first record without a bad line before it is one
sed -i 1d "$T/sr/perf_opt/perf_records.jsonl"
expect_exit 1 "$TLGATE" "$T/sr"
expect_grep "perf_records.jsonl:1: error: [S4-PERF-RECORDS-ORDER] the first record of" "$OUT"
echo "cli errors ok"
