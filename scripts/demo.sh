#!/bin/sh
# make demo: the main job on bundled data (filled in as the tools land).
set -eu
B=${BUILD:-build}
"$B/bin/tlperf" --help
