#!/bin/sh
# t/1120-verbose-notes.sh - a dry run says what every dry run would repeat
# only when asked, with -v/--verbose (perf's letter), and then once
# (issue 29, newcomer list: "every dry run prints two notes on stderr").
# The notes (bench/cli/cli_run.h cli_detail):
#   - where a dry run keeps its locks and journals, "a dry run: its locks,
#     journals and calibrations are in 'DIR', not in '/run/baretma' ..."
#     (msr/guard/guard.c, a GUARD_LINE_DETAIL): bench, stat, compare,
#     validate, calibrate, pmu enable, pmu restore, msr write;
#   - stat's "the command was not pinned: the CPUs counted are the CPUID
#     dump's, ..." (a dry run's COMMAND is never pinned);
#   - compare's "while perf_event owned the counters of cpu N, the kernel
#     wrote ...; baretma put each back" (every run with a perf side: JSON
#     perf_changed keeps it).
# Without -v none of them is on stderr, and what they said is still found
# where it matters: calibrate names the file it wrote, `pmu status` and
# `pmu restore` of a dry run find its journal by themselves.  -v is refused
# where it would do nothing (pmu status, msr read).  Before, every dry run
# printed the first two whatever its options, and -v was no option.
# On the shipped Ice Lake dump and profile (examples/), the state directory
# the dry run's own ($TMPDIR/baretma-dry-EUID under this test's TMPDIR).
. "$T_SRC/tap.sh"
pyq_start

[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
ICL=$T_SRC/../examples/dumps/ice-lake-i7.test
prof=$T_SRC/../examples/profiles/icelake.profile
[ -r "$ICL" ] && [ -r "$prof" ] || skip_all "no examples/dumps/ice-lake-i7.test or its profile"
unset BARETMA_STATE_DIR BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_PERF BARETMA_CPUID_DUMP
mkdir -p "$tmp/tmp"
TMPDIR=$tmp/tmp
BARETMA_MSR=sim:$prof
export TMPDIR BARETMA_MSR
dry=$TMPDIR/baretma-dry-$(id -u)

DRY="a dry run: its locks, journals and calibrations are in '$dry', not in"
PIN="the command was not pinned: the CPUs counted are the CPUID dump's"
PERF="while perf_event owned the counters of cpu 1, the kernel wrote"

# run NAME ARGS...: baretma ARGS, its status in $st, output in $tmp/NAME.{out,err}
run() {
	_r=$1; shift
	st=0
	"$BARETMA" "$@" >"$tmp/$_r.out" 2>"$tmp/$_r.err" || st=$?
}
# said NAME TEXT: how many lines of NAME's stderr hold TEXT
said() { grep -cF -- "$2" "$tmp/$1.err"; }

# check NAME WHAT ARGS...: ARGS without -v say no note, with -v the dry
# run's once (its directory named whole)
check() {
	_n=$1 _w=$2; shift 2
	run "$_n" "$@"
	is "$st:$(said "$_n" "$DRY")" "0:0" "$_w: exit 0, no note of the dry run's directory"
	run "$_n-v" "$@" -v
	is "$st:$(said "$_n-v" "$DRY")" "0:1" "$_w -v: exit 0, the dry run's directory said once"
	like "$(cat "$tmp/$_n-v.err")" "note: $DRY '/run/baretma' \(BARETMA_STATE_DIR chooses another\)" \
		"  ... as the note names it"
}

check bench "bench" bench --cpuid-dump "$ICL" -C 1 --backend msr --kernel empty -r 3 --warmup 0
check validate "validate" validate --cpuid-dump "$ICL" -C 1
check calibrate "calibrate" calibrate --cpuid-dump "$ICL" -C 1 --backend msr
like "$(cat "$tmp/calibrate.out")" "written to '$dry/calibration-GenuineIntel-6-0x7e-5.json'" \
	"calibrate without -v: its report names where it wrote the calibration"

# stat: its COMMAND was not pinned, said with -v only, once
check stat "stat -I 100 --count 1" stat --cpuid-dump "$ICL" -C 1 -I 100 --count 1
run stat-cmd stat --cpuid-dump "$ICL" -C 1 -- true
is "$st:$(said stat-cmd "$PIN"):$(said stat-cmd "$DRY")" "0:0:0" \
	"stat -C 1 -- true: exit 0, neither the dry run's directory nor 'not pinned'"
run stat-cmd-v stat --cpuid-dump "$ICL" -C 1 -v -- true
is "$st:$(said stat-cmd-v "$PIN"):$(said stat-cmd-v "$DRY")" "0:1:1" \
	"stat -C 1 -v -- true: exit 0, each note once"
run stat-cmd-vv stat --cpuid-dump "$ICL" -C 1 -v --verbose -- true
is "$st:$(said stat-cmd-vv "$PIN"):$(said stat-cmd-vv "$DRY")" "0:1:1" \
	"stat -v --verbose: still once each"

# compare: what the kernel wrote while perf owned the counters (JSON keeps it)
run compare compare --cpuid-dump "$ICL" -C 1 --kernel retire-light -r 3 --json
is "$st:$(said compare "$PERF"):$(said compare "$DRY")" "0:0:0" \
	"compare: exit 0, neither what perf changed nor the dry run's directory on stderr"
is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["perf_changed"]) > 0)' "$tmp/compare.out")" \
	True "  ... its JSON keeps what perf changed (perf_changed)"
run compare-v compare --cpuid-dump "$ICL" -C 1 --kernel retire-light -r 3 --json -v
is "$st:$(said compare-v "$PERF"):$(said compare-v "$DRY")" "0:1:1" \
	"compare -v: exit 0, each note once"
like "$(grep -F "$PERF" "$tmp/compare-v.err")" "IA32_PERF_GLOBAL_CTRL \(0x38f\).*baretma put each back" \
	"  ... naming the registers perf wrote and that they were put back"

# pmu enable leaves its journal; pmu status and restore find it without -v
run enable pmu enable --cpuid-dump "$ICL" -C 1
is "$st:$(said enable "$DRY")" "0:0" "pmu enable: exit 0, no note of the dry run's directory"
run status pmu status --cpuid-dump "$ICL"
like "$(cat "$tmp/status.out")" "journal '$dry/run-[0-9]*\.journal': counters enabled by 'baretma pmu enable" \
	"pmu status without -v: finds the dry run's journal, named with its directory"
run restore pmu restore --cpuid-dump "$ICL"
is "$st:$(said restore "$DRY")" "0:0" "pmu restore: exit 0, no note"
like "$(cat "$tmp/restore.out")" "cpu 1: restored" "  ... and puts cpu 1 back from the dry run's journal"
run enable-v pmu enable --cpuid-dump "$ICL" -C 1 -v
is "$st:$(said enable-v "$DRY")" "0:1" "pmu enable -v: exit 0, the note once"
run restore-v pmu restore --cpuid-dump "$ICL" -v
is "$st:$(said restore-v "$DRY"):$(grep -c 'cpu 1: restored' "$tmp/restore-v.out")" "0:1:1" \
	"pmu restore -v: exit 0, the note once, cpu 1 put back"

# msr write: the same; its journal put back by pmu restore
run write msr write --cpuid-dump "$ICL" 1 0x38f 0
is "$st:$(said write "$DRY")" "0:0" "msr write: exit 0, no note"
run restore2 pmu restore --cpuid-dump "$ICL"
is "$st:$(grep -c 'cpu 1: restored' "$tmp/restore2.out")" "0:1" "  ... pmu restore puts it back"
run write-v msr write --cpuid-dump "$ICL" -v 1 0x38f 0
is "$st:$(said write-v "$DRY")" "0:1" "msr write -v: exit 0, the note once"
run restore3 pmu restore --cpuid-dump "$ICL"
is "$st:$(grep -c 'cpu 1: restored' "$tmp/restore3.out")" "0:1" "  ... pmu restore puts it back"

# -v where it says nothing: refused, as any option of another subcommand
run st-v pmu status -v
is "$st:$(cat "$tmp/st-v.err")" \
	"64:baretma: pmu status: option '--verbose' does not apply to 'pmu status' (try: baretma pmu status --help)" \
	"pmu status -v: exit 64, does not apply"
run rd-v msr read -v 0 0x38f
is "$st:$(cat "$tmp/rd-v.err")" \
	"64:baretma: msr read: option '--verbose' does not apply to 'msr read' (try: baretma msr read --help)" \
	"msr read -v: exit 64, does not apply"
is "$(find "$dry" -name '*.journal' | wc -l | tr -d ' ')" 0 "no journal left"
done_testing
