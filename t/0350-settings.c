/*
 * t/0350-settings.c - system settings changed with consent (msr/guard/settings.h):
 * journaled before the write, put back byte for byte by journal_restore,
 * hybrid rdpmc files, missing files named.
 *
 * The fake sysroot holds the first lines the kernel prints (rdpmc "1",
 * nmi_watchdog "1", msr allow_writes "off"); every expected byte is one
 * written into those fixtures here.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/guard/guard.h"
#include "msr/journal/journal.h"
#include "msr/guard/settings.h"
#include "msr/open/msr_open.h"
#include "t/fixture.h"

#define RDPMC_CPU   "/sys/bus/event_source/devices/cpu/rdpmc"
#define RDPMC_CORE  "/sys/bus/event_source/devices/cpu_core/rdpmc"
#define RDPMC_ATOM  "/sys/bus/event_source/devices/cpu_atom/rdpmc"
#define NMI         "/proc/sys/kernel/nmi_watchdog"
#define ALLOW       "/sys/module/msr/parameters/allow_writes"

static char base[PATH_MAX], root[PATH_MAX], statedir[PATH_MAX], state[PATH_MAX], spec[PATH_MAX];

static void fixtures(void)
{
	t_rm_rf(root);
	t_rm_rf(statedir);
	t_put_tree(t_in(root, RDPMC_CPU), "1\n");
	t_put_tree(t_in(root, NMI), "1\n");
	t_put_tree(t_in(root, ALLOW), "off\n");
}

static const char *journal_text(struct journal *j)
{
	return get_file(journal_path(j));
}

static void test_read(void)
{
	const char *files[SETTING_MAX_FILES];
	char v[64], where[PATH_MAX];

	fixtures();
	check_str(setting_name(SETTING_RDPMC), "rdpmc", "name rdpmc");
	check_str(setting_name(SETTING_NMI_WATCHDOG), "nmi_watchdog", "name nmi_watchdog");
	check_str(setting_name(SETTING_MSR_ALLOW_WRITES), "msr_allow_writes", "name msr_allow_writes");
	check_int(setting_files(SETTING_RDPMC, files), ==, 1, "one rdpmc file (not hybrid)");
	check_str(files[0], RDPMC_CPU, "it is cpu/rdpmc");
	check_int(setting_read(SETTING_RDPMC, v, sizeof(v), where, sizeof(where)), ==, 0, "read rdpmc");
	check_str(v, "1", "rdpmc is 1");
	check_str(where, t_in(root, RDPMC_CPU), "read from under the sysroot");
	check_int(setting_read(SETTING_MSR_ALLOW_WRITES, v, sizeof(v), NULL, 0), ==, 0, "read allow_writes");
	check_str(v, "off", "allow_writes is off");
	check_int(setting_read((enum setting)7, v, sizeof(v), NULL, 0), ==, -EINVAL, "unknown setting: -EINVAL");
}

static void test_change_restore(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev = NULL;
	char where[PATH_MAX], before[4096];

	fixtures();
	check_int(msr_open(spec, &dev), ==, 0, "msr_open (state file, no register)");
	check_int(journal_begin(&j, "settings test", spec, JOURNAL_RUN, false), ==, 0, "journal_begin");
	check_int(setting_change(j, SETTING_RDPMC, SETTING_RDPMC_ALWAYS, where, sizeof(where), NULL), ==, 0,
		  "rdpmc -> 2");
	check_str(get_file(t_in(root, RDPMC_CPU)), "2\n", "rdpmc file now 2");
	ok(strstr(journal_text(j), "\nsetting " RDPMC_CPU " 1\n") != NULL, "journal holds rdpmc's old 1");
	check_int(setting_change(j, SETTING_NMI_WATCHDOG, SETTING_NMI_WATCHDOG_OFF, where, sizeof(where), NULL), ==, 0,
		  "nmi_watchdog -> 0");
	check_str(get_file(t_in(root, NMI)), "0\n", "nmi_watchdog file now 0");
	check_int(setting_change(j, SETTING_MSR_ALLOW_WRITES, SETTING_ALLOW_WRITES_ON, where, sizeof(where), NULL), ==, 0,
		  "allow_writes -> on");
	check_str(get_file(t_in(root, ALLOW)), "on\n", "allow_writes file now on (shorter: truncated)");
	ok(strstr(journal_text(j), "\nsetting " ALLOW " off\n") != NULL, "journal holds allow_writes' old off");

	snprintf(before, sizeof(before), "%s", journal_text(j));
	check_int(setting_change(j, SETTING_NMI_WATCHDOG, "0", NULL, 0, NULL), ==, 0, "nmi_watchdog already 0: no-op");
	check_str(journal_text(j), before, "no-op changes nothing in the journal");
	check_int(setting_change(j, SETTING_RDPMC, "0", NULL, 0, NULL), ==, 0, "rdpmc -> 0 (a second change)");
	check_str(journal_text(j), before, "the first saved value stays");
	check_int(setting_change(j, SETTING_RDPMC, "3", NULL, 0, NULL), ==, -EINVAL, "rdpmc 3: -EINVAL");
	check_int(setting_change(j, SETTING_MSR_ALLOW_WRITES, "yes", NULL, 0, NULL), ==, -EINVAL, "allow_writes yes: -EINVAL");
	check_str(get_file(t_in(root, RDPMC_CPU)), "0\n", "rejected value not written");

	check_int(journal_restore(j, dev), ==, 0, "journal_restore");
	check_str(get_file(t_in(root, RDPMC_CPU)), "1\n", "rdpmc back to the original bytes");
	check_str(get_file(t_in(root, NMI)), "1\n", "nmi_watchdog back to the original bytes");
	check_str(get_file(t_in(root, ALLOW)), "off\n", "allow_writes back to the original bytes");
	check_int(journal_end(j), ==, 0, "journal_end");
	msr_close(dev);
}

/* The journal write fails (file size limit): the setting must stay as it
 * was, proving the journal is written first. */
static void test_journal_first(void)
{
	int status = 0;
	pid_t pid;

	fixtures();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct journal *j = NULL;
		struct stat st;
		struct rlimit lim;

		signal(SIGXFSZ, SIG_IGN);
		if (journal_begin(&j, "journal first", spec, JOURNAL_RUN, false) ||
		    stat(journal_path(j), &st))
			_exit(90);
		/* Room for the header, not for the setting line; the 2-byte
		 * sysfs write would fit. */
		lim.rlim_cur = lim.rlim_max = (rlim_t)st.st_size + 8;
		if (setrlimit(RLIMIT_FSIZE, &lim))
			_exit(91);
		bool in_journal = false;
		int rc = setting_change(j, SETTING_RDPMC, "2", NULL, 0, &in_journal);

		_exit(rc != -EFBIG ? 1 : !in_journal ? 2 : 0);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "journal write fails: setting_change returns -EFBIG, the journal's (exit %d)",
	   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	check_str(get_file(t_in(root, RDPMC_CPU)), "1\n", "and rdpmc was not written");
	t_rm_rf(statedir);
}

/*
 * The same through the guard (msr/guard/guard.h, what bench --stop-nmi-watchdog
 * runs): the journal cannot record nmi_watchdog's value, as when the state
 * directory's file system is full.  The seam is the file size limit
 * (RLIMIT_FSIZE: write(2) fails with EFBIG, SIGXFSZ ignored), which a test
 * can set where it cannot fill a disk or mount a small tmpfs.  The message
 * must blame the state directory, with the cause write(2) gave, and say
 * the setting was left alone - before, it read "--stop-nmi-watchdog: cannot
 * set '.../nmi_watchdog' to 0: File too large".
 */
static void test_guard_journal_full(void)
{
	char msg[4096] = "", want[4096];
	int fds[2], status = 0;
	ssize_t got = 0;
	pid_t pid;

	fixtures();
	if (pipe(fds))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct guard_opts o = { .cmd = "t/0350", .backend = spec };
		struct msr_dev *dev = NULL;
		struct guard *g = NULL;
		struct rlimit lim;
		struct stat st;
		int rc;

		close(fds[0]);
		signal(SIGXFSZ, SIG_IGN);
		o.set.stop_nmi_watchdog = true;
		if (msr_open(spec, &dev) || guard_new(&g, &o) ||
		    guard_begin(g, dev, JOURNAL_RUN, false) ||
		    stat(journal_path(guard_journal(g)), &st))
			_exit(90);
		lim.rlim_cur = lim.rlim_max = (rlim_t)st.st_size + 8; /* not a setting line */
		if (setrlimit(RLIMIT_FSIZE, &lim))
			_exit(91);
		rc = guard_settings(g);
		if (write(fds[1], guard_message(g), strlen(guard_message(g))) < 0)
			_exit(92);
		_exit(rc != -EFBIG ? 1 : guard_class(g) != GUARD_CANTCREAT ? 2 : 0);
	}
	close(fds[1]);
	for (ssize_t r; (r = read(fds[0], msg + got, sizeof(msg) - 1 - (size_t)got)) > 0;)
		got += r;
	msg[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "journal full: guard_settings returns -EFBIG, GUARD_CANTCREAT (exit %d)",
	   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	t_path(want, "cannot save the value of '%s' (for --stop-nmi-watchdog) in the journal in "
	       "state dir '%s': File too large (baretma writes its locks and journals there "
	       "before any change: free space on its file system, raise the quota or the file "
	       "size limit, or set BARETMA_STATE_DIR to a directory with room); '%s' was not "
	       "changed",
	       t_in(root, NMI), statedir, t_in(root, NMI));
	check_str(msg, want, "the message names the state directory and the cause");
	check_str(get_file(t_in(root, NMI)), "1\n", "and nmi_watchdog was not written");
	t_rm_rf(statedir);
}

static void test_hybrid(void)
{
	const char *files[SETTING_MAX_FILES];
	struct journal *j = NULL;
	struct msr_dev *dev = NULL;

	fixtures();
	remove(t_in(root, RDPMC_CPU));
	t_put_tree(t_in(root, RDPMC_CORE), "1\n");
	t_put_tree(t_in(root, RDPMC_ATOM), "0\n");
	msr_open(spec, &dev);
	check_int(setting_files(SETTING_RDPMC, files), ==, 2, "hybrid: cpu_core and cpu_atom rdpmc");
	check_int(journal_begin(&j, "hybrid", spec, JOURNAL_RUN, false), ==, 0, "journal_begin");
	check_int(setting_change(j, SETTING_RDPMC, "2", NULL, 0, NULL), ==, 0, "rdpmc -> 2 on both");
	check_str(get_file(t_in(root, RDPMC_CORE)), "2\n", "cpu_core/rdpmc 2");
	check_str(get_file(t_in(root, RDPMC_ATOM)), "2\n", "cpu_atom/rdpmc 2");
	ok(strstr(journal_text(j), "setting " RDPMC_CORE " 1\nsetting " RDPMC_ATOM " 0\n") != NULL,
	   "both old values journaled");
	check_int(journal_restore(j, dev), ==, 0, "restore");
	check_str(get_file(t_in(root, RDPMC_CORE)), "1\n", "cpu_core/rdpmc back to 1");
	check_str(get_file(t_in(root, RDPMC_ATOM)), "0\n", "cpu_atom/rdpmc back to 0");
	journal_end(j);
	msr_close(dev);
}

static void test_missing(void)
{
	struct journal *j = NULL;
	char where[PATH_MAX], v[16];
	bool in_journal;

	fixtures();
	remove(t_in(root, NMI));
	journal_begin(&j, "missing", spec, JOURNAL_RUN, false);
	check_int(setting_change(j, SETTING_NMI_WATCHDOG, "0", where, sizeof(where), NULL), ==, -ENOENT,
		  "missing nmi_watchdog: -ENOENT");
	check_str(where, t_in(root, NMI), "names the missing file");
	check_int(setting_read(SETTING_NMI_WATCHDOG, v, sizeof(v), where, sizeof(where)), ==, -ENOENT,
		  "setting_read: -ENOENT");
	check_str(where, t_in(root, NMI), "names it too");
	remove(t_in(root, RDPMC_CPU));
	check_int(setting_change(j, SETTING_RDPMC, "2", where, sizeof(where), NULL), ==, -ENOENT, "no rdpmc file: -ENOENT");
	check_str(where, t_in(root, RDPMC_CPU), "names the first candidate");
	t_put_tree(t_in(root, ALLOW), "");
	in_journal = true;
	check_int(setting_change(j, SETTING_MSR_ALLOW_WRITES, "on", where, sizeof(where), &in_journal),
		  ==, -ENODATA, "empty allow_writes: -ENODATA");
	ok(!in_journal, "the file's error, not the journal's");
	check_str(get_file(t_in(root, ALLOW)), "", "empty file left alone");
	ok(strstr(journal_text(j), "setting") == NULL, "nothing journaled");
	check_int(journal_end(j), ==, 0, "end");
}

int main(void)
{
	t_scratch(base, "0350");
	t_path(root, "%s/root", base);
	t_path(statedir, "%s/state", base);
	t_path(state, "%s/msr.state", base);
	t_path(spec, "state:%s", state);
	put_file(state, "0 0x38f 0x0\n");
	setenv("BARETMA_SYSROOT", root, 1);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	unsetenv("BARETMA_MSR_TRACE");
	test_read();
	test_change_restore();
	test_journal_first();
	test_guard_journal_full();
	test_hybrid();
	test_missing();
	t_rm_rf(base);
	return done_testing();
}
