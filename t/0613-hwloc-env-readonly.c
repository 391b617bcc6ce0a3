/*
 * t/0613-hwloc-env-readonly - the library never writes the environment
 * (issue 10: setenv/unsetenv race every other thread of a host that reads
 * it).  Where hwloc's environment would load a plugin (a non-empty
 * HWLOC_PLUGINS_PATH: hwloc 2.9's hwloc/components.c dlopen()s every
 * "*.so" there) or, untrusted, describe another machine (HWLOC_XMLFILE
 * under sudo), every topology load refuses with -EPERM and a message
 * naming the variable and the remedy; and whether it refuses or loads, the
 * environment block is the same before and after: the same environ array,
 * the same entry pointers, the same bytes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "t/fixture.h"

extern char **environ;

/* The environment block: the array, each entry's pointer and text. */
struct snap {
	char **array;
	size_t n;
	char **ptr;
	char **text;
};

static void snap_take(struct snap *s)
{
	s->array = environ;
	for (s->n = 0; environ[s->n]; s->n++)
		;
	s->ptr = calloc(s->n + 1, sizeof(*s->ptr));
	s->text = calloc(s->n + 1, sizeof(*s->text));
	if (!s->ptr || !s->text) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < s->n; i++) {
		s->ptr[i] = environ[i];
		if (!(s->text[i] = strdup(environ[i]))) {
			printf("Bail out! out of memory\n");
			exit(1);
		}
	}
}

/* Same array, same entries (pointers and bytes), same count; frees @s. */
static bool snap_same(struct snap *s)
{
	bool same = environ == s->array;
	size_t i;

	for (i = 0; same && i < s->n; i++)
		same = environ[i] == s->ptr[i] && !strcmp(environ[i], s->text[i]);
	same = same && environ[s->n] == NULL;
	for (i = 0; i < s->n; i++)
		free(s->text[i]);
	free(s->text);
	free(s->ptr);
	return same;
}

static void check_live(const char *what)
{
	struct cpu_machine *m = NULL;
	hwloc_topology_t topo;
	char *err = NULL;
	struct snap s;
	int rc;

	snap_take(&s);
	rc = cpu_topo_load(&topo);
	ok(snap_same(&s), "%s: cpu_topo_load left the environment block as it was", what);
	check_int(rc, ==, -EPERM, "cpu_topo_load: -EPERM");
	if (!rc)
		hwloc_topology_destroy(topo);
	snap_take(&s);
	rc = cpu_machine_open(NULL, &m, &err);
	ok(snap_same(&s), "%s: cpu_machine_open left the environment block as it was", what);
	check_int(rc, ==, -EPERM, "cpu_machine_open (live): -EPERM");
	ok(err && strstr(err, "(unset it") != NULL, "with the remedy: %s", err ? err : "");
	free(err);
	cpu_machine_free(m);
}

static void check_refused(void)
{
	char err[600];

	setenv("HWLOC_PLUGINS_PATH", "/nonexistent/t-0613-plugins", 1);
	check_live("HWLOC_PLUGINS_PATH set");
	cpu_hwloc_env_check(NULL, err, sizeof(err));
	ok(strstr(err, "HWLOC_PLUGINS_PATH is set") != NULL, "the message names HWLOC_PLUGINS_PATH");
	check_str(getenv("HWLOC_PLUGINS_PATH"), "/nonexistent/t-0613-plugins",
		  "HWLOC_PLUGINS_PATH still the caller's value");
	unsetenv("HWLOC_PLUGINS_PATH");

	setenv("SUDO_USER", "t-sudo-user", 1);
	setenv("HWLOC_XMLFILE", "/nonexistent/t-0613.xml", 1);
	check_live("HWLOC_XMLFILE under sudo");
	cpu_hwloc_env_check(NULL, err, sizeof(err));
	ok(strstr(err, "HWLOC_XMLFILE is set") && strstr(err, "SUDO_USER=t-sudo-user"),
	   "the message names HWLOC_XMLFILE and why it is not trusted");
	check_str(getenv("HWLOC_XMLFILE"), "/nonexistent/t-0613.xml", "HWLOC_XMLFILE still set");
	unsetenv("HWLOC_XMLFILE");
	unsetenv("SUDO_USER");
}

/* Loads that succeed write nothing either (the library used to set
 * HWLOC_PLUGINS_PATH="" before each). */
static void check_loads(void)
{
	hwloc_topology_t topo;
	struct snap s;
	int rc;

	unsetenv("HWLOC_PLUGINS_PATH");
	snap_take(&s);
	rc = cpu_topo_load(&topo);
	ok(snap_same(&s), "HWLOC_PLUGINS_PATH unset: the load left the environment block as it was");
	check_int(rc, ==, 0, "and loaded this machine's topology");
	if (!rc)
		hwloc_topology_destroy(topo);
	setenv("HWLOC_PLUGINS_PATH", "", 1);
	snap_take(&s);
	rc = cpu_topo_load(&topo);
	ok(snap_same(&s), "HWLOC_PLUGINS_PATH empty: the environment block as it was");
	check_int(rc, ==, 0, "and loaded");
	if (!rc)
		hwloc_topology_destroy(topo);
	unsetenv("HWLOC_PLUGINS_PATH");
}

/* A dump directory: its environment set by the caller (as the command line
 * does), then a plugin directory beside it. */
static void check_dump(const char *dir)
{
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX];
	struct cpu_machine *m = NULL;
	hwloc_topology_t topo;
	size_t n = t_hwloc_dump_env(saved, dir);
	char *err = NULL;
	struct snap s;
	int rc;

	snap_take(&s);
	rc = cpu_topo_load_dump(dir, &topo);
	ok(snap_same(&s), "dump directory: the load left the environment block as it was");
	check_int(rc, ==, 0, "and loaded the directory's topology");
	if (!rc)
		hwloc_topology_destroy(topo);
	setenv("HWLOC_PLUGINS_PATH", "/nonexistent/t-0613-plugins", 1);
	snap_take(&s);
	rc = cpu_topo_load_dump(dir, &topo);
	ok(snap_same(&s), "dump directory, HWLOC_PLUGINS_PATH set: the environment block as it was");
	check_int(rc, ==, -EPERM, "cpu_topo_load_dump: -EPERM");
	if (!rc)
		hwloc_topology_destroy(topo);
	rc = cpu_machine_open(dir, &m, &err);
	check_int(rc, ==, -EPERM, "cpu_machine_open of the directory: -EPERM, not its CPU list");
	ok(err && strstr(err, "HWLOC_PLUGINS_PATH is set") != NULL, "naming the variable: %s",
	   err ? err : "");
	free(err);
	cpu_machine_free(m);
	unsetenv("HWLOC_PLUGINS_PATH");
	t_hwloc_dump_env_put_back(saved, n);
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID");
	char dir[PATH_MAX];
	struct stat st;

	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	unsetenv("HWLOC_CPUID_PATH");
	unsetenv("HWLOC_COMPONENTS");
	unsetenv("HWLOC_XMLFILE");
	unsetenv("HWLOC_SYNTHETIC");
	unsetenv("HWLOC_FSROOT");
	unsetenv("HWLOC_THISSYSTEM");
	check_refused();
	check_loads();
	t_path(dir, "%s/hwloc/Intel-RaptorLake-Corei7-1370P",
	       shared ? shared : BARETMA_SRCDIR "/../shared/cpuid");
	if (stat(dir, &st))
		skip(7, "no Raptor Lake-P hwloc directory in ../shared/cpuid");
	else
		check_dump(dir);
	return done_testing();
}
