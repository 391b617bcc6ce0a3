#!/bin/sh
# t/1151-stat-startup-tsc.sh - `baretma stat` waits for no estimate of
# the TSC's rate (issue 30, stat: start-up).  Each session estimated the
# TSC's ticks per second over a relative nap of 20 ms (bench/session.c),
# and `stat -C 0-71` opens 72 sessions: 72 naps, most of its start-up's
# wall time (1.5 s on the simulated 72-CPU Sapphire Rapids).  stat times
# its intervals with CLOCK_MONOTONIC and prints nothing in TSC ticks, so
# its sessions ask for none (session_options.no_tsc_hz; the sessions of
# other callers share one estimate a process: t/1153).  Counted here as the
# relative sleeps the process makes (strace: clock_nanosleep or nanosleep
# without TIMER_ABSTIME; the interval timer's wake-ups are absolute
# deadlines, TIMER_ABSTIME, and are not counted), on the simulated PMU of
# the shipped Sapphire Rapids dump (a Xeon w7-2475X: 20 cores, 40
# threads, every one with PERF_METRICS; its "Logical CPU #" lines), for 1
# CPU and for all: none (before: one a CPU).
. "$T_SRC/tap.sh"

[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
command -v strace >/dev/null 2>&1 || skip_all "strace not installed (.ci/run installs it)"
strace -o /dev/null true >/dev/null 2>&1 || skip_all "strace cannot trace here (ptrace refused)"
SPR=$T_SRC/../examples/dumps/sapphire-rapids-ws-xeon-w7.test
[ -r "$SPR" ] || skip_all "no $SPR"
ncpu=$(grep -c 'Logical CPU #' "$SPR")
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_PERF BARETMA_CPUID_DUMP
printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run
export BARETMA_MSR BARETMA_STATE_DIR
mkdir -p "$tmp/run"

# naps CPUS: the relative sleeps of `stat -C CPUS -I 10 --count 1`
# (LeakSanitizer, in an --enable-sanitizers build, refuses to run under
# ptrace and fails the command: off for the traced runs, as t/0346 does)
naps() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=nanosleep,clock_nanosleep -o "$tmp/strace" \
		"$BARETMA" stat --cpuid-dump "$SPR" -C "$1" -I 10 --count 1 >/dev/null 2>"$tmp/err" ||
		echo "stat -C $1: exit $?"
	grep -E '(clock_)?nanosleep\(' "$tmp/strace" | grep -vc TIMER_ABSTIME
}

is "$ncpu" 40 "the dump has the w7-2475X's 40 logical CPUs"
is "$(naps 0)" 0 "stat -C 0: no relative nap"
is "$(naps 0-$((ncpu - 1)))" 0 "stat -C 0-$((ncpu - 1)): none either, not one per CPU"

done_testing
