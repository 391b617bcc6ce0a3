/*
 * cpu/cpu_source.c - the one switch point for CPUID (STYLE.md; hwloc's
 * cpuid_or_from_dump()): the live machine or a dump file.
 *
 * Live: per CPU, /dev/cpu/N/cpuid (linux arch/x86/kernel/cpuid.c: a 16-byte
 * pread at offset (subleaf << 32) | leaf returns eax, ebx, ecx, edx of
 * CPUID executed on CPU N); without that device, the CPUID instruction on
 * this thread pinned to N with sched_setaffinity, the affinity restored.
 *
 * Dump: baretma's own parser (cpu/cpu_dump.c), every record of the file:
 * libcpuid raw, AIDA64 (also with affinity masks), hwloc-gather-cpuid
 * directories.  libcpuid's loader is not used: it keeps only subleaf 0 of
 * leaves 0..0x1f and 0x80000000..0x8000001f (no leaf 0x23, no 7.1), cannot
 * read the other two formats and returns success with nothing loaded for a
 * file it does not understand.
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"
#include "cpu/text.h"

#define LEAF_EXT_BASE      0x80000000u
#define LEAF_HV_BASE       0x40000000u /* hypervisor range: passed through */

struct cpu_source {
	bool live;
	char *path;             /* dump path; NULL when live */
	unsigned ncpus;
	struct cpu_dump *dump;  /* a dump, or the test seam's (live) */
	unsigned *seam_cpus;    /* live with the test seam: the dump's CPUs, in order */
	unsigned nseam;
};

/* cpu_source_error's text, per thread, on the heap (cpu/text.h): a dump's
 * message quotes its lines escaped, never cut; a thread's is freed when it
 * exits (the key's destructor), as bench/lib/api.c's baretma_last_error. */
static _Thread_local char *source_error;
static struct text_thread error_thread = TEXT_THREAD_INIT;

/* source_error (heap; NULL: none) is the thread's now: the key frees it. */
static void error_kept(void)
{
	text_thread_keep(&error_thread, &source_error, source_error);
}

static void error_clear(void)
{
	text_thread_keep(&error_thread, &source_error, NULL);
}

/* The live-CPU seam of the test build (cpu/cpu_source_hooks.c): the dump
 * the live source reads its leaves from, or NULL.  Absent (NULL) in
 * libbaretma and the installed tool. */
const char *cpu_source_test_live(void) __attribute__((weak, visibility("hidden")));

static const char *seam_path(void)
{
	return cpu_source_test_live ? cpu_source_test_live() : NULL;
}

/* The seam's dump and the list of its CPUs (a gap is no CPU). */
static int seam_load(struct cpu_source *src, const char *path)
{
	unsigned n;
	uint32_t r[4];

	src->dump = cpu_dump_load(path, &source_error);
	error_kept();
	if (!src->dump)
		return -errno;
	n = cpu_dump_ncpus(src->dump);
	src->seam_cpus = calloc(n ? n : 1, sizeof(*src->seam_cpus));
	if (!src->seam_cpus)
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < n; cpu++)
		if (!cpu_dump_cpuid(src->dump, cpu, 0, 0, r))
			src->seam_cpus[src->nseam++] = cpu;
	return src->nseam ? 0 : -EINVAL;
}


const char *cpu_source_error(void)
{
	return text_or_empty(source_error);
}

struct cpu_source *cpu_source_live(void)
{
	struct cpu_source *src = calloc(1, sizeof(*src));
	long n = sysconf(_SC_NPROCESSORS_CONF);
	const char *seam = seam_path();
	int err;

	if (!src) {
		errno = ENOMEM;
		return NULL;
	}
	src->live = true;
	src->ncpus = n > 0 ? (unsigned)n : 1;
	if (src->ncpus > CPU_MAX_CPUS)
		src->ncpus = CPU_MAX_CPUS;
	error_clear();
	if (seam && (err = seam_load(src, seam))) {
		cpu_source_free(src);
		errno = -err;
		return NULL;
	}
	return src;
}

struct cpu_source *cpu_source_dump(const char *path)
{
	struct cpu_source *src = calloc(1, sizeof(*src));
	int err = 0;

	error_clear();
	if (!src) {
		err = -ENOMEM;
		goto out;
	}
	src->path = strdup(path);
	if (!src->path) {
		err = -ENOMEM;
		goto out;
	}
	src->dump = cpu_dump_load(path, &source_error);
	error_kept();
	if (!src->dump) {
		err = -errno;
		goto out;
	}
	src->ncpus = cpu_dump_ncpus(src->dump);
out:
	if (err) {
		if (!source_error) {
			text_setf(&source_error, "%s", strerror(-err));
			error_kept();
		}
		cpu_source_free(src);
		errno = -err;
		return NULL;
	}
	return src;
}

const char *cpu_source_env_path(const char *dump_path)
{
	const char *env = getenv("BARETMA_CPUID_DUMP");

	return dump_path ? dump_path : env && *env ? env : NULL;
}

struct cpu_source *cpu_source_from_env(const char *dump_path)
{
	const char *path = cpu_source_env_path(dump_path);

	return path ? cpu_source_dump(path) : cpu_source_live();
}

void cpu_source_free(struct cpu_source *src)
{
	if (!src)
		return;
	cpu_dump_free(src->dump);
	free(src->seam_cpus);
	free(src->path);
	free(src);
}

const char *cpu_source_name(const struct cpu_source *src)
{
	return src->live ? "live" : src->path;
}

bool cpu_source_is_live(const struct cpu_source *src)
{
	return src->live;
}

const char *cpu_source_format(const struct cpu_source *src)
{
	return src->live ? "live" : cpu_dump_format(src->dump);
}

bool cpu_source_is_hwloc_dir(const struct cpu_source *src)
{
	return !src->live && !strcmp(cpu_dump_format(src->dump), "hwloc");
}

unsigned cpu_source_ncpus(const struct cpu_source *src)
{
	return src->ncpus;
}

/* ------------------------------------------------------------------ live */

static int live_cpuid_dev(unsigned cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	char path[64];
	int fd, err = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/dev/cpu/%u/cpuid", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, regs, 16, (off_t)(((uint64_t)subleaf << 32) | leaf));
	if (n < 0)
		err = -errno;
	else if (n != 16)
		err = -EIO;
	close(fd);
	return err;
}

/* The instruction on this thread pinned to @cpu; the affinity is restored. */
static int live_cpuid_insn(unsigned cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	cpu_set_t old, one;
	int err = 0;

	if (cpu >= CPU_SETSIZE)
		return -ENXIO;
	if (sched_getaffinity(0, sizeof(old), &old))
		return -errno;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		err = errno == EINVAL ? -ENXIO : -errno;
		goto out;
	}
	__cpuid_count(leaf, subleaf, regs[0], regs[1], regs[2], regs[3]);
out:
	sched_setaffinity(0, sizeof(old), &old);
	return err;
}

static int live_cpuid(unsigned cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	int err = live_cpuid_dev(cpu, leaf, subleaf, regs);

	/* No cpuid device (module not loaded, no rights): use the instruction.
	 * -ENXIO/-EIO from the device mean the CPU is offline or absent. */
	if (err == -ENOENT || err == -EACCES || err == -EPERM || err == -ENODEV)
		err = live_cpuid_insn(cpu, leaf, subleaf, regs);
	return err;
}

/* ----------------------------------------------------------------- common */

static int raw_cpuid(const struct cpu_source *src, unsigned cpu, uint32_t leaf,
		     uint32_t subleaf, uint32_t regs[4])
{
	if (src->live && src->nseam) /* the test seam: live CPU N is a dump's CPU */
		return cpu_dump_cpuid(src->dump, src->seam_cpus[cpu % src->nseam], leaf, subleaf,
				      regs);
	return src->live ? live_cpuid(cpu, leaf, subleaf, regs)
			 : cpu_dump_cpuid(src->dump, cpu, leaf, subleaf, regs);
}

void cpu_host_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	struct cpu_source *src = seam_path() ? cpu_source_live() : NULL;

	if (!src || cpu_source_cpuid(src, 0, leaf, subleaf, regs))
		__cpuid_count(leaf, subleaf, regs[0], regs[1], regs[2], regs[3]);
	cpu_source_free(src);
}

/*
 * A leaf above the range's maximum (CPUID.0:EAX for basic leaves,
 * CPUID.80000000H:EAX for extended ones) returns the data of the highest
 * basic leaf on Intel hardware (SDM Vol. 2A CPUID "invalid input"), and
 * dumps hold whatever the tool wrote there: treat it as zeros.
 */
int cpu_source_cpuid(const struct cpu_source *src, unsigned cpu, uint32_t leaf,
		     uint32_t subleaf, uint32_t regs[4])
{
	uint32_t base = leaf & LEAF_EXT_BASE, max[4];
	int err;

	if (cpu >= src->ncpus)
		return -ENXIO;
	if ((leaf & 0xf0000000u) == LEAF_HV_BASE)
		return raw_cpuid(src, cpu, leaf, subleaf, regs);
	err = raw_cpuid(src, cpu, base, 0, max);
	if (err)
		return err;
	if (leaf > max[0] || (base && max[0] < LEAF_EXT_BASE)) {
		memset(regs, 0, 4 * sizeof(uint32_t));
		return 0;
	}
	return raw_cpuid(src, cpu, leaf, subleaf, regs);
}
