/*
 * t/0345-lock.c - per-CPU locks (msr/lock.h): all or nothing, who holds a
 * CPU, waiting for it, and no stale lock after SIGKILL.
 *
 * Expected holders are this program's own PID and command line (argv,
 * joined by spaces, as the kernel has it in /proc/PID/cmdline).
 */
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msr/lock.h"
#include "t/tap.h"

static char base[256], statedir[300], cmdline[1024];

static const char *lock_file(unsigned cpu)
{
	static char buf[400];

	snprintf(buf, sizeof(buf), "%s/cpu%u.lock", statedir, cpu);
	return buf;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In a child: can @cpu be taken right now?  0 yes, 1 -EBUSY, 2 other. */
static int probe(unsigned cpu)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct cpu_lock *l;
		int rc = cpu_lock_take(&cpu, 1, false, &l, NULL);

		_exit(rc == 0 ? 0 : rc == -EBUSY ? 1 : 2);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

/* A child that holds @cpu: says 'r' on @ready, waits for a byte on @go,
 * sleeps @delay_ms, releases and exits 0. */
static pid_t holder_child(unsigned cpu, int ready, int go, int delay_ms)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct cpu_lock *l;
		char c;

		if (cpu_lock_take(&cpu, 1, false, &l, NULL))
			_exit(90);
		if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
			_exit(91);
		usleep((useconds_t)delay_ms * 1000);
		cpu_lock_release(l);
		_exit(0);
	}
	return pid;
}

static void test_busy_then_wait(void)
{
	const unsigned want[] = { 3, 1 };
	struct lock_holder h = { 0 };
	struct cpu_lock *l = NULL;
	int rp[2], gp[2], status = 0;
	char c, text[1200];
	double t0, waited;
	pid_t child;

	if (pipe(rp) || pipe(gp))
		exit(1);
	child = holder_child(3, rp[1], gp[0], 300);
	if (read(rp[0], &c, 1) != 1)
		exit(1);
	snprintf(text, sizeof(text), "pid %ld cmd %s\n", (long)child, cmdline);
	check_str(get_file(lock_file(3)), text, "lock file names the holder: pid and cmd");
	check_int(cpu_lock_take(want, 2, false, &l, &h), ==, -EBUSY, "take {3,1} while the child holds 3: -EBUSY");
	check_int(h.cpu, ==, 3, "holder: cpu 3");
	check_int(h.pid, ==, child, "holder: the child's pid");
	check_str(h.cmd, cmdline, "holder: the child's command line");
	check_int(probe(1), ==, 0, "the failed take holds nothing: cpu 1 free");
	check_int(probe(3), ==, 1, "cpu 3 still taken by the child");

	t0 = now();
	if (write(gp[1], "g", 1) != 1)
		exit(1);
	check_int(cpu_lock_take(want, 2, true, &l, &h), ==, 0, "wait=true: taken once the child releases");
	waited = now() - t0;
	ok(waited >= 0.25, "waited for the child's release (%.3f s >= 0.25 s)", waited);
	waitpid(child, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child held and released cleanly");
	snprintf(text, sizeof(text), "pid %ld cmd %s\n", (long)getpid(), cmdline);
	check_str(get_file(lock_file(1)), text, "cpu1.lock names us");
	check_str(get_file(lock_file(3)), text, "cpu3.lock names us");
	check_int(probe(1), ==, 1, "cpu 1 taken by us");
	check_int(probe(3), ==, 1, "cpu 3 taken by us");
	cpu_lock_release(l);
	check_str(get_file(lock_file(3)), "", "released: lock file emptied");
	check_int(probe(1), ==, 0, "cpu 1 free after release");
	check_int(probe(3), ==, 0, "cpu 3 free after release");
	close(rp[0]);
	close(rp[1]);
	close(gp[0]);
	close(gp[1]);
}

static void test_sigkill(void)
{
	int rp[2], gp[2], status = 0;
	struct cpu_lock *l = NULL;
	unsigned cpu = 3;
	pid_t child;
	char c;

	if (pipe(rp) || pipe(gp))
		exit(1);
	child = holder_child(3, rp[1], gp[0], 0);
	if (read(rp[0], &c, 1) != 1)
		exit(1);
	check_int(probe(3), ==, 1, "cpu 3 held by the child");
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child killed with SIGKILL");
	check_int(cpu_lock_take(&cpu, 1, false, &l, NULL), ==, 0, "after SIGKILL the lock is free");
	cpu_lock_release(l);
	close(rp[0]);
	close(rp[1]);
	close(gp[0]);
	close(gp[1]);
}

static void test_args_and_dir(void)
{
	const unsigned dup[] = { 2, 2, 0 }, big = 0x100000;
	struct cpu_lock *l = NULL;
	char path[400];

	check_int(cpu_lock_take(dup, 0, false, &l, NULL), ==, -EINVAL, "no CPU: -EINVAL");
	check_int(cpu_lock_take(&big, 1, false, &l, NULL), ==, -EINVAL, "CPU 0x100000: -EINVAL");
	check_int(cpu_lock_take(dup, 3, false, &l, NULL), ==, 0, "duplicates are fine");
	check_int(probe(2), ==, 1, "cpu 2 taken");
	check_int(probe(0), ==, 1, "cpu 0 taken");
	cpu_lock_release(l);
	cpu_lock_release(NULL);

	snprintf(path, sizeof(path), "%s/elsewhere", base);
	put_file(path, "");
	symlink(path, lock_file(9));
	check_int(cpu_lock_take(&(unsigned){ 9 }, 1, false, &l, NULL), ==, -EPERM,
		  "a symlink planted as cpu9.lock: -EPERM");
	check_str(get_file(path), "", "and its target untouched");

	snprintf(path, sizeof(path), "%s/link", base);
	symlink(statedir, path);
	setenv("BARETMA_STATE_DIR", path, 1);
	check_int(cpu_lock_take(&(unsigned){ 1 }, 1, false, &l, NULL), ==, -ELOOP, "state dir a symlink: -ELOOP");
	setenv("BARETMA_STATE_DIR", statedir, 1);
}

int main(int argc, char **argv)
{
	const char *t = getenv("TMPDIR");

	for (int i = 0; i < argc; i++)
		snprintf(cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline), "%s%s",
			 i ? " " : "", argv[i]);
	snprintf(base, sizeof(base), "%s/baretma-0345.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(statedir, sizeof(statedir), "%s/state", base);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	test_busy_then_wait();
	test_sigkill();
	test_args_and_dir();
	nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return done_testing();
}
