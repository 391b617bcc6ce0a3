/*
 * bench/cli/cli.h - the command-line layer: the only code that talks to the user.
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

#include <stdio.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sysexits.h>

#include "msr/access/msr.h"

/* The commands and what each needs: the table of bench/cli/cli_cmd.h. */

/*
 * The stop signals (bench/cli/cli_stop.c): SIGINT, SIGTERM and SIGHUP,
 * for a command that ends its work on them (CLI_STOP_SIGNALS: stat).
 * cli_stop_hold - main's first instruction: those of the three that are
 * neither ignored (nohup) nor blocked at the start are blocked (held:
 * pending until the command takes them).
 * cli_stop_release - the signal mask back as it was at the start: a held
 * signal then acts as it would have (every command but stat, at once).
 * cli_stop_set - the signals held (NULL when none are: before the hold,
 * after the release); cli_stop_mask - the mask of the start (NULL then).
 * cli_stop_pending - the first held signal pending, 0 if none.
 */
void cli_stop_hold(void);
void cli_stop_release(void);
const sigset_t *cli_stop_set(void);
const sigset_t *cli_stop_mask(void);
int cli_stop_pending(void);

/*
 * cli_point - a named point of a command's work (main, then stat's:
 * setup, open, lock, journal, program, end, print; man/baretma-stat.1), where the
 * test build's seam (bench/cli/cli_hooks.c) sends the process a signal or
 * writes the point down; nothing in the installed tool.
 */
void cli_point(const char *point);

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

/* --- option parsing: each command's table (bench/cli/cli_opt.h) --- */

/*
 * cli_usage_err - print "baretma: CMD: <message> (try: baretma CMD --help)"
 * and return EX_USAGE: the one shape of a command-line mistake.
 */
int cli_usage_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * cli_refuse_together - @a and @b were both given but exclude each other:
 * "baretma: CMD: A and B exclude each other: give one (try: ...)".
 * Returns EX_USAGE.
 */
int cli_refuse_together(const char *cmd, const char *a, const char *b);

/* --- the output format, chosen once (bench/cli/cli_util.c) --- */
struct output_format;
struct output_view;
struct json_t;

/* The output options a command was given: --json, --csv, -x SEP (the
 * options of bench/output/formats.c's table that the command lists in its
 * option table), -o FILE and --openmetrics FILE (bench/cli/cli_opt.h
 * CLI_OPT_JSON ...).  Zero-initialised: none given. */
struct cli_output {
	const struct output_format *fmt;   /* the first format asked for, NULL: none */
	const struct output_format *other; /* another one asked for too: refused */
	const char *file;        /* -o FILE: the result there (atomically), not on stdout */
	const char *separator;   /* -x SEP: separated values with SEP */
	const char *openmetrics; /* --openmetrics FILE: the result's metrics there too */
};

/* cli_output_opt - the output option --@option ("json", "csv") was given. */
void cli_output_opt(struct cli_output *o, const char *option);

/*
 * cli_output_check - after parsing: two formats asked for are refused,
 * "baretma: CMD: --json and --csv exclude each other: give one (try:
 * baretma CMD --help)" (named in the order of the formats' table), and a
 * format that cannot write @view's results ("CMD: --csv: no CSV of this
 * command's results"); none given: text.  -x's separator is checked
 * (output_sv_sep_check), -o's and --openmetrics's files too, before the
 * command runs (output_file_check: "CMD: cannot write 'F': a symbolic
 * link: refused, ...", EX_CANTCREAT), and the two must name different
 * files.  Returns 0, EX_USAGE or EX_CANTCREAT.
 */
int cli_output_check(const char *cmd, struct cli_output *o, const struct output_view *view);

/* cli_output_format - the format chosen (text when none was asked for). */
const struct output_format *cli_output_format(const struct cli_output *o);

/*
 * cli_output - write @result (a @view) on stdout, or -o's file, in the
 * chosen format, the document with @env as its "environment" (may be
 * NULL), and its metrics in --openmetrics's file: the one way a command
 * prints its result.  Each file is written atomically (output.h
 * output_file_open_atomic).  On failure the message ("CMD: cannot build
 * the JSON document (out of memory)") and EX_SOFTWARE, EX_IOERR when
 * stdout or a file's disk refused it, EX_CANTCREAT when a file could not
 * be made (cli_output_file_fail); else 0.
 */
int cli_output(const char *cmd, const struct cli_output *o, const struct output_view *view,
	       const void *result, struct json_t *env);

/*
 * cli_output_write_file - @result (a @view) in @fmt as the file @path,
 * whole or not at all (output.h output_file_open_atomic, then commit):
 * what -o and --openmetrics write, and what `stat -I --openmetrics FILE`
 * calls each interval (&output_format_openmetrics).  Returns 0, or the
 * exit status after the message (cli_output_file_fail).
 */
struct output_params;
int cli_output_write_file(const char *cmd, const char *path, const struct output_format *fmt,
			  const struct output_view *view, const void *result,
			  const struct output_params *p);

/*
 * cli_output_file_fail - say why the file @path could not be written:
 * output_file_open_atomic's or output_file_commit's @err and @why, e.g.
 * "baretma: bench: cannot write 'F': a symbolic link: refused, nothing
 * written through it (give the path of a regular file or a new one)".
 * Returns EX_IOERR when a write failed (-ENOSPC "No space left on
 * device", -EDQUOT, -EFBIG, -EIO: the file could be made, its text did
 * not fit), else EX_CANTCREAT (refused, or not created).
 */
int cli_output_file_fail(const char *cmd, const char *path, int err, const char *why);

/*
 * cli_output_file_check - before a run, refuse the file @path that a
 * command will write (-o, --openmetrics, --bundle, ...) if its writer
 * would (output.h output_file_check): the message and EX_CANTCREAT
 * (EX_USAGE for an empty name), else 0.  Nothing is created.
 */
int cli_output_file_check(const char *cmd, const char *path);

/* cli_output_json_file - @doc (bench_json_dumps: indented, a newline at
 * the end) as the file @path, whole or not at all (output.h).  Returns 0
 * or the exit status after the message. */
int cli_output_json_file(const char *cmd, const char *path, const struct json_t *doc);

/* cli_output_file_why - output_file_check's phrase for @path's refusal
 * (for a writer that got -EPERM without it), or NULL. */
const char *cli_output_file_why(const char *path);

/*
 * cli_output_file_end - end the write @of of @path after its text was
 * written with result @rc (0, or a writer's -errno: -EIO is the stream's,
 * and the write's own errno, output_file_error, is said instead): commit
 * it, or remove it and say why.  Frees @of.  Returns 0 or the exit status
 * after the message (cli_output_file_fail; EX_SOFTWARE for a writer's
 * -ENOMEM).
 */
struct output_file;
int cli_output_file_end(const char *cmd, const char *path, struct output_file *of, int rc);

/*
 * cli_trace_watch - before a command's first access: a line of
 * $BARETMA_MSR_TRACE that cannot be written is said on stderr at once
 * (msr_trace_on_loss).  cli_trace_end - after the command: when lines were
 * lost, say how many from which on and why, and return EX_IOERR in place
 * of a @status of 0 (else @status).
 */
void cli_trace_watch(void);
int cli_trace_end(int status);

/* What a command needs of the environment (cli_check_env). */
#define CLI_ENV_SYSROOT   0x1u /* reads /sys or /proc under $BARETMA_SYSROOT */
#define CLI_ENV_STATE_DIR 0x2u /* keeps journals and locks in $BARETMA_STATE_DIR */

/*
 * cli_warn_env - once at startup, before a command runs, after main() made
 * hwloc's environment safe: say on stderr, one line each, which variables
 * are ignored and why: the @n hwloc variables in @dropped (a
 * HWLOC_PLUGINS_PATH always: hwloc loads no plugin; from an untrusted
 * environment, cpu/trust.h: sudo, setuid, hwloc's topology-replacing
 * ones), $BARETMA_SYSROOT (cpu_sysfs_root_ignored) and $BARETMA_TEST_HOOKS
 * (bench_test_hooks_ignored).  doc/safety.md "Running as root safely".
 */
void cli_warn_env(const char *const *dropped, int n);

/*
 * cli_check_env - refuse, naming it, a $BARETMA_SYSROOT that is not an
 * existing directory (EX_NOINPUT) and a relative $BARETMA_STATE_DIR
 * (EX_USAGE), for the parts @need names.  Returns 0 or the exit status.
 */
int cli_check_env(unsigned need);

/*
 * cli_parse_u64 - strict unsigned parse (decimal or 0x hex), whole string,
 * no sign, no overflow.  Returns 0 or -EINVAL / -ERANGE.
 */
int cli_parse_u64(const char *s, uint64_t *v);

/*
 * cli_parse_cpu_number - one OS CPU number: decimal digits only (leading
 * zeros are decimal, as the kernel's cpulist parser reads them: lib/bitmap.c
 * bitmap_parselist, Documentation/admin-guide/cputopology.rst), no sign, no
 * overflow.  Returns 0, -EDOM for hex ("0x0": CPU numbers are never hex,
 * the caller says so), -EINVAL for other junk, -ERANGE past 64 bits.
 */
int cli_parse_cpu_number(const char *s, uint64_t *v);

/*
 * cli_parse_cpu_list - "3", "0-3", "0,2,4-7", decimal as the kernel's
 * cpulist format (cli_parse_cpu_number); stores at most @max CPU numbers
 * (ascending, no duplicates).  Returns the count, -EDOM for a hex number
 * ("0x0", "0-0x3"), -EINVAL for other junk (also an empty element: "0,,1",
 * ",1", "1,"), -ERANGE when too many or a number is >= CPU_MAX_CPUS.
 */
int cli_parse_cpu_list(const char *s, unsigned *cpus, int max);

/* CLI_CPU_HEX_HINT - what the messages add for -EDOM (a hex CPU number). */
#define CLI_CPU_HEX_HINT "CPU numbers are decimal, as in the kernel's cpulist format (no 0x)"

/*
 * cli_parse_count - option @opt's value @s, a whole number (cli_parse_u64)
 * from @min to @max, into @out; else "bad OPT 'S': expected a whole number
 * from MIN to MAX" and EX_USAGE.  Returns 0 or EX_USAGE.
 */
int cli_parse_count(const char *opt, const char *s, unsigned min, unsigned max, unsigned *out);

/* cli_parse_cpu_opt - --cpu N: a decimal CPU number below CPU_MAX_CPUS
 * (cli_parse_cpu_number; a hex one is refused with CLI_CPU_HEX_HINT).
 * Returns 0 or EX_USAGE. */
int cli_parse_cpu_opt(const char *s, unsigned *out);

/* cli_parse_level - --level N: Top-down level "1" or "2" into @out; else
 * "bad --level 'S': Top-down level 1 or 2".  Returns 0 or EX_USAGE. */
int cli_parse_level(const char *s, int *out);

/* cli_cmdline - argv of this process joined by spaces (for the journal);
 * past 1023 bytes cut, at a character boundary, and ending in "...". */
const char *cli_cmdline(void);
void cli_set_cmdline(int argc, char **argv);
/* cli_argv - the argv given to cli_set_cmdline (its count in *@argc; NULL
 * and 0 before). */
char *const *cli_argv(int *argc);

/* --- which machine, CPU choice on hybrid parts (bench/cli/cli_cpu.c) --- */
struct cpu_info;
struct cpu_machine;

/*
 * cli_machine_open - the machine every command works with, built once from
 * the options (cpu/machine.h): the CPUID dump @dump (--cpuid-dump), else
 * $BARETMA_CPUID_DUMP when set and not empty, else the live machine.  On
 * failure prints the message naming the dump, e.g. "baretma: cannot load
 * CPUID dump 'X': not a CPUID dump ... (give a libcpuid raw dump, ...)".
 * Returns 0 (free *@m with cpu_machine_free) or an exit status
 * (EX_NOINPUT, EX_NOPERM, EX_DATAERR; EX_OSERR).
 */
int cli_machine_open(const char *dump, struct cpu_machine **m);

/*
 * cli_dump_export - --cpuid-dump @dump as $BARETMA_CPUID_DUMP for the rest
 * of the command: the one rule by which a dump reaches what identifies its
 * CPU from the environment (the simulated PMU, msr/sim/msr_sim.h, which the
 * MSR backend opens before the machine).  The setup calls it first,
 * before anything is opened (bench/cli/cli_cmd.h).  Returns 0 or an exit
 * status (EX_OSERR).
 */
int cli_dump_export(const char *dump);

/*
 * cli_identify_failed - say that the CPU of the machine @m describes could
 * not be identified (@err from bench_identify / cpu_info_identify): "cannot
 * identify the CPU from 'SOURCE': libcpuid does not recognise the CPUID
 * data" for -EINVAL, else strerror.  Returns the exit status for @err.
 */
int cli_identify_failed(const struct cpu_machine *m, int err);

/*
 * cli_bad_cpu - say that the machine @m describes has no usable CPU
 * @subject names ("cannot measure on cpu 99", "msr read: cpu 99"; @err from
 * cpu_machine_check_cpu or cpu_machine_choose).  A dump names its own CPUs,
 * never this machine's tools: "...: no such CPU: the CPUID dump 'X'
 * describes CPUs 0-7".  Live: -ENODEV "... is offline (see <online list>)";
 * otherwise with @pinned (the CPU is to be pinned to: cpu_machine_choose)
 * "...: no such CPU, or it is offline or not allowed for this process
 * (see: hwloc-ls)", without "...: no such CPU in this machine (CPUs 0-1)".
 * Returns EX_USAGE.
 */
int cli_bad_cpu(const char *subject, const struct cpu_machine *m, int err, bool pinned);

/* cli_fmt_cpus - "0-7,12" from the ascending list @cpus into @buf, cut
 * visibly ("0,2,...") when longer (guard_fmt_cpus; guard_cpus_text for
 * the whole list on the heap). */
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
 * @ci's (cpu_machine_check_kinds) on the described machine's topology: the
 * live machine's, or a hwloc-gather-cpuid dump's; silent for single-file
 * dumps, which have no topology of their own.
 */
void cli_warn_kinds(const char *who, const struct cpu_machine *m, const struct cpu_info *ci);

/*
 * cli_names_identify - for naming registers by each CPU's real counters
 * (msr/regs/msr_names.h msr_reg_name_cpu): the machine @m describes, or when
 * @m is NULL the one cli_machine_open(NULL) would open
 * ($BARETMA_CPUID_DUMP, else live), identified from CPUID alone.  Silent:
 * NULL when it cannot be, and the names fall back to the architectural
 * ranges (a `pmu status` that cannot identify the CPU still lists the
 * journals).  free() the result.
 */
struct cpu_info *cli_names_identify(const struct cpu_machine *m);

/*
 * cli_msr_counters - the counters of OS CPU @cpu (its core kind's GP and
 * fixed masks) into @c, for msr_reg_name_cpu; NULL when @ci is NULL, is no
 * Intel part (the names are Intel's architectural ones) or has no kind for
 * @cpu: the caller does not know them.
 */
struct msr_counters;
const struct msr_counters *cli_msr_counters(const struct cpu_info *ci, unsigned cpu,
					    struct msr_counters *c);

#endif
