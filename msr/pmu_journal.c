/*
 * msr/pmu_journal.c - the journal of "baretma pmu enable": what each
 * programmed CPU had before, so that "baretma pmu restore" (another process,
 * maybe much later) can write it back.  Format: msr/pmu.h.
 *
 * The journal decides what root writes into MSRs, so the directory must be
 * ours alone: not a symlink (-ELOOP), a directory owned by the effective
 * user and not writable by group or others (-EPERM).  Files are created
 * 0600 with O_CREAT|O_EXCL|O_NOFOLLOW under a temporary name, fsync'd and
 * renamed into place, then the directory is fsync'd.  The parser is strict:
 * anything but the exact format is -EINVAL.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr/pmu.h"
#include "sigsafe.h"

#define JOURNAL_MAGIC "# baretma pmu journal v1"
#define JOURNAL_MAX 4096

const char *pmu_state_dir(void)
{
	const char *d = getenv("BARETMA_STATE_DIR");

	return d && *d ? d : "/run/baretma";
}

/* Open the state directory after checking who owns it. */
static int dir_open(int create, int *dirfd)
{
	const char *dir = pmu_state_dir();
	struct stat st;
	int fd, rc = 0;

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
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Check the directory we opened, not the name (no race with a swap). */
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		rc = -EPERM;
	if (rc)
		close(fd);
	else
		*dirfd = fd;
	return rc;
}

static void journal_name(char *buf, size_t n, unsigned cpu)
{
	snprintf(buf, n, "cpu%u.journal", cpu);
}

/* Copy @s into @dst for one journal line: control characters become '?'. */
static void one_line(char *dst, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < n; i++)
		dst[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
	dst[i] = '\0';
}

static int format_journal(const struct pmu_journal_entry *e, char *buf, size_t n)
{
	char cmd[sizeof(e->cmd)], backend[sizeof(e->backend)];
	const struct pmu_saved *s = &e->saved;
	int w;

	one_line(cmd, sizeof(cmd), e->cmd);
	one_line(backend, sizeof(backend), e->backend);
	w = snprintf(buf, n, JOURNAL_MAGIC "\npid %ld\ncmd %s\ntime %lld\n"
		     "backend %s\nuser_only %d\ncpu %u perf_metrics %d global_ctrl 0x%"
		     PRIx64 " fixed_ctr_ctrl 0x%" PRIx64 " fixed_ctr3 0x%" PRIx64
		     " perf_metrics_val 0x%" PRIx64 "\n", (long)e->pid, cmd,
		     e->time, backend, e->user_only ? 1 : 0, s->cpu,
		     s->perf_metrics ? 1 : 0, s->global_ctrl, s->fixed_ctr_ctrl,
		     s->fixed_ctr3, s->perf_metrics ? s->perf_metrics_val : 0);
	return w < 0 || (size_t)w >= n ? -EOVERFLOW : w;
}


int pmu_journal_write(const struct pmu_journal_entry *e)
{
	char buf[JOURNAL_MAX], name[64], tmp[96];
	int dirfd = -1, fd = -1, len, rc;

	len = format_journal(e, buf, sizeof(buf));
	if (len < 0)
		return len;
	rc = dir_open(1, &dirfd);
	if (rc)
		return rc;
	journal_name(name, sizeof(name), e->saved.cpu);
	snprintf(tmp, sizeof(tmp), ".%s.%ld.tmp", name, (long)getpid());
	if (unlinkat(dirfd, tmp, 0) < 0 && errno != ENOENT) {
		rc = -errno;
		goto out;
	}
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = sigsafe_write_all(fd, buf, (size_t)len);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && renameat(dirfd, tmp, dirfd, name) < 0)
		rc = -errno;
	if (rc)
		unlinkat(dirfd, tmp, 0);
	else if (fsync(dirfd) < 0)
		rc = -errno;
out:
	close(dirfd);
	return rc;
}

/* ------------------------------------------------------------- parsing */

/* Consume the literal @lit at *p. */
static int lit(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n))
		return -EINVAL;
	*p += n;
	return 0;
}

/* Decimal without sign or leading zeros, at most @max. */
static int dec(const char **p, unsigned long long max, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long x = 0;

	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned long long d = (unsigned long long)(*s - '0');

		if (x > max / 10 || max - x * 10 < d)
			return -EINVAL;
		x = x * 10 + d;
	}
	*p = s;
	*v = x;
	return 0;
}

/* "0x" + 1..16 lower-case hex digits, as written by format_journal. */
static int hex(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int n = 0;

	if (lit(&s, "0x"))
		return -EINVAL;
	for (; (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'); s++, n++)
		x = x << 4 | (uint64_t)(*s <= '9' ? *s - '0' : *s - 'a' + 10);
	if (n < 1 || n > 16)
		return -EINVAL;
	*p = s;
	*v = x;
	return 0;
}

static int flag(const char **p, bool *b)
{
	unsigned long long v = 0;
	int rc = dec(p, 1, &v);

	*b = v != 0;
	return rc;
}

/* Rest of the line into @dst (fewer than @n bytes); *p moves past '\n'. */
static int rest(const char **p, char *dst, size_t n)
{
	const char *nl = strchr(*p, '\n');

	if (!nl || (size_t)(nl - *p) >= n)
		return -EINVAL;
	memcpy(dst, *p, (size_t)(nl - *p));
	dst[nl - *p] = '\0';
	*p = nl + 1;
	return 0;
}

static int parse_cpu_line(const char **p, struct pmu_saved *s)
{
	unsigned long long cpu;
	int rc;

	rc = lit(p, "cpu ");
	rc = rc ? rc : dec(p, UINT32_MAX, &cpu);
	rc = rc ? rc : lit(p, " perf_metrics ");
	rc = rc ? rc : flag(p, &s->perf_metrics);
	rc = rc ? rc : lit(p, " global_ctrl ");
	rc = rc ? rc : hex(p, &s->global_ctrl);
	rc = rc ? rc : lit(p, " fixed_ctr_ctrl ");
	rc = rc ? rc : hex(p, &s->fixed_ctr_ctrl);
	rc = rc ? rc : lit(p, " fixed_ctr3 ");
	rc = rc ? rc : hex(p, &s->fixed_ctr3);
	rc = rc ? rc : lit(p, " perf_metrics_val ");
	rc = rc ? rc : hex(p, &s->perf_metrics_val);
	rc = rc ? rc : lit(p, "\n");
	if (!rc)
		s->cpu = (unsigned)cpu;
	return rc;
}

static int parse_journal(const char *text, struct pmu_journal_entry *e)
{
	const char *p = text;
	unsigned long long pid = 0, t = 0;
	int rc;

	memset(e, 0, sizeof(*e));
	rc = lit(&p, JOURNAL_MAGIC "\npid ");
	rc = rc ? rc : dec(&p, INT32_MAX, &pid);
	rc = rc ? rc : lit(&p, "\ncmd ");
	rc = rc ? rc : rest(&p, e->cmd, sizeof(e->cmd));
	rc = rc ? rc : lit(&p, "time ");
	rc = rc ? rc : dec(&p, INT64_MAX, &t);
	rc = rc ? rc : lit(&p, "\nbackend ");
	rc = rc ? rc : rest(&p, e->backend, sizeof(e->backend));
	rc = rc ? rc : lit(&p, "user_only ");
	rc = rc ? rc : flag(&p, &e->user_only);
	rc = rc ? rc : lit(&p, "\n");
	rc = rc ? rc : parse_cpu_line(&p, &e->saved);
	if (!rc && *p)
		rc = -EINVAL;
	if (rc || pid == 0)
		return -EINVAL;
	e->pid = (pid_t)pid;
	e->time = (long long)t;
	e->saved.programmed = true;
	if (!e->saved.perf_metrics && e->saved.perf_metrics_val)
		return -EINVAL;
	return 0;
}

/* Read the whole journal (at most JOURNAL_MAX - 1 bytes, regular, ours). */
static int read_text(int dirfd, const char *name, char *buf, size_t n)
{
	struct stat st;
	size_t got = 0;
	int rc = 0, fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size >= n) {
		rc = -EINVAL;
		goto out;
	}
	if (st.st_uid != geteuid()) {
		rc = -EPERM;
		goto out;
	}
	for (ssize_t r = 1; r > 0 && got + 1 < n; got += (size_t)r) {
		r = read(fd, buf + got, n - 1 - got);
		if (r < 0) {
			rc = -errno;
			goto out;
		}
		if (r == 0)
			break;
	}
	buf[got] = '\0';
	if (strlen(buf) != got) /* a NUL byte inside */
		rc = -EINVAL;
out:
	close(fd);
	return rc;
}

int pmu_journal_read(unsigned cpu, struct pmu_journal_entry *e)
{
	char buf[JOURNAL_MAX], name[64];
	int dirfd, rc;

	rc = dir_open(0, &dirfd);
	if (rc)
		return rc;
	journal_name(name, sizeof(name), cpu);
	rc = read_text(dirfd, name, buf, sizeof(buf));
	if (!rc)
		rc = parse_journal(buf, e);
	if (!rc && e->saved.cpu != cpu)
		rc = -EINVAL;
	close(dirfd);
	return rc;
}

int pmu_journal_remove(unsigned cpu)
{
	char name[64];
	int dirfd, rc;

	rc = dir_open(0, &dirfd);
	if (rc)
		return rc;
	journal_name(name, sizeof(name), cpu);
	if (unlinkat(dirfd, name, 0) < 0)
		rc = -errno;
	else if (fsync(dirfd) < 0)
		rc = -errno;
	close(dirfd);
	return rc;
}

/* "cpu<N>.journal" exactly, N without leading zeros. */
static int journal_cpu(const char *name, unsigned *cpu)
{
	const char *p = name;
	unsigned long long v;

	if (lit(&p, "cpu") || dec(&p, UINT32_MAX, &v) || strcmp(p, ".journal"))
		return -EINVAL;
	*cpu = (unsigned)v;
	return 0;
}

/* Insert @cpu into the ascending array @cpus of *n (at most @max). */
static int insert_sorted(unsigned *cpus, int *n, int max, unsigned cpu)
{
	int i = *n;

	if (*n >= max)
		return -ERANGE;
	while (i > 0 && cpus[i - 1] > cpu) {
		cpus[i] = cpus[i - 1];
		i--;
	}
	cpus[i] = cpu;
	(*n)++;
	return 0;
}

int pmu_journal_list(unsigned *cpus, int max)
{
	struct dirent *de;
	DIR *d;
	int dirfd, rc, n = 0;

	rc = dir_open(0, &dirfd);
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	d = fdopendir(dirfd);
	if (!d) {
		rc = -errno;
		close(dirfd);
		return rc;
	}
	while (!rc && (de = readdir(d)) != NULL) {
		unsigned cpu;

		if (journal_cpu(de->d_name, &cpu) == 0)
			rc = insert_sorted(cpus, &n, max, cpu);
	}
	closedir(d);
	return rc ? rc : n;
}
