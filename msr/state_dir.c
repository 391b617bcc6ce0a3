/* msr/state_dir.c - see state_dir.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sigsafe.h"
#include "msr/state_dir.h"

/* Links followed in one walk at most: the kernel's MAXSYMLINKS (40,
 * include/linux/namei.h); more is a loop. */
#define STATE_DIR_MAX_LINKS 40

const char *state_dir_path(void)
{
	const char *d = getenv("BARETMA_STATE_DIR");

	return d && *d ? d : "/run/baretma";
}

int state_dir_check(void)
{
	return state_dir_path()[0] == '/' ? 0 : -EINVAL;
}

/*
 * One walk from "/" to the state directory, a component at a time.
 * @rest: what is left to walk (components separated by '/'; a followed
 * link's target is put in front of it).  @shown: the path walked so far as
 * a message would name it (the prefix of $BARETMA_STATE_DIR, or of a
 * followed link's target).  @fd: the directory reached (O_PATH).
 */
struct walk {
	char rest[2 * PATH_MAX];
	char shown[2 * PATH_MAX];
	int fd;
	int links;
	bool refused; /* stopped at a link it may not follow: w->shown */
};

/* Move the next component of w->rest into @comp (at most NAME_MAX bytes);
 * *last is set when no component follows it.  0, -ENOENT (none left) or
 * -ENAMETOOLONG. */
static int next_comp(struct walk *w, char comp[NAME_MAX + 1], bool *last)
{
	char *p = w->rest, *end;
	size_t len;

	while (*p == '/')
		p++;
	if (!*p)
		return -ENOENT;
	end = strchrnul(p, '/');
	len = (size_t)(end - p);
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(comp, p, len);
	comp[len] = '\0';
	while (*end == '/')
		end++;
	*last = !*end;
	memmove(w->rest, end, strlen(end) + 1);
	return 0;
}

/* Append "/@comp" to w->shown (cut with "..." where it does not fit). */
static void show(struct walk *w, const char *comp)
{
	size_t len = strlen(w->shown), n = sizeof(w->shown) - len;

	if ((size_t)snprintf(w->shown + len, n, "%s%s", len == 1 ? "" : "/", comp) >= n)
		memcpy(w->shown + sizeof(w->shown) - 4, "...", 4);
}

/*
 * May the link @comp in w->fd be followed?  Only one that no one but root
 * could have made or changed: owned by root, in a directory owned by root
 * that group and others cannot write.  That is /var/run -> /run; a link
 * another user made or could replace (in /tmp, in their own directory) is
 * never followed, whoever runs baretma.
 */
static bool link_trusted(const struct walk *w, const struct stat *link)
{
	struct stat dir;

	if (link->st_uid != 0 || fstat(w->fd, &dir) < 0)
		return false;
	return dir.st_uid == 0 && !(dir.st_mode & (S_IWGRP | S_IWOTH));
}

/* w->fd := "/" (the walk's start, and an absolute link's). */
static int restart(struct walk *w)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = fd;
	snprintf(w->shown, sizeof(w->shown), "/");
	return 0;
}

/* Follow the trusted link @comp of w->fd: its target goes in front of what
 * is left to walk.  0 or -errno. */
static int follow(struct walk *w, const char *comp)
{
	char target[PATH_MAX];
	size_t rest = strlen(w->rest);
	ssize_t len;
	int rc;

	if (++w->links > STATE_DIR_MAX_LINKS)
		return -ELOOP;
	len = readlinkat(w->fd, comp, target, sizeof(target) - 1);
	if (len < 0)
		return -errno;
	target[len] = '\0';
	if ((size_t)len + 1 + rest + 1 > sizeof(w->rest))
		return -ENAMETOOLONG;
	memmove(w->rest + len + 1, w->rest, rest + 1);
	memcpy(w->rest, target, (size_t)len);
	w->rest[len] = '/';
	if (target[0] == '/' && (rc = restart(w)))
		return rc;
	return 0;
}

/* After an open of @comp with O_NOFOLLOW | O_DIRECTORY failed (errno as it
 * left it): 0 when @comp is a symbolic link (its lstat in @st: O_NOFOLLOW
 * says ELOOP, or O_PATH opened the link itself and O_DIRECTORY said
 * ENOTDIR), -ENOTDIR when it is something else that is no directory, the
 * open's or lstat's -errno otherwise. */
static int is_link(const struct walk *w, const char *comp, struct stat *st)
{
	if (errno != ENOTDIR && errno != ELOOP)
		return -errno;
	if (fstatat(w->fd, comp, st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	return S_ISLNK(st->st_mode) ? 0 : -ENOTDIR;
}

/* Step into the directory @comp of w->fd (not the last component): a
 * directory, or a trusted link to one.  -ELOOP for a link not trusted. */
static int step(struct walk *w, const char *comp)
{
	struct stat st;
	int rc, fd = openat(w->fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0) {
		close(w->fd);
		w->fd = fd;
		show(w, comp);
		return 0;
	}
	if ((rc = is_link(w, comp, &st)))
		return rc;
	if (!link_trusted(w, &st)) {
		show(w, comp);
		w->refused = true;
		return -ELOOP;
	}
	return follow(w, comp);
}

static int open_dir(const struct walk *w, const char *comp)
{
	return openat(w->fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Open (after making it, 0700, when missing and @create) the last
 * component @comp of w->fd: never a link, whoever owns it. */
static int open_last(struct walk *w, const char *comp, bool create, int *dirfd)
{
	struct stat st;
	int fd;

	show(w, comp);
	fd = open_dir(w, comp);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(w->fd, comp, 0700) < 0 && errno != EEXIST)
			return -errno;
		fd = open_dir(w, comp);
	}
	if (fd < 0) {
		int rc = is_link(w, comp, &st);

		if (rc)
			return rc;
		w->refused = true;
		return -ELOOP;
	}
	*dirfd = fd;
	return 0;
}

/* The state directory's descriptor in *dirfd, walked from "/"; on -ELOOP
 * the link refused is named in @bad (@n bytes; may be NULL). */
static int walk_open(bool create, int *dirfd, char *bad, size_t n)
{
	const char *dir = state_dir_path();
	struct walk *w = calloc(1, sizeof(*w));
	char comp[NAME_MAX + 1];
	bool last = false;
	int rc;

	if (!w)
		return -ENOMEM;
	w->fd = -1;
	snprintf(w->rest, sizeof(w->rest), "%s", dir);
	rc = restart(w);
	if (!rc && (rc = next_comp(w, comp, &last)) == -ENOENT) {
		snprintf(comp, sizeof(comp), "."); /* "/" itself */
		last = true;
		rc = 0;
	}
	while (!rc && !last && !(rc = step(w, comp)))
		rc = next_comp(w, comp, &last);
	if (!rc)
		rc = open_last(w, comp, create, dirfd);
	if (rc == -ELOOP && w->refused && bad && n)
		snprintf(bad, n, "%s", w->shown);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
	return rc;
}

int state_dir_symlink(char *buf, size_t n)
{
	int fd = -1, rc;

	if (buf && n)
		buf[0] = '\0';
	rc = walk_open(false, &fd, buf, n);
	if (fd >= 0)
		close(fd);
	return rc == -ELOOP && buf && buf[0] ? 0 : -ENOENT;
}

int state_dir_open(bool create, int *dirfd)
{
	const char *dir = state_dir_path();
	struct stat st;
	int fd = -1, rc = state_dir_check();

	if (rc)
		return rc;
	if (strlen(dir) + 1 + STATE_DIR_NAME_MAX >= PATH_MAX)
		return -ENAMETOOLONG;
	rc = walk_open(create, &fd, NULL, 0);
	if (rc)
		return rc;
	/* Check the directory we opened, not the name (no race with a swap). */
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		rc = -EPERM;
	/* Root passes the permission check anyway; others must be able to
	 * create files (the journal, the locks) in it. */
	else if (faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) < 0)
		rc = -errno;
	if (rc)
		close(fd);
	else
		*dirfd = fd;
	return rc;
}

int state_dir_write_tmp(int dirfd, const char *tmp, const char *buf, size_t len)
{
	int fd, rc = 0;

	if (unlinkat(dirfd, tmp, 0) < 0 && errno != ENOENT)
		return -errno;
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) < 0) /* exactly 0600 whatever the umask */
		rc = -errno;
	if (!rc)
		rc = sigsafe_write_all(fd, buf, len);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		unlinkat(dirfd, tmp, 0);
	return rc;
}

int state_dir_replace(int dirfd, const char *name, const char *buf, size_t len)
{
	char tmp[NAME_MAX + 1];
	struct stat st;
	int rc;

	if ((size_t)snprintf(tmp, sizeof(tmp), ".%s.tmp", name) >= sizeof(tmp))
		return -ENAMETOOLONG;
	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		return -ELOOP;
	rc = state_dir_write_tmp(dirfd, tmp, buf, len);
	if (rc)
		return rc;
	if (renameat(dirfd, tmp, dirfd, name) < 0) {
		rc = -errno;
		unlinkat(dirfd, tmp, 0);
	}
	if (!rc && fsync(dirfd) < 0)
		rc = -errno;
	return rc;
}
