/*
 * t/0310-pmu-program.c - programming FC3 + PERF_METRICS (msr/pmu/pmu.h) against
 * a state file modelling an Ice Lake client CPU (t/pmu-fixture.h), read
 * back through the $BARETMA_MSR_TRACE lines and the state file's text:
 * program and restore, user-only, counters in use and --force, parts
 * without FC3 or PERF_METRICS, a failing backend, the tamper check
 * (pmu_verify), the reset between repetitions and a region's programming.
 * With the run journal, its signal guard and the write gate: t/0311; the
 * ownership check (pmu_check_owner): t/0312.
 *
 * Every expected sequence below is worked out by hand from msr/pmu/pmu.h's
 * steps, the kernel's order (linux arch/x86/events/intel/core.c
 * intel_pmu_disable_all, icl_set_topdown_event_period, intel_pmu_ack_status, intel_pmu_enable_all),
 * and the bit layouts of linux perf_event.h (INTEL_FIXED_*, INTEL_PMC_IDX_FIXED,
 * GLOBAL_CTRL_EN_PERF_METRICS);
 * the arithmetic is written next to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/open/msr_open.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/pmu/pmu.h"
#include "t/fixture.h"
#include "t/pmu-fixture.h"

static void test_program_restore(void)
{
	struct pmu_saved s;
	char why[256];
	struct msr_dev *dev = setup(icl_text);

	check_int(pmu_program(dev, 0, &icl_cfg, &s, why, sizeof(why)), ==, 0,
		  "program cpu 0 (Ice Lake, PERF_METRICS)");
	/* steps 1-6 of msr/pmu/pmu.h, worked out beside ICL_CPU0_PROGRAM */
	check_str(trace_lines(""), ICL_CPU0_READS ICL_CPU0_PROGRAM,
		  "program: reads, then writes in pmu.h order with hand-worked values");
	check_u64(s.global_ctrl, ==, 0x70000000full, "saved GLOBAL_CTRL");
	check_u64(s.fixed_ctr_ctrl, ==, 0x333, "saved FIXED_CTR_CTRL");
	check_u64(s.fixed_ctr3, ==, 0x2f1a3c0, "saved FIXED_CTR3");
	check_u64(s.perf_metrics_val, ==, 0x1f3a5c47, "saved PERF_METRICS");
	ok(s.programmed && s.perf_metrics && s.cpu == 0, "saved: programmed, perf_metrics, cpu 0");
	/* GLOBAL_STATUS_RESET clears bits 35/48 of GLOBAL_STATUS (0 already):
	 * neither line changes.  Cpu 1 untouched. */
	check_str(get_file(state),
		  ICL_HEADER
		  "0 0x30c 0x0\n"
		  "0 0x329 0x0\n"
		  "0 0x345 0xf4c5\n"
		  "0 0x38d 0x3333\n"
		  "0 0x38e 0x0\n"
		  "0 0x38f 0x1000f0000000f\n"
		  "0 0x390 0x0\n"
		  ICL_CPU1_TEXT,
		  "programmed register values in the state file");

	put_file(trace, "");
	check_int(pmu_restore(dev, &s), ==, 0, "restore cpu 0");
	/* Freeze, FIXED_CTR_CTRL, FC3, PERF_METRICS, the overflow clear, then
	 * GLOBAL_CTRL last (ICL_CPU0_RESTORE). */
	check_str(trace_lines(""), ICL_CPU0_RESTORE(""),
		  "restore writes the saved values, GLOBAL_CTRL last");
	check_str(get_file(state), icl_text, "restore gives back the original bytes");
	ok(!s.programmed, "programmed cleared after restore");
	put_file(trace, "");
	check_int(pmu_restore(dev, &s), ==, 0, "second restore is a no-op");
	check_str(trace_lines(""), "", "no access on a second restore");

	put_file(trace, "");
	check_int(pmu_reset_counts(dev, 0, true), ==, 0, "reset counts with PERF_METRICS");
	check_str(trace_lines(""), "wr 0 0x30c 0x0\nwr 0 0x329 0x0\n", "FC3 first, then PERF_METRICS");
	put_file(trace, "");
	check_int(pmu_reset_counts(dev, 1, false), ==, 0, "reset counts without PERF_METRICS");
	check_str(trace_lines(""), "wr 1 0x30c 0x0\n", "only FC3 without PERF_METRICS");
	msr_close(dev);
}

static void test_user_only(void)
{
	struct pmu_config cfg = icl_cfg;
	struct pmu_saved s;
	struct msr_dev *dev = setup(icl_text);

	cfg.user_only = true;
	check_int(pmu_program(dev, 1, &cfg, &s, NULL, 0), ==, 0, "program cpu 1 user-only");
	/* FIXED_CTR_CTRL = (0xa00000b3a & ~0xf000) | EN_USR (0x2) << 12 = 0xa00002b3a:
	 * every bit outside 15:12 kept (bits 33, 35, FC0-2 fields). */
	check_str(trace_lines("wr"),
		  "wr 1 0x38f 0x0\n"
		  "wr 1 0x38d 0xa00002b3a\n"
		  "wr 1 0x30c 0x0\n"
		  "wr 1 0x329 0x0\n"
		  "wr 1 0x390 0x1000800000000\n"
		  "wr 1 0x38f 0x1000f0000000f\n",
		  "user_only: FC3 field 0x2, other fields bit for bit");
	check_int(pmu_restore(dev, &s), ==, 0, "restore cpu 1");
	check_str(get_file(state), icl_text, "cpu 1 back to the original bytes");
	msr_close(dev);
}

/* A busy fixture must give -EBUSY with @want in why and no write at all. */
static void busy_case(const char *text, const char *want, const char *name)
{
	struct pmu_saved s;
	char why[256] = "";
	struct msr_dev *dev = setup(text);

	check_int(pmu_check_in_use(dev, 0, why, sizeof(why)), ==, -EBUSY, name);
	ok(strstr(why, want) != NULL, "check_in_use why has '%s'", want);
	check_int(pmu_program(dev, 0, &icl_cfg, &s, why, sizeof(why)), ==, -EBUSY, name);
	ok(strstr(why, want) != NULL, "program why has '%s'", want);
	if (!strstr(why, want))
		printf("#   why: '%s'\n", why);
	check_str(trace_lines("wr"), "", "no write line when busy");
	ok(!s.programmed, "busy: nothing to restore");
	check_str(get_file(state), text, "busy: state file unchanged");
	msr_close(dev);
}

/*
 * A fixture with the FC3 field clear and IA32_PERF_GLOBAL_CTRL = @gc (as
 * in the text) is free: 0, an empty why, and pmu_program runs the whole
 * pmu.h sequence on it: FIXED_CTR_CTRL = (0x333 & ~0xf000) | 0x3000 = 0x3333,
 * reset MSR = bit 35 | bit 48 = 0x1000800000000, and GLOBAL_CTRL =
 * @gc | bit 35 | bit 48, which is 0x1000f0000000f for every @gc used here
 * (each is a subset of it with 0xf | 0x7 << 32 set).
 */
static void free_case(const char *text, const char *gc, const char *name)
{
	struct pmu_saved s;
	char why[256] = "x", rd[64];
	struct msr_dev *dev = setup(text);

	check_int(pmu_check_in_use(dev, 0, why, sizeof(why)), ==, 0, name);
	check_str(why, "", "check_in_use: no reason");
	check_int(pmu_program(dev, 0, &icl_cfg, &s, why, sizeof(why)), ==, 0, name);
	check_str(why, "", "program: no reason");
	snprintf(rd, sizeof(rd), "rd 0 0x38f %s\n", gc);
	ok(strstr(trace_lines("rd"), rd) != NULL, "GLOBAL_CTRL read as %s", gc);
	check_str(trace_lines("wr"), ICL_CPU0_PROGRAM, "free: the whole program sequence");
	check_int(pmu_restore(dev, &s), ==, 0, "restore");
	check_str(get_file(state), text, "free: original bytes back");
	msr_close(dev);
}

static void test_busy_and_force(void)
{
	struct pmu_config cfg = icl_cfg;
	struct pmu_saved s;
	char why[256];
	const char *taken;
	struct msr_dev *dev = setup(icl_text);

	check_int(pmu_check_in_use(dev, 0, why, sizeof(why)), ==, 0, "fixture is free");
	msr_close(dev);
	busy_case(t_edit(icl_text, "0 0x38d 0x333\n", "0 0x38d 0x3333\n"),
		  "IA32_FIXED_CTR_CTRL[15:12]=0x3", "FC3 field 0x3: busy");
	busy_case(t_edit(icl_text, "0 0x38d 0x333\n", "0 0x38d 0x8333\n"),
		  "IA32_FIXED_CTR_CTRL[15:12]=0x8", "FC3 field PMI only: busy");
	/* IA32_PERF_GLOBAL_CTRL bits 35 and 48 with the FC3 field clear are no
	 * owner: perf's intel_pmu_enable_all leaves them set on an idle PMU
	 * (linux arch/x86/events/intel/core.c intel_pmu_enable_all). */
	free_case(t_edit(icl_text, "0 0x38f 0x70000000f\n", "0 0x38f 0xf0000000f\n"),
		  "0xf0000000f", "GLOBAL_CTRL bit 35 alone: free");
	free_case(t_edit(icl_text, "0 0x38f 0x70000000f\n", "0 0x38f 0x100070000000f\n"),
		  "0x100070000000f", "GLOBAL_CTRL bit 48 alone: free");
	/* The kernel's intel_ctrl on this 4-GP, 4-fixed Ice Lake:
	 * 0xf | 0xf << 32 | 1 << 48 = 0xf + 0xf00000000 + 0x1000000000000
	 * = 0x1000f0000000f; programming ORs in bits 35 and 48, already set. */
	free_case(t_edit(icl_text, "0 0x38f 0x70000000f\n", "0 0x38f 0x1000f0000000f\n"),
		  "0x1000f0000000f", "GLOBAL_CTRL = perf's idle intel_ctrl: free");

	/* Someone else's topdown setup: FC3 field 0x2, bits 35 and 48 on. */
	taken = t_edit(icl_text, "0 0x38d 0x333\n", "0 0x38d 0x2333\n");
	taken = t_edit(taken, "0 0x38f 0x70000000f\n", "0 0x38f 0x1000f0000000f\n");
	dev = setup(taken);
	cfg.force = true;
	check_int(pmu_program(dev, 0, &cfg, &s, why, sizeof(why)), ==, 0, "force takes over");
	check_str(why, "IA32_FIXED_CTR_CTRL[15:12]=0x2 (fixed counter 3 enabled)",
		  "force still reports why it was busy (the FC3 field; GLOBAL_CTRL is no reason)");
	/* FIXED_CTR_CTRL = (0x2333 & ~0xf000) | 0x3000 = 0x3333;
	 * GLOBAL_CTRL = 0x1000f0000000f | bit 35 | bit 48 = 0x1000f0000000f */
	check_str(trace_lines("wr"),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x3333\n"
		  "wr 0 0x30c 0x0\n"
		  "wr 0 0x329 0x0\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x1000f0000000f\n",
		  "forced program sequence");
	check_int(pmu_restore(dev, &s), ==, 0, "restore after force");
	check_str(get_file(state), taken, "force + restore: the other owner's values back");
	msr_close(dev);
}

static void test_no_fc3_no_metrics(void)
{
	struct pmu_config cfg = icl_cfg;
	struct pmu_saved s;
	struct msr_dev *dev = setup(icl_text);

	cfg.fixed_ctr3 = false;
	check_int(pmu_program(dev, 0, &cfg, &s, NULL, 0), ==, -ENODEV, "no FC3: -ENODEV");
	check_str(trace_lines("wr"), "", "no FC3: no write");
	ok(!s.programmed, "no FC3: nothing to restore");
	msr_close(dev);

	dev = setup(icl_text);
	cfg = icl_cfg;
	cfg.perf_metrics = false;
	check_int(pmu_program(dev, 0, &cfg, &s, NULL, 0), ==, 0, "program without PERF_METRICS");
	/* Reset MSR = bit 35 only = 0x800000000; GLOBAL_CTRL = 0x70000000f | bit 35
	 * = 0xf0000000f.  0x329 is neither read nor written. */
	check_str(trace_lines(""),
		  "rd 0 0x38f 0x70000000f\n"
		  "rd 0 0x38d 0x333\n"
		  "rd 0 0x30c 0x2f1a3c0\n"
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x3333\n"
		  "wr 0 0x30c 0x0\n"
		  "wr 0 0x390 0x800000000\n"
		  "wr 0 0x38f 0xf0000000f\n",
		  "no PERF_METRICS: no 0x329 access, bit 48 never set");
	check_int(pmu_restore(dev, &s), ==, 0, "restore without PERF_METRICS");
	ok(strstr(trace_lines(""), "0x329") == NULL, "restore does not touch 0x329 either");
	check_str(get_file(state), icl_text, "original bytes back");
	msr_close(dev);

	/* Forced over a GLOBAL_CTRL with bit 48 on a CPU said to lack
	 * PERF_METRICS: the programmed value drops bit 48 (a #GP risk,
	 * linux commit "perf/x86/intel: Check perf metrics feature for each CPU"):
	 * 0x100070000000f & ~bit 48 | bit 35 = 0xf0000000f.
	 * Restore writes the saved value back as it was read. */
	dev = setup(t_edit(icl_text, "0 0x38f 0x70000000f\n", "0 0x38f 0x100070000000f\n"));
	cfg.force = true;
	check_int(pmu_program(dev, 0, &cfg, &s, NULL, 0), ==, 0, "forced, no PERF_METRICS");
	check_str(trace_lines("wr"),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x3333\n"
		  "wr 0 0x30c 0x0\n"
		  "wr 0 0x390 0x800000000\n"
		  "wr 0 0x38f 0xf0000000f\n",
		  "no PERF_METRICS: bit 48 dropped from the programmed GLOBAL_CTRL");
	check_int(pmu_restore(dev, &s), ==, 0, "restore");
	ok(strstr(get_file(state), "0 0x38f 0x100070000000f\n") != NULL, "saved GLOBAL_CTRL back");
	msr_close(dev);
}

static void test_backend_failure(void)
{
	struct pmu_saved s;
	const char *no390 = t_edit(icl_text, "0 0x390 0x0\n", "");
	const char *no329 = t_edit(icl_text, "0 0x329 0x1f3a5c47\n", "");
	char *keep = strdup(no390);
	struct msr_dev *dev = setup(keep);

	/* 0x390 missing: the 5th write fails after four have landed. */
	check_int(pmu_program(dev, 0, &icl_cfg, &s, NULL, 0), ==, -EIO,
		  "missing GLOBAL_STATUS_RESET: -EIO midway");
	check_str(trace_lines("wr"),
		  ICL_CPU0_CLEARS "wr 0 0x390 0x1000800000000 EIO\n" ICL_CPU0_RESTORE(" EIO"),
		  "failure midway, then every register restored (the overflow clear is "
		  "tried and, failing, does not fail the restore)");
	check_str(get_file(state), keep, "state file back to the original bytes");
	ok(!s.programmed, "restored: nothing left to restore");
	msr_close(dev);
	free(keep);

	keep = strdup(no329);
	dev = setup(keep);
	check_int(pmu_program(dev, 0, &icl_cfg, &s, NULL, 0), ==, -EIO,
		  "missing PERF_METRICS with perf_metrics: -EIO");
	check_str(trace_lines("wr"), "", "the read fails before any write");
	check_str(get_file(state), keep, "state file unchanged");
	msr_close(dev);
	free(keep);
}

/* pmu_verify: the tamper check sees another handle's writes (a second process). */
static void test_verify(void)
{
	struct pmu_config cfg = icl_cfg;
	struct pmu_saved s;
	uint64_t fcc = 0, gc = 0;
	char spec[PATH_MAX + 8];
	struct msr_dev *dev = setup(icl_text), *other = NULL;

	spec_of(spec, sizeof(spec));
	check_int(pmu_program(dev, 0, &cfg, &s, NULL, 0), ==, 0, "program cpu 0");
	check_int(pmu_verify(dev, 0, &cfg, &fcc, &gc), ==, 0, "verify right after: as programmed");
	check_u64(fcc, ==, 0x3333, "verify read FIXED_CTR_CTRL 0x3333");
	check_u64(gc, ==, 0x1000f0000000full, "verify read GLOBAL_CTRL 0x1000f0000000f");
	check_int(msr_open(spec, &other), ==, 0, "a second handle on the state file");
	msr_ungate(other); /* another program's */
	/* perf takes FC3 away: field 15:12 cleared, 0x3333 -> 0x333 */
	check_int(msr_write(other, 0, IA32_FIXED_CTR_CTRL, 0x333), ==, 0, "other: FC3 field cleared");
	check_int(pmu_verify(dev, 0, &cfg, &fcc, NULL), ==, 1, "verify sees the other handle's write: 1");
	check_u64(fcc, ==, 0x333, "and reads 0x333");
	check_int(msr_write(other, 0, IA32_FIXED_CTR_CTRL, 0x3333), ==, 0, "other: FC3 field back");
	/* perf_enable_all style: GLOBAL_CTRL without bit 48 (0x1000f0000000f - 1<<48) */
	check_int(msr_write(other, 0, IA32_PERF_GLOBAL_CTRL, 0xf0000000full), ==, 0, "other: bit 48 cleared");
	check_int(pmu_verify(dev, 0, &cfg, NULL, &gc), ==, 1, "bit 48 cleared: 1");
	check_int(msr_write(other, 0, IA32_PERF_GLOBAL_CTRL, 0x1000f0000000full), ==, 0, "other: back");
	check_int(pmu_verify(dev, 0, &cfg, NULL, NULL), ==, 0, "as programmed again: 0");
	cfg.user_only = true;
	check_int(pmu_verify(dev, 0, &cfg, NULL, NULL), ==, 1, "field 0x3 is not user-only's 0x2: 1");
	cfg = icl_cfg;
	cfg.perf_metrics = false;
	check_int(pmu_verify(dev, 0, &cfg, NULL, NULL), ==, 1,
		  "bit 48 set where the config has no PERF_METRICS: 1");
	check_int(pmu_verify(dev, 5, &icl_cfg, NULL, NULL), ==, -ENXIO, "no cpu 5: -ENXIO");
	msr_close(other);
	check_int(pmu_restore(dev, &s), ==, 0, "restore");
	check_str(get_file(state), icl_text, "original bytes");
	msr_close(dev);
}

/*
 * Between two repetitions (msr/pmu/pmu.h pmu_reset_frozen, pmu_read_overflow),
 * on cpu 1 of the fixture after programming:
 *   programmed GLOBAL_CTRL = 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f;
 *   frozen = 0x1000f0000000f & ~(1<<35 | 1<<48) = 0x70000000f (GP0-3 and
 *   FC0-2 keep counting: only fixed counter 3 and PERF_METRICS stop).
 */
static void test_reset_frozen(void)
{
	struct msr_dev *dev = setup(t_edit(icl_text, "1 0x38e 0x0\n", "1 0x38e 0x0\n1 0x391 0x0\n"));
	struct pmu_saved s;
	uint64_t bits = 1;

	check_int(pmu_program(dev, 1, &icl_cfg, &s, NULL, 0), ==, 0, "program cpu 1");
	/* what was written, not read back: (0xa00000b3a & ~0xf000) | 0x3000 */
	check_u64(s.prog_fixed_ctr_ctrl, ==, 0xa00003b3aull, "prog_fixed_ctr_ctrl as written");
	check_u64(s.prog_global_ctrl, ==, 0x1000f0000000full, "prog_global_ctrl as written");
	check_int(pmu_read_overflow(dev, 1, true, &bits), ==, 0, "read GLOBAL_STATUS");
	check_u64(bits, ==, 0, "no overflow after programming");
	put_file(trace, "");
	check_int(pmu_reset_frozen(dev, 1, true, 0x1000f0000000full, 0), ==, 0,
		  "reset with nothing to clear");
	check_str(trace_lines(""),
		  "wr 1 0x38f 0x70000000f\n"
		  "wr 1 0x30c 0x0\n"
		  "wr 1 0x329 0x0\n"
		  "wr 1 0x38f 0x1000f0000000f\n",
		  "freeze bits 35/48 only, FC3 then PERF_METRICS, re-enable");

	/* overflow of PERF_METRICS and FC3, and an unrelated FC0 bit (32) that
	 * is not baretma's to clear */
	msr_write(dev, 1, IA32_PERF_GLOBAL_STATUS_SET, 1ull << 48 | 1ull << 35 | 1ull << 32);
	check_int(pmu_read_overflow(dev, 1, true, &bits), ==, 0, "read GLOBAL_STATUS");
	check_u64(bits, ==, 0x1000800000000ull, "bits 35 and 48 reported, bit 32 not");
	check_int(pmu_read_overflow(dev, 1, false, &bits), ==, 0, "without PERF_METRICS");
	check_u64(bits, ==, 0x800000000ull, "only bit 35 without PERF_METRICS");
	put_file(trace, "");
	check_int(pmu_reset_frozen(dev, 1, true, 0x1000f0000000full, 0x1000900000000ull),
		  ==, 0, "reset clearing the overflow");
	check_str(trace_lines(""),
		  "wr 1 0x38f 0x70000000f\n"
		  "wr 1 0x390 0x1000800000000\n"
		  "wr 1 0x30c 0x0\n"
		  "wr 1 0x329 0x0\n"
		  "wr 1 0x38f 0x1000f0000000f\n",
		  "the clear inside the frozen window, before FC3 and PERF_METRICS; only 35/48");
	ok(strstr(get_file(state), "1 0x38e 0x100000000\n") != NULL,
	   "GLOBAL_STATUS keeps bit 32 (FC0's, not baretma's)");

	/* someone cleared bit 35 meanwhile (0x1000f0000000f - 1<<35 =
	 * 0x100070000000f): baretma writes back what it read */
	put_file(trace, "");
	pmu_reset_frozen(dev, 1, true, 0x100070000000full, 0);
	check_str(trace_lines("wr 1 0x38f"),
		  "wr 1 0x38f 0x70000000f\nwr 1 0x38f 0x100070000000f\n",
		  "GLOBAL_CTRL as read goes back: a cleared bit is not set again");

	/* without PERF_METRICS: no 0x329, bit 48 never written */
	put_file(trace, "");
	pmu_reset_frozen(dev, 1, false, 0x1000f0000000full, 0x1000800000000ull);
	check_str(trace_lines(""),
		  "wr 1 0x38f 0x70000000f\n"
		  "wr 1 0x390 0x800000000\n"
		  "wr 1 0x30c 0x0\n"
		  "wr 1 0x38f 0xf0000000f\n",
		  "no PERF_METRICS: bit 48 neither cleared nor set, no 0x329 write");

	/* a failing write names its register; the counters are not left frozen */
	msr_close(dev);
	dev = setup(t_edit(icl_text, "1 0x329 0x80808080\n", ""));
	put_file(trace, "");
	check_int(pmu_reset_frozen(dev, 1, true, 0x1000f0000000full, 0), ==, -EIO,
		  "PERF_METRICS missing: -EIO");
	{
		struct msr_fault f;

		ok(msr_last_fault(dev, &f) && f.op == MSR_OP_WRITE && f.cpu == 1 &&
		   f.msr == IA32_PERF_METRICS && f.err == -EIO,
		   "msr_last_fault names the failed write: cpu 1, IA32_PERF_METRICS, -EIO");
	}
	check_str(trace_lines("wr"),
		  "wr 1 0x38f 0x70000000f\n"
		  "wr 1 0x30c 0x0\n"
		  "wr 1 0x329 0x0 EIO\n"
		  "wr 1 0x38f 0x1000f0000000f\n",
		  "after the failure GLOBAL_CTRL is still written back");
	msr_close(dev);
	dev = setup(t_edit(icl_text, "1 0x38e 0x0\n", ""));
	check_int(pmu_read_overflow(dev, 1, true, &bits), ==, -EIO,
		  "GLOBAL_STATUS missing: -EIO (the run refuses: a check not made is no pass)");
	msr_close(dev);
}

/*
 * A short region of `baretma validate` (msr/pmu/pmu.h pmu_region_start), on
 * cpu 1 of the fixture (FIXED_CTR_CTRL 0xa00000b3a: FC0 0xa, FC1 0x3, FC2
 * 0xb, a field at bits 39:36 kept), worked by hand:
 *   FC3 field 0x3 (OS|USR): (0xa00000b3a & ~0xf000) | 0x3 << 12 = 0xa00003b3a;
 *   with METRICS_CLEAR_EN (0x4, bit 14): 0x7 << 12 -> 0xa00007b3a;
 *   FC1 on as well (0x3 << 4 = 0x30, already set here) changes nothing;
 *   GLOBAL_CTRL = bit 35 = 0x800000000, | bit 48 = 0x1000800000000,
 *   | bit 33 (FC1) = 0x1000a00000000.
 * The order is pmu_program's: freeze, FIXED_CTR_CTRL, FC3 then PERF_METRICS
 * (kernel icl_set_topdown_event_period), GLOBAL_CTRL last.  A PMI bit, or
 * bit 48 without PERF_METRICS, is refused before any write.
 */
static void test_region(void)
{
	struct msr_dev *dev = setup(icl_text);
	struct pmu_region r = { .perf_metrics = true, .metrics = true,
				.field = FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR };

	check_u64(pmu_fc3_field_set(0xa00000b3aull, 0x3), ==, 0xa00003b3aull,
		  "pmu_fc3_field_set inserts FC3's field, the others kept");
	check_u64(pmu_fc3_field_get(0xa00003b3aull), ==, 0x3, "pmu_fc3_field_get extracts it");
	check_u64(pmu_fc3_field_set(0x7333ull, 0x0), ==, 0x333, "a field of 0 clears it");
	put_file(trace, "");
	check_int(pmu_region_start(dev, 1, &r), ==, 0, "region with PERF_METRICS");
	check_str(trace_lines("wr"),
		  "wr 1 0x38f 0x0\n"
		  "wr 1 0x38d 0xa00003b3a\n"
		  "wr 1 0x30c 0x0\n"
		  "wr 1 0x329 0x0\n"
		  "wr 1 0x38f 0x1000800000000\n",
		  "freeze, FC3's field, FC3 then PERF_METRICS, bits 35 and 48");
	r.field |= FIXED_CTR_CTRL_ANYTHR;
	r.other_fields = 0x30;
	r.other_enable = 1ull << 33;
	put_file(trace, "");
	check_int(pmu_region_start(dev, 1, &r), ==, 0, "region with METRICS_CLEAR_EN and FC1");
	check_str(trace_lines("wr 1 0x38"),
		  "wr 1 0x38f 0x0\n"
		  "wr 1 0x38d 0xa00007b3a\n"
		  "wr 1 0x38f 0x1000a00000000\n",
		  "bit 14 set, FC1 enabled beside FC3");
	put_file(trace, "");
	check_int(pmu_region_enable(dev, 1, &r), ==, 0, "enable again after a freeze");
	check_str(trace_lines("wr"), "wr 1 0x38f 0x1000a00000000\n", "GLOBAL_CTRL only");
	r = (struct pmu_region){ .field = 0x3 };
	put_file(trace, "");
	check_int(pmu_region_start(dev, 1, &r), ==, 0, "region without PERF_METRICS");
	check_str(trace_lines("wr"),
		  "wr 1 0x38f 0x0\n"
		  "wr 1 0x38d 0xa00003b3a\n"
		  "wr 1 0x30c 0x0\n"
		  "wr 1 0x38f 0x800000000\n",
		  "no PERF_METRICS: no 0x329, no bit 48");
	put_file(trace, "");
	r.field = 0xb;
	check_int(pmu_region_start(dev, 1, &r), ==, -EINVAL, "FC3's PMI bit: -EINVAL");
	r = (struct pmu_region){ .field = 0x3, .other_fields = 0x80 };
	check_int(pmu_region_start(dev, 1, &r), ==, -EINVAL, "FC1's PMI bit: -EINVAL");
	r = (struct pmu_region){ .field = 0x3, .other_fields = 0x3000 };
	check_int(pmu_region_start(dev, 1, &r), ==, -EINVAL, "FC3's field among the others: -EINVAL");
	r = (struct pmu_region){ .field = 0x3, .metrics = true };
	check_int(pmu_region_start(dev, 1, &r), ==, -EINVAL, "bit 48 without PERF_METRICS: -EINVAL");
	check_str(trace_lines(""), "", "nothing written for a refused region");
	put_file(trace, "");
	check_int(pmu_clear_overflow(dev, 1, true), ==, 0, "clear the overflow bits");
	check_int(pmu_clear_overflow(dev, 1, false), ==, 0, "without PERF_METRICS");
	check_str(trace_lines("wr"), "wr 1 0x390 0x1000800000000\nwr 1 0x390 0x800000000\n",
		  "bits 35 and 48; bit 35 only without PERF_METRICS");
	msr_close(dev);
}

int main(void)
{
	t_pmu_fixture("0310");
	test_program_restore();
	test_user_only();
	test_busy_and_force();
	test_no_fc3_no_metrics();
	test_backend_failure();
	test_verify();
	test_reset_frozen();
	test_region();
	t_pmu_fixture_end();
	return done_testing();
}
