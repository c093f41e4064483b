#!/bin/sh
# tests/fuzz/run.sh: runs each libFuzzer harness for FUZZ_SECONDS (make fuzz).
#   FUZZ_DIR=build-fuzz FUZZ_SECONDS=60 sh tests/fuzz/run.sh records optlog ...
# The working corpus grows in $FUZZ_DIR/corpus/<name> (seeded from
# testdata/fuzz/<name>, which is never written); crashes, leaks and
# timeouts land in $FUZZ_DIR/artifacts/<name>/ and fail the run. One line
# per harness: name, seconds actually run, executions, corpus size, result.
set -u
D=${FUZZ_DIR:-build-fuzz}
S=${FUZZ_SECONDS:-60}
status=0
mkdir -p "$D/logs"
printf '%-10s %8s %12s %8s  %s\n' harness seconds execs corpus result
for name in "$@"; do
    bin=$D/fuzz/fuzz_$name
    corpus=$D/corpus/$name
    art=$D/artifacts/$name
    log=$D/logs/$name.log
    mkdir -p "$corpus" "$art"
    dict=""
    [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
    start=$(date +%s)
    # -timeout: one input taking 10 s is a hang; -rss_limit_mb bounds memory;
    # leak detection is on by default under ASan.
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$S" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$art/" $dict \
        "$corpus" "testdata/fuzz/$name" >"$log" 2>&1
    rc=$?
    end=$(date +%s)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    size=$(find "$corpus" -type f | wc -l)
    if [ "$rc" = 0 ]; then result=ok; else
        result="FAILED (exit $rc, see $log; inputs in $art)"
        status=1
    fi
    printf '%-10s %8s %12s %8s  %s\n' "$name" $((end - start)) "${execs:-?}" "$size" "$result"
    # fuzz_msprof writes its trees under /dev/shm (or /tmp); libFuzzer's
    # time limit exits without atexit handlers, so remove those whose
    # fuzzer is gone
    for t in /dev/shm/tlperf-fuzz-msprof.* /tmp/tlperf-fuzz-msprof.*; do
        [ -d "$t" ] || continue
        kill -0 "${t##*.}" 2>/dev/null || rm -rf "$t"
    done
done
exit $status
