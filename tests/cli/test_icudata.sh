#!/bin/sh
# The ICU data the binary carries (mk/icudata.mk: three items cut from the
# 31 MB package) is all that names need: what uname.c makes of every code
# point of planes 0-3 and 14 (identity form, confusable skeleton, the
# character names of a message) is the same byte for byte as with the
# whole package of the shared libraries. A missing item would change the
# lines of the code points that need it (no NFKC: fullwidth letters keep
# their width; no confusables: no skeleton; no names: bare U+XXXX).
. "$(dirname "$0")/lib.sh"
set -e

D=$BUILD_DIR/bin/uname-dump
S=$BUILD_DIR/bin/uname-dump-shared
[ -x "$D" ] && [ -x "$S" ] || fail "make did not build $D and $S (mk/icudata.mk)"
"$D" >"$TMPDIR_TEST/binary" || fail "uname-dump (linked as the binary) failed"
"$S" >"$TMPDIR_TEST/whole" || fail "uname-dump-shared (the whole package) failed"
if ! cmp -s "$TMPDIR_TEST/binary" "$TMPDIR_TEST/whole"; then
    diff "$TMPDIR_TEST/whole" "$TMPDIR_TEST/binary" | head -n 20
    fail "names read differently with the binary's ICU data than with the whole package"
fi
# the lines compared hold what each item gives (the comparison is not of
# two empty or two degraded dumps)
printf 'FF21\ta\ta\tU+0061 LATIN SMALL LETTER A where the record has nothing\n' >"$TMPDIR_TEST/want"
printf '0430\t\320\260\ta\tU+0430 CYRILLIC SMALL LETTER A where the record has nothing\n' >>"$TMPDIR_TEST/want"
printf '1D41F\tf\tf\tU+0066 LATIN SMALL LETTER F where the record has nothing\n' >>"$TMPDIR_TEST/want"
while IFS= read -r line; do
    grep -qxF "$line" "$TMPDIR_TEST/binary" || fail "uname-dump lacks the line: $line"
done <"$TMPDIR_TEST/want"
n=$(wc -l <"$TMPDIR_TEST/binary")
[ "$n" -gt 250000 ] || fail "uname-dump printed $n lines, wanted every code point of planes 0-3 and 14"
echo "ok: $n code points read alike with the binary's ICU data and the whole package"
