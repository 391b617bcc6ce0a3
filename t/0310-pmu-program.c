/*
 * t/0310-pmu-program.c - programming FC3 + PERF_METRICS (msr/pmu.h) against
 * a state file modelling an Ice Lake client CPU, read back through the
 * $BARETMA_MSR_TRACE lines and the state file's text; the same with the
 * run journal (msr/journal.h) and its signal guard; the tamper check
 * (pmu_verify) and the ownership check (pmu_check_owner).
 *
 * Every expected sequence below is worked out by hand from msr/pmu.h and
 * pmu-reference §1.2-§1.4 and §5.4; the arithmetic is written next to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/intel_regs.h"
#include "msr/journal.h"
#include "msr/pmu.h"
#include "t/fixture.h"

static char dir[PATH_MAX];
static char state[PATH_MAX], trace[PATH_MAX];

/*
 * Ice Lake client (i7-1065G7 class), two logical CPUs.  Starting values are
 * firmware/OS leftovers that must survive:
 *   IA32_PERF_GLOBAL_CTRL  0x70000000f: GP0-3 (bits 0-3) and FC0-2 (bits
 *                          32-34) enabled, as the CPU/firmware leave them
 *                          (pmu-reference §1.1 reset note, §5.3 PCM cleanup);
 *   IA32_FIXED_CTR_CTRL    0x333: FC0-2 fields = EN_OS|EN_USR, FC3 field 0;
 *                          cpu 1: 0xa00000b3a (FC2 field 0xb with PMI, FC0
 *                          field 0xa, bits 33 and 35 set) to check that
 *                          every bit outside 15:12 is kept;
 *   IA32_FIXED_CTR3 / IA32_PERF_METRICS: stale counts;
 *   IA32_PERF_CAPABILITIES 0xf4c5: constructed from §1.6 (PERF_METRICS bit
 *                          15, full-width writes bit 13, PEBS format 4),
 *                          not read from a machine; never written.
 */
static const char icl_text[] =
	"# Ice Lake client, baretma test fixture\n"
	"0 0x30c 0x2f1a3c0\n"
	"0 0x329 0x1f3a5c47\n"
	"0 0x345 0xf4c5\n"
	"0 0x38d 0x333\n"
	"0 0x38e 0x0\n"
	"0 0x38f 0x70000000f\n"
	"0 0x390 0x0\n"
	"1 0x30c 0x51\n"
	"1 0x329 0x80808080\n"
	"1 0x345 0xf4c5\n"
	"1 0x38d 0xa00000b3a\n"
	"1 0x38e 0x0\n"
	"1 0x38f 0x70000000f\n"
	"1 0x390 0x0\n";

static const struct pmu_config icl_cfg = { .perf_metrics = true, .fixed_ctr3 = true };



/* Lines of the trace starting with @prefix ("wr", "rd" or ""). */
static const char *trace_lines(const char *prefix)
{
	static char out[8192];
	const char *t = get_file(trace);
	size_t o = 0, n = strlen(prefix);

	out[0] = '\0';
	while (*t) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) + 1 : strlen(t);

		if (strncmp(t, prefix, n) == 0 && o + len < sizeof(out)) {
			memcpy(out + o, t, len);
			o += len;
		}
		t += len;
	}
	out[o] = '\0';
	return out;
}

/* Fresh state file with @text and an empty trace; opens a handle with
 * the write gate every msr_open() handle has (msr/msr.h). */
static struct msr_dev *gated(const char *text)
{
	char spec[PATH_MAX + 8];
	struct msr_dev *dev = NULL;

	put_file(state, text);
	put_file(trace, "");
	t_path(spec, "state:%s", state);
	if (msr_open(spec, &dev)) {
		printf("# msr_open: %s\n", msr_last_error());
		exit(1);
	}
	return dev;
}

/* gated(), ungated: msr/pmu.c's own sequences, no journal's gate in front
 * of them unless a test sets one (journal_set_dev). */
static struct msr_dev *setup(const char *text)
{
	struct msr_dev *dev = gated(text);

	msr_ungate(dev);
	return dev;
}

static void test_program_restore(void)
{
	struct pmu_saved s;
	char why[256];
	struct msr_dev *dev = setup(icl_text);

	check_int(pmu_program(dev, 0, &icl_cfg, &s, why, sizeof(why)), ==, 0,
		  "program cpu 0 (Ice Lake, PERF_METRICS)");
	/*
	 * Step 1 reads GLOBAL_CTRL, FIXED_CTR_CTRL, FIXED_CTR3, PERF_METRICS.
	 * 2. GLOBAL_CTRL = 0
	 * 3. FIXED_CTR_CTRL = (0x333 & ~0xf000) | (EN_OS|EN_USR = 0x3) << 12 = 0x3333
	 * 4. FIXED_CTR3 = 0, then PERF_METRICS = 0
	 * 5. GLOBAL_STATUS_RESET = 1<<35 | 1<<48 = 0x800000000 + 0x1000000000000
	 *    = 0x1000800000000
	 * 6. GLOBAL_CTRL = 0x70000000f | 0x800000000 | 0x1000000000000 = 0x1000f0000000f
	 */
	check_str(trace_lines(""),
		  "rd 0 0x38f 0x70000000f\n"
		  "rd 0 0x38d 0x333\n"
		  "rd 0 0x30c 0x2f1a3c0\n"
		  "rd 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x3333\n"
		  "wr 0 0x30c 0x0\n"
		  "wr 0 0x329 0x0\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x1000f0000000f\n",
		  "program: reads, then writes in pmu.h order with hand-worked values");
	check_u64(s.global_ctrl, ==, 0x70000000full, "saved GLOBAL_CTRL");
	check_u64(s.fixed_ctr_ctrl, ==, 0x333, "saved FIXED_CTR_CTRL");
	check_u64(s.fixed_ctr3, ==, 0x2f1a3c0, "saved FIXED_CTR3");
	check_u64(s.perf_metrics_val, ==, 0x1f3a5c47, "saved PERF_METRICS");
	ok(s.programmed && s.perf_metrics && s.cpu == 0, "saved: programmed, perf_metrics, cpu 0");
	/* GLOBAL_STATUS_RESET clears bits 35/48 of GLOBAL_STATUS (0 already):
	 * neither line changes.  Cpu 1 untouched. */
	check_str(get_file(state),
		  "# Ice Lake client, baretma test fixture\n"
		  "0 0x30c 0x0\n"
		  "0 0x329 0x0\n"
		  "0 0x345 0xf4c5\n"
		  "0 0x38d 0x3333\n"
		  "0 0x38e 0x0\n"
		  "0 0x38f 0x1000f0000000f\n"
		  "0 0x390 0x0\n"
		  "1 0x30c 0x51\n"
		  "1 0x329 0x80808080\n"
		  "1 0x345 0xf4c5\n"
		  "1 0x38d 0xa00000b3a\n"
		  "1 0x38e 0x0\n"
		  "1 0x38f 0x70000000f\n"
		  "1 0x390 0x0\n",
		  "programmed register values in the state file");

	put_file(trace, "");
	check_int(pmu_restore(dev, &s), ==, 0, "restore cpu 0");
	/* Freeze, FIXED_CTR_CTRL, FC3, PERF_METRICS, clear the overflow bits
	 * the run may have caused (35 | 48 = 0x1000800000000, pmu-reference
	 * §5.4 "Restore"), then GLOBAL_CTRL last. */
	check_str(trace_lines(""),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x333\n"
		  "wr 0 0x30c 0x2f1a3c0\n"
		  "wr 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x70000000f\n",
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
	check_str(trace_lines("wr"),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x3333\n"
		  "wr 0 0x30c 0x0\n"
		  "wr 0 0x329 0x0\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x1000f0000000f\n",
		  "free: the whole program sequence");
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
	 * (pmu-reference §1.3, §5.2). */
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
	 * pmu-reference §1.3): 0x100070000000f & ~bit 48 | bit 35 = 0xf0000000f.
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
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x3333\n"
		  "wr 0 0x30c 0x0\n"
		  "wr 0 0x329 0x0\n"
		  "wr 0 0x390 0x1000800000000 EIO\n"
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x333\n"
		  "wr 0 0x30c 0x2f1a3c0\n"
		  "wr 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x390 0x1000800000000 EIO\n"
		  "wr 0 0x38f 0x70000000f\n",
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

/* The journal file of this process (msr/journal.h: run-<PID>.journal). */
static const char *journal_file(pid_t pid)
{
	static char p[PATH_MAX];

	t_path(p, "%s/run/run-%ld.journal", dir, (long)pid);
	return p;
}

/* The "reg" lines of a journal file. */
static const char *reg_lines(const char *path)
{
	static char out[4096];
	const char *t = get_file(path);
	size_t o = 0;

	out[0] = '\0';
	while (*t) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) + 1 : strlen(t);

		if (strncmp(t, "reg ", 4) == 0 && o + len < sizeof(out)) {
			memcpy(out + o, t, len);
			o += len;
		}
		t += len;
	}
	out[o] = '\0';
	return out;
}

static void spec_of(char *spec, size_t n)
{
	t_path_(spec, n, "state:%s", state);
}

/*
 * Child: journal, guard (msr/journal.h), program, die of @sig.  Parent:
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
	check_str(trace_lines(""),
		  "rd 0 0x38f 0x70000000f\n"
		  "rd 0 0x38d 0x333\n"
		  "rd 0 0x30c 0x2f1a3c0\n"
		  "rd 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x3333\n"
		  "wr 0 0x30c 0x0\n"
		  "wr 0 0x329 0x0\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x1000f0000000f\n",
		  "journaled program: the same accesses in the same order");
	/* Saved = the fixture's cpu 0 lines; GLOBAL_STATUS_RESET (write-1-to-clear) is not saved. */
	check_str(reg_lines(journal_path(j)),
		  "reg 0 0x38f 0x70000000f\nreg 0 0x38d 0x333\nreg 0 0x30c 0x2f1a3c0\n"
		  "reg 0 0x329 0x1f3a5c47\n", "journal: the four saved registers, in the order read");
	put_file(trace, "");
	check_int(journal_restore(j, dev), ==, 0, "journal_restore");
	check_str(trace_lines(""),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x333\n"
		  "wr 0 0x30c 0x2f1a3c0\n"
		  "wr 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x70000000f\n",
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
		check_str(trace_lines("wr"),
			  "wr 0 0x38f 0x0\n"
			  "wr 0 0x38d 0x3333\n"
			  "wr 0 0x30c 0x0\n"
			  "wr 0 0x329 0x0\n"
			  "wr 0 0x390 0x1000800000000 EIO\n",
			  "journaled failure: no restore of its own (the journal's owner restores)");
		ok(s.programmed, "journaled failure: saved->programmed stays set");
		ok(msr_last_fault(dev, &f) && f.op == MSR_OP_WRITE && f.cpu == 0 &&
		   f.msr == IA32_PERF_GLOBAL_STATUS_RESET && f.value == 0x1000800000000ull &&
		   f.err == -EIO, "msr_last_fault names the write: cpu 0, 0x390, 1<<35|1<<48, -EIO");
		put_file(trace, "");
		check_int(journal_restore(j, dev), ==, 0, "journal_restore after the failure");
		check_str(trace_lines(""),
			  "wr 0 0x38f 0x0\n"
			  "wr 0 0x38d 0x333\n"
			  "wr 0 0x30c 0x2f1a3c0\n"
			  "wr 0 0x329 0x1f3a5c47\n"
			  "wr 0 0x390 0x1000800000000 EIO\n"
			  "wr 0 0x38f 0x70000000f\n",
			  "the rollback writes each saved register once (GLOBAL_CTRL frozen first); "
			  "the overflow clear, no saved register, is tried once and its EIO ignored");
		check_str(get_file(state), no390, "rollback: original bytes");
		check_int(journal_end(j), ==, 0, "journal_end");
		msr_close(dev);
		free(no390);
	}
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
	struct pmu_owner_report r;

	check_int(owner_case(own_text, &q, &r), ==, 0, "free: 0");
	ok(!r.busy && r.inuse_read && r.fixed_used == 0x7, "free: not busy, INUSE read, FC0-2 used");
	check_str(r.others, "fixed counter 0 (IA32_FIXED_CTR_CTRL[3:0]=0x3: OS, USR); "
		  "fixed counter 1 (IA32_FIXED_CTR_CTRL[7:4]=0x3: OS, USR); "
		  "fixed counter 2 (IA32_FIXED_CTR_CTRL[11:8]=0x3: OS, USR)",
		  "free: FC0-2 listed for information");
	ok(r.owner == PMU_OWNER_FIRMWARE && strstr(r.owner_text, "firmware or another tool"),
	   "FC0-2 counting, no PMI, no GP counter, watchdog off: firmware or another tool");
	ok(strstr(trace_lines("rd"), "rd 0 0x189 ") && !strstr(trace_lines("rd"), "rd 0 0x18a "),
	   "PERFEVTSEL0-3 read, not 4 (gp_counters 4)");

	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r), ==, -EBUSY,
		  "FC3 field 0x3: -EBUSY");
	check_str(r.busy_why, "IA32_FIXED_CTR_CTRL[15:12]=0x3 (fixed counter 3 enabled)", "busy: why");
	ok(strstr(r.owner_text, "firmware or another tool") != NULL, "FC3 alone: firmware or another tool");

	/* GLOBAL_CTRL bit 48 (or 35) with the FC3 field and INUSE bit 35 clear
	 * is perf's idle enable mask, not an owner (pmu-reference §1.3, §5.2). */
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
	ok(strstr(r.others, "IA32_PERFEVTSEL0=0x53003c (EN, INT, event 0x3c)") != NULL,
	   "PERFEVTSEL0 named with its bits");
	ok(r.owner == PMU_OWNER_PERF && strstr(r.owner_text, "perf or another profiler (likely:"),
	   "owner: perf or another profiler (likely)");

	/* INUSE bit 35 = 32 + 3: fixed counter 3 in use (pmu-reference §1.9) */
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
	ok(!strstr(r.owner_text, "no sign of perf") && strstr(r.owner_text, "cannot tell"),
	   "owner: cannot tell (%s)", r.owner_text);
	check_int(owner_case(t_edit(own_text, "0 0x187 0x0\n", ""), &q, &r), ==, -ENODATA,
		  "IA32_PERFEVTSEL1 unreadable: -ENODATA");
	ok(r.evtsel_unread == 0x2 && !r.inuse_unread && r.unread_err == -EIO,
	   "evtsel_unread bit 1 only; INUSE read");
	ok(strstr(trace_lines("rd"), "rd 0 0x188 ") && strstr(trace_lines("rd"), "rd 0 0x392 "),
	   "the rest of the checklist is still read");
	check_int(owner_case(t_edit(t_edit(own_text, "0 0x187 0x0\n", ""), "0x38d 0x333", "0x38d 0x3333"),
			     &q, &r), ==, -EBUSY, "FC3 busy and IA32_PERFEVTSEL1 unreadable: -EBUSY");
	ok(r.evtsel_unread == 0x2 && strstr(r.owner_text, "cannot tell") != NULL,
	   "busy wins; the owner is not guessed past what could not be read");

	/* The NMI watchdog: FC1 field 0xb (OS, USR, PMI), nmi_watchdog=1 */
	q.nmi_watchdog = 1;
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0xb0"), &q, &r), ==, 0,
		  "watchdog on FC1: not a refusal");
	ok(r.watchdog_fc1, "watchdog_fc1");
	check_str(r.others, "fixed counter 1 (IA32_FIXED_CTR_CTRL[7:4]=0xb: OS, USR, PMI) held by "
		  "the NMI watchdog", "FC1 alone in use, named as the watchdog's");
	check_str(r.owner_text, "the NMI watchdog", "owner: the NMI watchdog");
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3b3"), &q, &r), ==, 0,
		  "watchdog on FC1, FC0/FC2 counting too: not a refusal");
	ok(strstr(r.others, "[7:4]=0xb: OS, USR, PMI) held by the NMI watchdog") != NULL,
	   "FC1 still named as the watchdog's");
	ok(r.owner == PMU_OWNER_PERF && strstr(r.owner_text, "the NMI watchdog is on"),
	   "the rest: perf (likely), the watchdog as the evidence");
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x33b3"), &q, &r), ==, -EBUSY,
		  "watchdog on and FC3 busy: -EBUSY");
	ok(r.owner == PMU_OWNER_PERF && strstr(r.owner_text, "the NMI watchdog is on"),
	   "FC3 busy with the watchdog on: perf (likely), the watchdog as the evidence");
	q.nmi_watchdog = 0;

	/* A journal holds the CPU: a crashed run, or pmu enable */
	q.journal_pid = 4242;
	check_int(owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r), ==, -EBUSY,
		  "journal + FC3: -EBUSY");
	check_str(r.owner_text, "a crashed baretma run (pid 4242)", "owner: a crashed baretma run");
	q.journal_kind = JOURNAL_ENABLE;
	owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r);
	check_str(r.owner_text, "'baretma pmu enable' (pid 4242, not running)", "owner: pmu enable");
	q.journal_kind = JOURNAL_MSR_WRITE;
	owner_case(t_edit(own_text, "0x38d 0x333", "0x38d 0x3333"), &q, &r);
	check_str(r.owner_text, "'baretma msr write' (pid 4242, not running)",
		  "owner: msr write (a journal of its own kind)");
}

/*
 * Between two repetitions (msr/pmu.h pmu_reset_frozen, pmu_read_overflow),
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
 * A short region of `baretma validate` (msr/pmu.h pmu_region_start), on
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

/*
 * An idle Linux Sapphire Rapids core as perf leaves it: 8 GP counters and
 * 4 fixed counters, nothing scheduled, so every PERFEVTSELx and
 * IA32_FIXED_CTR_CTRL are 0, but IA32_PERF_GLOBAL_CTRL holds the kernel's
 * enable mask x86_pmu.intel_ctrl (intel_pmu_enable_all writes intel_ctrl &
 * ~guest_mask; kernel arch/x86/events/intel/core.c intel_pmu_init;
 * pmu-reference §1.3, §5.2), worked out by hand:
 *   GP0-7  0xff
 *   FC0-3  0xf << 32 = 0xf00000000
 *   bit 48 (PERF_METRICS) 1 << 48 = 0x1000000000000
 *   sum    0x1000f000000ff
 * Whether FC3 counts is its IA32_FIXED_CTR_CTRL field's business (§1.2),
 * and INUSE bit 35 its mirror (§1.9); GLOBAL_CTRL alone is no owner.
 */
static const char spr_idle_text[] =
	"0 0x186 0x0\n0 0x187 0x0\n0 0x188 0x0\n0 0x189 0x0\n"
	"0 0x18a 0x0\n0 0x18b 0x0\n0 0x18c 0x0\n0 0x18d 0x0\n"
	"0 0x30c 0x0\n0 0x329 0x0\n0 0x38d 0x0\n0 0x38e 0x0\n"
	"0 0x38f 0x1000f000000ff\n0 0x392 0x0\n";

static void test_owner_perf_idle(void)
{
	struct pmu_owner_query q = { .version = 5, .gp_counters = 8, .nmi_watchdog = 0 };
	struct pmu_owner_report r;

	check_int(owner_case(spr_idle_text, &q, &r), ==, 0,
		  "SPR idle under perf (GLOBAL_CTRL 0x1000f000000ff, FIXED_CTR_CTRL 0, INUSE 0): 0");
	ok(!r.busy, "perf's idle enable mask: not busy");
	check_str(r.busy_why, "", "idle: no reason");
	check_u64(r.global_ctrl, ==, 0x1000f000000ffull, "idle: GLOBAL_CTRL read and kept");
	ok(r.inuse_read && r.fixed_used == 0 && !r.evtsel_en && !r.evtsel_event,
	   "idle: INUSE read, no fixed field, no PERFEVTSELx in use");
	ok(strstr(trace_lines("rd"), "rd 0 0x18d ") != NULL, "PERFEVTSEL7 read (gp_counters 8)");
	check_str(r.others, "", "idle: nothing else in use");
	ok(r.owner == PMU_OWNER_NONE && !r.owner_text[0], "idle: no owner named");

	/* FC3 field = EN_OS | EN_USR = 0x3 << 12 = 0x3000 */
	check_int(owner_case(t_edit(spr_idle_text, "0x38d 0x0", "0x38d 0x3000"), &q, &r), ==, -EBUSY,
		  "same GLOBAL_CTRL, FIXED_CTR_CTRL 0x3000: -EBUSY");
	ok(r.busy && r.fixed_used == 1u << 3, "FC3 field set: busy, FC3 used");
	check_str(r.busy_why, "IA32_FIXED_CTR_CTRL[15:12]=0x3 (fixed counter 3 enabled)",
		  "FC3 field: why names IA32_FIXED_CTR_CTRL[15:12], not GLOBAL_CTRL");

	/* INUSE bit 35 = 32 + 3 = 0x800000000, the FC3 field clear (§1.9) */
	check_int(owner_case(t_edit(spr_idle_text, "0x392 0x0", "0x392 0x800000000"), &q, &r), ==,
		  -EBUSY, "same GLOBAL_CTRL, INUSE bit 35, FC3 field clear: -EBUSY");
	check_str(r.busy_why, "IA32_PERF_GLOBAL_INUSE bit 35 set (fixed counter 3 in use)",
		  "INUSE bit 35: why");

	/* The NMI watchdog's cycles event on FC1 (field 0xb: OS, USR, PMI;
	 * §5.1) and INUSE bits 33 and 63 (FC1 in use, a PMI armed):
	 * 0x200000000 + 0x8000000000000000 = 0x8000000200000000. */
	q.nmi_watchdog = 1;
	check_int(owner_case(t_edit(t_edit(spr_idle_text, "0x38d 0x0", "0x38d 0xb0"), "0x392 0x0",
				    "0x392 0x8000000200000000"), &q, &r), ==, 0,
		  "idle but for the NMI watchdog, GLOBAL_CTRL = intel_ctrl: 0");
	ok(!r.busy && !r.busy_why[0], "watchdog + intel_ctrl: not busy");
}

/*
 * The write gate (msr/msr.h): no register is written unless the journal
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
	/* the write above; pmu_program's first (GLOBAL_CTRL = 0, msr/pmu.h step
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
	t_scratch(dir, "0310");
	t_path(state, "%s/state", dir);
	t_path(trace, "%s/trace", dir);
	setenv("BARETMA_MSR_TRACE", trace, 1);
	{
		char run[PATH_MAX];

		t_path(run, "%s/run", dir);
		setenv("BARETMA_STATE_DIR", run, 1);
	}
	test_program_restore();
	test_user_only();
	test_busy_and_force();
	test_no_fc3_no_metrics();
	test_backend_failure();
	test_guard();
	test_journaled();
	test_verify();
	test_owner();
	test_owner_perf_idle();
	test_reset_frozen();
	test_region();
	test_gate();
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
