#!/bin/sh
# t/1032-input-caps.sh - every input file baretma reads has a cap, and is
# read in blocks (project issue 27, points 3 and 4).
#
# Before, a calibration file was read one byte per read() (jansson's
# json_loadfd: 1 MB cost bench 5.4 s), a simulator profile over 64 KiB
# exited 71 (a system error) though the README has 65 for a bad profile,
# and no cap was documented.  Now each kind has a named cap (doc/safety.md "Bad
# input": cpu/cpu_dump.h CPU_DUMP_MAX_BYTES and CPU_DUMP_PU_MAX_BYTES,
# msr/access/msr.h MSR_STATE_FILE_MAX, msr/sim/msr_sim.c PROFILE_MAX,
# msr/journal/journal_int.h JOURNAL_TEXT_MAX, bench/calibration.h CALIB_FILE_MAX),
# a file over it is bad input: exit 65 (EX_DATAERR), "'FILE': N bytes, over
# the cap of M bytes for a KIND", nothing of it read; a file at its cap is
# read.  The caps are the constants' documented values, restated here.
# Files over a cap are sparse (truncate): their size is what counts.
. "$T_SRC/tap.sh"
pyq_start

ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump $ICL"
command -v truncate >/dev/null 2>&1 || skip_all "no truncate(1) to make a large sparse file"
BARETMA_STATE_DIR=$tmp/run
mkdir -m 0700 "$BARETMA_STATE_DIR"
export BARETMA_STATE_DIR
unset BARETMA_MSR BARETMA_MSR_TRACE BARETMA_CPUID_DUMP BARETMA_TEST_HOOKS BARETMA_PERF

DUMP_CAP=33554432     # 32 MiB
PU_CAP=65536          # 64 KiB
PROFILE_CAP=65536     # 64 KiB
STATE_CAP=67108864    # 64 MiB
JOURNAL_CAP=1078864   # the longest journal baretma writes
CALIB_CAP=1048576     # 1 MiB

# pad FILE SIZE: FILE grown to SIZE bytes with '#' comment lines
pad() {
	_n=$(($2 - $(wc -c <"$1")))
	while [ "$_n" -gt 0 ]; do
		_k=$((_n > 1000 ? 1000 : _n))
		if [ "$_k" = 1 ]; then printf '\n'; else printf '#%*s\n' $((_k - 2)) ''; fi
		_n=$((_n - _k))
	done >>"$1"
}
run() { out=$("$@" 2>&1); rc=$?; }
printf 'ghz 3\naccess_cycles 10000\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\nnoise 0\nseed 7\n' \
	>"$tmp/profile"

# --- CPUID dumps ---------------------------------------------------------------
truncate -s $((DUMP_CAP + 1)) "$tmp/dump"
run "$BARETMA" info --cpuid-dump "$tmp/dump"
is "$rc" 65 "a CPUID dump of 32 MiB + 1 byte: exit 65"
like "$out" "cannot load CPUID dump '$tmp/dump': 33554433 bytes, over the cap of 33554432 bytes for a CPUID dump" \
	"  named, with its size and the cap"
cp -R "$T_DATA/cpuid-hwloc-synthetic" "$tmp/hw"
pad "$tmp/hw/pu1" $PU_CAP
run "$BARETMA" info --cpuid-dump "$tmp/hw"
is "$rc" 0 "a hwloc directory whose pu1 is 64 KiB, at the cap: read (exit 0)"
printf '\n' >>"$tmp/hw/pu1"
run "$BARETMA" info --cpuid-dump "$tmp/hw"
is "$rc" 65 "pu1 one byte over 64 KiB: exit 65"
like "$out" "cannot load CPUID dump '$tmp/hw': pu1: 65537 bytes, over the cap of 65536 bytes for a hwloc-gather-cpuid puN file" \
	"  the directory, pu1, its size and the cap"
cp -R "$T_DATA/cpuid-hwloc-synthetic" "$tmp/hw-info"
truncate -s $((PU_CAP + 1)) "$tmp/hw-info/hwloc-cpuid-info"
run "$BARETMA" info --cpuid-dump "$tmp/hw-info"
is "$rc" 65 "a hwloc-cpuid-info (read by hwloc) over 64 KiB: exit 65"
like "$out" "'$tmp/hw-info': hwloc-cpuid-info: 65537 bytes, over the cap of 65536 bytes for a hwloc-cpuid-info summary" \
	"  named, with the cap"

# --- simulator profiles and state files -----------------------------------------
cp "$tmp/profile" "$tmp/profile-at-cap"
pad "$tmp/profile-at-cap" $PROFILE_CAP
run env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR=sim:"$tmp/profile-at-cap" "$BARETMA" msr read 0 0x38f
is "$rc" 0 "a simulator profile of exactly 64 KiB: read (exit 0)"
cp "$tmp/profile-at-cap" "$tmp/profile-big" && printf '\n' >>"$tmp/profile-big"
for cmd in "msr read 0 0x38f" "bench --backend msr --reps 3"; do
	run env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR=sim:"$tmp/profile-big" "$BARETMA" $cmd
	is "$rc" 65 "a simulator profile of 64 KiB + 1 ($cmd): exit 65, not 71"
	like "$out" "^baretma: cannot read profile '$tmp/profile-big': 65537 bytes, over the cap of 65536 bytes for a simulator profile \\(a profile is a few 'key value' lines" \
		"  named, with the cap and the remedy"
done
truncate -s $((STATE_CAP + 1)) "$tmp/state-big"
run env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR=state:"$tmp/state-big" "$BARETMA" msr read 0 0x38f
is "$rc" 65 "a state file of 64 MiB + 1: exit 65"
like "$out" "state file '$tmp/state-big': 67108865 bytes, over the cap of 67108864 bytes for a state file" \
	"  named, with the cap"
printf 'state %s\n' "$tmp/state-big" >>"$tmp/profile"
run env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR=sim:"$tmp/profile" "$BARETMA" bench --backend msr --reps 3
is "$rc" 65 "a profile whose \`state\` file is over 64 MiB: exit 65"
like "$out" "simulated PMU '$tmp/profile': \`state\` key: state file '$tmp/state-big': 67108865 bytes, over the cap" \
	"  the profile and the state file named"
rm -f "$tmp/state-big"
sed -i '$d' "$tmp/profile"

# --- the state directory: journals and calibrations -----------------------------
J=$BARETMA_STATE_DIR/run-2147483647.journal
truncate -s $((JOURNAL_CAP + 1)) "$J"
chmod 0600 "$J"
run "$BARETMA" pmu status
is "$rc" 65 "a journal of 1078865 bytes: exit 65"
like "$out" "journal '$J' is malformed: 1078865 bytes, over the cap of 1078864 bytes for a journal" \
	"  named, with the cap"
rm -f "$J"

# A calibration for the Ice Lake dump's CPU (family 6, model 0x7E,
# stepping 5), made by calibrate on the simulated PMU.
CAL=$BARETMA_STATE_DIR/calibration-GenuineIntel-6-0x7e-5.json
# bench: its JSON in $tmp/json, its stderr in $out, its status in $rc
bench() {
	env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR=sim:"$tmp/profile" "$BARETMA" bench --backend msr \
		--kernel empty --reps 3 --warmup 0 --json >"$tmp/json" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/err")
}
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile "$BARETMA" calibrate --backend msr --reps 21 \
	>/dev/null 2>&1
if [ -f "$CAL" ] && command -v python3 >/dev/null 2>&1; then
	cp "$CAL" "$tmp/cal-good"
	# JSON with blanks after the document: 1,000,000 bytes, still valid
	pyq 'import sys; d=open(sys.argv[1]).read().rstrip(); open(sys.argv[1], "w").write(d + " " * (1000000 - len(d) - 1) + "\n")' "$CAL"
	bench
	is "$rc" 0 "a calibration of 1,000,000 bytes (under the 1 MiB cap): bench exits 0"
	is "$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["calibration"]["used"])' "$tmp/json")" \
		True "  and uses it"
	if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
		env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR=sim:"$tmp/profile" strace -f -o "$tmp/trace" \
			-e trace=openat,read,close "$BARETMA" bench --backend msr --kernel empty --reps 3 \
			--warmup 0 >/dev/null 2>&1
		reads=$(awk -v name="\"calibration-GenuineIntel-6-0x7e-5.json\"" '
			index($0, name) && /openat\(/ && / = [0-9]+$/ { fd = $NF; on = 1; next }
			on && index($0, "read(" fd ",") { n++ }
			on && index($0, "close(" fd ")") { on = 0 }
			END { print n + 0 }' "$tmp/trace")
		ok "$([ "$reads" -ge 1 ] && [ "$reads" -le 3 ]; echo $?)" \
			"the 1,000,000-byte calibration is read in blocks: $reads read() calls (at most 3; one byte per read() made 1000001)"
	else
		skip "no strace here (or ptrace not allowed): the read() calls are not counted"
	fi
	pad "$CAL" $((CALIB_CAP + 1))
	bench
	is "$rc" 65 "a calibration of 1 MiB + 1 byte: bench exits 65"
	like "$out" "^baretma: calibration '$CAL': 1048577 bytes, over the cap of 1048576 bytes for a calibration file \\(run baretma calibrate again" \
		"  named, with the cap and the remedy"
	cp "$tmp/cal-good" "$CAL"
	bench
	is "$rc" 0 "control: the calibration as calibrate wrote it: bench exits 0"
else
	skip "calibrate on the simulated PMU made no calibration here (or no python3)"
	skip "no calibration"; skip "no calibration"; skip "no calibration"; skip "no calibration"
	skip "no calibration"
fi

done_testing
