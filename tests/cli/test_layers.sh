#!/bin/sh
# scripts/check-layers.sh passes on the project and catches each kind of
# violation it exists for, in a scratch copy of a tiny tree.
. "$(dirname "$0")/lib.sh"
set -e

expect_exit 0 sh "$ROOT/scripts/check-layers.sh" "$BUILD_DIR/obj"
expect_grep "layers respected, no include cycle" "$OUT"
expect_grep "no cycle" "$OUT"

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
echo ok
