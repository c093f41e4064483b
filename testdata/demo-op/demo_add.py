# demo_add: the Stage 3 baseline of the tlperf demo operator (no NPU
# needed). bench.sh reads the mean Task Duration per workload below; l0.sh
# reads the l0 line.
mean_us n1024 12.0
mean_us n65536 80.0
l0 pass
