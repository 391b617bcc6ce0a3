#!/bin/sh
# t/0985-sim-metrics-clear-restore.sh - bench --backend rdpmc in RDPMC
# metrics-clear mode (t/0992) on the simulated Lunar Lake P-core leaves
# every register it touched byte for byte as found: checked on the
# registers themselves, not on a trace.  The simulator's `state FILE`
# (doc/state-file.md) is its register file: it starts from the file and
# every write persists there (counters at every control write), and a
# value written back equal to what the file held keeps the file's own
# text - so the file after the run, compared with `cmp` to a copy taken
# before, is the register state compared byte for byte.  Then the same
# run killed by SIGTERM, SIGINT and SIGKILL at random points of its work
# (t/fi-kill.c: when its MSR trace has N lines, N drawn from 0 to 1.05 x
# a whole run's, seeded: the same points every run), followed by
# `baretma pmu restore --cpuid-dump` where a journal is left: the file is
# byte for byte as found, and no journal remains.
#
# The registers: Lunar Lake (Core Ultra 9 288V) cpu 0, a Lion Cove P-core
# (leaf 0x1A core type 0x40; 10 GP counters and fixed 0-3 by leaf 0x23.1,
# INDEX.tsv), with stale counts in every counter (FC3 0x2000 and
# PERF_METRICS 0x1f3a5c47 among them) and nothing counting
# (IA32_FIXED_CTR_CTRL 0, selects 0): IA32_PERF_CAPABILITIES = bit 13
# (full-width writes) | bit 15 (PERF_METRICS) | bit 19 (RDPMC
# metrics-clear, linux 0e45818ec189) = 0x8a000, IA32_PERF_GLOBAL_CTRL the
# kernel's idle intel_ctrl 0x3ff | 0xf << 32 | 1 << 48 = 0x1000f000003ff.
# In metrics-clear mode bench programs IA32_FIXED_CTR_CTRL 0x7000 (FC3's
# field OS | USR | bit 14, INTEL_FIXED_3_METRICS_CLEAR; linux commit
# 0e45818ec189), and each RDPMC of PERF_METRICS clears PERF_METRICS and
# FC3: both must come back to 0x2000 and 0x1f3a5c47.
#
# BARETMA_FI_TRIALS (default 3) trials per signal, BARETMA_FI_SEED (1).
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

[ -x "${BARETMA_HOOKS:-}" ] || skip_all "no test build of the tool (t/baretma-hooks)"
FI=${BARETMA_FI_KILL:-$(dirname "$BARETMA_HOOKS")/fi-kill}
[ -x "$FI" ] || skip_all "no fault injector $FI (make check builds it)"
LNL=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test
[ -r "$LNL" ] || skip_all "no Lunar Lake dump $LNL"
TRIALS=${BARETMA_FI_TRIALS:-3}
SEED=${BARETMA_FI_SEED:-1}

{
	i=0
	while [ "$i" -lt 10 ]; do
		printf '0 0x%x 0x0\n0 0x%x 0x%x\n0 0x%x 0x%x\n' $((0x186 + i)) \
			$((0xc1 + i)) $((0x100 + i)) $((0x4c1 + i)) $((0x100 + i))
		i=$((i + 1))
	done
	printf '0 0x309 0x11\n0 0x30a 0x22\n0 0x30b 0x33\n0 0x30c 0x2000\n0 0x329 0x1f3a5c47\n'
	printf '0 0x345 0x8a000\n0 0x38d 0x0\n0 0x38e 0x0\n0 0x38f 0x1000f000003ff\n'
	printf '0 0x390 0x0\n0 0x391 0x0\n0 0x392 0x0\n'
} >"$tmp/orig"
# t/0992's profile (ghz 0: only the accesses and test-sim-work count)
cat >"$tmp/p" <<EOF2
ghz 0
access_cycles 1000
work_cycles 4000
retiring 60
bad_speculation 20
frontend_bound 20
backend_bound 0
heavy_operations 40
branch_mispredicts 20
fetch_latency 20
memory_bound 0
state $tmp/state
EOF2
BARETMA_MSR=sim:$tmp/p
BARETMA_CPUID_DUMP=$LNL
export BARETMA_MSR BARETMA_CPUID_DUMP

setup() {
	cp "$tmp/orig" "$tmp/state"
	rm -f "$tmp/trace" "$BARETMA_STATE_DIR"/*.journal "$BARETMA_STATE_DIR"/.*.tmp
	: >"$tmp/trace"
}
journals() { ls "$BARETMA_STATE_DIR" 2>/dev/null | grep -c 'journal$'; }
bench() {
	BARETMA_TEST_HOOKS=1 BARETMA_MSR_TRACE=$tmp/trace "$@" "$BARETMA_HOOKS" bench \
		--backend rdpmc --cpu 0 --kernel test-sim-work --reps 40 --warmup 0
}

# --- a whole run ----------------------------------------------------------------
setup
st=0
bench >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 0 "LNL P-core: bench --backend rdpmc on the state file exits 0 (no --force)"
like "$(cat "$tmp/out")" "metrics-clear regions" "the run used metrics-clear regions"
is "$(awk '$1 == "wr" && $3 == "0x38d" { printf "%s ", $4 }' "$tmp/trace")" "0x7000 0x0 " \
	"IA32_FIXED_CTR_CTRL programmed 0x7000 (bit 14), then put back"
# what msr/pmu/pmu.h programs (the kernel's order): FC3, PERF_METRICS,
# FIXED_CTR_CTRL, GLOBAL_CTRL and the write-1-to-clear GLOBAL_STATUS_RESET
is "$(awk '$1 == "wr" { print $3 }' "$tmp/trace" | sort -u | tr '\n' ' ')" \
	"0x30c 0x329 0x38d 0x38f 0x390 " \
	"the registers it wrote: fixed counter 3, PERF_METRICS, the controls, the status reset"
cmp -s "$tmp/state" "$tmp/orig"; is "$?" 0 "after the run: every register byte for byte as found"
is "$(journals)" 0 "no journal left"
L=$(wc -l <"$tmp/trace")
ok "$([ "$L" -gt 100 ]; echo $?)" "a whole run is $L trace lines (the kill points' range)"

# --- killed mid-run by SIGKILL: the file shows the run, pmu restore undoes it -----
setup
BARETMA_TEST_HOOKS=1 BARETMA_MSR_TRACE=$tmp/trace "$FI" "$tmp/trace" $((L / 2)) 9 0 -- \
	"$BARETMA_HOOKS" bench --backend rdpmc --cpu 0 --kernel test-sim-work --reps 40 \
	--warmup 0 >/dev/null 2>&1 </dev/null
like "$(grep '^0 0x38d ' "$tmp/state")" "^0 0x38d 0x7000\$" \
	"killed mid-run: the file holds FIXED_CTR_CTRL 0x7000 (the comparison sees the run)"
is "$(journals)" 1 "killed mid-run: its journal is left"
env -u BARETMA_CPUID_DUMP "$BARETMA" pmu restore --cpuid-dump "$LNL" >"$tmp/restore" 2>&1
is "$?" 0 "pmu restore --cpuid-dump LNL exits 0"
cmp -s "$tmp/state" "$tmp/orig"; is "$?" 0 "after pmu restore: byte for byte as found"

# --- killed at random points, then pmu restore ------------------------------------
awk -v s="$SEED" -v n=$((TRIALS * 3)) 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.6f\n", rand() }' \
	>"$tmp/rand"
k=0
for sig in TERM INT KILL; do
	n=$(case $sig in TERM) echo 15 ;; INT) echo 2 ;; KILL) echo 9 ;; esac)
	t=1
	while [ "$t" -le "$TRIALS" ]; do
		setup
		k=$((k + 1))
		line=$(sed -n "${k}p" "$tmp/rand" | awk -v l="$L" '{ printf "%d", 1 + $1 * l * 1.05 }')
		how=$(BARETMA_TEST_HOOKS=1 BARETMA_MSR_TRACE=$tmp/trace "$FI" "$tmp/trace" "$line" "$n" 0 -- \
			"$BARETMA_HOOKS" bench --backend rdpmc --cpu 0 --kernel test-sim-work --reps 40 \
			--warmup 0 2>"$tmp/err" </dev/null)
		left=$(journals)
		rrc=0
		if [ "$left" != 0 ]; then
			env -u BARETMA_CPUID_DUMP "$BARETMA" pmu restore --cpuid-dump "$LNL" \
				>"$tmp/restore" 2>&1 || rrc=$?
		fi
		cmp -s "$tmp/state" "$tmp/orig"; same=$?
		if [ "$rrc" = 0 ] && [ "$same" = 0 ] && [ "$(journals)" = 0 ]; then
			ok 0 "SIG$sig at line $line ($(echo "$how" | head -1); journal left: $left): as found"
		else
			ok 1 "SIG$sig at line $line ($(echo "$how" | head -1); journal left: $left): as found"
			echo "#   restore exit $rrc, state same: $same, journals: $(journals)"
			diff "$tmp/orig" "$tmp/state" | sed 's/^/#   /' | head -10
			sed 's/^/#   /' "$tmp/restore" "$tmp/err" 2>/dev/null | head -6
		fi
		t=$((t + 1))
	done
done
done_testing
