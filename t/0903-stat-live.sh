#!/bin/sh
# t/0903-stat-live.sh - `baretma stat -- COMMAND` on "this machine" (the
# test build's live-CPU seam: the live CPU's CPUID read from the Ice Lake
# dump, t/live-fixture.sh; the live topology and pinning this machine's;
# the counters the simulated PMU's): the command runs pinned to the CPUs
# counted, and with the NUMA memory policy baretma was started with - a
# session binds baretma's thread's memory to its CPU's node
# (cpu/cpu_topo.c cpu_pin_self), and a memory policy is inherited across
# fork(2) and execve(2) (set_mempolicy(2)), so stat must put it back
# before it forks.
#
# What is expected comes from the kernel, never from baretma: the CPU
# chosen is one this test may run on (its own Cpus_allowed_list, the
# kernel's /proc/PID/status), the policy the test shell's own (the first
# mapping's policy in /proc/PID/numa_maps, Documentation/filesystems/
# proc.rst).
. "$T_SRC/tap.sh"

ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"
[ -x "${BARETMA_HOOKS:-}" ] || skip_all "no test build of the tool (t/baretma-hooks)"
[ -r /proc/self/numa_maps ] || skip_all "no /proc/self/numa_maps (a kernel without NUMA)"

# the last CPU this test may run on, among the dump's 0-7
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
cpu=$(printf '%s\n' "$allowed" | tr ',' '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++)
	if (c <= 7) last = c } END { print last }')
[ -n "$cpu" ] || skip_all "none of CPUs 0-7 allowed to this test ($allowed)"

printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
mkdir -p "$tmp/run"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_TEST_LIVE_CPUID=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_TEST_LIVE_CPUID
unset BARETMA_CPUID_DUMP BARETMA_MSR_TRACE BARETMA_PERF

policy=$(awk '{ print $2; exit }' /proc/self/numa_maps)
"$BARETMA_HOOKS" stat -C "$cpu" -- sh -c "sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' \
	/proc/self/status >\"$tmp/cpus\"; awk '{ print \$2; exit }' /proc/self/numa_maps \
	>\"$tmp/policy\"" >"$tmp/out" 2>&1; rc=$?
is "$rc" 0 "stat -C $cpu -- (the command reads its affinity and memory policy) exits 0"
is "$(cat "$tmp/cpus")" "$cpu" "the command ran pinned to cpu $cpu"
is "$(cat "$tmp/policy")" "$policy" "with the memory policy baretma was started with ($policy)"
like "$(cat "$tmp/out")" "tma_retiring" "Top-down printed"
unlike "$(cat "$tmp/out")" "not pinned" "no 'not pinned' note on this machine"
done_testing
