#!/bin/sh
# t/0380-guard-kill.sh - a bench run killed with SIGKILL (no handler can
# run) leaves its journal; `pmu status` shows it, a new run on that CPU is
# refused naming it, and `pmu restore` puts the state file and the sysroot
# setting files back byte for byte and removes the journal.  A malformed
# journal is an error naming the file and the line, never skipped nor
# deleted.  Fixture: t/guard-fixture.sh.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/guard-fixture.sh"

fixture
BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 1000000 --warmup 0 --stop-nmi-watchdog --rdpmc-always \
	--allow-msr-writes >/dev/null 2>"$tmp/err" &
pid=$!
until_true journal_of "$pid"; ok $? "the run's journal exists: run-$pid.journal"
# Measuring: programming is over once the run has read GLOBAL_STATUS (its
# first overflow check comes right after the programming sequence).
measuring() { grep -q '^rd 1 0x38e ' "$tmp/trace" 2>/dev/null; }
until_true measuring; ok $? "the run programmed cpu 1 and measures"
programmed 1; ok $? "the run programmed cpu 1 (IA32_FIXED_CTR_CTRL 0x3333)"
is "$(cat "$WD" "$RDPMC" "$ALLOW" | tr '\n' ' ')" "0 2 on " \
	"the three settings changed with consent during the run"
kill -KILL "$pid"
wait "$pid"; rc=$?
is "$rc" 137 "killed by SIGKILL (128+9)"
is "$(journals)" "run-$pid.journal " "the journal stays after SIGKILL"
# What the journal saved is what the fixture had (hand-worked, not read back):
# fixed counter 3's and PERF_METRICS's registers, then those of the two
# events Ice Lake's recipe counts beside them (IA32_A_PMC0-1, the
# full-width aliases, and IA32_PERFEVTSEL0-1: msr/recipe/recipes_intel_pm.c), 0.
is "$(grep '^reg 1 ' "$tmp/run/run-$pid.journal" | tr '\n' ';')" \
	"reg 1 0x38f 0x70000000f;reg 1 0x38d 0x333;reg 1 0x30c 0x1001;reg 1 0x329 0x1f3a5c47;reg 1 0x4c1 0x0;reg 1 0x4c2 0x0;reg 1 0x186 0x0;reg 1 0x187 0x0;" \
	"journal: cpu 1's registers as found"
is "$(grep '^setting ' "$tmp/run/run-$pid.journal" | sort | tr '\n' ';')" \
	"setting /proc/sys/kernel/nmi_watchdog 1;setting /sys/bus/event_source/devices/cpu/rdpmc 0;setting /sys/module/msr/parameters/allow_writes off;" \
	"journal: the three settings as found"

out=$("$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 0 "pmu status exits 0"
like "$out" "journal '$tmp/run/run-$pid.journal': left by a baretma run that did not finish \(pid $pid, cmd [^)]*bench --cpuid-dump" \
	"status: the journal, its pid and command, a run that did not finish"
like "$out" "cpu 1: left by pid $pid \(not running\) at " "status: cpu 1, pid not running"
like "$out" "saved: +IA32_PERF_GLOBAL_CTRL=0x70000000f IA32_FIXED_CTR_CTRL=0x333 IA32_FIXED_CTR3=0x1001 IA32_PERF_METRICS=0x1f3a5c47" \
	"status: saved values"
# GLOBAL_CTRL is the programmed 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f,
# or, when the kill landed inside the reset between two repetitions (which
# freezes bits 35 and 48 and the events' PMC0-1: msr/pmu/pmu_gp.h
# gp_reset_with_metrics), 0x1000f0000000f & ~(1<<35 | 1<<48 | 0x3) = 0x70000000c.
like "$out" "current: IA32_PERF_GLOBAL_CTRL=0x(1000f0000000f|70000000c) IA32_FIXED_CTR_CTRL=0x3333 " \
	"status: current values (programmed, or frozen between two repetitions)"
like "$out" "setting: /proc/sys/kernel/nmi_watchdog saved '1', now '0'" "status: a setting, saved and now"
if command -v python3 >/dev/null 2>&1; then
	"$BARETMA" pmu status --json >"$tmp/st.json"; rc=$?
	is "$rc:$(pyq 'import json,sys; j=json.load(open(sys.argv[1]))["journals"][0]
r=j["cpus"][0]["registers"]
s=dict((x["path"], (x["saved"], x["current"])) for x in j["settings"])
print(j["pid"], j["alive"], j["kind"], j["cpus"][0]["cpu"], r[1]["name"], r[1]["saved"], r[1]["current"], s["/sys/bus/event_source/devices/cpu/rdpmc"])' "$tmp/st.json")" \
		"0:$pid False run 1 IA32_FIXED_CTR_CTRL 0x333 0x3333 ('0', '2')" \
		"status --json: pid, not alive, kind, cpu, register saved/current, setting"
else
	skip "no python3"
fi

: >"$tmp/trace"
out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 75 "a new run on cpu 1 is refused (EX_TEMPFAIL)"
like "$out" "cpu 1: left by a baretma run that did not finish \(pid $pid, cmd .*\); journal '$tmp/run/run-$pid.journal' \(run: baretma pmu restore\)" \
	"the refusal names the journal, its pid and the remedy"
is "$(grep -c '^wr' "$tmp/trace")" 0 "the refused run writes nothing"
out=$("$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 0-3 2>&1); rc=$?
is "$rc" 75 "pmu enable of CPUs including cpu 1 is refused too"
like "$out" "cpu 1: left by a baretma run that did not finish \(pid $pid" "pmu enable names it"

# A CPU the journal does not hold is free (cpu 0: this machine's topology
# decides which CPUs a single-file dump's run may use).
"$BARETMA" bench --cpuid-dump "$ICL" --cpu 0 --backend msr --kernel retire-light --reps 3 \
	>/dev/null 2>&1; rc=$?
is "$rc" 0 "another CPU (0) is not held by the journal: bench runs"

out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 0 "pmu restore exits 0"
like "$out" "cpu 1: restored IA32_PERF_GLOBAL_CTRL=0x70000000f" "restore reports cpu 1"
like "$out" "setting /proc/sys/kernel/nmi_watchdog: restored '1'" "restore reports the settings"
is "$(same "$tmp/state" "$tmp/orig")" 0 "restore: state file byte for byte as found"
is "$(same_root)" 0 "restore: the sysroot's setting files byte for byte as found"
is "$(journals)" "" "restore removed the journal"
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc:$out" "0:nothing to restore: no journal in '$tmp/run'" "a second restore has nothing to do"

# --- a journal that is not one: named with its line, kept ---------------------
printf '# baretma journal v2\npid 4242\nstarttime 0\ntime 1700000000\ncmd baretma bench\nbackend state:%s\nkind run\nuser_only 0\nreg 1 0x38d 333\n' \
	"$tmp/state" >"$tmp/run/run-4242.journal"
chmod 600 "$tmp/run/run-4242.journal"
out=$("$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 65 "status with a malformed journal: exit 65 (EX_DATAERR)"
like "$out" "journal '$tmp/run/run-4242.journal' is malformed: line 9: reg: bad hex" \
	"status names the file and the line"
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 65 "restore with a malformed journal: exit 65"
like "$out" "run-4242.journal' is malformed: line 9" "restore names the file and the line"
: >"$tmp/trace"
out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 --force 2>&1); rc=$?
is "$rc" 65 "bench with a malformed journal in the way: exit 65, even with --force"
is "$(grep -c '^wr' "$tmp/trace")" 0 "and nothing written"
is "$(journals)" "run-4242.journal " "the malformed journal is never deleted"
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file untouched throughout"

done_testing
