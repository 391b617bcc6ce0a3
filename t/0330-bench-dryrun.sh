#!/bin/sh
# t/0330-bench-dryrun - bench through the state-file backend with an Ice Lake
# CPUID dump: it programs fixed counter 3 and PERF_METRICS in the order of
# the kernel (linux arch/x86/events/intel/core.c intel_pmu_disable_all,
# icl_set_topdown_event_period, intel_pmu_enable_all), restores every
# register byte for byte, also when killed
# by SIGTERM mid-run, and refuses when fixed counter 3 is in use.
. "$T_SRC/tap.sh"

icl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"
[ -f "$icl" ] || skip_all "no ../shared/cpuid (Ice Lake dump needed)"
state="$tmp/state"
cat >"$state" <<'EOS'
1 0x38f 0x70000000f
1 0x38d 0x333
1 0x30c 0x1234
1 0x329 0x5566
1 0x390 0x0
1 0x38e 0x0
1 0x345 0x000000000000f4c5
1 0x186 0x0
1 0x187 0x0
1 0x188 0x0
1 0x189 0x0
1 0x18a 0x0
1 0x18b 0x0
1 0x18c 0x0
1 0x18d 0x0
1 0x392 0x0
EOS
for i in 0 1 2 3 4 5 6 7; do
	printf '1 0x%x 0x0\n1 0x%x 0x0\n' $((0xc1 + i)) $((0x4c1 + i))
done >>"$state"
# (IA32_PERFEVTSEL0-7 and IA32_PERF_GLOBAL_INUSE: what the ownership check
# reads on this arch perfmon v5 part with 8 GP counters, after PCM's PMUinUse;
# IA32_PMC0-7 and their full-width aliases IA32_A_PMC0-7, PERF_CAPABILITIES
# bit 13: the counters of the two events Ice Lake's recipe counts beside
# PERF_METRICS, msr/recipe/recipes_intel_pm.c)
cp "$state" "$tmp/orig"
export BARETMA_MSR="state:$state"

BARETMA_MSR_TRACE="$tmp/trace" "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr \
	--kernel retire-light --reps 5 --warmup 1 >"$tmp/out" 2>&1; rc=$?
is "$rc" 0 "dry run on the state backend exits 0"
cmp -s "$state" "$tmp/orig"; ok $? "every register restored byte for byte"
# Hand-worked from the kernel's order (linux arch/x86/events/intel/core.c) on the values above:
#  GLOBAL_CTRL=0; FIXED_CTR_CTRL = 0x333 | 0x3<<12 = 0x3333; FC3=0; PERF_METRICS=0;
#  STATUS_RESET = 1<<35 | 1<<48 = 0x1000800000000;
#  GLOBAL_CTRL = 0x7_0000_000f (FC0-2 bits 32-34, PMC0-3) | bit 35 | bit 48 = 0x1_000f_0000_000f
writes=$(grep '^wr' "$tmp/trace" | head -6 | tr '\n' ';')
is "$writes" "wr 1 0x38f 0x0;wr 1 0x38d 0x3333;wr 1 0x30c 0x0;wr 1 0x329 0x0;wr 1 0x390 0x1000800000000;wr 1 0x38f 0x1000f0000000f;" \
	"programming writes, in the kernel's order"
# Then the recipe's two events (msr/pmu/pmu_gp.h; linux perf_event.h
# ARCH_PERFMON_EVENTSEL_*), frozen:
#  IA32_A_PMC0-1 = 0; PERFEVTSEL0 = INT_MISC.UOP_DROPPING 0x0D/0x10 | USR
#  (bit 16) | OS (17) | EN (22) = 0x43100d; PERFEVTSEL1 =
#  INT_MISC.CLEARS_COUNT 0x0D/0x01 | USR | OS | EDGE (18) | EN | CMASK 1
#  (bits 31:24) = 0x147010d; STATUS_RESET bits 0-1 = 0x3; GLOBAL_CTRL
#  again 0x1000f0000000f (PMC0-1 among the firmware's 0xf)
gp=$(grep '^wr' "$tmp/trace" | sed -n 7,13p | tr '\n' ';')
is "$gp" "wr 1 0x38f 0x0;wr 1 0x4c1 0x0;wr 1 0x4c2 0x0;wr 1 0x186 0x43100d;wr 1 0x187 0x147010d;wr 1 0x390 0x3;wr 1 0x38f 0x1000f0000000f;" \
	"the events' programming writes"
# Restore (as msr/pmu/pmu.h says): freeze, the saved values, clear
# the overflow bits the run may have caused (35 | 48), GLOBAL_CTRL last.
# The events' registers too (their saved 0s), and their overflow bits 0-1.
restore=$(grep '^wr' "$tmp/trace" | tail -10 | tr '\n' ';')
is "$restore" "wr 1 0x38f 0x0;wr 1 0x38d 0x333;wr 1 0x30c 0x1234;wr 1 0x329 0x5566;wr 1 0x4c1 0x0;wr 1 0x4c2 0x0;wr 1 0x186 0x0;wr 1 0x187 0x0;wr 1 0x390 0x1000800000003;wr 1 0x38f 0x70000000f;" \
	"restore writes: frozen first, overflow bits cleared, GLOBAL_CTRL last"
# Each repetition resets FC3 then PERF_METRICS outside the bracket: the
# empty bracket and retire-light run 1 warm-up + 5 reps each: 1 + 2*6 = 13.
is "$(grep -c '^wr 1 0x30c 0x0$' "$tmp/trace")" 13 "FC3 reset once at programming and once per repetition (1 + 2*6)"
is "$(grep -c '^wr 1 0x329 0x0$' "$tmp/trace")" 13 "PERF_METRICS reset right after each FC3 reset"
# The state file's counters do not move: no slots, so no numbers, never zeros.
like "$(cat "$tmp/out")" "no valid repetition" "static counters give no Top-down numbers"
unlike "$(cat "$tmp/out")" " 0\.00 \[" "and no zero percentages"

# SIGTERM mid-run: a long run killed after it programmed the CPU.
"$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr --kernel retire-light \
	--reps 1000000 --warmup 0 >/dev/null 2>&1 &
pid=$!
until_true grep -q '^1 0x38d 0x3333$' "$state"; ok $? "long run programmed FC3 before the signal"
kill -TERM $pid; wait $pid; rc=$?
is "$rc" 143 "killed by SIGTERM (status 128+15)"
cmp -s "$state" "$tmp/orig"; ok $? "SIGTERM mid-run: every register restored"
is "$(ls "$BARETMA_STATE_DIR" | grep -c 'journal$')" 0 "SIGTERM mid-run: no journal left"

# Fixed counter 3 in use: refuse, write nothing.
sed 's/^1 0x38d 0x333$/1 0x38d 0x2333/' "$tmp/orig" >"$state"; cp "$state" "$tmp/busy"
BARETMA_MSR_TRACE="$tmp/trace2" "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 >"$tmp/out" 2>&1; rc=$?
is "$rc" 75 "FC3 in use exits 75 (EX_TEMPFAIL)"
like "$(cat "$tmp/out")" "cpu 1: fixed counter 3 / PERF_METRICS in use: IA32_FIXED_CTR_CTRL\[15:12\]=0x2" \
	"message says FC3 is in use on cpu 1, and how"
is "$(grep -c '^wr' "$tmp/trace2")" 0 "no register written when FC3 is in use"
cmp -s "$state" "$tmp/busy"; ok $? "state unchanged when refused"
"$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr --kernel retire-light --reps 3 --force >/dev/null 2>&1; rc=$?
is "$rc" 0 "--force takes over"
cmp -s "$state" "$tmp/busy"; ok $? "--force still restores the previous owner's values"

# A register the CPU refuses (no IA32_PERF_GLOBAL_STATUS_RESET line: a #GP,
# EIO): the message names the register, the value (1<<35 | 1<<48) and the
# CPU; the rollback puts every register back, each once.
grep -v '^1 0x390 ' "$tmp/orig" >"$state"; cp "$state" "$tmp/no390"
: >"$tmp/trace4"
out=$(BARETMA_MSR_TRACE="$tmp/trace4" "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 69 "a register refused mid-programming: exit 69"
like "$out" "bench: cannot write IA32_PERF_GLOBAL_STATUS_RESET \(0x390\) = 0x1000800000000 on cpu 1 through '$state': Input/output error" \
	"bench names the register, the value and the CPU"
is "$(sed -n '/^wr 1 0x390 .* EIO$/,$p' "$tmp/trace4" | sed 1d | grep '^wr' | tr '\n' ';')" \
	"wr 1 0x38f 0x0;wr 1 0x38d 0x333;wr 1 0x30c 0x1234;wr 1 0x329 0x5566;wr 1 0x390 0x1000800000000 EIO;wr 1 0x38f 0x70000000f;" \
	"rollback: each saved register once, GLOBAL_CTRL frozen first and last (the overflow clear tried, best effort)"
cmp -s "$state" "$tmp/no390"; ok $? "rollback: state as found"

# Skylake: no fixed counter 3, but its Top-down comes from the event recipe
# intel-pre-icl-l1 on the general-purpose counters: a state file without
# IA32_PERFEVTSEL0 (0x186) cannot serve it -> 69 naming that register,
# nothing written.
skl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_6th_gen/skylake-i5.test"
cp "$tmp/orig" "$state"
# (the Skylake dump describes one logical CPU: cpu 0)
printf '0 0x38f 0x70000000f\n0 0x38d 0x333\n0 0x30c 0x0\n' >"$state"; cp "$state" "$tmp/skl"
out=$(BARETMA_MSR_TRACE="$tmp/trace3" "$BARETMA" bench --cpuid-dump "$skl" --cpu 0 --backend msr --reps 3 2>&1); rc=$?
is "$rc" 69 "Skylake with --backend msr exits 69"
like "$out" "cannot read IA32_PERFEVTSEL0 through '$state'" "Skylake: the recipe's first event select cannot be read, named"
is "$(cat "$tmp/trace3" 2>/dev/null | grep -c '^wr')" 0 "nothing written on Skylake"
cmp -s "$state" "$tmp/skl"; ok $? "Skylake: state unchanged"

# Tremont (Jasper Lake): no fixed counter 3, the E-core event recipe
# (intel-ecore-l1:tremont) -> as the Skylake: its first event select
# cannot be read through the state file, refused, nothing written.
tnt="$SHARED_CPUID/libcpuid/v0.6.2/intel/tremont/jasper-lake-celeron.test"
: >"$tmp/trace3"
out=$(BARETMA_MSR_TRACE="$tmp/trace3" "$BARETMA" bench --cpuid-dump "$tnt" --cpu 0 --backend msr --reps 3 2>&1); rc=$?
is "$rc" 69 "Tremont with --backend msr exits 69"
like "$out" "cannot read IA32_PERFEVTSEL0 through '$state'" \
	"Tremont: the recipe's first event select cannot be read, named"
is "$(grep -c '^wr' "$tmp/trace3")" 0 "nothing written on Tremont"
cmp -s "$state" "$tmp/skl"; ok $? "Tremont: state unchanged"
done_testing
