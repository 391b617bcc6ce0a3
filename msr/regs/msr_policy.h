/*
 * msr/regs/msr_policy.h - which MSR writes baretma allows without --force: the
 * Intel architectural PMU registers it knows, each with the bits that are
 * defined on this CPU (everything else is reserved: a write with a reserved
 * bit set is a #GP on hardware, -EIO through /dev/cpu/N/msr, or worse, a
 * meaning baretma does not know).  Pure functions, no I/O.
 *
 * Register layouts (addresses, IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL,
 * IA32_PERF_GLOBAL_STATUS_RESET, IA32_PERF_METRICS, IA32_PERFEVTSELx, the
 * counters): Intel SDM Vol. 3B ch. 20-21 and Vol. 4, as linux
 * arch/x86/include/asm/perf_event.h and msr-index.h encode them.
 *
 * Policy beyond reserved bits (the safe choices where no primary source was
 * found for the kernel's behaviour on a PMI it did not arm): PMI bits (PERFEVTSELx.INT
 * bit 20, IA32_FIXED_CTR_CTRL bit 4i+3) are refused — a PMI baretma armed
 * would reach the kernel's NMI handler for a counter perf does not own.
 * IA32_PERF_GLOBAL_STATUS and IA32_PERF_GLOBAL_INUSE are read-only.
 * IA32_PERF_CAPABILITIES is read-only.  Arch-perfmon v6 aliases (0x1900+)
 * are not known (not used by baretma): they need --force.
 * AMD PerfMonV2 (msr_pmu_caps.amd; linux arch/x86/include/asm/msr-index.h,
 * arch/x86/events/amd/core.c, the AMD PPR; msr/regs/amd_regs.h): PERF_CTLi
 * takes EventSelect[11:0] (bits 7:0 and 35:32), UnitMask, USR, OS, Edge,
 * EN, Inv, CntMask, GuestOnly and HostOnly, never INT; PERF_CTRi 48 bits;
 * PERF_CNTR_GLOBAL_CTL and _STATUS_CLR the counters' bits (i < gp_counters);
 * PERF_CNTR_GLOBAL_STATUS is read-only.
 * Bit 2 of fixed counter 3's field of IA32_FIXED_CTR_CTRL (bit 14) is
 * METRICS_CLEAR_EN on Lion Cove and later: an RDPMC of PERF_METRICS then
 * clears PERF_METRICS and fixed counter 3 (linux arch/x86/include/asm/perf_event.h
 * INTEL_FIXED_3_METRICS_CLEAR; linux commit 0e45818ec189 "perf/x86/intel: Support
 * RDPMC metrics clear mode").
 * It is allowed only where IA32_PERF_CAPABILITIES[19] enumerates that mode
 * (msr_pmu_caps.metrics_clear); elsewhere FC3 has no AnyThread (FC3 exists
 * from Ice Lake on, where AnyThread is deprecated: CPUID.0AH:EDX[15], linux
 * perf_event.h cpuid10_edx anythread_deprecated) and the bit is
 * refused.
 */
#ifndef BARETMA_MSR_POLICY_H
#define BARETMA_MSR_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The PMU of one CPU, as cpu/ enumerated it (CPUID leaf 0xA / 0x23, model table). */
struct msr_pmu_caps {
	unsigned gp_counters;    /* IA32_PMCx / IA32_PERFEVTSELx, x < gp_counters */
	unsigned gp_width;       /* bits of a GP counter */
	uint32_t fixed_mask;     /* bit i: fixed counter i exists */
	unsigned fixed_width;    /* bits of a fixed counter */
	int perf_metrics_level;  /* 0: no IA32_PERF_METRICS, 1: bytes 0-3, 2: bytes 0-7 */
	bool full_width_write;   /* IA32_PERF_CAPABILITIES[13]: IA32_A_PMCx exist */
	bool metrics_clear;      /* IA32_PERF_CAPABILITIES[19] (PERF_CAP_RDPMC_METRICS_CLEAR):
				  * FC3 field bit 2 is METRICS_CLEAR_EN */
	bool amd;                /* an AMD PerfMonV2 PMU (cpu/cpu.h cpu_kind.perfmon_v2):
				  * its registers (msr/regs/amd_regs.h) instead of Intel's;
				  * gp_counters PERF_CTL/PERF_CTR pairs, 48 bits */
};

enum msr_write_verdict {
	MSR_WRITE_OK = 0,        /* a known PMU register, value within its defined bits */
	MSR_WRITE_RESERVED,      /* known register, reserved or refused bits set */
	MSR_WRITE_READ_ONLY,     /* known register that cannot be written */
	MSR_WRITE_UNKNOWN,       /* not a PMU register baretma knows: needs --force */
};

/*
 * msr_write_check - may @val be written to @msr on a CPU with @caps?
 * @why (if not NULL) receives one line naming the register and, for
 * MSR_WRITE_RESERVED, the offending bits, e.g. "IA32_PERF_GLOBAL_CTRL:
 * bits 0x1000000000000 reserved on this CPU (bit 48 EN_PERF_METRICS needs
 * IA32_PERF_METRICS)".
 */
enum msr_write_verdict msr_write_check(const struct msr_pmu_caps *caps, uint32_t msr,
				       uint64_t val, char *why, size_t n);

/*
 * msr_policy_knows - is @msr a register msr_write_check() lets `msr write`
 * write on SOME Intel CPU (MSR_WRITE_OK for the value 0), so that a `msr
 * write` journal may hold it without the unsafe-msr mark (msr/journal/journal.h)?
 * The register set is taken at the most the architectural ranges hold, not
 * at one CPU's counts: a journal does not record the CPU it was written on,
 * and a journal read on another part (or with a CPUID dump) must not be
 * told apart by capabilities it cannot prove.  So: IA32_PMC0-7,
 * IA32_A_PMC0-7, IA32_PERFEVTSEL0-7 (x < 8: past that the addresses are
 * other registers, 0x18e.. and 0xc9..; msr/intel_regs.h INTEL_GP_ARCH_MAX), IA32_FIXED_CTR0-6
 * (0x309-0x30f), IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL,
 * IA32_PERF_GLOBAL_STATUS_RESET, IA32_PERF_METRICS; and AMD's PERF_CTL0-5,
 * PERF_CTR0-5, PERF_CNTR_GLOBAL_CTL, PERF_CNTR_GLOBAL_STATUS_CLR (six core
 * counters: msr/regs/amd_regs.h).  Every one of them is a PMU register: restoring one a
 * CPU lacks is a #GP (-EIO), never a write to another register.  The
 * read-only ones (GLOBAL_STATUS, GLOBAL_INUSE, PERF_CAPABILITIES) are not
 * in the set: `msr write` never writes them, even with --unsafe-msr.
 */
bool msr_policy_knows(uint32_t msr);

#endif
