#!/bin/sh
# t/0455-compare.sh - `baretma compare` and `bench --backend perf` on the
# simulated PMU (BARETMA_MSR=sim:P BARETMA_PERF=sim:P: bench/source/perf_sim.c
# plays the kernel's arithmetic, floor(slots x field / 0xff) per read,
# on the same simulated machine), and their refusal where neither side
# can measure.
#
# Worked by hand: profile 40/10/20/30 gives bytes 102, 26 (25.5 rounded
# half away from zero), 51, 77 (76.5): S = 256, tma_backend_bound =
# 77/256 = 30.078125 % on the raw side.  The perf source reports perf's
# counts, each floor(slots x byte / 255) of a read (the kernel's
# arithmetic, icl_get_metrics_event_value), and perf's formula backend / (the sum
# of the four): 77/256 but for the floors.  Each of the four counts of a
# region, and of the subtracted bracket, is short by less than one slot,
# so the fraction is off by less than (1 + 4 x 77/256) / L < 3 / L, L the
# level-1 sum; retire-light's region is 196608 uops (bench/kernels.c), at
# least 24576 cycles of any core (8 a cycle at most) and 3.9 us (at most
# 6.2 GHz), which the simulator counts as at least 3 x 5 x 3900 = 58500
# slots (ghz 3, width 5): off by less than 0.006 points.  `fault
# perf_offset tma_backend_bound 5` makes perf read backend 77/255 + 5 %
# and scale its three siblings by (L1 - that) / (L1 - 77/255), L1 =
# 256/255, so the four still sum to L1: perf's tma_backend_bound =
# (77/255 + 0.05) / (256/255) = 89.75/256 = 35.05859375 %, floors aside:
# a difference of -4.98 points, beyond the allowance of a noise-free
# profile (each side's bound is under 1 point for these kernels).
# Ice Lake: both sides count INT_MISC.CLEARS_COUNT beside PERF_METRICS
# (msr/recipe/recipes_intel_pm.c; the perf side as raw members of its slots
# group, bench/source/perf_events.c), one clear per 20 slots of bad
# speculation in the simulator (msr/sim/sim_events.c): Backend_Bound + 5 x
# 0.10 / 20 x 5 / 5 = + 2.5 points on both, 77/256 + 2.5 % = 32.578125 %,
# perf's 89.75/256 + 2.5 % = 37.55859375 %.  perf-rdpmc reads FC3 and
# PERF_METRICS only: on Ice Lake it is refused (the events need read(2)),
# and runs on Sapphire Rapids (section 3b).
#
# perf's bound (bench/tma.h, bench/source/reading.h): each member count is
# off by less than err = slots/255 + 1 per read interval, the region's
# and the subtracted bracket's (T_R, T_B slots, T = T_R - T_B), and the
# fraction by (err + |C - T|) / C, C the level-1 sum.  Here C is T x
# 256/255 less the floors (under 4 slots a pair, 8 with the bracket), so
# the bound is at least ((T + 2 T_B)/255 + 2 + T/255 - 8) / (T x 256/255
# + 4) > 2/256 - 7/T: 0.78125 points less 700/T, whatever the bracket.
#
# The family: the exit status is one verdict over every (kernel, metric)
# compared, Holm-adjusted (bench/study/compare.h).  'empty' is each
# side's own bracket (RDPMC or MSR reads against perf's read(2)): shown,
# not compared, not in the family.  10 pairs: the smallest p of one
# metric is 2/1024; retire-light at level 1 is 4 hypotheses, 4 x 2/1024 =
# 0.0078 <= 0.05; 1 kernel at level 2 (12): 12 x 2/1024 = 0.023.  6 pairs
# (2/64 each) cannot reach 0.05 over 12 (12 x 2/64 = 0.375): refused,
# naming the 9 it needs (12 x 2/512 = 0.047; 8 pairs: 0.094).
. "$T_SRC/tap.sh"

. "$T_SRC/sim-fixture.sh"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
printf 'heavy_operations 10\nbranch_mispredicts 5\nfetch_latency 12\nmemory_bound 18\n' >>"$tmp/p"
cp "$tmp/p" "$tmp/off"
printf 'fault perf_offset tma_backend_bound 5\n' >>"$tmp/off"

# cmp_sim DUMP PROFILE ARGS...: compare --json on the simulator; status in $st
cmp_sim() {
	_d=$1 _p=$2
	shift 2
	st=0
	BARETMA_CPUID_DUMP=$_d BARETMA_MSR=sim:$_p BARETMA_PERF=sim:$_p "$BARETMA" compare \
		--json --pairs 10 --reps 9 "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}

# 1. a clean profile: every metric agrees, exit 0, at level 1 and level 2
cmp_sim "$ICL" "$tmp/p" --kernel retire-light,dep-chain
is "$st" 0 "clean profile (Ice Lake): exit 0"
is "$(q 'd["schema"]')" "baretma-compare/2" "schema"
is "$(q 'd["family"]')" "{'hypotheses': 8, 'alpha': 0.05}" "8 hypotheses (2 kernels x 4; not empty), alpha 0.05"
is "$(q 'd["raw_backend"], d["level"], d["pairs"]')" "('msr', 1, 10)" "raw path msr, level 1, 10 pairs"
is "$(q 'd["verdicts"]')" "{'agree': 8, 'disagree': 0, 'na': 0, 'not_compared': 4}" \
	"2 kernels x 4 metrics agree; empty's 4 not compared"
is "$(q 'sorted(set((m["verdict"], m["p_holm"]) for n, m in d["kernels"][0].items() if n.startswith("tma_")))')" \
	"[('not compared', None)]" "empty: each side's bracket, shown with no verdict and no p"
# (the raw side's clears over PMC1's interval, its slots over FC3's: the
# simulator's real time between the two reads moves the ratio by 1e-4)
is "$(q '[abs(d["kernels"][1]["tma_backend_bound"][s] - 100 * 77 / 256 - 2.5) < 0.006 for s in ("raw", "perf")]')" \
	"[True, True]" "both sides read backend 77/256 + 2.5 (the clears; perf's counts: to within their floors)"
is "$(q 'd["kernels"][1]["tma_backend_bound"]["perf_bound_pp"] > 100 * 2 / 256 - 700 / 58500')" True \
	"perf's counts: the bound of the kernel's arithmetic, about 2/256 (T >= 58500 slots)"
is "$(q 'all(d["read_tsc_ticks"][k] > 0 for k in ("raw", "perf"))')" True "a read cost on each path"
cmp_sim "$SPR" "$tmp/p" --kernel retire-light
is "$st" 0 "clean profile (Sapphire Rapids, level 2): exit 0"
is "$(q 'd["level"], d["verdicts"]["agree"], d["verdicts"]["disagree"]')" "(2, 12, 0)" \
	"1 kernel x 12 metrics agree"

# 2. perf_offset: DISAGREE on backend, and only where the difference is
# beyond the tolerance; exit 1
cmp_sim "$ICL" "$tmp/off" --kernel retire-light
is "$st" 1 "perf_offset tma_backend_bound 5: exit 1"
m='d["kernels"][1]["tma_backend_bound"]'
is "$(q "$m[\"verdict\"]")" "DISAGREE" "backend: DISAGREE"
is "$(q "abs($m[\"perf\"] - 100 * 89.75 / 256 - 2.5) < 0.006")" "True" \
	"perf's backend: 89.75/256 + 2.5, to within its counts' floors"
# Holm worked again here from the document's own p values: sort them, the
# i-th smallest (from 0) times (m - i), never below the one before, at
# most 1 (Holm 1979)
is "$(q 'abs(d["kernels"][1]["tma_backend_bound"]["p_holm"] - 4 * 2 / 1024) < 1e-12')" True \
	"backend: every pair beyond: p_holm = 4 hypotheses x 2/1024"
is "$(q '[m["p_holm"] for m in [k[n] for k in d["kernels"][1:] for n in sorted(k) if n.startswith("tma_")]] == (lambda ps: [min(1, max((len(ps) - j) * sorted(ps)[j] for j in range(sorted(ps).index(p) + 1))) for p in ps])([k[n]["p"] for k in d["kernels"][1:] for n in sorted(k) if n.startswith("tma_")])')" \
	True "every p_holm is Holm's adjustment of the document's p values"
is "$(q 'all((m["verdict"] == "DISAGREE") == (m["p_holm"] <= 0.05) for k in d["kernels"][1:] for n, m in k.items() if n.startswith("tma_"))')" \
	True "DISAGREE exactly where p_holm <= 0.05"
is "$(q 'all(m["ci95"][0] > m["allowance"] or m["ci95"][1] < -m["allowance"] for k in d["kernels"] for n, m in k.items() if n.startswith("tma_") and m["verdict"] == "DISAGREE")')" \
	True "every DISAGREE's 95% interval lies outside +-allowance"
# (JSON numbers carry 10 significant digits: each of the three values of a
# few points is exact to 2e-9, their sum to 6e-9)
is "$(q 'all(abs(m["allowance"] - m["raw_bound_pp"] - m["perf_bound_pp"]) < 1e-8 for k in d["kernels"] for n, m in k.items() if n.startswith("tma_"))')" \
	True "the allowance is both bounds, nothing for noise"

# 2b. too few pairs for the family: refused before anything runs
st=0
BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/off BARETMA_PERF=sim:$tmp/off "$BARETMA" compare \
	--pairs 6 --reps 9 --kernel retire-light >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 64 "--pairs 6 over 12 comparisons: exit 64"
grep -q "cannot compare: --pairs 6 cannot find a disagreement among 12 comparisons (1 kernel x 12 metrics of level 2; 'empty' is not compared): even every pair beyond the allowance gives a family-wise p of 0.375, above 0.05 (use at least 9 pairs, or fewer kernels)" "$tmp/err"
ok $? "names the 12 comparisons, the p 12 x 2/64 = 0.375 and the 9 pairs needed"

# 3. bench --backend perf on the simulator: the profile's numbers
BARETMA_CPUID_DUMP=$ICL BARETMA_PERF=sim:$tmp/p BARETMA_MSR=sim:$tmp/p "$BARETMA" bench \
	--backend perf --kernel retire-light --reps 9 --json >"$tmp/out" 2>"$tmp/err"
ok $? "bench --backend perf on the simulator"
is "$(q 'd["backend"]')" "perf" "backend perf"
# perf's retiring 102/256 but for the floors: off by less than
# (1 + 4 x 102/256) / L < 3 / L, L the level-1 sum, at least the region's slots
is "$(q 'abs(d["kernels"][1]["tma_retiring"]["median"] - 100 * 102 / 256) < 300 / d["kernels"][1]["slots"]["min"]')" \
	True "perf's retiring 102/256, to within its counts' floors"
is "$(q 'd["kernels"][1]["tma_retiring"]["bound_pp"] > 100 * 2 / 256 - 700 / d["kernels"][1]["slots"]["min"]')" True \
	"perf's counts: bound above 2/256 less the floors' 700/T points"

# 3b. the same group read by RDPMC through its user pages: the raw bytes
# (Sapphire Rapids: PERF_METRICS alone; on Ice Lake refused, its events
# need read(2))
st=0
BARETMA_CPUID_DUMP=$ICL BARETMA_PERF=sim:$tmp/p BARETMA_MSR=sim:$tmp/p "$BARETMA" bench \
	--backend perf-rdpmc --kernel retire-light --reps 9 --json >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 69 "bench --backend perf-rdpmc on Ice Lake: refused, exit 69 (unavailable)"
like "$(cat "$tmp/err")" "perf-rdpmc reads FC3 and PERF_METRICS alone, and cpu 7's recipe counts events beside them: read with read\(2\)" \
	"  the reason: the recipe's events need read(2)"
BARETMA_CPUID_DUMP=$SPR BARETMA_PERF=sim:$tmp/p BARETMA_MSR=sim:$tmp/p "$BARETMA" bench \
	--backend perf-rdpmc --kernel retire-light --reps 9 --json >"$tmp/out" 2>"$tmp/err"
ok $? "bench --backend perf-rdpmc on the simulator"
is "$(q 'd["backend"], "%.6f" % d["kernels"][1]["tma_backend_bound"]["median"]')" \
	"('perf-rdpmc', '30.078125')" "perf-rdpmc's backend 77/256"
cmp_sim "$SPR" "$tmp/p" --kernel retire-light --perf perf-rdpmc
is "$st" 0 "compare --perf perf-rdpmc: exit 0"
is "$(q 'd["perf_backend"], d["perf_other_backend"], d["verdicts"]["disagree"]')" \
	"('perf-rdpmc', 'perf', 0)" "the perf side read by RDPMC, read(2) timed once"
is "$(q 'all(d["read_tsc_ticks"][k] > 0 for k in ("raw", "perf", "perf_other"))')" True \
	"a read cost for the raw path and both perf reads"
st=0
"$BARETMA" compare --perf rdpmc >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 64 "--perf rdpmc: exit 64"

# 3c. a run on the raw path never opens the perf group (the kernel would
# write FC3 and PERF_METRICS before baretma saved them): with both
# simulators set, the first write of `bench --backend msr` comes after the
# ownership check's read of IA32_PERF_GLOBAL_INUSE (0x392); a perf run's
# probe writes IA32_PERF_GLOBAL_CTRL before any 0x392 read
first_write_after_inuse() {
	awk '$3 == "0x392" && !inuse { inuse = NR } $1 == "wr" { print (inuse && inuse < NR) ? "after" : "before"; exit }' "$1"
}
for b in msr perf; do
	rm -f "$tmp/trace.$b"
	BARETMA_MSR_TRACE=$tmp/trace.$b BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p \
		BARETMA_PERF=sim:$tmp/p "$BARETMA" bench --backend $b --kernel empty --reps 2 \
		--warmup 0 >/dev/null 2>&1
done
is "$(first_write_after_inuse "$tmp/trace.msr")" after \
	"--backend msr: nothing written before the ownership check (no perf probe)"
is "$(first_write_after_inuse "$tmp/trace.perf")" before \
	"--backend perf: its probe enables the group first (the check can tell)"

# 3d. the handover: each raw block checks that nobody holds FC3; a perf
# group that leaves FC3's field enabled makes the second raw block refuse
# (exit 75, naming the block and the register), never measure over perf
cp "$tmp/p" "$tmp/keeps"
printf 'fault perf_keeps_counters\n' >>"$tmp/keeps"
cmp_sim "$ICL" "$tmp/keeps" --kernel retire-light
is "$st" 75 "perf left the counters enabled: exit 75"
grep -q "block 1 of perf on cpu 7: perf_event left IA32_FIXED_CTR_CTRL\[15:12\]=0x3 after its group was closed" "$tmp/err"
ok $? "the first perf block's hand-back refuses, naming FC3's field"

# 4. neither side can measure: exit 69, each reason named (a sysroot with
# no perf PMU; an MSR backend with no counter: a state file listing only
# IA32_TIME_STAMP_COUNTER of cpu 0.  A backend that cannot be opened at all
# is not "cannot measure": t/0510 has it, exit 65 or 66)
mkdir -p "$tmp/root/sys/bus/event_source/devices" "$tmp/root/proc/sys/kernel"
printf '2\n' >"$tmp/root/proc/sys/kernel/perf_event_paranoid"
printf '0 0x10 0x0\n' >"$tmp/none"
st=0
BARETMA_SYSROOT=$tmp/root BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=state:$tmp/none \
	"$BARETMA" compare >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 69 "no PMU on either side: exit 69"
grep -q "perf_event: cpu [0-9]* is a CPU of the CPUID dump" "$tmp/err"
ok $? "the perf reason is said (a dump's CPU, BARETMA_PERF unset)"
grep -q "raw path (rdpmc, msr):" "$tmp/err"
ok $? "the raw path's reason is said"
st=0
BARETMA_SYSROOT=$tmp/root "$BARETMA" bench --backend perf >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 69 "bench --backend perf without a perf PMU: exit 69"
grep -q "perf_event: no 'cpu' or 'cpu_core' PMU" "$tmp/err"
ok $? "bench says why"
st=0
BARETMA_SYSROOT=$tmp/root "$BARETMA" bench --backend perf-rdpmc >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 69 "bench --backend perf-rdpmc without a perf PMU: exit 69"

# 5. too few pairs for a 95 % interval: a usage error
st=0
"$BARETMA" compare --pairs 5 >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 64 "--pairs 5: exit 64"
done_testing
