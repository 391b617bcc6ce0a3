/*
 * bench/cli/cli_cmds.c - the command table and its dispatcher: what each
 * command needs (bench/cli/cli_cmd.h), the environment made safe and checked,
 * the setup in one order, the command, the close on every way out.
 * Command-line layer: includes bench/cli/cli_cmd.h and what it opens
 * (cpu/cpu.h, cpu/cpu_topo.h, cpu/machine.h, msr/access/msr.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/cli_cmd.h"
#include "bench/source/perf_group.h"
#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "msr/journal/guard_signals.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"

/* the sysroot read and the state directory of journals and locks */
#define ENV_SYS_STATE (CLI_ENV_SYSROOT | CLI_ENV_STATE_DIR)

/*
 * Every command and subcommand, and what it needs.  A group's own entry
 * ("pmu", "msr", "cpuid": no run) answers when no subcommand matches: its
 * usage, or the unknown subcommand named; its environment is checked as
 * its subcommands' is.  msr read keeps the state directory's check the
 * msr commands always had (a relative BARETMA_STATE_DIR is refused).
 */
static const struct cli_cmd cmds[] = {
	{ "bench", &cmd_bench, ENV_SYS_STATE | CLI_NEED_MACHINE | CLI_NEED_GUARD | CLI_MSR_CHECK },
	{ "compare", &cmd_compare, ENV_SYS_STATE | CLI_NEED_MACHINE | CLI_NEED_GUARD |
				   CLI_MSR_CHECK },
	{ "validate", &cmd_validate, ENV_SYS_STATE | CLI_NEED_MSR | CLI_MSR_LATE |
				     CLI_NEED_MACHINE | CLI_NEED_GUARD },
	{ "calibrate", &cmd_calibrate, ENV_SYS_STATE | CLI_NEED_MACHINE | CLI_NEED_GUARD |
				       CLI_MSR_CHECK },
	{ "stat", &cmd_stat, ENV_SYS_STATE | CLI_NEED_MSR | CLI_MSR_LATE | CLI_NEED_MACHINE |
			     CLI_NEED_GUARD | CLI_STOP_SIGNALS },
	{ "report", &cmd_report, 0 },
	{ "info", &cmd_info, CLI_ENV_SYSROOT | CLI_NEED_MSR | CLI_MSR_LATE | CLI_MSR_OPTIONAL |
			     CLI_NEED_MACHINE },
	{ "decode", &cmd_decode, 0 },
	{ "pmu", &cmd_pmu, ENV_SYS_STATE },
	{ "pmu enable", &cmd_pmu_enable, ENV_SYS_STATE | CLI_NEED_MSR | CLI_NEED_MACHINE |
					 CLI_NEED_GUARD | CLI_GUARD_DETACH },
	{ "pmu status", &cmd_pmu_status, ENV_SYS_STATE | CLI_NEED_MSR | CLI_MSR_LATE },
	{ "pmu restore", &cmd_pmu_restore, ENV_SYS_STATE | CLI_NEED_MSR | CLI_MSR_LATE |
					   CLI_NEED_GUARD },
	{ "cpuid", &cmd_cpuid, CLI_ENV_SYSROOT },
	{ "cpuid dump", &cmd_cpuid_dump, CLI_ENV_SYSROOT | CLI_NEED_CPUID },
	{ "msr", &cmd_msr, ENV_SYS_STATE },
	{ "msr read", &cmd_msr_read, ENV_SYS_STATE | CLI_NEED_MSR | CLI_NEED_MACHINE },
	{ "msr write", &cmd_msr_write, ENV_SYS_STATE | CLI_NEED_MSR | CLI_NEED_MACHINE |
				       CLI_NEED_GUARD | CLI_GUARD_DETACH },
};

/* Is @name "@word @sub"?  (@word never holds a space: one argument.) */
static bool names(const char *name, const char *word, const char *sub)
{
	size_t n = strlen(word);

	if (strchr(word, ' ') || strncmp(name, word, n))
		return false;
	return sub ? name[n] == ' ' && !strcmp(name + n + 1, sub) : !name[n];
}

const struct cli_cmd *cli_cmd_find(const char *word, const char *sub)
{
	size_t n = sizeof(cmds) / sizeof(cmds[0]);

	for (size_t i = 0; sub && i < n; i++)
		if (names(cmds[i].name, word, sub))
			return &cmds[i];
	for (size_t i = 0; i < n; i++)
		if (names(cmds[i].name, word, NULL))
			return &cmds[i];
	return NULL;
}

/* ---------------------------------------------------------- environment */

/* Does the command line ask for help (before any "--")?  Help is printed
 * whatever the environment holds. */
static bool asks_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
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

/* The environment, before the command parses (as it always was: a bad
 * BARETMA_SYSROOT is reported ahead of a bad option). */
static int check_env(unsigned need)
{
	const char *dropped[16];
	int rc = hwloc_env_sanitize(dropped, 16);

	if (rc < 0) {
		cli_err("cannot make hwloc's environment safe: %s", strerror(-rc));
		return EX_OSERR;
	}
	cli_warn_env(dropped, rc);
	return cli_check_env(need);
}

/* ---------------------------------------------------------- the setup */

int cli_ctx_msr(struct cli_ctx *ctx)
{
	if (ctx->dev)
		return EX_OK;
	if (!(ctx->cmd->need & CLI_MSR_OPTIONAL))
		return cli_msr_open_on(ctx->dump, &ctx->dev);
	if (msr_open(NULL, &ctx->dev))
		ctx->dev = NULL; /* fine: the command says what it could not read */
	return EX_OK;
}

/* A malformed @spec ("sim:PROFILE", "state:FILE", a template): its message
 * (msr_last_error: the file, line, key and value) and EX_DATAERR. */
static int refuse_malformed(const char *spec)
{
	struct msr_dev *d = NULL;
	int rc = msr_open(spec, &d);

	msr_close(d);
	if (rc != -EINVAL)
		return EX_OK;
	if (*msr_last_error())
		cli_err("%s", msr_last_error());
	else
		cli_err("MSR backend '%s': %s", spec ? spec : msr_env_spec(), strerror(EINVAL));
	return EX_DATAERR;
}

/*
 * The simulator profile, state file or template that $BARETMA_MSR (and a
 * profile $BARETMA_PERF=sim:) names is input the user wrote: malformed, it
 * is refused before anything runs, for the commands that would otherwise
 * take it for "no MSR backend here" and measure the TSC alone, or say
 * nothing (bench, compare, calibrate, validate, info).
 */
static int check_backends(void)
{
	const char *sim = NULL;
	char spec[4200];
	int st = refuse_malformed(NULL);

	if (st || perf_group_env(&sim) != &perf_group_sim || !sim)
		return st;
	if ((size_t)snprintf(spec, sizeof(spec), "sim:%s", sim) >= sizeof(spec))
		return EX_OK; /* too long a name: the perf source says so itself */
	return refuse_malformed(spec);
}

/* What the entry's flags name, in the order of bench/cli/cli_cmd.h. */
static int setup(struct cli_ctx *ctx)
{
	unsigned need = ctx->cmd->need;
	int rc;

	/* the dump first: the simulator (checked next) models the machine it names */
	if ((need & CLI_NEED_MACHINE) && ctx->dump && (rc = cli_dump_export(ctx->dump)))
		return rc;
	if ((need & (CLI_NEED_MACHINE | CLI_MSR_OPTIONAL)) && (rc = check_backends()))
		return rc;
	if ((need & CLI_NEED_CPUID) && !(ctx->cpuid = cpu_source_live())) {
		cli_err("%s: %s", ctx->cmd->name, strerror(errno));
		return EX_OSERR;
	}
	if ((need & CLI_NEED_MSR) && !(need & CLI_MSR_LATE) && (rc = cli_ctx_msr(ctx)))
		return rc;
	if ((need & CLI_NEED_MACHINE) && (rc = cli_machine_open(ctx->dump, &ctx->machine)))
		return rc;
	if ((need & CLI_MSR_CHECK) && !ctx->msr_unused) {
		struct msr_dev *dev = NULL;

		rc = cli_msr_open(&dev);
		msr_close(dev);
		return rc;
	}
	return EX_OK;
}

/* Everything the setup (or the command) opened, in the reverse order;
 * returns @status, or the guard's restore failure when @status is 0. */
static int close_all(struct cli_ctx *ctx, int status)
{
	unsigned need = ctx->cmd->need;

	if (need & CLI_NEED_GUARD)
		status = cli_run_finish(&ctx->run, status,
					(need & CLI_GUARD_DETACH) && status == EX_OK);
	cpu_machine_free(ctx->machine);
	msr_close(ctx->dev);
	cpu_source_free(ctx->cpuid);
	*ctx = (struct cli_ctx){ .cmd = ctx->cmd };
	return status;
}

static bool signals; /* the signal guard installed for the command */

/*
 * Before a command runs: the signal guard for all of it (msr/journal/guard_signals.h,
 * GUARD_SIGNALS_DIE: baretma dies of the signal after the restore), so
 * that a deadly signal in any phase - a run's, or the writing of its
 * files after it - leaves no temporary file of a write (cpu/tmpfile.h);
 * a lost line of $BARETMA_MSR_TRACE said (cli_trace_watch).
 */
static int run_start(void)
{
	int rc = guard_signals_install(GUARD_SIGNALS_DIE);

	if (rc) {
		cli_err("cannot install the restore signal handlers: %s", strerror(-rc));
		return EX_OSERR;
	}
	signals = true;
	cli_trace_watch();
	return EX_OK;
}

int cli_cmd_dispatch(const struct cli_cmd *c, int argc, char **argv)
{
	int skip = strchr(c->name, ' ') ? 1 : 0; /* a subcommand parses from its word */
	struct cli_ctx ctx = { .cmd = c };
	void *opts;
	int rc;

	if (!asks_help(argc, argv) && (rc = check_env(c->need)))
		return rc;
	opts = calloc(1, c->ops->opts_size ? c->ops->opts_size : 1);
	if (!opts) {
		cli_err("%s: out of memory", c->name);
		return EX_OSERR;
	}
	rc = c->ops->parse(argc - skip, argv + skip, opts, &ctx);
	if (rc == CLI_HELP_SHOWN)
		rc = EX_OK;
	else if (!rc && !c->ops->run)
		rc = EX_SOFTWARE; /* a group's entry parses to an answer */
	else if (!rc && !(rc = run_start()) && !(rc = setup(&ctx)))
		rc = c->ops->run(opts, &ctx);
	rc = cli_trace_end(close_all(&ctx, rc));
	if (signals)
		guard_signals_remove(GUARD_SIGNALS_DIE);
	signals = false;
	free(opts);
	return rc;
}

int cli_group_usage(int argc, char **argv, const char *help_word, void (*usage)(FILE *),
		    const char *group, const char *unknown)
{
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (help_word && !strcmp(argv[1], help_word))) {
		usage(stdout);
		return CLI_HELP_SHOWN;
	}
	cli_err("%s '%s' (try: baretma %s --help)", unknown, argv[1], group);
	return EX_USAGE;
}
