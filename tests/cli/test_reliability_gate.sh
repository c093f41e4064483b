# Bad inputs inside a perf_opt/ directory, through the gate (`tlgate`): each
# gets a finding naming the file and the line (or the file when it cannot
# be read at all) and the documented exit code (1 errors, 2 an unreadable
# PATH), never a crash or a hang. The base is testdata/gate/v1, which
# passes. The table in docs/reliability.md lists every case.
. "$ROOT/tests/cli/lib.sh"
set -e
D=$TMPDIR_TEST
BASE=$TESTDATA/gate/v1
P=$D/op/perf_opt
REC=$P/perf_records.jsonl
LOG=$P/opt_log.md
fresh() { rm -rf "$D/op"; cp -a "$BASE" "$D/op"; }
gate() { expect_exit "$1" timeout 120 "$TLGATE" "$D/op"; }
R1=$(sed -n 2p "$BASE/perf_opt/perf_records.jsonl")
# line2 SED: line 2 of the base records edited by SED (through a pipe: a
# command substitution would drop NUL bytes)
line2() { fresh; { sed -n 1p "$BASE/perf_opt/perf_records.jsonl"; sed -n 2p "$BASE/perf_opt/perf_records.jsonl" | sed "$1"; } >"$REC"; }

fresh; gate 0

# perf_records.jsonl, line by line: each a S4-PERF-RECORDS-SCHEMA error
fresh; printf '%s' "$R1" | cut -c1-60 >>"$REC"
gate 1; expect_grep "$REC:3: error: [S4-PERF-RECORDS-SCHEMA] not valid JSON" "$OUT"
fresh; { head -c 10485760 /dev/zero | tr '\0' '{'; echo; } >>"$REC"
gate 1; expect_grep "$REC:3: error: [S4-PERF-RECORDS-SCHEMA] line longer than 1048576 bytes" "$OUT"
line2 's/"r1/"r\x001/'
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] line contains a NUL byte" "$OUT"
line2 's/"r1/"r\xc0\xaf1/'
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] invalid UTF-8 at byte" "$OUT"
line2 's/"l0_pass": true/"l0_pass": true, "duration_us": 1/'
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] duplicate key 'duration_us'" "$OUT"
for v in NaN Infinity; do
    line2 "s/\"duration_us\": [0-9.]*/\"duration_us\": $v/"
    gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] not valid JSON" "$OUT"
done
line2 's/"duration_us": [0-9.]*/"duration_us": 1e999/'
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] field 'duration_us' must be a finite number > 0, got inf" "$OUT"
line2 's/"duration_us": [0-9.]*/"duration_us": -0/'
gate 1; expect_grep "$REC:2: error: [S4-PERF-RECORDS-SCHEMA] field 'duration_us' must be a finite number > 0, got -0" "$OUT"
# CRLF in records is an error (JSONL lines end with LF); in the log a warning,
# like a BOM
fresh; sed 's/$/\r/' "$BASE/perf_opt/perf_records.jsonl" >"$REC"
gate 1; expect_grep "$REC:1: error: [S4-PERF-RECORDS-SCHEMA] CRLF line ending" "$OUT"
fresh; { printf '\357\273\277'; sed 's/$/\r/' "$BASE/perf_opt/opt_log.md"; } >"$LOG"
gate 0; expect_grep "$LOG:1: warning: [S4-OPTLOG] file starts with a UTF-8 byte order mark" "$OUT"
expect_grep "$LOG:1: warning: [S4-OPTLOG] CRLF line ending" "$OUT"

# opt_log.md: NUL, invalid UTF-8, a 10 MB line
fresh; printf 'x\000y\n' >>"$LOG"; n=$(wc -l <"$LOG")
gate 1; expect_grep "$LOG:$n: error: [S4-OPTLOG] line contains a NUL byte" "$OUT"
fresh; printf 'caf\351\n' >>"$LOG"; n=$(wc -l <"$LOG")
gate 1; expect_grep "$LOG:$n: error: [S4-OPTLOG] invalid UTF-8" "$OUT"
fresh; { head -c 10485760 /dev/zero | tr '\0' '|'; echo; } >>"$LOG"; n=$(wc -l <"$LOG")
gate 1; expect_grep "$LOG:$n: error: [S4-OPTLOG] line longer than 1048576 bytes" "$OUT"

# symlink loops under perf_opt/ and above it: walked once, no hang
fresh; mkdir -p "$P/profiles/a"; ln -s .. "$P/profiles/a/loop"; ln -s ../.. "$P/up"
gate 0
mkdir -p "$D/tree/x"; cp -a "$BASE" "$D/tree/x/op"; ln -s .. "$D/tree/x/loop"; ln -s "$D/tree" "$D/tree/x/op/self"
expect_exit 0 timeout 120 "$TLGATE" "$D/tree"
[ "$(grep -c 'S4-STOP-REASON' "$OUT")" -eq 1 ] || fail "the looped tree was checked more than once"
# a records file that is a symlink loop, a directory, a FIFO, a device
for kind in loop dir fifo dev; do
    fresh; rm "$REC"
    case $kind in
        loop) ln -s perf_records.jsonl.b "$REC"; ln -s perf_records.jsonl "$P/perf_records.jsonl.b" ;;
        dir) mkdir "$REC" ;;
        fifo) mkfifo "$REC" ;;
        dev) ln -s /dev/zero "$REC" ;;
    esac
    gate 1; expect_grep "$REC: error: [S4-PERF-RECORDS] perf_records.jsonl cannot be read" "$OUT"
done
fresh; rm "$LOG"; ln -s /dev/zero "$LOG"
gate 1; expect_grep "$LOG: error: [S4-OPTLOG] opt_log.md cannot be read" "$OUT"

# an unreadable records file: root reads through mode 000, so drop to
# nobody (setpriv) when root
fresh; chmod 000 "$REC"
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
        chmod 755 "$D"; cp "$TLGATE" "$D/tlgate"; chmod 755 "$D/tlgate"
        case "$TLGATE" in *build-asan*) export ASAN_OPTIONS=detect_leaks=0 ;; esac
        expect_exit 1 timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$D/tlgate" "$D/op"
        expect_grep "$REC: error: [S4-PERF-RECORDS] perf_records.jsonl cannot be read" "$OUT"
    else
        echo "note: no setpriv, unreadable-file case not run as root"
    fi
else
    gate 1; expect_grep "$REC: error: [S4-PERF-RECORDS] perf_records.jsonl cannot be read" "$OUT"
fi

# 2 GB sparse files (NUL bytes, no newline) after the real content: read
# through in bounded memory, one finding, no hang
fresh; if truncate -s 2G "$REC" 2>/dev/null; then
    gate 1; expect_grep "$REC:3: error: [S4-PERF-RECORDS-SCHEMA] line longer than 1048576 bytes" "$OUT"
    fresh; truncate -s 2G "$LOG"; n=$(($(wc -l <"$BASE/perf_opt/opt_log.md") + 1))
    gate 1; expect_grep "$LOG:$n: error: [S4-OPTLOG] line longer than 1048576 bytes" "$OUT"
    rm -rf "$D/op"
else
    echo "note: truncate -s 2G failed here, sparse case not run"
fi

# a PATH that does not exist: exit 2
expect_exit 2 timeout 60 "$TLGATE" "$D/nonexistent"
expect_grep "cannot read '$D/nonexistent'" "$ERR"
