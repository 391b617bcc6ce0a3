/*
 * t/0310-pmu-program.c - programming FC3 + PERF_METRICS (msr/pmu.h) against
 * a state file modelling an Ice Lake client CPU, read back through the
 * $BARETMA_MSR_TRACE lines and the state file's text.
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
#include "msr/pmu.h"
#include "t/tap.h"

static char dir[256];
static char state[512], trace[512];

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

/* Fresh state file with @text and an empty trace; opens a handle. */
static struct msr_dev *setup(const char *text)
{
	char spec[600];
	struct msr_dev *dev = NULL;

	put_file(state, text);
	put_file(trace, "");
	snprintf(spec, sizeof(spec), "state:%s", state);
	if (msr_open(spec, &dev)) {
		printf("# msr_open: %s\n", msr_last_error());
		exit(1);
	}
	return dev;
}

/* Replace the first occurrence of @from in @text by @to (static buffer). */
static const char *edit(const char *text, const char *from, const char *to)
{
	static char buf[2][4096];
	static int i;
	const char *p = strstr(text, from);

	i ^= 1;
	if (!p) {
		printf("# fixture edit: '%s' not found\n", from);
		exit(1);
	}
	snprintf(buf[i], sizeof(buf[i]), "%.*s%s%s", (int)(p - text), text, to,
		 p + strlen(from));
	return buf[i];
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
	/* Freeze, FIXED_CTR_CTRL, FC3, PERF_METRICS, then GLOBAL_CTRL last. */
	check_str(trace_lines(""),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x333\n"
		  "wr 0 0x30c 0x2f1a3c0\n"
		  "wr 0 0x329 0x1f3a5c47\n"
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

static void test_busy_and_force(void)
{
	struct pmu_config cfg = icl_cfg;
	struct pmu_saved s;
	char why[256];
	const char *taken;
	struct msr_dev *dev = setup(icl_text);

	check_int(pmu_check_in_use(dev, 0, why, sizeof(why)), ==, 0, "fixture is free");
	msr_close(dev);
	busy_case(edit(icl_text, "0 0x38d 0x333\n", "0 0x38d 0x3333\n"),
		  "IA32_FIXED_CTR_CTRL[15:12]=0x3", "FC3 field 0x3: busy");
	busy_case(edit(icl_text, "0 0x38d 0x333\n", "0 0x38d 0x8333\n"),
		  "IA32_FIXED_CTR_CTRL[15:12]=0x8", "FC3 field PMI only: busy");
	busy_case(edit(icl_text, "0 0x38f 0x70000000f\n", "0 0x38f 0xf0000000f\n"),
		  "bit 35", "GLOBAL_CTRL bit 35: busy");
	busy_case(edit(icl_text, "0 0x38f 0x70000000f\n", "0 0x38f 0x100070000000f\n"),
		  "bit 48", "GLOBAL_CTRL bit 48: busy");

	/* Someone else's topdown setup: FC3 field 0x2, bits 35 and 48 on. */
	taken = edit(icl_text, "0 0x38d 0x333\n", "0 0x38d 0x2333\n");
	taken = edit(taken, "0 0x38f 0x70000000f\n", "0 0x38f 0x1000f0000000f\n");
	dev = setup(taken);
	cfg.force = true;
	check_int(pmu_program(dev, 0, &cfg, &s, why, sizeof(why)), ==, 0, "force takes over");
	ok(strstr(why, "bit 35") != NULL, "force still reports why it was busy");
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
	dev = setup(edit(icl_text, "0 0x38f 0x70000000f\n", "0 0x38f 0x100070000000f\n"));
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
	const char *no390 = edit(icl_text, "0 0x390 0x0\n", "");
	const char *no329 = edit(icl_text, "0 0x329 0x1f3a5c47\n", "");
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
		  "wr 0 0x38f 0x70000000f\n",
		  "failure midway, then every register restored");
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

/* Child: program, guard, die of @sig.  Parent: killed by @sig, file restored. */
static void guard_case(int sig, bool release, const char *name)
{
	int status = 0;
	pid_t pid;
	struct msr_dev *dev = setup(icl_text);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct pmu_saved s;

		if (pmu_guard_install() || pmu_guard_register(dev, &s) ||
		    pmu_program(dev, 0, &icl_cfg, &s, NULL, 0))
			_exit(98);
		if (release)
			pmu_guard_release(&s);
		raise(sig);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == sig, "%s: child killed by the signal", name);
	if (!WIFSIGNALED(status))
		printf("#   child exit status %d\n", WEXITSTATUS(status));
	if (release) {
		ok(strcmp(get_file(state), icl_text) != 0, "%s: released guard leaves it programmed", name);
		ok(strstr(get_file(state), "0 0x38f 0x1000f0000000f\n") != NULL,
		   "%s: GLOBAL_CTRL still programmed", name);
	} else {
		check_str(get_file(state), icl_text, name);
		ok(strstr(trace_lines("wr"), "wr 0 0x38f 0x70000000f\n") != NULL,
		   "%s: the handler wrote GLOBAL_CTRL back", name);
	}
	msr_close(dev);
}

static void test_guard(void)
{
	guard_case(SIGTERM, false, "SIGTERM restores the original bytes");
	guard_case(SIGINT, false, "SIGINT restores the original bytes");
	guard_case(SIGHUP, false, "SIGHUP restores the original bytes");
	guard_case(SIGTERM, true, "SIGTERM after release");
}

static const char journal_text[] =
	"# baretma pmu journal v1\n"
	"pid 4242\n"
	"cmd baretma pmu enable --cpu 3\n"
	"time 1700000000\n"
	"backend state:/tmp/x\n"
	"user_only 1\n"
	"cpu 3 perf_metrics 1 global_ctrl 0x70000000f fixed_ctr_ctrl 0x333 "
	"fixed_ctr3 0x2f1a3c0 perf_metrics_val 0x1f3a5c47\n";

static void write_journal_file(const char *name, const char *text)
{
	char p[600];

	snprintf(p, sizeof(p), "%s/run/%s", dir, name);
	put_file(p, text);
}

static void test_journal(void)
{
	struct pmu_journal_entry e = {
		.saved = { .cpu = 3, .perf_metrics = true, .programmed = true,
			   .global_ctrl = 0x70000000f, .fixed_ctr_ctrl = 0x333,
			   .fixed_ctr3 = 0x2f1a3c0, .perf_metrics_val = 0x1f3a5c47 },
		.pid = 4242, .time = 1700000000, .user_only = true,
		.cmd = "baretma pmu enable --cpu 3", .backend = "state:/tmp/x",
	}, r;
	char run[600], p[700];
	unsigned cpus[8];
	struct stat st;

	snprintf(run, sizeof(run), "%s/run", dir);
	setenv("BARETMA_STATE_DIR", run, 1);
	check_str(pmu_state_dir(), run, "state dir from $BARETMA_STATE_DIR");
	check_int(pmu_journal_list(cpus, 8), ==, 0, "no dir yet: no journal");
	check_int(pmu_journal_write(&e), ==, 0, "journal write creates the dir");
	ok(stat(run, &st) == 0 && (st.st_mode & 07777) == 0700, "dir mode 0700");
	snprintf(p, sizeof(p), "%s/cpu3.journal", run);
	ok(stat(p, &st) == 0 && (st.st_mode & 07777) == 0600, "journal mode 0600");
	check_str(get_file(p), journal_text, "journal text as in pmu.h");
	memset(&r, 0, sizeof(r));
	check_int(pmu_journal_read(3, &r), ==, 0, "journal read");
	ok(r.saved.cpu == 3 && r.saved.perf_metrics && r.saved.programmed && r.pid == 4242 &&
	   r.time == 1700000000 && r.user_only, "read: cpu, flags, pid, time");
	check_u64(r.saved.global_ctrl, ==, 0x70000000f, "read global_ctrl");
	check_u64(r.saved.fixed_ctr_ctrl, ==, 0x333, "read fixed_ctr_ctrl");
	check_u64(r.saved.fixed_ctr3, ==, 0x2f1a3c0, "read fixed_ctr3");
	check_u64(r.saved.perf_metrics_val, ==, 0x1f3a5c47, "read perf_metrics_val");
	check_str(r.cmd, "baretma pmu enable --cpu 3", "read cmd");
	check_str(r.backend, "state:/tmp/x", "read backend");
	check_int(pmu_journal_read(4, &r), ==, -ENOENT, "no journal for cpu 4");

	e.saved.cpu = 12;
	pmu_journal_write(&e);
	e.saved.cpu = 0;
	pmu_journal_write(&e);
	write_journal_file("cpu07.journal.bak", "x");
	check_int(pmu_journal_list(cpus, 8), ==, 3, "three journals");
	ok(cpus[0] == 0 && cpus[1] == 3 && cpus[2] == 12, "listed ascending: 0 3 12");
	check_int(pmu_journal_list(cpus, 2), ==, -ERANGE, "more journals than room: -ERANGE");
	check_int(pmu_journal_remove(12), ==, 0, "remove cpu 12");
	check_int(pmu_journal_read(12, &r), ==, -ENOENT, "removed journal is gone");
	check_int(pmu_journal_remove(12), ==, -ENOENT, "removing twice: -ENOENT");

	static const struct { const char *from, *to, *name; } bad[] = {
		{ "# baretma pmu journal v1", "# baretma pmu journal v2", "wrong magic" },
		{ "pid 4242", "pid -1", "negative pid" },
		{ "pid 4242", "pid 0", "pid 0" },
		{ "time 1700000000", "time 17x", "junk time" },
		{ "user_only 1", "user_only 2", "user_only 2" },
		{ "global_ctrl 0x70000000f", "global_ctrl 70000000f", "hex without 0x" },
		{ "fixed_ctr3 0x2f1a3c0", "fixed_ctr3 0x12345678901234567", "hex too wide" },
		{ "perf_metrics_val 0x1f3a5c47\n", "perf_metrics_val 0x1f3a5c47\nextra\n", "extra line" },
		{ "perf_metrics_val 0x1f3a5c47\n", "perf_metrics_val 0x1f3a5c47", "no final newline" },
		{ "cpu 3 perf", "cpu 5 perf", "cpu differs from the file name" },
		{ "pid 4242\ncmd", "cmd", "missing pid line" },
		{ "0x333 fixed", "0x333  fixed", "double space" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		write_journal_file("cpu3.journal", edit(journal_text, bad[i].from, bad[i].to));
		check_int(pmu_journal_read(3, &r), ==, -EINVAL, bad[i].name);
	}
	write_journal_file("cpu3.journal", journal_text);
	check_int(pmu_journal_read(3, &r), ==, 0, "hand-written journal reads");

	/* A symlinked state dir is refused (root writes MSRs from it). */
	snprintf(p, sizeof(p), "%s/link", dir);
	if (symlink(run, p) == 0) {
		setenv("BARETMA_STATE_DIR", p, 1);
		check_int(pmu_journal_write(&e), ==, -ELOOP, "symlink state dir: write -ELOOP");
		check_int(pmu_journal_read(3, &r), ==, -ELOOP, "symlink state dir: read -ELOOP");
	} else {
		skip(2, "cannot create a symlink here");
	}
	setenv("BARETMA_STATE_DIR", run, 1);
	chmod(run, 0777);
	check_int(pmu_journal_read(3, &r), ==, -EPERM, "world-writable state dir: -EPERM");
	chmod(run, 0700);
	if (geteuid() == 0 && chown(run, 65534, 65534) == 0) {
		check_int(pmu_journal_read(3, &r), ==, -EPERM, "state dir of another user: -EPERM");
		if (chown(run, 0, 0))
			printf("# chown back failed\n");
	} else {
		skip(1, "not root: cannot hand the dir to another user");
	}
	check_int(pmu_journal_read(3, &r), ==, 0, "dir fixed: reads again");
}

int main(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/baretma-0310.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(state, sizeof(state), "%s/state", dir);
	snprintf(trace, sizeof(trace), "%s/trace", dir);
	setenv("BARETMA_MSR_TRACE", trace, 1);
	test_program_restore();
	test_user_only();
	test_busy_and_force();
	test_no_fc3_no_metrics();
	test_backend_failure();
	test_guard();
	test_journal();
	{
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", dir);
	}
	return done_testing();
}
