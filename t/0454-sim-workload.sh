#!/bin/sh
# t/0454-sim-workload.sh - a workload that varies: the simulated PMU
# (msr/sim/msr_sim.h) gives the cycles its accesses cost (`access_cycles`, the
# bracket's reads) the access_* shares and the cycles of work (the hidden
# kernel test-sim-work: `work_cycles` per call, msr_sim_work) the level-1/2
# shares, and IA32_PERF_METRICS reads the slot-weighted mix since it was
# written.  So the empty bracket, a kernel's region and the running total
# read differently, and only the slot-weighted deltas of both readings of a
# region (linux tools/perf/Documentation/topdown.txt; msr/recipe/topdown.h) with
# the empty bracket's field slots subtracted (bench/measure.c) give the
# values worked by hand below.  Each value comes from the profile and the
# access order (asserted from the trace), never from the code under test.
#
# Mutants this kills (each made by hand once, the run below failing):
#   - the empty bracket's field slots not subtracted (bench_subtract_bracket
#     with d[f] = fs[f]): test-sim-work reads 65/30/30/25, not 55/20/20/5;
#   - a region that ignores its first reading's PERF_METRICS (td_decode_region
#     with the end reading's fields for both): 50/20/20/10;
#   - a region that ignores its first reading altogether (slots_a and
#     metrics_a taken as 0): the empty bracket's 3.W.N slots, not 2.W.N (its
#     shares stay A, and the same first reading cancels in the subtraction).
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/sim-fixture.sh"

[ -x "${BARETMA_HOOKS:-}" ] || skip_all "no test build of the tool (t/baretma-hooks)"

# The profile.  ghz 0: only accesses (N = 1000 cycles each) and work
# (K = 4000 cycles per call of the kernel) advance the clock.
#            retiring bad_spec frontend backend | heavy branch_mis fetch_lat memory
#   work  R:    60       20       20       0    |  40      20        20       0
#   access A:   20       20       20      40    |   0      20        20      40
cat "$T_DATA/sim-two-workloads.profile" >"$tmp/p"
# A repetition (t/0451 part b; the trace below checks the order): the
# frozen reset (FC3 = 0, then PERF_METRICS = 0) ends with the write that
# enables the counters, which counts nothing; then
#   read FC3 (a)           N access cycles:        S_a = W.N
#   read PERF_METRICS (a)  N more: it covers 2N access cycles: bytes of A
#   test-sim-work          K = 4N work cycles
#   read FC3 (b)           N more:                 S_b = W.(3N + K) = 7.W.N
#   read PERF_METRICS (b)  N more: it covers 4N access + K = 4N work cycles,
#                          the mix (4N.A + 4N.R) / 8N = (A + R) / 2:
#                          40 20 20 20 | 20 20 20 20 (percent), bytes
#                          x 255 / 100 = 102 51 51 51 | 51 51 51 51, sum 255
# (A's bytes: 51 51 51 102 | 0 51 51 102, sum 255: no normalisation.)
# Field slots (slots x byte / 255), in units of W.N, as fractions m = byte/255:
#   test-sim-work: 7 x (.4 .2 .2 .2 | .2 .2 .2 .2) - 1 x (.2 .2 .2 .4 | 0 .2 .2 .4)
#                = (2.6 1.2 1.2 1.0 | 1.4 1.2 1.2 1.0), slots 7 - 1 = 6
#   empty:         3 x A - 1 x A = (.4 .4 .4 .8 | 0 .4 .4 .8), slots 2
#   subtracted:    (2.2 .8 .8 .2 | 1.4 .8 .8 .2), slots 4
#   percent:       retiring 55, bad_speculation 20, frontend_bound 20,
#                  backend_bound 5 | heavy 35, branch_mispredicts 20,
#                  fetch_latency 20, memory_bound 5; derived light 55-35 = 20,
#                  machine_clears 0, fetch_bandwidth 0, core_bound 0.
# Not R (60 20 20 0): the end reading's PERF_METRICS also holds its own
# read's N access cycles, which its FC3 reading does not: R + (A - R)/8.
# The bound (msr/recipe/topdown.h, each reading slots x 1/255): kernel (1 + 7) +
# empty (1 + 3) = 12 W.N / 255 over 4 W.N: 100 x 3/255 = 1.1765 points.
# (Sapphire Rapids: PERF_METRICS alone, the reading above.)
#
# Ice Lake reads two general-purpose counters after PERF_METRICS
# (INT_MISC.UOP_DROPPING, INT_MISC.CLEARS_COUNT: msr/recipe/recipes_intel_pm.c,
# the reading's order bench/source/source_events.c; the trace below): four
# accesses a reading.  Counting from the enable:
#   FC3 (a) N: S_a = W.N; PERF_METRICS (a) 2N: A; PMC0 (a) 3N; PMC1 (a) 4N;
#   test-sim-work K = 4N; FC3 (b) 5N + K: S_b = 9.W.N; PERF_METRICS (b)
#   6N + K: the mix (6N.A + 4N.R) / 10N = .6 A + .4 R = 36 20 20 24, bytes
#   92 51 51 61 (91.8, 61.2 rounded), sum 255; PMC0 (b); PMC1 (b) 8N + K.
# Field slots, in W.N / 255: test-sim-work 9 x (92 51 51 61) - (51 51 51 102)
#   = (777 408 408 447), slots 9 - 1 = 8; empty (b right after a: S_b = 5.W.N,
#   bytes A) 5A - A = (204 204 204 408), slots 4; subtracted (573 204 204 39),
#   slots 4, their sum 1020: retiring 573/1020 = 56.176471 %, bad 20 %,
#   frontend 20 %, backend 39/1020 = 3.823529 %.
# INT_MISC.CLEARS_COUNT: one clear per 20 slots of bad speculation
# (msr/sim/sim_events.c), 5 x 0.20 / 20 = 0.05 a cycle in A and R alike; PMC1's
# region 8N + K - 4N = 8N cycles = 400 clears, the empty bracket's 4N = 200,
# subtracted 200 over 4.W.N = 20000 slots: icelake_metrics.json's Backend_Bound
# adds 5 x 200 / 20000 = 5 points (UOP_DROPPING 0): backend 8.823529 %, and
# Bad_Speculation = max(1 - (20 + 8.823529 + 56.176471) %, 0) = 15 %.  The
# empty bracket raw: backend 40 + 5 x 200/20000 = 45, bad 1 - 0.85 = 15.
# Slots 4.W.N = 20000 (empty) and 8 - 4 = 4.W.N = 20000 (subtracted); bound
# kernel (1 + 9) + empty (1 + 5) = 16 W.N / 255 over 4 W.N: 100 x 4/255 =
# 1.5686 points.
ICL1="[('tma_backend_bound', 8.823529), ('tma_bad_speculation', 15.0), ('tma_frontend_bound', 20.0), ('tma_retiring', 56.176471)]"
ICL_EMPTY="[('tma_backend_bound', 45.0), ('tma_bad_speculation', 15.0), ('tma_frontend_bound', 20.0), ('tma_retiring', 20.0)]"
WANT1="[('tma_backend_bound', 5.0), ('tma_bad_speculation', 20.0), ('tma_frontend_bound', 20.0), ('tma_retiring', 55.0)]"
WANT2="[('tma_backend_bound', 5.0), ('tma_bad_speculation', 20.0), ('tma_branch_mispredicts', 20.0), ('tma_core_bound', 0.0), ('tma_fetch_bandwidth', 0.0), ('tma_fetch_latency', 20.0), ('tma_frontend_bound', 20.0), ('tma_heavy_operations', 35.0), ('tma_light_operations', 20.0), ('tma_machine_clears', 0.0), ('tma_memory_bound', 5.0), ('tma_retiring', 55.0)]"
# The empty bracket, raw: A itself.
EMPTY1="[('tma_backend_bound', 40.0), ('tma_bad_speculation', 20.0), ('tma_frontend_bound', 20.0), ('tma_retiring', 20.0)]"

# run DUMP OUT ARGS...: bench --json of the empty bracket and test-sim-work
run() {
	_d=$1 _o=$2
	shift 2
	st=0
	BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$_d BARETMA_MSR=sim:$tmp/p "$BARETMA_HOOKS" bench \
		--backend msr --kernel test-sim-work --reps 7 --warmup 0 --json "$@" >"$_o" \
		2>"$_o.err" || st=$?
}
# med FILE KERNEL: its (node, median rounded to 1e-6) pairs, sorted
med() {
	pyq - "$1" "$2" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = [x for x in d["kernels"] if x["name"] == sys.argv[2]][0]
print(sorted((n, round(k[n]["median"], 6) + 0.0) for n in k if n.startswith("tma_")))
EOP
}
kq() {
	pyq - "$1" "$2" "$3" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = dict((x["name"], x) for x in d["kernels"])
print(eval(sys.argv[3]))
EOP
}

# --- Ice Lake (W = 5, level 1: pmu-tools icl_client_ratios.py Pipeline_Width) --
BARETMA_MSR_TRACE=$tmp/trace
export BARETMA_MSR_TRACE
run "$ICL" "$tmp/icl.json"
unset BARETMA_MSR_TRACE
is "$st" 0 "ICL: bench of test-sim-work on the simulated PMU exits 0"
is "$(med "$tmp/icl.json" test-sim-work)" "$ICL1" \
	"ICL: test-sim-work 56.18/15/20/8.82: the slot-weighted deltas, the bracket subtracted, 5 x clears / slots"
is "$(med "$tmp/icl.json" empty)" "$ICL_EMPTY" "ICL: the empty bracket: the access shares, 5 points moved by the clears"
is "$(kq "$tmp/icl.json" x 'k["empty"]["slots"]["median"], k["test-sim-work"]["slots"]["median"], k["test-sim-work"]["invalid"]')" \
	"(20000.0, 20000.0, 0)" "ICL: slots 4.W.N = 20000 (empty), 4.W.N = 20000 subtracted, every repetition valid"
is "$(kq "$tmp/icl.json" x 'round(k["test-sim-work"]["bound_pp"], 4)')" "1.5686" \
	"ICL: bound 100 x 4/255 = 1.5686 points"
# The order the arithmetic assumes, per repetition: FC3 W.N = 5000 = 0x1388,
# PERF_METRICS A = 0x66333333, PMC0 0, PMC1 0.05 x 4N = 200 = 0xc8, FC3
# 9.W.N = 45000 = 0xafc8, PERF_METRICS .6 A + .4 R = 0x3d33335c, PMC0 0,
# PMC1 0.05 x 12N = 600 = 0x258; 7 such octuples for test-sim-work.
is "$(awk '$1 == "rd" { r[n++] = $3 " " $4 }
	END { for (i = 0; i + 7 < n; i++)
		if (r[i] == "0x30c 0x1388" && r[i+1] == "0x329 0x66333333" &&
		    r[i+2] == "0xc1 0x0" && r[i+3] == "0xc2 0xc8" &&
		    r[i+4] == "0x30c 0xafc8" && r[i+5] == "0x329 0x3d33335c" &&
		    r[i+6] == "0xc1 0x0" && r[i+7] == "0xc2 0x258") c++
		print c + 0 }' "$tmp/trace")" 7 \
	"trace: each repetition reads FC3 W.N, A, PMC0, PMC1, FC3 9.W.N, .6 A + .4 R, PMC0, PMC1"

# --- Sapphire Rapids (W = 6, level 2: pmu-tools spr_server_ratios.py) --------
run "$SPR" "$tmp/spr.json"
is "$st" 0 "SPR: bench of test-sim-work exits 0"
is "$(med "$tmp/spr.json" test-sim-work)" "$WANT2" \
	"SPR: level 2 too: heavy 35, light 20, branch_mispredicts 20, memory_bound 5, the rest as worked"
is "$(kq "$tmp/spr.json" x 'k["empty"]["slots"]["median"], k["test-sim-work"]["slots"]["median"]')" \
	"(12000.0, 24000.0)" "SPR: slots 2.W.N = 12000, 4.W.N = 24000"

# --- CPL: user-only counting sees user_fraction of the slots ------------------
# user_fraction 0.25: a quarter of every cycle at CPL > 0.  --user-only sets
# fixed counter 3's field to EN_USR alone (0x2: SDM Vol. 3B 20.2.2), which
# counts that quarter: slots 4.W.N/4 = 5000 (empty) and 4.W.N/4 = 5000
# (subtracted) on Ice Lake; the shares, of the slots counted, stay (the
# event selects' USR alone counts a quarter of the clears too).  An EN_OS
# field would count the other three quarters (15000, 15000).
{ cat "$tmp/p"; echo 'user_fraction 0.25'; } >"$tmp/pu"
cp "$tmp/pu" "$tmp/p"
run "$ICL" "$tmp/user.json" --user-only
is "$st" 0 "--user-only, user_fraction 0.25: exit 0"
is "$(kq "$tmp/user.json" x 'k["empty"]["slots"]["median"], k["test-sim-work"]["slots"]["median"]')" \
	"(5000.0, 5000.0)" "--user-only: a quarter of the slots: 5000 and 5000"
is "$(med "$tmp/user.json" test-sim-work)" "$ICL1" "--user-only: the same shares 56.18/15/20/8.82"
run "$ICL" "$tmp/all.json"
is "$(kq "$tmp/all.json" x 'k["empty"]["slots"]["median"], k["test-sim-work"]["slots"]["median"]')" \
	"(20000.0, 20000.0)" "OS and USR (the default field 0x3): every slot, 20000 and 20000"

# --- the hidden kernel needs the simulator -------------------------------------
printf '0 0x10 0x0\n' >"$tmp/state"
st=0
BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=state:$tmp/state "$BARETMA_HOOKS" bench \
	--backend tsc --kernel test-sim-work --reps 3 >"$tmp/out" 2>&1 || st=$?
is "$st" 77 "test-sim-work outside the simulator is refused: exit 77"
like "$(cat "$tmp/out")" "Operation not permitted" "... for want of the simulator (EPERM)"
done_testing
