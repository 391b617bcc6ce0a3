/*
 * msr/pmu/pmu_gp.c - general-purpose counters (and Intel's fixed counters
 * other than 3) through an MSR backend: the PMU's facts, assignment,
 * encoding, programming, the reset between repetitions, reads, the
 * overflow and tamper checks (msr/pmu/pmu_gp.h says the order and the rules,
 * with their sources).  Who owns a counter: msr/pmu/pmu_gp_owner.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/regs/msr_names.h"
#include "msr/pmu/pmu_gp.h"
#include "msr/pmu/pmu_gp_int.h"

/* ------------------------------------------------------------ registers */

static const struct gp_regs intel_regs = {
	.global_ctl = IA32_PERF_GLOBAL_CTRL, .global_status = IA32_PERF_GLOBAL_STATUS,
	.status_clear = IA32_PERF_GLOBAL_STATUS_RESET,
	.sel0 = IA32_PERFEVTSEL0, .ctr0 = IA32_PMC0, .stride = 1,
	.en = PERFEVTSEL_EN, .intr = PERFEVTSEL_INT, .event_mask = PERFEVTSEL_EVENT_MASK,
};

static const struct gp_regs amd_regs = {
	.global_ctl = AMD_PERF_CNTR_GLOBAL_CTL, .global_status = AMD_PERF_CNTR_GLOBAL_STATUS,
	.status_clear = AMD_PERF_CNTR_GLOBAL_STATUS_CLR,
	.sel0 = AMD_PERF_CTL0, .ctr0 = AMD_PERF_CTR0, .stride = 2,
	.en = AMD_PERF_CTL_EN, .intr = AMD_PERF_CTL_INT,
	.event_mask = AMD_PERF_CTL_EVENT_LO | AMD_PERF_CTL_EVENT_HI,
};

const struct gp_regs *gp_regs_of(enum gp_vendor v)
{
	return v == GP_VENDOR_AMD ? &amd_regs : &intel_regs;
}

uint32_t gp_sel_msr(const struct gp_regs *r, unsigned x)
{
	return r->sel0 + r->stride * x;
}

uint32_t gp_ctr_msr(const struct gp_regs *r, unsigned x)
{
	return r->ctr0 + r->stride * x;
}

/* The register a GP counter is written through: IA32_A_PMCx with
 * full-width writes (IA32_PERF_CAPABILITIES[13], linux msr-index.h PERF_CAP_FW_WRITES),
 * else the counter itself. */
static uint32_t ctr_write_msr(const struct gp_pmu *pmu, unsigned x)
{
	if (pmu->vendor == GP_VENDOR_INTEL && pmu->full_width_write)
		return IA32_A_PMC0 + x;
	return gp_ctr_msr(gp_regs_of(pmu->vendor), x);
}

unsigned gp_sel_event(enum gp_vendor v, uint64_t sel)
{
	unsigned e = (unsigned)(sel & 0xff);

	if (v == GP_VENDOR_AMD)
		e |= (unsigned)((sel & AMD_PERF_CTL_EVENT_HI) >> AMD_PERF_CTL_EVENT_HI_SHIFT) << 8;
	return e;
}

void gp_why_add(char *buf, size_t n, const char *text)
{
	size_t used, len;

	if (!buf || n < 4)
		return;
	used = strlen(buf);
	if (used + 1 >= n)
		return;
	len = (size_t)snprintf(buf + used, n - used, "%s%s", used ? "; " : "", text);
	if (used + len >= n)
		memcpy(buf + n - 4, "...", 4);
}

/* @why (may be NULL) = the formatted line; cut as snprintf cuts, with "..." */
static void whyf(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void whyf(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (!why || n < 4)
		return;
	va_start(ap, fmt);
	len = vsnprintf(why, n, fmt, ap);
	va_end(ap);
	if (len >= 0 && (size_t)len >= n)
		memcpy(why + n - 4, "...", 4);
}

/* --------------------------------------------------------------- facts */

static uint32_t low_mask(unsigned n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

/* Intel: leaf 0xA's facts, the kind's masks, IA32_PERF_CAPABILITIES[13]. */
static int pmu_intel(struct msr_dev *dev, unsigned cpu, const struct cpu_info *ci,
		     const struct cpu_kind *k, struct gp_pmu *out, char *why, size_t n)
{
	uint64_t caps = 0;
	bool have_caps = false;

	if (ci->pmu.version < 2) {
		whyf(why, n, "architectural perfmon version %u: no IA32_PERF_GLOBAL_CTRL "
		     "(CPUID leaf 0xA)", ci->pmu.version);
		return -ENODEV;
	}
	out->vendor = GP_VENDOR_INTEL;
	out->version = ci->pmu.version;
	out->gp_mask = k->gp_mask & low_mask(INTEL_GP_ARCH_MAX);
	out->gp_width = k->gp_width;
	out->fixed_mask = k->fixed_mask & low_mask(INTEL_FIXED_ARCH_MAX) & ~(1u << FIXED_CTR3_IDX);
	out->fixed_width = ci->pmu.fixed_width;
	/* AnyThread: arch perfmon v3 (SDM Vol. 3B 20.2.3), not where the kernel
	 * reads it deprecated (intel_pmu_init, version >= 5, EDX[15]) */
	out->anythread = ci->pmu.version >= 3 && !ci->pmu.anythread_deprecated;
	if (dev && ci->pdcm && !msr_read(dev, cpu, IA32_PERF_CAPABILITIES, &caps))
		have_caps = true;
	else if (ci->perf_caps_read)
		caps = ci->perf_caps, have_caps = true;
	out->full_width_write = have_caps && (caps & PERF_CAP_FULL_WIDTH_WRITE);
	return 0;
}

int gp_pmu_init(struct msr_dev *dev, unsigned cpu, const struct cpu_info *ci,
		struct gp_pmu *out, char *why, size_t whylen)
{
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (why && whylen)
		why[0] = '\0';
	if (!k)
		return -ENXIO;
	if (ci->vendor == CPU_VENDOR_INTEL) {
		rc = pmu_intel(dev, cpu, ci, k, out, why, whylen);
	} else if (ci->vendor == CPU_VENDOR_AMD && k->perfmon_v2) {
		out->vendor = GP_VENDOR_AMD;
		out->version = 2;
		out->gp_mask = k->gp_mask & low_mask(AMD_GP_MAX);
		out->gp_width = AMD_COUNTER_WIDTH;
	} else {
		whyf(why, whylen, "%s: no PerfMonV2 global control (CPUID 0x80000022 EAX[0]) "
		     "for baretma to freeze and enable the counters with",
		     ci->vendor == CPU_VENDOR_AMD ? "AMD" : "not Intel or AMD");
		return -ENODEV;
	}
	if (!rc && !out->gp_mask && !out->fixed_mask) {
		whyf(why, whylen, "no counter baretma can program (%u general-purpose "
		     "enumerated)", k->gp_counters);
		rc = -ENODEV;
	}
	return rc;
}

/* ------------------------------------------------------------ encoding */

uint64_t gp_encode(enum gp_vendor v, const struct gp_event *e, bool user_only)
{
	uint64_t sel = (uint64_t)(e->event & 0xff) | (uint64_t)e->umask << PERFEVTSEL_UMASK_SHIFT |
		       (uint64_t)e->cmask << PERFEVTSEL_CMASK_SHIFT | PERFEVTSEL_USR;

	if (!user_only)
		sel |= PERFEVTSEL_OS;
	if (e->edge)
		sel |= PERFEVTSEL_EDGE;
	if (e->inv)
		sel |= PERFEVTSEL_INV;
	if (v == GP_VENDOR_AMD)
		sel |= (uint64_t)((e->event >> 8) & 0xf) << AMD_PERF_CTL_EVENT_HI_SHIFT;
	else if (e->any)
		sel |= PERFEVTSEL_ANY;
	return sel;
}

/* The fixed field of an event on a fixed counter: EN_USR, EN_OS unless
 * user_only, AnyThread when asked; never PMI (linux perf_event.h INTEL_FIXED_0_*). */
static uint64_t fixed_field(const struct gp_event *e, bool user_only)
{
	return FIXED_CTR_CTRL_EN_USR | (user_only ? 0 : FIXED_CTR_CTRL_EN_OS) |
	       (e->any ? FIXED_CTR_CTRL_ANYTHR : 0);
}

uint64_t gp_plan_bits(const struct gp_plan *p)
{
	return (uint64_t)p->gp_used | (uint64_t)p->fixed_used << GLOBAL_FIXED_BIT(0);
}

uint32_t gp_rdpmc_ecx(const struct gp_plan *p, unsigned k)
{
	return p->at[k].fixed ? RDPMC_FIXED_BASE | p->at[k].idx : p->at[k].idx;
}

/* IA32_FIXED_CTR_CTRL with the plan's fields, every other field kept. */
static uint64_t fixed_ctrl_of(const struct gp_plan *p, uint64_t fcc)
{
	for (unsigned k = 0; k < p->n; k++) {
		unsigned sh = FIXED_CTR_CTRL_SHIFT(p->at[k].idx);

		if (!p->at[k].fixed)
			continue;
		fcc &= ~(FIXED_CTR_CTRL_FIELD_MASK << sh);
		fcc |= fixed_field(&p->ev[k], p->user_only) << sh;
	}
	return fcc;
}

/* ---------------------------------------------------------- assignment */

/* An event the vendor and this PMU take (gp_assign's -EINVAL). */
static int event_ok(const struct gp_pmu *pmu, const struct gp_event *e, char *why, size_t n)
{
	const char *name = e->name ? e->name : "event";

	if (e->event > (pmu->vendor == GP_VENDOR_AMD ? 0xfffu : 0xffu)) {
		whyf(why, n, "%s: event select 0x%x does not fit the event select field", name,
		     e->event);
		return -EINVAL;
	}
	if (e->any && !pmu->anythread) {
		whyf(why, n, "%s: AnyThread (IA32_PERFEVTSELx bit 21) is not available here "
		     "(AMD has none; Intel from arch perfmon v3, deprecated where CPUID.0AH:"
		     "EDX[15] says so: version %u)", name, pmu->version);
		return -EINVAL;
	}
	if (e->fixed != GP_NO_FIXED &&
	    (pmu->vendor != GP_VENDOR_INTEL || e->fixed < 0 || e->fixed >= (int)INTEL_FIXED_ARCH_MAX ||
	     e->fixed == (int)FIXED_CTR3_IDX)) {
		whyf(why, n, "%s: fixed counter %d is not one gp_program takes (Intel 0-2, 4-6)",
		     name, e->fixed);
		return -EINVAL;
	}
	return 0;
}

/* The GP counters event @e may take now. */
static uint32_t gp_choices(const struct gp_pmu *pmu, const struct gp_event *e, uint32_t free_gp)
{
	if (!e->event && !e->umask && e->fixed != GP_NO_FIXED)
		return 0; /* a fixed-only event (pseudo encoding): no GP form */
	return free_gp & pmu->gp_mask & (e->counters ? e->counters : ~0u);
}

/* Events on GP counters, the most constrained first; 0 or -ENOSPC. */
static int assign_gp(const struct gp_pmu *pmu, struct gp_plan *p, const bool *placed,
		     uint32_t free_gp, char *why, size_t n)
{
	bool done[GP_PLAN_MAX];

	memcpy(done, placed, sizeof(done));
	for (;;) {
		int best = -1, best_n = 33;

		for (unsigned k = 0; k < p->n; k++) {
			int c = __builtin_popcount(gp_choices(pmu, &p->ev[k], free_gp));

			if (!done[k] && c < best_n)
				best = (int)k, best_n = c;
		}
		if (best < 0)
			return 0;
		if (!best_n) {
			whyf(why, n, "%s: no free counter it may use (%u events for this core's "
			     "counters: measure in passes)", p->ev[best].name ? p->ev[best].name
			     : "event", p->n);
			return -ENOSPC;
		}
		p->at[best].idx = (unsigned)__builtin_ctz(gp_choices(pmu, &p->ev[best], free_gp));
		p->at[best].fixed = false;
		free_gp &= ~(1u << p->at[best].idx);
		p->gp_used |= 1u << p->at[best].idx;
		done[best] = true;
	}
}

int gp_assign(const struct gp_pmu *pmu, const struct gp_event *ev, unsigned n,
	      uint32_t gp_avoid, uint32_t fixed_avoid, bool user_only, struct gp_plan *out,
	      char *why, size_t whylen)
{
	bool placed[GP_PLAN_MAX] = { false };
	uint32_t free_fixed = pmu->fixed_mask & ~fixed_avoid;
	int rc;

	memset(out, 0, sizeof(*out));
	if (why && whylen)
		why[0] = '\0';
	if (n > GP_PLAN_MAX) {
		whyf(why, whylen, "%u events: at most %u in one plan", n, GP_PLAN_MAX);
		return -EINVAL;
	}
	out->vendor = pmu->vendor;
	out->user_only = user_only;
	out->n = n;
	for (unsigned k = 0; k < n; k++) {
		out->ev[k] = ev[k];
		if ((rc = event_ok(pmu, &ev[k], why, whylen)))
			return rc;
		if (ev[k].fixed == GP_NO_FIXED || !(free_fixed & (1u << ev[k].fixed)))
			continue;
		out->at[k] = (struct gp_slot){ .fixed = true, .idx = (unsigned)ev[k].fixed };
		out->fixed_used |= 1u << ev[k].fixed;
		free_fixed &= ~(1u << ev[k].fixed);
		placed[k] = true;
	}
	return assign_gp(pmu, out, placed, ~gp_avoid, why, whylen);
}

/* ------------------------------------------------------- saving, program */

/* The registers gp_program saves, read now (the order of msr/pmu/pmu_gp.h). */
struct gp_saved {
	int n;
	struct journal_reg r[2 + 2 * GP_PLAN_MAX];
	uint64_t global_ctl, fixed_ctrl;
};

static int save_one(struct msr_dev *dev, unsigned cpu, uint32_t msr, struct gp_saved *s,
		    uint64_t *val)
{
	uint64_t v = 0;
	int rc = msr_read(dev, cpu, msr, &v);

	if (rc)
		return rc;
	s->r[s->n++] = (struct journal_reg){ .cpu = cpu, .msr = msr, .saved = v };
	if (val)
		*val = v;
	return 0;
}

/* Without full-width writes IA32_PMCx takes bits 31:0 sign-extended to
 * the counter's width (linux arch/x86/kvm/vmx/pmu_intel.c intel_pmu_set_msr):
 * only such a value comes back. */
static bool legacy_restorable(const struct gp_pmu *pmu, uint64_t v)
{
	uint64_t width = pmu->gp_width >= 64 || !pmu->gp_width ? ~0ull
							       : (1ull << pmu->gp_width) - 1;
	uint64_t ext = (v & 0x80000000ull) ? (~0ull << 32 | (v & 0xffffffffull)) : (v & 0xffffffffull);

	return (ext & width) == v;
}

static int read_saved(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		      const struct gp_plan *p, struct gp_saved *s, char *why, size_t n)
{
	const struct gp_regs *r = gp_regs_of(pmu->vendor);
	char label[64];
	int rc = save_one(dev, cpu, r->global_ctl, s, &s->global_ctl);

	if (!rc && p->fixed_used)
		rc = save_one(dev, cpu, IA32_FIXED_CTR_CTRL, s, &s->fixed_ctrl);
	for (unsigned k = 0; !rc && k < p->n; k++) {
		uint64_t v = 0;

		if (p->at[k].fixed) {
			rc = save_one(dev, cpu, IA32_FIXED_CTR0 + p->at[k].idx, s, NULL);
			continue;
		}
		rc = save_one(dev, cpu, ctr_write_msr(pmu, p->at[k].idx), s, &v);
		if (!rc && pmu->vendor == GP_VENDOR_INTEL && !pmu->full_width_write &&
		    !legacy_restorable(pmu, v)) {
			msr_reg_label(ctr_write_msr(pmu, p->at[k].idx), label, sizeof(label));
			whyf(why, n, "%s holds 0x%" PRIx64 ", which it cannot take back without "
			     "full-width writes (IA32_PERF_CAPABILITIES[13]): bits 31:0 "
			     "sign-extended only", label, v);
			rc = -EOPNOTSUPP;
		}
	}
	for (unsigned k = 0; !rc && k < p->n; k++)
		if (!p->at[k].fixed)
			rc = save_one(dev, cpu, gp_sel_msr(r, p->at[k].idx), s, NULL);
	return rc;
}

/* A plan this PMU can run: its vendor, counters it has. */
static bool plan_fits(const struct gp_pmu *pmu, const struct gp_plan *p)
{
	return p->vendor == pmu->vendor && p->n <= GP_PLAN_MAX &&
	       !(p->gp_used & ~pmu->gp_mask) && !(p->fixed_used & ~pmu->fixed_mask);
}

int gp_journal_save(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		    const struct gp_plan *p, struct journal *j, char *why, size_t whylen)
{
	struct gp_saved s = { 0 };
	int rc;

	if (why && whylen)
		why[0] = '\0';
	if (!j || !plan_fits(pmu, p))
		return -EINVAL;
	rc = read_saved(dev, cpu, pmu, p, &s, why, whylen);
	return rc ? rc : journal_save_regs(j, s.r, s.n);
}

/* Steps 1-5 of msr/pmu/pmu_gp.h. */
static int program_regs(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
			const struct gp_plan *p, const struct gp_saved *s)
{
	const struct gp_regs *r = gp_regs_of(pmu->vendor);
	uint64_t bits = gp_plan_bits(p);
	int rc = msr_write(dev, cpu, r->global_ctl, 0);

	for (unsigned k = 0; !rc && k < p->n; k++)
		rc = msr_write(dev, cpu, p->at[k].fixed ? IA32_FIXED_CTR0 + p->at[k].idx
							: ctr_write_msr(pmu, p->at[k].idx), 0);
	for (unsigned k = 0; !rc && k < p->n; k++)
		if (!p->at[k].fixed)
			rc = msr_write(dev, cpu, gp_sel_msr(r, p->at[k].idx),
				       gp_encode(pmu->vendor, &p->ev[k], p->user_only) | r->en);
	if (!rc && p->fixed_used)
		rc = msr_write(dev, cpu, IA32_FIXED_CTR_CTRL, fixed_ctrl_of(p, s->fixed_ctrl));
	if (!rc)
		rc = msr_write(dev, cpu, r->status_clear, bits);
	if (!rc)
		rc = msr_write(dev, cpu, r->global_ctl, s->global_ctl | bits);
	return rc;
}

int gp_program(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
	       const struct gp_plan *p, const struct gp_config *cfg, char *why, size_t whylen)
{
	struct gp_saved s = { 0 };
	int rc;

	if (why && whylen)
		why[0] = '\0';
	if (!cfg->journal || !plan_fits(pmu, p))
		return -EINVAL;
	rc = gp_check_in_use(dev, cpu, pmu, p, cfg->nmi_watchdog, why, whylen);
	if (rc && (rc != -EBUSY || !cfg->force))
		return rc;
	rc = read_saved(dev, cpu, pmu, p, &s, why, whylen);
	/* On disk before the first write, or nothing is written. */
	if (!rc)
		rc = journal_save_regs(cfg->journal, s.r, s.n);
	return rc ? rc : program_regs(dev, cpu, pmu, p, &s);
}

/* -------------------------------------------- reset, reads, verify */

static void keep_first(int *rc, int r)
{
	if (!*rc)
		*rc = r;
}

int gp_reset(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
	     const struct gp_plan *p, uint64_t global_ctrl, uint64_t clear_status)
{
	return gp_reset_with_metrics(dev, cpu, pmu, p, global_ctrl, clear_status, false);
}

/* The global control's bits of plan @p, with FC3's and PERF_METRICS's
 * when @metrics. */
static uint64_t reset_bits(const struct gp_plan *p, bool metrics)
{
	return gp_plan_bits(p) | (metrics ? GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS : 0);
}

int gp_freeze_with_metrics(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
			   const struct gp_plan *p, uint64_t global_ctrl, bool metrics)
{
	if (metrics && pmu->vendor != GP_VENDOR_INTEL)
		return -EINVAL;
	return msr_write(dev, cpu, gp_regs_of(pmu->vendor)->global_ctl,
			 global_ctrl & ~reset_bits(p, metrics));
}

int gp_reset_after_freeze(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
			  const struct gp_plan *p, uint64_t global_ctrl, uint64_t clear_status,
			  bool metrics)
{
	const struct gp_regs *r = gp_regs_of(pmu->vendor);
	uint64_t bits = reset_bits(p, metrics);
	int rc = 0;

	if (metrics && pmu->vendor != GP_VENDOR_INTEL)
		return -EINVAL;
	if (clear_status & bits)
		rc = msr_write(dev, cpu, r->status_clear, clear_status & bits);
	for (unsigned k = 0; !rc && k < p->n; k++)
		rc = msr_write(dev, cpu, p->at[k].fixed ? IA32_FIXED_CTR0 + p->at[k].idx
							: ctr_write_msr(pmu, p->at[k].idx), 0);
	/* FC3 then PERF_METRICS: the kernel's order (msr/pmu/pmu.h pmu_reset_counts) */
	if (!rc && metrics)
		rc = msr_write(dev, cpu, IA32_FIXED_CTR3, 0);
	if (!rc && metrics)
		rc = msr_write(dev, cpu, IA32_PERF_METRICS, 0);
	keep_first(&rc, msr_write(dev, cpu, r->global_ctl, global_ctrl));
	return rc;
}

int gp_reset_with_metrics(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
			  const struct gp_plan *p, uint64_t global_ctrl, uint64_t clear_status,
			  bool metrics)
{
	int rc = gp_freeze_with_metrics(dev, cpu, pmu, p, global_ctrl, metrics);

	if (rc)
		return rc; /* nothing frozen, nothing to undo */
	return gp_reset_after_freeze(dev, cpu, pmu, p, global_ctrl, clear_status, metrics);
}

int gp_read_msr(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		const struct gp_plan *p, uint64_t *vals)
{
	const struct gp_regs *r = gp_regs_of(pmu->vendor);
	int rc = 0;

	for (unsigned k = 0; !rc && k < p->n; k++)
		rc = msr_read(dev, cpu, p->at[k].fixed ? IA32_FIXED_CTR0 + p->at[k].idx
						       : gp_ctr_msr(r, p->at[k].idx), &vals[k]);
	return rc;
}

int gp_read_overflow(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		     const struct gp_plan *p, uint64_t *bits)
{
	return gp_read_overflow_with_metrics(dev, cpu, pmu, p, false, bits);
}

int gp_read_overflow_with_metrics(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
				  const struct gp_plan *p, bool metrics, uint64_t *bits)
{
	uint64_t status = 0, own = gp_plan_bits(p);
	int rc;

	if (metrics && pmu->vendor != GP_VENDOR_INTEL)
		return -EINVAL;
	if (metrics)
		own |= GLOBAL_STATUS_OVF_FIXED3 | GLOBAL_STATUS_OVF_PERF_METRICS;
	rc = msr_read(dev, cpu, gp_regs_of(pmu->vendor)->global_status, &status);
	*bits = rc ? 0 : status & own;
	return rc;
}

/* "@msr is 0x..., programmed 0x..." into @why. */
static int changed(char *why, size_t n, uint32_t msr, uint64_t now, uint64_t want)
{
	char label[64];

	whyf(why, n, "%s is 0x%" PRIx64 ", programmed 0x%" PRIx64,
	     msr_reg_label(msr, label, sizeof(label)), now, want);
	return 1;
}

int gp_verify(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
	      const struct gp_plan *p, uint64_t *global_ctrl, char *why, size_t whylen)
{
	const struct gp_regs *r = gp_regs_of(pmu->vendor);
	uint64_t gc = 0, v = 0, bits = gp_plan_bits(p);
	int rc = msr_read(dev, cpu, r->global_ctl, &gc);

	if (why && whylen)
		why[0] = '\0';
	if (global_ctrl)
		*global_ctrl = gc;
	if (rc)
		return rc;
	for (unsigned k = 0; k < p->n; k++) {
		uint64_t want = gp_encode(pmu->vendor, &p->ev[k], p->user_only) | r->en;

		if (p->at[k].fixed)
			continue;
		if ((rc = msr_read(dev, cpu, gp_sel_msr(r, p->at[k].idx), &v)))
			return rc;
		if (v != want)
			return changed(why, whylen, gp_sel_msr(r, p->at[k].idx), v, want);
	}
	if (p->fixed_used) {
		uint64_t mask = 0; /* the plan's fields only */

		if ((rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &v)))
			return rc;
		for (unsigned k = 0; k < p->n; k++)
			if (p->at[k].fixed)
				mask |= FIXED_CTR_CTRL_FIELD_MASK << FIXED_CTR_CTRL_SHIFT(p->at[k].idx);
		if ((v & mask) != fixed_ctrl_of(p, 0))
			return changed(why, whylen, IA32_FIXED_CTR_CTRL, v,
				       (v & ~mask) | fixed_ctrl_of(p, 0));
	}
	if ((gc & bits) != bits)
		return changed(why, whylen, r->global_ctl, gc, gc | bits);
	return 0;
}
