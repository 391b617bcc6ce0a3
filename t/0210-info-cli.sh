#!/bin/sh
# t/0210-info-cli.sh - `baretma info` on real CPUID dumps and on this machine.
# Known answers: ../shared/cpuid/INDEX.tsv rows (Ice Lake i7-1065G7: family 6
# model 0x7E, level 1, 8 logical CPUs; Alder Lake-P i7-12700H: P-cores level 2,
# E-cores 0) and /proc/cpuinfo for the live machine.
. "$T_SRC/tap.sh"

# json FILE EXPR: evaluate a Python expression over the document `d`.
json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

have_py=no
command -v python3 >/dev/null 2>&1 && have_py=yes

# --- live machine ------------------------------------------------------------
out=$("$BARETMA" info 2>&1); rc=$?
is "$rc" 0 "live info exits 0"
like "$out" '^source: +live' "live info says its source"
vendor=$(sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -1)
if [ -n "$vendor" ] && [ "$vendor" != GenuineIntel ]; then
	like "$out" "topdown: +unavailable on cpu [0-9]+: CPU vendor is $vendor .*not Intel" \
		"live reason: vendor $vendor is not Intel"
else
	like "$out" 'topdown: +(level [12] available|unavailable on cpu [0-9]+: .+)' \
		"live Top-down line (Intel or unknown vendor)"
fi
if [ "$have_py" = yes ] && [ -n "$vendor" ]; then
	"$BARETMA" info --json >"$tmp/live.json"; rc=$?
	is "$rc" 0 "live info --json exits 0"
	is "$(json "$tmp/live.json" 'd["vendor"]')" "$vendor" "live vendor matches /proc/cpuinfo"
	fam=$(sed -n 's/^cpu family[[:space:]]*: *//p' /proc/cpuinfo | head -1)
	mod=$(sed -n 's/^model[[:space:]]*: *//p' /proc/cpuinfo | head -1)
	is "$(json "$tmp/live.json" 'd["family"]')" "$fam" "live family matches /proc/cpuinfo"
	is "$(json "$tmp/live.json" 'd["model"]')" "$mod" "live model matches /proc/cpuinfo"
	is "$(json "$tmp/live.json" 'any(d["cpu"] in k["cpus"] for k in d["core_kinds"])')" True \
		"live chosen cpu belongs to a core kind"
else
	for i in 1 2 3 4 5; do skip "no python3 or no /proc/cpuinfo vendor"; done
fi

# --- errors ------------------------------------------------------------------
out=$("$BARETMA" info --cpuid-dump /nonexistent/baretma.dump 2>&1); rc=$?
is "$rc" 66 "missing dump: exit 66 (EX_NOINPUT)"
like "$out" "cannot load CPUID dump '/nonexistent/baretma.dump'" "missing dump: message names the file"
printf 'this is not\na CPUID dump\n' >"$tmp/junk.txt"
out=$("$BARETMA" info --cpuid-dump "$tmp/junk.txt" 2>&1); rc=$?
is "$rc" 65 "junk dump: exit 65 (EX_DATAERR)"
like "$out" "cannot load CPUID dump '$tmp/junk.txt': not a CPUID dump" "junk dump: message names the file and the cause"
out=$("$BARETMA" info --no-such-option 2>&1); rc=$?
is "$rc" 64 "unknown option: exit 64 (EX_USAGE)"
out=$("$BARETMA" info --help 2>&1); rc=$?
is "$rc" 0 "--help exits 0"
like "$out" 'usage: baretma info' "--help prints the usage"

# --- real dumps --------------------------------------------------------------
icl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"
adl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test"
if [ "$have_py" != yes ] || [ ! -f "$icl" ] || [ ! -f "$adl" ]; then
	for i in $(seq 1 13); do skip "no python3 or no \$SHARED_CPUID dumps"; done
	done_testing
fi

"$BARETMA" info --cpuid-dump "$icl" --json >"$tmp/icl.json"; rc=$?
is "$rc" 0 "Ice Lake dump: exit 0"
is "$(json "$tmp/icl.json" 'd["family"]')" 6 "Ice Lake dump: family 6"
is "$(json "$tmp/icl.json" 'd["model"]')" 126 "Ice Lake dump: model 126 (0x7E, INTEL_ICELAKE_L)"
is "$(json "$tmp/icl.json" '[k["topdown_level"] for k in d["core_kinds"]]')" "[1]" \
	"Ice Lake dump: one kind, Top-down level 1"
is "$(json "$tmp/icl.json" '(d["pmu"]["version"], d["pmu"]["fixed_counters"], d["pmu"]["topdown_slots_event"])')" \
	"(5, 4, True)" "Ice Lake dump: leaf 0xA v5, 4 fixed counters, TOPDOWN.SLOTS"
is "$(json "$tmp/icl.json" 'd["topdown"]["available"]')" False \
	"Ice Lake dump: not available here (no MSR device in the test environment)"

"$BARETMA" info --cpuid-dump "$adl" --json >"$tmp/adl.json"; rc=$?
is "$rc" 0 "Alder Lake-P dump: exit 0"
is "$(json "$tmp/adl.json" 'sorted((k["core_type"], k["topdown_level"], len(k["cpus"])) for k in d["core_kinds"])')" \
	"[(32, 0, 8), (64, 2, 12)]" "Alder Lake-P dump: E-cores level 0 (8 CPUs), P-cores level 2 (12 CPUs)"
is "$(json "$tmp/adl.json" '[k["topdown_level"] for k in d["core_kinds"] if d["cpu"] in k["cpus"]]')" "[2]" \
	"Alder Lake-P dump: the chosen CPU is a P-core"

out=$("$BARETMA" info --cpuid-dump "$adl" 2>&1); rc=$?
like "$out" 'kind: +performance \(core type 0x40\): Golden Cove, 6 slots/cycle, fixed counter 3 yes, Top-down level 2' \
	"Alder Lake-P text: performance kind line"
like "$out" 'kind: +efficiency \(core type 0x20\): Gracemont, 5 slots/cycle, fixed counter 3 no, Top-down level 0' \
	"Alder Lake-P text: efficiency kind line"

out=$(BARETMA_CPUID_DUMP="$icl" "$BARETMA" info 2>&1)
like "$out" 'model 0x7E \(126\)' "BARETMA_CPUID_DUMP is honoured"
"$BARETMA" info --cpuid-dump "$icl" --cpu 8 >/dev/null 2>&1; rc=$?
is "$rc" 64 "Ice Lake dump has 8 CPUs: --cpu 8 is a usage error"
done_testing
