#!/bin/sh
# t/0930-openmetrics-sim.sh - --openmetrics FILE of bench, validate and
# calibrate on the simulated PMU of real CPUID dumps: every file passes
# the line-by-line check of t/openmetrics-parse.py (OpenMetrics 1.0 and
# the Prometheus text exposition format, written from their specs, not
# from the writer) and
# `promtool check metrics` where promtool is installed (Debian's
# prometheus package); the numbers are the profile's.
#
# Expected numbers, worked by hand (t/0850's and t/0455's arithmetic):
# profile level 1 retiring 40, bad speculation 10, frontend 20, backend 30;
# level 2 heavy 10, branch mispredicts 6, fetch latency 12, memory bound
# 18 (so light 30, machine clears 4, fetch bandwidth 8, core bound 12).
#  - Alder Lake-S P-core (cpu 0, PERF_METRICS, Golden Cove width 6):
#    test-sim-work's net slots are W x K = 6 x 100000 = 600000; each share
#    is the profile's within the run's own bound (8-bit fields:
#    baretma_tma_bound_ratio), e.g. retiring 102/256 = 0.3984.
#  - its E-core (intel-ecore-l1:gracemont, exact counts, bound 0): each
#    share the profile's to 1e-4, its own level-2 nodes core bound 12 and
#    resource bound 18 (backend less core); net slots 5 x 100000.
# A ratio is a fraction of slots (0.40), never a percentage.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/events-fixture.sh"
events_dumps "$ADLS"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no CPUID dump $ICL"
parse="python3 -S $T_SRC/openmetrics-parse.py"

printf '%s\nbackend_bound 30\nmemory_bound 18\n' "$sim_common" >"$tmp/intel"

# om NAME: the parser's verdict and promtool's on $tmp/NAME.prom
om() {
	out=$($parse "$tmp/$1.prom" 2>&1); rc=$?
	is "$rc:$out" "0:" "$1: every line is a TYPE, UNIT, HELP, sample or the closing # EOF of both formats"
	if command -v promtool >/dev/null 2>&1; then
		out=$(promtool check metrics <"$tmp/$1.prom" 2>&1); rc=$?
		is "$rc:$out" "0:" "$1: promtool check metrics accepts it"
	else
		skip "promtool not installed (Debian: prometheus)"
	fi
}

# q NAME EXPR: a Python expression over the samples s (a list of
# {name, labels, value}) of $tmp/NAME.prom; r(NODE) the test-sim-work
# tma_ratio of NODE, v(NAME, **labels) the one sample that matches.
q() {
	$parse "$tmp/$1.prom" --json >"$tmp/$1.json" || return 1
	pyq - "$tmp/$1.json" "$2" <<'EOP'
import json, sys
s = json.load(open(sys.argv[1]))
def v(name, **l):
    m = [x["value"] for x in s if x["name"] == name and all(x["labels"].get(k) == w for k, w in l.items())]
    return m[0] if len(m) == 1 else ("%d matches" % len(m))
def r(node):
    return v("baretma_tma_ratio", kernel="test-sim-work", node=node)
print(eval(sys.argv[2]))
EOP
}

sim() { # DUMP PROFILE CMD ARGS...
	_d=$1 _p=$2
	shift 2
	BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$_d BARETMA_MSR=sim:$_p "$BARETMA_HOOKS" "$@"
}

# --- bench, P-core ---------------------------------------------------------
sim "$ADLS" "$tmp/intel" bench --backend msr --cpu 0 --kernel test-sim-work --reps 9 \
	--warmup 1 --openmetrics "$tmp/pcore.prom" >"$tmp/pcore.txt" 2>"$tmp/pcore.err"
is "$?" 0 "bench --openmetrics on the P-core: exit 0"
like "$(cat "$tmp/pcore.txt")" "tma_retiring" "the text table still on stdout"
om pcore
want="{'tma_retiring': .40, 'tma_bad_speculation': .10, 'tma_frontend_bound': .20,
	'tma_backend_bound': .30, 'tma_heavy_operations': .10, 'tma_light_operations': .30,
	'tma_branch_mispredicts': .06, 'tma_machine_clears': .04, 'tma_fetch_latency': .12,
	'tma_fetch_bandwidth': .08, 'tma_memory_bound': .18, 'tma_core_bound': .12}"
is "$(q pcore "sorted(n for n, w in $want.items()
	if not abs(r(n) - w) <= v('baretma_tma_bound_ratio', kernel='test-sim-work'))")" "[]" \
	"P-core: each of the 12 nodes is the profile's share within the bound"
is "$(q pcore "0 < v('baretma_tma_bound_ratio', kernel='test-sim-work') < 0.02")" True \
	"P-core: the bound is a fraction (8-bit fields: under 2 points here)"
is "$(q pcore "sorted(x['labels']['node'] for x in s if x['name'] == 'baretma_tma_ratio'
	and x['labels']['kernel'] == 'test-sim-work')")" "$(pyq "print(sorted($want))")" \
	"P-core: exactly those 12 nodes"
is "$(q pcore "v('baretma_slots', kernel='test-sim-work')")" 600000.0 \
	"P-core: slots W x K = 6 x 100000, its own series"
is "$(q pcore "sorted(set(tuple(sorted((k, w) for k, w in x['labels'].items() if k in
	('cpu', 'kind', 'recipe', 'backend'))) for x in s))")" \
	"[(('backend', 'msr'), ('cpu', '0'), ('kind', 'performance'), ('recipe', 'intel-perf-metrics'))]" \
	"P-core: the CPU, its kind, the recipe and the backend as labels"
is "$(q pcore "sorted(set((x['labels']['node'], x['labels']['level']) for x in s
	if x['name'] == 'baretma_tma_ratio' and x['labels']['node'] in
	('tma_retiring', 'tma_memory_bound')))")" \
	"[('tma_memory_bound', '2'), ('tma_retiring', '1')]" "P-core: each node's level as a label"

# --- bench, E-core (event recipe, exact) ------------------------------------
sim "$ADLS" "$tmp/intel" bench --backend msr --cpu "$ecore" --kernel test-sim-work --reps 9 \
	--warmup 1 --openmetrics "$tmp/ecore.prom" >/dev/null 2>"$tmp/ecore.err"
is "$?" 0 "bench --openmetrics on E-core $ecore: exit 0"
om ecore
want="{'tma_retiring': .40, 'tma_bad_speculation': .10, 'tma_frontend_bound': .20,
	'tma_backend_bound': .30, 'tma_fetch_latency': .12, 'tma_fetch_bandwidth': .08,
	'tma_branch_mispredicts': .06, 'tma_machine_clears': .04, 'tma_core_bound': .12,
	'tma_resource_bound': .18}"
is "$(q ecore "sorted(n for n, w in $want.items() if not abs(r(n) - w) <= 1e-4)")" "[]" \
	"E-core: each of the recipe's 10 nodes is the profile's share (exact counts)"
is "$(q ecore "(v('baretma_tma_bound_ratio', kernel='test-sim-work'),
	v('baretma_slots', kernel='test-sim-work'))")" "(0.0, 500000.0)" \
	"E-core: bound 0, slots 5 x 100000"
is "$(q ecore "sorted(set((x['labels']['kind'], x['labels']['recipe']) for x in s))")" \
	"[('efficiency', 'intel-ecore-l1:gracemont')]" "E-core: its kind and recipe as labels"

# --- validate ----------------------------------------------------------------
sim "$ICL" "$tmp/intel" validate --cpuid-dump "$ICL" --no-perf --openmetrics "$tmp/val.prom" \
	>"$tmp/val.txt" 2>"$tmp/val.err"
rc=$?
is "$rc" 0 "validate --openmetrics: exit 0"
om val
summary=$(tail -n 1 "$tmp/val.txt")
is "$(q val "'%d passed, %d failed, %d skipped' % tuple(v('baretma_validate_checks', result=x)
	for x in ('pass', 'fail', 'skip'))")" "$summary" "validate: the counts are the text's summary"
# each check once per result, 1 for the one the text gives it
pyq - "$tmp/val.txt" >"$tmp/val.want" <<'EOP'
import sys
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] in ("PASS", "FAIL", "SKIP"):
        print(f[2], f[3], f[0].lower())
EOP
is "$(q val "'\n'.join('%s %s %s' % (x['labels']['cpu'], x['labels']['check'], x['labels']['result'])
	for x in s if x['name'] == 'baretma_validate_check' and x['value'] == 1)")" \
	"$(cat "$tmp/val.want")" "validate: each check's result as the text says it, value 1"
is "$(q val "sorted(set(x['value'] for x in s if x['name'] == 'baretma_validate_check'))")" \
	"[0.0, 1.0]" "validate: the other results of a check 0"
is "$(q val "(len([x for x in s if x['name'] == 'baretma_validate_check']) ==
	3 * len([x for x in s if x['name'] == 'baretma_validate_check' and x['value'] == 1]))")" \
	True "validate: three series per check (pass, fail, skip)"

# --- calibrate ----------------------------------------------------------------
sim "$ICL" "$tmp/intel" calibrate --cpuid-dump "$ICL" --backend msr --reps 20 \
	-o "$tmp/calibration.json" --openmetrics "$tmp/cal.prom" >/dev/null 2>"$tmp/cal.err"
is "$?" 0 "calibrate --openmetrics: exit 0"
om cal
is "$(q cal "v('baretma_calibrate_backend_measured', backend='msr')")" 1.0 \
	"calibrate: the msr backend measured"
is "$(pyq "
import json; d = json.load(open('$tmp/calibration.json'))
b = [b for b in d['backends'] if b['backend'] == 'msr'][0]
print(b['bracket']['tsc_ticks']['median'], b['bracket']['slots']['median'])")" \
	"$(q cal "'%s %s' % (v('baretma_calibrate_bracket_tsc_ticks', backend='msr'),
	v('baretma_calibrate_bracket_slots', backend='msr'))")" \
	"calibrate: the bracket's ticks and slots are the calibration file's"
# Ice Lake (Sunny Cove, width 5): a reading is fixed counter 3,
# PERF_METRICS and the two general-purpose counters of its recipe
# (INT_MISC.UOP_DROPPING, INT_MISC.CLEARS_COUNT: msr/recipe/recipes_intel_pm.c),
# one access each (1000 cycles an access): 5 x 4 x 1000 slots between the
# two FC3 reads
is "$(q cal "v('baretma_calibrate_bracket_slots', backend='msr')")" 20000.0 \
	"calibrate: the bracket's slots W x 4 reads x 1000 cycles"
is "$(q cal "sorted(x['labels']['cycles'] for x in s if x['name'] == 'baretma_calibrate_tsc_ticks')")" \
	"['1000', '10000', '100000', '1000000']" "calibrate: one series per loop length"

done_testing
