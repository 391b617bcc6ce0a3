/* msr/state_dir.c - see state_dir.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr/state_dir.h"

const char *state_dir_path(void)
{
	const char *d = getenv("BARETMA_STATE_DIR");

	return d && *d ? d : "/run/baretma";
}

int state_dir_check(void)
{
	return state_dir_path()[0] == '/' ? 0 : -EINVAL;
}

int state_dir_open(bool create, int *dirfd)
{
	const char *dir = state_dir_path();
	struct stat st;
	int fd, rc = state_dir_check();

	if (rc)
		return rc;
	if (strlen(dir) + 1 + STATE_DIR_NAME_MAX >= PATH_MAX)
		return -ENAMETOOLONG;
	if (lstat(dir, &st) < 0) {
		if (errno != ENOENT || !create)
			return -errno;
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -errno;
		if (lstat(dir, &st) < 0)
			return -errno;
	}
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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
