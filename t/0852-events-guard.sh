#!/bin/sh
# t/0852-events-guard.sh - the guarded run of an event recipe on the
# simulated PMU with its registers in a state file (`state FILE`,
# msr/sim/msr_sim.h: every write persisted): an Alder Lake E-core (Gracemont,
# intel-ecore-l1) and a Zen 4 (amd-zen4), each at level 2, i.e. in passes
# (2 and 3: t/0850), so that the counters are programmed again between
# passes inside the same run.  After a whole run every register is byte
# for byte as found; every write came after the journal saved its
# register; a general-purpose counter already enabled is refused naming
# it, exit 75 as fixed counter 3 in use, nothing written, no journal left;
# --force takes it over and puts it back.
#
# The state files hold the registers an idle Linux PMU leaves (msr/sim/msr_sim.h
# "clean register file"; linux arch/x86/events/intel/core.c
# intel_pmu_enable_all, amd/core.c amd_pmu_v2_enable_all: the global
# control with every counter's bit), addresses from linux msr-index.h:
#   E-core (6 GP counters, fixed 0-2; CPUID leaf 0xA of the dump):
#     IA32_PERFEVTSEL0-5 0x186-0x18b, IA32_PMC0-5 0xc1-0xc6 and their
#     full-width aliases IA32_A_PMC0-5 0x4c1-0x4c6 (the same counters),
#     IA32_FIXED_CTR0-2 0x309-0x30b, IA32_PERF_CAPABILITIES 0x345 with bit
#     13 (full-width writes), IA32_FIXED_CTR_CTRL 0x38d 0,
#     IA32_PERF_GLOBAL_STATUS 0x38e, _CTRL 0x38f = 0x3f | 0x7 << 32,
#     _STATUS_RESET 0x390, _STATUS_SET 0x391, _INUSE 0x392 (v5 >= 4);
#   Zen 4 (PerfMonV2, 6 counters): PERF_CNTR_GLOBAL_STATUS 0xc0000300,
#     _CTL 0xc0000301 = 0x3f, _STATUS_CLR 0xc0000302, _STATUS_SET
#     0xc0000303, PERF_CTL0-5 / PERF_CTR0-5 0xc0010200-0xc001020b (two
#     counters with stale counts: 0x7 and 0x2a).
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/events-fixture.sh"
unset BARETMA_TEST_HOOKS
events_dumps "$ADLS" "$ZEN4"

# The profile of t/0850 (ghz 0: accesses and the kernel's work only), with
# the registers in $tmp/state.
printf 'ghz 0\naccess_cycles 1000\nwork_cycles 100000\nretiring 40\nbad_speculation 10
frontend_bound 20\nbackend_bound 25\nsmt_contention 5\nheavy_operations 10
branch_mispredicts 6\nfetch_latency 12\nmemory_bound 15\nstate %s\n' "$tmp/state" >"$tmp/amd"
printf 'ghz 0\naccess_cycles 1000\nwork_cycles 100000\nretiring 40\nbad_speculation 10
frontend_bound 20\nbackend_bound 30\nheavy_operations 10\nbranch_mispredicts 6
fetch_latency 12\nmemory_bound 18\nstate %s\n' "$tmp/state" >"$tmp/intel"

# trace_bad TRACE: "WRITES_NOT_SAVED_FIRST GATE_REFUSALS" (t/0388's rule;
# the write-1-to-clear status registers, IA32_PERF_GLOBAL_STATUS_RESET and
# PERF_CNTR_GLOBAL_STATUS_CLR, hold nothing to save: they count after the
# global control of their CPU was saved)
trace_bad() {
	awk '$1 == "sv" { s[$2 " " $3] = 1 }
	     $1 == "wr" && NF == 4 && !s[$2 " " $3] &&
	     !($3 == "0x390" && s[$2 " 0x38f"]) && !($3 == "0xc0000302" && s[$2 " 0xc0000301"]) { bad++ }
	     $1 == "wr" && $5 == "ENOLCK" { gate++ }
	     END { print bad + 0, gate + 0 }' "$1"
}
journals() { ls "$tmp/run" 2>/dev/null | grep 'journal$'; }

# bench NAME DUMP PROFILE CPU ARGS...: bench --backend msr of test-sim-work,
# traced
bench() {
	_n=$1 _d=$2 _p=$3 _c=$4
	shift 4
	rm -f "$tmp/trace"
	BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$_d BARETMA_MSR=sim:$_p BARETMA_MSR_TRACE=$tmp/trace \
		"$BARETMA_HOOKS" bench --backend msr --cpu "$_c" --kernel test-sim-work --reps 5 \
		--warmup 1 "$@" >"$tmp/$_n" 2>"$tmp/$_n.err"
}

for m in ecore zen4; do
	case $m in
	ecore) dump=$ADLS prof=$tmp/intel cpu=$ecore passes=2 recipe=intel-ecore-l1:gracemont
		regs() { ecore_regs "$ecore"; }
		busy="$ecore 0x188" busyv=0x43003c busyname=IA32_PERFEVTSEL2
		busyctr="^$ecore 0x\(c3\|4c3\) " busyregs="0xc3 0x4c3" ;;
	zen4) dump=$ZEN4 prof=$tmp/amd cpu=0 passes=3 recipe=amd-zen4:zen4
		regs() { zen4_regs; }
		busy="0 0xc0010202" busyv=0x430076 busyname=PERF_CTL1 busyctr="^0 0xc0010203 "
		busyregs=0xc0010203 ;;
	esac

	# --- a whole run, level 2 in passes ------------------------------------
	regs >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
	bench "$m.json" "$dump" "$prof" "$cpu" --json; rc=$?
	is "$rc" 0 "$m: bench at level 2 exits 0"
	is "$(pyq 'import json, sys; d = json.load(open(sys.argv[1]))
k = [x for x in d["kernels"] if x["name"] == "test-sim-work"][0]
print(d["topdown"]["passes"], k["repetitions"] - k["invalid"])' "$tmp/$m.json")" "$passes 5" \
		"$m: $passes passes, 5 valid repetitions"
	cmp -s "$tmp/state" "$tmp/orig"; ok $? "$m: every register byte for byte as found"
	is "$(trace_bad "$tmp/trace")" "0 0" "$m: every write after its register was saved, none refused"
	# each pass programs the counters again: the global control is
	# written 0 (the freeze) once per pass before its first counting, and
	# put back once per pass after it (the restore between passes, and at
	# the end), so at least 2 x passes times
	gc=$(echo "$busy" | awk '{ print $1 " " ($2 == "0x188" ? "0x38f" : "0xc0000301") }')
	n=$(grep -c "^wr $gc " "$tmp/trace")
	ok "$([ "$n" -ge $((2 * passes)) ]; echo $?)" "$m: the global control written $n times (>= 2 x $passes passes)"
	is "$(journals)" "" "$m: no journal left"

	# --- a counter already enabled: refused, named, nothing written ---------
	awk -v r="$busy" -v v="$busyv" '$1 " " $2 == r { $3 = v } { print }' "$tmp/orig" >"$tmp/state"
	cp "$tmp/state" "$tmp/busy"
	bench "$m.busy" "$dump" "$prof" "$cpu"; rc=$?
	is "$rc" 75 "$m: $busyname enabled: exit 75 (counters in use)"
	like "$(cat "$tmp/$m.busy.err")" "cpu $cpu: a counter of recipe $recipe is in use: $busyname=$busyv \(" \
		"$m: the message names the recipe and $busyname with its value"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "$m: nothing written"
	cmp -s "$tmp/state" "$tmp/busy"; ok $? "$m: state file unchanged"
	is "$(journals)" "" "$m: no journal left"

	# --- --force takes it over, and puts it back -----------------------------
	# (its counter counts for its owner while the run has not taken it yet:
	# the value put back is the one the journal saved, not the file's
	# first; every other register as found)
	bench "$m.force" "$dump" "$prof" "$cpu" --force; rc=$?
	is "$rc" 0 "$m: --force: measured"
	is "$(grep "^$busy " "$tmp/state")" "$busy $busyv" "$m: --force: $busyname put back as found"
	is "$(grep -v "$busyctr" "$tmp/state")" "$(grep -v "$busyctr" "$tmp/busy")" \
		"$m: --force: every other register but its counter as found"
	saved=$(awk -v c="$cpu" -v r="$busyregs" 'BEGIN { n = split(r, a, " "); for (i = 1; i <= n; i++) w[a[i]] = 1 }
		$1 == "sv" && $2 == c && w[$3] { print $4; exit }' "$tmp/trace")
	is "$(grep "$busyctr" "$tmp/state" | awk '{ print $3 }' | sort -u)" "${saved:-none}" \
		"$m: --force: its counter put back to the value the journal saved ($saved)"
	is "$(journals)" "" "$m: --force: no journal left"
done

done_testing
