# scripts/fake-msprof writes what `msprof op` writes, and tlperf msprof reads it.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
cd "$TMPDIR_TEST"

# several launches: OPPROF_<14 digits>_<16 A-Z>/<kernel>/<n>/ with one CSV per metric
expect_exit 0 "$FAKE" op --kernel-name=main --output=prof --launch-count=12 --warm-up=5 --dump=off \
    --aic-metrics=BasicInfo,PipeUtilization,Memory "$FK" --mean 10 --seed 4
expect_grep "[INFO]  Profiling results saved in $TMPDIR_TEST/prof/OPPROF_" "$OUT"
expect_grep "fake-kernel: 12 launches of main_kernel_mix_aic" "$OUT"
root=$(ls -d prof/OPPROF_*)
echo "$root" | grep -Eq '^prof/OPPROF_[0-9]{14}_[A-Z]{16}$' || fail "bad OPPROF name: $root"
[ "$(ls "$root/main_kernel_mix_aic" | sort -n | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 10 11 " ] ||
    fail "launch directories 0..11 expected"
ls "$root"/main_kernel_mix_aic/10/OpBasicInfo_*.csv "$root"/main_kernel_mix_aic/10/PipeUtilization_*.csv \
   "$root"/main_kernel_mix_aic/10/Memory_*.csv >/dev/null || fail "per-launch CSVs missing"
! ls "$root"/main_kernel_mix_aic/10/L2Cache_* >/dev/null 2>&1 || fail "L2Cache was not requested"
f=$(ls "$root"/main_kernel_mix_aic/3/OpBasicInfo_*.csv)
expect_grep "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq," "$f"
grep -Eq '^main_kernel_mix_aic,mix,[0-9]+\.[0-9]{6},2,4,0,[0-9]+,1800,1800,$' "$f" || fail "bad OpBasicInfo row"
grep -q ',NA,' "$(ls "$root"/main_kernel_mix_aic/3/PipeUtilization_*.csv)" || fail "metric rows should carry NA cells"
expect_exit 0 "$TLPERF" msprof prof
expect_grep "per-launch layout, 12 launches" "$OUT"
expect_grep "busiest pipe" "$OUT"
expect_grep "main memory read 120." "$OUT"

# one launch: the flat layout, file names without timestamps
expect_exit 0 "$FAKE" op --output=one --launch-count=1 "$FK" --mean 10 --launches 5
root=$(ls -d one/OPPROF_*)
[ -f "$root/OpBasicInfo.csv" ] && [ -f "$root/PipeUtilization.csv" ] && [ -d "$root/dump" ] ||
    fail "flat layout expected in $root"
expect_exit 0 "$TLPERF" msprof one
expect_grep "flat layout, 1 launch" "$OUT"

# without --kernel-name only the first kernel launched is captured; with it, the matches
printf 'other_kernel 1.5\nmain_kernel 8.0\nmain_kernel 8.2\nother_kernel 1.6\n' >launches.txt
cat >app.sh <<EOS
#!/bin/sh
cat "$TMPDIR_TEST/launches.txt" >>"\$FAKE_MSPROF_DURATIONS"
EOS
chmod +x app.sh
expect_exit 0 "$FAKE" op --output=first --launch-count=10 ./app.sh
expect_exit 0 "$TLPERF" msprof first
expect_grep "2 launches" "$OUT"
expect_grep "other_kernel" "$OUT"
expect_no_grep "main_kernel" "$OUT"
expect_exit 0 "$FAKE" op --output=pick --kernel-name='ma*n' --launch-count=10 ./app.sh
expect_exit 0 "$TLPERF" msprof pick
expect_grep "summary: 2 launches, median 8.100 us" "$OUT"
expect_exit 0 "$FAKE" op --output=none --kernel-name='absent|gone' ./app.sh
expect_grep "[WARNING] no kernel matching 'absent|gone'" "$OUT"
! ls none/OPPROF_* >/dev/null 2>&1 || fail "no OPPROF directory when nothing was captured"

# the app's failure is the profiler's failure
expect_exit 3 "$FAKE" op --output=fails "$FK" --mean 10 --exit 3
expect_exit 2 "$FAKE" record --output=x "$FK" --mean 10
expect_exit 2 "$FAKE" op --launch-count=0 "$FK" --mean 10
