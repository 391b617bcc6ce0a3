#!/bin/sh
# t/0461-sim-write-order.sh - baretma's own register sequences keep the
# kernel's order: fixed counter 3 written, then IA32_PERF_METRICS (linux
# arch/x86/events/intel/core.c icl_set_topdown_event_period: "The fixed
# counter 3 has to be written before the PERF_METRICS").  The simulated PMU
# (msr/sim/msr_sim.h) counts every PERF_METRICS write made while fixed counter
# 3 has counted since it was last written in its
# diagnostic register SIM_MSR_ORDER_ERRORS (0x400000f0, a range the SDM
# reserves: no CPU has it), which a `state FILE` listing it keeps.  Every
# command that programs the PMU - bench (msr and perf), compare, calibrate,
# validate (its perf checks too), pmu enable and restore, a run killed
# mid-way and put back by `baretma pmu restore`, a run stopped by SIGTERM
# and put back by its own handler - must leave it 0.
#
# The machine: the simulated Ice Lake with `state FILE` for cpus 6 and 7 as
# t/0388 has it (t/guard-fixture.sh sim_regs), plus the diagnostic register
# of each, 0; the same profile for perf_event (BARETMA_PERF).
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

[ "$GP" = 8 ] || skip_all "the Ice Lake dump should have 8 GP counters, has $GP"
FI=${BARETMA_FI_KILL:-$(dirname "$BARETMA_HOOKS")/fi-kill}

setup() {
	fixture
	{ sim_regs 6; printf '6 0x400000f0 0x0\n'; sim_regs 7; printf '7 0x400000f0 0x0\n'; } >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
}
sim_machine

# errors: the diagnostic register of cpus 6 and 7, "6:0x0 7:0x0" when clean
errors() { awk '$2 == "0x400000f0" { printf "%s%s:%s", n++ ? " " : "", $1, $3 }' "$tmp/state"; }

# The check works: with fixed counter 3 counting (its field OS|USR, bits 35
# and 48 of IA32_PERF_GLOBAL_CTRL), `msr write` of PERF_METRICS alone is
# out of order (its own access is counted first), and counted: 7:0x1.
setup
"$BARETMA" msr write --force 7 IA32_FIXED_CTR_CTRL 0x3000 >"$tmp/out" 2>&1
"$BARETMA" msr write --force 7 IA32_PERF_GLOBAL_CTRL 0x1000f000000ff >>"$tmp/out" 2>&1
"$BARETMA" msr write --force 7 IA32_PERF_METRICS 0 >>"$tmp/out" 2>&1
is "$(errors)" "6:0x0 7:0x1" "control: PERF_METRICS written while fixed counter 3 counts: counted"

while read -r name cmd; do
	setup
	st=0
	"$BARETMA" $cmd >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$name" = enable ] && "$BARETMA" pmu restore >/dev/null 2>&1
	like "$st" "^(0|69)$" "$name: exits 0 (compare: 0 or 69, a metric n/a)"
	is "$(errors)" "6:0x0 7:0x0" "$name: no PERF_METRICS write out of the kernel's order"
	# perf's registers are the (simulated) kernel's, which leaves them as
	# its intel_ctrl has them (bench/source/perf_sim.c): not baretma's to put back
	[ "$name" = bench-perf ] ||
		is "$(same "$tmp/state" "$tmp/orig")" 0 "$name: the registers as found"
done <<EOF
bench bench --cpu 7 --backend msr --kernel retire-light --reps 5 --warmup 1
bench-perf bench --cpu 7 --backend perf --kernel retire-light --reps 5 --warmup 1
compare compare --cpu 7 --pairs 9 --reps 2 --kernel retire-light
calibrate calibrate --cpu 7 --backend msr,perf --reps 20 -o $tmp/calibration.json
validate validate --cpu 7
enable pmu enable --cpu 7 --stop-nmi-watchdog --rdpmc-always
EOF

# Stopped mid-way: SIGTERM (its handler puts the registers back) and
# SIGKILL (`baretma pmu restore` does), half-way through its accesses.
if [ -x "$FI" ]; then
	setup
	BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpu 7 --backend msr --kernel retire-light \
		--reps 20 --warmup 0 >/dev/null 2>&1
	half=$(($(wc -l <"$tmp/trace") / 2))
	for sig in 15 9; do
		setup
		: >"$tmp/trace"
		BARETMA_MSR_TRACE=$tmp/trace "$FI" "$tmp/trace" "$half" "$sig" 0 -- \
			"$BARETMA" bench --cpu 7 --backend msr --kernel retire-light --reps 20 \
			--warmup 0 >/dev/null 2>&1 </dev/null
		"$BARETMA" pmu restore >/dev/null 2>&1
		is "$(errors)" "6:0x0 7:0x0" "bench stopped by signal $sig, then restored: in order"
		is "$(same "$tmp/state" "$tmp/orig")" 0 "bench stopped by signal $sig: the registers as found"
	done
else
	skip "no fault injector $FI (make check builds it)"
fi
done_testing
