/* cpu/environ.c - environment preflight; file meanings and sources in environ.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu/cpu.h"
#include "cpu/environ.h"
#include "cpu/knobs.h"

/* First line of <sysroot>@path into @buf, or "" (returns false) when unreadable. */
static bool read_str(const char *path, char *buf, size_t n)
{
	if (cpu_sysfs_read_line(path, buf, n) == 0)
		return true;
	buf[0] = '\0';
	return false;
}

/* The CPU list in the first line of <sysroot>@path into @buf (n bytes),
 * whole when it fits, else cut visibly: "...,1022,..." (CPU_ENV_LIST_MAX);
 * false ("") when unreadable or empty. */
static bool read_list(const char *path, char *buf, size_t n)
{
	char full[PATH_MAX], *line = NULL;
	size_t cap = 0, len;
	FILE *f;
	bool ok;

	buf[0] = '\0';
	if (cpu_sysfs_resolve(full, sizeof(full), path) || !(f = fopen(full, "re")))
		return false;
	ok = getline(&line, &cap, f) >= 0;
	fclose(f);
	if (ok) {
		line[strcspn(line, "\n")] = '\0';
		len = strlen(line);
		if (len < n) {
			memcpy(buf, line, len + 1);
		} else if (n > 4) {
			size_t keep = n - 4;

			while (keep && line[keep - 1] != ',')
				keep--;
			snprintf(buf, n, "%.*s...", (int)keep, line);
		}
	}
	free(line);
	return ok;
}

/* A file holding "0" or "1" (or a small integer): its value, or -1. */
static int read_int(const char *path)
{
	char line[32], *end;
	long v;

	if (!read_str(path, line, sizeof(line)) || !line[0])
		return -1;
	errno = 0;
	v = strtol(line, &end, 10);
	if (errno || *end || v < 0 || v > 1000000)
		return -1;
	return (int)v;
}

/* "none [integrity] confidentiality" -> "integrity" (the bracketed word). */
static void read_lockdown(char *buf, size_t n)
{
	char line[128], *open, *close;

	buf[0] = '\0';
	if (!read_str(CPU_KNOB_LOCKDOWN, line, sizeof(line)))
		return;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(buf, n, "%.*s", (int)(close - open - 1), open + 1);
}

static int path_exists(const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	if (cpu_sysfs_resolve(full, sizeof(full), path))
		return -1;
	if (stat(full, &st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

/* The "microcode" line of processor @cpu in <sysroot>/proc/cpuinfo. */
static void read_cpuinfo_microcode(unsigned cpu, char *buf, size_t n)
{
	char path[PATH_MAX], line[256];
	bool mine = false;
	unsigned p;
	FILE *f;

	if (cpu_sysfs_resolve(path, sizeof(path), "/proc/cpuinfo"))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (sscanf(line, "processor : %u", &p) == 1)
			mine = p == cpu;
		else if (mine && colon && !strncmp(line, "microcode", 9)) {
			snprintf(buf, n, "%s", colon + 1 + strspn(colon + 1, " \t"));
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	fclose(f);
}

static int read_turbo(void)
{
	int v = read_int("/sys/devices/system/cpu/intel_pstate/no_turbo");

	if (v == 0 || v == 1)
		return !v;
	v = read_int("/sys/devices/system/cpu/cpufreq/boost");
	return v == 0 || v == 1 ? v : -1;
}

/* The knob lives on the core PMU: "cpu", or "cpu_core" on hybrid parts
 * (linux arch/x86/events/core.c set_attr_rdpmc). */
static const char *const rdpmc_paths[] = {
	CPU_KNOB_RDPMC_CPU,
	CPU_KNOB_RDPMC_CPU_CORE,
};

int cpu_env_rdpmc(void)
{
	char line[32];
	int rc = -ENOENT;

	for (size_t i = 0; i < sizeof(rdpmc_paths) / sizeof(rdpmc_paths[0]); i++) {
		rc = cpu_sysfs_read_line(rdpmc_paths[i], line, sizeof(line));
		if (rc != -ENOENT)
			break;
	}
	if (rc == -ENODATA)
		return -EINVAL; /* an empty file is not a value */
	if (rc)
		return rc;
	/* get_attr_rdpmc prints "%d\n" of 0, 1 or 2; writes > 2 are refused */
	if (line[0] < '0' || line[0] > '2' || line[1] != '\0')
		return -EINVAL;
	return line[0] - '0';
}

void cpu_env_read(unsigned cpu, struct cpu_env *e)
{
	char path[128];
	int rdpmc;

	memset(e, 0, sizeof(*e));
	read_str("/proc/sys/kernel/osrelease", e->kernel, sizeof(e->kernel));
	read_lockdown(e->lockdown, sizeof(e->lockdown));
	e->msr_module = path_exists(CPU_SYS_MSR_MODULE);
	read_str(CPU_KNOB_MSR_ALLOW_WRITES, e->msr_allow_writes,
		 sizeof(e->msr_allow_writes));
	rdpmc = cpu_env_rdpmc();
	e->rdpmc = rdpmc >= 0 ? rdpmc : -1;
	e->nmi_watchdog = read_int(CPU_KNOB_NMI_WATCHDOG);
	read_str("/sys/devices/system/cpu/smt/control", e->smt_control, sizeof(e->smt_control));
	e->smt_active = read_int("/sys/devices/system/cpu/smt/active");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_governor", cpu);
	read_str(path, e->governor, sizeof(e->governor));
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_driver", cpu);
	read_str(path, e->freq_driver, sizeof(e->freq_driver));
	e->turbo = read_turbo();
	e->isolated_known = read_list("/sys/devices/system/cpu/isolated", e->isolated,
				      sizeof(e->isolated));
	e->nohz_full_known = read_list("/sys/devices/system/cpu/nohz_full", e->nohz_full,
				       sizeof(e->nohz_full));
	/* nohz_full reads "(null)" when the option is not given (tick-sched). */
	if (!strcmp(e->nohz_full, "(null)"))
		e->nohz_full[0] = '\0';
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/microcode/version", cpu);
	if (!read_str(path, e->microcode, sizeof(e->microcode)))
		read_cpuinfo_microcode(cpu, e->microcode, sizeof(e->microcode));
	cpu_env_hv_kernel(e->hv_kernel, sizeof(e->hv_kernel), &e->hv_kernel_source);
	e->core_pmu = path_exists(CPU_SYS_CORE_PMU);
	if (e->core_pmu == 0)
		e->core_pmu = path_exists(CPU_SYS_CORE_PMU_HYBRID);
}

bool cpu_env_lockdown_blocks_msr(const struct cpu_env *e)
{
	return !strcmp(e->lockdown, "integrity") || !strcmp(e->lockdown, "confidentiality");
}
