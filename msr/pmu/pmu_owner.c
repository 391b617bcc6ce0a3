/*
 * msr/pmu/pmu_owner.c - who uses the PMU of a CPU before baretma touches it
 * (msr/pmu/pmu.h pmu_check_owner).
 *
 * The checklist follows Intel PCM's PMUinUse (src/cpucounters.cpp):
 * IA32_PERF_GLOBAL_INUSE on arch perfmon v4+ (as KVM's
 * MSR_CORE_PERF_GLOBAL_INUSE emulation quotes the SDM), every PERFEVTSELx
 * (EN, INT, event code: linux arch/x86/include/asm/perf_event.h
 * ARCH_PERFMON_EVENTSEL_*), every IA32_FIXED_CTR_CTRL field (INTEL_FIXED_*),
 * and the NMI watchdog, a perf event that normally sits on fixed counter 1
 * with its PMI bit set (linux kernel/watchdog_perf.c; the fixed counter by
 * arch/x86/events/intel/core.c's constraints).  Only FC3 and PERF_METRICS are baretma's;
 * everything else in use is reported for information and left as it is.
 *
 * FC3 (and PERF_METRICS, which follows it) is in use when its
 * IA32_FIXED_CTR_CTRL field (bits 15:12) is not 0 or INUSE bit 35 is set
 * (the CPU's own view of that field).  IA32_PERF_GLOBAL_CTRL is read and
 * kept in the report (r->global_ctrl) but decides nothing: its bits 35 and
 * 48 are the kernel's enable mask, set on an idle PMU too - Linux perf's
 * intel_pmu_enable_all writes GLOBAL_CTRL = x86_pmu.intel_ctrl &
 * ~guest_mask, and intel_ctrl holds every GP counter's bit, every fixed
 * counter's bit << 32 and bit 48 where PERF_METRICS exists (kernel
 * arch/x86/events/intel/core.c intel_pmu_init / intel_pmu_enable_all).
 * PCM's PMUinUse does not look at it either.
 *
 * Naming the owner is a guess from what can be seen, and says so:
 *   - a baretma journal holding the CPU names that run;
 *   - counters enabled in PERFEVTSELx, PMIs armed (INT bits, fixed-field
 *     PMI bits, INUSE bit 63) or the NMI watchdog on point to perf or
 *     another profiler ("likely": perf's own events cannot be listed from
 *     here, and firmware does not arm PMIs);
 *   - bits set with none of that: "firmware or another tool" (firmware may
 *     leave fixed counters 0-2 counting, PCM leaves them so on exit).
 * A register of the checklist that cannot be read (a #GP, or msr_safe's
 * allowlist: LLNL msr-safe answers -EACCES for a register not in it) makes
 * the check incomplete (-ENODATA): "no sign of perf" is never said then.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/text.h"
#include "msr/regs/intel_regs.h"
#include "msr/pmu/pmu.h"

#define INUSE_PMI (1ull << 63) /* a PMI is armed somewhere (KVM's INUSE emulation) */
#define FIXED_FIELDS 8u        /* fields in IA32_FIXED_CTR_CTRL[31:0] */
#define MAX_EVTSEL 32u

static void add(char *buf, size_t n, const char *sep, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < n)
		snprintf(buf + used, n - used, "%s%s", used ? sep : "", text);
}

static uint64_t field_of(uint64_t fcc, unsigned i)
{
	return (fcc >> FIXED_CTR_CTRL_SHIFT(i)) & FIXED_CTR_CTRL_FIELD_MASK;
}

/* "OS, USR, PMI" for a fixed field. */
static void field_bits(uint64_t f, char *buf, size_t n)
{
	buf[0] = '\0';
	if (f & FIXED_CTR_CTRL_EN_OS)
		add(buf, n, ", ", "OS");
	if (f & FIXED_CTR_CTRL_EN_USR)
		add(buf, n, ", ", "USR");
	if (f & FIXED_CTR_CTRL_ANYTHR)
		add(buf, n, ", ", "AnyThread");
	if (f & FIXED_CTR_CTRL_PMI)
		add(buf, n, ", ", "PMI");
}

/* A read that the CPU (#GP: -EIO) or msr_safe's allowlist (-EACCES,
 * -EPERM) refused: the register cannot be checked, the others still can. */
static bool unreadable(struct pmu_owner_report *r, int rc)
{
	if (rc != -EIO && rc != -EACCES && rc != -EPERM)
		return false;
	if (!r->unread_err)
		r->unread_err = rc;
	return true;
}

/* IA32_PERFEVTSELx for x < gp: unreadable ones are recorded, other errors fail. */
static int read_evtsels(struct msr_dev *dev, unsigned cpu, unsigned gp,
			struct pmu_owner_report *r)
{
	for (unsigned x = 0; x < gp && x < MAX_EVTSEL; x++) {
		uint64_t v = 0;
		int rc = msr_read(dev, cpu, IA32_PERFEVTSEL0 + x, &v);

		if (unreadable(r, rc)) {
			r->evtsel_unread |= 1u << x;
			continue;
		}
		if (rc)
			return rc;
		r->evtsel[x] = v;
		if (v & PERFEVTSEL_EN)
			r->evtsel_en |= 1u << x;
		if (v & PERFEVTSEL_INT)
			r->evtsel_int |= 1u << x;
		if (v & PERFEVTSEL_EVENT_MASK)
			r->evtsel_event |= 1u << x;
	}
	return 0;
}

static int read_regs(struct msr_dev *dev, unsigned cpu, const struct pmu_owner_query *q,
		     struct pmu_owner_report *r)
{
	int rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &r->fixed_ctr_ctrl);

	if (!rc)
		rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_CTRL, &r->global_ctrl);
	if (!rc)
		rc = read_evtsels(dev, cpu, q->gp_counters, r);
	if (rc || q->version < 4)
		return rc;
	rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_INUSE, &r->inuse);
	r->inuse_read = rc == 0;
	r->inuse_unread = unreadable(r, rc);
	return r->inuse_unread ? 0 : rc;
}

/* FC3 and PERF_METRICS: what baretma takes.  The FC3 field or INUSE bit 35
 * only; GLOBAL_CTRL bits 35/48 are perf's idle enable mask (header). */
static void check_busy(struct pmu_owner_report *r)
{
	uint64_t f3 = field_of(r->fixed_ctr_ctrl, FIXED_CTR3_IDX);
	char buf[96]; /* fixed: one sentence with a 4-bit field, 58 bytes */

	if (f3) {
		snprintf(buf, sizeof(buf), "IA32_FIXED_CTR_CTRL[15:12]=0x%x (fixed counter 3 "
			 "enabled)", (unsigned)f3);
		add(r->busy_why, sizeof(r->busy_why), "; ", buf);
	}
	if (r->inuse_read && (r->inuse & (1ull << GLOBAL_FIXED_BIT(FIXED_CTR3_IDX))))
		add(r->busy_why, sizeof(r->busy_why), "; ", "IA32_PERF_GLOBAL_INUSE bit 35 set "
		    "(fixed counter 3 in use)");
	r->busy = r->busy_why[0] != '\0';
}

/* Fixed counters other than 3 whose field is set; FC1 with the watchdog on.
 * 0 or -ENOMEM. */
static int list_fixed(const struct pmu_owner_query *q, struct pmu_owner_report *r)
{
	char bits[48]; /* fixed: field_bits's four names, "OS, USR, AnyThread, PMI", 24 bytes */

	for (unsigned i = 0; i < FIXED_FIELDS; i++) {
		uint64_t f = field_of(r->fixed_ctr_ctrl, i);

		if (!f)
			continue;
		r->fixed_used |= 1u << i;
		if (i == FIXED_CTR3_IDX)
			continue;
		field_bits(f, bits, sizeof(bits));
		r->watchdog_fc1 |= i == 1 && q->nmi_watchdog == 1;
		if (text_appendf(&r->others, "; ", "fixed counter %u (IA32_FIXED_CTR_CTRL[%u:%u]=0x%x: "
				 "%s)%s", i, 4 * i + 3, 4 * i, (unsigned)f, bits,
				 i == 1 && q->nmi_watchdog == 1 ? " held by the NMI watchdog" : ""))
			return -ENOMEM;
	}
	return 0;
}

/* The PERFEVTSELx in use and INUSE's other bits; 0 or -ENOMEM. */
static int list_evtsels(const struct pmu_owner_query *q, struct pmu_owner_report *r)
{
	for (unsigned x = 0; x < q->gp_counters && x < MAX_EVTSEL; x++) {
		uint64_t v = r->evtsel[x];

		if (!(r->evtsel_en & (1u << x)) && !(r->evtsel_event & (1u << x)))
			continue;
		if (text_appendf(&r->others, "; ", "IA32_PERFEVTSEL%u=0x%" PRIx64 " (%s%sevent 0x%02x)",
				 x, v, v & PERFEVTSEL_EN ? "EN, " : "not enabled, ",
				 v & PERFEVTSEL_INT ? "INT, " : "",
				 (unsigned)(v & PERFEVTSEL_EVENT_MASK)))
			return -ENOMEM;
	}
	if (r->inuse_read && (r->inuse & ~(1ull << GLOBAL_FIXED_BIT(FIXED_CTR3_IDX))) &&
	    text_appendf(&r->others, "; ", "IA32_PERF_GLOBAL_INUSE=0x%" PRIx64 "%s", r->inuse,
			 r->inuse & INUSE_PMI ? " (bit 63: a PMI is armed)" : ""))
		return -ENOMEM;
	return 0;
}

/* Signs of perf (or another profiler) at work; "" when none.  @buf is
 * fixed: at most its four phrases and their ", " (209 bytes). */
static void perf_evidence(const struct pmu_owner_query *q, const struct pmu_owner_report *r,
			  char *buf, size_t n)
{
	bool pmi = r->evtsel_int || (r->inuse_read && (r->inuse & INUSE_PMI));

	for (unsigned i = 0; i < FIXED_FIELDS; i++)
		pmi |= (field_of(r->fixed_ctr_ctrl, i) & FIXED_CTR_CTRL_PMI) != 0;
	buf[0] = '\0';
	if (q->nmi_watchdog == 1)
		add(buf, n, ", ", "the NMI watchdog is on (nmi_watchdog=1: perf runs on every CPU)");
	if (pmi)
		add(buf, n, ", ", "PMIs are armed (firmware does not arm them)");
	if (r->evtsel_en)
		add(buf, n, ", ", "general-purpose counters are enabled");
	if (r->inuse_read && (r->inuse & 0xffffffffull))
		add(buf, n, ", ", "IA32_PERF_GLOBAL_INUSE shows general-purpose counters in use");
}

/* r->owner and its words (on the heap: the evidence makes them longer
 * than any small buffer); 0 or -ENOMEM. */
static int name_owner(const struct pmu_owner_query *q, struct pmu_owner_report *r)
{
	char ev[256]; /* fixed: perf_evidence's four fixed phrases, 220 bytes at most */
	int rc = 0;

	perf_evidence(q, r, ev, sizeof(ev));
	if (q->journal_pid > 0) {
		r->owner = PMU_OWNER_BARETMA;
		if (q->journal_kind != JOURNAL_RUN)
			rc = text_setf(&r->owner_text, "'baretma %s' (pid %ld, %s)",
				       q->journal_kind == JOURNAL_ENABLE ? "pmu enable" : "msr write",
				       (long)q->journal_pid, q->journal_alive ? "running" : "not running");
		else if (q->journal_alive)
			rc = text_setf(&r->owner_text, "a baretma run (pid %ld, running)",
				       (long)q->journal_pid);
		else
			rc = text_setf(&r->owner_text, "a crashed baretma run (pid %ld)",
				       (long)q->journal_pid);
	} else if (ev[0]) {
		r->owner = PMU_OWNER_PERF;
		rc = text_setf(&r->owner_text, "perf or another profiler (likely: %s; perf's own "
			       "events cannot be seen from here)", ev);
	} else if ((r->busy || r->others) && r->unread_err) {
		/* No sign of perf in what could be read: not the same as none. */
		r->owner = PMU_OWNER_FIRMWARE;
		rc = text_setf(&r->owner_text, "firmware or another tool, or perf (cannot tell: %s "
			       "could not be read)",
			       r->evtsel_unread ? "some IA32_PERFEVTSELx" : "IA32_PERF_GLOBAL_INUSE");
	} else if (r->busy || r->others) {
		r->owner = PMU_OWNER_FIRMWARE;
		rc = text_setf(&r->owner_text, "firmware or another tool (no sign of perf: no "
			       "general-purpose counter enabled, no PMI armed, NMI watchdog %s; hard "
			       "to tell)", q->nmi_watchdog == 0 ? "off" : "unknown");
	}
	/* The watchdog's FC1 alone in use: name it. */
	if (!rc && !r->busy && q->journal_pid <= 0 && r->watchdog_fc1 &&
	    r->fixed_used == 1u << 1 && !r->evtsel_en && !r->evtsel_event)
		rc = text_setf(&r->owner_text, "the NMI watchdog");
	return rc;
}

void pmu_owner_report_free(struct pmu_owner_report *r)
{
	if (!r)
		return;
	free(r->others);
	free(r->owner_text);
	r->others = r->owner_text = NULL;
}

int pmu_check_owner(struct msr_dev *dev, unsigned cpu, const struct pmu_owner_query *q,
		    struct pmu_owner_report *r)
{
	int rc;

	pmu_owner_report_free(r);
	memset(r, 0, sizeof(*r));
	rc = read_regs(dev, cpu, q, r);
	if (rc)
		return rc;
	check_busy(r);
	rc = list_fixed(q, r);
	if (!rc)
		rc = list_evtsels(q, r);
	if (!rc)
		rc = name_owner(q, r);
	if (rc)
		return rc;
	return r->busy ? -EBUSY : r->unread_err ? -ENODATA : 0;
}
