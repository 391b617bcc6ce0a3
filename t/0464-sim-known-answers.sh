#!/bin/sh
# t/0464-sim-known-answers.sh - the simulated PMU (msr/sim/msr_sim.h) takes the
# machine's facts from the same model table as the code it tests
# (cpu/cpu_models.c: the pipeline width, PERF_METRICS and its level, which
# fixed counters a hybrid P-core has), so a check of the code against the
# simulator cannot find a wrong table entry.  Here the simulator's registers
# and counts are checked against sources outside the project instead:
#   - $SHARED_CPUID/INDEX.tsv, the real dumps' known answers: expect_perf_metrics
#     and expect_topdown_levels (the Linux kernel's per-model setup:
#     arch/x86/events/intel/core.c intel_pmu_init, read at linux-next
#     2bab8c4655ca: intel_icl_event_constraints has fixed counter 3 SLOTS and
#     the metric events 0-3, intel_glc_event_constraints 0-7), the leafA_*
#     columns (CPUID leaf 0xA decoded), parsed at run time;
#   - the kernel's ADL/RPL counter rule for a hybrid P-core whose leaf 0xA
#     shows the P/E common subset (intel_pmu_init, case INTEL_ALDERLAKE:
#     GP mask << 2 | 3, fixed mask << 1 | 1; as t/0201 quotes it);
#   - pipeline widths from andikleen/pmu-tools (commit 2568760ffc93)
#     Pipeline_Width: icl_client_ratios.py 5, spr_server_ratios.py 6,
#     adl_glc_ratios.py 6 (Golden Cove), adl_grt_ratios.py 5 (Gracemont);
#   - IA32_PERF_CAPABILITIES bit 19 (RDPMC metrics clear) only from Lion Cove
#     (linux 0e45818ec189): never on these parts.
# The simulator counts with the table's width and enumerates with the
# table's level: a wrong entry fails here.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/sim-fixture.sh"

INDEX=$SHARED_CPUID/INDEX.tsv
[ -r "$INDEX" ] || skip_all "no $INDEX"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
printf 'heavy_operations 10\nbranch_mispredicts 5\nfetch_latency 12\nmemory_bound 18\n' >>"$tmp/p"

# known DUMP CPU KIND: the outside sources' answers for CPU of DUMP (KIND:
# general, pcore or ecore), "GLOBAL_CTRL CAP15 CAP19 PERF_METRICS LEVEL2 WIDTH"
known() {
	pyq - "$INDEX" "${1#$SHARED_CPUID/}" "$3" <<'EOP'
import csv, sys
rows = {r["file"]: r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")}
r, kind = rows[sys.argv[2]], sys.argv[3]
width = {"Ice Lake-L": 5, "Sapphire Rapids": 6, "Alder Lake-P/H": 6}[r["uarch"]]
gp = (1 << int(r["leafA_gp_counters"])) - 1
fixed = int(r["leafA_ecx_fixed_mask"], 16) | ((1 << int(r["leafA_fixed_counters"])) - 1)
metrics = r["expect_perf_metrics"].startswith("yes")
level = int(r["expect_topdown_levels"])
if kind == "pcore":            # the kernel's ADL rule
    gp, fixed = gp << 2 | 3, fixed << 1 | 1
if kind == "ecore":            # E-cores never have PERF_METRICS nor fixed counter 3
    metrics, level, width = False, 0, "-"   # (INDEX.tsv notes): no slots to count
gc = gp | fixed << 32 | (1 << 48 if metrics else 0)
print("0x%x %d 0 %s %s %s" % (gc, metrics, "yes" if metrics else "no",
                              "yes" if level == 2 else "no", width))
EOP
}

# simulated DUMP CPU: the simulator's answers, in the same order
simulated() {
	reg() {
		BARETMA_CPUID_DUMP=$1 BARETMA_MSR=sim:$tmp/p "$BARETMA" msr read "$2" "$3" 2>/dev/null |
			sed -n 's/.* = //p'
	}
	gc=$(reg "$1" "$2" IA32_PERF_GLOBAL_CTRL)
	caps=$(reg "$1" "$2" IA32_PERF_CAPABILITIES)
	pm=$(reg "$1" "$2" IA32_PERF_METRICS)
	BARETMA_CPUID_DUMP=$1 BARETMA_MSR=sim:$tmp/p "$BARETMA" validate --cpu "$2" --no-perf --json \
		>"$tmp/out" 2>/dev/null
	# bytes 4-7 of PERF_METRICS after a region (metrics_follow_fc3), and
	# TOPDOWN.SLOTS / CPU_CLK_UNHALTED.THREAD (slots_per_cycle)
	l2=$(q '"yes" if int(([c["measured"] for c in d["checks"] if c["check"] == "metrics_follow_fc3"] + ["0x0"])[0] or "0x0", 16) >> 32 else "no"')
	w=$(q '([("%g" % float(c["measured"].split()[0])) if c["status"] == "PASS" else "-" for c in d["checks"] if c["check"] == "slots_per_cycle"] + ["-"])[0]')
	echo "$gc $(( caps >> 15 & 1 )) $(( caps >> 19 & 1 )) $([ -n "$pm" ] && echo yes || echo no) $l2 $w"
}

for c in "ICL 0 general" "SPR 0 general" "ADL 0 pcore" "ADL 12 ecore"; do
	set -- $c
	eval "dump=\$$1"
	echo "# $1 cpu $2: simulated $(simulated "$dump" "$2"), known $(known "$dump" "$2" "$3")"
	is "$(simulated "$dump" "$2")" "$(known "$dump" "$2" "$3")" \
		"$1 cpu $2 ($3): GLOBAL_CTRL, PERF_CAPABILITIES bits 15 and 19, PERF_METRICS, level 2, width as INDEX.tsv, the kernel and pmu-tools say"
done

# A real dump without counters (t/data/cpuid-emr-kvm-novpmu.txt: leaf 0xA
# all zero, as captured): no register at all (t/0450, t/0460).
EMR0=$T_DATA/cpuid-emr-kvm-novpmu.txt
is "$(awk '/^CPUID 0000000A:/ { print $3 }' "$EMR0" | sort -u)" "00000000-00000000-00000000-00000000" \
	"the EMR guest's dump: leaf 0xA all zero on every CPU"
st=0
BARETMA_CPUID_DUMP=$EMR0 BARETMA_MSR=sim:$tmp/p "$BARETMA" msr read 0 IA32_PERF_GLOBAL_CTRL \
	>/dev/null 2>&1 || st=$?
is "$st" 69 "the simulated EMR guest has no IA32_PERF_GLOBAL_CTRL"
done_testing
