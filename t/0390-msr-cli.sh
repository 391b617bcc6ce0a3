#!/bin/sh
# t/0390-msr-cli.sh - `baretma msr read | write` on a state file
# (BARETMA_MSR=state:FILE), CPUs checked against real CPUID dumps.
#
# Expected verdicts are worked by hand from the SDM bit layouts (as linux
# perf_event.h and msr-index.h encode them), for the dumps' PMUs ($SHARED_CPUID/INDEX.tsv,
# CPUID leaf 0xA of each file):
#   Ice Lake i7-1065G7: 8 CPUs; 8 GP counters x 48 bits, fixed counters 0-3
#     (x 48 bits), PERF_METRICS level 1 -> IA32_FIXED_CTR_CTRL defines
#     bits 0-2 of each 4-bit field (EN_OS, EN_USR, AnyThread), bit 4i+3 is
#     PMI (refused); FC3's bit 2 (bit 14) is METRICS_CLEAR_EN, allowed only
#     with IA32_PERF_CAPABILITIES[19] (linux 0e45818ec189), which 0xf4c5
#     lacks: allowed 0x3777; IA32_PERF_GLOBAL_CTRL allows 0xff (GP),
#     0xf << 32 (FC0-3), 1 << 48; PERF_METRICS level 1 defines bytes 0-3.
#   Skylake i5-6600K: 1 CPU, fixed counters 0-2, no PERF_METRICS: bit 48
#     of IA32_PERF_GLOBAL_CTRL is reserved (a #GP on hardware: linux commit
#     "perf/x86/intel: Check perf metrics feature for each CPU").
#   Lunar Lake Core Ultra 9 288V: CPUs 0-3 Lion Cove P-cores (fixed
#     counters 0-3), 4-7 Skymont E-cores; with IA32_PERF_CAPABILITIES
#     0x8f4c5 (0xf4c5 | bit 19, RDPMC metrics-clear) FC3's bit 14 is allowed
#     (0x7333), with 0xf4c5 it is not.
# IA32_PERF_CAPABILITIES 0xf4c5 has bit 13 (full-width writes, PERF_CAP_FW_WRITES) set;
# 0xd4c5 has it clear.
#
# The journal text is checked against msr/journal/journal.h's format, and `baretma
# pmu restore` (which reads every run journal, msr/journal/journal.h) must give the
# state file back byte for byte.
. "$T_SRC/tap.sh"
pyq_start

D=$SHARED_CPUID/libcpuid/v0.6.2/intel
ICL=$D/core_10th_gen/ice-lake-i7.test
SKL=$D/core_6th_gen/skylake-i5.test
LNL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test

BARETMA_MSR=state:$tmp/state
BARETMA_STATE_DIR=$tmp/run
export BARETMA_MSR BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_CPUID_DUMP

# regs CPU [PERF_CAPABILITIES]: the registers of one CPU as firmware left them.
regs() {
	printf '%s 0x186 0x0\n%s 0x1a0 0x850089\n%s 0x309 0x0\n%s 0x329 0x0\n%s 0x345 %s\n' \
		"$1" "$1" "$1" "$1" "$1" "${2:-0xf4c5}"
	printf '%s 0x38d 0x333\n%s 0x38e 0x0\n%s 0x38f 0x70000000f\n%s 0x4c1 0x0\n' \
		"$1" "$1" "$1" "$1"
}
fixture() {
	c=$1
	while [ "$c" -le "$2" ]; do regs "$c" "$3"; c=$((c + 1)); done
}
journals() { ls "$tmp/run" 2>/dev/null | grep 'journal$' | tr '\n' ' '; }
same() { cmp -s "$1" "$2"; echo $?; }
re() { printf '%s' "$1" | sed 's/[]+.*?^$()[{}|\\]/\\&/g'; }
# refused NAME EXIT ARGS...: exit EXIT, state byte for byte, no write, no journal.
refused() {
	name=$1 want=$2
	shift 2
	cp "$tmp/state" "$tmp/before"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" msr "$@" 2>&1); rc=$?
	is "$rc" "$want" "$name: exit $want"
	is "$(same "$tmp/state" "$tmp/before")" 0 "$name: state file byte for byte unchanged"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "$name: nothing written"
	is "$(journals)" "$jbefore" "$name: no new journal"
}
jbefore=

# --- arguments (no dump needed: rejected before anything is opened) ----------
fixture 0 1 >"$tmp/state"
out=$("$BARETMA" msr 2>&1); rc=$?
is "$rc" 64 "no subcommand: exit 64"
out=$("$BARETMA" msr --help 2>&1); rc=$?
is "$rc" 0 "msr --help exits 0"
like "$out" "usage: baretma msr read" "msr --help shows the usage"
like "$out" "exit status: 0 ok, 64 usage" "msr --help lists the exit statuses"
like "$("$BARETMA" --help)" "msr +read \\| write CPU MSR" "baretma --help lists msr"
out=$("$BARETMA" msr poke 0 0x38f 2>&1); rc=$?
is "$rc" 64 "unknown subcommand: exit 64"
for a in 1x -1 "" 0-1x 5-2 1024; do
	out=$("$BARETMA" msr read "$a" 0x38f 2>&1); rc=$?
	is "$rc" 64 "read CPU '$a': exit 64"
	like "$out" "bad CPU '$a'" "read CPU '$a': the message names it"
done
# issue 9 point 12: a CPU list is decimal, as the kernel's cpulist format
# (lib/bitmap.c bitmap_parselist); hex is refused, saying so.  Leading zeros
# are decimal there too: "010" is CPU 10 (no such CPU here: 64 naming 10).
for a in 0x0 0X1 0-0x3 1,0x2; do
	out=$("$BARETMA" msr read "$a" 0x38f 2>&1); rc=$?
	is "$rc" 64 "read CPU '$a' (hex): exit 64"
	like "$out" "msr read: bad CPU '$a': give OS CPU numbers below [0-9]+, e.g. 3, 0-3 or 0,2; CPU numbers are decimal, as in the kernel's cpulist format \(no 0x\)" \
		"read CPU '$a': named, hex refused"
done
out=$("$BARETMA" pmu status --cpu 0x0 2>&1); rc=$?
is "$rc" 64 "pmu status --cpu 0x0: exit 64"
like "$out" "bad --cpu '0x0': .*CPU numbers are decimal" "pmu status --cpu 0x0: hex refused"
out=$("$BARETMA" bench --backend tsc --cpu 0x1 2>&1); rc=$?
is "$rc" 64 "bench --cpu 0x1: exit 64"
like "$out" "bad --cpu '0x1': .*CPU numbers are decimal" "bench --cpu 0x1: hex refused"
out=$("$BARETMA" info --cpu 0x0 2>&1); rc=$?
is "$rc" 64 "info --cpu 0x0: exit 64"
like "$out" "bad --cpu '0x0': .*CPU numbers are decimal" "info --cpu 0x0: hex refused"
if [ -r "$ICL" ]; then
	out=$("$BARETMA" msr read --cpuid-dump "$ICL" 010 0x38f 2>&1); rc=$?
	is "$rc" 64 "read CPU '010' of the Ice Lake dump: exit 64 (CPUs 0-7)"
	like "$out" "msr read: cpu 10: no such CPU" "read CPU '010' is CPU 10 (decimal with a leading zero)"
else
	skip "no Ice Lake dump"; skip "no Ice Lake dump"
fi
out=$("$BARETMA" msr write 0 0x38f -1 2>&1); rc=$?
is "$rc" 64 "write VALUE '-1': exit 64"
like "$out" "bad VALUE '-1'" "write VALUE '-1': named as the value"
out=$("$BARETMA" msr read 0 0x100000000 2>&1); rc=$?
is "$rc" 64 "MSR 0x100000000: exit 64"
like "$out" "bad MSR '0x100000000': MSR index out of range" "MSR 0x100000000: out of range"
out=$("$BARETMA" msr read 0 4294967296 2>&1); rc=$?
is "$rc" 64 "MSR 4294967296 (decimal 2^32): exit 64"
for a in 0x38g 38fh 0x "" +1; do
	out=$("$BARETMA" msr read 0 "$a" 2>&1); rc=$?
	is "$rc" 64 "MSR '$a': exit 64"
	like "$out" "bad MSR '$(re "$a")'" "MSR '$a': named"
done
for a in 0x1ffffffffffffffff 18446744073709551616 0x12z " 1" 1.5; do
	out=$("$BARETMA" msr write 0 0x38d "$a" 2>&1); rc=$?
	is "$rc" 64 "VALUE '$a': exit 64"
	like "$out" "bad VALUE '$(re "$a")'" "VALUE '$a': named"
done
# Register names (msr/regs/msr_names.h, SDM names as linux msr-index.h has them): an
# unknown one is a usage error naming it, pointing at the list in --help.
for a in IA32_MISC_ENABLE IA32_PERFEVTSEL8 FOO; do
	out=$("$BARETMA" msr read 0 "$a" 2>&1); rc=$?
	is "$rc" 64 "MSR name '$a': exit 64"
	like "$out" "msr read: unknown register '$a': give an MSR index in hex \(0x38f\) or decimal, or a register name baretma knows \(try: baretma msr --help\)" \
		"MSR name '$a': named, with the remedy"
done
out=$("$BARETMA" msr write 0 ia32_nonsense 0x0 2>&1); rc=$?
is "$rc" 64 "write to an unknown register name: exit 64"
out=$("$BARETMA" msr --help)
like "$out" "IA32_PERFEVTSEL0-7 \(0x186-0x18d\)" "msr --help lists the register names: a range"
like "$out" "IA32_PERF_GLOBAL_CTRL \(0x38f\)" "msr --help lists the register names: one register"
out=$("$BARETMA" msr write 0 0x38d 2>&1); rc=$?
is "$rc" 64 "write without VALUE: exit 64"
out=$("$BARETMA" msr read 0 0x38d 0x1 2>&1); rc=$?
is "$rc" 64 "read with a VALUE: exit 64"
out=$("$BARETMA" msr read --force 0 0x38d 2>&1); rc=$?
is "$rc" 64 "read --force is a usage error"
out=$("$BARETMA" msr write --json 0 0x38d 0x0 2>&1); rc=$?
is "$rc" 64 "write --json is a usage error"

# --- live CPUID source: CPU 0 exists on every machine ------------------------
out=$(BARETMA_MSR=/nonexistent/%u/msr "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 69 "read through a missing device: exit 69"
like "$out" "cannot open '/nonexistent/0/msr': No such file or directory \(try: modprobe msr\)" \
	"missing device: the path and 'modprobe msr'"
out=$(BARETMA_MSR=/nonexistent/%u/msr "$BARETMA" msr write 0 0x38f 0x0 2>&1); rc=$?
is "$rc" 69 "write through a missing device: exit 69, before any policy or journal"
like "$out" "cannot open '/nonexistent/0/msr': No such file or directory \(try: modprobe msr\)" \
	"write, missing device: 'modprobe msr'"
is "$(journals)" "" "write, missing device: no journal"
# The kernel would refuse the write (cpu/environ.h: lockdown, msr.allow_writes):
# refused before any lock or journal.  The "device" is a template over empty
# regular files under $tmp (never a real /dev/cpu/N/msr; nothing is written:
# the refusal comes first), which only the test build of the tool takes for
# MSR device nodes (t/baretma-hooks with $BARETMA_TEST_HOOKS=1:
# msr/access/msr_dev_hooks.c); MSR 0x1a0 with --unsafe-msr passes the policy on any
# vendor.
mkdir -p "$tmp/dev/0" "$tmp/ro/sys/module/msr/parameters" "$tmp/ro/sys/kernel/security"
: >"$tmp/dev/0/msr"
echo off >"$tmp/ro/sys/module/msr/parameters/allow_writes"
out=$(BARETMA_SYSROOT=$tmp/ro BARETMA_MSR=$tmp/dev/%u/msr BARETMA_TEST_HOOKS=1 "$BARETMA_HOOKS" msr write --unsafe-msr 0 0x1a0 0x1 2>&1); rc=$?
is "$rc" 77 "msr.allow_writes=off: exit 77"
like "$out" "MSR writes are disabled: '$tmp/ro/sys/module/msr/parameters/allow_writes' is 'off': the kernel refuses them; nothing written \(try: echo on > /sys/module/msr/parameters/allow_writes" \
	"msr.allow_writes=off: said, with the file and the remedy"
unlike "$out" "writing 0x1 anyway" "msr.allow_writes=off: no 'writing anyway' warning"
echo default >"$tmp/ro/sys/module/msr/parameters/allow_writes"
echo "none [integrity] confidentiality" >"$tmp/ro/sys/kernel/security/lockdown"
out=$(BARETMA_SYSROOT=$tmp/ro BARETMA_MSR=$tmp/dev/%u/msr BARETMA_TEST_HOOKS=1 "$BARETMA_HOOKS" msr write --unsafe-msr 0 0x1a0 0x1 2>&1); rc=$?
is "$rc" 77 "lockdown integrity: exit 77"
like "$out" "kernel lockdown is 'integrity'" "lockdown: said"
is "$(journals)" "" "refused by the kernel's settings: no journal"
is "$(cat "$tmp/dev/0/msr" | wc -c)" 0 "refused by the kernel's settings: the 'device' untouched"
out=$("$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 0 "live cpu 0 read from the state file"
is "$out" "cpu 0 IA32_PERF_GLOBAL_CTRL (0x38f) = 0x70000000f" "live read: the fixture's value"
mkdir -p "$tmp/root/sys/devices/system/cpu"
echo 1-3 >"$tmp/root/sys/devices/system/cpu/online"
out=$(BARETMA_SYSROOT=$tmp/root "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 64 "live cpu 0 offline (sysfs online '1-3'): exit 64"
like "$out" "cpu 0 is offline" "offline: said"
out=$("$BARETMA" msr read 1023 0x38f 2>&1); rc=$?
is "$rc" 64 "live cpu 1023 does not exist: exit 64"
like "$out" "cpu 1023: no such CPU in this machine" "no such CPU: named"

# --- Ice Lake ------------------------------------------------------------------
if [ -r "$ICL" ]; then
	fixture 0 7 >"$tmp/state"; cp "$tmp/state" "$tmp/icl.orig"
	export BARETMA_CPUID_DUMP="$ICL"

	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" msr read 0-2,5 0x38f 2>&1); rc=$?
	is "$rc" 0 "icl: read 0-2,5 exits 0"
	is "$out" "cpu 0 IA32_PERF_GLOBAL_CTRL (0x38f) = 0x70000000f
cpu 1 IA32_PERF_GLOBAL_CTRL (0x38f) = 0x70000000f
cpu 2 IA32_PERF_GLOBAL_CTRL (0x38f) = 0x70000000f
cpu 5 IA32_PERF_GLOBAL_CTRL (0x38f) = 0x70000000f" "icl: one line per CPU with the fixture's value"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "icl: read writes nothing"
	is "$(grep -c '^rd [0-9] 0x38f 0x70000000f$' "$tmp/trace")" 4 "icl: trace has the 4 reads"
	out=$("$BARETMA" msr read 1 IA32_PERF_GLOBAL_CTRL 2>&1); rc=$?
	is "$rc:$out" "0:cpu 1 IA32_PERF_GLOBAL_CTRL (0x38f) = 0x70000000f" "icl: read by register name"
	out=$("$BARETMA" msr read 1 ia32_fixed_ctr_ctrl 2>&1); rc=$?
	is "$rc:$out" "0:cpu 1 IA32_FIXED_CTR_CTRL (0x38d) = 0x333" "icl: names are case-insensitive"
	out=$("$BARETMA" msr read 3 416 2>&1)
	is "$out" "cpu 3 MSR 0x1a0 = 0x850089" "icl: decimal MSR 416 = 0x1a0: any MSR can be read (IA32_MISC_ENABLE)"
	out=$("$BARETMA" msr read 4 0x188 2>&1); rc=$?
	is "$rc" 69 "icl: register not in the state file: exit 69"
	like "$out" "cannot read IA32_PERFEVTSEL2 \(0x188\) on cpu 4 through '$tmp/state': Input/output error \(this register does not exist on this CPU\)" \
		"icl: EIO message names the register, cpu and remedy"
	if command -v python3 >/dev/null 2>&1; then
		"$BARETMA" msr read --json 2,6 0x38d >"$tmp/r.json"; rc=$?
		is "$rc" 0 "icl: read --json exits 0"
		is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(d["msr"], d["name"], [(c["cpu"], c["value"]) for c in d["cpus"]])' "$tmp/r.json")" \
			"0x38d IA32_FIXED_CTR_CTRL [(2, '0x333'), (6, '0x333')]" "icl: --json document"
	else
		skip "no python3"; skip "no python3"
	fi
	out=$("$BARETMA" msr read 8 0x38f 2>&1); rc=$?
	is "$rc" 64 "icl: cpu 8 (dump has 0-7): exit 64"
	out=$("$BARETMA" msr read 99 0x38f 2>&1); rc=$?
	is "$rc" 64 "icl: cpu 99: exit 64"
	like "$out" "cpu 99: no such CPU: the CPUID dump '$ICL' describes CPUs 0-7" "icl: cpu 99 named with the dump's CPUs"
	is "$(same "$tmp/state" "$tmp/icl.orig")" 0 "icl: reads leave the state file as it was"

	# An allowed write: FC0-3 OS+USR.
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" msr write 3 0x38d 0x3333 2>&1); rc=$?
	is "$rc" 0 "icl: write cpu 3 IA32_FIXED_CTR_CTRL 0x3333 exits 0"
	sed 's/^3 0x38d 0x333$/3 0x38d 0x3333/' "$tmp/icl.orig" >"$tmp/want"
	is "$(same "$tmp/state" "$tmp/want")" 0 "icl: exactly that line of the state file changed"
	j=$(journals); j=${j% }
	like "$j" "^run-[0-9]+\\.journal$" "icl: one run journal"
	jpid=${j#run-}; jpid=${jpid%.journal}
	like "$out" "^cpu 3 IA32_FIXED_CTR_CTRL \(0x38d\): 0x333 -> 0x3333 \(saved in $tmp/run/$j; undo: baretma pmu restore\)$" \
		"icl: the write is reported with the old value and the journal"
	is "$(cat "$tmp/run/$j")" "# baretma journal v2
pid $jpid
$(sed -n 3,4p "$tmp/run/$j")
cmd $BARETMA msr write 3 0x38d 0x3333
backend state:$tmp/state
kind write
user_only 0
reg 3 0x38d 0x333" "icl: journal v2 holds the old value, kind write (its own: not enable), the backend"
	like "$(sed -n 3p "$tmp/run/$j")" "^starttime [0-9]+$" "icl: journal starttime"
	like "$(sed -n 4p "$tmp/run/$j")" "^time [0-9]+$" "icl: journal time"
	is "$(stat -c %a "$tmp/run/$j")" 600 "icl: journal mode 0600"
	is "$(grep ' 0x38d ' "$tmp/trace" | tr '\n' ';')" "rd 3 0x38d 0x333;sv 3 0x38d 0x333;wr 3 0x38d 0x3333;" \
		"icl: trace: the old value read, saved in the journal, then the new one written"
	is "$(grep -c '^wr' "$tmp/trace")" 1 "icl: one write in all"

	# pmu status says what the journal is: an msr write, its register now.
	out=$("$BARETMA" pmu status 2>&1); rc=$?
	is "$rc" 0 "icl: pmu status of an msr write journal exits 0"
	like "$out" "kind: +write" "icl: status: kind write, not enable"
	unlike "$out" "kind: +enable" "icl: status: never kind enable"
	like "$out" "cpu 3: written by pid $jpid \(not running\) at " "icl: status: cpu 3 written by the pid"
	is "$(printf '%s\n' "$out" | grep -E '^  (saved|now|current):' | tr '\n' ';')" \
		"  saved:   IA32_FIXED_CTR_CTRL=0x333;  now:     IA32_FIXED_CTR_CTRL=0x3333;" \
		"icl: status: saved and now are the register it wrote, not FC3's summary"
	if command -v python3 >/dev/null 2>&1; then
		"$BARETMA" pmu status --json >"$tmp/st.json"
		is "$(pyq 'import json,sys; j=json.load(open(sys.argv[1]))["journals"][0]; c=j["cpus"][0]; print(j["kind"], c["cpu"], c["now"], c["registers"][0]["current"])' "$tmp/st.json")" \
			"write 3 {'IA32_FIXED_CTR_CTRL': '0x3333'} 0x3333" "icl: status --json: kind write, now by register"
	else
		skip "no python3"
	fi

	# The journal of that (ended) run holds cpu 3: refused, named; --force.
	jbefore=$(journals)
	refused "icl: cpu 3 held by a journal" 75 write 3 0x38d 0x3
	like "$out" "cpu 3: registers written by 'baretma msr write 3 0x38d 0x3333' \(pid $jpid, not running\); journal '$tmp/run/$j' \(run: baretma pmu restore\)" \
		"icl: the holding journal is named with its pid and command"
	refused "icl: cpu 2-4 with 3 held" 75 write 2-4 0x38d 0x3
	# --unsafe-msr is about registers, not about who holds the CPU (point 8)
	refused "icl: cpu 3 held, --unsafe-msr is not --force" 75 write --unsafe-msr 3 0x38d 0x3
	like "$out" "cpu 3: registers written by 'baretma msr write 3 0x38d 0x3333' \(pid $jpid, not running\); journal '$tmp/run/$j' \(run: baretma pmu restore\)" \
		"icl: --unsafe-msr on a held CPU: refused as without it"
	out=$("$BARETMA" msr write --force 3 0x38d 0x3 2>&1); rc=$?
	is "$rc" 0 "icl: --force writes over another run's journal"
	like "$out" "warning: cpu 3: registers written by 'baretma msr write 3 0x38d 0x3333' \(pid $jpid, not running\); journal '$tmp/run/$j'; going on \(--force\)" \
		"icl: --force warns"
	is "$(grep '^3 0x38d ' "$tmp/state")" "3 0x38d 0x3" "icl: forced value written"
	is "$(ls "$tmp/run" | grep -c 'journal$')" 2 "icl: a second journal"
	is "$(grep '^reg ' "$tmp/run/$j")" "reg 3 0x38d 0x333" "icl: the first journal keeps its value"
	j2=$(ls "$tmp/run" | grep 'journal$' | grep -vx "$j")
	is "$(grep '^reg ' "$tmp/run/$j2")" "reg 3 0x38d 0x3333" \
		"icl: the forced write's journal holds the value before it"

	# A write by name: the same register, the same policy.
	rm -f "$tmp/run"/run-*.journal
	out=$("$BARETMA" msr write 2 IA32_FIXED_CTR_CTRL 0x3333 2>&1); rc=$?
	is "$rc" 0 "icl: write by register name"
	is "$(grep '^2 0x38d ' "$tmp/state")" "2 0x38d 0x3333" "icl: written to 0x38d"
	jbefore=$(journals)
	refused "icl: by name, PMI bit" 65 write 2 IA32_FIXED_CTR_CTRL 0x8000
	jbefore=
	"$BARETMA" pmu restore >/dev/null 2>&1

	# Several CPUs: one journal, every CPU's own old value.
	rm -f "$tmp/run"/run-*.journal
	sed 's/^5 0x38f .*/5 0x38f 0xf/' "$tmp/icl.orig" >"$tmp/state"
	cp "$tmp/state" "$tmp/icl.multi"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" msr write 4-6 0x38f 0x1000f000000ff 2>&1); rc=$?
	is "$rc" 0 "icl: GLOBAL_CTRL 0x1000f000000ff (all counters + bit 48) on cpu 4-6"
	is "$(grep ' 0x38f ' "$tmp/state" | tr '\n' ';')" \
		"0 0x38f 0x70000000f;1 0x38f 0x70000000f;2 0x38f 0x70000000f;3 0x38f 0x70000000f;4 0x38f 0x1000f000000ff;5 0x38f 0x1000f000000ff;6 0x38f 0x1000f000000ff;7 0x38f 0x70000000f;" \
		"icl: cpus 4-6 written, the others untouched"
	is "$(grep -h '^reg ' "$tmp/run"/run-*.journal | tr '\n' ';')" \
		"reg 4 0x38f 0x70000000f;reg 5 0x38f 0xf;reg 6 0x38f 0x70000000f;" "icl: one journal, each CPU's old value"
	is "$(grep -c '^wr' "$tmp/trace")" 3 "icl: three writes"
	is "$(grep -n '' "$tmp/trace" | grep ' 0x38f ' | sed -n '1p;$p' | cut -c1-5 | tr '\n' ' ')" \
		"$(grep -n '^rd 4 0x38f' "$tmp/trace" | cut -c1-5) $(grep -n '^wr 6 0x38f' "$tmp/trace" | cut -c1-5) " \
		"icl: every read before the first write"
	like "$(printf '%s\n' "$out" | sed -n 2p)" "^cpu 5 IA32_PERF_GLOBAL_CTRL \(0x38f\): 0xf -> 0x1000f000000ff " \
		"icl: cpu 5 reported with its own old value"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 0 "icl: the undo the write names, 'baretma pmu restore', exits 0"
	is "$(same "$tmp/state" "$tmp/icl.multi")" 0 "icl: pmu restore gives the state file back byte for byte"
	is "$(grep '^wr' "$tmp/trace" | tr '\n' ';')" "wr 4 0x38f 0x70000000f;wr 5 0x38f 0xf;wr 6 0x38f 0x70000000f;" \
		"icl: GLOBAL_CTRL saved alone is written once (no freeze: nothing else to guard)"
	is "$(journals)" "" "icl: pmu restore removes the journal"
	# Two journals on one register: a --force write on top of another.  The
	# newer journal saved 0x3333 (the older write's value); undoing newest
	# first ends at the firmware's 0x333.  The first journal's time (the
	# first ordering key, seconds) is set a minute back, so the two never
	# share a second, however fast they run.
	"$BARETMA" msr write 3 0x38d 0x3333 >/dev/null 2>&1
	j1=$(ls "$tmp/run"/run-*.journal)
	sed "s/^time [0-9]*\$/time $(( $(date +%s) - 60 ))/" "$j1" >"$j1.new" && cat "$j1.new" >"$j1" && rm -f "$j1.new"
	"$BARETMA" msr write --force 3 0x38d 0x2333 >/dev/null 2>&1; rc=$?
	is "$rc" 0 "icl: a second write on the same register with --force"
	is "$(grep -h '^reg ' "$tmp/run"/run-*.journal | sort | tr '\n' ';')" \
		"reg 3 0x38d 0x333;reg 3 0x38d 0x3333;" "icl: two journals, each with the value it found"
	out=$("$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 0 "icl: pmu restore of two overlapping journals exits 0"
	is "$(same "$tmp/state" "$tmp/icl.multi")" 0 \
		"icl: newest journal undone first: the state file is back byte for byte"
	is "$(journals)" "" "icl: both journals removed"

	# Refusals: each leaves the state file byte for byte and no journal.
	rm -f "$tmp/run"/run-*.journal
	cp "$tmp/icl.orig" "$tmp/state"
	jbefore=
	refused "icl: FC3 PMI bit 15" 65 write 0 0x38d 0x8000
	like "$out" "IA32_FIXED_CTR_CTRL: bits 0x8000 of 0x8000 are reserved or refused on this CPU \(allowed: 0x3777\)" \
		"icl: PMI bit named, allowed bits 0x3777"
	refused "icl: FC3 bit 14 (METRICS_CLEAR_EN) without PERF_CAPABILITIES[19]" 65 write 0 0x38d 0x7333
	like "$out" "bits 0x4000 of 0x7333 are reserved or refused on this CPU \(allowed: 0x3777\); bit 14 is fixed counter 3's METRICS_CLEAR_EN, which needs RDPMC metrics-clear mode \(IA32_PERF_CAPABILITIES\[19\]" \
		"icl: bit 14 named with the capability it needs"
	refused "icl: PMI bit 15 with --force" 65 write --force 0 0x38d 0xb333
	refused "icl: PMI bit 15 with --unsafe-msr (bits of a known register)" 65 \
		write --unsafe-msr 0 0x38d 0xb333
	like "$out" "--unsafe-msr does not override this" "icl: reserved bits: --unsafe-msr said not to help"
	refused "icl: GLOBAL_CTRL bit 36 (no FC4)" 65 write 1 0x38f 0x1000000000
	like "$out" "bits 0x1000000000 of 0x1000000000 are reserved" "icl: bit 36 named"
	refused "icl: PERFEVTSEL0 INT (bit 20)" 65 write 0 0x186 0x5300c0
	refused "icl: PERF_METRICS byte 4 at level 1" 65 write 0 0x329 0x100000000
	refused "icl: A_PMC0 bit 48 above the width" 65 write 0 0x4c1 0x1000000000000
	refused "icl: GLOBAL_STATUS read-only" 65 write 0 0x38e 0x0
	like "$out" "IA32_PERF_GLOBAL_STATUS is read-only" "icl: read-only said"
	refused "icl: PERF_CAPABILITIES read-only" 65 write 0 0x345 0xf4c5
	refused "icl: unknown MSR 0x1a0" 64 write 0 0x1a0 0x850088
	like "$out" "MSR 0x1a0 is not a PMU register baretma knows: writing it can hang or damage the machine \(thermal, power, microcode, security registers\); give --unsafe-msr if you know what it does\$" \
		"icl: unknown register: the danger and --unsafe-msr"
	# issue 9 point 8: --force is ownership, not registers
	refused "icl: unknown MSR 0x1a0 with --force alone" 64 write --force 0 0x1a0 0x850088
	like "$out" "give --unsafe-msr if you know what it does \(--force is for CPUs another run's journal holds, not for registers\)" \
		"icl: --force alone on an unknown register: refused, naming --unsafe-msr"
	refused "icl: 2-9 (no cpu 8, 9)" 64 write 2-9 0x38d 0x3333
	refused "icl: 0x3333 with a bad CPU list" 64 write 1x 0x38d 0x3333
	refused "icl: cpu 99" 64 write 99 0x38d 0x3333
	like "$out" "cpu 99: no such CPU" "icl: write cpu 99 named"
	refused "icl: VALUE 0x1ffffffffffffffff" 64 write 0 0x38d 0x1ffffffffffffffff
	out=$(BARETMA_MSR=/nonexistent/%u/msr "$BARETMA" msr write 0 0x38d 0x3333 2>&1); rc=$?
	is "$rc" 64 "icl: dump + device backend: exit 64"
	like "$out" "msr write: refusing to write MSRs through '/nonexistent/%u/msr' with a CPUID dump \('$ICL'\): the dump describes another machine.*use BARETMA_MSR=state:FILE" \
		"icl: dump + device: says to use a state file"

	# Allowed values on ICL, one CPU each (each write's journal holds its CPU).
	out=$("$BARETMA" msr write 4 0x186 0x4300c0 2>&1); rc=$?
	is "$rc" 0 "icl: PERFEVTSEL0 0x4300c0 (EN|OS|USR, event 0xc0)"
	out=$("$BARETMA" msr write 5 0x4c1 0xffffffffffff 2>&1); rc=$?
	is "$rc" 0 "icl: A_PMC0 at full 48-bit width (PERF_CAPABILITIES[13] set)"
	out=$("$BARETMA" msr write 6 0x329 0xffffffff 2>&1); rc=$?
	is "$rc" 0 "icl: PERF_METRICS bytes 0-3"
	out=$("$BARETMA" msr write 7 0x309 0xffffffffffff 2>&1); rc=$?
	is "$rc" 0 "icl: FIXED_CTR0 at 48 bits"
	sed -e 's/^4 0x186 0x0$/4 0x186 0x4300c0/' -e 's/^5 0x4c1 0x0$/5 0x4c1 0xffffffffffff/' \
		-e 's/^6 0x329 0x0$/6 0x329 0xffffffff/' -e 's/^7 0x309 0x0$/7 0x309 0xffffffffffff/' \
		"$tmp/icl.orig" >"$tmp/want"
	is "$(same "$tmp/state" "$tmp/want")" 0 "icl: the four values written, nothing else"
	is "$(ls "$tmp/run" | grep -c 'journal$')" 4 "icl: four journals"

	# Full-width writes come from IA32_PERF_CAPABILITIES[13] of the CPU.
	rm -f "$tmp/run"/run-*.journal
	fixture 0 7 0xd4c5 >"$tmp/state"
	jbefore=
	refused "icl: A_PMC0 without full-width writes (PERF_CAPABILITIES 0xd4c5)" 65 write 0 0x4c1 0x1
	like "$out" "no full-width writes" "icl: the missing capability is named"

	# --unsafe-msr on an unknown register: warned, journaled (marked), written.
	cp "$tmp/icl.orig" "$tmp/state"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" msr write --unsafe-msr 1 0x1a0 0x850088 2>&1); rc=$?
	is "$rc" 0 "icl: --unsafe-msr on MSR 0x1a0 exits 0"
	like "$out" "warning: MSR 0x1a0 is not a PMU register baretma knows: writing 0x850088 anyway \(--unsafe-msr\)" \
		"icl: --unsafe-msr warns"
	like "$out" "cpu 1 MSR 0x1a0: 0x850089 -> 0x850088 \(saved in .*; undo: baretma pmu restore --unsafe-msr\)" \
		"icl: the undo it names needs --unsafe-msr"
	sed 's/^1 0x1a0 0x850089$/1 0x1a0 0x850088/' "$tmp/icl.orig" >"$tmp/want"
	is "$(same "$tmp/state" "$tmp/want")" 0 "icl: exactly cpu 1's 0x1a0 line changed"
	is "$(grep -h '^reg ' "$tmp/run"/run-*.journal)" "reg 1 0x1a0 0x850089 unsafe-msr" \
		"icl: journaled first, marked unsafe-msr"
	is "$(grep ' 0x1a0 ' "$tmp/trace" | tr '\n' ';')" "rd 1 0x1a0 0x850089;sv 1 0x1a0 0x850089;wr 1 0x1a0 0x850088;" \
		"icl: unsafe write: read, saved, then write"
	out=$("$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 64 "icl: pmu restore of it without --unsafe-msr: exit 64"
	is "$(same "$tmp/state" "$tmp/want")" 0 "icl: ... nothing restored"
	out=$("$BARETMA" pmu restore --unsafe-msr 2>&1); rc=$?
	is "$rc" 0 "icl: pmu restore --unsafe-msr exits 0"
	is "$(same "$tmp/state" "$tmp/icl.orig")" 0 "icl: ... the state file back byte for byte"
	is "$(journals)" "" "icl: ... and the journal removed"

	# A malformed journal in the state dir: what it holds is unknown.
	rm -f "$tmp/run"/run-*.journal
	printf '# baretma journal v2\npid 77\n' >"$tmp/run/run-77.journal"
	chmod 600 "$tmp/run/run-77.journal"
	jbefore="run-77.journal "
	refused "icl: malformed journal in the way" 65 write 0 0x38d 0x3333
	like "$out" "journal '$tmp/run/run-77.journal' is malformed: line 3: missing 'starttime'" \
		"icl: the malformed journal and its line are named"
	rm -f "$tmp/run/run-77.journal"
	jbefore=

	# Another baretma holds cpu 2's lock (flock(1) standing in for it, with
	# the "pid PID cmd ..." line a holder writes, msr/guard/lock.h).
	if command -v flock >/dev/null 2>&1 && command -v mkfifo >/dev/null 2>&1; then
		lock=$tmp/run/cpu2.lock
		printf 'pid 4242 cmd baretma bench --cpu 2\n' >"$lock"
		chmod 600 "$lock"
		mkfifo "$tmp/fifo"
		hold() {
			flock -o "$lock" sh -c "read x <'$tmp/fifo'" >/dev/null 2>&1 & fpid=$!
			until_true held "$lock"
		}
		held() { ! flock -n "$1" true; }
		release() { echo go >"$tmp/fifo"; wait "$fpid"; }
		hold
		refused "icl: cpu 2 locked" 75 write 1-3 0x38d 0x3333
		like "$out" "cpu 2 is being programmed by pid 4242 \(baretma bench --cpu 2\) \(try: --wait\)" \
			"icl: the holder is named"
		"$BARETMA" msr write --wait 2 0x38d 0x3333 >"$tmp/wout" 2>&1 & bpid=$!
		if [ -r /proc/locks ]; then
			until_true flock_waiter "$tmp/run/cpu2.lock" "$bpid"
			ok $? "icl: --wait: blocks on cpu 2's lock (/proc/locks)"
		else
			skip "no /proc/locks: cannot see the --wait run blocked on the lock"
		fi
		kill -0 "$bpid" 2>/dev/null; ok $? "icl: --wait: still waiting while the lock is held"
		is "$(grep '^2 0x38d ' "$tmp/state")" "2 0x38d 0x333" "icl: --wait: nothing written while waiting"
		release
		wait "$bpid"; rc=$?
		is "$rc" 0 "icl: --wait: writes once the lock is free"
		is "$(grep '^2 0x38d ' "$tmp/state")" "2 0x38d 0x3333" "icl: --wait: written"
		# A run changing the system settings holds settings.lock exclusively
		# (named when its pid runs: this shell's stands in for it).
		rm -f "$tmp/run"/run-*.journal
		lock=$tmp/run/settings.lock
		printf 'pid %s cmd baretma bench\n' "$$" >"$lock"
		chmod 600 "$lock"
		hold
		refused "icl: settings lock held exclusively" 75 write 0 0x38d 0x3333
		like "$out" "the system settings \(rdpmc, nmi_watchdog, msr.allow_writes\) are being changed by pid $$ \(baretma bench\) \(try: --wait\)" \
			"icl: the settings lock holder is named"
		release
	else
		for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do skip "no flock(1) or mkfifo"; done
	fi
	unset BARETMA_CPUID_DUMP
else
	skip "no Ice Lake dump ($ICL)"
fi

# --- Skylake: no PERF_METRICS, no fixed counter 3 ------------------------------
if [ -r "$SKL" ]; then
	rm -f "$tmp/run"/run-*.journal
	fixture 0 0 >"$tmp/state"; cp "$tmp/state" "$tmp/skl.orig"
	jbefore=
	refused "skl: GLOBAL_CTRL bit 48" 65 write --cpuid-dump "$SKL" 0 0x38f 0x1000000000000
	like "$out" "bits 0x1000000000000 of 0x1000000000000 are reserved or refused on this CPU.*bit 48 EN_PERF_METRICS needs IA32_PERF_METRICS" \
		"skl: bit 48 named, and why"
	refused "skl: FIXED_CTR_CTRL FC3 field (no FC3)" 65 write --cpuid-dump "$SKL" 0 0x38d 0x3333
	refused "skl: PERF_METRICS does not exist" 65 write --cpuid-dump "$SKL" 0 0x329 0x0
	refused "skl: cpu 1 (dump has one CPU)" 64 write --cpuid-dump "$SKL" 1 0x38d 0x333
	out=$("$BARETMA" msr write --cpuid-dump "$SKL" 0 0x38f 0x70000000f 2>&1); rc=$?
	is "$rc" 0 "skl: GLOBAL_CTRL 0x70000000f (FC0-2 + GP0-3) allowed"
	is "$(same "$tmp/state" "$tmp/skl.orig")" 0 "skl: same value written: same bytes"
	is "$(grep -h '^reg ' "$tmp/run"/run-*.journal)" "reg 0 0x38f 0x70000000f" "skl: journaled"
else
	skip "no Skylake dump ($SKL)"
fi

# --- Lunar Lake: RDPMC metrics-clear from IA32_PERF_CAPABILITIES[19] -----------
if [ -r "$LNL" ]; then
	rm -f "$tmp/run"/run-*.journal
	jbefore=
	fixture 0 7 0xf4c5 >"$tmp/state"
	refused "lnl: FC3 bit 14 with PERF_CAPABILITIES 0xf4c5 (no bit 19)" 65 \
		write --cpuid-dump "$LNL" 1 0x38d 0x7333
	like "$out" "METRICS_CLEAR_EN, which needs RDPMC metrics-clear mode" "lnl: the capability is named"
	fixture 0 7 0x8f4c5 >"$tmp/state"
	out=$("$BARETMA" msr write --cpuid-dump "$LNL" 1 0x38d 0x7333 2>&1); rc=$?
	is "$rc" 0 "lnl: FC3 bit 14 with PERF_CAPABILITIES 0x8f4c5 (bit 19): allowed"
	is "$(grep '^1 0x38d ' "$tmp/state")" "1 0x38d 0x7333" "lnl: written"
	"$BARETMA" pmu restore >/dev/null 2>&1
	is "$(grep '^1 0x38d ' "$tmp/state")" "1 0x38d 0x333" "lnl: restored"
else
	skip "no Lunar Lake dump ($LNL)"
fi

done_testing
