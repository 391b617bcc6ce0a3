#!/bin/sh
# t/0325-pmu-hybrid.sh - CPU choice on a hybrid part: `pmu enable` programs
# PERF_METRICS on the P-cores only and leaves every E-core register byte for
# byte as it was; an E-core named with --cpu is refused (exit 64, nothing
# written) by `pmu enable`; `bench` takes it (its kind's Top-down comes
# from the event recipe intel-ecore-l1) and refuses a counter of that
# recipe already in use, naming it; bench's default CPU is a P-core.  State-file backend (BARETMA_MSR=state:FILE) and
# the Alder Lake-P i7-12700H dump (20 logical CPUs).
#
# Which CPUs are P-cores comes from the dump, not from baretma: the
# "CPUID 0000001A:" line of each "Logical CPU #N" section, EAX[31:24] =
# 0x40 (Core) or 0x20 (Atom) (linux intel-family.h INTEL_CPU_TYPE_*), read below with awk;
# INDEX.tsv's dump_leaf1A_core_types for this file, "0x20/000001 x8,
# 0x40/000001 x12", is checked against it.  The E-cores of Alder Lake are
# Gracemont (Intel's product brief; linux intel_pmu_init's ALDERLAKE case).
# Programmed values are hand-worked as in t/0320 (the kernel's order) from
# GLOBAL_CTRL 0x70000000f and FIXED_CTR_CTRL 0x333:
#   FIXED_CTR_CTRL = 0x3333 (FC3 field 0x3), FIXED_CTR3 = 0, PERF_METRICS = 0,
#   GLOBAL_CTRL = 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f.
. "$T_SRC/tap.sh"

ADL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test
RPL=$SHARED_CPUID/hwloc/Intel-RaptorLake-Corei7-1370P
[ -r "$ADL" ] || skip_all "no Alder Lake-P dump ($ADL)"

BARETMA_MSR=state:$tmp/state
BARETMA_STATE_DIR=$tmp/run
export BARETMA_MSR BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_CPUID_DUMP

# --- known answers from the dump --------------------------------------------
awk '/Logical CPU #/ { c = $0; gsub(/[^0-9]/, "", c) }
     /^CPUID 0000001A:/ { split($3, r, "-"); print c, substr(r[1], 1, 2) }' "$ADL" >"$tmp/types"
# ranges "0-11" from ascending numbers on stdin
ranges() { awk 'BEGIN { s = "" } { if (NR > 1 && $1 == p + 1) { p = $1; next }
	if (NR > 1) s = s (s == "" ? "" : ",") (f == p ? f : f "-" p); f = p = $1 }
	END { if (NR) s = s (s == "" ? "" : ",") (f == p ? f : f "-" p); print s }'; }
P=$(awk '$2 == "40" { print $1 }' "$tmp/types")
E=$(awk '$2 == "20" { print $1 }' "$tmp/types")
plist=$(echo "$P" | ranges)
pfirst=$(echo "$P" | head -1)
efirst=$(echo "$E" | head -1)
ncpu=$(wc -l <"$tmp/types")
index=$(awk -F'\t' '$1 == "libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test" { print $11 "|" $17 }' \
	"$SHARED_CPUID/INDEX.tsv" 2>/dev/null)
is "$ncpu|0x20/000001 x$(echo "$E" | wc -l),0x40/000001 x$(echo "$P" | wc -l)" "$index" \
	"dump: leaf 0x1A per CPU agrees with INDEX.tsv (CPUs, core types)"
is "$plist" "0-11" "dump: P-cores are CPUs 0-11 (leaf 0x1A type 0x40)"

# --- state file: every register of every CPU of the dump --------------------
regs() {
	printf '%s 0x30c %s\n%s 0x329 %s\n%s 0x345 0xf4c5\n%s 0x38d %s\n%s 0x38e 0x0\n%s 0x38f %s\n%s 0x390 0x0\n' \
		"$1" "$2" "$1" "$5" "$1" "$1" "$3" "$1" "$1" "$4" "$1"
	# what the ownership check reads (after Intel PCM's PMUinUse): IA32_PERFEVTSEL0-7
	# (8 GP counters) and IA32_PERF_GLOBAL_INUSE (arch perfmon v4+), all free
	for r in 0x186 0x187 0x188 0x189 0x18a 0x18b 0x18c 0x18d 0x392; do
		printf '%s %s 0x0\n' "$1" "$r"
	done
}
c=0
while [ "$c" -lt "$ncpu" ]; do
	regs "$c" "$(printf 0x%x $((0x1000 + c)))" 0x333 0x70000000f 0x1f3a5c47
	c=$((c + 1))
done >"$tmp/state"
cp "$tmp/state" "$tmp/orig"
# cpu_lines FILE CPUS: the lines of those CPUs
cpu_lines() { for c in $2; do grep "^$c " "$1"; done; }
# programmed CPUS: what those CPUs' lines must read after enable
programmed() {
	for c in $1; do regs "$c" 0x0 0x3333 0x1000f0000000f 0x0; done
}
# The journals (msr/journal/journal.h run-PID.journal; lock files stay beside them)
journals() { ls "$tmp/run" 2>/dev/null | grep 'journal$' | sort -V | tr '\n' ' '; }
# E-cores any journal saved a register of
ejournals() { for c in $E; do cat "$tmp/run/"*.journal 2>/dev/null | grep -q "^reg $c " && echo "$c"; done | wc -l; }
ewrites() { for c in $E; do grep "^wr $c " "$1"; done | wc -l; }

# --- pmu enable on every CPU: P-cores only -----------------------------------
out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu enable --cpuid-dump "$ADL" 2>&1); rc=$?
is "$rc" 0 "enable without --cpu exits 0"
like "$out" "enabled on cpu $plist;" "enabled on the P-cores ($plist) only"
is "$(printf '%s\n' "$out" | grep -c 'and PERF_METRICS enabled')" "$(echo "$P" | wc -l)" \
	"PERF_METRICS enabled on every P-core"
is "$(cpu_lines "$tmp/state" "$P")" "$(programmed "$P")" \
	"P-cores: GLOBAL_CTRL bit 48 and 35 set, FC3 field 0x3, FC3 and PERF_METRICS zeroed"
is "$(cpu_lines "$tmp/state" "$E")" "$(cpu_lines "$tmp/orig" "$E")" \
	"E-cores: every register byte for byte unchanged"
is "$(ewrites "$tmp/trace")" 0 "no write to any E-core"
is "$(journals | wc -w)" 1 "one journal for the run"
is "$(ejournals)" 0 "no E-core register in the journal"
"$BARETMA" pmu restore >/dev/null 2>&1; rc=$?
is "$rc" 0 "restore exits 0"
cmp -s "$tmp/state" "$tmp/orig"; ok $? "restore: the whole state file as it was"

# --- pmu enable --cpu naming an E-core: refused, nothing written -------------
for list in "$efirst" "$pfirst,$efirst"; do
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" pmu enable --cpuid-dump "$ADL" --cpu "$list" 2>&1); rc=$?
	is "$rc" 64 "enable --cpu $list (an E-core in it): exit 64"
	like "$out" "pmu enable: cpu $efirst is an efficiency core \(Gracemont\): it has no IA32_PERF_METRICS; CPUs that can measure Top-down: $plist \(try: --cpu $pfirst" \
		"--cpu $list: the message names the E-core, its uarch and the CPUs that can"
	is "$(grep -c '^wr' "$tmp/trace")" 0 "--cpu $list: nothing written, not even to the P-core"
	cmp -s "$tmp/state" "$tmp/orig"; ok $? "--cpu $list: state file unchanged"
	is "$(journals)" "" "--cpu $list: no journal"
done

# --- pmu enable --cpu with P-cores only works --------------------------------
plast=$(echo "$P" | tail -1)
"$BARETMA" pmu enable --cpuid-dump "$ADL" --cpu "$pfirst,$plast" >/dev/null 2>&1; rc=$?
is "$rc" 0 "enable --cpu $pfirst,$plast (P-cores) exits 0"
is "$(cpu_lines "$tmp/state" "$pfirst $plast")" "$(programmed "$pfirst $plast")" \
	"--cpu $pfirst,$plast: both programmed with PERF_METRICS"
"$BARETMA" pmu restore >/dev/null 2>&1
cmp -s "$tmp/state" "$tmp/orig"; ok $? "and restored"

# --- bench --cpu naming an E-core --------------------------------------------
# Its kind measures the recipe intel-ecore-l1 (Gracemont: CPU_CLK_UNHALTED.CORE
# on fixed counter 1, intel/perfmon ADL alderlake_gracemont_core.json).  This
# state file has IA32_FIXED_CTR_CTRL 0x333, fixed counters 0-2 counting as
# firmware leaves them: fixed counter 1 is in use (its field [7:4] = 0x3), so
# the run is refused as for fixed counter 3 in use, exit 75, naming it, and
# writes nothing.  RDPMC never reads a dump's CPU: 69.
for be in msr rdpmc auto; do
	: >"$tmp/trace"
	out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ADL" --cpu "$efirst" \
		--backend $be --kernel retire-light --reps 3 --warmup 0 2>&1); rc=$?
	unlike "$out" "efficiency core \(Gracemont\): it has no" "bench --cpu $efirst --backend $be: not refused as an E-core"
	if [ "$be" = rdpmc ]; then
		is "$rc" 69 "bench --cpu $efirst --backend rdpmc: exit 69 (RDPMC of a dump's CPU)"
	else
		is "$rc" 75 "bench --cpu $efirst --backend $be: exit 75 (a counter in use)"
		like "$out" "cpu $efirst: a counter of recipe intel-ecore-l1:gracemont is in use: .*IA32_FIXED_CTR_CTRL\[7:4\]=0x3" \
			"bench --backend $be: names the recipe and fixed counter 1's field"
	fi
	is "$(grep -c '^wr' "$tmp/trace")" 0 "bench --backend $be: nothing written"
done
cmp -s "$tmp/state" "$tmp/orig"; ok $? "bench refusals: state file unchanged"

# --backend tsc: an E-core is fine.  The CPU numbers are the dump's (a
# single-file dump has its own list of CPUs), whatever this machine has;
# nothing is pinned.
out=$("$BARETMA" bench --cpuid-dump "$ADL" --cpu "$efirst" --backend tsc --kernel retire-light \
	--reps 3 --warmup 0 2>&1); rc=$?
unlike "$out" "efficiency core \(" "bench --cpu $efirst --backend tsc: not refused as an E-core"
like "$rc:$(echo "$out" | tr '\n' ' ')" "^0:.*cpu $efirst: [^;]*\(efficiency core\).*note: not pinned: cpu $efirst is a CPU of the CPUID dump" \
	"bench --cpu $efirst --backend tsc runs on the dump's cpu $efirst (this machine has $(nproc --all) CPUs), unpinned"

# --- bench default: a P-core ---------------------------------------------------
: >"$tmp/trace"
BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ADL" --backend msr --json \
	--kernel retire-light --reps 3 --warmup 0 >"$tmp/bench.json" 2>"$tmp/bench.err"; rc=$?
is "$rc" 0 "bench without --cpu exits 0"
used=$(sed -n 's/^ *"os_cpu": *\([0-9]*\).*/\1/p' "$tmp/bench.json" | head -1)
echo "$P" | grep -qx "${used:-none}"; ok $? "bench chose cpu ${used:-none}: a P-core (leaf 0x1A type 0x40)"
like "$(cat "$tmp/bench.json")" "\"kind\": \"performance\"" "and names its kind: performance"
is "$(grep '^wr' "$tmp/trace" | grep -vc "^wr ${used:-none} ")" 0 "bench wrote to cpu ${used:-none} only"
like "$(grep '^wr' "$tmp/trace" | head -6 | tr '\n' ';')" "wr ${used:-none} 0x38f 0x1000f0000000f;" \
	"GLOBAL_CTRL with bit 48 (PERF_METRICS) on that P-core"
cmp -s "$tmp/state" "$tmp/orig"; ok $? "bench restored every register"

# --- a hwloc-gather-cpuid directory: the dumped machine's own topology --------
# P-cores from the pu files' leaf 0x1A ("mask 1a 0 0 0 => eax ..."), as above.
if [ -d "$RPL" ] && "$BARETMA" info --cpuid-dump "$RPL" >/dev/null 2>&1; then
	rp=$(for f in "$RPL"/pu*; do n=${f##*/pu}; awk -v n="$n" '$2 == "1a" && $4 == "0" \
		{ if (substr($7, 1, 2) == "40" && length($7) == 8) print n }' "$f"; done | sort -n)
	rplast=$(echo "$rp" | tail -1)
	"$BARETMA" bench --cpuid-dump "$RPL" --backend tsc --json --kernel retire-light --reps 3 \
		--warmup 0 >"$tmp/rpl.json" 2>/dev/null; rc=$?
	is "$rc" 0 "hwloc dir: bench --backend tsc exits 0"
	like "$(cat "$tmp/rpl.json")" "\"os_cpu\": $rplast," \
		"hwloc dir: default is the dump's last P-core, cpu $rplast (not this machine's)"
	like "$(cat "$tmp/rpl.json")" "not pinned" "hwloc dir: says it did not pin"
	out=$("$BARETMA" bench --cpuid-dump "$RPL" --cpu "$((rplast + 1))" --backend tsc --json \
		--kernel retire-light --reps 3 --warmup 0 2>&1); rc=$?
	like "$rc:$(echo "$out" | tr '\n' ' ')" "^0:.*\"os_cpu\": $((rplast + 1)),.*\"kind\": \"efficiency\"" \
		"hwloc dir: --cpu $((rplast + 1)) (an E-core) with --backend tsc runs there"
	# The dump has as many CPUs as the state file above: program it.
	if [ "$(ls "$RPL" | grep -c '^pu[0-9]*$')" = "$ncpu" ]; then
		: >"$tmp/trace"
		BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$RPL" --backend msr \
			--kernel retire-light --reps 3 --warmup 0 >/dev/null 2>&1; rc=$?
		is "$rc:$(grep '^wr' "$tmp/trace" | grep -vc "^wr $rplast ")" "0:0" \
			"hwloc dir: bench --backend msr programs cpu $rplast only"
		cmp -s "$tmp/state" "$tmp/orig"; ok $? "hwloc dir: and restores it"
		out=$("$BARETMA" pmu enable --cpuid-dump "$RPL" 2>&1); rc=$?
		like "$rc:$(echo "$out" | tr '\n' ' ')" "^0:.*enabled on cpu $(echo "$rp" | ranges);" \
			"hwloc dir: pmu enable programs the P-cores only"
		"$BARETMA" pmu restore >/dev/null 2>&1
		cmp -s "$tmp/state" "$tmp/orig"; ok $? "hwloc dir: restored"
	else
		skip "state file and dump differ in CPU count"; skip "-"; skip "-"; skip "-"
	fi
else
	for i in 1 2 3 4 5 6 7 8; do skip "hwloc directories not loadable by cpu_source_dump() (yet)"; done
fi

done_testing
