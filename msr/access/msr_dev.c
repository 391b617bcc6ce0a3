/*
 * msr/access/msr_dev.c - the device backend: /dev/cpu/N/msr (or any path template
 * with one %u, e.g. /dev/cpu/%u/msr_safe).  The only file in baretma that
 * opens an MSR device.
 *
 * Driver semantics (linux arch/x86/kernel/msr.c msr_open, msr_read, msr_write):
 *   - the file offset is the MSR index; 8-byte pread/pwrite;
 *   - #GP on RDMSR/WRMSR comes back as EIO (arch/x86/mm/extable.c
 *     ex_handler_msr via rdmsr_safe_on_cpu/wrmsr_safe_on_cpu);
 *   - open: ENOENT (no node: module not loaded), ENXIO (CPU offline/absent,
 *     or stale node without driver: fs/char_dev.c chrdev_open), EPERM (no
 *     CAP_SYS_RAWIO), EACCES (node mode 0600 root, VFS), EIO (CPU without
 *     MSR support);
 *   - write: EPERM for lockdown or msr.allow_writes=off.
 * Errors are passed through as the driver gives them; a write on a
 * descriptor we could only open read-only (EBADF) is reported as -EPERM,
 * the error a write-protected device gives.
 *
 * Only MSR device nodes are used.  The MSR index becomes the file offset,
 * so a template naming a regular file (or a link to one) would read and
 * write its bytes as root.  A node is accepted when it is a character
 * device of the msr driver (major MSR_DEV_MAJOR) or of msr_safe (the major
 * /proc/devices lists for "cpu/msr_safe") whose minor is the CPU number:
 * checked before open on the name (fstatat, not following a link: nothing
 * else is ever opened, since opening some devices has effects) and again
 * after open on the descriptor (fstat: the authority, whatever was
 * renamed in between).  The name is opened with O_NOFOLLOW: devtmpfs and
 * udev create /dev/cpu/N/msr and /dev/cpu/N/msr_safe as nodes, not links,
 * so a link there is refused like any other non-node (-ENODEV).
 *
 * msr_safe's major: LLNL msr-safe msr_entry.c registers the device with
 * __register_chrdev(mdev_msr_safe, 0, num_possible_cpus(),
 * "cpu/msr_safe", ...), the major dynamic unless the mdev_msr_safe module
 * parameter fixes it, minor = CPU (device_create(..., MKDEV(major, cpu),
 * ..., "msr_safe%d", cpu), node name "cpu/%u/msr_safe").  The kernel lists
 * every registered character major with the name it was registered under
 * in /proc/devices (fs/proc/devices.c, fs/char_dev.c chrdev_show: "%3d
 * %s\n" under "Character devices:"), so the major is read from there.  A
 * node's file name proves nothing (anyone who may mknod can name a node
 * msr_safe), and /proc/devices is the running kernel's own table, read
 * at /proc itself, never under $BARETMA_SYSROOT (a test root must not be
 * able to make a device acceptable).
 *
 * Per-CPU descriptors are opened lazily (at msr_open_cpu or the first
 * access) into an array allocated at context creation, so the read/write
 * paths are async-signal-safe: open(2), pread(2), pwrite(2) only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "msr/access/msr.h"
#include "msr/access/sigsafe.h"

/* CPUs a device context can address; higher numbers read as absent (-ENXIO). */
#define MSR_DEV_MAX_CPUS 8192u
#define MSR_DEV_PATH_MAX 4096u
/* The kernel's list of registered device majors (fs/proc/devices.c). */
#define PROC_DEVICES "/proc/devices"
#define MSR_SAFE_CHRDEV_NAME "cpu/msr_safe" /* msr-safe msr_entry.c */
/*
 * Flags for opening a node: O_NOFOLLOW (the node itself, never a link);
 * O_NOCTTY and O_NONBLOCK so that a tty or FIFO put at the name between
 * the check and the open neither becomes our terminal nor blocks (a
 * signal handler may open); the msr drivers ignore O_NONBLOCK (their read
 * and write never wait for data: arch/x86/kernel/msr.c, msr_entry.c).
 */
#define NODE_FLAGS (O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)

enum fd_mode { FD_CLOSED = 0, FD_RDWR, FD_RDONLY };

struct dev_ctx {
	msr_node_check check;  /* which nodes are MSR devices */
	char template[MSR_DEV_PATH_MAX];
	int fd[MSR_DEV_MAX_CPUS];
	unsigned char mode[MSR_DEV_MAX_CPUS];
};


/*
 * msr_device_path - expand @template for @cpu by hand (async-signal-safe;
 * no format string reaches printf).  "%u" is the CPU, "%%" a literal '%';
 * any other conversion, or not exactly one %u, is -EINVAL.  -ENAMETOOLONG
 * when the result does not fit in @n bytes.
 */
int msr_device_path(const char *template, unsigned cpu, char *buf, size_t n)
{
	size_t o = 0;
	int nu = 0;
	char num[16];

	if (!template || !buf || n == 0)
		return -EINVAL;
	for (const char *p = template; *p; p++) {
		const char *src = p;
		size_t len = 1;

		if (*p == '%') {
			p++;
			if (*p == 'u') {
				nu++;
				len = sigsafe_put_dec(num, cpu);
				src = num;
			} else if (*p != '%') {
				return -EINVAL;
			}
		}
		if (o + len >= n)
			return -ENAMETOOLONG;
		memcpy(buf + o, src, len);
		o += len;
	}
	buf[o] = '\0';
	return nu == 1 ? 0 : -EINVAL;
}

int msr_chrdev_major(const char *text, size_t len, const char *name)
{
	const char *s = text, *end = text + len;
	size_t nlen = strlen(name);
	bool chr = false;

	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s)), *p = s;
		unsigned long major = 0;

		e = e ? e : end;
		if (e == s) {
			chr = false; /* the blank line before "Block devices:" */
		} else if ((size_t)(e - s) == sizeof("Character devices:") - 1 &&
			   !memcmp(s, "Character devices:", (size_t)(e - s))) {
			chr = true;
		} else if (chr) {
			while (p < e && *p == ' ')
				p++;
			while (p < e && *p >= '0' && *p <= '9' && major <= 0xfff)
				major = major * 10 + (unsigned long)(*p++ - '0');
			if (p > s && p < e && *p == ' ' && major <= 0xfff &&
			    (size_t)(e - p - 1) == nlen && !memcmp(p + 1, name, nlen))
				return (int)major;
		}
		s = e + 1;
	}
	return -ENOENT;
}

int msr_device_node_check(const struct stat *st, unsigned cpu, int msr_safe_major)
{
	unsigned maj = major(st->st_rdev);

	if (!S_ISCHR(st->st_mode))
		return -ENODEV;
	if (maj != MSR_DEV_MAJOR && (msr_safe_major <= 0 || maj != (unsigned)msr_safe_major))
		return -ENODEV;
	return minor(st->st_rdev) == cpu ? 0 : -ENODEV;
}

/* msr_safe's major from /proc/devices, or -1.  open/read/close only. */
static int msr_safe_major(void)
{
	char buf[8192];
	size_t got = 0;
	ssize_t r;
	int fd = open(PROC_DEVICES, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (got < sizeof(buf) && ((r = read(fd, buf + got, sizeof(buf) - got)) > 0 ||
				     (r < 0 && errno == EINTR)))
		got += r > 0 ? (size_t)r : 0;
	close(fd);
	r = msr_chrdev_major(buf, got, MSR_SAFE_CHRDEV_NAME);
	return r > 0 ? (int)r : -1;
}

int msr_device_node_ok(const struct stat *st, unsigned cpu)
{
	if (S_ISCHR(st->st_mode) && major(st->st_rdev) == MSR_DEV_MAJOR)
		return msr_device_node_check(st, cpu, -1);
	if (!S_ISCHR(st->st_mode))
		return -ENODEV;
	return msr_device_node_check(st, cpu, msr_safe_major());
}

/*
 * Defined only in the test build of the tool (t/baretma-hooks, make check;
 * msr/access/msr_dev_hooks.c): NULL in libbaretma.a and the installed baretma,
 * which use MSR device nodes only.  Hidden: resolved when the library is
 * linked, never from a host process at run time (t/0700).
 */
msr_node_check msr_dev_test_check(void) __attribute__((weak, visibility("hidden")));

int msr_device_ctx_new(const char *template, void **ctx)
{
	msr_node_check check = msr_dev_test_check ? msr_dev_test_check() : NULL;

	return msr_device_ctx_new_checked(template, check ? check : msr_device_node_ok, ctx);
}

int msr_device_ctx_new_checked(const char *template, msr_node_check check, void **ctx)
{
	struct dev_ctx *c;
	char probe[MSR_DEV_PATH_MAX];
	int rc;

	rc = msr_device_path(template, 0, probe, sizeof(probe));
	if (rc)
		return rc;
	if (strlen(template) >= MSR_DEV_PATH_MAX)
		return -ENAMETOOLONG;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	strcpy(c->template, template);
	c->check = check ? check : msr_device_node_ok;
	for (unsigned i = 0; i < MSR_DEV_MAX_CPUS; i++)
		c->fd[i] = -1;
	*ctx = c;
	return 0;
}

/* Open @path with @mode and check the descriptor: the fd, or -errno
 * (-ENODEV: not an MSR node of @cpu, or a link at the name). */
static int open_node(const struct dev_ctx *c, const char *path, unsigned cpu, int mode)
{
	struct stat st;
	int fd = open(path, mode | NODE_FLAGS), rc;

	if (fd < 0)
		return errno == ELOOP ? -ENODEV : -errno;
	rc = fstat(fd, &st) < 0 ? -errno : c->check(&st, cpu);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

static int dev_open(void *ctx, unsigned cpu)
{
	struct dev_ctx *c = ctx;
	char path[MSR_DEV_PATH_MAX];
	struct stat st;
	int rc, fd;

	if (cpu >= MSR_DEV_MAX_CPUS)
		return -ENXIO;
	if (c->mode[cpu] != FD_CLOSED)
		return 0;
	rc = msr_device_path(c->template, cpu, path, sizeof(path));
	if (rc)
		return rc;
	/* Look before opening: what is not an MSR node is never opened. */
	if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	rc = S_ISLNK(st.st_mode) ? -ENODEV : c->check(&st, cpu);
	if (rc)
		return rc;
	fd = open_node(c, path, cpu, O_RDWR);
	if (fd >= 0) {
		c->fd[cpu] = fd;
		c->mode[cpu] = FD_RDWR;
		return 0;
	}
	rc = fd;
	/* Reads may still work where writes are refused (a read-only node,
	 * a read-only mount): keep them usable, writes then fail -EPERM. */
	if (rc != -EACCES && rc != -EPERM && rc != -EROFS)
		return rc;
	fd = open_node(c, path, cpu, O_RDONLY);
	if (fd < 0)
		return fd == -ENODEV ? fd : rc;
	c->fd[cpu] = fd;
	c->mode[cpu] = FD_RDONLY;
	return 0;
}

static int dev_read(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct dev_ctx *c = ctx;
	uint64_t v;
	ssize_t r;
	int rc = dev_open(ctx, cpu);

	if (rc)
		return rc;
	do
		r = pread(c->fd[cpu], &v, sizeof(v), (off_t)msr);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r != (ssize_t)sizeof(v))
		return -EIO;
	*val = v;
	return 0;
}

static int dev_write(void *ctx, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct dev_ctx *c = ctx;
	ssize_t r;
	int rc = dev_open(ctx, cpu);

	if (rc)
		return rc;
	if (c->mode[cpu] == FD_RDONLY)
		return -EPERM;
	do
		r = pwrite(c->fd[cpu], &val, sizeof(val), (off_t)msr);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno == EBADF ? -EPERM : -errno;
	if (r != (ssize_t)sizeof(val))
		return -EIO;
	return 0;
}

static void dev_close(void *ctx)
{
	struct dev_ctx *c = ctx;

	if (!c)
		return;
	for (unsigned i = 0; i < MSR_DEV_MAX_CPUS; i++)
		if (c->mode[i] != FD_CLOSED)
			close(c->fd[i]);
	free(c);
}

const struct msr_ops msr_device_ops = {
	.name = "device",
	.open = dev_open,
	.read = dev_read,
	.write = dev_write,
	.close = dev_close,
};
