/*
 * cpu/hv_kernel.c - the hypervisor the running kernel detected, read (never
 * changed) under $BARETMA_SYSROOT: the kernel's own answer, beside CPUID's
 * signature, because the two can differ (a hypervisor may put one signature
 * at CPUID.40000000H and offer another's interface at 0x40000100, which
 * the kernel's detection scans: linux arch/x86/include/asm/processor.h
 * hypervisor_cpuid_base, arch/x86/kernel/kvm.c kvm_cpuid_base).
 * Meanings and sources in cpu/environ.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/environ.h"
#include "cpu/knobs.h"

/* The message the kernel logs once, at boot (arch/x86/kernel/cpu/hypervisor.c
 * init_hypervisor_platform: pr_info("Hypervisor detected: %s\n", h->name)). */
#define HV_DETECTED "Hypervisor detected: "

/* Facility 0 is the kernel's: a record written to /dev/kmsg by user space
 * is given LOG_USER when it names none (kernel/printk/printk.c
 * devkmsg_write), so it cannot pass for the kernel's message. */
#define KMSG_FACILITY(prio) ((prio) >> 3)

bool cpu_kmsg_hypervisor(const char *line, char *name, size_t n)
{
	const char *msg;
	char *end;
	unsigned long prio;
	size_t len;

	if (!n || !line || *line < '0' || *line > '9')
		return false; /* a record's continuation lines start with a space */
	errno = 0;
	prio = strtoul(line, &end, 10);
	if (errno || *end != ',' || KMSG_FACILITY(prio) != 0)
		return false;
	msg = strchr(end, ';');
	if (!msg || strncmp(++msg, HV_DETECTED, strlen(HV_DETECTED)))
		return false;
	msg += strlen(HV_DETECTED);
	len = strcspn(msg, "\n");
	while (len && msg[len - 1] == ' ')
		len--;
	if (!len || len >= n)
		return false; /* no name, or one longer than any the kernel has */
	memcpy(name, msg, len);
	name[len] = '\0';
	return true;
}

/*
 * One line of the log at a time from @fd: /dev/kmsg gives one record per
 * read(), a regular file (a test's sysroot) many lines per read.  Lines
 * longer than @line are skipped whole (the message sought is short).
 */
struct kmsg_reader {
	int fd;
	char buf[8192];  /* a record is at most 1024 bytes of text plus its
			  * header and dictionary (printk.c CONSOLE_LOG_MAX) */
	size_t len, pos;
	size_t bytes;    /* read so far, against HV_KMSG_MAX_BYTES */
};

static int kmsg_fill(struct kmsg_reader *r)
{
	ssize_t got;

	for (;;) {
		if (r->bytes >= HV_KMSG_MAX_BYTES)
			return 0;
		got = read(r->fd, r->buf, sizeof(r->buf));
		if (got > 0) {
			r->len = (size_t)got, r->pos = 0;
			r->bytes += (size_t)got;
			return 1;
		}
		if (got == 0)
			return 0;
		if (errno == EINTR || errno == EPIPE)
			continue; /* EPIPE: records overwritten, the next read goes on */
		return 0;         /* EAGAIN: the end of the log; anything else: stop */
	}
}

static bool kmsg_line(struct kmsg_reader *r, char *line, size_t n)
{
	size_t used = 0;
	bool cut = false;

	for (;;) {
		if (r->pos == r->len && !kmsg_fill(r)) {
			line[used] = '\0';
			return used > 0 && !cut; /* a last line without its newline */
		}
		while (r->pos < r->len) {
			char c = r->buf[r->pos++];

			if (c == '\n') {
				if (!cut) {
					line[used] = '\0';
					return true;
				}
				used = 0, cut = false;
				continue;
			}
			if (used + 1 < n)
				line[used++] = c;
			else
				cut = true;
		}
	}
}

/* The "Hypervisor detected" record of <root>/dev/kmsg, within the first
 * HV_KMSG_MAX_RECORDS lines (it is among the first of every boot). */
static bool from_kmsg(char *name, size_t n)
{
	struct kmsg_reader *r;
	char path[PATH_MAX], line[1100];
	bool found = false;

	if (cpu_sysfs_resolve(path, sizeof(path), CPU_KMSG))
		return false;
	r = calloc(1, sizeof(*r));
	if (!r)
		return false;
	/* O_NONBLOCK: the end of the log is EAGAIN, not a wait for the next
	 * message; reading does not consume it (Documentation/ABI/testing/
	 * dev-kmsg: every reader has its own position). */
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (r->fd >= 0) {
		for (unsigned i = 0; !found && i < HV_KMSG_MAX_RECORDS &&
		     kmsg_line(r, line, sizeof(line)); i++)
			found = cpu_kmsg_hypervisor(line, name, n);
		close(r->fd);
	}
	free(r);
	return found;
}

int cpu_env_hv_kernel(char *name, size_t n, const char **source)
{
	char line[64];

	if (!n)
		return -EINVAL;
	name[0] = '\0';
	*source = NULL;
	/* Xen's own file (Documentation/ABI/stable/sysfs-hypervisor-xen) */
	if (!cpu_sysfs_read_line(CPU_SYS_HYPERVISOR_TYPE, line, sizeof(line)) && line[0] &&
	    strlen(line) < n) {
		snprintf(name, n, "%s", line);
		*source = CPU_SYS_HYPERVISOR_TYPE;
		return 0;
	}
	if (from_kmsg(name, n)) {
		*source = CPU_KMSG " '" HV_DETECTED "...'";
		return 0;
	}
	name[0] = '\0';
	return -ENOENT;
}
