/*
 * msr/regs/msr_names.h - the one table of the register names baretma knows:
 * Intel's architectural PMU registers (SDM Vol. 4 names; addresses from
 * msr/regs/intel_regs.h, linux msr-index.h's) and AMD's PerfMonV2 core PMU
 * registers (the AMD PPR's names, msr/regs/amd_regs.h), for messages, `pmu status` and
 * `msr read/write REGISTER`.  A register not in it has no name here, and
 * messages show its index in hex: baretma does not guess (0x1a0 is
 * IA32_MISC_ENABLE, not an event select; IA32_PERFEVTSELx and IA32_PMCx
 * are architectural for x < 8 only, msr/intel_regs.h: a ninth counter lives in the
 * arch-perfmon v6 ranges at 0x1900, which baretma does not name).
 * Pure functions, no I/O, async-signal-safe.
 */
#ifndef BARETMA_MSR_NAMES_H
#define BARETMA_MSR_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* msr_reg_name - the SDM name of @msr ("IA32_PERFEVTSEL2"), or NULL when
 * baretma does not know the register. */
const char *msr_reg_name(uint32_t msr);

/*
 * msr_reg_label - the register for a message, into @buf:
 * "IA32_PERF_GLOBAL_CTRL (0x38f)", or "MSR 0x1a0" for one baretma does not
 * know.  Returns @buf.
 */
const char *msr_reg_label(uint32_t msr, char *buf, size_t n);

/* The counters one CPU has, for naming its registers (msr_reg_name_cpu):
 * its core kind's masks (cpu/cpu.h struct cpu_kind, from CPUID leaf 0xA /
 * 0x23). */
struct msr_counters {
	uint32_t gp_mask;     /* bit i: IA32_PMCi, IA32_A_PMCi, IA32_PERFEVTSELi (AMD:
			       * PERF_CTLi, PERF_CTRi) exist */
	uint32_t fixed_mask;  /* bit i: IA32_FIXED_CTRi exists */
};

/*
 * msr_reg_name_cpu - msr_reg_name() on a CPU with the counters @c: a
 * counter register the CPU does not have (IA32_PMC6 on a 6-counter E-core,
 * IA32_FIXED_CTR3 without fixed counter 3) has no name there (NULL), since
 * that address is no register of its PMU.  @c NULL: the caller does not
 * know the CPU's counters, and the table's architectural ranges apply
 * (msr_reg_name).
 */
const char *msr_reg_name_cpu(uint32_t msr, const struct msr_counters *c);

/* msr_reg_label_cpu - msr_reg_label() with msr_reg_name_cpu()'s name:
 * "IA32_PMC6 (0xc7)" or "MSR 0xc7".  Returns @buf. */
const char *msr_reg_label_cpu(uint32_t msr, const struct msr_counters *c, char *buf, size_t n);

/*
 * msr_reg_lookup - the index of the register called @name, ASCII
 * case-insensitive ("ia32_perf_global_ctrl" is 0x38f); the SDM's older
 * name IA32_PERF_GLOBAL_OVF_CTRL is IA32_PERF_GLOBAL_STATUS_RESET (0x390).
 * Returns 0 and stores the index, or -ENOENT.
 */
int msr_reg_lookup(const char *name, uint32_t *msr);

/* msr_reg_at - entry @i of the table in address order (for listing the
 * names): the name, with the index in @msr; NULL past the end. */
const char *msr_reg_at(size_t i, uint32_t *msr);

#endif
