#!/bin/sh
# check-audit-html.sh [OUT.png]: renders the HTML report of `tlperf audit`
# over testdata/audit/repo in headless Chromium and writes a screenshot
# (default build/audit-screenshot.png; docs/audit-screenshot.png is the one
# the README shows). A scripted check run by hand, not part of make test:
# look at the PNG; the table and the speedup chart must both be there, the
# two operators whose claims do not reconcile in red.
#
# Installs chromium with apt-get when it is missing and we are root (or have
# sudo). Environment: TLPERF (default build/bin/tlperf), CHROMIUM.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTPNG=${1:-$ROOT/build/audit-screenshot.png}
case "$OUTPNG" in /*) ;; *) OUTPNG="$(pwd)/$OUTPNG" ;; esac
TLPERF=${TLPERF:-$ROOT/build/bin/tlperf}
[ -x "$TLPERF" ] || { echo "check-audit-html: build first (make): no $TLPERF" >&2; exit 2; }

find_chromium() {
    for c in "${CHROMIUM:-}" chromium chromium-browser google-chrome google-chrome-stable; do
        [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
    done
    return 1
}
if ! CHR=$(find_chromium); then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    echo "check-audit-html: chromium not found: installing it with apt-get" >&2
    $SUDO apt-get install -y -qq chromium >&2 || { echo "check-audit-html: cannot install chromium" >&2; exit 2; }
    CHR=$(find_chromium) || { echo "check-audit-html: chromium still not found" >&2; exit 2; }
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-audit-html.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
# relative root, so the report shows repo/ops/<operator>
cd "$ROOT/testdata/audit"
set +e
"$TLPERF" audit --format html -o "$WORK/audit.html" repo
rc=$?
set -e
[ "$rc" = 1 ] || { echo "check-audit-html: tlperf audit exited $rc, wanted 1 (two claims do not reconcile)" >&2; exit 1; }

mkdir -p "$(dirname "$OUTPNG")"
rm -f "$OUTPNG"
timeout 120 "$CHR" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$WORK/profile" --window-size=1440,700 \
    --screenshot="$OUTPNG" "file://$WORK/audit.html" >"$WORK/chromium.log" 2>&1 || true
if [ ! -s "$OUTPNG" ]; then
    echo "check-audit-html: chromium wrote no screenshot; its output:" >&2
    cat "$WORK/chromium.log" >&2
    exit 1
fi
# a PNG of the requested size (IHDR width and height, big-endian)
sig=$(od -An -tx1 -N8 "$OUTPNG" | tr -d ' \n')
[ "$sig" = 89504e470d0a1a0a ] || { echo "check-audit-html: $OUTPNG is not a PNG" >&2; exit 1; }
dims=$(od -An -tu1 -j16 -N8 "$OUTPNG" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }')
size=$(wc -c <"$OUTPNG")
echo "check-audit-html: $OUTPNG ($dims, $size bytes): look at it; the table and the chart must both show"
[ "$size" -gt 20000 ] || { echo "check-audit-html: suspiciously small screenshot" >&2; exit 1; }
