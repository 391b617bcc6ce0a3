#!/bin/sh
# t/0951-completion.sh - the bash completion (completion/baretma) offers
# what the tool itself says: sourced into bash with COMP_WORDS/COMP_CWORD
# set as bash sets them, _baretma must complete the commands of "baretma
# --help"'s command table, bench's options of "baretma bench --help"'s usage
# lines, the kernels of its "kernels:" list, the CPUs of
# /sys/devices/system/cpu/online, --backend's values of the tool's own
# answer to a bad one, pmu's and msr's sub-commands of their usage lines,
# and file names for --cpuid-dump.  The expected lists are read here from
# the tool's output with this test's own parsing, not the completion's.
. "$T_SRC/tap.sh"

comp=$T_SRC/../completion/baretma
command -v bash >/dev/null 2>&1 || skip_all "bash not installed"
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
[ -r "$comp" ]
ok $? "completion/baretma is in the source tree"
[ -r "$comp" ] || done_testing

# complete WORD...: what _baretma offers for the command line WORD... (the
# last word being completed), sorted, on one line.
complete_() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_baretma
		printf "%s\n" "${COMPREPLY[@]}"' bash "$comp" "$BARETMA" "$@" |
		LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}
sorted() { tr ' ' '\n' | grep . | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//'; }

out=$(bash -n "$comp" 2>&1)
is "$out" "" "bash -n: the completion parses"
out=$(bash -c '. "$1"; complete -p baretma' bash "$comp" 2>&1)
is "$out" "complete -F _baretma baretma" "sourcing it registers _baretma for baretma"

# Commands: the names of the "commands:" table (two-space indent).
want=$("$BARETMA" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' | sorted)
like "$want" "bench.*version" "baretma --help lists its commands"
is "$(complete_ '')" "$want" "baretma <TAB>: the commands of baretma --help"
is "$(complete_ v)" "$(printf '%s\n' $want | grep '^v' | sorted)" "baretma v<TAB>: those starting with v"
is "$(complete_ help '')" "$want" "baretma help <TAB>: the commands"

# bench's options: every -x/--xx word of its usage lines (up to the first
# option line), a short one as the long form its option line gives it
# ("  -x, --field-separator SEP": after "--" the long forms), plus --help.
"$BARETMA" bench --help >"$tmp/bench.txt"
want=$( (sed -n '1,/^  -/p' "$tmp/bench.txt" | sed '$d' | grep -oE '(^|[[ |])--?[a-z][a-z0-9-]*' |
	sed 's/^[[ |]//' | while read -r o; do
		case $o in
		--*) echo "$o" ;;
		*) sed -n "s/^  $o, \(--[a-z][a-z0-9-]*\).*/\1/p" "$tmp/bench.txt" | head -1 ;;
		esac
	done; echo --help) | sorted)
like "$want" "--kernel" "bench's usage lines name --kernel"
is "$(complete_ bench --)" "$want" "baretma bench --<TAB>: bench's options of its --help"
is "$(complete_ bench --ker)" "--kernel" "baretma bench --ker<TAB>: --kernel"

# Kernels: bench --help's "kernels:" list.
kernels=$(sed -n '/^kernels:/,$s/^  \([a-z0-9-]*\)  .*/\1/p' "$tmp/bench.txt" | sorted)
like "$kernels" "dep-chain" "bench --help lists its kernels (dep-chain among them)"
is "$(complete_ bench --kernel '')" "$kernels" "bench --kernel <TAB>: the kernels of bench --help"
is "$(complete_ bench --kernel dep-chain,ptr)" "dep-chain,ptr-chase" \
	"bench --kernel dep-chain,ptr<TAB>: the list's next item"
is "$(complete_ compare --level 1 --kernel div)" "divider" "compare --kernel div<TAB>: divider"

# --level: the usage line's 1|2; --backend: what the tool answers to a bad one
# ("expected auto, rdpmc, ... or tsc"; "," is refused before anything runs).
is "$(complete_ bench --level '')" "1 2" "bench --level <TAB>: 1 2 (its usage line)"
ans=$("$BARETMA" bench --backend , 2>&1); rc=$?
is "$rc" 64 "bench --backend , is refused (exit 64)"
want=$(printf '%s\n' "$ans" | sed -n 's/.*expected //p' | sed 's/,/ /g; s/ or / /' | sorted)
like "$want" "rdpmc" "... naming the backends"
is "$(complete_ bench --backend '')" "$want" "bench --backend <TAB>: the backends the tool accepts"

# CPUs: the kernel's online list ("0-3,8", ranges expanded).
if [ -r /sys/devices/system/cpu/online ]; then
	want=$(tr ',' '\n' </sys/devices/system/cpu/online | awk -F- '{
		b = (NF > 1) ? $2 : $1; for (i = $1; i <= b; i++) print i }' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
	is "$(complete_ bench --cpu '')" "$want" "bench --cpu <TAB>: the online CPUs"
	is "$(complete_ msr read '')" "$want" "msr read <TAB>: the online CPUs (its CPU argument)"
	is "$(complete_ msr read --cpuid-dump x '')" "$want" "... after an option and its argument too"
else
	skip "no /sys/devices/system/cpu/online"
	skip "no /sys/devices/system/cpu/online"
	skip "no /sys/devices/system/cpu/online"
fi

# Sub-commands: "baretma pmu SUB", "baretma msr SUB" of their usage lines.
for c in pmu msr cpuid; do
	want=$("$BARETMA" "$c" --help | sed -n "s/.*baretma $c \\([a-z][a-z]*\\) .*/\\1/p; s/.*baretma $c \\([a-z][a-z]*\\)\$/\\1/p" | sorted)
	[ -n "$want" ] || want="(none in $c --help)"
	is "$(complete_ "$c" '')" "$want" "baretma $c <TAB>: the sub-commands of its usage lines"
done
want=$("$BARETMA" pmu --help | sed -n 's/.*baretma pmu status //p' | grep -oE -- '--[a-z-]+' | sorted)
is "$(complete_ pmu status --)" "$(printf '%s --help' "$want" | sorted)" "pmu status --<TAB>: status's options only"

# Files for --cpuid-dump.
mkdir "$tmp/d" && : >"$tmp/d/icl.test" && : >"$tmp/d/spr.test"
is "$(complete_ info --cpuid-dump "$tmp/d/i")" "$tmp/d/icl.test" "info --cpuid-dump <TAB>: file names"

# A binary that is not there: nothing, and no error.
out=$(bash -c '. "$1"; COMP_WORDS=(/nonexistent/baretma ""); COMP_CWORD=1; _baretma; echo "${#COMPREPLY[@]}"' \
	bash "$comp" 2>&1)
is "$out" "0" "no such baretma: nothing offered, no error"
done_testing
