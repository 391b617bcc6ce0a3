#!/bin/sh
# t/0992-sim-metrics-clear.sh - RDPMC metrics-clear regions on the rdpmc
# backend, on the simulated PMU and its simulated RDPMC (msr_sim_rdpmc).
# Lunar Lake (Core Ultra 9 288V): CPUs 0-3 are Lion Cove P-cores, width 8
# (W), PERF_METRICS level 2 and IA32_PERF_CAPABILITIES bit 19 (RDPMC
# metrics-clear mode: linux commit 0e45818ec189
# "perf/x86/intel: Support RDPMC metrics clear mode").  In that mode
# IA32_FIXED_CTR_CTRL bit 14 (FC3's field bit 2, INTEL_FIXED_3_METRICS_CLEAR)
# is set and an RDPMC of PERF_METRICS returns the metrics, then clears
# PERF_METRICS and fixed counter 3: a region is its end reading alone.
#
# Profile as t/0454 (ghz 0, N = 1000 access cycles, K = 4N work cycles):
#            retiring bad_spec frontend backend | heavy branch_mis fetch_lat memory
#   work  R:    60       20       20       0    |  40      20        20       0
#   access A:   20       20       20      40    |   0      20        20      40
# A metrics-clear repetition:
#   RDPMC FC3 (a), RDPMC PERF_METRICS (a): then FC3 = PERF_METRICS = 0
#   test-sim-work          K = 4N work cycles
#   RDPMC FC3 (b)          N access: S_b = W.(K + N) = 5.W.N
#   RDPMC PERF_METRICS (b) 2N access + K work: (2R + A)/3 =
#     46.667 20 20 13.333 | 26.667 20 20 13.333 -> bytes 119 51 51 34 | 68 51 51 34
#   fields 5 x those / 255 = 2.3333 1 1 .6667 | 1.3333 1 1 .6667 (units W.N)
#   empty: S_b = 1, PERF_METRICS (b) 2N access = A: .2 .2 .2 .4 | 0 .2 .2 .4
#   subtracted: 2.1333 .8 .8 .2667 | 1.3333 .8 .8 .2667 over 4:
#   retiring 53.333, bad_speculation 20, frontend 20, backend 6.667 |
#   heavy 33.333, branch_mispredicts 20, fetch_latency 20, memory 6.667;
#   light 20, machine_clears 0, fetch_bandwidth 0, core_bound 0.
#   Slots: empty 1.W.N = 8000, test-sim-work 4.W.N = 32000.
#   Bound (each reading slots/255): (5 + 1)/255 over 4: 100 x 6/1020 = 0.5882.
# --delta-regions: t/0454's slot-weighted deltas, 55/20/20/5 | 35 20 20 5,
# empty 2.W.N = 16000, bound 100 x 12/1020 = 1.1765.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/sim-fixture.sh"

[ -x "${BARETMA_HOOKS:-}" ] || skip_all "no test build of the tool (t/baretma-hooks)"
LNL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test
[ -r "$LNL" ] || skip_all "no Lunar Lake dump $LNL"

cat "$T_DATA/sim-two-workloads.profile" >"$tmp/p"
CLEAR="[('tma_backend_bound', 6.666667), ('tma_bad_speculation', 20.0), ('tma_branch_mispredicts', 20.0), ('tma_core_bound', 0.0), ('tma_fetch_bandwidth', 0.0), ('tma_fetch_latency', 20.0), ('tma_frontend_bound', 20.0), ('tma_heavy_operations', 33.333333), ('tma_light_operations', 20.0), ('tma_machine_clears', 0.0), ('tma_memory_bound', 6.666667), ('tma_retiring', 53.333333)]"
DELTA="[('tma_backend_bound', 5.0), ('tma_bad_speculation', 20.0), ('tma_branch_mispredicts', 20.0), ('tma_core_bound', 0.0), ('tma_fetch_bandwidth', 0.0), ('tma_fetch_latency', 20.0), ('tma_frontend_bound', 20.0), ('tma_heavy_operations', 35.0), ('tma_light_operations', 20.0), ('tma_machine_clears', 0.0), ('tma_memory_bound', 5.0), ('tma_retiring', 55.0)]"

run() {
	_o=$1
	shift
	st=0
	BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$LNL BARETMA_MSR=sim:$tmp/p "$BARETMA_HOOKS" bench \
		--backend rdpmc --cpu 0 --kernel test-sim-work --reps 7 --warmup 0 "$@" \
		>"$_o" 2>"$_o.err" || st=$?
}
med() {
	pyq - "$1" "$2" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = [x for x in d["kernels"] if x["name"] == sys.argv[2]][0]
print(sorted((n, round(k[n]["median"], 6) + 0.0) for n in k if n.startswith("tma_")))
EOP
}
kq() {
	pyq - "$1" "$2" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = dict((x["name"], x) for x in d["kernels"])
print(eval(sys.argv[2]))
EOP
}

# --- metrics-clear regions, the default where enumerated -----------------------
BARETMA_MSR_TRACE=$tmp/trace
export BARETMA_MSR_TRACE
run "$tmp/clear.json" --json
unset BARETMA_MSR_TRACE
is "$st" 0 "LNL: bench --backend rdpmc on the simulated RDPMC of a dump's CPU exits 0"
is "$(med "$tmp/clear.json" test-sim-work)" "$CLEAR" \
	"metrics-clear: test-sim-work is the end reading alone, less the empty bracket's"
is "$(kq "$tmp/clear.json" 'k["empty"]["slots"]["median"], k["test-sim-work"]["slots"]["median"], k["test-sim-work"]["invalid"]')" \
	"(8000.0, 32000.0, 0)" "metrics-clear: slots 1.W.N = 8000 (empty), 4.W.N = 32000 subtracted"
is "$(kq "$tmp/clear.json" 'round(k["test-sim-work"]["bound_pp"], 4)')" "0.5882" \
	"metrics-clear: bound 100 x 6/1020 = 0.5882 points"
# IA32_FIXED_CTR_CTRL: FC3's field 0x7 (OS | USR | METRICS_CLEAR_EN) = 0x7000,
# written through the journal, and 0 (as found) again at the end
is "$(awk '$1 == "wr" && $3 == "0x38d" { printf "%s ", $4 }' "$tmp/trace")" "0x7000 0x0 " \
	"trace: FIXED_CTR_CTRL programmed 0x7000 (bit 14), then put back to 0"
run "$tmp/clear.txt"
is "$st" 0 "text report exits 0"
like "$(cat "$tmp/clear.txt")" "top-down: level 2 from IA32_PERF_METRICS, metrics-clear regions" \
	"the header says metrics-clear regions"

# --- --delta-regions: the slot-weighted deltas ----------------------------------
BARETMA_MSR_TRACE=$tmp/trace2
export BARETMA_MSR_TRACE
run "$tmp/delta.json" --json --delta-regions
unset BARETMA_MSR_TRACE
is "$st" 0 "--delta-regions exits 0"
is "$(med "$tmp/delta.json" test-sim-work)" "$DELTA" "--delta-regions: 55/20/20/5 | 35/20/20/5 (t/0454)"
is "$(kq "$tmp/delta.json" 'k["empty"]["slots"]["median"], k["test-sim-work"]["slots"]["median"], round(k["test-sim-work"]["bound_pp"], 4)')" \
	"(16000.0, 32000.0, 1.1765)" "--delta-regions: slots 16000 and 32000, bound 1.1765"
is "$(awk '$1 == "wr" && $3 == "0x38d" { printf "%s ", $4 }' "$tmp/trace2")" "0x3000 0x0 " \
	"--delta-regions: FIXED_CTR_CTRL 0x3000, no bit 14"

# --- no bit 19 (Sapphire Rapids): the delta method, said nowhere else ----------
st=0
BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/p "$BARETMA_HOOKS" bench \
	--backend rdpmc --kernel test-sim-work --reps 7 --warmup 0 >"$tmp/spr.txt" 2>&1 || st=$?
is "$st" 0 "SPR: bench --backend rdpmc on the simulator exits 0"
like "$(cat "$tmp/spr.txt")" "top-down: level 2 from IA32_PERF_METRICS \(" "SPR: no metrics-clear regions"
done_testing
