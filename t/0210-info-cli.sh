#!/bin/sh
# t/0210-info-cli.sh - `baretma info` on real CPUID dumps and on this machine.
# Known answers: ../shared/cpuid/INDEX.tsv rows (Ice Lake i7-1065G7: family 6
# model 0x7E, level 1, 8 logical CPUs; Alder Lake-P i7-12700H: P-cores level 2,
# E-cores 0) and /proc/cpuinfo for the live machine.
. "$T_SRC/tap.sh"
pyq_start

# json FILE EXPR: evaluate a Python expression over the document `d`.
json() {
	pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

have_py=no
command -v python3 >/dev/null 2>&1 && have_py=yes

# --- live machine ------------------------------------------------------------
# "This machine" is the real CPU (/proc/cpuinfo) or, with the live-CPU seam
# of the test build ($BARETMA_TEST_LIVE_CPUID, t/live-fixture.sh), a dump's:
# live_facts reads the known answers from there without baretma.  The
# machine runs its own branch; the seam runs the two Intel ones on any
# machine: a real Emerald Rapids KVM guest without a virtual PMU (t/data)
# and the Ice Lake i7-1065G7 ($SHARED_CPUID/INDEX.tsv: level 1).
. "$T_SRC/live-fixture.sh"
# live BIN LABEL: info and info --json of the live CPU BIN sees (live_facts set)
live() {
	_b=$1 _l=$2
	out=$("$_b" info 2>&1); rc=$?
	is "$rc" 0 "$_l: live info exits 0"
	like "$out" '^source: +live' "$_l: live info says its source"
	if [ -n "$live_vendor" ] && [ "$live_vendor" != GenuineIntel ]; then
		# a Zen 4/5 names its recipe and the counters CPUID hides (a guest)
		like "$out" "topdown: +unavailable on cpu [0-9]+: (CPU vendor is $live_vendor .*not Intel|.*has the recipe amd-zen[45], which counts 6 events at once on the core counters PERF_CTL0-5; CPUID enumerates [0-5] )" \
			"$_l: live reason: vendor $live_vendor is not Intel, or its Zen recipe lacks counters"
	elif [ "$live_pmu" = 0 ] && [ "$live_hv" = 1 ]; then
		like "$out" "topdown: +unavailable on cpu [0-9]+: running under a hypervisor \(.+\) without a virtual PMU" \
			"$_l: live reason: Intel under a hypervisor without a virtual PMU"
	elif [ "$live_pmu" = 0 ]; then
		like "$out" "topdown: +unavailable on cpu [0-9]+: CPUID leaf 0xA reports architectural perfmon version 0" \
			"$_l: live reason: Intel without an architectural PMU"
	else
		like "$out" 'topdown: +(level [12] available|unavailable on cpu [0-9]+: .+)' \
			"$_l: live Top-down line (Intel with a PMU, or an unknown vendor)"
	fi
	if [ "$have_py" = yes ] && [ -n "$live_vendor" ]; then
		"$_b" info --json >"$tmp/live.json"; rc=$?
		is "$rc" 0 "$_l: live info --json exits 0"
		is "$(json "$tmp/live.json" 'd["vendor"]')" "$live_vendor" "$_l: live vendor matches"
		is "$(json "$tmp/live.json" 'd["family"]')" "$live_family" "$_l: live family matches"
		is "$(json "$tmp/live.json" 'd["model"]')" "$live_model" "$_l: live model matches"
		is "$(json "$tmp/live.json" 'any(d["cpu"] in k["cpus"] for k in d["core_kinds"])')" True \
			"$_l: live chosen cpu belongs to a core kind"
	else
		for i in 1 2 3 4 5; do skip "no python3 or no /proc/cpuinfo vendor"; done
	fi
}
live_facts
live "$BARETMA" "this machine"
export BARETMA_TEST_LIVE_CPUID
BARETMA_TEST_LIVE_CPUID=$T_DATA/cpuid-emr-kvm-novpmu.txt
live_facts
live "$BARETMA_HOOKS" "seam EMR guest"
like "$out" "hypervisor: +KVM" "seam EMR guest: the hypervisor (leaves 0x40000000: KVMKVMKVM)"
like "$out" "pmu: +no architectural perfmon \(CPUID leaf 0xA version 0\)" "seam EMR guest: leaf 0xA all zero"
like "$out" "hypervisor: +KVM, virtual PMU no" "seam EMR guest: this machine's environment is the guest's"
BARETMA_TEST_LIVE_CPUID=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
if [ -r "$BARETMA_TEST_LIVE_CPUID" ]; then
	live_facts
	live "$BARETMA_HOOKS" "seam Ice Lake"
	like "$out" "topdown: +unavailable on cpu [0-9]+: no MSR device '/nonexistent/baretma-test/cpu/[0-9]+/msr'" \
		"seam Ice Lake: Top-down by CPUID, stopped at the first register access (the tests' MSR path)"
else
	for i in 1 2 3 4 5 6 7 8; do skip "no Ice Lake dump"; done
fi
unset BARETMA_TEST_LIVE_CPUID

# --- errors ------------------------------------------------------------------
out=$("$BARETMA" info --cpuid-dump /nonexistent/baretma.dump 2>&1); rc=$?
is "$rc" 66 "missing dump: exit 66 (EX_NOINPUT)"
like "$out" "cannot load CPUID dump '/nonexistent/baretma.dump'" "missing dump: message names the file"
printf 'this is not\na CPUID dump\n' >"$tmp/junk.txt"
out=$("$BARETMA" info --cpuid-dump "$tmp/junk.txt" 2>&1); rc=$?
is "$rc" 65 "junk dump: exit 65 (EX_DATAERR)"
like "$out" "cannot load CPUID dump '$tmp/junk.txt': not a CPUID dump" "junk dump: message names the file and the cause"
out=$("$BARETMA" info --no-such-option 2>&1); rc=$?
is "$rc" 64 "unknown option: exit 64 (EX_USAGE)"
out=$("$BARETMA" info --help 2>&1); rc=$?
is "$rc" 0 "--help exits 0"
like "$out" 'usage: baretma info' "--help prints the usage"

# --- real dumps --------------------------------------------------------------
icl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"
adl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test"
if [ "$have_py" != yes ] || [ ! -f "$icl" ] || [ ! -f "$adl" ]; then
	for i in $(seq 1 13); do skip "no python3 or no \$SHARED_CPUID dumps"; done
	done_testing
fi

"$BARETMA" info --cpuid-dump "$icl" --json >"$tmp/icl.json"; rc=$?
is "$rc" 0 "Ice Lake dump: exit 0"
is "$(json "$tmp/icl.json" 'd["family"]')" 6 "Ice Lake dump: family 6"
is "$(json "$tmp/icl.json" 'd["model"]')" 126 "Ice Lake dump: model 126 (0x7E, INTEL_ICELAKE_L)"
is "$(json "$tmp/icl.json" '[k["topdown_level"] for k in d["core_kinds"]]')" "[1]" \
	"Ice Lake dump: one kind, Top-down level 1"
is "$(json "$tmp/icl.json" '(d["pmu"]["version"], d["pmu"]["fixed_counters"], d["pmu"]["topdown_slots_event"])')" \
	"(5, 4, True)" "Ice Lake dump: leaf 0xA v5, 4 fixed counters, TOPDOWN.SLOTS"
is "$(json "$tmp/icl.json" 'd["topdown"]["available"]')" False \
	"Ice Lake dump: not available here (the dump is another machine: no state file)"

"$BARETMA" info --cpuid-dump "$adl" --json >"$tmp/adl.json"; rc=$?
is "$rc" 0 "Alder Lake-P dump: exit 0"
is "$(json "$tmp/adl.json" 'sorted((k["core_type"], k["topdown_level"], len(k["cpus"])) for k in d["core_kinds"])')" \
	"[(32, 0, 8), (64, 2, 12)]" "Alder Lake-P dump: E-cores level 0 (8 CPUs), P-cores level 2 (12 CPUs)"
is "$(json "$tmp/adl.json" '[k["topdown_level"] for k in d["core_kinds"] if d["cpu"] in k["cpus"]]')" "[2]" \
	"Alder Lake-P dump: the chosen CPU is a P-core"

out=$("$BARETMA" info --cpuid-dump "$adl" 2>&1); rc=$?
like "$out" 'kind: +performance \(core type 0x40\): Golden Cove, 6 slots/cycle, fixed counter 3 yes, cpus 0-11$' \
	"Alder Lake-P text: performance kind line"
like "$out" 'kind: +efficiency \(core type 0x20\): Gracemont, 5 slots/cycle, fixed counter 3 no, cpus 12-19$' \
	"Alder Lake-P text: efficiency kind line"

out=$(BARETMA_CPUID_DUMP="$icl" "$BARETMA" info 2>&1)
like "$out" 'model 0x7E \(126\)' "BARETMA_CPUID_DUMP is honoured"
"$BARETMA" info --cpuid-dump "$icl" --cpu 8 >/dev/null 2>&1; rc=$?
is "$rc" 64 "Ice Lake dump has 8 CPUs: --cpu 8 is a usage error"

# --- per-kind blocks, recipes, warnings ---------------------------------------
# Known answers (each from outside the code):
#   Alder Lake-P i7-12700H: INDEX.tsv leaf 0xA 07300605-...-00000007-00008603
#     (6 GP, fixed mask 0x7); linux intel_pmu_init ALDERLAKE_L on a hybrid
#     part: P-core GP mask <<2|3 = 0xff, fixed mask <<1|1 = 0xf; E-core
#     (Gracemont) keeps leaf 0xA; Gracemont recipe: intel/perfmon E-core_TMA_Metrics.csv.
#   Arrow Lake-S Ultra 7 265K: INDEX.tsv hybrid yes, kinds 0x40/3 x8 and
#     0x20/3 x12, leaf 0x23.1 P gp=3FF (10 GP) fixed=F, E gp=FF fixed=77;
#     Lion Cove P-core has RDPMC metrics-clear (linux commit 0e45818ec189);
#     Skymont E-core: events (intel/perfmon E-core_TMA_Metrics.csv).
#   Ryzen 9 7900X (Zen 4, family 0x19 model 0x61): events, recipe amd-zen4
#     (perf's amdzen4/pipeline.json), 6 core counters (INDEX.tsv:
#     PerfCtrExtCore=True; linux arch/x86/events/amd/core.c).
#   Sandy Bridge i7-2600K: INDEX.tsv leaf 0xA 4 GP, 3 fixed (EDX[4:0]);
#     pre-ICL recipe (intel/perfmon TMA_Metrics-full.csv, SNB column).
#   t/data/intel-unknown-f1-fc3.aida64.txt: family 6 model 0xF1 (not in
#     intel-family.h), leaf 0xA ECX bit 3 (its header): FC3 yes, PERF_METRICS
#     undecided from a dump.
#   hwloc/Intel-RaptorLake-Corei7-1370P: INDEX.tsv format hwloc, hybrid yes,
#     12 P + 8 E CPUs.
arl="$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-7-265k.test"
zen4="$SHARED_CPUID/libcpuid/v0.6.2/amd/zen4/ryzen9-raphael.test"
snb="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_2nd_gen/sandy-bridge-i7.test"
rpl="$SHARED_CPUID/hwloc/Intel-RaptorLake-Corei7-1370P"
unk="$T_DATA/intel-unknown-f1-fc3.aida64.txt"
if [ ! -f "$arl" ] || [ ! -f "$zen4" ] || [ ! -f "$snb" ] || [ ! -d "$rpl" ]; then
	for i in $(seq 1 28); do skip "no python3 or no \$SHARED_CPUID dumps"; done
	done_testing
fi

out=$("$BARETMA" info --cpuid-dump "$adl" 2>&1)
like "$out" '^  counters: 8 GP x 48 bits \(mask 0xff\), 4 fixed \(mask 0xf\); source: CPUID leaf 0xA \+ kernel ADL/RPL P-core rule' \
	"Alder Lake-P text: P-core counters after the kernel rule"
like "$out" '^  counters: 6 GP x 48 bits \(mask 0x3f\), 3 fixed \(mask 0x7\)' "Alder Lake-P text: E-core counters from leaf 0xA"
like "$out" '  PERF_METRICS: level 2 \(.+\), RDPMC metrics-clear no' \
	"Alder Lake-P text: P-core PERF_METRICS level 2"
like "$out" '  top-down: level [12] measured by baretma \(rdpmc, msr\) from events: recipe intel-ecore-l1:gracemont' \
	"Alder Lake-P text: E-core recipe, measured"
unlike "$out" '^warning:' "Alder Lake-P text: no warning for a known model"
like "$out" "^source: +$adl \(aida64 dump\)" "Alder Lake-P text: source names the format"

"$BARETMA" info --cpuid-dump "$arl" --json >"$tmp/arl.json"; rc=$?
is "$rc" 0 "Arrow Lake dump: exit 0"
is "$(json "$tmp/arl.json" '(d["hybrid"], len(d["core_kinds"]), d["warning"])')" "(True, 2, None)" \
	"Arrow Lake JSON: hybrid true, two kinds, warning null"
is "$(json "$tmp/arl.json" '[(k["kind"], k["metrics_clear"], k["topdown_source"], k["topdown_recipe"]) for k in d["core_kinds"]]')" \
	"[('performance', True, 'perf_metrics', None), ('efficiency', False, 'events', 'intel-ecore-l1')]" \
	"Arrow Lake JSON: P-core metrics_clear, E-core events/intel-ecore-l1"
is "$(json "$tmp/arl.json" '[(k["gp_counters"], k["gp_width"], k["fixed_counters"], k["fixed_mask"]) for k in d["core_kinds"]]')" \
	"[(10, 48, 4, 15), (8, 48, 6, 119)]" "Arrow Lake JSON: counters from leaf 0x23.1 (P 0x3ff/0xf, E 0xff/0x77)"
is "$(json "$tmp/arl.json" 'd["source"]["format"]')" aida64 "Arrow Lake JSON: source format aida64"
is "$(json "$tmp/arl.json" 'd["source"]["path"]')" "$arl" "Arrow Lake JSON: source path"
# Every key of the first version is still there, with the new ones.
is "$(json "$tmp/arl.json" 'all(x in d for x in ("vendor","family","model","stepping","brand","hypervisor","pmu","core_kinds","hybrid","warning","source")) and all(x in d["pmu"] for x in ("version","gp_counters","gp_width","fixed_counters","fixed_width")) and all(x in k for k in d["core_kinds"] for x in ("kind","uarch","pipeline_width","topdown_level","cpus","gp_counters","gp_width","fixed_counters","fixed_mask","metrics_clear","topdown_source","topdown_recipe"))')" \
	True "Arrow Lake JSON: old and new keys present"
out=$("$BARETMA" info --cpuid-dump "$arl" 2>&1)
like "$out" 'RDPMC metrics-clear yes' "Arrow Lake text: metrics-clear yes on the P-core"

"$BARETMA" info --cpuid-dump "$zen4" --json >"$tmp/zen4.json"; rc=$?
is "$rc" 0 "Zen 4 dump: exit 0"
is "$(json "$tmp/zen4.json" '[(k["uarch"], k["topdown_source"], k["topdown_recipe"], k["gp_counters"], k["fixed_counters"], k["metrics_clear"]) for k in d["core_kinds"]]')" \
	"[('Zen 4', 'events', 'amd-zen4', 6, 0, False)]" "Zen 4 JSON: events, recipe amd-zen4, 6 core counters"
out=$("$BARETMA" info --cpuid-dump "$zen4" 2>&1)
like "$out" '  top-down: level 2 measured by baretma \(rdpmc, msr\) from events: recipe amd-zen4:zen4' \
	"Zen 4 text: recipe, measured"

"$BARETMA" info --cpuid-dump "$snb" --json >"$tmp/snb.json"; rc=$?
is "$rc" 0 "Sandy Bridge dump: exit 0"
is "$(json "$tmp/snb.json" '[(k["topdown_source"], k["topdown_recipe"], k["gp_counters"], k["fixed_counters"], k["fixed_mask"], k["fixed_ctr3"]) for k in d["core_kinds"]]')" \
	"[('events', 'intel-pre-icl-l1', 4, 3, 7, False)]" "Sandy Bridge JSON: events, intel-pre-icl-l1, 4 GP, 3 fixed"

out=$("$BARETMA" info --cpuid-dump "$unk" 2>&1); rc=$?
is "$rc" 0 "unknown-model dump: exit 0"
like "$out" 'fixed counter 3 yes, cpus ' "unknown model text: FC3 yes"
like "$out" '  PERF_METRICS: undecided: IA32_PERF_CAPABILITIES bit 15 not read' \
	"unknown model text: PERF_METRICS undecided"
like "$out" '  top-down: undecided' "unknown model text: top-down undecided"
like "$out" "^warning: +family 6 model 0xf1 is not in baretma's model table: fixed counter 3 from CPUID leaf 0xA \(ECX bit 3\); PERF_METRICS undecided" \
	"unknown model text: warning line"
like "$out" "topdown: +unavailable on cpu [0-9]+: .*no IA32_PERF_METRICS known to baretma: family 6 model 0xf1" \
	"unknown model: the availability reason carries the warning"
"$BARETMA" info --cpuid-dump "$unk" --json >"$tmp/unk.json"
is "$(json "$tmp/unk.json" '(d["model_known"], d["core_kinds"][0]["fixed_ctr3"], d["core_kinds"][0]["topdown_source"], d["core_kinds"][0]["topdown_recipe"], "not in baretma" in d["warning"])')" \
	"(False, True, 'undecided', None, True)" "unknown model JSON: FC3, undecided, warning string"

"$BARETMA" info --cpuid-dump "$rpl" --json >"$tmp/rpl.json"; rc=$?
is "$rc" 0 "hwloc directory dump: exit 0"
is "$(json "$tmp/rpl.json" '(d["source"]["format"], d["hybrid"], sorted((k["core_type"], len(k["cpus"]), k["topdown_level"]) for k in d["core_kinds"]))')" \
	"('hwloc', True, [(32, 8, 0), (64, 12, 2)])" "hwloc RPL-P directory: format hwloc, 12 P (level 2) + 8 E"
done_testing
