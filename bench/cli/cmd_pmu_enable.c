/*
 * bench/cli/cmd_pmu_enable.c - `baretma pmu enable`: program fixed counter 3
 * (TOPDOWN.SLOTS) and IA32_PERF_METRICS on every target CPU and leave them
 * running for another harness; the saved registers (and settings) go to
 * one journal of kind enable that `pmu restore` puts back.
 *
 * enable refuses the whole command before any write when a target CPU is
 * locked by another baretma, held by another run's journal, in use (FC3 /
 * PERF_METRICS; without --force), lacks fixed counter 3, or is a hybrid
 * part's E-core (no PERF_METRICS while the P-cores have it: a harness
 * would find no Top-down there); a failure midway restores everything
 * through the journal.  IA32_PERF_GLOBAL_CTRL bit 48 is set per CPU from
 * its own kind (pmu_config.perf_metrics), never from the machine's.
 * Hardware facts: msr/pmu/pmu.h and the kernel and PCM sources it cites.
 *
 * This file parses and prints; the targets and the programming are
 * bench/run_pmu.c's (run_pmu_targets, run_pmu_program_all).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/cli/cmd_pmu.h"
#include "bench/run.h"
#include "cpu/cpu.h"
#include "cpu/escape.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/sim/msr_sim.h"
#include "msr/pmu/pmu.h"
#include "msr/guard/settings.h"

/* ------------------------------------------------------ identification */

/* "efficiency core, Gracemont" or just "Skylake" where not hybrid. */
static void fmt_kind(char *buf, size_t n, const struct cpu_kind *k)
{
	const char *uarch = k->uarch ? k->uarch : "unknown microarchitecture";

	if (!strcmp(k->kind, "general"))
		snprintf(buf, n, "%s", uarch);
	else
		snprintf(buf, n, "%s core, %s", k->kind, uarch);
}

/*
 * Identify the machine @m describes.  With CPUID.1:ECX[15] PDCM,
 * IA32_PERF_CAPABILITIES of @cpu0 is read where @dev reaches it
 * (bench_identify: never this machine's device for a dump's CPU).
 */
static int identify(const struct cpu_machine *m, struct msr_dev *dev, int cpu0,
		    struct cpu_info *ci)
{
	int rc = bench_identify(m, dev, cpu0 < 0 ? 0 : cpu0, ci);

	if (rc)
		return cli_identify_failed(m, rc);
	cli_warn_kinds("pmu enable", m, ci);
	return EX_OK;
}

/*
 * The CPUs to program: the @n CPUs already in @cpus (--cpu), each checked,
 * or (@n < 0) the capable ones (run_pmu_targets).  Returns the count or
 * -(exit status) after the refusal.
 */
static int pick_targets(const struct cpu_machine *m, const struct cpu_info *ci,
			unsigned *cpus, int n)
{
	static struct run_pmu_targets t;
	char list[256], kind[96], subject[64];

	n = run_pmu_targets(m, ci, cpus, n, &t);
	if (n >= 0)
		return n;
	cli_fmt_cpus(list, sizeof(list), t.capable, (unsigned)t.ncapable);
	switch (t.why) {
	case RUN_PMU_NONE_CAPABLE:
		cli_err("pmu enable: %s (%s) has no fixed counter 3 (TOPDOWN.SLOTS) on any "
			"CPU: nothing to program (Top-down slots need an Intel Ice Lake or "
			"later P-core)", ci->brand,
			ci->nkinds && ci->kinds[0].uarch ? ci->kinds[0].uarch : "unknown");
		return -EX_UNAVAILABLE;
	case RUN_PMU_NOT_A_CPU:
		snprintf(subject, sizeof(subject), "pmu enable: cpu %u", t.cpu);
		return -cli_bad_cpu(subject, m, t.err, false);
	case RUN_PMU_NO_METRICS: /* a hybrid part's E-core: the whole list (man baretma-pmu) */
		return -cli_refuse_kind("pmu enable", ci, t.cpu,
					", or no --cpu for every CPU that can");
	case RUN_PMU_NO_FC3:
		break;
	}
	fmt_kind(kind, sizeof(kind), cpu_info_kind_of(ci, t.cpu));
	cli_err("cpu %u (%s) has no fixed counter 3 (TOPDOWN.SLOTS); CPUs that can: %s", t.cpu,
		kind, t.ncapable ? list : "none");
	return -EX_UNAVAILABLE;
}

/* ------------------------------------------------------------- enable */

/* The whole list is checked before anything is written. */
static int preflight(struct msr_dev *dev, const struct cpu_machine *m, const unsigned *cpus,
		     int n)
{
	int rc = cli_msr_open_cpus(dev, cpus, n);

	return rc ? rc : cli_refuse_dump_device("pmu enable", m, dev);
}

static void fmt_saved(char *buf, size_t n, const struct pmu_saved *s)
{
	int w = snprintf(buf, n, "IA32_PERF_GLOBAL_CTRL=0x%" PRIx64 " IA32_FIXED_CTR_CTRL=0x%"
			 PRIx64 " IA32_FIXED_CTR3=0x%" PRIx64, s->global_ctrl,
			 s->fixed_ctr_ctrl, s->fixed_ctr3);

	if (s->perf_metrics && w > 0 && (size_t)w < n)
		snprintf(buf + w, n - (size_t)w, " IA32_PERF_METRICS=0x%" PRIx64,
			 s->perf_metrics_val);
}

/* Program every target, each CPU's registers journaled before its writes
 * (run_pmu_program_all).  A failed MSR access is named (register, CPU:
 * msr_last_fault); any other error of pmu_program is the journal's. */
static int program_all(struct cli_run *r, const struct pmu_opts *o,
		       const struct cpu_info *ci, const unsigned *cpus, int n,
		       struct pmu_saved *t)
{
	struct msr_fault f;
	char why[256];
	int at, rc = run_pmu_program_all(r->dev, r->j, ci, cpus, n, o->user_only, o->force, t,
					 &at, why, sizeof(why));

	if (!rc)
		return EX_OK;
	if (rc == -EBUSY) {
		cli_err("cpu %u: fixed counter 3 / PERF_METRICS in use: %s (it became busy "
			"after baretma checked)", cpus[at], why);
		return EX_TEMPFAIL;
	}
	if (msr_last_fault(r->dev, &f) && f.err == rc)
		return cli_msr_access_fail(r->dev, rc, "pmu enable", cpus[at]);
	return cli_state_dir_fail("write the journal", rc);
}

/* Whether user-space RDPMC works now: perf's rdpmc sysfs value
 * (linux arch/x86/events/core.c set_attr_rdpmc): 2 always, 1 only for a process that mmaps a perf
 * event of its own, 0 never (RDPMC at CPL 3 is then a #GP: SIGSEGV). */
static void rdpmc_requirement(char *buf, size_t n)
{
	char v[16], where[JOURNAL_PATH_MAX];

	if (setting_read(SETTING_RDPMC, v, sizeof(v), where, sizeof(where)))
		snprintf(buf, n, "user-space RDPMC needs perf's rdpmc sysfs value 2 ('%s' could not "
			 "be read: no core PMU driver?); otherwise RDPMC faults (SIGSEGV)", where);
	else if (!strcmp(v, "2"))
		snprintf(buf, n, "user-space RDPMC is allowed: '%s' is 2", where);
	else
		snprintf(buf, n, "user-space RDPMC needs '%s' = 2 (it is %s: --rdpmc-always sets it "
			 "until 'pmu restore'%s); otherwise RDPMC faults (SIGSEGV)", where, v,
			 !strcmp(v, "1") ? ", or the harness mmaps a perf event of its own" : "");
}

/*
 * How a harness reads what enable left running (linux perf_event.h
 * INTEL_PMC_FIXED_RDPMC_BASE, INTEL_PMC_FIXED_RDPMC_METRICS): RDPMC
 * with ECX (1<<30)|3 = fixed counter 3 (TOPDOWN.SLOTS) and 1<<29 =
 * IA32_PERF_METRICS, on a thread pinned to one of the CPUs (each CPU's
 * counters count that CPU only), and the region decode of the two readings
 * (topdown.txt's slot-weighted deltas: baretma decode --from --to).
 */
static void report_harness(const char *list, const struct pmu_saved *t, int n)
{
	char req[JOURNAL_PATH_MAX + 256];
	bool metrics = false;

	for (int i = 0; i < n; i++)
		metrics |= t[i].perf_metrics;
	rdpmc_requirement(req, sizeof(req));
	printf("read them from a harness thread pinned to one of cpu %s (sched_setaffinity or "
	       "taskset -c; each CPU counts for itself):\n", list);
	printf("  RDPMC ECX=0x%08x ((1<<30)|3)  fixed counter 3, TOPDOWN.SLOTS\n", RDPMC_ECX_SLOTS);
	if (metrics)
		printf("  RDPMC ECX=0x%08x (1<<29)      IA32_PERF_METRICS\n", RDPMC_PERF_METRICS);
	printf("  %s\n", req);
	if (metrics)
		printf("  a region read before (SLOTS0, METRICS0) and after (SLOTS1, METRICS1): "
		       "baretma decode --from SLOTS0:METRICS0 --to SLOTS1:METRICS1 (doc/library.md, "
		       "\"A harness of your own\")\n");
	else
		printf("  slots only: these CPUs have no IA32_PERF_METRICS\n");
}

static void report_enabled(const struct pmu_opts *o, const struct cli_run *r,
			   const unsigned *cpus, int n, const struct pmu_saved *t)
{
	char saved[256], list[256];

	for (int i = 0; i < n; i++) {
		fmt_saved(saved, sizeof(saved), &t[i]);
		printf("cpu %u: fixed counter 3 counting (%s)%s; saved %s\n", cpus[i],
		       o->user_only ? "user only" : "OS+user",
		       t[i].perf_metrics ? " and PERF_METRICS enabled" : "", saved);
	}
	cli_fmt_cpus(list, sizeof(list), cpus, (unsigned)n);
	esc_fprintf(stdout, "enabled on cpu %s; journal '%s'; run 'baretma pmu restore' to put "
		    "the saved values back\n", list, journal_path(r->j));
	report_harness(list, t, n);
}

/* The simulated PMU without `state FILE` keeps its registers in this
 * process's memory (msr/sim/msr_sim.h): what was enabled ends with it. */
static void warn_in_memory(struct msr_dev *dev)
{
	const struct sim_profile *p = msr_sim_profile_of(dev);

	if (p && !p->state[0])
		cli_warn("pmu enable: the simulated PMU (%s) keeps its registers in this "
			 "process's memory: they are gone when it exits, and the next process "
			 "(pmu status, pmu restore, bench) sees a clean register file, not what "
			 "was enabled (give the profile a `state FILE` line to keep them)",
			 cli_msr_spec());
}

static int enable_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	return cli_pmu_parse(argc, argv, "enable", true, opts, ctx);
}

static int enable_run(void *opts, struct cli_ctx *ctx)
{
	struct pmu_opts *o = opts;
	struct cpu_info *ci = calloc(1, sizeof(*ci));
	struct cpu_machine *m = ctx->machine;
	struct msr_dev *dev = ctx->dev;
	struct pmu_saved *t = NULL;
	unsigned *cpus = o->cpus;
	int rc, n = o->ncpus;

	if (!ci)
		return EX_OSERR;
	rc = identify(m, dev, n > 0 ? (int)cpus[0] : -1, ci);
	if (rc)
		goto out;
	n = pick_targets(m, ci, cpus, n);
	if (n < 0) {
		rc = -n;
		goto out;
	}
	t = calloc((size_t)n, sizeof(*t));
	rc = t ? preflight(dev, m, cpus, n) : EX_OSERR;
	/* locks, journals, ownership of every target (refused as a whole),
	 * the journal, the settings */
	if (!rc)
		rc = cli_run_start(&ctx->run, dev, ci, cpus, n, true, JOURNAL_ENABLE, o->user_only);
	if (!rc)
		rc = program_all(&ctx->run, o, ci, cpus, n, t);
	if (!rc)
		report_enabled(o, &ctx->run, cpus, n, t);
	if (!rc)
		warn_in_memory(dev);
	/* The close (CLI_GUARD_DETACH): success leaves the journal for "pmu
	 * restore"; failure restores now. */
out:
	free(t);
	free(ci);
	return rc;
}

const struct cli_cmd_ops cmd_pmu_enable = {
	.parse = enable_parse, .run = enable_run, .usage = cli_pmu_usage,
	.opts_size = sizeof(struct pmu_opts), .optset = &cli_pmu_optset,
};
