/*
 * t/0820-gp-program.c - general-purpose counters (msr/pmu/pmu_gp.h) programmed
 * through the state-file backend, read back from the $BARETMA_MSR_TRACE
 * lines and the state file's text: an Intel plan (Skylake client: 4 GP
 * counters, 3 fixed, arch perfmon v4, full-width writes) and an AMD
 * PerfMonV2 plan (Zen 4: 6 core counters); the write gate (every written
 * register saved first); counters in use refused by name with nothing
 * written; the restore by the journal, byte for byte, also from the file
 * after SIGKILL (journal_restore_data, as `baretma pmu restore` does).
 *
 * Every expected value is worked by hand from the register layouts of the
 * SDM and the kernel (IA32_PERFEVTSELx: event 7:0, umask 15:8, USR 16,
 * OS 17, EDGE 18, INT 20, ANY 21, EN 22, INV 23, CMASK 31:24 - linux
 * arch/x86/include/asm/perf_event.h ARCH_PERFMON_EVENTSEL_*; AMD PERF_CTL:
 * the same, EventSelect[11:8] at 35:32 - AMD64_EVENTSEL_EVENT; addresses
 * from msr-index.h: IA32_PERFEVTSEL0 0x186, IA32_PMC0 0xc1, IA32_A_PMC0
 * 0x4c1, IA32_FIXED_CTR1 0x30a, FIXED_CTR_CTRL 0x38d, GLOBAL_CTRL 0x38f,
 * GLOBAL_STATUS_RESET 0x390, GLOBAL_INUSE 0x392; MSR_F15H_PERF_CTL0
 * 0xc0010200 + 2i, _CTR0 0xc0010201 + 2i, MSR_AMD64_PERF_CNTR_GLOBAL_CTL
 * 0xc0000301, _STATUS_CLR 0xc0000302) and the event encodings of
 * intel/perfmon's SKL JSON and perf's amdzen4 JSON; the arithmetic is
 * written beside each.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/journal/journal.h"
#include "msr/pmu/pmu_gp.h"
#include "t/fixture.h"
#include "t/pmu-fixture.h"

/*
 * Skylake client cpu 0: GLOBAL_CTRL 0x700000000 (FC0-2 on, the GP bits
 * off: a value the program's last write changes), FIXED_CTR_CTRL 0x303
 * (FC0 and FC2 counting for firmware; FC1's field free), stale counts in
 * the counters and A_PMC aliases (a state file keeps them apart).
 */
static const char skl_text[] =
	"# Skylake client, t/0820\n"
	"0 0xc1 0x11\n0 0xc2 0x22\n0 0xc3 0x33\n0 0xc4 0x44\n"
	"0 0x186 0x0\n0 0x187 0x0\n0 0x188 0x0\n0 0x189 0x0\n"
	"0 0x309 0x1234\n0 0x30a 0x5678\n0 0x30b 0x9abc\n"
	"0 0x38d 0x303\n0 0x38e 0x0\n0 0x38f 0x700000000\n0 0x390 0x0\n0 0x392 0x0\n"
	"0 0x4c1 0x111\n0 0x4c2 0x222\n0 0x4c3 0x333\n0 0x4c4 0x444\n";

/* Zen 4 cpu 0: GLOBAL_CTL 0x3f, as the kernel leaves an idle PMU
 * (amd_pmu_v2_enable_all writes amd_pmu_global_cntr_mask). */
static const char zen4_text[] =
	"# Zen 4, t/0820\n"
	"0 0xc0000300 0x0\n0 0xc0000301 0x3f\n0 0xc0000302 0x0\n"
	"0 0xc0010200 0x0\n0 0xc0010201 0x10\n0 0xc0010202 0x0\n0 0xc0010203 0x11\n"
	"0 0xc0010204 0x0\n0 0xc0010205 0x12\n0 0xc0010206 0x0\n0 0xc0010207 0x13\n"
	"0 0xc0010208 0x0\n0 0xc0010209 0x14\n0 0xc001020a 0x0\n0 0xc001020b 0x15\n";

static const struct gp_pmu skl = {
	.vendor = GP_VENDOR_INTEL, .version = 4, .gp_mask = 0xf, .gp_width = 48,
	.fixed_mask = 0x7, .fixed_width = 48, .full_width_write = true, .anythread = true,
};
static const struct gp_pmu zen4 = {
	.vendor = GP_VENDOR_AMD, .version = 2, .gp_mask = 0x3f, .gp_width = 48,
};

/* SKL events (intel/perfmon SKL/events/skylake_core.json): THREAD_ANY on
 * fixed counter 1 with AnyThread; INST_RETIRED.PREC_DIST "Counter": "1". */
static const struct gp_event skl_ev[] = {
	{ "CPU_CLK_UNHALTED.THREAD_ANY", 0x3c, 0x00, 0, false, false, true, 0, 1 },
	{ "UOPS_ISSUED.ANY", 0x0e, 0x01, 0, false, false, false, 0, GP_NO_FIXED },
	{ "UOPS_RETIRED.RETIRE_SLOTS", 0xc2, 0x02, 0, false, false, false, 0, GP_NO_FIXED },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", 0x9c, 0x01, 0, false, false, false, 0, GP_NO_FIXED },
	{ "INST_RETIRED.PREC_DIST", 0xc0, 0x01, 0, false, false, false, 0x2, GP_NO_FIXED },
};

/* A run journal for @dev, its write gate (journal_set_dev). */
static struct journal *journal_for(struct msr_dev *dev)
{
	char spec[PATH_MAX + 8];
	struct journal *j = NULL;

	spec_of(spec, sizeof(spec));
	if (journal_begin(&j, "t0820", spec, JOURNAL_RUN, false)) {
		printf("Bail out! journal_begin\n");
		exit(1);
	}
	journal_set_dev(j, dev);
	return j;
}

/*
 * Every "wr CPU MSR" line of the trace has an "sv CPU MSR" line before it
 * (the journal saved it on disk first), except the write-1-to-clear
 * status register @clear; returns the first write that has none, or "".
 */
static const char *unsaved_write(uint32_t clear)
{
	static char bad[128];
	char saved[64][24];
	int nsaved = 0;
	const char *t = get_file(trace);

	bad[0] = '\0';
	while (*t) {
		unsigned cpu;
		unsigned long msr;
		char op[3];
		const char *nl = strchr(t, '\n');

		if (sscanf(t, "%2s %u 0x%lx", op, &cpu, &msr) == 3) {
			char key[24];
			bool found = false;

			snprintf(key, sizeof(key), "%u %lx", cpu, msr);
			if (!strcmp(op, "sv") && nsaved < 64)
				snprintf(saved[nsaved++], sizeof(saved[0]), "%s", key);
			for (int i = 0; !strcmp(op, "wr") && i < nsaved; i++)
				found |= !strcmp(saved[i], key);
			if (!strcmp(op, "wr") && !found && msr != clear && !bad[0])
				snprintf(bad, sizeof(bad), "%.*s", (int)(nl ? nl - t : 60), t);
		}
		t = nl ? nl + 1 : t + strlen(t);
	}
	return bad;
}

static void test_intel_program(void)
{
	struct gp_config cfg = { .nmi_watchdog = 0 };
	struct msr_dev *dev = gated(skl_text);
	struct gp_plan p;
	char why[512];

	check_int(gp_assign(&skl, skl_ev, 5, 0, 0, false, &p, why, sizeof(why)), ==, 0,
		  "SKL: five events assigned");
	/* THREAD_ANY takes fixed counter 1; PREC_DIST (one choice) counter 1
	 * first, then in order the lowest free: ISSUED 0, RETIRE_SLOTS 2, IDQ 3 */
	ok(p.at[0].fixed && p.at[0].idx == 1, "THREAD_ANY on fixed counter 1");
	ok(!p.at[1].fixed && p.at[1].idx == 0 && p.at[2].idx == 2 && p.at[3].idx == 3 &&
	   p.at[4].idx == 1, "PREC_DIST on counter 1 (its only one); the others 0, 2, 3");
	check_u64(gp_plan_bits(&p), ==, 0x20000000full, "plan bits: GP 0-3, fixed 1 (bit 33)");
	check_int(gp_rdpmc_ecx(&p, 0), ==, 0x40000001, "RDPMC ECX of fixed counter 1: 1<<30 | 1");
	check_int(gp_rdpmc_ecx(&p, 2), ==, 2, "RDPMC ECX of GP counter 2: 2");

	cfg.journal = journal_for(dev);
	check_int(gp_program(dev, 0, &skl, &p, &cfg, why, sizeof(why)), ==, 0, "SKL: programmed");
	/* selects: USR 0x10000 | OS 0x20000 | EN 0x400000 = 0x430000 over
	 * event | umask << 8; FC1 field = EN_OS | EN_USR | ANY = 0x7 -> 0x303
	 * becomes 0x373; status reset and enable = 0xf | 1 << 33 */
	check_str(trace_lines("wr"),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x30a 0x0\n"
		  "wr 0 0x4c1 0x0\n"
		  "wr 0 0x4c3 0x0\n"
		  "wr 0 0x4c4 0x0\n"
		  "wr 0 0x4c2 0x0\n"
		  "wr 0 0x186 0x43010e\n"
		  "wr 0 0x188 0x4302c2\n"
		  "wr 0 0x189 0x43019c\n"
		  "wr 0 0x187 0x4301c0\n"
		  "wr 0 0x38d 0x373\n"
		  "wr 0 0x390 0x20000000f\n"
		  "wr 0 0x38f 0x70000000f\n",
		  "SKL: freeze, counters 0 (full width), selects, FC1's field, clear, enable");
	check_str(trace_lines("sv"),
		  "sv 0 0x38f 0x700000000\n"
		  "sv 0 0x38d 0x303\n"
		  "sv 0 0x30a 0x5678\n"
		  "sv 0 0x4c1 0x111\n"
		  "sv 0 0x4c3 0x333\n"
		  "sv 0 0x4c4 0x444\n"
		  "sv 0 0x4c2 0x222\n"
		  "sv 0 0x186 0x0\n"
		  "sv 0 0x188 0x0\n"
		  "sv 0 0x189 0x0\n"
		  "sv 0 0x187 0x0\n",
		  "SKL: saved in order: global, fixed control, counters, then selects");
	check_str(unsaved_write(0x390), "", "SKL: every written register was saved first (the gate)");
	check_int(msr_gate_refused(dev), ==, 0, "SKL: the gate refused nothing");
	check_int(gp_verify(dev, 0, &skl, &p, NULL, why, sizeof(why)), ==, 0,
		  "SKL: gp_verify: as programmed");
	/* restore: freeze, saved order, status bits of the saved counters
	 * (A_PMC0-3: bits 0-3, FIXED_CTR1: bit 33), global control last */
	put_file(trace, "");
	check_int(journal_restore(cfg.journal, dev), ==, 0, "SKL: journal_restore");
	check_str(trace_lines("wr"),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x303\n"
		  "wr 0 0x30a 0x5678\n"
		  "wr 0 0x4c1 0x111\n"
		  "wr 0 0x4c3 0x333\n"
		  "wr 0 0x4c4 0x444\n"
		  "wr 0 0x4c2 0x222\n"
		  "wr 0 0x186 0x0\n"
		  "wr 0 0x188 0x0\n"
		  "wr 0 0x189 0x0\n"
		  "wr 0 0x187 0x0\n"
		  "wr 0 0x390 0x20000000f\n"
		  "wr 0 0x38f 0x700000000\n",
		  "SKL restore: global 0, counters before selects, overflow clear, global last");
	check_str(get_file(state), skl_text, "SKL: every byte of the state file back");
	check_int(journal_end(cfg.journal), ==, 0, "SKL: journal removed");
	msr_close(dev);
}

static void test_amd_program(void)
{
	struct gp_config cfg = { .nmi_watchdog = -1 };
	struct msr_dev *dev = gated(zen4_text);
	struct gp_plan p;
	char why[512];

	check_int(gp_assign(&zen4, zen4_ev, 6, 0, 0, false, &p, why, sizeof(why)), ==, 0,
		  "Zen 4: six events on six counters");
	cfg.journal = journal_for(dev);
	check_int(gp_program(dev, 0, &zen4, &p, &cfg, why, sizeof(why)), ==, 0, "Zen 4: programmed");
	/* 0x430000 | event[7:0] | umask << 8 | event[11:8] << 32:
	 * 0x1a0/0x01 -> 0x1_0043_01a0, 0x1a0/0x1e -> 0x1_0043_1ea0, 0x1a0/0x60 -> 0x1_0043_60a0 */
	check_str(trace_lines("wr"),
		  "wr 0 0xc0000301 0x0\n"
		  "wr 0 0xc0010201 0x0\n"
		  "wr 0 0xc0010203 0x0\n"
		  "wr 0 0xc0010205 0x0\n"
		  "wr 0 0xc0010207 0x0\n"
		  "wr 0 0xc0010209 0x0\n"
		  "wr 0 0xc001020b 0x0\n"
		  "wr 0 0xc0010200 0x430076\n"
		  "wr 0 0xc0010202 0x4300c1\n"
		  "wr 0 0xc0010204 0x4307aa\n"
		  "wr 0 0xc0010206 0x1004301a0\n"
		  "wr 0 0xc0010208 0x100431ea0\n"
		  "wr 0 0xc001020a 0x1004360a0\n"
		  "wr 0 0xc0000302 0x3f\n"
		  "wr 0 0xc0000301 0x3f\n",
		  "Zen 4: GLOBAL_CTL 0, PERF_CTRs 0, PERF_CTLs, STATUS_CLR, GLOBAL_CTL last");
	check_str(unsaved_write(0xc0000302), "", "Zen 4: every written register was saved first");
	check_int(gp_rdpmc_ecx(&p, 5), ==, 5, "Zen 4: RDPMC ECX of counter 5: 5");
	put_file(trace, "");
	check_int(journal_restore(cfg.journal, dev), ==, 0, "Zen 4: journal_restore");
	check_str(trace_lines("wr"),
		  "wr 0 0xc0000301 0x0\n"
		  "wr 0 0xc0010201 0x10\n"
		  "wr 0 0xc0010203 0x11\n"
		  "wr 0 0xc0010205 0x12\n"
		  "wr 0 0xc0010207 0x13\n"
		  "wr 0 0xc0010209 0x14\n"
		  "wr 0 0xc001020b 0x15\n"
		  "wr 0 0xc0010200 0x0\n"
		  "wr 0 0xc0010202 0x0\n"
		  "wr 0 0xc0010204 0x0\n"
		  "wr 0 0xc0010206 0x0\n"
		  "wr 0 0xc0010208 0x0\n"
		  "wr 0 0xc001020a 0x0\n"
		  "wr 0 0xc0000302 0x3f\n"
		  "wr 0 0xc0000301 0x3f\n",
		  "Zen 4 restore: GLOBAL_CTL 0, counters, selects, STATUS_CLR, GLOBAL_CTL last");
	check_str(get_file(state), zen4_text, "Zen 4: every byte of the state file back");
	journal_end(cfg.journal);
	msr_close(dev);

	/* user_only: USR (0x10000) without OS: 0x410000 | 0x76 */
	dev = gated(zen4_text);
	check_int(gp_assign(&zen4, zen4_ev, 1, 0, 0, true, &p, why, sizeof(why)), ==, 0,
		  "Zen 4 user_only: one event");
	cfg.journal = journal_for(dev);
	check_int(gp_program(dev, 0, &zen4, &p, &cfg, why, sizeof(why)), ==, 0,
		  "Zen 4 user_only: programmed");
	ok(strstr(trace_lines("wr"), "wr 0 0xc0010200 0x410076\n") != NULL,
	   "user_only: PERF_CTL0 = USR | EN | 0x76, no OS");
	check_int(journal_restore(cfg.journal, dev), ==, 0, "restore");
	check_str(get_file(state), zen4_text, "user_only: bytes back");
	journal_end(cfg.journal);
	msr_close(dev);
}

/* A counter in use is refused, named, and nothing is saved or written. */
static void test_in_use(void)
{
	struct gp_config cfg = { .nmi_watchdog = 1 };
	char *text = strdup(t_edit(zen4_text, "0 0xc0010202 0x0", "0 0xc0010202 0x530076"));
	struct msr_dev *dev = gated(text);
	uint32_t gp = 0, fixed = 0;
	struct gp_plan p;
	char why[512];

	check_int(gp_assign(&zen4, zen4_ev, 6, 0, 0, false, &p, why, sizeof(why)), ==, 0, "assign");
	cfg.journal = journal_for(dev);
	/* 0x530076 = EN 0x400000 | INT 0x100000 | OS | USR | 0x76: the NMI
	 * watchdog's cycles event as the kernel programs it on AMD */
	check_int(gp_program(dev, 0, &zen4, &p, &cfg, why, sizeof(why)), ==, -EBUSY,
		  "Zen 4, PERF_CTL1 enabled: -EBUSY");
	ok(strstr(why, "PERF_CTL1=0x530076 (event 0x076, umask 0x00; EN, INT) is in use") != NULL,
	   "why names PERF_CTL1, its event and bits");
	ok(strstr(why, "PMIs are armed") && strstr(why, "NMI watchdog is on"), "and the likely owner");
	check_str(trace_lines("wr"), "", "nothing written");
	check_str(trace_lines("sv"), "", "nothing saved");
	check_str(get_file(state), text, "state file unchanged");
	/* gp_busy finds it; an assignment around it takes the others */
	check_int(gp_busy(dev, 0, &zen4, 0, &gp, &fixed, NULL, 0), ==, 0, "gp_busy");
	check_u64(gp, ==, 0x2, "gp_busy: counter 1");
	check_int(gp_assign(&zen4, zen4_ev, 5, gp, fixed, false, &p, why, sizeof(why)), ==, 0,
		  "five events around counter 1");
	ok(p.at[0].idx == 0 && p.at[1].idx == 2 && p.at[4].idx == 5, "counters 0, 2, 3, 4, 5");
	check_int(gp_assign(&zen4, zen4_ev, 6, gp, fixed, false, &p, why, sizeof(why)), ==, -ENOSPC,
		  "six events, five free counters: -ENOSPC");
	ok(strstr(why, "de_no_dispatch_per_slot.smt_contention: no free counter") != NULL,
	   "-ENOSPC names the event left over");
	journal_end(cfg.journal);
	msr_close(dev);
	free(text);

	/* Intel: a select left with its event code (EN clear), and FC1's field */
	text = strdup(t_edit(t_edit(skl_text, "0 0x188 0x0", "0 0x188 0x3c"), "0 0x38d 0x303",
			     "0 0x38d 0x333"));
	dev = gated(text);
	check_int(gp_assign(&skl, skl_ev, 5, 0, 0, false, &p, why, sizeof(why)), ==, 0, "assign");
	cfg.journal = journal_for(dev);
	cfg.nmi_watchdog = 0;
	check_int(gp_program(dev, 0, &skl, &p, &cfg, why, sizeof(why)), ==, -EBUSY,
		  "SKL, PERFEVTSEL2 and FC1 in use: -EBUSY");
	ok(strstr(why, "IA32_PERFEVTSEL2=0x3c (event 0x3c, umask 0x00; not enabled) is in use"),
	   "why names IA32_PERFEVTSEL2 with its event code");
	ok(strstr(why, "IA32_FIXED_CTR_CTRL[7:4]=0x3 (fixed counter 1 enabled) is in use"),
	   "why names fixed counter 1's field");
	ok(strstr(why, "left by an earlier user") != NULL, "the stale select is said as such");
	check_str(trace_lines("wr"), "", "SKL: nothing written");
	check_str(get_file(state), text, "SKL: state file unchanged");
	/* --force takes them over */
	cfg.force = true;
	check_int(gp_program(dev, 0, &skl, &p, &cfg, why, sizeof(why)), ==, 0, "force: programmed");
	ok(strstr(trace_lines("wr"), "wr 0 0x188 0x4302c2\n") != NULL, "force: PERFEVTSEL2 taken");
	check_int(journal_restore(cfg.journal, dev), ==, 0, "restore");
	check_str(get_file(state), text, "force: bytes back, the other user's select included");
	journal_end(cfg.journal);
	msr_close(dev);
	free(text);
}

/* No journal: refused before any access; a GP write without a save is
 * refused by the gate (msr/access/msr.h), nothing reaches the state file. */
static void test_gate(void)
{
	struct gp_config cfg = { .journal = NULL };
	struct msr_dev *dev = gated(skl_text);
	struct gp_plan p;
	char why[256];

	gp_assign(&skl, skl_ev, 5, 0, 0, false, &p, why, sizeof(why));
	check_int(gp_program(dev, 0, &skl, &p, &cfg, why, sizeof(why)), ==, -EINVAL,
		  "no journal: -EINVAL");
	check_str(trace_lines(""), "", "no journal: no access at all");
	check_int(msr_write(dev, 0, 0x186, 0x43010e), ==, -ENOLCK,
		  "a select write without the journal: refused by the gate");
	check_str(get_file(state), skl_text, "gate: state file unchanged");
	msr_close(dev);
}

/* Intel without full-width writes: IA32_PMCx takes bits 31:0
 * sign-extended (linux arch/x86/kvm/vmx/pmu_intel.c intel_pmu_set_msr); a
 * 48-bit value whose bits 47:32 are not bit 31's extension cannot come
 * back: refused, nothing written. */
static void test_legacy_width(void)
{
	struct gp_pmu hsw = skl;
	struct gp_config cfg = { 0 };
	char *text = strdup(t_edit(skl_text, "0 0xc1 0x11", "0 0xc1 0x123456789"));
	struct msr_dev *dev = gated(text);
	struct gp_plan p;
	char why[256];

	hsw.full_width_write = false;
	gp_assign(&hsw, &skl_ev[1], 1, 0, 0, false, &p, why, sizeof(why));
	cfg.journal = journal_for(dev);
	check_int(gp_program(dev, 0, &hsw, &p, &cfg, why, sizeof(why)), ==, -EOPNOTSUPP,
		  "no full-width writes, IA32_PMC0 = 0x123456789: -EOPNOTSUPP");
	ok(strstr(why, "IA32_PMC0 (0xc1) holds 0x123456789") != NULL, "why names the counter");
	check_str(trace_lines("wr"), "", "nothing written");
	journal_end(cfg.journal);
	msr_close(dev);
	free(text);
	/* 0xffff80000000: bits 47:32 all ones, bit 31 set: the sign extension
	 * of 0x80000000 at 48 bits; written back through IA32_PMC0 itself */
	text = strdup(t_edit(skl_text, "0 0xc1 0x11", "0 0xc1 0xffff80000000"));
	dev = gated(text);
	cfg.journal = journal_for(dev);
	check_int(gp_program(dev, 0, &hsw, &p, &cfg, why, sizeof(why)), ==, 0,
		  "0xffff80000000 comes back through IA32_PMC0: programmed");
	ok(strstr(trace_lines("wr"), "wr 0 0xc1 0x0\n") != NULL, "counter zeroed through 0xc1");
	check_int(journal_restore(cfg.journal, dev), ==, 0, "restore");
	check_str(get_file(state), text, "bytes back");
	journal_end(cfg.journal);
	msr_close(dev);
	free(text);
}

/* Killed (SIGKILL: no handler runs) after programming: the journal file
 * stays; loaded and restored from it (journal_restore_data, what `baretma
 * pmu restore` does), every byte comes back. */
static void test_sigkill(void)
{
	struct msr_dev *dev = gated(zen4_text);
	struct journal_data d;
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct gp_config cfg = { .nmi_watchdog = -1 };
		struct gp_plan p;

		cfg.journal = journal_for(dev);
		if (gp_assign(&zen4, zen4_ev, 6, 0, 0, false, &p, NULL, 0) ||
		    gp_program(dev, 0, &zen4, &p, &cfg, NULL, 0))
			_exit(98);
		raise(SIGKILL);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child killed by SIGKILL");
	ok(strstr(get_file(state), "0 0xc0010200 0x430076\n") != NULL,
	   "the counters are left programmed");
	check_int(journal_load(journal_file(pid), &d), ==, 0, "the journal loads");
	check_int(journal_restore_data(&d, dev), ==, 0, "restored from the file");
	journal_data_free(&d);
	check_str(get_file(state), zen4_text, "after SIGKILL: every byte back from the journal");
	check_int(journal_remove(pid), ==, 0, "journal removed");
	msr_close(dev);
}

int main(void)
{
	t_signals_default();
	t_pmu_fixture("0820");
	test_intel_program();
	test_amd_program();
	test_in_use();
	test_gate();
	test_legacy_width();
	test_sigkill();
	t_pmu_fixture_end();
	return done_testing();
}
