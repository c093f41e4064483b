# The audit HTML in a real headless browser (Debian chromium): the DOM the
# browser builds keeps a caption on every table (a misplaced caption would
# be moved out by the HTML parser), every header cell has a scope, and
# every colour the page uses (chart and table, greys aside) has a legend
# entry. Without chromium (scripts/install-deps.sh does not pull it in;
# `apt-get install chromium`) the same checks run on the HTML as written,
# after an XML well-formedness check, and the test says so.
. "$ROOT/tests/cli/lib.sh"
set -e
CHR=""
for c in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { CHR=$(command -v "$c"); break; }
done
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
cd "$TESTDATA/audit"
expect_exit 1 "$TLPERF" audit --format html -o "$TMPDIR_TEST/audit.html" repo
cd "$TMPDIR_TEST"
if [ -n "$CHR" ]; then
    timeout 120 "$CHR" --headless --no-sandbox --disable-gpu --user-data-dir="$TMPDIR_TEST/chr" \
        --dump-dom "file://$TMPDIR_TEST/audit.html" >dom.html 2>chr.err || { cat chr.err; fail "chromium failed"; }
    [ -s dom.html ] || fail "chromium produced no DOM"
else
    echo "no chromium: checking the HTML as written (every element closed in order, then the same checks)"
    cat >wf.py <<'PY'
import sys
from html.parser import HTMLParser
VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}
class V(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, self.getpos()[0]))
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append('line %d: </%s> closes %s' % (self.getpos()[0], tag, self.stack[-1:]))
            return
        self.stack.pop()
v = V()
v.feed(open(sys.argv[1], encoding='utf-8').read())
v.close()
v.errors += ['line %d: <%s> never closed' % (l, t) for t, l in v.stack]
print('\n'.join(v.errors[:10]))
sys.exit(1 if v.errors else 0)
PY
    python3 wf.py audit.html || fail "audit HTML is not well-formed"
    # the check itself fails on a page with a dropped end tag
    sed '0,/<\/caption>/s///' audit.html >broken.html
    ! python3 wf.py broken.html >/dev/null || fail "the well-formedness check passed a broken page"
    cp audit.html dom.html
fi
python3 - dom.html <<'PY' || fail "audit HTML accessibility checks"
import re, sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.tables, self.th, self.swatches, self.colors = [], [], [], set(), set()
        self.style = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table':
            self.tables.append({'caption_first': None})
        if tag == 'caption':
            # the caption must be the table's first child in the parsed DOM
            assert self.stack and self.stack[-1] == 'table', 'caption outside a table: %s' % self.stack
            self.tables[-1]['caption_first'] = True
        if tag in ('thead', 'tbody', 'tr') and self.tables and self.tables[-1]['caption_first'] is None:
            self.tables[-1]['caption_first'] = False
        if tag == 'th':
            self.th.append(a.get('scope'))
        if 'data-color' in a:
            self.swatches.add(a['data-color'].lower())
        for k in ('fill', 'stroke', 'style'):
            for c in re.findall(r'#[0-9a-fA-F]{6}\b', a.get(k, '') or ''):
                self.colors.add(c.lower())
        self.style = tag == 'style'
        if tag not in ('br', 'meta', 'rect', 'line', 'circle', 'path'):
            self.stack.append(tag)
    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass
        self.style = False
    def handle_data(self, d):
        if self.style:
            for c in re.findall(r'#[0-9a-fA-F]{6}\b', d):
                self.colors.add(c.lower())

p = P()
p.feed(open(sys.argv[1], encoding='utf-8').read())
assert len(p.tables) >= 1, 'no table'
for i, t in enumerate(p.tables):
    assert t['caption_first'], 'table %d has no caption' % (i + 1)
assert p.th and all(s in ('col', 'row') for s in p.th), 'header cells without scope: %s' % p.th
grey = lambda c: c[1:3] == c[3:5] == c[5:7]
used = {c for c in p.colors if not grey(c)}
missing = used - p.swatches
assert not missing, 'colours without a legend entry: %s' % sorted(missing)
assert len(used) >= 4, 'too few colours found (%s): is the chart there?' % sorted(used)
print('tables', len(p.tables), 'th', len(p.th), 'colours', sorted(used))
PY
echo ok
