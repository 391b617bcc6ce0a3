#!/bin/sh
# t/0953-readme-links.sh - the links of the README, HACKING.md and doc/*.md
# lead somewhere: every "](#anchor)" is the anchor GitHub makes of one of
# the document's headings (lower case; punctuation but "-" and "_"
# dropped; each space a "-"; a repeated heading's anchor suffixed -1, -2:
# github-slugger, which github.com uses), every relative link names a file
# of the source tree (relative to the document), and a link to another
# document's "#anchor" is one of its headings; the README's Contents list
# links every "## " section, so the table of contents cannot fall behind a
# section added later.  Headings inside ``` blocks are code.
. "$T_SRC/tap.sh"
pyq_start

TOP=$T_SRC/..
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed"
[ -r "$TOP/README.md" ] || skip_all "no README.md beside t/"

pyq - "$TOP" >"$tmp/out" 2>&1 <<'PY'
import os, re, sys
top = sys.argv[1]


def read(path):
    text = open(path, encoding="utf-8").read()
    lines, fence = [], False
    for l in text.split("\n"):
        if l.startswith("```"):
            fence = not fence
            continue
        if not fence:
            lines.append(l)
    return lines


def anchors_of(lines):
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
    return anchors, sections


docs = ["README.md", "HACKING.md"] + sorted(
    "doc/" + f for f in os.listdir(os.path.join(top, "doc")) if f.endswith(".md"))
bad, missing, count, local = [], [], 0, 0
for d in docs:
    lines = read(os.path.join(top, d))
    anchors, sections = anchors_of(lines)
    body = "\n".join(lines)
    for a in re.findall(r"\]\(([^)\s]+)\)", body):
        count += 1
        if "://" in a or a.startswith("mailto:"):
            continue
        if a.startswith("#"):
            local += 1
            if a[1:] not in anchors:
                bad.append("%s:%s" % (d, a))
            continue
        f, _, frag = a.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(os.path.join(top, d)), f))
        if not os.path.exists(path):
            missing.append("%s:%s" % (d, a))
        elif frag and path.endswith(".md"):
            if frag not in anchors_of(read(path))[0]:
                bad.append("%s:%s" % (d, a))
    if d == "README.md":
        m = re.search(r"^## Contents\n(.*?)^## ", body, re.S | re.M)
        toc = set(re.findall(r"\]\(#([^)]+)\)", m.group(1))) if m else set()
        print("toc:" + ("yes" if m else "no"))
        print("toc-missing:" + " ".join(s for s in sections if s not in toc and s != "contents"))
print("anchors-bad:" + " ".join(bad))
print("files-missing:" + " ".join(missing))
print("links-count:%d" % count)
print("anchors-count:%d" % local)
print("docs:%d" % len(docs))
PY
is "$?" 0 "the documents parse"
val() { sed -n "s/^$1://p" "$tmp/out"; }
is "$(val toc)" "yes" "the README has a Contents section"
is "$(val anchors-bad)" "" "every #anchor link, in its document or another, is one of its headings"
is "$(val files-missing)" "" "every relative link names a file of the tree"
is "$(val toc-missing)" "" "the README's Contents links every ## section"
n=$(val anchors-count)
[ "${n:-0}" -ge 30 ] && [ "$(val docs)" -ge 10 ]
ok $? "the links were read ($(val links-count) links, ${n:-0} anchors, in $(val docs) documents)"
done_testing
