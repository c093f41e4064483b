# loop_lib.sh: set-up shared by tests/cli/test_loop*.sh (sourced after lib.sh).
# loop_setup [INIT-OPTION...]: an operator directory $OP holding the demo
# operator of testdata/demo-op, with a plan written by `tlperf loop init`.
# kernel NAME N1024_US N65536_US [LINE...]: writes the demo kernel file
# $OP/perf_opt/NAME.py (extra lines such as "l0 fail", "bench hang").
# nrec [ROUND [CANDIDATE]]: number of records (of that round / candidate).
FK=${FAKE_KERNEL:-$BUILD_DIR/bin/fake-kernel}
FM=${FAKE_MSPROF:-$ROOT/scripts/fake-msprof}
loop_setup() {
    [ -x "$FK" ] || skip "no fake kernel at $FK"
    [ -x "$FM" ] || skip "no fake msprof at $FM"
    OP=$TMPDIR_TEST/op
    mkdir -p "$OP"
    cp "$ROOT"/testdata/demo-op/* "$OP"/
    REC=$OP/perf_opt/perf_records.jsonl
    LOG=$OP/perf_opt/opt_log.md
    (cd "$OP" && "$TLPERF" loop init --op demo_add --baseline demo_add.py \
        --workload n1024@demo_add::small "${LARGE_FLAG:---workload}" n65536@demo_add::large \
        --bench-cmd "sh bench.sh $FK {impl} {workload}" --l0-cmd "sh l0.sh {impl}" \
        --msprof "$FM" --kernel-name demo_add --launch-count 5 --warm-up 1 \
        --ab-launch-count 5 --ab-warm-up 1 "$@") >/dev/null || fail "loop init failed"
}
kernel() {
    f=$OP/perf_opt/$1.py
    { echo "# demo kernel $1"; echo "mean_us n1024 $2"; echo "mean_us n65536 $3"; } >"$f"
    shift 3
    for l in "$@"; do echo "$l" >>"$f"; done
}
loop() { "$TLPERF" loop -C "$OP" "$@"; }
nrec() {
    if [ $# -eq 0 ]; then grep -c . "$REC"
    elif [ $# -eq 1 ]; then grep -c "\"round\":$1," "$REC"
    else grep "\"round\":$1," "$REC" | grep -c "\"candidate_id\":\"$2\""; fi
}
