/* cpu/userfile.c - a file the real user names for baretma to append to
 * (cpu/userfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/userfile.h"

/* A link at the name is not followed; a FIFO or tty there neither blocks
 * nor becomes our terminal before it is refused. */
#define USERFILE_FLAGS (O_WRONLY | O_APPEND | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)

/* Why @st is not a file this process may append to, or NULL. */
static const char *refusal(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_uid != getuid())
		return "owned by another user than the real uid";
	if (st->st_nlink != 1)
		return "a file with other hard links";
	return NULL;
}

int userfile_open_append(const char *path, const char **why)
{
	struct stat st;
	int fd = -1, rc = 0;

	*why = NULL;
	/* Look before opening: a device or FIFO at the name is never opened. */
	if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
		*why = S_ISLNK(st.st_mode) ? "a symbolic link" : refusal(&st);
	else if (errno != ENOENT)
		return -errno;
	if (*why)
		return -EPERM;
	fd = open(path, USERFILE_FLAGS);
	if (fd < 0 && errno == ENOENT) {
		fd = open(path, USERFILE_FLAGS | O_CREAT | O_EXCL, 0600);
		if (fd >= 0 && (fchmod(fd, 0600) < 0 ||
				(geteuid() != getuid() && fchown(fd, getuid(), getgid()) < 0)))
			rc = -errno;
	}
	if (fd < 0)
		return errno == ELOOP ? (*why = "a symbolic link", -EPERM) : -errno;
	if (!rc && fstat(fd, &st) < 0)
		rc = -errno;
	if (!rc && (*why = refusal(&st)))
		rc = -EPERM;
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

