# sapphirerapids-steady.profile - a simulated Sapphire Rapids core (Golden
# Cove) whose Top-down is the same on every run: the README's samples.
#   BARETMA_MSR=sim:examples/profiles/sapphirerapids-steady.profile \
#     baretma bench --cpuid-dump examples/dumps/sapphire-rapids-ws-xeon-w7.test
# Keys: doc/simulator.md, "The profile".  Deterministic (doc/simulator.md,
# "Deterministic profiles"): no jitter, the accesses count the work's
# shares, so every reading of IA32_PERF_METRICS holds the same bytes and
# each node is its byte over 255; only TSC ticks, slots and the bounds vary.
# sapphirerapids.profile is the same core with jitter and accesses that
# count other shares.  Sapphire Rapids' PERF_METRICS has level 2 (linux
# arch/x86/events/intel/core.c: intel_pmu_init_glc, num_topdown_events =
# 8), so bench shows both levels.

# width: not given: the model table's 6 slots per cycle (Golden Cove).
# ghz: not given: 3.0 cycles per nanosecond of CLOCK_MONOTONIC.

# Level 1, percent of the work's slots; the four sum to 100 (the bytes 79,
# 23, 56 and 97 sum to 255, so no reading is normalised).
retiring          31    # slots that retired a uop
bad_speculation    9    # slots lost to mispredictions and machine clears
frontend_bound    22    # slots the front end delivered no uop in
backend_bound     38    # slots the back end could not take a uop in

# Level 2, percent of all the work's slots, each at most its parent; the
# sibling of each is the parent minus it (light operations = 31 - 6,
# machine clears = 9 - 7, fetch bandwidth = 22 - 13, core bound = 38 - 24).
heavy_operations    6   # child of retiring: uops of instructions of 2+ uops
branch_mispredicts  7   # child of bad speculation
fetch_latency      13   # child of frontend bound: nothing fetched at all
memory_bound       24   # child of backend bound: waiting on loads/stores

# The cost of the measurement's own MSR accesses (the empty bracket).
access_cycles   2000    # cycles per simulated MSR access, at the shares above
