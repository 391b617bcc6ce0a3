#!/bin/sh
# t/0902-stat-events.sh - `baretma stat` where a core kind has no
# IA32_PERF_METRICS: its event recipe, on the simulated PMU of real CPUID
# dumps.  An Alder Lake-S counted whole (-a) is two groups, each with its
# own recipe: its P-cores intel-perf-metrics, its E-cores (Gracemont)
# intel-ecore-l1; a Zen 4 (EPYC 9124) amd-zen4.  Each level-1 share is the
# profile's within the bound printed.
#
# Expected values come from the profile and the dumps, never from baretma:
# `ghz 0` - only the simulator's accesses advance its clock, each counted
# at the profile's shares (no access_* key; msr/sim/msr_sim.h), so every event
# counts its share x width x cycles and an event recipe's level-1 nodes
# are the shares 40/10/20/30 % exactly (bound 0, up to floating point);
# PERF_METRICS's are within its 8-bit bound.  The CPUs of each kind are
# the dump's CPUID 0x1A EAX[31:24] (0x40 Core, 0x20 Atom).
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/events-fixture.sh"
events_dumps "$ADLS" "$ZEN4"

printf 'ghz 0\naccess_cycles 1000\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
BARETMA_MSR=sim:$tmp/profile
export BARETMA_MSR

kinds() {
	awk '/^CPUID 0000001A:/ { split($3, r, "-"); n[substr(r[1], 1, 2)]++ }
	     END { print n["40"] + 0, n["20"] + 0 }' "$ADLS"
}
set -- $(kinds)
np=$1 ne=$2

# check FILE: "GROUPS" lines, each "kind recipe ncpus ok|what differs"
check() {
	pyq - "$1" <<'EOF'
import json, sys
want = {"tma_retiring": 40, "tma_bad_speculation": 10, "tma_frontend_bound": 20,
        "tma_backend_bound": 30}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["type"] != "interval":
        continue
    for s in d["samples"]:
        bad = []
        seen = 0
        for n in s["nodes"]:
            if n["metric"] in want:
                seen += 1
                if abs(n["percent"] - want[n["metric"]]) > s["bound_pp"] + 1e-6:
                    bad.append("%s %.6f +/- %.4f" % (n["metric"], n["percent"], s["bound_pp"]))
        if seen != 4:
            bad.append("%d level-1 nodes" % seen)
        print(s["kind"], s["recipe"], s["ncpus"], "ok" if s["valid"] and not bad else ";".join(bad))
EOF
}

"$BARETMA" stat --cpuid-dump "$ADLS" -a -I 100 --count 1 --json >"$tmp/adls" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat -a on the Alder Lake-S dump exits 0"
is "$(check "$tmp/adls" | sort | tr '\n' ';')" \
	"efficiency intel-ecore-l1 $ne ok;performance intel-perf-metrics $np ok;" \
	"two groups: the $np P-cores with PERF_METRICS, the $ne E-cores with intel-ecore-l1, each the profile's shares"

"$BARETMA" stat --cpuid-dump "$ADLS" -C "$ecore" -I 100 --count 1 --json >"$tmp/ecore" 2>/dev/null; rc=$?
is "$rc" 0 "stat -C $ecore (an E-core) exits 0"
like "$(check "$tmp/ecore")" "^efficiency intel-ecore-l1 1 ok$" "the E-core alone: intel-ecore-l1, the profile's shares"
like "$(cat "$tmp/ecore")" '"variant":"gracemont"' "its variant named"

"$BARETMA" stat --cpuid-dump "$ZEN4" -C 0-1 -I 100 --count 1 --json >"$tmp/zen4" 2>/dev/null; rc=$?
is "$rc" 0 "stat on the Zen 4 dump exits 0"
like "$(check "$tmp/zen4")" "^general amd-zen4 2 ok$" "Zen 4: amd-zen4, the profile's shares"

# level 2 of intel-ecore-l1 takes two passes on a Gracemont (6 GP counters:
# t/0850): counted in them, one pass a read, an interval one read of each
# (baretma-stat(1)).  The profile's level-2 shares (t/events-fixture.sh's
# $sim_common, backend 30, memory 12) give, from E-core_TMA_Metrics.csv's
# formulas (msr/recipe/recipes_intel_ecore.c ECORE_L2_NODES: each event over SLOTS),
# every simulated event counting its share (msr/sim/sim_events.c):
#   branch_mispredicts = MISPREDICT / SLOTS = 6, machine_clears = 10 - 6 = 4,
#   fetch_latency = FRONTEND_LATENCY / SLOTS = 12, fetch_bandwidth = 20 - 12
#   = 8, core_bound = ALLOC_RESTRICTIONS / SLOTS = backend - memory = 30 -
#   12 = 18, resource_bound = backend - core = 12;
# the P-cores' PERF_METRICS level 2 (Golden Cove: fields) the shares, heavy
# 10, light 40 - 10 = 30, branch 6, clears 4, latency 12, bandwidth 8,
# memory 12, core 18, within its bound.
printf '%s\nbackend_bound 30\nmemory_bound 12\n' "$sim_common" >"$tmp/profile2"
BARETMA_MSR=sim:$tmp/profile2 "$BARETMA" stat --cpuid-dump "$ADLS" -a --level 2 -I 100 --count 1 \
	--json >"$tmp/l2" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat -a --level 2 on the Alder Lake-S dump exits 0 (the E-cores in passes)"
is "$(pyq - "$tmp/l2" <<'EOF2'
import json, sys
want = {"efficiency": {"tma_retiring": 40, "tma_bad_speculation": 10,
                       "tma_branch_mispredicts": 6, "tma_machine_clears": 4,
                       "tma_frontend_bound": 20, "tma_fetch_latency": 12,
                       "tma_fetch_bandwidth": 8, "tma_backend_bound": 30,
                       "tma_core_bound": 18, "tma_resource_bound": 12},
        "performance": {"tma_retiring": 40, "tma_heavy_operations": 10,
                        "tma_light_operations": 30, "tma_bad_speculation": 10,
                        "tma_branch_mispredicts": 6, "tma_machine_clears": 4,
                        "tma_frontend_bound": 20, "tma_fetch_latency": 12,
                        "tma_fetch_bandwidth": 8, "tma_backend_bound": 30,
                        "tma_memory_bound": 12, "tma_core_bound": 18}}
out = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["type"] != "interval":
        continue
    for s in sorted(d["samples"], key=lambda s: s["kind"]):
        w = want[s["kind"]]
        got = {n["metric"]: n["percent"] for n in s["nodes"]}
        bad = [m for m in w if m not in got or abs(got[m] - w[m]) > s["bound_pp"] + 1e-6]
        bad += [m for m in got if m not in w]
        out.append("%s level %d passes %d %s" % (s["kind"], s["level"], s["passes"],
                   "ok" if s["valid"] and not bad else ",".join(bad)))
print(";".join(out))
EOF2
)" "efficiency level 2 passes 2 ok;performance level 2 passes 1 ok" \
	"level 2: the E-cores in 2 passes, the P-cores in one, each node as worked above"
# with a command and no -I the passes turn every 50 ms (bench/stat_types.h
# STAT_PASS_TICK_MS): a 0.3 s command sees both; a count that ends before
# the first turn, its level 1, saying so.  That count is ended by a SIGINT
# the test build sends itself once the counters are programmed (the
# "program" point, bench/cli/cli_hooks.c), before the first tick whatever
# the machine's load: a command that "ends at once" (true) lost that race
# to the 50 ms tick under a loaded make -j2.
BARETMA_MSR=sim:$tmp/profile2 "$BARETMA" stat --cpuid-dump "$ADLS" -C "$ecore" --level 2 \
	-- sleep 0.3 >"$tmp/l2t" 2>/dev/null; rc=$?
is "$rc" 0 "stat -C $ecore --level 2 -- sleep 0.3 exits 0"
like "$(cat "$tmp/l2t")" "recipe intel-ecore-l1:gracemont, level 2 in 2 passes \\(each in turn" \
	"the text names the level and its passes"
like "$(cat "$tmp/l2t")" "tma_resource_bound +12\\.00" "its level-2 nodes (resource_bound 12)"
BARETMA_TEST_SIGNAL_AT=program:INT BARETMA_MSR=sim:$tmp/profile2 "$BARETMA_HOOKS" stat \
	--cpuid-dump "$ADLS" -C "$ecore" --level 2 >"$tmp/l2s" 2>/dev/null; rc=$?
is "$rc" 0 "stat -C $ecore --level 2 ended by SIGINT before the first turn exits 0"
like "$(cat "$tmp/l2s")" "level 1 \\(level 2 not counted: the count ended before each of its 2 passes had its turn\\)" \
	"a count shorter than the passes' turn: level 1, saying why"

# --per-cpu: one sample per CPU
"$BARETMA" stat --cpuid-dump "$ZEN4" -C 0-1 --per-cpu -I 100 --count 1 --json >"$tmp/per" 2>/dev/null
is "$(pyq '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
print(" ".join("%s:%d" % (s["cpu"], s["ncpus"]) for s in d["samples"]))' "$tmp/per")" "0:1 1:1" \
	"--per-cpu: a sample for cpu 0 and one for cpu 1"

# a command on the Zen 4 dump: its status passed on, Top-down printed
out=$("$BARETMA" stat --cpuid-dump "$ZEN4" -C 0 -- sh -c 'exit 5' 2>/dev/null); rc=$?
is "$rc" 5 "stat -- sh -c 'exit 5' on Zen 4 exits 5"
like "$out" "recipe amd-zen4:zen4" "the recipe named in the table"
is "$(ls "$BARETMA_STATE_DIR" | grep -c 'journal$')" 0 "no journal left behind"
done_testing
