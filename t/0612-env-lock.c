/*
 * t/0612-env-lock - the library's side of issue 9, points 3 and 5: what
 * cpu_hwloc_env_lock leaves of hwloc's environment, and which sysroot and
 * kernels the library uses from a trusted and from an untrusted (sudo)
 * environment.  Expected values: hwloc 2.9's hwloc/components.c (an empty
 * HWLOC_PLUGINS_PATH names no directory), the variables set here, and the
 * build (this test program is not linked with bench/kernels_hooks.c).
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cpu/cpu.h"
#include "t/tap.h"

int main(void)
{
	const char *dropped[8];
	char buf[256], why[160];
	hwloc_topology_t topo;
	int n;

	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");

	/* --- hwloc: trusted environment */
	setenv("HWLOC_PLUGINS_PATH", "/tmp/t-plugins", 1);
	setenv("HWLOC_XMLFILE", "/tmp/t.xml", 1);
	setenv("HWLOC_CPUID_PATH", "/tmp/t-cpuid", 1);
	n = cpu_hwloc_env_lock(dropped, 8);
	check_int(n, ==, 1, "trusted: one variable dropped");
	check_str(n >= 1 ? dropped[0] : "", "HWLOC_PLUGINS_PATH", "trusted: HWLOC_PLUGINS_PATH");
	check_str(getenv("HWLOC_PLUGINS_PATH"), "", "HWLOC_PLUGINS_PATH is empty: no plugin directory");
	check_str(getenv("HWLOC_XMLFILE"), "/tmp/t.xml", "trusted: HWLOC_XMLFILE kept");
	check_str(getenv("HWLOC_CPUID_PATH"), "/tmp/t-cpuid", "HWLOC_CPUID_PATH kept");
	check_int(cpu_hwloc_env_lock(NULL, 0), ==, 0, "called again: its own empty value is no drop");

	/* --- hwloc: under sudo */
	setenv("SUDO_USER", "t-sudo-user", 1);
	setenv("HWLOC_PLUGINS_PATH", "/tmp/t-plugins", 1);
	setenv("HWLOC_FSROOT", "/tmp/t-root", 1);
	setenv("HWLOC_THISSYSTEM", "1", 1);
	n = cpu_hwloc_env_lock(dropped, 8);
	check_int(n, ==, 4, "sudo: four dropped (PLUGINS_PATH, FSROOT, XMLFILE, THISSYSTEM)");
	check_str(getenv("HWLOC_PLUGINS_PATH"), "", "sudo: HWLOC_PLUGINS_PATH empty");
	ok(!getenv("HWLOC_FSROOT") && !getenv("HWLOC_XMLFILE") && !getenv("HWLOC_THISSYSTEM"),
	   "sudo: HWLOC_FSROOT, HWLOC_XMLFILE, HWLOC_THISSYSTEM unset");
	check_str(getenv("HWLOC_CPUID_PATH"), "/tmp/t-cpuid", "sudo: HWLOC_CPUID_PATH kept");
	n = cpu_hwloc_env_lock(dropped, 2);
	check_int(n, ==, 0, "sudo, called again: nothing left to drop");
	unsetenv("HWLOC_CPUID_PATH");

	/* A topology load re-asserts the lock: a HWLOC_PLUGINS_PATH set after
	 * startup is emptied again before hwloc reads it. */
	setenv("HWLOC_PLUGINS_PATH", "/tmp/t-plugins", 1);
	if (cpu_topo_load(&topo) == 0) {
		hwloc_topology_destroy(topo);
		check_str(getenv("HWLOC_PLUGINS_PATH"), "", "cpu_topo_load: HWLOC_PLUGINS_PATH emptied first");
	} else {
		ok(0, "cpu_topo_load of this machine");
	}
	unsetenv("SUDO_USER");

	/* --- BARETMA_SYSROOT */
	setenv("BARETMA_SYSROOT", "/nonexistent/t-root", 1);
	ok(!cpu_sysfs_root_ignored(why, sizeof(why)), "trusted: the sysroot is honoured");
	check_int(cpu_sysfs_root_check(), ==, -ENOENT, "trusted: a missing sysroot is an error");
	check_int(cpu_sysfs_resolve(buf, sizeof(buf), "/sys/kernel/security/lockdown"), ==, 0,
		  "resolve (trusted)");
	check_str(buf, "/nonexistent/t-root/sys/kernel/security/lockdown", "trusted: under the sysroot");
	setenv("SUDO_USER", "t-sudo-user", 1);
	ok(cpu_sysfs_root_ignored(why, sizeof(why)), "sudo: the sysroot is ignored");
	check_str(why, "running under sudo (SUDO_USER=t-sudo-user)", "sudo: the reason");
	check_int(cpu_sysfs_root_check(), ==, 0, "sudo: nothing to check");
	check_int(cpu_sysfs_resolve(buf, sizeof(buf), "/sys/kernel/security/lockdown"), ==, 0,
		  "resolve (sudo)");
	check_str(buf, "/sys/kernel/security/lockdown", "sudo: the real path");
	unsetenv("BARETMA_SYSROOT");
	ok(!cpu_sysfs_root_ignored(why, sizeof(why)), "sudo, no sysroot: nothing ignored");
	unsetenv("SUDO_USER");

	/* --- BARETMA_TEST_HOOKS: this program is built without the hooks */
	setenv("BARETMA_TEST_HOOKS", "1", 1);
	ok(!bench_test_hooks_built(), "a program without bench/kernels_hooks.c has no hooks");
	ok(bench_kernel_find("test-fault-segv") == NULL, "so no test-fault-segv, BARETMA_TEST_HOOKS=1 or not");
	ok(bench_kernel_find("retire-light") != NULL, "the real kernels are found");
	setenv("SUDO_USER", "t-sudo-user", 1);
	ok(!bench_test_hooks_ignored(why, sizeof(why)), "nothing to ignore where there are no hooks");
	unsetenv("SUDO_USER");
	unsetenv("BARETMA_TEST_HOOKS");
	return done_testing();
}
