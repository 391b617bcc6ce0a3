/* msr/regs/msr_names.c - see msr_names.h; the addresses: linux arch/x86/include/asm/msr-index.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <strings.h>

#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/regs/msr_names.h"

static const struct reg { uint32_t msr; const char *name; } regs[] = {
	{ IA32_PMC0 + 0, "IA32_PMC0" }, { IA32_PMC0 + 1, "IA32_PMC1" },
	{ IA32_PMC0 + 2, "IA32_PMC2" }, { IA32_PMC0 + 3, "IA32_PMC3" },
	{ IA32_PMC0 + 4, "IA32_PMC4" }, { IA32_PMC0 + 5, "IA32_PMC5" },
	{ IA32_PMC0 + 6, "IA32_PMC6" }, { IA32_PMC0 + 7, "IA32_PMC7" },
	{ IA32_PERFEVTSEL0 + 0, "IA32_PERFEVTSEL0" }, { IA32_PERFEVTSEL0 + 1, "IA32_PERFEVTSEL1" },
	{ IA32_PERFEVTSEL0 + 2, "IA32_PERFEVTSEL2" }, { IA32_PERFEVTSEL0 + 3, "IA32_PERFEVTSEL3" },
	{ IA32_PERFEVTSEL0 + 4, "IA32_PERFEVTSEL4" }, { IA32_PERFEVTSEL0 + 5, "IA32_PERFEVTSEL5" },
	{ IA32_PERFEVTSEL0 + 6, "IA32_PERFEVTSEL6" }, { IA32_PERFEVTSEL0 + 7, "IA32_PERFEVTSEL7" },
	{ IA32_FIXED_CTR0 + 0, "IA32_FIXED_CTR0" }, { IA32_FIXED_CTR0 + 1, "IA32_FIXED_CTR1" },
	{ IA32_FIXED_CTR0 + 2, "IA32_FIXED_CTR2" }, { IA32_FIXED_CTR0 + 3, "IA32_FIXED_CTR3" },
	{ IA32_FIXED_CTR0 + 4, "IA32_FIXED_CTR4" }, { IA32_FIXED_CTR0 + 5, "IA32_FIXED_CTR5" },
	{ IA32_FIXED_CTR0 + 6, "IA32_FIXED_CTR6" },
	{ IA32_PERF_METRICS, "IA32_PERF_METRICS" },
	{ IA32_PERF_CAPABILITIES, "IA32_PERF_CAPABILITIES" },
	{ IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL" },
	{ IA32_PERF_GLOBAL_STATUS, "IA32_PERF_GLOBAL_STATUS" },
	{ IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL" },
	{ IA32_PERF_GLOBAL_STATUS_RESET, "IA32_PERF_GLOBAL_STATUS_RESET" },
	{ IA32_PERF_GLOBAL_STATUS_SET, "IA32_PERF_GLOBAL_STATUS_SET" },
	{ IA32_PERF_GLOBAL_INUSE, "IA32_PERF_GLOBAL_INUSE" },
	{ IA32_A_PMC0 + 0, "IA32_A_PMC0" }, { IA32_A_PMC0 + 1, "IA32_A_PMC1" },
	{ IA32_A_PMC0 + 2, "IA32_A_PMC2" }, { IA32_A_PMC0 + 3, "IA32_A_PMC3" },
	{ IA32_A_PMC0 + 4, "IA32_A_PMC4" }, { IA32_A_PMC0 + 5, "IA32_A_PMC5" },
	{ IA32_A_PMC0 + 6, "IA32_A_PMC6" }, { IA32_A_PMC0 + 7, "IA32_A_PMC7" },
	/* AMD PerfMonV2 (msr/regs/amd_regs.h; the AMD PPR's names) */
	{ AMD_PERF_CNTR_GLOBAL_STATUS, "PERF_CNTR_GLOBAL_STATUS" },
	{ AMD_PERF_CNTR_GLOBAL_CTL, "PERF_CNTR_GLOBAL_CTL" },
	{ AMD_PERF_CNTR_GLOBAL_STATUS_CLR, "PERF_CNTR_GLOBAL_STATUS_CLR" },
	{ AMD_PERF_CNTR_GLOBAL_STATUS_SET, "PERF_CNTR_GLOBAL_STATUS_SET" },
	{ AMD_PERF_CTL(0), "PERF_CTL0" }, { AMD_PERF_CTR(0), "PERF_CTR0" },
	{ AMD_PERF_CTL(1), "PERF_CTL1" }, { AMD_PERF_CTR(1), "PERF_CTR1" },
	{ AMD_PERF_CTL(2), "PERF_CTL2" }, { AMD_PERF_CTR(2), "PERF_CTR2" },
	{ AMD_PERF_CTL(3), "PERF_CTL3" }, { AMD_PERF_CTR(3), "PERF_CTR3" },
	{ AMD_PERF_CTL(4), "PERF_CTL4" }, { AMD_PERF_CTR(4), "PERF_CTR4" },
	{ AMD_PERF_CTL(5), "PERF_CTL5" }, { AMD_PERF_CTR(5), "PERF_CTR5" },
};

/* Names the SDM used before (msr-index.h MSR_CORE_PERF_GLOBAL_OVF_CTRL). */
static const struct reg aliases[] = {
	{ IA32_PERF_GLOBAL_STATUS_RESET, "IA32_PERF_GLOBAL_OVF_CTRL" },
};

#define NREGS (sizeof(regs) / sizeof(regs[0]))

const char *msr_reg_name(uint32_t msr)
{
	for (size_t i = 0; i < NREGS; i++)
		if (regs[i].msr == msr)
			return regs[i].name;
	return NULL;
}

/* The architectural counter ranges of the table (msr/intel_regs.h INTEL_GP_ARCH_MAX,
 * INTEL_FIXED_ARCH_MAX, with their sources). */
#define GP_ARCH    8u
#define FIXED_ARCH 7u

/* Does @c have the counter whose register @msr is?  true for a register
 * that is no counter's. */
static bool has_counter(uint32_t msr, const struct msr_counters *c)
{
	static const uint32_t gp_base[] = { IA32_PMC0, IA32_PERFEVTSEL0, IA32_A_PMC0 };

	for (size_t k = 0; k < sizeof(gp_base) / sizeof(gp_base[0]); k++)
		if (msr >= gp_base[k] && msr < gp_base[k] + GP_ARCH)
			return c->gp_mask & (1u << (msr - gp_base[k]));
	if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + FIXED_ARCH)
		return c->fixed_mask & (1u << (msr - IA32_FIXED_CTR0));
	if (msr >= AMD_PERF_CTL0 && msr < AMD_PERF_CTL(AMD_GP_MAX))
		return c->gp_mask & (1u << ((msr - AMD_PERF_CTL0) / 2));
	return true;
}

const char *msr_reg_name_cpu(uint32_t msr, const struct msr_counters *c)
{
	return !c || has_counter(msr, c) ? msr_reg_name(msr) : NULL;
}

const char *msr_reg_label(uint32_t msr, char *buf, size_t n)
{
	return msr_reg_label_cpu(msr, NULL, buf, n);
}

const char *msr_reg_label_cpu(uint32_t msr, const struct msr_counters *c, char *buf, size_t n)
{
	const char *name = msr_reg_name_cpu(msr, c);

	if (name)
		snprintf(buf, n, "%s (0x%" PRIx32 ")", name, msr);
	else
		snprintf(buf, n, "MSR 0x%" PRIx32, msr);
	return buf;
}

int msr_reg_lookup(const char *name, uint32_t *msr)
{
	for (size_t i = 0; name && i < NREGS; i++)
		if (!strcasecmp(regs[i].name, name)) {
			*msr = regs[i].msr;
			return 0;
		}
	for (size_t i = 0; name && i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(aliases[i].name, name)) {
			*msr = aliases[i].msr;
			return 0;
		}
	return -ENOENT;
}

const char *msr_reg_at(size_t i, uint32_t *msr)
{
	if (i >= NREGS)
		return NULL;
	*msr = regs[i].msr;
	return regs[i].name;
}
