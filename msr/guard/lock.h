/*
 * msr/guard/lock.h - one lock per CPU, so that two baretma processes never
 * program the same CPU's PMU at the same time.
 *
 * "<state dir>/cpu<N>.lock" (msr/journal/state_dir.h), opened
 * O_CREAT|O_NOFOLLOW|O_CLOEXEC mode 0600 and locked with flock(LOCK_EX):
 * the kernel drops the lock when the last descriptor closes, so a process
 * killed with SIGKILL never leaves a stale lock.  The holder writes
 * "pid <PID> cmd <command line>\n" into the file after taking it and
 * empties it before releasing; what another process reads there is for
 * messages only (it may be a moment behind).  Lock files are never
 * deleted: deleting one would let two processes lock two different files
 * of the same name.
 *
 * Several CPUs are taken in ascending order, all or nothing, so two
 * waiting runs cannot deadlock.  Each take opens its own descriptors
 * (O_CLOEXEC: an exec'd program never holds them): two sessions of one
 * process exclude each other like two processes.  fork(): the child
 * shares the parent's open lock files, so the lock is held as long as
 * either has them open; cpu_lock_release() in the child closes its
 * descriptors only (the parent's lock and holder line stay), and a child
 * that lives on should call it or exec.  A journal (msr/journal/journal.h) check for the
 * CPUs belongs after the locks are held.  Library code: 0 or -errno.
 */
#ifndef BARETMA_LOCK_H
#define BARETMA_LOCK_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#define LOCK_CMD_MAX 1024  /* bytes of a holder's command line, with the NUL */
#define LOCK_CMD_CUT "..." /* ends a command line that was cut */
/* A lock file's holder line, "pid PID cmd CMDLINE\n", fits in this; it is
 * also the input cap of a lock file (doc/safety.md "Bad input"): when a lock is
 * taken, at most this many bytes of the file are read (one pread), and a
 * longer file is shown cut (LOCK_CMD_CUT), never read further.  The file
 * is baretma's own (rewritten at each take), so its size is not an error. */
#define LOCK_LINE_MAX (LOCK_CMD_MAX + 64)

struct cpu_lock; /* opaque: the locks held */

/* Who holds a CPU: from its lock file, best effort. */
struct lock_holder {
	unsigned cpu;           /* the CPU found taken */
	pid_t pid;              /* 0 when the file said nothing (yet) */
	char cmd[LOCK_CMD_MAX]; /* its command line, "" when unknown; ends in
				 * LOCK_CMD_CUT when it was longer than fits */
	/* On -EPERM from a lock file the state directory's rule refuses
	 * (msr/journal/state_dir.h state_dir_file_check): its name ("cpu3.lock") and
	 * why ("writable by others (mode 0666)"); "" otherwise. */
	char file[32];
	char why[80];
};

/*
 * cpu_lock_take - lock every CPU of @cpus (@n entries, any order,
 * duplicates fine), in ascending order.
 * @wait: false: fail at once when one is taken; true: block until each is
 * free (EINTR is retried; a signal that kills the process still ends it).
 * @stop: with @wait, NULL, or signals the caller keeps blocked (one that
 * ends its work, taken when it can act on it: stat's SIGINT): one of them
 * pending ends the wait at once, -EINTR, the signal left pending (the
 * lock is then tried every 20 ms: flock(2) waits for no signal).
 * @out: receives the locks.  @holder: if not NULL, receives the first
 * taken CPU's holder on -EBUSY and -EINTR, or the refused lock file on
 * -EPERM.  The file records this process's PID and /proc/self/cmdline (arguments joined by spaces, control characters as
 * '?'; longer than LOCK_CMD_MAX - 1 bytes: cut at a character boundary
 * to fit with LOCK_CMD_CUT appended).
 * Returns 0; -EBUSY (!@wait and a CPU is taken: nothing is held then);
 * -EINTR (a signal of @stop ended the wait: nothing is held); -EINVAL
 * (@n < 1 or a CPU number above 0xfffff); -ENOMEM; the errors of
 * state_dir_open(); -EPERM (a lock file the state directory's rule
 * refuses, msr/journal/state_dir.h state_dir_file_check: not a regular file of
 * ours, or writable by group or others); or -errno from open/flock/write.
 */
int cpu_lock_take(const unsigned *cpus, int n, bool wait, const sigset_t *stop,
		  struct cpu_lock **out, struct lock_holder *holder);

/* cpu_lock_release - empty the lock files, drop every lock, free @l (NULL
 * is fine); in a fork()ed child of the taker: close its descriptors only. */
void cpu_lock_release(struct cpu_lock *l);

/*
 * settings_lock_take - the lock of the system settings (msr/guard/settings.h),
 * "<state dir>/settings.lock", held for a whole run so that one run's
 * restore never pulls a setting from under another run's measurement:
 * @exclusive (flock LOCK_EX) for a run that changes a setting (rdpmc,
 * nmi_watchdog, msr.allow_writes) or restores one; shared (LOCK_SH) for a
 * run that writes MSRs relying on the settings as they are.  Take it
 * before the CPU locks (one order everywhere: no deadlock).
 * An exclusive holder writes "pid <PID> cmd <command line>\n" into the
 * file (shared holders are many and write nothing).
 * @wait, @stop, @out, @holder: as for cpu_lock_take (holder->cpu is 0; pid 0
 * when only shared holders, or nobody known, hold it).  Release with
 * cpu_lock_release().
 * Returns 0, -EBUSY (!@wait and held in a conflicting mode), -EINTR (a
 * signal of @stop ended the wait), the errors of
 * state_dir_open(), -EPERM (not a regular file of ours), -ENOMEM, or
 * -errno from open/flock/write.
 */
int settings_lock_take(bool exclusive, bool wait, const sigset_t *stop,
		       struct cpu_lock **out, struct lock_holder *holder);

#endif
