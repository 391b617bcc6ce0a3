/*
 * t/fixture.h - fixtures shared by baretma's C tests (on top of t/tap.h,
 * which has put_file/get_file).
 *
 * Environment: t_env_set(&save, NAME, VALUE or NULL) changes one variable
 * for a test and t_env_put_back(&save) puts back what was there; with
 * cpu/cpu.h included first, t_hwloc_dump_env(saved, dir) sets the
 * environment hwloc needs for a CPUID dump directory (cpu_topo_dump_env),
 * as the command line does, and t_hwloc_dump_env_put_back(saved, n) undoes
 * it.  Tests own their process: they may write the environment, the
 * library may not.
 */
#ifndef BARETMA_T_FIXTURE_H
#define BARETMA_T_FIXTURE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "t/tap.h"

/* ----------------------------------------------------------- environment */

struct t_env {
	const char *name; /* NULL: nothing to put back */
	char *old;        /* the value before, NULL when it was unset */
};

/* t_env_set - set $@name to @value (NULL: unset it), keeping the old value
 * in @e for t_env_put_back.  Failure is "Bail out!". */
static inline void t_env_set(struct t_env *e, const char *name, const char *value)
{
	const char *old = getenv(name);

	e->name = name;
	e->old = old ? strdup(old) : NULL;
	if ((old && !e->old) || (value ? setenv(name, value, 1) : unsetenv(name))) {
		printf("Bail out! cannot set %s\n", name);
		exit(1);
	}
}

/* t_env_put_back - $@name as it was before t_env_set. */
static inline void t_env_put_back(struct t_env *e)
{
	if (!e->name)
		return;
	if (e->old)
		setenv(e->name, e->old, 1);
	else
		unsetenv(e->name);
	free(e->old);
	e->name = NULL;
	e->old = NULL;
}

#ifdef BARETMA_CPU_H
/* t_hwloc_dump_env - the environment of cpu_topo_dump_env(@dir), set as
 * the command line sets it before cpu_machine_open; @saved has
 * CPU_TOPO_DUMP_ENV_MAX entries.  Returns the count for the put-back. */
static inline size_t t_hwloc_dump_env(struct t_env *saved, const char *dir)
{
	struct cpu_env_var vars[CPU_TOPO_DUMP_ENV_MAX];
	size_t n = cpu_topo_dump_env(dir, vars);

	for (size_t i = 0; i < n; i++)
		t_env_set(&saved[i], vars[i].name, vars[i].value);
	return n;
}

static inline void t_hwloc_dump_env_put_back(struct t_env *saved, size_t n)
{
	while (n-- > 0)
		t_env_put_back(&saved[n]);
}
#endif

#endif
