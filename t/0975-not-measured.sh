#!/bin/sh
# t/0975-not-measured.sh - never a 0 for what was not measured: bench with
# a calibration whose resolution was not reached says so (before:
# "resolution 0 cycles (none reached)", a resolution of 0 cycles reads as
# "every region is resolved").  The calibration is made on the simulator
# with noise 2 (t/0457 works by hand why its resolution is never reached:
# the half-distance between the 2.5th and 97.5th percentiles is above 1
# point at every length), so its document's resolution_cycles is null.
# The markers' row of a region with no pair is t/0973's.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no CPUID dump $ICL"
BARETMA_STATE_DIR=$tmp/run
mkdir -p "$BARETMA_STATE_DIR"
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_CPUID_DUMP BARETMA_PERF

printf 'ghz 3\naccess_cycles 10000\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\nnoise 2\nseed 7\n' >"$tmp/p"
printf 'ghz 3\naccess_cycles 10000\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\n' >"$tmp/pb"
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p "$BARETMA" calibrate --backend msr --json \
	>"$tmp/c.json" 2>"$tmp/c.err"
is "$?:$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["backends"][0]["resolution_cycles"])' "$tmp/c.json")" \
	"0:None" "calibrate, noise 2: exit 0, resolution not reached (null)"
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/pb "$BARETMA" bench --backend msr \
	--kernel retire-light --reps 5 >"$tmp/out" 2>&1
is "$?" 0 "bench with that calibration: exit 0"
line=$(grep '^calibration: ' "$tmp/out")
# (Ice Lake's recipe counts events beside PERF_METRICS: its bracket is
# kept per event, msr/recipe/recipes_intel_pm.c)
like "$line" "its empty-bracket cost subtracted \([0-9]+ TSC ticks, counts per event\); resolution not reached \(above 1M cycles: no loop length kept every level-1 metric's spread \+ quantisation \+ bracket error within 1 point; no region is known to be above it\)$" \
	"the calibration's line says the resolution was not reached, and what that means"
unlike "$line" "resolution 0 cycles" "... never 'resolution 0 cycles'"
done_testing
