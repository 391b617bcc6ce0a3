/*
 * cpu/smt.c - a logical CPU's SMT siblings and what /proc/stat says each
 * CPU did (cpu/cpu.h), read under the sysroot ($BARETMA_SYSROOT), so that
 * tests describe any topology and activity with files.
 *
 * Siblings: /sys/devices/system/cpu/cpuN/topology/thread_siblings_list
 * (linux Documentation/ABI/stable/sysfs-devices-system-cpu: "the list of
 * cpuN's hardware threads within the same core"), less N, less the CPUs
 * the online list leaves out.  Times: the "cpuN" line of /proc/stat
 * (linux Documentation/filesystems/proc.rst 1.7: user nice system idle
 * iowait irq softirq steal guest guest_nice, in USER_HZ ticks; guest time
 * is part of user already, and steal is time the vCPU did not run).
 */
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/knobs.h"

int cpu_smt_siblings(unsigned cpu, unsigned *out, unsigned max)
{
	hwloc_bitmap_t sib = hwloc_bitmap_alloc(), online = hwloc_bitmap_alloc();
	char path[96], list[4096];
	int rc, n = 0, i;

	if (!sib || !online) {
		rc = -ENOMEM;
		goto out;
	}
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list",
		 cpu);
	rc = cpu_sysfs_read_line(path, list, sizeof(list));
	if (!rc && hwloc_bitmap_list_sscanf(sib, list) < 0)
		rc = -EINVAL;
	if (rc)
		goto out;
	/* the online list: a sibling it leaves out is offline (no list: all) */
	if (!cpu_sysfs_read_line(CPU_SYS_ONLINE_CPUS, list, sizeof(list)) &&
	    hwloc_bitmap_list_sscanf(online, list) == 0)
		hwloc_bitmap_and(sib, sib, online);
	hwloc_bitmap_foreach_begin(i, sib) {
		if ((unsigned)i != cpu && (unsigned)n < max)
			out[n++] = (unsigned)i;
	} hwloc_bitmap_foreach_end();
out:
	hwloc_bitmap_free(sib);
	hwloc_bitmap_free(online);
	return rc ? rc : n;
}

int cpu_stat_read(unsigned cpu, struct cpu_stat_times *t)
{
	char path[4096], want[24], line[512];
	unsigned long long v[8] = { 0 };
	FILE *f;
	int rc = -ENOENT;

	if ((rc = cpu_sysfs_resolve(path, sizeof(path), "/proc/stat")))
		return rc;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	rc = -ENOENT;
	snprintf(want, sizeof(want), "cpu%u ", cpu);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want))) {
			rc = sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu",
				    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 7 ?
			     0 : -EINVAL;
			break;
		}
	fclose(f);
	if (!rc) {
		t->busy = v[0] + v[1] + v[2] + v[5] + v[6]; /* user nice system irq softirq */
		t->idle = v[3] + v[4];                      /* idle iowait */
	}
	return rc;
}
