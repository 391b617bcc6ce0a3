/*
 * bench/benchmarks/stepcount.h - how many instructions a stretch of
 * compiled code executes, counted by single-stepping it: the x86 trap flag
 * (EFLAGS.TF, bit 8) makes the CPU raise a debug exception after each
 * instruction (SDM Vol. 3B, "Single-Step Exception Condition"), which
 * Linux delivers as SIGTRAP with the next instruction's address in the
 * signal's context (arch/x86/kernel/traps.c exc_debug_user); a user
 * process may set TF itself with POPF (SDM Vol. 2B, POPF: "TF ... can be
 * modified in any privilege level").  Linux clears TF for the handler and
 * restores the interrupted flags at sigreturn (arch/x86/kernel/signal.c),
 * so the stepping goes on after each trap.
 *
 * What `make benchmark` reports where RDPMC cannot be timed (no PMU: it
 * faults): the instructions of a reading pair as compiled, RDPMC included.
 * An RDPMC that faults (#GP: SIGSEGV) inside the stretch is stepped over
 * as if it had read 0 (EDX:EAX = 0), and counted: one instruction, as it
 * would be where it runs.  Needs no PMU and no privilege.  Not
 * async-signal-safe and not thread-safe: one count at a time, in one
 * thread, its SIGTRAP and SIGSEGV handlers installed for the count and
 * put back after.
 */
#ifndef BARETMA_STEPCOUNT_H
#define BARETMA_STEPCOUNT_H

#include <stdint.h>

#define STEP_LOG_MAX 4096u /* instructions a stretch may execute */

/* What one stretch executed. */
struct step_count {
	unsigned n;          /* instructions executed at addresses in [begin, end) */
	unsigned rdpmc;      /* of which RDPMC (0F 33), */
	unsigned rdtsc;      /* RDTSC (0F 31), */
	unsigned lfence;     /* LFENCE (0F AE E8) */
	unsigned emulated;   /* RDPMCs that faulted and were stepped over */
	int between;         /* instructions after the first RDTSC up to and with the
			      * last one (what a pair's TSC difference spans), -1
			      * with fewer than two RDTSCs */
};

/*
 * step_count - call @fn(@arg) single-stepped and count the instructions
 * it executes at addresses in [@begin, @end) (labels in @fn's code: asm
 * labels, see bench/benchmarks/bracket.c), into @out.
 * Returns 0; -ENOSPC (more than STEP_LOG_MAX instructions in the
 * stretch); -ENOTSUP (no trap came: single-stepping does not reach this
 * process, e.g. under a debugger that takes SIGTRAP); -errno of
 * sigaction.
 */
int step_count(void (*fn)(void *), void *arg, const void *begin, const void *end,
	       struct step_count *out);

#endif
