/*
 * t/0311-pmu-journal.c - programming FC3 + PERF_METRICS (msr/pmu/pmu.h) with
 * the run journal (msr/journal/journal.h) on the Ice Lake state file of
 * t/pmu-fixture.h: the saved values in the journal before the first
 * write, its signal guard putting the registers back when the process is
 * killed, and the write gate (no register written unless the journal
 * saved it first).  Split from t/0310.
 *
 * Every expected sequence below is worked out by hand from msr/pmu/pmu.h,
 * msr/journal/journal.h, the kernel's order (linux arch/x86/events/intel/core.c
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

/*
 * Child: journal, guard (msr/journal/journal.h), program, die of @sig.  Parent:
 * killed by @sig, file restored by the handler, journal gone.  With
 * @detach the journal is left on purpose ("pmu enable"): the registers
 * stay programmed and the journal file restores them later.
 */
static void guard_case(int sig, bool detach, const char *name)
{
	int status = 0;
	pid_t pid;
	char spec[PATH_MAX + 8];
	struct msr_dev *dev = setup(icl_text);

	spec_of(spec, sizeof(spec));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct pmu_config cfg = icl_cfg;
		struct journal *j;
		struct pmu_saved s;

		if (journal_begin(&j, "t0310 guard", spec, JOURNAL_RUN, false) ||
		    journal_guard_install(j, dev))
			_exit(97);
		cfg.journal = j;
		if (pmu_program(dev, 0, &cfg, &s, NULL, 0))
			_exit(98);
		if (detach)
			journal_detach(j);
		raise(sig);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == sig, "%s: child killed by the signal", name);
	if (!WIFSIGNALED(status))
		printf("#   child exit status %d\n", WEXITSTATUS(status));
	if (detach) {
		struct journal_data d;

		ok(strstr(get_file(state), "0 0x38f 0x1000f0000000f\n") != NULL,
		   "%s: GLOBAL_CTRL still programmed", name);
		ok(!strcmp(reg_lines(journal_file(pid)),
			   "reg 0 0x38f 0x70000000f\nreg 0 0x38d 0x333\nreg 0 0x30c 0x2f1a3c0\n"
			   "reg 0 0x329 0x1f3a5c47\n"), "%s: the journal stays, with the saved values",
		   name);
		ok(journal_load(journal_file(pid), &d) == 0, "%s: journal loads", name);
		ok(journal_restore_data(&d, dev) == 0, "%s: restored from the file", name);
		journal_data_free(&d);
		ok(!strcmp(get_file(state), icl_text), "%s: original bytes back from the file", name);
		ok(journal_remove(pid) == 0, "%s: journal removed", name);
	} else {
		check_str(get_file(state), icl_text, name);
		ok(strstr(trace_lines("wr"), "wr 0 0x38f 0x70000000f\n") != NULL,
		   "%s: the handler wrote GLOBAL_CTRL back", name);
		ok(access(journal_file(pid), F_OK) != 0, "%s: no journal left", name);
	}
	msr_close(dev);
}

static void test_guard(void)
{
	guard_case(SIGTERM, false, "SIGTERM restores the original bytes");
	guard_case(SIGINT, false, "SIGINT restores the original bytes");
	guard_case(SIGHUP, false, "SIGHUP restores the original bytes");
	guard_case(SIGQUIT, false, "SIGQUIT restores the original bytes");
	guard_case(SIGTERM, true, "SIGTERM after journal_detach");
}

/*
 * pmu_program with a journal: the same accesses in the same order (the
 * trace is the one of test_program_restore), the saved values in the
 * journal, in the order read, before the first write; journal_restore
 * writes what pmu_restore writes.
 */
static void test_journaled(void)
{
	struct pmu_config cfg = icl_cfg;
	struct journal *j;
	struct pmu_saved s;
	char spec[PATH_MAX + 8];
	struct msr_dev *dev = setup(icl_text);

	spec_of(spec, sizeof(spec));
	check_int(journal_begin(&j, "t0310", spec, JOURNAL_RUN, false), ==, 0, "journal_begin");
	cfg.journal = j;
	check_int(pmu_program(dev, 0, &cfg, &s, NULL, 0), ==, 0, "program cpu 0 with a journal");
	check_str(trace_lines(""), ICL_CPU0_READS ICL_CPU0_PROGRAM,
		  "journaled program: the same accesses in the same order");
	/* Saved = the fixture's cpu 0 lines; GLOBAL_STATUS_RESET (write-1-to-clear) is not saved. */
	check_str(reg_lines(journal_path(j)),
		  "reg 0 0x38f 0x70000000f\nreg 0 0x38d 0x333\nreg 0 0x30c 0x2f1a3c0\n"
		  "reg 0 0x329 0x1f3a5c47\n", "journal: the four saved registers, in the order read");
	put_file(trace, "");
	check_int(journal_restore(j, dev), ==, 0, "journal_restore");
	check_str(trace_lines(""), ICL_CPU0_RESTORE(""),
		  "journal_restore writes what pmu_restore writes: freeze, the overflow "
		  "clear, then GLOBAL_CTRL last");
	check_str(get_file(state), icl_text, "journal_restore gives back the original bytes");
	check_int(journal_end(j), ==, 0, "journal_end removes it");
	msr_close(dev);

	/* Without PERF_METRICS: three registers, no 0x329. */
	dev = setup(icl_text);
	cfg = icl_cfg;
	cfg.perf_metrics = false;
	check_int(journal_begin(&j, "t0310", spec, JOURNAL_RUN, false), ==, 0, "journal_begin");
	cfg.journal = j;
	check_int(pmu_program(dev, 1, &cfg, &s, NULL, 0), ==, 0, "program cpu 1, no PERF_METRICS");
	check_str(reg_lines(journal_path(j)),
		  "reg 1 0x38f 0x70000000f\nreg 1 0x38d 0xa00000b3a\nreg 1 0x30c 0x51\n",
		  "journal: no PERF_METRICS saved without the feature");
	check_int(journal_restore(j, dev), ==, 0, "restore");
	check_str(get_file(state), icl_text, "original bytes");
	journal_end(j);
	msr_close(dev);

	/* The journal refuses CPU 9000 (JOURNAL_MAX_CPUS 8192): nothing written. */
	static const char big[] = "9000 0x30c 0x1\n9000 0x329 0x2\n9000 0x38d 0x333\n"
				  "9000 0x38e 0x0\n9000 0x38f 0x70000000f\n9000 0x390 0x0\n";
	dev = setup(big);
	cfg = icl_cfg;
	check_int(journal_begin(&j, "t0310", spec, JOURNAL_RUN, false), ==, 0, "journal_begin");
	cfg.journal = j;
	check_int(pmu_program(dev, 9000, &cfg, &s, NULL, 0), ==, -EINVAL,
		  "journal cannot save cpu 9000: -EINVAL");
	check_str(trace_lines("wr"), "", "not journaled: not a single write");
	ok(!s.programmed, "not journaled: nothing to restore");
	check_str(get_file(state), big, "state file unchanged");
	check_int(journal_end(j), ==, 0, "empty journal removed");
	msr_close(dev);

	/* A write fails midway with a journal (0x390 missing): pmu_program does
	 * not restore (the journal's owner does), the failed access is in
	 * msr_last_fault, and journal_restore then writes each register once. */
	{
		char *no390 = strdup(t_edit(icl_text, "0 0x390 0x0\n", ""));
		struct msr_fault f = { 0 };

		dev = setup(no390);
		cfg = icl_cfg;
		check_int(journal_begin(&j, "t0310", spec, JOURNAL_RUN, false), ==, 0, "journal_begin");
		cfg.journal = j;
		check_int(pmu_program(dev, 0, &cfg, &s, NULL, 0), ==, -EIO,
			  "journaled, 0x390 missing: -EIO midway");
		check_str(trace_lines("wr"), ICL_CPU0_CLEARS "wr 0 0x390 0x1000800000000 EIO\n",
			  "journaled failure: no restore of its own (the journal's owner restores)");
		ok(s.programmed, "journaled failure: saved->programmed stays set");
		ok(msr_last_fault(dev, &f) && f.op == MSR_OP_WRITE && f.cpu == 0 &&
		   f.msr == IA32_PERF_GLOBAL_STATUS_RESET && f.value == 0x1000800000000ull &&
		   f.err == -EIO, "msr_last_fault names the write: cpu 0, 0x390, 1<<35|1<<48, -EIO");
		put_file(trace, "");
		check_int(journal_restore(j, dev), ==, 0, "journal_restore after the failure");
		check_str(trace_lines(""), ICL_CPU0_RESTORE(" EIO"),
			  "the rollback writes each saved register once (GLOBAL_CTRL frozen first); "
			  "the overflow clear, no saved register, is tried once and its EIO ignored");
		check_str(get_file(state), no390, "rollback: original bytes");
		check_int(journal_end(j), ==, 0, "journal_end");
		msr_close(dev);
		free(no390);
	}
}

/*
 * The write gate (msr/access/msr.h): no register is written unless the journal
 * of the handle saved it first.  Expected values from icl_text and the
 * rule of journal_data_permits: a saved (cpu, msr) passes, and
 * IA32_PERF_GLOBAL_STATUS_RESET passes once IA32_FIXED_CTR_CTRL or
 * IA32_PERF_GLOBAL_CTRL of that CPU is saved; nothing else.
 */
static void test_gate(void)
{
	struct msr_dev *dev = gated(icl_text);
	struct journal *j = NULL;
	struct journal_data d;
	struct pmu_saved s;
	struct pmu_config cfg = icl_cfg;
	struct msr_fault f;
	char path[PATH_MAX];

	check_int(msr_write(dev, 0, IA32_FIXED_CTR_CTRL, 0x3333), ==, -ENOLCK,
		  "a handle without a journal: every write refused (-ENOLCK)");
	check_int(pmu_program(dev, 0, &icl_cfg, &s, NULL, 0), ==, -ENOLCK,
		  "pmu_program without a journal: its first write refused");
	check_str(get_file(state), icl_text, "nothing reached the state file");
	/* the write above; pmu_program's first (GLOBAL_CTRL = 0, msr/pmu/pmu.h step
	 * 2); its rollback pmu_restore: GLOBAL_CTRL 0, the three saved values,
	 * STATUS_RESET bits 35 | 48 = 0x1000800000000, GLOBAL_CTRL saved */
	check_str(trace_lines("wr"), "wr 0 0x38d 0x3333 ENOLCK\nwr 0 0x38f 0x0 ENOLCK\n"
		  "wr 0 0x38f 0x0 ENOLCK\nwr 0 0x38d 0x333 ENOLCK\nwr 0 0x30c 0x2f1a3c0 ENOLCK\n"
		  "wr 0 0x329 0x1f3a5c47 ENOLCK\nwr 0 0x390 0x1000800000000 ENOLCK\n"
		  "wr 0 0x38f 0x70000000f ENOLCK\n",
		  "the write, pmu_program's first and its rollback, each refused, traced ENOLCK");
	ok(msr_last_fault(dev, &f) && f.err == -ENOLCK && f.op == MSR_OP_WRITE,
	   "msr_last_fault names the refused write");
	check_u64(msr_gate_refused(dev), ==, 8, "8 refusals counted");

	put_file(trace, "");
	check_int(journal_begin(&j, "t/0310 gate", "state:x", JOURNAL_RUN, false), ==, 0,
		  "a run journal");
	journal_set_dev(j, dev);
	check_int(msr_write(dev, 0, IA32_PERF_GLOBAL_STATUS_RESET, 1ull << 35), ==, -ENOLCK,
		  "STATUS_RESET before the CPU's controls are saved: refused");
	cfg.journal = j;
	check_int(pmu_program(dev, 0, &cfg, &s, NULL, 0), ==, 0, "pmu_program with the journal");
	check_str(trace_lines(""), "wr 0 0x390 0x800000000 ENOLCK\n"
		  "rd 0 0x38f 0x70000000f\nrd 0 0x38d 0x333\nrd 0 0x30c 0x2f1a3c0\n"
		  "rd 0 0x329 0x1f3a5c47\n"
		  "sv 0 0x38f 0x70000000f\nsv 0 0x38d 0x333\nsv 0 0x30c 0x2f1a3c0\n"
		  "sv 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x38f 0x0\nwr 0 0x38d 0x3333\nwr 0 0x30c 0x0\nwr 0 0x329 0x0\n"
		  "wr 0 0x390 0x1000800000000\nwr 0 0x38f 0x1000f0000000f\n",
		  "read, saved (sv), then written: each register after its save");
	check_int(msr_write(dev, 1, IA32_FIXED_CTR_CTRL, 0x3333), ==, -ENOLCK,
		  "cpu 1's registers are not saved: refused");
	check_int(msr_write(dev, 1, IA32_PERF_GLOBAL_STATUS_RESET, 1ull << 35), ==, -ENOLCK,
		  "nor cpu 1's STATUS_RESET");
	check_int(msr_write(dev, 0, 0x186, 0x1), ==, -ENOLCK,
		  "IA32_PERFEVTSEL0 of cpu 0 is not saved: refused");
	check_int(journal_restore(j, dev), ==, 0, "the journal restores through its gate");
	check_str(get_file(state), icl_text, "state file byte for byte as found");
	t_path(path, "%s", journal_path(j));
	check_int(journal_end(j), ==, 0, "journal_end");
	check_int(msr_write(dev, 0, IA32_FIXED_CTR_CTRL, 0x3333), ==, -ENOLCK,
		  "after journal_end the gate is shut again");

	/* pmu restore: a loaded journal opens the gate for its own registers */
	put_file(path, "# baretma journal v2\npid 4242\nstarttime 0\ntime 1\ncmd x\n"
		 "backend state:x\nkind run\nuser_only 0\nreg 1 0x38d 0xa00000b3a\n");
	chmod(path, 0600);
	check_int(journal_load(path, &d), ==, 0, "a journal of cpu 1's IA32_FIXED_CTR_CTRL");
	check_int(msr_write(dev, 1, IA32_FIXED_CTR_CTRL, 0x3), ==, -ENOLCK, "before: refused");
	put_file(trace, "");
	check_int(journal_restore_data(&d, dev), ==, 0, "journal_restore_data writes it");
	check_str(trace_lines("wr"), "wr 1 0x38d 0xa00000b3a\n", "exactly its register");
	check_int(msr_write(dev, 1, IA32_FIXED_CTR_CTRL, 0x3), ==, -ENOLCK,
		  "after: the gate is as before (shut)");
	journal_data_free(&d);
	remove(path);
	msr_close(dev);

	ok(msr_ungate(NULL) == -EPERM, "msr_ungate(NULL): -EPERM");
	check_int(msr_open("/dev/cpu/%u/msr", &dev), ==, 0, "the device backend");
	check_int(msr_ungate(dev), ==, -EPERM, "the device backend cannot be ungated");
	msr_close(dev);
}

int main(void)
{
	t_signals_default(); /* the guard cases raise SIGINT, SIGHUP, SIGQUIT */
	t_pmu_fixture("0311");
	test_guard();
	test_journaled();
	test_gate();
	t_pmu_fixture_end();
	return done_testing();
}
