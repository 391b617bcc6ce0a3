/*
 * t/0312-pmu-owner.c - the ownership check (msr/pmu/pmu.h pmu_check_owner):
 * who holds the counters of a CPU, read from state files of Ice Lake and
 * Sapphire Rapids cores as perf, the NMI watchdog and other tools leave
 * them, never written.  Split from t/0310 (t/pmu-fixture.h).
 *
 * Every expected register value below is worked out by hand from
 * linux perf_event.h (INTEL_FIXED_*, INTEL_PMC_IDX_FIXED,
 * GLOBAL_CTRL_EN_PERF_METRICS), KVM's MSR_CORE_PERF_GLOBAL_INUSE emulation
 * (quoting the SDM), linux kernel/watchdog_perf.c and the kernel's
 * arch/x86/events/intel/core.c; the arithmetic is written next to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/text.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/pmu/pmu.h"
#include "t/fixture.h"
#include "t/pmu-fixture.h"

/* Ice Lake cpu 0 with 4 PERFEVTSELs and IA32_PERF_GLOBAL_INUSE, all free
 * apart from FC0-2 (firmware leftovers, OS+USR: 0x333). */
static const char own_text[] =
	"0 0x186 0x0\n0 0x187 0x0\n0 0x188 0x0\n0 0x189 0x0\n"
	"0 0x30c 0x0\n0 0x329 0x0\n0 0x38d 0x333\n0 0x38e 0x0\n"
	"0 0x38f 0x70000000f\n0 0x392 0x0\n";

static int owner_case(const char *text, const struct pmu_owner_query *q,
		      struct pmu_owner_report *r)
{
	struct msr_dev *dev = setup(text);
	int rc = pmu_check_owner(dev, 0, q, r);

	check_str(trace_lines("wr"), "", "pmu_check_owner writes nothing");
	check_str(get_file(state), text, "state file unchanged");
	msr_close(dev);
	return rc;
}

static void test_owner(void)
{
	struct pmu_owner_query q = { .version = 5, .gp_counters = 4, .nmi_watchdog = 0 };
	struct pmu_owner_report r = { 0 };

	check_int(owner_case(own_text, &q, &r), ==, 0, "free: 0");
	ok(!r.busy && r.inuse_read && r.fixed_used == 0x7, "free: not busy, INUSE read, FC0-2 used");
	check_str(text_or_empty(r.others),
		  "fixed counter 0 (IA32_FIXED_CTR_CTRL[3:0]=0x3: OS, USR); "
		  "fixed counter 1 (IA32_FIXED_CTR_CTRL[7:4]=0x3: OS, USR); "
		  "fixed counter 2 (IA32_FIXED_CTR_CTRL[11:8]=0x3: OS, USR)",
		  "free: FC0-2 listed for information");
	ok(r.owner == PMU_OWNER_FIRMWARE &&
	   strstr(text_or_empty(r.owner_text), "firmware or another tool"),
	   "FC0-2 counting, no PMI, no GP counter, watchdog off: firmware or another tool");
	ok(strstr(trace_lines("rd"), "rd 0 0x189 ") && !strstr(trace_lines("rd"), "rd 0 0x18a "),
	   "PERFEVTSEL0-3 read, not 4 (gp_counters 4)");

	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r), ==, -EBUSY,
		  "FC3 field 0x3: -EBUSY");
	check_str(r.busy_why, "IA32_FIXED_CTR_CTRL[15:12]=0x3 (fixed counter 3 enabled)", "busy: why");
	ok(strstr(text_or_empty(r.owner_text), "firmware or another tool") != NULL,
	   "FC3 alone: firmware or another tool");

	/* GLOBAL_CTRL bit 48 (or 35) with the FC3 field and INUSE bit 35 clear
	 * is perf's idle enable mask, not an owner (intel_pmu_enable_all). */
	check_int(owner_case(t_edit(own_text, "0x38f 0x70000000f", "0x38f 0x100070000000f"), &q, &r),
		  ==, 0, "GLOBAL_CTRL bit 48, FC3 field clear: 0");
	ok(!r.busy, "bit 48 alone: not busy");
	check_str(r.busy_why, "", "bit 48 alone: no reason");
	check_u64(r.global_ctrl, ==, 0x100070000000full, "bit 48 alone: GLOBAL_CTRL kept in the report");
	check_int(owner_case(t_edit(own_text, "0x38f 0x70000000f", "0x38f 0xf0000000f"), &q, &r),
		  ==, 0, "GLOBAL_CTRL bit 35, FC3 field clear: 0");
	ok(!r.busy && !r.busy_why[0], "bit 35 alone: not busy, no reason");

	/* PERFEVTSEL0 = EN (1<<22) | INT (1<<20) | OS (1<<17) | USR (1<<16) | event 0x3c
	 * = 0x400000 + 0x100000 + 0x20000 + 0x10000 + 0x3c = 0x53003c */
	check_int(owner_case(t_edit(own_text, "0 0x186 0x0", "0 0x186 0x53003c"), &q, &r), ==, 0,
		  "PERFEVTSEL0 in use: information, not a refusal");
	ok(r.evtsel_en == 1 && r.evtsel_int == 1 && r.evtsel_event == 1, "PERFEVTSEL0: EN, INT, event");
	ok(strstr(text_or_empty(r.others), "IA32_PERFEVTSEL0=0x53003c (EN, INT, event 0x3c)") != NULL,
	   "PERFEVTSEL0 named with its bits");
	ok(r.owner == PMU_OWNER_PERF &&
	   strstr(text_or_empty(r.owner_text), "perf or another profiler (likely:"),
	   "owner: perf or another profiler (likely)");

	/* INUSE bit 35 = 32 + 3: fixed counter 3 in use (KVM's INUSE emulation) */
	check_int(owner_case(t_edit(own_text, "0x392 0x0", "0x392 0x800000000"), &q, &r), ==, -EBUSY,
		  "INUSE bit 35 (v5): -EBUSY");
	check_str(r.busy_why, "IA32_PERF_GLOBAL_INUSE bit 35 set (fixed counter 3 in use)",
		  "INUSE bit 35: why");
	q.version = 3;
	check_int(owner_case(t_edit(own_text, "0x392 0x0", "0x392 0x800000000"), &q, &r), ==, 0,
		  "version 3: INUSE not read (a #GP before v4)");
	ok(!strstr(trace_lines("rd"), " 0x392 ") && !r.inuse_read, "v3: no access to 0x392");
	ok(!r.inuse_unread && !r.unread_err, "v3: INUSE not read is no failure (it would #GP)");
	q.version = 5;
	/* A check that could not be made is not a pass (-ENODATA), and the
	 * owner text never says "no sign of perf" then. */
	check_int(owner_case(t_edit(own_text, "0 0x392 0x0\n", ""), &q, &r), ==, -ENODATA,
		  "v5, INUSE unreadable (EIO): -ENODATA");
	ok(!r.inuse_read && r.inuse_unread && r.unread_err == -EIO && !r.busy,
	   "INUSE unread, recorded with its error, not busy");
	ok(!strstr(text_or_empty(r.owner_text), "no sign of perf") &&
	   strstr(text_or_empty(r.owner_text), "cannot tell"),
	   "owner: cannot tell (%s)", text_or_empty(r.owner_text));
	check_int(owner_case(t_edit(own_text, "0 0x187 0x0\n", ""), &q, &r), ==, -ENODATA,
		  "IA32_PERFEVTSEL1 unreadable: -ENODATA");
	ok(r.evtsel_unread == 0x2 && !r.inuse_unread && r.unread_err == -EIO,
	   "evtsel_unread bit 1 only; INUSE read");
	ok(strstr(trace_lines("rd"), "rd 0 0x188 ") && strstr(trace_lines("rd"), "rd 0 0x392 "),
	   "the rest of the checklist is still read");
	check_int(owner_case(t_edit(t_edit(own_text, "0 0x187 0x0\n", ""), "0x38d 0x333", "0x38d 0x3333"),
			     &q, &r), ==, -EBUSY, "FC3 busy and IA32_PERFEVTSEL1 unreadable: -EBUSY");
	ok(r.evtsel_unread == 0x2 && strstr(text_or_empty(r.owner_text), "cannot tell") != NULL,
	   "busy wins; the owner is not guessed past what could not be read");

	/* The NMI watchdog: FC1 field 0xb (OS, USR, PMI), nmi_watchdog=1 */
	q.nmi_watchdog = 1;
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0xb0"), &q, &r), ==, 0,
		  "watchdog on FC1: not a refusal");
	ok(r.watchdog_fc1, "watchdog_fc1");
	check_str(text_or_empty(r.others),
		  "fixed counter 1 (IA32_FIXED_CTR_CTRL[7:4]=0xb: OS, USR, PMI) held by "
		  "the NMI watchdog", "FC1 alone in use, named as the watchdog's");
	check_str(text_or_empty(r.owner_text), "the NMI watchdog", "owner: the NMI watchdog");
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3b3"), &q, &r), ==, 0,
		  "watchdog on FC1, FC0/FC2 counting too: not a refusal");
	ok(strstr(text_or_empty(r.others), "[7:4]=0xb: OS, USR, PMI) held by the NMI watchdog") != NULL,
	   "FC1 still named as the watchdog's");
	ok(r.owner == PMU_OWNER_PERF && strstr(text_or_empty(r.owner_text), "the NMI watchdog is on"),
	   "the rest: perf (likely), the watchdog as the evidence");
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x33b3"), &q, &r), ==, -EBUSY,
		  "watchdog on and FC3 busy: -EBUSY");
	ok(r.owner == PMU_OWNER_PERF && strstr(text_or_empty(r.owner_text), "the NMI watchdog is on"),
	   "FC3 busy with the watchdog on: perf (likely), the watchdog as the evidence");
	q.nmi_watchdog = 0;

	/* A journal holds the CPU: a crashed run, or pmu enable */
	q.journal_pid = 4242;
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r), ==, -EBUSY,
		  "journal + FC3: -EBUSY");
	check_str(text_or_empty(r.owner_text), "a crashed baretma run (pid 4242)",
		  "owner: a crashed baretma run");
	q.journal_kind = JOURNAL_ENABLE;
	owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r);
	check_str(text_or_empty(r.owner_text), "'baretma pmu enable' (pid 4242, not running)",
		  "owner: pmu enable");
	q.journal_kind = JOURNAL_MSR_WRITE;
	owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r);
	check_str(text_or_empty(r.owner_text), "'baretma msr write' (pid 4242, not running)",
		  "owner: msr write (a journal of its own kind)");
	pmu_owner_report_free(&r);
}

/*
 * An idle Linux Sapphire Rapids core as perf leaves it: 8 GP counters and
 * 4 fixed counters, nothing scheduled, so every PERFEVTSELx and
 * IA32_FIXED_CTR_CTRL are 0, but IA32_PERF_GLOBAL_CTRL holds the kernel's
 * enable mask x86_pmu.intel_ctrl (intel_pmu_enable_all writes intel_ctrl &
 * ~guest_mask; kernel arch/x86/events/intel/core.c intel_pmu_init),
 * worked out by hand:
 *   GP0-7  0xff
 *   FC0-3  0xf << 32 = 0xf00000000
 *   bit 48 (PERF_METRICS) 1 << 48 = 0x1000000000000
 *   sum    0x1000f000000ff
 * Whether FC3 counts is its IA32_FIXED_CTR_CTRL field's business
 * (INTEL_FIXED_*), and INUSE bit 35 its mirror (KVM's INUSE emulation);
 * GLOBAL_CTRL alone is no owner.
 */
static const char spr_idle_text[] =
	"0 0x186 0x0\n0 0x187 0x0\n0 0x188 0x0\n0 0x189 0x0\n"
	"0 0x18a 0x0\n0 0x18b 0x0\n0 0x18c 0x0\n0 0x18d 0x0\n"
	"0 0x30c 0x0\n0 0x329 0x0\n0 0x38d 0x0\n0 0x38e 0x0\n"
	"0 0x38f 0x1000f000000ff\n0 0x392 0x0\n";

static void test_owner_perf_idle(void)
{
	struct pmu_owner_query q = { .version = 5, .gp_counters = 8, .nmi_watchdog = 0 };
	struct pmu_owner_report r = { 0 };

	check_int(owner_case(spr_idle_text, &q, &r), ==, 0,
		  "SPR idle under perf (GLOBAL_CTRL 0x1000f000000ff, FIXED_CTR_CTRL 0, INUSE 0): 0");
	ok(!r.busy, "perf's idle enable mask: not busy");
	check_str(r.busy_why, "", "idle: no reason");
	check_u64(r.global_ctrl, ==, 0x1000f000000ffull, "idle: GLOBAL_CTRL read and kept");
	ok(r.inuse_read && r.fixed_used == 0 && !r.evtsel_en && !r.evtsel_event,
	   "idle: INUSE read, no fixed field, no PERFEVTSELx in use");
	ok(strstr(trace_lines("rd"), "rd 0 0x18d ") != NULL, "PERFEVTSEL7 read (gp_counters 8)");
	check_str(text_or_empty(r.others), "", "idle: nothing else in use");
	ok(r.owner == PMU_OWNER_NONE && !r.owner_text, "idle: no owner named");

	/* FC3 field = EN_OS | EN_USR = 0x3 << 12 = 0x3000 */
	check_int(owner_case(t_edit(spr_idle_text, "0x38d 0x0", "0x38d 0x3000"), &q, &r), ==, -EBUSY,
		  "same GLOBAL_CTRL, FIXED_CTR_CTRL 0x3000: -EBUSY");
	ok(r.busy && r.fixed_used == 1u << 3, "FC3 field set: busy, FC3 used");
	check_str(r.busy_why, "IA32_FIXED_CTR_CTRL[15:12]=0x3 (fixed counter 3 enabled)",
		  "FC3 field: why names IA32_FIXED_CTR_CTRL[15:12], not GLOBAL_CTRL");

	/* INUSE bit 35 = 32 + 3 = 0x800000000, the FC3 field clear (KVM's INUSE emulation) */
	check_int(owner_case(t_edit(spr_idle_text, "0x392 0x0", "0x392 0x800000000"), &q, &r), ==,
		  -EBUSY, "same GLOBAL_CTRL, INUSE bit 35, FC3 field clear: -EBUSY");
	check_str(r.busy_why, "IA32_PERF_GLOBAL_INUSE bit 35 set (fixed counter 3 in use)",
		  "INUSE bit 35: why");

	/* The NMI watchdog's cycles event on FC1 (field 0xb: OS, USR, PMI;
	 * linux kernel/watchdog_perf.c) and INUSE bits 33 and 63 (FC1 in use, a PMI armed):
	 * 0x200000000 + 0x8000000000000000 = 0x8000000200000000. */
	q.nmi_watchdog = 1;
	check_int(owner_case(t_edit(t_edit(spr_idle_text, "0x38d 0x0", "0x38d 0xb0"), "0x392 0x0",
				    "0x392 0x8000000200000000"), &q, &r), ==, 0,
		  "idle but for the NMI watchdog, GLOBAL_CTRL = intel_ctrl: 0");
	ok(!r.busy && !r.busy_why[0], "watchdog + intel_ctrl: not busy");
	pmu_owner_report_free(&r);
}

int main(void)
{
	t_pmu_fixture("0312");
	test_owner();
	test_owner_perf_idle();
	t_pmu_fixture_end();
	return done_testing();
}
