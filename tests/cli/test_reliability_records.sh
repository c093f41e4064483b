# Bad perf_records.jsonl inputs through a command that reads records
# (`tlperf plateau RECORDS --strict`): each gets a message naming the file
# and the line (or the file and the reason it cannot be read) and the
# documented exit code (1 invalid lines under --strict, 2 unreadable),
# never a crash or a hang. The table in docs/reliability.md lists them.
. "$ROOT/tests/cli/lib.sh"
set -e
D=$TMPDIR_TEST
G='{"round": 0, "candidate_id": "baseline", "parent_id": null, "dispatch_path": "k::main", "workload": "w1", "duration_us": 40.0, "l0_pass": true, "msprof_raw_path": null, "timestamp": "2026-10-02T08:15:00Z"}'
R1='{"round": 1, "candidate_id": "c1", "parent_id": "baseline", "dispatch_path": "k::main", "workload": "w1", "duration_us": 30.0, "l0_pass": true, "msprof_raw_path": null, "timestamp": "2026-10-02T09:00:00Z"}'
with_dur() { printf '%s\n' "$R1" | sed "s/\"duration_us\": 30.0/\"duration_us\": $1/"; }

# bad FILE LINE MESSAGE: --strict refuses with file:line, plain mode warns
# and goes on with the good lines.
bad() {
    expect_exit 1 timeout 60 "$TLPERF" plateau "$1" --strict
    expect_grep "$1:$2: error: $3" "$ERR"
    expect_exit 0 timeout 60 "$TLPERF" plateau "$1"
    expect_grep "$1:$2: warning: $3" "$ERR"
}
good() {
    expect_exit 0 timeout 60 "$TLPERF" plateau "$1" --strict
    expect_grep "| 1 | 1 (1) |" "$OUT"
}

# truncated last line (a writer killed mid-line)
{ printf '%s\n' "$G"; printf '%s' "$R1" | cut -c1-80; } >"$D/trunc.jsonl"
bad "$D/trunc.jsonl" 2 "not valid JSON"

# a 10 MB line between two good ones: reported, skipped in bounded memory
{ printf '%s\n' "$G"; head -c 10485760 /dev/zero | tr '\0' 'x'; printf '\n%s\n' "$R1"; } >"$D/long.jsonl"
bad "$D/long.jsonl" 2 "line longer than 1048576 bytes"
expect_exit 0 "$TLPERF" plateau "$D/long.jsonl"
expect_grep "| 1 | 1 (1) |" "$OUT"

# NUL bytes inside a line
{ printf '%s\n' "$G"; printf '%s\n' "$R1" | sed 's/"c1"/"c\x001"/'; } >"$D/nul.jsonl"
bad "$D/nul.jsonl" 2 "line contains a NUL byte"

# invalid UTF-8 (a lone continuation byte, an overlong form)
{ printf '%s\n' "$G"; printf '%s\n' "$R1" | sed 's/"c1"/"c\xc0\xaf1"/'; } >"$D/utf8.jsonl"
bad "$D/utf8.jsonl" 2 "invalid UTF-8 at byte"

# a UTF-8 BOM on line 1 and CRLF line ends: read as ordinary records
{ printf '\357\273\277%s\r\n' "$G"; printf '%s\r\n' "$R1"; } >"$D/bom-crlf.jsonl"
good "$D/bom-crlf.jsonl"

# duplicate keys: ambiguous, refused (readers disagree on which one wins)
{ printf '%s\n' "$G"; printf '%s\n' "$R1" | sed 's/"l0_pass": true/"l0_pass": true, "duration_us": 1.0/'; } >"$D/dup.jsonl"
bad "$D/dup.jsonl" 2 "duplicate key 'duration_us'"

# NaN and Infinity are not JSON; 1e999 overflows; -0 and 0 are not > 0
for v in NaN Infinity -Infinity; do
    { printf '%s\n' "$G"; with_dur "$v"; } >"$D/dur.jsonl"
    bad "$D/dur.jsonl" 2 "not valid JSON"
done
{ printf '%s\n' "$G"; with_dur 1e999; } >"$D/dur.jsonl"
bad "$D/dur.jsonl" 2 "field 'duration_us' must be a finite number > 0, got inf"
{ printf '%s\n' "$G"; with_dur -0; } >"$D/dur.jsonl"
bad "$D/dur.jsonl" 2 "field 'duration_us' must be a finite number > 0, got -0"
{ printf '%s\n' "$G"; with_dur '"30.0"'; } >"$D/dur.jsonl"
bad "$D/dur.jsonl" 2 "field 'duration_us' must be a number"

# a symlink loop: cannot be read, named, exit 2
ln -s loop.jsonl "$D/loop.jsonl"
expect_exit 2 timeout 60 "$TLPERF" plateau "$D/loop.jsonl"
expect_grep "'$D/loop.jsonl': Too many levels of symbolic links" "$ERR"

# a directory where the file should be
mkdir "$D/perf_records.jsonl"
expect_exit 2 timeout 60 "$TLPERF" plateau "$D/perf_records.jsonl"
expect_grep "'$D/perf_records.jsonl': Is a directory" "$ERR"

# a symlink to a device that never ends (/dev/zero): refused, no hang
ln -s /dev/zero "$D/zero.jsonl"
expect_exit 2 timeout 20 "$TLPERF" plateau "$D/zero.jsonl"
expect_grep "'$D/zero.jsonl': No such device" "$ERR"

# a FIFO with no writer: read as empty (exit 2, said so), no hang
mkfifo "$D/fifo.jsonl"
expect_exit 2 timeout 20 "$TLPERF" plateau "$D/fifo.jsonl" --strict
expect_grep "'$D/fifo.jsonl' is empty: no record" "$ERR"

# an unreadable file. root reads through mode 000, so drop to nobody with
# setpriv when we are root; a plain user gets EACCES directly.
printf '%s\n%s\n' "$G" "$R1" >"$D/noperm.jsonl"
chmod 000 "$D/noperm.jsonl"
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
        chmod 755 "$D"
        # the binary must be reachable by nobody: copy it next to the data
        cp "$TLPERF" "$D/tlperf-copy" && chmod 755 "$D/tlperf-copy"
        case "$TLPERF" in *build-asan*) export ASAN_OPTIONS=detect_leaks=0 ;; esac
        expect_exit 2 timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$D/tlperf-copy" plateau "$D/noperm.jsonl"
        expect_grep "'$D/noperm.jsonl': Permission denied" "$ERR"
    else
        echo "note: no setpriv, unreadable-file case not run as root"
    fi
else
    expect_exit 2 timeout 60 "$TLPERF" plateau "$D/noperm.jsonl"
    expect_grep "'$D/noperm.jsonl': Permission denied" "$ERR"
fi

# a 2 GB sparse file (all NUL, no newline) with a record after it: not a
# text file, said once (exit 2) without reading the 2 GB (issue 26.6; the
# oversized-line case is long.jsonl above)
if truncate -s 2G "$D/sparse.jsonl" 2>/dev/null; then
    printf '\n%s\n' "$G" >>"$D/sparse.jsonl"
    expect_exit 2 timeout 20 "$TLPERF" plateau "$D/sparse.jsonl" --strict
    expect_grep "cannot read records '$D/sparse.jsonl': not a text file (a NUL byte at byte 1)" "$ERR"
    [ "$(wc -l <"$ERR")" -eq 1 ] || fail "not one line: $(cat "$ERR")"
    rm -f "$D/sparse.jsonl"
else
    echo "note: truncate -s 2G failed here, sparse case not run"
fi
