#!/bin/sh
# t/1119-man-pages.sh - one man page per command, as git and perf have them
# (issue 29): every command of the command table (bench/cli/cli_cmds.c, a
# group's entry for its subcommands) has man/baretma-CMD.1, installed
# (Makefile.am's dist_man_MANS; t/0700 checks the installed files), listed
# in man/baretma.1's COMMANDS and SEE ALSO; each page is titled for its
# command, has the sections of man-pages(7) it needs, names every exit
# status of its command's --help, and renders without a warning where groff
# and man are installed; no page names a command the table lacks.  The
# SYNOPSIS and OPTIONS of each page are t/1085's.
. "$T_SRC/tap.sh"

TOP=$T_SRC/..
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
# The commands of the table, read from its source: "{ "NAME", &cmd_..." without a space.
cmds=$(sed -n 's/^[[:space:]]*{ "\([a-z]*\)", &cmd_.*/\1/p' "$TOP/bench/cli/cli_cmds.c")
is "$(echo $cmds)" "bench compare validate calibrate stat report info decode pmu cpuid msr" \
	"the command table's commands are read (bench/cli/cli_cmds.c)"
pages=$(cd "$TOP/man" && ls baretma-*.1 | sed 's/^baretma-\(.*\)\.1$/\1/' | LC_ALL=C sort | tr '\n' ' ')
is "$pages" "$(printf '%s\n' $cmds | LC_ALL=C sort | tr '\n' ' ')" "man/: one baretma-CMD.1 per command, no other"

am=$(sed -n '/^dist_man_MANS = /,/[^\\]$/p' "$TOP/Makefile.am" | tr ' \\\t' '\n\n\n' | grep '^man/')
ov=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$TOP/man/baretma.1")
bad=
for c in $cmds; do
	printf '%s\n' "$am" | grep -qx "man/baretma-$c.1" || bad="$bad $c:not-installed"
	sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$TOP/man/baretma.1" | grep -qx ".BR baretma\\\\-$c (1)" || bad="$bad $c:not-in-COMMANDS"
	sed -n '/^\.SH SEE ALSO/,$p' "$TOP/man/baretma.1" | grep -q "^\\.BR baretma\\\\-$c (1)" || bad="$bad $c:not-in-SEE-ALSO"
done
is "$bad" "" "every page is in dist_man_MANS, and in baretma.1's COMMANDS and SEE ALSO"
printf '%s\n' "$am" | grep -qx man/baretma.1 && printf '%s\n' "$am" | grep -qx man/baretma.3
ok $? "dist_man_MANS keeps baretma.1 and baretma.3"

for c in $cmds; do
	p=$TOP/man/baretma-$c.1
	up=$(echo "$c" | tr a-z A-Z)
	grep -q "^\\.TH BARETMA\\\\-$up 1 " "$p" && sed -n '/^\.SH NAME/{n;p;}' "$p" | grep -q "^baretma\\\\-$c \\\\- "
	ok $? "baretma-$c.1: titled BARETMA-$up(1), NAME 'baretma-$c - ...'"
	miss=
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT EXAMPLES "SEE ALSO"; do
		grep -qx "\\.SH $s" "$p" || miss="$miss $s"
	done
	is "$miss" "" "baretma-$c.1: the sections NAME .. SEE ALSO"
	# every status of "baretma CMD --help"'s exit status paragraph
	codes=$("$BARETMA" "$c" --help | sed -n '/^exit status:/,/^$/p' | grep -oE '(^|[ (,;])[0-9]+ [a-z]' |
		grep -oE '[0-9]+' | sort -un)
	st=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$p" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g')
	miss=
	for n in $codes; do
		printf '%s\n' "$st" | grep -qE "(^|[ (,;])$n( |$)" || miss="$miss $n"
	done
	[ -n "$codes" ] && [ -z "$miss" ]
	ok $? "baretma-$c.1: EXIT STATUS names every status of $c --help ($(echo $codes))${miss:+; missing:$miss}"
	if command -v groff >/dev/null 2>&1; then
		is "$(groff -man -ww -z -Tutf8 "$p" 2>&1)" "" "baretma-$c.1: groff -man -ww renders it without a warning"
	else
		skip "groff not installed"
	fi
	if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
		is "$(MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)" "" "baretma-$c.1: man -l renders it without a warning"
	else
		skip "man or groff not installed"
	fi
done
done_testing
