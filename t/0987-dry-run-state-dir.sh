#!/bin/sh
# t/0987-dry-run-state-dir.sh - a dry run (a CPUID dump, the simulated PMU
# or a state file) never writes the real state directory: without
# BARETMA_STATE_DIR its locks, journals and calibrations go to a directory
# of its own, "$TMPDIR/baretma-dry-<euid>", named with -v
# (msr/journal/state_dir.h; without -v t/1120 checks it is not said).  The real default, /run/baretma, is pointed at an
# empty temporary directory with the test build's seam
# (BARETMA_TEST_STATE_DEFAULT, msr/journal/state_dir_hooks.c; its effect is shown
# first: a run that is not dry names it), and no dry-run command - bench,
# calibrate, validate, compare, pmu enable, pmu status, pmu restore - may
# create anything in it.  Before, a simulated `calibrate --cpuid-dump ICL`
# wrote calibration-GenuineIntel-6-0x7e-5.json and cpu7.lock there, and
# the next simulated bench used that calibration.  (The library: t/0988.)
. "$T_SRC/tap.sh"

. "$T_SRC/sim-fixture.sh"
[ -x "${BARETMA_HOOKS:-}" ] || skip_all "no test build of the tool (t/baretma-hooks)"
unset BARETMA_STATE_DIR
default=$tmp/default
mkdir -p "$default" "$tmp/tmp"
TMPDIR=$tmp/tmp
BARETMA_TEST_STATE_DEFAULT=$default
export TMPDIR BARETMA_TEST_STATE_DEFAULT
dry=$TMPDIR/baretma-dry-$(id -u)
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
cal=calibration-GenuineIntel-6-0x7e-5.json # Ice Lake-L: family 6 model 0x7E stepping 5

# run CMD...: the test build of the tool, status in $st, output in $tmp/out, $tmp/err
run() {
	st=0
	"$BARETMA_HOOKS" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
untouched() {
	is "$(find "$default" -mindepth 1 | wc -l)" 0 "$1: nothing created in the default state directory"
}
note="a dry run: its locks, journals and calibrations are in '$dry', not in '$default' \(BARETMA_STATE_DIR chooses another\)"

# the seam: a run that is not dry (the device backend, this machine) looks there
BARETMA_MSR=/nonexistent/baretma-test/cpu/%u/msr run pmu status
like "$(cat "$tmp/out")" "[Nn]o journal in '$default'" "not a dry run: the default state directory (the seam)"

export BARETMA_MSR=sim:$tmp/p
run calibrate --cpuid-dump "$ICL"
is "$st" 0 "simulated calibrate --cpuid-dump ICL: exit 0"
like "$(cat "$tmp/out")" "written to '$dry/$cal'" "writes its calibration in the dry run's directory, named"
[ -f "$dry/$cal" ]; ok $? "  which holds it"
untouched calibrate

run bench -v --cpuid-dump "$ICL" --backend msr --kernel empty --reps 3 --warmup 0
is "$st" 0 "simulated bench --cpuid-dump ICL: exit 0"
like "$(cat "$tmp/err")" "$note" "-v: names the dry run's state directory"
like "$(cat "$tmp/out")" "calibration: '$dry/$cal'" "uses the dry run's calibration"
untouched bench

run validate --cpuid-dump "$ICL"
is "$st" 0 "simulated validate --cpuid-dump ICL: exit 0"
untouched validate

BARETMA_PERF=sim:$tmp/p run compare --cpuid-dump "$ICL" --reps 3 --kernel retire-light
is "$st" 0 "simulated compare --cpuid-dump ICL: exit 0"
untouched compare

run pmu enable -v --cpuid-dump "$ICL" --cpu 1
is "$st" 0 "simulated pmu enable -v --cpuid-dump ICL --cpu 1: exit 0"
like "$(cat "$tmp/err")" "$note" "-v: names the dry run's state directory"
untouched "pmu enable"
BARETMA_CPUID_DUMP=$ICL run pmu status
like "$(cat "$tmp/out")" "journal '$dry/run-[0-9]*\.journal': counters enabled by 'baretma pmu enable'" \
	"pmu status finds the dry run's journal in its directory"
untouched "pmu status"
BARETMA_CPUID_DUMP=$ICL run pmu restore
is "$st" 0 "pmu restore: exit 0"
like "$(cat "$tmp/out")" "cpu 1: restored" "puts cpu 1 back from the dry run's journal"
untouched "pmu restore"

# a state file alone is a dry run too
BARETMA_MSR=state:$tmp/state run pmu status
unlike "$(cat "$tmp/out" "$tmp/err")" "$default" "state:FILE: pmu status does not look in the default"
untouched "state:FILE pmu status"
done_testing
