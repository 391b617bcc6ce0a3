/*
 * msr/guard/guard_owner.c - the guarded run's ownership step (msr/guard/guard.h, doc/safety.md
 * "Leaving the machine as found", step 3): who uses the PMU of each target
 * CPU (pmu_check_owner, after Intel PCM's PMUinUse), the NMI watchdog warning, and
 * the checks that could not be made (registers of the checklist
 * unreadable: refused, or with force a warning).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/text.h"
#include "msr/guard/guard.h"
#include "msr/guard/guard_int.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/pmu/pmu.h"
#include "msr/guard/settings.h"

/* /proc/sys/kernel/nmi_watchdog: 1, 0, or -1 when unknown. */
static int nmi_watchdog(void)
{
	char v[16];

	if (setting_read(SETTING_NMI_WATCHDOG, v, sizeof(v), NULL, 0))
		return -1;
	return !strcmp(v, "0") ? 0 : !strcmp(v, "1") ? 1 : -1;
}

void guard_check_watchdog(struct guard *g)
{
	char where[JOURNAL_PATH_MAX];
	char v[16];

	if (g->o.set.stop_nmi_watchdog || nmi_watchdog() != 1)
		return;
	setting_read(SETTING_NMI_WATCHDOG, v, sizeof(v), where, sizeof(where));
	guard_say(g, GUARD_LINE_WARNING, "the NMI watchdog is on ('%s' = 1): it keeps a perf "
		  "event on fixed counter 1 of every CPU, and perf rewrites "
		  "IA32_PERF_GLOBAL_CTRL while it runs, which can switch fixed counter 3 / "
		  "PERF_METRICS off mid-run (the tamper check tells) (try: "
		  "--stop-nmi-watchdog)", where);
}

/* The pmu_check_owner query for @cpu. */
static struct pmu_owner_query owner_query(const struct cpu_info *ci, unsigned cpu,
					  const struct guard_hit *hit, int watchdog)
{
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);

	return (struct pmu_owner_query){
		.version = ci->pmu.version,
		.gp_counters = k ? k->gp_counters : 0,
		.nmi_watchdog = watchdog,
		.journal_pid = hit ? hit->pid : 0,
		.journal_alive = hit && hit->alive,
		.journal_kind = hit ? hit->kind : JOURNAL_RUN,
	};
}

/* Notes for information, one per distinct text, naming its CPUs. */
struct owner_notes {
	int n;
	struct {
		char *text;      /* on the heap (the report's, taken) */
		unsigned cpus[CPU_MAX_CPUS];
		unsigned ncpus;
	} *e;
};

/* @text (on the heap) for @cpu: kept by @nt, or freed. */
static void note_add(struct owner_notes *nt, int max, unsigned cpu, char *text)
{
	int i;

	for (i = 0; i < nt->n && strcmp(nt->e[i].text, text); i++)
		;
	if (i == nt->n) {
		if (nt->n >= max) {
			free(text);
			return;
		}
		nt->e[i].text = text;
		text = NULL;
		nt->e[i].ncpus = 0;
		nt->n++;
	}
	free(text);
	nt->e[i].cpus[nt->e[i].ncpus++] = cpu;
}

/* CPUs whose ownership check could not read the same registers. */
struct unread_group {
	uint32_t evtsel;       /* pmu_owner_report.evtsel_unread */
	bool inuse;            /* .inuse_unread */
	int err;               /* .unread_err */
	unsigned cpus[CPU_MAX_CPUS];
	unsigned ncpus;
};

struct owner_unread {
	int n;
	struct unread_group e[4];
};

static void unread_add(struct owner_unread *u, unsigned cpu, const struct pmu_owner_report *rep)
{
	int i;

	for (i = 0; i < u->n; i++)
		if (u->e[i].evtsel == rep->evtsel_unread && u->e[i].inuse == rep->inuse_unread &&
		    u->e[i].err == rep->unread_err)
			break;
	if (i == u->n) {
		if (u->n >= (int)(sizeof(u->e) / sizeof(u->e[0])))
			i = u->n - 1; /* more kinds than that: the last one stands for them */
		else
			u->e[u->n++] = (struct unread_group){ .evtsel = rep->evtsel_unread,
							      .inuse = rep->inuse_unread,
							      .err = rep->unread_err };
	}
	u->e[i].cpus[u->e[i].ncpus++] = cpu;
}

/* "IA32_PERFEVTSEL0-7 (0x186-0x18d), IA32_PERF_GLOBAL_INUSE (0x392)". */
static void fmt_unread(uint32_t evtsel, bool inuse, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned x = 0; x < 32 && o < n; ) {
		unsigned y = x;

		if (!(evtsel & (1u << x))) {
			x++;
			continue;
		}
		while (y + 1 < 32 && (evtsel & (1u << (y + 1))))
			y++;
		if (y == x)
			o += (size_t)snprintf(buf + o, n - o, "%sIA32_PERFEVTSEL%u (0x%x)", o ? ", " : "",
					      x, IA32_PERFEVTSEL0 + x);
		else
			o += (size_t)snprintf(buf + o, n - o, "%sIA32_PERFEVTSEL%u-%u (0x%x-0x%x)",
					      o ? ", " : "", x, y, IA32_PERFEVTSEL0 + x,
					      IA32_PERFEVTSEL0 + y);
		x = y + 1;
	}
	if (inuse && o < n)
		snprintf(buf + o, n - o, "%sIA32_PERF_GLOBAL_INUSE (0x%x)", o ? ", " : "",
			 IA32_PERF_GLOBAL_INUSE);
}

/* The lines msr_safe's allowlist needs to let them be read: "MSR WRITEMASK"
 * with write mask 0 (read-only), a '#' comment naming the register (the
 * format of LLNL msr-safe's README, /dev/cpu/msr_allowlist). */
static void say_allowlist(struct guard *g, uint32_t evtsel, bool inuse)
{
	for (unsigned x = 0; x < 32; x++)
		if (evtsel & (1u << x))
			guard_say(g, GUARD_LINE_AFTER, "0x%08X 0x0000000000000000 # "
				  "\"IA32_PERFEVTSEL%u\"", IA32_PERFEVTSEL0 + x, x);
	if (inuse)
		guard_say(g, GUARD_LINE_AFTER, "0x%08X 0x0000000000000000 # "
			  "\"IA32_PERF_GLOBAL_INUSE\"", IA32_PERF_GLOBAL_INUSE);
}

/*
 * The checks that could not be made: refused (nothing is written yet) with
 * the registers, the CPUs and the remedies, or with force a warning.  The
 * error is the read's: -EACCES/-EPERM when msr_safe's allowlist (or
 * rights) refused it, -EIO for a #GP.
 */
static int unread_verdict(struct guard *g, const struct owner_unread *u)
{
	char *list, regs[512]; /* regs fixed: fmt_unread's at most 16 single
				* registers and INUSE, 464 bytes */

	for (int i = 0; i < u->n; i++) {
		if (!(list = guard_cpus_text(u->e[i].cpus, u->e[i].ncpus)))
			return guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
		fmt_unread(u->e[i].evtsel, u->e[i].inuse, regs, sizeof(regs));
		if (g->o.force) {
			guard_say(g, GUARD_LINE_WARNING, "cpu %s: cannot tell who uses the PMU: %s "
				  "could not be read: %s; going on without that check (--force)",
				  list, regs, strerror(-u->e[i].err));
			free(list);
			continue;
		}
		guard_fail(g, GUARD_ERRNO, u->e[i].err, "cpu %s: cannot tell who uses the PMU: "
			   "%s could not be read: %s; nothing written (try: --force to go on "
			   "without that check, or, through msr_safe, add the read-only lines "
			   "below to its allowlist /dev/cpu/msr_allowlist)", list, regs,
			   strerror(-u->e[i].err));
		free(list);
		say_allowlist(g, u->e[i].evtsel, u->e[i].inuse);
		return u->e[i].err;
	}
	return 0;
}

/* One CPU: refuse, warn, or collect its note (and what it could not read). */
static int owner_one(struct guard *g, struct msr_dev *dev, unsigned cpu,
		     const struct pmu_owner_query *q, struct owner_notes *nt, int max,
		     struct owner_unread *un)
{
	struct pmu_owner_report rep = { 0 };
	char *text = NULL;
	int rc = pmu_check_owner(dev, cpu, q, &rep);

	if (rc == -ENOMEM) {
		pmu_owner_report_free(&rep);
		return guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
	}
	if (rc && rc != -EBUSY && rc != -ENODATA) {
		pmu_owner_report_free(&rep);
		g->cls = guard_access_fail_text(dev, rc, NULL, cpu, &text);
		guard_keep(g, text);
		return rc;
	}
	if (rep.unread_err)
		unread_add(un, cpu, &rep);
	if (rep.busy && !g->o.force) {
		rc = guard_fail(g, GUARD_BUSY, -EBUSY, "cpu %u: fixed counter 3 / PERF_METRICS "
				"in use: %s; likely owner: %s (--force takes over, saving and "
				"restoring the registers; if baretma left it: baretma pmu "
				"restore)", cpu, rep.busy_why, text_or_empty(rep.owner_text));
		pmu_owner_report_free(&rep);
		return rc;
	}
	if (rep.busy)
		guard_say(g, GUARD_LINE_WARNING, "cpu %u: taking over (--force): %s; likely "
			  "owner: %s", cpu, rep.busy_why, text_or_empty(rep.owner_text));
	rc = 0;
	if (rep.others) {
		if (text_setf(&text, "%s; likely owner: %s", rep.others,
			      text_or_empty(rep.owner_text)))
			rc = guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
		else
			note_add(nt, max, cpu, text);
	}
	pmu_owner_report_free(&rep);
	return rc;
}

int guard_check_owners(struct guard *g, struct msr_dev *dev, const struct cpu_info *ci,
		       const unsigned *cpus, int n, const struct guard_hit *hits)
{
	enum { MAX_NOTES = 8 };
	struct owner_notes nt = { 0 };
	struct owner_unread *un = calloc(1, sizeof(*un));
	int watchdog = nmi_watchdog(), rc = 0;
	char *list;

	nt.e = calloc(MAX_NOTES, sizeof(*nt.e));
	if (!nt.e || !un) {
		free(nt.e);
		free(un);
		return guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (int i = 0; i < n && !rc; i++) {
		struct pmu_owner_query q = owner_query(ci, cpus[i], hits ? &hits[i] : NULL, watchdog);

		/* The checklist is Intel's registers (fixed counter 3 and
		 * PERF_METRICS, IA32_PERFEVTSELx, INUSE); an AMD core has none
		 * of them (msr/regs/amd_regs.h): what baretma programs there are its
		 * event recipe's PERF_CTLx, which gp_program checks itself before
		 * it writes (msr/pmu/pmu_gp.h "In use": refused naming each). */
		if (ci && ci->vendor == CPU_VENDOR_AMD)
			continue;
		rc = owner_one(g, dev, cpus[i], &q, &nt, MAX_NOTES, un);
	}
	if (!rc)
		rc = unread_verdict(g, un);
	free(un);
	for (int i = 0; i < nt.n && !rc; i++) {
		if (!(list = guard_cpus_text(nt.e[i].cpus, nt.e[i].ncpus))) {
			rc = guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
			break;
		}
		guard_say(g, GUARD_LINE_NOTE, "cpu %s: other counters in use, left as they are: %s",
			  list, nt.e[i].text);
		free(list);
	}
	for (int i = 0; i < nt.n; i++)
		free(nt.e[i].text);
	free(nt.e);
	return rc;
}
