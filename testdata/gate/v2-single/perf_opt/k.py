# Fixture kernel for tlgate tests: only its bytes matter (sha256).
TILE = 128
