#!/bin/sh
# icudata.sh: ICU's data cut to the items tlperf uses, as an object that
# defines the symbol ICU's static library looks its data up by (the
# Makefile links it instead of libicudata.a: 0.4 MB instead of 31 MB).
#   icudata.sh CC DIR ITEM...   writes DIR/icudata.o
# The full package is libicudata.a's one object (its .rodata is the
# package: a .dat file); icupkg (icu-devtools, which libicu-dev depends on)
# removes every item not named. An item named that the package lacks, or
# a tool that fails, stops the build: a package missing what uname.c asks
# ICU for would make ICU calls fail, and names be compared as bytes.
set -eu
# icupkg is in /usr/sbin, which a user's PATH may not hold
ICUPKG=$(command -v icupkg || echo /usr/sbin/icupkg)
CC=$1 DIR=$2
shift 2
a=$($CC -print-file-name=libicudata.a)
[ -f "$a" ] || { echo "icudata.sh: error: no libicudata.a (libicu-dev)" >&2; exit 2; }
m=$(ar t "$a" | head -n 1)           # icudt72l_dat.o
name=${m%_dat.o}                      # icudt72l: the package name ICU looks for
ar p "$a" "$m" >"$DIR/full.o"
sym=$(nm "$DIR/full.o" | awk '$2 == "R" || $2 == "D" { print $3; exit }') # icudt72_dat
[ -n "$sym" ] || { echo "icudata.sh: error: no data symbol in $a($m)" >&2; exit 2; }
# icupkg wants a file named as the package it holds
rm -rf "$DIR/full" "$DIR/pkg" && mkdir -p "$DIR/full" "$DIR/pkg"
objcopy -O binary -j .rodata "$DIR/full.o" "$DIR/full/$name.dat"
"$ICUPKG" -l "$DIR/full/$name.dat" >"$DIR/items.txt"
sort "$DIR/items.txt" >"$DIR/items"
printf '%s\n' "$@" | sort >"$DIR/keep"
for i in "$@"; do
    grep -qxF "$i" "$DIR/items" || { echo "icudata.sh: error: ICU's data has no $i" >&2; exit 2; }
done
# a .txt name: icupkg reads other names as one item
grep -vxF -f "$DIR/keep" "$DIR/items" >"$DIR/remove.txt"
"$ICUPKG" -r "$DIR/remove.txt" "$DIR/full/$name.dat" "$DIR/pkg/$name.dat" >/dev/null
"$ICUPKG" -l "$DIR/pkg/$name.dat" >"$DIR/items.txt"
sort "$DIR/items.txt" | cmp -s - "$DIR/keep" ||
    { echo "icudata.sh: error: the cut package does not hold exactly: $*" >&2; exit 2; }
printf '\t.section .rodata\n\t.globl %s\n\t.type %s, @object\n\t.balign 16\n%s:\n\t.incbin "%s"\n\t.size %s, . - %s\n\t.section .note.GNU-stack,"",@progbits\n' \
    "$sym" "$sym" "$sym" "$DIR/pkg/$name.dat" "$sym" "$sym" | $CC -c -x assembler -o "$DIR/icudata.o" -
rm -rf "$DIR/full.o" "$DIR/full" "$DIR/items.txt" "$DIR/items" "$DIR/keep" "$DIR/remove.txt"
