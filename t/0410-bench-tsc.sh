#!/bin/sh
# t/0410-bench-tsc - the harness on the TSC backend: every kernel runs and
# gives positive, ordered statistics; without Top-down the output
# says why and carries no Top-down numbers; the default run (the main job)
# works.  How long it takes is the machine's business: `make benchmark`
# reports it (bench/perf/timings.c), no test asserts it.
. "$T_SRC/tap.sh"

"$BARETMA" bench --backend tsc --reps 21 --warmup 2 --json >"$tmp/b.json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "bench --backend tsc --json exits 0"
check() { python3 - "$tmp/b.json" "$@" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
what = sys.argv[2]
ks = d["kernels"]
def stats_ok(s):
    return s["min"] <= s["q1"] <= s["median"] <= s["q3"] <= s["max"] and s["n"] == 21
if what == "schema":
    print(d["schema"], d["backend"], d["topdown"]["available"])
elif what == "names":
    print(",".join(k["name"] for k in ks))
elif what == "reps":
    print(all(k["repetitions"] == 21 and stats_ok(k["tsc_ticks"]) for k in ks))
elif what == "positive":
    # the fastest repetitions: load and slow builds only add time to some
    e = ks[0]["tsc_ticks"]["min"]
    print(all(k["tsc_ticks"]["min"] > e for k in ks[1:]))
elif what == "no-topdown-numbers":
    print(not any(key.startswith("tma_") or key == "slots" for k in ks for key in k))
elif what == "reason":
    print(d["topdown"]["reason"] or "")
elif what == "cpu":
    print(d["cpu"]["os_cpu"], d["cpu"]["identity"]["family"] > 0)
elif what == "environment":
    e = d["environment"]
    print(sorted(e) == sorted(["hypervisor", "vpmu", "core_pmu_driver", "kernel", "lockdown",
        "msr_module", "msr_allow_writes", "rdpmc", "rdpmc_topdown_probe", "rdpmc_user_probe",
        "nmi_watchdog", "smt_control", "smt_active", "governor", "freq_driver", "turbo",
        "isolated_cpus", "nohz_full", "microcode"]), e["kernel"] == open("/proc/sys/kernel/osrelease").read().strip())
EOP
}
is "$(check schema)" "baretma-bench/2 tsc False" "schema, backend and topdown.available"
is "$(check names)" "empty,retire-light,heavy-ops,dep-chain,divider,ptr-chase,branch-miss,icache-miss" \
	"every kernel ran, empty first"
is "$(check reps)" "True" "21 repetitions each; min <= q1 <= median <= q3 <= max"
is "$(check positive)" "True" "every kernel's fastest repetition exceeds the empty bracket's"
is "$(check no-topdown-numbers)" "True" "no tma_* or slots keys without Top-down"
like "$(check reason)" "." "topdown.reason is given"
like "$(check cpu)" "^[0-9]+ True$" "cpu used and its identity are reported"
is "$(check environment)" "True True" "the environment preflight is embedded, as in info (README: environment)"

"$BARETMA" bench --backend tsc --kernel divider,retire-light --reps 5 --csv >"$tmp/b.csv" 2>"$tmp/csv.err"; rc=$?
is "$rc" 0 "--csv exits 0"
is "$(head -1 "$tmp/b.csv")" "kernel,quantity,unit,n,median,min,max,q1,q3,mad,mean,bound_pp" "CSV header"
is "$(grep -c ',tsc_ticks,ticks,5,' "$tmp/b.csv")" 3 "CSV: empty + 2 kernels with 5 reps (TSC ticks)"

# Explicit Top-down backends on a machine without them: exit 69 with the reason.
vendor=$(awk -F': ' '/^vendor_id/{print $2; exit}' /proc/cpuinfo)
if [ "$vendor" != GenuineIntel ] || [ ! -e /dev/cpu/0/msr ]; then
	out=$("$BARETMA" bench --backend rdpmc --reps 3 2>&1); rc=$?
	is "$rc" 69 "--backend rdpmc without a usable PMU exits 69"
	like "$out" "^baretma: cannot use --backend rdpmc on cpu [0-9]+: " "and says why"
	out=$("$BARETMA" bench --backend msr --reps 3 2>&1); rc=$?
	is "$rc" 69 "--backend msr without a usable PMU exits 69"
else
	skip "machine has an Intel PMU and msr device"; skip "Intel"; skip "Intel"
fi
if [ "$vendor" != GenuineIntel ]; then
	is "$(cat "$tmp/err")" "" "json mode keeps stderr quiet (the reason is in the JSON)"
	"$BARETMA" bench --reps 3 --warmup 0 --kernel retire-light >"$tmp/t.txt" 2>&1; rc=$?
	is "$rc" 0 "default backend on a non-Intel CPU exits 0"
	like "$(cat "$tmp/t.txt")" "top-down unavailable on cpu [0-9]+: CPU vendor is $vendor" "says the vendor is not Intel"
	unlike "$(cat "$tmp/t.txt")" "tma_|%" "prints no Top-down columns"
else
	skip "Intel machine"; skip "Intel machine"; skip "Intel machine"; skip "Intel machine"
fi

# The main job, default options.
"$BARETMA" bench >"$tmp/main.txt" 2>&1; rc=$?
is "$rc" 0 "default 'baretma bench' exits 0"
like "$(cat "$tmp/main.txt")" "icache-miss" "default run covers every kernel"
done_testing
