/*
 * t/1012-lock-wait-stop.c - a wait for a CPU's or the settings' lock
 * (msr/guard/lock.h, @wait true) given stop signals: one of them pending when
 * the wait begins, or sent by another process while it waits, ends it,
 * -EINTR, nothing held, the signal still pending for the caller and the
 * holder named; with none the wait goes on until the lock is free; and
 * without stop signals a pending one changes nothing (the wait of before).
 *
 * The holder is a child process that takes the lock (without waiting) and
 * lets it go when told, or after 5 s: a wait deaf to the signal then ends
 * with the lock taken (0, not -EINTR) and the test fails instead of
 * hanging.  The stop signal is SIGUSR1, blocked, as stat holds SIGINT,
 * SIGTERM and SIGHUP (bench/cli/cli.h cli_stop_hold).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/guard/lock.h"
#include "t/fixture.h"

#define HOLD_MS 5000 /* the holder lets go by itself after this */

struct holder {
	pid_t pid;
	int go; /* write a byte: let go */
};

/* A child holding cpu @cpu's lock (or, @cpu < 0, the settings lock
 * exclusively) until told, or HOLD_MS. */
static struct holder hold(int cpu)
{
	int rp[2], gp[2];
	struct holder h = { -1, -1 };
	char c;

	if (pipe(rp) || pipe(gp))
		exit(1);
	h.pid = fork();
	if (h.pid == 0) {
		struct cpu_lock *l = NULL;
		struct pollfd p = { gp[0], POLLIN, 0 };
		unsigned u = (unsigned)cpu;
		int rc = cpu < 0 ? settings_lock_take(true, false, NULL, &l, NULL)
				 : cpu_lock_take(&u, 1, false, NULL, &l, NULL);

		if (rc || write(rp[1], "r", 1) != 1)
			_exit(2);
		poll(&p, 1, HOLD_MS);
		cpu_lock_release(l);
		_exit(0);
	}
	close(rp[1]);
	close(gp[0]);
	if (h.pid < 0 || read(rp[0], &c, 1) != 1)
		exit(1);
	close(rp[0]);
	h.go = gp[1];
	return h;
}

static void unhold(struct holder *h)
{
	int status;

	(void)!write(h->go, "g", 1); /* EPIPE: it let go by itself (HOLD_MS) */
	close(h->go);
	waitpid(h->pid, &status, 0);
}

/* A child that tells @h to let go 100 ms from now (while we wait). */
static pid_t unhold_later(struct holder *h)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(100000);
		_exit(write(h->go, "g", 1) == 1 ? 0 : 2);
	}
	return pid;
}

/* A lock a failed case took after all: let go, so the next one can run. */
static void let_go(struct cpu_lock **l)
{
	cpu_lock_release(*l);
	*l = NULL;
}

static bool pending(int sig)
{
	sigset_t p;

	return !sigpending(&p) && sigismember(&p, sig);
}

/* Take the pending @sig (it is blocked), so that the next case starts clean. */
static void drain(int sig)
{
	sigset_t s;
	struct timespec zero = { 0, 0 };

	sigemptyset(&s);
	sigaddset(&s, sig);
	while (sigtimedwait(&s, NULL, &zero) == sig)
		;
}

/* A child that sends the parent @sig once the parent has said it waits
 * (a byte on the pipe), 100 ms later; returns the pipe to say it on. */
static int sender(int sig, pid_t *pid)
{
	int sp[2];
	char c;

	if (pipe(sp))
		exit(1);
	*pid = fork();
	if (*pid == 0) {
		close(sp[1]);
		if (read(sp[0], &c, 1) != 1)
			_exit(2);
		usleep(100000);
		kill(getppid(), sig);
		_exit(0);
	}
	close(sp[0]);
	return sp[1];
}

int main(void)
{
	char dir[PATH_MAX];
	unsigned cpu = 2;
	struct cpu_lock *l = NULL;
	struct lock_holder who;
	struct holder h;
	sigset_t stop;
	pid_t sp;
	int tell, status;

	t_signals_default();
	signal(SIGPIPE, SIG_IGN);
	t_scratch(dir, "1012");
	setenv("BARETMA_STATE_DIR", dir, 1);
	sigemptyset(&stop);
	sigaddset(&stop, SIGUSR1);
	sigprocmask(SIG_BLOCK, &stop, NULL);

	/* pending when the wait begins */
	h = hold(2);
	raise(SIGUSR1);
	check_int(cpu_lock_take(&cpu, 1, true, &stop, &l, &who), ==, -EINTR,
		  "cpu 2 held, SIGUSR1 pending: the wait ends, -EINTR");
	ok(!l, "  nothing held");
	let_go(&l);
	check_int(who.pid, ==, h.pid, "  the holder named: the child's pid");
	ok(pending(SIGUSR1), "  SIGUSR1 still pending for the caller");
	drain(SIGUSR1);

	/* sent by another process while the wait goes on */
	tell = sender(SIGUSR1, &sp);
	if (write(tell, "w", 1) != 1)
		exit(1);
	check_int(cpu_lock_take(&cpu, 1, true, &stop, &l, &who), ==, -EINTR,
		  "SIGUSR1 from another process during the wait: -EINTR");
	let_go(&l);
	ok(pending(SIGUSR1), "  SIGUSR1 still pending for the caller");
	drain(SIGUSR1);
	close(tell);
	waitpid(sp, &status, 0);

	/* no signal: the wait goes on until the lock is free */
	unhold(&h);
	check_int(cpu_lock_take(&cpu, 1, true, &stop, &l, &who), ==, 0,
		  "no signal, cpu 2 free: taken");
	cpu_lock_release(l);
	l = NULL;

	/* without stop signals a pending one does not end the wait */
	h = hold(2);
	raise(SIGUSR1);
	sp = unhold_later(&h);
	check_int(cpu_lock_take(&cpu, 1, true, NULL, &l, &who), ==, 0,
		  "stop NULL, SIGUSR1 pending: waits as before, taken once free");
	waitpid(sp, &status, 0);
	close(h.go); /* it was told */
	waitpid(h.pid, &status, 0);
	cpu_lock_release(l);
	l = NULL;
	drain(SIGUSR1);

	/* the settings lock: the same */
	h = hold(-1);
	raise(SIGUSR1);
	check_int(settings_lock_take(false, true, &stop, &l, &who), ==, -EINTR,
		  "settings held exclusively, SIGUSR1 pending: the wait ends, -EINTR");
	ok(!l, "  nothing held");
	let_go(&l);
	check_int(who.pid, ==, h.pid, "  the holder named: the child's pid");
	drain(SIGUSR1);
	unhold(&h);
	check_int(settings_lock_take(false, true, &stop, &l, &who), ==, 0,
		  "no signal, settings free: taken (shared)");
	cpu_lock_release(l);
	t_rm_rf(dir);
	return done_testing();
}
