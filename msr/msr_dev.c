/*
 * msr/msr_dev.c - the device backend: /dev/cpu/N/msr (or any path template
 * with one %u, e.g. /dev/cpu/%u/msr_safe).  The only file in baretma that
 * opens an MSR device.
 *
 * Driver semantics (pmu-reference §4, linux arch/x86/kernel/msr.c):
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
 * Per-CPU descriptors are opened lazily (at msr_open_cpu or the first
 * access) into an array allocated at context creation, so the read/write
 * paths are async-signal-safe: open(2), pread(2), pwrite(2) only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr/msr.h"
#include "sigsafe.h"

/* CPUs a device context can address; higher numbers read as absent (-ENXIO). */
#define MSR_DEV_MAX_CPUS 8192u
#define MSR_DEV_PATH_MAX 4096u

enum fd_mode { FD_CLOSED = 0, FD_RDWR, FD_RDONLY };

struct dev_ctx {
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

int msr_device_ctx_new(const char *template, void **ctx)
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
	for (unsigned i = 0; i < MSR_DEV_MAX_CPUS; i++)
		c->fd[i] = -1;
	*ctx = c;
	return 0;
}

static int dev_open(void *ctx, unsigned cpu)
{
	struct dev_ctx *c = ctx;
	char path[MSR_DEV_PATH_MAX];
	int rc, fd;

	if (cpu >= MSR_DEV_MAX_CPUS)
		return -ENXIO;
	if (c->mode[cpu] != FD_CLOSED)
		return 0;
	rc = msr_device_path(c->template, cpu, path, sizeof(path));
	if (rc)
		return rc;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		c->fd[cpu] = fd;
		c->mode[cpu] = FD_RDWR;
		return 0;
	}
	rc = -errno;
	/* Reads may still work where writes are refused (a read-only node,
	 * a read-only mount): keep them usable, writes then fail -EPERM. */
	if (rc != -EACCES && rc != -EPERM && rc != -EROFS)
		return rc;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rc;
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
