#!/bin/sh
# t/1010-stat-signal-setup.sh - SIGINT, SIGTERM and SIGHUP at every point of
# `baretma stat`'s set-up keep man/baretma-stat.1's promises (project issue 27):
# without a command the count ends, its totals (real counts) are printed,
# exit 0, and `signal` names the signal; with a command the signal is
# forwarded to it (its process dies of it before it executes anything)
# and stat exits with its status, 128+N; a signal after the count has
# ended changes nothing; a signal during --wait ends the wait at once:
# exit 75, nothing counted, nothing printed on standard output; an ignored
# SIGHUP (nohup) stays ignored, for the command too.  The registers - the
# simulated PMU's, kept in a state file - are byte for byte as found and
# no journal is left, every time.
#
# Before, a signal in the first 0.3-0.7 s (the set-up: identification,
# locks, the journal, the programming) killed stat (128+N, no output):
# the default action before the guard's handlers, the guard's restore-and-
# die after them.
#
# The points are the test build's seam (bench/cli/cli_hooks.c:
# $BARETMA_TEST_SIGNAL_AT=POINT:SIG makes the process kill(2) itself at
# POINT), so no timing decides where the signal lands: main (main's first
# instruction), setup (the command's start: options parsed, machine
# opened), open (CPUs identified, sessions opened), lock (before the
# locks), journal (journal begun, the guard's handlers installed), program
# (registers written, before the count), end (the count has ended, before
# the registers are put back), print (registers back, before the output).
#
# Expected values come from outside baretma: the exit statuses and the
# `signal` field are man/baretma-stat.1's, the signal numbers POSIX's (HUP 1,
# INT 2, TERM 15), each level-1 share is the profile's (35/12/23/30 %) as
# Ice Lake's recipe takes it (icelake_metrics.json's Backend_Bound + 5 x
# INT_MISC.CLEARS_COUNT / SLOTS, the simulator's one clear per 20 slots of
# bad speculation: 5 x 12 / 20 / 5 = 3 points from bad speculation to
# backend, 9 and 33 %: msr/sim/sim_events.c) within the bound printed beside
# it, and the registers are the fixture's.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/guard-fixture.sh"

HOOKS=$BARETMA_HOOKS
[ -x "$HOOKS" ] || skip_all "no test build of baretma ($HOOKS; make check builds it)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
command -v timeout >/dev/null 2>&1 || skip_all "no timeout(1) to bound a run that would hang"

setup() {
	fixture
	printf '0\n' >"$WD"
	cp -a "$WD" "$tmp/root.orig/proc/sys/kernel/nmi_watchdog"
	{ sim_regs 0; sim_regs 1; } >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
	rm -f "$tmp/ran" "$tmp/points" "$tmp/stop" "$tmp/started" "$tmp/out" "$tmp/err"
}
sim_profile
BARETMA_MSR=sim:$tmp/profile
BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_CPUID_DUMP
unset BARETMA_TEST_SIGNAL_AT BARETMA_TEST_POINTS

# at POINT SIG ARGS...: stat ARGS with SIG sent at POINT, bounded (a lost
# signal would leave a count without a command running); status in $rc,
# standard output in $tmp/out, standard error in $tmp/err.
at() {
	_p=$1 _s=$2
	shift 2
	BARETMA_TEST_SIGNAL_AT=$_p:$_s timeout -k 5 20 "$HOOKS" stat "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
# q EXPR: a Python expression over the JSON document d of $tmp/out (with
# -I: its last line, the end); s: its first sample.
q() {
	pyq 'import json,sys
t = open(sys.argv[1]).read().strip()
try:
    d = json.loads(t)
except ValueError:
    d = json.loads(t.splitlines()[-1])
s = (d.get("samples") or [None])[0]
print(eval(sys.argv[2]))' "$tmp/out" "$1" 2>&1
}
# the level-1 shares of s off the profile's by more than their bound
SHARES='[n["metric"] for n in s["nodes"] if n["level"] == 1 and abs(n["percent"] - {"tma_retiring": 35, "tma_bad_speculation": 9, "tma_frontend_bound": 23, "tma_backend_bound": 33}[n["metric"]]) > s["bound_pp"] + 1e-9]'
as_found() { echo "$(same "$tmp/state" "$tmp/orig")$(same_root):$(journals)"; }

# --- no command: the count starts, ends at once, its totals printed -----
for point in main setup open lock journal program; do
	for sig in INT TERM HUP; do
		n=$(signum "$sig")
		setup
		at "$point" "$sig" -C 0-1 --json
		is "$rc" 0 "SIG$sig at $point, no command: exit 0"
		is "$(q '(d["signal"], d["exit_status"], d["intervals"]), (s["ncpus"], s["valid"], s["slots"] > 0), '"$SHARES")" \
			"(($n, 0, 1), (2, True, True), [])" \
			"  signal $n named, exit_status 0, one interval; totals of both CPUs, counted (slots > 0), every level-1 share the profile's within its bound"
		is "$(as_found)" "00:" "  registers and settings as found, no journal"
	done
done

# --- no command, after the count: nothing changes -----------------------
for point in end print; do
	for sig in INT TERM HUP; do
		setup
		at "$point" "$sig" -C 0-1 -I 10 --count 2 --json
		is "$rc" 0 "SIG$sig at $point (-I 10 --count 2): exit 0"
		is "$(q 'd["type"], d["signal"], d["intervals"]')" "('end', None, 2)" \
			"  the end printed: 2 intervals, no signal ended the count"
		is "$(as_found)" "00:" "  registers and settings as found, no journal"
	done
done

# --- a command: the signal is forwarded, its process dies of it ---------
for point in main open lock journal program; do
	for sig in INT TERM HUP; do
		n=$(signum "$sig")
		setup
		at "$point" "$sig" -C 0-1 --json -- sh -c ": >'$tmp/ran'"
		is "$rc" $((128 + n)) "SIG$sig at $point, with a command: exit $((128 + n))"
		is "$(q 'd["signal"], d["exit_status"], s["ncpus"], s["slots"] > 0')" \
			"($n, $((128 + n)), 2, True)" "  signal and status in the totals, counted"
		ok "$([ ! -e "$tmp/ran" ] && echo 0 || echo 1)" "  the command did not run"
		like "$(cat "$tmp/err")" "SIG$sig came before the command was started" "  and that is said"
		is "$(as_found)" "00:" "  registers and settings as found, no journal"
	done
done
for point in end print; do
	setup
	at "$point" TERM -C 0-1 --json -- sh -c ": >'$tmp/ran'; exit 3"
	is "$rc" 3 "SIGTERM at $point, after the command: its status, 3"
	is "$(q 'd["signal"], d["exit_status"]')" "(None, 3)" "  no signal ended the count"
	ok "$([ -e "$tmp/ran" ] && echo 0 || echo 1)" "  the command ran"
	is "$(as_found)" "00:" "  registers and settings as found, no journal"
done

# --- SIGHUP ignored (nohup) stays ignored -------------------------------
setup
BARETMA_TEST_SIGNAL_AT=program:HUP timeout -k 5 20 sh -c 'trap "" HUP; exec "$@"' sh \
	"$HOOKS" stat -C 0-1 -- sh -c 'grep "^SigIgn:" /proc/self/status' >"$tmp/out" 2>"$tmp/err"
rc=$?
is "$rc" 0 "SIGHUP ignored, sent at program: ignored, the command ran and exited 0"
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$tmp/out")
is "$(( 0x${ign:-0} & 1 ))" 1 "  the command starts with SIGHUP ignored too (SigIgn bit 0, proc(5))"
is "$(as_found)" "00:" "  registers and settings as found, no journal"

# --- --wait: a signal ends the wait at once, exit 75 --------------------
# the holder: cpu 0's lock (msr/guard/lock.h: an flock of <state dir>/cpu0.lock)
# taken by flock(1) until told to stop; it touches no register (a run's
# simulated PMU would: another process's simulator reads the state file
# when it opens, before it waits)
command -v flock >/dev/null 2>&1 || { skip "no flock(1) to hold a CPU: --wait not checked"; done_testing; }
mkdir -p -m 0700 "$tmp/run"
hold() {
	flock "$tmp/run/cpu0.lock" sh -c ": >'$tmp/started'
		while [ ! -e '$tmp/stop' ]; do sleep 0.05; done" &
	holder=$!
	until_true test -e "$tmp/started"
}
unhold() { : >"$tmp/stop"; wait "$holder"; }
started_wait() { grep -qx lock "$tmp/points" 2>/dev/null; }
for sig in INT TERM HUP; do
	setup
	hold
	at lock "$sig" -C 0-1 --wait --json
	is "$rc" 75 "SIG$sig before --wait's wait (cpu 0 held): exit 75"
	is "$(cat "$tmp/out")" "" "  nothing on standard output (nothing was counted)"
	like "$(cat "$tmp/err")" "cpu 0: held by .*; a signal ended the wait for it \(--wait\)" \
		"  the CPU waited for named"
	like "$(cat "$tmp/err")" "SIG$sig ended the wait \(--wait\): nothing was counted" "  the signal named"
	# the same signal sent by another process while the run waits
	(export BARETMA_TEST_POINTS="$tmp/points"
	 sig_dfl "$HOOKS" stat -C 0-1 --wait --json >"$tmp/out" 2>"$tmp/err") &
	waiter=$!
	until_true started_wait
	kill "-$sig" "$waiter"
	wait "$waiter"; rc=$?
	is "$rc" 75 "SIG$sig from another process during --wait: exit 75"
	is "$(cat "$tmp/out")" "" "  nothing on standard output"
	unhold
	is "$(as_found)" "00:" "  registers and settings as found, no journal"
done
# and a wait that no signal ends counts once the CPU is free
setup
hold
(export BARETMA_TEST_POINTS="$tmp/points"
 sig_dfl "$HOOKS" stat -C 0-1 --wait -I 10 --count 1 --json >"$tmp/out" 2>"$tmp/err") &
waiter=$!
until_true started_wait
unhold
wait "$waiter"; rc=$?
is "$rc" 0 "--wait with no signal: counts once cpu 0 is free, exit 0"
is "$(q 'd["type"], d["intervals"]')" "('end', 1)" "  its interval read"
is "$(as_found)" "00:" "  registers and settings as found, no journal"

done_testing
