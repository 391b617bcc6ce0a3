#!/bin/sh
# t/1095-dump-missing-sim.sh - a CPUID dump that is not there is missing
# input, exit 66 (sysexits.h EX_NOINPUT; README "Exit status"), whether the
# MSR device is this machine's or the simulated PMU (BARETMA_MSR=sim:),
# which loads the same dump to know the machine it models.  Before, the
# simulator said "simulated PMU: cannot load CPUID dump" and the command
# exited 65 (EX_DATAERR, bad data) for a file that did not exist.  A dump
# that exists but is not a dump stays 65 both ways.
. "$T_SRC/tap.sh"

printf 'ghz 1\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' \
	>"$tmp/profile"
mkdir -p "$tmp/run"
BARETMA_STATE_DIR=$tmp/run
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_PERF BARETMA_CPUID_DUMP
missing=$tmp/no-such-dir/no-such.dump
printf 'not a dump\n' >"$tmp/garbage.dump"

# each command that takes --cpuid-dump, as a user would type it
for cmd in "stat" "bench" "validate" "compare" "calibrate" "info" "pmu status"; do
	extra=
	[ "$cmd" = stat ] && extra="-- true"
	for dev in "" "sim:$tmp/profile"; do
		name=${dev:+simulated PMU}
		name=${name:-this machine\'s device}
		# shellcheck disable=SC2086 # $cmd and $extra are words
		BARETMA_MSR=$dev "$BARETMA" $cmd --cpuid-dump "$missing" $extra \
			>/dev/null 2>"$tmp/err"; rc=$?
		is "$rc" 66 "$cmd, $name: a missing dump exits 66"
		like "$(cat "$tmp/err")" "cannot load CPUID dump '$missing': No such file or directory" \
			"$cmd, $name: the message names the dump and the cause"
		# shellcheck disable=SC2086
		BARETMA_MSR=$dev "$BARETMA" $cmd --cpuid-dump "$tmp/garbage.dump" $extra \
			>/dev/null 2>"$tmp/err"; rc=$?
		is "$rc" 65 "$cmd, $name: a file that is no dump exits 65"
	done
done

# the environment's dump, as the option
BARETMA_MSR=sim:$tmp/profile BARETMA_CPUID_DUMP=$missing "$BARETMA" stat -- true \
	>/dev/null 2>"$tmp/err"; rc=$?
is "$rc" 66 "stat, simulated PMU: BARETMA_CPUID_DUMP missing exits 66"
done_testing
