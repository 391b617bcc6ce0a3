/*
 * t/1030-userfile-read-sudo - under sudo, root reads for the invoking user
 * only what that user could read (project issue 27, point 1), and every
 * input is read in blocks up to its cap (point 3): cpu/userfile.h
 * userfile_open_read, userfile_read_denied, userfile_read_all,
 * userfile_cap_text.
 *
 * Before, `sudo baretma info --cpuid-dump /etc/shadow`-like names were read
 * by root, and the parse error quoted the file's first line: nothing
 * looked at who the invoking user was.  Now the kernel decides: a child
 * takes the invoking user's uid, gid and groups and opens the file; root
 * opens it only when the child could, and only that very file.
 *
 * sudo is simulated as t/0646 does (SUDO_USER, SUDO_UID, SUDO_GID in the
 * environment, sudo(8)'s "%u").  The invoking users: nobody (65534, in
 * every passwd), and 4242, whom no passwd has (then the groups are
 * $SUDO_GID's alone).  The expected answers are the kernel's permission
 * rule (path_resolution(7), credentials(7)): the owner class decides for
 * the owner even where "others" may read (mode 0044), every directory on
 * the way must be searchable, a group counts when it is the primary or a
 * supplementary one.  Taking another user's ids needs root: those cases
 * are skipped otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/userfile.h"
#include "t/fixture.h"

static char dir[PATH_MAX];

/* userfile_open_read(@path): 0 when it opened (the fd closed), or -errno. */
static int opens(const char *path, int flags)
{
	int fd = userfile_open_read(AT_FDCWD, path, flags);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* @name in the scratch directory, holding @text, owned @uid:@gid, @mode. */
static const char *made(const char *name, const char *text, uid_t uid, gid_t gid, mode_t mode)
{
	const char *p = t_in(dir, name);

	put_file(p, text);
	if (chown(p, uid, gid) || chmod(p, mode))
		perror(p);
	return p;
}

/* No other user needed: the invoking user unknown, no sudo at all. */
static void test_anyone(void)
{
	const char *p = t_in(dir, "plain");
	char why[400];
	int fd;

	put_file(p, "CPUID 00000000: secret\n");
	chmod(p, 0600);
	t_no_sudo();
	check_int(opens(p, 0), ==, 0, "no sudo: the test's own 0600 file opens (nothing forked)");
	t_sudo_as(NULL, NULL);
	check_int(opens(p, 0), ==, -EACCES,
		  "SUDO_USER without SUDO_UID: -EACCES, the invoking user is unknown");
	userfile_read_denied(why, sizeof(why));
	check_str(why, "the invoking user is unknown (SUDO_UID is not set): refused unread (sudo "
		  "sets SUDO_UID for the command it runs; in a root shell of your own, unset "
		  "SUDO_USER and SUDO_UID)", "  said, with the remedy");
	t_sudo_as("12x", NULL);
	check_int(opens(p, 0), ==, -EACCES, "SUDO_UID=12x: -EACCES");
	/* root ran sudo, or the test's own uid: the invoking user is the
	 * effective one, whose own file it is */
	snprintf(why, sizeof(why), "%u", (unsigned)geteuid());
	t_sudo_as(why, NULL);
	fd = opens(p, 0);
	check_int(fd, ==, 0, "SUDO_UID = the effective uid: its own 0600 file opens");
	t_no_sudo();
}

/* The invoking user nobody (65534), or 4242 that no passwd has. */
static void test_refused(void)
{
	const char *secret = made("secret", "CPUID 00000000: root's\n", 0, 0, 0600);
	const char *pub = made("public", "CPUID 00000000: anyone's\n", 0, 0, 0644);
	const char *hidden;
	char why[400];

	mkdir(t_in(dir, "closed"), 0700);
	hidden = made("closed/file", "x\n", 0, 0, 0644);
	t_sudo_as("65534", "65534");
	check_int(opens(secret, 0), ==, -EACCES, "uid 65534: root's 0600 file: -EACCES, unread");
	userfile_read_denied(why, sizeof(why));
	check_str(why, "uid 65534 ($SUDO_UID), on whose behalf baretma runs as uid 0, cannot "
		  "read it: refused unread (name a file that user can read)",
		  "  said: the invoking user and the remedy");
	check_int(opens(pub, 0), ==, 0, "uid 65534: a 0644 file opens");
	check_int(opens(hidden, 0), ==, -EACCES,
		  "uid 65534: a 0644 file in root's 0700 directory: -EACCES (the path counts)");
	check_int(opens(t_in(dir, "closed/none"), 0), ==, -EACCES,
		  "uid 65534: a missing name in root's 0700 directory: -EACCES, not -ENOENT "
		  "(they learn nothing of what is there)");
	check_int(opens(t_in(dir, "none"), 0), ==, -ENOENT, "uid 65534: a missing file: -ENOENT");
	/* owner class first: "others may read" does not let the owner read */
	made("owner-denied", "x\n", 65534, 65534, 0044);
	check_int(opens(t_in(dir, "owner-denied"), 0), ==, -EACCES,
		  "uid 65534: its own file of mode 0044: -EACCES (the owner's bits decide)");
	t_sudo_as("4242", "4343");
	check_int(opens(t_in(dir, "owner-denied"), 0), ==, 0,
		  "uid 4242: that 0044 file of 65534's opens (the others' bits)");
	made("group-4343", "x\n", 0, 4343, 0640);
	check_int(opens(t_in(dir, "group-4343"), 0), ==, 0,
		  "uid 4242 (no passwd entry), SUDO_GID=4343: a 0640 file of group 4343 opens");
	t_sudo_as("4242", "4344");
	check_int(opens(t_in(dir, "group-4343"), 0), ==, -EACCES,
		  "uid 4242, SUDO_GID=4344: that file: -EACCES");
	t_sudo_as("4242", "x");
	check_int(opens(pub, 0), ==, -EACCES,
		  "uid 4242, no passwd entry and SUDO_GID=x: -EACCES (its group is unknown)");
	t_sudo_as("65534", "x");
	made("group-65534", "x\n", 0, 65534, 0640);
	check_int(opens(t_in(dir, "group-65534"), 0), ==, 0,
		  "uid 65534, SUDO_GID=x: the passwd entry's group 65534 counts");
	t_sudo_as("0", "0");
	check_int(opens(secret, 0), ==, 0, "SUDO_UID=0 (root ran sudo): root's 0600 file opens");
	t_no_sudo();
}

/* Not regular files, links: refused as before, under sudo too. */
static void test_shapes(void)
{
	const char *fifo = t_in(dir, "fifo");

	mkfifo(fifo, 0666);
	chmod(fifo, 0666);
	symlink(t_in(dir, "public"), t_in(dir, "link"));
	t_sudo_as("65534", "65534");
	check_int(opens(fifo, 0), ==, -EINVAL, "uid 65534: a FIFO: -EINVAL, never waited on");
	check_int(opens(t_in(dir, "link"), O_NOFOLLOW), ==, -ELOOP,
		  "uid 65534: a link with O_NOFOLLOW: -ELOOP");
	check_int(opens(t_in(dir, "link"), 0), ==, 0, "uid 65534: the link followed: opens");
	t_no_sudo();
}

/* A user of this system with a supplementary group that is not its
 * primary one, and that group: false when there is none. */
static bool supplementary(struct passwd *out, gid_t *group)
{
	struct group *g;
	bool found = false;

	setgrent();
	while (!found && (g = getgrent()))
		for (char **m = g->gr_mem; m && *m && !found; m++) {
			struct passwd *pw = getpwnam(*m);

			if (pw && pw->pw_gid != g->gr_gid && pw->pw_uid != 0) {
				*out = *pw;
				out->pw_name = strdup(pw->pw_name);
				*group = g->gr_gid;
				found = true;
			}
		}
	endgrent();
	return found;
}

/* The groups getgrouplist gives count, not the primary one alone. */
static void test_supplementary(void)
{
	char uid[16], gid[16], name[200];
	struct passwd pw;
	gid_t g;

	if (!supplementary(&pw, &g)) {
		skip(2, "no user here with a supplementary group (/etc/group lists no member)");
		return;
	}
	made("supp", "x\n", 0, g, 0640);
	snprintf(uid, sizeof(uid), "%u", (unsigned)pw.pw_uid);
	snprintf(gid, sizeof(gid), "%u", (unsigned)pw.pw_gid);
	snprintf(name, sizeof(name), "uid %u (%s): a 0640 file of its supplementary group %u "
		 "opens", (unsigned)pw.pw_uid, pw.pw_name, (unsigned)g);
	t_sudo_as(uid, gid);
	check_int(opens(t_in(dir, "supp"), 0), ==, 0, name);
	made("supp-not", "x\n", 0, g, 0600);
	check_int(opens(t_in(dir, "supp-not"), 0), ==, -EACCES, "  one of mode 0600: -EACCES");
	free(pw.pw_name);
	t_no_sudo();
}

/* Setuid-like (real uid 65534, effective 0): the real uid is the invoking
 * user, whatever $SUDO_UID says.  In a child: 0 when both answers hold. */
static void test_setuid(void)
{
	pid_t pid;
	int st = -1;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setresgid(65534, 0, 0) || setresuid(65534, 0, 0))
			_exit(3);
		setenv("SUDO_UID", "0", 1);
		_exit(opens(t_in(dir, "secret"), 0) == -EACCES && opens(t_in(dir, "public"), 0) == 0
		      ? 0 : 1);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "setuid-like, real uid 65534 (SUDO_UID=0 not looked at): root's 0600 file -EACCES, "
	   "a 0644 one opens");
}

/* userfile_read_all @path (at most @cap): its return, *len, *size. */
static int read_path(const char *path, size_t cap, size_t *len, uint64_t *size, char **text)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	char *buf = NULL;

	rc = fd < 0 ? -errno : userfile_read_all(fd, cap, &buf, len, size);
	if (fd >= 0)
		close(fd);
	if (text)
		*text = buf;
	else
		free(buf);
	return rc;
}

/* The caps: a file at its cap is read, one byte more is not. */
static void test_read_all(void)
{
	char *text = NULL, *big = malloc(301), why[160];
	int p[2];
	uint64_t size = 0;
	size_t len = 7;

	memset(big, 'a', 300);
	big[300] = '\0';
	put_file(t_in(dir, "hundred"), big + 200);
	check_int(read_path(t_in(dir, "hundred"), 100, &len, &size, &text), ==, 0,
		  "a file of 100 bytes, cap 100: read");
	check_u64(len, ==, 100, "  its 100 bytes");
	ok(text && text[100] == '\0' && !strcmp(text, big + 200), "  NUL-terminated, the bytes");
	free(text);
	check_int(read_path(t_in(dir, "hundred"), 99, &len, &size, NULL), ==, -EFBIG,
		  "cap 99: -EFBIG, not read");
	check_u64(size, ==, 100, "  its size, 100, for the message");
	put_file(t_in(dir, "empty"), "");
	check_int(read_path(t_in(dir, "empty"), 100, &len, &size, NULL), ==, 0,
		  "an empty file: read");
	check_u64(len, ==, 0, "  0 bytes");
	/* A source whose size fstat does not know (a pipe, st_size 0), as a
	 * file grown after its fstat: read until cap + 1 bytes, no further. */
	if (pipe(p) == 0 && write(p[1], big, 300) == 300) {
		char rest[400];
		ssize_t r;

		close(p[1]);
		check_int(userfile_read_all(p[0], 100, &text, &len, &size), ==, -EFBIG,
			  "300 bytes where fstat says 0 (it grew), cap 100: -EFBIG");
		check_u64(size, ==, 101, "  size: the 101 bytes read, cap + 1");
		r = read(p[0], rest, sizeof(rest));
		check_int((int)r, ==, 199, "  no byte past cap + 1 was read (199 left of 300)");
		close(p[0]);
	} else {
		skip(3, "no pipe");
	}
	userfile_cap_text(why, sizeof(why), 1048577, 1048576, "a calibration file");
	check_str(why, "1048577 bytes, over the cap of 1048576 bytes for a calibration file",
		  "userfile_cap_text: the size, the cap and the kind");
	free(big);
}

int main(void)
{
	t_scratch(dir, "1030");
	chmod(dir, 0755); /* every user may search it: each case decides below */
	t_no_sudo();
	test_anyone();
	test_read_all();
	if (geteuid() != 0) {
		skip(19, "not root: cannot take another user's ids to ask the kernel what they "
		     "may read");
	} else {
		test_refused();
		test_shapes();
		test_supplementary();
		test_setuid();
	}
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
