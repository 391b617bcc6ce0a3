/*
 * msr/journal/journal_list.c - the journals of other runs in the state directory
 * (msr/journal/journal.h, msr/journal/state_dir.h): their names, whether their process
 * still runs (cpu/proc.h, per PID: every journal of a PID lives and
 * dies with it), journal_list(), journal_info_free(), journal_find_cpu()
 * and journal_remove().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/escape.h"
#include "cpu/proc.h"
#include "cpu/text.h"
#include "msr/journal/journal.h"
#include "msr/journal/journal_int.h"
#include "msr/journal/state_dir.h"

/* ------------------------------------------------------------- listing */

void journal_file_name(pid_t pid, int seq, char *buf, size_t n)
{
	if (seq > 0)
		snprintf(buf, n, "run-%ld-%d.journal", (long)pid, seq);
	else
		snprintf(buf, n, "run-%ld.journal", (long)pid);
}

/* A journal's name in the directory. */
struct entry {
	pid_t pid;
	int seq;
};

/* "run-<PID>.journal" or "run-<PID>-<N>.journal" exactly (journal.h);
 * with @tmp the temporary file of an update, "." name ".tmp". */
static bool name_pid(const char *name, struct entry *e, bool tmp)
{
	const char *dot, *dash;
	unsigned long long v, n = 0;
	size_t len = strlen(name);

	if (tmp) {
		if (name[0] != '.' || len < 5 || strcmp(name + len - 4, ".tmp"))
			return false;
		name++;
		len -= 5;
	}
	dot = memchr(name, '.', len);
	if (strncmp(name, "run-", 4) || !dot || (size_t)(dot - name) + 8 != len ||
	    strncmp(dot, ".journal", 8))
		return false;
	dash = memchr(name + 4, '-', (size_t)(dot - name - 4));
	if (!journal_dec_exact(name + 4, dash ? dash : dot, INT32_MAX, &v) || v == 0)
		return false;
	if (dash && (!journal_dec_exact(dash + 1, dot, JOURNAL_MAX_OPEN - 1, &n) || n == 0))
		return false;
	e->pid = (pid_t)v;
	e->seq = (int)n;
	return true;
}

static bool journal_name_pid(const char *name, struct entry *e)
{
	return name_pid(name, e, false);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The journals in the state directory, by PID then N (malloc'd). */
static int list_entries(int dirfd, struct entry **out, int *n)
{
	struct dirent *de;
	struct entry *v = NULL, e;
	int cap = 0, cnt = 0, fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0), rc = 0;
	DIR *dir;

	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(dir)) != NULL) {
		if (!journal_name_pid(de->d_name, &e))
			continue;
		if (cnt == cap) {
			struct entry *nv = realloc(v, (size_t)(cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!nv) {
				rc = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[cnt++] = e;
	}
	closedir(dir);
	if (rc) {
		free(v);
		return rc;
	}
	if (cnt > 1) /* v is NULL when there is none: qsort(NULL, 0) is undefined */
		qsort(v, (size_t)cnt, sizeof(*v), cmp_entry);
	*out = v;
	*n = cnt;
	return 0;
}

/* Load the journal @e in @dirfd into @info. */
static void info_load(int dirfd, const struct entry *e, struct journal_info *info)
{
	pid_t pid = e->pid;
	char name[64], why[160];
	int fd;

	memset(info, 0, sizeof(*info));
	journal_file_name(pid, e->seq, name, sizeof(name));
	snprintf(info->path, sizeof(info->path), "%s/%s", state_dir_path(), name);
	info->pid = pid;
	info->seq = e->seq;
	fd = state_dir_file_open(dirfd, name, why, sizeof(why)); /* the state dir's rule */
	if (fd < 0) {
		info->error = fd;
		if (fd == -EPERM && text_setf(&info->detail, "%s", why))
			info->error = -ENOMEM;
		return;
	}
	info->error = journal_load_fd(fd, &info->data, &info->detail);
	close(fd);
	if (!info->error && info->data.pid != pid) {
		info->error = text_setf(&info->detail, "line 2: pid %ld, but the file is named "
					"for %ld", (long)info->data.pid, (long)pid) ? -ENOMEM : -EINVAL;
		data_free(&info->data);
	}
	if (info->error == -EINVAL) { /* quotes the file's name and text: escaped */
		char *raw = NULL;

		if (!text_setf(&raw, "%s: %s", info->path, info->detail))
			journal_error_set(esc_strdup(raw));
		free(raw);
	}
	info->alive = cpu_pid_alive(pid, info->error ? 0 : info->data.starttime);
}

/* The directory and its journals; *n = 0 when there is no directory. */
static int open_list(int *dirfd, struct entry **v, int *n)
{
	int rc = state_dir_open(false, dirfd);

	*v = NULL;
	*n = 0;
	if (rc == -ENOENT)
		*dirfd = -1;
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	rc = list_entries(*dirfd, v, n);
	if (rc)
		close(*dirfd);
	return rc;
}

int journal_list(struct journal_info *out, int max)
{
	struct entry *v;
	int dirfd, n, rc;

	journal_error_set(NULL);
	rc = open_list(&dirfd, &v, &n);
	if (rc || dirfd < 0)
		return rc;
	if (n > max) {
		rc = -ERANGE;
	} else {
		for (int i = 0; i < n; i++)
			info_load(dirfd, &v[i], &out[i]);
		rc = n;
	}
	free(v);
	close(dirfd);
	return rc;
}

void journal_info_free(struct journal_info *info, int n)
{
	for (int i = 0; info && i < n; i++) {
		data_free(&info[i].data);
		free(info[i].detail);
		info[i].detail = NULL;
	}
}

int journal_find_cpu(unsigned cpu, struct journal_info *who)
{
	pid_t self = getpid();
	struct entry *v;
	int dirfd, n, rc;

	memset(who, 0, sizeof(*who));
	journal_error_set(NULL);
	rc = open_list(&dirfd, &v, &n);
	if (rc || dirfd < 0)
		return rc;
	for (int i = 0; i < n && !rc; i++) {
		if (v[i].pid == self)
			continue;
		info_load(dirfd, &v[i], who);
		if (who->error)
			rc = who->error;
		else if (has_cpu(&who->data, cpu))
			rc = 1;
		else
			journal_info_free(who, 1);
	}
	free(v);
	close(dirfd);
	return rc;
}

int journal_list_tmp(struct journal_tmp *out, int max)
{
	struct dirent *de;
	struct entry e;
	int dirfd, fd, n = 0, rc = state_dir_open(false, &dirfd);
	DIR *dir;

	if (rc)
		return rc == -ENOENT ? 0 : rc;
	fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		close(dirfd);
		return rc;
	}
	while ((de = readdir(dir)) != NULL) {
		if (!name_pid(de->d_name, &e, true))
			continue;
		if (n == max) {
			rc = -ERANGE;
			break;
		}
		out[n] = (struct journal_tmp){ .pid = e.pid, .seq = e.seq,
					       .alive = cpu_pid_alive(e.pid, 0) };
		snprintf(out[n].path, sizeof(out[n].path), "%s/%s", state_dir_path(), de->d_name);
		n++;
	}
	closedir(dir);
	close(dirfd);
	return rc ? rc : n;
}

int journal_remove(pid_t pid)
{
	return journal_remove_seq(pid, 0);
}

/* Unlink journal @seq of @pid (its temporary file with @tmp) and make it
 * durable. */
static int remove_file(pid_t pid, int seq, bool tmp)
{
	char name[64], file[80];
	int dirfd, rc;

	if (seq < 0 || seq >= JOURNAL_MAX_OPEN)
		return -EINVAL;
	rc = state_dir_open(false, &dirfd);
	if (rc)
		return rc;
	journal_file_name(pid, seq, name, sizeof(name));
	snprintf(file, sizeof(file), tmp ? ".%s.tmp" : "%s", name);
	if (unlinkat(dirfd, file, 0) < 0)
		rc = -errno;
	else if (fsync(dirfd) < 0)
		rc = -errno;
	close(dirfd);
	return rc;
}

int journal_remove_seq(pid_t pid, int seq)
{
	return remove_file(pid, seq, false);
}

int journal_remove_tmp(pid_t pid, int seq)
{
	return remove_file(pid, seq, true);
}
