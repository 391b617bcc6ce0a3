#!/bin/sh
# t/0953-readme-links.sh - the README's links lead somewhere: every
# "](#anchor)" is the anchor GitHub makes of one of its headings (lower
# case; punctuation but "-" and "_" dropped; each space a "-"; a repeated
# heading's anchor suffixed -1, -2: github-slugger, which github.com uses),
# every relative link names a file of the source tree, and its Contents
# list links every "## " section, so the table of contents cannot fall
# behind a section added later.  Headings inside ``` blocks are code.
. "$T_SRC/tap.sh"

TOP=$T_SRC/..
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed"
[ -r "$TOP/README.md" ] || skip_all "no README.md beside t/"

python3 - "$TOP" >"$tmp/out" 2>&1 <<'PY'
import os, re, sys
top = sys.argv[1]
text = open(os.path.join(top, "README.md"), encoding="utf-8").read()
lines, fence = [], False
for l in text.split("\n"):
    if l.startswith("```"):
        fence = not fence
        continue
    if not fence:
        lines.append(l)
seen, anchors, sections = {}, set(), []
for l in lines:
    m = re.match(r"(#{1,6}) (.*)", l)
    if not m:
        continue
    s = re.sub(r"[^\w\- ]", "", m.group(2).strip().lower()).replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    anchors.add(s if n == 0 else "%s-%d" % (s, n))
    if m.group(1) == "##":
        sections.append(s)
body = "\n".join(lines)
links = re.findall(r"\]\(([^)\s]+)\)", body)
bad = [a for a in links if a.startswith("#") and a[1:] not in anchors]
print("anchors-bad:" + " ".join(bad))
files = [a for a in links if not a.startswith("#") and "://" not in a and not a.startswith("mailto:")]
missing = [f for f in files if not os.path.exists(os.path.join(top, f.split("#")[0]))]
print("files-missing:" + " ".join(missing))
print("files-count:%d" % len(files))
print("anchors-count:%d" % len([a for a in links if a.startswith("#")]))
m = re.search(r"^## Contents\n(.*?)^## ", body, re.S | re.M)
toc = set(re.findall(r"\]\(#([^)]+)\)", m.group(1))) if m else set()
print("toc:" + ("yes" if m else "no"))
print("toc-missing:" + " ".join(s for s in sections if s not in toc and s != "contents"))
PY
is "$?" 0 "the README parses"
val() { sed -n "s/^$1://p" "$tmp/out"; }
is "$(val toc)" "yes" "the README has a Contents section"
is "$(val anchors-bad)" "" "every #anchor link is one of the README's headings"
is "$(val files-missing)" "" "every relative link names a file of the tree"
is "$(val toc-missing)" "" "Contents links every ## section"
n=$(val anchors-count)
[ "${n:-0}" -ge 30 ]
ok $? "the anchors were read (${n:-0} links)"
done_testing
