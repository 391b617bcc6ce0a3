/*
 * cpu/cpu.h - what machine is this: CPUID source (live or dump), libcpuid
 * identification, architectural PMU enumeration, the model table, hwloc
 * pinning, and the overridable /sys root.
 *
 * Hardware facts: ../shared/reference/pmu-reference.md §2 (CPUID leaves 0xA,
 * 0x1A, 0x23; kernel model rules), linux arch/x86/include/asm/intel-family.h
 * for model numbers, arch/x86/events/intel/core.c for per-model behaviour.
 * Library code: never prints, never exits; 0 or -errno.
 */
#ifndef BARETMA_CPU_H
#define BARETMA_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>

#define CPU_MAX_CPUS  1024  /* logical CPUs handled (dumps go up to 128) */
#define CPU_MAX_KINDS 4

/* ---------------------------------------------------------------- source */

/*
 * One switch point for CPUID (STYLE.md; hwloc's cpuid_or_from_dump()):
 * the live machine (per CPU: /dev/cpu/N/cpuid, else the instruction on a
 * thread pinned to N) or a dump file loaded with libcpuid's loader
 * (its native raw format and AIDA64 dumps).
 */
struct cpu_source; /* opaque */

/*
 * cpu_source_live - CPUID of this machine.  Returns NULL + errno (ENOMEM).
 */
struct cpu_source *cpu_source_live(void);

/*
 * cpu_source_dump - CPUID from a dump file.
 * Returns NULL + errno: ENOENT/EACCES (cannot open), EINVAL (not a dump
 * libcpuid can load, or no logical CPU in it; cpu_source_error() says why).
 */
struct cpu_source *cpu_source_dump(const char *path);

/*
 * cpu_source_from_env - the dump named by @dump_path if not NULL, else
 * $BARETMA_CPUID_DUMP if set, else the live machine.
 */
struct cpu_source *cpu_source_from_env(const char *dump_path);

void cpu_source_free(struct cpu_source *src);

/* "live" or the dump path. */
const char *cpu_source_name(const struct cpu_source *src);
bool cpu_source_is_live(const struct cpu_source *src);

/* A detail for the last failed cpu_source_dump() (e.g. "libcpuid: ..."). */
const char *cpu_source_error(void);

/* Number of logical CPUs the source describes (dump: CPUs in the file;
 * live: configured CPUs).  Index i = OS CPU number i. */
unsigned cpu_source_ncpus(const struct cpu_source *src);

/*
 * cpu_source_cpuid - CPUID(@leaf, @subleaf) of logical CPU @cpu: regs =
 * {eax, ebx, ecx, edx}.  Dumps hold subleaf 0 of leaves 0..0x1f and
 * 0x80000000..0x8000001f only (libcpuid 0.6.2); a leaf above the CPU's max
 * basic leaf (CPUID.0:EAX) reads as zeros, like the hardware's "invalid
 * leaf" is treated by the kernel.
 * Returns 0, -ENXIO (no such CPU), -ENODATA (leaf not in the dump), -errno.
 */
int cpu_source_cpuid(const struct cpu_source *src, unsigned cpu, uint32_t leaf,
		     uint32_t subleaf, uint32_t regs[4]);

/* ---------------------------------------------------------- model table */

enum cpu_vendor { CPU_VENDOR_OTHER = 0, CPU_VENDOR_INTEL, CPU_VENDOR_AMD };

/* One microarchitecture row, keyed on vendor + family + display model. */
struct cpu_model {
	enum cpu_vendor vendor;
	unsigned family, model;   /* display family / model (with extended bits) */
	const char *name;         /* product family, e.g. "Ice Lake-SP" */
	const char *uarch;        /* P-core (or only) microarchitecture, e.g. "Sunny Cove" */
	unsigned pipeline_width;  /* slots per cycle (pmu-reference §6) */
	bool fixed_ctr3;          /* fixed counter 3 (TOPDOWN.SLOTS) on the P-core */
	int topdown_level;        /* PERF_METRICS levels on the P-core: 0, 1 or 2 */
	bool hybrid;              /* has E-cores in the product line */
	const char *e_uarch;      /* E-core microarchitecture, or NULL */
	unsigned e_pipeline_width;
	const char *source;       /* where the row's facts come from */
};

/* cpu_model_lookup - the row for (vendor, family, model), or NULL. */
const struct cpu_model *cpu_model_lookup(enum cpu_vendor v, unsigned family, unsigned model);

/* cpu_model_table - the whole table; *n receives its length. */
const struct cpu_model *cpu_model_table(size_t *n);

/* --------------------------------------------------------- identification */

/* Architectural PMU enumeration from CPUID leaf 0xA (pmu-reference §2.1). */
struct cpu_pmu_arch {
	unsigned version;        /* EAX[7:0]; 0 = no architectural PMU (e.g. a VM without vPMU) */
	unsigned gp_counters;    /* EAX[15:8] */
	unsigned gp_width;       /* EAX[23:16] */
	unsigned ebx_len;        /* EAX[31:24] */
	uint32_t ebx;            /* EBX: bit i set = architectural event i NOT available */
	uint32_t fixed_mask;     /* ECX (v5+) */
	unsigned fixed_counters; /* EDX[4:0] */
	unsigned fixed_width;    /* EDX[12:5] */
	bool topdown_slots;      /* EBX bit 7 enumerated (ebx_len > 7) and clear */
};

/* cpu_pmu_arch_decode - decode leaf 0xA registers {eax, ebx, ecx, edx}. */
void cpu_pmu_arch_decode(const uint32_t regs[4], struct cpu_pmu_arch *out);

/* cpu_pmu_has_fixed - fixed counter @i exists: ECX[i] || EDX[4:0] > i
 * (pmu-reference §2.1, PCM isFixedCounterSupported). */
bool cpu_pmu_has_fixed(const struct cpu_pmu_arch *p, unsigned i);

/* One kind of core (all CPUs on non-hybrid parts; P/E kinds on hybrids). */
struct cpu_kind {
	char kind[16];           /* "performance" (0x40), "efficiency" (0x20), "lowpower" (a
				  * second Atom kind: ARL-H's Crestmont LP E-cores, after the
				  * kernel's cpu_lowpower PMU), "general" (not hybrid) */
	uint8_t core_type;       /* CPUID.1AH:EAX[31:24]: 0x40 Core, 0x20 Atom; 0 when not hybrid */
	uint32_t native_model;   /* CPUID.1AH:EAX[23:0] */
	const char *uarch;       /* from the model table, or "unknown" */
	unsigned pipeline_width; /* 0 when unknown */
	bool fixed_ctr3;         /* fixed counter 3 exists on this kind */
	int topdown_level;       /* PERF_METRICS levels: 0, 1, 2 */
	unsigned ncpus;
	unsigned cpus[CPU_MAX_CPUS]; /* OS CPU numbers, ascending */
};

struct cpu_info {
	enum cpu_vendor vendor;
	char vendor_str[16];     /* "GenuineIntel", "AuthenticAMD", ... */
	unsigned family, model, stepping; /* display values */
	char brand[64];
	const char *hypervisor;  /* libcpuid's name, e.g. "KVM", or NULL on bare metal */
	unsigned max_basic_leaf;
	bool hybrid;             /* CPUID.7.0:EDX[15] */
	bool pdcm;               /* CPUID.1:ECX[15]: IA32_PERF_CAPABILITIES exists */
	struct cpu_pmu_arch pmu; /* leaf 0xA of the first CPU */
	const struct cpu_model *row; /* model table row, NULL if unknown */
	bool perf_caps_read;     /* IA32_PERF_CAPABILITIES was read (live, MSR available) */
	uint64_t perf_caps;
	unsigned nkinds;
	struct cpu_kind kinds[CPU_MAX_KINDS];
	unsigned ncpus;          /* logical CPUs described */
};

/*
 * cpu_info_identify - identify the CPU(s) of @src (not named cpu_identify:
 * libcpuid owns that symbol): libcpuid for vendor, family,
 * model, stepping, brand and hypervisor; CPUID leaf 0xA for the PMU; leaf
 * 0x1A per logical CPU for core kinds on hybrid parts; the model table for
 * uarch, width and Top-down level (kernel rules where CPUID under-reports:
 * ADL/RPL leaf 0xA shows the common subset, pmu-reference §2.1, §2.4).
 * @perf_caps: IA32_PERF_CAPABILITIES if the caller could read it, else NULL.
 * With @perf_caps, bit 15 (PERF_METRICS) decides level 1 on Intel models
 * not in the table, and a clear bit 15 means level 0 on non-hybrid table
 * models (kernel rule, pmu-reference §2.4); it is ignored on hybrid product
 * lines, where it is reported unreliably (§1.6).
 * Returns 0 or -errno (-EINVAL: libcpuid could not identify the data).
 */
int cpu_info_identify(const struct cpu_source *src, const uint64_t *perf_caps, struct cpu_info *out);

/* cpu_info_kind_of - the kind containing OS CPU @cpu, or NULL. */
const struct cpu_kind *cpu_info_kind_of(const struct cpu_info *ci, unsigned cpu);

/* cpu_vendor_name - "Intel", "AMD", "other". */
const char *cpu_vendor_name(enum cpu_vendor v);

/* ------------------------------------------------------ topology, pinning */

/*
 * cpu_topo_load - load the hwloc topology of this machine (or of the dump
 * directory in $HWLOC_CPUID_PATH, hwloc's own variable).  Returns 0 or -errno.
 */
int cpu_topo_load(hwloc_topology_t *topo);

/*
 * cpu_choose - the OS CPU to measure on.  @requested >= 0: validate it
 * (exists in the topology and is allowed: -ENXIO otherwise).  @requested < 0:
 * pick the last CPU of a kind with the highest topdown_level (on hybrid
 * parts a P-core via hwloc CPU kinds / @ci's kinds; never silently an
 * E-core: -ENXIO when no CPU of that kind is allowed), falling back on
 * non-hybrid parts to the last allowed CPU (the first is usually busy
 * with interrupts).  @ci may be NULL.  Returns the CPU number or -errno.
 */
int cpu_choose(hwloc_topology_t topo, const struct cpu_info *ci, int requested);

/*
 * cpu_pin_self - bind the calling thread strictly to @cpu and its memory to
 * the NUMA node of @cpu (hwloc_set_cpubind THREAD|STRICT, hwloc_set_membind
 * BIND|THREAD; a failing membind is not fatal: it is reported through
 * @membind_ok).  Verifies with sched_getcpu().  Returns 0 or -errno.
 */
int cpu_pin_self(hwloc_topology_t topo, unsigned cpu, bool *membind_ok);

/*
 * cpu_llc_bytes - size of the largest cache above @cpu in bytes, from hwloc
 * (0 when hwloc knows none).
 */
uint64_t cpu_llc_bytes(hwloc_topology_t topo, unsigned cpu);

/* ------------------------------------------------------------- /sys root */

/*
 * cpu_sysfs_path - "<root><path>" where root is $BARETMA_SYSROOT (default
 * "", i.e. "/"), so tests can run against a fake /sys and /proc tree.
 * @path must start with '/'.  Returns @buf.
 */
char *cpu_sysfs_path(char *buf, size_t n, const char *path);

/* cpu_sysfs_read_line - read the first line of <root>@path without the newline.
 * Returns 0 or -errno. */
int cpu_sysfs_read_line(const char *path, char *buf, size_t n);

#endif
