#!/bin/sh
# t/1051-vendor-level2-sim.sh - level 1 and 2 as the vendor writes them, end
# to end on the simulated PMU of real CPUID dumps: Ice Lake's
# intel-perf-metrics:sunny-cove (PERF_METRICS's fields with
# INT_MISC.UOP_DROPPING and INT_MISC.CLEARS_COUNT, level 2 from 14 events
# in passes: msr/recipe/recipes_intel_pm.c) and the Alder Lake-P E-core's
# intel-ecore-l1:gracemont level 2, through bench, stat, compare and info,
# each naming what its recipe leaves out of the vendor's formulas.
#
# Profile: ghz 0, access_cycles 1000 (the clock advances by the
# simulator's accesses only: every count exact and the same each run),
# retiring 40, bad_speculation 10, frontend_bound 20, backend_bound 30,
# heavy_operations 10, branch_mispredicts 6, fetch_latency 12,
# memory_bound 12.  What the simulator counts per cycle (msr/sim/sim_events.c,
# w the width, shares as fractions): SLOTS w; PERF_METRICS bytes
# round(share x 255) = 102, 25.5 -> 26, 51, 76.5 -> 77 (sum 256);
# INT_MISC.CLEARS_COUNT w x bad / 20 (a clear per 20 slots of bad
# speculation); INT_MISC.UOP_DROPPING 0; CYCLES_0_UOPS_DELIV fetch_latency;
# branch mispredicts w x 0.06 / 20, machine clears w x 0.04 / 20;
# STALLS_MEM_ANY m (1 - S), BOUND_ON_STORES m S, STALLS_TOTAL m (1 - S) +
# c / 2, 1_PORTS_UTIL c / 2, 2_PORTS_UTIL 0 (m 0.12, c 0.30 - 0.12 = 0.18,
# S 1/4); UOPS_RETIRED.SLOTS w x 0.40, UOPS_ISSUED.ANY w x (0.40 + 0.10 /
# 2) = w x 0.45, IDQ.MS_UOPS w x 0.10 x 0.45 / 0.40, DEC0 = DEC0:c1.
#
# Ice Lake, W = 5, worked by hand from icelake_metrics.json (intel/perfmon
# 6dadedf3aa483393943e044ba5ec88a4507cd040), in percent:
#   Retiring = 102/256                                       = 39.84375
#   Frontend_Bound = 51/256 - 0 / SLOTS                      = 19.921875
#   Backend_Bound = 77/256 + 5 x (5 x 0.10 / 20) / 5
#                 = 30.078125 + 2.5                          = 32.578125
#   Bad_Speculation = max(1 - (19.921875 + 32.578125 + 39.84375) %, 0)
#                                                            = 7.65625
#   Fetch_Latency = (5 x 0.12 - 0) / 5                       = 12
#   Fetch_Bandwidth = max(0, 19.921875 - 12)                 = 7.921875
#   Branch_Mispredicts = 0.06 / (0.06 + 0.04) x 7.65625      = 4.59375
#   Machine_Clears = max(0, 7.65625 - 4.59375)               = 3.0625
#   Memory_Bound = (0.09 + 0.03) / (0.18 + (0.09 + r x 0) + 0.03) x
#                  32.578125 = 0.4 x 32.578125               = 13.03125
#   Core_Bound = max(0, 32.578125 - 13.03125)                = 19.546875
#   Heavy_Operations = Microcode_Sequencer + r x 0 / MITE
#                    = (2.0 / 2.25) x 0.5625 / 5             = 10
#   Light_Operations = max(0, 39.84375 - 10)                 = 29.84375
# Gracemont, W = 5 (E-core_TMA_Metrics.csv: each event over SLOTS = 5 x
# CPU_CLK_UNHALTED.CORE): the profile's shares, 40, 10, 20, 30; mispredict
# 6, machine clears 4, frontend latency 12, bandwidth 20 - 12 = 8,
# alloc restrictions (core bound) 30 - 12 = 18, resource bound 30 - 18 = 12.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/sim-fixture.sh"

printf 'ghz 0\naccess_cycles 1000\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\nheavy_operations 10\nbranch_mispredicts 6\nfetch_latency 12
memory_bound 12\n' >"$tmp/p"
export BARETMA_MSR=sim:$tmp/p

ICL1="{'tma_retiring': 39.84375, 'tma_bad_speculation': 7.65625,
 'tma_frontend_bound': 19.921875, 'tma_backend_bound': 32.578125}"
ICL2="{'tma_retiring': 39.84375, 'tma_bad_speculation': 7.65625,
 'tma_frontend_bound': 19.921875, 'tma_backend_bound': 32.578125,
 'tma_heavy_operations': 10, 'tma_light_operations': 29.84375,
 'tma_branch_mispredicts': 4.59375, 'tma_machine_clears': 3.0625,
 'tma_fetch_latency': 12, 'tma_fetch_bandwidth': 7.921875,
 'tma_memory_bound': 13.03125, 'tma_core_bound': 19.546875}"
GRT2="{'tma_retiring': 40, 'tma_bad_speculation': 10, 'tma_frontend_bound': 20,
 'tma_backend_bound': 30, 'tma_branch_mispredicts': 6, 'tma_machine_clears': 4,
 'tma_fetch_latency': 12, 'tma_fetch_bandwidth': 8, 'tma_core_bound': 18,
 'tma_resource_bound': 12}"

# off FILE WANT TOL: the nodes of bench's 'empty' kernel (the bracket alone,
# exact counts) off WANT by more than TOL, and any node WANT lacks
off() {
	pyq - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
want, tol = eval(sys.argv[2]), float(sys.argv[3])
k = [x for x in d["kernels"] if x["name"] == "empty"][0]
got = {n: k[n]["median"] for n in k if n.startswith("tma_")}
print(sorted((n, got.get(n)) for n in set(got) | set(want)
             if n not in got or n not in want or abs(got[n] - want[n]) > tol))
EOF
}
# stat_off FILE WANT: stat's first interval, nodes off WANT by more than
# bound_pp (+ 1e-6); then its level, passes and left_out's first word
stat_off() {
	pyq - "$1" "$2" <<'EOF'
import json, sys
want = eval(sys.argv[2])
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["type"] == "interval":
        s = d["samples"][0]
        got = {n["metric"]: n["percent"] for n in s["nodes"]}
        print(sorted((n, got.get(n)) for n in set(got) | set(want)
                     if n not in got or n not in want
                     or abs(got[n] - want[n]) > s["bound_pp"] + 1e-6),
              s["level"], s["passes"], (s["left_out"] or "").split(":")[0].split(" ")[0])
        break
EOF
}
# td FILE: bench's topdown level, passes, recipe variant, left_out's first word
td() {
	pyq 'import json, sys
t = json.load(open(sys.argv[1]))["topdown"]
print(t["level"], t["passes"], t["recipe"]["variant"], (t["left_out"] or "").split(":")[0].split(" ")[0])' "$1"
}
bench() {
	_d=$1
	shift
	BARETMA_CPUID_DUMP=$_d "$BARETMA" bench --backend msr --kernel empty --reps 5 "$@"
}

# --- Ice Lake, level 1: the clears' term in Backend_Bound -----------------
bench "$ICL" --cpu 1 --level 1 --json >"$tmp/l1.json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "Ice Lake --level 1 exits 0"
is "$(off "$tmp/l1.json" "$ICL1" 1e-6)" "[]" \
	"Ice Lake level 1: Backend_Bound with 5 x CLEARS_COUNT / SLOTS, Bad_Speculation the rest (hand-worked)"
is "$(td "$tmp/l1.json")" "1 1 sunny-cove nothing" "one pass, recipe sunny-cove, left out: nothing"

# --- Ice Lake, level 2 in two passes -------------------------------------
bench "$ICL" --cpu 1 --level 2 --json >"$tmp/l2.json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "Ice Lake --level 2 exits 0 (before: refused, 'has only level 1')"
# the level-2 events of pass 2 are scaled to pass 1's slots (bench/
# measure_pass.c); the simulator's counts are whole, each read's of
# thousands: a node off by at most 0.01 point
is "$(off "$tmp/l2.json" "$ICL2" 0.01)" "[]" "Ice Lake level 2: every node as worked by hand (+/- 0.01)"
is "$(td "$tmp/l2.json")" "2 2 sunny-cove nothing" "level 2 in 2 passes (Sunny Cove's 8 counters)"
out=$(bench "$ICL" --cpu 1 --level 2 2>/dev/null)
like "$out" "top-down: level 2 from IA32_PERF_METRICS and events: recipe intel-perf-metrics:sunny-cove, 2 passes" \
	"the text names the level, the recipe and its passes"
like "$out" "left out: nothing: icelake_metrics.json's level-1 and level-2 formulas whole" \
	"and what it leaves out"

BARETMA_CPUID_DUMP=$ICL "$BARETMA" stat -C 1 --level 2 -I 100 --count 1 --json >"$tmp/s2" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat --level 2 on Ice Lake exits 0 (before: refused)"
is "$(stat_off "$tmp/s2" "$ICL2")" "[] 2 2 nothing" \
	"stat: level 2 in 2 passes, every node within its bound of the hand-worked value"

# --- the Alder Lake-P E-core (cpu 12, Gracemont): level 2 in two passes --
bench "$ADL" --cpu 12 --level 2 --json >"$tmp/e2.json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "Gracemont --level 2 exits 0"
is "$(off "$tmp/e2.json" "$GRT2" 1e-6)" "[]" "Gracemont level 2: E-core_TMA_Metrics.csv's nodes, the profile's shares"
is "$(td "$tmp/e2.json")" "2 2 gracemont no" "level 2 of intel-ecore-l1:gracemont in 2 passes"
BARETMA_CPUID_DUMP=$ADL "$BARETMA" stat -C 12 --level 2 -I 100 --count 1 --json >"$tmp/se2" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat --level 2 on the E-core exits 0 (before: refused)"
is "$(stat_off "$tmp/se2" "$GRT2")" "[] 2 2 no" "stat: its level 2 in 2 passes, exact"
out=$(BARETMA_CPUID_DUMP=$ADL "$BARETMA" stat -C 12 --level 2 -- sleep 0.3 2>/dev/null)
like "$out" "left out: no level 2 under Retiring \\(E-core_TMA_Metrics.csv has none\\)" \
	"stat's text names what the E-core recipe leaves out"

# --- compare: each side's recipe and what it leaves out -------------------
# (timed: the kernels need cycles of their own, not only the accesses')
grep -v '^ghz\|^access' "$tmp/p" >"$tmp/pt"
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/pt BARETMA_PERF=sim:$tmp/pt "$BARETMA" compare --kernel dep-chain --pairs 8 \
	--reps 5 --json >"$tmp/c.json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "compare on Ice Lake exits 0"
is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1]))["left_out"]; print(d["raw"].split(":")[0], d["perf"].split(":")[0])' "$tmp/c.json")" \
	"nothing nothing" "JSON left_out: raw and perf, both Sunny Cove's whole formulas"
out=$(BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/pt BARETMA_PERF=sim:$tmp/pt "$BARETMA" compare --kernel dep-chain \
	--pairs 10 --reps 5 2>/dev/null)
like "$out" "left out \\(raw, intel-perf-metrics:golden-cove\\): the vendor's - INT_MISC.UOP_DROPPING / SLOTS in tma_frontend_bound" \
	"Sapphire Rapids: PERF_METRICS alone leaves out the vendor's UOP_DROPPING terms"

# --- info ------------------------------------------------------------------
out=$("$BARETMA" info --cpuid-dump "$ICL" 2>/dev/null)
like "$out" "top-down: level 2 measured by baretma \\(rdpmc, msr\\) from IA32_PERF_METRICS and events: recipe intel-perf-metrics:sunny-cove, level 1 in 1 pass, level 2 in 2 passes" \
	"info: Ice Lake's recipe, its levels and passes"
like "$out" "left out: nothing: icelake_metrics.json" "info: what it leaves out"
is "$("$BARETMA" info --cpuid-dump "$SPR" --json 2>/dev/null | python3 -S -c 'import json,sys; print(json.load(sys.stdin)["core_kinds"][0]["topdown_left_out"].split(" - ")[1].split(" in ")[0])')" \
	"INT_MISC.UOP_DROPPING / SLOTS" "info JSON: Golden Cove's topdown_left_out"
is "$(ls "$BARETMA_STATE_DIR" | grep -c 'journal$')" 0 "no journal left behind"
done_testing
