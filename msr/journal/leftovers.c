/* msr/journal/leftovers.c - the state directory's record of the directories of
 * writes in progress, and its use by `pmu restore` (msr/journal/leftovers.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/proc.h"
#include "cpu/tmpfile.h"
#include "cpu/userfile.h"
#include "msr/journal/leftovers.h"
#include "msr/journal/state_dir.h"

#define RECORD_PREFIX "outputs-"
#define RECORD_SUFFIX ".list"

static struct {
	dev_t dev;
	ino_t ino;
	uid_t uid;
	unsigned writes;   /* writes in progress there */
	char *path;
} dirs[LEFTOVERS_MAX_DIRS];
static int ndirs;
static int record_slot = -1; /* the record in cpu/tmpfile.h's registry */

static void record_name(char *buf, size_t n)
{
	snprintf(buf, n, RECORD_PREFIX "%ld-%llu" RECORD_SUFFIX, (long)getpid(),
		 cpu_proc_self_start());
}

/* The record as the directories now are: written, or removed with the
 * last.  Returns 0 or -errno. */
static int record_sync(void)
{
	char name[STATE_DIR_NAME_MAX], *buf = NULL;
	size_t len = sizeof(LEFTOVERS_MAGIC) - 1;
	int sd, rc;

	record_name(name, sizeof(name));
	if ((rc = state_dir_open(false, &sd)))
		return rc;
	if (!ndirs) {
		tmpfile_release(record_slot);
		record_slot = -1;
		rc = unlinkat(sd, name, 0) && errno != ENOENT ? -errno : 0;
		close(sd);
		return rc;
	}
	for (int i = 0; i < ndirs; i++)
		len += 24 + strlen(dirs[i].path);
	if (!(buf = malloc(len))) {
		close(sd);
		return -ENOMEM;
	}
	len = (size_t)sprintf(buf, "%s", LEFTOVERS_MAGIC);
	for (int i = 0; i < ndirs; i++)
		len += (size_t)sprintf(buf + len, "%u\t%s", (unsigned)dirs[i].uid, dirs[i].path) + 1;
	rc = state_dir_replace(sd, name, buf, len);
	if (!rc && record_slot < 0)
		rc = tmpfile_keep(sd, name, &record_slot);
	free(buf);
	close(sd);
	return rc;
}

static int find(const struct stat *st)
{
	for (int i = 0; i < ndirs; i++)
		if (dirs[i].dev == st->st_dev && dirs[i].ino == st->st_ino)
			return i;
	return -1;
}

/* The absolute path of the directory @dirfd, as the kernel names it. */
static char *dir_path(int dirfd)
{
	char link[64], *p = malloc(PATH_MAX);
	ssize_t n;

	if (!p)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
	n = readlink(link, p, PATH_MAX - 1);
	if (n <= 0 || p[0] != '/') {
		free(p);
		errno = n < 0 ? errno : ENOENT;
		return NULL;
	}
	p[n] = '\0';
	return p;
}

int leftovers_note(int dirfd, uid_t uid)
{
	struct stat st;
	int i, rc;

	if (fstat(dirfd, &st) < 0)
		return -errno;
	if ((i = find(&st)) >= 0 && dirs[i].uid == uid) {
		dirs[i].writes++;
		return 0;
	}
	if (i >= 0 || ndirs == LEFTOVERS_MAX_DIRS)
		return -ENOSPC; /* another user's writes there: not ours to record */
	if (!(dirs[ndirs].path = dir_path(dirfd)))
		return -errno;
	dirs[ndirs].dev = st.st_dev;
	dirs[ndirs].ino = st.st_ino;
	dirs[ndirs].uid = uid;
	dirs[ndirs].writes = 1;
	ndirs++;
	/* without a state directory yet, kept for leftovers_sync */
	if ((rc = record_sync()) && rc != -ENOENT) {
		free(dirs[--ndirs].path);
		if (!ndirs)
			record_sync();
		return rc;
	}
	return 0;
}

void leftovers_sync(void)
{
	if (ndirs && record_slot < 0)
		record_sync();
}

void leftovers_forget(int dirfd)
{
	struct stat st;
	int i;

	if (fstat(dirfd, &st) < 0 || (i = find(&st)) < 0 || --dirs[i].writes)
		return;
	free(dirs[i].path);
	dirs[i] = dirs[--ndirs];
	record_sync();
}

/* ------------------------------------------------------------ restore */

/* Is @entry a record (or its update ".NAME.tmp") of a process?  Its PID
 * and START. */
static bool parse_name(const char *entry, pid_t *pid, unsigned long long *start, bool *tmp)
{
	char rest[16] = "";
	long p;
	int n = 0;

	*tmp = entry[0] == '.';
	if (sscanf(entry + *tmp, RECORD_PREFIX "%ld-%llu%n", &p, start, &n) != 2 || p <= 0 ||
	    p > INT_MAX)
		return false;
	snprintf(rest, sizeof(rest), "%s", entry + *tmp + n);
	*pid = (pid_t)p;
	return !strcmp(rest, *tmp ? RECORD_SUFFIX ".tmp" : RECORD_SUFFIX);
}

/* Sweep the directories of the record @buf (@len bytes). */
static int sweep_record(char *buf, size_t len, struct leftovers_result *r)
{
	size_t m = sizeof(LEFTOVERS_MAGIC) - 1;
	char *p = buf + m, *end = buf + len;

	if (len < m || memcmp(buf, LEFTOVERS_MAGIC, m))
		return -EBADMSG;
	while (p < end) {
		char *nul = memchr(p, '\0', (size_t)(end - p)), *tab, *e;
		unsigned long uid;
		int fd, n;

		if (!nul || !(tab = strchr(p, '\t')) || tab == p)
			return -EBADMSG;
		errno = 0;
		uid = strtoul(p, &e, 10);
		if (e != tab || errno || uid >= (uid_t)-1 || tab[1] != '/')
			return -EBADMSG;
		fd = open(tab + 1, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			r->dirs_gone++;
		} else {
			n = tmpfile_sweep(fd, (uid_t)uid);
			r->removed += n > 0 ? (unsigned)n : 0;
			close(fd);
		}
		p = nul + 1;
	}
	return 0;
}

/* One dead process's record: read by the state directory's rule for
 * every file in it (state_dir_file_open), its directories swept, removed. */
static int restore_one(int sd, const char *name, struct leftovers_result *r)
{
	char why[128], *buf = NULL;
	uint64_t size;
	size_t len = 0;
	int fd = state_dir_file_open(sd, name, why, sizeof(why)), rc;

	if (fd < 0)
		return fd == -ENOENT ? 0 : -EBADMSG; /* gone meanwhile: nothing to do */
	rc = userfile_read_all(fd, LEFTOVERS_RECORD_MAX, &buf, &len, &size);
	close(fd);
	if (rc)
		return rc == -ENOMEM ? rc : -EBADMSG;
	rc = sweep_record(buf, len, r);
	if (!rc && !unlinkat(sd, name, 0))
		r->records++;
	free(buf);
	return rc;
}

int leftovers_restore(struct leftovers_result *r)
{
	unsigned long long start;
	struct dirent *e;
	int sd, fd, rc = 0;
	pid_t pid;
	bool tmp;
	DIR *d;

	*r = (struct leftovers_result){ 0 };
	if ((rc = state_dir_open(false, &sd)))
		return rc;
	fd = openat(sd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		close(sd);
		return rc;
	}
	while ((e = readdir(d))) {
		if (!parse_name(e->d_name, &pid, &start, &tmp) || cpu_pid_alive(pid, start))
			continue;
		if (tmp) /* an update never renamed: the record before it is whole */
			unlinkat(sd, e->d_name, 0);
		else if (restore_one(sd, e->d_name, r))
			rc = -EBADMSG;
	}
	closedir(d);
	close(sd);
	return rc;
}
