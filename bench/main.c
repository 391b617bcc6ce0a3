/*
 * bench/main.c - baretma's front end: parse the subcommand, call the layer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "config.h"
#include "cpu/cpu.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: baretma <command> [options]\n"
"\n"
"commands:\n"
"  bench    run known-answer kernels bracketed with RDPMC and report Top-down\n"
"           level 1/2 (or TSC timing only, with the reason, where no PMU)\n"
"  info     identify the CPU: vendor, model, PMU, core kinds, Top-down availability\n"
"  decode   decode an IA32_PERF_METRICS value or a region between two readings\n"
"  pmu      enable | status | restore: program fixed counter 3 and PERF_METRICS\n"
"           and leave them running for another harness, with a restore journal\n"
"  cpuid    dump: write this machine's CPUID (every online CPU) as a file that\n"
"           'info --cpuid-dump' and libcpuid read; send it with bug reports\n"
"  msr      read | write CPU MSR [VALUE]: one register of a list of CPUs; writes\n"
"           only to known PMU registers (else --force), journaled first\n"
"  help     'baretma help CMD' is 'baretma CMD --help'\n"
"  version  print baretma's version (also: --version)\n"
"\n"
"'baretma <command> --help' describes each command's options and exit statuses.\n"
"\n"
"environment:\n"
"  BARETMA_MSR        MSR backend: path template with %%u (default /dev/cpu/%%u/msr;\n"
"                     /dev/cpu/%%u/msr_safe works too) or state:FILE (dry runs, tests)\n"
"  BARETMA_MSR_TRACE  append every MSR access to this file (audit log)\n"
"  BARETMA_CPUID_DUMP identify from this CPUID dump instead of the live CPU\n"
"  BARETMA_STATE_DIR  run journals (bench, 'pmu enable', 'msr write'), CPU and\n"
"                     settings locks (default /run/baretma); an absolute path\n"
"                     (a relative one is refused: exit 64)\n"
"  BARETMA_SYSROOT    root for /sys and /proc paths (default /); must be an\n"
"                     existing directory (else exit 66)\n"
"  Under sudo or setuid BARETMA_SYSROOT and hwloc's topology variables are\n"
"  ignored (with a warning); hwloc never loads plugins; the state directory's\n"
"  path may hold no one else's symbolic link (README: Running as root safely)\n"
"\n"
"exit status: 0 ok, 64 usage, 65 bad input data, 66 input file missing,\n"
"  69 unavailable (no PMU/device for what was asked), 70 internal error,\n"
"  71 system error, 73 cannot create an output file or the state directory,\n"
"  74 I/O error, 75 busy (counters or CPU in use, a journal holds it; bench:\n"
"  counters changed by someone else mid-run), 77 permission denied;\n"
"  128+N killed by signal N after putting the registers back\n");
}

/* The commands, and what each needs of the environment before it runs
 * (git's RUN_SETUP): the sysroot it reads, the state directory it keeps
 * journals and locks in. */
static const struct cmd {
	const char *name;
	int (*fn)(int, char **);
	unsigned env; /* CLI_ENV_* for cli_check_env */
} cmds[] = {
	{ "bench", cmd_bench, CLI_ENV_SYSROOT | CLI_ENV_STATE_DIR },
	{ "info", cmd_info, CLI_ENV_SYSROOT },
	{ "decode", cmd_decode, 0 },
	{ "pmu", cmd_pmu, CLI_ENV_SYSROOT | CLI_ENV_STATE_DIR },
	{ "cpuid", cmd_cpuid, CLI_ENV_SYSROOT },
	{ "msr", cmd_msr, CLI_ENV_SYSROOT | CLI_ENV_STATE_DIR },
};

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

/* Does the command line ask for help (before any "--")?  Help is printed
 * whatever the environment holds. */
static bool asks_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

static int unknown_command(const char *name)
{
	if (name[0] == '-')
		cli_err("unknown option '%s' (try: baretma --help)", name);
	else
		cli_err("unknown command '%s' (try: baretma --help)", name);
	return EX_USAGE;
}

/* "baretma help [CMD ...]": the same as "baretma CMD --help". */
static int help(int argc, char **argv)
{
	const struct cmd *c;
	char *args[3];

	if (argc < 3 || !strcmp(argv[2], "help") || !strcmp(argv[2], "version")) {
		usage(stdout);
		return EX_OK;
	}
	if (!(c = find_cmd(argv[2])))
		return unknown_command(argv[2]);
	args[0] = argv[2];
	args[1] = (char *)"--help";
	args[2] = NULL;
	return c->fn(2, args);
}

/*
 * hwloc's environment made safe once, before the command runs and before
 * any thread: baretma owns its process, so the environment is written
 * here, and the library only checks it (cpu_hwloc_env_check refuses what
 * is dropped here, cpu/hwloc_env.c says why).  HWLOC_PLUGINS_PATH is set
 * empty, so that hwloc loads no plugin at all, its system directory's
 * included; from an untrusted environment hwloc's topology-replacing
 * variables are unset.  @dropped receives the names whose caller-set
 * value was dropped (at most @max).  Returns how many, or -errno.
 */
static int hwloc_env_sanitize(const char **dropped, int max)
{
	const char *var;
	int n = 0;

	/* one variable a round; bounded, whatever setenv does */
	for (int i = 0; i < 16 && cpu_hwloc_env_check(&var, NULL, 0) == -EPERM; i++) {
		if (strcmp(var, "HWLOC_PLUGINS_PATH") ? unsetenv(var) : setenv(var, "", 1))
			return -errno;
		if (n < max)
			dropped[n++] = var;
	}
	return setenv("HWLOC_PLUGINS_PATH", "", 1) ? -errno : n;
}

int main(int argc, char **argv)
{
	const char *dropped[16];
	const struct cmd *c;
	int rc;

	cli_set_cmdline(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EX_OK;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		if (argc > 2) {
			cli_err("version: unexpected argument '%s' (try: baretma --help)", argv[2]);
			return EX_USAGE;
		}
		printf("baretma %s\n", PACKAGE_VERSION);
		return EX_OK;
	}
	if (!(c = find_cmd(argv[1])))
		return unknown_command(argv[1]);
	if (!asks_help(argc - 1, argv + 1)) {
		if ((rc = hwloc_env_sanitize(dropped, 16)) < 0) {
			cli_err("cannot make hwloc's environment safe: %s", strerror(-rc));
			return EX_OSERR;
		}
		cli_warn_env(dropped, rc);
		if ((rc = cli_check_env(c->env)))
			return rc;
	}
	return c->fn(argc - 1, argv + 1);
}
