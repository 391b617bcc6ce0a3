/*
 * bench/cli/cmd_pmu.h - the files of `baretma pmu` (bench/cmd_pmu*.c), one per
 * subcommand: enable (cmd_pmu_enable.c), status (cmd_pmu_status.c),
 * restore (cmd_pmu_restore.c); options, usage and the helpers they share
 * in bench/cli/cmd_pmu.c.  Command-line layer: these print.
 */
#ifndef BARETMA_CMD_PMU_H
#define BARETMA_CMD_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/cli/cli_cmd.h"
#include "cpu/cpu.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"

struct pmu_opts {
	const char *sub;
	const char *cpu_list;
	bool user_only, force, wait;
	struct cli_output out; /* status: --json */
	bool unsafe_msr;    /* restore: registers `msr write --unsafe-msr` wrote, too */
	struct guard_settings set;
	unsigned cpus[CPU_MAX_CPUS]; /* --cpu LIST, when parsed with the options */
	int ncpus;                   /* how many; -1: no --cpu */
};

/* cli_pmu_usage - the usage of every "pmu" subcommand. */
void cli_pmu_usage(FILE *f);

/*
 * cli_pmu_parse - the options of "pmu @sub" into @o, by pmu's table
 * (bench/cli/cmd_pmu.c: each option names the subcommands it applies to);
 * the guard's inputs (--wait, --force, the settings flags) and
 * --cpuid-dump into @ctx (and copied into @o); with @cpus_now also the
 * --cpu LIST (enable and restore check it first; status after opening the
 * MSR backend, as it always has).  Returns 0, CLI_HELP_SHOWN or an exit
 * status.
 */
int cli_pmu_parse(int argc, char **argv, const char *sub, bool cpus_now, struct pmu_opts *o,
		  struct cli_ctx *ctx);

/* The table of pmu's options, for the entries of its subcommands. */
extern const struct cli_optset cli_pmu_optset;

/* --cpu LIST into @cpus; returns the count or -(exit status), the message printed. */
int cli_pmu_parse_cpus(const char *list, unsigned *cpus);

/* "2024-01-02 03:04:05 UTC" for Unix time @t. */
void cli_pmu_fmt_time(char *buf, size_t n, long long t);

/* "NAME=0xSAVED ..." (or, with @current, the values read now through @dev,
 * "?" when unreadable) of the registers @d saved for @cpu; NAME is the SDM
 * name of a register of that CPU (msr/regs/msr_names.h msr_reg_name_cpu, with
 * @cpu's counters from @ci; @ci NULL: the architectural ranges), else "MSR
 * 0x1a0" ("MSR 0x1a0=0x850089").  A saved value marked unsafe-msr is
 * followed by " (unsafe-msr)". */
struct cpu_info;
void cli_pmu_fmt_regs(char *buf, size_t n, struct msr_dev *dev, const struct journal_data *d,
		      const struct cpu_info *ci, unsigned cpu, bool current);

/* cli_pmu_reg_name - the name of @msr on @cpu for status and restore
 * (msr_reg_name_cpu with @cpu's counters from @ci), NULL when it has none. */
const char *cli_pmu_reg_name(const struct cpu_info *ci, unsigned cpu, uint32_t msr);

/*
 * cli_pmu_journal_machine - the CPU that names the registers of journal @d
 * (pass it as @ci above): @ci, the machine status and restore identified
 * (cli_names_identify: $BARETMA_CPUID_DUMP, else this machine), when
 * $BARETMA_CPUID_DUMP names it or when @d was written through an MSR
 * device (a device reaches only this machine's registers); NULL - the
 * architectural ranges - for a journal of a state file or the simulated
 * PMU, whose machine (a CPUID dump of a dry run) the journal does not
 * record (msr/regs/msr_policy.h msr_policy_knows: nor does anything it holds
 * depend on it).  So the live CPU's counters never rename a dry run's
 * registers: on a guest without a virtual PMU (no counter enumerated)
 * IA32_FIXED_CTR3 is still IA32_FIXED_CTR3.
 */
const struct cpu_info *cli_pmu_journal_machine(const struct cpu_info *ci,
					       const struct journal_data *d);

#endif
