# t/live-fixture.sh - who "this machine" is for the tests that switch on
# the live CPU (sourced after t/tap.sh).  baretma's test build reads the
# live CPU's CPUID from $BARETMA_TEST_LIVE_CPUID when it is set (the
# live-CPU seam, cpu/cpu_source_hooks.c), so the facts a test compares
# with come from there, read here by awk without baretma; else from
# /proc/cpuinfo (the kernel's view of the real CPU).
#   live_facts [DUMP]: sets live_vendor ("GenuineIntel"), live_family,
#     live_model (decimal, display family/model), live_hv (1 under a
#     hypervisor), live_pmu (1 when CPUID leaf 0xA reports an architectural
#     PMU: version > 0).  DUMP defaults to $BARETMA_TEST_LIVE_CPUID: a file
#     of "CPUID LLLLLLLL: EAX-EBX-ECX-EDX" records (libcpuid raw, AIDA64,
#     `baretma cpuid dump`), its first record of each leaf (the first CPU).
# Leaf layouts: SDM Vol. 2A CPUID: leaf 0 EBX-EDX-ECX the vendor string;
# leaf 1 EAX the signature (family [11:8] + extended family [27:20] when
# 0xF; model [7:4] | extended model [19:16] << 4 for families 6 and 0xF),
# ECX bit 31 hypervisor present; leaf 0xA EAX[7:0] the version.  In
# /proc/cpuinfo the kernel sets "arch_perfmon" from leaf 0xA version > 0
# with more than one counter (arch/x86/kernel/cpu/intel.c init_intel) and
# "hypervisor" from CPUID.1:ECX[31].

live_facts() {
	_dump=${1:-$BARETMA_TEST_LIVE_CPUID}
	if [ -z "$_dump" ]; then
		live_vendor=$(sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -1)
		live_family=$(sed -n 's/^cpu family[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -1)
		live_model=$(sed -n 's/^model[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -1)
		_flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
		live_hv=0 live_pmu=0
		case " $_flags " in *" hypervisor "*) live_hv=1 ;; esac
		case " $_flags " in *" arch_perfmon "*) live_pmu=1 ;; esac
		return 0
	fi
	eval "$(awk '
	function hex(s,   v, i) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return v
	}
	function bits(v, lo, n) { return int(v / 2 ^ lo) % 2 ^ n }
	function str(v,   i, s) {
		for (i = 0; i < 4; i++) s = s sprintf("%c", bits(v, 8 * i, 8))
		return s
	}
	$1 == "CPUID" && !seen[$2]++ {
		split($3, r, "-")
		leaf[$2 " a"] = hex(r[1]); leaf[$2 " b"] = hex(r[2])
		leaf[$2 " c"] = hex(r[3]); leaf[$2 " d"] = hex(r[4])
	}
	END {
		max = leaf["00000000: a"]
		printf "live_vendor=%s\n", str(leaf["00000000: b"]) str(leaf["00000000: d"]) str(leaf["00000000: c"])
		a = leaf["00000001: a"]; f = bits(a, 8, 4); m = bits(a, 4, 4)
		if (f == 15) f += bits(a, 20, 8)
		if (f == 6 || f >= 15) m += 16 * bits(a, 16, 4)
		printf "live_family=%d\nlive_model=%d\n", f, m
		printf "live_hv=%d\n", bits(leaf["00000001: c"], 31, 1)
		printf "live_pmu=%d\n", (max >= 10 && bits(leaf["0000000A: a"], 0, 8) > 0)
	}' "$_dump")"
}

