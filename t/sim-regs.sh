# t/sim-regs.sh - gp_regs and sim_regs, sourced by t/guard-fixture.sh and
# the tests that write a simulated state file of their own (t/1201); $GP
# is the dump's GP counters (CPUID.0AH:EAX[15:8]).
# gp_regs CPU: IA32_PERFEVTSELi, IA32_PMCi and its full-width alias
# IA32_A_PMCi (0x186, 0xc1, 0x4c1 + i: linux msr-index.h) 0, for each of
# the $GP counters: as firmware and the simulator leave them
gp_regs() {
	i=0
	while [ "$i" -lt "$GP" ]; do
		printf '%s 0x%x 0x0\n%s 0x%x 0x0\n%s 0x%x 0x0\n' "$1" $((0x186 + i)) "$1" \
			$((0xc1 + i)) "$1" $((0x4c1 + i))
		i=$((i + 1))
	done
}
# sim_regs CPU: one CPU's registers as the simulator's clean file has them
# (msr/sim/msr_sim.h), for a simulated state file: for the GP counters
# (CPUID.0AH:EAX[15:8] of the dump, $GP) IA32_PERFEVTSELi 0, IA32_PMCi 0 and
# its full-width alias IA32_A_PMCi 0 (bit 13 below; validate's
# metrics_match_events writes the counters there, msr/pmu/pmu_gp.h),
# IA32_FIXED_CTR0-3 0, IA32_PERF_METRICS 0, IA32_PERF_CAPABILITIES bit 13
# (full-width writes) | bit 15 (PERF_METRICS) = 0xa000 (Ice Lake has no
# metrics-clear: no bit 19), IA32_PERF_GLOBAL_STATUS, _RESET, _SET (v5 >=
# 4) and _INUSE 0; but IA32_FIXED_CTR_CTRL 0 and IA32_PERF_GLOBAL_CTRL = GP0-7
# (0xff) | FC0-2 (bits 32-34, 0x700000000) = 0x7000000ff: fixed counter 3
# and PERF_METRICS (bits 35, 48) free, so no --force is needed.
sim_regs() {
	gp_regs "$1"
	printf '%s 0x309 0x0\n%s 0x30a 0x0\n%s 0x30b 0x0\n%s 0x30c 0x0\n%s 0x329 0x0\n' \
		"$1" "$1" "$1" "$1" "$1"
	printf '%s 0x345 0xa000\n%s 0x38d 0x0\n%s 0x38e 0x0\n%s 0x38f 0x7000000ff\n' \
		"$1" "$1" "$1" "$1"
	printf '%s 0x390 0x0\n%s 0x391 0x0\n%s 0x392 0x0\n' "$1" "$1" "$1"
}
