#!/bin/sh
# t/0320-pmu-cli.sh - `baretma pmu enable | status | restore` on a state file
# (BARETMA_MSR=state:FILE), identified from real CPUID dumps.
#
# Expected register values are worked by hand from msr/pmu/pmu.h and
# the kernel's order and bit layouts (linux arch/x86/events/intel/core.c,
# arch/x86/include/asm/perf_event.h), starting from GLOBAL_CTRL 0x70000000f and
# FIXED_CTR_CTRL 0x333 (FC0-2 OS+USR, firmware/OS leftovers):
#   FIXED_CTR_CTRL = (0x333 & ~0xf000) | 0x3 << 12 = 0x3333 (user only: 0x2333)
#   FIXED_CTR3 = 0, PERF_METRICS = 0
#   GLOBAL_CTRL = 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f
#   GLOBAL_STATUS_RESET gets 1<<35|1<<48; the state backend applies it to
#   GLOBAL_STATUS (0 here) and keeps the reset line as it is (msr/access/msr.h).
# Known answers for the dumps: ../shared/cpuid/INDEX.tsv (Ice Lake i7-1065G7:
# 8 CPUs, PERF_METRICS; Skylake i5-6600K: no FC3; Alder Lake-P i7-12700H:
# CPUs 0-11 are P-cores (leaf 0x1A core type 0x40), 12-19 E-cores (0x20)).
. "$T_SRC/tap.sh"
pyq_start

D=$SHARED_CPUID/libcpuid/v0.6.2/intel
ICL=$D/core_10th_gen/ice-lake-i7.test
SKL=$D/core_6th_gen/skylake-i5.test
ADL=$D/core_12th_gen/alder-lake-p-i7.test

BARETMA_MSR=state:$tmp/state
BARETMA_STATE_DIR=$tmp/run
export BARETMA_MSR BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_CPUID_DUMP

# regs CPU FC3 FCC GCTRL PMVAL: one CPU's registers.
regs() {
	printf '%s 0x30c %s\n%s 0x329 %s\n%s 0x345 0xf4c5\n%s 0x38d %s\n%s 0x38e 0x0\n%s 0x38f %s\n%s 0x390 0x0\n' \
		"$1" "$2" "$1" "$5" "$1" "$1" "$3" "$1" "$1" "$4" "$1"
	# what the ownership check reads (after Intel PCM's PMUinUse): IA32_PERFEVTSEL0-7
	# (8 GP counters) and IA32_PERF_GLOBAL_INUSE (arch perfmon v4+), all free
	for r in 0x186 0x187 0x188 0x189 0x18a 0x18b 0x18c 0x18d 0x392; do
		printf '%s %s 0x0\n' "$1" "$r"
	done
}
# orig FIRST LAST / prog FIRST LAST: CPUs as found / as programmed.
# FC3 starts at 0x100N on cpu N so that restore is checked per CPU.
orig() {
	c=$1
	while [ "$c" -le "$2" ]; do
		regs "$c" "$(printf 0x%x $((0x1000 + c)))" 0x333 0x70000000f 0x1f3a5c47
		c=$((c + 1))
	done
}
prog() {
	c=$1
	while [ "$c" -le "$2" ]; do
		regs "$c" 0x0 "${3:-0x3333}" 0x1000f0000000f 0x0
		c=$((c + 1))
	done
}
# The journals in the state dir (msr/journal/journal.h: one run-PID.journal per
# run; the cpuN.lock and settings.lock files of msr/guard/lock.h stay).
journals() { ls "$tmp/run" 2>/dev/null | grep 'journal$' | tr '\n' ' '; }
# jregs CPU: the saved-register lines of CPU in every journal
jregs() { cat "$tmp/run/"*.journal 2>/dev/null | grep "^reg $1 "; }
same() { cmp -s "$1" "$2"; echo $?; }

# --- malformed state file (no dump needed: the backend opens first) ---------
printf '# fixture\n0 0x38f 0x0\n0 0x38d zz\n' >"$tmp/bad"
out=$(BARETMA_MSR=state:$tmp/bad "$BARETMA" pmu enable 2>&1); rc=$?
is "$rc" 65 "malformed state file: exit 65 (EX_DATAERR)"
like "$out" "state file '$tmp/bad': line 3: " "message names the file and the line"

out=$(BARETMA_MSR=state:$tmp/none "$BARETMA" pmu enable 2>&1); rc=$?
is "$rc" 66 "missing state file: exit 66 (EX_NOINPUT)"
like "$out" "state file '$tmp/none': No such file" "message names the missing file"

out=$(BARETMA_MSR=state:$tmp/bad "$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 65 "malformed state file: status exits 65 too"

out=$("$BARETMA" pmu status --force 2>&1); rc=$?
is "$rc" 64 "status --force is a usage error"
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 0 "restore with no journal exits 0"
like "$out" "nothing to restore" "restore with no journal says so"

# --- status names registers by the CPU's own counters (issue 9 point 7) -------
# A planted journal of a dead `msr write` (a run journal may hold no such
# register: t/0387) holding IA32_MISC_ENABLE (0x1a0) and MSR_PLATFORM_INFO
# (0xce) written with --unsafe-msr (neither is a PMU register, SDM Vol. 4;
# 0xce would be "IA32_PMC13" by the architectural stride, but IA32_PMCx
# exist for x < 8 at most, SDM Vol. 4), IA32_PERFEVTSEL7 (0x18d),
# IA32_FIXED_CTR4 (0x30d) and IA32_PMC6 (0xc7).  The names follow each
# CPU's counters (t/0320's header: the dumps' known answers): Ice Lake 8
# GP, fixed mask 0xf (no FC4); Alder Lake-P cpu 0 (P-core) 8 GP, fixed
# 0xf, cpu 12 (E-core, Gracemont) 6 GP (mask 0x3f: no PMC6), fixed 0x7 (no
# FC3).  Without an identified CPU the architectural ranges name them all.
printf '0 0x18d 0x0
0 0xce 0x0
0 0x1a0 0x850089
0 0x30d 0x0
0 0xc7 0x0
12 0xc7 0x0
12 0x30c 0x0
' >"$tmp/state"
sh -c 'exit 0' & dead=$!
wait "$dead"
mkdir -p "$tmp/run" && chmod 700 "$tmp/run"
printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\ncmd baretma msr write\nbackend state:%s\nkind write\nuser_only 0\nreg 0 0x1a0 0x850088 unsafe-msr\nreg 0 0xce 0x1 unsafe-msr\nreg 0 0x18d 0x2\nreg 0 0x30d 0x3\nreg 0 0xc7 0x4\nreg 12 0xc7 0x5\nreg 12 0x30c 0x6\n' \
	"$dead" "$tmp/state" >"$tmp/run/run-$dead.journal"
chmod 600 "$tmp/run/run-$dead.journal"
if [ -r "$ICL" ] && [ -r "$ADL" ]; then
	out=$(BARETMA_CPUID_DUMP=$ICL "$BARETMA" pmu status 2>&1); rc=$?
	is "$rc" 0 "planted journal: status exits 0"
	like "$out" "saved: +MSR 0x1a0=0x850088 \(unsafe-msr\) MSR 0xce=0x1 \(unsafe-msr\) IA32_PERFEVTSEL7=0x2 MSR 0x30d=0x3 IA32_PMC6=0x4" \
		"icl: 0x1a0 and 0xce as 'MSR 0x..', FC4 (no such counter) too; PERFEVTSEL7, PMC6 by name"
	unlike "$out" "IA32_PERFEVTSEL(8|26)|IA32_PMC13|IA32_FIXED_CTR4" "icl: nothing named past its counters"
	out=$(BARETMA_CPUID_DUMP=$ADL "$BARETMA" pmu status 2>&1)
	like "$out" "cpu 0: .*
  saved: +MSR 0x1a0=0x850088 \(unsafe-msr\) MSR 0xce=0x1 \(unsafe-msr\) IA32_PERFEVTSEL7=0x2 MSR 0x30d=0x3 IA32_PMC6=0x4" \
		"adl cpu 0 (P-core, 8 GP): IA32_PMC6 by name"
	like "$out" "cpu 12: .*
  saved: +MSR 0xc7=0x5 MSR 0x30c=0x6" "adl cpu 12 (E-core, 6 GP, no FC3): 0xc7 and 0x30c are no registers of its PMU"
	out=$(BARETMA_CPUID_DUMP=$ADL "$BARETMA" pmu status --json 2>&1)
	if command -v python3 >/dev/null 2>&1; then
		is "$(printf '%s' "$out" | python3 -S -c 'import json,sys; d=json.load(sys.stdin); print([(c["cpu"], r["msr"], r["name"]) for c in d["journals"][0]["cpus"] for r in c["registers"]])')" \
			"[(0, '0x1a0', None), (0, '0xce', None), (0, '0x18d', 'IA32_PERFEVTSEL7'), (0, '0x30d', None), (0, '0xc7', 'IA32_PMC6'), (12, '0xc7', None), (12, '0x30c', None)]" \
			"adl --json: name null where the CPU has no such register"
	else
		skip "no python3"
	fi
	# msr read names by the same rule, per CPU
	out=$("$BARETMA" msr read --cpuid-dump "$ADL" 0,12 0xc7 2>&1)
	is "$out" "cpu 0 IA32_PMC6 (0xc7) = 0x0
cpu 12 MSR 0xc7 = 0x0" "adl: msr read 0,12 0xc7: IA32_PMC6 on the P-core only"
else
	skip "no dumps"; skip "no dumps"; skip "no dumps"; skip "no dumps"; skip "no dumps"; skip "no dumps"
	skip "no dumps"
fi
out=$(BARETMA_CPUID_DUMP=$T_DATA/no-such-dump "$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 0 "unidentified CPU: status still exits 0"
like "$out" "saved: +MSR 0x1a0=0x850088 \(unsafe-msr\) MSR 0xce=0x1 \(unsafe-msr\) IA32_PERFEVTSEL7=0x2 IA32_FIXED_CTR4=0x3 IA32_PMC6=0x4" \
	"unidentified CPU: the architectural ranges (x < 8 GP, 7 fixed) name them"
rm -f "$tmp/run/run-$dead.journal"
# The journal's machine names its registers (bench/cli/cmd_pmu.h
# cli_pmu_journal_machine): a journal written through an MSR device is this
# machine's, named by the live CPU's counters; one of a state file is a dry
# run of some dump the journal does not record, named by the architectural
# ranges, never by the live CPU.  The live CPU through the seam of the test
# build: an Emerald Rapids KVM guest with no counter enumerated (t/data:
# leaf 0xA all zero, so 0x30c is no register of its PMU), and the Ice Lake
# (fixed mask 0xf).
EMR0=$T_DATA/cpuid-emr-kvm-novpmu.txt
for backend in /nonexistent/baretma-test/cpu/%u/msr "state:$tmp/state"; do
	printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\ncmd baretma bench\nbackend %s\nkind run\nuser_only 0\nreg 0 0x38f 0x70000000f\nreg 0 0x38d 0x333\nreg 0 0x30c 0x1000\nreg 0 0x329 0x1f3a5c47\n' \
		"$dead" "$backend" >"$tmp/run/run-$dead.journal"
	chmod 600 "$tmp/run/run-$dead.journal"
	out=$(BARETMA_TEST_LIVE_CPUID=$EMR0 "$BARETMA_HOOKS" pmu status 2>&1)
	case $backend in
	state:*) like "$out" "saved: +IA32_PERF_GLOBAL_CTRL=0x70000000f IA32_FIXED_CTR_CTRL=0x333 IA32_FIXED_CTR3=0x1000 IA32_PERF_METRICS=0x1f3a5c47" \
			"a state-file journal on a live CPU without counters: IA32_FIXED_CTR3 by the architectural ranges" ;;
	*) like "$out" "saved: +IA32_PERF_GLOBAL_CTRL=0x70000000f IA32_FIXED_CTR_CTRL=0x333 MSR 0x30c=0x1000 IA32_PERF_METRICS=0x1f3a5c47" \
			"a device journal on a live CPU without counters: 0x30c is no register of this machine's PMU" ;;
	esac
	if [ -r "$ICL" ]; then
		out=$(BARETMA_TEST_LIVE_CPUID=$ICL "$BARETMA_HOOKS" pmu status 2>&1)
		like "$out" "saved: +IA32_PERF_GLOBAL_CTRL=0x70000000f IA32_FIXED_CTR_CTRL=0x333 IA32_FIXED_CTR3=0x1000 IA32_PERF_METRICS=0x1f3a5c47" \
			"journal of backend $backend, live Ice Lake: IA32_FIXED_CTR3"
	else
		skip "no Ice Lake dump"
	fi
done
rm -f "$tmp/run/run-$dead.journal"
# A restore the CPU refuses (the state file has no 0x38d line: EIO) names
# the register, the value and the CPU, and keeps the journal.
printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\ncmd baretma msr write 0 0x38d 0x3333\nbackend state:%s\nkind run\nuser_only 0\nreg 0 0x38d 0x333\n' \
	"$dead" "$tmp/state" >"$tmp/run/run-$dead.journal"
chmod 600 "$tmp/run/run-$dead.journal"
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 69 "restore refused by the CPU: exit 69"
like "$out" "journal '$tmp/run/run-$dead.journal': could not put everything back: cannot write IA32_FIXED_CTR_CTRL \(0x38d\) = 0x333 on cpu 0 through '$tmp/state': Input/output error \(the CPU refused the write" \
	"restore failure names the register, the value and the CPU"
is "$(journals)" "run-$dead.journal " "restore failure: journal kept"
rm -f "$tmp/run/run-$dead.journal"

# --- Ice Lake: enable, status, restore --------------------------------------
if [ -r "$ICL" ]; then
	orig 0 7 >"$tmp/state"; cp "$tmp/state" "$tmp/icl.orig"
	prog 0 7 >"$tmp/icl.prog"
	"$BARETMA" pmu enable --cpuid-dump "$ICL" >"$tmp/out" 2>&1 & pid=$!
	wait $pid; rc=$?
	is "$rc" 0 "icl: enable exits 0"
	like "$(cat "$tmp/out")" "enabled on cpu 0-7" "icl: all 8 CPUs enabled"
	is "$(same "$tmp/state" "$tmp/icl.prog")" 0 "icl: every CPU programmed (hand-worked values)"
	is "$(journals)" "run-$pid.journal " "icl: one journal for the run (run-PID.journal)"
	is "$(cat "$tmp/run/run-$pid.journal" | grep -c '^reg [0-7] 0x38f 0x70000000f$')" 8 \
		"icl: it holds every CPU (GLOBAL_CTRL saved for cpus 0-7)"
	is "$(stat -c %a "$tmp/run" "$tmp/run/run-$pid.journal" | tr '\n' ' ')" "700 600 " \
		"icl: journal dir 0700, journal 0600"
	is "$(jregs 3 | tr '\n' ';')" \
		"reg 3 0x38f 0x70000000f;reg 3 0x38d 0x333;reg 3 0x30c 0x1003;reg 3 0x329 0x1f3a5c47;" \
		"icl: cpu 3's saved values in the journal (as found in the state file)"
	is "$(sed -n 2p "$tmp/run/run-$pid.journal")" "pid $pid" "icl: journal names the enabling pid"
	is "$(grep '^backend ' "$tmp/run/run-$pid.journal")" "backend state:$tmp/state" "icl: journal names the backend"
	is "$(grep '^kind ' "$tmp/run/run-$pid.journal")" "kind enable" "icl: journal of kind enable"

	out=$("$BARETMA" pmu status 2>&1); rc=$?
	is "$rc" 0 "icl: status exits 0"
	like "$out" "kind: +enable" "icl: status: kind enable"
	is "$(printf '%s\n' "$out" | grep -c "^cpu [0-7]: enabled by pid $pid (not running) at ")" 8 \
		"icl: status lists 8 CPUs, enabling pid not running"
	is "$(printf '%s\n' "$out" | grep -c 'now: *IA32_FIXED_CTR_CTRL\[15:12\]=0x3 IA32_PERF_GLOBAL_CTRL bit 35=1 bit 48=1')" 8 \
		"icl: status reads the live FC3 field and bits 35/48"
	like "$out" "saved: +IA32_PERF_GLOBAL_CTRL=0x70000000f IA32_FIXED_CTR_CTRL=0x333 IA32_FIXED_CTR3=0x1005 IA32_PERF_METRICS=0x1f3a5c47" \
		"icl: status shows cpu 5's saved values"
	if command -v python3 >/dev/null 2>&1; then
		"$BARETMA" pmu status --json --cpu 3,5 >"$tmp/st.json"; rc=$?
		is "$rc" 0 "icl: status --json exits 0"
		is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); j=d["journals"]; c=j[0]["cpus"]; print(len(j), len(c), c[1]["cpu"], j[0]["alive"], c[1]["saved"]["fixed_ctr3"], c[1]["now"]["fixed_ctr3_field"], c[1]["now"]["global_ctrl_en_perf_metrics"])' "$tmp/st.json")" \
			"1 2 5 False 0x1005 3 True" "icl: --json for cpu 3,5 (one journal, those two CPUs)"
	else
		skip "no python3"; skip "no python3"
	fi

	# enable twice: refused before any write
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu enable --cpuid-dump "$ICL" 2>&1); rc=$?
	is "$rc" 75 "icl: second enable refused (EX_TEMPFAIL)"
	like "$out" "cpu 0-7: counters enabled by 'baretma pmu enable' \\(pid $pid, not running\\); journal '$tmp/run/run-$pid.journal' \\(run: baretma pmu restore\\)" \
		"icl: refusal names the CPUs, the enabling pid, the journal and the restore hint"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "icl: refused enable writes nothing"
	is "$(same "$tmp/state" "$tmp/icl.prog")" 0 "icl: state file unchanged by the refusal"

	out=$("$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 0 "icl: restore exits 0"
	is "$(printf '%s\n' "$out" | grep -c '^cpu [0-7]: restored ')" 8 "icl: restore reports 8 CPUs"
	is "$(same "$tmp/state" "$tmp/icl.orig")" 0 "icl: restore gives back the state file byte for byte"
	is "$(journals)" "" "icl: journals removed"
	like "$("$BARETMA" pmu status 2>&1)" "no journal in '$tmp/run'" "icl: status after restore: no journal"

	# one CPU, user only
	"$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 2 --user-only >/dev/null 2>&1; rc=$?
	is "$rc" 0 "icl: enable --cpu 2 --user-only"
	{ orig 0 1; prog 2 2 0x2333; orig 3 7; } >"$tmp/icl.user"
	is "$(same "$tmp/state" "$tmp/icl.user")" 0 "icl: only cpu 2 programmed, FC3 field 0x2"
	is "$(journals | wc -w):$(cat "$tmp/run/"*.journal | grep '^reg ' | cut -d' ' -f2 | sort -u)" "1:2" \
		"icl: one journal, holding cpu 2 only"
	out=$(BARETMA_MSR=/nonexistent/%u/msr "$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 64 "icl: restore through another backend refused"
	like "$out" "journal was written through MSR backend 'state:$tmp/state'" \
		"icl: refusal names the journal's backend"
	is "$(journals | wc -w):$(jregs 2 | wc -l)" "1:4" "icl: journal kept"
	"$BARETMA" pmu restore --cpu 2 >/dev/null 2>&1; rc=$?
	is "$rc" 0 "icl: restore --cpu 2"
	is "$(same "$tmp/state" "$tmp/icl.orig")" 0 "icl: cpu 2 back"

	out=$("$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 9 2>&1); rc=$?
	is "$rc" 64 "icl: --cpu 9 does not exist (EX_USAGE)"
	like "$out" "cpu 9: no such CPU" "icl: message names cpu 9"

	# cpu 5 in use (FC3 field 0x3): refused without a write; --force takes over
	{ orig 0 4; regs 5 0x1005 0x3333 0x70000000f 0x1f3a5c47; orig 6 7; } >"$tmp/state"
	cp "$tmp/state" "$tmp/icl.busy"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu enable --cpuid-dump "$ICL" 2>&1); rc=$?
	is "$rc" 75 "icl: cpu 5 in use: refused (EX_TEMPFAIL)"
	like "$out" "cpu 5: fixed counter 3 / PERF_METRICS in use: IA32_FIXED_CTR_CTRL\[15:12\]=0x3" \
		"icl: refusal names cpu 5 and the field"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "icl: busy refusal writes nothing"
	is "$(journals)" "" "icl: busy refusal leaves no journal"
	out=$("$BARETMA" pmu enable --cpuid-dump "$ICL" --force 2>&1); rc=$?
	is "$rc" 0 "icl: --force takes over"
	like "$out" "warning: cpu 5: taking over" "icl: --force warns"
	is "$(same "$tmp/state" "$tmp/icl.prog")" 0 "icl: forced: all CPUs programmed"
	"$BARETMA" pmu restore >/dev/null 2>&1
	is "$(same "$tmp/state" "$tmp/icl.busy")" 0 "icl: restore gives back the other owner's setting"

	# failure midway: cpu 6 has no GLOBAL_STATUS_RESET line (#GP -> EIO).
	# The write that failed is named: register, value (1<<35 | 1<<48), CPU.
	# The rollback (the journal's restore, msr/journal/journal.h) writes every saved
	# register of cpus 0-6 once, after GLOBAL_CTRL's freeze (0): for cpu 6
	# GLOBAL_CTRL 0, FIXED_CTR_CTRL 0x333, FIXED_CTR3 0x1006, PERF_METRICS
	# 0x1f3a5c47, GLOBAL_CTRL 0x70000000f; cpu 7 was never touched.
	orig 0 7 | grep -v '^6 0x390 ' >"$tmp/state"
	cp "$tmp/state" "$tmp/icl.no390"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu enable --cpuid-dump "$ICL" 2>&1); rc=$?
	is "$rc" 69 "icl: failure on cpu 6: EX_UNAVAILABLE"
	like "$out" "pmu enable: cannot write IA32_PERF_GLOBAL_STATUS_RESET \(0x390\) = 0x1000800000000 on cpu 6 through '$tmp/state': Input/output error \(the CPU refused the write \(#GP\)" \
		"icl: message names the register, the value and cpu 6"
	sed -n '/^wr 6 0x390 0x1000800000000 EIO$/,$p' "$tmp/trace" | sed 1d >"$tmp/rollback"
	is "$(grep '^wr 6 ' "$tmp/rollback" | tr '\n' ';')" \
		"wr 6 0x38f 0x0;wr 6 0x38d 0x333;wr 6 0x30c 0x1006;wr 6 0x329 0x1f3a5c47;wr 6 0x390 0x1000800000000 EIO;wr 6 0x38f 0x70000000f;" \
		"icl: rollback of cpu 6: each saved register written once, GLOBAL_CTRL frozen first (the overflow clear tried, best effort)"
	# per CPU: freeze, 4 saved registers (GLOBAL_CTRL last), and the overflow
	# clear (IA32_PERF_GLOBAL_STATUS_RESET = 1<<35 | 1<<48, no saved register)
	is "$(grep -c '^wr' "$tmp/rollback"):$(grep '^wr' "$tmp/rollback" | grep -v ' 0x38f 0x0$' | cut -d' ' -f2,3 | sort | uniq -d | wc -l)" \
		"42:0" "icl: rollback of cpus 0-6: 7 x 6 writes, no register written twice"
	is "$(grep -c '^wr 7 ' "$tmp/trace")" 0 "icl: cpu 7 never written"
	is "$(same "$tmp/state" "$tmp/icl.no390")" 0 "icl: cpus 0-6 restored: original bytes"
	is "$(journals)" "" "icl: their journals removed"

	# missing device
	out=$(BARETMA_MSR=/nonexistent/%u/msr "$BARETMA" pmu enable --cpuid-dump "$ICL" 2>&1); rc=$?
	is "$rc" 69 "icl: missing msr device: exit 69 (EX_UNAVAILABLE, as bench)"
	like "$out" "cannot open '/nonexistent/0/msr': No such file or directory \(try: modprobe msr\)" \
		"icl: missing device message with the remedy"
else
	skip "no Ice Lake dump ($ICL)"
fi

# --- Skylake: no fixed counter 3 ---------------------------------------------
if [ -r "$SKL" ]; then
	orig 0 3 >"$tmp/state"; cp "$tmp/state" "$tmp/skl.orig"
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu enable --cpuid-dump "$SKL" 2>&1); rc=$?
	is "$rc" 69 "skl: enable refused (EX_UNAVAILABLE)"
	like "$out" "has no fixed counter 3 \(TOPDOWN.SLOTS\)" "skl: says there is no fixed counter 3"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "skl: nothing written"
	is "$(same "$tmp/state" "$tmp/skl.orig")" 0 "skl: state file unchanged"
	is "$(journals)" "" "skl: no journal"
else
	skip "no Skylake dump ($SKL)"
fi

# --- Alder Lake-P hybrid: P-cores only ---------------------------------------
if [ -r "$ADL" ]; then
	orig 0 19 >"$tmp/state"; cp "$tmp/state" "$tmp/adl.orig"
	{ prog 0 11; orig 12 19; } >"$tmp/adl.prog"
	out=$("$BARETMA" pmu enable --cpuid-dump "$ADL" 2>&1); rc=$?
	is "$rc" 0 "adl: enable exits 0"
	like "$out" "enabled on cpu 0-11;" "adl: P-cores 0-11 enabled"
	is "$(same "$tmp/state" "$tmp/adl.prog")" 0 "adl: bit 48 etc. on P-cores only, E-cores untouched"
	"$BARETMA" pmu restore >/dev/null 2>&1; rc=$?
	is "$rc" 0 "adl: restore"
	is "$(same "$tmp/state" "$tmp/adl.orig")" 0 "adl: original bytes back"
	# (more in t/0325-pmu-hybrid.sh)
	out=$("$BARETMA" pmu enable --cpuid-dump "$ADL" --cpu 10-12 2>&1); rc=$?
	is "$rc" 64 "adl: --cpu with an E-core refused (EX_USAGE: a P-core can)"
	like "$out" "cpu 12 is an efficiency core \([A-Za-z ]+\): it has no IA32_PERF_METRICS; CPUs that can measure Top-down: 0-11" \
		"adl: refusal names the E-core and the CPUs that can"
	is "$(same "$tmp/state" "$tmp/adl.orig")" 0 "adl: nothing written"
else
	skip "no Alder Lake-P dump ($ADL)"
fi

done_testing
