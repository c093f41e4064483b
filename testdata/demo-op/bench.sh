#!/bin/sh
# bench.sh FAKE_KERNEL IMPL WORKLOAD: the demo operator's bench entry.
# A demo "kernel" file names its mean Task Duration per workload
# ("mean_us WORKLOAD US"); the fake kernel emits launches around it, with
# the small run-to-run noise of a real device. A line "bench fail" makes the
# bench itself fail; "bench hang" makes it wait (tests of interruption).
set -eu
fk=$1 impl=$2 wl=$3
mean=$(awk -v w="$wl" '$1 == "mean_us" && $2 == w { print $3 }' "$impl")
[ -n "$mean" ] || { echo "bench.sh: no 'mean_us $wl' line in $impl" >&2; exit 3; }
if grep -q '^bench fail' "$impl"; then echo "bench.sh: $impl crashed" >&2; exit 4; fi
if grep -q '^bench hang' "$impl"; then sleep 600; fi
exec "$fk" --mean "$mean" --name demo_add --half-gap 0.005 --launch-noise 0.005
