/* msr/guard/lock.c - per-CPU flock()s in the state directory (msr/guard/lock.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr/guard/lock.h"
#include "msr/journal/state_dir.h"
#include "msr/access/sigsafe.h"

#define LOCK_CPU_MAX 0xfffffu /* more CPUs than any kernel supports */
#define LOCK_POLL_MS 20       /* a wait with stop signals: how often the lock
			       * is tried again (a signal ends it at once) */

struct cpu_lock {
	pid_t pid; /* the process that took them (fork: only it releases) */
	int n;
	struct {
		int fd;
		bool held;
	} e[];  /* one per distinct CPU, ascending */
};

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* @cpus sorted, duplicates dropped, into a new array; returns the count. */
static int sorted_unique(const unsigned *cpus, int n, unsigned **out)
{
	unsigned *v = malloc((size_t)n * sizeof(*v));
	int m = 0;

	if (!v)
		return -ENOMEM;
	memcpy(v, cpus, (size_t)n * sizeof(*v));
	qsort(v, (size_t)n, sizeof(*v), cmp_unsigned);
	for (int i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	*out = v;
	return m;
}

/*
 * put_cmd - @len bytes of @src into @dst (LOCK_CMD_MAX bytes) as a string.
 * When they do not fit, or @more says @src was itself cut, keep what fits
 * with LOCK_CMD_CUT after it, cut before a whole UTF-8 character (never
 * between its bytes), so a reader can tell a part from the whole command.
 */
static void put_cmd(char *dst, const char *src, size_t len, bool more)
{
	size_t keep = LOCK_CMD_MAX - sizeof(LOCK_CMD_CUT); /* room for "..." and NUL */

	if (!more && len < LOCK_CMD_MAX) {
		memcpy(dst, src, len);
		dst[len] = '\0';
		return;
	}
	if (keep > len)
		keep = len;
	/* src[keep] is the first byte dropped: a continuation byte (10xxxxxx)
	 * there means the character before it would be cut in two. */
	while (keep > 0 && keep < len && ((unsigned char)src[keep] & 0xc0) == 0x80)
		keep--;
	memcpy(dst, src, keep);
	memcpy(dst + keep, LOCK_CMD_CUT, sizeof(LOCK_CMD_CUT));
}

/* "pid <PID> cmd <cmdline>\n" for this process. */
static void owner_line(char *buf, size_t n)
{
	char raw[LOCK_CMD_MAX + 1], cmd[LOCK_CMD_MAX]; /* raw: one byte more tells a cut */
	size_t len = 0;
	ssize_t r = 0;
	bool more;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		while (len < sizeof(raw) && (r = read(fd, raw + len, sizeof(raw) - len)) > 0)
			len += (size_t)r;
		close(fd);
	}
	more = len == sizeof(raw); /* a NUL at the end of a full buffer separates */
	while (!more && len > 0 && raw[len - 1] == '\0') /* the last argument's NUL */
		len--;
	if (len > 0) {
		for (size_t i = 0; i < len; i++)
			if (raw[i] == '\0')
				raw[i] = ' ';
			else if ((unsigned char)raw[i] < 0x20 || raw[i] == 0x7f)
				raw[i] = '?';
		put_cmd(cmd, raw, len, more);
	} else {
		put_cmd(cmd, program_invocation_name, strlen(program_invocation_name), false);
	}
	snprintf(buf, n, "pid %ld cmd %s\n", (long)getpid(), cmd);
}

/* Read the holder of the lock file @fd (best effort). */
static void read_holder(int fd, unsigned cpu, struct lock_holder *h)
{
	char buf[LOCK_LINE_MAX], *end;
	size_t len;
	ssize_t r;
	long pid;

	memset(h, 0, sizeof(*h));
	h->cpu = cpu;
	r = pread(fd, buf, sizeof(buf) - 1, 0);
	if (r <= 0)
		return;
	buf[r] = '\0';
	if (strncmp(buf, "pid ", 4))
		return;
	pid = strtol(buf + 4, &end, 10);
	if (end == buf + 4 || strncmp(end, " cmd ", 5) || pid <= 0)
		return;
	h->pid = (pid_t)pid;
	end += 5;
	len = strcspn(end, "\n");
	/* No end of line in a full buffer: the file holds more than we read
	 * (another writer's longer line): show it as cut too. */
	put_cmd(h->cmd, end, len, !end[len] && (size_t)r == sizeof(buf) - 1);
}

/* Open the lock file @name of @dirfd (made when missing), by the state
 * directory's rule; on -EPERM @h (when not NULL) names it and says why. */
static int open_name(int dirfd, const char *name, struct lock_holder *h)
{
	char why[sizeof(h->why)] = "a symbolic link";
	struct stat st;
	int fd;

	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
	if (fd < 0 && errno != ELOOP)
		return -errno;
	if (fd >= 0 && fstat(fd, &st) < 0) {
		close(fd);
		return -errno;
	}
	if (fd < 0 || state_dir_file_check(&st, why, sizeof(why))) {
		if (fd >= 0)
			close(fd);
		if (h) {
			memset(h, 0, sizeof(*h));
			snprintf(h->file, sizeof(h->file), "%s", name);
			snprintf(h->why, sizeof(h->why), "%s", why);
		}
		return -EPERM; /* the state directory's rule: msr/journal/state_dir.h */
	}
	return fd;
}

static int open_lock(int dirfd, unsigned cpu, struct lock_holder *h)
{
	char name[32];

	snprintf(name, sizeof(name), "cpu%u.lock", cpu);
	return open_name(dirfd, name, h);
}

/*
 * Wait for the lock of @fd (@op) until one of @stop (blocked) is pending.
 * flock(2) cannot wait for a lock and a signal together without a handler
 * that the library would have to install, and a handler's flag checked
 * before a blocking flock() misses a signal that comes just after the
 * check: so the lock is tried without blocking, and between tries
 * sigtimedwait(2) waits LOCK_POLL_MS for a signal of @stop, which ends
 * the wait as soon as it comes.  The signal is taken by sigtimedwait and
 * raised again, so that it is pending as it was, for the caller.
 */
static int lock_fd_until(int fd, int op, const sigset_t *stop)
{
	const struct timespec poll = { 0, LOCK_POLL_MS * 1000000L };
	siginfo_t si;
	int sig;

	for (;;) {
		if (flock(fd, op | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		sig = sigtimedwait(stop, &si, &poll);
		if (sig > 0) {
			raise(sig);
			return -EINTR;
		}
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
}

/* flock one file (@op LOCK_EX or LOCK_SH): 0, -EBUSY (taken, !wait),
 * -EINTR (a signal of @stop ended the wait), or -errno. */
static int lock_fd_op(int fd, int op, bool wait, const sigset_t *stop)
{
	int r;

	if (wait && stop)
		return lock_fd_until(fd, op, stop);
	do
		r = flock(fd, op | (wait ? 0 : LOCK_NB));
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	return errno == EWOULDBLOCK ? -EBUSY : -errno;
}

static int lock_fd(int fd, bool wait, const sigset_t *stop)
{
	return lock_fd_op(fd, LOCK_EX, wait, stop);
}

/* After taking: say who holds it. */
static int write_owner(int fd, const char *line)
{
	if (ftruncate(fd, 0) < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	return sigsafe_write_all(fd, line, strlen(line));
}

int cpu_lock_take(const unsigned *cpus, int n, bool wait, const sigset_t *stop,
		  struct cpu_lock **out, struct lock_holder *holder)
{
	struct cpu_lock *l = NULL;
	char line[LOCK_LINE_MAX];
	unsigned *v = NULL;
	int dirfd = -1, m, rc;

	if (n < 1 || !cpus)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		if (cpus[i] > LOCK_CPU_MAX)
			return -EINVAL;
	m = rc = sorted_unique(cpus, n, &v);
	if (rc < 0)
		return rc;
	rc = state_dir_open(true, &dirfd);
	if (rc)
		goto out;
	l = calloc(1, sizeof(*l) + (size_t)m * sizeof(l->e[0]));
	if (!l) {
		rc = -ENOMEM;
		goto out;
	}
	l->pid = getpid();
	owner_line(line, sizeof(line));
	for (int i = 0; i < m && !rc; i++) {
		int fd = open_lock(dirfd, v[i], holder);

		if (fd < 0) {
			rc = fd;
			break;
		}
		l->e[l->n].fd = fd; /* closed below on failure */
		rc = lock_fd(fd, wait, stop);
		l->e[l->n++].held = rc == 0;
		if ((rc == -EBUSY || rc == -EINTR) && holder)
			read_holder(fd, v[i], holder);
		if (!rc)
			rc = write_owner(fd, line);
	}
out:
	if (rc) {
		cpu_lock_release(l);
	} else {
		*out = l;
	}
	if (dirfd >= 0)
		close(dirfd);
	free(v);
	return rc;
}

void cpu_lock_release(struct cpu_lock *l)
{
	bool owner;

	if (!l)
		return;
	/* A fork()ed child shares the parent's open files, and so its locks:
	 * it closes its descriptors only (the lock stays with the parent's),
	 * never empties the file or unlocks. */
	owner = l->pid == getpid();
	for (int i = 0; i < l->n; i++) {
		/* Only a holder empties its file; a failure to is harmless (the
		 * next holder rewrites it), the lock goes with the descriptor. */
		if (owner && l->e[i].held && ftruncate(l->e[i].fd, 0) < 0) {
			/* nothing more to do */
		}
		close(l->e[i].fd);
	}
	free(l);
}

int settings_lock_take(bool exclusive, bool wait, const sigset_t *stop,
		       struct cpu_lock **out, struct lock_holder *holder)
{
	struct cpu_lock *l = calloc(1, sizeof(*l) + sizeof(l->e[0]));
	char line[LOCK_LINE_MAX];
	int dirfd = -1, fd, rc;

	if (!l)
		return -ENOMEM;
	l->pid = getpid();
	rc = state_dir_open(true, &dirfd);
	fd = rc ? rc : open_name(dirfd, "settings.lock", holder);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	l->e[0].fd = fd;
	l->n = 1;
	rc = lock_fd_op(fd, exclusive ? LOCK_EX : LOCK_SH, wait, stop);
	if ((rc == -EBUSY || rc == -EINTR) && holder) {
		read_holder(fd, 0, holder);
		holder->cpu = 0;
	}
	if (!rc && exclusive) {
		l->e[0].held = true;  /* only the exclusive holder empties it */
		owner_line(line, sizeof(line));
		rc = write_owner(fd, line);
	}
out:
	if (rc)
		cpu_lock_release(l);
	else
		*out = l;
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}
