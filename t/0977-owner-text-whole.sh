#!/bin/sh
# t/0977-owner-text-whole.sh - who owns the PMU, said whole however much
# evidence there is: the likely owner was cut at 256 bytes (its end, "perf's
# own events cannot be seen from here)", lost when all four signs of perf
# are seen) and the other counters in use at 768 (the last ones lost when
# every counter is in use).  Fixture: t/guard-fixture.sh (an Ice Lake
# client's CPUID dump, 8 GP counters, a state file for its MSRs, a sysroot
# whose nmi_watchdog is 1).
#
# The register values and what each says are the SDM's (Vol. 3B 20.2:
# IA32_PERFEVTSELx EN bit 22, INT bit 20, event bits 7:0; IA32_FIXED_CTR_CTRL
# field i at bits 4i+3:4i, bit 4i OS, 4i+1 USR, 4i+2 AnyThread, 4i+3 PMI;
# IA32_PERF_GLOBAL_INUSE bit i PERFEVTSELi in use, bit 35 fixed counter 3,
# bit 63 a PMI armed); the sentences are written out here.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

is "$VER:$GP" "5:8" "dump: arch perfmon v5 (INUSE exists), 8 GP counters (INDEX.tsv)"

# All four signs of perf: the NMI watchdog on (fixture: 1), a PMI armed
# (PERFEVTSEL0 0x53003c = EN | INT | OS | USR | event 0x3c), a GP counter
# enabled (the same), INUSE bit 0 (GP counter 0 in use); and fixed counter
# 3's field set (0x3333: field 3 = 0x3), so the run is refused (75).
fixture
edit "1 0x186 0x0" "1 0x186 0x53003c"
edit "1 0x38d 0x333" "1 0x38d 0x3333"
edit "1 0x392 0x0" "1 0x392 0x1"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light \
	--reps 3 2>&1); rc=$?
is "$rc" 75 "FC3 in use with every sign of perf: refused (75)"
owner="perf or another profiler (likely: the NMI watchdog is on (nmi_watchdog=1: perf runs on every CPU), PMIs are armed (firmware does not arm them), general-purpose counters are enabled, IA32_PERF_GLOBAL_INUSE shows general-purpose counters in use; perf's own events cannot be seen from here)"
want="cpu 1: fixed counter 3 / PERF_METRICS in use: IA32_FIXED_CTR_CTRL[15:12]=0x3 (fixed counter 3 enabled); likely owner: $owner (--force takes over, saving and restoring the registers; if baretma left it: baretma pmu restore)"
is "$(printf '%s\n' "$out" | grep -cF -- "$want")" 1 \
	"the likely owner whole (${#owner} bytes, over the old 256), then the remedy: $out"
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file unchanged"

# Every counter in use but fixed counter 3: PERFEVTSEL0-7 with reserved
# bits 63:32 set (0xffffffff0053003c), fixed counters 0-2 with every bit of
# their fields (0xfff: OS, USR, AnyThread, PMI), INUSE 0x80000000000000ff
# (GP 0-7 and a PMI).  Information only: the note lists them all.
fixture
i=0
while [ "$i" -lt "$GP" ]; do
	edit "1 $(printf '0x%x' $((0x186 + i))) 0x0" "1 $(printf '0x%x' $((0x186 + i))) 0xffffffff0053003c"
	i=$((i + 1))
done
edit "1 0x38d 0x333" "1 0x38d 0xfff"
edit "1 0x392 0x0" "1 0x392 0x80000000000000ff"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light \
	--reps 3 2>&1 >/dev/null)
others=""
for f in 0 1 2; do
	held=""
	[ "$f" = 1 ] && held=" held by the NMI watchdog"
	others="$others${others:+; }fixed counter $f (IA32_FIXED_CTR_CTRL[$((4 * f + 3)):$((4 * f))]=0xf: OS, USR, AnyThread, PMI)$held"
done
i=0
while [ "$i" -lt "$GP" ]; do
	others="$others; IA32_PERFEVTSEL$i=0xffffffff0053003c (EN, INT, event 0x3c)"
	i=$((i + 1))
done
others="$others; IA32_PERF_GLOBAL_INUSE=0x80000000000000ff (bit 63: a PMI is armed)"
want="note: cpu 1: other counters in use, left as they are: $others; likely owner: perf or another profiler (likely: the NMI watchdog is on (nmi_watchdog=1: perf runs on every CPU), PMIs are armed (firmware does not arm them), general-purpose counters are enabled, IA32_PERF_GLOBAL_INUSE shows general-purpose counters in use; perf's own events cannot be seen from here)"
is "$(printf '%s\n' "$out" | grep -cF -- "$want")" 1 \
	"every counter in use named (${#others} bytes, over the old 768), and the owner whole: $out"
done_testing
