/*
 * msr/pmu/pmu_gp_owner.c - which general-purpose and fixed counters are in
 * use before baretma takes them (msr/pmu/pmu_gp.h gp_busy, gp_check_in_use).
 *
 * The rule is msr/pmu/pmu_gp.h's, from PCM's PMUinUse and the SDM's
 * IA32_PERF_GLOBAL_INUSE (as KVM's MSR_CORE_PERF_GLOBAL_INUSE emulation
 * quotes it; Intel PCM src/cpucounters.cpp PMUinUse): a select with
 * EN, INT or an event code; an Intel fixed counter's field not 0; INUSE
 * bit x or 32+i (arch perfmon v4+).  Reads only.  Each counter in use is
 * named with its register and value; a hint at the owner follows, as
 * msr/pmu/pmu_owner.c gives it for fixed counter 3: PMIs armed (INT bits,
 * fixed PMI bits) or the NMI watchdog on point to perf or another
 * profiler (firmware does not arm PMIs; the watchdog is a perf event:
 * linux kernel/watchdog_perf.c), a select with its event code and EN clear to a
 * user that left it (perf's x86_pmu_disable_event clears EN only).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/regs/msr_names.h"
#include "msr/pmu/pmu_gp.h"
#include "msr/pmu/pmu_gp_int.h"

struct busy {
	uint32_t gp, fixed;
	bool pmi, stale;
};

/* One select: in use when EN, INT or an event code (file comment). */
static void check_sel(const struct gp_pmu *pmu, unsigned x, uint64_t sel, struct busy *b,
		      char *why, size_t n)
{
	const struct gp_regs *r = gp_regs_of(pmu->vendor);
	char text[192], label[64]; /* fixed: a register name (label: 64), numbers, 75 bytes of words */
	unsigned ev = gp_sel_event(pmu->vendor, sel);
	const char *name;

	if (!(sel & (r->en | r->intr)) && !ev)
		return;
	b->gp |= 1u << x;
	b->pmi |= (sel & r->intr) != 0;
	b->stale |= !(sel & (r->en | r->intr));
	name = msr_reg_name(gp_sel_msr(r, x));
	if (!name)
		name = msr_reg_label(gp_sel_msr(r, x), label, sizeof(label));
	snprintf(text, sizeof(text), "%s=0x%" PRIx64 " (event 0x%0*x, umask 0x%02x; %s%s) is in use",
		 name, sel, pmu->vendor == GP_VENDOR_AMD ? 3 : 2, ev, (unsigned)(sel >> 8) & 0xff,
		 sel & r->en ? "EN" : "not enabled", sel & r->intr ? ", INT" : "");
	gp_why_add(why, n, text);
}

/* Intel fixed counters (other than 3): in use when the field is not 0. */
static void check_fixed(const struct gp_pmu *pmu, uint64_t fcc, struct busy *b, char *why,
			size_t n)
{
	char text[128];

	for (unsigned i = 0; i < INTEL_FIXED_ARCH_MAX; i++) {
		uint64_t f = (fcc >> FIXED_CTR_CTRL_SHIFT(i)) & FIXED_CTR_CTRL_FIELD_MASK;

		if (!(pmu->fixed_mask & (1u << i)) || !f)
			continue;
		b->fixed |= 1u << i;
		b->pmi |= (f & FIXED_CTR_CTRL_PMI) != 0;
		snprintf(text, sizeof(text), "IA32_FIXED_CTR_CTRL[%u:%u]=0x%x (fixed counter %u "
			 "enabled%s) is in use", 4 * i + 3, 4 * i, (unsigned)f, i,
			 f & FIXED_CTR_CTRL_PMI ? ", PMI" : "");
		gp_why_add(why, n, text);
	}
}

/* IA32_PERF_GLOBAL_INUSE (v4+): bits the selects and fields did not show. */
static int check_inuse(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		       struct busy *b, char *why, size_t n)
{
	uint64_t inuse = 0, mine = (uint64_t)pmu->gp_mask | (uint64_t)pmu->fixed_mask << 32;
	char text[128];
	int rc;

	if (pmu->vendor != GP_VENDOR_INTEL || pmu->version < 4)
		return 0;
	rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_INUSE, &inuse);
	if (rc == -EIO || rc == -EACCES || rc == -EPERM)
		return 0; /* the selects themselves were read */
	if (rc)
		return rc;
	inuse &= mine & ~((uint64_t)b->gp | (uint64_t)b->fixed << 32);
	for (unsigned bit = 0; bit < 64; bit++) {
		if (!(inuse & (1ull << bit)))
			continue;
		if (bit < 32)
			b->gp |= 1u << bit;
		else
			b->fixed |= 1u << (bit - 32);
		snprintf(text, sizeof(text), "IA32_PERF_GLOBAL_INUSE bit %u set (%s %u in use)", bit,
			 bit < 32 ? "general-purpose counter" : "fixed counter", bit % 32);
		gp_why_add(why, n, text);
	}
	return 0;
}

/* The likely owner, after the counters (msr/pmu/pmu_owner.c's reasoning). */
static void owner_hint(const struct busy *b, int nmi_watchdog, char *why, size_t n)
{
	if (!b->gp && !b->fixed)
		return;
	if (b->pmi)
		gp_why_add(why, n, "PMIs are armed: perf or another profiler (likely; firmware "
			   "does not arm them)");
	if (nmi_watchdog == 1)
		gp_why_add(why, n, "the NMI watchdog is on (nmi_watchdog=1: a perf event on "
			   "every CPU)");
	if (b->stale)
		gp_why_add(why, n, "a select with its event code but EN clear was left by an "
			   "earlier user (perf leaves them so)");
}

static int busy_read(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		     uint32_t gp_mask, uint32_t fixed_mask, struct busy *b, char *why, size_t n)
{
	const struct gp_regs *r = gp_regs_of(pmu->vendor);
	uint64_t v;
	int rc = 0;

	memset(b, 0, sizeof(*b));
	if (why && n)
		why[0] = '\0';
	for (unsigned x = 0; !rc && x < GP_MAX; x++)
		if (gp_mask & (1u << x) && !(rc = msr_read(dev, cpu, gp_sel_msr(r, x), &v)))
			check_sel(pmu, x, v, b, why, n);
	if (!rc && fixed_mask && !(rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &v))) {
		struct gp_pmu only = *pmu;

		only.fixed_mask = fixed_mask;
		check_fixed(&only, v, b, why, n);
	}
	if (!rc) {
		struct gp_pmu only = *pmu;

		only.gp_mask = gp_mask;
		only.fixed_mask = fixed_mask;
		rc = check_inuse(dev, cpu, &only, b, why, n);
	}
	return rc;
}

int gp_busy(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu, int nmi_watchdog,
	    uint32_t *gp_busy, uint32_t *fixed_busy, char *why, size_t whylen)
{
	struct busy b;
	int rc = busy_read(dev, cpu, pmu, pmu->gp_mask, pmu->fixed_mask, &b, why, whylen);

	*gp_busy = rc ? 0 : b.gp;
	*fixed_busy = rc ? 0 : b.fixed;
	if (!rc)
		owner_hint(&b, nmi_watchdog, why, whylen);
	return rc;
}

int gp_check_in_use(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		    const struct gp_plan *p, int nmi_watchdog, char *why, size_t whylen)
{
	struct busy b;
	int rc = busy_read(dev, cpu, pmu, p->gp_used, p->fixed_used, &b, why, whylen);

	if (rc)
		return rc;
	owner_hint(&b, nmi_watchdog, why, whylen);
	return b.gp || b.fixed ? -EBUSY : 0;
}
