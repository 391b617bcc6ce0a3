/*
 * cpu/cpu_topo.c - hwloc topology: choosing the CPU to measure on, pinning
 * the calling thread (and its memory) to it, the last-level cache size.
 */
#include <errno.h>
#include <sched.h>

#include "cpu/cpu.h"

int cpu_topo_load(hwloc_topology_t *topo)
{
	hwloc_topology_t t;
	int err = 0;

	/* hwloc itself honours $HWLOC_CPUID_PATH (with HWLOC_COMPONENTS=x86)
	 * and $HWLOC_FSROOT: tests build a topology from a dump that way. */
	if (hwloc_topology_init(&t))
		return errno ? -errno : -ENOMEM;
	if (hwloc_topology_load(t)) {
		err = errno ? -errno : -EINVAL;
		hwloc_topology_destroy(t);
		return err;
	}
	*topo = t;
	return 0;
}

static bool cpu_allowed(hwloc_topology_t topo, unsigned cpu)
{
	return hwloc_get_pu_obj_by_os_index(topo, cpu) &&
	       hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(topo), cpu);
}

/* The highest-efficiency hwloc CPU kind (hwloc: a higher efficiency index
 * means a more performant kind, i.e. P-cores), or NULL without kinds. */
static hwloc_bitmap_t hwloc_best_kind(hwloc_topology_t topo)
{
	int nr = hwloc_cpukinds_get_nr(topo, 0);
	hwloc_bitmap_t set;
	int best = -1, best_eff = -1;

	if (nr < 2)
		return NULL; /* one kind (or none): hwloc cannot tell P from E */
	for (int i = 0; i < nr; i++) {
		int eff = -1;

		if (hwloc_cpukinds_get_info(topo, (unsigned)i, NULL, &eff, NULL, NULL, 0))
			continue;
		if (eff > best_eff) {
			best_eff = eff;
			best = i;
		}
	}
	/* Efficiency -1 everywhere: hwloc could not rank the kinds. */
	if (best < 0 || best_eff < 0 || !(set = hwloc_bitmap_alloc()))
		return NULL;
	if (hwloc_cpukinds_get_info(topo, (unsigned)best, set, NULL, NULL, NULL, 0)) {
		hwloc_bitmap_free(set);
		return NULL;
	}
	return set;
}

/* The kind of @ci with the highest Top-down level; on hybrid parts ties
 * (and all-zero levels, e.g. in a VM) go to the P-core kind. */
static const struct cpu_kind *best_kind(const struct cpu_info *ci)
{
	const struct cpu_kind *best = NULL;

	for (unsigned i = 0; i < ci->nkinds; i++) {
		const struct cpu_kind *k = &ci->kinds[i];

		if (!best || k->topdown_level > best->topdown_level ||
		    (k->topdown_level == best->topdown_level && k->core_type > best->core_type))
			best = k;
	}
	return best;
}

/* Last CPU of @k that is allowed and, when @hw is given, in hwloc's best
 * kind too.  -1 when none. */
static int last_of_kind(hwloc_topology_t topo, const struct cpu_kind *k, hwloc_const_bitmap_t hw)
{
	for (unsigned j = k->ncpus; j-- > 0;) {
		unsigned cpu = k->cpus[j];

		if (cpu_allowed(topo, cpu) && (!hw || hwloc_bitmap_isset(hw, cpu)))
			return (int)cpu;
	}
	return -1;
}

int cpu_choose(hwloc_topology_t topo, const struct cpu_info *ci, int requested)
{
	const struct cpu_kind *k = ci ? best_kind(ci) : NULL;
	hwloc_bitmap_t hw = NULL;
	int cpu = -1;

	if (requested >= 0)
		return cpu_allowed(topo, (unsigned)requested) ? requested : -ENXIO;
	if (k && ci->hybrid) {
		/* Cross-check with hwloc's kinds; if they disagree (no CPU in
		 * both), trust CPUID.1AH, which names the core type exactly. */
		hw = hwloc_best_kind(topo);
		cpu = last_of_kind(topo, k, hw);
		if (cpu < 0 && hw)
			cpu = last_of_kind(topo, k, NULL);
		hwloc_bitmap_free(hw);
		/* Never silently an E-core: no allowed CPU of the best kind. */
		return cpu >= 0 ? cpu : -ENXIO;
	}
	if (k)
		cpu = last_of_kind(topo, k, NULL);
	if (cpu < 0) {
		/* Fall back to the last allowed CPU (CPU 0 takes interrupts). */
		cpu = hwloc_bitmap_last(hwloc_topology_get_allowed_cpuset(topo));
		if (cpu < 0)
			cpu = -ENXIO;
	}
	return cpu;
}

int cpu_pin_self(hwloc_topology_t topo, unsigned cpu, bool *membind_ok)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, cpu);
	int err = 0;

	if (membind_ok)
		*membind_ok = false;
	if (!pu)
		return -ENXIO;
	if (hwloc_set_cpubind(topo, pu->cpuset, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT)) {
		err = errno ? -errno : -EINVAL;
		goto out;
	}
	/* Memory on the NUMA node(s) local to @cpu; failure is not fatal. */
	if (membind_ok)
		*membind_ok = hwloc_set_membind(topo, pu->nodeset, HWLOC_MEMBIND_BIND,
						HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET) == 0;
	if (sched_getcpu() != (int)cpu)
		err = -EIO;
out:
	return err;
}

uint64_t cpu_llc_bytes(hwloc_topology_t topo, unsigned cpu)
{
	hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(topo, cpu);
	uint64_t best = 0;

	for (; obj; obj = obj->parent) {
		if (!hwloc_obj_type_is_cache(obj->type) || obj->type == HWLOC_OBJ_L1ICACHE ||
		    obj->type == HWLOC_OBJ_L2ICACHE || obj->type == HWLOC_OBJ_L3ICACHE)
			continue;
		if (obj->attr->cache.size > best)
			best = obj->attr->cache.size;
	}
	return best;
}
