#!/bin/sh
# t/0410-bench-tsc - the harness on the TSC backend: every kernel runs and
# gives positive, ordered statistics; without Top-down the output
# says why and carries no Top-down numbers; the default run (the main job)
# works.  How long it takes is the machine's business: `make benchmark`
# reports it (bench/benchmarks/timings.c), no test asserts it.
. "$T_SRC/tap.sh"
pyq_start

"$BARETMA" bench --backend tsc --reps 21 --warmup 2 --json >"$tmp/b.json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "bench --backend tsc --json exits 0"
check() { pyq - "$tmp/b.json" "$@" <<'EOP'
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
    print(sorted(e) == sorted(["hypervisor", "hypervisor_signature", "hypervisor_kernel",
        "hypervisor_kernel_source", "vpmu", "core_pmu_driver", "kernel", "lockdown",
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
is "$(head -1 "$tmp/b.csv")" \
	"cpu,kind,recipe,backend,time,kernel,level,quantity,unit,value,bound_pp,n,median,min,max,q1,q3,mad,mean" \
	"CSV header (the long layout, README)"
is "$(grep -c ',tsc_ticks,ticks,[0-9.e+]*,,5,' "$tmp/b.csv")" 3 "CSV: empty + 2 kernels with 5 reps (TSC ticks)"

# Top-down on the live CPU, by what it is: another vendor, Intel without an
# architectural PMU (a VM without a virtual PMU: the most common cloud
# case), Intel with one (up to the first register access: the tests' MSR
# backend is a path that cannot exist, test-env.sh).  The machine's own
# CPU runs one branch; the live-CPU seam of the test build
# ($BARETMA_TEST_LIVE_CPUID, t/live-fixture.sh) runs the two Intel ones on
# any machine: a real Emerald Rapids KVM guest without a virtual PMU
# (t/data, leaf 0xA all zero, "KVMKVMKVM") and the Ice Lake i7-1065G7
# ($SHARED_CPUID/INDEX.tsv: level 1, 8 CPUs).
. "$T_SRC/live-fixture.sh"
# td BIN LABEL: the branch of the live CPU that BIN sees (live_facts set)
td() {
	_b=$1 _l=$2
	"$_b" bench --backend tsc --reps 3 --warmup 0 --kernel retire-light --json >"$tmp/td.json" \
		2>"$tmp/td.err"
	_reason=$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["topdown"]["reason"])' \
		"$tmp/td.json" 2>/dev/null)
	out=$("$_b" bench --backend rdpmc --reps 3 2>&1); rc=$?
	is "$rc" 69 "$_l: --backend rdpmc without a usable PMU exits 69"
	like "$out" "^baretma: cannot use --backend rdpmc on cpu [0-9]+: " "$_l: and says why"
	out=$("$_b" bench --backend msr --reps 3 2>&1); rc=$?
	is "$rc" 69 "$_l: --backend msr without a usable PMU exits 69"
	is "$(cat "$tmp/td.err")" "" "$_l: json mode keeps stderr quiet (the reason is in the JSON)"
	"$_b" bench --reps 3 --warmup 0 --kernel retire-light >"$tmp/t.txt" 2>&1; rc=$?
	is "$rc" 0 "$_l: default backend without Top-down exits 0"
	unlike "$(cat "$tmp/t.txt")" "tma_|%" "$_l: prints no Top-down columns"
	if [ "$live_vendor" != GenuineIntel ]; then
		why="CPU vendor is $live_vendor .*not Intel|cpu [0-9]+ \(Zen [45].*has the recipe amd-zen[45], which counts 6 events at once on the core counters PERF_CTL0-5; CPUID enumerates [0-5] "
	elif [ "$live_pmu" = 0 ] && [ "$live_hv" = 1 ]; then
		why="running under a hypervisor \(.+\) without a virtual PMU: CPUID leaf 0xA reports architectural perfmon version 0"
	elif [ "$live_pmu" = 0 ]; then
		why="CPUID leaf 0xA reports architectural perfmon version 0"
	else
		# the first register access: the MSR device of the test backend, or
		# a model without fixed counter 3 / PERF_METRICS before it
		why="no MSR device '/nonexistent/baretma-test/cpu/[0-9]+/msr'|has no fixed counter 3|no IA32_PERF_METRICS"
	fi
	like "$(cat "$tmp/t.txt")" "top-down: unavailable: ($why)" "$_l: says why ($why)"
	like "$_reason" "^($why)" "$_l: topdown.reason in the JSON says the same"
	like "$out" "^baretma: cannot use --backend msr on cpu [0-9]+: ($why)" "$_l: --backend msr says the same"
}
live_facts
td "$BARETMA" "this machine ($live_vendor${BARETMA_TEST_LIVE_CPUID:+, seam})"
EMR=$T_DATA/cpuid-emr-kvm-novpmu.txt
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
export BARETMA_TEST_LIVE_CPUID
BARETMA_TEST_LIVE_CPUID=$EMR
live_facts
is "$live_vendor $live_hv $live_pmu" "GenuineIntel 1 0" "the EMR guest dump: Intel, hypervisor, leaf 0xA version 0"
td "$BARETMA_HOOKS" "seam: Intel without a PMU (EMR KVM guest)"
like "$(cat "$tmp/t.txt")" "top-down: unavailable: running under a hypervisor \(KVM\) without a virtual PMU" \
	"seam EMR: the hypervisor is KVM (leaves 0x40000000: KVMKVMKVM)"
if [ -r "$ICL" ]; then
	BARETMA_TEST_LIVE_CPUID=$ICL
	live_facts
	td "$BARETMA_HOOKS" "seam: Intel with a PMU (Ice Lake)"
	like "$(cat "$tmp/t.txt")" "top-down: unavailable: no MSR device '/nonexistent/baretma-test/cpu/[0-9]+/msr'" \
		"seam ICL: fixed counter 3 and PERF_METRICS by CPUID, stopped at the first register access"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11; do skip "no Ice Lake dump"; done
fi
unset BARETMA_TEST_LIVE_CPUID

# The main job, default options.
"$BARETMA" bench >"$tmp/main.txt" 2>&1; rc=$?
is "$rc" 0 "default 'baretma bench' exits 0"
like "$(cat "$tmp/main.txt")" "icache-miss" "default run covers every kernel"
done_testing
