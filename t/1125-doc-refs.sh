#!/bin/sh
# t/1125-doc-refs.sh - every document and section the tool's messages and
# the code's comments send a reader to exists: each doc/NAME.md (and
# HACKING.md) they name is in the tree, each quoted section title after it
# ("doc/safety.md, \"Running as root safely\"") is one of that document's
# headings, and each "man baretma-CMD, \"Title\"" is a .SH or .SS of that
# page (man's headings compared case-blind, as man prints .SH in capitals).
# The tool's messages name these paths as installed under $(docdir)
# (Makefile.am dist_docsub_DATA; t/0700 checks the installed list).  Issue
# 29 moved the README's reference into these documents; the messages that
# quoted the README's old section titles pointed nowhere.
. "$T_SRC/tap.sh"
TOP=$T_SRC/..
cd "$TOP" || exit 1

refs=$(mktemp) || exit 1
trap 'rm -f "$refs"' EXIT
# FILE<TAB>TITLE (TITLE empty for a bare path), from every C file's text.
find bench msr cpu include -name '*.[ch]' | LC_ALL=C sort | xargs grep -ho \
	-E '(doc/[a-z0-9-]+\.md|HACKING\.md|README|man baretma(-[a-z]+)?)(,)? ?(\\?"[^"\\]+\\?")?' |
	sed -E 's/^(doc\/[a-z0-9-]+\.md|HACKING\.md|README|man baretma(-[a-z]+)?),? ?\\?"?([^"\\]*)\\?"?$/\1\t\3/' |
	LC_ALL=C sort -u >"$refs"

n=$(wc -l <"$refs")
[ "$n" -ge 10 ]; ok $? "the code names at least 10 documents or sections ($n)"
# The pattern reads what it is for.
one=$(printf '%s\n' 'x (see doc/safety.md, \"Running as root safely\")' |
	grep -o -E '(doc/[a-z0-9-]+\.md|HACKING\.md|README|man baretma(-[a-z]+)?)(,)? ?(\\?"[^"\\]+\\?")?' |
	sed -E 's/^(doc\/[a-z0-9-]+\.md|HACKING\.md|README|man baretma(-[a-z]+)?),? ?\\?"?([^"\\]*)\\?"?$/\1\t\3/')
is "$one" "$(printf 'doc/safety.md\tRunning as root safely')" "pattern: a message's document and section"

bad=
while IFS='	' read -r doc title; do
	[ "$doc" = README ] && doc=README.md
	case $doc in
	man\ *)
		page=man/${doc#man }.1
		[ -f "$page" ] || { bad="$bad
$doc: no page $page"; continue; }
		[ -n "$title" ] || continue
		grep -E '^\.(SH|SS) ' "$page" | sed -E 's/^\.(SH|SS) +//; s/"//g; s/\\-/-/g' |
			grep -qixF -- "$title" || bad="$bad
$doc: no section \"$title\" in $page" ;;
	*)
		[ -f "$doc" ] || { bad="$bad
$doc: no such document"; continue; }
		[ -n "$title" ] || continue
		sed -n 's/^#\{1,6\} *//p' "$doc" | grep -qxF -- "$title" || bad="$bad
$doc: no heading \"$title\"" ;;
	esac
done <"$refs"
is "$bad" "" "every document and section the code names exists"
done_testing
