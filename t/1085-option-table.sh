#!/bin/sh
# t/1085-option-table.sh - each command's option table
# (bench/cli/cli_opt.h), as `baretma help --options CMD` prints it, is what
# the user is shown everywhere, and nothing else is:
#   - its --help: one option line ("  -C, --cpu LIST  ...") per row, and
#     no option line that is no row;
#   - the command's man page, man/baretma-CMD.1: each usage line of its
#     SYNOPSIS names exactly the options of its command (of its
#     subcommand: pmu enable, msr write) in the table, and its OPTIONS has
#     a tag for every row of the table, with the letter as the table gives
#     it ("-C, --cpu"), and no option word that the table lacks;
#   - the bash completion (completion/baretma): "baretma CMD [SUB] -<TAB>"
#     offers exactly the table's letters and long names, an A|B argument
#     its values, -C the CPUs.
# The lists are read here with this test's own parsing of each text.
. "$T_SRC/tap.sh"

mandir=$T_SRC/../man
comp=$T_SRC/../completion/baretma
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
[ -r "$mandir/baretma-bench.1" ] && [ -r "$comp" ] || skip_all "no man/baretma-bench.1 or completion/baretma beside t/"
sorted() { tr ' ' '\n' | grep . | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//'; }

# The commands of "baretma --help"'s table, help and version aside.
cmds=$("$BARETMA" --help | awk '/^commands:/ { c = 1; next } c && /^$/ { exit }
	c && /^  [a-z]/ && $1 != "help" && $1 != "version" { print $1 }')
like "$(echo $cmds)" "^bench stat .*msr$" "the commands of baretma --help are read"

# --- the dump: four words a line, -h/--help in every table -------------------
bad=
for c in $cmds; do
	"$BARETMA" help --options "$c" >"$tmp/t.$c" 2>"$tmp/err"; rc=$?
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] || bad="$bad $c:exit-$rc"
	awk '!(NF == 4 && $1 ~ /^(-|-[A-Za-z])$/ && $2 ~ /^--[a-z][a-z0-9-]*$/) { exit 1 }' \
		"$tmp/t.$c" || bad="$bad $c:malformed"
	grep -qx -- '-h --help - -' "$tmp/t.$c" || bad="$bad $c:no-help"
done
is "$bad" "" "help --options CMD: every command's table, one option a line, -h/--help in each"
out=$("$BARETMA" help --options frob 2>&1); rc=$?
is "$rc:$out" "64:baretma: unknown command 'frob' (try: baretma --help)" \
	"help --options of no command: 64, named"

# rows CMD [SUB]: the table's options that apply to SUB (all without one),
# as "-L --name" or "--name", one a line.
rows() {
	awk -v want="${2-}" 'want != "" && $4 != "-" && index("," $4 ",", "," want ",") == 0 { next }
		{ print ($1 == "-" ? "" : $1 " ") $2 }' "$tmp/t.$1"
}
# subs CMD: the subcommands of CMD's usage lines ("baretma pmu enable ...").
subs() {
	"$BARETMA" "$1" --help | sed -n "s/^\\(usage:\\)\\{0,1\\} *baretma $1 \\([a-z][a-z]*\\)\\b.*/\\2/p" | sort -u
}

# --- --help's option lines are the rows --------------------------------------
bad=
for c in $cmds; do
	"$BARETMA" "$c" --help | sed -nE 's/^  (-[A-Za-z], )?(--[a-z][a-z0-9-]*).*/\1\2/p' |
		sed 's/, / /' | LC_ALL=C sort >"$tmp/h.$c"
	rows "$c" | LC_ALL=C sort >"$tmp/r.$c"
	cmp -s "$tmp/h.$c" "$tmp/r.$c" || bad="$bad $c:[$(diff "$tmp/r.$c" "$tmp/h.$c" | grep '^[<>]' | tr '\n' ' ')]"
done
is "$bad" "" "every command's --help lists each row of its table, and no other option"

# --- each command's page: SYNOPSIS ----------------------------------------------
# A page as words (roff escapes for minus and fonts taken out); each usage
# line "baretma CMD [SUB] ..." of its SYNOPSIS and the indented lines under
# it, as "CMD[ SUB] OPTION" pairs.
: >"$tmp/syn"
for c in $cmds; do
	[ -r "$mandir/baretma-$c.1" ] || { echo "$c	(no page)" >>"$tmp/syn"; continue; }
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/-/g' "$mandir/baretma-$c.1" >"$tmp/page.$c"
	sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$tmp/page.$c" | grep -v '^\.' |
		awk '/^baretma / { key = $2; if ($3 ~ /^[a-z]+$/) key = key " " $3 }
		     { n = split($0, w, /[][ |()]+/)
		       for (i = 1; i <= n; i++) if (w[i] ~ /^--?[A-Za-z]/) print key "\t" w[i] }' >>"$tmp/syn"
done
like "$(cut -f1 "$tmp/syn" | sort -u | tr '\n' ' ')" "bench .*pmu enable .*stat" \
	"the SYNOPSIS usage lines of the pages are read"

# long CMD WORD: the long name of WORD ("-C" or "--cpu") in CMD's table.
long() { awk -v w="$2" '$1 == w || $2 == w { print $2; exit }' "$tmp/t.$1"; }
bad=
for c in $cmds; do
	keys=$c
	[ -n "$(subs "$c")" ] && keys=$(subs "$c" | sed "s/^/$c /")
	printf '%s\n' "$keys" | while IFS= read -r key; do
		sub=${key#"$c"}; sub=${sub# }
		man=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$tmp/syn" | while read -r w; do
			l=$(long "$c" "$w"); echo "${l:-$w(none)}"; done | sorted)
		tab=$(rows "$c" "$sub" | awk '{ print $NF }' | grep -vx -- --help | sorted)
		[ "$man" = "$tab" ] || echo "[$key: man: $man; table: $tab]"
	done
done >"$tmp/bad"
is "$(cat "$tmp/bad")" "" "each SYNOPSIS line of man/baretma-CMD.1 names exactly its command's (subcommand's) table"

# --- each command's page: OPTIONS -------------------------------------------------
# Its tags (the line after .TP), quotes out: '.BR -C ", " --cpu' is "-C, --cpu".
missing= stray= wrong=
for c in $cmds; do
	[ -r "$tmp/page.$c" ] || { missing="$missing [$c: no page]"; continue; }
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$tmp/page.$c" | awk 'p { print; p = 0 } /^\.TP/ { p = 1 }' |
		sed -e 's/^\.[A-Z]* //' -e 's/"//g' -e 's/  */ /g' -e 's/ ,/,/g' >"$tmp/tags.$c"
	while read -r l n a s; do
		[ "$n" = --help ] && continue
		tag=$n; [ "$l" = - ] || tag="$l, $n"
		grep -qE -- "(^|[ ,])$tag( |,|\$)" "$tmp/tags.$c" || missing="$missing [$c: $tag]"
	done <"$tmp/t.$c"
	awk '{ if ($1 != "-") print $1; print $2 }' "$tmp/t.$c" | sort -u >"$tmp/words.$c"
	x=$(tr ' ,' '\n\n' <"$tmp/tags.$c" | grep -E '^--?[A-Za-z]' | sort -u | grep -vxF -f "$tmp/words.$c" | tr '\n' ' ')
	[ -z "$x" ] || stray="$stray [$c: $x]"
	awk '$1 != "-" { print $1 ", " $2 }' "$tmp/t.$c" | sort -u >"$tmp/pairs.$c"
	x=$(grep -oE -- '-[A-Za-z], --[a-z][a-z0-9-]*' "$tmp/tags.$c" | sort -u | grep -vxF -f "$tmp/pairs.$c" | tr '\n' ' ')
	[ -z "$x" ] || wrong="$wrong [$c: $x]"
done
like "$(cat "$tmp"/tags.* | tr '\n' ' ')" "-C, --cpu .*-x, --field-separator" "the pages' OPTIONS tags are read"
is "$missing" "" "each page's OPTIONS has a tag for every row of its command's table, the letter as the table gives it"
is "$stray" "" "each page's OPTIONS tags no option its command's table lacks"
is "$wrong" "" "every '-L, --name' of a page's OPTIONS is its command's table's"

# --- the completion ---------------------------------------------------------
if ! command -v bash >/dev/null 2>&1; then
	skip "bash not installed"; skip "bash not installed"; skip "bash not installed"
	done_testing
fi
complete_() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_baretma
		printf "%s\n" "${COMPREPLY[@]}"' bash "$comp" "$BARETMA" "$@" | sorted
}
bad=
for c in $cmds; do
	if [ -n "$(subs "$c")" ]; then
		for s in $(subs "$c"); do
			want=$(rows "$c" "$s" | tr ' ' '\n' | sorted)
			got=$(complete_ "$c" "$s" -)
			[ "$got" = "$want" ] || bad="$bad [$c $s: got $got; want $want]"
		done
	else
		want=$(rows "$c" | tr ' ' '\n' | sorted)
		got=$(complete_ "$c" -)
		[ "$got" = "$want" ] || bad="$bad [$c: got $got; want $want]"
	fi
done
is "$bad" "" "CMD [SUB] -<TAB>: exactly the letters and long names of its table"

# An argument A|B: its values, after the letter as after the long name.
bad=
for c in $cmds; do
	[ -n "$(subs "$c")" ] && continue
	awk '$3 ~ /\|/ { print $1, $2, $3 }' "$tmp/t.$c" | while read -r l n a; do
		want=$(echo "$a" | tr '|' ' ' | sorted)
		for o in $l $n; do
			[ "$o" = - ] && continue
			got=$(complete_ "$c" "$o" '')
			[ "$got" = "$want" ] && echo "$c $o" >>"$tmp/argok" ||
				echo "[$c $o: got $got; want $want]"
		done
	done
done >"$tmp/bad"
[ "$(cat "$tmp/argok" 2>/dev/null | wc -l)" -ge 4 ] || echo "[only $(cat "$tmp/argok" 2>/dev/null | wc -l) A|B arguments checked]" >>"$tmp/bad"
is "$(cat "$tmp/bad")" "" "CMD OPT <TAB> for an A|B argument: its values, by letter or long name"
if [ -r /sys/devices/system/cpu/online ]; then
	want=$(tr ',' '\n' </sys/devices/system/cpu/online | awk -F- '{
		b = (NF > 1) ? $2 : $1; for (i = $1; i <= b; i++) print i }' | sorted)
	is "$(complete_ bench -C '')" "$want" "bench -C <TAB>: the online CPUs, as --cpu"
else
	skip "no /sys/devices/system/cpu/online"
fi
done_testing
