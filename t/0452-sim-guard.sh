#!/bin/sh
# t/0452-sim-guard.sh - the guard on the simulated PMU with `state FILE`
# (msr/sim/msr_sim.h: the registers are FILE's, every write persisted, as the
# state-file backend keeps them): `pmu enable` + `pmu restore`, a finished
# bench, and a bench killed by SIGKILL + `pmu restore` each leave FILE byte
# for byte as found; the same three on the plain state-file backend
# (state:FILE) give the same results.
#
# FILE holds cpus 6 and 7 of the Ice Lake dump (t/guard-fixture.sh: its
# sysroot and helpers; the state file is this test's own), with the
# registers the simulator's clean file has (msr/sim/msr_sim.h): for the 8 GP
# counters (CPUID.0AH:EAX[15:8] of the dump, $GP) IA32_PERFEVTSELi 0 and
# IA32_PMCi 0, IA32_FIXED_CTR0-3 0, IA32_PERF_METRICS 0,
# IA32_PERF_CAPABILITIES bit 13 (full-width writes) | bit 15 (PERF_METRICS)
# = 0x2000 | 0x8000 = 0xa000 (Ice Lake has no metrics-clear: no bit 19),
# IA32_PERF_GLOBAL_STATUS, _RESET, _SET (v5 >= 4) and _INUSE 0; but
# IA32_FIXED_CTR_CTRL 0 and IA32_PERF_GLOBAL_CTRL = GP0-7 (0xff) | FC0-2
# (bits 32-34, 0x700000000) = 0x7000000ff: fixed counter 3 and PERF_METRICS
# (bits 35, 48) free, so no --force is needed.
# Programmed (the kernel's order): IA32_FIXED_CTR_CTRL 0 | 0x3 << 12 = 0x3000,
# IA32_PERF_GLOBAL_CTRL 0x7000000ff | 1<<35 | 1<<48 = 0x1000f000000ff.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/guard-fixture.sh"

[ "$GP" = 8 ] || skip_all "the Ice Lake dump should have 8 GP counters, has $GP"

# setup: the guard fixture's sysroot (NMI watchdog off, as the simulator's
# clean file assumes), no journal, and this test's state file with a copy.
setup() {
	fixture
	printf '0\n' >"$WD"
	cp -a "$WD" "$tmp/root.orig/proc/sys/kernel/nmi_watchdog"
	{ sim_regs 6; sim_regs 7; } >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
}

sim_profile

BARETMA_CPUID_DUMP=$ICL
export BARETMA_CPUID_DUMP

for spec in "sim:$tmp/profile" "state:$tmp/state"; do
	BARETMA_MSR=$spec
	export BARETMA_MSR
	b=${spec%%:*}

	# --- a. pmu enable, pmu restore ------------------------------------
	setup
	out=$("$BARETMA" pmu enable --cpu 6 2>&1); rc=$?
	is "$rc" 0 "$b: pmu enable --cpu 6 exits 0"
	is "$(grep -E '^6 0x38(d|f) ' "$tmp/state" | tr '\n' ';')" "6 0x38d 0x3000;6 0x38f 0x1000f000000ff;" \
		"$b: cpu 6 programmed: FIXED_CTR_CTRL 0x3000, GLOBAL_CTRL 0x1000f000000ff"
	is "$(grep '^7 ' "$tmp/state")" "$(grep '^7 ' "$tmp/orig")" "$b: cpu 7 untouched by enable"
	is "$(journals | wc -w)" 1 "$b: enable leaves its journal"
	out=$("$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 0 "$b: pmu restore exits 0"
	is "$(same "$tmp/state" "$tmp/orig")" 0 "$b: enable + restore: state file byte for byte as found"
	is "$(journals)" "" "$b: restore removed the journal"

	# --- b. a finished bench --------------------------------------------------
	setup
	"$BARETMA" bench --cpu 7 --backend msr --kernel retire-light --reps 5 --warmup 1 --json \
		>"$tmp/out" 2>"$tmp/err"; rc=$?
	is "$rc" 0 "$b: bench --backend msr exits 0"
	# The simulator counts (every repetition valid); the plain state file's
	# FC3 never moves: every repetition zero slots.
	[ "$b" = sim ] && want="5 0" || want="5 5"
	if command -v python3 >/dev/null 2>&1; then
		is "$(pyq 'import json, sys
k = [k for k in json.load(open(sys.argv[1]))["kernels"] if k["name"] == "retire-light"][0]
print(k["repetitions"], k["invalid_reasons"]["zero_slots"])' "$tmp/out")" "$want" \
			"$b: retire-light: 5 repetitions, zero-slots ones: ${want#5 }"
	else
		skip "no python3"
	fi
	is "$(same "$tmp/state" "$tmp/orig")" 0 "$b: bench: state file byte for byte as found"
	is "$(journals)" "" "$b: bench leaves no journal"
	is "$(same_root)" 0 "$b: bench: sysroot untouched"

	# --- c. a bench killed by SIGKILL, then pmu restore ------------------------
	setup
	rm -f "$tmp/trace"
	BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpu 7 --backend msr --kernel retire-light \
		--reps 1000000 --warmup 0 >/dev/null 2>"$tmp/err" &
	pid=$!
	until_true journal_of "$pid"; ok $? "$b: the run's journal exists: run-$pid.journal"
	# Measuring: programming is over once the run has read GLOBAL_STATUS
	# (its first overflow check follows the programming sequence).
	measuring() { grep -q '^rd 7 0x38e ' "$tmp/trace" 2>/dev/null; }
	until_true measuring; ok $? "$b: the run programmed cpu 7 and measures"
	kill -KILL "$pid"
	wait "$pid"; rc=$?
	is "$rc" 137 "$b: killed by SIGKILL (128+9)"
	is "$(journals)" "run-$pid.journal " "$b: the journal stays after SIGKILL"
	is "$(grep '^7 0x38d ' "$tmp/state")" "7 0x38d 0x3000" "$b: cpu 7 left programmed (FIXED_CTR_CTRL 0x3000)"
	# FC3 and PERF_METRICS (msr/pmu/pmu.h's order), then the two general-purpose
	# counters of Ice Lake's level 1 (INT_MISC.UOP_DROPPING, INT_MISC.
	# CLEARS_COUNT: msr/recipe/recipes_intel_pm.c) through their full-width aliases
	# IA32_A_PMC0-1 and their selects (msr/pmu/pmu_gp.h's order: counters first)
	is "$(grep '^reg 7 ' "$tmp/run/run-$pid.journal" | tr '\n' ';')" \
		"reg 7 0x38f 0x7000000ff;reg 7 0x38d 0x0;reg 7 0x30c 0x0;reg 7 0x329 0x0;reg 7 0x4c1 0x0;reg 7 0x4c2 0x0;reg 7 0x186 0x0;reg 7 0x187 0x0;" \
		"$b: journal: cpu 7's registers as found"
	out=$("$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 0 "$b: pmu restore after SIGKILL exits 0"
	like "$out" "cpu 7: restored IA32_PERF_GLOBAL_CTRL=0x7000000ff" "$b: restore reports cpu 7"
	is "$(same "$tmp/state" "$tmp/orig")" 0 "$b: kill + restore: state file byte for byte as found"
	is "$(journals)" "" "$b: restore removed the journal"
done

done_testing
