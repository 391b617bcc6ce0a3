#!/bin/sh
# t/0980-sim-gp-ten.sh - the simulated PMU's general-purpose counters are
# those the CPU kind enumerates: ten on the Lion Cove P-cores of Lunar Lake
# (Core Ultra 9 288V) and Arrow Lake-S (Core Ultra 7 265K), eight on their
# Skymont E-cores (msr/sim/msr_sim_int.h SIM_GP).
#
# Known answers, from the dumps and INDEX.tsv (column
# leaf23_per_core_type): CPUID leaf 0x23 sub-leaf 1 EAX (the GP counter
# bitmap the kernel's update_pmu_cap takes per core kind) is 0x3FF on the
# P-core (core type 0x40 in leaf 0x1A), 0xFF on the E-core (0x20); EBX (the
# fixed bitmap) 0xF and 0x77.  Leaf 0xA EAX[15:8] says 8 on both parts.
# Addresses (Intel SDM Vol. 4 Table 2-2): IA32_PMC8-9 0xC9-0xCA,
# IA32_PERFEVTSEL8-9 0x18E-0x18F, IA32_A_PMC8-9 0x4C9-0x4CA.
# The clean IA32_PERF_GLOBAL_CTRL is the kernel's intel_ctrl (every
# counter's enable bit, bit 48 with PERF_METRICS; msr/sim/msr_sim.h):
#   P-core: 0x3ff | 0xf << 32 | 1 << 48 = 0x1000f000003ff
#   E-core: 0xff | 0x77 << 32           = 0x77000000ff
# A counter the kind lacks is a #GP on hardware: EIO through the driver.
#
# bench, stat and pmu status run on the P-core without --force (the
# in-use check reads IA32_PERFEVTSEL0-9), and a run over a state file
# whose P-core registers hold stale values (counters 8-9 too) leaves the
# file byte for byte as it was.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

LNL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test
ARL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-7-265k.test
for d in "$LNL" "$ARL"; do
	[ -r "$d" ] || skip_all "no CPUID dump $d"
done

# first_of DUMP TYPE: the first logical CPU whose leaf 0x1A EAX[31:24] is TYPE
first_of() {
	awk -v t="$2" '/Logical CPU #/ { c = $0; sub(/.*#/, "", c); sub(/[^0-9].*/, "", c) }
		/^CPUID 0000001A:/ { split($3, r, "-"); if (substr(r[1], 1, 2) == t) { print c; exit } }' "$1"
}
# leaf23 DUMP CPU: "GP FIXED" of CPUID 0x23.1 in CPU's section
leaf23() {
	awk -v want="$2" '/Logical CPU #/ { c = $0; sub(/.*#/, "", c); sub(/[^0-9].*/, "", c) }
		c == want && /^CPUID 00000023:/ && /\[SL 01\]/ { split($3, r, "-"); print r[1], r[2]; exit }' "$1"
}

printf 'ghz 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
BARETMA_MSR=sim:$tmp/p
export BARETMA_MSR

for name in LNL ARL; do
	eval "d=\$$name"
	P=$(first_of "$d" 40)
	E=$(first_of "$d" 20)
	is "$(leaf23 "$d" "$P") / $(leaf23 "$d" "$E")" "000003FF 0000000F / 000000FF 00000077" \
		"$name: the dump's leaf 0x23.1 (P-core cpu $P, E-core cpu $E) is INDEX.tsv's"
	BARETMA_CPUID_DUMP=$d
	export BARETMA_CPUID_DUMP
	for r in 0xc9 0xca 0x18e 0x18f 0x4c9 0x4ca; do
		out=$("$BARETMA" msr read "$P" "$r" 2>&1); rc=$?
		is "$rc $(echo "$out" | sed 's/.*= //')" "0 0x0" "$name P-core: MSR $r exists, clean 0"
	done
	is "$("$BARETMA" msr read "$P" 0x38f 2>&1 | sed 's/.*= //')" 0x1000f000003ff \
		"$name P-core: clean GLOBAL_CTRL enables GP 0-9, fixed 0-3 and bit 48"
	is "$("$BARETMA" msr read "$E" 0x38f 2>&1 | sed 's/.*= //')" 0x77000000ff \
		"$name E-core: clean GLOBAL_CTRL enables GP 0-7, fixed 0-2 and 4-6"
	"$BARETMA" msr read "$E" 0x18e >/dev/null 2>"$tmp/err"; rc=$?
	is "$rc" 69 "$name E-core: IA32_PERFEVTSEL8 does not exist (exit 69)"
	like "$(cat "$tmp/err")" "MSR 0x18e on cpu $E .*Input/output error" "$name E-core: EIO, as a #GP"
	"$BARETMA" msr read "$E" 0xc9 >/dev/null 2>&1; rc=$?
	is "$rc" 69 "$name E-core: IA32_PMC8 does not exist"

	"$BARETMA" bench --cpu "$P" --kernel retire-light --reps 3 --warmup 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
	is "$rc" 0 "$name: bench on the P-core without --force exits 0"
	ok "$(grep -c 'cannot tell who uses the PMU' "$tmp/err")" "$name: bench: the in-use check reads IA32_PERFEVTSEL0-9"
	"$BARETMA" stat -C "$P" -I 100 --count 2 >"$tmp/out" 2>"$tmp/err"; rc=$?
	is "$rc" 0 "$name: stat on the P-core without --force exits 0"
	"$BARETMA" pmu status >"$tmp/out" 2>"$tmp/err"; rc=$?
	is "$rc" 0 "$name: pmu status exits 0"
	ok "$(grep -ci 'could not be read' "$tmp/out" "$tmp/err" | awk -F: '{ s += $NF } END { print s + 0 }')" \
		"$name: pmu status reads every event select"
done

# --- the registers a run touches, put back byte for byte ------------------------
# Lunar Lake cpu 0 (a P-core) as a state file: stale counts everywhere
# (counters 8-9 too), nothing counting (FIXED_CTR_CTRL 0, selects 0),
# IA32_PERF_CAPABILITIES bit 13 | bit 15 | bit 19 = 0x8a000; and its first
# E-core, measured by its event recipe on GP counters 0-7: fixed counters
# 0-2 and 4-6 (mask 0x77), no FC3 nor PERF_METRICS, capabilities bit 13.
P=$(first_of "$LNL" 40)
E=$(first_of "$LNL" 20)
{
	i=0
	while [ "$i" -lt 10 ]; do
		printf '%s 0x%x 0x0\n%s 0x%x 0x%x\n%s 0x%x 0x%x\n' "$P" $((0x186 + i)) \
			"$P" $((0xc1 + i)) $((0x1000 + i)) "$P" $((0x4c1 + i)) $((0x1000 + i))
		i=$((i + 1))
	done
	printf '%s 0x309 0x11\n%s 0x30a 0x22\n%s 0x30b 0x33\n%s 0x30c 0x2000\n' "$P" "$P" "$P" "$P"
	printf '%s 0x329 0x1f3a5c47\n%s 0x345 0x8a000\n%s 0x38d 0x0\n%s 0x38e 0x0\n' "$P" "$P" "$P" "$P"
	printf '%s 0x38f 0x1000f000003ff\n%s 0x390 0x0\n%s 0x391 0x0\n%s 0x392 0x0\n' "$P" "$P" "$P" "$P"
	i=0
	while [ "$i" -lt 8 ]; do
		printf '%s 0x%x 0x0\n%s 0x%x 0x%x\n%s 0x%x 0x%x\n' "$E" $((0x186 + i)) \
			"$E" $((0xc1 + i)) $((0x2000 + i)) "$E" $((0x4c1 + i)) $((0x2000 + i))
		i=$((i + 1))
	done
	for r in 0x309 0x30a 0x30b 0x30d 0x30e 0x30f; do printf '%s %s 0x77\n' "$E" "$r"; done
	printf '%s 0x345 0x2000\n%s 0x38d 0x0\n%s 0x38e 0x0\n%s 0x38f 0x77000000ff\n' "$E" "$E" "$E" "$E"
	printf '%s 0x390 0x0\n%s 0x391 0x0\n%s 0x392 0x0\n' "$E" "$E" "$E"
} >"$tmp/state"
cp "$tmp/state" "$tmp/orig"
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\nstate %s\n' \
	"$tmp/state" >"$tmp/ps"
BARETMA_MSR=sim:$tmp/ps
BARETMA_CPUID_DUMP=$LNL
"$BARETMA" bench --cpu "$P" --kernel retire-light --reps 3 --warmup 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "state file: bench on the P-core exits 0"
cmp "$tmp/orig" "$tmp/state" >/dev/null; is "$?" 0 "state file: bench leaves it byte for byte as found"
"$BARETMA" bench --cpu "$E" --kernel retire-light --reps 3 --warmup 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "state file: bench on the E-core (its event recipe on GP counters) exits 0"
cmp "$tmp/orig" "$tmp/state" >/dev/null; is "$?" 0 "state file: the event recipe's run leaves it as found"
"$BARETMA" stat -C "$P,$E" -I 100 --count 2 >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "state file: stat on both exits 0"
cmp "$tmp/orig" "$tmp/state" >/dev/null; is "$?" 0 "state file: stat leaves it as found"
is "$(ls "$BARETMA_STATE_DIR" | grep -c 'journal$')" 0 "no journal left"

done_testing
