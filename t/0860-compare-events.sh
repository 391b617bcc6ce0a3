#!/bin/sh
# t/0860-compare-events.sh - `baretma compare` on cores whose Top-down comes
# from an event recipe: the perf side opens the recipe's events as raw perf
# events (bench/source/perf_events.c; simulated by bench/source/perf_sim.c,
# which schedules and programs the simulated counters as the kernel does)
# and both sides put the same counts through the same formulas.
#
# Worked by hand (the profile, msr/sim/sim_events.c: each event counts width x
# its share per cycle, exactly, with `ghz 0`): level 1 is
#   Alder Lake E-core (intel-ecore-l1:gracemont): FE = TOPDOWN_FE_BOUND.ALL /
#   (5 x CPU_CLK_UNHALTED.CORE) = 20, BE 30, retiring 40, bad spec 100 - 90 = 10;
#   Zen 4 (amd-zen4, perf's amdzen4 pipeline.json): frontend 20, backend 25 +
#   smt contention 5 taken apart: backend_bound 25, retiring 40, bad 10.
# Every count is exact on both sides, so each block's fractions are the
# profile's and every paired difference is 0: with 9 pairs, 4 hypotheses
# (test-sim-work x 4; `empty` is each side's own bracket, shown and not
# compared), none beyond the allowance of 0 (both sides' bounds: exact
# counts, no quantisation): p = 1, Holm p = 1, agree.
# The registers live in a state file (t/events-fixture.sh ecore_regs,
# zen4_regs): after each run, perf's blocks included, every one is back
# byte for byte.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/events-fixture.sh"
events_dumps "$ADLS" "$ZEN4"

common=$sim_common
printf '%s\nbackend_bound 30\nmemory_bound 18\nstate %s\n' "$common" "$tmp/state" >"$tmp/intel"
printf '%s\nbackend_bound 25\nsmt_contention 5\nmemory_bound 15\nstate %s\n' "$common" "$tmp/state" \
	>"$tmp/amd"

# cmp NAME DUMP PROFILE CPU [LEVEL PAIRS]: compare --json of test-sim-work,
# the registers from regs (ecore_regs or zen4_regs) in $tmp/state first
cmp() {
	regs >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
	st=0
	BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$2 BARETMA_MSR=sim:$3 BARETMA_PERF=sim:$3 \
		"$BARETMA_HOOKS" compare --cpu "$4" --kernel test-sim-work --pairs "${6:-9}" --reps 9 \
		--level "${5:-1}" -v --json >"$tmp/$1" 2>"$tmp/$1.err" || st=$?
	command cmp -s "$tmp/state" "$tmp/orig"
	ok $? "$1: every register byte for byte as found"
}
q() { pyq 'import json,sys; d=json.load(open(sys.argv[1])); k=dict((x["name"], x) for x in d["kernels"])["test-sim-work"]; print(eval(sys.argv[2]))' "$tmp/$1" "$2"; }

# check NAME WANT: both sides the profile's, diff 0, allowance 0, p_holm 1
check() {
	is "$(q "$1" '(d["level"], d["family"]["hypotheses"], d["verdicts"])')" \
		"(1, 4, {'agree': 4, 'disagree': 0, 'na': 0, 'not_compared': 4})" \
		"$1: level 1, 4 hypotheses, all agree; empty's 4 not compared"
	is "$(q "$1" "[(m, k[m]['raw'], k[m]['perf']) for m in sorted($2) if abs(k[m]['raw'] - $2[m]) > 1e-9 or abs(k[m]['perf'] - $2[m]) > 1e-9]")" \
		"[]" "$1: raw and perf both read the profile's level 1"
	is "$(q "$1" "sorted(set((k[m]['diff'], k[m]['raw_bound_pp'], k[m]['perf_bound_pp'], k[m]['p_holm'], k[m]['verdict']) for m in $2))")" \
		"[(0.0, 0.0, 0.0, 1.0, 'agree')]" "$1: diff 0, both bounds 0 (exact counts), p_holm 1, agree"
}

regs() { ecore_regs "$ecore"; }
cmp ecore "$ADLS" "$tmp/intel" "$ecore"
is "$st" 0 "E-core cpu $ecore: exit 0"
check ecore "{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 30}"
grep -q "the kernel wrote .*IA32_PERFEVTSEL0 (0x186) 0x0 -> 0x130071.*baretma put each back" "$tmp/ecore.err"
ok $? "E-core: perf programmed TOPDOWN_FE_BOUND.ALL (0x71, USR|OS|INT|EN) and baretma put it back"

regs() { zen4_regs; }
cmp zen4 "$ZEN4" "$tmp/amd" 0
is "$st" 0 "Zen 4 cpu 0: exit 0"
check zen4 "{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20, 'tma_backend_bound': 25}"
grep -q "the kernel wrote PERF_CNTR_GLOBAL_CTL (0xc0000301).*baretma put each back" "$tmp/zen4.err"
ok $? "Zen 4: perf used the PerfMonV2 counters and baretma put them back"
# Level 2 on Zen 4 (perf's amdzen4 pipeline.json): branch mispredicts =
# bad speculation x ex_ret_brn_misp / (ex_ret_brn_misp +
# resyncs_or_nc_redirects), each flush 20 slots (msr/sim/sim_events.c):
# 6 x 0.06 / 20 = 0.018 and 0.012 flushes a cycle, 1800 and 1200 in the
# 100000 cycles of work: 10 x 1800 / 3000 = 6, machine clears 4; heavy 10,
# light 40 - 10 = 30, fetch latency 12, bandwidth 20 - 12 = 8, memory 15,
# core 25 - 15 = 10.  Whole counts on both sides however often each reads
# them: diff 0, allowance 0, agree (12 metrics: 9 pairs are the fewest
# that can find a disagreement).
cmp zen4l2 "$ZEN4" "$tmp/amd" 0 2 10
is "$st" 0 "Zen 4 level 2: exit 0"
is "$(q zen4l2 '(d["level"], d["family"]["hypotheses"], d["verdicts"])')" \
	"(2, 12, {'agree': 12, 'disagree': 0, 'na': 0, 'not_compared': 12})" \
	"zen4l2: level 2, 12 hypotheses, all agree"
l2="{'tma_heavy_operations': 10, 'tma_light_operations': 30, 'tma_branch_mispredicts': 6, 'tma_machine_clears': 4, 'tma_fetch_latency': 12, 'tma_fetch_bandwidth': 8, 'tma_memory_bound': 15, 'tma_core_bound': 10}"
is "$(q zen4l2 "[(m, k[m]['raw'], k[m]['perf']) for m in sorted($l2) if abs(k[m]['raw'] - $l2[m]) > 1e-9 or abs(k[m]['perf'] - $l2[m]) > 1e-9]")" \
	"[]" "zen4l2: raw and perf both read the profile's level 2"
is "$(q zen4l2 "sorted(set((k[m]['diff'], k[m]['p_holm'], k[m]['verdict']) for m in $l2))")" \
	"[(0.0, 1.0, 'agree')]" "zen4l2: diff 0, p_holm 1, agree"
# E-core level 2: only the nodes intel-ecore-l1:gracemont defines are
# compared and written (Intel's E-core_TMA_Metrics.csv: no Heavy/Light
# Operations and no Memory_Bound at level 2 on Gracemont); the others were
# written as 0.00 "agree" before.  1 kernel x 9 nodes = 9 hypotheses.
regs() { ecore_regs "$ecore"; }
cmp ecorel2 "$ADLS" "$tmp/intel" "$ecore" 2 10
is "$st" 0 "E-core level 2: exit 0"
is "$(q ecorel2 "sorted(m for m in k if m.startswith('tma_'))")" \
	"['tma_backend_bound', 'tma_bad_speculation', 'tma_branch_mispredicts', 'tma_core_bound', 'tma_fetch_bandwidth', 'tma_fetch_latency', 'tma_frontend_bound', 'tma_machine_clears', 'tma_retiring']" \
	"ecorel2: the recipe's nodes only, none it lacks"
is "$(q ecorel2 '(d["family"]["hypotheses"], d["verdicts"])')" \
	"(9, {'agree': 9, 'disagree': 0, 'na': 0, 'not_compared': 9})" "ecorel2: 9 hypotheses, all agree"
done_testing
