/* msr/regs/msr_policy.c - see msr_policy.h for the rules and their sources. */
#include <inttypes.h>
#include <stdio.h>

#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/regs/msr_names.h"
#include "msr/regs/msr_policy.h"

#define MAX_GP_ARCH        8u     /* architectural MSR ranges baretma names */
#define MAX_FIXED_ARCH     7u     /* FC0..FC6 (linux msr-index.h, x86_pmu_fixed_ctr_addr) */

/* Status bits other than the counters' that 0x390 may clear (linux
 * arch/x86/include/asm/perf_event.h GLOBAL_STATUS_*: 55, 58-63). */
#define GLOBAL_STATUS_OTHER ((1ull << 55) | (0x3full << 58))

static uint64_t width_mask(unsigned bits)
{
	return bits >= 64 ? ~0ull : bits ? (1ull << bits) - 1 : 0;
}

/* GP enable bits 0..n-1, fixed enable bits 32+i, bit 48 with PERF_METRICS. */
static uint64_t counter_bits(const struct msr_pmu_caps *c)
{
	uint64_t m = width_mask(c->gp_counters < 32 ? c->gp_counters : 32);

	for (unsigned i = 0; i < MAX_FIXED_ARCH; i++)
		if (c->fixed_mask & (1u << i))
			m |= 1ull << GLOBAL_FIXED_BIT(i);
	if (c->perf_metrics_level > 0)
		m |= GLOBAL_CTRL_EN_PERF_METRICS;
	return m;
}

/* IA32_FIXED_CTR_CTRL: EN_OS, EN_USR and AnyThread of every existing fixed
 * counter; on fixed counter 3 bit 2 is METRICS_CLEAR_EN, allowed only with
 * IA32_PERF_CAPABILITIES[19]; PMI bits are refused (msr_policy.h). */
static uint64_t fixed_ctrl_bits(const struct msr_pmu_caps *c)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < MAX_FIXED_ARCH; i++) {
		uint64_t f = FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR | FIXED_CTR_CTRL_ANYTHR;

		if (i == FIXED_CTR3_IDX && !c->metrics_clear)
			f &= ~FIXED_CTR_CTRL_ANYTHR;
		if (c->fixed_mask & (1u << i))
			m |= f << FIXED_CTR_CTRL_SHIFT(i);
	}
	return m;
}

/* Why IA32_FIXED_CTR_CTRL bits are refused, for @val. */
static const char *fixed_ctrl_note(const struct msr_pmu_caps *c, uint64_t val)
{
	uint64_t clear = FIXED_CTR_CTRL_ANYTHR << FIXED_CTR3_FIELD_SHIFT;

	if ((val & clear) && !c->metrics_clear && (c->fixed_mask & (1u << FIXED_CTR3_IDX)))
		return "bit 14 is fixed counter 3's METRICS_CLEAR_EN, which needs RDPMC "
		       "metrics-clear mode (IA32_PERF_CAPABILITIES[19], Lion Cove and later); "
		       "PMI bits (4i+3) are refused: no PMI is armed by baretma";
	return "PMI bits (4i+3) are refused: no PMI is armed by baretma";
}

/* Verdict for a value against the defined bits @ok of a known register. */
static enum msr_write_verdict bits_check(const char *name, uint64_t val, uint64_t ok,
					 const char *note, char *why, size_t n)
{
	uint64_t bad = val & ~ok;

	if (!bad) {
		snprintf(why, n, "%s: value within its defined bits", name);
		return MSR_WRITE_OK;
	}
	snprintf(why, n, "%s: bits 0x%" PRIx64 " of 0x%" PRIx64 " are reserved or refused on "
		 "this CPU (allowed: 0x%" PRIx64 ")%s%s", name, bad, val, ok, note ? "; " : "",
		 note ? note : "");
	return MSR_WRITE_RESERVED;
}

static enum msr_write_verdict absent(const char *name, const char *what, unsigned have,
				     char *why, size_t n)
{
	snprintf(why, n, "%s does not exist on this CPU (%u %s)", name, have, what);
	return MSR_WRITE_RESERVED;
}

/* PERF_CTL bits baretma may write (msr_policy.h): never INT. */
#define AMD_PERF_CTL_OK (AMD_PERF_CTL_EVENT_LO | 0xff00ull | AMD_PERF_CTL_USR | AMD_PERF_CTL_OS | \
			 AMD_PERF_CTL_EDGE | AMD_PERF_CTL_EN | AMD_PERF_CTL_INV | 0xff000000ull | \
			 AMD_PERF_CTL_EVENT_HI | AMD_PERF_CTL_GUESTONLY | AMD_PERF_CTL_HOSTONLY)

/* An AMD PerfMonV2 PMU (msr_policy.h). */
static enum msr_write_verdict amd_check(const struct msr_pmu_caps *c, const char *name,
					uint32_t msr, uint64_t val, char *why, size_t wn)
{
	unsigned n = c->gp_counters < AMD_GP_MAX ? c->gp_counters : AMD_GP_MAX, i;

	if (msr == AMD_PERF_CNTR_GLOBAL_STATUS) {
		snprintf(why, wn, "%s is read-only", name);
		return MSR_WRITE_READ_ONLY;
	}
	if (msr == AMD_PERF_CNTR_GLOBAL_CTL || msr == AMD_PERF_CNTR_GLOBAL_STATUS_CLR)
		return bits_check(name, val, width_mask(n), NULL, why, wn);
	if (msr >= AMD_PERF_CTL0 && msr < AMD_PERF_CTL(AMD_GP_MAX)) {
		i = (msr - AMD_PERF_CTL0) / 2;
		if (i >= n)
			return absent(name, "core counters", n, why, wn);
		if ((msr - AMD_PERF_CTL0) % 2)
			return bits_check(name, val, width_mask(AMD_COUNTER_WIDTH), NULL, why, wn);
		return bits_check(name, val, AMD_PERF_CTL_OK, "INT (bit 20) is refused", why, wn);
	}
	snprintf(why, wn, "%s is not a PMU register baretma knows", name);
	return MSR_WRITE_UNKNOWN;
}

enum msr_write_verdict msr_write_check(const struct msr_pmu_caps *c, uint32_t msr,
				       uint64_t val, char *why_out, size_t n)
{
	char name[48], scratch[8], *why = why_out ? why_out : scratch;
	size_t wn = why_out ? n : sizeof(scratch);
	uint64_t ctr = counter_bits(c);
	unsigned i;

	if (msr_reg_name(msr))
		snprintf(name, sizeof(name), "%s", msr_reg_name(msr));
	else
		snprintf(name, sizeof(name), "MSR 0x%" PRIx32, msr);
	if (c->amd)
		return amd_check(c, name, msr, val, why, wn);
	switch (msr) {
	case IA32_PERF_GLOBAL_STATUS:
	case IA32_PERF_GLOBAL_INUSE:
	case IA32_PERF_CAPABILITIES:
		snprintf(why, wn, "%s is read-only", name);
		return MSR_WRITE_READ_ONLY;
	case IA32_PERF_GLOBAL_CTRL:
		return bits_check(name, val, ctr, c->perf_metrics_level ? NULL :
				  "bit 48 EN_PERF_METRICS needs IA32_PERF_METRICS (a #GP elsewhere)",
				  why, wn);
	case IA32_PERF_GLOBAL_STATUS_RESET:
		return bits_check(name, val, ctr | GLOBAL_STATUS_OTHER, NULL, why, wn);
	case IA32_FIXED_CTR_CTRL:
		return bits_check(name, val, fixed_ctrl_bits(c), fixed_ctrl_note(c, val), why, wn);
	case IA32_PERF_METRICS:
		if (c->perf_metrics_level <= 0) {
			snprintf(why, wn, "%s does not exist on this CPU", name);
			return MSR_WRITE_RESERVED;
		}
		/* Level 1 parts define bytes 0-3 only (bytes 4-7 reserved: the safe reading,
		 * no primary source found for them there). */
		return bits_check(name, val, c->perf_metrics_level >= 2 ? ~0ull : 0xffffffffull,
				  NULL, why, wn);
	default:
		break;
	}
	if (msr >= IA32_PMC0 && msr < IA32_PMC0 + MAX_GP_ARCH) {
		i = msr - IA32_PMC0;
		if (i >= c->gp_counters)
			return absent(name, "GP counters", c->gp_counters, why, wn);
		/* Legacy writes take bits 31:0 sign-extended (linux
		 * arch/x86/kvm/vmx/pmu_intel.c intel_pmu_set_msr). */
		return bits_check(name, val, 0xffffffffull,
				  "IA32_PMCx takes 32 bits: use IA32_A_PMCx for full width", why, wn);
	}
	if (msr >= IA32_A_PMC0 && msr < IA32_A_PMC0 + MAX_GP_ARCH) {
		i = msr - IA32_A_PMC0;
		if (i >= c->gp_counters || !c->full_width_write)
			return absent(name, c->full_width_write ? "GP counters" :
				      "GP counters, no full-width writes (IA32_PERF_CAPABILITIES[13])",
				      c->gp_counters, why, wn);
		return bits_check(name, val, width_mask(c->gp_width), NULL, why, wn);
	}
	if (msr >= IA32_PERFEVTSEL0 && msr < IA32_PERFEVTSEL0 + MAX_GP_ARCH) {
		i = msr - IA32_PERFEVTSEL0;
		if (i >= c->gp_counters)
			return absent(name, "GP counters", c->gp_counters, why, wn);
		/* Bits 31:0 (linux arch/x86/include/asm/perf_event.h
		 * ARCH_PERFMON_EVENTSEL_*) less INT; bits 32+ depend on enumeration
		 * baretma does not check (TSX, adaptive PEBS, CPUID.23H). */
		return bits_check(name, val, 0xffffffffull & ~PERFEVTSEL_INT,
				  "INT (bit 20) is refused; bits 63:32 are not supported", why, wn);
	}
	if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + MAX_FIXED_ARCH) {
		i = msr - IA32_FIXED_CTR0;
		if (!(c->fixed_mask & (1u << i))) {
			snprintf(why, wn, "%s does not exist on this CPU (fixed counter mask 0x%x)",
				 name, c->fixed_mask);
			return MSR_WRITE_RESERVED;
		}
		return bits_check(name, val, width_mask(c->fixed_width), NULL, why, wn);
	}
	snprintf(why, wn, "%s is not a PMU register baretma knows", name);
	return MSR_WRITE_UNKNOWN;
}

bool msr_policy_knows(uint32_t msr)
{
	/* Every counter the architectural ranges hold, every bit defined. */
	static const struct msr_pmu_caps most = {
		.gp_counters = MAX_GP_ARCH, .gp_width = 64,
		.fixed_mask = (1u << MAX_FIXED_ARCH) - 1, .fixed_width = 64,
		.perf_metrics_level = 2, .full_width_write = true, .metrics_clear = true,
	};
	static const struct msr_pmu_caps amd = { .gp_counters = AMD_GP_MAX, .amd = true };

	return msr_write_check(&most, msr, 0, NULL, 0) == MSR_WRITE_OK ||
	       msr_write_check(&amd, msr, 0, NULL, 0) == MSR_WRITE_OK;
}
