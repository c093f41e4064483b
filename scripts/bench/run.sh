#!/bin/sh
# make bench: runs every benchmark in scripts/bench/*.sh and rewrites docs/benchmarks.md.
set -eu
B=${BUILD:-build}
export BUILD=$B
out=docs/benchmarks.md
tmp=$(mktemp)
{
  echo "# Benchmarks"
  echo
  echo "Written by \`make bench\` on $(date -u +%Y-%m-%d) ($(nproc) cores, $(uname -m)). Ratios are measured in the same run."
  echo
  for b in scripts/bench/bench_*.sh; do
    [ -e "$b" ] || continue
    sh "$b"
    echo
  done
} >"$tmp"
mv "$tmp" "$out"
cat "$out"
