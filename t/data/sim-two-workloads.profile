# A simulated PMU profile (BARETMA_MSR=sim:FILE, man 1 baretma) with two
# workloads whose shares t/0454, t/0992, t/0993 and t/0995 work by hand:
# no time-based counting (ghz 0), so only the simulator's accesses (1000
# cycles each, at the access_* shares) and its work (test-sim-work or
# msr_sim_work, 4000 cycles a call, at the plain shares) count.
ghz 0
access_cycles 1000
work_cycles 4000
retiring 60
bad_speculation 20
frontend_bound 20
backend_bound 0
heavy_operations 40
branch_mispredicts 20
fetch_latency 20
memory_bound 0
access_retiring 20
access_bad_speculation 20
access_frontend_bound 20
access_backend_bound 40
access_heavy_operations 0
access_branch_mispredicts 20
access_fetch_latency 20
access_memory_bound 40
