#!/bin/sh
# t/0647-fifo-inputs.sh - an input file that is not a regular file is
# refused, never read and never waited on (project issue "Left exactly as
# found", point 9).
#
# Before, a FIFO given as a CPUID dump (or as a pu file of a
# hwloc-gather-cpuid directory, or its hwloc-cpuid-info, which hwloc reads
# after baretma), as a simulator profile (BARETMA_MSR=sim:PROFILE) or at
# the calibration's name in the state directory made baretma wait forever
# for a writer; a state file (state:FILE) was refused but opened first;
# `calibrate -o` and `cpuid dump -o` renamed their file over a FIFO or a
# device node (-o /dev/null would have replaced /dev/null).  Now each is looked at before
# it is opened (cpu/userfile.h userfile_open_read) and refused, naming the
# file and "not a regular file": exit 65 (EX_DATAERR) for a dump, profile
# or state file, as their other bad-data errors; exit 77 (EX_NOPERM) for
# bench's calibration, which the state directory's rule refuses as it does
# a journal that is not a regular file (issue 27; t/1033); exit 73 (EX_CANTCREAT) for
# calibrate -o and cpuid dump -o, as a symbolic link there is.  Every
# command runs under `timeout 20`: a regression fails the test (exit 124)
# instead of hanging the suite.
. "$T_SRC/tap.sh"

ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump $ICL"
BARETMA_STATE_DIR=$tmp/run
mkdir -m 0700 "$tmp/run"
export BARETMA_STATE_DIR
unset BARETMA_MSR BARETMA_MSR_TRACE BARETMA_CPUID_DUMP BARETMA_TEST_HOOKS BARETMA_PERF

# run ARGS...: baretma ARGS under timeout 20; output in $out, status in $rc.
run() { out=$(timeout 20 "$BARETMA" "$@" 2>&1); rc=$?; }
mkfifo "$tmp/fifo"
# A profile of the simulated PMU (doc/simulator.md).
printf 'ghz 3\naccess_cycles 10000\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\nnoise 0\nseed 7\n' \
	>"$tmp/profile"

# --- CPUID dumps ------------------------------------------------------------
run info --cpuid-dump "$tmp/fifo"
is "$rc" 65 "--cpuid-dump FIFO: refused without waiting, exit 65"
like "$out" "cannot load CPUID dump '$tmp/fifo': not a regular file: refused unread" \
	"  the message names the dump and says 'not a regular file'"
out=$(BARETMA_CPUID_DUMP=$tmp/fifo timeout 20 "$BARETMA" info 2>&1); rc=$?
is "$rc" 65 "BARETMA_CPUID_DUMP naming a FIFO: exit 65"
# A hwloc-gather-cpuid directory is a legitimate dump (cpu/dump_hwloc.c);
# a FIFO among its files is not.
cp -R "$T_DATA/cpuid-hwloc-synthetic" "$tmp/hw-ok"
run info --cpuid-dump "$tmp/hw-ok"
is "$rc" 0 "control: the hwloc directory of regular files loads (exit 0)"
cp -R "$T_DATA/cpuid-hwloc-synthetic" "$tmp/hw-pu"
rm "$tmp/hw-pu/pu1" && mkfifo "$tmp/hw-pu/pu1"
run info --cpuid-dump "$tmp/hw-pu"
is "$rc" 65 "a hwloc directory whose pu1 is a FIFO: exit 65"
like "$out" "cannot load CPUID dump '$tmp/hw-pu': pu1: not a regular file: refused unread" \
	"  the message names the directory and pu1"
cp -R "$T_DATA/cpuid-hwloc-synthetic" "$tmp/hw-info"
rm "$tmp/hw-info/hwloc-cpuid-info" && mkfifo "$tmp/hw-info/hwloc-cpuid-info"
run info --cpuid-dump "$tmp/hw-info"
is "$rc" 65 "a hwloc directory whose hwloc-cpuid-info (read by hwloc) is a FIFO: exit 65"
like "$out" "'$tmp/hw-info': hwloc-cpuid-info: not a regular file: refused unread" "  named"
mkdir "$tmp/hw-dir" && cp "$T_DATA/cpuid-hwloc-synthetic/pu0" "$tmp/hw-dir/" && mkdir "$tmp/hw-dir/pu1"
run info --cpuid-dump "$tmp/hw-dir"
is "$rc" 65 "a hwloc directory whose pu1 is a directory: exit 65"

# --- the simulator's profile and a state file ---------------------------------
out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/fifo timeout 20 "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 65 "BARETMA_MSR=sim:FIFO: refused without waiting, exit 65"
like "$out" "cannot read profile '$tmp/fifo': not a regular file: refused unread" "  said"
out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile timeout 20 "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 0 "control: the same profile as a regular file reads (exit 0)"
out=$(BARETMA_MSR=state:$tmp/fifo timeout 20 "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 65 "BARETMA_MSR=state:FIFO: exit 65"
like "$out" "state file '$tmp/fifo': not a regular file: refused unread \(name a file of 'CPU 0xMSR 0xVALUE' lines\)" \
	"  said, with what to name"
# The profile's own state file (the key 'state FILE').
printf 'state %s\n' "$tmp/fifo" | cat "$tmp/profile" - >"$tmp/profile-state"
out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile-state timeout 20 "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 65 "a profile whose 'state' is a FIFO: exit 65"
like "$out" "state file '$tmp/fifo': not a regular file" "  said"

# --- calibrations -------------------------------------------------------------
# bench looks for calibration-GenuineIntel-6-0x7e-5.json (the Ice Lake
# dump: family 6, model 0x7E, stepping 5) in the state directory.
CAL=$tmp/run/calibration-GenuineIntel-6-0x7e-5.json
mkfifo "$CAL"
out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile timeout 20 "$BARETMA" bench \
	--backend msr --kernel retire-light --reps 15 2>&1 >/dev/null); rc=$?
is "$rc" 77 "bench with a FIFO at the calibration's name: refused without waiting, exit 77"
like "$out" "calibration '$CAL' is not a regular file: refused \(what is in the state directory" \
	"  named, refused by the state directory's rule (t/1033)"
rm -f "$CAL"
out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile timeout 20 "$BARETMA" calibrate \
	--backend msr --reps 21 -o "$tmp/fifo" 2>&1 >/dev/null); rc=$?
is "$rc" 73 "calibrate -o FIFO: refused, exit 73"
like "$out" "calibrate: cannot write '$tmp/fifo': not a regular file: refused, left as it is" "  said"
ok $([ -p "$tmp/fifo" ]; echo $?) "  the FIFO is still there, not replaced"
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile timeout 20 "$BARETMA" calibrate \
		--backend msr --reps 21 -o "$tmp/null" 2>&1 >/dev/null); rc=$?
	is "$rc" 73 "calibrate -o naming a character device 1:3 (a /dev/null): refused, exit 73"
	is "$(stat -c '%F %t:%T' "$tmp/null")" "character special file 1:3" "  the device node is left as it was"
else
	skip "mknod not permitted here (not root, or no CAP_MKNOD)"; skip "no device node"
fi
mkdir "$tmp/adir"
out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile timeout 20 "$BARETMA" calibrate \
	--backend msr --reps 21 -o "$tmp/adir" 2>&1 >/dev/null); rc=$?
is "$rc" 73 "calibrate -o naming a directory: refused, exit 73"
like "$out" "calibrate: cannot write '$tmp/adir': a directory: refused, left as it is" "  said"
out=$(BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/profile timeout 20 "$BARETMA" calibrate \
	--backend msr --reps 21 -o "$tmp/cal.json" 2>&1 >/dev/null); rc=$?
is "$rc" 0 "control: calibrate -o a new file: exit 0"
ok $([ -f "$tmp/cal.json" ]; echo $?) "  written"

# `cpuid dump -o` renames its file over the name too.
run cpuid dump -o "$tmp/fifo"
is "$rc" 73 "cpuid dump -o FIFO: refused, exit 73"
like "$out" "cpuid dump: cannot write '$tmp/fifo': not a regular file: refused, left as it is" "  said"
ok $([ -p "$tmp/fifo" ]; echo $?) "  the FIFO is still there"
if [ -c "$tmp/null" ]; then
	run cpuid dump -o "$tmp/null"
	is "$rc" 73 "cpuid dump -o naming a character device 1:3: refused, exit 73"
	is "$(stat -c '%F %t:%T' "$tmp/null")" "character special file 1:3" "  the device node is left as it was"
	ok $(ls "$tmp" | grep -q '^null\.'; echo $((!$?))) "  no temporary file left beside it"
else
	skip "no device node (mknod not permitted)"; skip "no device node"; skip "no device node"
fi

done_testing
