#!/usr/bin/env python3
"""md_diff.py HTML BLOCKS_JSON: compares what the gate's Markdown reader
read (`tlperf read --blocks --format json FILE`) with what cmark-gfm, the
renderer GitHub uses, renders of the same file (`cmark-gfm --unsafe -e
table -e strikethrough -e autolink -e tagfilter -e tasklist FILE`).

Three things must agree:
  - the headings, in order, with their level and text;
  - the table rows, in order, cell by cell;
  - every character a reader sees, in order, white space aside (prose,
    list items, cells, code), with nothing hidden from the page (comments,
    struck text, image alternative text, elements GitHub does not render)
    among it.
Prints the first difference and exits 1; exits 0 when they agree.

md_diff.py --list FILE: the same for each line "HTML<TAB>BLOCKS_JSON<TAB>NAME"
of FILE, in one process (the test compares over a hundred files); prints
"NAME: difference" for each pair that differs, exits 1 when any does.
"""
import html.parser
import json
import re
import sys

HIDE = {"del", "s", "strike"}
UNRENDERED = {"script", "style", "template", "textarea", "title", "noscript", "iframe",
              "xmp", "noembed", "noframes", "plaintext", "svg", "math", "head"}
FILTERED = {"title", "textarea", "style", "xmp", "iframe", "noembed", "noframes",
            "script", "plaintext"}


def words(s):
    return s.split()


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hidden = 0        # inside del/s/strike or an unrendered element
        self.heading = None    # [level, text] while inside <hN>
        self.headings = []
        self.row = None        # cells of the open <tr>
        self.cell = None
        self.rows = []
        self.words = []        # (word, inside code)
        self.stack = []
        self.code = 0

    def handle_starttag(self, tag, attrs):
        if tag == "code":
            self.code += 1
        if tag in HIDE or tag in UNRENDERED:
            self.hidden += 1
            self.stack.append(tag)
        if re.fullmatch(r"h[1-6]", tag):
            self.heading = [int(tag[1]), ""]
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "code" and self.code:
            self.code -= 1
        if tag in HIDE or tag in UNRENDERED:
            if tag in self.stack:
                while self.stack:
                    t = self.stack.pop()
                    self.hidden -= 1
                    if t == tag:
                        break
        if re.fullmatch(r"h[1-6]", tag) and self.heading:
            self.headings.append((self.heading[0], " ".join(words(self.heading[1]))))
            self.heading = None
        elif tag in ("td", "th") and self.cell is not None:
            self.row.append(" ".join(words(self.cell)))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.hidden:
            return
        if self.heading is not None:
            self.heading[1] += data
        if self.cell is not None:
            self.cell += data
        self.words.extend((w, self.code > 0) for w in words(data))


def filtered_text(ws):
    """cmark-gfm's tag filter shows `<script>` and its kin as text; the
    reader treats what they hold as not rendered. Drop both from the page's
    words so the comparison is about everything else."""
    out, skip = [], None
    for w, code in ws:
        m = re.match(r"<(/?)([a-zA-Z]+)", w)
        if skip:
            if re.search(r"</%s>" % skip, w, re.I):
                skip = None
            continue
        if not code and m and not m.group(1) and m.group(2).lower() in FILTERED:
            skip = m.group(2).lower()
            if re.search(r"</%s>" % skip, w, re.I):
                skip = None
            continue
        out.append(w)
    return out


def compare(html_path, json_path):
    """The first difference of the pair, or None."""
    page = Page()
    page.feed(open(html_path, encoding="utf-8", errors="replace").read())
    page.close()
    blocks = json.load(open(json_path, encoding="utf-8", errors="replace"))["blocks"]
    heads, rows, seen = [], [], []
    for b in blocks:
        k = b["kind"]
        if k.startswith("hidden"):
            continue
        if k.startswith("heading"):
            heads.append((int(k.split()[1]), " ".join(words(b["text"]))))
        if k in ("row", "head"):
            cells = [" ".join(words(c)) for c in b["cells"]]
            rows.append(cells)
            for c in b["cells"]:
                seen.extend(words(c))
        else:
            seen.extend(words(b["text"]))
    if heads != page.headings:
        for i, (a, c) in enumerate(zip(heads, page.headings)):
            if a != c:
                return "heading %d: reader %r, cmark-gfm %r" % (i + 1, a, c)
        return "headings: reader %d, cmark-gfm %d" % (len(heads), len(page.headings))
    if rows != page.rows:
        for i, (a, c) in enumerate(zip(rows, page.rows)):
            if a != c:
                return "table row %d: reader %r, cmark-gfm %r" % (i + 1, a, c)
        return "table rows: reader %d, cmark-gfm %d" % (len(rows), len(page.rows))
    a, c = "".join(seen), "".join(filtered_text(page.words))
    if a != c:
        i = next((k for k in range(min(len(a), len(c))) if a[k] != c[k]), min(len(a), len(c)))
        return "shown text differs at character %d: reader ...%r, cmark-gfm ...%r" % (
            i + 1, a[max(0, i - 30):i + 30], c[max(0, i - 30):i + 30])
    return None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--list":
        bad = 0
        for line in open(sys.argv[2], encoding="utf-8"):
            html_path, json_path, name = line.rstrip("\n").split("\t")
            diff = compare(html_path, json_path)
            if diff is not None:
                print("%s: %s" % (name, diff))
                bad += 1
        return 1 if bad else 0
    if len(sys.argv) != 3:
        sys.exit("usage: md_diff.py HTML BLOCKS_JSON | md_diff.py --list FILE")
    diff = compare(sys.argv[1], sys.argv[2])
    if diff is not None:
        print(diff)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
