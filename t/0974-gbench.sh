#!/bin/sh
# t/0974-gbench.sh - the google-benchmark adapter (examples/gbench/
# baretma_gbench.h) on the simulated PMU: its example, run with
# --benchmark_format=json on a real dump ($SHARED_CPUID) and a profile,
# carries each benchmark's tma_* in its user counters beside the times,
# and they are the profile's, worked by hand (msr/sim/msr_sim.h: PERF_METRICS
# byte = round(pct x 255 / 100), half away from zero; msr/recipe/topdown.h: every
# node is its bytes over the level-1 sum S; derived level-2 nodes are
# parent - child):
#   profile retiring 40, bad_speculation 10, frontend_bound 20,
#   backend_bound 30 -> bytes 102, 25.5 -> 26, 51, 76.5 -> 77; S = 256.
#   Ice Lake-L (level 1, intel/perfmon icelake_metrics.json: the events
#   beside PERF_METRICS, INT_MISC.UOP_DROPPING 0 and INT_MISC.CLEARS_COUNT
#   one clear per 20 slots of bad speculation in the simulator, 5 x
#   (5 x 0.10 / 20) / 5 = 2.5 points: msr/recipe/recipes_intel_pm.c,
#   msr/sim/sim_events.c; `ghz 0`, every counter over the same cycles):
#   tma_retiring 102/256 = 39.84375, tma_frontend_bound 51/256 = 19.921875,
#   tma_backend_bound 77/256 + 2.5 % = 32.578125, tma_bad_speculation
#   1 - (the other three) = 7.65625.
#   heavy_operations 10 -> 25.5 -> 26, branch_mispredicts 5 -> 12.75 -> 13,
#   fetch_latency 12 -> 30.6 -> 31, memory_bound 18 -> 45.9 -> 46.
#   Sapphire Rapids (level 2) adds tma_heavy_operations 26/256 = 10.15625,
#   tma_light_operations (102-26)/256 = 29.6875, tma_branch_mispredicts
#   13/256 = 5.078125, tma_machine_clears (26-13)/256 = 5.078125,
#   tma_fetch_latency 31/256 = 12.109375, tma_fetch_bandwidth (51-31)/256 =
#   7.8125, tma_memory_bound 46/256 = 17.96875, tma_core_bound (77-46)/256
#   = 12.109375.
# Skipped where configure found no C++ compiler or no libbenchmark
# (Debian: libbenchmark-dev), or without the dumps.
. "$T_SRC/tap.sh"
pyq_start

[ -n "${BARETMA_GBENCH:-}" ] || skip_all "the adapter's example is not built: configure found no C++ compiler linking -lbenchmark (Debian: libbenchmark-dev)"
. "$T_SRC/sim-fixture.sh"

printf 'ghz 0\naccess_cycles 1000\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
printf 'heavy_operations 10\nbranch_mispredicts 5\nfetch_latency 12\nmemory_bound 18\n' >>"$tmp/p"

# gb DUMP: the example on cpu 1 of DUMP's simulated machine, JSON to $tmp/out
gb() {
	BARETMA_CPUID_DUMP=$1 BARETMA_MSR=sim:$tmp/p BARETMA_BACKEND=msr BARETMA_CPU=1 \
		"$BARETMA_GBENCH" --benchmark_format=json --benchmark_min_time=0.001 \
		>"$tmp/out" 2>"$tmp/err"
}

# the counters of every benchmark, "name key=value ..." with 6 decimals
counters() {
	pyq - "$tmp/out" "$@" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    print(b["name"], " ".join("%s=%.6f" % (k, b[k]) if k in b else k + "=missing"
                              for k in sys.argv[2:]))
EOP
}

gb "$ICL"
is "$?" 0 "Ice Lake: the example exits 0"
[ -s "$tmp/err" ] && sed 's/^/#   stderr: /' "$tmp/err" | head -5
l1="tma_retiring tma_bad_speculation tma_frontend_bound tma_backend_bound"
is "$(counters $l1)" "BM_harmonic tma_retiring=39.843750 tma_bad_speculation=7.656250 tma_frontend_bound=19.921875 tma_backend_bound=32.578125
BM_walk tma_retiring=39.843750 tma_bad_speculation=7.656250 tma_frontend_bound=19.921875 tma_backend_bound=32.578125" \
	"Ice Lake: each benchmark's JSON carries the profile's level-1 tma_* (102, 51, 77 of 256; the clears' 2.5)"
is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(all(b["real_time"] > 0 and b["slots"] > 0 and "tma_heavy_operations" not in b for b in d["benchmarks"]))' "$tmp/out")" \
	True "Ice Lake: beside the times, slots; no level-2 node at level 1"

gb "$SPR"
is "$?" 0 "Sapphire Rapids: the example exits 0"
l2="tma_heavy_operations tma_light_operations tma_branch_mispredicts tma_machine_clears tma_fetch_latency tma_fetch_bandwidth tma_memory_bound tma_core_bound"
is "$(counters $l2 | sed -n 1p)" "BM_harmonic tma_heavy_operations=10.156250 tma_light_operations=29.687500 tma_branch_mispredicts=5.078125 tma_machine_clears=5.078125 tma_fetch_latency=12.109375 tma_fetch_bandwidth=7.812500 tma_memory_bound=17.968750 tma_core_bound=12.109375" \
	"Sapphire Rapids: the level-2 tma_* of the profile"
is "$(counters tma_retiring | sed -n 2p)" "BM_walk tma_retiring=39.843750" "Sapphire Rapids: level 1 too"

# No Top-down (a TSC-only session): the times, no tma_* (never zeros)
BARETMA_BACKEND=tsc "$BARETMA_GBENCH" --benchmark_format=json --benchmark_min_time=0.001 \
	>"$tmp/out" 2>"$tmp/err"
is "$?:$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); print([k for b in d["benchmarks"] for k in b if k.startswith("tma_") or k == "slots"])' "$tmp/out")" \
	"0:[]" "a TSC-only session: no tma_* and no slots counters, never zeros"
done_testing
