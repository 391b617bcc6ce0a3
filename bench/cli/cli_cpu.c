/*
 * bench/cli/cli_cpu.c - which machine every command works with (built once from
 * --cpuid-dump / $BARETMA_CPUID_DUMP), what the commands say about a CPU it
 * does not have, and about the CPUs they choose on hybrid parts: the
 * refusal of a core kind without IA32_PERF_METRICS, and the warning when
 * hwloc's CPU kinds disagree with CPUID leaf 0x1A.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/cli.h"
#include "cpu/cpu.h"
#include "cpu/knobs.h"
#include "cpu/machine.h"
#include "cpu/text.h"
#include "msr/guard/guard.h"
#include "msr/regs/msr_names.h"

/* One variable of cpu_topo_dump_env set for the open, and what it was. */
struct env_save {
	const char *name; /* NULL: nothing to put back */
	char *old;
};

static int env_push(struct env_save *e, const struct cpu_env_var *v)
{
	const char *old = getenv(v->name);

	e->name = NULL;
	e->old = old ? strdup(old) : NULL;
	if (old && !e->old)
		return -ENOMEM;
	e->name = v->name;
	return (v->value ? setenv(v->name, v->value, 1) : unsetenv(v->name)) ? -errno : 0;
}

static void env_pop(struct env_save *e)
{
	if (e->name && (e->old ? setenv(e->name, e->old, 1) : unsetenv(e->name)))
		cli_warn("could not put %s back: %s", e->name, strerror(errno));
	free(e->old);
	e->name = NULL;
	e->old = NULL;
}

/*
 * cpu_machine_open(@path) with the environment hwloc needs to build a
 * hwloc-gather-cpuid directory's topology (cpu_topo_dump_env: hwloc takes
 * the directory from its environment only, and the library never writes
 * the environment), put back as it was right after: a later live topology
 * is this machine's.  The command line owns its process and has no other
 * thread here.
 */
static int machine_open(const char *path, struct cpu_machine **m, char **why)
{
	struct cpu_env_var vars[CPU_TOPO_DUMP_ENV_MAX];
	struct env_save saved[CPU_TOPO_DUMP_ENV_MAX] = { { 0 } };
	size_t nvars = path ? cpu_topo_dump_env(path, vars) : 0, i = 0;
	int rc = 0;

	while (!rc && i < nvars) {
		rc = env_push(&saved[i], &vars[i]);
		i++;
	}
	if (rc && why)
		text_setf(why, "cannot set %s: %s", vars[i - 1].name, strerror(-rc));
	else
		rc = cpu_machine_open(path, m, why);
	while (i-- > 0)
		env_pop(&saved[i]);
	return rc;
}

/* The simulated PMU (msr/sim/msr_sim.h) and the names of `pmu` identify
 * their CPU from $BARETMA_CPUID_DUMP: --cpuid-dump must describe the same
 * machine to them.  The command line is one thread here (the library
 * never writes the environment). */
int cli_dump_export(const char *dump)
{
	return setenv("BARETMA_CPUID_DUMP", dump, 1) ? cli_exit_for_errno(-errno) : EX_OK;
}

int cli_machine_open(const char *dump, struct cpu_machine **m)
{
	const char *env = getenv("BARETMA_CPUID_DUMP");
	const char *path = dump ? dump : env && *env ? env : NULL;
	char *why = NULL; /* cpu_machine_open's, whole: it quotes a dump's line */
	int rc;

	if (dump && (rc = cli_dump_export(dump)))
		return rc;
	rc = machine_open(path, m, &why);

	if (!rc) {
		free(why);
		return EX_OK;
	}
	if (rc == -EPERM) {
		cli_err("cannot build the CPU topology: %s", text_or_empty(why));
		rc = EX_NOPERM;
	} else if (!path) {
		cli_err("cannot read this machine's CPUs: %s", why ? why : strerror(-rc));
		rc = cli_exit_for_errno(rc);
	} else if (rc == -EACCES) { /* why says who cannot read it, and what to do */
		cli_err("cannot load CPUID dump '%s': %s", path, why ? why : strerror(-rc));
		rc = EX_NOPERM;
	} else {
		cli_err("cannot load CPUID dump '%s': %s (give a libcpuid raw dump, an AIDA64 "
			"CPUID dump, a hwloc-gather-cpuid directory, a file from 'baretma cpuid "
			"dump' or a report bundle from 'baretma validate --bundle')",
			path, why ? why : strerror(-rc));
		rc = rc == -ENOENT ? EX_NOINPUT : rc == -EACCES ? EX_NOPERM :
		     rc == -ENOMEM ? EX_OSERR : EX_DATAERR;
	}
	free(why);
	return rc;
}

int cli_identify_failed(const struct cpu_machine *m, int err)
{
	cli_err("cannot identify the CPU from '%s': %s", cpu_source_name(cpu_machine_source(m)),
		err == -EINVAL ? "libcpuid does not recognise the CPUID data" : strerror(-err));
	return cli_exit_for_errno(err);
}

int cli_bad_cpu(const char *subject, const struct cpu_machine *m, int err, bool pinned)
{
	static unsigned cpus[CPU_MAX_CPUS];
	unsigned n = cpu_machine_cpus(m, cpus, CPU_MAX_CPUS);
	char *list = guard_cpus_text(cpus, n < CPU_MAX_CPUS ? n : CPU_MAX_CPUS);
	char path[PATH_MAX];

	if (!list) {
		cli_err("%s: %s", subject, strerror(ENOMEM));
		return EX_OSERR;
	}
	if (cpu_machine_is_dump(m))
		cli_err("%s: no such CPU: the CPUID dump '%s' describes CPUs %s", subject,
			cpu_machine_name(m), n ? list : "none");
	else if (err == -ENODEV)
		cli_err("%s is offline (see %s)", subject,
			cpu_sysfs_path(path, sizeof(path), CPU_SYS_ONLINE_CPUS));
	else if (pinned)
		cli_err("%s: no such CPU, or it is offline or not allowed for this process "
			"(see: hwloc-ls)", subject);
	else
		cli_err("%s: no such CPU in this machine (CPUs %s)", subject, n ? list : "none");
	free(list);
	return EX_USAGE;
}

void cli_fmt_cpus(char *buf, size_t n, const unsigned *cpus, unsigned ncpus)
{
	guard_fmt_cpus(buf, n, cpus, ncpus); /* the guard's messages list CPUs too */
}

int cli_refuse_kind(const char *who, const struct cpu_info *ci, unsigned cpu, const char *more)
{
	static unsigned td[CPU_MAX_CPUS];
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);
	unsigned n = cpu_topdown_cpus(ci, td, CPU_MAX_CPUS);
	const char *kind = k ? k->kind : "unknown";
	char *list = guard_cpus_text(td, n < CPU_MAX_CPUS ? n : CPU_MAX_CPUS);

	if (!list) {
		cli_err("%s%scpu %u: %s", who ? who : "", who ? ": " : "", cpu, strerror(ENOMEM));
		return EX_OSERR;
	}
	cli_err("%s%scpu %u is %s %s core (%s): it has no IA32_PERF_METRICS; CPUs that can "
		"measure Top-down: %s (try: --cpu %u%s)", who ? who : "", who ? ": " : "", cpu,
		strchr("aeiou", kind[0]) ? "an" : "a", kind, k && k->uarch ? k->uarch : "unknown",
		n ? list : "none", n ? td[0] : 0, more ? more : "");
	free(list);
	return EX_USAGE;
}

void cli_warn_kinds(const char *who, const struct cpu_machine *m, const struct cpu_info *ci)
{
	char *why = NULL;

	if (cpu_machine_check_kinds(m, ci, &why) == -EPROTO)
		cli_warn("%s: hwloc's CPU kinds disagree with CPUID: %s (going by CPUID "
			 "leaf 0x1A, which names each CPU's core type)", who, why);
	free(why);
}

struct cpu_info *cli_names_identify(const struct cpu_machine *m)
{
	const char *env = getenv("BARETMA_CPUID_DUMP");
	struct cpu_machine *own = NULL;
	struct cpu_info *ci = calloc(1, sizeof(*ci));

	if (ci && !m && machine_open(env && *env ? env : NULL, &own, NULL) == 0)
		m = own;
	if (ci && (!m || cpu_info_identify(cpu_machine_source(m), NULL, ci))) {
		free(ci);
		ci = NULL;
	}
	cpu_machine_free(own);
	return ci;
}

const struct msr_counters *cli_msr_counters(const struct cpu_info *ci, unsigned cpu,
					    struct msr_counters *c)
{
	const struct cpu_kind *k = ci && ci->vendor == CPU_VENDOR_INTEL ?
				   cpu_info_kind_of(ci, cpu) : NULL;

	if (!k)
		return NULL;
	c->gp_mask = k->gp_mask;
	c->fixed_mask = k->fixed_mask;
	return c;
}
