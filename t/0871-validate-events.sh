#!/bin/sh
# t/0871-validate-events.sh - validate's metrics_match_events on the
# simulated PMU (msr/sim/msr_sim.h): PERF_METRICS's level 1 against the
# event-based one (recipe intel-icl-events) on one region, the general-
# purpose counters programmed through msr/pmu/pmu_gp.h inside validate's
# guarded run.
#
# Worked by hand (t/0870 has the same numbers for the verdict alone): the
# profile 40/10/20/30 gives PERF_METRICS bytes 102, 26, 51, 77 (S = 256):
# 39.84375, 10.15625, 19.921875, 30.078125 %; the simulator's events count
# the profile's shares exactly but for one count each (msr/sim/sim_events.c:
# IDQ_UOPS_NOT_DELIVERED.CORE / IDQ_BUBBLES.CORE the frontend's slots,
# TOPDOWN.BACKEND_BOUND_SLOTS the backend's, UOPS_RETIRED.SLOTS the
# retiring's; INT_MISC.UOP_DROPPING 0, and on Golden Cove (0xAD) neither it
# nor INT_MISC.CLEARS_COUNT modelled, 0), bad speculation the remainder
# 10 %.  So on Sapphire Rapids PERF_METRICS - events: retiring -0.15625,
# bad +0.15625, frontend -0.078125, backend +0.078125 points, each to
# within the counts' floors (6 counts over at least 50000 slots: 0.012
# points).  On Ice Lake the simulator counts INT_MISC.CLEARS_COUNT (0x0D/
# 0x01 c1 edge): one clear per 20 slots of bad speculation, 5 x 0.10 / 20
# = 0.025 a cycle, so the events' backend (TOPDOWN.BACKEND_BOUND_SLOTS + 5 x
# CLEARS_COUNT) / SLOTS = 30 + 2.5 = 32.5 % and their bad speculation 1 -
# (20 + 32.5 + 40) % = 7.5 %: PERF_METRICS (its fields over their sum,
# as PERF_METRICS alone has them) - events: retiring -0.15625, bad
# +2.65625, frontend -0.078125, backend -2.421875; the corrections' 2.5
# points are in backend's allowance and bad speculation's (both
# corrections: UOP_DROPPING's 0 and CLEARS_COUNT's 2.5), which are 13.284
# to 13.297 points.  `ghz 0`: only
# the simulator's accesses (10000 cycles each) advance its counters, never
# real time, so a reading spread in time by the machine's load reads every
# counter over the same cycles.  The allowance:
# 100 x 2/255 = 0.784 (PERF_METRICS's 8-bit bound at S = 256) + at most
# 0.012 (the events', one count per counter) + 0 (the corrections' events
# count 0) + 10: from 10.784 to 10.797 points.
# `fault gp_offset tma_backend_bound 20` makes the general-purpose
# counters count the backend 20 points high (PERF_METRICS and the fixed
# counters as before; the clears as before, bad speculation unshifted): on
# Ice Lake the events' backend 50 + 2.5 = 52.5, 30.078125 - 52.5 =
# -22.421875 beyond its allowance 13.30, their bad speculation 1 - (20 +
# 52.5 + 40) % < 0, clamped to 0: bad +10.15625; FAIL, exit 1, the
# difference named.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/sim-fixture.sh"

printf 'ghz 0\naccess_cycles 10000\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
printf 'heavy_operations 10\nbranch_mispredicts 5\nfetch_latency 12\nmemory_bound 18\n' >>"$tmp/p"

# val DUMP PROFILE ARGS...: validate --json on the simulator; status in $st
val() {
	_d=$1 _p=$2
	shift 2
	st=0
	BARETMA_CPUID_DUMP=$_d BARETMA_MSR=sim:$_p BARETMA_PERF=sim:$_p "$BARETMA" validate \
		--json --no-perf "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
# the cross-check of cpu $1: "STATUS|measured|expected|reason"
mme() { q "[c['status'] + '|' + (c['measured'] or '') + '|' + (c['expected'] or '') + '|' + (c['reason'] or '') for c in d['checks'] if c['check'] == 'metrics_match_events' and c['cpu'] == $1][0]"; }
# the four differences (or allowances: field 2) of cpu $1 as numbers
nums() { mme "$1" | cut -d'|' -f"$2" | python3 -S -c 'import re,sys; print(" ".join(re.findall(r"(?:ret|bad|fe|be) ([-+0-9.]+)", sys.stdin.read())))'; }
near() { pyq 'import sys; a=[float(x) for x in sys.argv[1].split()]; b=[float(x) for x in sys.argv[2].split()]; print(len(a) == len(b) and all(abs(x - y) <= float(sys.argv[3]) for x, y in zip(a, b)))' "$1" "$2" "$3"; }

# 1. Ice Lake (Sunny Cove, width 5) and Sapphire Rapids (Golden Cove,
# width 6): PASS, the differences and allowances as worked above
for dump in ICL SPR; do
	eval "val \"\$$dump\" \"$tmp/p\""
	if [ "$dump" = ICL ]; then
		diffs="-0.16 2.66 -0.08 -2.42" lo="10.78 13.28 10.78 13.28" hi="10.80 13.30 10.80 13.30"
	else
		diffs="-0.16 0.16 -0.08 0.08" lo="10.78 10.78 10.78 10.78" hi="10.80 10.80 10.80 10.80"
	fi
	is "$st" 0 "$dump: exit 0"
	is "$(mme 0 | cut -d'|' -f1)" PASS "$dump: metrics_match_events PASS"
	is "$(near "$(nums 0 2)" "$diffs" 0.011)" True \
		"$dump: PERF_METRICS - events $diffs points (to the counts' floors)"
	is "$(pyq 'import sys; a, l, h = ([float(x) for x in v.split()] for v in sys.argv[1:4]); print(len(a) == 4 and all(x <= v <= y for v, x, y in zip(a, l, h)))' "$(nums 0 3)" "$lo" "$hi")" True \
		"$dump: each allowance $lo .. $hi (0.784 + 0.012 at most + the corrections' + 10)"
done
like "$(mme 0)" "\(golden-cove, [0-9]+ slots\)" "SPR: the recipe's variant golden-cove and the slots named"
like "$(mme 0 | cut -d'|' -f4)" "^tma_retiring differs by -0\.16 points, the largest, within its allowance of 10\.(79|80) \(8-bit 0\.78 \+ events 0\.0[01][0-9] \+ formulas 0\.00 \+ unconfirmed 10\)$" \
	"SPR: the measured difference in points and each term of the allowance"

# 2. The general-purpose counters disagree: FAIL with the difference
cp "$tmp/p" "$tmp/gp"
printf 'fault gp_offset tma_backend_bound 20\n' >>"$tmp/gp"
val "$ICL" "$tmp/gp"
is "$st" 1 "gp_offset tma_backend_bound 20: exit 1"
is "$(mme 0 | cut -d'|' -f1)" FAIL "metrics_match_events FAIL"
is "$(near "$(nums 0 2)" "-0.16 10.16 -0.08 -22.42" 0.011)" True \
	"PERF_METRICS - events: backend -22.42, bad speculation +10.16 (the events' remainder clamped to 0)"
like "$(mme 0 | cut -d'|' -f4)" "^tma_backend_bound differs by -22\.42 points, beyond its allowance of 13\.(29|30) " \
	"the reason: backend's difference beyond its allowance"
is "$(q '[c["check"] for c in d["checks"] if c["status"] == "FAIL"]')" "['metrics_match_events']" \
	"nothing else fails (PERF_METRICS, the fixed counters count the profile)"
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/gp "$BARETMA" validate --no-perf >"$tmp/txt" 2>&1
grep -q "^FAIL cpu 0   metrics_match_events       measured PERF_METRICS - events (points): ret -0.1[56] bad +10.1[56] fe -0.0[78] be -22.4[12] (sunny-cove, [0-9]* slots); expected each within its allowance: ret 10.[78][90] " "$tmp/txt"
ok $? "the text line: measured and expected"

# 3. Where it cannot run: SKIP with the reason
val "$ADL" "$tmp/p"
is "$(mme 0 | cut -d'|' -f1)" PASS "Alder Lake P-core (Golden Cove): PASS"
is "$(mme 12)" "SKIP|||an E-core (Gracemont): no IA32_PERF_METRICS to cross-check (its level 1 is the events' recipe intel-ecore-l1, which bench measures)" \
	"Alder Lake E-core: SKIP, an E-core"
LNL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test
if [ -r "$LNL" ]; then
	val "$LNL" "$tmp/p" --cpu 0
	is "$(mme 0)" "SKIP|||no general-purpose Top-down events for Lion Cove in baretma's recipes (intel-icl-events has no variant for it: baretma decode --recipes)" \
		"Lunar Lake P-core (Lion Cove): SKIP, no events in the recipes"
else
	skip "no Lunar Lake dump $LNL"
fi
EMR0=$T_DATA/cpuid-emr-kvm-novpmu.txt
EMR3=$T_DATA/cpuid-emr-kvm-vpmu3.txt
val "$EMR0" "$tmp/p"
is "$st $(mme 0)" "69 SKIP|||running under a hypervisor (KVM) that hides the PMU: CPUID leaf 0xA reports architectural perfmon version 0, no counter to program and no PERF_METRICS to read" \
	"KVM guest without a virtual PMU (a real dump): SKIP, the hypervisor hid the PMU; exit 69"
val "$EMR3" "$tmp/p"
is "$st $(mme 0)" "69 SKIP|||running under a hypervisor (KVM) whose virtual PMU enumerates no fixed counter 3 (fixed mask 0x7): no TOPDOWN.SLOTS and no PERF_METRICS to cross-check" \
	"KVM guest with 3 fixed counters: SKIP, no fixed counter 3"

# 4. Counters in use: never overwritten.  A state file for cpu 0 of the
# Ice Lake dump (8 general counters with their full-width aliases, 4
# fixed, v5), its first four event selects enabled by another tool: the
# five general-purpose events of level 1 do not fit in the four left:
# SKIP naming them.  One select in use: the check runs on the others.
{
	for i in 0 1 2 3 4 5 6 7; do
		printf '0 0x%x 0x0\n0 0x%x 0x0\n0 0x%x 0x0\n' $((0x186 + i)) $((0xc1 + i)) \
			$((0x4c1 + i))
	done
	printf '0 0x309 0x11\n0 0x30a 0x22\n0 0x30b 0x33\n0 0x30c 0x44\n0 0x329 0x0\n'
	printf '0 0x345 0xa000\n0 0x38d 0x0\n0 0x38e 0x0\n0 0x38f 0x1000f000000ff\n'
	printf '0 0x390 0x0\n0 0x391 0x0\n0 0x392 0x0\n'
} >"$tmp/clean"
cp "$tmp/p" "$tmp/ps"
printf 'state %s\n' "$tmp/state" >>"$tmp/ps"
# the registers but the counts of the selects in use (0xc1-0xc4, 0x4c1-0x4c4),
# which count on for their owner
regs() { grep -v -E '^0 0x4?c[1-4] ' "$1"; }
sed -e 's/^0 0x186 0x0$/0 0x186 0x43003c/' -e 's/^0 0x187 0x0$/0 0x187 0x4300c0/' \
	-e 's/^0 0x188 0x0$/0 0x188 0x43003c/' -e 's/^0 0x189 0x0$/0 0x189 0x43003c/' \
	"$tmp/clean" >"$tmp/state"
cp "$tmp/state" "$tmp/state.orig"
val "$ICL" "$tmp/ps" --cpu 0
is "$st $(mme 0)" "0 SKIP|||general-purpose counters in use: IA32_PERFEVTSEL0, IA32_PERFEVTSEL1, IA32_PERFEVTSEL2, IA32_PERFEVTSEL3 (4 of 8 free, 5 events to count): never overwritten" \
	"four selects in use: SKIP naming them, not FAIL"
regs "$tmp/state" >"$tmp/a"
regs "$tmp/state.orig" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b"
ok $? "every register as found (the owner's counts aside)"
sed -e 's/^0 0x186 0x0$/0 0x186 0x43003c/' "$tmp/clean" >"$tmp/state"
cp "$tmp/state" "$tmp/state.orig"
BARETMA_MSR_TRACE=$tmp/trace val "$ICL" "$tmp/ps" --cpu 0
is "$st $(mme 0 | cut -d'|' -f1)" "0 PASS" "one select in use: the other counters measure"
is "$(grep -c '^wr 0 0x186 ' "$tmp/trace")" 0 "IA32_PERFEVTSEL0, in use, never written"
# each select's first write its event with EN (bit 22), its last the 0 it
# held; counters 6 and 7 not needed: never programmed, written only by the
# journal's restore, the 0 it saved as it began (the free counters are
# saved then, for perf_event's group on Sunny Cove: msr/guard/guard.c save_gp)
sels() {
	pyq - "$tmp/trace" <<'EOP'
import sys
w = [l.split()[2:4] for l in open(sys.argv[1]) if l.startswith("wr 0 0x18")]
out = []
for r in ("0x187", "0x188", "0x189", "0x18a", "0x18b", "0x18c", "0x18d"):
    v = [int(x, 16) for m, x in w if m == r]
    out.append("%s:%s" % (r, "-" if not v else "%d,%d" % (bool(v[0] >> 22 & 1), v[-1])))
print(" ".join(out))
EOP
}
is "$(sels)" "0x187:1,0 0x188:1,0 0x189:1,0 0x18a:1,0 0x18b:1,0 0x18c:0,0 0x18d:0,0" \
	"five selects programmed (counters 1-5, enabled) and each put back to 0; 6 and 7 never enabled"
regs "$tmp/state" >"$tmp/a"
regs "$tmp/state.orig" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b"
ok $? "every register as found, the ones programmed too"
is "$(ls "$BARETMA_STATE_DIR" | grep -c journal)" 0 "no journal left"

# 5. The fault's profile line is checked as the others (doc/simulator.md, "The
# simulated PMU"): a node that does not exist, a value out of range
printf 'fault gp_offset tma_nothing 5\n' >>"$tmp/p"
val "$ICL" "$tmp/p"
is "$st" 65 "gp_offset naming no node: exit 65"
like "$(cat "$tmp/err")" "'fault gp_offset' names no node 'tma_nothing'" "... named"

done_testing
