#!/bin/sh
# Bad plans are refused before anything runs, with the field named (exit 2).
. "$ROOT/tests/cli/lib.sh"
. "$ROOT/tests/cli/loop_lib.sh"
set -e
loop_setup
P=$OP/perf_opt/loop.json
cp "$P" "$TMPDIR_TEST/good.json"
bad() { # bad SED-EXPR EXPECTED-TEXT: edit the plan, expect exit 2 naming it
    sed "$1" "$TMPDIR_TEST/good.json" >"$P"
    expect_exit 2 loop baseline
    expect_grep "$2" "$ERR"
    [ ! -e "$REC" ] || fail "something was measured with a bad plan ($1)"
}
bad 's/ {impl} {workload}"/ {workload}"/' "field 'bench_cmd': missing placeholder {impl}"
bad 's/ {impl} {workload}"/ {impl}"/' "field 'bench_cmd': missing placeholder {workload}"
bad 's/l0.sh {impl}/l0.sh {imp}/' "field 'l0_cmd': unknown placeholder '{imp}'"
bad 's/"noise":/"nois":/' "field 'nois': unknown field"
bad 's/"max_rounds":\t10/"max_rounds":\t"ten"/' "field 'max_rounds': must be an integer"
bad 's/"target_us":\tnull/"target_us":\t"fast"/' "field 'workloads[0].target_us'"
bad 's/"contract":\t"v1"/"contract":\t"v3"/' "field 'contract'"
bad 's/"id":\t"n65536"/"id":\t"n1024"/' "listed twice"
bad 's/"baseline":\t"demo_add.py"/"baseline":\t"nope.py"/' "field 'baseline': file 'nope.py' does not exist"
bad 's|"msprof":\t"[^"]*"|"msprof":\t"/nonexistent/msprof"|' "field 'msprof': '/nonexistent/msprof' not found"
cp "$TMPDIR_TEST/good.json" "$P"

# init refuses an unknown workload in --target and a template without {impl}
mkdir "$TMPDIR_TEST/op2" && cp "$ROOT"/testdata/demo-op/* "$TMPDIR_TEST/op2/"
expect_exit 2 "$TLPERF" loop -C "$TMPDIR_TEST/op2" init --op x --baseline demo_add.py \
    --workload n1024@d --bench-cmd "sh bench.sh {impl}" --l0-cmd "sh l0.sh {impl}" --target n9=3
expect_grep "field 'target': unknown workload 'n9'" "$ERR"
expect_exit 2 "$TLPERF" loop -C "$TMPDIR_TEST/op2" init --op x --baseline demo_add.py \
    --workload n1024@d --bench-cmd "sh bench.sh" --l0-cmd "sh l0.sh {impl}"
expect_grep "field 'bench_cmd': missing placeholder {impl}" "$ERR"
[ ! -e "$TMPDIR_TEST/op2/perf_opt/loop.json" ] || fail "a refused plan was written"

# rounds: a branch file that does not exist, a parent never measured
expect_exit 0 loop baseline
kernel a 9.0 60.0
expect_exit 2 loop round 1 --branch a=perf_opt/a.py --branch b=perf_opt/missing.py
expect_grep "--branch 'b': file 'perf_opt/missing.py' does not exist" "$ERR"
expect_exit 2 loop round 1 --branch a=perf_opt/a.py@ghost
expect_grep "--branch 'a': parent 'ghost' was never measured" "$ERR"
expect_exit 2 loop round 2 --branch a=perf_opt/a.py
expect_grep "the next round is 1" "$ERR"
expect_exit 2 loop round 1 --branch baseline=perf_opt/a.py
expect_grep "reserved" "$ERR"
[ "$(nrec)" = 2 ] || fail "a refused round measured something"
[ ! -e "$OP/perf_opt/logs/round1" ] || fail "a refused round ran L0"
echo ok
