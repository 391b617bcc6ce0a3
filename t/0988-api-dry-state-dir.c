/*
 * t/0988-api-dry-state-dir - the library's dry run writes nothing in the
 * real state directory either (t/0987 is the tool's): a session with the
 * cpuid_dump option on the simulated PMU (BARETMA_MSR=sim:PROFILE,
 * backend msr, CPU 7 of the Ice Lake-L dump) takes its CPU lock and writes
 * its journal in "$TMPDIR/baretma-dry-<euid>" (msr/journal/state_dir.h), says so
 * in its notes, and creates nothing in the default directory - here a
 * temporary directory: this program defines state_dir_test_default(), the
 * seam msr/journal/state_dir.c declares weak (the test build of the tool takes it
 * from $BARETMA_TEST_STATE_DEFAULT, msr/journal/state_dir_hooks.c).  Before, the
 * lock file cpu7.lock of the dump's CPU was created in the default.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "include/baretma.h"
#include "t/tap.h"
#include "t/fixture.h"

static char dir[PATH_MAX], def[PATH_MAX];

const char *state_dir_test_default(void);

const char *state_dir_test_default(void)
{
	return def;
}

/* how many names in @path (not . and ..), -1 when it cannot be read */
static int entries(const char *path)
{
	char cmd[PATH_MAX + 64];
	FILE *p;
	int n = -1;

	t_path(cmd, "find '%s' -mindepth 1 | wc -l", path);
	if ((p = popen(cmd, "r"))) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

int main(void)
{
	const char *shared = t_shared_dumps();
	static char tmpd[PATH_MAX], dry[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	static char icl[PATH_MAX], lock[PATH_MAX], want[PATH_MAX * 3];
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;
	struct stat st;
	int rc;

	plan(7);
	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", shared);
	t_scratch(dir, "0988");
	t_path(def, "%s/default", dir);
	t_path(tmpd, "%s/tmp", dir);
	t_mkdir_p(def);
	t_mkdir_p(tmpd);
	t_path(dry, "%s/baretma-dry-%u", tmpd, (unsigned)geteuid());
	t_path(prof, "%s/profile", dir);
	t_put_tree(prof, "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n");
	t_path(spec, "sim:%s", prof);
	unsetenv("BARETMA_STATE_DIR");
	unsetenv("BARETMA_CPUID_DUMP");
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("BARETMA_PERF");
	setenv("TMPDIR", tmpd, 1);
	setenv("BARETMA_MSR", spec, 1);

	o.backend = "msr";
	o.cpu = 7;
	o.cpuid_dump = icl;
	rc = baretma_open(&bm, &o);
	if (!ok(rc == 0, "a session on cpu 7 of the Ice Lake-L dump, simulated: opens")) {
		printf("# %s\n", baretma_last_error());
		skip(6, "no session");
		t_rm_rf(dir);
		return done_testing();
	}
	t_path(lock, "%s/cpu7.lock", dry);
	ok(stat(lock, &st) == 0, "its CPU lock is in the dry run's directory (%s)", lock);
	t_path(want, "note: a dry run: its locks, journals and calibrations are in '%s', not in "
	       "'%s' (BARETMA_STATE_DIR chooses another)", dry, def);
	ok(strstr(baretma_notes(bm), want) != NULL, "the notes name it: %s", baretma_notes(bm));
	check_int(entries(def), ==, 0, "nothing in the default state directory while open");
	baretma_region_begin(bm, "r");
	baretma_region_end(bm, "r");
	check_int(baretma_close(bm), ==, 0, "closes");
	check_int(entries(def), ==, 0, "nothing in the default state directory after close");
	ok(entries(dry) >= 1, "the dry run's directory holds its locks");
	t_rm_rf(dir);
	return done_testing();
}
