#!/bin/sh
# Benchmark: scripts/real-ab.sh (tlab --source stdout on two CPU programs of
# known relative speed). Its Markdown goes to docs/benchmarks.md; a failed
# expectation is reported in the table (FAIL) without stopping make bench.
# REAL_AB_SESSIONS (100): sessions per protocol and comparison in its second table.
sh "$(dirname "$0")/../real-ab.sh" --sessions "${REAL_AB_SESSIONS:-100}" || echo "(real-ab.sh: an expectation failed, see the table)"
