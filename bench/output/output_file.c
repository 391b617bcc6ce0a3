/*
 * bench/output/output_file.c - a file written whole or not at all, never
 * through a symbolic link, for the invoking user (bench/output/output.h
 * "files named by users"): every file a command writes (-o, --openmetrics,
 * --plot, --bundle, calibrate -o, cpuid dump -o).  The rename is what
 * makes it atomic for a reader (rename(2): "If newpath already exists, it
 * will be atomically replaced, so that there is no point at which another
 * process attempting to access newpath will find it missing"); the fsyncs
 * make the new text, then the new name, durable before the command says
 * it is done.  The new file is a temporary file of cpu/tmpfile.h: a signal
 * or a later run removes it when the write does not end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/output/output.h"
#include "cpu/tmpfile.h"
#include "cpu/trust.h"
#include "cpu/userfile.h"
#include "msr/journal/leftovers.h"

struct output_file {
	int dirfd;        /* the directory of the name (O_DIRECTORY: fsync'd) */
	char *name;       /* the name in it */
	char *tmp;        /* the new file's name in it */
	int slot;         /* the new file's in cpu/tmpfile.h's registry */
	int fd;           /* the new file */
	FILE *f;          /* a stream on @fd (output_file_stream), or NULL */
	int err;          /* the first failed write's errno, or 0 */
	bool noted;       /* the directory is in the state directory's record */
};

/* Why the existing @st at the name cannot be replaced for @uid, or NULL. */
static int refuse_existing(const struct stat *st, uid_t uid, bool for_other, const char **why)
{
	if (S_ISLNK(st->st_mode))
		return *why = "a symbolic link", -ELOOP;
	if (S_ISDIR(st->st_mode))
		return *why = "a directory", -EISDIR;
	if (!S_ISREG(st->st_mode))
		return *why = "not a regular file", -EINVAL;
	if (for_other && st->st_uid != uid)
		return *why = "owned by another user than the invoking user", -EPERM;
	return 0;
}

/* The directory of @path (O_DIRECTORY, to be fsync'd) and the name in it. */
static int open_dir(const char *path, char **name)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char *dir;
	int fd;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EISDIR;
	dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	*name = strdup(base);
	if (!dir || !*name) {
		free(dir);
		free(*name);
		return -ENOMEM;
	}
	fd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	free(dir);
	if (fd < 0)
		free(*name);
	return fd;
}

/*
 * The checks: the invoking user known, the name nothing but a regular
 * file (theirs when they are not who we are), the directory one they
 * could create a file in.  *@mode: the existing file's permission bits with S_IFREG,
 * or 0 when there is none.  Returns 0 or -errno (*@why set for a refusal).
 */
static int check_at(int dirfd, const char *name, uid_t *uid, gid_t *gid, mode_t *mode,
		    const char **why)
{
	struct stat st, dir;
	bool for_other;
	int rc;

	*mode = 0;
	if (trust_invoking_user(uid, gid, NULL, 0))
		return *why = "named under sudo without a valid $SUDO_UID", -EPERM;
	for_other = *uid != geteuid();
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if ((rc = refuse_existing(&st, *uid, for_other, why)))
			return rc;
		*mode = (st.st_mode & 0777) | S_IFREG; /* never a set-id bit; 0 is no file */
	} else if (errno != ENOENT) {
		return -errno;
	}
	if (for_other) {
		if (fstat(dirfd, &dir) < 0)
			return -errno;
		if (!userfile_dir_is_users(&dir, *uid))
			return *why = *mode ? "in a directory the invoking user does not own" :
				      "a new file in a directory the invoking user does not own",
			       -EPERM;
	}
	return 0;
}

int output_file_check(const char *path, const char **why)
{
	char *name;
	uid_t uid;
	gid_t gid;
	mode_t mode;
	int dirfd, rc;

	*why = NULL;
	dirfd = open_dir(path, &name);
	if (dirfd < 0)
		return dirfd;
	rc = check_at(dirfd, name, &uid, &gid, &mode, why);
	close(dirfd);
	free(name);
	return rc;
}

/* The new file: a leftover of a killed run swept first, then created
 * exclusively (never through a link planted at its name), with an
 * existing file's mode exactly (the umask left out), the user's. */
static int create_tmp(struct output_file *of, uid_t uid, gid_t gid, mode_t mode)
{
	int fd;

	tmpfile_sweep(of->dirfd, uid); /* best effort: a file we cannot remove stays */
	/* 0666 less the umask, as a shell's redirection creates it */
	fd = tmpfile_create(of->dirfd, of->name, mode ? mode & 0777 : 0666, &of->tmp, &of->slot);
	if (fd < 0)
		return fd;
	of->fd = fd;
	if ((mode && fchmod(fd, mode & 0777) < 0) || (uid != geteuid() && fchown(fd, uid, gid) < 0))
		return -errno;
	of->noted = leftovers_note(of->dirfd, uid) == 0;
	return 0;
}

int output_file_open_atomic(const char *path, struct output_file **out, const char **why)
{
	struct output_file *of = calloc(1, sizeof(*of));
	uid_t uid;
	gid_t gid;
	mode_t mode;
	int rc;

	*why = NULL;
	*out = NULL;
	if (!of)
		return -ENOMEM;
	of->fd = of->slot = -1;
	of->dirfd = open_dir(path, &of->name);
	if (of->dirfd < 0) {
		rc = of->dirfd;
		free(of);
		return rc;
	}
	rc = check_at(of->dirfd, of->name, &uid, &gid, &mode, why);
	if (!rc)
		rc = create_tmp(of, uid, gid, mode);
	if (rc) {
		output_file_abort(of);
		return rc;
	}
	*out = of;
	return 0;
}

/* The stream's writes, each to the end or to the first error, kept. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct output_file *of = cookie;
	size_t done = 0;

	while (done < len && !of->err) {
		ssize_t n = write(of->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			of->err = n < 0 ? errno : EIO;
		else
			done += (size_t)n;
	}
	if (of->err) {
		errno = of->err;
		return -1;
	}
	return (ssize_t)done;
}

FILE *output_file_stream(struct output_file *of)
{
	if (!of->f)
		of->f = fopencookie(of, "w", (cookie_io_functions_t){ .write = cookie_write });
	return of->f;
}

int output_file_fd(const struct output_file *of)
{
	return of->fd;
}

void output_file_failed(struct output_file *of, int err)
{
	if (!of->err && err > 0)
		of->err = err;
}

int output_file_error(const struct output_file *of)
{
	return -of->err;
}

int output_file_commit(struct output_file *of, const char **why)
{
	struct stat st;
	int rc = 0;

	*why = NULL;
	if (of->f && (fflush(of->f) || ferror(of->f)) && !of->err)
		of->err = EIO;
	if (of->err)
		rc = -of->err;
	else if (fsync(of->fd) < 0)
		rc = -errno;
	/* Something else put at the name since the open is not replaced. */
	if (!rc && fstatat(of->dirfd, of->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		rc = refuse_existing(&st, st.st_uid, false, why);
	if (!rc && renameat(of->dirfd, of->tmp, of->dirfd, of->name) < 0)
		rc = -errno;
	if (!rc) {
		tmpfile_release(of->slot); /* renamed: the name is no longer ours to remove */
		of->slot = -1;
		free(of->tmp);
		of->tmp = NULL;
		if (fsync(of->dirfd) < 0)
			rc = -errno;
	}
	output_file_abort(of);
	return rc;
}

void output_file_abort(struct output_file *of)
{
	if (!of)
		return;
	if (of->f)
		fclose(of->f); /* the cookie's: no close of the descriptor */
	if (of->fd >= 0)
		close(of->fd);
	if (of->tmp)
		unlinkat(of->dirfd, of->tmp, 0);
	tmpfile_release(of->slot);
	if (of->noted)
		leftovers_forget(of->dirfd);
	close(of->dirfd);
	free(of->tmp);
	free(of->name);
	free(of);
}
