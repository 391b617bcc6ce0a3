/* cpu/userfile_read.c - a file the invoking user names for baretma to
 * read (cpu/userfile.h userfile_open_read, userfile_read_all). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/trust.h"
#include "cpu/userfile.h"

/* Never block on a FIFO, never become a tty's process, never leak the fd
 * into a child. */
#define READ_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* The credentials the invoking user has: those the kernel checks an open
 * of theirs against (credentials(7)). */
struct reader {
	uid_t uid;
	gid_t gid;
	gid_t *groups; /* supplementary groups, with gid */
	int ngroups;
};

/* What the child that looked at the file as the invoking user saw. */
struct verdict {
	int err;       /* 0: looked at, else the errno of fstatat or open */
	int regular;   /* a regular file (else not opened: refused as usual) */
	int dir;       /* a directory it opened (userfile_look only) */
	dev_t dev;     /* the regular file or directory it opened */
	ino_t ino;
};

/* The user's entry in the user database: *@name their name for
 * getgrouplist, or "" when they have none (the tests' 4242: then their
 * groups are the primary one alone); *@gid, when $SUDO_GID gave none
 * ((gid_t)-1), their entry's.  0, or -ENOENT: no group known at all. */
static int user_entry(uid_t uid, gid_t *gid, char *name, size_t n)
{
	struct passwd pw, *found = NULL;
	char buf[16384]; /* an entry longer than this reads as none: fewer groups */

	name[0] = '\0';
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &found) || !found)
		return *gid == (gid_t)-1 ? -ENOENT : 0;
	if (*gid == (gid_t)-1)
		*gid = pw.pw_gid;
	snprintf(name, n, "%s", pw.pw_name);
	return 0;
}

/* The invoking user's credentials (cpu/trust.h), computed before the fork
 * (getpwuid_r and getgrouplist are not async-signal-safe).  Returns 1 when
 * there is nothing to check (the invoking user is the effective one), 0
 * with @r filled, or -EACCES (the invoking user, or their group, is
 * unknown: refused), -ENOMEM. */
static int reader_of(struct reader *r)
{
	char name[256];
	int n = 16;

	memset(r, 0, sizeof(*r));
	if (trust_invoking_user(&r->uid, &r->gid, NULL, 0))
		return -EACCES;
	if (r->uid == geteuid())
		return 1;
	if (user_entry(r->uid, &r->gid, name, sizeof(name)))
		return -EACCES;
	for (;;) {
		gid_t *g = realloc(r->groups, (size_t)n * sizeof(*g));
		int want = n;

		if (!g)
			return -ENOMEM;
		r->groups = g;
		if (!name[0]) { /* no entry: the primary group alone */
			g[0] = r->gid;
			r->ngroups = 1;
			return 0;
		}
		if (getgrouplist(name, r->gid, g, &want) >= 0) {
			r->ngroups = want;
			return 0;
		}
		if (want <= n || want > 65536) /* NGROUPS_MAX on Linux */
			return -EACCES;
		n = want;
	}
}

/* In the child: become the invoking user, look at @path and open it as
 * they would (a directory too, for listing, with @dirs), say what
 * happened on @out.  Async-signal-safe calls only (the parent may have
 * threads: signal-safety(7)); a FIFO or a device is looked at, not
 * opened, as the parent does. */
static __attribute__((noreturn)) void child_open(const struct reader *r, int dirfd,
						 const char *path, int flags, bool dirs, int out)
{
	int nofollow = flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0, fd;
	struct verdict v = { .err = 0 };
	struct stat st;

	if (setgroups((size_t)r->ngroups, r->groups) || setresgid(r->gid, r->gid, r->gid) ||
	    setresuid(r->uid, r->uid, r->uid))
		_exit(1); /* nothing written: the parent refuses */
	if (fstatat(dirfd, path, &st, nofollow) < 0)
		v.err = errno;
	else if ((v.regular = S_ISREG(st.st_mode))) {
		fd = openat(dirfd, path, READ_FLAGS | flags);
		if (fd < 0 || fstat(fd, &st) < 0)
			v.err = errno;
		v.dev = st.st_dev;
		v.ino = st.st_ino;
	} else if (dirs && (v.dir = S_ISDIR(st.st_mode))) {
		fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0)
			v.err = errno;
		v.dev = st.st_dev;
		v.ino = st.st_ino;
	}
	if (write(out, &v, sizeof(v)) != (ssize_t)sizeof(v))
		_exit(1);
	_exit(0);
}

/*
 * What the invoking user sees at @path: the kernel answers, as a child
 * drops to their uid, gid and groups and looks.  Every signal stays
 * blocked in the child (a handler of the parent's, such as the guard's
 * that writes registers back, never runs there), and a process whose ids
 * changed is not dumpable, so the user cannot look into the child's copy
 * of root's memory.  Returns 0 with what the child saw in @v, -EACCES
 * (the child could not become the user), or -errno (fork, pipe).
 */
static int user_looks(const struct reader *r, int dirfd, const char *path, int flags,
		      bool dirs, struct verdict *v)
{
	sigset_t all, old;
	ssize_t got = 0, n;
	int p[2], st;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child_open(r, dirfd, path, flags, dirs, p[1]);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -errno;
	}
	while (got < (ssize_t)sizeof(*v) &&
	       ((n = read(p[0], (char *)v + got, sizeof(*v) - (size_t)got)) > 0 ||
		(n < 0 && errno == EINTR)))
		got += n > 0 ? n : 0;
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return got == (ssize_t)sizeof(*v) ? 0 : -EACCES;
}

/* The invoking user's view of @path: 1 (nothing to check: they are the
 * effective user), 0 (a regular file they can open: its identity in @v;
 * or not a regular file, which the parent's own look refuses), -EACCES
 * (they may not reach or read it; or who they are is unknown), the
 * -errno they get (-ENOENT: missing for them too), or -ENOMEM. */
static int user_check(int dirfd, const char *path, int flags, bool dirs, struct verdict *v)
{
	struct reader r;
	int rc = reader_of(&r);

	if (rc == 0 && !(rc = user_looks(&r, dirfd, path, flags, dirs, v)) && v->err)
		rc = v->err == EACCES || v->err == EPERM ? -EACCES : -v->err;
	free(r.groups);
	return rc;
}

/* Look at @path (regular file only), then open it: the fd or -errno. */
static int open_regular(int dirfd, const char *path, int flags, struct stat *st)
{
	int nofollow = flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0, fd, rc = 0;

	if (fstatat(dirfd, path, st, nofollow) < 0)
		return -errno;
	if (S_ISLNK(st->st_mode))
		return -ELOOP;
	if (!S_ISREG(st->st_mode))
		return -EINVAL;
	fd = openat(dirfd, path, READ_FLAGS | flags);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0)
		rc = -errno;
	else if (!S_ISREG(st->st_mode))
		rc = -EINVAL;
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int userfile_open_read(int dirfd, const char *path, int flags)
{
	struct verdict v = { .err = 0 };
	struct stat st;
	int check = user_check(dirfd, path, flags, false, &v), fd;

	if (check < 0)
		return check;
	fd = open_regular(dirfd, path, flags, &st);
	/* Opened by root: the very file the user could open, or refused (a
	 * swap in between; or a file where the user saw none that is regular). */
	if (fd >= 0 && !check && (!v.regular || st.st_dev != v.dev || st.st_ino != v.ino)) {
		close(fd);
		return -EACCES;
	}
	return fd;
}

int userfile_look(const char *path, struct stat *st)
{
	struct verdict v = { .err = 0 };
	int check = user_check(AT_FDCWD, path, 0, true, &v);

	if (check < 0)
		return check;
	if (stat(path, st) < 0)
		return -errno;
	if (!check && (v.regular || v.dir) && (st->st_dev != v.dev || st->st_ino != v.ino))
		return -EACCES; /* swapped since the user's look */
	return 0;
}

void userfile_read_denied(char *buf, size_t n)
{
	char who[160];
	uid_t uid;
	gid_t gid;

	if (trust_invoking_user(&uid, &gid, who, sizeof(who)))
		snprintf(buf, n, "the invoking user is unknown (%s): refused unread (sudo sets "
			 "SUDO_UID for the command it runs; in a root shell of your own, unset "
			 "SUDO_USER and SUDO_UID)", who);
	else
		snprintf(buf, n, "%s, on whose behalf baretma runs as uid %u, cannot read it: "
			 "refused unread (name a file that user can read)", who,
			 (unsigned)geteuid());
}

int userfile_read_all(int fd, size_t cap, char **buf, size_t *len, uint64_t *size)
{
	struct stat st;
	size_t room, n = 0;
	char *b;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	if (*size > cap)
		return -EFBIG;
	/* Room for what fstat said and one byte more, so that a file grown
	 * since is seen to have grown: one read() for the bytes, one for the
	 * end.  Never more than cap + 1 bytes are read. */
	room = (size_t)st.st_size + 1;
	if (!(b = malloc(room + 1)))
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == room) {
			size_t next = room > cap / 2 ? cap + 1 : 2 * room;
			char *grown;

			if (room > cap)
				break; /* cap + 1 bytes read: over the cap */
			if (!(grown = realloc(b, next + 1))) {
				rc = -ENOMEM;
				break;
			}
			b = grown;
			room = next;
		}
		r = read(fd, b + n, room - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? -errno : 0;
			break;
		}
		n += (size_t)r;
	}
	if (!rc && n > cap) {
		rc = -EFBIG; /* grown while read: its size now, at least what was read */
		*size = fstat(fd, &st) == 0 && (uint64_t)st.st_size > n ? (uint64_t)st.st_size : n;
	}
	if (rc) {
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	*size = n;
	return 0;
}

void userfile_cap_text(char *buf, size_t n, uint64_t size, size_t cap, const char *kind)
{
	snprintf(buf, n, "%llu bytes, over the cap of %zu bytes for %s",
		 (unsigned long long)size, cap, kind);
}
