#!/bin/sh
# t/1160-tsc-rate-once.sh - a process measures the TSC's rate once where
# the TSC is invariant (CPUID.80000007H:EDX[8]: Intel SDM Vol. 3B
# "Invariant TSC", AMD APM Vol. 3 Fn8000_0007_EDX[8]; Linux reports it as
# the nonstop_tsc flag of /proc/cpuinfo), not once per CPU's session:
# each measurement sleeps 20 ms (bench/session.c), and `stat -a` opens a
# session per CPU, so the 72 CPUs of that dump slept 1.44 s at start-up.  Counted
# here by strace as the 20 ms sleeps of `stat -- true` on one CPU and on
# every CPU of the simulated Sapphire Rapids (the dump's CPUs: INDEX.tsv),
# and of bench: one each (issue 30, stat's start-up).
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"
command -v strace >/dev/null 2>&1 || skip_all "no strace (Debian package strace)"
grep -qw nonstop_tsc /proc/cpuinfo || skip_all "this CPU's TSC is not invariant: each session measures its rate"
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here (ptrace refused)"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
# sleeps ARGS...: the 20 ms sleeps of baretma ARGS on the simulated PMU
sleeps() {
	BARETMA_MSR=sim:$tmp/p strace -f -qq -e trace=nanosleep,clock_nanosleep \
		-o "$tmp/st" "$BARETMA" "$@" >"$tmp/out" 2>"$tmp/err"
	echo "$?:$(grep -c 'tv_nsec=20000000' "$tmp/st")"
}
n=$(BARETMA_MSR=sim:$tmp/p "$BARETMA" stat --cpuid-dump "$SPR" --json -- true 2>/dev/null |
	python3 -S -c 'import json,sys; print(len(json.load(sys.stdin)["cpus"]))')
ok "$([ "${n:-0}" -ge 8 ]; echo $?)" "stat -a on the simulated Sapphire Rapids counts many CPUs ($n)"
is "$(sleeps stat --cpuid-dump "$SPR" -C 0 -- true)" "0:1" "stat -C 0: the TSC's rate measured once"
is "$(sleeps stat --cpuid-dump "$SPR" -- true)" "0:1" "stat on all $n CPUs: still once"
is "$(sleeps bench --cpuid-dump "$SPR" --reps 3 --kernel empty)" "0:1" "bench: once"
done_testing
