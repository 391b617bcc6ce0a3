/*
 * t/0976-kinds-warning-whole.c - the CPU-kind disagreement (bench's kinds
 * warning, cpu_topo_check_kinds) reaches the user whole on a big machine:
 * its CPU lists were cut at 256 bytes and the whole warning at 512, so
 * the end of the sentence ("... core types 0x20 and 0x40") was lost.
 *
 * The machine is a real one: the 2-socket Sapphire Rapids Xeon Max 9460
 * hwloc-gather-cpuid directory, 160 logical CPUs ($SHARED_CPUID/INDEX.tsv
 * logical_cpus_in_dump).  Its kinds are made up so that the CPU lists have
 * as many ranges as they can: the even CPUs one kind, the odd ones the
 * other.  hwloc's semantics (hwloc_cpukinds_register, hwloc_cpukinds_get_info):
 * a kind's efficiency is a rank, 0 the most energy-efficient; CoreType is
 * IntelCore or IntelAtom.  The expected sentences are written out here, the
 * CPU lists computed from the count (hwloc's list syntax: "0,2,4,...").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu/cpu.h"
#include "cpu/cpu_topo.h"
#include "t/fixture.h"

#define NCPUS 160 /* INDEX.tsv: hwloc/Intel-SapphireRapids-2xXeonMax9460 */

static struct cpu_info ci; /* large: kept off the stack */

static int load(const char *path, hwloc_topology_t *topo)
{
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX];
	size_t n = t_hwloc_dump_env(saved, path);
	int rc = cpu_topo_load_dump(path, topo);

	t_hwloc_dump_env_put_back(saved, n);
	return rc;
}

/* "0,2,4,...,158" (@first 0) or "1,3,...,159" (@first 1). */
static void every_other(char *buf, size_t n, unsigned first)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned c = first; c < NCPUS; c += 2)
		used += (size_t)snprintf(buf + used, n - used, "%s%u", used ? "," : "", c);
}

/* Register the CPUs of parity @first as one hwloc kind. */
static int add_kind(hwloc_topology_t topo, unsigned first, int eff, const char *type)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	struct hwloc_info_s info = { (char *)"CoreType", (char *)type };
	int rc;

	for (unsigned c = first; c < NCPUS; c += 2)
		hwloc_bitmap_set(set, c);
	rc = hwloc_cpukinds_register(topo, set, eff, 1, &info, 0);
	hwloc_bitmap_free(set);
	return rc;
}

static void kind(struct cpu_kind *k, const char *name, uint8_t type, unsigned first)
{
	snprintf(k->kind, sizeof(k->kind), "%s", name);
	k->core_type = type;
	k->ncpus = 0;
	for (unsigned c = first; c < NCPUS; c += 2)
		k->cpus[k->ncpus++] = c;
}

/* Two kinds from leaf 0x1A (P even, E odd) that hwloc ranks the other way
 * round: the sentence quotes both lists. */
static void check_rank(const char *path, const char *even, const char *odd)
{
	hwloc_topology_t topo;
	char *want = NULL, *why = NULL;

	if (!ok(load(path, &topo) == 0, "the Sapphire Rapids directory loads")) {
		skip(3, "no topology");
		return;
	}
	memset(&ci, 0, sizeof(ci));
	ci.ncpus = NCPUS;
	ci.hybrid = true;
	ci.nkinds = 2;
	kind(&ci.kinds[0], "performance", 0x40, 0);
	kind(&ci.kinds[1], "efficiency", 0x20, 1);
	ok(add_kind(topo, 0, 0, "IntelCore") == 0 && add_kind(topo, 1, 1, "IntelAtom") == 0,
	   "hwloc: even CPUs IntelCore (efficiency 0), odd CPUs IntelAtom (efficiency 1)");
	check_int(cpu_topo_check_kinds(topo, &ci, &why), ==, -EPROTO,
		  "ranked the other way round: a disagreement (-EPROTO)");
	if (asprintf(&want, "hwloc ranks the efficiency kind (cpus %s, efficiency 1) at or above "
		     "the performance kind (cpus %s, efficiency 0), but CPUID.1AH gives them "
		     "core types 0x20 and 0x40", odd, even) < 0)
		want = NULL;
	ok(want && why && !strcmp(why, want),
	   "the whole warning (%zu bytes, over the old 512), both lists and its end: %s",
	   want ? strlen(want) : 0, why ? why : "(none)");
	free(want);
	free(why);
	hwloc_topology_destroy(topo);
}

/* One kind from CPUID (not hybrid) and an hwloc kind of the even CPUs
 * with a CoreType: the sentence quotes one list, longer than 256 bytes. */
static void check_one_list(const char *path, const char *even)
{
	hwloc_topology_t topo;
	char *want = NULL, *why = NULL;

	if (!ok(load(path, &topo) == 0, "the Sapphire Rapids directory loads again")) {
		skip(2, "no topology");
		return;
	}
	memset(&ci, 0, sizeof(ci));
	ci.ncpus = NCPUS;
	ci.nkinds = 1;
	kind(&ci.kinds[0], "general", 0, 0);
	for (unsigned c = 0; c < NCPUS; c++)
		ci.kinds[0].cpus[c] = c;
	ci.kinds[0].ncpus = NCPUS;
	check_int(cpu_topo_check_kinds(topo, &ci, &why), ==, 0, "no hwloc kind yet: agreement");
	ok(add_kind(topo, 0, -1, "IntelAtom") == 0 &&
	   cpu_topo_check_kinds(topo, &ci, &why) == -EPROTO,
	   "hwloc: even CPUs IntelAtom on a one-kind part: -EPROTO");
	if (asprintf(&want, "hwloc CPU kind #0 (cpus %s) has CoreType IntelAtom, but CPUID.1AH "
		     "gives these CPUs core type 0x00 (general)", even) < 0)
		want = NULL;
	ok(want && why && !strcmp(why, want), "the list whole (%zu bytes, over the old 256): %s",
	   strlen(even), why ? why : "(none)");
	free(want);
	free(why);
	hwloc_topology_destroy(topo);
}

int main(void)
{
	const char *shared = t_shared_dumps();
	char path[PATH_MAX], even[1024], odd[1024];
	struct stat st;

	t_path(path, "%s/hwloc/Intel-SapphireRapids-2xXeonMax9460", shared);
	if (stat(path, &st))
		skip_all("no Sapphire Rapids hwloc directory in $SHARED_CPUID");
	every_other(even, sizeof(even), 0);
	every_other(odd, sizeof(odd), 1);
	ok(strlen(even) > 256 && strlen(odd) > 256, "each list is longer than 256 bytes (%zu, %zu)",
	   strlen(even), strlen(odd));
	check_rank(path, even, odd);
	check_one_list(path, even);
	return done_testing();
}
