/*
 * t/0643-state-file-limits - the state-file backend under files an
 * attacker or a mistake can make (msr/access/msr.h, issue 9 points 9 and 11):
 *
 * - size: at most MSR_STATE_LINES_MAX lines (8192 CPUs x 128 = 1048576,
 *   written out here, not taken from the header); a 2,000,000-line file
 *   (the issue's, which took minutes to parse before) is refused with that
 *   message, a file of exactly 1048576 register lines loads and works, one
 *   more line (a comment) is refused.  No timing is asserted: the suite
 *   must not depend on the machine's speed.
 * - a register listed twice is named with both lines, the earliest repeat
 *   first, as a parser that checks each line against those before it;
 * - registers found by (cpu, msr) in any file order;
 * - a rewrite keeps only the permission bits (04755 -> 0755);
 * - a symbolic link at the name is refused at open and at a reload, and
 *   its target is neither read nor written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr/access/msr.h"
#include "t/fixture.h"

#define LINES_CAP 1048576u /* 8192 CPUs x 128 lines (README, msr/access/msr.h) */

static char dir[PATH_MAX];


/* @n register lines: line i is "i/128 0x(i%128) 0x(i+1)"; then @extra. */
static void big_file(const char *path, unsigned n, const char *extra)
{
	FILE *f = fopen(path, "w");

	if (!f)
		exit(1);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%u 0x%x 0x%x\n", i / 128, i % 128, i + 1);
	if (extra)
		fputs(extra, f);
	if (fclose(f))
		exit(1);
}

static void test_line_cap(void)
{
	const char *f = t_in(dir, "big");
	struct msr_dev *dev;
	uint64_t v = 0;
	char want[PATH_MAX + 128];
	int rc;

	big_file(f, 2000000, NULL);
	dev = t_state_open(f, &rc);
	check_int(rc, ==, -EINVAL, "2,000,000 lines: refused (-EINVAL)");
	t_path(want, "state file '%s': more than 1048576 lines (the limit: 8192 CPUs x 128 "
	       "lines; list only the registers the run needs)", f);
	check_str(msr_last_error(), want, "the message names the file and the limit");
	ok(dev == NULL, "no handle");

	big_file(f, LINES_CAP, NULL);
	dev = t_state_open(f, &rc);
	check_int(rc, ==, 0, "exactly 1048576 register lines: loads");
	check_int(msr_read(dev, 0, 0x0, &v), ==, 0, "first register (line 1)");
	check_u64(v, ==, 1, "  cpu 0 0x0 = 0x1");
	check_int(msr_read(dev, 8191, 0x7f, &v), ==, 0, "last register (line 1048576)");
	check_u64(v, ==, LINES_CAP, "  cpu 8191 0x7f = 0x100000");
	check_int(msr_read(dev, 4000, 0x40, &v), ==, 0, "a register in the middle");
	check_u64(v, ==, 4000u * 128 + 0x40 + 1, "  cpu 4000 0x40 = 4000*128 + 0x40 + 1");
	check_int(msr_read(dev, 8191, 0x80, &v), ==, -EIO, "an unlisted MSR of a listed CPU: -EIO");
	check_int(msr_open_cpu(dev, 8192), ==, -ENXIO, "a CPU with no line: -ENXIO");
	check_int(msr_write(dev, 8191, 0x7f, 0x5), ==, 0, "a write to the last register");
	check_int(msr_read(dev, 8191, 0x7f, &v), ==, 0, "  read back");
	check_u64(v, ==, 0x5, "  0x5");
	msr_close(dev);

	big_file(f, LINES_CAP, "# one more line\n");
	dev = t_state_open(f, &rc);
	check_int(rc, ==, -EINVAL, "1048576 register lines and a comment: refused");
	ok(strstr(msr_last_error(), "more than 1048576 lines") != NULL, "  the limit named");
	unlink(f);
}

/* @text must be refused with exactly "state file '<f>': @msg". */
static void refused(const char *text, const char *msg, const char *name)
{
	const char *f = t_in(dir, "dup");
	char want[PATH_MAX + 256];
	int rc;

	put_file(f, text);
	msr_close(t_state_open(f, &rc));
	check_int(rc, ==, -EINVAL, name);
	t_path(want, "state file '%s': %s", f, msg);
	check_str(msr_last_error(), want, "  the message");
}

static void test_duplicates(void)
{
	refused("0 0x1 0x0\n1 0x2 0x0\n0 0x1 0x5\n",
		"line 3: cpu 0 msr 0x1 listed twice (first at line 1)",
		"a register listed twice");
	refused("0 0x1 0x0\n# c\n0 0x2 0x0\n0 0x2 0x1\n0 0x1 0x1\n",
		"line 4: cpu 0 msr 0x2 listed twice (first at line 3)",
		"two repeats: the earliest repeat is named, with its first line");
	refused("7 0x38f 0x0\n7 0x38f 0x1\n7 0x38f 0x2\n",
		"line 2: cpu 7 msr 0x38f listed twice (first at line 1)",
		"three times: the second line, the first");
	refused("0 0x1 0x0\n0 0x1 0x0\njunk\n",
		"line 2: cpu 0 msr 0x1 listed twice (first at line 1)",
		"a repeat before a malformed line: the repeat is the first error");
	refused("0 0x1 0x0\njunk\n0 0x1 0x0\n",
		"line 2: CPU must be a decimal number (expected 'CPU 0xMSR 0xVALUE')",
		"a malformed line before a repeat: the malformed line");
	refused("1 0x1 0x0\n0 0x1 0x0\n1 0x1 0x0\n",
		"line 3: cpu 1 msr 0x1 listed twice (first at line 1)",
		"same MSR on two CPUs is no repeat; the same CPU again is");
}

/* Registers in no particular order are each found. */
static void test_any_order(void)
{
	const char *f = t_in(dir, "order");
	struct msr_dev *dev;
	uint64_t v = 0;
	int rc;

	put_file(f, "3 0x38f 0x33\n0 0x390 0x2\n3 0x186 0x31\n0 0x38f 0x1\n"
		    "1048575 0xffffffff 0xfe\n2 0x0 0x20\n");
	dev = t_state_open(f, &rc);
	check_int(rc, ==, 0, "out of order: loads");
	check_int(msr_read(dev, 3, 0x38f, &v), ==, 0, "cpu 3 0x38f");
	check_u64(v, ==, 0x33, "  0x33");
	check_int(msr_read(dev, 3, 0x186, &v), ==, 0, "cpu 3 0x186");
	check_u64(v, ==, 0x31, "  0x31");
	check_int(msr_read(dev, 0, 0x38f, &v), ==, 0, "cpu 0 0x38f");
	check_u64(v, ==, 0x1, "  0x1");
	check_int(msr_read(dev, 1048575, 0xffffffff, &v), ==, 0, "the largest CPU and MSR");
	check_u64(v, ==, 0xfe, "  0xfe");
	check_int(msr_read(dev, 2, 0x0, &v), ==, 0, "cpu 2 MSR 0");
	check_u64(v, ==, 0x20, "  0x20");
	check_int(msr_open_cpu(dev, 1), ==, -ENXIO, "cpu 1 between listed CPUs: -ENXIO");
	check_int(msr_read(dev, 2, 0x1, &v), ==, -EIO, "cpu 2 0x1: -EIO");
	check_int(msr_write(dev, 3, 0x186, 0x0), ==, 0, "a write");
	check_str(get_file(f), "3 0x38f 0x33\n0 0x390 0x2\n3 0x186 0x0\n0 0x38f 0x1\n"
		  "1048575 0xffffffff 0xfe\n2 0x0 0x20\n", "  only its value token changed");
	msr_close(dev);
}

static unsigned mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (unsigned)(st.st_mode & 07777);
}

/* The mode of a state file created @mode after one write through a new
 * handle; 0 when @mode could not be set or the write failed. */
static unsigned mode_after_write(unsigned mode)
{
	const char *f = t_in(dir, "moded");
	struct msr_dev *dev;
	int rc;

	unlink(f);
	put_file(f, "0 0x38f 0x0\n");
	if (chmod(f, mode) || mode_of(f) != mode)
		return 0;
	dev = t_state_open(f, &rc);
	rc = rc ? rc : msr_write(dev, 0, 0x38f, 0x1);
	msr_close(dev);
	return rc ? 0 : mode_of(f);
}

static void test_mode(void)
{
	check_int(mode_after_write(04755), ==, 0755,
		  "a 04755 state file is rewritten 0755: the set-user-ID bit dropped");
	check_int(mode_after_write(02775), ==, 0775,
		  "a 02775 state file is rewritten 0775: the set-group-ID bit dropped");
	check_int(mode_after_write(0640), ==, 0640, "a 0640 state file stays 0640");
}

static void test_links(void)
{
	const char *f = t_in(dir, "real"), *lnk = t_in(dir, "link"), *target = t_in(dir, "target");
	const char *text = "0 0x38f 0x0\n", *other = "0 0x38f 0x77\n";
	struct msr_dev *dev;
	uint64_t v = 0;
	char want[PATH_MAX + 256];
	int rc;

	put_file(target, other);
	if (symlink(target, lnk))
		perror("symlink");
	dev = t_state_open(lnk, &rc);
	check_int(rc, ==, -EPERM, "a symbolic link at the name: refused at open (-EPERM)");
	t_path(want, "state file '%s' is a symbolic link: refused (writes replace the file at "
	       "that name; name the file itself)", lnk);
	check_str(msr_last_error(), want, "  the message names the file");
	msr_close(dev);

	/* Opened as a file; then a link to another state file replaces it. */
	put_file(f, text);
	dev = t_state_open(f, &rc);
	check_int(rc, ==, 0, "the real file opens");
	unlink(f);
	if (symlink(target, f))
		perror("symlink");
	check_int(msr_read(dev, 0, 0x38f, &v), ==, -ELOOP,
		  "a link put at the name: the access fails -ELOOP (not followed)");
	check_u64(v, ==, 0, "  the target's 0x77 is not read");
	check_int(msr_write(dev, 0, 0x38f, 0x1), ==, -ELOOP, "  a write fails -ELOOP too");
	check_str(get_file(target), other, "  the target is not written");
	ok(readlink(f, want, sizeof(want)) > 0, "  the link is left in place");
	msr_close(dev);
}

int main(void)
{
	t_scratch(dir, "0643");
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	test_line_cap();
	test_duplicates();
	test_any_order();
	test_mode();
	test_links();
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
