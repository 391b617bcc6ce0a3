#!/bin/sh
# t/0971-dry-run-messages.sh - what a dry run says, whole:
#  1. bench's note is never cut: on a CPUID dump through the simulator's
#     msr backend it holds three notes (not pinned, RDPMC not for a
#     dump's CPU, the msr bracket's cost) of more than 512 bytes, once cut
#     at 512 mid-word ("...: subtracted, bu"); the last must end whole.
#  2. An AMD Zen 4 guest whose hypervisor hides the core counters (the
#     EPYC 9124 dump with CPUID 0x80000001 ECX[23] PerfCtrExtCore and
#     leaf 0x80000022 cleared and the hypervisor bit, leaf 1 ECX[31], set:
#     what a KVM guest without a virtual PMU shows, linux
#     arch/x86/events/amd/core.c amd_core_pmu_init) is said to have the
#     recipe amd-zen4 and no counters it can use, under a hypervisor - not
#     "not Intel: IA32_PERF_METRICS exists only on Intel CPUs".
#  3. The simulator on a live machine whose CPUID has no PMU it models
#     (this one's premise is checked first with `baretma info`: skipped
#     on a machine whose CPU has counters): the reason says the simulator
#     models this machine's CPUID and how to give it a dump.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/events-fixture.sh"
events_dumps "$CLX" "$ZEN4"
unset BARETMA_TEST_HOOKS BARETMA_CPUID_DUMP BARETMA_MSR BARETMA_PERF

printf '%s\nbackend_bound 30\nmemory_bound 18\n' "$sim_common" >"$tmp/p"

# 1. the note whole, text and JSON
# the note names the dump's path: one over 300 bytes long makes it longer than
# 512 bytes whatever the rest says
long=$tmp/$(printf '%0150d' 0)/$(printf '%0150d' 1)
mkdir -p "$long"
cp "$CLX" "$long/clx.test"
BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --cpuid-dump "$long/clx.test" --backend msr --cpu 0 \
	--kernel retire-light --reps 3 --warmup 0 >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "bench on the Cascade Lake dump, simulator msr backend: exit 0"
note=$(grep '^note: ' "$tmp/out")
is "$(printf '%s' "$note" | wc -c | awk '{ print ($1 > 520) }')" 1 "the note is over 512 bytes"
like "$note" "subtracted, but its jitter widens every spread$" "and ends whole"
BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --cpuid-dump "$CLX" --backend msr --cpu 0 \
	--kernel retire-light --reps 3 --warmup 0 --json >"$tmp/json" 2>"$tmp/err"
is "$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["note"].endswith("widens every spread"))' "$tmp/json")" \
	True "the JSON note ends whole too"

# 2. a Zen 4 guest without its core counters
awk '/^CPUID 00000001:/ { split($3, r, "-"); r[3] = "FEFA320B"; $3 = r[1] "-" r[2] "-" r[3] "-" r[4] }
     /^CPUID 80000001:/ { split($3, r, "-"); r[3] = "754237FF"; $3 = r[1] "-" r[2] "-" r[3] "-" r[4] }
     /^CPUID 80000022:/ { $3 = "00000000-00000000-00000000-00000000" }
     { print }' "$ZEN4" >"$tmp/zen4-guest.test"
st=0
"$BARETMA" bench --cpuid-dump "$tmp/zen4-guest.test" --backend msr --kernel empty --reps 2 \
	>"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 69 "Zen 4 guest, --backend msr: exit 69"
like "$(cat "$tmp/err")" "has the recipe amd-zen4, which counts 6 events at once on the core counters PERF_CTL0-5; CPUID enumerates 0 \(.*\): running under a hypervisor \(.*\) without a virtual PMU" \
	"names the recipe, the counters it needs and the hypervisor that hides them"
unlike "$(cat "$tmp/err")" "not Intel" "not 'not Intel'"

# 3. the simulator on this machine
"$BARETMA" info >"$tmp/info" 2>&1
if ! grep -qE "not Intel|without a virtual PMU|perfmon version 0|has the recipe amd-zen" "$tmp/info"; then
	for i in 1 2 3; do skip "this machine's CPU has counters the simulator models: nothing to say"; done
else
	st=0
	BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --backend msr --kernel empty --reps 2 \
		>"$tmp/out" 2>"$tmp/err" || st=$?
	is "$st" 69 "simulator on this machine's CPUID, --backend msr: exit 69"
	like "$(cat "$tmp/err")" "the simulated PMU \(BARETMA_MSR=sim:\.\.\.\) models this machine's CPUID: give it an Intel or AMD Zen 4/5 CPUID dump with --cpuid-dump FILE \(e\.g\. examples/dumps/ice-lake-i7\.test\)" \
		"says the simulator models this machine's CPUID and how to give it a dump"
	BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --kernel empty --reps 2 >"$tmp/out" 2>"$tmp/err"
	like "$(cat "$tmp/out")" "models this machine's CPUID: give it an Intel or AMD" \
		"backend auto (TSC only): the same words"
fi
done_testing
