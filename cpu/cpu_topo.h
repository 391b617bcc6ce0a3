/*
 * cpu/cpu_topo.h - topology and pinning with hwloc (cpu/cpu_topo.c,
 * cpu/hwloc_env.c): the environment hwloc may be trusted with, the
 * topology of this machine or of a hwloc-gather-cpuid directory, its
 * cross-check against CPUID's core kinds (cpu/cpu.h struct cpu_info),
 * the CPU to measure on, pinning the calling thread and putting its
 * binding back, the last-level cache.
 * Library code: never prints, never exits; 0 or -errno.
 */
#ifndef BARETMA_CPU_TOPO_H
#define BARETMA_CPU_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>

#include "cpu/cpu.h"


/*
 * cpu_hwloc_env_check - may hwloc build a topology from this process's
 * environment (cpu/hwloc_env.c)?  Refused, the first found: a non-empty
 * $HWLOC_PLUGINS_PATH (hwloc would dlopen() every "*.so" there: a
 * constructor would run as this process, root for baretma); and, when the
 * environment is not trusted (cpu/trust.h: sudo, setuid), any of hwloc's
 * variables that replace the machine it describes (HWLOC_FSROOT,
 * HWLOC_DUMPED_HWDATA_DIR, HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_THISSYSTEM).
 * $HWLOC_CPUID_PATH is never refused.  An unset HWLOC_PLUGINS_PATH passes:
 * hwloc then loads its system directory's plugins (root's own files); the
 * command line sets it empty at start so that baretma loads none at all.
 * Reads the environment, never writes it (the caller owns it: a library's
 * setenv races its host's other threads).  Every topology load in cpu/
 * calls this first: hwloc reads these at every topology init that finds
 * no other topology alive, not once per process.
 * @var receives the refused variable's name (a static string) or NULL, may
 * be NULL; @why (@n bytes, may be NULL) one line naming it, what hwloc
 * would do, and the remedy ("... (unset it)").
 * Returns 0, or -EPERM (refused).
 */
int cpu_hwloc_env_check(const char **var, char *why, size_t n);

/* One environment variable as hwloc must find it: @value NULL = unset. */
struct cpu_env_var {
	const char *name;
	const char *value;
};

#define CPU_TOPO_DUMP_ENV_MAX 5

/*
 * cpu_topo_dump_env - the environment under which hwloc builds the topology
 * of the hwloc-gather-cpuid directory @dir, as `hwloc-calc --input DIR`
 * sets it: HWLOC_CPUID_PATH=@dir, HWLOC_COMPONENTS=x86,stop, and
 * HWLOC_THISSYSTEM, HWLOC_XMLFILE, HWLOC_SYNTHETIC unset.  hwloc 2.9 takes
 * a CPUID dump directory from its environment only (topology-x86.c,
 * hwloc_x86_component_instantiate: getenv("HWLOC_CPUID_PATH"); no
 * hwloc_topology_set_* call names one), and the library never writes the
 * environment: the process that owns it sets these before
 * cpu_topo_load_dump (the command line does, single-threaded, around
 * cpu_machine_open; a harness before it starts threads) and may put them
 * back after the load.  Fills @vars (CPU_TOPO_DUMP_ENV_MAX entries);
 * returns the count.  Pure.
 */
size_t cpu_topo_dump_env(const char *dir, struct cpu_env_var vars[CPU_TOPO_DUMP_ENV_MAX]);

/* cpu_topo_dump_env_check - the environment is cpu_topo_dump_env(@dir)'s:
 * 0, else -EINVAL.  Reads only. */
int cpu_topo_dump_env_check(const char *dir);

/*
 * cpu_topo_load - load the hwloc topology of this machine (or of the dump
 * directory in $HWLOC_CPUID_PATH, hwloc's own variable).  Refuses an
 * environment that would make hwloc load a plugin or, untrusted, describe
 * another machine (cpu_hwloc_env_check: -EPERM, the environment left as
 * it is).  Returns 0 or -errno.
 */
int cpu_topo_load(hwloc_topology_t *topo);

/*
 * cpu_topo_load_dump - the hwloc topology of a hwloc-gather-cpuid directory
 * @dir ("hwloc-cpuid-info" saying "Architecture: x86", one puN file per
 * logical CPU, N contiguous from 0): built by hwloc's x86 backend alone from
 * the dumped CPUID, like `hwloc-calc --input DIR` does.  hwloc reads the
 * directory from its environment only, and this library never writes the
 * environment: the caller sets cpu_topo_dump_env(@dir) first (-EINVAL
 * otherwise, nothing loaded).  Refuses what cpu_hwloc_env_check refuses
 * (-EPERM).
 * Packages, cores, PUs and CPU kinds (info "CoreType" = IntelCore /
 * IntelAtom) are the dumped machine's; PU os_index N is file puN.
 * The topology is not this system (hwloc_topology_is_thissystem() == 0,
 * checked after the load): cpu_pin_self() refuses it.
 * Returns 0 or -errno: -ENOENT, -ENOTDIR, -EACCES (cannot read @dir),
 * -EINVAL (not a hwloc x86 CPUID directory, the environment is not
 * cpu_topo_dump_env(@dir)'s, or hwloc ignored the directory), -EPERM
 * (cpu_hwloc_env_check), -ENOMEM.  Never prints (hwloc's own complaints are avoided by checking
 * the directory first).
 */
int cpu_topo_load_dump(const char *dir, hwloc_topology_t *topo);

/*
 * cpu_topo_load_for - the topology that goes with @src: for a dump that is a
 * hwloc-gather-cpuid directory, that machine's (cpu_topo_load_dump); for the
 * live machine and for single-file dumps (libcpuid, AIDA64: they hold no
 * topology), this machine's (cpu_topo_load).  Returns 0 or -errno as those.
 */
int cpu_topo_load_for(const struct cpu_source *src, hwloc_topology_t *topo);

/* cpu_topo_is_dump - @topo is not this machine's (built from a CPUID dump):
 * choose CPUs in it, never bind to them. */
bool cpu_topo_is_dump(hwloc_topology_t topo);

/*
 * cpu_topo_check_kinds - cross-check @ci's core kinds (CPUID.1AH, or one
 * "general" kind) against hwloc's CPU kinds (hwloc_cpukinds_get_info), at
 * the granularity hwloc's x86 backend has: the core type (its "CoreType"
 * info is IntelCore or IntelAtom; it does not look at the native model id,
 * so ARL-H's "efficiency" and "lowpower" kinds are one IntelAtom kind to
 * it).  Agreement (returns 0): every hwloc kind lies within the CPUs of
 * one core type of @ci, its CoreType (if any) is that type (0x40/0x20),
 * and the hwloc kinds within each core type cover exactly its CPUs (CPUs
 * outside hwloc's topology ignored), and, where hwloc could rank its kinds
 * (efficiency >= 0: 0 the most energy-efficient, higher more performant),
 * every kind within the Core CPUs ranks above every kind within the Atom
 * CPUs.  hwloc may split a core type further (the Linux backend separates
 * favoured cores by FrequencyMaxMHz / cpu_capacity), or merge kinds of one
 * core type: still 0, with a note in @why.  hwloc having no kinds is
 * agreement on a part with one kind, and nothing to compare on a hybrid
 * part (a kernel or hwloc too old to tell the kinds: CPUID.1AH decides):
 * 0, *@why NULL.  Returns 0 (*@why: NULL or the note), -EPROTO with a
 * description in *@why (e.g. "hwloc CPU kind #0 (CoreType IntelAtom, cpus
 * 12-19) is not within one core kind of CPUID (leaf 0x1A)", "hwloc ranks
 * the efficiency kind (cpus 12-19, efficiency 1) at or above the
 * performance kind (cpus 0-11, efficiency 0), ..."), or -errno from hwloc
 * (-ENOMEM).  *@why is on the heap (its CPU lists whole, however many
 * ranges: hwloc_bitmap_list_asprintf), replaced (freed) on entry; free it
 * with free().  @why may be NULL.
 */
int cpu_topo_check_kinds(hwloc_topology_t topo, const struct cpu_info *ci, char **why);

/*
 * cpu_topdown_cpus - the OS CPUs (ascending) of every kind of @ci with
 * IA32_PERF_METRICS (topdown_level > 0): the CPUs that can measure Top-down.
 * Stores at most @max; returns how many there are (may exceed @max).
 */
unsigned cpu_topdown_cpus(const struct cpu_info *ci, unsigned *cpus, unsigned max);

/*
 * cpu_topdown_check_cpu - may OS CPU @cpu be used when Top-down is wanted?
 * Returns 0 when its kind has PERF_METRICS, or when no kind of @ci has
 * (then there is nothing better to offer: the availability checks say
 * why); -EOPNOTSUPP when its kind has none while another kind has (a
 * hybrid part's E-core: E-cores never have IA32_PERF_METRICS,
 * no intel_pmu_init case sets it for cpu_atom); -ENXIO when @cpu is in no kind (not a CPU of
 * @ci, or offline).  @kind (may be NULL) receives @cpu's kind, NULL if none.
 */
int cpu_topdown_check_cpu(const struct cpu_info *ci, unsigned cpu, const struct cpu_kind **kind);

/*
 * cpu_info_best_kind - the kind of @ci that a measurement should use: the
 * highest topdown_level; on ties (and all-zero levels, e.g. in a VM) the
 * higher core type (the P-core kind of a hybrid part).  NULL without kinds.
 */
const struct cpu_kind *cpu_info_best_kind(const struct cpu_info *ci);

/*
 * cpu_choose - the OS CPU to measure on.  @requested >= 0: validate it
 * (exists in the topology and is allowed: -ENXIO otherwise; whether its
 * kind suits Top-down is cpu_topdown_check_cpu's question).  @requested < 0:
 * pick the last CPU of a kind with the highest topdown_level (on hybrid
 * parts a P-core by @ci's kinds, CPUID.1AH: hwloc's most performant CPU
 * kind only narrows the choice among them, and is ignored when it holds
 * none of them (cpu_topo_check_kinds says so); never silently an E-core:
 * -ENXIO when no CPU of that kind is allowed), falling back on
 * non-hybrid parts to the last allowed CPU (the first is usually busy
 * with interrupts).  Works on a dump topology too (cpu_topo_load_dump):
 * there every CPU of the dump is allowed.  @ci may be NULL.
 * Returns the CPU number or -errno.
 */
int cpu_choose(hwloc_topology_t topo, const struct cpu_info *ci, int requested);

/*
 * cpu_pin_self - bind the calling thread strictly to @cpu and its memory to
 * the NUMA node of @cpu (hwloc_set_cpubind THREAD|STRICT, hwloc_set_membind
 * BIND|THREAD; a failing membind is not fatal: it is reported through
 * @membind_ok).  Verifies with sched_getcpu().  Returns 0 or -errno;
 * -EXDEV, binding nothing, when @topo is not this system (cpu_topo_is_dump:
 * its CPU numbers belong to another machine).
 */
int cpu_pin_self(hwloc_topology_t topo, unsigned cpu, bool *membind_ok);

/*
 * struct cpu_binding - the calling thread's CPU binding and memory policy
 * as they were (hwloc_get_cpubind / hwloc_get_membind, THREAD), to be put
 * back after cpu_pin_self: a library that pins a harness's thread for a
 * session leaves it as it found it (a thread created later inherits the
 * binding of its creator: sched_setaffinity(2)).
 */
struct cpu_binding {
	hwloc_bitmap_t cpuset;           /* NULL: nothing saved */
	hwloc_bitmap_t nodeset;          /* NULL: the memory policy not saved */
	hwloc_membind_policy_t policy;
};

/*
 * cpu_binding_save - @b = the calling thread's binding on @topo (this
 * system's).  Returns 0, -ENOMEM, or -errno of hwloc_get_cpubind (then
 * @b holds nothing).  The memory policy is saved where hwloc can read it;
 * where it cannot (no NUMA support), only the CPUs are.
 */
int cpu_binding_save(hwloc_topology_t topo, struct cpu_binding *b);

/*
 * cpu_binding_restore - bind the calling thread back to @b's CPUs and
 * memory policy, then free @b (it holds nothing after).  Returns 0, or
 * -errno of hwloc_set_cpubind (the memory policy's failure is not
 * reported: cpu_pin_self's membind is best-effort too).  @b empty: 0.
 */
int cpu_binding_restore(hwloc_topology_t topo, struct cpu_binding *b);

/*
 * cpu_llc_bytes - size of the largest cache above @cpu in bytes, from hwloc
 * (0 when hwloc knows none, or @topo is NULL: a dump without topology).
 */
uint64_t cpu_llc_bytes(hwloc_topology_t topo, unsigned cpu);

#endif
