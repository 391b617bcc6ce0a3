/*
 * cpu/knobs.h - the kernel's files that baretma reads (cpu/environ.c) and,
 * with consent, changes (msr/guard/settings.c), named once for every layer.
 * Paths are as on the machine; every read or write resolves them under the
 * sysroot (cpu/sysfs.c, $BARETMA_SYSROOT).  Includes nothing.
 */
#ifndef BARETMA_KNOBS_H
#define BARETMA_KNOBS_H

/* User-space RDPMC (CR4.PCE): 0 never, 1 while a perf event is mmapped, 2
 * always.  The knob lives on the core PMU: "cpu", or on hybrid parts
 * "cpu_core" and "cpu_atom" (linux arch/x86/events/core.c
 * set_attr_rdpmc). */
#define CPU_KNOB_RDPMC_CPU        "/sys/bus/event_source/devices/cpu/rdpmc"
#define CPU_KNOB_RDPMC_CPU_CORE   "/sys/bus/event_source/devices/cpu_core/rdpmc"
#define CPU_KNOB_RDPMC_CPU_ATOM   "/sys/bus/event_source/devices/cpu_atom/rdpmc"

/* The core PMU's directory: the kernel's perf driver is there (rdpmc
 * above; "events/slots" with PERF_METRICS). */
#define CPU_SYS_CORE_PMU          "/sys/bus/event_source/devices/cpu"
#define CPU_SYS_CORE_PMU_HYBRID   "/sys/bus/event_source/devices/cpu_core"
#define CPU_SYS_ATOM_PMU_HYBRID   "/sys/bus/event_source/devices/cpu_atom"

/* The NMI watchdog, 0 or 1: 1 holds a counter and rewrites
 * IA32_PERF_GLOBAL_CTRL under a raw tool (linux kernel/watchdog_perf.c,
 * arch/x86/events/intel/core.c intel_pmu_enable_all). */
#define CPU_KNOB_NMI_WATCHDOG     "/proc/sys/kernel/nmi_watchdog"

/* Who may use perf_event_open(2) without CAP_PERFMON: -1 anything, 0 no
 * raw tracepoints, 1 no CPU-wide events, 2 user-space counting only, 3 or
 * more (a Debian/Ubuntu patch) nothing (Documentation/admin-guide/sysctl/
 * kernel.rst "perf_event_paranoid"; perf-security.rst). */
#define CPU_KNOB_PERF_EVENT_PARANOID "/proc/sys/kernel/perf_event_paranoid"

/* The msr driver's write filter, "on", "off" or "default" (linux
 * arch/x86/kernel/msr.c filter_write), and the module itself. */
#define CPU_KNOB_MSR_ALLOW_WRITES "/sys/module/msr/parameters/allow_writes"
#define CPU_SYS_MSR_MODULE        "/sys/module/msr"

/* Kernel lockdown, "none [integrity] confidentiality": the bracketed mode
 * forbids MSR writes unless "none" (linux arch/x86/kernel/msr.c msr_write;
 * security/lockdown/lockdown.c lockdown_read). */
#define CPU_KNOB_LOCKDOWN         "/sys/kernel/security/lockdown"

/* The online CPUs, a list such as "0-3,5" (Documentation/ABI/testing/
 * sysfs-devices-system-cpu). */
#define CPU_SYS_ONLINE_CPUS       "/sys/devices/system/cpu/online"

/* The hypervisor's type where the kernel has a driver that says it: "xen"
 * (drivers/xen/sys-hypervisor.c; Documentation/ABI/stable/sysfs-hypervisor-xen). */
#define CPU_SYS_HYPERVISOR_TYPE   "/sys/hypervisor/type"

/* The kernel log, one record per read, each reader at its own position
 * (Documentation/ABI/testing/dev-kmsg): read, never consumed. */
#define CPU_KMSG                  "/dev/kmsg"

#endif
