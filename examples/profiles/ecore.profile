# ecore.profile - a simulated Gracemont E-core of a hybrid Alder Lake:
#   BARETMA_MSR=sim:examples/profiles/ecore.profile \
#     baretma bench --cpuid-dump examples/dumps/alder-lake-s-core-i9.test --cpu 16
# (CPUs 16-23 of that dump are its E-cores: `baretma info --cpuid-dump`.)
# An E-core has no PERF_METRICS and no fixed counter 3; baretma measures
# the event recipe intel-ecore-l1:gracemont on the general-purpose
# counters (README, "Event recipes"), which the simulator counts from
# these shares (its own event table, msr/sim/sim_events.c).  Keys: README,
# "The simulated PMU", the profile key table.  The shares are made up.

# width: not given: the model table's 5 slots per cycle (Gracemont).
# ghz: not given: 3.0 cycles per nanosecond of CLOCK_MONOTONIC.

# Level 1, percent of the work's slots; the four sum to 100.
retiring          28    # TOPDOWN_RETIRING.ALL
bad_speculation    8    # the remainder: Gracemont's recipe counts no bad-
                         # speculation event (SLOTS - the other three)
frontend_bound    26    # TOPDOWN_FE_BOUND.ALL
backend_bound     38    # TOPDOWN_BE_BOUND.ALL

# Level 2 (the E-core's tree: bench --level 2), percent of all slots.
branch_mispredicts  6   # of bad speculation; machine clears = 8 - 6
fetch_latency      15   # of frontend bound; fetch bandwidth = 26 - 15
memory_bound       20   # of backend bound: the E-core reports it as
                        # tma_resource_bound, with tma_core_bound = 38 - 20

# The cost of the measurement's own MSR accesses (the empty bracket).
access_cycles  2000     # cycles per simulated MSR access (counted at the
                        # work's shares: no access_* shares given)

# Jitter of each read, +-1 point, from a fixed seed.
noise  1         # +-1 point of jitter on each share, each read
seed   7          # the jitter's seed (the same sequence of jitter each run)
