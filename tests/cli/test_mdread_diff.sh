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
for f in $files; do
    render "$f" >page.html
    "$TLPERF" read --blocks --format json "$f" >blocks.json
    python3 "$ROOT/tests/cli/md_diff.py" page.html blocks.json >diff.txt || fail "$f: $(cat diff.txt)"
    n=$((n + 1))
done
[ "$n" -ge 90 ] || fail "only $n Markdown files compared"
echo "$n files: the reader agrees with cmark-gfm"

# the comparison can fail: the page with its struck text shown (as a reader
# that ignored strikethrough would read it) must not agree
printf '# t\n\nfinal_latency: ~~64 us~~ 58 us\n' >s.md
render s.md | sed 's,<del>,,; s,</del>,,' >page.html
"$TLPERF" read --blocks --format json s.md >blocks.json
if python3 "$ROOT/tests/cli/md_diff.py" page.html blocks.json >diff.txt; then
    fail "md_diff.py accepted a page whose struck text is shown"
fi
expect_grep "shown text differs" diff.txt
# and a heading the reader did not see
printf '# t\n\n## Final Summary\n' >h.md
render h.md | sed 's,<h2>,<p>,; s,</h2>,</p>,' >page.html
"$TLPERF" read --blocks --format json h.md >blocks.json
if python3 "$ROOT/tests/cli/md_diff.py" page.html blocks.json >diff.txt; then
    fail "md_diff.py accepted a heading the page does not have"
fi
