/*
 * t/0341-journal-kill.c - the run journal (msr/journal/journal.h) of a process
 * that dies: SIGKILL recovery from the file, the signal guard for
 * terminal and fault signals (real faults, a stack overflow), a forked
 * child of the guarded process, and the liveness of a journal's process
 * (pid and start time).  Split from t/0340.
 *
 * Expected values are the bytes written into the fixtures (t/journal-fixture.h),
 * the format in msr/journal/journal.h written out by hand, and the kernel's own
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

#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/journal/state_dir.h"
#include "t/fixture.h"
#include "t/journal-fixture.h"

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

int main(void)
{
	t_journal_fixture("0341");
	test_sigkill();
	test_guard_signals();
	test_guard_forked_child();
	test_alive();
	t_rm_rf(base);
	return done_testing();
}
