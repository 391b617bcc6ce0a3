#!/bin/sh
# t/0386-guard-overflow.sh - what a run does between two repetitions, read
# from the MSR trace of a bench on the Ice Lake fixture (t/guard-fixture.sh):
#   - every reset of fixed counter 3 and PERF_METRICS is done with both
#     frozen: the kernel never resets them live (intel_pmu_read_topdown_event
#     wraps the update in perf_pmu_disable/enable; icl_update_topdown_event:
#     "PMU has to be disabled before calling this function");
#   - IA32_PERF_GLOBAL_STATUS is read after every repetition; bit 35 (FC3)
#     or 48 (OVF_PERF_METRICS) set makes that repetition invalid
#     ("overflow"), and the next reset clears exactly those bits through
#     IA32_PERF_GLOBAL_STATUS_RESET (write 1 to clear) inside its frozen
#     window, before zeroing FC3 then PERF_METRICS (intel_pmu_ack_status;
#     linux commit 59a854e2f3b9);
#   - a change of the counters by someone else at a known repetition makes
#     exactly the repetitions from there on tampered.
# The hidden kernels test-overflow / test-tamper (BARETMA_TEST_HOOKS=1, in
# t/baretma-hooks: the tool as make check builds it)
# play the hardware / another program at known repetitions, so every count
# below is exact whatever the machine's speed.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/guard-fixture.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"

# Hand-worked values (linux perf_event.h INTEL_PMC_IDX_FIXED,
# GLOBAL_CTRL_EN_PERF_METRICS; the fixture's registers):
#   programmed GLOBAL_CTRL = 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f
#   Ice Lake's recipe counts two events beside them on GP counters 0-1
#   (msr/recipe/recipes_intel_pm.c; reset through IA32_A_PMC0-1, 0x4c1-0x4c2), and
#   its reset freezes those too (msr/pmu/pmu_gp.h gp_reset_with_metrics):
#   frozen     GLOBAL_CTRL = 0x1000f0000000f & ~(1<<35 | 1<<48 | 0x3) = 0x70000000c
#   bit 48 = 0x1000000000000, bit 35 = 0x800000000, both = 0x1000800000000;
#   PMC0-1's bits 0x3
PROG=0x1000f0000000f
FROZEN=0x70000000c

# --- 1. frozen resets --------------------------------------------------------
fixture
printf '0\n' >"$WD"
BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 --warmup 2 >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "a plain run exits 0"
# Walk the writes: remember the last GLOBAL_CTRL written; every FC3 or
# PERF_METRICS write must happen while it has bits 35 and 48 clear.
live=$(awk -v prog="$PROG" '
	$1 == "wr" && $3 == "0x38f" { gc = $4; next }
	$1 == "wr" && ($3 == "0x30c" || $3 == "0x329") && gc == prog { n++ }
	END { print n + 0 }' "$tmp/trace")
is "$live" 0 "no write of FC3 or PERF_METRICS while GLOBAL_CTRL enables them"
# 2 kernels (empty, retire-light) x (2 warm-up + 3) repetitions = 10 resets,
# each the six writes: freeze, A_PMC0 = 0, A_PMC1 = 0, FC3 = 0, PERF_METRICS
# = 0, re-enable.
resets=$(awk -v prog="$PROG" -v frozen="$FROZEN" '
	$1 != "wr" { next }
	{ w[n++] = $3 " " $4 }
	END {
		for (i = 0; i + 5 < n; i++)
			if (w[i] == "0x38f " frozen && w[i+1] == "0x4c1 0x0" && w[i+2] == "0x4c2 0x0" &&
			    w[i+3] == "0x30c 0x0" && w[i+4] == "0x329 0x0" && w[i+5] == "0x38f " prog) c++
		print c + 0 }' "$tmp/trace")
is "$resets" 10 "every repetition's reset: freeze, the events' counters, FC3 = 0, PERF_METRICS = 0, re-enable (2 x 5)"
is "$(grep -c '^rd 1 0x38e 0x0$' "$tmp/trace")" 11 \
	"GLOBAL_STATUS read after every repetition (10) and once before measuring"
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file byte for byte as found"

# The hidden kernels are in t/baretma-hooks only, the tool as make check
# builds it (bench/kernels_hooks.c); run by hand without it, say so.
if [ ! -x "${BARETMA_HOOKS:-}" ]; then
	skip "overflow and tampering at known repetitions: no t/baretma-hooks (the test build of the tool: make check builds it)"
	done_testing
fi

# --- 2. overflow -------------------------------------------------------------
# test-overflow, call i: bit 48 if i % 3 == 0, bit 35 if i % 3 == 1, nothing
# if i % 3 == 2.  6 repetitions, no warm-up: calls 0..5 -> overflow after
# repetitions 0, 1, 3, 4 (4 of 6); the other two are invalid for zero slots
# (the state file's counters do not count).
fixture
printf '0\n' >"$WD"
BARETMA_TEST_HOOKS=1 BARETMA_MSR_TRACE=$tmp/trace2 "$BARETMA_HOOKS" bench --cpuid-dump "$ICL" \
	--cpu 1 --backend msr --kernel test-overflow --reps 6 --warmup 0 --json \
	>"$tmp/out.json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "a run with overflows exits 0 (nobody else touched the counters)"
is "$(pyq 'import json, sys
d = json.load(open(sys.argv[1]))
k = [k for k in d["kernels"] if k["name"] == "test-overflow"][0]
e = [k for k in d["kernels"] if k["name"] == "empty"][0]
r = k["invalid_reasons"]
print(k["overflow"], k["invalid"], r["overflow"], r["zero_slots"], r["tampered"], e["overflow"],
      d["overflow"]["samples"], "overflow" in k["topdown_reason"])' "$tmp/out.json")" \
	"4 6 4 2 0 0 4 True" \
	"JSON: 4 of 6 repetitions overflow, the other 2 zero slots; none in empty; run total 4"
# (FC3 and PERF_METRICS are counters of the recipe: its overflow warning)
like "$(cat "$tmp/err")" "warning: cpu 1: a counter of recipe intel-perf-metrics:sunny-cove overflowed \(its bit of the global status\) after 4 samples" \
	"stderr: the overflow warning with its count"
# The GLOBAL_STATUS_RESET writes, in order: programming clears both
# (0x1000800000000), then the events' PMC0-1 (0x3); the resets after
# repetitions 0 (bit 48), 1 (bit 35), 3 (bit 48), 4 (bit 35); the restore
# clears all four (0x1000800000003).
is "$(grep '^wr 1 0x390 ' "$tmp/trace2" | cut -d' ' -f4 | tr '\n' ' ')" \
	"0x1000800000000 0x3 0x1000000000000 0x800000000 0x1000000000000 0x800000000 0x1000800000003 " \
	"STATUS_RESET: at programming, exactly the bits seen after each overflow, at restore"
# Each clear inside a frozen window, before FC3 is zeroed: freeze, clear,
# A_PMC0-1 = 0, FC3 = 0, PERF_METRICS = 0, re-enable.
inside=$(awk -v prog="$PROG" -v frozen="$FROZEN" '
	$1 != "wr" { next }
	{ w[n++] = $3 " " $4 }
	END {
		for (i = 1; i + 5 < n; i++)
			if (w[i] ~ /^0x390 / && w[i-1] == "0x38f " frozen && w[i+1] == "0x4c1 0x0" &&
			    w[i+2] == "0x4c2 0x0" && w[i+3] == "0x30c 0x0" && w[i+4] == "0x329 0x0" &&
			    w[i+5] == "0x38f " prog) c++
		print c + 0 }' "$tmp/trace2")
is "$inside" 4 "each overflow cleared with the counters frozen, before FC3 then PERF_METRICS are zeroed"
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file byte for byte as found (GLOBAL_STATUS back to 0)"
is "$(journals)" "" "no journal left"

# --- 3. tampering at a known repetition --------------------------------------
# test-tamper clears FC3's field (0x3333 -> 0x333) during call 2: with no
# warm-up, repetitions 0 and 1 are clean; 2 (check after it fails) and 3, 4
# (checks before them fail) are tampered: 3 of 5.
fixture
printf '0\n' >"$WD"
BARETMA_TEST_HOOKS=1 "$BARETMA_HOOKS" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel test-tamper --reps 5 --warmup 0 --json >"$tmp/out3.json" 2>"$tmp/err3"; rc=$?
is "$rc" 75 "a tampered run exits 75"
is "$(pyq 'import json, sys
d = json.load(open(sys.argv[1]))
k = [k for k in d["kernels"] if k["name"] == "test-tamper"][0]
print(k["tampered"], k["invalid_reasons"]["tampered"], k["invalid"], d["tamper"]["detected"])' "$tmp/out3.json")" \
	"3 3 5 True" "JSON: exactly repetitions 2, 3, 4 tampered"
like "$(cat "$tmp/err3")" "cpu 1: IA32_FIXED_CTR_CTRL changed from 0x3333 to 0x0333 during kernel test-tamper" \
	"stderr: the register, what baretma wrote and what it found, the kernel"
# The tamper kernel's own write is the change; the restore puts back what
# baretma found before it started.
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file byte for byte as found"

# --- 4. the hidden kernels never touch a real msr device ---------------------
out=$(BARETMA_TEST_HOOKS=1 BARETMA_MSR=/nonexistent/%u/msr "$BARETMA_HOOKS" bench --cpuid-dump "$ICL" \
	--cpu 1 --backend tsc --kernel test-overflow --reps 1 2>&1); rc=$?
ok $([ "$rc" -ne 0 ] && echo 0 || echo 1) "test-overflow refuses to run without a state file (exit $rc)"

done_testing
