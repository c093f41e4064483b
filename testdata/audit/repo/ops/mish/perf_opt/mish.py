# Fixture stand-in for the tuned kernel perf_opt/mish.py (tlperf audit tests).
# The final records' artifact_sha256 is the sha256 of these bytes.
KERNEL_NAME = "main"
BLOCK_SIZE = 8192
DOUBLE_BUFFER = True
