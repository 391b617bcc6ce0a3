/* cpu/proc.c - /proc/PID/stat, the life of a process (cpu/proc.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/proc.h"

/* "/proc/<pid>/stat" into @buf without stdio (async-signal-safe). */
static void stat_path(char *buf, pid_t pid)
{
	char digits[24];
	int n = 0;
	unsigned long v = (unsigned long)pid;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	memcpy(buf, "/proc/", 6);
	buf += 6;
	while (n)
		*buf++ = digits[--n];
	memcpy(buf, "/stat", 6);
}

int cpu_proc_stat(pid_t pid, char *state, unsigned long long *starttime)
{
	char path[48], buf[2048], *p;
	unsigned long long v = 0;
	ssize_t r;
	int fd, field;

	stat_path(path, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		r = read(fd, buf, sizeof(buf) - 1);
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r < 0)
		return errno == ESRCH ? -ENOENT : -errno;
	buf[r] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -EINVAL;
	*state = p[2];
	p += 2;
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	if (!p || *p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (~0ull - 9) / 10)
			return -EINVAL;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (*p && *p != ' ' && *p != '\n')
		return -EINVAL;
	*starttime = v;
	return 0;
}

bool cpu_pid_alive(pid_t pid, unsigned long long starttime)
{
	unsigned long long now = 0;
	char state = '?';
	int rc;

	if (pid <= 0 || (kill(pid, 0) < 0 && errno != EPERM))
		return false;
	rc = cpu_proc_stat(pid, &state, &now);
	if (rc == -ENOENT)
		return false;     /* gone between kill() and open() */
	if (rc)
		return true;      /* exists, stat unreadable: assume it runs */
	if (state == 'Z' || state == 'X')
		return false;     /* dead, not yet reaped */
	return starttime == 0 || now == starttime;
}

/* Kept with the PID it was read for: a forked child reads its own. */
static _Atomic pid_t self_pid;
static _Atomic unsigned long long self_start;

unsigned long long cpu_proc_self_start(void)
{
	pid_t me = getpid();
	unsigned long long start = 0;
	char state;

	if (atomic_load(&self_pid) == me)
		return atomic_load(&self_start);
	if (cpu_proc_stat(me, &state, &start))
		start = 0;
	atomic_store(&self_start, start);
	atomic_store(&self_pid, me);
	return start;
}
