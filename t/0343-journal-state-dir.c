/*
 * t/0343-journal-state-dir.c - the state directory's checks before a
 * journal is begun (msr/journal/state_dir.h): its owner, mode, links and parents.
 * Split from t/0340.
 *
 * Expected values are the bytes written into the fixtures (t/journal-fixture.h),
 * the format in msr/journal/journal.h written out by hand, and the kernel's own
 * /proc/PID/stat (read here, not by the code under test).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"
#include "msr/journal/state_dir.h"
#include "t/fixture.h"
#include "t/journal-fixture.h"

static int begin_rc(void)
{
	struct journal *j = NULL;
	int rc = journal_begin(&j, "x", spec, JOURNAL_RUN, false);

	if (!rc)
		journal_end(j);
	return rc;
}

static void test_state_dir(void)
{
	char keep[PATH_MAX];
	struct journal_info info[1];
	struct stat st;

	t_path(keep, "%s", statedir);
	t_path(statedir, "%s/new", base);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	check_int(journal_list(info, 1), ==, 0, "no state dir: no journals");
	check_int(begin_rc(), ==, 0, "missing state dir is created");
	ok(stat(statedir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700,
	   "created mode 0700");

	mkdir(t_in(base, "real"), 0700);
	symlink(t_in(base, "real"), t_in(base, "link"));
	setenv("BARETMA_STATE_DIR", t_in(base, "link"), 1);
	check_int(begin_rc(), ==, -ELOOP, "state dir is a symlink: -ELOOP");
	check_int(journal_list(info, 1), ==, -ELOOP, "journal_list too");

	mkdir(t_in(base, "gw"), 0700);
	chmod(t_in(base, "gw"), 0770);
	setenv("BARETMA_STATE_DIR", t_in(base, "gw"), 1);
	check_int(begin_rc(), ==, -EPERM, "group-writable state dir: -EPERM");
	chmod(t_in(base, "gw"), 0702);
	check_int(begin_rc(), ==, -EPERM, "other-writable state dir: -EPERM");

	put_file(t_in(base, "afile"), "");
	setenv("BARETMA_STATE_DIR", t_in(base, "afile"), 1);
	check_int(begin_rc(), ==, -ENOTDIR, "a regular file in its place: -ENOTDIR");

	mkdir(t_in(base, "other"), 0700);
	if (geteuid() == 0) {
		chown(t_in(base, "other"), 65534, 65534);
		setenv("BARETMA_STATE_DIR", t_in(base, "other"), 1);
		check_int(begin_rc(), ==, -EPERM, "owned by another user: -EPERM");
	} else {
		skip(1, "owner check needs root to chown");
	}

	mkdir(t_in(base, "ro"), 0700);
	chmod(t_in(base, "ro"), 0500);
	setenv("BARETMA_STATE_DIR", t_in(base, "ro"), 1);
	if (geteuid() != 0) {
		check_int(begin_rc(), ==, -EACCES, "unwritable state dir: -EACCES");
	} else {
		/* Root writes anyway: check as an unprivileged owner instead. */
		int status = 0;
		pid_t pid;

		chmod(base, 0755);
		chown(t_in(base, "ro"), 65534, 65534);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			if (setgid(65534) || setuid(65534))
				_exit(100);
			_exit(begin_rc() == -EACCES ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "unwritable state dir (uid 65534, mode 0500): -EACCES");
	}
	t_path(statedir, "%s", keep);
	setenv("BARETMA_STATE_DIR", statedir, 1);
}

/* A parent of the state directory that others can change: -EPERM before
 * anything is created, state_dir_refused naming it (msr/journal/state_dir.h). */
static void test_state_dir_parents(void)
{
	char keep[PATH_MAX], dir[PATH_MAX];
	struct state_dir_refusal r;
	struct journal_info info[1];
	struct stat st;

	t_path(keep, "%s", statedir);
	t_path(dir, "%s/p777", base);
	mkdir(dir, 0777);
	chmod(dir, 0777);
	t_path(statedir, "%s/p777/run", base);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	check_int(begin_rc(), ==, -EPERM, "parent mode 0777: journal_begin -EPERM");
	ok(stat(statedir, &st) != 0, "  the state directory was not created");
	check_int(journal_list(info, 1), ==, -EPERM, "  journal_list -EPERM (not 'no journals')");
	check_int(state_dir_refused(&r), ==, 0, "  state_dir_refused says what");
	check_int(r.why, ==, STATE_DIR_WRITABLE, "  writable");
	ok(!r.last, "  a directory on the way, not the state directory");
	check_str(r.path, dir, "  the parent's path");
	check_int((int)r.mode, ==, 0777, "  its mode");

	chmod(dir, 0757);
	check_int(begin_rc(), ==, -EPERM, "parent mode 0757 (others write): -EPERM");
	chmod(dir, 0775);
	check_int(begin_rc(), ==, -EPERM, "parent mode 0775 (group writes): -EPERM");
	chmod(dir, 01777);
	check_int(begin_rc(), ==, 0, "parent mode 1777 (sticky, as /tmp): accepted");
	chmod(dir, 01770);
	check_int(begin_rc(), ==, 0, "parent mode 1770 (sticky, group-writable): accepted");
	chmod(dir, 0555);
	check_int(begin_rc(), ==, 0, "parent mode 0555 (no one writes; the state dir exists): accepted");
	chmod(dir, 0755);
	check_int(state_dir_refused(&r), ==, -ENOENT, "a path of safe directories: nothing refused");

	/* The grandparent counts as much as the parent. */
	t_path(statedir, "%s/p777/a/b/run", base);
	t_mkdir_p(t_in(base, "p777/a/b"));
	chmod(t_in(base, "p777/a/b"), 0755);
	chmod(dir, 0777);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	check_int(begin_rc(), ==, -EPERM, "a grandparent mode 0777: -EPERM");
	ok(!state_dir_refused(&r) && !strcmp(r.path, dir), "  it is the one named (%s)", r.path);
	chmod(dir, 0755);

	if (geteuid() == 0) {
		chown(dir, 4242, 4242);
		check_int(begin_rc(), ==, -EPERM, "a grandparent of uid 4242 (mode 0755): -EPERM");
		ok(!state_dir_refused(&r) && r.why == STATE_DIR_OWNER && r.uid == 4242 &&
		   !strcmp(r.path, dir), "  refused for its owner, uid %u, at %s", r.uid, r.path);
		chmod(dir, 01777);
		check_int(begin_rc(), ==, -EPERM, "  sticky does not help when it is theirs");
		chown(dir, 0, 0);
		chmod(dir, 0755);
	} else {
		skip(3, "not root: cannot give a directory to another user");
	}
	t_path(statedir, "%s", keep);
	setenv("BARETMA_STATE_DIR", statedir, 1);
}

int main(void)
{
	t_journal_fixture("0343");
	test_state_dir();
	test_state_dir_parents();
	t_rm_rf(base);
	return done_testing();
}
