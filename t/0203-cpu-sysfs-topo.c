/*
 * t/0203-cpu-sysfs-topo.c - the /sys root ($BARETMA_SYSROOT,
 * cpu_sysfs_*), and hwloc topology, CPU choice and pinning (cpu_topo.c):
 * on the Raptor Lake-P hwloc-gather-cpuid dump of $SHARED_CPUID and on
 * the live machine (split from t/0200).
 *
 * Known answers come from outside the code under test: the dump's own
 * CPUID leaf 0x1A and leaf 4 lines, read here with the SDM's formulas
 * (Vol. 2A, CPUID leaves 04H and 1AH), and INDEX.tsv's CPU counts.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/cpu_topo.h"
#include "t/tap.h"

/* --------------------------------------------------------------- sysfs */

static void test_sysfs(void)
{
	char dir[] = "/tmp/baretma-0200-root.XXXXXX", path[PATH_MAX], buf[64];
	FILE *f;

	if (!mkdtemp(dir)) {
		skip(3, "mkdtemp failed");
		return;
	}
	t_path(path, "%s/sys", dir);
	mkdir(path, 0700);
	t_path(path, "%s/sys/rdpmc", dir);
	f = fopen(path, "w");
	fputs("2\nsecond line\n", f);
	fclose(f);
	setenv("BARETMA_SYSROOT", dir, 1);
	check_str(cpu_sysfs_path(buf, sizeof(buf), "/sys/rdpmc") + strlen(dir), "/sys/rdpmc",
		  "sysfs path under $BARETMA_SYSROOT");
	ok(cpu_sysfs_read_line("/sys/rdpmc", buf, sizeof(buf)) == 0 && !strcmp(buf, "2"),
	   "first line without newline ('%s')", buf);
	check_int(cpu_sysfs_read_line("/sys/absent", buf, sizeof(buf)), ==, -ENOENT, "absent file: -ENOENT");
	unsetenv("BARETMA_SYSROOT");
	unlink(path);
	t_path(path, "%s/sys", dir);
	rmdir(path);
	rmdir(dir);
}

/* ------------------------------------------------------------ topology */

/* One register set from an hwloc-gather-cpuid "puN" file: lines are
 * "mask eax ebx ecx edx => eax ebx ecx edx" (inputs, then outputs). */
static int pu_cpuid(const char *dir, unsigned pu, unsigned leaf, unsigned sub, uint32_t r[4])
{
	char path[PATH_MAX], line[256];
	unsigned m, in[4];
	int found = -1;
	FILE *f;

	t_path(path, "%s/pu%u", dir, pu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &m, &in[0], &in[1], &in[2], &in[3],
			   &r[0], &r[1], &r[2], &r[3]) == 9 && in[0] == leaf && in[2] == sub)
			found = 0;
	fclose(f);
	return found;
}

/* Largest data/unified cache from leaf 4 (SDM Vol. 2A CPUID leaf 04H:
 * ways * partitions * line size * sets, each field + 1). */
static uint64_t pu_llc(const char *dir)
{
	uint64_t best = 0;
	uint32_t r[4];

	for (unsigned s = 0; !pu_cpuid(dir, 0, 4, s, r) && (r[0] & 0x1f); s++) {
		uint64_t sz = (uint64_t)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
			      ((r[1] & 0xfff) + 1) * ((uint64_t)r[2] + 1);

		if ((r[0] & 0x1f) != 2 && sz > best) /* type 2 = instruction cache */
			best = sz;
	}
	return best;
}

static struct cpu_info topo_ci;

/* The Raptor Lake-P hwloc dump (i7-1370P): hwloc builds its topology from
 * it; the P/E split comes from the dump's own CPUID.1AH lines. */
static void test_choose_hybrid(const char *shared)
{
	char dir[PATH_MAX];
	struct cpu_kind *p = &topo_ci.kinds[0], *e = &topo_ci.kinds[1];
	hwloc_topology_t topo;
	int want = -1;
	uint32_t r[4];

	t_path(dir, "%s/hwloc/Intel-RaptorLake-Corei7-1370P", shared);
	memset(&topo_ci, 0, sizeof(topo_ci));
	topo_ci.vendor = CPU_VENDOR_INTEL;
	topo_ci.hybrid = true;
	topo_ci.nkinds = 2;
	p->core_type = 0x40, p->topdown_level = 2, p->fixed_ctr3 = true;
	e->core_type = 0x20;
	for (unsigned pu = 0; !pu_cpuid(dir, pu, 0x1a, 0, r); pu++) {
		struct cpu_kind *k = (r[0] >> 24) == 0x40 ? p : e;

		k->cpus[k->ncpus++] = pu;
		topo_ci.ncpus++;
		if (k == p)
			want = (int)pu;
	}
	if (!ok(p->ncpus == 12 && e->ncpus == 8, "RPL-P hwloc dump: 12 P + 8 E CPUs (INDEX.tsv)")) {
		skip(6, "hwloc dump not readable");
		return;
	}
	setenv("HWLOC_CPUID_PATH", dir, 1);
	setenv("HWLOC_COMPONENTS", "x86,stop", 1);
	if (!ok(cpu_topo_load(&topo) == 0, "hwloc topology from the RPL-P CPUID dump")) {
		skip(5, "no topology");
		goto out;
	}
	check_int(cpu_choose(topo, &topo_ci, -1), ==, want, "default: the last P-core of the dump");
	check_int(cpu_choose(topo, &topo_ci, 15), ==, 15, "--cpu 15 (an E-core) is honoured when asked");
	check_int(cpu_choose(topo, &topo_ci, 20), ==, -ENXIO, "cpu 20 of a 20-CPU dump: -ENXIO");
	check_u64(cpu_llc_bytes(topo, 0), ==, pu_llc(dir), "LLC size = leaf 4 formula");
	/* P-cores that the topology lacks: never fall back to an E-core. */
	for (unsigned i = 0; i < p->ncpus; i++)
		p->cpus[i] = 100 + i;
	check_int(cpu_choose(topo, &topo_ci, -1), ==, -ENXIO, "no P-core available: -ENXIO, not an E-core");
	hwloc_topology_destroy(topo);
out:
	unsetenv("HWLOC_CPUID_PATH");
	unsetenv("HWLOC_COMPONENTS");
}

static void test_pin_live(void)
{
	hwloc_topology_t topo;
	bool membind_ok = false;
	int cpu;

	if (!ok(cpu_topo_load(&topo) == 0, "live hwloc topology")) {
		skip(3, "no topology");
		return;
	}
	cpu = cpu_choose(topo, NULL, -1);
	ok(cpu >= 0, "live default CPU %d", cpu);
	check_int(cpu_choose(topo, NULL, CPU_MAX_CPUS + 7), ==, -ENXIO, "absent CPU: -ENXIO");
	if (cpu >= 0) {
		int rc = cpu_pin_self(topo, (unsigned)cpu, &membind_ok), now = sched_getcpu();

		ok(rc == 0 && now == cpu, "pinned to cpu %d (rc %d, sched_getcpu %d, membind %s)",
		   cpu, rc, now, membind_ok ? "ok" : "not applied");
	} else {
		skip(1, "no CPU");
	}
	hwloc_topology_destroy(topo);
}
int main(void)
{
	const char *dir = getenv("SHARED_CPUID");
	struct stat st;

	test_sysfs();
	test_pin_live();
	if (!dir || stat(dir, &st) || !S_ISDIR(st.st_mode))
		skip(1, "no $SHARED_CPUID directory: the hwloc dump's topology not checked");
	else
		test_choose_hybrid(dir);
	return done_testing();
}
