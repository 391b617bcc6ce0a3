/*
 * bench/cli/main.c - baretma's front end: the usage, help and version, and
 * the command's entry of the table (bench/cli/cli_cmds.c) to dispatch.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "config.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: baretma <command> [options]\n"
"\n"
"commands:\n"
"  bench    run known-answer kernels bracketed with RDPMC and report Top-down\n"
"           level 1/2 (or TSC timing only, with the reason, where no PMU)\n"
"  stat     Top-down of CPUs while a command runs, or per interval (-I MS), as\n"
"           perf stat --topdown: per core kind, slots beside percentages\n"
"  compare  the raw path (rdpmc/msr) against perf_event on the same kernels and\n"
"           CPU, in alternating blocks: per tma_* metric agree or DISAGREE\n"
"  validate check that each CPU's PMU behaves (fixed counter 3, PERF_METRICS,\n"
"           overflow, RDPMC, kernels, perf): PASS / FAIL / SKIP per check\n"
"  calibrate  bracket cost, noise floor and resolution of each backend, saved for bench\n"
"  report   one view of a fleet from what its hosts wrote (bundles, calibration,\n"
"           bench, compare, stat): groups by CPU, differing settings, checks, outliers\n"
"  info     identify the CPU: vendor, model, PMU, core kinds, Top-down availability\n"
"  decode   decode an IA32_PERF_METRICS value or a region between two readings,\n"
"           or compute a Top-down recipe from raw counts (--recipe, --recipes)\n"
"  pmu      enable | status | restore: program fixed counter 3 and PERF_METRICS\n"
"           and leave them running for another harness, with a restore journal\n"
"  cpuid    dump: write this machine's CPUID (every online CPU) as a file that\n"
"           'info --cpuid-dump' and libcpuid read; send it with bug reports\n"
"  msr      read | write CPU MSR [VALUE]: one register of a list of CPUs; writes\n"
"           only to known PMU registers (else --unsafe-msr), journaled first\n"
"  help     'baretma help CMD': CMD's man page (man baretma-CMD; its --help\n"
"           where man is not installed)\n"
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
"                     settings locks (default /run/baretma; a dry run - a dump,\n"
"                     state:FILE, sim:PROFILE - uses $TMPDIR/baretma-dry-EUID);\n"
"                     an absolute path (a relative one is refused: exit 64)\n"
"  BARETMA_SYSROOT    root for /sys and /proc paths (default /); must be an\n"
"                     existing directory (else exit 66)\n"
"  Under sudo or setuid BARETMA_SYSROOT and hwloc's topology variables are\n"
"  ignored (with a warning); hwloc never loads plugins; the state directory's\n"
"  path may hold no one else's symbolic link (doc/safety.md: Running as root\n"
"  safely)\n"
"\n"
"exit status: 0 ok, 64 usage, 65 bad input data, 66 input file missing,\n"
"  69 unavailable (no PMU/device for what was asked), 70 internal error,\n"
"  71 system error, 73 cannot create an output file or the state directory,\n"
"  74 I/O error, 75 busy (counters or CPU in use, a journal holds it; bench:\n"
"  counters changed by someone else mid-run), 77 permission denied;\n"
"  128+N killed by signal N after putting the registers back\n");
}

static int unknown_command(const char *name)
{
	if (name[0] == '-')
		cli_err("unknown option '%s' (try: baretma --help)", name);
	else
		cli_err("unknown command '%s' (try: baretma --help)", name);
	return EX_USAGE;
}

/*
 * "baretma help --options CMD": CMD's option table, one option a line
 * (bench/cli/cli_opt.h cli_opts_dump), which the bash completion and the
 * tests read; not listed in --help, where the same table is the text.
 */
static int help_options(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc != 4) {
		cli_err("help: --options takes one command (try: baretma --help)");
		return EX_USAGE;
	}
	if (!(c = cli_cmd_find(argv[3], NULL)))
		return unknown_command(argv[3]);
	cli_opts_dump(stdout, c->ops->optset);
	return EX_OK;
}

/*
 * The man page of command @name, man/baretma-NAME.1, as installed
 * (BARETMA_MANDIR, configure's mandir) or in the source tree the tool was
 * built from (BARETMA_SRCDIR): the installed tool (its executable is
 * BARETMA_BINDIR's) shows the installed page first, a tool run from its
 * build tree the tree's first, so that each shows the page of its own
 * version.  Returns @buf, or NULL when neither page can be read.
 */
static const char *help_page(const char *name, char *buf, size_t n)
{
	char exe[PATH_MAX], bin[PATH_MAX];
	const char *dirs[2] = { BARETMA_SRCDIR "/man", BARETMA_MANDIR "/man1" };
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	bool installed = false;

	if (len > 0) {
		exe[len] = '\0';
		installed = realpath(BARETMA_BINDIR "/baretma", bin) && !strcmp(exe, bin);
	}
	for (int i = 0; i < 2; i++) {
		const char *dir = dirs[installed ? 1 - i : i];
		int w = snprintf(buf, n, "%s/baretma-%s.1", dir, name);

		if (w > 0 && (size_t)w < n && access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

/*
 * "baretma help CMD": CMD's man page, shown by man(1) -l as git and perf
 * show theirs (man pages the output when it is a terminal, prints it
 * formatted otherwise); where there is no page or no man to run, CMD's
 * --help, the short form of the page.  Returns only when it did not run
 * man: then the caller prints the usage.
 */
static void help_man(const char *name)
{
	char page[PATH_MAX];

	if (!help_page(name, page, sizeof(page)))
		return;
	fflush(stdout);
	execlp("man", "man", "-l", page, (char *)NULL);
	/* no man(1) in PATH (a container, a minimal install): --help */
}

/* "baretma help [CMD ...]": CMD's man page, or "baretma CMD --help". */
static int help(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc >= 3 && !strcmp(argv[2], "--options"))
		return help_options(argc, argv);
	if (argc < 3 || !strcmp(argv[2], "help") || !strcmp(argv[2], "version")) {
		usage(stdout);
		return EX_OK;
	}
	if (!(c = cli_cmd_find(argv[2], NULL)))
		return unknown_command(argv[2]);
	help_man(c->name);
	c->ops->usage(stdout);
	return EX_OK;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c;

	/* first: a command that ends its work on SIGINT, SIGTERM or SIGHUP
	 * (stat) keeps every one from here on; the others get them back at
	 * once, as they were (bench/cli/cli.h cli_stop_hold) */
	cli_stop_hold();
	cli_point("main");
	c = argc > 1 ? cli_cmd_find(argv[1], argc > 2 ? argv[2] : NULL) : NULL;
	if (!c || !(c->need & CLI_STOP_SIGNALS))
		cli_stop_release();
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
	if (!c)
		return unknown_command(argv[1]);
	return cli_cmd_dispatch(c, argc - 1, argv + 1);
}
