/*
 * cpu/cpu_dump.h - the CPUID dump files baretma reads and writes: the
 * parsers of cpu/cpu_dump.c and cpu/dump_*.c (one per format, asked in
 * turn by cpu_dump.c's format table), their input caps, and the writer
 * (cpu/dump_write.c).  A struct cpu_source (cpu/cpu.h) reads a dump
 * through this; `baretma cpuid --dump` and the report bundle
 * (bench/study/bundle.h) write one.
 * Library code: never prints, never exits; 0 or -errno.
 */
#ifndef BARETMA_CPU_DUMP_H
#define BARETMA_CPU_DUMP_H

#include <stdint.h>
#include <stdio.h>

#include "cpu/cpu.h"


/*
 * A CPUID dump read by baretma: per logical CPU, every (leaf, subleaf) ->
 * {eax, ebx, ecx, edx} record of the file.  Formats, recognised by content:
 * libcpuid's raw format, AIDA64 (CPUID Registers / Logical CPU #N sections),
 * AIDA64 with CPU#NNN AffMask sections, hwloc-gather-cpuid directories,
 * and baretma's report bundle (bench/study/bundle.h: a JSON document whose
 * "cpuid_dump" text is AIDA64's layout; cpu/dump_bundle.c).
 * Several records for one (cpu, leaf, subleaf): the first in file order wins
 * (hwloc's rule).  The file comment of cpu/cpu_dump.c has the details.
 */
struct cpu_dump; /* opaque */

#define CPU_BUNDLE_SCHEMA "baretma-bundle/1"

/*
 * The input caps of a CPUID dump (doc/safety.md "Bad input"): a file over its cap
 * is not read at all (cpu_dump_load: -EINVAL, "N bytes, over the cap of M
 * bytes for a CPUID dump"), nor is one that grows past it while read.
 *   CPU_DUMP_MAX_BYTES     a dump file, any format (a report bundle too,
 *       whose "cpuid_dump" text is most of it): 32 MiB.  The real dumps
 *       hold at most 9.1 KB per logical CPU (an AIDA64 dump of a Meteor
 *       Lake, 14 CPUs in 127 KB; the largest, an Emerald Rapids one, is
 *       501 KiB): a dump of CPU_MAX_CPUS such CPUs is 9.3 MB, and the cap
 *       is 3.5 times that.
 *   CPU_DUMP_PU_MAX_BYTES  one puN file of a hwloc-gather-cpuid directory
 *       (and its hwloc-cpuid-info summary, which hwloc reads): 64 KiB, 30
 *       times the largest real one (2,190 bytes: a Sapphire Rapids CPU).
 *       A directory holds at most CPU_MAX_CPUS puN files (a pu number at
 *       or above it is refused), so at most 64 MiB is read in all.
 */
#define CPU_DUMP_MAX_BYTES    (32u << 20)
#define CPU_DUMP_PU_MAX_BYTES (64u << 10)

/*
 * cpu_dump_load - read the dump at @path (a regular file, or a directory
 * of puN regular files).  On failure writes what was wrong and where to
 * *@err (on the heap, replaced; free() it; e.g. "line 12: truncated or malformed CPUID record
 * '...'", "pu3: no leaf 0 (truncated?)", "not a CPUID dump: ...", "not a
 * regular file: refused unread": a FIFO or device is never read, nor
 * opened: cpu/userfile.h userfile_open_read).
 * Every file is opened with userfile_open_read (cpu/userfile.h): under
 * sudo, one the invoking user could not read is refused unread (EACCES,
 * *@err from userfile_read_denied).
 * Returns the dump, or NULL + errno: ENOENT/EACCES/... (cannot read),
 * EINVAL (unrecognised, empty, truncated or malformed; not a regular
 * file; over its cap: CPU_DUMP_MAX_BYTES, CPU_DUMP_PU_MAX_BYTES), ENOMEM.
 */
struct cpu_dump *cpu_dump_load(const char *path, char **err);
void cpu_dump_free(struct cpu_dump *d);

/* "libcpuid", "aida64", "aida64-affmask", "hwloc" or CPU_BUNDLE_SCHEMA. */
const char *cpu_dump_format(const struct cpu_dump *d);

/* Highest logical CPU number in the dump + 1. */
unsigned cpu_dump_ncpus(const struct cpu_dump *d);

/*
 * cpu_dump_cpuid - the record of (@leaf, @subleaf) of @cpu as the file has
 * it (no range clamping: see cpu_source_cpuid()).  A hwloc record without
 * input ECX answers every subleaf.
 * Returns 0, -ENXIO (CPU not in the dump), -ENODATA (no such record).
 */
int cpu_dump_cpuid(const struct cpu_dump *d, unsigned cpu, uint32_t leaf, uint32_t subleaf,
		   uint32_t regs[4]);

/*
 * cpu_dump_write_header, cpu_dump_write_cpu - write a dump in AIDA64's
 * layout, which baretma and libcpuid 0.6.2's cpuid_deserialize_all_raw_data()
 * both read: the header first (a "------[ Versions ]------" section holding
 * @versions, "Key : value" lines; none may start like a section or a record:
 * -EINVAL), then one "CPUID Registers / Logical CPU #N" section per CPU.
 * A CPU's section has every basic leaf up to CPUID.0:EAX, the hypervisor
 * leaves when CPUID.1:ECX[31] is set, and the extended leaves up to
 * CPUID.80000000H:EAX (at most 256 per range), with the subleaves that
 * the SDM Vol. 2A / AMD APM Vol. 3 enumerate (4, 7, 0xB, 0xD, 0xF, 0x10,
 * 0x12, 0x14, 0x17, 0x18, 0x1B, 0x1D, 0x1E, 0x1F, 0x20, 0x23, 0x24,
 * 0x8000001D, 0x80000020, 0x80000026), tagged "[SL nn]" in hex.
 * @src: live or a dump (records a dump lacks are left out).
 * Returns 0, or -errno of cpu_source_cpuid() (-ENXIO: no such CPU), -EIO
 * (the stream has an error).
 */
int cpu_dump_write_header(FILE *f, const char *versions);
int cpu_dump_write_cpu(FILE *f, const struct cpu_source *src, unsigned cpu);

#endif
