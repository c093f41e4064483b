# The gate reads Markdown as GitHub renders it: for every Markdown file in
# testdata/ (fuzz seeds included) and ../shared/real-logs, what
# `tlperf read --blocks` hands the recognisers (headings, table rows, the
# text a reader sees, nothing hidden) agrees with cmark-gfm's own rendering
# of the file (tests/cli/md_diff.py compares them). Then one deliberate
# disagreement must be caught: a file whose struck text the reader would
# show if strikethrough were not applied.
. "$ROOT/tests/cli/lib.sh"
set -e
command -v cmark-gfm >/dev/null 2>&1 || skip "cmark-gfm not installed (scripts/install-deps.sh installs it)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
cd "$TMPDIR_TEST"
render() { cmark-gfm --unsafe -e table -e strikethrough -e autolink -e tagfilter -e tasklist "$1"; }
n=0
files=$(find "$TESTDATA" -name '*.md' | sort)
if [ -n "$SHARED" ] && [ -d "$SHARED/real-logs" ]; then
    files="$files $(find "$SHARED/real-logs" -name '*.md' | sort)"
fi
# each file rendered and read, then one md_diff.py compares them all
: >pairs.tsv
for f in $files; do
    n=$((n + 1))
    render "$f" >page.$n.html
    "$TLPERF" read --blocks --format json "$f" >blocks.$n.json
    printf '%s\t%s\t%s\n' page.$n.html blocks.$n.json "$f" >>pairs.tsv
done
python3 "$ROOT/tests/cli/md_diff.py" --list pairs.tsv >diff.txt || fail "the reader and cmark-gfm differ: $(cat diff.txt)"
[ "$n" -ge 90 ] || fail "only $n Markdown files compared"
echo "$n files: the reader agrees with cmark-gfm"

# the comparison can fail, one file among agreeing ones as above: the
# page with its struck text shown (as a reader that ignored strikethrough
# would read it) must not agree
printf '# t\n\nfinal_latency: ~~64 us~~ 58 us\n' >s.md
render s.md | sed 's,<del>,,; s,</del>,,' >page.s.html
"$TLPERF" read --blocks --format json s.md >blocks.s.json
# and a heading the reader did not see
printf '# t\n\n## Final Summary\n' >h.md
render h.md | sed 's,<h2>,<p>,; s,</h2>,</p>,' >page.h.html
"$TLPERF" read --blocks --format json h.md >blocks.h.json
printf 'page.1.html\tblocks.1.json\tfirst\npage.s.html\tblocks.s.json\tstruck\npage.h.html\tblocks.h.json\theading\npage.2.html\tblocks.2.json\tsecond\n' >bad.tsv
if python3 "$ROOT/tests/cli/md_diff.py" --list bad.tsv >diff.txt; then
    fail "md_diff.py accepted a page whose struck text is shown and a heading the page does not have"
fi
expect_grep "struck: shown text differs" diff.txt
expect_grep "heading: headings: reader 2, cmark-gfm 1" diff.txt
expect_no_grep "first:" diff.txt
expect_no_grep "second:" diff.txt
# one pair at a time, as the docstring shows
if python3 "$ROOT/tests/cli/md_diff.py" page.s.html blocks.s.json >diff.txt; then
    fail "md_diff.py accepted a page whose struck text is shown"
fi
expect_grep "shown text differs" diff.txt
python3 "$ROOT/tests/cli/md_diff.py" page.1.html blocks.1.json >diff.txt || fail "md_diff.py: $(cat diff.txt)"
