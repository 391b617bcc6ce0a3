#!/bin/sh
# t/0900-stat-sim.sh - `baretma stat` on the simulated PMU (msr/sim/msr_sim.h)
# of the Ice Lake dump: with a command it prints Top-down for the CPUs and
# exits with the command's status; -I 100 --count 5 prints 5 intervals and
# the timer's drift; --csv parses as CSV with named columns; --json -I is
# JSON Lines; every level-1 share equals the profile's within the bound
# printed beside it.
#
# Expected values come from the profile written here, never from baretma:
# `ghz 1` and `access_cycles 0` make every cycle a work cycle counted at
# the profile's shares (retiring 40, bad speculation 10, frontend 20,
# backend 30 %), so each tma_* level-1 node is its share, within the
# PERF_METRICS quantisation bound stat prints (its 8-bit fields: msr/
# topdown.h td_value_bound) - but for Ice Lake's INT_MISC.CLEARS_COUNT
# term (intel/perfmon icelake_metrics.json: Backend_Bound + 5 x
# CLEARS_COUNT / SLOTS, Bad_Speculation the remainder; msr/recipe/recipes_intel_pm.c),
# which the simulator counts as one clear per 20 slots of bad speculation
# (msr/sim/sim_events.c): 5 x (5 x 0.10 / 20) / 5 = 2.5 points moved from bad
# speculation (7.5) to backend (32.5).
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read CSV and JSON"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"
NCPU=$(grep -c 'Logical CPU #' "$ICL")

printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
mkdir -p "$tmp/run"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF

# --- a command: Top-down while it runs, its exit status passed on ---------
out=$("$BARETMA" stat -- sh -c 'sleep 0.3; exit 3' 2>"$tmp/err"); rc=$?
is "$rc" 3 "stat -- sh -c 'sleep 0.3; exit 3' exits 3, the command's status"
like "$out" "Top-down .* of CPUs 0-$((NCPU - 1)) while sh -c 'sleep 0.3; exit 3' ran" \
	"it names the CPUs (every CPU of the dump: all have PERF_METRICS) and the command"
like "$out" "MSR counting is per CPU, not per task" "it says that counting is per CPU"
like "$out" "tma_retiring +[0-9.]+ +[0-9.]+ +[0-9]+" "tma_retiring with its bound and slots"
like "$out" "the command exited 3" "and how the command ended"
out=$("$BARETMA" stat -C 2 -- sh -c 'kill -TERM $$' 2>/dev/null); rc=$?
is "$rc" 143 "a command killed by SIGTERM: 128+15, as a shell says it"
"$BARETMA" stat -C 2 -- "$tmp/no-such-command" >/dev/null 2>"$tmp/err"; rc=$?
is "$rc" 127 "a command that does not exist: 127, as a shell"
like "$(cat "$tmp/err")" "^baretma: stat: cannot run '.*/no-such-command': No such file or directory" \
	"said with its cause"

# --- -I 100 --count 5: five intervals, the drift said ----------------------
out=$("$BARETMA" stat -C 0-1 -I 100 --count 5 2>/dev/null); rc=$?
is "$rc" 0 "stat -C 0-1 -I 100 --count 5 exits 0"
is "$(printf '%s\n' "$out" | grep '^ *[0-9]*\.[0-9]\{9\}  ' | awk '{ print $1 }' | uniq | wc -l | tr -d ' ')" 5 \
	"five intervals (their rows, a node each, under one time each)"
like "$(printf '%s\n' "$out" | grep '^#  *time')" "^# +time +cpus +kind" \
	"under a header whose first column is the time, as perf's"
like "$out" "5 intervals read \(timer drift median [0-9.]+ us, max [0-9.]+ us\)" \
	"the drift of the timer said at the end"

# --- each interval reset: fixed counter 3, then PERF_METRICS, written 0 ---
# frozen (IA32_PERF_GLOBAL_CTRL written with bits 35 and 48 clear, then
# set again), before the interval counts (SDM Vol. 3B 21.3.9.3; the
# kernel's order, FC3 first: linux arch/x86/events/intel/core.c
# intel_update_topdown_event), once at the start and once per interval end
# (the MSR trace: "wr CPU MSR VALUE"; the writes alone, the interval end's
# reads of the frozen counters come between the freeze and the zeros)
BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" stat -C 0 -I 100 --count 3 >/dev/null 2>&1; rc=$?
is "$rc" 0 "stat -C 0 -I 100 --count 3 (traced) exits 0"
resets=$(awk 'function bits(h,  v, i) { v = 0; h = tolower(substr(h, 3))
		for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return (int(v / 2^35) % 2) + (int(v / 2^48) % 2) }
	$1 == "wr" && $2 == 0 { msr[++n] = $3; val[n] = $4 }
	END { for (i = 3; i <= n; i++) {
		if (msr[i] != "0x38f" || bits(val[i]) != 2 || msr[i - 1] != "0x329" ||
		    val[i - 1] != "0x0" || msr[i - 2] != "0x30c" || val[i - 2] != "0x0")
			continue
		for (j = i - 3; j > 0 && msr[j] != "0x38f"; j--)
			;
		if (j > 0 && bits(val[j]) == 0)
			r++ }
	      print r + 0 }' "$tmp/trace")
is "$resets" 4 "FC3 and PERF_METRICS reset, frozen, before the first interval and at each of the 3 interval ends"

# --- --csv: named columns, one row per node per interval ------------------
"$BARETMA" stat -C 0-1 -I 100 --count 2 --csv >"$tmp/csv" 2>/dev/null; rc=$?
is "$rc" 0 "stat -I 100 --count 2 --csv exits 0"
got=$(pyq - "$tmp/csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
need = {"time", "kind", "recipe", "backend", "cpu", "quantity", "unit", "value", "bound_pp"}
missing = need - set(rows[0].keys()) if rows else need
times = sorted({r["time"] for r in rows})
ret = [r for r in rows if r["quantity"] == "tma_retiring" and r["unit"] == "percent"]
single = all(r["n"] == "1" and r["median"] == r["mean"] == "" for r in rows)
print(len(missing), len(times), len(ret), ",".join(sorted({r["recipe"] for r in rows})),
      ",".join(sorted({r["backend"] for r in rows})), single)
EOF
)
is "$got" "0 2 2 intel-perf-metrics:sunny-cove msr True" \
	"CSV: the named columns, two intervals, tma_retiring in each, recipe and backend columns, one count each (n 1, no statistics)"

# --- --json -I: JSON Lines, values = the profile within the bound ----------
"$BARETMA" stat -C 0-3 -I 100 --count 3 --json >"$tmp/jsonl" 2>/dev/null; rc=$?
is "$rc" 0 "stat -I 100 --count 3 --json exits 0"
got=$(pyq - "$tmp/jsonl" <<'EOF'
import json, sys
want = {"tma_retiring": 40, "tma_bad_speculation": 7.5, "tma_frontend_bound": 20,
        "tma_backend_bound": 32.5}
lines = open(sys.argv[1]).read().splitlines()
docs = [json.loads(l) for l in lines]          # raises on any line that is not JSON
types = [d["type"] for d in docs]
bad = []
for d in docs:
    if d["schema"] != "baretma-stat/1":
        bad.append("schema")
    for s in d.get("samples", []):
        if s["ncpus"] != 4 or not s["valid"]:
            bad.append("ncpus/valid")
        for n in s["nodes"]:
            if n["metric"] in want and abs(n["percent"] - want[n["metric"]]) > s["bound_pp"] + 1e-9:
                bad.append("%s %.3f +/- %.3f" % (n["metric"], n["percent"], s["bound_pp"]))
            if abs(n["slots"] - n["percent"] / 100 * s["slots"]) > 1e-6 * s["slots"]:
                bad.append("slots of " + n["metric"])
print(len(lines), ",".join(types), "ok" if not bad else ";".join(bad))
EOF
)
is "$got" "4 interval,interval,interval,end ok" \
	"JSON Lines: three intervals and the end, each level-1 node the profile's share within the bound, its slots its share of the slots"

# --- --json without -I: one document ---------------------------------------
"$BARETMA" stat -C 0 --json -- true >"$tmp/json" 2>/dev/null; rc=$?
is "$rc" 0 "stat --json -- true exits 0"
got=$(pyq '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["schema"], d["type"], d["command"], d["exit_status"], len(d["samples"]), d["samples"][0]["recipe"])
' "$tmp/json")
is "$got" "baretma-stat/1 end ['true'] 0 1 intel-perf-metrics" "one document with the command, its status and the samples"

# every key of both documents named in doc/json.md (t/json-undocumented.py)
head -1 "$tmp/jsonl" >"$tmp/interval.json"
if [ -r "$T_SRC/../doc/json.md" ]; then
	is "$(python3 -S "$T_SRC/json-undocumented.py" "$T_SRC/../doc/json.md" "$tmp/json" \
		"$tmp/interval.json")" "" "every key of the end document and of an interval line in doc/json.md"
else
	skip "no doc/json.md beside t/"
fi

is "$(ls "$tmp/run" | grep -c 'journal$')" 0 "no journal left behind"
done_testing
