#!/bin/sh
# t/1000-sim-shared-wait.sh - a run that waits (--wait) for another on the
# simulated PMU with `state FILE` reads the registers as that run's restore
# left them: the simulated machine is one machine for every process, as
# the hardware is (msr/sim/msr_sim.h "Registers", doc/state-file.md "The
# simulator's machine file").  Project issue 27: a background
# `stat -C 7 -I 100`, then `stat --wait`, `bench --wait` or `msr write
# --wait` on cpu 7, then `pmu restore`: afterwards cpu 7's IA32_FIXED_CTR3
# and IA32_PERF_METRICS must be as found, 0 - not the counts the first
# run had when the waiting one started (the simulator used to keep the
# counters per process, loaded at its first access).
#
# The machine: the simulated Ice Lake of the README's quick start
# (examples/profiles/icelake.profile, counting by real time at 3 GHz) with
# a `state FILE` line, over t/guard-fixture.sh's sim_regs for cpus 6 and 7
# (an idle Linux PMU: FC3 and PERF_METRICS 0 and free).  Deterministic:
# the waiting run starts once the first is counting (its journal exists,
# cpu 7's IA32_FIXED_CTR_CTRL is its 0x3000: FC3's field EN_OS | EN_USR,
# msr/pmu/pmu.h step 3), and the first is stopped (SIGINT: its results,
# exit 0, the registers put back) only once the waiting run is blocked on
# cpu 7's lock (/proc/locks lists it waiting), so the waiting run has
# opened the machine while the first still counts, every time.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

PROFILE=$T_SRC/../examples/profiles/icelake.profile
[ -r "$PROFILE" ] || skip_all "no $PROFILE"
[ -r /proc/locks ] || skip_all "no /proc/locks (the test waits for a run blocked on a lock)"
{ cat "$PROFILE"; printf 'state %s\n' "$tmp/state"; } >"$tmp/profile"
BARETMA_MSR=sim:$tmp/profile
BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_CPUID_DUMP

setup() {
	fixture
	printf '0\n' >"$WD"
	cp -a "$WD" "$tmp/root.orig/proc/sys/kernel/nmi_watchdog"
	{ sim_regs 6; sim_regs 7; } >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
}
counting() { grep -q '^7 0x38d 0x3000$' "$tmp/state"; }
# reg MSR: cpu 7's MSR as `baretma msr read` prints it
reg() { "$BARETMA" msr read 7 "$1" 2>&1 </dev/null; }

while read -r name cmd; do
	setup
	is "$(reg 0x30c)" "cpu 7 IA32_FIXED_CTR3 (0x30c) = 0x0" "$name: before, FC3 is 0"
	is "$(reg 0x329)" "cpu 7 IA32_PERF_METRICS (0x329) = 0x0" "$name: before, PERF_METRICS is 0"
	(sig_dfl "$BARETMA" stat -C 7 -I 100 >"$tmp/out1" 2>&1) &
	p1=$!
	until_true journal_of "$p1"; ok $? "$name: the first run's journal is there"
	until_true counting; ok $? "$name: the first run counts cpu 7 (IA32_FIXED_CTR_CTRL 0x3000)"
	rm -f "$tmp/points"
	if [ "$name" = stat ]; then
		# stat's --wait polls the lock (a held SIGINT ends its wait:
		# msr/guard/lock.h), so no flock waiter shows it: the test build names
		# the point where it takes the lock, after its accesses began
		BARETMA_TEST_POINTS=$tmp/points "$BARETMA_HOOKS" $cmd >"$tmp/out2" 2>&1 &
		p2=$!
		until_true grep -qx lock "$tmp/points"
	else
		"$BARETMA" $cmd >"$tmp/out2" 2>&1 &
		p2=$!
		until_true flock_waiter "$tmp/run/cpu7.lock" "$p2"
	fi
	ok $? "$name: the waiting run waits for cpu 7's lock"
	kill -INT "$p1"
	wait "$p1"; rc=$?
	is "$rc" 0 "$name: the first run, stopped by SIGINT, exits 0"
	wait "$p2"; rc=$?
	is "$rc" 0 "$name: the waiting run exits 0"
	[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/out2" | head -5
	case $name in
	msr-write) like "$(cat "$tmp/out2")" "IA32_FIXED_CTR3 \(0x30c\): 0x0 -> 0x539607" \
		"msr-write: it read FC3 as the first run put it back, 0" ;;
	esac
	"$BARETMA" pmu restore >"$tmp/restore" 2>&1 </dev/null; rc=$?
	is "$rc" 0 "$name: pmu restore exits 0"
	is "$(reg 0x30c)" "cpu 7 IA32_FIXED_CTR3 (0x30c) = 0x0" "$name: after pmu restore, FC3 is 0"
	is "$(reg 0x329)" "cpu 7 IA32_PERF_METRICS (0x329) = 0x0" \
		"$name: after pmu restore, PERF_METRICS is 0"
	is "$(same "$tmp/state" "$tmp/orig")" 0 "$name: every register byte for byte as found"
	is "$(journals)" "" "$name: no journal left"
done <<EOF
stat stat -C 7 -I 100 --count 2 --wait
bench bench --cpu 7 --backend msr --kernel retire-light --reps 5 --warmup 1 --wait
msr-write msr write --wait 7 IA32_FIXED_CTR3 0x539607
EOF
done_testing
