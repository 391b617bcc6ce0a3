#!/bin/sh
# t/1044-constraints-bench.sh - `baretma bench` programs every event of an
# event recipe on a counter its vendor allows, for the SMT state it finds,
# and says where that state came from with a CPUID dump (issue 28).
#
#   1. Haswell-EP (hwloc dump Intel-Haswell-2xXeon-E5-2680v3: 8 GP counters,
#      one thread a core in its topology: SMT off) through the state-file
#      backend at level 2: every event select the trace shows written to
#      IA32_PERFEVTSELx is one whose haswellx_core.json CounterHTOff
#      (t/data/vendor-events.tsv, never our table) has counter x -
#      IDQ_UOPS_NOT_DELIVERED.* and CYCLE_ACTIVITY.* on 0-3; the note
#      says "SMT off ... by the CPUID dump's topology"; the registers are
#      put back byte for byte.
#   2. Skylake-S (libcpuid dump of an i5-6600K: 8 GP counters, a one-file
#      dump, no topology): the same, skylake_core.json's CounterHTOff
#      (CYCLE_ACTIVITY.STALLS_MEM_ANY on 0-3), and the note says SMT is
#      assumed off.
#   3. Haswell-EP on the simulated PMU, which counts 0 for an event on a
#      counter the vendor forbids (msr/sim/msr_sim.h): level 2's every node is
#      the profile's (hand-worked as in t/0850: fetch latency 12 = 4 x
#      min(THREAD, CYCLES_0_UOPS_DELIV.CORE) / SLOTS, ...), which a pass
#      with CYCLES_0 on counter 4 would make 0.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/events-fixture.sh"
HSX=$SHARED_CPUID/hwloc/Intel-Haswell-2xXeon-E5-2680v3
SKL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_6th_gen/skylake-i5.test
events_dumps "$HSX" "$SKL"
TSV=$T_DATA/vendor-events.tsv

# regs: an idle Linux PMU of cpu 0 with 8 GP and 3 fixed counters, as a
# state file holds it: IA32_PERFEVTSEL0-7 (0x186+x), IA32_PMC0-7 (0xc1+x),
# IA32_A_PMC0-7 (0x4c1+x), IA32_FIXED_CTR0-2 (0x309-0x30b),
# IA32_PERF_CAPABILITIES (0x345, bit 13 full-width writes), FIXED_CTR_CTRL,
# GLOBAL_STATUS, GLOBAL_CTRL (every counter enabled, intel_pmu_enable_all),
# STATUS_RESET, GLOBAL_INUSE (linux msr-index.h)
regs() {
	for i in 0 1 2 3 4 5 6 7; do
		printf '0 0x%x 0x0\n0 0x%x 0x0\n0 0x%x 0x0\n' $((0x186 + i)) $((0xc1 + i)) $((0x4c1 + i))
	done
	printf '0 0x309 0x0\n0 0x30a 0x0\n0 0x30b 0x0\n0 0x345 0x31c3\n0 0x38d 0x0\n0 0x38e 0x0\n'
	printf '0 0x38f 0x7000000ff\n0 0x390 0x0\n0 0x392 0x0\n'
}

# placed TRACE MODEL FILE: each select written to IA32_PERFEVTSELx with EN,
# and whether the vendor's CounterHTOff (SMT off) for its encoding has x
placed() {
	pyq - "$1" "$2" "$3" "$TSV" <<'EOP'
import sys
trace, model, fil, tsv = sys.argv[1:]
rows = [l.rstrip("\n").split("\t") for l in open(tsv) if l.strip() and not l.startswith("#")]
def mask(s):
    return sum(1 << int(c) for c in s.split(",")) if s[0].isdigit() else None
allowed = {}
for r in rows:
    if r[0] != model or r[1] != fil:
        continue
    code, umask = int(r[4], 16), int(r[5], 16) if r[5] != "-" else 0
    cmask = int(r[6]) if r[6] != "-" else 0
    m = mask(r[11] if r[11] != "-" else r[10])
    if m is not None:
        allowed.setdefault((code, umask, cmask), []).append((r[3], m))
bad, n, seen = [], 0, set()
for l in open(trace):
    f = l.split()
    if len(f) < 4 or f[0] != "wr" or not 0x186 <= int(f[2], 16) <= 0x18d:
        continue
    x, v = int(f[2], 16) - 0x186, int(f[3], 16)
    if not v & (1 << 22):
        continue
    key = (v & 0xff, (v >> 8) & 0xff, (v >> 24) & 0xff)
    if (x, key) in seen:
        continue
    seen.add((x, key))
    n += 1
    names = allowed.get(key)
    if not names:
        bad.append("%#x on counter %d: no %s row of that encoding" % (v, x, model))
    elif not any(m >> x & 1 for _, m in names):
        bad.append("%s on counter %d: CounterHTOff %#x" % (names[0][0], x, names[0][1]))
print("%d %s" % (n, "; ".join(bad) if bad else "ok"))
EOP
}

# dry NAME DUMP: bench --level 2 through the state backend, the trace kept
dry() {
	regs >"$tmp/$1.state"
	cp "$tmp/$1.state" "$tmp/$1.orig"
	BARETMA_MSR=state:$tmp/$1.state BARETMA_MSR_TRACE=$tmp/$1.trace "$BARETMA" bench \
		--cpuid-dump "$2" --cpu 0 --backend msr --kernel retire-light --reps 3 --warmup 0 \
		--level 2 >"$tmp/$1.out" 2>&1
}

dry hsx "$HSX"; rc=$?
is "$rc" 0 "Haswell-EP dump, state backend, level 2: exit 0"
like "$(cat "$tmp/hsx.out")" "recipe intel-pre-icl-l1:haswell, 2 passes" "Haswell-EP: 2 passes"
like "$(cat "$tmp/hsx.out")" "SMT off for recipe intel-pre-icl-l1:haswell by the CPUID dump's topology \(its counter constraints: intel/perfmon's CounterHTOff\)" \
	"Haswell-EP: the note says SMT off, from the dump's topology"
# level 2, SMT off: 15 GP events (level 1's IDQ_UOPS_NOT_DELIVERED.CORE,
# UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS, INT_MISC.RECOVERY_CYCLES; the
# SNB column's CYCLES_0_UOPS_DELIV.CORE, BR_MISP_RETIRED, MACHINE_CLEARS,
# IDQ.MS_UOPS; hsw-metrics.json's 7 of tma_memory_bound), THREAD and
# INST_RETIRED.ANY on fixed counters 1 and 0
is "$(placed "$tmp/hsx.trace" HSX HSX/events/haswellx_core.json)" "15 ok" \
	"Haswell-EP: the 15 GP event selects of the 2 passes each on a counter haswellx_core.json allows"
cmp -s "$tmp/hsx.state" "$tmp/hsx.orig"; ok $? "Haswell-EP: every register put back"

dry skl "$SKL"; rc=$?
is "$rc" 0 "Skylake-S dump, state backend, level 2: exit 0"
like "$(cat "$tmp/skl.out")" "SMT off for recipe intel-pre-icl-l1:skylake assumed: the CPUID dump has no topology" \
	"Skylake-S: the note says SMT is assumed off"
like "$(placed "$tmp/skl.trace" SKL SKL/events/skylake_core.json)" "^[1-9][0-9]* ok\$" \
	"Skylake-S: every event select on a counter skylake_core.json allows"
cmp -s "$tmp/skl.state" "$tmp/skl.orig"; ok $? "Skylake-S: every register put back"

# --- 3: the simulated Haswell-EP, SMT off (no `smt on`), W = 4 ---------------
# intel-pre-icl-l1:haswell, SMT off (perf hsw-metrics.json): SLOTS = 4 x
# THREAD = 4K; FE = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS = 20, RET 40,
# BAD = (ISSUED - RETIRE_SLOTS + 4 x RECOVERY_CYCLES) / SLOTS = 10, BE 30;
# fetch latency = 4 x min(THREAD, CYCLES_0_UOPS_DELIV.CORE) / SLOTS =
# 0.12 K / K = 12, bandwidth 8; heavy = RETIRE_SLOTS / ISSUED x IDQ.MS_UOPS /
# SLOTS = 10, light 30; mispredicts 6, clears 4; memory bound 18, core 12
# (msr/sim/sim_events.c: the stall cycles model recovers them).
printf '%s\nbackend_bound 30\nmemory_bound 18\n' "$sim_common" >"$tmp/prof"
BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$HSX BARETMA_MSR=sim:$tmp/prof "$BARETMA_HOOKS" bench \
	--backend msr --cpu 0 --kernel test-sim-work --reps 5 --warmup 1 --level 2 --json \
	>"$tmp/sim.json" 2>"$tmp/sim.err"; rc=$?
is "$rc" 0 "simulated Haswell-EP, level 2: exit 0"
is "$(pyq - "$tmp/sim.json" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = dict((x["name"], x) for x in d["kernels"])["test-sim-work"]
want = {"tma_retiring": 40, "tma_bad_speculation": 10, "tma_frontend_bound": 20,
        "tma_backend_bound": 30, "tma_fetch_latency": 12, "tma_fetch_bandwidth": 8,
        "tma_heavy_operations": 10, "tma_light_operations": 30, "tma_branch_mispredicts": 6,
        "tma_machine_clears": 4, "tma_memory_bound": 18, "tma_core_bound": 12}
off = [(n, k.get(n, {}).get("median")) for n in want
       if n not in k or abs(k[n]["median"] - want[n]) > 0.01]
print("%d passes, %s" % (d["topdown"]["passes"], off if off else "the profile's"))
EOP
)" "2 passes, the profile's" \
	"simulated Haswell-EP, SMT off: every level-2 node the profile's (CYCLES_0 counted on 0-3)"

done_testing
