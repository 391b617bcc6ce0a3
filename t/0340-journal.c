/*
 * t/0340-journal.c - the crash-safe run journal (msr/journal.h): on disk
 * before every write, restore order and bytes, SIGKILL recovery from the
 * file, the signal guard for terminal and fault signals, liveness of the
 * journal's process, the strict parser, and the state directory checks.
 *
 * Expected values are the bytes written into the fixtures below, the
 * format in msr/journal.h written out by hand, and the kernel's own
 * /proc/PID/stat (read here, not by the code under test).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msr/intel_regs.h"
#include "msr/journal.h"
#include "msr/msr.h"
#include "msr/state_dir.h"
#include "t/fixture.h"

static char base[PATH_MAX], statedir[PATH_MAX], root[PATH_MAX], state[PATH_MAX], trace[PATH_MAX],
	spec[PATH_MAX + 8];

/*
 * Two CPUs of an Ice Lake-like part.  Values are arbitrary leftovers that
 * must come back; hex is lower case without leading zeros so that the
 * state backend's rewrite gives back these bytes.
 */
static const char state_text[] =
	"# baretma 0340 fixture\n"
	"0 0x30c 0x2f1a3c0\n"
	"0 0x329 0x1f3a5c47\n"
	"0 0x38d 0x333\n"
	"0 0x38e 0x0\n"
	"0 0x38f 0x70000000f\n"
	"0 0x390 0x0\n"
	"0 0x391 0x0\n"
	"1 0x30c 0x51\n"
	"1 0x329 0x80808080\n"
	"1 0x38d 0xb0\n"
	"1 0x38f 0x3\n";

/* Fake sysroot files: first lines as the kernel prints them. */
#define NMI_PATH "/proc/sys/kernel/nmi_watchdog"
#define RDPMC_PATH "/sys/bus/event_source/devices/cpu/rdpmc"
static const char nmi_text[] = "1\n";
static const char rdpmc_text[] = "1\n";

/* Fresh registers, sysroot files, empty trace and state dir. */
static void fixtures(void)
{
	t_rm_rf(statedir);
	put_file(state, state_text);
	put_file(trace, "");
	t_put_tree(t_in(root, NMI_PATH), nmi_text);
	t_put_tree(t_in(root, RDPMC_PATH), rdpmc_text);
}

static struct msr_dev *open_dev(void)
{
	struct msr_dev *dev = NULL;

	if (msr_open(spec, &dev)) {
		printf("# msr_open: %s\n", msr_last_error());
		exit(1);
	}
	/* the journal's store and restore on their own; its gate: t/0310 */
	msr_ungate(dev);
	return dev;
}

/* Names in the state directory, sorted, space-separated ("" when none). */
static const char *dir_names(void)
{
	static char out[1024];
	struct dirent **list;
	int n = scandir(statedir, &list, NULL, alphasort);

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
				 *out ? " " : "", list[i]->d_name);
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return out;
}

static const char *journal_name(pid_t pid)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "run-%ld.journal", (long)pid);
	return buf;
}

static const char *journal_file(pid_t pid)
{
	static char buf[PATH_MAX];

	t_path(buf, "%s/run-%ld.journal", statedir, (long)pid);
	return buf;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Field 22 of /proc/PID/stat, read here (proc(5)): after the last ')'. */
static unsigned long long starttime_of(pid_t pid)
{
	char path[64], buf[2048];
	const char *p;
	unsigned long long v = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* fields 3..21 are 19 tokens to skip */
	if (p && sscanf(p + 2, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			"%*s %*s %*s %*s %*s %*s %llu", &v) != 1)
		v = 0;
	return v;
}

static bool is_zombie(pid_t pid)
{
	char path[64];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	p = strrchr(get_file(path), ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

/* Write a file by hand into the state dir, mode 0600. */
static void put_journal(const char *name, const char *text)
{
	const char *path = t_in(statedir, name);

	put_file(path, text);
	chmod(path, 0600);
}

/* ------------------------------------------------------------ begin..end */

static void test_save_restore_end(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev;
	struct stat st;
	char want[PATH_MAX + 2048], head[PATH_MAX + 512];
	const char *text;
	long long t0, t1, tj = -1;
	const char *tl;

	fixtures();
	dev = open_dev();
	t0 = (long long)time(NULL);
	check_int(journal_begin(&j, "baretma bench --backend msr", spec, JOURNAL_RUN, false), ==, 0,
		  "journal_begin");
	t1 = (long long)time(NULL);
	check_str(journal_path(j), journal_file(getpid()), "journal path is <state dir>/run-<pid>.journal");
	ok(stat(journal_file(getpid()), &st) == 0 && S_ISREG(st.st_mode), "journal file exists after begin");
	check_int(st.st_mode & 07777, ==, 0600, "journal mode 0600");
	check_int(st.st_uid, ==, geteuid(), "journal owned by the effective user");
	text = get_file(journal_file(getpid()));
	tl = strstr(text, "\ntime ");
	if (tl)
		tj = atoll(tl + 6);
	ok(tj >= t0 && tj <= t1, "time line is the Unix time of begin (%lld in [%lld, %lld])", tj, t0, t1);
	snprintf(head, sizeof(head),
		 "# baretma journal v2\npid %ld\nstarttime %llu\ntime %lld\n"
		 "cmd baretma bench --backend msr\nbackend %s\nkind run\nuser_only 0\n",
		 (long)getpid(), starttime_of(getpid()), tj, spec);
	check_str(text, head, "header after begin, starttime from /proc/self/stat");
	check_int(journal_begin(&(struct journal *){ NULL }, "x", spec, JOURNAL_RUN, false), ==, -EBUSY,
		  "a second journal in the same process: -EBUSY");

	/* Each value is in the file before the register is written. */
	check_int(journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x333), ==, 0, "save cpu 0 FIXED_CTR_CTRL");
	ok(strstr(get_file(journal_file(getpid())), "reg 0 0x38d 0x333\n") != NULL,
	   "saved FIXED_CTR_CTRL on disk before the write");
	ok(strstr(get_file(state), "0 0x38d 0x333\n") != NULL, "register not written yet");
	msr_write(dev, 0, IA32_FIXED_CTR_CTRL, 0x3333);
	check_int(journal_save_reg(j, 0, IA32_PERF_GLOBAL_CTRL, 0x70000000full), ==, 0, "save cpu 0 GLOBAL_CTRL");
	ok(strstr(get_file(journal_file(getpid())), "reg 0 0x38f 0x70000000f\n") != NULL,
	   "saved GLOBAL_CTRL on disk before the write");
	msr_write(dev, 0, IA32_PERF_GLOBAL_CTRL, 0);
	check_int(journal_save_reg(j, 0, IA32_FIXED_CTR3, 0x2f1a3c0), ==, 0, "save cpu 0 FIXED_CTR3");
	msr_write(dev, 0, IA32_FIXED_CTR3, 0);
	check_int(journal_save_reg(j, 0, IA32_PERF_METRICS, 0x1f3a5c47), ==, 0, "save cpu 0 PERF_METRICS");
	msr_write(dev, 0, IA32_PERF_METRICS, 0);
	/* cpu 1 in one batch, GLOBAL_CTRL saved first this time */
	check_int(journal_save_regs(j, (struct journal_reg[]){
			{ 1, IA32_PERF_GLOBAL_CTRL, 0x3, false }, { 1, IA32_FIXED_CTR_CTRL, 0xb0, false } }, 2), ==, 0,
		  "save cpu 1 GLOBAL_CTRL + FIXED_CTR_CTRL in one batch");
	ok(strstr(get_file(journal_file(getpid())), "reg 1 0x38f 0x3\nreg 1 0x38d 0xb0\n") != NULL,
	   "batch on disk before the writes");
	msr_write(dev, 1, IA32_PERF_GLOBAL_CTRL, 0x800000003ull);
	msr_write(dev, 1, IA32_FIXED_CTR_CTRL, 0x30b0);
	/* Saving again (the programmed value) changes nothing: first value wins. */
	check_int(journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x3333), ==, 0, "saving again is a no-op");
	check_int(journal_save_reg(j, JOURNAL_MAX_CPUS, IA32_FIXED_CTR_CTRL, 0), ==, -EINVAL,
		  "CPU beyond JOURNAL_MAX_CPUS: -EINVAL");
	snprintf(want, sizeof(want), "%s"
		 "reg 0 0x38d 0x333\n"
		 "reg 0 0x38f 0x70000000f\n"
		 "reg 0 0x30c 0x2f1a3c0\n"
		 "reg 0 0x329 0x1f3a5c47\n"
		 "reg 1 0x38f 0x3\n"
		 "reg 1 0x38d 0xb0\n", head);
	check_str(get_file(journal_file(getpid())), want, "journal text: every first value in save order");
	ok(strcmp(get_file(state), state_text) != 0, "registers programmed");

	/* fixed counter 3 and PERF_METRICS overflowed during the run: the
	 * hardware set IA32_PERF_GLOBAL_STATUS bits 35 and 48 (modelled with
	 * IA32_PERF_GLOBAL_STATUS_SET, pmu-reference §1.4) */
	msr_write(dev, 0, IA32_PERF_GLOBAL_STATUS_SET, 1ull << 35 | 1ull << 48);
	ok(strstr(get_file(state), "0 0x38e 0x1000800000000\n") != NULL, "overflow bits set");
	put_file(trace, "");
	check_int(journal_restore(j, dev), ==, 0, "journal_restore");
	/* Per CPU: GLOBAL_CTRL 0 first, the rest in save order; on cpu 0,
	 * which saved FIXED_CTR_CTRL, FIXED_CTR3 and PERF_METRICS (it ran
	 * fixed counter 3 and PERF_METRICS), the overflow bits 35 | 48 =
	 * 0x1000800000000 cleared through IA32_PERF_GLOBAL_STATUS_RESET
	 * (pmu-reference §5.4 "Restore"); GLOBAL_CTRL last.  cpu 1 saved no
	 * FC3: nothing to clear. */
	check_str(get_file(trace),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x333\n"
		  "wr 0 0x30c 0x2f1a3c0\n"
		  "wr 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x70000000f\n"
		  "wr 1 0x38f 0x0\n"
		  "wr 1 0x38d 0xb0\n"
		  "wr 1 0x38f 0x3\n",
		  "restore order: freeze, saved order, GLOBAL_CTRL last");
	check_str(get_file(state), state_text, "state file back byte for byte");
	check_int(journal_end(j), ==, 0, "journal_end after restore");
	ok(!exists(journal_file(getpid())), "journal removed by journal_end");
	check_str(dir_names(), "", "nothing left in the state dir (no temp file)");
	msr_close(dev);
}

/* GLOBAL_CTRL saved alone (as `msr write` saves it): restored with one
 * write of its saved value, no freeze (nothing else to guard, msr/journal.h). */
static void test_global_ctrl_alone(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev;

	fixtures();
	dev = open_dev();
	check_int(journal_begin(&j, "baretma msr write 0-1 0x38f 0x1", spec, JOURNAL_RUN, false),
		  ==, 0, "begin");
	check_int(journal_save_regs(j, (struct journal_reg[]){
			{ 0, IA32_PERF_GLOBAL_CTRL, 0x70000000full, false },
			{ 1, IA32_PERF_GLOBAL_CTRL, 0x3, false } },
			2), ==, 0, "save GLOBAL_CTRL of cpus 0 and 1");
	msr_write(dev, 0, IA32_PERF_GLOBAL_CTRL, 0x1);
	msr_write(dev, 1, IA32_PERF_GLOBAL_CTRL, 0x1);
	put_file(trace, "");
	check_int(journal_restore(j, dev), ==, 0, "journal_restore");
	check_str(get_file(trace), "wr 0 0x38f 0x70000000f\nwr 1 0x38f 0x3\n",
		  "GLOBAL_CTRL alone: each written once, its saved value");
	check_str(get_file(state), state_text, "state file back byte for byte");
	check_int(journal_end(j), ==, 0, "journal_end");
	msr_close(dev);
}

static void test_end_unrestored_and_detach(void)
{
	struct journal *j = NULL;
	struct journal_data d;
	struct msr_dev *dev;

	fixtures();
	dev = open_dev();
	check_int(journal_begin(&j, "run", spec, JOURNAL_RUN, true), ==, 0, "begin");
	check_int(journal_end(j), ==, 0, "journal_end of an empty journal");
	ok(!exists(journal_file(getpid())), "empty journal removed");

	check_int(journal_begin(&j, "run", spec, JOURNAL_RUN, true), ==, 0, "begin again");
	journal_save_reg(j, 1, IA32_FIXED_CTR3, 0x51);
	msr_write(dev, 1, IA32_FIXED_CTR3, 0);
	check_int(journal_end(j), ==, -EBUSY, "journal_end without restore: -EBUSY");
	ok(exists(journal_file(getpid())), "unrestored journal kept on disk");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "load the kept journal");
	ok(d.user_only && d.kind == JOURNAL_RUN && d.nregs == 1 && d.regs[0].cpu == 1 &&
	   d.regs[0].msr == IA32_FIXED_CTR3 && d.regs[0].saved == 0x51, "kept journal: the saved FC3");
	check_int(journal_restore_data(&d, dev), ==, 0, "restore from the file");
	check_str(get_file(state), state_text, "state file back");
	journal_data_free(&d);
	check_int(journal_remove(getpid()), ==, 0, "journal_remove");
	check_int(journal_remove(getpid()), ==, -ENOENT, "journal_remove again: -ENOENT");

	/* pmu enable: the journal stays on purpose. */
	check_int(journal_begin(&j, "baretma pmu enable", spec, JOURNAL_ENABLE, false), ==, 0,
		  "begin kind enable");
	journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x333);
	journal_detach(j);
	ok(strstr(get_file(journal_file(getpid())), "\nkind enable\n") != NULL, "detached journal on disk, kind enable");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "load it");
	ok(d.kind == JOURNAL_ENABLE, "loaded kind is enable");
	journal_data_free(&d);
	journal_remove(getpid());

	/* msr write: a kind of its own (it is not "pmu enable"), kept too. */
	check_int(journal_begin(&j, "baretma msr write 0 0x38d 0x3333", spec, JOURNAL_MSR_WRITE,
				false), ==, 0, "begin kind write");
	journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x333);
	journal_detach(j);
	ok(strstr(get_file(journal_file(getpid())), "\nkind write\nuser_only 0\nreg 0 0x38d 0x333\n")
	   != NULL, "detached journal on disk, kind write");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "load it");
	ok(d.kind == JOURNAL_MSR_WRITE, "loaded kind is write");
	journal_data_free(&d);
	journal_remove(getpid());
	check_str(journal_kind_name(JOURNAL_RUN), "run", "kind name run");
	check_str(journal_kind_name(JOURNAL_ENABLE), "enable", "kind name enable");
	check_str(journal_kind_name(JOURNAL_MSR_WRITE), "write", "kind name write");
	ok(journal_kind_name((enum journal_kind)7) == NULL, "no name for a value that is no kind");
	check_int(journal_begin(&j, "x", spec, (enum journal_kind)7, false), ==, -EINVAL,
		  "begin with no kind: -EINVAL");

	/* A journal of an earlier process with our PID is never overwritten. */
	put_journal(journal_name(getpid()), "left by a dead run\n");
	check_int(journal_begin(&j, "x", spec, JOURNAL_RUN, false), ==, -EEXIST, "same-PID journal exists: -EEXIST");
	check_str(get_file(journal_file(getpid())), "left by a dead run\n", "and it is untouched");
	journal_remove(getpid());
	check_int(journal_begin(&j, "x", "", JOURNAL_RUN, false), ==, -EINVAL, "empty backend: -EINVAL");
	check_int(journal_begin(&j, "x", "a\nb", JOURNAL_RUN, false), ==, -EINVAL, "backend with a newline: -EINVAL");
	check_str(dir_names(), "", "failed begins leave nothing");
	msr_close(dev);
}

static void test_settings_in_journal(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev;
	char want[PATH_MAX];

	fixtures();
	setenv("BARETMA_SYSROOT", root, 1);
	dev = open_dev();
	check_int(journal_begin(&j, "s", spec, JOURNAL_RUN, false), ==, 0, "begin");
	check_int(journal_save_setting(j, RDPMC_PATH, "1"), ==, 0, "save rdpmc");
	ok(strstr(get_file(journal_file(getpid())),
		  "\nsetting /sys/bus/event_source/devices/cpu/rdpmc 1\n") != NULL,
	   "setting line on disk");
	check_int(journal_save_setting(j, NMI_PATH, "1"), ==, 0, "save nmi_watchdog");
	check_int(journal_save_setting(j, NMI_PATH, "0"), ==, 0, "save it again: no-op");
	ok(strstr(get_file(journal_file(getpid())), "setting /proc/sys/kernel/nmi_watchdog 1\n") != NULL,
	   "first value kept");
	check_int(journal_save_setting(j, "/etc/passwd", "x"), ==, -EINVAL, "path outside /sys, /proc/sys: -EINVAL");
	check_int(journal_save_setting(j, "/sys/../etc/x", "x"), ==, -EINVAL, "'..' component: -EINVAL");
	check_int(journal_save_setting(j, NMI_PATH, ""), ==, -EINVAL, "empty value: -EINVAL");
	/* Only the files baretma changes (msr/settings.h), with their values. */
	check_int(journal_save_setting(j, "/proc/sys/kernel/core_pattern", "core"), ==, -EINVAL,
		  "core_pattern is no setting of baretma's: -EINVAL");
	check_int(journal_save_setting(j, "/sys/kernel/mm/transparent_hugepage/enabled",
				       "always [madvise] never"), ==, -EINVAL,
		  "a sysfs file baretma does not change: -EINVAL");
	check_int(journal_save_setting(j, "/proc/sys/kernel/nmi_watchdog/", "1"), ==, -EINVAL,
		  "nmi_watchdog's path with a trailing slash: -EINVAL");
	check_int(journal_save_setting(j, "/sys/bus/event_source/devices/cpu_core/rdpmc", "3"), ==,
		  -EINVAL, "rdpmc 3 (it takes 0, 1, 2): -EINVAL");
	check_int(journal_save_setting(j, "/sys/module/msr/parameters/allow_writes", "1"), ==,
		  -EINVAL, "allow_writes 1 (it takes on, off, default): -EINVAL");
	put_file(t_in(root, NMI_PATH), "0\n");
	put_file(t_in(root, RDPMC_PATH), "2\n");
	check_int(journal_restore(j, dev), ==, 0, "restore settings");
	check_str(get_file(t_in(root, NMI_PATH)), nmi_text, "nmi_watchdog bytes back");
	check_str(get_file(t_in(root, RDPMC_PATH)), rdpmc_text, "rdpmc bytes back");
	t_path(want, "%s%s", root, NMI_PATH);
	check_str(journal_data_of(j)->settings[1].full, want, "full path under $BARETMA_SYSROOT");
	check_int(journal_end(j), ==, 0, "end");
	msr_close(dev);
}

/* -------------------------------------------------------------- children */

/* In a child: begin, guard, save + write registers and settings. */
static void child_program(const char *cmd)
{
	struct journal *j = NULL;
	struct msr_dev *dev = NULL;
	struct rlimit no_core = { 0, 0 };

	setrlimit(RLIMIT_CORE, &no_core);
	/* A background job may inherit SIGINT/SIGQUIT ignored, a harness SIGPIPE. */
	t_signals_default();
	if (msr_open(spec, &dev))
		_exit(90);
	if (journal_begin(&j, cmd, spec, JOURNAL_RUN, false))
		_exit(91);
	if (journal_guard_install(j, dev))
		_exit(92);
	if (journal_save_reg(j, 0, IA32_PERF_GLOBAL_CTRL, 0x70000000full) ||
	    msr_write(dev, 0, IA32_PERF_GLOBAL_CTRL, 0) ||
	    journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x333) ||
	    msr_write(dev, 0, IA32_FIXED_CTR_CTRL, 0x3333) ||
	    journal_save_reg(j, 1, IA32_FIXED_CTR3, 0x51) ||
	    msr_write(dev, 1, IA32_FIXED_CTR3, 0) ||
	    msr_write(dev, 0, IA32_PERF_GLOBAL_CTRL, 0x1000f0000000full))
		_exit(93);
	if (journal_save_setting(j, NMI_PATH, "1") || journal_save_setting(j, RDPMC_PATH, "1"))
		_exit(94);
	put_file(t_in(root, NMI_PATH), "0\n");
	put_file(t_in(root, RDPMC_PATH), "2\n");
}

static volatile int stop_recursion;

__attribute__((noinline)) static int recurse(int n)
{
	volatile char buf[4096];

	buf[0] = (char)n;
	if (stop_recursion)
		return 0;
	return recurse(n + 1) + buf[0];
}

/*
 * Real faults, as a kernel under test would raise them (not raise()).  In
 * asm: the compiler may drop a C NULL store or turn 1/x into a compare.
 */
__attribute__((noinline)) static void fault(int sig)
{
#if defined(__x86_64__)
	volatile int zero = 0;

	if (sig == SIGSEGV)
		__asm__ volatile("movl $1, (%0)" : : "r"((int *)(uintptr_t)zero) : "memory");
	else if (sig == SIGFPE)
		__asm__ volatile("xorl %%edx, %%edx\n\tmovl $1, %%eax\n\tdivl %0"
				 : : "r"(zero) : "eax", "edx");
	else if (sig == SIGILL)
		__asm__ volatile("ud2");
#else
	if (sig == SIGSEGV || sig == SIGFPE || sig == SIGILL)
		raise(sig);
#endif
	if (sig == SIGPIPE) {
		/* "baretma bench | head": the reader is gone. */
		int p[2];

		if (pipe(p) == 0) {
			close(p[0]);
			if (write(p[1], "x", 1) < 0)
				_exit(96);
		}
	} else if (sig == SIGABRT) {
		abort();
	} else if (sig == SIGBUS) {
		/* A page of a file beyond its end (mmap(2): SIGBUS). */
		char path[PATH_MAX];
		int fd;
		volatile char *m;

		t_path(path, "%s/empty", base);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED)
			(void)m[0];
	}
}

/* Fork a child that programs; @how: 0 = the parent signals it, 1 = it
 * faults by itself, 2 = stack overflow.  Returns its wait status. */
static int run_child(int sig, int how, pid_t *pidp)
{
	int pfd[2], status = 0;
	pid_t pid;
	char c;

	if (pipe(pfd))
		exit(1);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		child_program("child");
		if (how == 1)
			fault(sig);
		else if (how == 2)
			recurse(0);
		if (write(pfd[1], "r", 1) != 1)
			_exit(95);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (how == 0 && read(pfd[0], &c, 1) == 1)
		kill(pid, sig);
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (pidp)
		*pidp = pid;
	return status;
}

static void check_killed(int status, int sig, const char *name)
{
	ok(WIFSIGNALED(status) && WTERMSIG(status) == sig, "%s: the child died of the signal", name);
	if (WIFSIGNALED(status) && WTERMSIG(status) != sig)
		printf("#   signal %d\n", WTERMSIG(status));
	else if (WIFEXITED(status))
		printf("#   exit status %d\n", WEXITSTATUS(status));
}

static void check_restored(const char *name)
{
	check_str(get_file(state), state_text, name);
	check_str(get_file(t_in(root, NMI_PATH)), nmi_text, "nmi_watchdog back");
	check_str(get_file(t_in(root, RDPMC_PATH)), rdpmc_text, "rdpmc back");
}

static void test_sigkill(void)
{
	struct journal_info info[4];
	struct journal_data d;
	struct msr_dev *dev;
	pid_t pid;
	int n, status;

	fixtures();
	status = run_child(SIGKILL, 0, &pid);
	check_killed(status, SIGKILL, "SIGKILL");
	ok(exists(journal_file(pid)), "SIGKILL: the journal stays");
	ok(strcmp(get_file(state), state_text) != 0, "SIGKILL: registers left programmed");
	check_str(get_file(t_in(root, NMI_PATH)), "0\n", "SIGKILL: nmi_watchdog left changed");

	n = journal_list(info, 4);
	check_int(n, ==, 1, "journal_list: one journal");
	if (n == 1) {
		ok(info[0].pid == pid && info[0].error == 0, "listed by the child's pid, loads cleanly");
		ok(!info[0].alive, "the killed child's journal is not alive");
		check_str(info[0].data.cmd, "child", "cmd");
		check_str(info[0].data.backend, spec, "backend");
		ok(info[0].data.ncpus == 2 && info[0].data.cpus[0] == 0 && info[0].data.cpus[1] == 1,
		   "CPUs held: 0 1");
		check_int(info[0].data.nsettings, ==, 2, "two settings");
		journal_info_free(info, n);
	}
	check_int(journal_load(journal_file(pid), &d), ==, 0, "journal_load of the killed run");
	dev = open_dev();
	put_file(trace, "");
	check_int(journal_restore_data(&d, dev), ==, 0, "journal_restore_data");
	check_str(get_file(trace),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x333\n"
		  "wr 0 0x38f 0x70000000f\n"
		  "wr 1 0x30c 0x51\n",
		  "restore from file: GLOBAL_CTRL 0 first, saved value last");
	check_restored("SIGKILL: state file back byte for byte");
	journal_data_free(&d);
	msr_close(dev);
	check_int(journal_remove(pid), ==, 0, "remove the restored journal");
	check_str(dir_names(), "", "state dir empty");
}

static void test_guard_signals(void)
{
	static const struct { int sig; int how; const char *name; } cases[] = {
		{ SIGINT, 0, "SIGINT" }, { SIGTERM, 0, "SIGTERM" }, { SIGHUP, 0, "SIGHUP" },
		{ SIGQUIT, 0, "SIGQUIT" }, { SIGSEGV, 1, "SIGSEGV (NULL write)" },
		{ SIGBUS, 1, "SIGBUS (mmap beyond EOF)" }, { SIGFPE, 1, "SIGFPE (1 / 0)" },
		{ SIGILL, 1, "SIGILL (ud2)" }, { SIGSEGV, 2, "SIGSEGV (stack overflow)" },
		{ SIGABRT, 1, "SIGABRT (abort)" }, { SIGPIPE, 1, "SIGPIPE (reader gone)" },
		{ SIGUSR1, 0, "SIGUSR1" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pid_t pid;
		int status;

		fixtures();
		status = run_child(cases[i].sig, cases[i].how, &pid);
		check_killed(status, cases[i].sig, cases[i].name);
		check_restored(cases[i].name);
		ok(!exists(journal_file(pid)), "%s: journal removed", cases[i].name);
		check_str(dir_names(), "", "state dir empty");
	}
}

static void caller_handler(int sig)
{
	(void)sig;
}

/* A process forked by the journal's owner does not restore its registers;
 * the caller's own handlers and ignored signals are left alone. */
static void test_guard_forked_child(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev;
	struct sigaction sa, before, usr1 = { .sa_handler = caller_handler };
	int status = 0;
	pid_t pid;

	fixtures();
	dev = open_dev();
	sigaction(SIGSEGV, NULL, &before);
	sigemptyset(&usr1.sa_mask);
	sigaction(SIGUSR1, &usr1, NULL);
	signal(SIGUSR2, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	journal_begin(&j, "owner", spec, JOURNAL_RUN, false);
	check_int(journal_guard_install(j, dev), ==, 0, "guard installed");
	sigaction(SIGUSR1, NULL, &sa);
	ok(sa.sa_handler == caller_handler, "the caller's SIGUSR1 handler stays");
	sigaction(SIGPIPE, NULL, &sa);
	ok(sa.sa_handler == SIG_IGN, "an ignored SIGPIPE stays ignored");
	sigaction(SIGUSR2, NULL, &sa);
	ok(sa.sa_handler != SIG_DFL && (sa.sa_flags & SA_ONSTACK), "SIGUSR2 at its default: guarded, on the alternate stack");
	journal_save_reg(j, 0, IA32_PERF_GLOBAL_CTRL, 0x70000000full);
	msr_write(dev, 0, IA32_PERF_GLOBAL_CTRL, 0x1000f0000000full);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		fault(SIGSEGV);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check_killed(status, SIGSEGV, "forked child of the owner");
	ok(strstr(get_file(state), "0 0x38f 0x1000f0000000f\n") != NULL,
	   "the child's fault left the owner's registers alone");
	ok(exists(journal_file(getpid())), "and the owner's journal");
	check_int(journal_restore(j, dev), ==, 0, "owner restores");
	check_int(journal_end(j), ==, 0, "owner ends");
	check_str(get_file(state), state_text, "state file back");
	sigaction(SIGSEGV, NULL, &sa);
	ok(sa.sa_handler == before.sa_handler, "journal_end put SIGSEGV's previous action back");
	sigaction(SIGUSR2, NULL, &sa);
	ok(sa.sa_handler == SIG_DFL, "and SIGUSR2's default");
	signal(SIGUSR1, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	msr_close(dev);
}

/* ------------------------------------------------------------ liveness */

static void test_alive(void)
{
	struct journal *j = NULL;
	struct journal_info info[8], who;
	char text[PATH_MAX + 512];
	pid_t sleeper, zombie, dead;
	int status, n;

	fixtures();
	/* A killed run that held CPUs 0 and 1. */
	status = run_child(SIGKILL, 0, &dead);
	check_killed(status, SIGKILL, "stale run");
	/* A live process, journaled by hand with its true and a wrong starttime. */
	fflush(stdout);
	sleeper = fork();
	if (sleeper == 0) {
		for (;;)
			pause();
	}
	zombie = fork();
	if (zombie == 0)
		_exit(0);
	/* Wait until the zombie has exited (state Z, not reaped). */
	for (int i = 0; i < 5000 && !is_zombie(zombie); i++)
		usleep(1000);
	snprintf(text, sizeof(text), "# baretma journal v2\npid %ld\nstarttime %llu\ntime 1\ncmd sleeper\n"
		 "backend %s\nkind run\nuser_only 0\nreg 5 0x38f 0x0\n", (long)sleeper,
		 starttime_of(sleeper), spec);
	put_journal(journal_name(sleeper), text);
	snprintf(text, sizeof(text), "# baretma journal v2\npid %ld\nstarttime 1\ntime 1\ncmd zombie\n"
		 "backend %s\nkind enable\nuser_only 0\nreg 6 0x38f 0x0\n", (long)zombie, spec);
	put_journal(journal_name(zombie), text);
	journal_begin(&j, "self", spec, JOURNAL_RUN, false);
	journal_save_reg(j, 7, IA32_PERF_GLOBAL_CTRL, 0);

	n = journal_list(info, 8);
	check_int(n, ==, 4, "four journals listed");
	for (int i = 0; i < n; i++) {
		bool want = info[i].pid == sleeper || info[i].pid == getpid();

		ok(info[i].error == 0 && info[i].alive == want, "pid %ld: alive %d (want %d)",
		   (long)info[i].pid, info[i].alive, want);
		if (i > 0)
			ok(info[i - 1].pid < info[i].pid, "ascending pid order");
	}
	journal_info_free(info, n > 0 ? n : 0);
	check_int(journal_list(info, 3), ==, -ERANGE, "more journals than room: -ERANGE");

	/* Same pid, other starttime: a reused PID, not the journal's process. */
	snprintf(text, sizeof(text), "# baretma journal v2\npid %ld\nstarttime %llu\ntime 1\ncmd sleeper\n"
		 "backend %s\nkind run\nuser_only 0\nreg 5 0x38f 0x0\n", (long)sleeper,
		 starttime_of(sleeper) + 1, spec);
	put_journal(journal_name(sleeper), text);
	check_int(journal_find_cpu(5, &who), ==, 1, "find_cpu(5): the sleeper's journal");
	ok(who.pid == sleeper && !who.alive, "starttime differs: a reused PID is not alive");
	journal_info_free(&who, 1);
	check_int(journal_find_cpu(1, &who), ==, 1, "find_cpu(1): the stale run");
	ok(who.pid == dead && !who.alive && who.data.kind == JOURNAL_RUN, "names the dead pid, not alive");
	journal_info_free(&who, 1);
	check_int(journal_find_cpu(6, &who), ==, 1, "find_cpu(6): the enable journal");
	ok(who.pid == zombie && !who.alive && who.data.kind == JOURNAL_ENABLE, "a zombie is not alive");
	journal_info_free(&who, 1);
	check_int(journal_find_cpu(7, &who), ==, 0, "find_cpu(7): our own journal does not count");
	check_int(journal_find_cpu(2, &who), ==, 0, "find_cpu(2): nobody");
	put_journal("run-999999.journal", "# baretma journal v2\npid 999999\n");
	check_int(journal_find_cpu(2, &who), ==, -EINVAL, "a malformed journal: -EINVAL");
	ok(strstr(who.path, "run-999999.journal") && strncmp(who.detail, "line 3: ", 8) == 0,
	   "names it: %s: %s", who.path, who.detail);
	journal_info_free(&who, 1);

	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
	waitpid(zombie, NULL, 0);
	journal_end(j);
	t_rm_rf(statedir);
}

/* --------------------------------------------------------------- parser */

static const char good[] =
	"# baretma journal v2\n"        /* 1 */
	"pid 4242\n"                    /* 2 */
	"starttime 12345\n"             /* 3 */
	"time 1700000000\n"             /* 4 */
	"cmd baretma bench --backend msr\n" /* 5 */
	"backend /dev/cpu/%u/msr\n"     /* 6 */
	"kind run\n"                    /* 7 */
	"user_only 1\n"                 /* 8 */
	"reg 0 0x38f 0x70000000f\n"     /* 9 */
	"reg 2 0x38d 0x333\n"           /* 10 */
	"setting /proc/sys/kernel/nmi_watchdog 1\n"; /* 11 */

static void bad(const char *text, const char *want, const char *name)
{
	const char *path = t_in(base, "parse.journal");
	struct journal_data d;
	FILE *f = fopen(path, "w");

	fwrite(text, 1, strlen(text), f);
	fclose(f);
	chmod(path, 0600);
	check_int(journal_load(path, &d), ==, -EINVAL, name);
	ok(strncmp(journal_last_error(), want, strlen(want)) == 0, "%s: detail '%s'", name,
	   journal_last_error());
}

static void test_parser(void)
{
	const char *path = t_in(base, "parse.journal");
	struct journal_data d;
	char huge[9100], want[PATH_MAX];

	put_file(path, good);
	chmod(path, 0600);
	check_int(journal_load(path, &d), ==, 0, "the good journal loads");
	t_path(want, "%s%s", root, NMI_PATH);
	ok(d.pid == 4242 && d.starttime == 12345 && d.time == 1700000000 && d.kind == JOURNAL_RUN &&
	   d.user_only, "header fields");
	check_str(d.cmd, "baretma bench --backend msr", "cmd");
	check_str(d.backend, "/dev/cpu/%u/msr", "backend");
	ok(d.nregs == 2 && d.regs[0].cpu == 0 && d.regs[0].msr == 0x38f && d.regs[0].saved == 0x70000000full &&
	   d.regs[1].cpu == 2 && d.regs[1].msr == 0x38d && d.regs[1].saved == 0x333, "regs");
	ok(d.ncpus == 2 && d.cpus[0] == 0 && d.cpus[1] == 2, "cpus 0 2");
	ok(d.nsettings == 1 && !strcmp(d.settings[0].path, NMI_PATH) && !strcmp(d.settings[0].value, "1") &&
	   !strcmp(d.settings[0].full, want), "setting, full path under the sysroot");
	journal_data_free(&d);

	bad(t_edit(good, "v2\n", "v1\n"), "line 1: ", "bad magic");
	bad("", "line 1: ", "empty file");
	bad(t_edit(good, "pid 4242\n", ""), "line 2: missing 'pid'", "missing pid");
	bad(t_edit(good, "pid 4242\n", "pid 0\n"), "line 2: pid", "pid 0");
	bad(t_edit(good, "pid 4242\n", "pid 04242\n"), "line 2: pid", "pid with a leading zero");
	bad(t_edit(good, "starttime 12345\n", "starttime 12345\npid 4242\n"), "line 4: duplicate 'pid' (first at line 2)",
	    "duplicate key");
	bad(t_edit(good, "reg 2 0x38d", "foo 2 0x38d"), "line 10: unknown key 'foo'", "unknown key");
	bad(t_edit(good, "0x70000000f", "0x7000g000f"), "line 9: reg: bad hex value", "bad hex digit");
	bad(t_edit(good, "0x38f", "0x38F"), "line 9: reg: bad hex MSR", "upper-case hex");
	bad(t_edit(good, "0x38f", "0x038f"), "line 9: reg: bad hex MSR", "hex with a leading zero");
	bad(t_edit(good, "0x70000000f", "0x170000000000000000"), "line 9: reg: bad hex value", "hex over 64 bits");
	bad(t_edit(good, "reg 0 ", "reg 8192 "), "line 9: reg: CPU", "CPU out of range");
	bad(t_edit(good, "reg 2 0x38d 0x333\n", "reg 0 0x38f 0x1\n"), "line 10: duplicate reg cpu 0 msr 0x38f (first at line 9)",
	    "duplicate register");
	bad(t_edit(good, "nmi_watchdog 1\n", "nmi_watchdog 1"), "line 11: truncated", "truncated last line");
	bad(t_edit(good, "reg 2 0x38d 0x333\nsetting /proc/sys/kernel/nmi_watchdog 1\n", "reg 2 0x3"),
	    "line 10: truncated", "file cut inside a line");
	memset(huge, 'x', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	bad(t_edit(good, "cmd baretma bench --backend msr", huge), "line 5: longer than 8192 bytes", "huge line");
	bad(t_edit(good, "kind run", "kind walk"), "line 7: kind must be 'run', 'enable' or 'write'",
	    "bad kind");
	bad(t_edit(good, "kind run", "kind Write"), "line 7: kind must be", "kind is case-sensitive");
	bad(t_edit(good, "kind run", "kind write "), "line 7: ", "kind with a trailing space");
	bad(t_edit(good, "kind run", "kind writes"), "line 7: kind must be", "a longer word is no kind");
	bad(t_edit(good, "user_only 1\n", "user_only 1 \n"), "line 8: user_only", "trailing space");
	bad(t_edit(good, "kind run\n", ""), "line 7: missing 'kind' before 'user_only'", "header out of order");
	bad(t_edit(good, "user_only 1\n", "user_only 1\nkind run\n"), "line 9: duplicate 'kind' (first at line 7)",
	    "header key after the header");
	put_file(path, t_edit(good, "reg 0 0x38f 0x70000000f\nreg 2 0x38d 0x333\n"
			    "setting /proc/sys/kernel/nmi_watchdog 1\n", ""));
	check_int(journal_load(path, &d), ==, 0, "a header without registers is valid");
	ok(d.nregs == 0 && d.ncpus == 0 && d.nsettings == 0, "and holds nothing");
	journal_data_free(&d);
}

/* @text loads; its first register is returned in *@r. */
static bool loads(const char *text, struct journal_reg *r, const char *name)
{
	const char *path = t_in(base, "parse.journal");
	struct journal_data d;
	int rc;

	put_file(path, text);
	chmod(path, 0600);
	rc = journal_load(path, &d);
	check_int(rc, ==, 0, name);
	if (rc)
		printf("#   %s\n", journal_last_error());
	else if (r && d.nregs)
		*r = d.regs[0];
	journal_data_free(&d);
	return rc == 0;
}

/*
 * Issue 9 point 4: a journal holds only what baretma changes (msr/journal.h
 * "What a journal may hold").  The registers: run and enable journals the
 * four pmu_program() saves (msr/pmu.c; IA32_MISC_ENABLE is 0x1a0, SDM Vol.
 * 4); write journals the architectural PMU registers (pmu-reference §1.1:
 * IA32_PERFEVTSEL0-7 0x186-0x18d, IA32_PMC0-7 0xc1-0xc8, IA32_FIXED_CTR0-6
 * 0x309-0x30f) or any register marked unsafe-msr.  The settings: the files
 * of msr/settings.h with the values the kernel prints there.
 */
static void test_parser_trust(void)
{
	struct journal_reg r = { 0 };
	char wr[sizeof(good)];
	struct journal *j = NULL;
	struct journal_data d;

	/* t_edit()'s buffers are reused: a copy */
	snprintf(wr, sizeof(wr), "%s", t_edit(t_edit(good, "kind run", "kind write"),
					   "setting /proc/sys/kernel/nmi_watchdog 1\n", ""));
	/* settings */
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/proc/sys/kernel/core_pattern |/tmp/evil%20%25p"),
	    "line 11: setting: path '/proc/sys/kernel/core_pattern' is not a file baretma changes",
	    "core_pattern setting");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/kernel/mm/transparent_hugepage/enabled never"),
	    "line 11: setting: path '/sys/kernel/mm/transparent_hugepage/enabled' is not a file",
	    "a sysfs file baretma does not change");
	bad(t_edit(good, "nmi_watchdog 1", "nmi_watchdog 5"),
	    "line 11: setting: value '5' of '/proc/sys/kernel/nmi_watchdog' is not one nmi_watchdog "
	    "takes (0 or 1)", "nmi_watchdog 5");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/bus/event_source/devices/cpu_atom/rdpmc 3"),
	    "line 11: setting: value '3' of '/sys/bus/event_source/devices/cpu_atom/rdpmc' is not one "
	    "rdpmc takes (0, 1 or 2)", "rdpmc 3");
	loads(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/module/msr/parameters/allow_writes default"),
	      NULL, "allow_writes default loads");
	loads(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/bus/event_source/devices/cpu_core/rdpmc 2"),
	      NULL, "cpu_core rdpmc 2 loads");

	/* run and enable journals: the four registers of pmu_program() */
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x1a0 0xdeadbeef"),
	    "line 10: reg: MSR 0x1a0 is not a register a journal of kind run holds", "run journal, 0x1a0");
	bad(t_edit(t_edit(good, "kind run", "kind enable"), "reg 2 0x38d 0x333", "reg 2 0x391 0x0"),
	    "line 10: reg: IA32_PERF_GLOBAL_STATUS_SET (0x391) is not a register a journal of kind "
	    "enable holds", "enable journal, GLOBAL_STATUS_SET (write-1-to-set: nothing to save)");
	/* gp_program()'s registers (msr/pmu_gp.h): the event selects and
	 * counters, Intel's architectural ranges (0x186-0x18d, 0xc1-0xc8,
	 * 0x4c1-0x4c8, FC4-6 0x30d-0x30f) and AMD PerfMonV2's (PERF_CTL5
	 * 0xc001020a, PERF_CTR5 0xc001020b, PERF_CNTR_GLOBAL_CTL 0xc0000301:
	 * linux msr-index.h MSR_F15H_PERF_CTL5/CTR5, MSR_AMD64_PERF_CNTR_GLOBAL_CTL) */
	loads(t_edit(t_edit(good, "kind run", "kind enable"), "reg 2 0x38d 0x333", "reg 2 0x186 0x0"),
	      NULL, "enable journal: IA32_PERFEVTSEL0 loads (gp_program saves it)");
	loads(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x4c8 0x0\nreg 2 0x30f 0x0\nreg 2 0xc1 0x5"),
	      NULL, "run journal: IA32_A_PMC7, IA32_FIXED_CTR6, IA32_PMC0 load");
	loads(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0xc0000301 0x3f\nreg 2 0xc001020a 0x0\n"
		     "reg 2 0xc001020b 0x0"), NULL, "run journal: AMD GLOBAL_CTL, PERF_CTL5, PERF_CTR5 load");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x18e 0x0"),
	    "line 10: reg: MSR 0x18e is not a register a journal of kind run holds",
	    "run journal, 0x18e (no IA32_PERFEVTSEL8)");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0xc001020c 0x0"),
	    "line 10: reg: MSR 0xc001020c is not a register a journal of kind run holds",
	    "run journal, 0xc001020c (no seventh AMD core counter)");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0xc0000302 0x1"),
	    "line 10: reg: PERF_CNTR_GLOBAL_STATUS_CLR (0xc0000302) is not a register a journal of "
	    "kind run holds", "run journal, AMD STATUS_CLR (write-1-to-clear)");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x38d 0x333 unsafe-msr"),
	    "line 10: reg: 'unsafe-msr' in a journal of kind run", "run journal, the unsafe-msr mark");
	loads(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x30c 0x0\nreg 2 0x329 0x1"), NULL,
	      "run journal: FIXED_CTR3 and PERF_METRICS load");

	/* write journals: the write policy's registers, or marked */
	loads(wr, NULL, "write journal, GLOBAL_CTRL and FIXED_CTR_CTRL");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0xdeadbeef"),
	    "line 10: reg: MSR 0x1a0 is outside the write policy and not marked 'unsafe-msr'",
	    "write journal, 0x1a0 unmarked");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x18e 0x0"),
	    "line 10: reg: MSR 0x18e is outside the write policy", "write journal, 0x18e (no PERFEVTSEL8)");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0xc9 0x0"),
	    "line 10: reg: MSR 0xc9 is outside the write policy", "write journal, 0xc9 (no PMC8)");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x38e 0x0"),
	    "line 10: reg: IA32_PERF_GLOBAL_STATUS (0x38e) is outside the write policy",
	    "write journal, read-only GLOBAL_STATUS");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x18d 0x0"), &r,
	      "write journal, IA32_PERFEVTSEL7 loads");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x30f 0x0"), &r,
	      "write journal, IA32_FIXED_CTR6 loads");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x4c8 0x0"), &r,
	      "write journal, IA32_A_PMC7 loads");
	ok(!r.unsafe, "unmarked");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x1a0 0x850089 unsafe-msr"), &r,
	      "write journal, 0x1a0 marked unsafe-msr loads");
	ok(r.cpu == 0 && r.msr == 0x1a0 && r.saved == 0x850089 && r.unsafe, "and is marked");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1 unsafe"),
	    "line 10: reg: after the value, only ' unsafe-msr'", "a mark that is not 'unsafe-msr'");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1 unsafe-msr "),
	    "line 10: reg: after the value", "the mark and a trailing space");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1  unsafe-msr"),
	    "line 10: reg: after the value", "two spaces before the mark");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1 UNSAFE-MSR"),
	    "line 10: reg: after the value", "the mark is case-sensitive");

	/* the writer keeps the same rules, and marks what it is told to */
	fixtures();
	check_int(journal_begin(&j, "r", spec, JOURNAL_RUN, false), ==, 0, "begin run");
	check_int(journal_save_reg(j, 0, 0x1a0, 0x850089), ==, -EINVAL,
		  "run journal: saving 0x1a0 is -EINVAL");
	check_int(journal_save_regs(j, &(struct journal_reg){ .msr = IA32_FIXED_CTR3, .unsafe = true }, 1),
		  ==, -EINVAL, "run journal: a marked register is -EINVAL");
	ok(strstr(get_file(journal_file(getpid())), "\nreg ") == NULL, "run journal: nothing saved");
	journal_end(j);
	check_int(journal_begin(&j, "w", spec, JOURNAL_MSR_WRITE, false), ==, 0, "begin write");
	check_int(journal_save_reg(j, 0, 0x1a0, 0x850089), ==, -EINVAL,
		  "write journal: 0x1a0 unmarked is -EINVAL");
	check_int(journal_save_regs(j, &(struct journal_reg){ .msr = 0x1a0, .saved = 0x850089, .unsafe = true }, 1), ==, 0,
		  "write journal: 0x1a0 marked is saved");
	ok(strstr(get_file(journal_file(getpid())), "\nreg 0 0x1a0 0x850089 unsafe-msr\n") != NULL,
	   "written as 'reg 0 0x1a0 0x850089 unsafe-msr'");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "and loads back");
	ok(d.nregs == 1 && d.regs[0].unsafe && journal_data_unsafe(&d) == 1, "marked, counted");
	journal_data_free(&d);
	journal_detach(j);
	journal_remove(getpid());
}

static void test_parser_more(void)
{
	const char *path = t_in(base, "parse.journal");
	const char *nul_text = "# baretma journal v2\npid 4\0 2\n";
	struct journal_data d;
	FILE *f;

	bad(t_edit(good, "nmi_watchdog 1", "nmi_watchdog%2 1"), "line 11: setting: bad percent", "cut escape");
	bad(t_edit(good, "nmi_watchdog 1", "nmi_watchdog %41"), "line 11: setting: bad percent",
	    "escape of a byte that needs none");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog", "/etc/passwd"), "line 11: setting: path", "path outside");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog", "/sys/%2E%2E/etc"), "line 11: setting: bad percent",
	    "'..' smuggled as an escape");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog", "/sys/../etc"), "line 11: setting: path", "'..' component");
	bad(t_edit(good, "nmi_watchdog 1\n", "nmi_watchdog 1\nsetting /proc/sys/kernel/nmi_watchdog 0\n"),
	    "line 12: duplicate setting", "duplicate setting");
	f = fopen(path, "w");
	fwrite(nul_text, 1, 30, f);
	fclose(f);
	check_int(journal_load(path, &d), ==, -EINVAL, "NUL byte: -EINVAL");
	ok(strncmp(journal_last_error(), "line 2: NUL", 11) == 0, "NUL byte: %s", journal_last_error());
	put_file(path, good);
	chmod(path, 0620);
	check_int(journal_load(path, &d), ==, -EPERM, "group-writable journal file: -EPERM");
	chmod(path, 0600);
	symlink(path, t_in(base, "link.journal"));
	check_int(journal_load(t_in(base, "link.journal"), &d), ==, -EPERM, "journal through a symlink: -EPERM");
	check_int(journal_load(t_in(base, "missing.journal"), &d), ==, -ENOENT, "missing journal: -ENOENT");
}

/* ------------------------------------------------------------ state dir */

static int begin_rc(void)
{
	struct journal *j = NULL;
	int rc = journal_begin(&j, "x", spec, JOURNAL_RUN, false);

	if (!rc)
		journal_end(j);
	return rc;
}

static void test_state_dir(void)
{
	char keep[PATH_MAX];
	struct journal_info info[1];
	struct stat st;

	t_path(keep, "%s", statedir);
	t_path(statedir, "%s/new", base);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	check_int(journal_list(info, 1), ==, 0, "no state dir: no journals");
	check_int(begin_rc(), ==, 0, "missing state dir is created");
	ok(stat(statedir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700,
	   "created mode 0700");

	mkdir(t_in(base, "real"), 0700);
	symlink(t_in(base, "real"), t_in(base, "link"));
	setenv("BARETMA_STATE_DIR", t_in(base, "link"), 1);
	check_int(begin_rc(), ==, -ELOOP, "state dir is a symlink: -ELOOP");
	check_int(journal_list(info, 1), ==, -ELOOP, "journal_list too");

	mkdir(t_in(base, "gw"), 0700);
	chmod(t_in(base, "gw"), 0770);
	setenv("BARETMA_STATE_DIR", t_in(base, "gw"), 1);
	check_int(begin_rc(), ==, -EPERM, "group-writable state dir: -EPERM");
	chmod(t_in(base, "gw"), 0702);
	check_int(begin_rc(), ==, -EPERM, "other-writable state dir: -EPERM");

	put_file(t_in(base, "afile"), "");
	setenv("BARETMA_STATE_DIR", t_in(base, "afile"), 1);
	check_int(begin_rc(), ==, -ENOTDIR, "a regular file in its place: -ENOTDIR");

	mkdir(t_in(base, "other"), 0700);
	if (geteuid() == 0) {
		chown(t_in(base, "other"), 65534, 65534);
		setenv("BARETMA_STATE_DIR", t_in(base, "other"), 1);
		check_int(begin_rc(), ==, -EPERM, "owned by another user: -EPERM");
	} else {
		skip(1, "owner check needs root to chown");
	}

	mkdir(t_in(base, "ro"), 0700);
	chmod(t_in(base, "ro"), 0500);
	setenv("BARETMA_STATE_DIR", t_in(base, "ro"), 1);
	if (geteuid() != 0) {
		check_int(begin_rc(), ==, -EACCES, "unwritable state dir: -EACCES");
	} else {
		/* Root writes anyway: check as an unprivileged owner instead. */
		int status = 0;
		pid_t pid;

		chmod(base, 0755);
		chown(t_in(base, "ro"), 65534, 65534);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			if (setgid(65534) || setuid(65534))
				_exit(100);
			_exit(begin_rc() == -EACCES ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "unwritable state dir (uid 65534, mode 0500): -EACCES");
	}
	t_path(statedir, "%s", keep);
	setenv("BARETMA_STATE_DIR", statedir, 1);
}

/* A parent of the state directory that others can change: -EPERM before
 * anything is created, state_dir_refused naming it (msr/state_dir.h). */
static void test_state_dir_parents(void)
{
	char keep[PATH_MAX], dir[PATH_MAX];
	struct state_dir_refusal r;
	struct journal_info info[1];
	struct stat st;

	t_path(keep, "%s", statedir);
	t_path(dir, "%s/p777", base);
	mkdir(dir, 0777);
	chmod(dir, 0777);
	t_path(statedir, "%s/p777/run", base);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	check_int(begin_rc(), ==, -EPERM, "parent mode 0777: journal_begin -EPERM");
	ok(stat(statedir, &st) != 0, "  the state directory was not created");
	check_int(journal_list(info, 1), ==, -EPERM, "  journal_list -EPERM (not 'no journals')");
	check_int(state_dir_refused(&r), ==, 0, "  state_dir_refused says what");
	check_int(r.why, ==, STATE_DIR_WRITABLE, "  writable");
	ok(!r.last, "  a directory on the way, not the state directory");
	check_str(r.path, dir, "  the parent's path");
	check_int((int)r.mode, ==, 0777, "  its mode");

	chmod(dir, 0757);
	check_int(begin_rc(), ==, -EPERM, "parent mode 0757 (others write): -EPERM");
	chmod(dir, 0775);
	check_int(begin_rc(), ==, -EPERM, "parent mode 0775 (group writes): -EPERM");
	chmod(dir, 01777);
	check_int(begin_rc(), ==, 0, "parent mode 1777 (sticky, as /tmp): accepted");
	chmod(dir, 01770);
	check_int(begin_rc(), ==, 0, "parent mode 1770 (sticky, group-writable): accepted");
	chmod(dir, 0555);
	check_int(begin_rc(), ==, 0, "parent mode 0555 (no one writes; the state dir exists): accepted");
	chmod(dir, 0755);
	check_int(state_dir_refused(&r), ==, -ENOENT, "a path of safe directories: nothing refused");

	/* The grandparent counts as much as the parent. */
	t_path(statedir, "%s/p777/a/b/run", base);
	t_mkdir_p(t_in(base, "p777/a/b"));
	chmod(t_in(base, "p777/a/b"), 0755);
	chmod(dir, 0777);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	check_int(begin_rc(), ==, -EPERM, "a grandparent mode 0777: -EPERM");
	ok(!state_dir_refused(&r) && !strcmp(r.path, dir), "  it is the one named (%s)", r.path);
	chmod(dir, 0755);

	if (geteuid() == 0) {
		chown(dir, 4242, 4242);
		check_int(begin_rc(), ==, -EPERM, "a grandparent of uid 4242 (mode 0755): -EPERM");
		ok(!state_dir_refused(&r) && r.why == STATE_DIR_OWNER && r.uid == 4242 &&
		   !strcmp(r.path, dir), "  refused for its owner, uid %u, at %s", r.uid, r.path);
		chmod(dir, 01777);
		check_int(begin_rc(), ==, -EPERM, "  sticky does not help when it is theirs");
		chown(dir, 0, 0);
		chmod(dir, 0755);
	} else {
		skip(3, "not root: cannot give a directory to another user");
	}
	t_path(statedir, "%s", keep);
	setenv("BARETMA_STATE_DIR", statedir, 1);
}

int main(void)
{
	t_scratch(base, "0340");
	t_path(statedir, "%s/state", base);
	t_path(root, "%s/root", base);
	t_path(state, "%s/msr.state", base);
	t_path(trace, "%s/trace", base);
	t_path(spec, "state:%s", state);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	setenv("BARETMA_SYSROOT", root, 1);
	setenv("BARETMA_MSR_TRACE", trace, 1);

	test_save_restore_end();
	test_global_ctrl_alone();
	test_end_unrestored_and_detach();
	test_settings_in_journal();
	test_sigkill();
	test_guard_signals();
	test_guard_forked_child();
	test_alive();
	test_parser();
	test_parser_more();
	test_parser_trust();
	test_state_dir();
	test_state_dir_parents();
	t_rm_rf(base);
	return done_testing();
}
