/* cpu/userfile.c - a file the invoking user names for baretma to append
 * to (cpu/userfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/trust.h"
#include "cpu/userfile.h"

/* A link at the name is not followed; a FIFO or tty there neither blocks
 * nor becomes our terminal before it is refused. */
#define USERFILE_FLAGS (O_WRONLY | O_APPEND | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)

/* Why @st is not a file this process may append to for @uid, or NULL. */
static const char *refusal(const struct stat *st, uid_t uid)
{
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_uid != uid)
		return "owned by another user than the invoking user";
	if (st->st_nlink != 1)
		return "a file with other hard links";
	return NULL;
}

/*
 * Could @uid have created a file in the directory @dir?  When it owns
 * the directory (it may chmod it as it likes), or when everyone may
 * create files there and the sticky bit keeps each its creator's (/tmp).
 * Group membership is not looked at: a group-writable directory of
 * another user is refused.
 */
bool userfile_dir_is_users(const struct stat *dir, uid_t uid)
{
	mode_t all = S_IWOTH | S_IXOTH | S_ISVTX;

	return dir->st_uid == uid || (dir->st_mode & all) == all;
}

/* The directory of @path (O_PATH) and the name in it: "." when @path has
 * no '/'.  Returns the descriptor, or -errno. */
static int open_parent(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	*base = slash ? slash + 1 : path;
	if (!**base)
		return -EISDIR;
	dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return -ENOMEM;
	fd = open(*dir ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	free(dir);
	return fd;
}

/* Create @base in @dirfd for @uid (@gid; (gid_t)-1: left as created):
 * 0600, exclusively, in a directory @uid could have created it in.
 * Returns the fd, or -errno (-EPERM with *@why). */
static int create(int dirfd, const char *base, uid_t uid, gid_t gid, const char **why)
{
	bool for_other = uid != geteuid();
	struct stat dir;
	int fd, rc = 0;

	if (for_other) {
		if (fstat(dirfd, &dir) < 0)
			return -errno;
		if (!userfile_dir_is_users(&dir, uid)) {
			*why = "a new file in a directory the invoking user does not own";
			return -EPERM;
		}
	}
	fd = openat(dirfd, base, USERFILE_FLAGS | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) < 0 || (for_other && fchown(fd, uid, gid) < 0))
		rc = -errno;
	if (rc) {
		close(fd);
		unlinkat(dirfd, base, 0);
		return rc;
	}
	return fd;
}

int userfile_open_append(const char *path, const char **why)
{
	const char *base;
	struct stat st;
	uid_t uid;
	gid_t gid;
	int dirfd, fd, rc = 0;

	*why = NULL;
	if (trust_invoking_user(&uid, &gid, NULL, 0)) {
		*why = "named under sudo without a valid $SUDO_UID";
		return -EPERM;
	}
	dirfd = open_parent(path, &base);
	if (dirfd < 0)
		return dirfd;
	/* Look before opening: a device or FIFO at the name is never opened. */
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0)
		*why = S_ISLNK(st.st_mode) ? "a symbolic link" : refusal(&st, uid);
	else if (errno != ENOENT)
		rc = -errno;
	if (*why)
		rc = -EPERM;
	if (rc)
		goto out;
	fd = openat(dirfd, base, USERFILE_FLAGS);
	if (fd < 0 && errno == ENOENT)
		fd = create(dirfd, base, uid, gid, why);
	else if (fd < 0)
		fd = errno == ELOOP ? (*why = "a symbolic link", -EPERM) : -errno;
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if ((*why = refusal(&st, uid)))
		rc = -EPERM;
	if (rc)
		close(fd);
	else
		rc = fd;
out:
	close(dirfd);
	return rc;
}

void userfile_remedy(char *buf, size_t n)
{
	char who[160];
	uid_t uid;
	gid_t gid;

	if (trust_invoking_user(&uid, &gid, who, sizeof(who)))
		snprintf(buf, n, "the invoking user is unknown: %s (sudo sets it for the command "
			 "it runs; in a root shell of your own, unset SUDO_USER and SUDO_UID)", who);
	else if (uid == geteuid())
		snprintf(buf, n, "name a new file: baretma creates it 0600 for uid %u, or one of "
			 "that uid's own", (unsigned)uid);
	else
		snprintf(buf, n, "name a new file in a directory of %s or in a sticky one "
			 "everyone may write, like /tmp: baretma creates it 0600 for that uid; or "
			 "one of that uid's own files", who);
}
