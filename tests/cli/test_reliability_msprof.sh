# Bad profiler output through `tlperf msprof DIR`: each gets a message
# naming the file (and line) and the documented exit code (0 read, 1 no
# usable launch or a malformed file, 2 DIR unreadable), never a crash or a
# hang. The table in docs/reliability.md lists them.
. "$ROOT/tests/cli/lib.sh"
set -e
H='Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq,'
OK='main_k,vector,8.500000,8,NA,0,4242,1800,1800,'
n=0
# tree ROW...: a fresh flat capture whose OpBasicInfo.csv holds H and ROWs
tree() {
    n=$((n + 1))
    T=$TMPDIR_TEST/cap$n
    R=$T/OPPROF_20261002081500_RELIABILITYTESTAA
    mkdir -p "$R"
    F=$R/OpBasicInfo.csv
    { printf '%s\n' "$H"; for row in "$@"; do printf '%s\n' "$row"; done; } >"$F"
}
run() { expect_exit "$1" timeout 30 "$TLPERF" msprof "$T" --kernel-name main; }

# a well-formed capture reads
tree "$OK"; run 0; expect_grep "summary: 1 launch" "$OUT"

# BOM and CRLF (other tools' rewrites) read as usual
tree "$OK"; { printf '\357\273\277%s\r\n%s\r\n' "$H" "$OK"; } >"$F"; run 0
expect_grep "median 8.500 us" "$OUT"

# the duration cell: NA everywhere (no launch with a duration: exit 1), text,
# overflow, negative (a malformed file: exit 2, bad input)
tree 'main_k,vector,NA,8,NA,0,1,1800,1800,'; run 1
expect_grep "have no Task Duration(us) (NA)" "$ERR"
tree 'main_k,vector,fast,8,NA,0,1,1800,1800,'; run 2
expect_grep "$F:2: Task Duration(us) is not a number: 'fast'" "$ERR"
tree 'main_k,vector,1e999,8,NA,0,1,1800,1800,'; run 2
expect_grep "$F:2: Task Duration(us) is not a number: '1e999'" "$ERR"
tree 'main_k,vector,-3.5,8,NA,0,1,1800,1800,'; run 2
expect_grep "$F:2: Task Duration(us) is negative: '-3.5'" "$ERR"

# a Device Id no int can hold (found by fuzzing: undefined behaviour) reads
# as an unknown device
tree 'main_k,vector,8.5,8,NA,1780000000000000,1,1800,1800,'
expect_exit 0 timeout 30 "$TLPERF" msprof "$T" --json
expect_grep '"device":	null' "$OUT"

# no Task Duration(us) column, an empty file, binary garbage: bad input, exit 2
tree; printf 'Op Name,Op Type,Block Dim,\nmain_k,vector,8,\n' >"$F"; run 2
expect_grep "$F:1: no 'Task Duration(us)' column in the header" "$ERR"
tree; : >"$F"; run 2
expect_grep "'$F' is empty (no header line)" "$ERR"
tree; awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }' >"$F"; run 2
expect_grep "$F" "$ERR"

# a truncated last row (a profiler killed mid-write, a full disk): its last
# number may be cut too, so the file is refused, naming the line
tree; printf '%s\nmain_k,vector,8.5' "$H" >"$F"; run 2
expect_grep "$F:2: last row cut short (3 of 9 fields, no newline at the end)" "$ERR"
# a complete last row that only lacks its newline reads
tree; printf '%s\n%s' "$H" "$OK" >"$F"; run 0
expect_grep "median 8.500 us" "$OUT"

# a 10 MB line: read in bounded time, messages stay short
tree; { printf '%s\n' "$H"; head -c 10485760 /dev/zero | tr '\0' 'x'; printf '\n%s\n' "$OK"; } >"$F"
expect_exit 0 timeout 60 "$TLPERF" msprof "$T"
[ "$(wc -c <"$ERR")" -lt 2000 ] || fail "stderr echoes the 10 MB line ($(wc -c <"$ERR") bytes)"

# a FIFO where a CSV should be: empty, no hang; a device: refused
tree; rm "$F"; mkfifo "$F"; run 2
expect_grep "'$F' is empty (no header line)" "$ERR"
tree; rm "$F"; ln -s /dev/zero "$F"; run 2
expect_grep "cannot read '$F': not a regular file" "$ERR"

# a symlink loop inside the tree: the walk is depth-bounded, no hang
tree; mkdir -p "$R/main_k/0" "$R/main_k/1"; mv "$F" "$R/main_k/0/OpBasicInfo_20261002081500001.csv"
printf '%s\n%s\n' "$H" "$OK" >"$R/main_k/0/OpBasicInfo_20261002081500001.csv"
ln -s .. "$R/main_k/1/loop"
expect_exit 0 timeout 30 "$TLPERF" msprof "$T" --kernel-name main_k

# DIR missing, or not a directory and not a CSV
expect_exit 2 timeout 30 "$TLPERF" msprof "$TMPDIR_TEST/nonexistent"
expect_grep "$TMPDIR_TEST/nonexistent" "$ERR"
