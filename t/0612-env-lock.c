/*
 * t/0612-env-lock - the library's side of issue 9, points 3 and 5: which of
 * hwloc's variables the library refuses (cpu_hwloc_env_check; it never
 * writes the environment: issue 10, t/0613), and which sysroot and kernels
 * the library uses from a trusted and from an untrusted (sudo)
 * environment.  Expected values: hwloc 2.9's hwloc/components.c (a
 * non-empty HWLOC_PLUGINS_PATH names directories to dlopen from), the
 * variables set here, and the build (this test program is not linked with
 * bench/kernels_hooks.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cpu/cpu.h"
#include "t/tap.h"

int main(void)
{
	const char *var;
	char buf[256], why[300];

	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");

	/* --- hwloc: trusted environment */
	setenv("HWLOC_PLUGINS_PATH", "/tmp/t-plugins", 1);
	setenv("HWLOC_XMLFILE", "/tmp/t.xml", 1);
	setenv("HWLOC_CPUID_PATH", "/tmp/t-cpuid", 1);
	check_int(cpu_hwloc_env_check(&var, why, sizeof(why)), ==, -EPERM,
		  "trusted: a HWLOC_PLUGINS_PATH is refused");
	check_str(var, "HWLOC_PLUGINS_PATH", "trusted: HWLOC_PLUGINS_PATH named");
	ok(strstr(why, "HWLOC_PLUGINS_PATH") && strstr(why, "(unset it"),
	   "the message names it and the remedy: %s", why);
	check_str(getenv("HWLOC_PLUGINS_PATH"), "/tmp/t-plugins", "and leaves it as it is");
	setenv("HWLOC_PLUGINS_PATH", "", 1);
	check_int(cpu_hwloc_env_check(&var, NULL, 0), ==, 0,
		  "trusted: an empty HWLOC_PLUGINS_PATH (no plugin directory), HWLOC_XMLFILE and "
		  "HWLOC_CPUID_PATH pass");
	ok(var == NULL, "nothing named");
	unsetenv("HWLOC_PLUGINS_PATH");
	check_int(cpu_hwloc_env_check(NULL, NULL, 0), ==, 0, "trusted: an unset HWLOC_PLUGINS_PATH passes");

	/* --- hwloc: under sudo */
	setenv("SUDO_USER", "t-sudo-user", 1);
	setenv("HWLOC_PLUGINS_PATH", "/tmp/t-plugins", 1);
	setenv("HWLOC_FSROOT", "/tmp/t-root", 1);
	setenv("HWLOC_THISSYSTEM", "1", 1);
	check_int(cpu_hwloc_env_check(&var, NULL, 0), ==, -EPERM, "sudo: refused");
	check_str(var, "HWLOC_PLUGINS_PATH", "sudo: HWLOC_PLUGINS_PATH first");
	unsetenv("HWLOC_PLUGINS_PATH");
	check_int(cpu_hwloc_env_check(&var, why, sizeof(why)), ==, -EPERM, "sudo: still refused");
	check_str(var, "HWLOC_FSROOT", "sudo: then HWLOC_FSROOT");
	ok(strstr(why, "running under sudo (SUDO_USER=t-sudo-user)") && strstr(why, "(unset it)"),
	   "the message says why and the remedy: %s", why);
	unsetenv("HWLOC_FSROOT");
	check_int(cpu_hwloc_env_check(&var, NULL, 0), ==, -EPERM, "sudo: HWLOC_XMLFILE refused");
	check_str(var, "HWLOC_XMLFILE", "sudo: then HWLOC_XMLFILE");
	unsetenv("HWLOC_XMLFILE");
	check_int(cpu_hwloc_env_check(&var, NULL, 0), ==, -EPERM, "sudo: HWLOC_THISSYSTEM refused");
	check_str(var, "HWLOC_THISSYSTEM", "sudo: then HWLOC_THISSYSTEM");
	unsetenv("HWLOC_THISSYSTEM");
	check_int(cpu_hwloc_env_check(&var, NULL, 0), ==, 0, "sudo: HWLOC_CPUID_PATH passes");
	check_str(getenv("HWLOC_CPUID_PATH"), "/tmp/t-cpuid", "sudo: HWLOC_CPUID_PATH kept");
	unsetenv("HWLOC_CPUID_PATH");
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
