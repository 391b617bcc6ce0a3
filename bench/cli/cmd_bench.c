/*
 * bench/cli/cmd_bench.c - "baretma bench": the main job.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/text.h"
#include "bench/output/output.h"
#include "bench/bench.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/cli/cli_plot.h"
#include "bench/output/plot.h"
#include "cpu/environ.h"
#include "cpu/escape.h"
#include "msr/journal/state_dir.h"

/* The options: the library's, and the output format.  The guard's (--wait,
 * --force, the consent flags) and --cpuid-dump go to the setup (ctx). */
struct bench_cmd {
	struct bench_options o;
	struct cli_output out;
	const char *plot;   /* --plot FILE, or NULL */
};

static void bench_usage(FILE *f);

static int set_backend(const struct cli_opt_call *c)
{
	struct bench_cmd *b = c->opts;

	if (bench_backend_parse(c->arg, &b->o.backend)) {
		cli_err("bad --backend '%s': expected auto, rdpmc, msr, perf, perf-rdpmc or tsc",
			c->arg);
		return EX_USAGE;
	}
	return 0;
}

#define F(m) offsetof(struct bench_cmd, m)
static const struct cli_opt bench_opts[] = {
	{ CLI_OPT_KERNEL, .field = F(o.kernels),
	  .help = "comma-separated kernels (default: all); 'empty' always runs first: its "
		  "cost is subtracted from the others" },
	{ CLI_OPT_CPU, .arg = "N", .set = cli_opt_cpu_one, .field = F(o.cpu),
	  .help = "measure on OS CPU N (default: a P-core / a core with PERF_METRICS; a "
		  "hybrid part's E-core is measured by its event recipe)" },
	{ CLI_OPT_BACKEND, .arg = "B", .set = set_backend,
	  .help = "auto (default: rdpmc, else msr, else perf-rdpmc, else perf, else tsc), "
		  "rdpmc, msr, perf (perf_event's slots + topdown-* group read with "
		  "read(2): no root or msr module needed), perf-rdpmc (the same group read "
		  "by RDPMC through its user pages), tsc" },
	{ CLI_OPT_REPS, .field = F(o.reps), .lo = 1, .hi = BENCH_MAX_REPS,
	  .nums = { BENCH_DEFAULT_REPS },
	  .help = "measured repetitions per kernel (default %u)" },
	{ .name = "warmup", .arg = "N", .set = cli_opt_count, .field = F(o.warmup), .lo = 0,
	  .hi = BENCH_MAX_REPS, .nums = { BENCH_DEFAULT_WARMUP },
	  .help = "unmeasured repetitions before them (default %u)" },
	{ CLI_OPT_LEVEL, .set = cli_opt_level, .field = F(o.level),
	  .help = "Top-down level 1 or 2 (default: the highest the CPU has)" },
	{ CLI_OPT_USER_ONLY, .field = F(o.user_only),
	  .help = "fixed counter 3 counts at CPL > 0 only" },
	{ CLI_OPT_FORCE,
	  .help = "take over fixed counter 3 / PERF_METRICS already in use, or a CPU "
		  "another run's journal holds (saying so first)" },
	{ CLI_OPT_WAIT,
	  .help = "wait for another baretma on the CPU (or the settings) to end (default: "
		  "exit 75 naming it)" },
	{ CLI_OPT_RDPMC_ALWAYS,
	  .help = "set perf's rdpmc sysfs value to 2 for the run (RDPMC without perf's "
		  "mmap), then put it back" },
	{ CLI_OPT_STOP_NMI_WATCHDOG,
	  .help = "set /proc/sys/kernel/nmi_watchdog to 0 for the run, then put it back" },
	{ CLI_OPT_ALLOW_MSR_WRITES,
	  .help = "set msr.allow_writes to on for the run, then put it back" },
	{ .name = "delta-regions", .set = cli_opt_true, .field = F(o.delta_regions),
	  .help = "on the rdpmc backend of a kind with RDPMC metrics-clear mode "
		  "(IA32_PERF_CAPABILITIES bit 19, Lion Cove and later), measure each "
		  "region by the slot-weighted delta of two readings (default there: "
		  "metrics-clear regions, the counts since the clear at the region's begin "
		  "reading)" },
	{ CLI_OPT_CPUID_DUMP,
	  .help = "measure the machine of a CPUID dump (also: BARETMA_CPUID_DUMP): --cpu "
		  "and the default CPU are its CPUs, nothing is pinned; a dry run with "
		  "BARETMA_MSR=state:FILE (a real MSR device is refused: the dump is "
		  "another machine)" },
	{ CLI_OPT_VERBOSE, .help = CLI_HELP_VERBOSE },
	{ CLI_OPT_JSON, .help = "one JSON document (schema baretma-bench/2)" },
	{ CLI_OPT_CSV, .help = "-x , : one line per kernel and quantity (doc/csv.md)" },
	{ CLI_OPT_SEP, .help = CLI_HELP_SEP },
	{ CLI_OPT_OUTPUT, .set = cli_opt_output, .help = CLI_HELP_OUTPUT },
	{ CLI_OPT_OPENMETRICS, .help = CLI_HELP_OPENMETRICS },
	{ CLI_OPT_PLOT, .field = F(plot),
	  .help = CLI_HELP_PLOT " (stacked bars of each kernel's level 1, level 2 beside)" },
	{ .name = NULL },
};
#undef F

static const struct cli_optset bench_optset = {
	.cmd = "bench", .opts = bench_opts, .out = offsetof(struct bench_cmd, out),
	.usage = bench_usage,
};

static void bench_usage(FILE *f)
{
	size_t n;
	const struct bench_kernel *k = bench_kernels(&n);

	cli_opts_synopsis(f, &bench_optset);
	cli_opts_list(f, &bench_optset);
	fputs(
"Registers and settings are saved in a journal under $BARETMA_STATE_DIR before\n"
"they change and put back at the end, on errors and on fatal signals; after a\n"
"crash: baretma pmu restore.  A repetition during which someone else changed\n"
"fixed counter 3 / PERF_METRICS is invalid (tampered); such a run exits 75.\n"
"\n"
"On a core without PERF_METRICS (pre-Ice Lake, E-cores, AMD Zen 4/5) the rdpmc\n"
"and msr backends count its Top-down recipe's events on the general-purpose\n"
"counters, in passes when they outnumber the counters; the output names the\n"
"recipe, the passes and what bounds the numbers (no quantisation).  A counter\n"
"the recipe needs in use is refused naming it (75) unless --force.\n"
"\n"
"The numbers: each tma_* is a share of TOPDOWN.SLOTS read from IA32_PERF_METRICS,\n"
"per repetition by the slot-weighted region method of linux topdown.txt; level 1\n"
"divided by the sum of its four fields (as perf and PCM); a level-2 sibling is\n"
"its parent minus the measured child, never clamped (a negative value is\n"
"flagged).  perf stat -M TopdownL1 / --topdown also subtracts\n"
"INT_MISC.UOP_DROPPING from frontend bound, adds 5*INT_MISC.CLEARS_COUNT to\n"
"backend bound on Ice Lake and clamps level 2 at 0: see doc/numbers.md, \"How\n"
"perf's numbers differ\".\n"
"\n"
"exit status: 0 ok (also without a PMU: TSC timing, saying why), 64 usage\n"
"  (also: an E-core without a recipe and without --backend tsc, a dump with\n"
"  a real MSR device,\n"
"  a relative BARETMA_STATE_DIR), 65 bad data (dump, journal, BARETMA_MSR's\n"
"  state file or simulator profile; any input over its cap, a calibration\n"
"  file too), 66 dump, BARETMA_SYSROOT or BARETMA_MSR's\n"
"  file missing, 69 unavailable (the backend asked for, no device, a settings\n"
"  file missing; --plot: built without cairo, or no Top-down to draw), 70\n"
"  internal error, 71 system error, 73 the state directory cannot be created\n"
"  or is full, or -o/--openmetrics FILE or the --plot file cannot be created\n"
"  (or, under sudo, is not one you could have written), 74 one cannot be\n"
"  written (a full disk: ENOSPC) or BARETMA_MSR_TRACE lost a line, 75 busy\n"
"  (locked, held by a journal,\n"
"  counters in use) or tampered, 77 permission denied (also: lockdown,\n"
"  msr.allow_writes=off, an unsafe state directory or a calibration or\n"
"  journal in it of another user's or writable by others, a BARETMA_MSR\n"
"  other than the device's under sudo, a dump the invoking user cannot read\n"
"  under sudo); 128+N: killed by signal N, after putting the\n"
"  registers back\n"
"\n"
"kernels:\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-13s %s\n", k[i].name, k[i].node);
}

/*
 * Flags that contradict each other, refused before anything runs: one
 * output format; no Top-down knob (--level, --user-only: fixed counter 3's
 * field) with the backend that measures no Top-down.
 */
static int check_exclusive(const struct bench_options *o, struct cli_output *out)
{
	int rc = cli_output_check("bench", out, &output_view_bench);
	char b[64]; /* "--backend NAME" */

	if (rc)
		return rc;
	snprintf(b, sizeof(b), "--backend %s", bench_backend_name(o->backend));
	if (bench_backend_timing_only(o->backend) && o->level)
		return cli_refuse_together("bench", "--level", b);
	if (bench_backend_timing_only(o->backend) && o->user_only)
		return cli_refuse_together("bench", "--user-only", b);
	return 0;
}

static int check_kernels(const char *list)
{
	char buf[512], *save = NULL;

	if (!list)
		return 0;
	if (!*list || strlen(list) >= sizeof(buf)) {
		cli_err("bad --kernel '%s': give a comma-separated list of kernel names", list);
		return EX_USAGE;
	}
	strcpy(buf, list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (!bench_kernel_find(t)) {
			cli_err("unknown kernel '%s' in --kernel (try: baretma bench --help for the list)", t);
			return EX_USAGE;
		}
	return 0;
}

static int bench_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct bench_cmd *b = opts;
	int rc;

	b->o = (struct bench_options){ .cpu = -1, .reps = BENCH_DEFAULT_REPS,
				       .warmup = BENCH_DEFAULT_WARMUP };
	b->out = (struct cli_output){ 0 };
	b->plot = NULL;
	rc = cli_opts_parse(&bench_optset, NULL, argc, argv, b, ctx);
	/* the guard's flags the library reads too */
	b->o.force = ctx->run.force;
	b->o.rdpmc_always = ctx->run.set.rdpmc_always;
	if (!rc)
		rc = check_exclusive(&b->o, &b->out);
	if (!rc && b->plot && bench_backend_timing_only(b->o.backend)) {
		char with[64]; /* "--backend NAME" */

		snprintf(with, sizeof(with), "--backend %s", bench_backend_name(b->o.backend));
		rc = cli_refuse_together("bench", "--plot", with);
	}
	if (!rc)
		rc = cli_plot_check("bench", b->plot); /* before anything runs */
	ctx->msr_unused = !bench_backend_uses_msr(b->o.backend);
	return rc ? rc : check_kernels(b->o.kernels);
}

static int report_failure(const struct bench_options *o, struct bench_session *s,
			  const struct bench_result *res, int rc)
{
	struct msr_dev *dev = bench_session_dev(s);
	struct msr_fault f;
	char more[128], subject[64];
	int st;

	if (res->avail.why == TD_MSR_OPEN) { /* $BARETMA_MSR, as the setup says it */
		cli_err("%s", bench_avail_reason(&res->avail));
		return cli_exit_for_errno(rc);
	}
	switch (-rc) {
	case EOPNOTSUPP:
		snprintf(more, sizeof(more), ", or no --cpu to let baretma choose, or --backend "
			 "tsc to time cpu %u without Top-down", res->cpu_used);
		return cli_refuse_kind(NULL, &res->cpu, res->cpu_used, more);
	case ENXIO:
		if (o->cpu < 0)
			cli_err("no CPU this process may run on has a core kind that can measure "
				"(on hybrid parts: no P-core in the allowed set; choose one with --cpu N)");
		else {
			snprintf(subject, sizeof(subject), "cannot measure on cpu %d", o->cpu);
			return cli_bad_cpu(subject, o->machine, rc, true);
		}
		return EX_USAGE;
	case ENODEV:
		/* a dump's CPU behind this machine's device: refused as any write */
		if (res->avail.why == TD_OTHER_MACHINE &&
		    cli_refuse_dump_device("bench", o->machine, bench_session_dev(s)))
			return EX_USAGE;
		cli_err("cannot use --backend %s on cpu %u: %s", bench_backend_name(o->backend),
			res->cpu_used, bench_avail_reason(&res->avail));
		return EX_UNAVAILABLE;
	case EBUSY:
		/* an event recipe's counters are checked as they are programmed
		 * (gp_check_in_use): refused naming each, nothing written */
		if (res->recipe) {
			cli_err("cpu %u: a counter of recipe %s:%s is in use: %s (--force takes "
				"over, saving and restoring the registers; --stop-nmi-watchdog "
				"frees the NMI watchdog's)", res->cpu_used, res->recipe->name,
				res->recipe->variant, bench_avail_reason(&res->avail));
			return EX_TEMPFAIL;
		}
		/* pmu_program's own check: in use since the ownership check */
		cli_err("cpu %u: fixed counter 3 / PERF_METRICS in use: %s (it became busy "
			"after baretma checked; --force takes over, saving and restoring the "
			"registers)", res->cpu_used, bench_avail_reason(&res->avail));
		return EX_TEMPFAIL;
	case EINVAL:
		if (bench_avail_reason(&res->avail)[0]) {
			cli_err("%s", bench_avail_reason(&res->avail));
			return EX_USAGE;
		}
		break;
	case ERANGE:
		cli_err("bad repetition count: --reps 1..%u and --warmup 0..%u", BENCH_MAX_REPS,
			BENCH_MAX_REPS);
		return EX_USAGE;
	}
	/* A failed MSR access names its register and CPU (msr_last_fault). */
	if (dev && msr_last_fault(dev, &f) && f.err == rc)
		return cli_msr_access_fail(dev, rc, "bench", res->cpu_used);
	if ((st = cli_journal_space(dev, rc)))
		return st;
	cli_err("bench failed on cpu %u: %s", res->cpu_used, strerror(-rc));
	return cli_exit_for_errno(rc);
}

/*
 * The guarded part of a run that writes MSRs or settings: locks, other
 * runs' journals, ownership, the journal, the settings, the measurement,
 * the restore (bench/cli/cli_run.c).  Returns the exit status; 0 when @res is
 * to be printed.
 */
static int run_guarded(const struct bench_options *o, struct cli_run *r,
		       struct bench_session *s, struct bench_result *res)
{
	struct msr_dev *dev = bench_session_dev(s);
	bool programs = bench_session_programs(s);
	unsigned cpu = res->cpu_used;
	int st = EX_OK, rc = 0;

	if (programs)
		st = cli_refuse_dump_device("bench", o->machine, dev);
	if (!st)
		st = cli_run_start(r, dev, &res->cpu, &cpu, programs ? 1 : 0, programs,
				   JOURNAL_RUN, o->user_only);
	/* rdpmc is 2 now: probe again, choose again (reads only) */
	if (!st && o->rdpmc_always && (rc = bench_recheck(s)))
		st = report_failure(o, s, res, rc);
	if (!st && programs != bench_session_programs(s))
		st = EX_SOFTWARE; /* the recheck never turns Top-down off */
	msr_fault_clear(dev);
	if (!st && (rc = bench_measure(s, r->j)))
		st = report_failure(o, s, res, rc);
	return cli_run_finish(r, st, false); /* put back before the results */
}

/* The environment preflight of the machine baretma runs on, as info
 * gives it (cpu/machine.h: never the dump's). */
static json_t *environment_json(const struct bench_options *o, const struct bench_result *res)
{
	struct cpu_env env;

	cpu_machine_env_read(o->machine, (int)res->cpu_used, &env);
	return env_to_json(&env, cpu_machine_host(o->machine), &res->avail);
}

/* The result in the format chosen; a document carries the environment and
 * the reason Top-down is unavailable, which the other formats leave to
 * stderr. */
static void print_result(const struct bench_options *o, const struct cli_output *out,
			 const struct bench_result *res, int *rc)
{
	bool document = cli_output_format(out)->document;
	json_t *env = NULL;
	int st;

	/* the reason once: the text report's "top-down:" line says it, CSV
	 * does not (stderr then) */
	if (!res->level && !document && cli_output_format(out)->for_people)
		esc_fprintf(stderr, "baretma: top-down unavailable on cpu %u (why: the report's "
			    "'top-down:' line); timing with the TSC only\n", res->cpu_used);
	else if (!res->level && !document)
		esc_fprintf(stderr, "baretma: top-down unavailable on cpu %u: %s; timing with the "
			    "TSC only\n", res->cpu_used, bench_avail_reason(&res->avail));
	if (document && !(env = environment_json(o, res))) { /* never a status without a word */
		cli_err("bench: cannot build the JSON document (out of memory)");
		*rc = EX_SOFTWARE;
		return;
	}
	st = cli_output("bench", out, &output_view_bench, res, env);
	json_decref(env);
	if (st)
		*rc = st;
}

/* A calibration the run may not read (struct bench_calib_use refused):
 * said, and the exit status; nothing is measured. */
static int calib_refused(const struct bench_calib_use *u)
{
	char *t = NULL;

	if (u->refused == -EFBIG) {
		cli_err("calibration '%s': %s (run baretma calibrate again: it writes a file of "
			"a few KiB)", u->path, u->reason);
		return EX_DATAERR;
	}
	if (state_dir_file_text(&t, "calibration", u->path, u->reason))
		return EX_OSERR;
	cli_err("%s", t);
	free(t);
	return EX_NOPERM;
}

static int bench_run_cmd(void *opts, struct cli_ctx *ctx)
{
	struct bench_cmd *b = opts;
	struct bench_options *o = &b->o;
	struct bench_session *s = NULL;
	struct bench_result res;
	int rc;

	o->machine = ctx->machine;
	rc = bench_open(o, &res, &s);
	if (res.kinds_warning)
		cli_warn("hwloc's CPU kinds disagree with CPUID: %s (going by CPUID leaf "
			 "0x1A, which names each CPU's core type)", res.kinds_warning);
	if (rc)
		rc = report_failure(o, s, &res, rc);
	else if (res.calib.refused)
		rc = calib_refused(&res.calib);
	else if (bench_session_programs(s) || cli_settings_any(&ctx->run.set))
		rc = run_guarded(o, &ctx->run, s, &res);
	else if ((rc = bench_measure(s, NULL)))
		rc = report_failure(o, s, &res, rc);
	bench_close(s);
	if (!rc) {
		/* Tampered samples are left out of every number; the run says so
		 * and exits 75 (counters taken by someone else), after its output. */
		if (res.tamper.detected) {
			cli_warn("%s", text_or_empty(res.tamper.message));
			rc = EX_TEMPFAIL;
		}
		if (res.overflow.samples)
			cli_warn("%s", text_or_empty(res.overflow.message));
		if (res.calib.malformed) /* a file that is wrong, not one for another day */
			cli_warn("calibration '%s' ignored: %s (run baretma calibrate again)",
				 res.calib.path, res.calib.reason);
		else if (res.calib.found && !res.calib.used)
			cli_note("calibration '%s' ignored: %s", res.calib.path, res.calib.reason);
		print_result(o, &b->out, &res, &rc); /* the environment needs o->machine */
		if (b->plot) {
			int st = cli_plot_done("bench", b->plot, plot_bench_write(b->plot, &res, cli_plot_run(), NULL));

			rc = st ? st : rc;
		}
	}
	bench_result_free(&res);
	return rc;
}

const struct cli_cmd_ops cmd_bench = {
	.parse = bench_parse, .run = bench_run_cmd, .usage = bench_usage,
	.opts_size = sizeof(struct bench_cmd), .optset = &bench_optset,
};
