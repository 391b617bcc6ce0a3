#!/bin/sh
# t/0978-journal-detail-whole.sh - why a journal is malformed reaches the
# user whole, however long the line it quotes: the detail was kept in 256
# bytes, so a setting's long value lost the end of the sentence (which
# values the setting takes) before `pmu restore` and `pmu status` said it.
#
# The journal is planted as in t/0387 (a dead pid's, in a state directory
# of this test); its last line sets the rdpmc file (one of the files
# baretma changes: msr/guard/settings.h) to 255 'x' (JOURNAL_SETTING_MAX - 1
# bytes, the longest value a line may hold), which the kernel's rdpmc
# attribute does not take (linux arch/x86/events/core.c set_attr_rdpmc:
# 0, 1 or 2).  The expected sentence is written out here.
. "$T_SRC/tap.sh"

state=$tmp/state
printf '0 0x38d 0x333\n0 0x38f 0x70000000f\n' >"$state"
sys=$tmp/sys
mkdir -p "$sys/proc/sys/kernel" "$sys/sys/bus/event_source/devices/cpu"
echo 0 >"$sys/proc/sys/kernel/nmi_watchdog"
echo 2 >"$sys/sys/bus/event_source/devices/cpu/rdpmc"
run=$tmp/run
mkdir -m 0700 "$run"
BARETMA_MSR=state:$state BARETMA_SYSROOT=$sys BARETMA_STATE_DIR=$run
export BARETMA_MSR BARETMA_SYSROOT BARETMA_STATE_DIR

sh -c 'exit 0' & dead=$!
wait "$dead"
jfile=$run/run-$dead.journal
value=$(printf '%255s' '' | tr ' ' x)
is "${#value}" 255 "a value of 255 bytes (JOURNAL_SETTING_MAX - 1)"
{
	printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\n' "$dead"
	printf 'cmd baretma bench\nbackend state:%s\nkind run\nuser_only 0\n' "$state"
	printf 'setting /sys/bus/event_source/devices/cpu/rdpmc %s\n' "$value"
} >"$jfile"
chmod 600 "$jfile"

detail="line 9: setting: value '$value' of '/sys/bus/event_source/devices/cpu/rdpmc' is not one rdpmc takes (0, 1 or 2)"
for sub in restore status; do
	out=$("$BARETMA" pmu $sub 2>&1); rc=$?
	is "$rc" 65 "pmu $sub: a malformed journal, exit 65"
	is "$(printf '%s\n' "$out" | grep -cF -- "journal '$jfile' is malformed: $detail")" 1 \
		"pmu $sub: the whole detail (${#detail} bytes, over the old 256), its end included: $out"
done
is "$(cat "$sys/sys/bus/event_source/devices/cpu/rdpmc")" 2 "the rdpmc file not written"
done_testing
