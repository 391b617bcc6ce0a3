#!/bin/sh
# t/0385-guard-owner.sh - who owns the PMU, before anything is written
# (after Intel PCM's PMUinUse; INUSE as KVM's emulation): fixed counter 3's field or
# INUSE bit 35 in use is refused (75) naming the likely owner, state file
# unchanged, nothing written; IA32_PERF_GLOBAL_CTRL bits 35/48 with the
# field clear are perf's idle enable mask (intel_pmu_enable_all), not an owner, and
# the run goes on; PERFEVTSEL0 enabled
# and the NMI watchdog's fixed counter 1 are information; a crashed run's
# journal is named as the owner under --force; a CPUID dump with a real
# MSR device is refused (64).  Fixture: t/guard-fixture.sh.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

is "$VER:$GP:$NCPU" "5:8:8" "dump: arch perfmon v5 (INUSE exists, v4+), 8 GP counters, 8 CPUs (INDEX.tsv)"

# refused NAME FROM TO WANT [FROM2 TO2]: cpu 1's line FROM made TO (and
# FROM2 made TO2); bench is refused.
refused() {
	fixture
	printf '0\n' >"$WD"
	edit "$2" "$3"
	[ -z "$5" ] || edit "$5" "$6"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 \
		--backend msr --kernel retire-light --reps 3 2>&1); rc=$?
	is "$rc" 75 "$1: exit 75 (EX_TEMPFAIL)"
	like "$out" "$4" "$1: the message says what and who"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "$1: nothing written"
	is "$(same "$tmp/state" "$tmp/orig"):$(journals)" "0:" "$1: state file unchanged, no journal"
}

refused "FC3 field 0x3" "1 0x38d 0x333" "1 0x38d 0x3333" \
	"cpu 1: fixed counter 3 / PERF_METRICS in use: IA32_FIXED_CTR_CTRL\[15:12\]=0x3 \(fixed counter 3 enabled\); likely owner: firmware or another tool \(no sign of perf"
# The kernel's enable mask on this dump's CPU (8 GP counters, 4 fixed,
# PERF_METRICS): intel_pmu_enable_all writes GLOBAL_CTRL = intel_ctrl on an
# idle PMU (linux arch/x86/events/intel/core.c), by hand
# 0xff | 0xf << 32 | 1 << 48 = 0xff + 0xf00000000 + 0x1000000000000 = 0x1000f000000ff.
# With fixed counter 3's field set it is still refused, for the field.
refused "FC3 field 0x3 under perf's idle GLOBAL_CTRL" "1 0x38f 0x70000000f" "1 0x38f 0x1000f000000ff" \
	"cpu 1: fixed counter 3 / PERF_METRICS in use: IA32_FIXED_CTR_CTRL\[15:12\]=0x3 \(fixed counter 3 enabled\); likely owner" \
	"1 0x38d 0x333" "1 0x38d 0x3333"

# accepted NAME GC PROG: cpu 1's IA32_PERF_GLOBAL_CTRL made GC (FC3 field
# clear, INUSE 0): bench runs (exit 0) without --force, programs
# GLOBAL_CTRL = GC | 1<<35 | 1<<48 = PROG (msr/pmu/pmu.h step 6; the frozen
# resets between repetitions write it again) and puts GC back last.
accepted() {
	fixture
	printf '0\n' >"$WD"
	edit "1 0x38f 0x70000000f" "1 0x38f $2"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 \
		--backend msr --kernel retire-light --reps 3 2>&1 >/dev/null); rc=$?
	is "$rc" 0 "$1: not in use, the run goes on (exit 0)"
	unlike "$out" "in use: |IA32_PERF_GLOBAL_CTRL bit|taking over" "$1: no refusal, no reason, no takeover"
	is "$(grep '^wr 1 0x38f ' "$tmp/trace" | sed -n '1p;2p;$p' | tr '\n' ';')" \
		"wr 1 0x38f 0x0;wr 1 0x38f $3;wr 1 0x38f $2;" \
		"$1: GLOBAL_CTRL frozen, programmed to $3, $2 put back last"
	is "$(same "$tmp/state" "$tmp/orig"):$(journals)" "0:" "$1: state file as found, no journal"
}
# 0x100070000000f | 0x800000000 (bit 35) = 0x1000f0000000f
accepted "GLOBAL_CTRL bit 48 alone (FC3 field clear)" 0x100070000000f 0x1000f0000000f
# 0x1000f000000ff already has bits 35 and 48: programmed as found
accepted "GLOBAL_CTRL = perf's idle intel_ctrl 0x1000f000000ff" 0x1000f000000ff 0x1000f000000ff
# INUSE bit 32+3 = 35 (0x800000000): fixed counter 3 in use (KVM's INUSE emulation)
refused "INUSE bit 35" "1 0x392 0x0" "1 0x392 0x800000000" \
	"IA32_PERF_GLOBAL_INUSE bit 35 set \(fixed counter 3 in use\)"
# FC3 busy with a PMI armed on GP counter 0 (INT, bit 20): perf, likely
fixture; printf '0\n' >"$WD"
edit "1 0x186 0x0" "1 0x186 0x53003c"; edit "1 0x38d 0x333" "1 0x38d 0x3333"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 75 "FC3 busy with PERFEVTSEL0 enabled and its PMI armed: exit 75"
like "$out" "cpu 1: fixed counter 3 / PERF_METRICS in use: .*likely owner: perf or another profiler \(likely: PMIs are armed \(firmware does not arm them\), general-purpose counters are enabled" \
	"and the likely owner is perf or another profiler, with the evidence"

# PERFEVTSEL0 = EN | INT | OS | USR | event 0x3c = 0x53003c (ARCH_PERFMON_EVENTSEL_*):
# information only, the run goes on and leaves it alone.
fixture
printf '0\n' >"$WD"
edit "1 0x186 0x0" "1 0x186 0x53003c"
: >"$tmp/trace"
out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 2>&1 >/dev/null); rc=$?
is "$rc" 0 "PERFEVTSEL0 in use: not a refusal (exit 0)"
like "$out" "note: cpu 1: other counters in use, left as they are: .*IA32_PERFEVTSEL0=0x53003c \(EN, INT, event 0x3c\); likely owner: perf or another profiler \(likely" \
	"PERFEVTSEL0 named, with its likely owner"
is "$(grep -c '^wr 1 0x186 ' "$tmp/trace")" 0 "PERFEVTSEL0 never written"
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file as found after the run"

# The NMI watchdog: nmi_watchdog=1 and fixed counter 1 with its PMI (0xb): a warning.
fixture
edit "1 0x38d 0x333" "1 0x38d 0xb0"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light \
	--reps 3 2>&1 >/dev/null); rc=$?
is "$rc" 0 "NMI watchdog on: a warning, not a refusal (exit 0)"
like "$out" "note: cpu 1: other counters in use, left as they are: fixed counter 1 \(IA32_FIXED_CTR_CTRL\[7:4\]=0xb: OS, USR, PMI\) held by the NMI watchdog; likely owner: the NMI watchdog" \
	"fixed counter 1 named as the NMI watchdog's"
like "$out" "warning: the NMI watchdog is on \('$WD' = 1\)" "the watchdog warning names its file"
is "$(same "$tmp/state" "$tmp/orig"):$(same_root)" "0:0" "state file and settings as found"

# A crashed run's journal: refused naming it; --force says so twice and goes on.
fixture
printf '0\n' >"$WD"
edit "1 0x38d 0x333" "1 0x38d 0x3333"
sh -c 'exit 0' & dead=$!
wait "$dead"
mkdir -p "$tmp/run"
printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\ncmd baretma bench --cpu 1\nbackend state:%s\nkind run\nuser_only 0\nreg 1 0x38f 0x70000000f\nreg 1 0x38d 0x333\n' \
	"$dead" "$tmp/state" >"$tmp/run/run-$dead.journal"
chmod 600 "$tmp/run/run-$dead.journal"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 75 "a crashed run's journal on cpu 1: exit 75"
like "$out" "cpu 1: left by a baretma run that did not finish \(pid $dead, cmd baretma bench --cpu 1\); journal '$tmp/run/run-$dead.journal' \(run: baretma pmu restore\)" \
	"the refusal names the journal, the pid and the remedy"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 \
	--force 2>&1 >/dev/null); rc=$?
is "$rc" 0 "--force goes on"
like "$out" "warning: cpu 1: left by a baretma run that did not finish \(pid $dead.*going on \(--force\)" \
	"--force says it goes on past the journal"
like "$out" "warning: cpu 1: taking over \(--force\): IA32_FIXED_CTR_CTRL\[15:12\]=0x3 .*likely owner: a crashed baretma run \(pid $dead\)" \
	"and names the crashed run as the owner of fixed counter 3"
is "$(same "$tmp/state" "$tmp/orig"):$(journals)" "0:run-$dead.journal " \
	"the forced run put back what it found; the crashed run's journal stays"

# A check that could not be made is not a pass: IA32_PERFEVTSEL2 and
# IA32_PERF_GLOBAL_INUSE not readable (no line in the state file: EIO, as a
# #GP; through msr_safe a register not in its allowlist is EACCES).
# Refused before anything is written, naming the registers, the CPU and the
# remedies (exit 69: cli_exit_for_errno(-EIO)); the msr_safe allowlist
# lines are "MSR WRITEMASK" with write mask 0 (LLNL msr-safe README).
for cmd in bench enable; do
	fixture
	printf '0\n' >"$WD"
	grep -v '^1 0x188 \|^1 0x392 ' "$tmp/state" >"$tmp/state.new" && mv "$tmp/state.new" "$tmp/state"
	cp "$tmp/state" "$tmp/orig"
	: >"$tmp/trace"
	if [ $cmd = bench ]; then
		out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 \
			--backend msr --kernel retire-light --reps 3 2>&1); rc=$?
	else
		out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 2>&1); rc=$?
	fi
	is "$rc" 69 "$cmd: registers of the ownership check unreadable: refused (exit 69)"
	like "$out" "cpu 1: cannot tell who uses the PMU: IA32_PERFEVTSEL2 \(0x188\), IA32_PERF_GLOBAL_INUSE \(0x392\) could not be read: Input/output error; nothing written \(try: --force to go on without that check, or, through msr_safe, add the read-only lines below to its allowlist" \
		"$cmd: the registers, the CPU and both remedies are named"
	is "$(printf '%s\n' "$out" | grep '^0x' | tr '\n' ';')" \
		'0x00000188 0x0000000000000000 # "IA32_PERFEVTSEL2";0x00000392 0x0000000000000000 # "IA32_PERF_GLOBAL_INUSE";' \
		"$cmd: the msr_safe allowlist lines for them"
	unlike "$out" "no sign of perf" "$cmd: never 'no sign of perf' when it could not look"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "$cmd: nothing written"
	is "$(same "$tmp/state" "$tmp/orig"):$(journals)" "0:" "$cmd: state file unchanged, no journal"
done
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 \
	--force 2>&1 >/dev/null); rc=$?
is "$rc" 0 "--force goes on without the check"
like "$out" "warning: cpu 1: cannot tell who uses the PMU: IA32_PERFEVTSEL2 \(0x188\), IA32_PERF_GLOBAL_INUSE \(0x392\) could not be read: Input/output error; going on without that check \(--force\)" \
	"--force: a warning naming them"
is "$(same "$tmp/state" "$tmp/orig"):$(journals)" "0:" "--force: the run put back what it found"

# A CPUID dump describes another machine: no real device (a path template;
# pmu enable opens the CPUs first: regular files stand in for the nodes in
# the test build of the tool, t/baretma-hooks, msr/access/msr_dev_hooks.c).
fixture
mkdir -p "$tmp/dev"
for c in 0 1 2 3 4 5 6 7; do truncate -s 4096 "$tmp/dev/$c"; done
# IA32_PERF_CAPABILITIES at offset 0x345 = 0xf4c5 (little endian), PERF_METRICS bit 15
printf '\305\364\000\000\000\000\000\000' | dd of="$tmp/dev/1" bs=1 seek=$((0x345)) conv=notrunc 2>/dev/null
cksum "$tmp/dev/"* >"$tmp/dev.sum"
out=$(BARETMA_MSR="$tmp/dev/%u" "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 64 "bench: dump + real device: exit 64"
like "$out" "bench: refusing to write MSRs through '$tmp/dev/%u' with a CPUID dump \('$ICL'\): the dump describes another machine \(use BARETMA_MSR=state:FILE for a dry run, or drop the dump" \
	"bench: the message says why and what to do"
out=$(BARETMA_MSR="$tmp/dev/%u" BARETMA_CPUID_DUMP="$ICL" BARETMA_TEST_HOOKS=1 "$BARETMA_HOOKS" \
	pmu enable --cpu 1 2>&1); rc=$?
is "$rc" 64 "pmu enable: dump (BARETMA_CPUID_DUMP) + real device: exit 64"
like "$out" "pmu enable: refusing to write MSRs through '$tmp/dev/%u' with a CPUID dump" \
	"pmu enable: the same message"
cksum "$tmp/dev/"* | cmp -s - "$tmp/dev.sum"; ok $? "the device files were not written"
is "$(journals)" "" "no journal"

done_testing
