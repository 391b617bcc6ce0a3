/*
 * bench/cli/cmd_pmu.c - `baretma pmu enable | status | restore`: program fixed
 * counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS and leave them running for
 * another harness, with the saved registers (and settings) in one run
 * journal (msr/journal/journal.h) that `pmu restore` (another process, later)
 * writes back.  `status` and `restore` handle every journal in the state
 * directory: those of `pmu enable`, of `msr write`, and of runs that were
 * killed before they could restore.
 *
 * This file: usage, options, the group's own entry ("pmu" without a
 * subcommand: bench/cli/cli_cmds.c) and the helpers the subcommands share;
 * enable, status and restore have a file each, with their entries of the
 * command table (bench/cli/cmd_pmu.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/cli/cli.h"
#include "bench/cli/cli_opt.h"
#include "bench/cli/cmd_pmu.h"
#include "cpu/cpu.h"
#include "msr/open/msr_open.h"
#include "msr/regs/msr_names.h"

/* The subcommands: each option names those it applies to. */
#define ENABLE 1u
#define STATUS 2u
#define RESTORE 4u

#define F(m) offsetof(struct pmu_opts, m)
static const struct cli_opt pmu_opts_table[] = {
	{ CLI_OPT_CPU, .arg = "LIST", .set = cli_opt_str, .field = F(cpu_list),
	  .help = "OS CPUs, e.g. 0-3,6 (enable: default every CPU with PERF_METRICS, else "
		  "every CPU with fixed counter 3; on hybrid parts a CPU without "
		  "PERF_METRICS, i.e. an E-core, is refused: exit 64, nothing written)" },
	{ CLI_OPT_USER_ONLY, .field = F(user_only), .forms = ENABLE,
	  .help = "count at CPL > 0 only (fixed counter 3 field 0x2)" },
	{ CLI_OPT_FORCE, .forms = ENABLE,
	  .help = "take over fixed counter 3 / PERF_METRICS already in use, or CPUs another "
		  "journal holds (saying so first)" },
	{ CLI_OPT_JSON, .forms = STATUS, .help = "status as one JSON document" },
	{ CLI_OPT_WAIT, .forms = ENABLE | RESTORE,
	  .help = "wait for another baretma on the CPUs (default: exit 75)" },
	{ CLI_OPT_UNSAFE_MSR, .field = F(unsafe_msr), .forms = RESTORE,
	  .help = "restore: also registers 'msr write --unsafe-msr' wrote outside the write "
		  "policy (marked so in the journal and by status; without it such a journal "
		  "is exit 64)" },
	{ CLI_OPT_RDPMC_ALWAYS, .forms = ENABLE,
	  .help = "set perf's rdpmc sysfs value to 2 (RDPMC without perf's mmap)" },
	{ CLI_OPT_STOP_NMI_WATCHDOG, .forms = ENABLE,
	  .help = "set /proc/sys/kernel/nmi_watchdog to 0" },
	{ CLI_OPT_ALLOW_MSR_WRITES, .forms = ENABLE,
	  .help = "set msr.allow_writes to on (enable: these three stay until 'pmu restore' "
		  "puts them back)" },
	{ CLI_OPT_CPUID_DUMP,
	  .help = "identify from a CPUID dump (also: BARETMA_CPUID_DUMP): the machine the "
		  "simulator (BARETMA_MSR=sim:) models; enable and restore refuse a real MSR "
		  "device then: the dump is another machine" },
	{ CLI_OPT_VERBOSE, .forms = ENABLE | RESTORE, .help = CLI_HELP_VERBOSE },
	{ .name = NULL },
};
#undef F

static const struct cli_form pmu_forms[] = {
	{ .sub = "enable" }, { .sub = "status" }, { .sub = "restore" },
};

const struct cli_optset cli_pmu_optset = {
	.cmd = "pmu", .opts = pmu_opts_table, .forms = pmu_forms, .nforms = 3,
	.out = offsetof(struct pmu_opts, out), .usage = cli_pmu_usage,
};

void cli_pmu_usage(FILE *f)
{
	cli_opts_synopsis(f, &cli_pmu_optset);
	fputs(
"\n"
"enable   program fixed counter 3 (TOPDOWN.SLOTS) and, where the CPU has it,\n"
"         IA32_PERF_METRICS on every CPU that can (or on --cpu LIST), and leave\n"
"         them running for another harness (RDPMC); the saved registers (and the\n"
"         settings changed with the flags below) go to one journal\n"
"         'run-PID.journal' under $BARETMA_STATE_DIR (default /run/baretma)\n"
"status   every journal: who made it (pid, running or not, command, time), its\n"
"         backend, its CPUs, each register's saved and current value, settings\n"
"restore  put back every journal whose process has ended (with --cpu LIST:\n"
"         every such journal holding one of those CPUs, whole), then remove it\n"
"\n", f);
	cli_opts_list(f, &cli_pmu_optset);
	fputs(
"\n"
"exit status: 0 ok, 64 usage (also: an E-core in --cpu, a dump with a real\n"
"  device, restore through another backend, a relative BARETMA_STATE_DIR,\n"
"  restore of an unsafe-msr register without --unsafe-msr),\n"
"  65 bad state file/journal/dump, 66 file missing (dump, BARETMA_SYSROOT) or\n"
"  no journal for --cpu, 69 no fixed counter 3 or no device (also: a register\n"
"  the ownership check reads #GPs), 70 internal error, 71 system error,\n"
"  73 cannot create the state directory, 75 in use, locked or held by a\n"
"  journal, 77 permission denied (also: msr_safe's allowlist refuses a register\n"
"  the ownership check reads; --force goes on)\n", f);
}

/* --------------------------------------------------------------- helpers */

void cli_pmu_fmt_time(char *buf, size_t n, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, n, "%lld", t);
}

/* ------------------------------------------------------------- options */

int cli_pmu_parse(int argc, char **argv, const char *sub, bool cpus_now, struct pmu_opts *o,
		  struct cli_ctx *ctx)
{
	int rc;

	o->sub = sub;
	o->ncpus = -1;
	if ((rc = cli_opts_parse(&cli_pmu_optset, sub, argc, argv, o, ctx)))
		return rc;
	o->wait = ctx->run.wait;
	o->force = ctx->run.force;
	o->set = ctx->run.set;
	if (cpus_now && o->cpu_list && (o->ncpus = cli_pmu_parse_cpus(o->cpu_list, o->cpus)) < 0)
		return -o->ncpus;
	return 0;
}

/* --cpu LIST into @cpus; returns the count or -(exit status). */
int cli_pmu_parse_cpus(const char *list, unsigned *cpus)
{
	int n = cli_parse_cpu_list(list, cpus, CPU_MAX_CPUS);

	if (n < 0) {
		cli_err("bad --cpu '%s': give OS CPU numbers below %d, e.g. 0-3,6%s%s", list,
			CPU_MAX_CPUS, n == -EDOM ? "; " : "", n == -EDOM ? CLI_CPU_HEX_HINT : "");
		return -EX_USAGE;
	}
	return n;
}

/* ------------------------------------------------------------ journals */

const char *cli_pmu_reg_name(const struct cpu_info *ci, unsigned cpu, uint32_t msr)
{
	struct msr_counters c;

	return msr_reg_name_cpu(msr, cli_msr_counters(ci, cpu, &c));
}

const struct cpu_info *cli_pmu_journal_machine(const struct cpu_info *ci,
					       const struct journal_data *d)
{
	const char *env = getenv("BARETMA_CPUID_DUMP");

	if ((env && *env) || !strcmp(msr_spec_backend(d->backend), "device"))
		return ci;
	return NULL;
}

/* "NAME=0xSAVED ..." (or current values, "?" when unreadable) of @cpu. */
void cli_pmu_fmt_regs(char *buf, size_t n, struct msr_dev *dev, const struct journal_data *d,
		      const struct cpu_info *ci, unsigned cpu, bool current)
{
	const char *mark;
	char name[40];
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < d->nregs && o < n; i++) {
		const struct journal_reg *r = &d->regs[i];
		uint64_t v = r->saved;
		int w, rc = 0;

		if (r->cpu != cpu)
			continue;
		if (current)
			rc = msr_read(dev, cpu, r->msr, &v);
		if (cli_pmu_reg_name(ci, cpu, r->msr))
			snprintf(name, sizeof(name), "%s", cli_pmu_reg_name(ci, cpu, r->msr));
		else
			snprintf(name, sizeof(name), "MSR 0x%" PRIx32, r->msr);
		mark = r->unsafe && !current ? " (" JOURNAL_UNSAFE_MARK ")" : "";
		w = rc ? snprintf(buf + o, n - o, "%s%s=?", o ? " " : "", name)
		       : snprintf(buf + o, n - o, "%s%s=0x%" PRIx64 "%s", o ? " " : "", name, v,
				  mark);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

/* --------------------------------------------------------------- entry */

/* "pmu" with no subcommand, help, or one it does not have. */
static int pmu_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	return cli_group_usage(argc, argv, NULL, cli_pmu_usage, "pmu", "pmu: unknown command");
}

const struct cli_cmd_ops cmd_pmu = { .parse = pmu_parse, .usage = cli_pmu_usage,
				     .optset = &cli_pmu_optset };
