/*
 * cpu/environ.h - environment preflight: the system settings that decide
 * whether and how well a measurement works, read (never changed) from
 * /sys and /proc under $BARETMA_SYSROOT (cpu_sysfs_resolve), so that a lab
 * comparing two runs can see why they differ.
 *
 * Sources of the files and their meaning:
 *   kernel lockdown   /sys/kernel/security/lockdown, "none [integrity]
 *                     confidentiality": the bracketed word is the mode
 *                     (linux security/lockdown/lockdown.c lockdown_read);
 *                     integrity and above forbid MSR writes (msr.c
 *                     msr_write: security_locked_down(LOCKDOWN_MSR)).
 *   msr module        /sys/module/msr exists when loaded or built in;
 *                     /sys/module/msr/parameters/allow_writes "on", "off"
 *                     or "default" (linux arch/x86/kernel/msr.c).
 *   rdpmc             cpu_env_rdpmc below (linux arch/x86/events/core.c).
 *   NMI watchdog      /proc/sys/kernel/nmi_watchdog (1 holds a counter:
 *                     linux kernel/watchdog_perf.c).
 *   SMT               /sys/devices/system/cpu/smt/control ("on", "off",
 *                     "forceoff", "notsupported", "notimplemented") and
 *                     .../smt/active (Documentation/ABI/testing/sysfs-devices-system-cpu).
 *   frequency         /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor
 *                     and scaling_driver; turbo from
 *                     /sys/devices/system/cpu/intel_pstate/no_turbo (1 =
 *                     turbo off) or /sys/devices/system/cpu/cpufreq/boost
 *                     (1 = boost on) (Documentation/admin-guide/pm/intel_pstate.rst,
 *                     cpufreq.rst).
 *   isolation         /sys/devices/system/cpu/isolated and .../nohz_full
 *                     (CPU lists; sysfs-devices-system-cpu).
 *   microcode         /sys/devices/system/cpu/cpuN/microcode/version (hex),
 *                     else the "microcode" line of CPU N in /proc/cpuinfo.
 *   core PMU          /sys/bus/event_source/devices/cpu (cpu_core on hybrid
 *                     kernels): the kernel's x86 PMU driver registered.
 *   kernel            /proc/sys/kernel/osrelease.
 *   kernel's hypervisor  the hypervisor the running kernel detected, in its
 *                     own words: /sys/hypervisor/type ("xen": Xen's
 *                     driver, Documentation/ABI/stable/sysfs-hypervisor-xen),
 *                     else the kernel log's boot record "Hypervisor
 *                     detected: NAME" (linux arch/x86/kernel/cpu/hypervisor.c
 *                     init_hypervisor_platform; NAME is the hypervisor_x86
 *                     .name: "KVM", "Microsoft Hyper-V", "VMware", "Xen HVM",
 *                     ...) read from /dev/kmsg (Documentation/ABI/testing/
 *                     dev-kmsg; reading consumes nothing).  CPUID.40000000H
 *                     (cpu_host) is the hypervisor's signature; the kernel
 *                     scans further (0x40000100 ...: asm/processor.h
 *                     hypervisor_cpuid_base), so the two may differ.
 */
#ifndef BARETMA_ENVIRON_H
#define BARETMA_ENVIRON_H

#include <stdbool.h>
#include <stddef.h>

/* A CPU list of the kernel's (isolated, nohz_full) whole for any CPUs baretma
 * handles: the longest of CPUs 0..CPU_MAX_CPUS-1 is every other one,
 * "0,2,...,1022", 2005 bytes; one naming CPUs beyond ends in "..." at a
 * comma (cut visibly). */
#define CPU_ENV_LIST_MAX 2048

/* A string field is "" when the file is absent or unreadable (unknown); an
 * int field is -1 then. */
struct cpu_env {
	char kernel[96];          /* osrelease, e.g. "6.1.0-18-amd64" */
	char lockdown[24];        /* "none", "integrity", "confidentiality" */
	int msr_module;           /* 1 loaded or built in, 0 not loaded, -1 unknown */
	char msr_allow_writes[16];/* "on", "off", "default" */
	int rdpmc;                /* 0, 1, 2 (perf rdpmc sysfs), -1 unknown/no core PMU */
	int nmi_watchdog;         /* 0 or 1 */
	char smt_control[24];
	int smt_active;           /* 0 or 1 */
	char governor[32];        /* scaling_governor of the CPU asked for */
	char freq_driver[32];     /* scaling_driver of that CPU */
	int turbo;                /* 1 on, 0 off, -1 unknown */
	char isolated[CPU_ENV_LIST_MAX]; /* CPU list, may be "" when none isolated */
	bool isolated_known;
	char nohz_full[CPU_ENV_LIST_MAX];
	bool nohz_full_known;
	char microcode[24];       /* e.g. "0x2b000603" (sysfs, else /proc/cpuinfo) */
	char hv_kernel[32];       /* the hypervisor the kernel detected, as it names it
				   * (cpu_env_hv_kernel), "" unknown */
	const char *hv_kernel_source; /* where hv_kernel was read (static text), NULL
				   * when unknown */
	int core_pmu;             /* 1: the kernel registered a core PMU driver
				   * (/sys/bus/event_source/devices/cpu or cpu_core
				   * exists), 0: none (e.g. a VM without a virtual
				   * PMU), -1 unknown */
};

/*
 * cpu_env_read - fill @e for OS CPU @cpu (its governor, driver and
 * microcode).  Reads only.  Always succeeds: what cannot be read is
 * unknown ("" or -1).
 */
void cpu_env_read(unsigned cpu, struct cpu_env *e);

/*
 * cpu_env_rdpmc - the perf "rdpmc" sysfs setting (0 never, 1 while a
 * perf event is mmapped, 2 always; linux arch/x86/events/core.c
 * set_attr_rdpmc, x86_pmu_event_mapped), read from
 * <sysroot>/sys/bus/event_source/devices/cpu/rdpmc, else cpu_core/rdpmc.
 * Returns the value (0..2), or -ENOENT when neither file exists (no core
 * PMU driver: e.g. a VM without a virtual PMU), or -errno.
 */
int cpu_env_rdpmc(void);

/* Caps on the kernel log read for its "Hypervisor detected" record, which is
 * among the first of every boot (printed from setup_arch): lines looked at,
 * and bytes (a log_buf_len=32M log, or a sysroot's file, is not read whole). */
#define HV_KMSG_MAX_RECORDS 4096
#define HV_KMSG_MAX_BYTES   (1u << 20)

/*
 * cpu_env_hv_kernel - the hypervisor the running kernel detected, into
 * @name (@n bytes), and in *@source where it was read (static text):
 * <sysroot>/sys/hypervisor/type, else the "Hypervisor detected: NAME"
 * record among the first HV_KMSG_MAX_RECORDS lines of <sysroot>/dev/kmsg
 * (read with O_NONBLOCK: the end of the log is no wait).  Reads only.
 * Returns 0, or -ENOENT (@name "", *@source NULL) when neither says: bare
 * metal, a log that has lost its first records, or no right to read it
 * (dmesg_restrict without CAP_SYSLOG); -EINVAL when @n is 0.
 */
int cpu_env_hv_kernel(char *name, size_t n, const char **source);

/*
 * cpu_kmsg_hypervisor - is @line one /dev/kmsg record "PRIO,SEQ,TIME,FLAGS;
 * Hypervisor detected: NAME" of the kernel's own facility (0: a record user
 * space wrote is LOG_USER, kernel/printk/printk.c devkmsg_write)?  Then
 * NAME, trailing spaces cut, into @name (@n bytes) and true.  Pure.
 */
bool cpu_kmsg_hypervisor(const char *line, char *name, size_t n);

/*
 * cpu_env_lockdown_blocks_msr - true when the lockdown mode forbids MSR
 * writes (integrity or confidentiality; linux msr.c msr_write checks
 * LOCKDOWN_MSR, which both modes include).
 */
bool cpu_env_lockdown_blocks_msr(const struct cpu_env *e);

#endif
