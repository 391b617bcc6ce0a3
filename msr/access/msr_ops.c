/*
 * msr/access/msr_ops.c - a handle on one backend (msr_dev_open: its
 * context and the $BARETMA_MSR_TRACE access trace; msr/open/msr_open.c
 * chooses the backend a spec names), dispatch through its ops, the write
 * gate, the trace, and the messages for MSR errors.
 *
 * msr_read/msr_write are async-signal-safe: they call the backend (itself
 * async-signal-safe, see msr_dev.c / msr_state.c) and append the trace line
 * with one write(2) of a line formatted by hand into a stack buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/escape.h"
#include "cpu/text.h"
#include "cpu/userfile.h"
#include "msr/access/msr.h"
#include "msr/access/sigsafe.h"

struct msr_dev {
	const struct msr_backend *backend; /* its entry (msr/open/msr_backends.c) */
	const struct msr_ops *ops;
	void *ctx;
	int trace_fd;        /* -1: no trace */
	char where[4096];    /* device template or state file path */
	struct msr_fault fault; /* the last failed access; op 0: none */
	/* The write gate (msr.h): fn NULL and !ungated refuses every write. */
	_Atomic(msr_gate_fn) gate_fn;
	const void *_Atomic gate_arg;
	bool ungated;
	atomic_ulong refused;
};

/*
 * A message naming a whole path and an escaped reason; per thread, so that
 * sessions opened on different threads keep their own (msr_last_error).  On
 * the heap (cpu/text.h): an escaped path is up to 4 bytes a byte, and no
 * remedy is cut off its end.  A thread's text is freed when it exits (the
 * key's destructor), as bench/lib/api.c's baretma_last_error.
 */
static _Thread_local char *last_error;
static struct text_thread error_thread = TEXT_THREAD_INIT;

/* @text (on the heap; NULL: none) becomes the thread's last error. */
static void error_keep(char *text)
{
	text_thread_keep(&error_thread, &last_error, text);
}

/* ------------------------------------------------------------- trace */

/* errno names for trace lines; "E<number>" for the rest. */
const char *msr_errno_name(int err)
{
	switch (err) {
	case EIO: return "EIO";
	case ENXIO: return "ENXIO";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ENOMEM: return "ENOMEM";
	case ENOSPC: return "ENOSPC";
	case EROFS: return "EROFS";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case EFAULT: return "EFAULT";
	case EDQUOT: return "EDQUOT";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case EMFILE: return "EMFILE";
	case ENFILE: return "ENFILE";
	case ELOOP: return "ELOOP";
	case EEXIST: return "EEXIST";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case ENOLCK: return "ENOLCK";
	default: return NULL;
	}
}

static size_t put_str(char *buf, const char *s)
{
	size_t n = strlen(s);

	memcpy(buf, s, n);
	return n;
}



/* The trace's losses, for the whole process (every handle appends to the
 * one file): the first failed line's errno and number, the lines lost. */
static atomic_int trace_err;
static atomic_ulong trace_lines, trace_lost, trace_first;
static void (*_Atomic trace_hook)(int err);

void msr_trace_on_loss(void (*hook)(int err))
{
	atomic_store(&trace_hook, hook);
}

int msr_trace_lost(unsigned long *lost, unsigned long *first)
{
	*lost = atomic_load(&trace_lost);
	*first = atomic_load(&trace_first);
	return -atomic_load(&trace_err);
}

/* One line in one write(2); a short or failed write is a lost line. */
static void trace_put(const char *line, size_t n, int fd)
{
	unsigned long no = atomic_fetch_add(&trace_lines, 1) + 1;
	int none = 0, err;
	ssize_t w;

	do
		w = write(fd, line, n);
	while (w < 0 && errno == EINTR);
	if (w == (ssize_t)n)
		return;
	atomic_fetch_add(&trace_lost, 1);
	err = w < 0 ? errno : ENOSPC; /* short: the file system took no more */

	if (atomic_compare_exchange_strong(&trace_err, &none, err)) {
		void (*hook)(int) = atomic_load(&trace_hook);

		atomic_store(&trace_first, no);
		if (hook)
			hook(err);
	}
}

/* "rd CPU 0xMSR 0xVALUE[ ENAME]\n" in one write(2) (O_APPEND). */
static void trace(const struct msr_dev *dev, const char *op, unsigned cpu,
		  uint32_t msr, uint64_t val, int rc)
{
	char line[128];
	size_t n = 0;
	const char *name;
	int saved_errno = errno;

	if (dev->trace_fd < 0)
		return;
	n += put_str(line + n, op);
	line[n++] = ' ';
	n += sigsafe_put_dec(line + n, cpu);
	line[n++] = ' ';
	n += sigsafe_put_hex(line + n, msr);
	line[n++] = ' ';
	n += sigsafe_put_hex(line + n, val);
	if (rc) {
		line[n++] = ' ';
		name = msr_errno_name(-rc);
		if (name) {
			n += put_str(line + n, name);
		} else {
			line[n++] = 'E';
			n += sigsafe_put_dec(line + n, (uint64_t)-rc);
		}
	}
	line[n++] = '\n';
	/* A failing trace must not change the result of the access; it is
	 * kept, and said (msr_trace_lost). */
	trace_put(line, n, dev->trace_fd);
	errno = saved_errno;
}

/* -------------------------------------------------------------- open */

/* @b's context for @arg into @dev (its where, ops and backend set). */
static int open_backend(struct msr_dev *dev, const struct msr_backend *b, const char *arg,
			const char *cpuid_dump)
{
	char *why = NULL;
	int rc;

	dev->backend = b;
	dev->ops = b->ops;
	snprintf(dev->where, sizeof(dev->where), "%s", arg);
	rc = b->ctx_new(arg, cpuid_dump, &dev->ctx, &why);
	error_keep(rc ? why : NULL);
	if (!rc)
		free(why);
	return rc;
}

/* ------------------------------------------------------------ trace */

static int open_trace(struct msr_dev *dev)
{
	const char *path = getenv("BARETMA_MSR_TRACE"), *why;
	char remedy[512]; /* fixed: userfile_remedy's longest, 170 bytes and who[160] */
	char *shown;
	int fd;

	if (!path || !*path)
		return 0;
	fd = userfile_open_append(path, &why);
	if (fd >= 0) {
		dev->trace_fd = fd;
		return 0;
	}
	if (!(shown = esc_strdup(path))) /* from the environment: escaped whole */
		return -ENOMEM;
	if (why) {
		userfile_remedy(remedy, sizeof(remedy));
		msr_error_setf("trace file '%s' ($BARETMA_MSR_TRACE) is %s: refused (%s)", shown,
			   why, remedy);
	} else
		msr_error_setf("trace file '%s' ($BARETMA_MSR_TRACE): %s", shown, strerror(-fd));
	free(shown);
	return fd;
}

void msr_error_setf(const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	if (!fmt) {
		error_keep(NULL);
		return;
	}
	va_start(ap, fmt);
	if (text_vsetf(&text, fmt, ap))
		text = NULL;
	va_end(ap);
	error_keep(text);
}

int msr_dev_open(const struct msr_backend *b, const char *arg, const char *cpuid_dump,
		 struct msr_dev **out)
{
	struct msr_dev *dev;
	int rc;

	error_keep(NULL);
	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!b || !arg)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->trace_fd = -1;
	rc = open_backend(dev, b, arg, cpuid_dump);
	if (rc) {
		dev->ops = NULL; /* no context to close */
		goto out;
	}
	rc = open_trace(dev);
out:
	if (rc)
		msr_close(dev);
	else
		*out = dev;
	return rc;
}

void msr_close(struct msr_dev *dev)
{
	if (!dev)
		return;
	if (dev->ops && dev->ctx)
		dev->ops->close(dev->ctx);
	if (dev->trace_fd >= 0)
		close(dev->trace_fd);
	free(dev);
}

/* ------------------------------------------------------------ access */

/* Plain stores, no call: async-signal-safe. */
static void fault(struct msr_dev *dev, enum msr_op op, unsigned cpu, uint32_t msr,
		  uint64_t val, int rc)
{
	if (rc)
		dev->fault = (struct msr_fault){ .op = op, .cpu = cpu, .msr = msr, .value = val,
						 .err = rc };
}

bool msr_last_fault(const struct msr_dev *dev, struct msr_fault *f)
{
	if (!dev || !dev->fault.op)
		return false;
	*f = dev->fault;
	return true;
}

void msr_fault_clear(struct msr_dev *dev)
{
	if (dev)
		dev->fault = (struct msr_fault){ 0 };
}

int msr_open_cpu(struct msr_dev *dev, unsigned cpu)
{
	int rc;

	if (!dev)
		return -EINVAL;
	rc = dev->ops->open(dev->ctx, cpu);
	fault(dev, MSR_OP_OPEN, cpu, 0, 0, rc);
	return rc;
}

int msr_read(struct msr_dev *dev, unsigned cpu, uint32_t msr, uint64_t *val)
{
	uint64_t v = 0;
	int rc;

	if (!dev || !val)
		return -EINVAL;
	rc = dev->ops->read(dev->ctx, cpu, msr, &v);
	if (!rc)
		*val = v;
	trace(dev, "rd", cpu, msr, rc ? 0 : v, rc);
	fault(dev, MSR_OP_READ, cpu, msr, 0, rc);
	return rc;
}

/* Does the gate let a write of @msr on @cpu through?  Async-signal-safe. */
static bool gate_open(struct msr_dev *dev, unsigned cpu, uint32_t msr)
{
	msr_gate_fn fn;

	if (dev->ungated)
		return true;
	fn = atomic_load(&dev->gate_fn);
	return fn && fn(atomic_load(&dev->gate_arg), cpu, msr);
}

int msr_write(struct msr_dev *dev, unsigned cpu, uint32_t msr, uint64_t val)
{
	int rc;

	if (!dev)
		return -EINVAL;
	if (gate_open(dev, cpu, msr)) {
		rc = dev->ops->write(dev->ctx, cpu, msr, val);
	} else {
		rc = -ENOLCK;
		atomic_fetch_add(&dev->refused, 1);
	}
	trace(dev, "wr", cpu, msr, val, rc);
	fault(dev, MSR_OP_WRITE, cpu, msr, val, rc);
	return rc;
}

void msr_gate_set(struct msr_dev *dev, msr_gate_fn fn, const void *arg, msr_gate_fn *prev_fn,
		  const void **prev_arg)
{
	if (!dev)
		return;
	if (prev_fn)
		*prev_fn = atomic_load(&dev->gate_fn);
	if (prev_arg)
		*prev_arg = atomic_load(&dev->gate_arg);
	/* The function off first, so that no write sees a new argument with the
	 * old function. */
	atomic_store(&dev->gate_fn, NULL);
	atomic_store(&dev->gate_arg, arg);
	atomic_store(&dev->gate_fn, fn);
}

int msr_ungate(struct msr_dev *dev)
{
	if (!dev || !dev->backend || dev->backend->hardware)
		return -EPERM;
	dev->ungated = true;
	return 0;
}

unsigned long msr_gate_refused(const struct msr_dev *dev)
{
	return dev ? atomic_load(&dev->refused) : 0;
}

void msr_trace_saved(const struct msr_dev *dev, unsigned cpu, uint32_t msr, uint64_t saved)
{
	if (dev)
		trace(dev, "sv", cpu, msr, saved, 0);
}

/* ---------------------------------------------------------- messages */

const char *msr_backend_name(const struct msr_dev *dev)
{
	return dev && dev->ops ? dev->ops->name : "";
}

void msr_describe(const struct msr_dev *dev, unsigned cpu, char *buf, size_t n)
{
	if (!buf || !n)
		return;
	if (!dev || !dev->ops) {
		buf[0] = '\0';
		return;
	}
	char raw[sizeof(dev->where) + 16];

	if (!dev->backend->template || msr_device_path(dev->where, cpu, raw, sizeof(raw)) < 0)
		snprintf(raw, sizeof(raw), "%s", dev->where);
	/* the path comes from the environment: escaped (cpu/escape.h); a cut
	 * one ends in "...", never passes for the whole one */
	if (esc_str(buf, n, raw) >= n && n > 3) {
		size_t len = strlen(buf);

		memcpy(buf + (len < n - 4 ? len : n - 4), "...", 4);
	}
}

void *msr_backend_ctx(const struct msr_dev *dev, const struct msr_ops *ops)
{
	return dev && dev->ops == ops ? dev->ctx : NULL;
}

const char *msr_last_error(void)
{
	return text_or_empty(last_error);
}

/* Remedies for the driver's errors (linux arch/x86/kernel/msr.c). */
const char *msr_remedy(int err)
{
	switch (err) {
	case -ENOENT:
		return "try: modprobe msr";
	case -EACCES:
	case -EPERM:
		return "run as root with CAP_SYS_RAWIO; check kernel lockdown and "
		       "msr.allow_writes";
	case -EIO:
		return "this register does not exist on this CPU";
	case -ENXIO:
		return "the CPU is offline or absent";
	case -ENODEV:
		return "not an MSR device node: BARETMA_MSR must name the msr driver's "
		       "/dev/cpu/N/msr (character device 202:N) or msr_safe's "
		       "/dev/cpu/N/msr_safe; a file, a symbolic link or another device is "
		       "refused";
	case -ELOOP:
		return "a symbolic link stands at the state file's name, or at its simulated "
		       "machine's FILE.sim: refused; name the file itself, remove the link";
	case -ENOLCK:
		return "refused by baretma itself: the register was not saved in the run's "
		       "journal first, so it could not be put back; nothing was written (a "
		       "baretma bug: please report it with the command line)";
	default:
		return "";
	}
}
