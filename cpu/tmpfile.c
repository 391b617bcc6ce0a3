/* cpu/tmpfile.c - temporary files of a write, their registry and the
 * sweep of those a killed writer left (cpu/tmpfile.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/proc.h"
#include "cpu/tmpfile.h"

enum { SLOT_FREE, SLOT_BUSY, SLOT_LIVE };

/* The handler reads a slot only while it is SLOT_LIVE: its descriptor and
 * name are set before, and taken down after, the state says so. */
static struct {
	atomic_int state;
	int dirfd;
	char name[NAME_MAX + 1];
} slots[TMPFILE_SLOTS];

static atomic_uint seq; /* tells apart two writes of one name by one process */

static int slot_claim(int dirfd, const char *name)
{
	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	for (int i = 0; i < TMPFILE_SLOTS; i++) {
		int free_ = SLOT_FREE;

		if (!atomic_compare_exchange_strong(&slots[i].state, &free_, SLOT_BUSY))
			continue;
		slots[i].dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
		if (slots[i].dirfd < 0) {
			int err = -errno;

			atomic_store(&slots[i].state, SLOT_FREE);
			return err;
		}
		memcpy(slots[i].name, name, strlen(name) + 1);
		atomic_store(&slots[i].state, SLOT_LIVE);
		return i;
	}
	return -ENOSPC;
}

void tmpfile_release(int slot)
{
	int live = SLOT_LIVE;

	if (slot < 0 || slot >= TMPFILE_SLOTS ||
	    !atomic_compare_exchange_strong(&slots[slot].state, &live, SLOT_BUSY))
		return;
	close(slots[slot].dirfd);
	slots[slot].dirfd = -1;
	atomic_store(&slots[slot].state, SLOT_FREE);
}

void tmpfile_unlink_all(void)
{
	int saved = errno;

	for (int i = 0; i < TMPFILE_SLOTS; i++)
		if (atomic_load(&slots[i].state) == SLOT_LIVE)
			unlinkat(slots[i].dirfd, slots[i].name, 0);
	errno = saved;
}

int tmpfile_keep(int dirfd, const char *name, int *slot)
{
	int rc = slot_claim(dirfd, name);

	*slot = rc < 0 ? -1 : rc;
	return rc < 0 ? rc : 0;
}

/* ".NAME.baretma-PID-START-SEQ.tmp" in @buf (NAME_MAX + 1 bytes); NAME cut
 * where the whole would be too long: the rest says whose it is. */
static void tmp_name(char *buf, const char *name, unsigned n)
{
	char tail[96];
	size_t t, room;

	t = (size_t)snprintf(tail, sizeof(tail), TMPFILE_MARK "%ld-%llu-%u" TMPFILE_SUFFIX,
			     (long)getpid(), cpu_proc_self_start(), n);
	room = NAME_MAX - 1 - t;
	snprintf(buf, NAME_MAX + 1, ".%.*s%s", (int)(strlen(name) < room ? strlen(name) : room),
		 name, tail);
}

int tmpfile_create(int dirfd, const char *name, mode_t mode, char **tmp, int *slot)
{
	char buf[NAME_MAX + 1];
	int fd, s;

	*tmp = NULL;
	*slot = -1;
	for (;;) {
		tmp_name(buf, name, atomic_fetch_add(&seq, 1));
		/* claimed first: from the create on, a signal finds it */
		if ((s = slot_claim(dirfd, buf)) < 0)
			return s;
		fd = openat(dirfd, buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
			    O_CLOEXEC, mode);
		if (fd >= 0)
			break;
		fd = -errno;
		tmpfile_release(s);
		if (fd != -EEXIST)
			return fd;
	}
	if (!(*tmp = strdup(buf))) {
		unlinkat(dirfd, buf, 0);
		close(fd);
		tmpfile_release(s);
		return -ENOMEM;
	}
	*slot = s;
	return fd;
}

/* Digits at *@p as a number (at least one digit), *@p after them. */
static bool digits(const char **p, unsigned long long *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (*v > (~0ull - 9) / 10)
			return false;
		*v = *v * 10 + (unsigned)(*s - '0');
	}
	*p = s;
	return true;
}

bool tmpfile_parse(const char *entry, pid_t *pid, unsigned long long *start)
{
	const char *m = NULL, *p;
	unsigned long long v, n;

	if (entry[0] != '.')
		return false;
	for (p = entry + 1; (p = strstr(p, TMPFILE_MARK)); p++)
		m = p;
	if (!m || m == entry + 1)
		return false;
	p = m + strlen(TMPFILE_MARK);
	if (!digits(&p, &v) || !v || v > INT_MAX || *p++ != '-' || !digits(&p, start) ||
	    *p++ != '-' || !digits(&p, &n) || strcmp(p, TMPFILE_SUFFIX))
		return false;
	*pid = (pid_t)v;
	return true;
}

int tmpfile_sweep(int dirfd, uid_t uid)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), removed = 0;
	unsigned long long start;
	struct dirent *e;
	struct stat st;
	pid_t pid;
	DIR *d;

	if (fd < 0)
		return -errno;
	if (!(d = fdopendir(fd))) {
		int err = -errno;

		close(fd);
		return err;
	}
	while ((e = readdir(d))) {
		if (!tmpfile_parse(e->d_name, &pid, &start))
			continue;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
		    st.st_nlink != 1 || (st.st_uid != uid && st.st_uid != geteuid()))
			continue;
		if (cpu_pid_alive(pid, start))
			continue;
		if (!unlinkat(dirfd, e->d_name, 0))
			removed++;
	}
	closedir(d);
	return removed;
}
