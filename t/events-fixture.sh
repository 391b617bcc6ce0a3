# t/events-fixture.sh - what the shell tests of the event recipes share
# (sourced after t/tap.sh): python3 for the JSON, the test build of the
# tool, the real CPUID dumps they run on, a private state directory with
# no trace, backend or dump in the environment, and the first E-core of
# the Alder Lake-S dump.
#   ADLS  Alder Lake-S i9-12900K: P-cores and Gracemont E-cores
#   CLX   Cascade Lake Xeon (intel-pre-icl-l1, SMT)
#   ZEN4  EPYC 9124 (Genoa), ZEN5  Ryzen 9 9950X (PerfMonV2, 6 counters)
#   HSW   Haswell i7-4770 (intel-pre-icl-l1:haswell, 4 GP counters)
#   TNT   Jasper Lake Celeron N5100 (Tremont: intel-ecore-l1:tremont, 4 GP)
# (CPUs and kinds: $SHARED_CPUID/INDEX.tsv)
# events_dumps DUMP...: skip the test unless every DUMP can be read.
# $ecore: the Alder Lake-S dump's first CPU whose CPUID 0x1A EAX[31:24]
# is 0x20 (Atom); set by events_dumps when ADLS is among them.
# $sim_common: the profile lines the tests share (level 1 retiring 40,
# bad speculation 10, frontend 20; level 2 heavy 10, branch mispredicts 6,
# fetch latency 12; no time-based cycles: ghz 0), the backend's and
# memory bound's lines added by each test.
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
[ -x "${BARETMA_HOOKS:-}" ] || skip_all "no test build of the tool (t/baretma-hooks)"
ADLS=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test
CLX=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_6th_gen/xeon-clx.test
ZEN4=$SHARED_CPUID/libcpuid/master-history/amd/zen4/epyc-genoa.test
ZEN5=$SHARED_CPUID/libcpuid/master-history/amd/zen5/amd-ryzen-9-9950x-16-core-processor.test
HSW=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/haswell/intel-core-i7-4770-cpu.test
TNT=$SHARED_CPUID/libcpuid/v0.6.2/intel/tremont/jasper-lake-celeron.test

events_dumps() {
	for d in "$@"; do
		[ -r "$d" ] || skip_all "no CPUID dump $d"
	done
	case " $* " in
	*" $ADLS "*)
		ecore=$(awk '/Logical CPU #/ { c = $0; gsub(/[^0-9]/, "", c) }
			/^CPUID 0000001A:/ { split($3, r, "-"); if (substr(r[1], 1, 2) == "20") print c }' \
			"$ADLS" | head -1)
		[ -n "$ecore" ] || skip_all "no E-core in $ADLS"
		;;
	esac
}

BARETMA_STATE_DIR=$tmp/run
mkdir -p "$BARETMA_STATE_DIR"
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_MSR BARETMA_PERF BARETMA_CPUID_DUMP

sim_common='ghz 0
access_cycles 1000
work_cycles 100000
retiring 40
bad_speculation 10
frontend_bound 20
heavy_operations 10
branch_mispredicts 6
fetch_latency 12'

# ecore_regs CPU, zen4_regs: the registers an idle Linux PMU leaves, as a
# simulator state file (`state FILE`) holds them, for an Alder Lake E-core
# and for Zen 4 CPU 0 (addresses, values and their sources: t/0852's header)
ecore_regs() {
	c=$1
	for i in 0 1 2 3 4 5; do
		printf '%s 0x%x 0x0\n%s 0x%x 0x0\n%s 0x%x 0x0\n' "$c" $((0x186 + i)) "$c" \
			$((0xc1 + i)) "$c" $((0x4c1 + i))
	done
	printf '%s 0x309 0x0\n%s 0x30a 0x0\n%s 0x30b 0x0\n%s 0x345 0x2000\n' "$c" "$c" "$c" "$c"
	printf '%s 0x38d 0x0\n%s 0x38e 0x0\n%s 0x38f 0x70000003f\n%s 0x390 0x0\n' "$c" "$c" "$c" "$c"
	printf '%s 0x391 0x0\n%s 0x392 0x0\n' "$c" "$c"
}
zen4_regs() {
	printf '0 0xc0000300 0x0\n0 0xc0000301 0x3f\n0 0xc0000302 0x0\n0 0xc0000303 0x0\n'
	for i in 0 1 2 3 4 5; do
		case $i in 0) v=0x7 ;; 5) v=0x2a ;; *) v=0x0 ;; esac
		printf '0 0x%x 0x0\n0 0x%x %s\n' $((0xc0010200 + 2 * i)) $((0xc0010201 + 2 * i)) "$v"
	done
}
