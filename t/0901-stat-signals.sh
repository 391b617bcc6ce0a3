#!/bin/sh
# t/0901-stat-signals.sh - a signal to `baretma stat` mid-run: SIGTERM is
# forwarded to the command, whose exit status stat passes on, and the
# registers - the simulated PMU's, kept in a state file (`state FILE`,
# msr/sim/msr_sim.h: every write persisted) - are byte for byte as found; SIGINT
# to a count without a command ends it with the results and exit 0, the
# registers put back the same way.  No journal is left either way.
#
# The registers are t/guard-fixture.sh's sim_regs of the Ice Lake dump
# (an idle Linux PMU: fixed counter 3 and PERF_METRICS free); programmed,
# IA32_FIXED_CTR_CTRL is 0 | 0x3 << 12 = 0x3000 (msr/pmu/pmu.h step 3: FC3
# field EN_OS | EN_USR), which the test waits for before signalling.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

setup() {
	fixture
	printf '0\n' >"$WD"
	cp -a "$WD" "$tmp/root.orig/proc/sys/kernel/nmi_watchdog"
	{ sim_regs 0; sim_regs 1; } >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
	rm -f "$tmp/started" "$tmp/got" "$tmp/out" "$tmp/stop"
}
sim_profile
BARETMA_MSR=sim:$tmp/profile
BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_CPUID_DUMP

started() { [ -e "$tmp/started" ]; }
counting() { grep -q '^0 0x38d 0x3000$' "$tmp/state"; }
interval_line() { grep -q '^ *[0-9]*\.[0-9]\{9\}  ' "$tmp/out" 2>/dev/null; }

# --- SIGTERM with a command: forwarded, its status passed on ---------------
setup
(sig_dfl "$BARETMA" stat -C 0-1 -- sh -c "trap 'echo TERM >\"$tmp/got\"; exit 7' TERM
	: >\"$tmp/started\"; while [ ! -e \"$tmp/stop\" ]; do sleep 0.05; done; exit 9" \
	>"$tmp/out" 2>&1) &
pid=$!
until_true started; ok $? "the command started"
until_true counting; ok $? "cpu 0 is being counted (IA32_FIXED_CTR_CTRL 0x3000)"
kill -TERM "$pid"
# not forwarded, the command would run on: it is told to stop (exit 9), so
# that the test fails instead of waiting for ever
got() { [ -e "$tmp/got" ]; }
until_true got || : >"$tmp/stop"
wait "$pid"; rc=$?
is "$rc" 7 "SIGTERM to stat: the command got it and exited 7, stat exits 7"
is "$(cat "$tmp/got" 2>/dev/null)" TERM "the command's TERM trap ran"
like "$(cat "$tmp/out")" "the command exited 7" "the results are printed"
like "$(cat "$tmp/out")" "\(signal 15\) forwarded to the command" "and the signal forwarded"
is "$(same "$tmp/state" "$tmp/orig")" 0 "every register byte for byte as found"
is "$(journals)" "" "no journal left"

# --- SIGINT without a command: the count ends, results, exit 0 -------------
setup
(sig_dfl "$BARETMA" stat -C 0-1 -I 100 >"$tmp/out" 2>&1) &
pid=$!
until_true interval_line; ok $? "an interval line was printed"
kill -INT "$pid"
wait "$pid"; rc=$?
is "$rc" 0 "SIGINT ends a count without a command: exit 0"
like "$(cat "$tmp/out")" "intervals read \(timer drift median" "the end is printed"
is "$(same "$tmp/state" "$tmp/orig")" 0 "every register byte for byte as found"
is "$(journals)" "" "no journal left"

# --- --user-only: fixed counter 3 at CPL > 0 only ---------------------------
# IA32_FIXED_CTR_CTRL's field of fixed counter i is bits 4i+3:4i, bit 4i
# EN_OS (CPL 0), bit 4i+1 EN_USR (CPL > 0) (SDM Vol. 3B 21.2.2, "Fixed-
# function Performance Counters", Figure 21-2): user only is 0x2 << 12 =
# 0x2000, both 0x3000.  The command reads the register while it is counted.
for mode in "--user-only 0x2000" "-C0 0x3000"; do
	set -- $mode
	setup
	"$BARETMA" stat -C 0 "$1" -- sh -c "grep '^0 0x38d ' \"$tmp/state\" >\"$tmp/got\"" \
		>/dev/null 2>&1; rc=$?
	is "$rc" 0 "stat $1 -- (read IA32_FIXED_CTR_CTRL) exits 0"
	is "$(cat "$tmp/got")" "0 0x38d $2" "$1: IA32_FIXED_CTR_CTRL $2 while counting"
	is "$(same "$tmp/state" "$tmp/orig")" 0 "$1: every register byte for byte as found after"
done
done_testing
