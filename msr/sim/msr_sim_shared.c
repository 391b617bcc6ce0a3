/*
 * msr/sim/msr_sim_shared.c - one simulated machine for every process: with
 * `state FILE` the machine is FILE's, as the hardware is the machine's,
 * whichever process opens it.  FILE holds the registers (the state-file
 * backend: every write persisted, other writers' writes seen); what the
 * registers do not hold - the counters' values as they count, and the
 * model's state behind them (fractions not yet counted, the slots
 * PERF_METRICS accumulated, the last update's time, the jitter's state) -
 * is the machine file FILE.sim beside it: one fixed-size record per CPU,
 * at CPU x the record's size (struct sim_live, msr/sim/msr_sim_int.h; the
 * layout in doc/state-file.md).  Every access to a CPU reads its record at
 * the start and writes it at the end, under the machine file's lock, so
 * that every access sees the CPU as the last access of any process left
 * it: a run that waited (--wait) for another reads the values that run's
 * restore wrote, and counting goes on from one process to the next by
 * CLOCK_MONOTONIC, which is one clock for the whole system.
 *
 * The lock.  flock(LOCK_EX) of FILE.sim, taken inside the process's own
 * lock (msr/sim/msr_sim.c sim_lock: every signal of the thread blocked, the
 * other threads held off), let go before it:
 *   - the kernel lets go of a flock when its holder dies, SIGKILL
 *     included, so no process waits for a dead one (a lock word in shared
 *     memory would stay taken);
 *   - a holder holds it for one access and waits on nothing else
 *     meanwhile but the state file's own flock of its directory, which
 *     that backend takes around a rewrite and no process holds while it
 *     waits for this one: no cycle, so no deadlock between processes;
 *   - signals are blocked while it is held, so a handler (the journal's
 *     restore) never waits for a lock its own thread holds, and a
 *     handler on another thread waits for one access at most;
 *   - flock, pread, pwrite, open and fstat are system calls that
 *     async-signal-safe code may make (POSIX 2017 XSH 2.4.3 lists
 *     open/fstat/read/write; flock is the same kind of plain system call).
 * One flock per open file description: the threads of a process share the
 * process's (its own lock serialises them); a fork()ed child shares it too,
 * and must not use the machine (msr/sim/msr_sim.h).  A process stopped inside
 * an access (SIGSTOP, which no mask blocks) holds the others until it goes
 * on.  The file is opened (created, with FILE's permission bits) at the
 * first access, not at msr_open, so that a run refused before it touches
 * a register leaves no file behind.
 *
 * Other writers of FILE (a test that writes a fresh copy between runs,
 * or plays another program; `state:FILE`): the record keeps a fingerprint
 * of the CPU's lines in FILE as the simulator left them at the end of its
 * last access (msr_state_cpu_hash: every register of that CPU, numbers and
 * values).  A CPU whose lines someone else has changed since is given
 * anew: it starts again from FILE's values, as at its first access (its
 * counters take FILE's lines, which hold what they were at the
 * simulator's last control write on it; the fractions and PERF_METRICS'
 * accumulated slots start from 0).  A change made by a writer that does
 * not take this lock during the simulator's own rewrite of FILE is merged
 * into that rewrite (msr/access/msr_state.c) and not seen as another's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr/access/msr.h"
#include "msr/sim/msr_sim.h"
#include "msr/sim/msr_sim_int.h"

/* doc/state-file.md documents this layout: 48 fields of 8 bytes. */
_Static_assert(sizeof(struct sim_live) == 48 * 8, "struct sim_live: doc/state-file.md");
_Static_assert(offsetof(struct sim_live, fc) == 104 && offsetof(struct sim_live, pmc) == 216 &&
	       offsetof(struct sim_live, lines_hash) == 376, "struct sim_live: doc/state-file.md");

/* ------------------------------------------------------------ the lock */

int sim_shared_name(struct sim *s)
{
	struct stat st;

	if (!(s->mpath = malloc(strlen(s->p.state) + sizeof(".sim"))))
		return -ENOMEM;
	strcpy(s->mpath, s->p.state);
	strcat(s->mpath, ".sim");
	s->mmode = stat(s->p.state, &st) == 0 ? st.st_mode & 0666 : 0600;
	return 0;
}

/* Open FILE.sim: created where missing; never through a link (-ELOOP),
 * never anything but a regular file (-EINVAL), which is looked at before
 * it is opened, so that a FIFO or a device put there is never opened, and
 * again after (O_NONBLOCK: one put there meanwhile does not block the
 * open).  Async-signal-safe. */
static int machine_open(struct sim *s)
{
	struct stat st;
	int fd, rc = 0;

	if (lstat(s->mpath, &st) == 0 && !S_ISREG(st.st_mode))
		return S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
	fd = open(s->mpath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, s->mmode);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	if (rc)
		close(fd);
	else
		s->mfd = fd;
	return rc;
}

int sim_shared_lock(struct sim *s)
{
	int rc;

	if (!s->state)
		return 0;
	if (s->mfd < 0 && (rc = machine_open(s)))
		return rc;
	while (flock(s->mfd, LOCK_EX) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

void sim_shared_unlock(struct sim *s)
{
	if (s->state && s->mfd >= 0)
		flock(s->mfd, LOCK_UN);
}

/* -------------------------------------------------------- the records */

int sim_shared_load(struct sim *s, unsigned cpu)
{
	struct sim_cpu *c;
	off_t off = (off_t)cpu * (off_t)sizeof(struct sim_live);
	ssize_t r;
	int rc;

	if (cpu >= s->ncpus || !s->cpus[cpu].kind)
		return -ENXIO;
	if (!s->state)
		return 0; /* this process's machine: c->m is the record */
	c = &s->cpus[cpu];
	if ((rc = msr_state_ops.open(s->state, cpu))) /* the file again, if it changed */
		return rc;
	while ((r = pread(s->mfd, &c->m, sizeof(c->m), off)) < 0 && errno == EINTR)
		;
	if (r < 0)
		return -errno;
	if ((size_t)r != sizeof(c->m) || c->m.magic != SIM_LIVE_MAGIC ||
	    c->m.size != sizeof(c->m) || c->m.lines_hash != msr_state_cpu_hash(s->state, cpu))
		memset(&c->m, 0, sizeof(c->m)); /* none, another layout's, or FILE changed: a start */
	return 0;
}

int sim_shared_store(struct sim *s, unsigned cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	const char *p = (const char *)&c->m;
	off_t off = (off_t)cpu * (off_t)sizeof(struct sim_live);
	size_t done = 0;

	if (!s->state)
		return 0;
	c->m.lines_hash = msr_state_cpu_hash(s->state, cpu);
	while (done < sizeof(struct sim_live)) {
		ssize_t w = pwrite(s->mfd, p + done, sizeof(struct sim_live) - done,
				   off + (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t)w;
	}
	return 0;
}
