#!/bin/sh
# t/0853-events-info.sh - `baretma info` on the real dumps of a Skylake, a
# Cascade Lake, a Haswell, a Jasper Lake (Tremont), an Alder Lake (its
# E-cores), a Meteor Lake (its
# E-cores), a Zen 4 and a Zen 5 names for each core kind without
# IA32_PERF_METRICS the event recipe baretma measures, its variant and the
# passes each level takes; the availability line no longer says baretma
# does not measure it.
#
# Known answers, from outside the code: each dump's microarchitecture is
# $SHARED_CPUID/INDEX.tsv's `uarch` column (checked below); which recipe
# serves it is the project's reading of the sources (Sandy Bridge to
# Cascade Lake use the pre-Ice Lake level 1 of intel/perfmon
# TMA_Metrics-full.csv; Gracemont and Crestmont the E-core tree of
# E-core_TMA_Metrics.csv; Zen 4/5 perf's amdzen4/amdzen5 pipeline.json); the
# counters come from the dump's CPUID leaf 0xA / 0x23 (INDEX.tsv
# leafA_gp_counters; leaf23 gp=FF on Meteor Lake's E-cores) and the
# passes from the recipes' events (msr/recipe/recipes_*.c, each citing its JSON):
#   Skylake, Cascade Lake (4 GP a thread): level 1 is CPU_CLK_UNHALTED on
#     fixed counter 1 and 4 GP events: 1 pass; level 2 9 more GP events
#     (4 for level 2 of the frontend, bad speculation and retiring, 5 for
#     tma_memory_bound: 4, 4 and 1 on 4 counters) and INST_RETIRED.ANY on
#     fixed counter 0: 4 passes;
#   Haswell (4 GP): level 1 the same 4 GP events: 1; level 2
#     IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE, BR_MISP_RETIRED,
#     MACHINE_CLEARS.COUNT, IDQ.MS_UOPS and the 7 GP events of
#     hsw-metrics.json's tma_memory_bound (RESOURCE_STALLS.SB,
#     RS_EVENTS.EMPTY_CYCLES, CYCLE_ACTIVITY.STALLS_LDM_PENDING and
#     .CYCLES_NO_EXECUTE, UOPS_EXECUTED.CORE_CYCLES_GE_1/2/3): 15 on 4: 4;
#   Tremont (Jasper Lake, 4 GP; INDEX.tsv "Jasper Lake (Tremont)", one
#     kind): level 1 fixed counter 1 and 4 GP events: 1; level 2
#     TOPDOWN_BAD_SPECULATION.MISPREDICT and .MONUKE: 6 on 4: 2;
#   Gracemont (6 GP): level 1 3 GP events and fixed counter 1: 1; level 2
#     5 more, 8 on 6: 2; Crestmont (8 GP): 4 then 5 more, 9 on 8: 2;
#   Zen 4, Zen 5 (6 PerfMonV2 counters): level 1 6 events: 1; level 2 6
#     more, with ls_not_halted_cyc in each pass: 3.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"

# dump|INDEX uarch|kind checked|recipe:variant|passes level 1,2
cases="libcpuid/master-history/intel/x86-64/skylake/intel-core-i7-6700k-cpu.test|Skylake-S|general|intel-pre-icl-l1:skylake|1,4
libcpuid/master-history/intel/x86-64/skylake/cascade-lake-sp-xeon-gold.test|Skylake-SP/Cascade Lake|general|intel-pre-icl-l1:skylake|1,4
libcpuid/master-history/intel/x86-64/haswell/intel-core-i7-4770-cpu.test|Haswell|general|intel-pre-icl-l1:haswell|1,4
libcpuid/v0.6.2/intel/tremont/jasper-lake-celeron.test|Jasper Lake (Tremont)|general|intel-ecore-l1:tremont|1,2
libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test|Alder Lake-S|efficiency|intel-ecore-l1:gracemont|1,2
libcpuid/master-history/intel/x86-64/redwood-cove/intel-core-ultra-7-155h.test|Meteor Lake|efficiency|intel-ecore-l1:crestmont|1,2
libcpuid/master-history/amd/zen4/epyc-genoa.test|Zen4|general|amd-zen4:zen4|1,3
libcpuid/master-history/amd/zen5/amd-ryzen-9-9950x-16-core-processor.test|Zen5|general|amd-zen5:zen5|1,3"

echo "$cases" >"$tmp/cases"
while IFS='|' read -r rel uarch kind recipe passes; do
	dump=$SHARED_CPUID/$rel
	if [ ! -r "$dump" ]; then
		skip 4 "no dump $rel"
		continue
	fi
	name=$(basename "$rel" .test)
	is "$(awk -F'\t' -v f="$rel" '$1 == f { print $9 }' "$SHARED_CPUID/INDEX.tsv")" "$uarch" \
		"$name: INDEX.tsv says $uarch"
	"$BARETMA" info --cpuid-dump "$dump" --json >"$tmp/j" 2>/dev/null
	is "$(pyq - "$tmp/j" "$kind" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = [x for x in d["core_kinds"] if x["kind"] == sys.argv[2]][0]
print("%s %s:%s %s %s" % (k["topdown_source"], k["topdown_recipe"], k["topdown_recipe_variant"],
                          k["topdown_measured"], ",".join(map(str, k["topdown_passes"]))))
EOP
)" "events $recipe True $passes" "$name: its $kind kind: recipe $recipe, measured, passes $passes"
	out=$("$BARETMA" info --cpuid-dump "$dump" 2>&1)
	p1=${passes%,*} p2=${passes#*,}
	w1=pass; [ "$p1" = 1 ] || w1=passes
	w2=pass; [ "$p2" = 1 ] || w2=passes
	like "$out" "  top-down: level 2 measured by baretma \\(rdpmc, msr\\) from events: recipe $recipe, level 1 in $p1 $w1, level 2 in $p2 $w2" \
		"$name: the text names the recipe, measured, and its passes"
	unlike "$out" "does not measure" "$name: no 'which baretma does not measure'"
done <"$tmp/cases"

# The availability line of the CPU bench would take, on the simulated PMU
# of the Skylake dump (a dry run: BARETMA_MSR=sim:PROFILE reaches its CPUs):
# Top-down level 2 available there, from the recipe.
skl=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/skylake/intel-core-i7-6700k-cpu.test
if [ -r "$skl" ]; then
	printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
	out=$(BARETMA_MSR=sim:$tmp/p "$BARETMA" info --cpuid-dump "$skl" 2>&1)
	like "$out" "topdown: +level 2 available on cpu [0-9]+ from events \(recipe intel-pre-icl-l1:skylake\)" \
		"Skylake on the simulator: level 2 available from its recipe"
	BARETMA_MSR=sim:$tmp/p "$BARETMA" info --cpuid-dump "$skl" --json >"$tmp/j" 2>/dev/null
	is "$(pyq 'import json, sys; t = json.load(open(sys.argv[1]))["topdown"]
print(t["available"], t["level"], t["recipe"])' "$tmp/j")" \
		"True 2 {'name': 'intel-pre-icl-l1', 'variant': 'skylake'}" "  and in the JSON"
else
	skip 2 "no Skylake dump"
fi

done_testing
