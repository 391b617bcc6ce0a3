/*
 * cpu/cpu_source.c - the one switch point for CPUID (STYLE.md; hwloc's
 * cpuid_or_from_dump()): the live machine or a dump file.
 *
 * Live: per CPU, /dev/cpu/N/cpuid (linux arch/x86/kernel/cpuid.c: a 16-byte
 * pread at offset (subleaf << 32) | leaf returns eax, ebx, ecx, edx of
 * CPUID executed on CPU N); without that device, the CPUID instruction on
 * this thread pinned to N with sched_setaffinity, the affinity restored.
 *
 * Dump: libcpuid's cpuid_deserialize_all_raw_data(), which reads libcpuid's
 * native raw format and AIDA64 dumps; index i of the raw array is logical
 * CPU i.  libcpuid 0.6.2 keeps leaves 0..0x1f (subleaf 0; subleaves of 4,
 * 0xb, 0x12, 0x14 in their own arrays) and 0x80000000..0x8000001f
 * (../shared/cpuid/README.md).
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libcpuid/libcpuid.h>

#include "cpu/cpu.h"

#define LEAF_EXT_BASE      0x80000000u
#define LEAF_HV_BASE       0x40000000u /* hypervisor range (live only) */
#define LEAF_CACHE_PARAMS  0x4u        /* deterministic cache parameters */
#define LEAF_EXT_TOPOLOGY  0xbu
#define LEAF_SGX           0x12u
#define LEAF_PT            0x14u
#define LEAF_AMD_CACHE_TOPO 0x8000001du

struct cpu_source {
	bool live;
	char *path;                       /* dump path; NULL when live */
	unsigned ncpus;
	struct cpu_raw_data_array_t raw;  /* dump only */
};

static char source_error[512];

const char *cpu_source_error(void)
{
	return source_error;
}

struct cpu_source *cpu_source_live(void)
{
	struct cpu_source *src = calloc(1, sizeof(*src));
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (!src) {
		errno = ENOMEM;
		return NULL;
	}
	src->live = true;
	src->ncpus = n > 0 ? (unsigned)n : 1;
	if (src->ncpus > CPU_MAX_CPUS)
		src->ncpus = CPU_MAX_CPUS;
	return src;
}

/* libcpuid prints "not understood" warnings for every line it skips;
 * library code never prints (STYLE.md), so they are silenced here. */
static void quiet_warn(const char *msg)
{
	(void)msg;
}

/* Load @path with libcpuid.  Returns 0 or -errno (detail in source_error). */
static int dump_load(struct cpu_source *src, const char *path)
{
	libcpuid_warn_fn_t old = cpuid_set_warn_function(quiet_warn);
	int r = cpuid_deserialize_all_raw_data(&src->raw, path);
	int err = 0;

	cpuid_set_warn_function(old);
	if (r == ERR_OPEN) {
		/* libcpuid's fopen failed: tell the caller why, precisely. */
		err = access(path, R_OK) ? -errno : -EIO;
		snprintf(source_error, sizeof(source_error), "%s", strerror(-err));
	} else if (r < 0) {
		err = -EINVAL;
		snprintf(source_error, sizeof(source_error), "libcpuid: %s", cpuid_error());
	} else if (src->raw.num_raw == 0) {
		/* libcpuid returns 0 for a file it does not understand at all. */
		err = -EINVAL;
		snprintf(source_error, sizeof(source_error),
			 "not a CPUID dump libcpuid can read");
	}
	return err;
}

struct cpu_source *cpu_source_dump(const char *path)
{
	struct cpu_source *src = calloc(1, sizeof(*src));
	int err = 0;

	source_error[0] = '\0';
	if (!src) {
		err = -ENOMEM;
		goto out;
	}
	src->path = strdup(path);
	if (!src->path) {
		err = -ENOMEM;
		goto out;
	}
	err = dump_load(src, path);
	if (err)
		goto out;
	src->ncpus = src->raw.num_raw > CPU_MAX_CPUS ? CPU_MAX_CPUS : src->raw.num_raw;
out:
	if (err) {
		cpu_source_free(src);
		errno = -err;
		return NULL;
	}
	return src;
}

struct cpu_source *cpu_source_from_env(const char *dump_path)
{
	const char *env = getenv("BARETMA_CPUID_DUMP");

	if (dump_path)
		return cpu_source_dump(dump_path);
	if (env && *env)
		return cpu_source_dump(env);
	return cpu_source_live();
}

void cpu_source_free(struct cpu_source *src)
{
	if (!src)
		return;
	if (!src->live && src->raw.raw)
		cpuid_free_raw_data_array(&src->raw);
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

unsigned cpu_source_ncpus(const struct cpu_source *src)
{
	return src->ncpus;
}

/* ------------------------------------------------------------------ dump */

/* The subleaf arrays libcpuid keeps (leaves 4, 0xb, 0x12, 0x14, 0x8000001d). */
static const uint32_t *dump_subleaf(const struct cpu_raw_data_t *r, uint32_t leaf,
				    uint32_t subleaf)
{
	switch (leaf) {
	case LEAF_CACHE_PARAMS:
		return subleaf < MAX_INTELFN4_LEVEL ? r->intel_fn4[subleaf] : NULL;
	case LEAF_EXT_TOPOLOGY:
		return subleaf < MAX_INTELFN11_LEVEL ? r->intel_fn11[subleaf] : NULL;
	case LEAF_SGX:
		return subleaf < MAX_INTELFN12H_LEVEL ? r->intel_fn12h[subleaf] : NULL;
	case LEAF_PT:
		return subleaf < MAX_INTELFN14H_LEVEL ? r->intel_fn14h[subleaf] : NULL;
	case LEAF_AMD_CACHE_TOPO:
		return subleaf < MAX_AMDFN8000001DH_LEVEL ? r->amd_fn8000001dh[subleaf] : NULL;
	default:
		return NULL;
	}
}

static int dump_cpuid(const struct cpu_source *src, unsigned cpu, uint32_t leaf,
		      uint32_t subleaf, uint32_t regs[4])
{
	const struct cpu_raw_data_t *r = &src->raw.raw[cpu];
	const uint32_t *row = NULL;

	if (subleaf && (row = dump_subleaf(r, leaf, subleaf)) == NULL)
		return -ENODATA;
	if (!row && leaf < MAX_CPUID_LEVEL)
		row = r->basic_cpuid[leaf];
	else if (!row && leaf >= LEAF_EXT_BASE && leaf - LEAF_EXT_BASE < MAX_EXT_CPUID_LEVEL)
		row = r->ext_cpuid[leaf - LEAF_EXT_BASE];
	if (!row)
		return -ENODATA;
	memcpy(regs, row, 4 * sizeof(uint32_t));
	return 0;
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
	return src->live ? live_cpuid(cpu, leaf, subleaf, regs)
			 : dump_cpuid(src, cpu, leaf, subleaf, regs);
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
