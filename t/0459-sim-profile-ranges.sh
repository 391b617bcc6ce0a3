#!/bin/sh
# t/0459-sim-profile-ranges.sh - every numeric key of a simulator profile
# (doc/simulator.md: its documented range) is range-checked, and
# a profile that fails is refused by every command that would use it, exit
# 65, with the file, the line, the key and the value - never taken for "no
# MSR backend here" (bench --backend auto would time the TSC alone and
# exit 0) or skipped.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

base='retiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\n'
# bad LINE REGEX: a profile of the four level-1 shares and LINE (line 5) is
# refused by bench (auto and msr), compare, calibrate, validate and info,
# each naming the file, line 5 and what REGEX matches.
bad() {
	printf "$base%s\n" "$1" >"$tmp/p"
	for c in "bench --reps 3" "bench --backend msr --reps 3" "compare" "calibrate --reps 21" \
		"validate" "info"; do
		st=0
		BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p "$BARETMA" $c >"$tmp/out" 2>&1 || st=$?
		is "$st" 65 "'$1': $c: exit 65"
		like "$(cat "$tmp/out")" "^baretma: profile '$tmp/p': line 5: $2" "'$1': $c: file, line, key, value"
	done
}
bad 'width 17' "'width' needs a number from 1 to 16, got '17'"
bad 'width 2.5' "'width' needs a whole number, got '2\\.5'"
bad 'ghz 11' "'ghz' needs a number from 0 to 10, got '11'"
bad 'ghz -1' "'ghz' needs a number from 0 to 10, got '-1'"
bad 'ghz nan' "'ghz' needs a number from 0 to 10, got 'nan'"
bad 'ipc 17' "'ipc' needs a number from 0 to 16, got '17'"
bad 'access_cycles 1.5' "'access_cycles' needs a whole number, got '1\\.5'"
bad 'noise 51' "'noise' needs a number from 0 to 50, got '51'"
bad 'noise inf' "'noise' needs a number from 0 to 50, got 'inf'"
bad 'heavy_operations 101' "'heavy_operations' needs a number from 0 to 100, got '101'"
bad 'access_retiring 101' "'access_retiring' needs a number from 0 to 100, got '101'"
bad 'access_memory_bound -1' "'access_memory_bound' needs a number from 0 to 100, got '-1'"
bad 'work_cycles 1.5' "'work_cycles' needs a whole number, got '1\\.5'"
bad 'work_cycles 1000000000001' "'work_cycles' needs a number from 0 to 1e\\+12, got '1000000000001'"
bad 'user_fraction 1.5' "'user_fraction' needs a number from 0 to 1, got '1\\.5'"
bad 'user_fraction -0.1' "'user_fraction' needs a number from 0 to 1, got '-0\\.1'"
bad 'smt_contention 101' "'smt_contention' needs a number from 0 to 100, got '101'"
bad 'smt yes' "'smt' takes 'on' or 'off', got 'yes'"
bad 'user_fraction nan' "'user_fraction' needs a number from 0 to 1, got 'nan'"
bad 'fault sum_off 65' "'fault sum_off' needs a number from -64 to 64, got '65'"
bad 'fault overflow_every 0' "'fault overflow_every' needs a number from 1 to 1e\\+09, got '0'"
bad 'fault perf_offset tma_retiring 101' \
	"'fault perf_offset NODE' needs a number from -100 to 100, got '101'"
# a share out of 0-100 in place of a level-1 one
printf 'retiring 120\nbad_speculation -20\nfrontend_bound 0\nbackend_bound 0\n' >"$tmp/p"
st=0
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --reps 3 >"$tmp/out" 2>&1 || st=$?
is "$st" 65 "'retiring 120': bench: exit 65"
like "$(cat "$tmp/out")" "^baretma: profile '$tmp/p': line 1: 'retiring' needs a number from 0 to 100, got '120'" \
	"'retiring 120': file, line, key, value"
# the perf source's profile too
printf "${base}noise 51\n" >"$tmp/p"
st=0
BARETMA_CPUID_DUMP=$ICL BARETMA_PERF=sim:$tmp/p "$BARETMA" bench --backend perf --reps 3 \
	>"$tmp/out" 2>&1 || st=$?
is "$st" 65 "BARETMA_PERF=sim: 'noise 51': bench --backend perf: exit 65"
like "$(cat "$tmp/out")" "^baretma: profile '$tmp/p': line 5: 'noise' needs a number from 0 to 50, got '51'" \
	"BARETMA_PERF=sim: file, line, key, value"
# control: the same profile in range measures
printf "${base}noise 0\n" >"$tmp/p"
st=0
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --backend msr --reps 3 \
	--kernel retire-light >"$tmp/out" 2>&1 || st=$?
is "$st" 0 "control: 'noise 0': bench exits 0"
done_testing
