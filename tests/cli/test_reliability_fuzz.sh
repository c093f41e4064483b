# Replays every fuzz seed and every input that once crashed a parser
# (testdata/fuzz/<name>/) through the harness linked without libFuzzer:
# under `make test` this runs with gcc and again under ASan+UBSan.
. "$ROOT/tests/cli/lib.sh"
set -e
n=0
for dir in "$TESTDATA"/fuzz/*/; do
    name=$(basename "$dir")
    bin=$BUILD_DIR/fuzz/replay_$name
    # a harness whose parser has not landed yet is not built
    [ -x "$bin" ] || { echo "no replay_$name (parser not built)"; continue; }
    expect_exit 0 timeout 120 "$bin" "$dir"
    expect_grep "replayed" "$OUT"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no fuzz corpus replayed"
