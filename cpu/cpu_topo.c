/*
 * cpu/cpu_topo.c - hwloc topology (of this machine, or of a hwloc-gather-cpuid
 * dump directory), the cross-check of core kinds against hwloc's CPU kinds,
 * choosing the CPU to measure on, pinning the calling thread (and its
 * memory) to it, the last-level cache size.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/cpu_topo.h"
#include "cpu/text.h"

/* hwloc_topology_init + load; 0 or -errno. */
static int topo_build(hwloc_topology_t *topo)
{
	hwloc_topology_t t;
	int err;

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

int cpu_topo_load(hwloc_topology_t *topo)
{
	int err = cpu_hwloc_env_check(NULL, NULL, 0);

	if (err < 0)
		return err;
	/* hwloc itself honours $HWLOC_CPUID_PATH (with HWLOC_COMPONENTS=x86)
	 * and, from a trusted environment, $HWLOC_FSROOT: tests build a
	 * topology from a dump that way. */
	return topo_build(topo);
}

/* ------------------------------------------------------- dump topology */

/*
 * What hwloc's x86 backend accepts as HWLOC_CPUID_PATH (hwloc
 * topology-x86.c, hwloc_x86_check_cpuiddump_input): a summary file whose
 * first line is "Architecture: x86", and puN files with N contiguous from 0.
 * Checked here first: hwloc would print its complaint and then silently
 * read this machine's CPUID instead.  *npus receives the count of puN.
 */
static int dump_dir_check(const char *dir, unsigned *npus)
{
	char path[4096], line[32];
	hwloc_bitmap_t pus = NULL;
	struct dirent *de;
	FILE *f = NULL;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d)
		return -errno;
	if ((size_t)snprintf(path, sizeof(path), "%s/hwloc-cpuid-info", dir) >= sizeof(path)) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	f = fopen(path, "re");
	if (!f || !fgets(line, sizeof(line), f) || strcmp(line, "Architecture: x86\n")) {
		rc = -EINVAL;
		goto out;
	}
	if (!(pus = hwloc_bitmap_alloc())) {
		rc = -ENOMEM;
		goto out;
	}
	while ((de = readdir(d))) {
		char *end;
		unsigned long idx;

		if (strncmp(de->d_name, "pu", 2))
			continue;
		idx = strtoul(de->d_name + 2, &end, 10);
		if (end == de->d_name + 2 || *end || idx >= CPU_MAX_CPUS) {
			rc = -EINVAL;
			goto out;
		}
		hwloc_bitmap_set(pus, (unsigned)idx);
	}
	*npus = (unsigned)hwloc_bitmap_weight(pus);
	if (*npus == 0 || hwloc_bitmap_last(pus) != (int)*npus - 1)
		rc = -EINVAL;
out:
	hwloc_bitmap_free(pus);
	if (f)
		fclose(f);
	closedir(d);
	return rc;
}

int cpu_topo_load_dump(const char *dir, hwloc_topology_t *topo)
{
	hwloc_topology_t t = NULL;
	unsigned npus = 0;
	int rc = dump_dir_check(dir, &npus);

	if (rc)
		return rc;
	if ((rc = cpu_hwloc_env_check(NULL, NULL, 0)) < 0)
		return rc;
	/* hwloc would read this machine's CPUID instead of a directory it is
	 * not given: the caller sets the environment (cpu_topo_dump_env). */
	if ((rc = cpu_topo_dump_env_check(dir)) < 0)
		return rc;
	if ((rc = topo_build(&t)))
		return rc;
	/* The x86 backend clears is_thissystem only when it took the dump. */
	if (hwloc_topology_is_thissystem(t) ||
	    hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU) != (int)npus) {
		hwloc_topology_destroy(t);
		return -EINVAL;
	}
	*topo = t;
	return 0;
}

int cpu_topo_load_for(const struct cpu_source *src, hwloc_topology_t *topo)
{
	if (src && cpu_source_is_hwloc_dir(src))
		return cpu_topo_load_dump(cpu_source_name(src), topo);
	return cpu_topo_load(topo);
}

bool cpu_topo_is_dump(hwloc_topology_t topo)
{
	return !hwloc_topology_is_thissystem(topo);
}

/* ---------------------------------------------- kinds against hwloc's */

/* CPUID.1AH:EAX[31:24] core types (linux intel-family.h INTEL_CPU_TYPE_ATOM/CORE). */
#define CORE_TYPE_INTEL_ATOM 0x20
#define CORE_TYPE_INTEL_CORE 0x40

/* The core type hwloc's x86 backend names in info "CoreType", else -1. */
static int hwloc_core_type(const struct hwloc_info_s *infos, unsigned n, const char **name)
{
	*name = NULL;
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(infos[i].name, "CoreType"))
			continue;
		*name = infos[i].value;
		if (!strcmp(infos[i].value, "IntelCore"))
			return CORE_TYPE_INTEL_CORE;
		if (!strcmp(infos[i].value, "IntelAtom"))
			return CORE_TYPE_INTEL_ATOM;
	}
	return -1;
}

/*
 * @ci's kinds as hwloc's x86 backend can tell them apart: by core type
 * only (it registers one IntelAtom and one IntelCore kind; the native model
 * id that separates ARL-H's Crestmont LP E-cores from its Skymont E-cores
 * is not looked at), so kinds of one core type form one group.
 */
struct kinds_check {
	hwloc_topology_t topo;
	const struct cpu_info *ci;
	unsigned ngroups;
	uint8_t core_type[CPU_MAX_KINDS];     /* of each group */
	char name[CPU_MAX_KINDS][48];         /* "efficiency+lowpower"; fixed: at most
					       * 4 names of one core type (kinds_name in
					       * cpu_kinds.c), "performance" x 4 and
					       * 3 '+' = 47 bytes */
	hwloc_bitmap_t ours[CPU_MAX_KINDS];   /* a group's CPUs within hwloc's topology */
	hwloc_bitmap_t cover[CPU_MAX_KINDS];  /* union of the hwloc kinds within each */
	unsigned parts[CPU_MAX_KINDS];        /* how many hwloc kinds within each */
	unsigned members[CPU_MAX_KINDS];      /* how many of @ci's kinds in each */
	int lo_eff[CPU_MAX_KINDS];            /* lowest hwloc efficiency within each */
	int hi_eff[CPU_MAX_KINDS];            /* highest */
	bool unranked;                        /* some hwloc kind has efficiency -1 */
	hwloc_bitmap_t hw;                    /* the hwloc kind being looked at */
	char **why;                           /* the note or disagreement, on the
					       * heap (cpu/text.h); NULL: not wanted */
};

/* *c->why = printf(@fmt, ...), whatever its CPU lists' length; 0 or -ENOMEM. */
static int kinds_say(struct kinds_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int kinds_say(struct kinds_check *c, const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (!c->why)
		return 0;
	va_start(ap, fmt);
	rc = text_vsetf(c->why, fmt, ap);
	va_end(ap);
	return rc;
}

/* @b as a CPU list ("0-7,16-23"), on the heap, whole however many ranges
 * it has (hwloc_bitmap_list_asprintf); NULL when memory runs out. */
static char *kinds_list(hwloc_const_bitmap_t b)
{
	char *s = NULL;

	return hwloc_bitmap_list_asprintf(&s, b) < 0 ? NULL : s;
}

static void kinds_check_free(struct kinds_check *c)
{
	for (unsigned i = 0; i < CPU_MAX_KINDS; i++) {
		hwloc_bitmap_free(c->ours[i]);
		hwloc_bitmap_free(c->cover[i]);
	}
	hwloc_bitmap_free(c->hw);
}

/* The group of @k, created on first sight; -ENOMEM. */
static int kinds_check_group(struct kinds_check *c, const struct cpu_kind *k)
{
	unsigned g;
	size_t used;

	for (g = 0; g < c->ngroups; g++)
		if (c->core_type[g] == k->core_type)
			break;
	if (g == c->ngroups) {
		c->ngroups++;
		c->core_type[g] = k->core_type;
		c->ours[g] = hwloc_bitmap_alloc();
		c->cover[g] = hwloc_bitmap_alloc();
		c->lo_eff[g] = INT_MAX;
		c->hi_eff[g] = INT_MIN;
		if (!c->ours[g] || !c->cover[g])
			return -ENOMEM;
	}
	used = strlen(c->name[g]);
	snprintf(c->name[g] + used, sizeof(c->name[g]) - used, "%s%s", used ? "+" : "", k->kind);
	c->members[g]++;
	return (int)g;
}

static int kinds_check_alloc(struct kinds_check *c)
{
	hwloc_const_bitmap_t all = hwloc_topology_get_topology_cpuset(c->topo);

	if (!(c->hw = hwloc_bitmap_alloc()))
		return -ENOMEM;
	for (unsigned i = 0; i < c->ci->nkinds && i < CPU_MAX_KINDS; i++) {
		const struct cpu_kind *k = &c->ci->kinds[i];
		int g = kinds_check_group(c, k);

		if (g < 0)
			return g;
		for (unsigned j = 0; j < k->ncpus; j++)
			hwloc_bitmap_set(c->ours[g], k->cpus[j]);
	}
	for (unsigned g = 0; g < c->ngroups; g++)
		hwloc_bitmap_and(c->ours[g], c->ours[g], all);
	return 0;
}

/* Place hwloc kind @h within one group; -EPROTO (with @why) if it fits
 * none; -ENOMEM. */
static int kinds_check_one(struct kinds_check *c, unsigned h)
{
	struct hwloc_info_s *infos = NULL;
	unsigned ninfos = 0, g;
	const char *ctname;
	char *set;
	int ct, eff = -1, rc = 0;

	if (hwloc_cpukinds_get_info(c->topo, h, c->hw, &eff, &ninfos, &infos, 0))
		return errno ? -errno : -EINVAL;
	ct = hwloc_core_type(infos, ninfos, &ctname);
	for (g = 0; g < c->ngroups; g++)
		if (hwloc_bitmap_isincluded(c->hw, c->ours[g]))
			break;
	if (g == c->ngroups || (ct >= 0 && ct != c->core_type[g])) {
		if (!(set = kinds_list(c->hw)))
			return -ENOMEM;
		if (g == c->ngroups)
			rc = kinds_say(c, "hwloc CPU kind #%u (%s%s%scpus %s) is not within one "
				       "core kind of CPUID (%s)", h, ctname ? "CoreType " : "",
				       ctname ? ctname : "", ctname ? ", " : "", set,
				       c->ci->hybrid ? "leaf 0x1A" : "not hybrid: one kind");
		else
			rc = kinds_say(c, "hwloc CPU kind #%u (cpus %s) has CoreType %s, but "
				       "CPUID.1AH gives these CPUs core type 0x%02x (%s)", h, set,
				       ctname, c->core_type[g], c->name[g]);
		free(set);
		return rc ? rc : -EPROTO;
	}
	hwloc_bitmap_or(c->cover[g], c->cover[g], c->hw);
	c->parts[g]++;
	if (eff < 0)
		c->unranked = true;
	if (eff < c->lo_eff[g])
		c->lo_eff[g] = eff;
	if (eff > c->hi_eff[g])
		c->hi_eff[g] = eff;
	return 0;
}

/*
 * hwloc's ranking against the core types: its efficiency is a rank, 0 for
 * the most energy-efficient kind, higher for more performant ones
 * (hwloc_cpukinds_get_info), so every kind within the Core CPUs (0x40)
 * must rank above every kind within the Atom CPUs (0x20).  hwloc kinds
 * that split the CPUs as CPUID.1AH does but rank them the other way round
 * disagree as much as a wrong CoreType.  Nothing to compare where hwloc
 * could not rank (efficiency -1).
 */
static int kinds_check_rank(struct kinds_check *c)
{
	char *core, *atom;
	int rc;

	if (c->unranked)
		return 0;
	for (unsigned p = 0; p < c->ngroups; p++) {
		if (c->core_type[p] != CORE_TYPE_INTEL_CORE)
			continue;
		for (unsigned e = 0; e < c->ngroups; e++) {
			if (c->core_type[e] != CORE_TYPE_INTEL_ATOM || c->lo_eff[p] > c->hi_eff[e])
				continue;
			core = kinds_list(c->ours[p]);
			atom = kinds_list(c->ours[e]);
			rc = !core || !atom ? -ENOMEM :
				kinds_say(c, "hwloc ranks the %s kind (cpus %s, efficiency %d) at "
					  "or above the %s kind (cpus %s, efficiency %d), but "
					  "CPUID.1AH gives them core types 0x%02x and 0x%02x",
					  c->name[e], atom, c->hi_eff[e], c->name[p], core,
					  c->lo_eff[p], c->core_type[e], c->core_type[p]);
			free(core);
			free(atom);
			return rc ? rc : -EPROTO;
		}
	}
	return 0;
}

/* Each group covered exactly by the hwloc kinds within it; notes splits
 * and merges. */
static int kinds_check_cover(struct kinds_check *c)
{
	char *set, *got;
	int rc = 0;

	for (unsigned g = 0; g < c->ngroups; g++) {
		if (hwloc_bitmap_isequal(c->cover[g], c->ours[g]))
			continue;
		set = kinds_list(c->ours[g]);
		got = kinds_list(c->cover[g]);
		rc = !set || !got ? -ENOMEM :
			kinds_say(c, "the %s kind (cpus %s) is not covered by hwloc's CPU kinds: "
				  "they give it cpus %s", c->name[g], set, *got ? got : "none");
		free(set);
		free(got);
		return rc ? rc : -EPROTO;
	}
	for (unsigned g = 0; g < c->ngroups; g++) {
		if (c->parts[g] <= 1 && c->members[g] <= 1)
			continue;
		if (!(set = kinds_list(c->ours[g])))
			return -ENOMEM;
		if (c->parts[g] > 1)
			rc = kinds_say(c, "hwloc splits the %s kind (cpus %s) into %u kinds "
				       "(e.g. favoured cores by maximum frequency)", c->name[g], set,
				       c->parts[g]);
		else
			rc = kinds_say(c, "hwloc has one kind for the %s kinds (cpus %s): same "
				       "CPUID.1AH core type 0x%02x", c->name[g], set, c->core_type[g]);
		free(set);
		break;
	}
	return rc;
}

int cpu_topo_check_kinds(hwloc_topology_t topo, const struct cpu_info *ci, char **why)
{
	struct kinds_check c = { .topo = topo, .ci = ci, .why = why };
	int nr = hwloc_cpukinds_get_nr(topo, 0), rc;

	if (why) {
		free(*why);
		*why = NULL;
	}
	if (nr < 0)
		return errno ? -errno : -EINVAL;
	/* hwloc knows no kinds: nor does CPUID, or hwloc cannot tell (a
	 * kernel or hwloc too old for this hybrid part); CPUID.1AH decides
	 * alone, and that is no disagreement. */
	if (nr == 0 && (ci->nkinds <= 1 || ci->hybrid))
		return 0;
	if (nr == 0) {
		rc = kinds_say(&c, "hwloc reports no CPU kinds, but CPUID leaf 0x1A gives %u "
			       "core kinds", ci->nkinds);
		return rc ? rc : -EPROTO;
	}
	rc = kinds_check_alloc(&c);
	for (int h = 0; !rc && h < nr; h++)
		rc = kinds_check_one(&c, (unsigned)h);
	if (!rc)
		rc = kinds_check_cover(&c);
	if (!rc)
		rc = kinds_check_rank(&c);
	kinds_check_free(&c);
	return rc;
}

/* ------------------------------------------------------------ choosing */

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

const struct cpu_kind *cpu_info_best_kind(const struct cpu_info *ci)
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

unsigned cpu_topdown_cpus(const struct cpu_info *ci, unsigned *cpus, unsigned max)
{
	unsigned n = 0;

	for (unsigned c = 0; c < ci->ncpus && c < CPU_MAX_CPUS; c++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, c);

		if (k && k->topdown_level > 0) {
			if (n < max)
				cpus[n] = c;
			n++;
		}
	}
	return n;
}

int cpu_topdown_check_cpu(const struct cpu_info *ci, unsigned cpu, const struct cpu_kind **kind)
{
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu), *best = cpu_info_best_kind(ci);

	if (kind)
		*kind = k;
	if (!k)
		return -ENXIO;
	if (k->topdown_level > 0 || !best || best->topdown_level == 0)
		return 0;
	return -EOPNOTSUPP;
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
	const struct cpu_kind *k = ci ? cpu_info_best_kind(ci) : NULL;
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
	if (cpu_topo_is_dump(topo))
		return -EXDEV; /* another machine's CPU numbers: never bind to them */
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

int cpu_binding_save(hwloc_topology_t topo, struct cpu_binding *b)
{
	memset(b, 0, sizeof(*b));
	if (!(b->cpuset = hwloc_bitmap_alloc()))
		return -ENOMEM;
	if (hwloc_get_cpubind(topo, b->cpuset, HWLOC_CPUBIND_THREAD)) {
		int rc = errno ? -errno : -EINVAL;

		hwloc_bitmap_free(b->cpuset);
		b->cpuset = NULL;
		return rc;
	}
	b->nodeset = hwloc_bitmap_alloc();
	if (b->nodeset && hwloc_get_membind(topo, b->nodeset, &b->policy,
					    HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET)) {
		hwloc_bitmap_free(b->nodeset);
		b->nodeset = NULL;
	}
	return 0;
}

int cpu_binding_restore(hwloc_topology_t topo, struct cpu_binding *b)
{
	int rc = 0;

	if (b->cpuset && hwloc_set_cpubind(topo, b->cpuset, HWLOC_CPUBIND_THREAD))
		rc = errno ? -errno : -EINVAL;
	if (b->nodeset)
		hwloc_set_membind(topo, b->nodeset, b->policy,
				  HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET);
	hwloc_bitmap_free(b->cpuset);
	hwloc_bitmap_free(b->nodeset);
	memset(b, 0, sizeof(*b));
	return rc;
}

uint64_t cpu_llc_bytes(hwloc_topology_t topo, unsigned cpu)
{
	hwloc_obj_t obj = topo ? hwloc_get_pu_obj_by_os_index(topo, cpu) : NULL;
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
