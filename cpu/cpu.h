/*
 * cpu/cpu.h - what machine is this: CPUID source (live or dump), libcpuid
 * identification, architectural PMU enumeration, the model table, the
 * overridable /sys root and SMT siblings.  The dump files themselves are
 * cpu/cpu_dump.h; hwloc topology and pinning cpu/cpu_topo.h.
 *
 * Hardware facts: Intel SDM Vol. 2A, CPUID leaves 0AH, 1AH and 23H; the
 * kernel's model rules (linux arch/x86/events/intel/core.c
 * intel_pmu_init), linux arch/x86/include/asm/intel-family.h
 * for model numbers, arch/x86/events/intel/core.c for per-model behaviour.
 * Library code: never prints, never exits; 0 or -errno.
 *
 * The folder cpu/ is the bottom of baretma's layers and owns:
 *   - the facts of the system and the process, read once: the /sys and
 *     /proc root (sysfs.c, $BARETMA_SYSROOT, hwloc's HWLOC_FSROOT is the
 *     model), the kernel's knob paths named once (knobs.h), whether the
 *     environment can be trusted (trust.h), files of the real user
 *     (userfile.h), bytes made safe to print (escape.h), heap arrays
 *     that grow (array.h), the environment preflight (environ.h);
 *   - identification: the CPUID source, live or a dump (cpu_source.c, one
 *     parser per dump format: dump_libcpuid.c, dump_aida64.c,
 *     dump_hwloc.c, and dump_write.c: cpu_dump.h), libcpuid and the leaves (cpu_identify.c,
 *     cpu_kinds.c), the model table (cpu_models.c), the IA32_PERF_CAPABILITIES
 *     bits identification reads (perf_caps.h);
 *   - topology and pinning with hwloc (cpu_topo.c, hwloc_env.c: cpu_topo.h), and "which
 *     machine" (machine.h).
 * It may include system headers, libcpuid, hwloc and itself: nothing from
 * msr/ or bench/ (HACKING.md "Layout"; t/0530-layers.sh checks it).
 */
#ifndef BARETMA_CPU_H
#define BARETMA_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPU_MAX_CPUS  1024  /* logical CPUs handled (dumps go up to 128) */
#define CPU_MAX_KINDS 4

/* ---------------------------------------------------------------- source */

/*
 * One switch point for CPUID (STYLE.md; hwloc's cpuid_or_from_dump()):
 * the live machine (per CPU: /dev/cpu/N/cpuid, else the instruction on a
 * thread pinned to N) or a CPUID dump read by baretma's own parser
 * (cpu/cpu_dump.c: libcpuid raw, AIDA64, AIDA64 with affinity masks,
 * hwloc-gather-cpuid directories), every record it holds.
 */
struct cpu_source; /* opaque */

/*
 * cpu_source_live - CPUID of this machine.  Returns NULL + errno (ENOMEM).
 * In the test build only, $BARETMA_TEST_LIVE_CPUID names a dump whose
 * leaves this machine's CPUs read (cpu/cpu_source_hooks.c): the source
 * stays live (this machine's CPU count, topology, pinning); a dump that
 * does not load is NULL + errno as for cpu_source_dump.
 */
struct cpu_source *cpu_source_live(void);

/*
 * cpu_source_dump - CPUID from a dump file or a hwloc-gather-cpuid
 * directory (cpu_dump_load()).
 * Returns NULL + errno: ENOENT/EACCES (cannot open), EINVAL (unrecognised
 * format, truncated or malformed dump, no logical CPU in it;
 * cpu_source_error() says what and where, e.g. "line 12: ...",
 * "pu3: no leaf 0 (truncated?)"), ENOMEM.
 */
struct cpu_source *cpu_source_dump(const char *path);

/*
 * cpu_source_from_env - the dump named by @dump_path if not NULL, else
 * $BARETMA_CPUID_DUMP if set, else the live machine.
 */
struct cpu_source *cpu_source_from_env(const char *dump_path);

/* cpu_source_env_path - the dump cpu_source_from_env(@dump_path) reads:
 * @dump_path, else $BARETMA_CPUID_DUMP when set and not empty, else NULL
 * (the live machine). */
const char *cpu_source_env_path(const char *dump_path);

void cpu_source_free(struct cpu_source *src);

/* "live" or the dump path. */
const char *cpu_source_name(const struct cpu_source *src);
bool cpu_source_is_live(const struct cpu_source *src);

/* A detail for the calling thread's last failed cpu_source_dump() ("" if
 * none), whole; per thread (_Thread_local, on the heap): valid until the
 * thread's next cpu_source_dump() or cpu_source_live(). */
const char *cpu_source_error(void);

/* "live", or the dump's format: "libcpuid", "aida64", "aida64-affmask",
 * "hwloc" (the public corpora's formats: libcpuid's tests/, InstLatx64's
 * AIDA64 dumps, hwloc-gather-cpuid),
 * or CPU_BUNDLE_SCHEMA for a report bundle (bench/study/bundle.h). */
const char *cpu_source_format(const struct cpu_source *src);

/* The source is a hwloc-gather-cpuid directory (hwloc itself can build the
 * topology from it: HWLOC_CPUID_PATH=<cpu_source_name()>). */
bool cpu_source_is_hwloc_dir(const struct cpu_source *src);

/* Number of logical CPUs the source describes (dump: highest CPU number in
 * it + 1; live: configured CPUs).  Index i = OS CPU number i. */
unsigned cpu_source_ncpus(const struct cpu_source *src);

/*
 * cpu_source_cpuid - CPUID(@leaf, @subleaf) of logical CPU @cpu: regs =
 * {eax, ebx, ecx, edx}.  Dumps hold whatever records the file has (any
 * leaf, any subleaf).  A leaf above the CPU's range maximum (CPUID.0:EAX
 * for basic leaves, CPUID.80000000H:EAX for extended ones) reads as zeros,
 * like the hardware's "invalid leaf" is treated by the kernel; hypervisor
 * leaves 0x4xxxxxxx are passed through.
 * Returns 0, -ENXIO (no such CPU, or a CPU number the dump lacks),
 * -ENODATA (leaf or subleaf not in the dump), -errno (live: the device).
 */
int cpu_source_cpuid(const struct cpu_source *src, unsigned cpu, uint32_t leaf,
		     uint32_t subleaf, uint32_t regs[4]);

/*
 * cpu_host_cpuid - CPUID(@leaf, @subleaf) of the machine baretma runs on,
 * executed on the calling thread (for what is the same on every CPU:
 * vendor, hypervisor, PMU version).  In the test build with the live-CPU
 * seam (cpu/cpu_source_hooks.c: $BARETMA_TEST_LIVE_CPUID), the seam
 * dump's first CPU, through cpu_source_cpuid's rules.
 */
void cpu_host_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* ---------------------------------------------------------- model table */

enum cpu_vendor { CPU_VENDOR_OTHER = 0, CPU_VENDOR_INTEL, CPU_VENDOR_AMD };

/*
 * topdown_level value of a row whose PERF_METRICS setup no source confirms
 * (no intel_pmu_init case in the kernel): the level is then decided
 * architecturally, as for a model not in the table (cpu_info_identify).
 */
#define CPU_TD_UNCONFIRMED (-1)

/* Top-down recipe names (struct cpu_kind.topdown_recipe; intel/perfmon TMA_Metrics-full.csv,
 * E-core_TMA_Metrics.csv; linux tools/perf/pmu-events/arch/x86/amdzen4/, amdzen5/). */
#define CPU_RECIPE_INTEL_PRE_ICL "intel-pre-icl-l1" /* TMA: SNB..CML, 4 GP events */
#define CPU_RECIPE_INTEL_ECORE   "intel-ecore-l1"   /* E-core TMA: Gracemont..Darkmont; Tremont */
#define CPU_RECIPE_AMD_ZEN4      "amd-zen4"         /* amdzen4 pipeline.json: 6 dispatch slots */
#define CPU_RECIPE_AMD_ZEN5      "amd-zen5"         /* amdzen5 pipeline.json: 8 dispatch slots */

/*
 * How the counters of a hybrid part's kinds follow from CPUID where leaf
 * 0xA under-reports (linux arch/x86/events/intel/core.c intel_pmu_init, update_pmu_cap).
 */
enum cpu_counter_rule {
	CPU_CTR_CPUID = 0,   /* leaf 0xA, or leaf 0x23 sub-leaf 1 where enumerated */
	CPU_CTR_ADL_HYBRID,  /* ADL/RPL with CPUID.7.0:EDX[15]: leaf 0xA is the P/E
			      * common subset; P-core GP mask <<2|3, fixed mask <<1|1,
			      * undone when that exceeds 8 GP / 4 fixed (E-cores
			      * disabled); E-core = leaf 0xA (linux intel_pmu_init) */
};

/*
 * One microarchitecture row, keyed on vendor + family + display model.
 * The P-core fields describe the only core of non-hybrid parts.  Every
 * row's facts come from .source; UNCONFIRMED there marks a guess and the
 * safe value chosen.
 */
struct cpu_model {
	enum cpu_vendor vendor;
	unsigned family, model;   /* display family / model (with extended bits) */
	const char *name;         /* product family, e.g. "Ice Lake-SP" */
	const char *uarch;        /* P-core (or only) microarchitecture, e.g. "Sunny Cove" */
	unsigned pipeline_width;  /* slots (AMD: dispatch slots) per cycle, the recipes'
				   * sources above; 0 = unknown */
	bool fixed_ctr3;          /* fixed counter 3 (TOPDOWN.SLOTS) on the P-core per the
				   * kernel: used where a hybrid part's leaf 0xA hides it */
	int topdown_level;        /* PERF_METRICS levels on the P-core: 0, 1, 2 (kernel
				   * num_topdown_events 4 -> 1, 8 -> 2), or CPU_TD_UNCONFIRMED */
	bool metrics_clear;       /* RDPMC metrics-clear mode (IA32_PERF_CAPABILITIES[19]) on
				   * the P-core: Lion Cove and later (linux commit
				   * 0e45818ec189); used
				   * when IA32_PERF_CAPABILITIES was not read */
	const char *recipe;       /* event-based Top-down recipe of the P-core when it has no
				   * PERF_METRICS (CPU_RECIPE_*), or NULL: none known */
	bool hybrid;              /* has E-cores in the product line */
	enum cpu_counter_rule counter_rule;
	const char *e_uarch;      /* E-core microarchitecture, or NULL */
	unsigned e_pipeline_width;
	const char *e_recipe;     /* E-core recipe (CPU_RECIPE_INTEL_ECORE) or NULL */
	const char *source;       /* where the row's facts come from */
};

/* cpu_model_lookup - the row for (vendor, family, model), or NULL. */
const struct cpu_model *cpu_model_lookup(enum cpu_vendor v, unsigned family, unsigned model);

/* cpu_model_table - the whole table; *n receives its length. */
const struct cpu_model *cpu_model_table(size_t *n);

/* --------------------------------------------------------- identification */

/* Architectural PMU enumeration from CPUID leaf 0xA (linux perf_event.h union cpuid10_*). */
struct cpu_pmu_arch {
	unsigned version;        /* EAX[7:0]; 0 = no architectural PMU (e.g. a VM without vPMU) */
	unsigned gp_counters;    /* EAX[15:8] */
	unsigned gp_width;       /* EAX[23:16] */
	unsigned ebx_len;        /* EAX[31:24] */
	uint32_t ebx;            /* EBX: bit i set = architectural event i NOT available */
	uint32_t fixed_mask;     /* ECX (v5+) */
	unsigned fixed_counters; /* EDX[4:0] */
	unsigned fixed_width;    /* EDX[12:5] */
	bool anythread_deprecated; /* EDX[15], read from version 5 on as the kernel
				  * does (intel_pmu_init: "AnyThread deprecated";
				  * arch/x86/events/perf_event.h union cpuid10_edx) */
	bool topdown_slots;      /* EBX bit 7 enumerated (ebx_len > 7) and clear */
};

/* cpu_pmu_arch_decode - decode leaf 0xA registers {eax, ebx, ecx, edx}. */
void cpu_pmu_arch_decode(const uint32_t regs[4], struct cpu_pmu_arch *out);

/* cpu_pmu_has_fixed - fixed counter @i exists: ECX[i] || EDX[4:0] > i
 * (Intel PCM isFixedCounterSupported; linux intel_pmu_init). */
bool cpu_pmu_has_fixed(const struct cpu_pmu_arch *p, unsigned i);

/* One kind of core (all CPUs on non-hybrid parts; P/E kinds on hybrids). */
struct cpu_kind {
	char kind[16];           /* "performance" (0x40), "efficiency" (0x20), "lowpower" (a
				  * second Atom kind: ARL-H's Crestmont LP E-cores, after the
				  * kernel's cpu_lowpower PMU), "general" (not hybrid) */
	uint8_t core_type;       /* CPUID.1AH:EAX[31:24]: 0x40 Core, 0x20 Atom; 0 when not hybrid */
	uint32_t native_model;   /* CPUID.1AH:EAX[23:0] */
	const char *uarch;       /* from the model table, or "unknown" */
	unsigned pipeline_width; /* slots per cycle; 0 when unknown */
	/*
	 * Counters of this kind, enumerated on its first CPU (not CPU 0): leaf
	 * 0xA, overridden by leaf 0x23 sub-leaf 1 (EAX = GP bitmap, EBX = fixed
	 * bitmap) where CPUID.(7,1):EAX[8] and CPUID.23H.0:EAX[1] say it exists
	 * (the kernel's update_pmu_cap, arch/x86/events/intel/core.c), with the kernel's
	 * ADL/RPL rule (enum cpu_counter_rule).  AMD: CPUID 0x80000022 EBX[3:0]
	 * (PerfMonV2) or 6 with CPUID.80000001H:ECX[23] (PerfCtrExtCore), else
	 * the 4 legacy counters; 48 bits wide (linux arch/x86/events/amd/core.c).
	 */
	unsigned gp_counters;    /* popcount(gp_mask) */
	unsigned gp_width;       /* bits */
	uint32_t gp_mask;        /* bit i: general-purpose counter i exists */
	unsigned fixed_counters; /* popcount(fixed_mask) */
	uint32_t fixed_mask;     /* bit i: IA32_FIXED_CTRi exists (ECX[i] || EDX[4:0] > i) */
	const char *counters_source; /* how the masks were found, one phrase for messages */
	bool perfmon_v2;         /* AMD: CPUID 0x80000022 EAX[0] PerfMonV2 (PERF_CNTR_GLOBAL_CTL,
				  * _STATUS, _STATUS_CLR; linux amd/core.c X86_FEATURE_PERFMON_V2) */
	bool fixed_ctr3;         /* fixed counter 3 (TOPDOWN.SLOTS): fixed_mask bit 3, or the
				  * model table where a hybrid part's CPUID hides it */
	int topdown_level;       /* PERF_METRICS levels: 0, 1, 2 (what IA32_PERF_METRICS
				  * gives, not what baretma measures: a kind without
				  * it may have an event recipe, topdown_recipe) */
	const char *perf_metrics_source; /* where topdown_level comes from, one phrase
				  * (static): the model table by CPUID's family/model,
				  * IA32_PERF_CAPABILITIES bit 15, no fixed counter 3,
				  * an E-core kind, no PMU, not Intel; or "undecided: ..." */
	bool metrics_clear;      /* RDPMC metrics-clear mode: IA32_PERF_CAPABILITIES[19]
				  * when read, else the model table; false without PERF_METRICS */
	const char *topdown_source; /* "perf_metrics" (level >= 1), "events" (an event-based
				     * recipe applies), "none" (no recipe, or no PMU),
				     * "undecided" (PERF_METRICS depends on an MSR not read) */
	const char *topdown_recipe; /* CPU_RECIPE_* when "events", else NULL */
	const char *model_recipe;   /* the recipe the model table names for the kind,
				     * whether or not its counters are enumerated
				     * (a hypervisor may hide them), NULL: none */
	unsigned ncpus;
	unsigned cpus[CPU_MAX_CPUS]; /* OS CPU numbers, ascending */
};

/* A CPUID.40000000H signature as text: 12 bytes and a NUL. */
#define CPU_HV_SIG_LEN 13

struct cpu_info {
	enum cpu_vendor vendor;
	char vendor_str[16];     /* "GenuineIntel", "AuthenticAMD", ... */
	unsigned family, model, stepping; /* display values */
	char brand[64];
	const char *hypervisor;  /* the name of CPUID.40000000H's signature (libcpuid's
				  * list: cpu_hypervisor_name), e.g. "KVM", "unknown",
				  * or NULL on bare metal (CPUID.1:ECX[31] clear) */
	char hypervisor_sig[CPU_HV_SIG_LEN]; /* that signature (cpu_hypervisor_signature),
				  * "" on bare metal or when the source lacks the leaf */
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
	/* One line, "" when none: the model is not in the table (or its
	 * PERF_METRICS setup is unconfirmed) and what was assumed instead, e.g.
	 * "family 6 model 0xf1 is not in baretma's model table: fixed counter 3
	 * from CPUID leaf 0xA (ECX bit 3); PERF_METRICS from
	 * IA32_PERF_CAPABILITIES bit 15 = 1: level 1 assumed, level 2 unknown".
	 * Fixed: at most 360 bytes (cpu_kinds.c warn_arch: its three parts are
	 * bounded by the model table's names; vendor_str is 12). */
	char warning[512];
};

/*
 * cpu_info_identify - identify the CPU(s) of @src (not named cpu_identify:
 * libcpuid owns that symbol): libcpuid for vendor, family,
 * model, stepping, brand and hypervisor; CPUID leaf 0x1A per logical CPU
 * for core kinds on hybrid parts; per kind, the counters of one CPU of
 * that kind (struct cpu_kind); the model table for uarch, width, Top-down
 * level, recipe and metrics-clear, with the kernel's rules where CPUID
 * under-reports (ADL/RPL leaf 0xA shows the P/E common subset; FC3 of a
 * hybrid P-core: linux arch/x86/events/intel/core.c intel_pmu_init).
 * @perf_caps: IA32_PERF_CAPABILITIES read on one CPU if the caller could
 * (on hybrid parts, one of the P-core kind), else NULL.  With @perf_caps:
 *  - Intel models not in the table (or CPU_TD_UNCONFIRMED rows): bit 15
 *    (PERF_METRICS) with fixed counter 3 gives level 1 (level 2 cannot be
 *    told from architectural enumeration); without @perf_caps the level is
 *    0 and topdown_source "undecided", and ->warning says so;
 *  - non-hybrid table models: a clear bit 15 means level 0 (kernel rule,
 *    intel_pmu_init); hybrid product lines ignore bit 15 (ADL/RPL report 0 on
 *    P-cores, MTL always clears it, later parts enumerate it per core
 *    type: intel_pmu_init, intel_pmu_broken_perf_cap, update_pmu_cap), so the table decides there;
 *  - bit 19 gives metrics_clear of PERF_METRICS kinds (on hybrid parts only
 *    when bit 15 is also set, i.e. it was read on a P-core).
 * Returns 0 or -errno (-EINVAL: libcpuid could not identify the data).
 */
int cpu_info_identify(const struct cpu_source *src, const uint64_t *perf_caps, struct cpu_info *out);

/* cpu_info_kind_of - the kind containing OS CPU @cpu, or NULL. */
const struct cpu_kind *cpu_info_kind_of(const struct cpu_info *ci, unsigned cpu);

/* cpu_vendor_name - "Intel", "AMD", "other". */
const char *cpu_vendor_name(enum cpu_vendor v);

/* cpu_vendor_of - the vendor of a CPUID.0:EBX,EDX,ECX string ("GenuineIntel",
 * "AuthenticAMD"), else CPU_VENDOR_OTHER. */
enum cpu_vendor cpu_vendor_of(const char *vendor_str);

/*
 * cpu_hypervisor_name - the hypervisor whose signature CPUID.40000000H
 * returns in @regs {eax, ebx, ecx, edx} (EBX, ECX, EDX: libcpuid's list,
 * e.g. "KVMKVMKVM" -> "KVM"), else "unknown".  Only meaningful when
 * CPUID.1:ECX[31] says a hypervisor is present.
 */
const char *cpu_hypervisor_name(const uint32_t regs[4]);

/*
 * cpu_hypervisor_signature - the 12 bytes of EBX, ECX, EDX of CPUID.40000000H
 * in @regs {eax, ebx, ecx, edx} as a string (it ends at the first NUL:
 * KVM's "KVMKVMKVM\0\0\0" reads "KVMKVMKVM"; bhyve's "bhyve bhyve " keeps
 * its spaces).  Bytes are as CPUID gave them: escape them to print.
 */
void cpu_hypervisor_signature(const uint32_t regs[4], char sig[CPU_HV_SIG_LEN]);

/*
 * cpu_hypervisor_agree - does the kernel's name of the hypervisor it
 * detected (@kernel_name: "KVM", "Microsoft Hyper-V", "Xen HVM", "xen",
 * "Bhyve": linux arch/x86/kernel/cpu/hypervisor.c and each hypervisor's
 * .name, or /sys/hypervisor/type) name the same hypervisor as the
 * cpu_hypervisor_name() of a CPUID signature (@cpuid_name)?  False when
 * either is NULL.  Pure.
 */
bool cpu_hypervisor_agree(const char *cpuid_name, const char *kernel_name);

/* ------------------------------------------------------------- /sys root */

/*
 * cpu_sysfs_resolve - "<root><path>" into @buf (@n bytes), where root is
 * $BARETMA_SYSROOT (default "", i.e. "/"; also "" when ignored:
 * cpu_sysfs_root_ignored), so tests can run against a fake /sys and /proc
 * tree.  @path must start with '/'.
 * Returns 0, or -ENAMETOOLONG when it does not fit in @n bytes (@buf is
 * then "": a cut path could name another file).  Every file opened under
 * the root is named through this.
 */
int cpu_sysfs_resolve(char *buf, size_t n, const char *path);

/*
 * cpu_sysfs_path - the same path for messages only: one that does not fit
 * in @n bytes is cut and ends in "...".  Returns @buf.
 */
char *cpu_sysfs_path(char *buf, size_t n, const char *path);

/*
 * cpu_sysfs_root_check - is $BARETMA_SYSROOT, when set and not empty, an
 * existing directory?  Without the check a mistyped root reads as a
 * machine where every /sys and /proc file is absent (no msr module, no
 * rdpmc file, no watchdog), which is a wrong answer, not an error.
 * A relative root is refused: the journal names the settings files it
 * restores relative to the root, and a 'pmu restore' run from another
 * directory would write other files.
 * Returns 0, -EINVAL (a relative path), -ENOENT, -ENOTDIR (exists but is
 * not a directory), or another -errno from stat().
 */
int cpu_sysfs_root_check(void);

/*
 * cpu_sysfs_root_ignored - $BARETMA_SYSROOT is set (not empty) but the
 * environment is not trusted (cpu/trust.h: sudo, setuid): the root is
 * ignored and /sys, /proc are the real ones (cpu_sysfs_resolve,
 * cpu_sysfs_root_check), because it also feeds the lockdown and
 * msr.allow_writes checks and names the settings files root writes.
 * @why (may be NULL) receives the reason.  False otherwise.
 */
bool cpu_sysfs_root_ignored(char *why, size_t n);

/* cpu_sysfs_read_line - read the first line of <root>@path without the newline.
 * Returns 0, -ENAMETOOLONG (cpu_sysfs_resolve), or -errno. */
int cpu_sysfs_read_line(const char *path, char *buf, size_t n);

/* ------------------------------------------------------- SMT (cpu/smt.c) */

/*
 * cpu_smt_siblings - the other online hardware threads of @cpu's core
 * (<root>/sys/devices/system/cpu/cpuN/topology/thread_siblings_list, less
 * @cpu and the CPUs the online list leaves out), at most @max into @out.
 * Returns how many (0: SMT off or no sibling online), -ENOENT (no such
 * file: the topology is unknown), -EINVAL (a list that does not parse),
 * -ENOMEM, or -errno.
 */
int cpu_smt_siblings(unsigned cpu, unsigned *out, unsigned max);

/* What one CPU did since boot, in USER_HZ ticks (<root>/proc/stat). */
struct cpu_stat_times {
	unsigned long long busy;  /* user + nice + system + irq + softirq */
	unsigned long long idle;  /* idle + iowait */
};

/* cpu_stat_read - the "cpuN" line of <root>/proc/stat.  Returns 0,
 * -ENOENT (no such line), -EINVAL (malformed), or -errno. */
int cpu_stat_read(unsigned cpu, struct cpu_stat_times *t);

#endif
