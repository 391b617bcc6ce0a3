/*
 * bench/cli/cmd_validate.c - "baretma validate": the PMU checklist
 * (bench/study/validate.h), parsed and printed; the run guarded with a journal
 * of every register it writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/study/bundle.h"
#include "bench/study/calibrate.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/study/validate.h"
#include "cpu/machine.h"

struct validate_cmd {
	unsigned cpus[CPU_MAX_CPUS];
	int ncpus;                /* 0: one CPU of each core kind */
	int level;
	bool perf;
	struct cli_output out;
	const char *bundle;       /* --bundle FILE, or NULL */
};

static void validate_usage(FILE *f);

static int set_cpus(const struct cli_opt_call *c)
{
	struct validate_cmd *v = c->opts;

	v->ncpus = cli_parse_cpu_list(c->arg, v->cpus, CPU_MAX_CPUS);
	if (v->ncpus <= 0) {
		cli_err("bad --cpu '%s': a CPU list like 0,2-3%s%s", c->arg,
			v->ncpus == -EDOM ? "; " : "", v->ncpus == -EDOM ? CLI_CPU_HEX_HINT : "");
		return EX_USAGE;
	}
	return 0;
}

#define F(m) offsetof(struct validate_cmd, m)
static const struct cli_opt validate_opts[] = {
	{ CLI_OPT_CPU, .arg = "LIST", .set = set_cpus,
	  .help = "CPUs to check (default: the first CPU of each core kind)" },
	{ CLI_OPT_LEVEL, .set = cli_opt_level, .field = F(level),
	  .help = "check PERF_METRICS up to this level (default: the CPU's)" },
	{ .name = "no-perf", .set = cli_opt_false, .field = F(perf),
	  .help = "leave out the perf_event checks (perf_hands_back, perf_agrees)" },
	{ CLI_OPT_FORCE, .help = "check CPUs whose fixed counter 3 / PERF_METRICS are in use" },
	{ CLI_OPT_WAIT, .help = "wait for another baretma run on the CPUs instead of refusing" },
	{ CLI_OPT_RDPMC_ALWAYS,
	  .help = "set the rdpmc sysfs value to 2 for the run (the RDPMC checks)" },
	{ CLI_OPT_CPUID_DUMP,
	  .help = "the CPUs of a CPUID dump (with BARETMA_MSR=sim:PROFILE or state:FILE)" },
	{ CLI_OPT_VERBOSE, .help = CLI_HELP_VERBOSE },
	{ CLI_OPT_JSON, .help = "one JSON document (schema baretma-validate/1)" },
	{ CLI_OPT_SEP, .help = CLI_HELP_SEP },
	{ CLI_OPT_OUTPUT, .set = cli_opt_output, .help = CLI_HELP_OUTPUT },
	{ CLI_OPT_OPENMETRICS, .help = CLI_HELP_OPENMETRICS },
	{ .name = "bundle", .arg = "FILE", .set = cli_opt_str, .field = F(bundle),
	  .help = "also write the report bundle FILE (schema baretma-bundle/1): the CPUID of "
		  "every CPU, these checks, the environment, the calibration if any and "
		  "baretma's version, in one file to attach to a report; every command that "
		  "takes --cpuid-dump reads it back as that machine" },
	{ .name = NULL },
};
#undef F

static const struct cli_optset validate_optset = {
	.cmd = "validate", .opts = validate_opts, .out = offsetof(struct validate_cmd, out),
	.usage = validate_usage,
};

static void validate_usage(FILE *f)
{
	cli_opts_synopsis(f, &validate_optset);
	fputs(
"Checks that the PMU of each CPU behaves as the SDM, the kernel and baretma's\n"
"model table say; one line per check: PASS, FAIL or SKIP (with the reason), the\n"
"value measured, the value expected and its source.  A check whose premise\n"
"failed is SKIP (\"depends on ...\"): one fault fails one check.\n", f);
	cli_opts_list(f, &validate_optset);
	fputs(
"\n"
"The checks (man baretma-validate, \"The checks\", gives each one's source): cpu_model,\n"
"perf_capabilities_metrics, fixed_ctr3_enumerated, counter_widths; fc3_counts,\n"
"fc3_frozen_holds, fc3_write_zero, slots_per_cycle; metrics_follow_fc3,\n"
"metrics_write_zero, level1_sum, level2_within_parent, overflow_sets_status,\n"
"status_quiet; rdpmc_matches_msr, rdpmc_metrics_clear; metrics_match_events\n"
"(PERF_METRICS's level 1 against the general-purpose topdown events' on one\n"
"region: within both bounds, what perf's formulas add, and 10 points, the\n"
"match on silicon being unconfirmed; counters in use: SKIP, never touched);\n"
"perf_hands_back, perf_agrees; one per known-answer kernel.  Every register\n"
"written is saved in the run's journal first and put back at the end.\n"
"\n"
"What a hypervisor does not enumerate (leaf 0xA version 0, KVM's 3 fixed\n"
"counters) is SKIP with the reason, never FAIL.\n"
"\n"
"exit status: 0 no check failed, 1 a check failed, 64 usage, 65 bad data\n"
"  (also: BARETMA_MSR's state file or profile), 66 a dump or BARETMA_MSR's\n"
"  file not found, 69 no PMU to check here: no check could touch the PMU (the\n"
"  reason is said, after the identity checks, whatever they found), 73 the\n"
"  bundle, -o or --openmetrics FILE cannot be created (refused before\n"
"  anything runs), 74 one cannot be written (a full disk: ENOSPC), 75 busy,\n"
"  77 no permission\n", f);
}

static int validate_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct validate_cmd *v = opts;
	int rc;

	v->perf = true;
	rc = cli_opts_parse(&validate_optset, NULL, argc, argv, v, ctx);
	if (!rc)
		rc = cli_output_check("validate", &v->out, &output_view_validate);
	if (!rc && v->bundle && ((v->out.file && !strcmp(v->bundle, v->out.file)) ||
				 (v->out.openmetrics && !strcmp(v->bundle, v->out.openmetrics))))
		rc = cli_usage_err("validate", "--bundle and %s name the same file '%s': give two",
				   v->out.file && !strcmp(v->bundle, v->out.file) ? "-o" :
				   "--openmetrics", v->bundle);
	/* refused before anything is measured, as -o of every command */
	return !rc && v->bundle ? cli_output_file_check("validate", v->bundle) : rc;
}

/* Default CPUs: the first of each core kind; given ones checked. */
static int pick_cpus(struct validate_cmd *v, const struct cpu_machine *m,
		     const struct cpu_info *ci)
{
	for (int i = 0; i < v->ncpus; i++)
		if (cpu_machine_check_cpu(m, v->cpus[i])) {
			char subject[48];

			snprintf(subject, sizeof(subject), "cannot validate cpu %u", v->cpus[i]);
			return cli_bad_cpu(subject, m, -ENXIO, false);
		}
	if (v->ncpus)
		return 0;
	for (unsigned k = 0; k < ci->nkinds; k++)
		if (ci->kinds[k].ncpus)
			v->cpus[v->ncpus++] = ci->kinds[k].cpus[0];
	return 0;
}

/* The report bundle (bench/study/bundle.h) of this run, written to @path.
 * Returns 0 or an exit status (the message said). */
static int write_bundle(const char *path, struct cli_ctx *ctx, const struct cpu_info *ci,
			const struct validate_report *rep, const struct bench_avail *a,
			unsigned cpu)
{
	struct bundle_parts p = { .machine = ctx->machine, .command = cli_cmdline() };
	struct bench_calib_use cal;
	struct cpu_env env;
	unsigned bad = 0;
	json_t *doc;
	int err;

	cpu_machine_env_read(ctx->machine, (int)cpu, &env);
	p.info = cpu_info_to_json(ci);
	p.environment = env_to_json(&env, cpu_machine_host(ctx->machine), a);
	p.validate = validate_to_json(rep);
	p.calibration = calib_document(ci, &cal);
	if (cal.refused) /* not read: the bundle goes without it */
		cli_warn("calibration '%s' left out of the bundle: %s", cal.path, cal.reason);
	doc = bundle_build(&p, &err, &bad);
	json_decref(p.info);
	json_decref(p.environment);
	json_decref(p.validate);
	json_decref(p.calibration);
	if (!doc && err != -ENOMEM) {
		cli_err("cannot write the bundle '%s': cannot read CPUID of cpu %u: %s", path, bad,
			strerror(-err));
		return EX_UNAVAILABLE;
	}
	if (!doc) {
		cli_err("validate: cannot build the bundle (out of memory)");
		return EX_SOFTWARE;
	}
	err = cli_output_json_file("validate", path, doc);
	json_decref(doc);
	if (!err)
		cli_note("report bundle written to '%s': attach it to the report (baretma info "
			 "--cpuid-dump '%s' reads it back as this machine)", path, path);
	return err;
}

static int validate_run_cmd(void *opts, struct cli_ctx *ctx)
{
	struct validate_cmd *v = opts;
	/* the backend after the machine: the simulated PMU's is --cpuid-dump's */
	int st = cli_ctx_msr(ctx), rc;
	struct cpu_info *ci = st ? NULL : calloc(1, sizeof(*ci));
	struct validate_options o = { .level = v->level, .perf = v->perf,
				      .machine = ctx->machine, .dev = ctx->dev };
	struct validate_report rep = { 0 };
	struct bench_avail a = { 0 };

	if (!st && !ci)
		st = EX_OSERR;
	if (!st && (rc = bench_identify(ctx->machine, ctx->dev, v->ncpus ? (int)v->cpus[0] : -1,
					ci)))
		st = cli_identify_failed(ctx->machine, rc);
	if (!st)
		st = pick_cpus(v, ctx->machine, ci);
	if (st)
		goto out;
	o.cpus = v->cpus;
	o.ncpus = (unsigned)v->ncpus;
	bench_topdown_check(ctx->machine, ci, v->cpus[0], ctx->dev, &a);
	o.identity_only = a.why != TD_OK && a.why != TD_RDPMC_FAULT && a.why != TD_NO_PERF_METRICS;
	o.no_msr = bench_avail_reason(&a);
	o.live_rdpmc = !cpu_machine_is_dump(ctx->machine) && ctx->dev &&
		       !strcmp(msr_backend_name(ctx->dev), "device");
	/* perf_event's checks let the kernel write the counters: saved first */
	ctx->run.save_counters = true;
	if (!o.identity_only)
		st = cli_run_start(&ctx->run, ctx->dev, ci, v->cpus, v->ncpus, true,
				   JOURNAL_MSR_WRITE, false);
	o.j = ctx->run.j;
	if (!st && (rc = validate_run(&o, ci, &rep)) && !(st = cli_journal_space(ctx->dev, rc))) {
		cli_err("validate stopped: %s", strerror(-rc));
		st = cli_exit_for_errno(rc);
	}
	rep.ci = ci;
	rep.backend = ctx->dev ? msr_backend_name(ctx->dev) : NULL;
	if (!st)
		st = cli_output("validate", &v->out, &output_view_validate, &rep, NULL);
	if (!st && v->bundle)
		st = write_bundle(v->bundle, ctx, ci, &rep, &a, v->cpus[0]);
	/* No check could touch the PMU: the run verified nothing of it, and
	 * says so (69) whatever the identity checks found. */
	if (!st && o.identity_only) {
		cli_err("cannot validate the PMU of cpu %u: %s", v->cpus[0], bench_avail_reason(&a));
		st = EX_UNAVAILABLE;
	}
	if (!st)
		st = rep.fail ? 1 : 0;
out:
	validate_report_free(&rep);
	bench_avail_release(&a);
	free(ci);
	return st;
}

const struct cli_cmd_ops cmd_validate = {
	.parse = validate_parse, .run = validate_run_cmd, .usage = validate_usage,
	.opts_size = sizeof(struct validate_cmd), .optset = &validate_optset,
};
