/*
 * bench/main.c - baretma's front end: parse the subcommand, call the layer.
 */
#include <stdio.h>
#include <string.h>

#include "bench/cli.h"
#include "config.h"

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
"\n"
"'baretma <command> --help' describes each command's options.\n"
"\n"
"environment:\n"
"  BARETMA_MSR        MSR backend: path template with %%u (default /dev/cpu/%%u/msr;\n"
"                     /dev/cpu/%%u/msr_safe works too) or state:FILE (dry runs, tests)\n"
"  BARETMA_MSR_TRACE  append every MSR access to this file (audit log)\n"
"  BARETMA_CPUID_DUMP identify from this CPUID dump instead of the live CPU\n"
"  BARETMA_STATE_DIR  run journals (bench, 'pmu enable', 'msr write'), CPU and\n"
"                     settings locks (default /run/baretma)\n"
"  BARETMA_SYSROOT    root for /sys and /proc paths (default /)\n"
"\n"
"exit status: 0 ok, 64 usage, 65 bad input data, 66 input file missing,\n"
"  69 unavailable (no PMU/device for what was asked), 70 internal error,\n"
"  71 system error, 73 cannot create an output file, 74 I/O error,\n"
"  75 busy (counters or CPU in use, a journal holds it; bench: counters changed\n"
"  by someone else mid-run), 77 permission denied\n");
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
		{ "bench", cmd_bench }, { "info", cmd_info },
		{ "decode", cmd_decode }, { "pmu", cmd_pmu },
		{ "cpuid", cmd_cpuid }, { "msr", cmd_msr },
	};

	cli_set_cmdline(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EX_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("baretma %s\n", PACKAGE_VERSION);
		return EX_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	cli_err("unknown command '%s' (try: baretma --help)", argv[1]);
	return EX_USAGE;
}
