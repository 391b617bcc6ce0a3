/*
 * t/0641-msr-files - what the MSR layer opens as root (msr/access/msr.h):
 *
 * The device backend uses MSR device nodes only (issue 9, point 1).  The
 * attack: a template whose name is a regular file, or a link to one, made
 * root read 8 bytes of it at the MSR index as offset and write them back.
 * The node check is decided from a struct stat: hand-made values for the
 * acceptance side (the msr driver's major 202, minor = CPU: linux
 * include/uapi/linux/major.h MSR_MAJOR, arch/x86/kernel/msr.c; msr_safe's
 * dynamic major registered as "cpu/msr_safe": LLNL msr-safe msr_entry.c),
 * real files for the refusal side.  Under sudo or with real ids other than
 * the effective ones (cpu/trust.h) only the two standard templates pass.
 *
 * The trace file (point 2): a link at the name, a file of another user, a
 * FIFO or a file with other hard links are refused and get nothing; a new
 * file is 0600 and the real uid's, made only where that uid could have
 * made it (t/0646 has the sudo cases).
 *
 * Root only where a second user or mknod is needed (CI runs as root): the
 * victim files are chowned to 65534 inside the test's private directory,
 * and the real-uid cases run in a child with setresuid(65534, 0, 0).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "t/fixture.h"

static char dir[PATH_MAX];


static struct stat node(mode_t type, unsigned maj, unsigned min)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_mode = type | 0600;
	st.st_rdev = makedev(maj, min);
	return st;
}

/* The node check from hand-made stat values. */
static void test_node_check(void)
{
	static const struct {
		mode_t type;
		unsigned maj, min, cpu;
		int msr_safe, want;
		const char *name;
	} v[] = {
		{ S_IFCHR, 202, 3, 3, -1, 0, "char 202:3 for cpu 3: the msr driver's node" },
		{ S_IFCHR, 202, 0, 0, -1, 0, "char 202:0 for cpu 0" },
		{ S_IFCHR, 202, 8191, 8191, -1, 0, "char 202:8191 for cpu 8191" },
		{ S_IFCHR, 202, 3, 4, -1, -ENODEV, "char 202:3 for cpu 4: another CPU's node" },
		{ S_IFCHR, 1, 3, 3, -1, -ENODEV, "char 1:3 (/dev/null)" },
		{ S_IFCHR, 203, 0, 0, -1, -ENODEV, "char 203:0 (/dev/cpu/0/cpuid)" },
		{ S_IFBLK, 202, 0, 0, -1, -ENODEV, "block 202:0 (a Xen virtual disk, XENVBD_MAJOR)" },
		{ S_IFREG, 202, 0, 0, -1, -ENODEV, "a regular file" },
		{ S_IFIFO, 202, 0, 0, -1, -ENODEV, "a FIFO" },
		{ S_IFLNK, 202, 0, 0, -1, -ENODEV, "a symbolic link" },
		{ S_IFDIR, 202, 0, 0, -1, -ENODEV, "a directory" },
		{ S_IFCHR, 240, 5, 5, 240, 0, "char 240:5 for cpu 5, msr_safe's major 240" },
		{ S_IFCHR, 240, 5, 5, -1, -ENODEV, "char 240:5, no msr_safe loaded" },
		{ S_IFCHR, 240, 5, 5, 241, -ENODEV, "char 240:5, msr_safe's major is 241" },
		{ S_IFCHR, 240, 4, 5, 240, -ENODEV, "msr_safe node of cpu 4 for cpu 5" },
		{ S_IFCHR, 0, 5, 5, 0, -ENODEV, "major 0 is never msr_safe's" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct stat st = node(v[i].type, v[i].maj, v[i].min);

		check_int(msr_device_node_check(&st, v[i].cpu, v[i].msr_safe), ==, v[i].want,
			  v[i].name);
	}
}

/* msr_safe's major from /proc/devices text (fs/proc/devices.c layout). */
static void test_chrdev_major(void)
{
	static const char devices[] =
		"Character devices:\n"
		"  1 mem\n"
		"  4 /dev/vc/0\n"
		" 10 misc\n"
		"202 cpu/msr\n"
		"203 cpu/cpuid\n"
		"237 cpu/msr_safe_batch\n"
		"238 cpu/msr_safe\n"
		"254 ndctl\n"
		"\n"
		"Block devices:\n"
		"  7 loop\n"
		"239 cpu/msr_blk\n";
	static const char only_block[] =
		"Character devices:\n"
		"  1 mem\n"
		"\n"
		"Block devices:\n"
		"238 cpu/msr_safe\n";

	check_int(msr_chrdev_major(devices, strlen(devices), "cpu/msr_safe"), ==, 238,
		  "cpu/msr_safe: 238, not the 237 of a name it begins");
	check_int(msr_chrdev_major(devices, strlen(devices), "cpu/msr"), ==, 202,
		  "cpu/msr: 202 (whole names only)");
	check_int(msr_chrdev_major(devices, strlen(devices), "mem"), ==, 1, "'  1 mem': 1");
	check_int(msr_chrdev_major(devices, strlen(devices), "cpu/msr_blk"), ==, -ENOENT,
		  "a block driver is not a character one");
	check_int(msr_chrdev_major(only_block, strlen(only_block), "cpu/msr_safe"), ==, -ENOENT,
		  "cpu/msr_safe only under Block devices: -ENOENT");
	check_int(msr_chrdev_major("238 cpu/msr_safe\n", 17, "cpu/msr_safe"), ==, -ENOENT,
		  "no 'Character devices:' heading: -ENOENT");
	check_int(msr_chrdev_major(devices, 0, "cpu/msr_safe"), ==, -ENOENT, "empty text");
}

static const char secret[] = "AAAAAAAABBBBBBBBsecret!!";

/* A gate that lets every write through: the device backend's own refusal
 * is tested here, behind the journal's gate (msr/access/msr.h). */
static bool gate_all(const void *arg, unsigned cpu, uint32_t msr)
{
	(void)arg, (void)cpu, (void)msr;
	return true;
}

/* msr_open(@spec); then read and write MSR 0x8 of cpu 0: both -ENODEV. */
static void refused(const char *spec, const char *what)
{
	struct msr_dev *dev = NULL;
	uint64_t v = 0;

	check_int(msr_open(spec, &dev), ==, 0, "the template itself is fine");
	msr_gate_set(dev, gate_all, NULL, NULL, NULL);
	check_int(msr_open_cpu(dev, 0), ==, -ENODEV, what);
	check_int(msr_read(dev, 0, 0x8, &v), ==, -ENODEV, "  read at offset 0x8: -ENODEV");
	check_u64(v, ==, 0, "  nothing read");
	check_int(msr_write(dev, 0, 0x8, 0x4141414141414141ull), ==, -ENODEV,
		  "  write at offset 0x8: -ENODEV");
	msr_close(dev);
}

/* The refusal side on real files: the attack of issue 9 point 1. */
static void test_refused_files(void)
{
	char spec[PATH_MAX];

	t_path(spec, "%s/cpu/%%u/msr", dir);
	mkdir(t_in(dir, "cpu"), 0700);
	mkdir(t_in(dir, "cpu/0"), 0700);
	put_file(t_in(dir, "victim"), secret);

	if (symlink(t_in(dir, "victim"), t_in(dir, "cpu/0/msr")))
		perror("symlink");
	refused(spec, "a symbolic link to a regular file: -ENODEV");
	put_file(t_in(dir, "cpu/0/msr.tmp"), secret);
	unlink(t_in(dir, "cpu/0/msr"));
	rename(t_in(dir, "cpu/0/msr.tmp"), t_in(dir, "cpu/0/msr"));
	refused(spec, "a regular file: -ENODEV");
	check_str(get_file(t_in(dir, "cpu/0/msr")), secret, "the regular file keeps every byte");
	unlink(t_in(dir, "cpu/0/msr"));
	if (symlink("/dev/null", t_in(dir, "cpu/0/msr")))
		perror("symlink");
	refused(spec, "a symbolic link to /dev/null: -ENODEV");
	unlink(t_in(dir, "cpu/0/msr"));
	/* A FIFO without a writer: opening it O_RDONLY would block forever;
	 * it is never opened (alarm: a hang fails the test). */
	mkfifo(t_in(dir, "cpu/0/msr"), 0600);
	alarm(20);
	refused(spec, "a FIFO: -ENODEV, without blocking");
	alarm(0);
	unlink(t_in(dir, "cpu/0/msr"));
	mkdir(t_in(dir, "cpu/0/msr"), 0700);
	refused(spec, "a directory: -ENODEV");
	rmdir(t_in(dir, "cpu/0/msr"));
	check_str(get_file(t_in(dir, "victim")), secret, "the victim keeps every byte");
}

/* Nodes made with mknod (root, CAP_MKNOD): another device; the msr major
 * with another CPU's minor; the right node (opened: 0 where the msr driver
 * is loaded, -ENXIO where it is not; never -ENODEV; nothing is read). */
static void test_mknod(void)
{
	char spec[PATH_MAX];
	struct msr_dev *dev = NULL;
	int rc;

	t_path(spec, "%s/cpu/%%u/msr", dir);
	if (mknod(t_in(dir, "cpu/0/msr"), S_IFCHR | 0600, makedev(1, 3))) {
		skip(11, "mknod not permitted here (not root, or no CAP_MKNOD)");
		return;
	}
	refused(spec, "a character device 1:3 (/dev/null's): -ENODEV");
	unlink(t_in(dir, "cpu/0/msr"));
	mknod(t_in(dir, "cpu/0/msr"), S_IFCHR | 0600, makedev(MSR_DEV_MAJOR, 1));
	refused(spec, "the msr major with cpu 1's minor at cpu 0's name: -ENODEV");
	unlink(t_in(dir, "cpu/0/msr"));
	mknod(t_in(dir, "cpu/0/msr"), S_IFCHR | 0600, makedev(MSR_DEV_MAJOR, 0));
	msr_open(spec, &dev);
	rc = msr_open_cpu(dev, 0);
	ok(rc != -ENODEV, "char 202:0 for cpu 0 passes the check (open: %d)", rc);
	msr_close(dev);
	unlink(t_in(dir, "cpu/0/msr"));
}

/* In a child with real uid 65534 and effective uid 0 (setuid-like):
 * msr_open(@spec) must give @want. */
static int child_open(const char *spec, int want)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct msr_dev *dev = NULL;

		if (setresuid(65534, 0, 0))
			_exit(3);
		_exit(msr_open(spec, &dev) == want ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* Only the standard templates when the environment may be another user's. */
static void test_untrusted(void)
{
	char spec[PATH_MAX], state[PATH_MAX];
	struct msr_dev *dev = NULL;

	t_path(spec, "%s/cpu/%%u/msr", dir);
	put_file(t_in(dir, "state"), "0 0x38f 0x0\n");
	t_path(state, "state:%s", t_in(dir, "state"));
	setenv("SUDO_USER", "alice", 1);
	check_int(msr_open(spec, &dev), ==, -EPERM, "under sudo: another template: -EPERM");
	ok(strstr(msr_last_error(), "refused while running under sudo (SUDO_USER=alice)") &&
	   strstr(msr_last_error(), "'/dev/cpu/%u/msr' and '/dev/cpu/%u/msr_safe'"),
	   "the message says why and names the two templates: %s", msr_last_error());
	check_int(msr_open(state, &dev), ==, -EPERM, "under sudo: state:FILE: -EPERM");
	check_int(msr_open("/dev/cpu/%u/msr", &dev), ==, 0, "under sudo: /dev/cpu/%u/msr");
	msr_close(dev);
	check_int(msr_open("/dev/cpu/%u/msr_safe", &dev), ==, 0,
		  "under sudo: /dev/cpu/%u/msr_safe");
	msr_close(dev);
	check_int(msr_open("/dev/cpu/%u/msr/", &dev), ==, -EPERM,
		  "under sudo: a template that merely begins like one: -EPERM");
	unsetenv("SUDO_USER");
	check_int(msr_open(state, &dev), ==, 0, "not under sudo: state:FILE");
	msr_close(dev);
	if (geteuid() == 0) {
		check_int(child_open(spec, -EPERM), ==, 0,
			  "real uid 65534, effective 0: another template: -EPERM");
		check_int(child_open("/dev/cpu/%u/msr", 0), ==, 0,
			  "real uid 65534, effective 0: /dev/cpu/%u/msr");
	} else {
		skip(2, "not root: cannot make real and effective uids differ");
	}
}

/* msr_open with $BARETMA_MSR_TRACE=@path on a state file: its -errno. */
static int trace_open(const char *path)
{
	char state[PATH_MAX];
	struct msr_dev *dev = NULL;
	uint64_t v;
	int rc;

	t_path(state, "state:%s", t_in(dir, "state"));
	setenv("BARETMA_MSR_TRACE", path, 1);
	rc = msr_open(state, &dev);
	unsetenv("BARETMA_MSR_TRACE");
	if (!rc)
		msr_read(dev, 0, IA32_PERF_GLOBAL_CTRL, &v);
	msr_close(dev);
	return rc;
}

/*
 * In a child with real uid 65534, effective 0: a new trace file in @sub, a
 * directory of uid 65534's (created, 0600, 65534's: @want 0) or of root's
 * (refused: @want -EPERM, nothing created; cpu/userfile.h).  The backend
 * is the standard template (the only one accepted then), opened without
 * any access: no CPU is opened, the trace file is.
 */
static int child_trace_new(const char *sub, int want)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct msr_dev *dev = NULL;
		char *path = t_strf("%s/%s/trace-setuid", dir, sub);
		struct stat s;

		if (setresgid(65534, 0, 0) || setresuid(65534, 0, 0))
			_exit(3);
		setenv("BARETMA_MSR_TRACE", path, 1);
		if (msr_open("/dev/cpu/%u/msr", &dev) != want)
			_exit(4);
		msr_close(dev);
		if (want)
			_exit(stat(path, &s) < 0 && errno == ENOENT ? 0 : 6);
		if (stat(path, &s))
			_exit(4);
		_exit(s.st_uid == 65534 && s.st_gid == 65534 && (s.st_mode & 07777) == 0600 ? 0 : 5);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void test_trace(void)
{
	struct stat st;
	const char *rd = "rd 0 0x38f 0x0\n";

	put_file(t_in(dir, "state"), "0 0x38f 0x0\n");
	umask(022);
	check_int(trace_open(t_in(dir, "trace-new")), ==, 0, "a new trace file");
	ok(!stat(t_in(dir, "trace-new"), &st) && (st.st_mode & 07777) == 0600 &&
	   st.st_uid == getuid(), "created 0600, owned by the real uid (mode %o, uid %u)",
	   (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid);
	check_str(get_file(t_in(dir, "trace-new")), rd, "the access is traced");
	check_int(trace_open(t_in(dir, "trace-new")), ==, 0, "the caller's own file: appended to");
	check_str(get_file(t_in(dir, "trace-new")), "rd 0 0x38f 0x0\nrd 0 0x38f 0x0\n",
		  "two lines now");

	put_file(t_in(dir, "tvictim"), "victim\n");
	if (symlink(t_in(dir, "tvictim"), t_in(dir, "trace-link")))
		perror("symlink");
	check_int(trace_open(t_in(dir, "trace-link")), ==, -EPERM, "a symbolic link: -EPERM");
	ok(strstr(msr_last_error(), "is a symbolic link: refused") != NULL,
	   "message: %s", msr_last_error());
	if (symlink(t_in(dir, "no-such-file"), t_in(dir, "trace-dangling")))
		perror("symlink");
	check_int(trace_open(t_in(dir, "trace-dangling")), ==, -EPERM,
		  "a dangling symbolic link: -EPERM (nothing created at its target)");
	ok(access(t_in(dir, "no-such-file"), F_OK) != 0, "  the link's target was not created");
	if (link(t_in(dir, "tvictim"), t_in(dir, "trace-hardlink")))
		perror("link");
	check_int(trace_open(t_in(dir, "trace-hardlink")), ==, -EPERM,
		  "a file with another hard link: -EPERM");
	mkfifo(t_in(dir, "trace-fifo"), 0600);
	alarm(20);
	check_int(trace_open(t_in(dir, "trace-fifo")), ==, -EPERM, "a FIFO: -EPERM, without blocking");
	alarm(0);
	ok(strstr(msr_last_error(), "not a regular file") != NULL, "message: %s",
	   msr_last_error());
	check_int(trace_open("/dev/null"), ==, -EPERM, "/dev/null: -EPERM");
	if (geteuid() == 0) {
		put_file(t_in(dir, "trace-other"), "other's\n");
		chown(t_in(dir, "trace-other"), 65534, 65534);
		check_int(trace_open(t_in(dir, "trace-other")), ==, -EPERM,
			  "a file of uid 65534: -EPERM");
		ok(strstr(msr_last_error(), "owned by another user than the invoking user") != NULL,
		   "message: %s", msr_last_error());
		check_str(get_file(t_in(dir, "trace-other")), "other's\n", "  nothing appended");
		put_file(t_in(dir, "tvictim2"), "victim\n");
		chown(t_in(dir, "tvictim2"), 65534, 65534);
		if (symlink(t_in(dir, "tvictim2"), t_in(dir, "trace-link2")))
			perror("symlink");
		check_int(trace_open(t_in(dir, "trace-link2")), ==, -EPERM,
			  "a link to a file of uid 65534: -EPERM");
		check_str(get_file(t_in(dir, "tvictim2")), "victim\n", "  nothing appended to it");
		mkdir(t_in(dir, "nobody"), 0700);
		chown(t_in(dir, "nobody"), 65534, 65534);
		check_int(child_trace_new("nobody", 0), ==, 0,
			  "real uid 65534, effective 0: a new file in 65534's directory is 0600 "
			  "and uid/gid 65534's");
		check_int(child_trace_new(".", -EPERM), ==, 0,
			  "real uid 65534, effective 0: none in root's directory (-EPERM)");
	} else {
		skip(7, "not root: cannot give a file to another user");
	}
	check_str(get_file(t_in(dir, "tvictim")), "victim\n", "the victim keeps every byte");
}

int main(void)
{
	t_scratch(dir, "0641");
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	test_node_check();
	test_chrdev_major();
	test_refused_files();
	test_mknod();
	test_untrusted();
	test_trace();
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
