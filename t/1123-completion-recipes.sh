#!/bin/sh
# t/1123-completion-recipes.sh - `baretma decode --recipe <TAB>` completes
# the recipes (issue 29, newcomer list: "completes nothing"): the bash
# completion (completion/baretma), sourced into bash with COMP_WORDS and
# COMP_CWORD set as bash sets them (as t/0951 and t/1085 do), offers the
# NAME:VARIANT of every recipe `baretma decode --recipes --json` lists
# (read here with this test's own parsing), those a prefix starts, after
# other options too.  bash splits a word at ':' when COMP_WORDBREAKS holds
# it, as by default (bash(1), "COMP_WORDBREAKS"): "--recipe intel-ecore-l1:sk"
# reaches the completion as the words "intel-ecore-l1", ":" and "sk", and
# readline replaces what follows the ':' only, so the variants are offered
# there; without ':' in COMP_WORDBREAKS the whole NAME:VARIANT.  Each
# offered recipe is one decode takes (its refusal of a made-up count names
# the recipe's event, not the recipe).  Before, --recipe's argument offered
# nothing.
. "$T_SRC/tap.sh"
pyq_start

comp=$T_SRC/../completion/baretma
command -v bash >/dev/null 2>&1 || skip_all "bash not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
[ -r "$comp" ] || skip_all "no completion/baretma beside t/"

# complete [WB] WORD...: what _baretma offers for the line WORD... (the last
# word the one completed), sorted, on one line; COMP_WORDBREAKS=$WB when set
complete_() {
	bash -c '
		. "$1"; shift
		[ -n "${WB+x}" ] && COMP_WORDBREAKS=$WB
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_baretma
		printf "%s\n" "${COMPREPLY[@]}"' bash "$comp" "$BARETMA" "$@" |
		LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}

"$BARETMA" decode --recipes --json >"$tmp/r.json"
all=$(pyq 'import json,sys
for r in json.load(open(sys.argv[1]))["recipes"]: print("%s:%s" % (r["recipe"], r["variant"]))' \
	"$tmp/r.json" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
like "$all" "intel-ecore-l1:gracemont .*intel-perf-metrics:golden-cove" \
	"decode --recipes --json lists the recipes (intel-ecore-l1:gracemont among them)"
pick() { # PREFIX [STRIP]: the recipes PREFIX starts, STRIP taken off each
	printf '%s\n' $all | awk -v p="$1" -v s="${2-}" 'index($0, p) == 1 { print substr($0, length(s) + 1) }' |
		tr '\n' ' ' | sed 's/ $//'
}

is "$(complete_ decode --recipe '')" "$all" "decode --recipe <TAB>: every recipe's NAME:VARIANT"
is "$(complete_ decode --recipe intel-e)" "$(pick intel-e)" "decode --recipe intel-e<TAB>: those it starts"
is "$(complete_ decode --json --level 2 --recipe amd)" "$(pick amd)" \
	"decode --json --level 2 --recipe amd<TAB>: after other options too"
like "$(pick intel-ecore-l1:)" "gracemont.*skymont" "intel-ecore-l1 has variants (gracemont, skymont ...)"
is "$(complete_ decode --recipe intel-ecore-l1 :)" "$(pick intel-ecore-l1: intel-ecore-l1:)" \
	"decode --recipe intel-ecore-l1:<TAB> (split at ':'): its variants, for after the ':'"
is "$(complete_ decode --recipe intel-ecore-l1 : sky)" "$(pick intel-ecore-l1:sky intel-ecore-l1:)" \
	"decode --recipe intel-ecore-l1:sky<TAB> (split): skymont, skymont-gp"
is "$(WB=' ' complete_ decode --recipe intel-ecore-l1:sky)" "$(pick intel-ecore-l1:sky)" \
	"without ':' in COMP_WORDBREAKS (one word): the whole NAME:VARIANT"
is "$(complete_ decode --recipe nosuch)" "" "decode --recipe nosuch<TAB>: nothing"
is "$(complete_ decode --rec)" "--recipe --recipes" "decode --rec<TAB>: the options still (--recipe, --recipes)"

bad= n=0
for r in $(complete_ decode --recipe ''); do
	n=$((n + 1))
	out=$("$BARETMA" decode --recipe "$r" --counts NO_SUCH_EVENT=1 2>&1)
	case $out in
	*"'NO_SUCH_EVENT' is no event of $r "*) ;;
	*) bad="$bad [$r: $out]" ;;
	esac
done
is "$n$bad" "$(printf '%s\n' $all | wc -l | tr -d ' ')" "each of the recipes offered is one decode --recipe takes"
done_testing
