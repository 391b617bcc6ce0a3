/*
 * t/0932-output-file - the atomic file writer of -o FILE and --openmetrics
 * FILE (bench/output/output.h output_file_*): a reader sees the old file
 * or the new, never a part, and nothing is written through a link.
 *   - commit: the new text under the name (a new inode: rename(2), "atomically
 *     replaced"), no temporary file left, the old file's mode kept; a new
 *     file 0666 less the umask (a shell's redirection);
 *   - before commit the old text is still there, whole (what a reader sees
 *     while the new one is written); abort leaves it and no temporary file;
 *   - a symbolic link at the name is refused (-ELOOP) and its target is
 *     left unchanged, at open and when one is planted between open and
 *     commit; a directory (-EISDIR) and a FIFO (-EINVAL) likewise;
 *   - under sudo (SUDO_USER, SUDO_UID as sudo(8) sets them, t/0646's way:
 *     uid 4242, whom nobody here is): a file of another user is refused
 *     (-EPERM, "owned by another user than the invoking user"), a new file
 *     in a directory that user does not own too (cpu/userfile.h's rules);
 *     without a valid $SUDO_UID, refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/output/output.h"
#include "t/fixture.h"
#include "t/tap.h"

static char dir[PATH_MAX];

/* The names in @dir other than those listed, as "a b " (static). */
static const char *others(const char *keep1, const char *keep2)
{
	static char list[1024];
	DIR *d = opendir(dir);
	struct dirent *e;

	list[0] = '\0';
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (!keep1 || strcmp(e->d_name, keep1)) && (!keep2 || strcmp(e->d_name, keep2)))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s ", e->d_name);
	if (d)
		closedir(d);
	return list;
}

static int write_text(const char *path, const char *text, const char **why)
{
	struct output_file *of;
	int rc = output_file_open_atomic(path, &of, why);

	if (rc)
		return rc;
	fputs(text, output_file_stream(of));
	return output_file_commit(of, why);
}

static void test_replace(void)
{
	char path[PATH_MAX], tmpname[64];
	struct output_file *of;
	struct stat a, b;
	const char *why;
	mode_t old = umask(022);

	t_path(path, "%s/m.prom", dir);
	check_int(write_text(path, "one\n", &why), ==, 0, "a new file is written");
	check_str(get_file(path), "one\n", "with the text");
	ok(stat(path, &a) == 0 && (a.st_mode & 07777) == 0644, "new: 0666 less the umask 022: 0644");
	check_str(others("m.prom", NULL), "", "no temporary file left");
	chmod(path, 0640);
	stat(path, &a);
	check_int(output_file_open_atomic(path, &of, &why), ==, 0, "open over it");
	fputs("two\n", output_file_stream(of));
	fflush(output_file_stream(of));
	check_str(get_file(path), "one\n", "before commit a reader sees the old text, whole");
	snprintf(tmpname, sizeof(tmpname), ".m.prom.baretma-%ld-", (long)getpid());
	ok(!strncmp(others("m.prom", NULL), tmpname, strlen(tmpname)) &&
	   strstr(others("m.prom", NULL), ".tmp ") && !strchr(others("m.prom", NULL), ' ')[1],
	   "the new text is in .NAME.baretma-PID-START-N.tmp in the same directory (%s)",
	   others("m.prom", NULL));
	check_int(output_file_commit(of, &why), ==, 0, "commit");
	check_str(get_file(path), "two\n", "after commit the new text");
	ok(stat(path, &b) == 0 && b.st_ino != a.st_ino, "a new inode renamed over the name");
	check_int(b.st_mode & 07777, ==, 0640, "the old file's mode kept");
	check_str(others("m.prom", NULL), "", "no temporary file left");
	check_int(output_file_open_atomic(path, &of, &why), ==, 0, "open again");
	fputs("three\n", output_file_stream(of));
	output_file_abort(of);
	check_str(get_file(path), "two\n", "abort: the old text stays");
	check_str(others("m.prom", NULL), "", "abort: no temporary file left");
	unlink(path);
	umask(old);
}

static void test_refused(void)
{
	char path[PATH_MAX], target[PATH_MAX], sub[PATH_MAX], fifo[PATH_MAX];
	struct output_file *of;
	const char *why;
	struct stat st;

	t_path(target, "%s/target", dir);
	t_path(path, "%s/link.prom", dir);
	put_file(target, "precious\n");
	ok(symlink(target, path) == 0, "a symbolic link to a file");
	check_int(write_text(path, "x\n", &why), ==, -ELOOP, "a link at the name: -ELOOP");
	check_str(why, "a symbolic link", "why: a symbolic link");
	check_str(get_file(target), "precious\n", "its target unchanged");
	ok(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "the link itself still there");
	check_int(output_file_check(path, &why), ==, -ELOOP, "output_file_check says so too");
	unlink(path);

	t_path(path, "%s/late.prom", dir);
	check_int(output_file_open_atomic(path, &of, &why), ==, 0, "open a new name");
	fputs("x\n", output_file_stream(of));
	ok(symlink(target, path) == 0, "a link planted at the name before commit");
	check_int(output_file_commit(of, &why), ==, -ELOOP, "commit refuses it: -ELOOP");
	check_str(get_file(target), "precious\n", "its target unchanged");
	ok(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "the planted link not replaced");
	check_str(others("target", "late.prom"), "", "no temporary file left");
	unlink(path);

	t_path(sub, "%s/adir", dir);
	mkdir(sub, 0700);
	check_int(write_text(sub, "x\n", &why), ==, -EISDIR, "a directory: -EISDIR");
	t_path(fifo, "%s/fifo", dir);
	ok(mkfifo(fifo, 0600) == 0, "a FIFO");
	check_int(write_text(fifo, "x\n", &why), ==, -EINVAL, "a FIFO: -EINVAL, not opened");
	ok(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO left as it is");
	t_path(path, "%s/nodir/x.prom", dir);
	check_int(write_text(path, "x\n", &why), ==, -ENOENT, "no such directory: -ENOENT");
	check_str(others("target", "adir") , "fifo ", "nothing else left in the directory");
	unlink(fifo);
	rmdir(sub);
	unlink(target);
}

static void test_sudo(void)
{
	char path[PATH_MAX];
	const char *why;

	t_path(path, "%s/mine.prom", dir);
	put_file(path, "root's\n");
	setenv("SUDO_USER", "t-sudo-user", 1);
	setenv("SUDO_UID", "4242", 1);
	setenv("SUDO_GID", "4242", 1);
	if (getuid() == 4242) {
		skip(4, "this test runs as uid 4242");
	} else {
		check_int(write_text(path, "x\n", &why), ==, -EPERM,
			  "under sudo, a file of another user than uid 4242: -EPERM");
		check_str(why, "owned by another user than the invoking user", "why");
		check_str(get_file(path), "root's\n", "left unchanged");
		t_path(path, "%s/new.prom", dir);
		check_int(write_text(path, "x\n", &why), ==, -EPERM,
			  "a new file in a directory uid 4242 does not own (0700): -EPERM");
	}
	setenv("SUDO_UID", "-1", 1);
	check_int(write_text(path, "x\n", &why), ==, -EPERM, "SUDO_UID not a user id: -EPERM");
	check_str(why, "named under sudo without a valid $SUDO_UID", "why");
	t_no_sudo();
	unlink(t_in(dir, "mine.prom"));
}

int main(void)
{
	t_no_sudo();
	t_scratch(dir, "0932");
	chmod(dir, 0700);
	test_replace();
	test_refused();
	test_sudo();
	t_rm_rf(dir);
	return done_testing();
}
