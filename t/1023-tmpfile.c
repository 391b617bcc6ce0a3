/*
 * t/1023-tmpfile - the temporary files of writes (cpu/tmpfile.h) and the
 * removal of those a dying process had open:
 *   - the name: ".NAME.baretma-PID-START-N.tmp", PID this process's,
 *     START field 22 of /proc/self/stat (proc(5)) read here on its own,
 *     NAME cut so that a name of NAME_MAX (255) bytes still gets a
 *     temporary name of at most NAME_MAX bytes, which tmpfile_parse reads
 *     back; names that are not one (no dot, no mark, a PID of 0, a
 *     missing field, trailing bytes) are not taken for one;
 *   - a deadly signal: a child with the signal guard installed
 *     (msr/journal/guard_signals.h GUARD_SIGNALS_DIE, as the command line), a write
 *     begun (bench/output/output.h output_file_open_atomic) and text in
 *     it, raises SIGTERM: it dies of SIGTERM (the shell's 143), and its
 *     temporary file is gone, the old file whole; without the guard
 *     (SIG_DFL) the file is left - the control that shows the handler is
 *     what removed it;
 *   - TMPFILE_SLOTS writes at once at most: one more is -ENOSPC, and each
 *     slot freed is free again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/output/output.h"
#include "cpu/proc.h"
#include "cpu/tmpfile.h"
#include "msr/journal/guard_signals.h"
#include "t/fixture.h"
#include "t/tap.h"

static char dir[PATH_MAX];

/* Field 22 of /proc/self/stat, read here without cpu/proc.c. */
static unsigned long long own_start(void)
{
	char buf[2048], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	unsigned long long v = 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%llu", &v);
	return v;
}

/* The one name in @dir that starts with @prefix, or "" (static). */
static const char *entry(const char *prefix)
{
	static char name[NAME_MAX + 1];
	DIR *d = opendir(dir);
	struct dirent *e;

	name[0] = '\0';
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			snprintf(name, sizeof(name), "%s", e->d_name);
	if (d)
		closedir(d);
	return name;
}

static void test_names(void)
{
	char want[128], longname[NAME_MAX + 1], *tmp = NULL;
	unsigned long long start = 0, mine = own_start();
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY), fd, slot;
	pid_t pid = 0;

	check_u64(cpu_proc_self_start(), ==, mine, "cpu_proc_self_start is field 22 of /proc/self/stat");
	ok(mine > 0, "which is a start time (%llu ticks after boot)", mine);
	fd = tmpfile_create(dirfd, "m.prom", 0600, &tmp, &slot);
	ok(fd >= 0, "a temporary file for m.prom");
	snprintf(want, sizeof(want), ".m.prom.baretma-%ld-%llu-", (long)getpid(), mine);
	ok(tmp && !strncmp(tmp, want, strlen(want)) && strlen(tmp) > 4 &&
	   !strcmp(tmp + strlen(tmp) - 4, ".tmp"), "named %sN.tmp (%s)", want, tmp ? tmp : "");
	check_str(entry(".m.prom."), tmp ? tmp : "?", "in the directory under that name");
	ok(tmp && tmpfile_parse(tmp, &pid, &start) && pid == getpid() && start == mine,
	   "tmpfile_parse reads back the PID and the start");
	if (fd >= 0) {
		unlinkat(dirfd, tmp, 0);
		close(fd);
	}
	tmpfile_release(slot);
	free(tmp);
	tmp = NULL;

	memset(longname, 'a', NAME_MAX);
	longname[NAME_MAX] = '\0';
	fd = tmpfile_create(dirfd, longname, 0600, &tmp, &slot);
	ok(fd >= 0 && tmp && strlen(tmp) <= NAME_MAX && tmpfile_parse(tmp, &pid, &start) &&
	   pid == getpid(), "a name of NAME_MAX bytes: its temporary name cut to fit, still one (%zu bytes)",
	   tmp ? strlen(tmp) : 0);
	if (fd >= 0) {
		unlinkat(dirfd, tmp, 0);
		close(fd);
	}
	tmpfile_release(slot);
	free(tmp);

	ok(!tmpfile_parse("F.baretma-12-34-0.tmp", &pid, &start), "no leading dot: not one");
	ok(!tmpfile_parse(".F.12.tmp", &pid, &start), "the old .NAME.PID.tmp: not one");
	ok(!tmpfile_parse(".F.baretma-0-34-0.tmp", &pid, &start), "PID 0: not one");
	ok(!tmpfile_parse(".F.baretma-12-34.tmp", &pid, &start), "no sequence number: not one");
	ok(!tmpfile_parse(".F.baretma-12-34-0.tmpx", &pid, &start), "trailing bytes: not one");
	ok(!tmpfile_parse(".baretma-12-34-0.tmp", &pid, &start), "no NAME: not one");
	ok(tmpfile_parse(".a.baretma-b.baretma-12-34-5.tmp", &pid, &start) && pid == 12 && start == 34,
	   "a NAME holding the mark: the last one counts");
	close(dirfd);
}

/* In a child: the guard as @guard says, a write of "old" over by "new",
 * unfinished, then SIGTERM raised.  Returns the child's wait status. */
static int die_writing(bool guard)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		struct output_file *of;
		const char *why;

		if (guard && guard_signals_install(GUARD_SIGNALS_DIE))
			_exit(2);
		if (output_file_open_atomic(t_strf("%s/F", dir), &of, &why))
			_exit(3);
		fputs("new, never whole\n", output_file_stream(of));
		fflush(output_file_stream(of));
		raise(SIGTERM);
		_exit(4);
	}
	waitpid(pid, &status, 0);
	return status;
}

static void test_signal(void)
{
	char *path = t_strf("%s/F", dir);
	int status;

	put_file(path, "old\n");
	signal(SIGTERM, SIG_DFL);
	status = die_writing(true);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	   "guarded: the writer dies of SIGTERM (status %#x)", status);
	check_str(entry(".F.baretma-"), "", "its temporary file removed by the guard's handler");
	check_str(get_file(path), "old\n", "the old file whole");
	status = die_writing(false);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "control, unguarded: dies of SIGTERM too");
	ok(entry(".F.baretma-")[0] != '\0', "control: its temporary file is left (%s): the handler removed the other",
	   entry(".F.baretma-"));
	if (entry(".F.baretma-")[0]) {
		char *left = t_strf("%s/%s", dir, entry(".F.baretma-"));

		unlink(left);
		free(left);
	}
	free(path);
}

static void test_slots(void)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY), slot[TMPFILE_SLOTS + 1], n = 0, rc;
	char *tmp[TMPFILE_SLOTS + 1] = { 0 };

	for (int i = 0; i < TMPFILE_SLOTS; i++) {
		rc = tmpfile_create(dirfd, "s", 0600, &tmp[i], &slot[i]);
		n += rc >= 0;
		if (rc >= 0)
			close(rc);
	}
	check_int(n, ==, TMPFILE_SLOTS, "TMPFILE_SLOTS writes at once");
	rc = tmpfile_create(dirfd, "s", 0600, &tmp[TMPFILE_SLOTS], &slot[TMPFILE_SLOTS]);
	check_int(rc, ==, -ENOSPC, "one more: -ENOSPC, nothing created");
	tmpfile_unlink_all();
	check_str(entry(".s."), "", "tmpfile_unlink_all removed every one");
	for (int i = 0; i < TMPFILE_SLOTS; i++) {
		tmpfile_release(slot[i]);
		free(tmp[i]);
	}
	rc = tmpfile_create(dirfd, "s", 0600, &tmp[0], &slot[0]);
	ok(rc >= 0, "released, the slots are free again");
	if (rc >= 0) {
		close(rc);
		unlinkat(dirfd, tmp[0], 0);
	}
	tmpfile_release(slot[0]);
	free(tmp[0]);
	close(dirfd);
}

int main(void)
{
	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	unsetenv("BARETMA_STATE_DIR"); /* no record: the test's own directory only */
	setenv("BARETMA_STATE_DIR", "/nonexistent/baretma-1023", 1);
	t_scratch(dir, "1023");
	test_names();
	test_signal();
	test_slots();
	t_rm_rf(dir);
	return done_testing();
}
