#!/bin/sh
# t/1068-mutation-list.sh - the mutants of `make mutation` stay mutants of
# this tree: `t/mutation.sh --check` (nothing built or run) finds every
# one's original text exactly once in its file and every test it names in
# Makefile.am's TESTS, so that an edit of the measuring path that moves a
# mutated line says so here, in `make check`, and not as a BROKEN line of
# a mutation run (HACKING.md "Mutation testing").  The list holds at least 40
# mutants, each id once, issue 28's three survivors among them, and the
# recipe mistakes the issue names: Skylake's CYCLE_ACTIVITY.STALLS_MEM_ANY
# CounterMask 20 -> 19, Zen 4's smt_contention UMask 0x60 -> 0x40, Sunny
# Cove's 5 * INT_MISC.CLEARS_COUNT -> 4 *.
#
# And the checker on a control tree written here, whose answers are
# counted by hand: a mutant that applies, one with a tab and a newline in
# its texts (\t, \n), one with a backslash (\\), an original found twice
# and one found nowhere, a replacement equal to its original, a file and a
# test that do not exist, a line of five fields; --diff prints the lines
# each changes.
. "$T_SRC/tap.sh"

top=$(cd "$T_SRC/.." && pwd)
[ -r "$top/t/data/mutants.tsv" ] && [ -r "$top/Makefile.am" ] ||
	skip_all "no t/data/mutants.tsv and Makefile.am beside t/"

# --- the project's list -----------------------------------------------------
out=$(sh "$T_SRC/mutation.sh" --check 2>&1); rc=$?
is "$rc" 0 "every mutant of t/data/mutants.tsv applies to this tree"
like "$out" "^[0-9]+ mutants: [0-9]+ apply, 0 broken$" "the summary line: none broken"
n=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) mutants:.*/\1/p')
ok "$([ "${n:-0}" -ge 40 ]; echo $?)" "at least 40 mutants ($n)"
is "$(grep -v '^#' "$top/t/data/mutants.tsv" | grep . | cut -f1 | sort | uniq -d)" "" "each id once"
is "$(cut -f1 "$top/t/data/mutants.tsv" | grep -cx 'calib-resolution-last\|stat-interval-length\|bracket-none')" 3 \
	"issue 28's survivors among them: calib_resolution's i > 0, the interval length, no bracket"
is "$(cut -f1 "$top/t/data/mutants.tsv" | grep -cx 'ev-skl-stalls-mem-cmask\|ev-zen4-smt-umask\|fm-pm-icl-clears-width')" 3 \
	"issue 28's recipe mistakes among them: STALLS_MEM_ANY's cmask, smt_contention's umask, the clears term"

# --- a control tree ---------------------------------------------------------
c=$tmp/tree
mkdir -p "$c"
printf 'TESTS = \\\n\tt/0001-a.t \\\n\tt/0002-b.sh\n' >"$c/Makefile.am"
printf 'int f(int a, int b)\n{\n\tif (a < b)\n\t\treturn a - b;\n\treturn a + b;\t/* sum */\n}\nconst char *s = "x\\\\y";\n' >"$c/a.c"
T='	'
{
	printf '%s\n' "# a comment, then an empty line"
	printf '\n'
	printf '%s\n' "ok-one${T}a.c${T}if (a < b)${T}if (a <= b)${T}t/0001-a.t${T}< for <="
	printf '%s\n' "ok-escapes${T}a.c${T}return a + b;\\t/* sum */\\n}${T}return a - b;\\t/* sum */\\n}${T}t/0001-a.t t/0002-b.sh${T}swapped sign"
	printf '%s\n' "ok-backslash${T}a.c${T}\"x\\\\\\\\y\"${T}\"x\\\\\\\\z\"${T}t/0002-b.sh${T}another string"
	printf '%s\n' "twice${T}a.c${T}return a${T}return b${T}t/0001-a.t${T}found twice"
	printf '%s\n' "none${T}a.c${T}while (${T}for (${T}t/0001-a.t${T}found nowhere"
	printf '%s\n' "same${T}a.c${T}if (a < b)${T}if (a < b)${T}t/0001-a.t${T}no change"
	printf '%s\n' "nofile${T}b.c${T}x${T}y${T}t/0001-a.t${T}no such file"
	printf '%s\n' "notest${T}a.c${T}int f(${T}long f(${T}t/0003-c.t${T}no such test"
	printf '%s\n' "short${T}a.c${T}int f(${T}long f(${T}t/0001-a.t"
} >"$tmp/list"
out=$(sh "$T_SRC/mutation.sh" --check --list "$tmp/list" --tree "$c" 2>&1); rc=$?
is "$rc" 1 "control: broken mutants, exit 1"
is "$out" "BROKEN   twice: a.c: the original text occurs 2 times
BROKEN   none: a.c: the original text occurs 0 times
BROKEN   same: a.c: the replacement equals the original text
BROKEN   nofile: no file b.c
BROKEN   notest: no test t/0003-c.t in Makefile.am's TESTS
BROKEN   line 11: not six fields
9 mutants: 3 apply, 6 broken" "control: each broken one with its reason, the summary"
out=$(sh "$T_SRC/mutation.sh" --diff --list "$tmp/list" --tree "$c" ok-one ok-escapes ok-backslash 2>&1); rc=$?
is "$rc" 0 "control --diff of the three that apply: exit 0"
is "$(printf '%s\n' "$out" | grep -E '^(mutant|    [-+][^-+])')" "mutant   ok-one: t/0001-a.t
    -	if (a < b)
    +	if (a <= b)
mutant   ok-escapes: t/0001-a.t t/0002-b.sh
    -	return a + b;	/* sum */
    +	return a - b;	/* sum */
mutant   ok-backslash: t/0002-b.sh
    -const char *s = \"x\\\\y\";
    +const char *s = \"x\\\\z\";" "control --diff: each mutant's lines, tab and backslash as written"
is "$(cat "$c/a.c")" "$(printf 'int f(int a, int b)\n{\n\tif (a < b)\n\t\treturn a - b;\n\treturn a + b;\t/* sum */\n}\nconst char *s = "x\\\\y";')" \
	"the tree itself unchanged"
sh "$T_SRC/mutation.sh" --check --list "$tmp/list" --tree "$c" no-such-id >/dev/null 2>"$tmp/err"; rc=$?
is "$rc" 64 "an id the list does not have: exit 64"
like "$(cat "$tmp/err")" "no mutant 'no-such-id' in " "said"
done_testing
