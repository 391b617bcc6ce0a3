#!/bin/sh
# t/0950-man-page.sh - the man pages follow the tool's own --help, not a
# copy of it: man/baretma.1 (man 1 baretma, the overview) names every
# command of "baretma --help"'s command table in its SYNOPSIS and, with its
# page baretma-CMD(1), in COMMANDS, every variable of its environment list
# and every exit status of its exit status paragraph; each command's page
# man/baretma-CMD.1 names every sub-command and option of the command's
# usage lines; and the overview renders without a warning (groff -ww; man
# -l) where groff and man are installed (the command pages: t/1119).
. "$T_SRC/tap.sh"

page=$T_SRC/../man/baretma.1
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
[ -r "$page" ]
ok $? "man/baretma.1 is in the source tree"
[ -r "$page" ] || done_testing

# The page as words: roff escapes for minus and fonts taken out.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/-/g' "$page" >"$tmp/page.txt"

"$BARETMA" --help >"$tmp/help.txt" 2>&1
is "$?" 0 "baretma --help exits 0"
cmds=$(awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c && /^  [a-z]/ { print $1 }' "$tmp/help.txt")
like "$cmds" "bench" "the command table of baretma --help is read (bench among them)"

# SYNOPSIS: "baretma COMMAND", help and version, and the list of commands;
# COMMANDS: a ".BR baretma-CMD (1)" tagged paragraph per command, ".B help"
# and ".B version".
syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$tmp/page.txt")
missing=
for c in $cmds; do
	printf '%s\n' "$syn" | grep -qw -- "$c" || missing="$missing synopsis:$c"
	case $c in
	help|version) grep -qx "\\.B $c" "$tmp/page.txt" || missing="$missing commands:$c" ;;
	*) grep -qx "\\.BR baretma-$c (1)" "$tmp/page.txt" || missing="$missing commands:$c" ;;
	esac
done
is "$missing" "" "every command of baretma --help is in SYNOPSIS and in COMMANDS, with its page"

# Options: each option word of each command's usage lines ("usage:" and the
# lines indented under it), in that command's page.
missing=
for c in $cmds; do
	case $c in help|version) continue ;; esac
	cp=$T_SRC/../man/baretma-$c.1
	[ -r "$cp" ] || { missing="$missing $c:no-page"; continue; }
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/-/g' "$cp" >"$tmp/cmd.txt"
	"$BARETMA" "$c" --help 2>/dev/null | awk 'NR == 1 && !/^usage:/ { exit }
		/^usage:/ || (u && /^     /) { u = 1; print; next } u { exit }' >"$tmp/usage.txt"
	for o in $(tr '[]|()' '     ' <"$tmp/usage.txt" | tr -s ' ' '\n' | grep -E '^--?[A-Za-z]'); do
		grep -q -- "$o\\b" "$tmp/cmd.txt" || missing="$missing $c:$o"
	done
	# sub-commands: "baretma CMD SUB" in the usage lines
	for s in $(sed -n "s/.*baretma $c \\([a-z][a-z]*\\)\\b.*/\\1/p" "$tmp/usage.txt"); do
		grep -q "baretma $c $s\\b" "$tmp/cmd.txt" || missing="$missing $c:$s"
	done
done
is "$missing" "" "every option and sub-command of every command's usage lines is in its page man/baretma-CMD.1"

# ENVIRONMENT: every BARETMA_* variable of baretma --help, as a ".B VAR" tag.
missing=
for v in $(sed -n '/^environment:/,/^$/p' "$tmp/help.txt" | grep -o '^  BARETMA_[A-Z_]*'); do
	grep -qx "\\.B $v" "$tmp/page.txt" || missing="$missing $v"
done
is "$missing" "" "ENVIRONMENT lists every variable of baretma --help"

# EXIT STATUS: every status of baretma --help's paragraph.
codes=$(sed -n '/^exit status:/,/^$/p' "$tmp/help.txt" | grep -oE '(^|[ (,])[0-9]+ [a-z]' |
	grep -oE '[0-9]+' | sort -un)
like "$codes" "^0" "the exit statuses of baretma --help are read (0 first)"
status=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$tmp/page.txt")
missing=
for n in $codes; do
	printf '%s\n' "$status" | grep -qE "(^|[ ;])$n( |$)" || missing="$missing $n"
done
is "$missing" "" "EXIT STATUS gives every status of baretma --help"

for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
	grep -q "^\\.SH \"\\{0,1\\}$s\"\\{0,1\\}\$" "$page"
	ok $? "section $s"
done

if command -v groff >/dev/null 2>&1; then
	out=$(groff -man -ww -z -Tutf8 "$page" 2>&1)
	is "$out" "" "groff -man -ww -Tutf8 renders it without a warning"
else
	skip "groff not installed"
fi
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
	out=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	is "$out" "" "man -l renders it without a warning"
	out=$(MANWIDTH=80 man -l "$page" 2>/dev/null | col -b 2>/dev/null)
	like "$out" "baretma bench" "man -l shows the synopsis"
else
	skip "man or groff not installed"
	skip "man or groff not installed"
fi
done_testing
