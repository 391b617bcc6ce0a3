# t/sim-fixture.sh - what the shell tests of the simulated PMU
# (msr/sim/msr_sim.h) share (sourced after t/tap.sh): python3 for the JSON,
# the three real CPUID dumps they run on (skipping the test when one is
# missing), a private state directory, no trace or test hooks.
#   ICL  Ice Lake-L (family 6 model 0x7E): width 5, level 1
#   SPR  Sapphire Rapids (0x8F): width 6, level 2
#   ADL  Alder Lake-P (0x9A): P-cores 0-11 (width 6, level 2), E-cores 12-19
# (widths: andikleen/pmu-tools Pipeline_Width; levels and CPUs:
# $SHARED_CPUID/INDEX.tsv; t/0464 checks the simulator against them)
# q EXPR: a Python expression over the JSON document d in $tmp/out.
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
SPR=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/golden-cove/sapphire-rapids-ws-xeon-w9.test
ADL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test
for d in "$ICL" "$SPR" "$ADL"; do
	[ -r "$d" ] || skip_all "no CPUID dump $d"
done

BARETMA_STATE_DIR=$tmp/run
mkdir -p "$BARETMA_STATE_DIR"
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_MSR BARETMA_PERF BARETMA_CPUID_DUMP

pyq_start
q() { pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$tmp/out" "$1"; }
