#!/bin/sh
# t/0535-file-sizes.sh - no source file over about 700 lines: a file that
# grows past that holds more than one concern and is split along them
# (STYLE: "format / store / restore, not by line count").  Every tracked
# .c, .h and .sh file of the tree has at most 750 lines.  Outside a git
# checkout (a release tarball, `make distcheck`) every such file of the
# tree is read, the build trees left out.  A control tree with one file
# at the limit, two above it, a longer file of another kind and one in a
# build tree shows what the check reports; with git, that an untracked
# file is not read.
. "$T_SRC/tap.sh"

LIMIT=750
src=$(cd "$T_SRC/.." && pwd -P)
[ -d "$src/cpu" ] && [ -d "$src/t" ] || skip_all "no sources beside t/"

# sources ROOT: its .c, .h and .sh files, one path (relative to ROOT) a
# line: those git tracks when ROOT is the top of a checkout, else all but
# those of the build trees (build*/, _build/: make distcheck's)
sources() {
	if [ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$1" ]; then
		git -C "$1" ls-files -- '*.c' '*.h' '*.sh'
	else
		(cd "$1" && find . \( -name '_build' -o -name 'build*' -o -name .git \
			-o -name autom4te.cache \) -prune -o -type f \
			\( -name '*.c' -o -name '*.h' -o -name '*.sh' \) -print | sed 's|^\./||')
	fi | sort
}

# oversized ROOT: "FILE: N lines" for each source over LIMIT
oversized() {
	sources "$1" | while read -r f; do
		n=$(wc -l <"$1/$f")
		[ "$((n))" -le "$LIMIT" ] || echo "$f: $((n)) lines"
	done
}

n=$(sources "$src" | wc -l)
ok "$([ "$((n))" -gt 100 ]; echo $?)" "the check read the tree's sources ($((n)) files)"
out=$(oversized "$src")
is "$out" "" "no .c, .h or .sh source over $LIMIT lines (split it along its concerns)"

# control
lines() { awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) print "line " i }'; }
c=$tmp/ctl
mkdir -p "$c/cpu" "$c/t" "$c/build/t" "$c/_build/sub"
lines 750 >"$c/cpu/at-limit.c"
lines 751 >"$c/cpu/over.h"
lines 900 >"$c/t/over.sh"
lines 2000 >"$c/t/notes.txt"
lines 900 >"$c/build/t/generated.c"
lines 900 >"$c/_build/sub/generated.c"
c=$(cd "$c" && pwd -P)
out=$(oversized "$c" | tr '\n' ' ')
is "$out" "cpu/over.h: 751 lines t/over.sh: 900 lines " \
	"control: 751 and 900 lines reported; 750, a .txt and build trees are not"
if command -v git >/dev/null 2>&1 && git -C "$c" init -q >/dev/null 2>&1 &&
   git -C "$c" add cpu/at-limit.c cpu/over.h t/notes.txt >/dev/null 2>&1; then
	out=$(oversized "$c" | tr '\n' ' ')
	is "$out" "cpu/over.h: 751 lines " "control in a git checkout: only tracked files (t/over.sh is not)"
else
	skip "no git: the tracked-files control"
fi
done_testing
