/*
 * cpu/hwloc_env.c - the environment hwloc reads when a topology is built,
 * made safe for a root process (cpu/cpu.h cpu_hwloc_env_lock; README
 * "Running as root safely").
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
 * into libhwloc; the plugins are I/O backends: PCI, CUDA, OpenCL ...), so it
 * sets HWLOC_PLUGINS_PATH="".  The variables are read again at every such
 * init (checked: a process that set the variable between two inits loaded
 * the plugin at the second), so the value must stay in place: every path to
 * hwloc_topology_init() in cpu/ calls cpu_hwloc_env_lock() first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/trust.h"

/* hwloc's variables that replace the machine hwloc describes by something
 * else: the Linux backend's file system root and hwdata directory, an XML
 * or synthetic topology, and the claim that such a topology is this
 * system's (it would then be bound to).  Honoured from a trusted
 * environment (tests, a root shell's own choice); dropped from an
 * untrusted one.  HWLOC_CPUID_PATH (with HWLOC_COMPONENTS=x86) stays: hwloc
 * reads only a CPUID dump's own files in it (hwloc-cpuid-info, puN), and
 * the topology it builds is never taken for this system's. */
static const char *const untrusted_vars[] = {
	"HWLOC_FSROOT", "HWLOC_DUMPED_HWDATA_DIR", "HWLOC_XMLFILE", "HWLOC_SYNTHETIC",
	"HWLOC_THISSYSTEM",
};

static bool set(const char *name)
{
	const char *v = getenv(name);

	return v && *v;
}

int cpu_hwloc_env_lock(const char **dropped, size_t max)
{
	size_t n = 0;
	bool untrusted;

	if (set("HWLOC_PLUGINS_PATH")) {
		if (dropped && n < max)
			dropped[n] = "HWLOC_PLUGINS_PATH";
		n++;
	}
	if (setenv("HWLOC_PLUGINS_PATH", "", 1))
		return -errno;
	untrusted = trust_env_untrusted(NULL, 0);
	for (size_t i = 0; untrusted && i < sizeof(untrusted_vars) / sizeof(untrusted_vars[0]);
	     i++) {
		if (!getenv(untrusted_vars[i]))
			continue;
		if (unsetenv(untrusted_vars[i]))
			return -errno;
		if (dropped && n < max)
			dropped[n] = untrusted_vars[i];
		n++;
	}
	return (int)n;
}
