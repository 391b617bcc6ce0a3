/*
 * bench/cli/cli_cmd.h - the command table (bench/cli/cli_cmds.c): one entry per
 * command and per subcommand, whose flags say what it needs before it
 * runs, git's { "cat-file", cmd_cat_file, RUN_SETUP }.  A command file
 * (bench/cmd_*.c) gives its parse, run and usage (struct cli_cmd_ops);
 * the dispatcher checks the environment, opens what the flags name, runs
 * the command and closes everything on every way out, so that a cmd_*
 * parses and prints only.  Command-line layer: includes bench/cli/cli.h and
 * bench/cli/cli_run.h, nothing below them.
 */
#ifndef BARETMA_CLI_CMD_H
#define BARETMA_CLI_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "bench/cli/cli.h"
#include "bench/cli/cli_run.h"

/*
 * What a command needs, besides CLI_ENV_SYSROOT and CLI_ENV_STATE_DIR
 * (bench/cli/cli.h: the environment, checked before it parses).  The setup
 * first makes --cpuid-dump (ctx->dump) $BARETMA_CPUID_DUMP
 * (cli_dump_export: the simulated PMU the MSR backend opens identifies its
 * CPU from it), then opens them in this order, the order of the flags, and
 * closes them in the reverse order after the command, whatever it
 * returned:
 *   CLI_NEED_CPUID    this machine's CPUID, never a dump (cpu_source_live):
 *                     ctx->cpuid.
 *   CLI_NEED_MSR      the MSR backend, $BARETMA_MSR (cli_msr_open, which
 *                     says why it cannot): ctx->dev.  Before the machine:
 *                     a missing device is what the MSR commands report
 *                     first, ahead of a bad dump.
 *   CLI_NEED_MACHINE  the machine: --cpuid-dump (ctx->dump), else
 *                     $BARETMA_CPUID_DUMP, else live (cli_machine_open):
 *                     ctx->machine.
 *   CLI_NEED_GUARD    ctx->run, the guarded run's struct with the inputs
 *                     parse gave it (--wait, --force, the settings flags);
 *                     the command starts it (cli_run_start, cli_run_lock)
 *                     once it knows the CPUs, the close is cli_run_finish.
 *   CLI_MSR_CHECK     after the machine (--cpuid-dump is then the simulated
 *                     PMU's machine too): the MSR backend $BARETMA_MSR
 *                     names must open, and is closed again, for a command
 *                     whose sessions open their own (bench, compare,
 *                     calibrate): a malformed state file or profile (65),
 *                     a missing one (66), one refused under sudo (77) is
 *                     said as cli_msr_open says it, never as "no MSR
 *                     backend" once a session finds none.  Not when parse
 *                     set ctx->msr_unused (bench --backend tsc: no
 *                     backend needed, none checked).
 * Modifiers, for a command whose own order differs:
 *   CLI_MSR_LATE      the MSR backend is opened by the command, with
 *                     cli_ctx_msr, where its own checks come first (pmu
 *                     restore: only when a journal is to be put back;
 *                     validate: after the machine, which the simulated
 *                     PMU must see); the close is still the dispatcher's.
 *   CLI_MSR_OPTIONAL  no MSR backend is fine, and not said (ctx->dev NULL):
 *                     info reads IA32_PERF_CAPABILITIES where it can.
 *   CLI_GUARD_DETACH  success leaves the run's journal for 'pmu restore'
 *                     (pmu enable, msr write); otherwise the close puts
 *                     the registers back and ends it.
 *   CLI_STOP_SIGNALS  SIGINT, SIGTERM and SIGHUP end the command's work
 *                     normally (stat): they are held from main's first
 *                     instruction (cli_stop_hold) until the command takes
 *                     them where it can end, and again after; every other
 *                     command gets them back before it parses
 *                     (cli_stop_release).
 */
#define CLI_NEED_CPUID    0x004u
#define CLI_NEED_MSR      0x008u
#define CLI_NEED_MACHINE  0x010u
#define CLI_NEED_GUARD    0x020u
#define CLI_MSR_LATE      0x040u
#define CLI_MSR_OPTIONAL  0x080u
#define CLI_GUARD_DETACH  0x100u
#define CLI_MSR_CHECK     0x200u
#define CLI_STOP_SIGNALS  0x400u

struct cpu_source;
struct cpu_machine;
struct cli_cmd;
struct cli_optset;

/* What a command runs with: what its parse reported, what the setup opened. */
struct cli_ctx {
	const struct cli_cmd *cmd;   /* its table entry */
	/* from parse */
	const char *dump;            /* --cpuid-dump (CLI_NEED_MACHINE) */
	struct cli_run run;          /* CLI_NEED_GUARD: .wait, .force, .set, ... */
	bool msr_unused;             /* CLI_MSR_CHECK: the run uses no MSR backend
				      * (bench_backend_uses_msr): none checked */
	/* opened by the setup */
	struct cpu_source *cpuid;    /* CLI_NEED_CPUID */
	struct msr_dev *dev;         /* CLI_NEED_MSR (NULL with CLI_MSR_OPTIONAL) */
	struct cpu_machine *machine; /* CLI_NEED_MACHINE */
};

/* What parse returns after printing the usage to stdout (exit 0, nothing
 * opened). */
#define CLI_HELP_SHOWN (-1)

/* A command, as its file gives it. */
struct cli_cmd_ops {
	/*
	 * parse - getopt @argv (argv[0] is the command's last word: "bench",
	 * "enable") into @opts, a zeroed struct of @opts_size bytes, and fill
	 * what the setup needs in @ctx (dump, run's inputs).  Returns 0 to
	 * go on, CLI_HELP_SHOWN, or an exit status after the message.
	 */
	int (*parse)(int argc, char **argv, void *opts, struct cli_ctx *ctx);
	/* run - the command, with what the setup opened; the exit status.
	 * NULL for a group's own entry ("pmu"): its parse says how to use it. */
	int (*run)(void *opts, struct cli_ctx *ctx);
	/* usage - the text of 'baretma help CMD' and 'CMD --help'. */
	void (*usage)(FILE *f);
	size_t opts_size;
	/* optset - the command's options (bench/cli/cli_opt.h); a subcommand's
	 * are its group's table: 'baretma help --options CMD' prints it */
	const struct cli_optset *optset;
};

/* An entry of the table: "bench", "pmu enable"; CLI_ENV_*, CLI_NEED_*. */
struct cli_cmd {
	const char *name;
	const struct cli_cmd_ops *ops;
	unsigned need;
};

/* The commands' files (bench/cmd_*.c). */
extern const struct cli_cmd_ops cmd_bench, cmd_compare, cmd_validate, cmd_info, cmd_decode;
extern const struct cli_cmd_ops cmd_cpuid, cmd_cpuid_dump;
extern const struct cli_cmd_ops cmd_calibrate;
extern const struct cli_cmd_ops cmd_report;
extern const struct cli_cmd_ops cmd_stat;
extern const struct cli_cmd_ops cmd_msr, cmd_msr_read, cmd_msr_write;
extern const struct cli_cmd_ops cmd_pmu, cmd_pmu_enable, cmd_pmu_status, cmd_pmu_restore;

/*
 * cli_cmd_find - the entry for the command line "@word @sub" ("pmu
 * enable"), else the one for "@word" alone ("bench", or the group "pmu"
 * when @sub is none of its subcommands); NULL when @word names none.
 * @sub may be NULL.
 */
const struct cli_cmd *cli_cmd_find(const char *word, const char *sub);

/*
 * cli_cmd_dispatch - run the command of @argv (argv[0] its first word, as
 * found by cli_cmd_find): the environment made safe and checked (unless
 * help is asked for), parse, the setup the entry's flags name, run, the
 * close.  Returns the exit status.
 */
int cli_cmd_dispatch(const struct cli_cmd *c, int argc, char **argv);

/*
 * cli_ctx_msr - open the MSR backend now (CLI_MSR_LATE; a no-op when it is
 * open): the message on failure, or with CLI_MSR_OPTIONAL none and
 * ctx->dev NULL.  Returns an exit status.
 */
int cli_ctx_msr(struct cli_ctx *ctx);

/*
 * cli_group_usage - the parse of a group's own entry ("pmu", "msr"): no
 * subcommand is EX_USAGE after @usage on stderr; "-h", "--help" (and
 * @help_word, when not NULL) CLI_HELP_SHOWN after @usage on stdout.
 * Otherwise argv[1] is no subcommand of @group: "baretma: @unknown
 * 'ARGV1' (try: baretma @group --help)" and EX_USAGE.
 */
int cli_group_usage(int argc, char **argv, const char *help_word, void (*usage)(FILE *),
		    const char *group, const char *unknown);

#endif
