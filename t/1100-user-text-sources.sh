#!/bin/sh
# t/1100-user-text-sources.sh - what users read cites sources they can open,
# and never the project's internals: no command prints the name of the
# internal reference sheet (its sections cited by number, a document a clone
# of the project does not have: STYLE.md "Cite primary sources") nor a file of
# ours (cpu/X.c, msr/X.h, bench/X.c) nor one of our constant names
# (TD_L1_SUM_TOLERANCE) nor a sheet's section by number; and no file of the tree (code, tests, docs, man
# page; t/data's fixtures aside) names the sheet or cites one of its
# sections by number alone (a section sign and a number that name no work;
# Conover's book, cited with its section, is one that does).
# Run on the simulated PMU of real CPUID dumps (t/sim-fixture.sh: Ice Lake,
# Sapphire Rapids, Alder Lake-P; and Skylake, Zen 4 and Lunar Lake, whose
# recipes, kinds and metrics-clear mode print other lines): bench, stat,
# compare, info, validate, calibrate, and decode --recipes, text and JSON,
# stdout and stderr; each exits 0 (so its whole output was printed), compare
# 0 or 1 (README "Exit status": 1 is a DISAGREE, which the simulator's
# noise gives at most 5% of runs; its output is whole either way).
. "$T_SRC/tap.sh"

. "$T_SRC/sim-fixture.sh"
SKL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/skylake/intel-core-i7-6700k-cpu.test
ZEN4=$SHARED_CPUID/libcpuid/master-history/amd/zen4/epyc-genoa.test
LNL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test
for d in "$SKL" "$ZEN4" "$LNL"; do
	[ -r "$d" ] || skip_all "no CPUID dump $d"
done

# The sheet's name, spelt in two pieces, and the section sign (U+00A7 in
# UTF-8) as bytes, so that this file holds neither; JSON writes the sign
# as \u00A7.
SHEET='pmu''-reference'
SECT=$(printf '\302\247')
LEAK="$SHEET|$SECT[0-9]|\\\\u00[Aa]7[0-9]|\\b(cpu|msr|bench)/[a-z_0-9]+\\.[ch]\\b|\\bTD_[A-Z0-9_]+\\b"

# The pattern finds what it is for (and nothing in a clean source line).
like "source: baretma's model table (cpu/cpu_models.c: x)" "$LEAK" "pattern: a C file of ours"
like "within TD_L1_SUM_TOLERANCE (msr/topdown.h)" "$LEAK" "pattern: a constant and a header of ours"
like "(${SHEET} ${SECT}2.4, ${SECT}2.5)" "$LEAK" "pattern: the sheet"
like "no PERF_METRICS without it (${SECT}3.1): level 0" "$LEAK" "pattern: a section alone"
like '"source": "x (\u00A72.1)"' "$LEAK" "pattern: a section alone, JSON-escaped"
unlike "(linux arch/x86/events/intel/core.c intel_pmu_init; tools/perf/Documentation/topdown.txt)" \
	"$LEAK" "pattern: the kernel's files are not ours"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
printf 'heavy_operations 10\nbranch_mispredicts 5\nfetch_latency 12\nmemory_bound 18\n' >>"$tmp/p"

# run NAME ARGS...: ARGS on the simulated PMU of $dump, stdout and stderr
# in $tmp/out; exit 0 (compare: 0 or 1) and nothing internal in either
run() {
	_name=$1
	shift
	st=0
	BARETMA_MSR=sim:$tmp/p "$BARETMA" "$@" >"$tmp/out" 2>&1 || st=$?
	[ "$1" = compare ] && [ "$st" = 1 ] && st=0
	is "$st" 0 "$dname $_name: exit 0"
	unlike "$(cat "$tmp/out")" "$LEAK" "$dname $_name: no internal source named"
}

for dname in ICL SPR ADL SKL ZEN4 LNL; do
	eval dump=\$$dname
	for j in "" --json; do
		run "bench $j" bench --cpuid-dump "$dump" --reps 3 $j
		run "stat $j" stat --cpuid-dump "$dump" $j -- true
		run "compare $j" compare --cpuid-dump "$dump" --reps 5 --pairs 12 \
			--kernel retire-light,heavy-ops $j
		run "info $j" info --cpuid-dump "$dump" $j
		run "validate $j" validate --cpuid-dump "$dump" $j
		# its text gives each check's source: the lines looked at here
		if [ -z "$j" ]; then
			like "$(cat "$tmp/out")" "^ +source: " \
				"$dname validate: its checks name their sources"
		fi
		run "calibrate $j" calibrate --cpuid-dump "$dump" --reps 21 $j
	done
done
dname=any
run "decode --recipes" decode --recipes
run "decode --recipes --json" decode --recipes --json

# The tree: every file the project ships or builds from (t/data's fixtures
# aside; logs of an in-tree build left out), relative to the top.
top=$T_SRC/..
files=$(cd "$top" && for p in README.md Makefile.am configure.ac libbaretma.sym baretma.pc.in \
		.ci bench completion cpu doc examples fuzz include m4 man msr t; do
		[ -e "$p" ] && find "$p" -type f ! -name '*.log' ! -name '*.trs' ! -path 't/data/*'
	done)
# one grep over every file (xargs), not one process a file
named=$(cd "$top" && printf '%s\n' "$files" | xargs grep -Il -e "$SHEET")
is "$named" "" "no file of the tree names the sheet"
bare=$(cd "$top" && printf '%s\n' "$files" | xargs grep -IHn -e "$SECT *[0-9]" |
	grep -v -e 'Conover' -e "ed\., $SECT" | head -20)
is "$bare" "" "no file of the tree cites a section by number alone"

done_testing
