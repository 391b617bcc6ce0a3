/*
 * fuzz/fuzz_cpuid_dump.c - baretma's CPUID dump reader (cpu/cpu_dump.c)
 * and everything that reads a dump: identification of arbitrary CPUID
 * (cpu/cpu_identify.c, libcpuid on the records), the AIDA64 writer of
 * `baretma cpuid dump` (cpu_dump_write_cpu).
 *
 * Input:
 *   - "#hwloc\n" then pu files separated by '\f': a hwloc-gather-cpuid
 *     directory, chunk i written as puI (at most 8), with the
 *     hwloc-cpuid-info file hwloc-gather-cpuid writes;
 *   - anything else: the input is one dump file (libcpuid raw, AIDA64,
 *     AIDA64 affmask, or junk).
 * A crash, a sanitizer report, a leak or a hang is a bug; refusing the
 * input is fine.  One property aborts: a dump that loads, written out by
 * cpu_dump_write_cpu (what `baretma cpuid dump` writes) and read back, if
 * that loads, gives every CPU the same subleaf 0 of every basic and
 * extended leaf up to the range maximum (at most 0xff leaves) that the
 * original holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"
#include "cpu/cpu_topo.h"
#include "fuzz/fuzz.h"

#define HWLOC_MAGIC "#hwloc\n"
#define MAX_PU      8

/* The input as a hwloc-gather-cpuid directory; returns its path or NULL. */
static const char *fuzz_hwloc_dir(const uint8_t *data, size_t size)
{
	static char dir[64];
	char path[96];
	size_t start = 0;
	unsigned pu = 0;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/baretma-fuzz-hwloc.XXXXXX");
		if (!mkdtemp(dir))
			return NULL;
		snprintf(path, sizeof(path), "%s/hwloc-cpuid-info", dir);
		FILE *f = fopen(path, "w");
		if (!f)
			return NULL;
		fputs("Architecture: x86\n", f);
		fclose(f);
	}
	for (size_t i = 0; i <= size && pu < MAX_PU; i++) {
		if (i < size && data[i] != '\f')
			continue;
		snprintf(path, sizeof(path), "%s/pu%u", dir, pu++);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, data + start, i - start) != (ssize_t)(i - start)) {
			if (fd >= 0)
				close(fd);
			return NULL;
		}
		close(fd);
		start = i + 1;
	}
	for (; pu < MAX_PU; pu++) { /* the previous input's extra files */
		snprintf(path, sizeof(path), "%s/pu%u", dir, pu);
		unlink(path);
	}
	return dir;
}

/* @src written as an AIDA64 dump into a file of its own; NULL if it cannot be. */
static const char *write_dump(const struct cpu_source *src)
{
	static char path[64];
	unsigned n = cpu_source_ncpus(src);
	uint32_t regs[4];
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/baretma-fuzz-rt.XXXXXX");
		int fd = mkstemp(path);
		if (fd < 0)
			return NULL;
		close(fd);
	}
	f = fopen(path, "w");
	if (!f)
		return NULL;
	int err = cpu_dump_write_header(f, "Program Version : fuzz round trip");
	for (unsigned cpu = 0; cpu < n && !err; cpu++)
		if (!cpu_source_cpuid(src, cpu, 0, 0, regs))
			err = cpu_dump_write_cpu(f, src, cpu);
	if (fclose(f) || err)
		return NULL;
	return path;
}

/* Subleaf 0 of leaves @base..max of @cpu read the same from @a and @b. */
static void same_range(const struct cpu_source *a, const struct cpu_source *b, unsigned cpu,
		       uint32_t base)
{
	uint32_t ra[4], rb[4], max;

	if (cpu_source_cpuid(a, cpu, base, 0, ra))
		return;
	max = ra[0] < base ? base : ra[0] - base > 0xff ? base + 0xff : ra[0];
	for (uint32_t leaf = base; leaf <= max; leaf++) {
		if (cpu_source_cpuid(a, cpu, leaf, 0, ra))
			continue; /* not in the original: not written */
		if (cpu_source_cpuid(b, cpu, leaf, 0, rb) || memcmp(ra, rb, sizeof(ra)))
			abort();
	}
}

static void round_trip(const struct cpu_source *src)
{
	const char *path = write_dump(src);
	struct cpu_source *back = path ? cpu_source_dump(path) : NULL;
	unsigned n = cpu_source_ncpus(src);
	uint32_t regs[4];

	if (!back)
		return; /* e.g. CPUs whose leaf 0 maxima differ: sets of leaves differ */
	for (unsigned cpu = 0; cpu < n; cpu++) {
		if (cpu_source_cpuid(src, cpu, 0, 0, regs))
			continue;
		same_range(src, back, cpu, 0);
		same_range(src, back, cpu, 0x80000000u);
	}
	cpu_source_free(back);
}

/* What the commands do with a loaded dump. */
static void use_source(const struct cpu_source *src, FILE *null)
{
	static struct cpu_info ci;
	static unsigned cpus[CPU_MAX_CPUS];
	static const uint32_t leaves[] = { 0, 1, 4, 7, 0xa, 0xb, 0x1a, 0x1f, 0x23, 0x40000000,
					   0x80000000, 0x80000001, 0x80000022 };
	const uint64_t caps = 0xf4c5 | (1ull << 19); /* PERF_METRICS, metrics-clear */
	unsigned n = cpu_source_ncpus(src);
	uint32_t regs[4];

	for (unsigned cpu = 0; cpu < n && cpu < 4; cpu++) {
		for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++)
			for (uint32_t sub = 0; sub < 3; sub++)
				cpu_source_cpuid(src, cpu, leaves[i], sub, regs);
		cpu_dump_write_cpu(null, src, cpu);
	}
	for (int pass = 0; pass < 2; pass++) {
		if (cpu_info_identify(src, pass ? &caps : NULL, &ci))
			continue;
		for (unsigned cpu = 0; cpu < ci.ncpus && cpu < 8; cpu++) {
			const struct cpu_kind *k = cpu_info_kind_of(&ci, cpu);

			cpu_topdown_check_cpu(&ci, cpu, &k);
		}
		cpu_topdown_cpus(&ci, cpus, CPU_MAX_CPUS);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	const size_t magic = strlen(HWLOC_MAGIC);
	const char *path;
	struct cpu_source *src;

	if (!null && !(null = fopen("/dev/null", "w")))
		return 0;
	if (size >= magic && !memcmp(data, HWLOC_MAGIC, magic))
		path = fuzz_hwloc_dir(data + magic, size - magic);
	else
		path = fuzz_file(data, size);
	if (!path)
		return 0;
	src = cpu_source_dump(path);
	if (!src)
		return 0;
	use_source(src, null);
	round_trip(src);
	cpu_source_free(src);
	return 0;
}
