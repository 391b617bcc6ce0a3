#!/bin/sh
# t/0850-events-bench.sh - `baretma bench` measures Top-down with an event
# recipe where the core has no IA32_PERF_METRICS: an Alder Lake E-core
# (intel-ecore-l1, Gracemont), a Cascade Lake with SMT (intel-pre-icl-l1,
# Skylake), a Haswell with SMT (intel-pre-icl-l1, Haswell), a Jasper Lake
# (intel-ecore-l1, Tremont), a Zen 4 and a Zen 5 (amd-zen4, amd-zen5), each on the
# simulated PMU (msr/sim/msr_sim.h) of its real CPUID dump, through --backend
# msr, at level 1 and at level 2 (in passes where the core has fewer
# counters than the recipe has events), and reports the profile's shares.
#
# Every expected number is worked by hand below from the profile, the
# simulator's documented counting (msr/sim/msr_sim.h "General-purpose
# counters", msr/sim/sim_events.c: width x a share per cycle; SMT halving) and
# the recipes' cited formulas (intel/perfmon E-core_TMA_Metrics.csv and
# perf's alderlaken metrics, perf's skylake skl-metrics.json with its SMT
# forms, perf's amdzen4/amdzen5 pipeline.json), never read back from the
# code.  Widths: pmu-tools / perf (Gracemont 5, Skylake 4, Zen 4 6, Zen 5 8).
#
# The clock: `ghz 0` - only accesses (N = 1000 cycles each) and the hidden
# kernel test-sim-work (K = 100000 cycles of work a call, msr_sim_work)
# advance it; the accesses count at the same shares as the work (no
# access_* key), so every count is its share x width x cycles.  A region
# reads each counter once at each end (msr source: one access each), so
# each counter's delta is n.N + K, n the counters read; the empty
# bracket's n.N is subtracted: a region's net slots are W x K.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/events-fixture.sh"
events_dumps "$ADLS" "$CLX" "$ZEN4" "$ZEN5"

# Profiles: level 1 40/10/20/30 (AMD: backend 25 and smt_contention 5),
# level 2 heavy 10, branch mispredicts 6, fetch latency 12, memory bound
# 18 (AMD 15).
common=$sim_common
printf '%s\nbackend_bound 30\nmemory_bound 18\n' "$common" >"$tmp/intel"
# SMT: the sibling runs the same work; instructions 0.6 a cycle (below)
printf '%s\nbackend_bound 30\nmemory_bound 18\nsmt on\nipc 0.6\n' "$common" >"$tmp/clx"
printf '%s\nbackend_bound 25\nsmt_contention 5\nmemory_bound 15\n' "$common" >"$tmp/amd"

# run NAME DUMP PROFILE CPU ARGS...: bench --backend msr of test-sim-work
run() {
	_n=$1 _d=$2 _p=$3 _c=$4
	shift 4
	BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$_d BARETMA_MSR=sim:$_p "$BARETMA_HOOKS" bench \
		--backend msr --cpu "$_c" --kernel test-sim-work --reps 9 --warmup 1 "$@" \
		>"$tmp/$_n" 2>"$tmp/$_n.err"
}

# q FILE EXPR: a Python expression over the document d and the kernel k
q() {
	pyq - "$1" "$2" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = dict((x["name"], x) for x in d["kernels"])["test-sim-work"]
e = dict((x["name"], x) for x in d["kernels"])["empty"]
nodes = sorted(n for n in k if n.startswith("tma_") or n == "smt_contention")
def off(want):
    return [(n, k[n]["median"], want[n]) for n in nodes
            if n not in want or abs(k[n]["median"] - want[n]) > 0.01 or k[n]["bound_pp"] != 0]
print(eval(sys.argv[2]))
EOP
}

# check NAME LEVEL RECIPE VARIANT PASSES SMT SLOTS WANT: the document's
# recipe, passes, SMT, bound, the 9 valid repetitions, the net slots and
# every node the recipe defines (and no other) within 0.01 of WANT, with
# bound_pp 0 (exact counts).
check() {
	f=$tmp/$1
	is "$(q "$f" '(d["topdown"]["level"], d["topdown"]["recipe"]["name"],
		d["topdown"]["recipe"]["variant"], d["topdown"]["passes"], d["topdown"]["smt_on"])')" \
		"($2, '$3', '$4', $5, $6)" "$1: level $2 from recipe $3:$4 in $5 pass(es), smt_on $6"
	like "$(q "$f" 'd["topdown"]["bound"]')" "no quantisation" "$1: the bound says what bounds it"
	is "$(q "$f" '(k["repetitions"], k["invalid"], k["slots"]["median"], k["bound_pp"])')" \
		"(9, 0, $7, 0.0)" "$1: 9 valid repetitions, net slots $7, bound 0"
	is "$(q "$f" "off($8)")" "[]" "$1: every node the recipe defines, the profile's (+/- 0.01)"
	is "$(q "$f" "nodes")" "$(pyq "print(sorted($8))")" "$1: exactly the recipe's nodes"
}

# --- Alder Lake E-core (Gracemont, W = 5) -------------------------------------
# intel-ecore-l1:gracemont (E-core_TMA_Metrics.csv GRT; perf alderlaken):
#   SLOTS = 5 x CPU_CLK_UNHALTED.CORE = 5 x K = 500000
#   tma_frontend_bound = TOPDOWN_FE_BOUND.ALL / SLOTS = 5 x 0.20 K / 5K = 20
#   tma_backend_bound  = TOPDOWN_BE_BOUND.ALL / SLOTS = 30
#   tma_retiring       = TOPDOWN_RETIRING.ALL / SLOTS = 40
#   tma_bad_speculation = (SLOTS - FE - BE - RET) / SLOTS = 100 - 90 = 10
# Level 2: fetch latency 12, fetch bandwidth (FRONTEND_BANDWIDTH: frontend
# less latency) 20 - 12 = 8, branch mispredicts 6, machine clears 10 - 6 =
# 4, core bound (ALLOC_RESTRICTIONS: backend less memory) 30 - 18 = 12,
# resource bound = backend - core = 18.  Passes: level 1 is fixed counter 1
# and 3 GP events (6 GP counters): 1; level 2 adds 5 GP events, 8 in all:
# 2 (the cycles on fixed counter 1 in both).
run ecore1 "$ADLS" "$tmp/intel" "$ecore" --level 1 --json; rc=$?
is "$rc" 0 "E-core cpu $ecore, level 1: exit 0"
check ecore1 1 intel-ecore-l1 gracemont 1 False 500000.0 \
	"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30}"
# the empty bracket alone: 4 counters read, W x 4 x N = 20000 slots
is "$(q "$tmp/ecore1" 'e["slots"]["median"]')" 20000.0 "E-core: the empty bracket is 5 x 4 reads x 1000 cycles"
run ecore2 "$ADLS" "$tmp/intel" "$ecore" --json; rc=$?
is "$rc" 0 "E-core cpu $ecore, level 2 (the highest): exit 0"
check ecore2 2 intel-ecore-l1 gracemont 2 False 500000.0 \
	"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30,
	  'tma_fetch_latency': 12, 'tma_fetch_bandwidth': 8, 'tma_branch_mispredicts': 6,
	  'tma_machine_clears': 4, 'tma_core_bound': 12, 'tma_resource_bound': 18}"
# pass 0 reads fixed counter 1 and 6 GP counters: 5 x 7 x 1000
is "$(q "$tmp/ecore2" 'e["slots"]["median"]')" 35000.0 "E-core level 2: the empty bracket is pass 0's, 7 reads"

# The text table says the recipe, its passes and what bounds it; the CSV
# has the passes as a row.
run ecore2.txt "$ADLS" "$tmp/intel" "$ecore"
like "$(cat "$tmp/ecore2.txt")" "top-down: level 2 from events: recipe intel-ecore-l1:gracemont, 2 passes \(" \
	"text: level, recipe and passes"
like "$(cat "$tmp/ecore2.txt")" "bound: 48-bit counters \(no quantisation\)" "text: the recipe's bound"
like "$(cat "$tmp/ecore2.txt")" "tma_core_bound +tma_resource_bound" "text: the E-core's own level-2 node"
unlike "$(cat "$tmp/ecore2.txt")" "tma_heavy_operations" "text: no node the recipe lacks"
run ecore2.csv "$ADLS" "$tmp/intel" "$ecore" --csv
is "$(grep ',test-sim-work,,passes,' "$tmp/ecore2.csv")" \
	"$ecore,efficiency,intel-ecore-l1:gracemont,msr,,test-sim-work,,passes,passes,2,,1,,,,,,," \
	"CSV: the passes, one row per kernel: one value, n 1, no statistics repeated"
is "$(grep -c ',test-sim-work,[12],tma_' "$tmp/ecore2.csv")" 10 "CSV: the recipe's 10 nodes"

# --- Cascade Lake with SMT (Skylake, W = 4, 4 GP counters a thread) -----------
# intel-pre-icl-l1:skylake with smt_on (perf skl-metrics.json, #core_wide):
# a thread counts half of every quantity but cycles and instructions, an
# AnyThread event the core's (msr/sim/msr_sim.h "SMT").
#   CORE_CLKS = CPU_CLK_UNHALTED.THREAD_ANY / 2 = K/2;  SLOTS = 4 x K/2 = 200000
#   FE  = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS = (4 x 0.20 K / 2) / 2K = 20
#   RET = UOPS_RETIRED.RETIRE_SLOTS / SLOTS = (4 x 0.40 K / 2) / 2K = 40
#   BAD = (UOPS_ISSUED.ANY - RETIRE_SLOTS + 4 x Recovery_Cycles) / SLOTS,
#         ISSUED = 4 x (0.40 + 0.10 x 1/2) K / 2 = 0.9 K, RETIRE_SLOTS 0.8 K,
#         Recovery_Cycles = INT_MISC.RECOVERY_CYCLES_ANY / 2 = 0.05 K / 2:
#         (0.9 - 0.8 + 0.1) K / 2K = 10
#   BE  = 1 - FE - (ISSUED + 4 x Recovery_Cycles) / SLOTS = 1 - 0.2 - 1.0/2 = 30
# Level 2: fetch latency = 4 x IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE
# (c4: 0.12 K / 2) / SLOTS = 12, fetch bandwidth 20 - 12 = 8; branch
# mispredicts = BR_MISP / (BR_MISP + MACHINE_CLEARS) x BAD: flushes one per
# 20 slots of each, 6 / 10 x 10 = 6, machine clears 4; heavy operations =
# (RETIRE_SLOTS + UOPS_RETIRED.MACRO_FUSED - INST_RETIRED.ANY) / SLOTS,
# INST_RETIRED.ANY = ipc x K = 0.6 K, the thread's light uops 4 x (0.40 -
# 0.10) K / 2 = 0.6 K, so no fused pair (MACRO_FUSED = 0.6 K - 0.6 K = 0):
# (0.8 + 0 - 0.6) K / 2K = 10, light 40 - 10 = 30.  With the default ipc
# 1.0 (clx2d below) MACRO_FUSED = 1.0 K - 0.6 K = 0.4 K, two instructions
# a pair and one uop: (0.8 + 0.4 - 1.0) K / 2K = 10 again (it read -10
# when the simulator counted no fused pair).  Memory bound
# (skl-metrics.json, clx-metrics.json) = (STALLS_MEM_ANY + BOUND_ON_STORES)
# / (STALLS_TOTAL + (1_PORTS_UTIL + RET x 2_PORTS_UTIL) + BOUND_ON_STORES)
# x BE; the simulator's stall cycles (msr/sim/sim_events.c), m = 0.18, c = BE -
# m = 0.12, each halved by SMT: STALLS_MEM_ANY 3/4 m K/2 = 0.0675 K,
# BOUND_ON_STORES 1/4 m K/2 = 0.0225 K, STALLS_TOTAL (3/4 m + c/2) K/2 =
# 0.0975 K, 1_PORTS_UTIL c/2 K/2 = 0.03 K, 2_PORTS_UTIL 0 (no 2-uop
# cycles): 0.09 / (0.0975 + 0.03 + 0.4 x 0 + 0.0225) x 30 = 0.09 / 0.15 x
# 30 = 18, core bound 30 - 18 = 12.
# Passes: level 1 THREAD_ANY (fixed 1) and 4 GP events on 4 counters: 1;
# level 2 9 more GP events (4, 4, 1 on 4 counters) and INST_RETIRED.ANY
# (fixed 0): 4.
run clx1 "$CLX" "$tmp/clx" 0 --level 1 --json; rc=$?
is "$rc" 0 "Cascade Lake with SMT, level 1: exit 0"
check clx1 1 intel-pre-icl-l1 skylake 1 True 200000.0 \
	"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30}"
run clx2 "$CLX" "$tmp/clx" 0 --json; rc=$?
is "$rc" 0 "Cascade Lake with SMT, level 2: exit 0"
check clx2 2 intel-pre-icl-l1 skylake 4 True 200000.0 \
	"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30,
	  'tma_fetch_latency': 12, 'tma_fetch_bandwidth': 8, 'tma_branch_mispredicts': 6,
	  'tma_machine_clears': 4, 'tma_heavy_operations': 10, 'tma_light_operations': 30,
	  'tma_memory_bound': 18, 'tma_core_bound': 12}"
grep -v '^ipc' "$tmp/clx" >"$tmp/clxd"
run clx2d "$CLX" "$tmp/clxd" 0 --json; rc=$?
is "$rc" 0 "Cascade Lake with SMT, level 2, default ipc: exit 0"
is "$(q "$tmp/clx2d" '[round(k[n]["median"], 2) for n in ("tma_heavy_operations", "tma_light_operations")]')" \
	"[10.0, 30.0]" "clx2d: heavy 10 and light 30 with ipc 1.0 too (macro-fused pairs)"
run clx2.txt "$CLX" "$tmp/clx" 0
like "$(cat "$tmp/clx2.txt")" "recipe intel-pre-icl-l1:skylake, 4 passes, SMT on \(per-core counts halved\)" \
	"text: SMT on, said with the halving"

# --- Haswell with SMT (W = 4, 4 GP counters a thread) --------------------------
# intel-pre-icl-l1:haswell with smt_on (perf hsw-metrics.json): level 1 as
# the Cascade Lake's (SLOTS = 4 x THREAD_ANY/2 = 200000; FE 20, RET 40, BAD
# 10) but BE = 1 - (FE + BAD + RET) = 30 (the SNB column's form).  Level 2:
# fetch latency = 4 x min(THREAD_P K, CYCLES_0_UOPS_DELIV.CORE 0.12 K / 2)
# / SLOTS = 12, bandwidth 8; mispredicts 6, clears 4 (as above); heavy =
# RETIRE_SLOTS / UOPS_ISSUED.ANY x IDQ.MS_UOPS / SLOTS, IDQ.MS_UOPS = 4 x
# heavy x issued / retiring = 4 x 0.1 x 0.45 / 0.4 K / 2 = 0.225 K:
# 0.8/0.9 x 0.225 K / 2 K = 10, light 30.  Memory bound (hsw-metrics.json,
# SMT form) = (min(THREAD_P, STALLS_LDM_PENDING 3/4 m K/2 = 0.0675 K) +
# RESOURCE_STALLS.SB 1/4 m K/2 = 0.0225 K) / (min(THREAD_P,
# CYCLES_NO_EXECUTE (3/4 m + c/2) K/2 = 0.0975 K) + (CORE_CYCLES_GE_1 -
# CORE_CYCLES_GE_2) / 2 - RS_EVENTS.EMPTY_CYCLES 0 + SB) x BE, IPC = 0.6 K
# / K <= 1.8 (GE_2); the core's (not halved) GE_1 = 1 - 3/4 m - c/2 =
# 0.805 K and GE_2 = 1 - 3/4 m - c = 0.745 K: 0.09 / (0.0975 + 0.06/2 +
# 0.0225) x 30 = 0.09 / 0.15 x 30 = 18, core bound 12.  Passes: level 1 is
# THREAD_ANY and 4 GP events: 1; level 2 THREAD_P, 4 SNB-column and 7
# memory-bound GP events more, 16 on 4 counters, INST_RETIRED.ANY on fixed
# counter 0: 4.
if [ -r "$HSW" ]; then
	run hsw1 "$HSW" "$tmp/clx" 0 --level 1 --json; rc=$?
	is "$rc" 0 "Haswell with SMT, level 1: exit 0"
	check hsw1 1 intel-pre-icl-l1 haswell 1 True 200000.0 \
		"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30}"
	run hsw2 "$HSW" "$tmp/clx" 0 --json; rc=$?
	is "$rc" 0 "Haswell with SMT, level 2: exit 0"
	check hsw2 2 intel-pre-icl-l1 haswell 4 True 200000.0 \
		"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30,
		  'tma_fetch_latency': 12, 'tma_fetch_bandwidth': 8, 'tma_branch_mispredicts': 6,
		  'tma_machine_clears': 4, 'tma_heavy_operations': 10, 'tma_light_operations': 30,
		  'tma_memory_bound': 18, 'tma_core_bound': 12}"
else
	skip 12 "no Haswell dump $HSW"
fi

# --- Jasper Lake, Tremont (W = 4, 4 GP counters) -------------------------------
# intel-ecore-l1:tremont (Atom_TMA.csv TNT; events of intel/perfmon EHL/SNR):
#   SLOTS = 4 x CPU_CLK_UNHALTED.CORE = 4 x K = 400000
#   FE = TOPDOWN_FE_BOUND.ALL / SLOTS = 20, BAD = TOPDOWN_BAD_SPECULATION.ALL
#   (0x73/0x06) / SLOTS = 10, BE = TOPDOWN_BE_BOUND.ALL / SLOTS = 30, RET =
#   TOPDOWN_RETIRING.ALL / SLOTS = 40
# Level 2: branch mispredicts = TOPDOWN_BAD_SPECULATION.MISPREDICT / SLOTS =
# 6, machine clears = .MONUKE (the clears' slots, 10 - 6) / SLOTS = 4; no
# other level-2 node (the recipe's notes).  Passes: level 1 fixed counter 1
# and 4 GP events on 4: 1; level 2 6 GP events on 4: 2.
if [ -r "$TNT" ]; then
	run tnt1 "$TNT" "$tmp/intel" 0 --level 1 --json; rc=$?
	is "$rc" 0 "Tremont, level 1: exit 0"
	check tnt1 1 intel-ecore-l1 tremont 1 False 400000.0 \
		"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30}"
	run tnt2 "$TNT" "$tmp/intel" 0 --json; rc=$?
	is "$rc" 0 "Tremont, level 2: exit 0"
	check tnt2 2 intel-ecore-l1 tremont 2 False 400000.0 \
		"{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30,
		  'tma_branch_mispredicts': 6, 'tma_machine_clears': 4}"
else
	skip 12 "no Tremont dump $TNT"
fi

# --- Zen 4 (W = 6) and Zen 5 (W = 8), six PerfMonV2 counters ------------------
# amd-zen4 / amd-zen5 (perf pipeline.json): SLOTS = W x ls_not_halted_cyc;
# frontend = no_ops_from_frontend / SLOTS = 20, backend = backend_stalls /
# SLOTS = 25, smt_contention 5, retiring = ex_ret_ops / SLOTS = 40, bad
# speculation = (de_src_op_disp.all - ex_ret_ops) / SLOTS, dispatched =
# W x (retiring + bad) K: 10.  Level 2: fetch latency = W x
# no_ops_from_frontend:cW (the cycles with none: 0.12 K) / SLOTS = 12,
# bandwidth 20 - 12 = 8; mispredicts = BAD x ex_ret_brn_misp / (it +
# resyncs) = 10 x 6/10 = 6, pipeline restarts 4; memory = BE x
# ex_no_retire.load_not_complete / ex_no_retire.not_complete (their cycles,
# 0.15 K / 0.25 K) = 15, cpu 25 - 15 = 10; microcode = RET x
# ex_ret_ucode_ops / ex_ret_ops = 40 x 10/40 = 10, fastpath 30.  Passes:
# level 1 is 6 events on 6 counters: 1; level 2 adds 6: with
# ls_not_halted_cyc in each pass, 5 others a pass: 3.
zen_want="{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20,
	  'tma_backend_bound': 25, 'smt_contention': 5}"
zen_want2="{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20,
	  'tma_backend_bound': 25, 'smt_contention': 5, 'tma_fetch_latency': 12,
	  'tma_fetch_bandwidth': 8, 'tma_branch_mispredicts': 6, 'tma_machine_clears': 4,
	  'tma_memory_bound': 15, 'tma_core_bound': 10, 'tma_heavy_operations': 10,
	  'tma_light_operations': 30}"
for z in 4 5; do
	eval "dump=\$ZEN$z"
	case $z in 4) w=6 ;; *) w=8 ;; esac
	run zen${z}a "$dump" "$tmp/amd" 0 --level 1 --json; rc=$?
	is "$rc" 0 "Zen $z, level 1: exit 0"
	check zen${z}a 1 amd-zen$z zen$z 1 False "$((w * 100000)).0" "$zen_want"
	run zen${z}b "$dump" "$tmp/amd" 0 --json; rc=$?
	is "$rc" 0 "Zen $z, level 2: exit 0"
	check zen${z}b 2 amd-zen$z zen$z 3 False "$((w * 100000)).0" "$zen_want2"
done
run zen4.txt "$ZEN4" "$tmp/amd" 0
like "$(cat "$tmp/zen4.txt")" "recipe amd-zen4:zen4, 3 passes" "text: Zen 4 level 2 in 3 passes"
like "$(cat "$tmp/zen4.txt")" "tma_backend_bound +smt_contention" "text: AMD's fifth level-1 node"

done_testing
