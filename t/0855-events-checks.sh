#!/bin/sh
# t/0855-events-checks.sh - the checks between repetitions of an event
# recipe (msr/pmu/pmu_gp.h gp_read_overflow, gp_reset, gp_verify) on an Alder
# Lake E-core and a Zen 4, their registers in plain state files (t/0852's:
# an idle Linux PMU), with the hidden kernels that play the hardware or
# another program at known repetitions (bench/kernels_hooks.c; state-file
# backend only, t/baretma-hooks):
#   test-overflow-gp  general-purpose counter 0's overflow bit set (through
#                     IA32_PERF_GLOBAL_STATUS_SET / AMD's
#                     PERF_CNTR_GLOBAL_STATUS_SET) at calls 0, 2, 4;
#   test-tamper-gp    counter 0's event select loses its enable bit (22)
#                     at call 2.
# A state file's counters never move: every repetition not otherwise
# invalid counts zero slots.  So with 6 repetitions and no warm-up:
#   overflow: calls 0, 2, 4 -> 3 overflow, 1, 3, 5 -> 3 zero slots; the
#     reset before the next repetition clears the bit (write-1-to-clear),
#     so the global status ends 0 and the file is as found;
#   tamper: the check after call 2 and every one after it see the select
#     changed (nothing reprograms it) -> repetitions 2-5 tampered (4), 0
#     and 1 zero slots (2); exit 75 (tampered), the select put back.
# Counter 0 is the recipe's at level 1 on both: 3 (E-core) or 6 (Zen 4)
# GP events, assigned from counter 0 up (gp_assign: the lowest free).
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/events-fixture.sh"
events_dumps "$ADLS" "$ZEN4"

ecore_regs() {
	for i in 0 1 2 3 4 5; do
		printf '%s 0x%x 0x0\n%s 0x%x 0x0\n%s 0x%x 0x0\n' "$1" $((0x186 + i)) "$1" \
			$((0xc1 + i)) "$1" $((0x4c1 + i))
	done
	printf '%s 0x309 0x0\n%s 0x30a 0x0\n%s 0x30b 0x0\n%s 0x345 0x2000\n' "$1" "$1" "$1" "$1"
	printf '%s 0x38d 0x0\n%s 0x38e 0x0\n%s 0x38f 0x70000003f\n%s 0x390 0x0\n' "$1" "$1" "$1" "$1"
	printf '%s 0x391 0x0\n%s 0x392 0x0\n' "$1" "$1"
}
zen4_regs() {
	printf '0 0xc0000300 0x0\n0 0xc0000301 0x3f\n0 0xc0000302 0x0\n0 0xc0000303 0x0\n'
	for i in 0 1 2 3 4 5; do
		printf '0 0x%x 0x0\n0 0x%x 0x0\n' $((0xc0010200 + 2 * i)) $((0xc0010201 + 2 * i))
	done
}

# q FILE EXPR over the document d and the hidden kernel's result k
q() {
	pyq - "$1" "$2" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
k = [x for x in d["kernels"] if x["name"].startswith("test-")][0]
print(eval(sys.argv[2]))
EOP
}

for m in ecore zen4; do
	case $m in
	ecore) dump=$ADLS cpu=$ecore recipe=intel-ecore-l1:gracemont reg=IA32_PERFEVTSEL0
		ecore_regs "$ecore" >"$tmp/orig" ;;
	zen4) dump=$ZEN4 cpu=0 recipe=amd-zen4:zen4 reg=PERF_CTL0
		zen4_regs >"$tmp/orig" ;;
	esac
	for k in overflow tamper; do
		cp "$tmp/orig" "$tmp/state"
		BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$dump BARETMA_MSR=state:$tmp/state \
			"$BARETMA_HOOKS" bench --backend msr --cpu "$cpu" --kernel test-$k-gp --reps 6 \
			--warmup 0 --level 1 --json >"$tmp/out" 2>"$tmp/err"; rc=$?
		r=$(q "$tmp/out" 'k["invalid_reasons"]')
		if [ "$k" = overflow ]; then
			is "$rc" 0 "$m: overflow: exit 0 (an overflow is said, not fatal)"
			is "$r" "{'tampered': 0, 'overflow': 3, 'slots_back': 0, 'l1_sum': 0, 'zero_slots': 3, 'below_bracket': 0}" \
				"$m: overflow at calls 0, 2, 4: 3 overflow, 3 zero slots"
			like "$(q "$tmp/out" 'd["overflow"]["message"]')" \
				"^cpu $cpu: a counter of recipe $recipe overflowed \\(its bit of the global status\\) after 3 samples" \
				"$m: the message names the recipe"
		else
			is "$rc" 75 "$m: tamper: exit 75 (tampered)"
			is "$r" "{'tampered': 4, 'overflow': 0, 'slots_back': 0, 'l1_sum': 0, 'zero_slots': 2, 'below_bracket': 0}" \
				"$m: the select changed at call 2: 4 tampered, 2 zero slots"
			like "$(q "$tmp/out" 'd["tamper"]["message"]')" \
				"^cpu $cpu: $reg \\(0x[0-9a-f]+\\) is 0x[0-9a-f]+, programmed 0x[0-9a-f]+ during kernel test-tamper-gp" \
				"$m: the message names $reg with both values"
		fi
		cmp -s "$tmp/state" "$tmp/orig"; ok $? "$m: $k: every register byte for byte as found"
	done
done
like "$(q "$tmp/out" 'k["topdown_reason"]')" "2 zero slots \\(the recipe's cycles did not count\\)" \
	"a zero-slots repetition of an event recipe says its cycles did not count"

done_testing
