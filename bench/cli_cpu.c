/*
 * bench/cli_cpu.c - what bench and pmu say about the CPUs they choose on
 * hybrid parts: the refusal of a core kind without IA32_PERF_METRICS, and
 * the warning when hwloc's CPU kinds disagree with CPUID leaf 0x1A.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/cli.h"
#include "cpu/cpu.h"

void cli_fmt_cpus(char *buf, size_t n, const unsigned *cpus, unsigned ncpus)
{
	size_t o = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (unsigned i = 0; i < ncpus && o < n;) {
		unsigned j = i;
		int w;

		while (j + 1 < ncpus && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			w = snprintf(buf + o, n - o, "%s%u-%u", i ? "," : "", cpus[i], cpus[j]);
		else
			w = snprintf(buf + o, n - o, "%s%u", i ? "," : "", cpus[i]);
		if (w < 0)
			break;
		o += (size_t)w;
		i = j + 1;
	}
}

int cli_refuse_kind(const char *who, const struct cpu_info *ci, unsigned cpu, const char *more)
{
	static unsigned td[CPU_MAX_CPUS];
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);
	unsigned n = cpu_topdown_cpus(ci, td, CPU_MAX_CPUS);
	const char *kind = k ? k->kind : "unknown";
	char list[256];

	cli_fmt_cpus(list, sizeof(list), td, n < CPU_MAX_CPUS ? n : CPU_MAX_CPUS);
	cli_err("%s%scpu %u is %s %s core (%s): it has no IA32_PERF_METRICS; CPUs that can "
		"measure Top-down: %s (try: --cpu %u%s)", who ? who : "", who ? ": " : "", cpu,
		strchr("aeiou", kind[0]) ? "an" : "a", kind, k && k->uarch ? k->uarch : "unknown",
		n ? list : "none", n ? td[0] : 0, more ? more : "");
	return EX_USAGE;
}

void cli_warn_kinds(const char *who, const struct cpu_source *src, const struct cpu_info *ci)
{
	hwloc_topology_t topo;
	char why[512];

	/* A single-file dump has no topology of its own: nothing to compare. */
	if (!cpu_source_is_live(src) && !cpu_source_is_hwloc_dir(src))
		return;
	if (cpu_topo_load_for(src, &topo))
		return;
	/* Live CPUID beside $HWLOC_CPUID_PATH: another machine's topology. */
	if ((!cpu_source_is_live(src) || !cpu_topo_is_dump(topo)) &&
	    cpu_topo_check_kinds(topo, ci, why, sizeof(why)) == -EPROTO)
		cli_warn("%s: hwloc's CPU kinds disagree with CPUID: %s (going by CPUID "
			 "leaf 0x1A, which names each CPU's core type)", who, why);
	hwloc_topology_destroy(topo);
}
