#!/bin/sh
# t/0989-sim-dry-messages.sh - what the simulated PMU and a state file say:
#  1. a hint names the backend in use: bench on a dump's CPU with the
#     simulator gives no RDPMC hint at all (the rdpmc backend reads by the
#     simulated RDPMC there, msr_sim_rdpmc: t/0992), and never
#     "with BARETMA_MSR=state:FILE" (the simulator is no state file);
#  2. the profile's `state FILE` errors name the profile, the file and the
#     problem: missing (exit 66), empty (65, where every access failed
#     "CPU offline or absent" before), IA32_PERF_CAPABILITIES without bit
#     15 (PERF_METRICS available, linux arch/x86/events/intel/core.c
#     intel_pmu_init; exit 69): "IA32_PERF_CAPABILITIES (MSR 0x345) bit
#     15", the value and the file;
#  3. `pmu enable` on the in-memory simulator (no `state FILE`) warns that
#     the next process does not see its registers; with `state FILE` not;
#  4. doc/state-file.md's template is a state file the simulator measures
#     on (Ice Lake-L CPU 1: level 1, the profile's shares).
. "$T_SRC/tap.sh"

. "$T_SRC/sim-fixture.sh"
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
run() {
	st=0
	"$BARETMA" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
# prof NAME STATE: the profile $tmp/prof-NAME over state file STATE
prof() {
	{ cat "$tmp/p"; printf 'state %s\n' "$2"; } >"$tmp/prof-$1"
}

# 1. the hint
BARETMA_MSR=sim:$tmp/p run bench --cpuid-dump "$ICL" --kernel empty --reps 2 --warmup 0
is "$st" 0 "bench --cpuid-dump ICL on the simulator: exit 0"
unlike "$(cat "$tmp/out" "$tmp/err")" "RDPMC reads the counters of the CPU" \
	"no RDPMC hint on the simulator: its RDPMC is simulated"
unlike "$(cat "$tmp/out" "$tmp/err")" "BARETMA_MSR=state:FILE" "  not a state file"

# 2. state FILE errors
prof missing "$tmp/nostate"
BARETMA_MSR=sim:$tmp/prof-missing run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 2
is "$st" 66 "a missing state file: exit 66"
is "$(cat "$tmp/err")" "baretma: simulated PMU '$tmp/prof-missing': \`state\` key: state file '$tmp/nostate': No such file or directory (create it: doc/state-file.md has a template of one CPU's registers)" \
	"names the profile, the file and the problem"
: >"$tmp/empty-state"
prof empty "$tmp/empty-state"
BARETMA_MSR=sim:$tmp/prof-empty run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 2
is "$st" 65 "an empty state file: exit 65"
is "$(cat "$tmp/err")" "baretma: simulated PMU '$tmp/prof-empty': its \`state\` file '$tmp/empty-state' is empty: it lists no register (give each CPU's registers, one 'CPU 0xMSR 0xVALUE' a line: doc/state-file.md has a template)" \
	"says it is empty, naming both files"
printf '9 0x38f 0x0\n' >"$tmp/other-state"
prof other "$tmp/other-state"
BARETMA_MSR=sim:$tmp/prof-other run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 2
is "$st" 65 "a state file of none of the dump's CPUs (0-7): exit 65"
like "$(cat "$tmp/err")" "its \`state\` file '$tmp/other-state' lists no register of the machine's CPUs 0-7" \
	"says so"
awk '/^```/ { f = !f; next } f && !/^#/' "$T_SRC/../doc/state-file.md" >"$tmp/template"
sed 's/^1 0x345 0xa000$/1 0x345 0x2000/' "$tmp/template" >"$tmp/no15"
prof no15 "$tmp/no15"
BARETMA_MSR=sim:$tmp/prof-no15 run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 2
is "$st" 69 "IA32_PERF_CAPABILITIES 0x2000 (no bit 15): exit 69"
like "$(cat "$tmp/err")" "has fixed counter 3 but no IA32_PERF_METRICS: IA32_PERF_CAPABILITIES \(MSR 0x345\) bit 15 \(PERF_METRICS available\) is clear in cpu 1's value 0x2000 read from '$tmp/no15' \(set the bit on that file's line for 0x345, e.g. 0xa000\)" \
	"names MSR 0x345 bit 15, the value and the state file"

# 3. pmu enable on the in-memory simulator
BARETMA_MSR=sim:$tmp/p run pmu enable --cpuid-dump "$ICL" --cpu 1
is "$st" 0 "pmu enable on the in-memory simulator: exit 0"
is "$(cat "$tmp/err")" "baretma: warning: pmu enable: the simulated PMU (sim:$tmp/p) keeps its registers in this process's memory: they are gone when it exits, and the next process (pmu status, pmu restore, bench) sees a clean register file, not what was enabled (give the profile a \`state FILE\` line to keep them)" \
	"warns that the next process will not see its registers"
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p run pmu restore
cp "$tmp/template" "$tmp/kept"
prof kept "$tmp/kept"
BARETMA_MSR=sim:$tmp/prof-kept run pmu enable --cpuid-dump "$ICL" --cpu 1
is "$st" 0 "pmu enable with a state FILE: exit 0"
unlike "$(cat "$tmp/err")" "warning" "  no warning: the registers are kept"
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/prof-kept run pmu restore
is "$st" 0 "  and pmu restore puts them back"

# 4. the template measures
prof tmpl "$tmp/template"
BARETMA_MSR=sim:$tmp/prof-tmpl run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 3 --warmup 0 --json
is "$st" 0 "doc/state-file.md's template: bench --backend msr --cpu 1 exits 0"
is "$(q 'd["topdown"]["level"]')" 1 "  at level 1 (Ice Lake-L)"
is "$(q 'round(d["kernels"][0]["tma_retiring"]["median"])')" 40 "  the profile's tma_retiring 40"
done_testing
