#!/bin/sh
# t/0387-journal-planted.sh - issue 9 point 4: a journal is not trusted on
# restore.  Journals planted in the state directory (as anyone who can
# write there, or a stale file from elsewhere, would leave them) try to
# make `pmu restore` write, as root, a command into
# /proc/sys/kernel/core_pattern (run on the next crash) and 0xdeadbeef into
# IA32_MISC_ENABLE (0x1a0, SDM Vol. 4: not a PMU register).  Each is
# malformed (msr/journal/journal.h "What a journal may hold"): exit 65 naming the
# file and the line, and the state file standing in for the MSRs, the fake
# sysroot standing in for /sys and /proc, and the state directory keep
# every byte.  A register `msr write --unsafe-msr` wrote is marked in its
# journal, shown by `pmu status`, and restored only with --unsafe-msr.
. "$T_SRC/tap.sh"
pyq_start

# Two CPUs as firmware left them (as t/pmu-fixture.h: FC0-2 enabled 0x333,
# GP0-3 + FC0-2 in GLOBAL_CTRL 0x70000000f); IA32_MISC_ENABLE 0x850089.
state=$tmp/state
for c in 0 1; do
	printf '%s 0x1a0 0x850089\n%s 0x30c 0x0\n%s 0x38d 0x333\n%s 0x38f 0x70000000f\n' $c $c $c $c
done >"$state"
sys=$tmp/sys
mkdir -p "$sys/proc/sys/kernel" "$sys/sys/bus/event_source/devices/cpu" \
	"$sys/sys/module/msr/parameters"
echo core >"$sys/proc/sys/kernel/core_pattern"
echo 0 >"$sys/proc/sys/kernel/nmi_watchdog"
echo 2 >"$sys/sys/bus/event_source/devices/cpu/rdpmc"
echo on >"$sys/sys/module/msr/parameters/allow_writes"
run=$tmp/run
mkdir -m 0700 "$run"
BARETMA_MSR=state:$state BARETMA_SYSROOT=$sys BARETMA_STATE_DIR=$run
export BARETMA_MSR BARETMA_SYSROOT BARETMA_STATE_DIR

# A pid that has ended: its journal is one to restore.
sh -c 'exit 0' & dead=$!
wait "$dead"
jfile=$run/run-$dead.journal

# plant KIND LINE...: the journal of the dead pid, of KIND, with LINEs.
plant() {
	kind=$1
	shift
	rm -f "$run"/run-*.journal
	{
		printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\n' "$dead"
		printf 'cmd baretma bench\nbackend state:%s\nkind %s\nuser_only 0\n' "$state" "$kind"
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$jfile"
	chmod 600 "$jfile"
}

# Everything a refused journal must leave alone, as one checksum.
snapshot() {
	{
		find "$tmp" -printf '%p %m %u %l\n' | sort
		find "$tmp" -type f -print | sort | xargs cat
	} | cksum
}

# refused WHAT LINE REGEX: status and restore both exit 65 naming the file
# and LINE, and change nothing.
refused() {
	what=$1 line=$2 re=$3
	before=$(snapshot)
	for sub in restore status; do
		out=$("$BARETMA" pmu $sub 2>&1); rc=$?
		is "$rc" 65 "$what: pmu $sub exits 65"
		like "$out" "journal '$jfile' is malformed: line $line: $re" \
			"$what: pmu $sub names the file, the line and why"
		is "$(snapshot)" "$before" "$what: pmu $sub: state file, sysroot, journal unchanged"
	done
}

# --- settings: only the files baretma changes, with their values ------------
# A valid register line first: the whole journal is checked before the
# first write, so not even that one is restored.
plant run 'reg 0 0x38f 0x0' 'setting /proc/sys/kernel/core_pattern |/tmp/evil%20%25p'
refused "core_pattern setting" 10 \
	"setting: path '/proc/sys/kernel/core_pattern' is not a file baretma changes"
is "$(cat "$sys/proc/sys/kernel/core_pattern")" core "core_pattern: not written"
is "$(grep '^0 0x38f ' "$state")" "0 0x38f 0x70000000f" "core_pattern: the valid reg line before it not restored either"

plant run 'setting /proc/sys/kernel/nmi_watchdog 5'
refused "nmi_watchdog 5 (it takes 0 or 1)" 9 \
	"setting: value '5' of '/proc/sys/kernel/nmi_watchdog' is not one nmi_watchdog takes \(0 or 1\)"

# --- registers: run / enable journals hold what pmu_program/gp_program save --
plant run 'reg 0 0x38f 0x0' 'reg 0 0x1a0 0xdeadbeef'
refused "run journal, IA32_MISC_ENABLE" 10 \
	"reg: MSR 0x1a0 is not a register a journal of kind run holds \(only the PMU registers baretma programs: global controls, counters, event selects, IA32_PERF_METRICS\)"
is "$(grep '^0 0x1a0 ' "$state")" "0 0x1a0 0x850089" "run journal: IA32_MISC_ENABLE not written"

plant enable 'reg 1 0x1a0 0xdeadbeef'
refused "enable journal, IA32_MISC_ENABLE" 9 "reg: MSR 0x1a0 is not a register a journal of kind enable holds"

plant run 'reg 1 0x38d 0x333 unsafe-msr'
refused "run journal with an unsafe-msr mark" 9 "reg: 'unsafe-msr' in a journal of kind run"

# --- write journals: the write policy's registers, or marked unsafe-msr -----
plant write 'reg 0 0x38d 0x333' 'reg 0 0x1a0 0xdeadbeef'
refused "write journal, IA32_MISC_ENABLE unmarked" 10 \
	"reg: MSR 0x1a0 is outside the write policy and not marked 'unsafe-msr'"

# A stale or planted journal beside a good one: nothing is restored.
plant write 'reg 0 0x1a0 0xdeadbeef'
{
	printf '# baretma journal v2\npid 1\nstarttime 1\ntime 1700000000\ncmd baretma pmu enable\n'
	printf 'backend state:%s\nkind enable\nuser_only 0\nreg 1 0x38f 0x0\n' "$state"
} >"$run/run-1.journal"
chmod 600 "$run/run-1.journal"
before=$(snapshot)
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 65 "a good journal beside a planted one: restore exits 65"
like "$out" "journal '$jfile' is malformed: line 9: " "it names the planted one"
is "$(snapshot)" "$before" "neither is restored"
rm -f "$run/run-1.journal"

# --- a register written with --unsafe-msr: shown, restored only with the flag -
plant write 'reg 0 0x38d 0x333' 'reg 0 0x1a0 0xdeadbeef unsafe-msr'
out=$("$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 0 "unsafe-msr journal: status exits 0"
like "$out" "unsafe: +1 register written with --unsafe-msr, outside the write policy" \
	"status says a register was written with --unsafe-msr"
like "$out" "saved: +IA32_FIXED_CTR_CTRL=0x333 MSR 0x1a0=0xdeadbeef \(unsafe-msr\)" \
	"status marks that register"
if command -v python3 >/dev/null 2>&1; then
	"$BARETMA" pmu status --json >"$tmp/st.json"
	is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); print([(r["msr"], r["unsafe_msr"]) for r in d["journals"][0]["cpus"][0]["registers"]])' "$tmp/st.json")" \
		"[('0x38d', False), ('0x1a0', True)]" "status --json: unsafe_msr per register"
else
	skip "no python3"
fi
before=$(snapshot)
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 64 "unsafe-msr journal: restore without --unsafe-msr exits 64"
like "$out" "journal '$jfile': cpu 0 MSR 0x1a0 was written with --unsafe-msr, outside the write policy: restoring it writes that register \(check it with 'baretma pmu status', then give --unsafe-msr\); nothing restored" \
	"restore names the journal, the register and --unsafe-msr"
is "$(snapshot)" "$before" "restore without --unsafe-msr: nothing written, journal kept"
out=$("$BARETMA" pmu restore --force 2>&1); rc=$?
is "$rc" 64 "restore --force is no way around it (64)"
like "$out" "option '--force' does not apply to 'pmu restore'" "restore --force: usage error"
is "$(snapshot)" "$before" "restore --force: nothing written"
out=$("$BARETMA" pmu restore --unsafe-msr 2>&1); rc=$?
is "$rc" 0 "restore --unsafe-msr exits 0"
like "$out" "warning: journal '$jfile': restoring cpu 0 MSR 0x1a0 = 0xdeadbeef, outside the write policy \(--unsafe-msr\)" \
	"restore --unsafe-msr warns"
is "$(grep '^0 0x1a0 \|^0 0x38d ' "$state" | tr '\n' ';')" "0 0x1a0 0xdeadbeef;0 0x38d 0x333;" \
	"restore --unsafe-msr writes the saved values"
[ ! -e "$jfile" ]; ok $? "restore --unsafe-msr removes the journal"

done_testing
