#!/bin/sh
# complexity.sh: how many functions are too long or too branchy to read in
# one screen (issue target: none over ~60 lines or cyclomatic complexity 20
# outside tables), measured with pmccabe, and the worst of them.
#
#   sh scripts/complexity.sh [TOP]
#
# pmccabe comes from Debian (installed by scripts/install-deps.sh with
# TLPERF_WITH_COMPLEXITY=1, which `make complexity` does when it is missing).
set -eu
cd "$(dirname "$0")/.."
TOP=${1:-15}
command -v pmccabe >/dev/null 2>&1 || { echo "complexity: error: pmccabe not installed (make complexity installs it)" >&2; exit 2; }
files=$(find src stats gates -name '*.c' | LC_ALL=C sort)
# pmccabe columns: modified cc, traditional cc, statements, first line, lines, file(line): name
# shellcheck disable=SC2086
pmccabe $files 2>/dev/null | awk -v top="$TOP" '
{ n++; if ($1 > 15) c15++; if ($1 > 20) c20++; if ($5 > 60) l60++; if ($5 > 80) l80++ }
END {
	printf "functions: %d\n", n
	printf "complexity > 15: %d   > 20: %d\n", c15, c20
	printf "lines      > 60: %d   > 80: %d\n", l60, l80
}'
echo "worst $TOP by complexity (cc, lines, where):"
# shellcheck disable=SC2086
pmccabe $files 2>/dev/null | sort -k1,1nr | head -n "$TOP" | awk '{ $2 = $3 = $4 = ""; print }' | sed 's/   */ /g; s/^/  /'
