/*
 * t/0362-path-limits.c - a path too long for baretma's buffers is an error
 * (-ENAMETOOLONG), never a cut path that could name another file.
 *
 * The kernel takes paths of up to PATH_MAX - 1 = 4095 bytes (linux
 * include/uapi/linux/limits.h: PATH_MAX 4096, with the NUL).  Each case
 * builds real directories under $TMPDIR whose full path has a length
 * counted here, so that "<root><path>" is just over 4095 bytes while its
 * first 4095 bytes name a file the test made: code that cuts reads or
 * writes that file; code that checks refuses.  The lengths do not depend
 * on TMPDIR's (any TMPDIR up to ~3000 bytes).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"
#include "msr/journal/journal.h"
#include "msr/guard/lock.h"
#include "msr/guard/settings.h"
#include "msr/journal/state_dir.h"
#include "t/fixture.h"

#define NMI "/proc/sys/kernel/nmi_watchdog"

static char *base, *statedir;

/*
 * A directory whose path is exactly @len bytes: @base, then components of
 * at most 200 'd's (NAME_MAX is 255), made with mkdir.  Exits on failure.
 */
static char *dir_of_len(const char *tag, size_t len)
{
	char *p = t_strf("%s/%s", base, tag);

	if (mkdir(p, 0700) && errno != EEXIST)
		exit(1);
	while (strlen(p) < len) {
		size_t left = len - strlen(p) - 1, c = left > 200 ? 200 : left;
		char *q;

		if (left > 200 && left - 200 < 2)
			c = 100; /* never leave a remainder of just "/" */
		q = t_strf("%s/%.*s", p, (int)c,
			   "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
			   "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
			   "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd");
		free(p);
		p = q;
		if (mkdir(p, 0700) && errno != EEXIST) {
			printf("Bail out! mkdir of a %zu-byte path: %s\n", strlen(p), strerror(errno));
			exit(1);
		}
	}
	return p;
}

/*
 * The sysroot: R + "/proc/sys/kernel/nmi_watchdog" is 4112 bytes; cut to
 * 4095 it is R + "/proc/sys/ke", a file holding "1".  (R is 4083 bytes.)
 */
static void test_sysroot(void)
{
	const char *cut_tail = "/proc/sys/ke";
	char *root = dir_of_len("root", PATH_MAX - 1 - strlen(cut_tail));
	char *ke = t_strf("%s%s", root, cut_tail), *p, v[16] = "";
	char buf[PATH_MAX], *fits, where[PATH_MAX];
	struct journal *j = NULL;
	int rc;

	p = t_strf("%s/proc", root);
	mkdir(p, 0700);
	free(p);
	p = t_strf("%s/proc/sys", root);
	mkdir(p, 0700);
	free(p);
	check_u64(strlen(ke), ==, PATH_MAX - 1, "(the decoy's path is 4095 bytes)");
	put_file(ke, "1\n");
	setenv("BARETMA_SYSROOT", root, 1);

	rc = cpu_sysfs_read_line(NMI, v, sizeof(v));
	check_int(rc, ==, -ENAMETOOLONG, "read_line: root + path of 4112 bytes: -ENAMETOOLONG");
	check_str(v, "", "and nothing read (not the decoy's '1')");
	check_int(setting_read(SETTING_NMI_WATCHDOG, v, sizeof(v), where, sizeof(where)), ==,
		  -ENAMETOOLONG, "setting_read: -ENAMETOOLONG");
	check_int(setting_files(SETTING_NMI_WATCHDOG, (const char *[SETTING_MAX_FILES]){ 0 }), ==,
		  -ENAMETOOLONG, "setting_files: -ENAMETOOLONG");
	check_int(journal_begin(&j, "0362", "state:/nonexistent", JOURNAL_RUN, false), ==, 0,
		  "journal_begin");
	rc = setting_change(j, SETTING_NMI_WATCHDOG, "0", where, sizeof(where), NULL);
	check_int(rc, ==, -ENAMETOOLONG, "setting_change: -ENAMETOOLONG");
	check_str(get_file(ke), "1\n", "and the decoy file is not written");
	check_int(strlen(where), ==, PATH_MAX - 1, "the message path fills the buffer...");
	ok(strlen(where) > 3 && strcmp(where + strlen(where) - 3, "...") == 0,
	   "...and ends in '...' (a cut shown as one)");
	journal_end(j);

	/* Exactly at the limit: root + "/x" of 4095 bytes resolves; one
	 * byte more does not, and leaves "" (never a cut path). */
	fits = t_strf("%.*s", (int)(PATH_MAX - 1 - strlen(root)), "/xxxxxxxxxxxxxxxxxxxxxx");
	check_int(cpu_sysfs_resolve(buf, sizeof(buf), fits), ==, 0, "resolve: 4095 bytes fit");
	check_u64(strlen(buf), ==, PATH_MAX - 1, "resolve: all 4095 of them");
	free(fits);
	fits = t_strf("%.*s", (int)(PATH_MAX - strlen(root)), "/xxxxxxxxxxxxxxxxxxxxxx");
	check_int(cpu_sysfs_resolve(buf, sizeof(buf), fits), ==, -ENAMETOOLONG,
		  "resolve: 4096 bytes: -ENAMETOOLONG");
	check_str(buf, "", "resolve: and an empty buffer");
	free(fits);
	unsetenv("BARETMA_SYSROOT");
	free(ke);
	free(root);
}

/*
 * The state directory: "<dir>/<name>" must fit in PATH_MAX bytes for every
 * name baretma makes there (STATE_DIR_NAME_MAX = 64), so a directory of
 * 4096 - 2 - 64 = 4030 bytes is the longest accepted.
 */
static void test_state_dir(void)
{
	char *ok_dir = dir_of_len("state-ok", PATH_MAX - 2 - STATE_DIR_NAME_MAX);
	char *long_dir = dir_of_len("state-long", PATH_MAX - 1 - STATE_DIR_NAME_MAX);
	struct cpu_lock *l = NULL;
	unsigned cpu = 0;
	int fd = -1;

	check_u64(STATE_DIR_NAME_MAX, ==, 64, "STATE_DIR_NAME_MAX is the documented 64");
	setenv("BARETMA_STATE_DIR", ok_dir, 1);
	check_int(state_dir_open(false, &fd), ==, 0, "a state dir of 4030 bytes opens");
	if (fd >= 0)
		close(fd);
	check_int(cpu_lock_take(&cpu, 1, false, NULL, &l, NULL), ==, 0, "and locks work in it");
	cpu_lock_release(l);
	setenv("BARETMA_STATE_DIR", long_dir, 1);
	fd = -1;
	check_int(state_dir_open(false, &fd), ==, -ENAMETOOLONG, "a state dir of 4031 bytes: -ENAMETOOLONG");
	check_int(fd, ==, -1, "and no descriptor");
	check_int(cpu_lock_take(&cpu, 1, false, NULL, &l, NULL), ==, -ENAMETOOLONG,
		  "cpu_lock_take there: -ENAMETOOLONG");
	setenv("BARETMA_STATE_DIR", statedir, 1);
	free(ok_dir);
	free(long_dir);
}

/*
 * A hwloc-gather-cpuid directory D of 4092 bytes holding pu0: "D/pu0" is
 * 4096 bytes, one too many (pu0 itself is made with openat).  Cut, it
 * would be "D/pu".
 */
static void test_hwloc_dir(void)
{
	char *d = dir_of_len("hwloc", PATH_MAX - 4), *err = NULL;
	struct cpu_dump *dump;
	int dfd = open(d, O_RDONLY | O_DIRECTORY), fd;

	fd = dfd < 0 ? -1 : openat(dfd, "pu0", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "0x00000000 0x00000000 => 0x00000001 0x756e6547 0x6c65746e 0x49656e69\n",
			    69) != 69) {
		printf("Bail out! cannot make the pu0 file\n");
		exit(1);
	}
	close(fd);
	errno = 0;
	dump = cpu_dump_load(d, &err);
	ok(dump == NULL && errno == ENAMETOOLONG, "hwloc dir whose pu0 path is 4096 bytes: ENAMETOOLONG (errno %d)", errno);
	check_str(err ? err : "", "pu0: File name too long", "and the message names the file");
	free(err);
	cpu_dump_free(dump);
	unlinkat(dfd, "pu0", 0);
	close(dfd);
	free(d);
}

int main(void)
{
	const char *t = getenv("TMPDIR");

	base = t_strf("%s/baretma-0362.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	if (strlen(base) > 3000)
		skip_all("TMPDIR longer than 3000 bytes: no room for the deep paths");
	statedir = t_strf("%s/state", base);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	test_sysroot();
	test_state_dir();
	test_hwloc_dir();
	t_rm_rf(base);
	return done_testing();
}
