# icelake.profile - a simulated Ice Lake core for the README's quick start:
#   BARETMA_MSR=sim:examples/profiles/icelake.profile \
#     baretma bench --cpuid-dump examples/dumps/ice-lake-i7.test
# Keys: README, "The simulated PMU", the profile key table.  The shares
# below are made up to look like a loop that waits on memory; they are
# what every kernel's work counts (the simulator runs no real
# microarchitecture), so bench should report them back within its bound.
# Ice Lake's PERF_METRICS has level 1 only (SDM Vol. 3B 21.3.9.3), so no
# level-2 key is given (its level 2 comes from events: bench --level 2).
# Its recipe (intel/perfmon icelake_metrics.json) adds 5 x
# INT_MISC.CLEARS_COUNT / SLOTS to backend bound, bad speculation the rest:
# the simulator's one clear per 20 slots of bad speculation makes these
# 8 and 42 read 6 and 44.

# width: not given, so the model table's pipeline width of the CPU's kind
# (Sunny Cove: 5 slots per cycle).
# ghz: not given, so 3.0 core cycles per nanosecond of CLOCK_MONOTONIC:
# the kernels' real run time is the work the counters see.

# Level 1, percent of the work's slots; the four sum to 100.
retiring          32    # slots that retired a uop
bad_speculation    8    # slots lost to mispredicted branches, machine clears
frontend_bound    18    # slots the front end delivered no uop in
backend_bound     42    # slots the back end could not take a uop in

# What each RDMSR/WRMSR of the measurement itself costs and counts, so the
# empty bracket (the cost subtracted from every kernel) is not free.
access_cycles          2000   # cycles per simulated MSR access
access_retiring          20   # the accesses' own level-1 shares:
access_bad_speculation    5   #   unlike the work's, so an empty bracket
access_frontend_bound    45   #   reads other numbers than a kernel and
access_backend_bound     30   #   the subtraction shows

# Real counters jitter: each read's shares move by up to +-1.5 points
# (level-1 jitters sum to 0), from a fixed seed.
noise  1.5         # +-1.5 points of jitter on each share, each read
seed   19          # the jitter's seed (the same sequence of jitter each run)
