/*
 * bench/source/perf_pmu.h - the core PMU as sysfs describes it to perf, for the
 * kernel implementation of bench/source/perf_group.h (bench/source/perf_group.c): which
 * PMU (`cpu`, or `cpu_core` on hybrid parts), its perf_event_attr.type,
 * the configs of `slots` and the `topdown-*` events from its events/ and
 * format/ directories, whether a CPU is one of its CPUs, and what
 * kernel.perf_event_paranoid allows.  Everything is read under the sysroot
 * (cpu/sysfs.c, $BARETMA_SYSROOT).  Internal to bench/; no system call but
 * reading files.
 * Sources: linux Documentation/ABI/testing/sysfs-bus-event_source-devices-
 * {events,format}, arch/x86/events/intel/core.c (the event strings and
 * formats), arch/x86/include/asm/perf_event.h INTEL_TD_*.
 */
#ifndef BARETMA_PERF_PMU_H
#define BARETMA_PERF_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/source/perf_group.h"

/* Where perf's PMUs are listed (as on the machine). */
#define PERF_PMU_DEVICES "/sys/bus/event_source/devices"

/* The core PMU, as found and read by perf_pmu_find. */
struct perf_pmu {
	const char *name;            /* "cpu", "cpu_core", "cpu_atom"*/
	const char *dir;             /* its directory as on the machine (cpu/knobs.h) */
	uint32_t type;               /* perf_event_attr.type, from the `type` file */
	uint64_t slots;              /* config of `slots` */
	uint64_t td[PERF_TD_NODES];  /* configs of the members, IA32_PERF_METRICS byte order */
	unsigned ntd;                /* members found: 4 (level 1) or 8 (level 2) */
};

/*
 * perf_pmu_find - find and read the core PMU for @spec: `cpu_core` when
 * that directory exists (a hybrid part: then @spec->cpu must be in its
 * `cpus` list, an E-core has no PERF_METRICS: intel_pmu_init), else
 * `cpu`; its type; `slots` and the 4 (level 1) or 8 (level 2) members
 * from events/.  For a raw group (@spec->nraw): the PMU and its type only,
 * on a hybrid part cpu_core when its `cpus` lists @spec->cpu, else
 * cpu_atom.  On failure @why (@n bytes) gets one line.
 * Returns 0, -ENOENT (no such PMU directory: the caller may add what a
 * hardware event gives), -EOPNOTSUPP (no slots event, a member or the
 * level-2 events not listed, a CPU not of this PMU, a term perf_pmu_event
 * cannot encode), -EINVAL (@spec, a file that does not parse), -errno of
 * reading.
 */
int perf_pmu_find(const struct perf_group_spec *spec, struct perf_pmu *p, char *why, size_t n);

/*
 * perf_pmu_encode - the config of the event string @terms ("event=0x00,
 * umask=0x4": comma-separated name=value, a bare name meaning 1) through
 * the formats of @p's format/ directory ("config:0-7", "config:8-15",
 * "config:0-7,32-35": the value's bits fill the ranges low first).  With
 * no format/ file for `event` or `umask`, the core PMU's own formats
 * (config:0-7 and config:8-15, arch/x86/events/intel/core.c
 * PMU_FORMAT_ATTR).  Returns 0 and sets @config, -EOPNOTSUPP for a term
 * with no format or one in config1/config2, -ERANGE for a value wider than
 * its field, -EINVAL for text that does not parse; @why says which.
 */
int perf_pmu_encode(const struct perf_pmu *p, const char *terms, uint64_t *config,
		    char *why, size_t n);

/*
 * perf_pmu_cpu_listed - whether @cpu is in the kernel's CPU list @list
 * ("0-15", "0,2,4-7"; Documentation/ABI/testing/sysfs-devices-system-cpu).
 * Returns 1, 0, or -EINVAL for a list that does not parse.  Pure.
 */
int perf_pmu_cpu_listed(const char *list, unsigned cpu);

/*
 * perf_pmu_paranoid_why - @why (@n bytes) after perf_event_open of @what
 * failed with @err (-EACCES or -EPERM): the value of
 * kernel.perf_event_paranoid, what it allows a user without CAP_PERFMON
 * for this group (the calling thread on one CPU, kernel and user or
 * @user_only), and the remedy.
 */
void perf_pmu_paranoid_why(int err, const char *what, bool user_only, char *why, size_t n);

/* perf_pmu_why - printf @fmt into @why (@n bytes, may be 0); returns @err. */
__attribute__((format(printf, 4, 5)))
int perf_pmu_why(char *why, size_t n, int err, const char *fmt, ...);

/* perf_pmu_errno_name - "ENOENT", "EACCES", ... for @err (> 0), else
 * "errno N" in a static buffer. */
const char *perf_pmu_errno_name(int err);

#endif
