/*
 * cpu/machine.c - the machine described (live or a CPUID dump) and the
 * machine we run on (always live), in one object: cpu/machine.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/environ.h"
#include "cpu/knobs.h"
#include "cpu/machine.h"
#include "cpu/text.h"

#define LEAF_VENDOR         0x0u
#define LEAF_FEATURES       0x1u
#define CPUID_1_ECX_HV      (1u << 31)   /* SDM Vol. 2A: "not used" = hypervisor present */
#define LEAF_ARCH_PERFMON   0xau         /* linux perf_event.h union cpuid10_* */
#define LEAF_HV_VENDOR      0x40000000u  /* hypervisor signature (linux hypervisor.c) */
#define WORDS               (CPU_MAX_CPUS / 64)

struct cpu_machine {
	struct cpu_source *src;  /* the machine described */
	hwloc_topology_t topo;   /* its topology; NULL for a single-file dump */
	uint64_t cpus[WORDS];    /* its logical CPUs (cpu_machine_cpus) */
	unsigned nconf;          /* live: configured CPUs (beyond them: no such CPU) */
	struct cpu_host host;    /* the machine we run on */
};

/* ------------------------------------------------------------ this host */

void cpu_host_read(struct cpu_host *h)
{
	uint32_t r[4], max;
	char vendor[13];

	memset(h, 0, sizeof(*h));
	cpu_host_cpuid(LEAF_VENDOR, 0, r);
	max = r[0];
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = '\0';
	h->vendor = cpu_vendor_of(vendor);
	cpu_host_cpuid(LEAF_FEATURES, 0, r);
	if (r[2] & CPUID_1_ECX_HV) {
		cpu_host_cpuid(LEAF_HV_VENDOR, 0, r);
		h->hypervisor = cpu_hypervisor_name(r);
		cpu_hypervisor_signature(r, h->hypervisor_sig);
	}
	if (h->vendor == CPU_VENDOR_INTEL && max >= LEAF_ARCH_PERFMON) {
		cpu_host_cpuid(LEAF_ARCH_PERFMON, 0, r);
		h->pmu_version = r[0] & 0xffu; /* EAX[7:0] */
	}
}

/* --------------------------------------------------------------- open */

static void cpu_set(struct cpu_machine *m, unsigned cpu)
{
	m->cpus[cpu / 64] |= 1ull << (cpu % 64);
}

static bool cpu_has(const struct cpu_machine *m, unsigned cpu)
{
	return cpu < CPU_MAX_CPUS && (m->cpus[cpu / 64] >> (cpu % 64) & 1);
}

/* A dump's CPUs: those it holds leaf 0 for (a gap is no CPU). */
static void cpus_of_dump(struct cpu_machine *m)
{
	unsigned n = cpu_source_ncpus(m->src);
	uint32_t r[4];

	for (unsigned cpu = 0; cpu < n && cpu < CPU_MAX_CPUS; cpu++)
		if (!cpu_source_cpuid(m->src, cpu, LEAF_VENDOR, 0, r))
			cpu_set(m, cpu);
}

/* Live: the configured CPUs that the kernel's online list names (all of
 * them when the list cannot be read). */
static int cpus_of_live(struct cpu_machine *m)
{
	hwloc_bitmap_t online = hwloc_bitmap_alloc();
	char list[4096];
	bool known;

	if (!online)
		return -ENOMEM;
	m->nconf = cpu_source_ncpus(m->src);
	known = !cpu_sysfs_read_line(CPU_SYS_ONLINE_CPUS, list, sizeof(list)) &&
		hwloc_bitmap_list_sscanf(online, list) == 0;
	for (unsigned cpu = 0; cpu < m->nconf; cpu++)
		if (!known || hwloc_bitmap_isset(online, cpu))
			cpu_set(m, cpu);
	hwloc_bitmap_free(online);
	return 0;
}

/* The live machine's topology (needed: bench pins with it), a hwloc
 * directory's when hwloc's x86 backend can build one (baretma's reader is
 * more lenient, e.g. without the hwloc-cpuid-info summary; and hwloc needs
 * the directory in its environment, cpu_topo_dump_env: else the directory
 * is described by its CPU list, like a single-file dump).  An environment
 * cpu_hwloc_env_check refuses fails the open, with its message. */
static int load_topology(struct cpu_machine *m, char **err)
{
	char why[400]; /* fixed: cpu_hwloc_env_check's longest, 150 bytes, a name and trust[160] */
	int rc = 0;

	if (cpu_source_is_live(m->src))
		rc = cpu_topo_load(&m->topo);
	else if (cpu_source_is_hwloc_dir(m->src) &&
		 (rc = cpu_topo_load_dump(cpu_source_name(m->src), &m->topo)) != -EPERM)
		rc = 0;
	if (rc == -EPERM) {
		cpu_hwloc_env_check(NULL, why, sizeof(why));
		text_setf(err, "%s", why);
	} else if (rc) {
		text_setf(err, "hwloc could not build the topology: %s", strerror(-rc));
	}
	return rc; /* on failure m->topo stays NULL (calloc) */
}

int cpu_machine_open(const char *dump, struct cpu_machine **out, char **err)
{
	struct cpu_machine *m = calloc(1, sizeof(*m));
	char *scratch = NULL;
	int rc;

	if (!err)
		err = &scratch;
	*out = NULL;
	if (!m) {
		if (err != &scratch)
			text_setf(err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	m->src = dump ? cpu_source_dump(dump) : cpu_source_live();
	if (!m->src) {
		rc = errno ? -errno : -ENOMEM;
		text_setf(err, "%s", *cpu_source_error() && dump ? cpu_source_error() : strerror(-rc));
		goto fail;
	}
	if (dump)
		cpus_of_dump(m);
	else if ((rc = cpus_of_live(m))) {
		text_setf(err, "%s", strerror(-rc));
		goto fail;
	}
	if ((rc = load_topology(m, err)))
		goto fail;
	cpu_host_read(&m->host);
	*out = m;
	return 0;
fail:
	free(scratch);
	cpu_machine_free(m);
	return rc;
}

void cpu_machine_free(struct cpu_machine *m)
{
	if (!m)
		return;
	if (m->topo)
		hwloc_topology_destroy(m->topo);
	cpu_source_free(m->src);
	free(m);
}

/* ------------------------------------------------ the machine described */

bool cpu_machine_is_dump(const struct cpu_machine *m)
{
	return !cpu_source_is_live(m->src);
}

const char *cpu_machine_name(const struct cpu_machine *m)
{
	return cpu_machine_is_dump(m) ? cpu_source_name(m->src) : "this machine";
}

const struct cpu_source *cpu_machine_source(const struct cpu_machine *m)
{
	return m->src;
}

hwloc_topology_t cpu_machine_topo(const struct cpu_machine *m)
{
	return m->topo;
}

unsigned cpu_machine_cpus(const struct cpu_machine *m, unsigned *cpus, unsigned max)
{
	unsigned n = 0;

	for (unsigned cpu = 0; cpu < CPU_MAX_CPUS; cpu++)
		if (cpu_has(m, cpu)) {
			if (n < max)
				cpus[n] = cpu;
			n++;
		}
	return n;
}

int cpu_machine_check_cpu(const struct cpu_machine *m, unsigned cpu)
{
	if (cpu_has(m, cpu))
		return 0;
	/* live: configured but not in the online list */
	return !cpu_machine_is_dump(m) && cpu < m->nconf ? -ENODEV : -ENXIO;
}

/* A single-file dump: cpu_choose's rule on the dump's own CPU list. */
static int choose_in_list(const struct cpu_machine *m, const struct cpu_info *ci, int requested)
{
	const struct cpu_kind *k = ci ? cpu_info_best_kind(ci) : NULL;

	if (requested >= 0)
		return cpu_has(m, (unsigned)requested) ? requested : -ENXIO;
	for (unsigned j = k ? k->ncpus : 0; j-- > 0;)
		if (cpu_has(m, k->cpus[j]))
			return (int)k->cpus[j];
	if (k && ci->hybrid)
		return -ENXIO; /* never silently an E-core */
	for (unsigned cpu = CPU_MAX_CPUS; cpu-- > 0;)
		if (cpu_has(m, cpu))
			return (int)cpu;
	return -ENXIO;
}

int cpu_machine_choose(const struct cpu_machine *m, const struct cpu_info *ci, int requested)
{
	if (requested >= CPU_MAX_CPUS)
		return -ENXIO;
	if (!m->topo)
		return choose_in_list(m, ci, requested);
	return cpu_choose(m->topo, ci, requested);
}

int cpu_machine_check_kinds(const struct cpu_machine *m, const struct cpu_info *ci, char **why)
{
	int rc;

	if (why) {
		free(*why);
		*why = NULL;
	}
	/* Comparable only when the topology is the described machine's own:
	 * not live CPUID beside $HWLOC_CPUID_PATH's topology. */
	if (!m->topo || (!cpu_machine_is_dump(m) && cpu_topo_is_dump(m->topo)))
		return 0;
	rc = cpu_topo_check_kinds(m->topo, ci, why);
	if (rc != -EPROTO && why) { /* a note only: no disagreement */
		free(*why);
		*why = NULL;
	}
	return rc == -EPROTO || rc == -ENOMEM ? rc : 0;
}

/* ------------------------------------------------ the machine we run on */

const struct cpu_host *cpu_machine_host(const struct cpu_machine *m)
{
	return &m->host;
}

bool cpu_machine_can_pin(const struct cpu_machine *m)
{
	return !cpu_machine_is_dump(m) && m->topo && !cpu_topo_is_dump(m->topo);
}

int cpu_machine_pin(const struct cpu_machine *m, unsigned cpu, bool *membind_ok)
{
	if (membind_ok)
		*membind_ok = false;
	if (!cpu_machine_can_pin(m))
		return -EXDEV; /* another machine's CPU numbers: never bind to them */
	return cpu_pin_self(m->topo, cpu, membind_ok);
}

int cpu_machine_binding_save(const struct cpu_machine *m, struct cpu_binding *b)
{
	memset(b, 0, sizeof(*b));
	if (!cpu_machine_can_pin(m))
		return -EXDEV;
	return cpu_binding_save(m->topo, b);
}

int cpu_machine_binding_restore(const struct cpu_machine *m, struct cpu_binding *b)
{
	if (!cpu_machine_can_pin(m))
		return -EXDEV;
	return cpu_binding_restore(m->topo, b);
}

void cpu_machine_env_read(const struct cpu_machine *m, int cpu, struct cpu_env *e)
{
	cpu_env_read(!cpu_machine_is_dump(m) && cpu >= 0 ? (unsigned)cpu : 0, e);
}
