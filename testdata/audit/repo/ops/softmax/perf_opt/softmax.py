# Fixture stand-in for the tuned kernel perf_opt/softmax.py (tlperf audit tests).
KERNEL_NAME = "main"
ROWS_PER_BLOCK = 4
