#!/bin/sh
# tlperf loop --ab-protocol: the plan keeps tlab's protocol and the loop's
# A/B arbitration runs with it (ref, ab_test.py's rule, here; without the
# option fast, tlab's default, at the end); an unknown protocol, and seq-v1 (the
# rule seq replaced, kept in the simulator only), are usage errors, in the
# option and in the plan.
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
# baseline and two rounds; round 2, a gain under 5% on a small kernel,
# goes to tlab, which must have run with protocol $1
rounds_ab() {
    cp "$OP"/demo_add_opt_v*.py "$OP/perf_opt/"
    expect_exit 0 loop baseline
    expect_exit 0 loop round 1 --branch tile=perf_opt/demo_add_opt_v1_tile.py
    expect_exit 0 loop round 2 --branch dbuf=perf_opt/demo_add_opt_v2_dbuf.py
    expect_grep "\"tlab_protocol\":	\"$1\"" "$OP/perf_opt/ab_r2_dbuf/n1024.json"
    expect_grep "A/B arbitration (tlab --protocol $1" "$LOG"
}
loop_setup --ab-protocol ref
expect_grep '"protocol":	"ref"' "$OP/perf_opt/loop.json"
rounds_ab ref

expect_exit 2 "$TLPERF" loop -C "$OP" init --force --op demo_add --baseline demo_add.py \
    --workload n1024@demo_add::small --bench-cmd "sh bench.sh {impl} {workload}" --ab-protocol bayes
expect_grep "--ab-protocol 'bayes': want fast, seq or ref" "$ERR"
for p in bayes seq-v1; do
    sed "s/\"protocol\":	\"ref\"/\"protocol\":	\"$p\"/" "$OP/perf_opt/loop.json" >"$TMPDIR_TEST/plan.json"
    expect_grep "\"$p\"" "$TMPDIR_TEST/plan.json"
    cp "$OP/perf_opt/loop.json" "$TMPDIR_TEST/plan.keep"
    cp "$TMPDIR_TEST/plan.json" "$OP/perf_opt/loop.json"
    expect_exit 2 loop status
    expect_grep "field 'tlab.protocol': must be \"fast\", \"seq\" or \"ref\"" "$ERR"
    cp "$TMPDIR_TEST/plan.keep" "$OP/perf_opt/loop.json"
done

# the default is tlab's default, fast: a plan written without --ab-protocol
# names it, and a plan that names none (written before the field existed)
# runs fast too
rm -rf "$OP"
loop_setup
expect_grep '"protocol":	"fast"' "$OP/perf_opt/loop.json"
sed '/"protocol":	"fast"/d' "$OP/perf_opt/loop.json" >"$TMPDIR_TEST/plan.json"
! grep -q '"protocol"' "$TMPDIR_TEST/plan.json" || fail "the plan still names a protocol"
cp "$TMPDIR_TEST/plan.json" "$OP/perf_opt/loop.json"
rounds_ab fast
