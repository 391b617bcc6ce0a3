/*
 * bench/stat_loop.c - `baretma stat`'s run (bench/stat.h stat_loop): the
 * command forked, pinned and executed; SIGINT, SIGTERM and SIGHUP
 * forwarded to it; the interval timer on absolute deadlines.
 *
 * Signals.  While the loop runs, SIGINT, SIGTERM and SIGHUP are the
 * loop's: the first one ends the count (without a command) or is
 * forwarded to the command (kill(2)), whose end then ends the count; the
 * loop returns normally and the caller's guard puts the registers back.
 * A signal the kernel sent (si_code SI_KERNEL: the terminal's ^C, its
 * hangup) went to the whole foreground process group, the command
 * included (POSIX "General Terminal Interface"): it is not sent a second
 * time.  SIGCHLD is caught so that the command's end interrupts the
 * sleep.  The handlers before the loop (the guard's, msr/journal/guard_signals.h)
 * are put back after it.
 *
 * Before the loop.  A caller that holds the three blocked until the count
 * can end (stat_options.count_mask: the CLI, from its first instruction)
 * gets one that came during its set-up here: the mask is the count's
 * once the loop's handlers are in, the signal is taken, and the count
 * ends at once after its first reading (stat_begin_all) and a second one,
 * as for a signal during it.  A command is not started after such a
 * signal: its process is forked as always and gets the signal before it
 * executes anything (forwarded to the command, which dies of it, as one
 * without a handler would), so that the count still ends when the
 * command does and the command's status is what it died of.  The mask is
 * the caller's again before the handlers go back: a signal after the end
 * waits, blocked, for a caller that has nothing left to end.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/stat.h"
#include "bench/stat_int.h"
#include "cpu/machine.h"
#include "cpu/text.h"

#define DRIFT_KEPT 65536u /* wake-ups whose lateness the median is taken over */

static volatile sig_atomic_t stop_sig, child_done, child_pid;

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	int e = errno;

	(void)uc;
	if (!stop_sig)
		stop_sig = sig;
	if (child_pid > 0 && (!si || si->si_code != SI_KERNEL))
		kill((pid_t)child_pid, sig);
	errno = e;
}

static void on_chld(int sig)
{
	(void)sig;
	child_done = 1;
}

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof(stop_sigs) / sizeof(stop_sigs[0]))

/* The loop's handlers in, the previous ones into @old[NSTOP + 1]. */
static int handlers_install(struct sigaction *old)
{
	struct sigaction sa = { 0 };

	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: the sleep ends at once */
	for (size_t i = 0; i < NSTOP; i++) {
		sigaction(stop_sigs[i], NULL, &old[i]);
		/* an ignored signal (nohup) stays ignored, as the guard leaves it */
		if (!(old[i].sa_flags & SA_SIGINFO) && old[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(stop_sigs[i], &sa, NULL))
			return -errno;
	}
	sa = (struct sigaction){ .sa_handler = on_chld, .sa_flags = SA_NOCLDSTOP };
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGCHLD, &sa, &old[NSTOP]) ? -errno : 0;
}

static void handlers_remove(const struct sigaction *old)
{
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &old[i], NULL);
	sigaction(SIGCHLD, &old[NSTOP], NULL);
}

/* In the child: the signals as a new process has them (an ignored one
 * stays ignored: nohup), pinned, executed; exec's errno through @fd
 * (close-on-exec: nothing comes on success).  @sig: a stop signal that
 * came before the command started, which its process dies of before it
 * executes anything (raised while every signal is blocked, taken when
 * @mask is set). */
static void __attribute__((noreturn)) child_exec(struct stat_run *r, const sigset_t *mask,
						 bool pin, int fd, int sig)
{
	struct sigaction cur;
	int e;

	for (size_t i = 0; i < NSTOP; i++)
		if (!sigaction(stop_sigs[i], NULL, &cur) &&
		    ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_IGN))
			signal(stop_sigs[i], SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	if (sig)
		raise(sig);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (sig) { /* not reached: the mask the signal came through lets it in */
		e = EINTR;
		(void)!write(fd, &e, sizeof(e));
		_exit(126);
	}
	if (pin) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int i = 0; i < r->ncpus; i++)
			CPU_SET(r->cpus[i], &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			e = errno;
			(void)!write(fd, &e, sizeof(e));
			_exit(126);
		}
	}
	execvp(r->o.argv[0], r->o.argv);
	e = errno;
	(void)!write(fd, &e, sizeof(e));
	_exit(e == ENOENT ? 127 : 126);
}

/* Fork and execute the command; 0, or -ENOEXEC with @why (it exited). */
static int child_start(struct stat_run *r, struct stat_end *end, char **why)
{
	sigset_t all, old;
	int fd[2], e = 0;
	pid_t pid;
	ssize_t got;

	end->pinned = cpu_machine_can_pin(r->o.machine);
	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	end->signal_first = stop_sig != 0; /* it cannot come now: all blocked */
	pid = fork();
	if (pid == 0)
		child_exec(r, &old, end->pinned, fd[1], stop_sig);
	if (pid > 0)
		child_pid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fd[1]);
	if (pid < 0) {
		e = errno;
		close(fd[0]);
		text_setf(why, "cannot start '%s': %s", r->o.argv[0], strerror(e));
		return -e;
	}
	do
		got = read(fd[0], &e, sizeof(e));
	while (got < 0 && errno == EINTR);
	close(fd[0]);
	end->child = true;
	if (got == (ssize_t)sizeof(e)) {
		while (waitpid(pid, &end->status, 0) < 0 && errno == EINTR)
			;
		child_pid = 0;
		text_setf(why, "cannot %s '%s': %s", e == EINVAL ? "pin" : "run", r->o.argv[0],
			 strerror(e));
		return -ENOEXEC;
	}
	return 0;
}

/* Has the command ended?  Reaped into @end when it has. */
static bool child_ended(struct stat_end *end)
{
	pid_t p;

	if (child_pid <= 0)
		return true;
	p = waitpid((pid_t)child_pid, &end->status, WNOHANG);
	if (p == (pid_t)child_pid || (p < 0 && errno == ECHILD)) {
		child_pid = 0;
		return true;
	}
	return false;
}

static void ts_add_ns(struct timespec *t, uint64_t ns)
{
	t->tv_sec += (time_t)(ns / 1000000000u);
	t->tv_nsec += (long)(ns % 1000000000u);
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static void ts_add_ms(struct timespec *t, unsigned ms)
{
	ts_add_ns(t, (uint64_t)ms * 1000000u);
}

static int64_t ts_ns(const struct timespec *a, const struct timespec *b)
{
	return (int64_t)(b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);
}

static bool ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Sleep until @dl; false when a signal or the command's end came first
 * (the caller decides: the count may end there). */
static bool sleep_until(const struct timespec *dl)
{
	return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, dl, NULL) != EINTR;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Should the count end now (a stop without a command, the command's end)? */
static bool should_end(struct stat_end *end)
{
	if (stop_sig)
		end->signal = stop_sig;
	return end->child ? child_ended(end) : stop_sig != 0;
}

/* One read (a pass's, in passes: bench/stat_pass.c); at an interval's
 * end its samples to the callback with the drift.  1 when it ended an
 * interval, 0 when not, or -errno. */
static int interval(struct stat_run *r, int64_t late, char **why)
{
	bool iv = r->o.interval_ms > 0;
	int rc = stat_read_all(r, iv, why);

	if (rc > 0 && iv && r->o.on_interval)
		r->o.on_interval(r->o.arg, r->samples, r->ngroups, late);
	return rc;
}

/* The intervals until the end; the lateness of each wake-up into @late.
 * With passes an interval is r->nsub reads, one every interval / nsub. */
static int count(struct stat_run *r, struct stat_end *end, int64_t *late, char **why)
{
	/* without -I the passes turn every STAT_PASS_TICK_MS, so that a short
	 * command sees each of them */
	uint64_t tick = r->o.interval_ms ? (uint64_t)r->o.interval_ms * 1000000u /
					   (r->nsub ? r->nsub : 1) :
			r->nsub > 1 ? (uint64_t)STAT_PASS_TICK_MS * 1000000u :
			(uint64_t)STAT_TICK_MS * 1000000u;
	struct timespec dl = r->t0, now;
	int rc = 0;

	for (;;) {
		ts_add_ns(&dl, tick);
		/* the end is looked for before each sleep too: a command that
		 * ended (its SIGCHLD) before the sleep began does not wait a tick */
		while (should_end(end) || !sleep_until(&dl))
			if (should_end(end)) {
				end->intervals++; /* the last, partial one */
				r->finish = true;
				rc = interval(r, 0, why);
				return rc < 0 ? rc : 0;
			}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (end->timed < DRIFT_KEPT)
			late[end->timed] = ts_ns(&dl, &now);
		end->timed++;
		if (ts_ns(&dl, &now) > end->drift_max_ns)
			end->drift_max_ns = ts_ns(&dl, &now);
		if ((rc = interval(r, ts_ns(&dl, &now), why)) < 0)
			return rc;
		if (rc > 0)
			end->intervals++;
		if ((r->o.count && end->intervals >= r->o.count) || should_end(end)) {
			/* a count ended in the middle of an interval ends it there */
			if (rc == 0) {
				end->intervals++;
				r->finish = true;
				rc = interval(r, 0, why);
			}
			return rc < 0 ? rc : 0;
		}
		/* deadlines passed while late are skipped, never caught up */
		for (struct timespec next = dl; ts_add_ns(&next, tick), !ts_before(&now, &next);
		     dl = next)
			end->skipped++;
	}
}

int stat_loop(struct stat_run *r, struct stat_end *end, char **why)
{
	struct sigaction old[NSTOP + 1];
	int64_t *late = calloc(DRIFT_KEPT, sizeof(*late));
	sigset_t held;
	unsigned kept;
	int rc;

	*end = (struct stat_end){ 0 };
	stop_sig = child_done = child_pid = 0;
	if (!late)
		return -ENOMEM;
	if ((rc = handlers_install(old))) {
		free(late);
		return rc;
	}
	/* a signal held since the caller's set-up is taken here: on_stop */
	if (r->o.count_mask)
		sigprocmask(SIG_SETMASK, r->o.count_mask, &held);
	rc = stat_begin_all(r, why);
	if (!rc && r->o.argv)
		rc = child_start(r, end, why);
	if (!rc)
		rc = count(r, end, late, why);
	if (end->child && child_pid > 0) {
		/* --count reached, or a failed read: the command is ended */
		kill((pid_t)child_pid, SIGTERM);
		while (waitpid((pid_t)child_pid, &end->status, 0) < 0 && errno == EINTR)
			;
		child_pid = 0;
	}
	if (r->o.count_mask)
		sigprocmask(SIG_SETMASK, &held, NULL);
	handlers_remove(old);
	end->seconds = r->t_last;
	kept = end->timed < DRIFT_KEPT ? end->timed : DRIFT_KEPT;
	if (kept) {
		qsort(late, kept, sizeof(*late), cmp_i64);
		end->drift_median_ns = late[kept / 2];
	}
	free(late);
	return rc;
}

int stat_drift(unsigned n, unsigned period_ms, int64_t *late_ns)
{
	struct timespec dl, now;

	clock_gettime(CLOCK_MONOTONIC, &dl);
	for (unsigned i = 0; i < n; i++) {
		ts_add_ms(&dl, period_ms);
		while (!sleep_until(&dl))
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
		late_ns[i] = ts_ns(&dl, &now);
	}
	return 0;
}
