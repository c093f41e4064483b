#!/bin/sh
# scripts/check-layers.sh passes on the project and catches each kind of
# violation it exists for, in a scratch copy of a tiny tree.
. "$(dirname "$0")/lib.sh"
set -e

expect_exit 0 sh "$ROOT/scripts/check-layers.sh" "$BUILD_DIR/obj"
expect_grep "layers respected, no include cycle" "$OUT"
expect_grep "no cycle, none up a layer" "$OUT"

# A tiny house: one file per layer that matters.
mk_tree() {
    T=$TMPDIR_TEST/$1; rm -rf "$T"
    mkdir -p "$T/scripts" "$T/src/io" "$T/src/model" "$T/src/util" "$T/stats" "$T/gates"
    cp "$ROOT/scripts/check-layers.sh" "$T/scripts/"
    printf '#include "util/strbuf.h"\nstruct rec { int x; };\n' >"$T/src/model/rec.h"
    printf '/* pure */\n' >"$T/src/util/strbuf.h"
    printf '#include "model/rec.h"\nint io_read(struct rec *r);\n' >"$T/src/io/read.h"
    printf '#include "model/rec.h"\n#include "stats/mean.h"\n' >"$T/gates/rule.c"
    printf '#include "model/rec.h"\n' >"$T/stats/mean.h"
}

mk_tree ok
expect_exit 0 sh "$T/scripts/check-layers.sh"

mk_tree statsio
printf '#include "io/read.h"\n' >>"$T/stats/mean.h"
expect_exit 1 sh "$T/scripts/check-layers.sh"
expect_grep 'stats/mean.h:2: layer stats includes io ("io/read.h")' "$OUT"

mk_tree gatesio
printf '#include "io/read.h"\n' >>"$T/gates/rule.c"
expect_exit 1 sh "$T/scripts/check-layers.sh"
expect_grep "layer gates includes io" "$OUT"

mk_tree modelup
printf '#include "stats/mean.h"\n' >>"$T/src/model/rec.h"
expect_exit 1 sh "$T/scripts/check-layers.sh"
expect_grep "layer model includes stats" "$OUT"
expect_grep "include cycle:" "$OUT"

mk_tree bare
printf '#include "rec.h"\n' >>"$T/gates/rule.c"
expect_exit 1 sh "$T/scripts/check-layers.sh"
expect_grep 'include "rec.h" by bare name' "$OUT"

mk_tree cycle
printf '#include "stats/b.h"\n' >"$T/stats/a.h"
printf '#include "stats/a.h"\n' >"$T/stats/b.h"
expect_exit 1 sh "$T/scripts/check-layers.sh"
expect_grep "include cycle: stats/" "$OUT"
# Objects: a call up a layer that no include shows (the declaration sits in
# a util header, the definition in io/) fails; the same tree without the
# call, or with the call going down (io -> util), passes.
mk_objs() {
    mk_tree "$1"
    printf 'int io_read(void);\n' >"$T/src/util/decl.h"
    printf 'int io_read(void) { return 1; }\n' >"$T/src/io/read.c"
    printf 'int util_pure(int x) { return x + 1; }\n' >"$T/src/util/pure.c"
    printf '#include "util/decl.h"\nint util_up(void) { return io_read(); }\n' >"$T/src/util/up.c"
    printf 'int util_pure(int x);\nint io_down(void) { return util_pure(1); }\n' >"$T/src/io/down.c"
    rm "$T/gates/rule.c"
    printf 'int gate_rule(void) { return 0; }\n' >"$T/gates/g.c"
}
build_objs() {
    for c in $(cd "$T" && find src gates -name '*.c'); do
        mkdir -p "$T/obj/$(dirname "$c")"
        ${CC:-cc} -I"$T/src" -I"$T" -c -o "$T/obj/${c%.c}.o" "$T/$c" || fail "cc $c"
    done
}
command -v nm >/dev/null 2>&1 || skip "no nm"
mk_objs upcall
build_objs
expect_exit 1 sh "$T/scripts/check-layers.sh" "$T/obj"
expect_grep "src/util/up.o: layer util uses io_read, defined in src/io/read.o (layer io): not allowed" "$OUT"
expect_no_grep "io/down.o" "$OUT"
# a gate calling run/ is caught the same way
mk_objs gaterun
rm "$T/src/util/up.c"; mkdir -p "$T/src/run"
printf 'int run_spawn(void) { return 0; }\n' >"$T/src/run/spawn.c"
printf 'int run_spawn(void);\nint gate_rule(void) { return run_spawn(); }\n' >"$T/gates/g.c"
build_objs
expect_exit 1 sh "$T/scripts/check-layers.sh" "$T/obj"
expect_grep "gates/g.o: layer gates uses run_spawn, defined in src/run/spawn.o (layer run)" "$OUT"
# without the call up: passes
mk_objs downonly
rm "$T/src/util/up.c"
build_objs
expect_exit 0 sh "$T/scripts/check-layers.sh" "$T/obj"
expect_grep "none up a layer" "$OUT"
echo ok
