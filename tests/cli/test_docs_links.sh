# Every relative link and image of README.md and docs/*.md (outside code)
# names a file of the checkout, resolved from the document's own directory
# as GitHub resolves it (docs/audit.md's image once pointed at
# docs/docs/audit-screenshot.png).
. "$ROOT/tests/cli/lib.sh"
set -e
need_cmd python3
python3 - "$ROOT" "$ROOT/README.md" "$ROOT"/docs/*.md <<'PY' || fail "broken links (above)"
import os, re, sys
root, docs = sys.argv[1], sys.argv[2:]
bad = 0
for doc in docs:
    fence = False
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        if re.match(r"^\s*(```|~~~)", line):
            fence = not fence
            continue
        if fence:
            continue
        line = re.sub(r"`[^`]*`", "", line)      # inline code is not a link
        for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            full = os.path.normpath(os.path.join(os.path.dirname(doc), path))
            if not os.path.exists(full):
                print(f"{os.path.relpath(doc, root)}:{n}: link to {target}: no {os.path.relpath(full, root)}")
                bad = 1
sys.exit(bad)
PY
echo ok
