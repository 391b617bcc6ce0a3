# sapphirerapids.profile - a simulated Sapphire Rapids core (Golden Cove):
#   BARETMA_MSR=sim:examples/profiles/sapphirerapids.profile \
#     baretma bench --cpuid-dump examples/dumps/sapphire-rapids-ws-xeon-w7.test
# Keys: README, "The simulated PMU", the profile key table.  Sapphire
# Rapids' PERF_METRICS has level 2 (linux arch/x86/events/intel/core.c:
# intel_pmu_init_glc, num_topdown_events = 8), so bench shows both levels.
# The shares are made up; every kernel's work counts them.

# width: not given: the model table's 6 slots per cycle (Golden Cove).
# ghz: not given: 3.0 cycles per nanosecond of CLOCK_MONOTONIC.

# Level 1, percent of the work's slots; the four sum to 100.
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

# The cost of the measurement's own MSR accesses (the empty bracket):
access_cycles          2000   # cycles per simulated MSR access
access_retiring          20   # their level-1 shares, unlike the work's;
access_bad_speculation    5   #   level 2 of the accesses: none given,
access_frontend_bound    45   #   so 0 (all heavy, mispredict, fetch
access_backend_bound     30   #   latency and memory bound go to siblings)

# Jitter of each read, +-1.5 points, from a fixed seed.
noise  1.5         # +-1.5 points of jitter on each share, each read
seed   19          # the jitter's seed (the same sequence of jitter each run)
