#!/bin/sh
# t/1150-stat-msr-accesses.sh - the MSR accesses one `baretma stat`
# interval end makes on a CPU (issue 30, stat: "read each CPU's registers
# in as few preads as the device allows").  Through the msr driver each
# pread(2) reads one register ("A larger size means multiple reads or
# writes of the same register": linux arch/x86/kernel/msr.c), so the floor
# is each register the interval needs read once: the values of the
# reading, the tamper check's controls, the overflow bits.  Counted here in
# the MSR trace ($BARETMA_MSR_TRACE, "rd CPU 0xMSR ..." / "wr ..."), as the
# difference between --count 5 and --count 2 over 3: the start-up and the
# end cancel out.  The counts are worked by hand from the recipe's events
# (msr/recipe/recipes_*.c) and the registers of the SDM (Vol. 4) and
# AMD's PPR, never taken from baretma:
#
#   every kind: IA32_PERF_GLOBAL_CTRL (0x38f; AMD PERF_CNTR_GLOBAL_CTL
#     0xc0000301) read once (the tamper check, whose value the reset
#     writes back) and written twice (the counters frozen before they are
#     read, and counting again after the reset: one window for every
#     counter of the reading); IA32_PERF_GLOBAL_STATUS (0x38e; AMD
#     PERF_CNTR_GLOBAL_STATUS 0xc0000300) read once (the overflow bits);
#     each counter of the reading read once and written 0 once, the
#     general-purpose ones through their full-width aliases IA32_A_PMCx
#     (0x4c1 + x, IA32_PERF_CAPABILITIES bit 13); each event select read
#     once (tamper); IA32_FIXED_CTR_CTRL (0x38d) once where a fixed
#     counter counts.
#   Sapphire Rapids (intel-perf-metrics, Golden Cove): IA32_FIXED_CTR3
#     (0x30c) and IA32_PERF_METRICS (0x329): 5 reads, 4 writes.
#   Ice Lake (intel-perf-metrics:sunny-cove, level 1): FC3, PERF_METRICS and
#     INT_MISC.UOP_DROPPING, INT_MISC.CLEARS_COUNT on IA32_PMC0/1 (0xc1,
#     0xc2; selects 0x186, 0x187): 9 reads, 6 writes.
#   Alder Lake E-core (intel-ecore-l1:gracemont): CPU_CLK_UNHALTED.CORE on
#     IA32_FIXED_CTR1 (0x30a) and the TOPDOWN_*.ALL events on IA32_PMC0-2
#     (0xc1-0xc3; selects 0x186-0x188): 10 reads, 6 writes.
#   Zen 4 (amd-zen4, level 1): six events on PERF_CTR0-5 (0xc0010201 + 2i;
#     PERF_CTL0-5 0xc0010200 + 2i): 14 reads, 8 writes.
# Before, each interval also read the counters back after the reset (FC3
# and PERF_METRICS again: 7 reads on Sapphire Rapids), and Ice Lake read
# IA32_PERF_GLOBAL_CTRL twice (the general-purpose check's and
# PERF_METRICS's).
. "$T_SRC/tap.sh"

[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
ex=$T_SRC/../examples/dumps
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_PERF BARETMA_CPUID_DUMP
printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
BARETMA_MSR=sim:$tmp/profile
export BARETMA_MSR

# per_interval NAME DUMP CPU: "op msr count;..." of one interval end of CPU
per_interval() {
	for k in 2 5; do
		mkdir -p "$tmp/$1.$k"
		BARETMA_STATE_DIR=$tmp/$1.$k BARETMA_MSR_TRACE=$tmp/$1.$k.trace \
			"$BARETMA" stat --cpuid-dump "$2" -C "$3" -I 10 --count $k >/dev/null \
			2>"$tmp/$1.$k.err" || echo "stat --count $k: exit $?"
	done
	awk -v cpu="$3" 'FNR == 1 { f++ }
		$2 == cpu { n[f, $1 " " $3]++; key[$1 " " $3] = 1 }
		END { for (x in key) { d = (n[2, x] - n[1, x]) / 3; if (d) print x, d } }' \
		"$tmp/$1.2.trace" "$tmp/$1.5.trace" | sort | tr '\n' ';'
}

is "$(per_interval spr "$ex/sapphire-rapids-ws-xeon-w7.test" 0)" \
	"rd 0x30c 1;rd 0x329 1;rd 0x38d 1;rd 0x38e 1;rd 0x38f 1;wr 0x30c 1;wr 0x329 1;wr 0x38f 2;" \
	"Sapphire Rapids: an interval end reads FC3, PERF_METRICS and the three checks' registers once each (5 preads), writes 4"
is "$(per_interval icl "$ex/ice-lake-i7.test" 0)" \
	"rd 0x186 1;rd 0x187 1;rd 0x30c 1;rd 0x329 1;rd 0x38d 1;rd 0x38e 1;rd 0x38f 1;rd 0xc1 1;rd 0xc2 1;wr 0x30c 1;wr 0x329 1;wr 0x38f 2;wr 0x4c1 1;wr 0x4c2 1;" \
	"Ice Lake: FC3, PERF_METRICS and two general-purpose events: 9 preads (the global control once), 6 writes"
is "$(per_interval adl "$ex/alder-lake-s-core-i9.test" 16)" \
	"rd 0x186 1;rd 0x187 1;rd 0x188 1;rd 0x30a 1;rd 0x38d 1;rd 0x38e 1;rd 0x38f 1;rd 0xc1 1;rd 0xc2 1;rd 0xc3 1;wr 0x30a 1;wr 0x38f 2;wr 0x4c1 1;wr 0x4c2 1;wr 0x4c3 1;" \
	"Alder Lake E-core (cpu 16): fixed counter 1 and three general-purpose events: 10 preads, 6 writes"

ZEN4=${SHARED_CPUID:-}/libcpuid/master-history/amd/zen4/epyc-genoa.test
if [ -r "$ZEN4" ]; then
	want=
	for i in 0 1 2 3 4 5; do
		want="$want$(printf 'rd 0x%x 1;rd 0x%x 1;' $((0xc0010200 + 2 * i)) $((0xc0010201 + 2 * i)))"
	done
	want="rd 0xc0000300 1;rd 0xc0000301 1;$want"
	for i in 0 1 2 3 4 5; do
		want="$want$(printf 'wr 0x%x 1;' $((0xc0010201 + 2 * i)))"
	done
	want="${want}wr 0xc0000301 2;"
	got=$(per_interval zen4 "$ZEN4" 0 | tr ';' '\n' | sort | tr '\n' ';')
	is "$got" "$(printf '%s' "$want" | tr ';' '\n' | sort | tr '\n' ';')" \
		"Zen 4: six events on PERF_CTR0-5: 14 preads (six counters, six selects, the global control and status), 8 writes"
else
	skip "no Zen 4 dump ($ZEN4)"
fi

# their order in one interval end of the Sapphire Rapids CPU (its first:
# after the programming's and the start's resumes of IA32_PERF_GLOBAL_CTRL,
# through the next), the kernel's: the tamper check before any write;
# fixed counter 3 and PERF_METRICS frozen (bits 35 and 48 clear) while
# they are read, as intel_pmu_read_topdown_event reads them between
# perf_pmu_disable and perf_pmu_enable (linux arch/x86/events/intel/core.c);
# the overflow bits; then FC3 written 0 before PERF_METRICS ("Software
# should always write fixed counter 3 before write to PERF_METRICS",
# intel_update_topdown_event) and counting resumed
order=$(awk 'function bits(h,  v, i) { v = 0; h = tolower(substr(h, 3))
		for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return (int(v / 2^35) % 2) + (int(v / 2^48) % 2) }
	$2 != 0 || $1 == "sv" { next }
	{ x = $1 " " $3 }
	$1 == "wr" && $3 == "0x38f" { x = x (bits($4) == 2 ? " counting" : bits($4) == 0 ? " frozen" : " ?") }
	$1 == "wr" && $3 != "0x38f" { x = x " " $4 }
	resumes == 2 { out = out x ";" }
	$1 == "wr" && $3 == "0x38f" && bits($4) == 2 { resumes++ }
	END { print out }' "$tmp/spr.5.trace")
is "$order" "rd 0x38d;rd 0x38f;wr 0x38f frozen;rd 0x30c;rd 0x329;rd 0x38e;wr 0x30c 0x0;wr 0x329 0x0;wr 0x38f counting;" \
	"the order: checked, frozen, read, overflow bits, FC3 then PERF_METRICS zeroed, counting again"

# the counts behind those accesses: every window the reset's to the freeze,
# so each level-1 node of the Sapphire Rapids CPU is the profile's share
# within the bound stat prints beside it (t/0900's check, on this dump)
out=$(BARETMA_STATE_DIR=$tmp/spr.2 "$BARETMA" stat --cpuid-dump "$ex/sapphire-rapids-ws-xeon-w7.test" \
	-C 0 -I 10 --count 2 --csv 2>/dev/null)
bad=$(printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["unit"] == "percent" && $c["quantity"] ~ /^tma_(retiring|bad_speculation|frontend_bound|backend_bound)$/ {
		q = $c["quantity"]
		w = q == "tma_retiring" ? 40 : q == "tma_bad_speculation" ? 10 : q == "tma_frontend_bound" ? 20 : 30
		n++; d = $c["value"] - w; if (d < 0) d = -d; if (d > $c["bound_pp"] + 1e-9) b++ }
	END { print n + 0, b + 0 }')
is "$bad" "8 0" "its two intervals' four level-1 shares each the profile's within the bound"

done_testing
