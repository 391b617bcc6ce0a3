#!/bin/sh
# t/0981-pmu-dump-option.sh - `pmu status` and `pmu restore` take the
# machine of --cpuid-dump as `pmu enable` and bench do: the simulated PMU
# (BARETMA_MSR=sim:PROFILE with `state FILE`) models the dump's CPUs, with
# no $BARETMA_CPUID_DUMP.  Before, the two took the simulator's machine
# from $BARETMA_CPUID_DUMP only and refused --cpuid-dump (exit 64).
#
# The machine: the guard fixture's simulated Ice Lake-L (8 logical CPUs:
# the dump's "Logical CPU #" sections), state file of cpus 6 and 7 as the
# simulator's clean file (GLOBAL_CTRL 0x7000000ff, FIXED_CTR_CTRL 0).
# pmu enable --cpu 7 programs (the kernel's order, as t/0320):
#   IA32_FIXED_CTR_CTRL 0x0 | 0x3 << 12 = 0x3000 (FC3 counting OS+USR)
#   IA32_PERF_GLOBAL_CTRL 0x7000000ff | 1 << 35 | 1 << 48 = 0x1000f000000ff
# and pmu restore puts the state file back byte for byte.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

sim_profile
BARETMA_MSR=sim:$tmp/profile
export BARETMA_MSR
unset BARETMA_CPUID_DUMP BARETMA_PERF
{ sim_regs 6; sim_regs 7; } >"$tmp/state"
cp "$tmp/state" "$tmp/orig"
mkdir -p "${WD%/*}" "${RDPMC%/*}"
printf '1\n' >"$WD"
printf '0\n' >"$RDPMC"

"$BARETMA" pmu enable --cpu 7 --cpuid-dump "$ICL" >"$tmp/out" 2>&1; rc=$?
is "$rc" 0 "pmu enable --cpu 7 --cpuid-dump ICL on the simulator exits 0"
is "$(journals | wc -w)" 1 "it leaves one journal"

"$BARETMA" pmu status --cpuid-dump "$ICL" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "pmu status --cpuid-dump ICL exits 0 (no BARETMA_CPUID_DUMP)"
like "$(cat "$tmp/out")" "current: IA32_PERF_GLOBAL_CTRL=0x1000f000000ff IA32_FIXED_CTR_CTRL=0x3000 " \
	"status reads the dump's cpu 7 through the simulator: the values enable programmed"
like "$(cat "$tmp/out")" "saved:   IA32_PERF_GLOBAL_CTRL=0x7000000ff IA32_FIXED_CTR_CTRL=0x0 " \
	"and the saved values"
"$BARETMA" pmu status --json --cpuid-dump "$ICL" >"$tmp/json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "pmu status --json --cpuid-dump ICL exits 0"

"$BARETMA" pmu status --cpuid-dump "$tmp/none" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 66 "status: a dump that does not exist: exit 66"
like "$(cat "$tmp/err")" "^baretma: cannot load CPUID dump '$tmp/none': No such file or directory" \
	"status: the message names the dump"
"$BARETMA" pmu restore --cpuid-dump "$tmp/none" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 66 "restore: a dump that does not exist: exit 66"
like "$(cat "$tmp/err")" "^baretma: cannot load CPUID dump '$tmp/none': No such file or directory" \
	"restore: the message names the dump"
is "$(journals | wc -w)" 1 "the journal is still there"

"$BARETMA" pmu restore --cpuid-dump "$ICL" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "pmu restore --cpuid-dump ICL exits 0 (no BARETMA_CPUID_DUMP)"
like "$(cat "$tmp/out")" "^cpu 7: restored IA32_PERF_GLOBAL_CTRL=0x7000000ff IA32_FIXED_CTR_CTRL=0x0 " \
	"restore names cpu 7's registers"
cmp -s "$tmp/state" "$tmp/orig"; is "$?" 0 "the state file is byte for byte as found"
is "$(journals | wc -w)" 0 "no journal left"

like "$("$BARETMA" pmu status --help 2>&1 | tr -s '\n ' '  ')" "pmu status \[--cpu LIST\] \[--json\] \[--cpuid-dump FILE\]" \
	"help: pmu status takes --cpuid-dump"
like "$("$BARETMA" pmu restore --help 2>&1 | tr -s '\n ' '  ')" "pmu restore \[--cpu LIST\] \[--wait\] \[--unsafe-msr\] \[--cpuid-dump FILE\]" \
	"help: pmu restore takes --cpuid-dump"
done_testing
