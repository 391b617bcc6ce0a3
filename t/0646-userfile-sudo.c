/*
 * t/0646-userfile-sudo - no file of root's through the environment under
 * sudo (project issue "Left exactly as found", point 4).
 *
 * The attack: `sudo -E` (or an env_keep rule) with
 * BARETMA_MSR_TRACE=/etc/sudoers, or a library host with BARETMA_OUTPUT,
 * made root append to a file of root's: cpu/userfile.c accepted a file
 * whose owner was getuid(), 0 under sudo.  Now the file must be the
 * invoking user's (cpu/trust.h trust_invoking_user: $SUDO_UID under sudo,
 * the real uid under setuid), or be created new, 0600 and theirs, in a
 * directory they own or a sticky one everyone may write (/tmp).
 *
 * sudo is simulated as t/0615 does: SUDO_USER, SUDO_UID, SUDO_GID in the
 * environment, as sudo(8) sets them for the command it runs (decimal, no
 * sign: its "%u").  The invoking user is uid 4242, whom no one here is:
 * so a file of the test's own (root's in CI) stands for /etc/sudoers even
 * when the test does not run as root.  Giving a directory or a new file
 * to uid 4242 needs root (CAP_CHOWN); those cases are skipped otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/trust.h"
#include "cpu/userfile.h"
#include "t/fixture.h"

static char dir[PATH_MAX];

/* $SUDO_UID as sudo writes it: "%u" of a uid_t other than (uid_t)-1. */
static void test_invoking_user(void)
{
	static const struct {
		const char *sudo_uid;
		int want;
		unsigned uid;
		const char *name;
	} v[] = {
		{ "4242", 0, 4242, "SUDO_UID=4242" },
		{ "0", 0, 0, "SUDO_UID=0 (root ran sudo: root's files are its own)" },
		{ "4294967294", 0, 4294967294u, "SUDO_UID=4294967294, the largest uid" },
		{ "4294967295", -EINVAL, 0, "SUDO_UID=4294967295 ((uid_t)-1: no user)" },
		{ "99999999999", -EINVAL, 0, "SUDO_UID above 32 bits" },
		{ "abc", -EINVAL, 0, "SUDO_UID=abc" },
		{ "-1", -EINVAL, 0, "SUDO_UID=-1" },
		{ "+42", -EINVAL, 0, "SUDO_UID=+42" },
		{ "042", -EINVAL, 0, "SUDO_UID=042 (a leading zero: not sudo's %u)" },
		{ "42 ", -EINVAL, 0, "SUDO_UID='42 '" },
		{ "0x10", -EINVAL, 0, "SUDO_UID=0x10" },
		{ NULL, -EINVAL, 0, "SUDO_USER set, SUDO_UID not" },
	};
	char who[160];
	uid_t uid;
	gid_t gid;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		t_sudo_as(v[i].sudo_uid, "4343");
		uid = 1;
		check_int(trust_invoking_user(&uid, &gid, who, sizeof(who)), ==, v[i].want, v[i].name);
		if (!v[i].want)
			check_u64(uid, ==, v[i].uid, "  that uid");
	}
	t_sudo_as("4242", "4343");
	trust_invoking_user(&uid, &gid, who, sizeof(who));
	check_u64(gid, ==, 4343, "SUDO_GID=4343: the group");
	check_str(who, "uid 4242 ($SUDO_UID)", "  said as 'uid 4242 ($SUDO_UID)'");
	t_sudo_as("4242", "x");
	trust_invoking_user(&uid, &gid, who, sizeof(who));
	check_u64(gid, ==, (gid_t)-1, "SUDO_GID=x: no group ((gid_t)-1: left as created)");
	t_sudo_as("abc\x1b[2J", NULL);
	trust_invoking_user(&uid, &gid, who, sizeof(who));
	check_str(who, "SUDO_UID 'abc\\x1b[2J' is not a user id", "a bad SUDO_UID is named, escaped");
	t_no_sudo();
	check_int(trust_invoking_user(&uid, &gid, who, sizeof(who)), ==, 0, "no sudo");
	check_u64(uid, ==, getuid(), "  the real uid");
	setenv("SUDO_UID", "4242", 1); /* SUDO_UID alone is sudo's too (cpu/trust.h) */
	trust_invoking_user(&uid, &gid, who, sizeof(who));
	check_u64(uid, ==, 4242, "SUDO_UID alone: that uid");
	t_no_sudo();
}

/* userfile_open_append(@path): the fd closed; its return value (an fd is
 * reported as 0) and *@why in @why_out. */
static int append(const char *path, const char *text, const char **why_out)
{
	const char *why = NULL;
	int fd = userfile_open_append(path, &why);

	*why_out = why ? why : "";
	if (fd < 0)
		return fd;
	if (text && write(fd, text, strlen(text)) < 0)
		perror("write");
	close(fd);
	return 0;
}

static const char *owner_mode(const char *path)
{
	static char buf[64];
	struct stat st;

	if (lstat(path, &st))
		return "missing";
	snprintf(buf, sizeof(buf), "%o %u %u", (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid,
		 (unsigned)st.st_gid);
	return buf;
}

/* Files the invoking user (uid 4242) does not own: refused, untouched. */
static void test_refused(void)
{
	const char *why;

	put_file(t_in(dir, "sudoers"), "root ALL=(ALL) ALL\n");
	t_sudo_as("4242", "4343");
	check_int(append(t_in(dir, "sudoers"), "t-sudo-user ALL=(ALL) NOPASSWD: ALL\n", &why), ==,
		  -EPERM, "under sudo (SUDO_UID=4242): a file of uid 4242's caller: -EPERM");
	check_str(why, "owned by another user than the invoking user", "  why");
	check_str(get_file(t_in(dir, "sudoers")), "root ALL=(ALL) ALL\n", "  nothing appended");

	check_int(append(t_in(dir, "new-in-ours"), "x\n", &why), ==, -EPERM,
		  "a new file in a directory uid 4242 does not own: -EPERM");
	check_str(why, "a new file in a directory the invoking user does not own", "  why");
	check_str(owner_mode(t_in(dir, "new-in-ours")), "missing", "  nothing created");

	mkdir(t_in(dir, "open"), 0777);
	chmod(t_in(dir, "open"), 0777);
	check_int(append(t_in(dir, "open/new"), "x\n", &why), ==, -EPERM,
		  "a new file in a directory mode 0777, not sticky, not uid 4242's: -EPERM");
	check_str(owner_mode(t_in(dir, "open/new")), "missing", "  nothing created");

	t_sudo_as(NULL, NULL);
	check_int(append(t_in(dir, "unknown"), "x\n", &why), ==, -EPERM,
		  "SUDO_USER without SUDO_UID: -EPERM (the invoking user is unknown)");
	check_str(why, "named under sudo without a valid $SUDO_UID", "  why");
	check_str(owner_mode(t_in(dir, "unknown")), "missing", "  nothing created");
	t_sudo_as("12x", NULL);
	check_int(append(t_in(dir, "sudoers"), "x\n", &why), ==, -EPERM, "SUDO_UID=12x: -EPERM");
	check_str(get_file(t_in(dir, "sudoers")), "root ALL=(ALL) ALL\n", "  nothing appended");
	t_no_sudo();
}

/* Root only: the invoking user's own directory, file, and /tmp-like one. */
static void test_accepted(void)
{
	const char *why;

	if (geteuid() != 0) {
		skip(12, "not root: cannot give a directory or a file to uid 4242");
		return;
	}
	mkdir(t_in(dir, "theirs"), 0755);
	chown(t_in(dir, "theirs"), 4242, 4343);
	t_sudo_as("4242", "4343");
	umask(0);
	check_int(append(t_in(dir, "theirs/trace"), "a\n", &why), ==, 0,
		  "a new file in uid 4242's directory: created");
	umask(022);
	check_str(owner_mode(t_in(dir, "theirs/trace")), "600 4242 4343",
		  "  0600 (umask 0), uid 4242's, group 4343 (SUDO_GID)");
	check_int(append(t_in(dir, "theirs/trace"), "b\n", &why), ==, 0,
		  "uid 4242's own file: appended to");
	check_str(get_file(t_in(dir, "theirs/trace")), "a\nb\n", "  both lines there");

	mkdir(t_in(dir, "sticky"), 01777);
	chmod(t_in(dir, "sticky"), 01777);
	check_int(append(t_in(dir, "sticky/trace"), "a\n", &why), ==, 0,
		  "a new file in root's sticky 1777 directory (/tmp): created");
	check_str(owner_mode(t_in(dir, "sticky/trace")), "600 4242 4343", "  uid 4242's, 0600");

	/* A link to a directory: the directory it reaches is what counts. */
	symlink(t_in(dir, "theirs"), t_in(dir, "to-theirs"));
	symlink(dir, t_in(dir, "theirs/to-root"));
	check_int(append(t_in(dir, "to-theirs/via-link"), "a\n", &why), ==, 0,
		  "through a link to uid 4242's directory: created there");
	check_int(append(t_in(dir, "theirs/to-root/planted"), "a\n", &why), ==, -EPERM,
		  "through uid 4242's link to root's directory: -EPERM");
	check_str(owner_mode(t_in(dir, "planted")), "missing", "  nothing created in root's");

	t_sudo_as("4242", NULL);
	check_int(append(t_in(dir, "theirs/nogid"), NULL, &why), ==, 0,
		  "no SUDO_GID: created all the same");
	check_str(owner_mode(t_in(dir, "theirs/nogid")), "600 4242 0", "  uid 4242's, group left");

	/* root ran sudo: SUDO_UID=0, root's own files are the user's. */
	t_sudo_as("0", "0");
	check_int(append(t_in(dir, "sudoers"), NULL, &why), ==, 0,
		  "SUDO_UID=0 (root ran sudo): root's own file accepted");
	t_no_sudo();
}

/* In a child with real uid 65534, effective 0 (setuid-like), $SUDO_UID
 * 4242 set by the caller: a new file in @sub. */
static int child_create(const char *sub, const char *want)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		const char *why;
		char *path = t_strf("%s/%s/setuid-trace", dir, sub);
		int rc;

		if (setresgid(65534, 0, 0) || setresuid(65534, 0, 0))
			_exit(3);
		setenv("SUDO_UID", "4242", 1);
		rc = append(path, NULL, &why);
		_exit(!strcmp(owner_mode(path), want) && (rc == 0) == (strcmp(want, "missing") != 0) ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void test_setuid(void)
{
	if (geteuid() != 0) {
		skip(2, "not root: cannot make real and effective uids differ");
		return;
	}
	chmod(dir, 0755);
	mkdir(t_in(dir, "nobody"), 0700);
	chown(t_in(dir, "nobody"), 65534, 65534);
	check_int(child_create("nobody", "600 65534 65534"), ==, 0,
		  "setuid-like (real uid 65534): a new file in 65534's directory is 65534's "
		  "($SUDO_UID not looked at)");
	check_int(child_create("theirs", "missing"), ==, 0,
		  "setuid-like: not in uid 4242's directory, whatever $SUDO_UID says");
}

int main(void)
{
	t_scratch(dir, "0646");
	t_no_sudo();
	test_invoking_user();
	test_refused();
	test_accepted();
	test_setuid();
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
