/*
 * bench/cli.h - the command-line layer: the only code that talks to the user.
 * Messages follow git/hwloc style: "baretma: <subject quoted>: <cause> (<remedy>)".
 * Exit statuses come from sysexits.h (listed in --help and the README):
 *   0 EX_OK, 64 EX_USAGE (bad command line), 65 EX_DATAERR (bad input data:
 *   dump, state file, decode value), 66 EX_NOINPUT (input file missing),
 *   69 EX_UNAVAILABLE (requested capability not available: PMU, device),
 *   70 EX_SOFTWARE (internal error), 71 EX_OSERR, 73 EX_CANTCREAT (cannot
 *   create an output file), 74 EX_IOERR,
 *   75 EX_TEMPFAIL (busy: counters in use), 77 EX_NOPERM (permission).
 */
#ifndef BARETMA_CLI_H
#define BARETMA_CLI_H

#include <stdint.h>
#include <sysexits.h>

#include "msr/msr.h"

/* Subcommands: each parses its own options (getopt_long) and returns an exit status. */
int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_pmu(int argc, char **argv);
int cmd_cpuid(int argc, char **argv); /* bench/cmd_cpuid.c: "cpuid dump [-o FILE]" */
int cmd_msr(int argc, char **argv);   /* bench/cmd_msr.c: "msr read|write CPU MSR [VALUE]" */

/* cli_err / cli_warn - "baretma: ..." / "baretma: warning: ..." on stderr, newline added. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_exit_for_errno - the sysexits status for a -errno: -EACCES/-EPERM
 * EX_NOPERM, -ENOENT EX_NOINPUT, -EBUSY EX_TEMPFAIL, -ENODEV/-ENXIO/-EIO
 * EX_UNAVAILABLE, -EINVAL EX_DATAERR, otherwise EX_OSERR. */
int cli_exit_for_errno(int err);

/*
 * cli_msr_fail - print the message for an MSR access failure, naming the
 * device path and the remedy, e.g.
 * "baretma: cannot open '/dev/cpu/3/msr': No such file or directory (try: modprobe msr)",
 * and return the exit status for it.  @what: "open", "read 0x38f on", ...
 */
int cli_msr_fail(struct msr_dev *dev, unsigned cpu, const char *what, int err);

/*
 * cli_parse_u64 - strict unsigned parse (decimal or 0x hex), whole string,
 * no sign, no overflow.  Returns 0 or -EINVAL / -ERANGE.
 */
int cli_parse_u64(const char *s, uint64_t *v);

/*
 * cli_parse_cpu_list - "3", "0-3", "0,2,4-7"; stores at most @max CPU
 * numbers (ascending, no duplicates).  Returns the count, -EINVAL for junk,
 * -ERANGE when too many or a number is >= CPU_MAX_CPUS.
 */
int cli_parse_cpu_list(const char *s, unsigned *cpus, int max);

/* cli_check_dump - load the dump named by @path or $BARETMA_CPUID_DUMP (if any)
 * and print a message naming it when it cannot be loaded.  Returns 0 or an
 * exit status (EX_NOINPUT, EX_NOPERM, EX_DATAERR). */
int cli_check_dump(const char *path);

/* cli_cmdline - argv of this process joined by spaces (for the journal);
 * past 1023 bytes cut, at a character boundary, and ending in "...". */
const char *cli_cmdline(void);
void cli_set_cmdline(int argc, char **argv);

/* --- CPU choice on hybrid parts (bench/cli_cpu.c) --- */
struct cpu_info;
struct cpu_source;

/* cli_fmt_cpus - "0-7,12" from the ascending list @cpus into @buf. */
void cli_fmt_cpus(char *buf, size_t n, const unsigned *cpus, unsigned ncpus);

/*
 * cli_refuse_kind - say that OS CPU @cpu (cpu_topdown_check_cpu gave
 * -EOPNOTSUPP) cannot measure Top-down and which CPUs can, e.g.
 * "baretma: cpu 12 is an efficiency core (Gracemont): it has no
 * IA32_PERF_METRICS; CPUs that can measure Top-down: 0-11 (try: --cpu 0)";
 * @who ("pmu enable") prefixes it, @more is appended inside the remedy's
 * parentheses (both may be NULL).  Returns EX_USAGE.
 */
int cli_refuse_kind(const char *who, const struct cpu_info *ci, unsigned cpu, const char *more);

/*
 * cli_warn_kinds - warn (never fail) when hwloc's CPU kinds disagree with
 * @ci's (cpu_topo_check_kinds) on the topology that goes with @src: the
 * live machine's, or a hwloc-gather-cpuid dump's; silent for single-file
 * dumps, which have no topology of their own.
 */
void cli_warn_kinds(const char *who, const struct cpu_source *src, const struct cpu_info *ci);

#endif
