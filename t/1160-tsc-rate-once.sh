#!/bin/sh
# t/1160-tsc-rate-once.sh - a process measures the TSC's rate once, not
# once per CPU's session (the invariant TSC has one rate: Intel SDM Vol.
# 3B "Invariant TSC", CPUID.80000007H:EDX[8]):
# each measurement sleeps 20 ms (bench/session.c), and `stat -a` opens a
# session per CPU, so the 72 CPUs of that dump slept 1.44 s at start-up.  Counted
# here by strace as the 20 ms sleeps of `stat -- true` on one CPU and on
# every CPU of the simulated Sapphire Rapids (the dump's CPUs: INDEX.tsv):
# none, stat needs no rate; and of bench: one (issue 30, stat's start-up).
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"
command -v strace >/dev/null 2>&1 || skip_all "no strace (Debian package strace)"
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here (ptrace refused)"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
# sleeps ARGS...: the 20 ms sleeps of baretma ARGS on the simulated PMU
sleeps() {
	# LeakSanitizer cannot run under ptrace (an ASan build): off for these
	BARETMA_MSR=sim:$tmp/p ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=nanosleep,clock_nanosleep \
		-o "$tmp/st" "$BARETMA" "$@" >"$tmp/out" 2>"$tmp/err"
	echo "$?:$(grep -c 'tv_nsec=20000000' "$tmp/st")"
}
n=$(BARETMA_MSR=sim:$tmp/p "$BARETMA" stat --cpuid-dump "$SPR" --json -- true 2>/dev/null |
	python3 -S -c 'import json,sys; print(len(json.load(sys.stdin)["cpus"]))')
ok "$([ "${n:-0}" -ge 8 ]; echo $?)" "stat -a on the simulated Sapphire Rapids counts many CPUs ($n)"
# stat converts no ticks to seconds (its clock is CLOCK_MONOTONIC): it
# measures no rate at all (t/1151 too)
is "$(sleeps stat --cpuid-dump "$SPR" -C 0 -- true)" "0:0" "stat -C 0: no TSC rate measured"
is "$(sleeps stat --cpuid-dump "$SPR" -- true)" "0:0" "stat on all $n CPUs: none either"
is "$(sleeps bench --cpuid-dump "$SPR" --reps 3 --kernel empty)" "0:1" "bench: once"
done_testing
