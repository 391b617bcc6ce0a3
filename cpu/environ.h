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
 *                     or "default" (arch/x86/kernel/msr.c, pmu-reference §4).
 *   rdpmc             cpu_env_rdpmc below (pmu-reference §3.6).
 *   NMI watchdog      /proc/sys/kernel/nmi_watchdog (1 holds a counter:
 *                     pmu-reference §5.1).
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
 */
#ifndef BARETMA_ENVIRON_H
#define BARETMA_ENVIRON_H

#include <stdbool.h>

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
 * perf event is mmapped, 2 always; pmu-reference §3.6), read from
 * <sysroot>/sys/bus/event_source/devices/cpu/rdpmc, else cpu_core/rdpmc.
 * Returns the value (0..2), or -ENOENT when neither file exists (no core
 * PMU driver: e.g. a VM without a virtual PMU), or -errno.
 */
int cpu_env_rdpmc(void);

/*
 * cpu_env_lockdown_blocks_msr - true when the lockdown mode forbids MSR
 * writes (integrity or confidentiality; linux msr.c msr_write checks
 * LOCKDOWN_MSR, which both modes include).
 */
bool cpu_env_lockdown_blocks_msr(const struct cpu_env *e);

#endif
