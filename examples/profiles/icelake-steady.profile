# icelake-steady.profile - a simulated Ice Lake core whose Top-down is the
# same on every run: the README's quick start and its sample outputs.
#   BARETMA_MSR=sim:examples/profiles/icelake-steady.profile \
#     baretma bench --cpuid-dump examples/dumps/ice-lake-i7.test
# Keys: doc/simulator.md, "The profile".  Deterministic (doc/simulator.md,
# "Deterministic profiles"): no jitter, and the measurement's own MSR
# accesses count the work's shares (no access_* share is given), so every
# reading of IA32_PERF_METRICS holds the same bytes, whatever the clock;
# only TSC ticks, slots and the bounds (they follow the slots) vary from run
# to run.  icelake.profile is the same core with jitter and accesses that
# count other shares.
# Ice Lake's PERF_METRICS has level 1 only (SDM Vol. 3B, IA32_PERF_METRICS).
# Its recipe (intel/perfmon icelake_metrics.json) adds 5 x
# INT_MISC.CLEARS_COUNT / SLOTS to backend bound, bad speculation the rest;
# the simulator counts one clear per 20 slots of bad speculation, so the 9
# and 40 below read 6.77 and 42.25 (9 - 9/4 and 102/255 + 9/4 percent).
# The shares are chosen so that each value printed with two decimals lies
# mid-way between two roundings: a count's last slot cannot flip a digit.

# width: not given, so the model table's pipeline width of the CPU's kind
# (Sunny Cove: 5 slots per cycle).
# ghz: not given, so 3.0 core cycles per nanosecond of CLOCK_MONOTONIC:
# the kernels' real run time is the work the counters see.

# Level 1, percent of the work's slots; the four sum to 100 (the bytes
# 79, 23, 51 and 102 sum to 255).
retiring          31    # slots that retired a uop
bad_speculation    9    # slots lost to mispredicted branches, machine clears
frontend_bound    20    # slots the front end delivered no uop in
backend_bound     40    # slots the back end could not take a uop in

# What each RDMSR/WRMSR of the measurement itself costs, so the empty
# bracket (the cost subtracted from every kernel) is not free.
access_cycles   2000    # cycles per simulated MSR access, at the shares above
