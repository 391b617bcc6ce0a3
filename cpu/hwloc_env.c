/*
 * cpu/hwloc_env.c - the environment hwloc reads when a topology is built:
 * what the library refuses (cpu_hwloc_env_check) and what hwloc needs for a
 * CPUID dump directory (cpu_topo_dump_env).  Reads the environment, never
 * writes it: a library's setenv() races every other thread of its host that
 * reads the environment (getenv returns pointers into it), so only the
 * process owner (baretma's main(), a harness before it starts threads)
 * changes it.
 *
 * hwloc 2.9 (Debian 12's libhwloc15 is built with plugin support: it calls
 * dlopen) loads plugins in hwloc_components_init(), which
 * hwloc_topology_init() calls whenever no other topology of the process is
 * alive (hwloc/components.c: hwloc_components_users going from 0 to 1).
 * hwloc_plugins_init() then reads $HWLOC_PLUGINS_PATH (a ':'-separated
 * list of directories, default the compiled-in plugin directory) and
 * dlopen()s every "*.so" found there: a constructor in such a file runs
 * with the caller's rights before hwloc looks at the file at all.  What the
 * documented variables do about that, in that code:
 *   - HWLOC_COMPONENTS only chooses among components already registered,
 *     after the dlopen: it prevents nothing;
 *   - HWLOC_PLUGINS_BLACKLIST skips a file whose base name is a substring
 *     of its value (strstr): only names known in advance;
 *   - HWLOC_PLUGINS_PATH="" names no directory: hwloc's own directory walk
 *     (hwloc_dlforeachfile: "while (*path)") and libltdl's
 *     lt_dlforeachfile (an empty search path is FILE_NOT_FOUND) open
 *     nothing, so no plugin is loaded, the system's included.
 * baretma needs no plugin (the Linux and x86 discovery backends are built
 * into libhwloc; the plugins are I/O backends: PCI, CUDA, OpenCL ...).  The
 * variables are read again at every such init (checked: a process that set
 * the variable between two inits loaded the plugin at the second), so every
 * path to hwloc_topology_init() in cpu/ checks first: a directory named
 * there is refused, not emptied.  The command line sets it to "" at start
 * (bench/cli/main.c), which also keeps the system's plugin directory closed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/cpu_topo.h"
#include "cpu/trust.h"

/* hwloc's variables that replace the machine hwloc describes by something
 * else: the Linux backend's file system root and hwdata directory, an XML
 * or synthetic topology, and the claim that such a topology is this
 * system's (it would then be bound to).  Honoured from a trusted
 * environment (tests, a root shell's own choice); refused from an
 * untrusted one.  HWLOC_CPUID_PATH (with HWLOC_COMPONENTS=x86) is never
 * refused: hwloc reads only a CPUID dump's own files in it
 * (hwloc-cpuid-info, puN), and the topology it builds is never taken for
 * this system's. */
static const char *const untrusted_vars[] = {
	"HWLOC_FSROOT", "HWLOC_DUMPED_HWDATA_DIR", "HWLOC_XMLFILE", "HWLOC_SYNTHETIC",
	"HWLOC_THISSYSTEM",
};

int cpu_hwloc_env_check(const char **var, char *why, size_t n)
{
	const char *plugins = getenv("HWLOC_PLUGINS_PATH");
	char trust[160];

	if (var)
		*var = NULL;
	if (why && n)
		why[0] = '\0';
	if (plugins && *plugins) {
		if (var)
			*var = "HWLOC_PLUGINS_PATH";
		if (why && n)
			snprintf(why, n, "HWLOC_PLUGINS_PATH is set: hwloc would load the plugins in "
				 "it and run their code in this process (unset it or set it empty: "
				 "baretma needs no hwloc plugin)");
		return -EPERM;
	}
	if (!trust_env_untrusted(trust, sizeof(trust)))
		return 0;
	for (size_t i = 0; i < sizeof(untrusted_vars) / sizeof(untrusted_vars[0]); i++) {
		if (!getenv(untrusted_vars[i]))
			continue;
		if (var)
			*var = untrusted_vars[i];
		if (why && n)
			snprintf(why, n, "%s is set and the environment is not this process's own "
				 "(%s): hwloc would describe another machine than this one (unset it)",
				 untrusted_vars[i], trust);
		return -EPERM;
	}
	return 0;
}

size_t cpu_topo_dump_env(const char *dir, struct cpu_env_var vars[CPU_TOPO_DUMP_ENV_MAX])
{
	/* HWLOC_THISSYSTEM=1 would make the dump look like this machine (and
	 * bindable); XMLFILE/SYNTHETIC would replace the dump altogether. */
	static const char *const unset[] = { "HWLOC_THISSYSTEM", "HWLOC_XMLFILE", "HWLOC_SYNTHETIC" };
	size_t i = 0;

	vars[i++] = (struct cpu_env_var){ "HWLOC_CPUID_PATH", dir };
	vars[i++] = (struct cpu_env_var){ "HWLOC_COMPONENTS", "x86,stop" };
	for (size_t u = 0; u < sizeof(unset) / sizeof(unset[0]); u++)
		vars[i++] = (struct cpu_env_var){ unset[u], NULL };
	return i;
}

int cpu_topo_dump_env_check(const char *dir)
{
	struct cpu_env_var vars[CPU_TOPO_DUMP_ENV_MAX];
	size_t n = cpu_topo_dump_env(dir, vars);

	for (size_t i = 0; i < n; i++) {
		const char *v = getenv(vars[i].name);

		if (vars[i].value ? !v || strcmp(v, vars[i].value) : v != NULL)
			return -EINVAL;
	}
	return 0;
}
