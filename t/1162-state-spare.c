/*
 * t/1162-state-spare - the state-file backend's spare (msr/access/
 * msr_state.c): a write puts the new text into FILE.tmp and swaps the two
 * names (renameat2 RENAME_EXCHANGE), which is 20 times cheaper than a new
 * FILE.tmp renamed over FILE each write (issue 30).  What must hold:
 *   - every write is in FILE at once, the rest of FILE's bytes as they
 *     were (a value back to its original gives the original file);
 *   - a second handle (another process's) sees each write of the first;
 *   - a spare found at FILE.tmp is written only when it is a regular file
 *     with one link owned by this user: a hard link or a symbolic link
 *     planted there is replaced, never written through (their targets
 *     keep their bytes);
 *   - FILE keeps its permission bits; no FILE.tmp is left after the
 *     handle closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr/access/msr.h"
#include "t/fixture.h"

static const char TEXT[] = "# two CPUs\n0 0x38f 0x7000000ff\n0 0x30c 0x0\n1 0x38f 0x7000000ff\n1 0x30c 0x0\n";

int main(void)
{
	char dir[PATH_MAX], file[PATH_MAX], spare[PATH_MAX], victim[PATH_MAX];
	struct msr_dev *a, *b;
	struct stat st;
	uint64_t v = 0;
	int rc;
	const char *got;

	t_scratch(dir, "1162");
	t_path(file, "%s/regs", dir);
	t_path(spare, "%s/regs.tmp", dir);
	t_path(victim, "%s/victim", dir);
	put_file(file, TEXT);
	chmod(file, 0640);

	a = t_state_open(file, &rc);
	check_int(rc, ==, 0, "state:FILE opens");
	b = t_state_open(file, &rc);
	check_int(rc, ==, 0, "a second handle on it opens");

	check_int(msr_write(a, 1, 0x30c, 0x1234), ==, 0, "a write");
	got = get_file(file);
	check_str(got, "# two CPUs\n0 0x38f 0x7000000ff\n0 0x30c 0x0\n1 0x38f 0x7000000ff\n1 0x30c 0x1234\n",
		  "the write is in FILE, every other byte as it was");
	check_int(msr_read(b, 1, 0x30c, &v), ==, 0, "the other handle reads it");
	check_u64(v, ==, 0x1234, "... the value written");
	check_int(msr_write(b, 0, 0x38f, 0x0), ==, 0, "the other handle writes");
	check_int(msr_write(a, 1, 0x30c, 0x5678), ==, 0, "the first writes again");
	check_int(msr_read(b, 0, 0x38f, &v), ==, 0, "the other reads its own register");
	check_u64(v, ==, 0, "... as it wrote it");
	check_int(msr_read(b, 1, 0x30c, &v), ==, 0, "and the first handle's");
	check_u64(v, ==, 0x5678, "... the first's latest write");
	ok(stat(file, &st) == 0 && (st.st_mode & 07777) == 0640, "FILE keeps its mode 0640 (%o)",
	   (unsigned)(st.st_mode & 07777));

	/* a hard link to another file planted at the spare's name */
	put_file(victim, "victim's bytes\n");
	unlink(spare);
	ok(link(victim, spare) == 0, "a hard link to victim planted at FILE.tmp");
	check_int(msr_write(a, 0, 0x30c, 0x1), ==, 0, "a write with the hard link there");
	got = get_file(victim);
	check_str(got, "victim's bytes\n", "the hard link's target is not written");
	/* a symbolic link */
	unlink(spare);
	ok(symlink(victim, spare) == 0, "a symbolic link to victim planted at FILE.tmp");
	check_int(msr_write(a, 0, 0x30c, 0x2), ==, 0, "a write with the symbolic link there");
	got = get_file(victim);
	check_str(got, "victim's bytes\n", "the symbolic link's target is not written");
	ok(lstat(victim, &st) == 0 && st.st_nlink == 1, "victim has its one link again");

	/* every value back: the original bytes */
	check_int(msr_write(a, 0, 0x38f, 0x7000000ff) | msr_write(a, 0, 0x30c, 0) |
		  msr_write(a, 1, 0x30c, 0), ==, 0, "every value written back");
	got = get_file(file);
	check_str(got, TEXT, "FILE byte for byte as it was");
	msr_close(a);
	msr_close(b);
	ok(lstat(spare, &st) < 0 && errno == ENOENT, "no FILE.tmp after the handles closed");
	t_rm_rf(dir);
	return done_testing();
}
