/*
 * cpu/machine.h - "which machine": one object, built once by the command
 * line from --cpuid-dump / $BARETMA_CPUID_DUMP and handed to every command,
 * holding two machines that must never be mixed:
 *
 *  - the machine DESCRIBED: the live machine, or the one a CPUID dump was
 *    taken on.  Its CPUID (cpu_source), its logical CPUs and its topology
 *    decide which CPU numbers exist, which one is chosen and which --cpu is
 *    valid: a hwloc-gather-cpuid directory has a real topology (hwloc's x86
 *    backend builds it, cpu_topo_load_dump); a single-file dump (libcpuid
 *    raw, AIDA64, `baretma cpuid dump` output) has no topology, only its
 *    list of CPUs (the CPUs it holds CPUID records for).
 *  - the machine WE RUN ON: always live.  Its hypervisor and virtual PMU
 *    (CPUID of the CPU executing), its environment preflight (/sys, /proc:
 *    cpu/environ.h) and pinning.  A dump never pins: its CPU numbers are
 *    another machine's.
 *
 * Library code: never prints, never exits; 0 or -errno.  Reads the
 * environment, never writes it: a hwloc directory's topology needs the
 * caller to set cpu_topo_dump_env() first (cpu/cpu_topo.h).
 */
#ifndef BARETMA_MACHINE_H
#define BARETMA_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>

#include "cpu/cpu_topo.h"

struct cpu_env;
struct cpu_machine; /* opaque */

/* The machine baretma runs on, as the environment preflight needs it. */
struct cpu_host {
	enum cpu_vendor vendor;  /* CPUID.0:EBX,EDX,ECX vendor string */
	const char *hypervisor;  /* CPUID.40000000H signature name (e.g. "KVM",
				  * "unknown"), NULL on bare metal
				  * (CPUID.1:ECX[31] clear) */
	char hypervisor_sig[CPU_HV_SIG_LEN]; /* that signature, "" on bare metal */
	unsigned pmu_version;    /* Intel: CPUID.0AH:EAX[7:0] (0 = no architectural
				  * PMU, e.g. no virtual PMU); 0 on other vendors,
				  * where leaf 0xA is not read (cpu/cpu_identify.c) */
};

/*
 * cpu_host_read - the CPUID facts of the machine baretma runs on, executed
 * on the calling thread (vendor, hypervisor and PMU version are the same on
 * every CPU of a machine, so no pinning).  Always succeeds.
 */
void cpu_host_read(struct cpu_host *h);

/*
 * cpu_machine_open - the machine described by the CPUID dump @dump (a file
 * or a hwloc-gather-cpuid directory), or by the live machine when @dump is
 * NULL; with the machine we run on beside it (cpu_host_read).  Loads the
 * described machine's topology: the live machine's (cpu_topo_load, which
 * honours $HWLOC_CPUID_PATH), a hwloc directory's (cpu_topo_load_dump,
 * which needs the environment of cpu_topo_dump_env(@dump): without it, or
 * for a directory hwloc's x86 backend refuses, the directory is described
 * by its CPU list), or none for a single-file dump.  The caller decides
 * @dump (the command line reads $BARETMA_CPUID_DUMP); nothing here reads it.
 * On failure *@err (on the heap, replaced; free() it; @err may be NULL)
 * says what failed, whole: the dump
 * reader's detail (cpu_source_error(), e.g. "line 12: ..."), the live
 * topology ("hwloc could not build the topology: ..."), or the refused
 * hwloc variable with its remedy (cpu_hwloc_env_check).
 * Returns 0 and *@out (free with cpu_machine_free), or -errno: those of
 * cpu_source_dump() (-ENOENT, -EACCES, -EINVAL, -ENOMEM), of the live
 * topology load (cpu_topo_load), -EPERM (cpu_hwloc_env_check refuses the
 * environment, live or dump directory), -ENOMEM.
 */
int cpu_machine_open(const char *dump, struct cpu_machine **out, char **err);
void cpu_machine_free(struct cpu_machine *m);

/* ------------------------------------------------- the machine described */

/* The described machine is a CPUID dump (another machine, or this one at
 * another time): its CPUs are never pinned to, its MSRs never reached
 * through this machine's device. */
bool cpu_machine_is_dump(const struct cpu_machine *m);

/* The dump's path, or "this machine" when live. */
const char *cpu_machine_name(const struct cpu_machine *m);

/* The described machine's CPUID: identify with cpu_info_identify(). */
const struct cpu_source *cpu_machine_source(const struct cpu_machine *m);

/* The described machine's hwloc topology, or NULL (a single-file dump has
 * none).  Owned by @m. */
hwloc_topology_t cpu_machine_topo(const struct cpu_machine *m);

/*
 * cpu_machine_cpus - the described machine's logical CPUs, ascending: a
 * dump's, the CPUs it holds CPUID leaf 0 for; live, the configured CPUs
 * that are online (<root>/sys/devices/system/cpu/online under
 * $BARETMA_SYSROOT; every configured CPU when that list is unreadable).
 * Stores at most @max; returns how many there are.
 */
unsigned cpu_machine_cpus(const struct cpu_machine *m, unsigned *cpus, unsigned max);

/*
 * cpu_machine_check_cpu - is OS CPU @cpu one of the described machine's
 * (cpu_machine_cpus)?  Returns 0; -ENXIO (no such CPU: not in the dump, or
 * beyond the live machine's configured CPUs); -ENODEV (live only: the CPU
 * exists but is offline).
 */
int cpu_machine_check_cpu(const struct cpu_machine *m, unsigned cpu);

/*
 * cpu_machine_choose - the CPU to measure on, among the described machine's:
 * live and hwloc dumps, cpu_choose() on the topology (live: a requested CPU
 * must also be allowed for this process, since it is pinned); a single-file
 * dump, the same rule on its CPU list (@requested: one of its CPUs, else
 * -ENXIO; otherwise the last CPU of the kind with the highest Top-down
 * level, never silently a hybrid part's E-core: -ENXIO; else its last CPU).
 * @ci (may be NULL) is the described machine's identification.
 * Returns the CPU number or -errno (-ENXIO).
 */
int cpu_machine_choose(const struct cpu_machine *m, const struct cpu_info *ci, int requested);

/*
 * cpu_machine_check_kinds - cpu_topo_check_kinds() of @ci against the
 * described machine's topology, where the two describe the same machine: a
 * hwloc dump directory, or live CPUID with this machine's topology (not
 * with $HWLOC_CPUID_PATH, nor a single-file dump, which has no topology).
 * Returns -EPROTO with the disagreement in *@why (on the heap, replaced on
 * entry: free()), or 0 (*@why NULL: they agree, or nothing to compare),
 * or -ENOMEM.
 */
int cpu_machine_check_kinds(const struct cpu_machine *m, const struct cpu_info *ci, char **why);

/* ----------------------------------------------- the machine we run on */

/* This machine's hypervisor, vendor and PMU version (cpu_host_read at open),
 * whatever machine is described. */
const struct cpu_host *cpu_machine_host(const struct cpu_machine *m);

/*
 * cpu_machine_can_pin - the chosen CPU numbers are this machine's and the
 * topology is this system's (live CPUID, no $HWLOC_CPUID_PATH): false for
 * every dump (a dry run never pins).
 */
bool cpu_machine_can_pin(const struct cpu_machine *m);

/*
 * cpu_machine_pin - cpu_pin_self() of the calling thread to @cpu.
 * Returns 0 or -errno; -EXDEV, binding nothing, when !cpu_machine_can_pin.
 */
int cpu_machine_pin(const struct cpu_machine *m, unsigned cpu, bool *membind_ok);

/*
 * cpu_machine_binding_save / _restore - cpu_binding_save and
 * cpu_binding_restore (cpu/cpu_topo.h) on @m's topology: the calling thread's
 * binding before cpu_machine_pin, and back.  -EXDEV when
 * !cpu_machine_can_pin (nothing is ever bound there).
 */
int cpu_machine_binding_save(const struct cpu_machine *m, struct cpu_binding *b);
int cpu_machine_binding_restore(const struct cpu_machine *m, struct cpu_binding *b);

/*
 * cpu_machine_env_read - the environment preflight of the machine we run on
 * (cpu_env_read): per-CPU values (governor, driver, microcode) of @cpu when
 * the described machine is this one, else of CPU 0 (a dump's CPU numbers
 * are not this machine's; @cpu < 0 also means CPU 0).
 */
void cpu_machine_env_read(const struct cpu_machine *m, int cpu, struct cpu_env *e);

#endif
