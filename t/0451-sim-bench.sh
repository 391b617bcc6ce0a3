#!/bin/sh
# t/0451-sim-bench.sh - bench --backend msr on the simulated PMU
# (BARETMA_MSR=sim:PROFILE, msr/sim/msr_sim.h): the Top-down numbers, the
# quantisation bound, the empty-bracket subtraction and the invalid
# repetitions, each against a value worked by hand below from the profile
# and the arithmetic msr/sim/msr_sim.h and msr/recipe/topdown.h document, never read
# back from the code.
#
# The simulator, as msr/sim/msr_sim.h documents it:
#   - cycles = CLOCK_MONOTONIC elapsed x ghz + accesses to that CPU x
#     access_cycles (`ghz 0`: accesses only, deterministic);
#   - FC3 counts width x cycles while IA32_FIXED_CTR_CTRL[13:12] and
#     IA32_PERF_GLOBAL_CTRL bit 35 are set; PERF_METRICS byte i =
#     round(pct_i x 255 / 100), half away from zero, while bit 48 is also set;
#   - the width is the pipeline width (andikleen/pmu-tools 2568760ffc93
#     Pipeline_Width): Ice Lake-L (family 6 model 0x7E, icl_client_ratios.py)
#     5; Sapphire Rapids (0x8F, spr_server_ratios.py) 6; Alder Lake-P/H
#     (0x9A) Golden Cove P-cores 6 (adl_glc_ratios.py), Gracemont E-cores 5
#     (adl_grt_ratios.py, no PERF_METRICS); the Top-down levels are
#     $SHARED_CPUID/INDEX.tsv's expect_topdown_levels (the kernel's
#     per-model setup): Ice Lake 1, Sapphire Rapids and the ADL P-core 2.
#     The simulator takes both from cpu/cpu_models.c, the table under test
#     (t/0464 checks it against these sources).
# Decoding (msr/recipe/topdown.h): every reading is normalised by its own level-1
# sum S (level-2 bytes too); derived level-2 nodes are parent - child.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/sim-fixture.sh"

# sim DUMP PROFILE OUT ARGS...: bench --backend msr --json on the simulated
# machine of DUMP with PROFILE; stdout to OUT, stderr to OUT.err; returns its
# exit status.  The simulator's clean register file has GLOBAL_CTRL bits 35
# and 48 set (the kernel's intel_ctrl) and FC3's field clear: not in use
# (linux intel_pmu_enable_all), so no --force.
sim() {
	_dump=$1 _prof=$2 _out=$3
	shift 3
	BARETMA_CPUID_DUMP=$_dump BARETMA_MSR=sim:$_prof "$BARETMA" bench --backend msr --json \
		"$@" >"$_out" 2>"$_out.err"
}

# q FILE EXPR: evaluate a Python expression over the JSON document d, its
# kernels k (by name), with the helpers below.
q() {
	pyq - "$1" "$2" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = dict((x["name"], x) for x in d["kernels"])
def tma(x):
    return sorted(n for n in x if n.startswith("tma_"))
def kind(d):
    c = d["cpu"]
    return [x for x in c["identity"]["core_kinds"] if x["kind"] == c["kind"]][0]
print(eval(sys.argv[2]))
EOP
}

# --- a. the profile's shares, on three machines ------------------------------
# Profile (percent of slots):
cat >"$tmp/shares" <<'EOF'
retiring 35
bad_speculation 12
frontend_bound 23
backend_bound 30
heavy_operations 15
branch_mispredicts 7
fetch_latency 11
memory_bound 19
EOF
# Profile values of every node (derived: parent - child):
#   light = 35 - 15 = 20, machine_clears = 12 - 7 = 5,
#   fetch_bandwidth = 23 - 11 = 12, core_bound = 30 - 19 = 11.
# Bytes round(pct x 255 / 100):
#   retiring 35 -> 89.25 -> 89     bad_speculation 12 -> 30.6 -> 31
#   frontend 23 -> 58.65 -> 59     backend 30 -> 76.5 -> 77 (half away from 0)
#   heavy 15 -> 38.25 -> 38        branch_mispredicts 7 -> 17.85 -> 18
#   fetch_latency 11 -> 28.05 -> 28    memory_bound 19 -> 48.45 -> 48
# L1 sum S = 89 + 31 + 59 + 77 = 256 (within 255 +/- 3: normalised by 256).
# Every reading has these bytes, so a region's fraction (and the empty
# bracket's subtraction, proportional) is byte / 256, in percent:
#   retiring 89/256 = 34.765625        bad_speculation 31/256 = 12.109375
#   frontend 59/256 = 23.046875        backend 77/256 = 30.078125
#   heavy 38/256 = 14.84375            light (89-38)/256 = 51/256 = 19.921875
#   branch_mispr 18/256 = 7.03125      machine_clears (31-18)/256 = 13/256 = 5.078125
#   fetch_lat 28/256 = 10.9375         fetch_bw (59-28)/256 = 31/256 = 12.109375
#   memory 48/256 = 18.75              core (77-48)/256 = 29/256 = 11.328125
PROFILE_PCT="{'tma_retiring': 35, 'tma_bad_speculation': 12, 'tma_frontend_bound': 23,
 'tma_backend_bound': 30, 'tma_heavy_operations': 15, 'tma_light_operations': 20,
 'tma_branch_mispredicts': 7, 'tma_machine_clears': 5, 'tma_fetch_latency': 11,
 'tma_fetch_bandwidth': 12, 'tma_memory_bound': 19, 'tma_core_bound': 11}"
QUANT="{'tma_retiring': 34.765625, 'tma_bad_speculation': 12.109375,
 'tma_frontend_bound': 23.046875, 'tma_backend_bound': 30.078125,
 'tma_heavy_operations': 14.84375, 'tma_light_operations': 19.921875,
 'tma_branch_mispredicts': 7.03125, 'tma_machine_clears': 5.078125,
 'tma_fetch_latency': 10.9375, 'tma_fetch_bandwidth': 12.109375,
 'tma_memory_bound': 18.75, 'tma_core_bound': 11.328125}"
# Ice Lake (level 1 from PERF_METRICS and two events: msr/recipe/recipes_intel_pm.c,
# intel/perfmon icelake_metrics.json): Backend_Bound = be / S + 5 x
# INT_MISC.CLEARS_COUNT / SLOTS and Bad_Speculation = max(1 - (Frontend_Bound
# + Backend_Bound + Retiring), 0), with INT_MISC.UOP_DROPPING 0 (the
# simulator drops no slot) and CLEARS_COUNT one clear per 20 slots of bad
# speculation (msr/sim/sim_events.c): 5 x (5 x 0.12 / 20) per cycle over 5 slots
# per cycle = 0.12 / 4 = 3 points taken from bad speculation to backend:
#   backend 30 + 3 = 33 (77/256 + 3 % = 33.078125),
#   bad speculation 12 - 3 = 9 (1 - (59 + 77 + 89)/256 - 3 % = 9.109375).
ICL_PCT="{'tma_retiring': 35, 'tma_bad_speculation': 9, 'tma_frontend_bound': 23,
 'tma_backend_bound': 33}"
ICL_QUANT="{'tma_retiring': 34.765625, 'tma_bad_speculation': 9.109375,
 'tma_frontend_bound': 23.046875, 'tma_backend_bound': 33.078125}"
L1="['tma_backend_bound', 'tma_bad_speculation', 'tma_frontend_bound', 'tma_retiring']"
L2="['tma_backend_bound', 'tma_bad_speculation', 'tma_branch_mispredicts', 'tma_core_bound', 'tma_fetch_bandwidth', 'tma_fetch_latency', 'tma_frontend_bound', 'tma_heavy_operations', 'tma_light_operations', 'tma_machine_clears', 'tma_memory_bound', 'tma_retiring']"
KERNELS="empty,retire-light,heavy-ops,dep-chain,divider,ptr-chase,branch-miss,icache-miss"

# machine NAME: the dump, its Top-down level, width and measured core kind
# (the header), its profile values (pct, quant), and part b's slots (2.W.N
# or, Ice Lake, 4.W.N; N = 1000), bound and shares.
machine() {
	case $1 in
	ICL) dump=$ICL level=1 width=5 ckind=general slots=20000 pct=$ICL_PCT quant=$ICL_QUANT clears_q=1
	     bound=0.5882 l1b="[('tma_backend_bound', 30.0), ('tma_bad_speculation', 30.0), ('tma_frontend_bound', 20.0), ('tma_retiring', 20.0)]" ;;
	SPR) dump=$SPR level=2 width=6 ckind=general slots=12000 pct=$PROFILE_PCT quant=$QUANT clears_q=0
	     bound=0.7843 l1b="$L1B" ;;
	ADL) dump=$ADL level=2 width=6 ckind=performance slots=12000 pct=$PROFILE_PCT quant=$QUANT clears_q=0
	     bound=0.7843 l1b="$L1B" ;;
	esac
}
L1B="[('tma_backend_bound', 20.0), ('tma_bad_speculation', 40.0), ('tma_frontend_bound', 20.0), ('tma_retiring', 20.0)]"
for name in ICL SPR ADL; do
	machine "$name"
	[ "$level" = 1 ] && nodes=$L1 || nodes=$L2
	sim "$dump" "$tmp/shares" "$tmp/a-$name.json" --reps 30; rc=$?
	is "$rc" 0 "$name: bench --backend msr --reps 30 on sim exits 0"
	# The CPU measured: its kind (ADL-P: a P-core, "performance"), the model
	# table's width and level.
	is "$(q "$tmp/a-$name.json" '(d["cpu"]["kind"], d["cpu"]["os_cpu"] in kind(d)["cpus"],
		kind(d)["pipeline_width"], d["topdown"]["level"])')" \
		"('$ckind', True, $width, $level)" \
		"$name: measured a $ckind core of width $width at level $level"
	is "$(q "$tmp/a-$name.json" '",".join(x["name"] for x in d["kernels"])')" "$KERNELS" \
		"$name: every kernel ran"
	is "$(q "$tmp/a-$name.json" 'sorted(set(x["repetitions"] - x["invalid"] for x in d["kernels"]))')" \
		"[30]" "$name: 30 valid repetitions of every kernel"
	is "$(q "$tmp/a-$name.json" 'sorted(set(str(tma(x)) for x in d["kernels"]))')" \
		"[\"$nodes\"]" "$name: every kernel reports exactly the level-$level nodes"
	# |median - profile| <= that node's bound_pp, for every kernel and node
	is "$(q "$tmp/a-$name.json" "[(x['name'], n, x[n]['median'], x[n]['bound_pp'])
		for x in d['kernels'] for n in tma(x)
		if not abs(x[n]['median'] - $pct[n]) <= x[n]['bound_pp']]")" "[]" \
		"$name: every median within its bound_pp of the profile"
	# Ice Lake's clears are whole counts of a timed run: a region's count
	# may be one off in each of its two readings, 2 x 5 / slots of backend
	# (and bad speculation): 0.2 points on the empty kernel's ~5000 slots
	is "$(q "$tmp/a-$name.json" "[(x['name'], n, x[n]['median'])
		for x in d['kernels'] for n in tma(x)
		if not abs(x[n]['median'] - $quant[n]) <= 0.01 + $clears_q * 1000 / x['slots']['median']]")" "[]" \
		"$name: every median the hand-quantised byte / 256 (+/- 0.01, Ice Lake + its clears' count)"
done

# --- b. the bound, worked by hand ---------------------------------------------
# ghz 0, access_cycles N = 1000: the clock advances N cycles per access only.
# Shares 20/40/20/20: bytes 20 x 2.55 = 51, 40 x 2.55 = 102, 51, 51, sum 255
# (S = 255, no normalisation); PERF_METRICS reads 0x33336633 (byte 0 =
# retiring 0x33, byte 1 = bad_speculation 0x66, bytes 2, 3 0x33).
# A repetition (bench/source/source_msr.c, source_pmu.c; the access order seen in
# the trace below): the frozen reset ends with the write re-enabling
# GLOBAL_CTRL (nothing counted up to it); then
#   read FC3 (a):          N cycles under the enabled counters: S_a = W.N
#   read PERF_METRICS (a): N more
#   read FC3 (b):          N more:                              S_b = 3.W.N
#   read PERF_METRICS (b)
# Region slots S_b - S_a = 2.W.N; each reading's error is slots x
# td_value_bound(255) = slots / 255 (msr/recipe/topdown.h), so the region's
# error is (S_a + S_b) / 255 = 4.W.N / 255 and
#   bound_pp = 100 x (4.W.N / 255) / (2.W.N) = 200 / 255 = 0.7843...
# whatever W; slots = 2.W.N = 12000 on Sapphire Rapids and the Alder Lake
# P-core (W 6).  Shares exact: 51/255 = 20 %, 102/255 = 40 %.  The empty
# kernel is the bracket alone (not subtracted from itself), every
# repetition alike.
# Ice Lake (W 5) reads INT_MISC.UOP_DROPPING (IA32_PMC0) and
# INT_MISC.CLEARS_COUNT (IA32_PMC1) after PERF_METRICS (the reading's order:
# bench/source/source_events.c), four accesses a reading: S_a = W.N, S_b =
# 5.W.N, slots 4.W.N = 20000, error (S_a + S_b)/255 = 6.W.N/255, bound_pp =
# 100 x 6/(4 x 255) = 0.5882; CLEARS_COUNT 5 x 0.40 / 20 = 0.1 a cycle: 0.1 x
# N = 100 per access since the reset (PMC1 read after 4 accesses: 400 =
# 0x190, after 8: 800 = 0x320), 400 in the region's 4.N cycles, 5 x 400 /
# 20000 = 10 points: backend 20 + 10 = 30, bad speculation 1 - (0.2 + 0.3 +
# 0.2) = 30.
printf 'ghz 0\naccess_cycles 1000\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\n' \
	>"$tmp/bound"
for name in ICL SPR ADL; do
	machine "$name"
	if [ "$name" = ICL ]; then
		BARETMA_MSR_TRACE=$tmp/trace-b; export BARETMA_MSR_TRACE
	fi
	sim "$dump" "$tmp/bound" "$tmp/b-$name.json" --kernel empty --reps 20 --warmup 0; rc=$?
	unset BARETMA_MSR_TRACE
	is "$rc" 0 "$name: ghz 0 bench exits 0"
	is "$(q "$tmp/b-$name.json" '(list(k), k["empty"]["repetitions"], k["empty"]["invalid"],
		k["empty"]["slots"]["min"], k["empty"]["slots"]["median"], k["empty"]["slots"]["max"])')" \
		"(['empty'], 20, 0, $slots.0, $slots.0, $slots.0)" \
		"$name: every repetition's slots = $slots"
	is "$(q "$tmp/b-$name.json" 'sorted(set(round(v, 4) for v in
		[k["empty"]["bound_pp"]] + [k["empty"][n]["bound_pp"] for n in tma(k["empty"])]))')" \
		"[$bound]" "$name: bound_pp = $bound (kernel and every node)"
	is "$(q "$tmp/b-$name.json" '[(n, k["empty"][n]["median"]) for n in tma(k["empty"])
		if n in ("tma_retiring", "tma_bad_speculation", "tma_frontend_bound", "tma_backend_bound")]')" \
		"$l1b" "$name: shares 51/255, 102/255: exactly 20/40/20/20 (Ice Lake: 20/30/20/30)"
done
# The access order the arithmetic assumes, once, on Ice Lake: per repetition
# FC3 = W.N = 5000 = 0x1388, PERF_METRICS, IA32_PMC0 0, IA32_PMC1 0x190, FC3 =
# 5.W.N = 25000 = 0x61a8, PERF_METRICS, IA32_PMC0 0, IA32_PMC1 0x320; 20
# such octuples.
is "$(awk '$1 == "rd" { r[n++] = $3 " " $4 }
	END { for (i = 0; i + 7 < n; i++)
		if (r[i] == "0x30c 0x1388" && r[i+1] == "0x329 0x33336633" &&
		    r[i+2] == "0xc1 0x0" && r[i+3] == "0xc2 0x190" &&
		    r[i+4] == "0x30c 0x61a8" && r[i+5] == "0x329 0x33336633" &&
		    r[i+6] == "0xc1 0x0" && r[i+7] == "0xc2 0x320") c++
		print c + 0 }' "$tmp/trace-b")" 20 \
	"trace: each repetition reads FC3 (W.N), PERF_METRICS, PMC0, PMC1, FC3 (5.W.N), PERF_METRICS, PMC0, PMC1"

# --- b2. a region no longer than the bracket is not "zero slots" ---------------
# With ghz 0 every bracket costs the same 4.W.N slots whatever the kernel
# (the clock advances per access only, and a region holds four accesses), so
# every kernel's region minus the empty bracket's median is 0 slots: the
# counter did count (4.W.N in each region), the kernel is just shorter than
# what the bracket's jitter can resolve.  That is below_bracket, never
# zero_slots ("fixed counter 3 did not count"), and the one-line reason says so.
machine ICL
sim "$dump" "$tmp/bound" "$tmp/b2.json" --kernel retire-light --reps 7 --warmup 0
is "$(q "$tmp/b2.json" '(k["retire-light"]["invalid"], k["retire-light"]["invalid_reasons"]["below_bracket"],
	k["retire-light"]["invalid_reasons"]["zero_slots"])')" "(7, 7, 0)" \
	"ICL, ghz 0: every repetition of a kernel no longer than the bracket is below_bracket, none zero_slots"
like "$(q "$tmp/b2.json" 'k["retire-light"]["topdown_reason"]')" \
	"7 no more slots than the empty bracket subtracted" "and its reason says so, not 'did not count'"

# --- c. the empty bracket is subtracted ----------------------------------------
# ghz 3, access_cycles N = 1e8 (W 5, Ice Lake): the bracket's accesses alone
# are 4.W.N = 2e9 slots (b above), the real time adds a little (15 slots a
# ns): the empty kernel's median is in [2e9, 2.1e9].  Another kernel's raw
# region is the same 2e9 plus its own time; with the empty median subtracted
# only its own time (microseconds, thousands of slots) and the bracket's
# jitter remain: |slots| < W.N = 5e8.  Unsubtracted it would be >= 2e9.
printf 'ghz 3\naccess_cycles 100000000\nretiring 35\nbad_speculation 12\nfrontend_bound 23\nbackend_bound 30\n' \
	>"$tmp/costly"
sim "$ICL" "$tmp/costly" "$tmp/c.json" --kernel retire-light,dep-chain --reps 15; rc=$?
is "$rc" 0 "access_cycles 1e8: bench exits 0"
is "$(q "$tmp/c.json" 'list(k)')" "['empty', 'retire-light', 'dep-chain']" "the kernels asked for, after empty"
is "$(q "$tmp/c.json" '2e9 <= k["empty"]["slots"]["median"] <= 2.1e9')" "True" \
	"empty: the bracket's 4.W.N = 2e9 slots plus a little real time"
is "$(q "$tmp/c.json" '[(n, x["slots"]["median"]) for n, x in k.items()
	if n != "empty" and not abs(x["slots"]["median"]) < 5e8]')" "[]" \
	"retire-light, dep-chain: the bracket subtracted, below W.N = 5e8 slots"

# --- d. fault overflow_every 7 --------------------------------------------------
# Every 7th read of IA32_PERF_METRICS sets GLOBAL_STATUS bit 48; a
# repetition is overflowed when its check (the GLOBAL_STATUS read after it)
# sees it.  The programming reads PERF_METRICS P = 2 times before the first
# repetition (the ownership check, then the save: asserted from the trace
# below); repetition r (0-based, no warm-up, --kernel empty runs empty only)
# makes reads P+2r+1 and P+2r+2.  Overflowed iff one is a multiple of 7:
#   2r+3 = 0 mod 7 -> r = 2 mod 7;  2r+4 = 0 mod 7 -> r = 5 mod 7;
#   r in 0..34: 2 5 9 12 16 19 23 26 30 33 -> 10.
# (35 repetitions make 70 consecutive reads, holding exactly 70/7 = 10
# multiples of 7, never two in one repetition: 10 whatever P.)
{ cat "$tmp/shares"; echo 'fault overflow_every 7'; } >"$tmp/ovf"
BARETMA_MSR_TRACE=$tmp/trace-d
export BARETMA_MSR_TRACE
sim "$ICL" "$tmp/ovf" "$tmp/d.json" --kernel empty --reps 35 --warmup 0; rc=$?
unset BARETMA_MSR_TRACE
is "$rc" 0 "overflow_every 7: bench exits 0"
is "$(awk '$1 == "rd" && $3 == "0x38e" { exit } $1 == "rd" && $3 == "0x329" { n++ } END { print n + 0 }' \
	"$tmp/trace-d")" 2 "trace: P = 2 PERF_METRICS reads before the first overflow check"
is "$(q "$tmp/d.json" '(k["empty"]["overflow"], k["empty"]["invalid_reasons"]["overflow"],
	k["empty"]["invalid"] >= 10)')" "(10, 10, True)" \
	"overflow = invalid_reasons.overflow = 10, invalid >= 10"
# GLOBAL_STATUS reads: the first is the programming's, then one after each
# repetition: the ones with bit 48 name the overflowed repetitions.
is "$(awk '$1 == "rd" && $3 == "0x38e" { if (n && $4 != "0x0") printf "%d ", n - 1; n++ }' \
	"$tmp/trace-d")" "2 5 9 12 16 19 23 26 30 33 " \
	"trace: bit 48 seen after repetitions 2 5 9 12 16 19 23 26 30 33"

# --- e. faults every repetition must catch ---------------------------------
# sum_off 9: the level-1 bytes sum to 255 + 9 = 264 (msr/sim/msr_sim.h); 264 - 255
# = 9 > TD_L1_SUM_TOLERANCE 3 (msr/recipe/topdown.h): every repetition invalid,
# reason l1_sum.
{ cat "$tmp/shares"; echo 'fault sum_off 9'; } >"$tmp/sum"
BARETMA_MSR_TRACE=$tmp/trace-e
export BARETMA_MSR_TRACE
sim "$ICL" "$tmp/sum" "$tmp/e1.json" --kernel retire-light --reps 10 --warmup 0; rc=$?
unset BARETMA_MSR_TRACE
is "$rc" 0 "sum_off 9: bench exits 0"
l1sum() { while read -r v; do echo $(((v & 255) + (v >> 8 & 255) + (v >> 16 & 255) + (v >> 24 & 255))); done; }
is "$(awk '$1 == "rd" && $3 == "0x329" && $4 != "0x0" { print $4 }' "$tmp/trace-e" | l1sum | sort -u)" 264 "trace: every non-zero PERF_METRICS reading sums to 264"
is "$(q "$tmp/e1.json" '[(n, x["repetitions"], x["invalid"], x["invalid_reasons"]["l1_sum"]) for n, x in k.items()]')" \
	"[('empty', 10, 10, 10), ('retire-light', 10, 10, 10)]" \
	"sum_off 9: every repetition invalid for l1_sum"
# slots_stuck: FC3 never counts, both readings 0: zero_slots every repetition.
{ cat "$tmp/shares"; echo 'fault slots_stuck'; } >"$tmp/stuck"
sim "$ICL" "$tmp/stuck" "$tmp/e2.json" --kernel retire-light --reps 10 --warmup 0; rc=$?
is "$rc" 0 "slots_stuck: bench exits 0"
is "$(q "$tmp/e2.json" '[(n, x["repetitions"], x["invalid"], x["invalid_reasons"]["zero_slots"]) for n, x in k.items()]')" \
	"[('empty', 10, 10, 10), ('retire-light', 10, 10, 10)]" \
	"slots_stuck: every repetition invalid for zero_slots"
# level2_above_parent (Sapphire Rapids, level 2): Heavy Operations' byte
# above Retiring's beyond the rounding (TD_L2_ABOVE_TOLERANCE 1): flagged
# l2_above_parent (td_flag_name, msr/recipe/topdown.h), an informing flag.
{ cat "$tmp/shares"; echo 'fault level2_above_parent'; } >"$tmp/above"
sim "$SPR" "$tmp/above" "$tmp/e3.json" --kernel retire-light --reps 10 --warmup 0; rc=$?
is "$rc" 0 "level2_above_parent: bench exits 0"
is "$(q "$tmp/e3.json" '[(n, "l2_above_parent" in x["flags"],
	x["tma_heavy_operations"]["median"] > x["tma_retiring"]["median"]) for n, x in k.items()]')" \
	"[('empty', True, True), ('retire-light', True, True)]" \
	"level2_above_parent: every kernel flagged l2_above_parent, heavy above retiring"

is "$(ls "$BARETMA_STATE_DIR" | grep -c 'journal$')" 0 "no journal left by any run"
done_testing
