/*
 * t/0345-lock.c - per-CPU locks (msr/guard/lock.h): all or nothing, who holds a
 * CPU, waiting for it, and no stale lock after SIGKILL.
 *
 * Expected holders are this program's own PID and command line (argv,
 * joined by spaces, as the kernel has it in /proc/PID/cmdline).  The
 * program re-executes itself with a short argv[0] first, so what it expects
 * never depends on the length of the build tree's path; holders with long
 * command lines are this program again (--hold) with argv chosen here.
 * Waiting is checked on conditions (the kernel's /proc/locks lists a
 * blocked flock), never on sleeps.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msr/guard/lock.h"
#include "t/fixture.h"

#define SELF "t0345"  /* argv[0] after the re-exec */

static char *base, *statedir, cmdline[LOCK_CMD_MAX];

static const char *lock_file(unsigned cpu)
{
	static char *buf;

	free(buf);
	buf = t_strf("%s/cpu%u.lock", statedir, cpu);
	return buf;
}

/* Does /proc/locks list @pid as blocked on a flock of the file @ino?
 * ("N: -> FLOCK  ADVISORY  WRITE PID MAJ:MIN:INODE 0 EOF", fs/locks.c
 * lock_get_status: "->" marks a waiter). */
static bool flock_waiter(pid_t pid, ino_t ino)
{
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/locks", "re");

	while (f && !found && fgets(line, sizeof(line), f)) {
		long p;
		unsigned long i;

		found = sscanf(line, "%*d: -> FLOCK %*s %*s %ld %*x:%*x:%lu", &p, &i) == 2 &&
			p == pid && i == ino;
	}
	if (f)
		fclose(f);
	return found;
}

/* Poll @cond every millisecond for up to 20 s: a bound for a wedged run,
 * not a timing the test depends on. */
static bool until(bool (*cond)(pid_t, ino_t), pid_t pid, ino_t ino)
{
	for (int i = 0; i < 20000; i++) {
		if (cond(pid, ino))
			return true;
		usleep(1000);
	}
	return false;
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
		int rc = cpu_lock_take(&cpu, 1, false, NULL, &l, NULL);

		_exit(rc == 0 ? 0 : rc == -EBUSY ? 1 : 2);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

/*
 * A child that holds @cpu: says 'r' on @ready, waits for a byte on @go;
 * then, if @waiter, waits until /proc/locks shows @waiter blocked on the
 * lock file; says 'x' on @released and releases.  Exits 0, or 92 when it
 * never saw @waiter blocked (it releases anyway).
 */
static pid_t holder_child(unsigned cpu, int ready, int go, pid_t waiter, int released)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct cpu_lock *l;
		struct stat st;
		bool seen = true;
		char c;

		if (cpu_lock_take(&cpu, 1, false, NULL, &l, NULL) || stat(lock_file(cpu), &st))
			_exit(90);
		if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
			_exit(91);
		if (waiter)
			seen = until(flock_waiter, waiter, st.st_ino);
		if (released >= 0 && write(released, "x", 1) != 1)
			_exit(91);
		cpu_lock_release(l);
		_exit(seen ? 0 : 92);
	}
	return pid;
}

static void test_busy_then_wait(void)
{
	const unsigned want[] = { 3, 1 };
	struct lock_holder h = { 0 };
	struct cpu_lock *l = NULL;
	int rp[2], gp[2], xp[2], status = 0;
	bool procfs = access("/proc/locks", R_OK) == 0;
	char c, *text;
	pid_t child;

	if (pipe(rp) || pipe(gp) || pipe(xp) || fcntl(xp[0], F_SETFL, O_NONBLOCK))
		exit(1);
	child = holder_child(3, rp[1], gp[0], procfs ? getpid() : 0, xp[1]);
	if (read(rp[0], &c, 1) != 1)
		exit(1);
	text = t_strf("pid %ld cmd %s\n", (long)child, cmdline);
	check_str(get_file(lock_file(3)), text, "lock file names the holder: pid and cmd");
	free(text);
	check_int(cpu_lock_take(want, 2, false, NULL, &l, &h), ==, -EBUSY, "take {3,1} while the child holds 3: -EBUSY");
	check_int(h.cpu, ==, 3, "holder: cpu 3");
	check_int(h.pid, ==, child, "holder: the child's pid");
	check_str(h.cmd, cmdline, "holder: the child's command line");
	check_int(probe(1), ==, 0, "the failed take holds nothing: cpu 1 free");
	check_int(probe(3), ==, 1, "cpu 3 still taken by the child");

	/* The child releases only once it has seen us blocked in flock on
	 * cpu3.lock, and says 'x' just before: we must find the 'x' waiting. */
	if (write(gp[1], "g", 1) != 1)
		exit(1);
	check_int(cpu_lock_take(want, 2, true, NULL, &l, &h), ==, 0, "wait=true: taken once the child releases");
	ok(read(xp[0], &c, 1) == 1 && c == 'x', "taken only after the child released");
	waitpid(child, &status, 0);
	if (procfs)
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "the child held, saw us blocked on cpu3.lock (/proc/locks), and released");
	else
		skip(1, "no /proc/locks: cannot see a blocked flock");
	text = t_strf("pid %ld cmd %s\n", (long)getpid(), cmdline);
	check_str(get_file(lock_file(1)), text, "cpu1.lock names us");
	check_str(get_file(lock_file(3)), text, "cpu3.lock names us");
	free(text);
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
	close(xp[0]);
	close(xp[1]);
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
	child = holder_child(3, rp[1], gp[0], 0, -1);
	if (read(rp[0], &c, 1) != 1)
		exit(1);
	check_int(probe(3), ==, 1, "cpu 3 held by the child");
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child killed with SIGKILL");
	check_int(cpu_lock_take(&cpu, 1, false, NULL, &l, NULL), ==, 0, "after SIGKILL the lock is free");
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
	char *path;

	check_int(cpu_lock_take(dup, 0, false, NULL, &l, NULL), ==, -EINVAL, "no CPU: -EINVAL");
	check_int(cpu_lock_take(&big, 1, false, NULL, &l, NULL), ==, -EINVAL, "CPU 0x100000: -EINVAL");
	check_int(cpu_lock_take(dup, 3, false, NULL, &l, NULL), ==, 0, "duplicates are fine");
	check_int(probe(2), ==, 1, "cpu 2 taken");
	check_int(probe(0), ==, 1, "cpu 0 taken");
	cpu_lock_release(l);
	cpu_lock_release(NULL);

	path = t_strf("%s/elsewhere", base);
	put_file(path, "");
	symlink(path, lock_file(9));
	check_int(cpu_lock_take(&(unsigned){ 9 }, 1, false, NULL, &l, NULL), ==, -EPERM,
		  "a symlink planted as cpu9.lock: -EPERM");
	check_str(get_file(path), "", "and its target untouched");

	free(path);
	path = t_strf("%s/link", base);
	symlink(statedir, path);
	setenv("BARETMA_STATE_DIR", path, 1);
	check_int(cpu_lock_take(&(unsigned){ 1 }, 1, false, NULL, &l, NULL), ==, -ELOOP, "state dir a symlink: -ELOOP");
	setenv("BARETMA_STATE_DIR", statedir, 1);
	free(path);
}

/* --hold CPU READY_FD GO_FD PAD: hold CPU, say 'r', wait for a byte, exit. */
static int hold_main(char **argv)
{
	unsigned cpu = (unsigned)atoi(argv[2]);
	struct cpu_lock *l;
	char c;

	if (cpu_lock_take(&cpu, 1, false, NULL, &l, NULL))
		return 90;
	if (write(atoi(argv[3]), "r", 1) != 1 || read(atoi(argv[4]), &c, 1) != 1)
		return 91;
	cpu_lock_release(l);
	return 0;
}

/* The holder's command line before PAD: its pipes are moved to fds 10, 11. */
#define HOLD_PREFIX SELF " --hold 5 10 11 "

/*
 * Run "t0345 --hold 5 10 11 PAD" and ask for cpu 5: the holder seen must be
 * @want, and the lock file must say the same.
 */
static void check_long_holder(const char *pad, const char *want, const char *name)
{
	int rp[2], gp[2], status = 0;
	struct lock_holder h = { 0 };
	struct cpu_lock *l = NULL;
	unsigned cpu = 5;
	char c, *text;
	pid_t child;

	if (pipe(rp) || pipe(gp))
		exit(1);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		if (dup2(rp[1], 10) < 0 || dup2(gp[0], 11) < 0)
			_exit(93);
		execv("/proc/self/exe", (char *[]){ SELF, "--hold", "5", "10", "11", (char *)pad, NULL });
		_exit(93);
	}
	close(rp[1]);
	close(gp[0]);
	if (read(rp[0], &c, 1) != 1)
		exit(1);
	check_int(cpu_lock_take(&cpu, 1, false, NULL, &l, &h), ==, -EBUSY, "cpu 5 taken");
	check_int(h.pid, ==, child, "holder pid");
	check_str(h.cmd, want, name);
	text = t_strf("pid %ld cmd %s\n", (long)child, want);
	check_str(get_file(lock_file(5)), text, "the lock file says the same");
	if (write(gp[1], "g", 1) != 1)
		exit(1);
	waitpid(child, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the holder ran and released");
	free(text);
	close(rp[0]);
	close(gp[1]);
}

/* @n copies of @c. */
static char *rep(char c, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		exit(1);
	memset(p, c, n);
	p[n] = '\0';
	return p;
}

/*
 * Long command lines (msr/guard/lock.h): up to LOCK_CMD_MAX - 1 = 1023 bytes are
 * kept whole; a longer one keeps its first LOCK_CMD_MAX - 4 = 1020 bytes
 * and ends in "..." (3 bytes and the NUL), and a UTF-8 character across
 * byte 1020 is dropped whole.  Counted by hand on the argv built here:
 * HOLD_PREFIX (P bytes), then 'a's and the bytes named.
 */
static void test_long_cmdline(void)
{
	size_t p = strlen(HOLD_PREFIX);
	char *a, *pad, *want;

	check_u64(LOCK_CMD_MAX, ==, 1024, "LOCK_CMD_MAX is the documented 1024");
	/* 1023 bytes: P, 1022 - P 'a's, 'Z'. */
	a = rep('a', 1022 - p);
	pad = t_strf("%sZ", a);
	want = t_strf(HOLD_PREFIX "%s", pad);
	check_u64(strlen(want), ==, 1023, "(the 1023-byte command)");
	check_long_holder(pad, want, "1023 bytes: kept whole, no mark");
	free(a), free(pad), free(want);

	/* 1024 bytes: P, 1023 - P 'a's, 'Z' -> P + 1020 - P 'a's, "...". */
	a = rep('a', 1023 - p);
	pad = t_strf("%sZ", a);
	a[1020 - p] = '\0';
	want = t_strf(HOLD_PREFIX "%s...", a);
	check_long_holder(pad, want, "1024 bytes: the first 1020, then '...'");
	free(a), free(pad), free(want);

	/* U+00E9 (0xc3 0xa9) at bytes 1019-1020, then "bbbb": cutting at
	 * 1020 would split it, so it goes whole: P, 1019 - P 'a's, "...". */
	a = rep('a', 1019 - p);
	pad = t_strf("%s\xc3\xa9" "bbbb", a);
	want = t_strf(HOLD_PREFIX "%s...", a);
	check_long_holder(pad, want, "a 2-byte character across byte 1020 is dropped whole");
	free(a), free(pad), free(want);
}

/*
 * The reader's side: a lock file holding a longer line than LOCK_CMD_MAX
 * (another writer) reads as cut, 1020 bytes and "..."; a line of 1023 bytes
 * reads whole.  The file is written here and held by a child's flock(1)-like
 * LOCK_EX on it.
 */
static void check_foreign_line(size_t ncmd, const char *want, const char *name)
{
	int rp[2], gp[2], status = 0;
	struct lock_holder h = { 0 };
	struct cpu_lock *l = NULL;
	unsigned cpu = 6;
	char c, *x = rep('x', ncmd), *text;
	pid_t child;

	text = t_strf("pid %ld cmd %s\n", (long)getpid(), x);
	put_file(lock_file(6), text);
	chmod(lock_file(6), 0600);
	if (pipe(rp) || pipe(gp))
		exit(1);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		int fd = open(lock_file(6), O_RDONLY);

		if (fd < 0 || flock(fd, LOCK_EX) || write(rp[1], "r", 1) != 1 ||
		    read(gp[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(rp[0], &c, 1) != 1)
		exit(1);
	check_int(cpu_lock_take(&cpu, 1, false, NULL, &l, &h), ==, -EBUSY, "cpu 6 taken");
	check_int(h.pid, ==, getpid(), "holder pid as the file says");
	check_str(h.cmd, want, name);
	if (write(gp[1], "g", 1) != 1)
		exit(1);
	waitpid(child, &status, 0);
	free(x);
	free(text);
	close(rp[0]);
	close(rp[1]);
	close(gp[0]);
	close(gp[1]);
}

static void test_foreign_line(void)
{
	char *x = rep('x', 1023), *want;

	check_foreign_line(1023, x, "a 1023-byte command in the file reads whole");
	x[1020] = '\0';
	want = t_strf("%s...", x);
	check_foreign_line(1024, want, "a 1024-byte command in the file: 1020 bytes, then '...'");
	check_foreign_line(4000, want, "a 4000-byte line, longer than read: 1020 bytes, then '...'");
	free(x);
	free(want);
}

int main(int argc, char **argv)
{
	const char *t = getenv("TMPDIR");

	if (argc > 5 && strcmp(argv[1], "--hold") == 0)
		return hold_main(argv);
	if (strcmp(argv[0], SELF) != 0) {
		execv("/proc/self/exe", (char *[]){ SELF, NULL });
		perror("re-exec /proc/self/exe");
		return 1;
	}
	snprintf(cmdline, sizeof(cmdline), "%s", SELF);
	base = t_strf("%s/baretma-0345.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	statedir = t_strf("%s/state", base);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	test_busy_then_wait();
	test_sigkill();
	test_args_and_dir();
	test_long_cmdline();
	test_foreign_line();
	t_rm_rf(base);
	return done_testing();
}
