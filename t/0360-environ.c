/*
 * t/0360-environ - the environment preflight reads each /sys and /proc file
 * under BARETMA_SYSROOT in the format the kernel writes it (fixtures below
 * copy those formats: lockdown_read() prints "none [integrity]
 * confidentiality"; nohz_full prints "(null)" when unset; /proc/cpuinfo has
 * "processor\t: N" and "microcode\t: 0x..." lines), and an absent file is
 * unknown (null), never a zero.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/bench.h"
#include "cpu/environ.h"
#include "t/tap.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;

	t_path(path, "%s%s", root, rel);
	t_path(dir, "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	put_file(path, text);
}

static void check_full_tree(void)
{
	struct cpu_env e;

	put("/proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
	put("/sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	put("/sys/module/msr/parameters/allow_writes", "off\n");
	put("/sys/bus/event_source/devices/cpu/rdpmc", "1\n");
	put("/proc/sys/kernel/nmi_watchdog", "1\n");
	put("/sys/devices/system/cpu/smt/control", "on\n");
	put("/sys/devices/system/cpu/smt/active", "1\n");
	put("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu3/cpufreq/scaling_driver", "intel_pstate\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put("/sys/devices/system/cpu/isolated", "2-3\n");
	put("/sys/devices/system/cpu/nohz_full", "(null)\n");
	put("/proc/cpuinfo", "processor\t: 0\nmicrocode\t: 0x11\n\nprocessor\t: 3\n"
	    "vendor_id\t: GenuineIntel\nmicrocode\t: 0x2b000603\n\n");

	cpu_env_read(3, &e);
	check_str(e.kernel, "6.1.0-18-amd64", "kernel release from osrelease");
	check_str(e.lockdown, "integrity", "lockdown: the bracketed mode");
	ok(cpu_env_lockdown_blocks_msr(&e), "integrity lockdown forbids MSR writes");
	check_int(e.msr_module, ==, 1, "msr module present (/sys/module/msr exists)");
	check_str(e.msr_allow_writes, "off", "msr allow_writes");
	check_int(e.rdpmc, ==, 1, "rdpmc sysfs value");
	check_int(e.nmi_watchdog, ==, 1, "nmi_watchdog");
	check_str(e.smt_control, "on", "smt control");
	check_int(e.smt_active, ==, 1, "smt active");
	check_str(e.governor, "performance", "governor of cpu 3");
	check_str(e.freq_driver, "intel_pstate", "driver of cpu 3");
	check_int(e.turbo, ==, 0, "intel_pstate no_turbo=1 means turbo off");
	ok(e.isolated_known && !strcmp(e.isolated, "2-3"), "isolated cpus 2-3");
	ok(e.nohz_full_known && !strcmp(e.nohz_full, ""), "nohz_full '(null)' means none");
	check_str(e.microcode, "0x2b000603", "microcode of processor 3 from /proc/cpuinfo");
	check_int(e.core_pmu, ==, 1, "core PMU driver registered (devices/cpu exists)");

	json_t *j = env_to_json(&e, NULL, NULL);
	ok(j != NULL, "environment JSON built");
	check_str(json_string_value(json_object_get(j, "lockdown")), "integrity", "JSON lockdown");
	ok(json_is_false(json_object_get(j, "turbo")), "JSON turbo false");
	ok(json_is_null(json_object_get(j, "hypervisor")), "JSON hypervisor null on bare metal");
	ok(json_is_null(json_object_get(j, "vpmu")), "JSON vpmu null on bare metal");
	check_int(json_integer_value(json_object_get(j, "rdpmc")), ==, 1, "JSON rdpmc");
	json_decref(j);

	/* The sysfs microcode file wins over /proc/cpuinfo; cpufreq boost when
	 * there is no intel_pstate; lockdown none allows writes. */
	put("/sys/devices/system/cpu/cpu3/microcode/version", "0x2b000604\n");
	put("/sys/kernel/security/lockdown", "[none] integrity confidentiality\n");
	{
		char p[PATH_MAX];

		t_path(p, "%s/sys/devices/system/cpu/intel_pstate/no_turbo", root);
		remove(p);
	}
	put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	cpu_env_read(3, &e);
	check_str(e.microcode, "0x2b000604", "microcode from sysfs first");
	check_str(e.lockdown, "none", "lockdown none");
	ok(!cpu_env_lockdown_blocks_msr(&e), "lockdown none allows MSR writes");
	check_int(e.turbo, ==, 1, "cpufreq boost=1 means turbo on");
}

/* "1,3,5,...": every other CPU from 1 below @end, into @buf. */
static void odd_cpus(char *buf, size_t n, unsigned end)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned c = 1; c < end; c += 2)
		used += (size_t)snprintf(buf + used, n - used, "%s%u", used ? "," : "", c);
}

/*
 * The kernel's CPU lists whole (they were kept in 128 bytes): every other
 * CPU below 1024 (CPU_MAX_CPUS, the CPUs baretma handles) is the longest
 * such list, 5 x 2 + 45 x 3 + 450 x 4 + 12 x 5 - 1 = 2004 bytes (the odd
 * numbers of 1, 2, 3 and 4 digits, each with its comma, less the last
 * comma); one naming CPUs beyond ends in "..." after a comma.
 */
static void check_long_lists(void)
{
	static char list[8192], text[8200];
	struct cpu_env e;

	odd_cpus(list, sizeof(list), 1024);
	check_int((int)strlen(list), ==, 2004, "every other CPU below 1024: 2004 bytes");
	snprintf(text, sizeof(text), "%s\n", list);
	put("/sys/devices/system/cpu/isolated", text);
	put("/sys/devices/system/cpu/nohz_full", text);
	cpu_env_read(3, &e);
	ok(e.isolated_known && !strcmp(e.isolated, list), "isolated: the whole list (%zu bytes)",
	   strlen(e.isolated));
	ok(e.nohz_full_known && !strcmp(e.nohz_full, list), "nohz_full: the whole list");
	odd_cpus(list, sizeof(list), 2048);
	snprintf(text, sizeof(text), "%s\n", list);
	put("/sys/devices/system/cpu/isolated", text);
	cpu_env_read(3, &e);
	ok(strlen(e.isolated) > 3 && !strcmp(e.isolated + strlen(e.isolated) - 4, ",...") &&
	   !strncmp(e.isolated, list, strlen(e.isolated) - 3),
	   "CPUs past 1023 too: cut visibly after a comma (...%s)",
	   e.isolated + (strlen(e.isolated) > 20 ? strlen(e.isolated) - 20 : 0));
	put("/sys/devices/system/cpu/isolated", "2-3\n");
	put("/sys/devices/system/cpu/nohz_full", "(null)\n");
}

static void check_empty_tree(void)
{
	struct cpu_env e;
	json_t *j;

	t_path(root, "%s/empty", getenv("BARETMA_STATE_DIR"));
	mkdir(root, 0700);
	setenv("BARETMA_SYSROOT", root, 1);
	cpu_env_read(0, &e);
	check_str(e.kernel, "", "no osrelease: unknown");
	check_int(e.msr_module, ==, 0, "no /sys/module/msr: not loaded");
	check_int(e.rdpmc, ==, -1, "no rdpmc file: unknown");
	check_int(e.nmi_watchdog, ==, -1, "no nmi_watchdog: unknown");
	check_int(e.turbo, ==, -1, "no turbo files: unknown");
	check_int(e.core_pmu, ==, 0, "no core PMU driver");
	ok(!e.isolated_known, "isolated unknown");
	j = env_to_json(&e, NULL, NULL);
	ok(json_is_null(json_object_get(j, "nmi_watchdog")), "unknown nmi_watchdog is null, not 0");
	ok(json_is_null(json_object_get(j, "kernel")), "unknown kernel is null");
	ok(json_is_false(json_object_get(j, "msr_module")), "msr_module false");
	json_decref(j);
}

int main(void)
{
	const char *tmp = getenv("BARETMA_STATE_DIR");

	if (!tmp)
		tmp = "/tmp";
	t_path(root, "%s/sysroot", tmp);
	mkdir(tmp, 0700);
	mkdir(root, 0700);
	setenv("BARETMA_SYSROOT", root, 1);
	check_full_tree();
	check_long_lists();
	check_empty_tree();
	return done_testing();
}
