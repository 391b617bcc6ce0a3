#!/bin/sh
# t/0954-coming-from.sh - the README's "Coming from perf, toplev, LIKWID or
# PCM" table promises only what the tool has: in its last column, every
# `baretma CMD ...` whose CMD is a command of "baretma --help" uses only
# options that "baretma CMD --help" names (a CMD the tool does not have yet
# is left out: it is checked once it exists), and every option written
# alone (`--level 2`) is one that some command's --help names.
. "$T_SRC/tap.sh"

readme=$T_SRC/../README.md
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
[ -r "$readme" ] || skip_all "no README.md beside t/"

cmds=$("$BARETMA" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
sed -n '/^## Coming from perf, toplev, LIKWID or PCM/,/^## /p' "$readme" |
	grep '^| ' | sed 1,2d | awk -F' [|] ' '{ print $NF }' >"$tmp/col"
is "$(wc -l <"$tmp/col" | tr -d ' ')" "$(sed -n '/^## Coming from/,/^## /p' "$readme" | grep -c '^| ' | awk '{ print $1 - 2 }')" \
	"the table's rows are read"
like "$(cat "$tmp/col")" "baretma stat" "... their last column (baretma's side)"

# Per row, its code spans in order: a span "baretma CMD ..." names the
# command its options (and the lone options after it in the row) belong to.
: >"$tmp/allhelp"
for c in $cmds; do "$BARETMA" "$c" --help >>"$tmp/allhelp" 2>/dev/null; done
has() { grep -qE -- "(^|[^a-z-])$1([^a-z-]|\$)" "$2"; }

bad=
checked=0
while IFS= read -r row; do
	cur=any
	printf '%s\n' "$row" | grep -o '`[^`]*`' | tr -d '`' >"$tmp/spans"
	while IFS= read -r span; do
		case $span in
		"baretma "*)
			c=$(printf '%s\n' "$span" | awk '{ print $2 }')
			if printf '%s\n' $cmds | grep -qx -- "$c"; then
				cur=$c
				"$BARETMA" "$c" --help >"$tmp/help.$c" 2>/dev/null
			else
				cur=none	# not a command of this build (yet)
			fi ;;
		-D*) continue ;;	# a compiler flag
		-*) ;;
		*) continue ;;
		esac
		[ "$cur" = none ] && continue
		h=$tmp/allhelp
		[ "$cur" = any ] || h=$tmp/help.$cur
		for o in $(printf '%s\n' "$span" | tr ' ' '\n' | grep -E '^--?[A-Za-z]'); do
			checked=$((checked + 1))
			has "$o" "$h" || bad="$bad [$span: $o]"
		done
	done <"$tmp/spans"
done <"$tmp/col"
[ "$checked" -ge 5 ]
ok $? "options of existing commands were checked ($checked)"
is "$bad" "" "every option the table gives to an existing command is in that command's --help"
done_testing
