#!/bin/sh
# t/0327-pmu-harness-readme.sh - what `pmu enable` tells a harness, and the
# C harness of doc/library.md ("A harness of your own") that follows it.
#
# The RDPMC ECX encodings are linux arch/x86/include/asm/perf_event.h's (
# INTEL_PMC_FIXED_RDPMC_BASE = 1<<30, fixed counter 3 -> (1<<30)|3;
# INTEL_PMC_FIXED_RDPMC_METRICS = 1<<29), worked here with shell arithmetic,
# not taken from baretma.  The rdpmc sysfs values are linux
# arch/x86/events/core.c set_attr_rdpmc's.  doc/library.md's
# example (the ```c block that opens with "harness.c") is compiled with the
# build's compiler ($T_CC) and never run: RDPMC faults without a PMU.
. "$T_SRC/tap.sh"

ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
README=$T_SRC/../doc/library.md
SLOTS=$(printf '0x%08x' $(( (1 << 30) | 3 )))
METRICS=$(printf '0x%08x' $(( 1 << 29 )))
is "$SLOTS:$METRICS" "0x40000003:0x20000000" "the encodings, worked by hand"

# --- what pmu enable prints ----------------------------------------------------
if [ -r "$ICL" ]; then
	BARETMA_MSR=state:$tmp/state
	BARETMA_STATE_DIR=$tmp/run
	BARETMA_SYSROOT=$tmp/root
	export BARETMA_MSR BARETMA_STATE_DIR BARETMA_SYSROOT
	RD=$tmp/root/sys/bus/event_source/devices/cpu/rdpmc
	mkdir -p "${RD%/*}"
	for c in 0 1 2 3 4 5 6 7; do
		for r in 0x30c 0x329 0x38d 0x38e 0x38f 0x390 0x392 0x186 0x187 0x188 0x189 0x18a \
			0x18b 0x18c 0x18d; do
			printf '%s %s 0x0\n' "$c" "$r"
		done
		printf '%s 0x345 0xf4c5\n' "$c"
	done >"$tmp/state"
	echo 1 >"$RD"
	out=$("$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 2,5 2>&1); rc=$?
	is "$rc" 0 "enable --cpu 2,5 exits 0"
	like "$out" "read them from a harness thread pinned to one of cpu 2,5 \(sched_setaffinity or taskset -c; each CPU counts for itself\):" \
		"enable: the CPUs, and that the thread must be pinned to one of them"
	like "$out" "RDPMC ECX=$SLOTS \(\(1<<30\)\|3\) +fixed counter 3, TOPDOWN.SLOTS" \
		"enable: the RDPMC index of TOPDOWN.SLOTS"
	like "$out" "RDPMC ECX=$METRICS \(1<<29\) +IA32_PERF_METRICS" \
		"enable: the RDPMC index of PERF_METRICS"
	like "$out" "user-space RDPMC needs '$RD' = 2 \(it is 1: --rdpmc-always sets it until 'pmu restore', or the harness mmaps a perf event of its own\); otherwise RDPMC faults" \
		"enable: the rdpmc sysfs requirement, with the value now"
	like "$out" "baretma decode --from SLOTS0:METRICS0 --to SLOTS1:METRICS1" "enable: how to decode"
	"$BARETMA" pmu restore >/dev/null 2>&1
	out=$("$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 --rdpmc-always 2>&1); rc=$?
	is "$rc" 0 "enable --rdpmc-always exits 0"
	like "$out" "user-space RDPMC is allowed: '$RD' is 2" "enable --rdpmc-always: RDPMC allowed"
	"$BARETMA" pmu restore >/dev/null 2>&1
	is "$(cat "$RD")" 1 "restore puts rdpmc back"
else
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "no Ice Lake dump ($ICL)"; done
fi

# --- doc/library.md's C harness ------------------------------------------------------
awk '/^```c$/ { f = 1; n = 0; next }
     /^```$/ { f = 0 }
     f && n++ == 0 && !/harness\.c/ { f = 0 }
     f' "$README" >"$tmp/harness.c"
like "$(head -1 "$tmp/harness.c")" "^/\* harness\.c" "doc/library.md has the harness.c example"
like "$(cat "$tmp/harness.c")" "rdpmc\($SLOTS\)" "the example reads TOPDOWN.SLOTS at $SLOTS"
like "$(cat "$tmp/harness.c")" "rdpmc\($METRICS\)" "the example reads PERF_METRICS at $METRICS"
like "$(cat "$tmp/harness.c")" "sched_setaffinity" "the example pins its thread"
like "$(cat "$tmp/harness.c")" "baretma decode --from" "the example prints the decode command"
cc=${T_CC:-cc}
case $(uname -m) in
x86_64|i?86)
	if command -v "${cc%% *}" >/dev/null 2>&1; then
		$cc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$tmp/harness" "$tmp/harness.c" \
			>"$tmp/cc.out" 2>&1
		ok $? "the example compiles with '$cc' (-Wall -Wextra -Werror; not run)"
		sed 's/^/# /' "$tmp/cc.out"
	else
		skip "no C compiler '$cc'"
	fi
	;;
*)
	skip "not x86: RDPMC is x86 inline asm"
	;;
esac

done_testing
