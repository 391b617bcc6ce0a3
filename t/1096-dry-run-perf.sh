#!/bin/sh
# t/1096-dry-run-perf.sh - a simulated MSR device implies the simulated
# perf_event of the same profile (issue 29, newcomer list): with
# BARETMA_MSR=sim:PROFILE and BARETMA_PERF unset, `compare` measures both
# sides on the one simulated machine, as it did only with
# BARETMA_PERF=sim:PROFILE set too; set otherwise it is obeyed:
# BARETMA_PERF=kernel (or empty) asks for this machine's perf_event, which
# cannot measure a CPUID dump's CPU (exit 69, README "Exit status", the
# reason naming the dump and the remedy).
. "$T_SRC/tap.sh"
pyq_start

ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
mkdir -p "$tmp/run"
BARETMA_STATE_DIR=$tmp/run
export BARETMA_STATE_DIR
unset BARETMA_PERF BARETMA_MSR_TRACE BARETMA_CPUID_DUMP

BARETMA_MSR=sim:$tmp/p "$BARETMA" compare --cpuid-dump "$ICL" --reps 5 --json \
	>"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "compare, BARETMA_MSR=sim: and BARETMA_PERF unset: exit 0"
if command -v python3 >/dev/null 2>&1; then
	# the profile's shares on both sides: 28 comparisons of the seven
	# non-empty kernels' four level-1 nodes, none disagreeing
	is "$(pyq '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdicts"]
print(v["agree"], v["disagree"], d["perf_backend"])' "$tmp/out" 2>&1)" "28 0 perf" \
		"  both sides measured (perf_backend perf): 28 agree, none disagrees"
else
	skip "python3 needed to read JSON"
fi
unlike "$(cat "$tmp/err")" "perf_event measures this machine" "  perf_event not refused"

for v in kernel ""; do
	BARETMA_PERF=$v BARETMA_MSR=sim:$tmp/p "$BARETMA" compare --cpuid-dump "$ICL" --reps 5 \
		>"$tmp/out" 2>"$tmp/err"; rc=$?
	is "$rc" 69 "compare, BARETMA_PERF='$v': this machine's perf_event, exit 69"
	like "$(cat "$tmp/err")" "perf_event: cpu [0-9]* is a CPU of the CPUID dump '$ICL': perf_event measures this machine" \
		"  the reason names the dump"
done

# a perf_event simulator of its own profile still wins over the MSR's
printf 'retiring 10\nbad_speculation 10\nfrontend_bound 10\nbackend_bound 70\n' >"$tmp/q"
BARETMA_PERF=sim:$tmp/q BARETMA_MSR=sim:$tmp/p "$BARETMA" compare --cpuid-dump "$ICL" --reps 5 \
	>"$tmp/out" 2>"$tmp/err"; rc=$?
like "$(cat "$tmp/out")" "DISAGREE" "BARETMA_PERF=sim:OTHER: the perf side is the other profile's (they disagree)"
done_testing
