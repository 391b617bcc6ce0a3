/*
 * bench/output/output_file.c - a file written whole or not at all, never
 * through a symbolic link (bench/output/output.h "files named by users"):
 * -o FILE and --openmetrics FILE.  The rename is what makes it atomic for
 * a reader (rename(2): "If newpath already exists, it will be atomically
 * replaced, so that there is no point at which another process attempting
 * to access newpath will find it missing"); the fsyncs make the new text,
 * then the new name, durable before the command says it is done.
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
#include "cpu/trust.h"
#include "cpu/userfile.h"

struct output_file {
	int dirfd;        /* the directory of the name (O_DIRECTORY: fsync'd) */
	char *name;       /* the name in it */
	char *tmp;        /* the new file's name in it */
	FILE *f;          /* the new file */
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
 * could create a file in.  *@mode: the existing file's permission bits,
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
		*mode = st.st_mode & 0777; /* never a set-id bit */
	} else if (errno != ENOENT) {
		return -errno;
	}
	if (for_other) {
		if (fstat(dirfd, &dir) < 0)
			return -errno;
		if (!userfile_dir_is_users(&dir, *uid))
			return *why = "a new file in a directory the invoking user does not own",
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

/* The new file ".NAME.PID.tmp" (".NAME.PID-N.tmp" if a crashed run's is
 * there), created exclusively, never through a link planted at its name. */
static int create_tmp(struct output_file *of, mode_t mode)
{
	for (unsigned i = 0; i < 100; i++) {
		size_t n = strlen(of->name) + 48;
		int fd;

		free(of->tmp);
		if (!(of->tmp = malloc(n)))
			return -ENOMEM;
		if (i)
			snprintf(of->tmp, n, ".%s.%ld-%u.tmp", of->name, (long)getpid(), i);
		else
			snprintf(of->tmp, n, ".%s.%ld.tmp", of->name, (long)getpid());
		/* 0666 less the umask, as a shell's redirection creates it */
		fd = openat(of->dirfd, of->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_NOCTTY | O_CLOEXEC, mode ? mode : 0666);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int output_file_open_atomic(const char *path, struct output_file **out, const char **why)
{
	struct output_file *of = calloc(1, sizeof(*of));
	uid_t uid;
	gid_t gid;
	mode_t mode;
	int fd = -1, rc;

	*why = NULL;
	*out = NULL;
	if (!of)
		return -ENOMEM;
	of->dirfd = open_dir(path, &of->name);
	if (of->dirfd < 0) {
		rc = of->dirfd;
		free(of);
		return rc;
	}
	rc = check_at(of->dirfd, of->name, &uid, &gid, &mode, why);
	if (!rc && (fd = create_tmp(of, mode)) < 0)
		rc = fd;
	/* an existing file's mode exactly (the umask left out); the user's */
	if (!rc && ((mode && fchmod(fd, mode) < 0) ||
		    (uid != geteuid() && fchown(fd, uid, gid) < 0)))
		rc = -errno;
	if (!rc && !(of->f = fdopen(fd, "w")))
		rc = -errno;
	if (rc) {
		if (fd >= 0) {
			close(fd);
			unlinkat(of->dirfd, of->tmp, 0);
		}
		of->f = NULL;
		free(of->tmp);
		of->tmp = NULL;
		output_file_abort(of);
		return rc;
	}
	*out = of;
	return 0;
}

FILE *output_file_stream(struct output_file *of)
{
	return of->f;
}

int output_file_commit(struct output_file *of, const char **why)
{
	struct stat st;
	int rc = 0;

	*why = NULL;
	if (fflush(of->f) || ferror(of->f))
		rc = -EIO;
	else if (fsync(fileno(of->f)) < 0)
		rc = -errno;
	/* Something else put at the name since the open is not replaced. */
	if (!rc && fstatat(of->dirfd, of->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		rc = refuse_existing(&st, st.st_uid, false, why);
	if (!rc && renameat(of->dirfd, of->tmp, of->dirfd, of->name) < 0)
		rc = -errno;
	if (!rc && fsync(of->dirfd) < 0)
		rc = -errno;
	if (rc) {
		output_file_abort(of);
		return rc;
	}
	fclose(of->f);
	of->f = NULL;
	free(of->tmp);
	of->tmp = NULL;
	output_file_abort(of);
	return 0;
}

void output_file_abort(struct output_file *of)
{
	if (!of)
		return;
	if (of->f)
		fclose(of->f);
	if (of->tmp)
		unlinkat(of->dirfd, of->tmp, 0);
	close(of->dirfd);
	free(of->tmp);
	free(of->name);
	free(of);
}
