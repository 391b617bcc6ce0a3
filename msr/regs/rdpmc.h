/*
 * msr/regs/rdpmc.h - the only place with RDPMC / RDTSC / RDTSCP / LFENCE asm.
 *
 * RDPMC ECX encodings (linux arch/x86/include/asm/perf_event.h
 * INTEL_PMC_FIXED_RDPMC_BASE, INTEL_PMC_FIXED_RDPMC_METRICS):
 *   (1<<30)|3  fixed counter 3 = TOPDOWN.SLOTS
 *   1<<29      IA32_PERF_METRICS (all 64 bits)
 * At CPL 3 RDPMC needs CR4.PCE, else #GP -> SIGSEGV (arch/x86/kernel/traps.c):
 * probe with rdpmc_probe() before calling these.  RDPMC reads the counters
 * of the CPU it executes on: the caller must be pinned.
 * LFENCE before and after keeps the read from drifting into or out of the
 * measured region (SDM: LFENCE waits for prior instructions to complete).
 */
#ifndef BARETMA_RDPMC_H
#define BARETMA_RDPMC_H

#include <stdint.h>

static inline __attribute__((always_inline)) void bm_lfence(void)
{
	__asm__ __volatile__("lfence" ::: "memory");
}

/* rdpmc_raw - RDPMC with @ecx; no fences. */
static inline __attribute__((always_inline)) uint64_t rdpmc_raw(uint32_t ecx)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx) : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* rdpmc_fenced - LFENCE; RDPMC(@ecx); LFENCE. */
static inline __attribute__((always_inline)) uint64_t rdpmc_fenced(uint32_t ecx)
{
	bm_lfence();
	uint64_t v = rdpmc_raw(ecx);
	bm_lfence();
	return v;
}

/* rdtsc_fenced - LFENCE; RDTSC; LFENCE: TSC ticks. */
static inline __attribute__((always_inline)) uint64_t rdtsc_fenced(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* rdtscp_fenced - RDTSCP (waits for prior instructions); LFENCE.  @aux gets
 * IA32_TSC_AUX (Linux puts the CPU number in its low 12 bits). */
static inline __attribute__((always_inline)) uint64_t rdtscp_fenced(uint32_t *aux)
{
	uint32_t lo, hi, c;
	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(c) :: "memory");
	if (aux)
		*aux = c;
	return ((uint64_t)hi << 32) | lo;
}

/*
 * rdpmc_probe - execute RDPMC(@ecx) in a cloned child with a SIGSEGV
 * handler, so a fault never reaches the caller (LIKWID's approach,
 * access_x86_rdpmc.c).  Run on the CPU the caller is pinned to.  The child
 * sends no SIGCHLD and is waited for by its pid with __WCLONE: a host that
 * ignores SIGCHLD or reaps its children itself (waitpid(-1)) neither sees
 * it nor takes it.
 * Returns 0 when RDPMC works, -EFAULT when it faulted (SIGSEGV: CR4.PCE
 * clear, or the counter index is invalid), -EIO when the child died another
 * way, -errno when clone/wait failed.
 */
int rdpmc_probe(uint32_t ecx);

/*
 * rdpmc_enable_self - with rdpmc=1, make RDPMC legal for this process the
 * way perf does: open a perf event for this task (slots, config 0x0400, or
 * cycles as a fallback) and mmap it, which sets CR4.PCE while this mm runs
 * (arch/x86/events/core.c x86_pmu_event_mapped).  The event is only a key:
 * it is disabled and never read.  Never changes the sysfs value.
 * Returns 0 (keep the returned fd open while measuring; close with
 * rdpmc_disable_self), or -errno from perf_event_open/mmap.
 */
int rdpmc_enable_self(int *fd);
void rdpmc_disable_self(int fd);

#endif
