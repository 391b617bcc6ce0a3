#!/bin/sh
# t/0382-guard-signals.sh - a run killed by SIGINT, SIGTERM, SIGHUP or
# SIGQUIT mid-run dies of that signal (128 + N) after putting the state
# file and the settings back, leaving no journal; so does a kernel under
# test that faults inside a bracket (SIGSEGV, SIGBUS, SIGFPE, SIGILL), with
# the hidden test-only kernels of $BARETMA_TEST_HOOKS=1 (bench/kernels_hooks.c,
# in t/baretma-hooks only).
# Fixture: t/guard-fixture.sh.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

# A shell starts background jobs with SIGINT and SIGQUIT ignored, and an
# ignored signal stays ignored (msr/journal/journal.h, nohup): the run gets every
# default action back (sig_dfl, t/tap.sh; the test itself runs with them
# whatever it inherited).
ulimit -c 0 2>/dev/null

for sig in INT TERM HUP QUIT; do
	num=$(signum "$sig")
	fixture
	sig_dfl "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light \
		--reps 1000000 --warmup 0 --stop-nmi-watchdog >/dev/null 2>&1 &
	pid=$!
	until_true programmed 1; ok $? "SIG$sig: the run programmed cpu 1"
	is "$(cat "$WD")" 0 "SIG$sig: the watchdog is off during the run"
	kill -s "$sig" "$pid"
	wait "$pid"; rc=$?
	is "$rc" $((128 + num)) "SIG$sig: the run died of the signal"
	is "$(same "$tmp/state" "$tmp/orig"):$(same_root)" "0:0" \
		"SIG$sig: state file and settings byte for byte as found"
	is "$(journals)" "" "SIG$sig: no journal left"
done

# The hidden kernels are in t/baretma-hooks only, the tool as make check
# builds it (bench/kernels_hooks.c); run by hand without it, say so.
if [ ! -x "${BARETMA_HOOKS:-}" ]; then
	skip "faults inside a bracket: no t/baretma-hooks (the test build of the tool: make check builds it)"
	done_testing
fi

for f in segv:SEGV bus:BUS fpe:FPE ill:ILL; do
	k=${f%:*} sig=${f#*:}
	num=$(signum "$sig")
	fixture
	BARETMA_TEST_HOOKS=1 "$BARETMA_HOOKS" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
		--kernel "test-fault-$k" --reps 3 --stop-nmi-watchdog >/dev/null 2>&1; rc=$?
	is "$rc" $((128 + num)) "test-fault-$k: the run died of SIG$sig inside a bracket"
	is "$(same "$tmp/state" "$tmp/orig"):$(same_root)" "0:0" \
		"test-fault-$k: state file and settings byte for byte as found"
	is "$(journals)" "" "test-fault-$k: no journal left"
done

out=$("$BARETMA_HOOKS" bench --kernel test-fault-segv --backend tsc 2>&1); rc=$?
is "$rc" 64 "without BARETMA_TEST_HOOKS=1 the fault kernels do not exist"

done_testing
