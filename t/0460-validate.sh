#!/bin/sh
# t/0460-validate.sh - `baretma validate` on the simulated PMU
# (msr/sim/msr_sim.h): a clean profile passes every check the simulator
# models, on an Ice Lake, a Sapphire Rapids and an Alder Lake P-core dump;
# each fault fails exactly the check that covers it (the table below,
# from what each fault does: doc/simulator.md); the checks that
# cannot be made here are SKIP with their reason, never PASS; registers are
# left as found; no MSR access is exit 69 after the identity checks.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/sim-fixture.sh"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
printf 'heavy_operations 10\nbranch_mispredicts 5\nfetch_latency 12\nmemory_bound 18\n' >>"$tmp/p"

# val DUMP PROFILE ARGS...: validate --json on the simulator; status in $st
val() {
	_d=$1 _p=$2
	shift 2
	st=0
	BARETMA_CPUID_DUMP=$_d BARETMA_MSR=sim:$_p BARETMA_PERF=sim:$_p "$BARETMA" validate \
		--json "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
# the checks with a status, "id:STATUS" sorted, of one CPU
of() { q "' '.join(sorted(c['check'] + ':' + c['status'] for c in d['checks'] if c['cpu'] == $1 and c['status'] == '$2'))"; }

# What the simulator models, so what a clean profile must PASS (a level-2
# part adds level2_within_parent); what it cannot: RDPMC (it reads this
# machine's counters) and real kernels' profiles: SKIP.
PASS1="counter_widths:PASS cpu_model:PASS fc3_counts:PASS fc3_frozen_holds:PASS fc3_write_zero:PASS fixed_ctr3_enumerated:PASS level1_sum:PASS metrics_follow_fc3:PASS metrics_match_events:PASS metrics_write_zero:PASS overflow_sets_status:PASS perf_agrees:PASS perf_capabilities_metrics:PASS perf_hands_back:PASS slots_per_cycle:PASS status_quiet:PASS"

val "$ICL" "$tmp/p"
is "$st" 0 "clean profile, Ice Lake: exit 0"
is "$(of 0 PASS)" "$PASS1" "Ice Lake: every modelled check passes"
is "$(of 0 SKIP)" "kernels:SKIP level2_within_parent:SKIP rdpmc_matches_msr:SKIP rdpmc_metrics_clear:SKIP" "Ice Lake: RDPMC, kernels and level 2 skipped"
is "$(q 'd["schema"], d["summary"]["fail"]')" "('baretma-validate/1', 0)" "schema, no failure"
is "$(q '[c for c in d["checks"] if c["check"] == "slots_per_cycle"][0]["measured"].split()[0]')" \
	"5.0000" "Ice Lake: 5 slots per cycle (pmu-tools icl_client_ratios.py: Pipeline_Width 5)"

# --cpuid-dump reaches the simulated PMU as BARETMA_CPUID_DUMP does (one
# rule: bench/cli/cli.h cli_dump_export, before the MSR backend opens): the
# simulator models the dump's Ice Lake, not this machine.
st=0
BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" validate --cpuid-dump "$ICL" --json \
	>"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 0 "validate --cpuid-dump ICL on the simulated PMU: exit 0"
is "$(of 0 PASS)" "$PASS1" "validate --cpuid-dump ICL: every modelled check passes, as with BARETMA_CPUID_DUMP"
st=0
out=$(BARETMA_MSR=sim:$tmp/p "$BARETMA" msr read --cpuid-dump "$ICL" 0 IA32_FIXED_CTR3 2>&1) || st=$?
is "$st" 0 "msr read --cpuid-dump ICL 0 IA32_FIXED_CTR3 on the simulated PMU: exit 0"
like "$out" "^cpu 0 IA32_FIXED_CTR3 \(0x30c\) = 0x" "msr read --cpuid-dump: the simulated Ice Lake has fixed counter 3"

val "$SPR" "$tmp/p"
is "$st" 0 "clean profile, Sapphire Rapids: exit 0"
is "$(of 0 PASS)" "$(printf '%s level2_within_parent:PASS' "$PASS1" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" \
	"Sapphire Rapids: every modelled check passes, level 2 too"
is "$(q '[c for c in d["checks"] if c["check"] == "slots_per_cycle"][0]["measured"].split()[0]')" \
	"6.0000" "Sapphire Rapids: 6 slots per cycle (pmu-tools spr_server_ratios.py: Pipeline_Width 6)"

val "$ADL" "$tmp/p"
is "$st" 0 "clean profile, Alder Lake-P: exit 0"
is "$(q 'sorted(set(c["cpu"] for c in d["checks"]))')" "[0, 12]" \
	"one CPU of each kind: P-core 0, E-core 12 (INDEX.tsv: 12 P threads, then 8 E)"
is "$(of 0 FAIL)" "" "Alder Lake P-core: no failure"
is "$(of 0 PASS | tr ' ' '\n' | grep -c .)" 16 "P-core: 16 checks pass (bit 15 skipped: hybrid)"
is "$(of 12 FAIL)" "" "E-core: no failure"
is "$(q '[c["status"] for c in d["checks"] if c["cpu"] == 12 and c["check"] == "fc3_counts"][0]')" \
	SKIP "E-core: fixed counter 3 checks skipped (Gracemont has none)"

# Each fault fails exactly its check (Sapphire Rapids: level 2)
while IFS='|' read -r fault check; do
	cp "$tmp/p" "$tmp/f"
	printf 'fault %s\n' "$fault" >>"$tmp/f"
	val "$SPR" "$tmp/f"
	is "$st" 1 "fault $fault: exit 1"
	is "$(of 0 FAIL)" "$check:FAIL" "fault $fault: only $check fails"
done <<'TABLE'
metrics_not_cleared|metrics_write_zero
sum_off 9|level1_sum
sum_off -5|level1_sum
slots_stuck|fc3_counts
level2_above_parent|level2_within_parent
overflow_every 7|status_quiet
perf_offset tma_backend_bound 5|perf_agrees
perf_keeps_counters|perf_hands_back
gp_offset tma_backend_bound 20|metrics_match_events
TABLE
# slots_stuck: what depends on fixed counter 3 counting is SKIP, not PASS
cp "$tmp/p" "$tmp/f"
printf 'fault slots_stuck\n' >>"$tmp/f"
val "$SPR" "$tmp/f"
is "$(q 'sorted(c["check"] for c in d["checks"] if c["reason"] == "depends on fc3_counts")')" \
	"['fc3_frozen_holds', 'metrics_match_events', 'overflow_sets_status', 'slots_per_cycle']" \
	"slots_stuck: the checks that need counting slots are SKIP"

# Registers left as found: a state file for cpu 0 of the Ice Lake dump
# (8 general counters with their full-width aliases IA32_A_PMCx - bit 13
# of IA32_PERF_CAPABILITIES 0xa000 -, 4 fixed, v5: the clean register
# file's set; metrics_match_events programs the general counters)
{
	for i in 0 1 2 3 4 5 6 7; do
		printf '0 0x%x 0x0\n0 0x%x 0x0\n0 0x%x 0x0\n' $((0x186 + i)) $((0xc1 + i)) \
			$((0x4c1 + i))
	done
	printf '0 0x309 0x11\n0 0x30a 0x22\n0 0x30b 0x33\n0 0x30c 0x44\n0 0x329 0x0\n'
	printf '0 0x345 0xa000\n0 0x38d 0x0\n0 0x38e 0x0\n0 0x38f 0x1000f000000ff\n'
	printf '0 0x390 0x0\n0 0x391 0x0\n0 0x392 0x0\n'
} >"$tmp/state"
cp "$tmp/state" "$tmp/state.orig"
cp "$tmp/p" "$tmp/ps"
printf 'state %s\n' "$tmp/state" >>"$tmp/ps"
val "$ICL" "$tmp/ps" --cpu 0 --no-perf
is "$st" 0 "with a state file: exit 0"
cmp -s "$tmp/state" "$tmp/state.orig"
ok $? "the state file is byte for byte as found"
is "$(ls "$BARETMA_STATE_DIR" | grep -c journal)" 0 "no journal left"
is "$(q '[c["status"] for c in d["checks"] if c["check"] in ("perf_hands_back", "perf_agrees")]')" "['SKIP', 'SKIP']" \
	"--no-perf: the perf checks are SKIP"
# Every time validate puts the registers back (before the kernels, at the
# end of the CPU's checks, and the guard's restore) it is the journal's
# restore, in its order (msr/journal/journal.h): GLOBAL_CTRL 0, the others as
# saved - fixed counter 3 before PERF_METRICS, the kernel's order
# (icl_set_topdown_event_period: "The fixed counter 3 has to be written
# before the PERF_METRICS") - and GLOBAL_CTRL's value (0x1000f000000ff in
# the state file) last.  Each such sequence in the trace: the writes from
# a "wr 0 0x38f 0x0" to the next write of the saved GLOBAL_CTRL.
cp "$tmp/state.orig" "$tmp/state"
BARETMA_MSR_TRACE=$tmp/trace val "$ICL" "$tmp/ps" --cpu 0 --no-perf
restores() {
	pyq - "$tmp/trace" <<'EOP'
import sys
w = [l.split() for l in open(sys.argv[1]) if l.startswith("wr 0 ")]
seqs, start = [], None
for i, (_, _, msr, val) in enumerate(x[:4] for x in w):
    if msr == "0x38f" and val == "0x0":
        start = i
    elif msr == "0x38f" and val == "0x1000f000000ff" and start is not None:
        seqs.append([x[2] for x in w[start + 1:i]])
        start = None
ok = [s.index("0x30c") < s.index("0x329") for s in seqs if "0x30c" in s and "0x329" in s]
print(len(ok) >= 3, all(ok))
EOP
}
is "$(restores)" "True True" "every restore (3 or more): fixed counter 3 before PERF_METRICS, GLOBAL_CTRL last"

# slots_per_cycle and SMT: TOPDOWN.SLOTS is shared among a core's unhalted
# threads (linux pmu-events TOPDOWN.SLOTS), so on this machine's CPUs with
# an online sibling the check needs the sibling seen idle (/proc/stat),
# else SKIP with the reason.  The live CPU is the Ice Lake through the seam
# of the test build, the simulated PMU counts, and the sysroot
# ($BARETMA_SYSROOT) says the topology and the activity: /proc/stat below
# is a file that does not change, so a sibling is never seen idle.
sys=$tmp/sys
mkdir -p "$sys/sys/devices/system/cpu/cpu0/topology" "$sys/proc"
printf 'cpu  10 0 10 100 0 0 0 0 0 0\ncpu0 5 0 5 50 0 0 0 0 0 0\ncpu1 5 0 5 50 0 0 0 0 0 0\n' >"$sys/proc/stat"
smt() {
	printf '%s\n' "$1" >"$sys/sys/devices/system/cpu/online"
	printf '%s\n' "$2" >"$sys/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
	[ -n "$3" ] && rm "$sys/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
	st=0
	BARETMA_TEST_LIVE_CPUID=$ICL BARETMA_SYSROOT=$sys BARETMA_MSR=sim:$tmp/p "$BARETMA_HOOKS" \
		validate --cpu 0 --no-perf --json >"$tmp/out" 2>"$tmp/err" || st=$?
	spc=$(q '[c["status"] + " " + (c["reason"] or "") for c in d["checks"] if c["check"] == "slots_per_cycle"][0]')
}
smt 0-1 0
is "$st $spc" "0 PASS " "live Ice Lake, no SMT sibling: slots_per_cycle PASS"
smt 0-1 0-1
like "$st $spc" "^0 SKIP SMT sibling cpu 1 not seen idle within 250 ms \(/proc/stat: its idle time did not advance 2 ticks\): TOPDOWN.SLOTS is shared among a core's unhalted threads$" \
	"live Ice Lake, sibling cpu 1 online, never seen idle: SKIP with the reason"
is "$(q '[c["status"] for c in d["checks"] if c["check"] != "slots_per_cycle" and c["status"] == "FAIL"]')" "[]" \
	"... and nothing else fails"
smt 0 0-1
is "$st $spc" "0 PASS " "sibling cpu 1 offline (the online list): PASS"
smt 0-1 0 gone
like "$st $spc" "^0 SKIP cannot tell whether an SMT sibling shares cpu 0's core \(its topology/thread_siblings_list: No such file or directory\)$" \
	"no topology file: SKIP, the reason named"

# No MSR access: the identity checks, then exit 69 with the reason (a
# state file listing no register of cpu 0 but IA32_TIME_STAMP_COUNTER; one
# that cannot be opened at all stops validate first: t/0510, exit 65/66)
printf '0 0x10 0x0\n' >"$tmp/none"
st=0
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=state:$tmp/none "$BARETMA" validate >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 69 "no MSR backend: exit 69"
grep -q "^PASS cpu 0   cpu_model" "$tmp/out"
ok $? "the identity checks still run"
grep -q "cannot validate the PMU of cpu 0:" "$tmp/err"
ok $? "the reason is said"
# Under a hypervisor the enumeration is the hypervisor's: what it hides is
# SKIP with the reason, never FAIL, and no check touched the PMU: 69.
# A real dump of an Emerald Rapids KVM guest without a virtual PMU (leaf
# 0xA version 0; the model table: fixed counter 3, 48-bit counters), given
# both ways; and the same guest with a KVM virtual PMU of 3 fixed counters
# (t/data/README: leaf 0xA edited by hand).
EMR0=$T_DATA/cpuid-emr-kvm-novpmu.txt
EMR3=$T_DATA/cpuid-emr-kvm-vpmu3.txt
for how in option env vpmu3; do
	st=0
	case $how in
	option) "$BARETMA" validate --cpuid-dump "$EMR0" --json >"$tmp/out" 2>"$tmp/err" || st=$? ;;
	env) BARETMA_CPUID_DUMP=$EMR0 "$BARETMA" validate --json >"$tmp/out" 2>"$tmp/err" || st=$? ;;
	vpmu3) "$BARETMA" validate --cpuid-dump "$EMR3" --json >"$tmp/out" 2>"$tmp/err" || st=$? ;;
	esac
	is "$st" 69 "$how: a KVM guest ($how) exits 69 (no PMU to check here)"
	is "$(q 'd["summary"]["fail"]')" 0 "$how: no FAIL"
	like "$(cat "$tmp/err")" "cannot validate the PMU of cpu 0: " "$how: the reason is said"
done
is "$(q '[(c["check"], c["status"]) for c in d["checks"]]')" \
	"[('cpu_model', 'PASS'), ('perf_capabilities_metrics', 'SKIP'), ('fixed_ctr3_enumerated', 'SKIP'), ('counter_widths', 'PASS'), ('metrics_match_events', 'SKIP')]" \
	"3 fixed counters under KVM: fixed_ctr3_enumerated SKIP, the 48-bit widths PASS"
like "$(q '[c["reason"] for c in d["checks"] if c["check"] == "fixed_ctr3_enumerated"][0]')" \
	"^running under a hypervisor \(KVM\): fixed counter 3 is what its virtual PMU chooses to enumerate" \
	"3 fixed counters under KVM: the reason names the hypervisor"
"$BARETMA" validate --cpuid-dump "$EMR0" --json >"$tmp/out" 2>/dev/null
is "$(q '[(c["check"], c["status"]) for c in d["checks"]]')" \
	"[('cpu_model', 'PASS'), ('perf_capabilities_metrics', 'SKIP'), ('fixed_ctr3_enumerated', 'SKIP'), ('counter_widths', 'SKIP'), ('metrics_match_events', 'SKIP')]" \
	"leaf 0xA version 0: every enumeration check SKIP"
like "$(q '[c["reason"] for c in d["checks"] if c["check"] == "counter_widths"][0]')" \
	"^CPUID leaf 0xA reports architectural perfmon version 0 \(a hypervisor, KVM, without a virtual PMU\)" \
	"leaf 0xA version 0: the reason says so"

# The simulated PMU on that real dump (leaf 0xA version 0, no PDCM) models no
# counter: every PMU register #GPs (t/0450 reads each), and validate, bench
# --backend msr and --backend perf say so (exit 69), never a number.
sim0() {
	st=0
	BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" "$@" --cpuid-dump "$EMR0" \
		>"$tmp/out" 2>"$tmp/err" || st=$?
}
V0="CPUID leaf 0xA reports architectural perfmon version 0"
sim0 validate --json
is "$st" 69 "simulated KVM guest without a vPMU: validate exits 69"
is "$(q '[(c["check"], c["status"]) for c in d["checks"]]')" \
	"[('cpu_model', 'PASS'), ('perf_capabilities_metrics', 'SKIP'), ('fixed_ctr3_enumerated', 'SKIP'), ('counter_widths', 'SKIP'), ('metrics_match_events', 'SKIP')]" \
	"simulated, leaf 0xA version 0: no PMU check, the enumeration SKIP"
like "$(cat "$tmp/err")" "cannot validate the PMU of cpu 0: .*$V0" "simulated, version 0: validate says why"
sim0 bench --backend msr --kernel retire-light --reps 3
is "$st" 69 "simulated, version 0: bench --backend msr exits 69"
like "$(cat "$tmp/err")" "cannot use --backend msr on cpu [0-9]+: .*$V0" "... saying why"
sim0 bench --backend perf --kernel retire-light --reps 3
is "$st" 69 "simulated, version 0: bench --backend perf exits 69"
like "$(cat "$tmp/err")" "has no performance counters \($V0\): the kernel registers no 'cpu' PMU" "... saying why"
sim0 msr read 0 IA32_PERF_GLOBAL_CTRL
is "$st" 69 "simulated, version 0: msr read IA32_PERF_GLOBAL_CTRL exits 69"
like "$(cat "$tmp/err")" "Input/output error \(this register does not exist on this CPU\)" "... a #GP"

# counter_widths needs both widths 48 (CPUID.0AH EAX[23:16] general, EDX[12:5]
# fixed: 48 in every Intel dump read, $SHARED_CPUID/INDEX.tsv).  Two dumps
# derived here from the Ice Lake one (leaf 0xA 08300805-00000000-0000000F-
# 00008604: EAX[23:16] 0x30, EDX[12:5] 0x8604 >> 5 & 0xff = 0x30), one width
# edited to 40 = 0x28: EDX 0x8604 - (8 << 5) = 0x8504, EAX 0x08280805.
# Not a guest: a width other than 48 is a FAIL (exit 1), the only one, on
# the simulated PMU that counts at that width - never a PASS because the
# other width is 48.
for w in fixed general; do
	case $w in
	fixed) leaf=08300805-00000000-0000000F-00008504 want="general 48 bits, fixed 40 bits" ;;
	general) leaf=08280805-00000000-0000000F-00008604 want="general 40 bits, fixed 48 bits" ;;
	esac
	sed "s/^CPUID 0000000A: 08300805-00000000-0000000F-00008604\$/CPUID 0000000A: $leaf/" \
		"$ICL" >"$tmp/icl-$w.txt"
	is "$(grep -c "^CPUID 0000000A: $leaf\$" "$tmp/icl-$w.txt")" "$(grep -c '^CPUID 0000000A:' "$ICL")" \
		"$w width 40: every CPU's leaf 0xA edited"
	val "$tmp/icl-$w.txt" "$tmp/p" --cpu 0 --no-perf
	is "$st" 1 "$w width 40: validate exits 1"
	is "$(of 0 FAIL)" "counter_widths:FAIL" "$w width 40: counter_widths FAILs, nothing else"
	is "$(q '[c["measured"] for c in d["checks"] if c["check"] == "counter_widths"][0]')" "$want" \
		"$w width 40: measured $want"
done

st=0
"$BARETMA" validate --level 3 >/dev/null 2>&1 || st=$?
is "$st" 64 "--level 3: exit 64"
done_testing
