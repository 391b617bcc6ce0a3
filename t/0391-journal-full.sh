#!/bin/sh
# t/0391-journal-full.sh - a state directory with no room for the journal's
# save of the registers (ENOSPC, EDQUOT, or EFBIG past RLIMIT_FSIZE): the
# run writes no register, says that the journal could not save one, names
# the state directory and the remedy (exit 73), and leaves no journal.
#
# The seam is RLIMIT_FSIZE, exact to the byte (set by python3, SIGXFSZ
# ignored: write(2) then fails with EFBIG): its limit is put between the
# size of the run's journal when it begins (header only) and its size once
# the first of its registers is saved (the four of msr/pmu/pmu.h, then the
# four of the two events Ice Lake's recipe counts beside them:
# IA32_A_PMC0-1, IA32_PERFEVTSEL0-1), both taken from a run of the
# same command killed right after its first save (t/fi-kill), so nothing
# depends on the checkout's path length (the header holds the command).
# The simulator keeps its registers in memory here: no other file grows.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

FI=${BARETMA_FI_KILL:-$(dirname "$BARETMA_HOOKS")/fi-kill}
[ -x "$FI" ] || skip_all "no fault injector $FI (make check builds it)"
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
BARETMA_MSR=sim:$tmp/p BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_CPUID_DUMP
short="bench --cpu 7 --backend msr --kernel empty --reps 3 --warmup 0"
cmd="bench --cpu 7 --backend msr --kernel empty --reps 1000000 --warmup 0"

# the journal with its registers saved: a run that cannot finish, killed
# a little after its first "sv" trace line (where that is: a short run's
# trace; it does not depend on the repetitions)
BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" $short >/dev/null 2>&1
first=$(grep -n '^sv ' "$tmp/trace" | head -1 | cut -d: -f1)
rm -f "$tmp/trace"
BARETMA_MSR_TRACE=$tmp/trace "$FI" "$tmp/trace" $((first + 20)) 9 0 -- "$BARETMA" $cmd \
	>/dev/null 2>&1
j=$(ls "$BARETMA_STATE_DIR"/run-*.journal 2>/dev/null | head -1)
[ -n "$j" ] || skip_all "no journal left by the killed run (first save at trace line '$first')"
full=$(wc -c <"$j")
regs=$(grep '^reg ' "$j" | wc -c)
is "$(grep -c '^reg 7 ' "$j")" 8 "the killed run's journal holds cpu 7's eight registers"
one=$(grep '^reg ' "$j" | head -1 | wc -c)
rm -f "$BARETMA_STATE_DIR"/*.journal
# between the header (full - regs) and the header with its first register
# line, with room for a PID or start time a few digits longer or shorter
# in the next run
limit=$((full - regs + one / 2))

out=$(python3 -S -c 'import os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
os.execvp(sys.argv[2], sys.argv[2:])' "$limit" "$BARETMA" $cmd 2>&1); rc=$?
is "$rc" 73 "no room to save the registers: exit 73 (EX_CANTCREAT)"
like "$out" "cannot save a register in the journal before writing it in state dir '$BARETMA_STATE_DIR': File too large" \
	"the message says the journal could not save a register, naming the state directory"
like "$out" "free space on its file system, raise the quota or the file size limit" "and the remedy"
unlike "$out" "nmi_watchdog|bench failed" "nothing else is blamed"
is "$(ls "$BARETMA_STATE_DIR" | grep -c 'journal')" 0 "no journal left (it saved nothing: nothing to restore)"

done_testing
