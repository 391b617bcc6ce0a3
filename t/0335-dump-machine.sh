#!/bin/sh
# t/0335-dump-machine.sh - with a CPUID dump, the dumped machine's CPUs
# decide which CPU exists and which one is chosen; this machine decides the
# environment (its hypervisor), the MSR device and pinning (never, for a
# dump).  Each command gets the machine once (cpu/machine.h).
#
# Known answers, from outside the code:
#   - the Ice Lake i7-1065G7 dump has 8 logical CPUs, 0-7 (INDEX.tsv
#     logical_cpus_in_dump, read below), and its CPUID says bare metal
#     (CPUID.1:ECX[31] clear: "hypervisor" is not in its `info` identity);
#   - the Raptor Lake-P hwloc directory has 20 CPUs (INDEX.tsv);
#   - this machine's hypervisor: /proc/cpuinfo's "hypervisor" flag, and
#     `baretma info` (live) for its name;
#   - registers: the kernel's order as in t/0330 (FIXED_CTR_CTRL 0x333 ->
#     0x3333 when programmed).
. "$T_SRC/tap.sh"
pyq_start

ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
RPL=$SHARED_CPUID/hwloc/Intel-RaptorLake-Corei7-1370P
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"
unset BARETMA_CPUID_DUMP BARETMA_MSR_TRACE

index_cpus() { awk -F'\t' -v f="$1" '$1 == f { print $11 }' "$SHARED_CPUID/INDEX.tsv"; }
n=$(index_cpus libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test)
is "$n" 8 "INDEX.tsv: the Ice Lake dump has 8 CPUs"
last=$((n - 1))

# State file: the registers of cpu 5 and of the dump's last CPU only.
# The ownership check reads IA32_PERFEVTSEL0-7 (Ice Lake: 8 GP counters,
# CPUID.0AH:EAX[15:8]) and, arch perfmon v4+, IA32_PERF_GLOBAL_INUSE;
# Ice Lake's recipe counts two events beside PERF_METRICS on IA32_PMCx
# through the full-width IA32_A_PMCx (PERF_CAPABILITIES bit 13).
regs() {
	printf '%s 0x30c 0x0\n%s 0x329 0x0\n%s 0x345 0xf4c5\n%s 0x38d 0x333\n%s 0x38e 0x0\n%s 0x38f 0x70000000f\n%s 0x390 0x0\n%s 0x392 0x0\n' \
		"$1" "$1" "$1" "$1" "$1" "$1" "$1" "$1"
	for e in 186 187 188 189 18a 18b 18c 18d; do printf '%s 0x%s 0x0\n' "$1" "$e"; done
	for i in 0 1 2 3 4 5 6 7; do
		printf '%s 0x%x 0x0\n%s 0x%x 0x0\n' "$1" $((0xc1 + i)) "$1" $((0x4c1 + i))
	done
}
{ regs 5; regs "$last"; } >"$tmp/state"
cp "$tmp/state" "$tmp/orig"
json() {
	pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# --- bench: CPU 5 of an 8-CPU dump, whatever this machine has ----------------
out=$(BARETMA_MSR=state:$tmp/state BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench \
	--cpuid-dump "$ICL" --cpu 5 --backend msr --kernel retire-light --reps 3 --warmup 0 2>&1); rc=$?
is "$rc" 0 "dry run on cpu 5 of the dump exits 0 (this machine has $(nproc --all) CPUs)"
like "$out" "^cpu 5: Intel\(R\) Core\(TM\) i7-1065G7" "it measured cpu 5"
is "$(grep '^wr' "$tmp/trace" | grep -vc '^wr 5 ')" 0 "it wrote to cpu 5 only"
like "$(grep '^wr' "$tmp/trace" | head -2 | tr '\n' ';')" "^wr 5 0x38f 0x0;wr 5 0x38d 0x3333;" \
	"programming cpu 5 (GLOBAL_CTRL frozen, FC3 field 0x3)"
cmp -s "$tmp/state" "$tmp/orig"; ok $? "every register restored"
like "$out" "note: not pinned: cpu 5 is a CPU of the CPUID dump '$ICL', not of this machine" \
	"it says it did not pin"

# --- bench: the default CPU is the dump's, and a dump never pins -------------
if command -v python3 >/dev/null 2>&1; then
	"$BARETMA" bench --cpuid-dump "$ICL" --backend tsc --json --kernel retire-light --reps 3 \
		--warmup 0 >"$tmp/tsc.json" 2>/dev/null; rc=$?
	is "$rc:$(json "$tmp/tsc.json" 'd["cpu"]["os_cpu"]')" "0:$last" \
		"no --cpu: the dump's last CPU ($last), not this machine's"
	like "$(json "$tmp/tsc.json" 'd["note"]')" "^not pinned: cpu $last is a CPU of the CPUID dump" \
		"--backend tsc with a dump: not pinned either"
	BARETMA_CPUID_DUMP=$ICL "$BARETMA" bench --cpu 0 --backend tsc --json --kernel retire-light \
		--reps 3 --warmup 0 >"$tmp/tsc0.json" 2>/dev/null; rc=$?
	is "$rc:$(json "$tmp/tsc0.json" '(d["cpu"]["os_cpu"], (d["note"] or "")[:10])')" \
		"0:(0, 'not pinned')" "BARETMA_CPUID_DUMP, --cpu 0: not pinned to this machine's cpu 0"
else
	skip "no python3"; skip "no python3"; skip "no python3"
fi
: >"$tmp/trace"
out=$(BARETMA_MSR=state:$tmp/state BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench \
	--cpuid-dump "$ICL" --backend msr --kernel retire-light --reps 3 --warmup 0 2>&1); rc=$?
is "$rc:$(grep '^wr' "$tmp/trace" | grep -vc "^wr $last ")" "0:0" \
	"no --cpu, --backend msr: programs the dump's cpu $last only"
cmp -s "$tmp/state" "$tmp/orig"; ok $? "and restores it"

# --- info: the environment is this machine's --------------------------------
hv=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | grep -cw hypervisor)
live_hv=$("$BARETMA" info 2>/dev/null | sed -n 's/^  hypervisor: *//p')
out=$("$BARETMA" info --cpuid-dump "$ICL" 2>&1); rc=$?
is "$rc" 0 "info --cpuid-dump exits 0"
like "$out" "^hypervisor: +none \(bare metal\)" "the dump's identity: taken on bare metal"
is "$(printf '%s\n' "$out" | sed -n 's/^  hypervisor: *//p')" "$live_hv" \
	"the environment block's hypervisor is this machine's ('$live_hv'), not the dump's"
if [ "$hv" = 1 ]; then
	unlike "$live_hv" "none" "this machine runs under a hypervisor (/proc/cpuinfo flag): named"
else
	like "$live_hv" "^none \(bare metal\)$" "this machine is bare metal (no /proc/cpuinfo flag)"
fi
if command -v python3 >/dev/null 2>&1; then
	"$BARETMA" info --json >"$tmp/live.json" 2>/dev/null
	"$BARETMA" info --cpuid-dump "$ICL" --json >"$tmp/icl.json" 2>/dev/null
	is "$(json "$tmp/icl.json" '(d["hypervisor"], d["environment"]["hypervisor"], d["environment"]["vpmu"])')" \
		"$(json "$tmp/live.json" '(None, d["environment"]["hypervisor"], d["environment"]["vpmu"])')" \
		"JSON: identity hypervisor the dump's (null), environment's this machine's"
else
	skip "no python3"
fi

# --- info: Top-down of the dump's CPU, not this machine's msr device ---------
topdown=$(printf '%s\n' "$out" | grep '^topdown:')
like "$topdown" "^topdown: +unavailable on cpu $last: cpu $last of the CPUID dump '$ICL' has Top-down level 1 from IA32_PERF_METRICS and events by baretma's recipe intel-perf-metrics:sunny-cove, but the dump describes another machine.*BARETMA_MSR=state:FILE" \
	"the reason is the dump's: another machine, level 1 from PERF_METRICS and the recipe's events, a dry run needs a state file"
unlike "$topdown" "modprobe|/nonexistent|/dev/cpu" "and not this machine's msr device"
out=$(BARETMA_MSR=state:$tmp/state "$BARETMA" info --cpuid-dump "$ICL" 2>&1)
like "$(printf '%s\n' "$out" | grep '^topdown:')" \
	"^topdown: +level 1 available on cpu $last from IA32_PERF_METRICS and events \(recipe intel-perf-metrics:sunny-cove\) \(msr backend only: RDPMC reads the counters of the CPU baretma runs on" \
	"with a state file: level 1 on the dump's cpu $last, through the MSR backend only"

# --- a CPU the dump lacks: named with the dump's CPUs ------------------------
for cmd in "info --cpu 99" "bench --cpu 99 --backend tsc" "pmu enable --cpu 99" "msr read 99 0x38f"; do
	out=$(BARETMA_MSR=state:$tmp/state BARETMA_CPUID_DUMP=$ICL "$BARETMA" $cmd 2>&1); rc=$?
	is "$rc" 64 "$cmd: exit 64"
	like "$out" "cpu 99: no such CPU: the CPUID dump '$ICL' describes CPUs 0-$last$" \
		"$cmd: names the dump's CPUs"
	unlike "$out" "hwloc-ls|offline|allowed for this process" "$cmd: not this machine's"
done
cmp -s "$tmp/state" "$tmp/orig"; ok $? "refusals: state file unchanged"
if [ -d "$RPL" ]; then
	nr=$(index_cpus hwloc/Intel-RaptorLake-Corei7-1370P)
	out=$("$BARETMA" bench --cpuid-dump "$RPL" --cpu 99 --backend tsc 2>&1); rc=$?
	is "$rc:$out" "64:baretma: cannot measure on cpu 99: no such CPU: the CPUID dump '$RPL' describes CPUs 0-$((nr - 1))" \
		"hwloc directory: named with its $nr CPUs (INDEX.tsv)"
else
	skip "no Raptor Lake-P hwloc directory"
fi

done_testing
