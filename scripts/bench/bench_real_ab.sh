#!/bin/sh
# Benchmark: scripts/real-ab.sh (tlab --source stdout on two CPU programs of
# known relative speed). Its Markdown goes to docs/benchmarks.md; a failed
# expectation is reported in the table (FAIL) without stopping make bench.
# REAL_AB_SESSIONS (100): sessions per protocol and comparison in its second table.
# REAL_AB_SIDE (10): sessions per row of seq, fast and ref side by side (quiet
# and under the script's load generator, steady and noisy kernels; about an
# hour on a shared 2-core machine; 0 skips it).
sh "$(dirname "$0")/../real-ab.sh" --sessions "${REAL_AB_SESSIONS:-100}" --side-by-side "${REAL_AB_SIDE:-10}" ||
    echo "(real-ab.sh: an expectation failed, see the table)"
