/*
 * bench/cli/cmd_compare.c - "baretma compare": the raw path against perf_event
 * (bench/study/compare.h), parsed and printed; the run guarded as bench's is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/cli/cli_plot.h"
#include "bench/output/plot.h"
#include "bench/study/compare.h"

struct compare_cmd {
	struct compare_options o;
	struct cli_output out;
	const char *plot;   /* --plot FILE, or NULL */
};

static void compare_usage(FILE *f);

static int set_perf(const struct cli_opt_call *c)
{
	struct compare_options *o = &((struct compare_cmd *)c->opts)->o;

	if (bench_backend_parse(c->arg, &o->perf_backend) ||
	    !bench_backend_perf_event(o->perf_backend)) {
		cli_err("bad --perf '%s': expected perf or perf-rdpmc", c->arg);
		return EX_USAGE;
	}
	return 0;
}

#define F(m) offsetof(struct compare_cmd, m)
static const struct cli_opt compare_opts[] = {
	{ CLI_OPT_KERNEL, .field = F(o.kernels),
	  .help = "comma-separated kernels (default: all; see baretma bench --help)" },
	{ CLI_OPT_CPU, .arg = "N", .set = cli_opt_cpu_one, .field = F(o.cpu),
	  .help = "OS CPU (default: chosen as bench does)" },
	{ .name = "pairs", .arg = "N", .set = cli_opt_count, .field = F(o.pairs),
	  .lo = COMPARE_MIN_PAIRS, .hi = 1000, .nums = { COMPARE_MIN_PAIRS, COMPARE_DEFAULT_PAIRS },
	  .help = "blocks per side, %u to 1000 (default %u; at least enough for one "
		  "DISAGREE to be possible among the kernels x metrics compared: 12 for "
		  "every kernel at level 2)" },
	{ CLI_OPT_REPS, .field = F(o.reps), .lo = 1, .hi = BENCH_MAX_REPS,
	  .nums = { COMPARE_DEFAULT_REPS },
	  .help = "repetitions per kernel per block (default %u)" },
	{ CLI_OPT_LEVEL, .set = cli_opt_level, .field = F(o.level),
	  .help = "Top-down level (default: the highest both sides read)" },
	{ .name = "perf", .arg = "perf|perf-rdpmc", .set = set_perf,
	  .help = "the perf side: perf (read(2) of the group, default) or perf-rdpmc (its "
		  "user pages and RDPMC); the other is timed once" },
	{ CLI_OPT_USER_ONLY, .field = F(o.user_only),
	  .help = "count at CPL > 0 only, on both sides (exclude_kernel for perf)" },
	{ CLI_OPT_FORCE, .help = "take over fixed counter 3 / PERF_METRICS found in use" },
	{ CLI_OPT_WAIT, .help = "wait for another baretma run on the CPU instead of refusing" },
	{ CLI_OPT_CPUID_DUMP,
	  .help = "the CPUs of a CPUID dump (a dry run needs BARETMA_MSR=state:FILE or "
		  "sim:PROFILE and BARETMA_PERF=sim:PROFILE)" },
	{ CLI_OPT_VERBOSE,
	  .help = CLI_HELP_VERBOSE "; and what the kernel wrote while perf_event owned the "
		  "counters, which baretma put back (JSON: perf_changed)" },
	{ CLI_OPT_JSON, .help = "one JSON document (schema baretma-compare/2)" },
	{ CLI_OPT_SEP, .help = CLI_HELP_SEP },
	{ CLI_OPT_OUTPUT, .set = cli_opt_output, .help = CLI_HELP_OUTPUT },
	{ CLI_OPT_PLOT, .field = F(plot),
	  .help = "also draw the result into FILE: SVG, PNG or PDF by its extension (both "
		  "sides' bars per metric, with the verdicts; needs cairo: doc/plots.md)" },
	{ .name = NULL },
};
#undef F

static const struct cli_optset compare_optset = {
	.cmd = "compare", .opts = compare_opts, .out = offsetof(struct compare_cmd, out),
	.usage = compare_usage,
};

static void compare_usage(FILE *f)
{
	cli_opts_synopsis(f, &compare_optset);
	fputs(
"Measures each kernel with the raw path (rdpmc, else msr) and with perf_event\n"
"(the kernel's slots + topdown-* group) on the same CPU, in alternating blocks,\n"
"never both at once (each raw block checks that nobody holds fixed counter 3\n"
"and PERF_METRICS, programs them and puts them back), and compares.\n", f);
	cli_opts_list(f, &compare_optset);
	fputs(
"\n"
"Per kernel and tma_* metric: each side's median of its block medians, the\n"
"difference raw - perf (median of the paired differences) with its 95%\n"
"sign-test interval, the allowance (both sides' bounds added: PERF_METRICS's\n"
"8-bit quantisation, and perf's counts' - the same fields floored at each read;\n"
"the pairs carry the noise), the sign test's p of |median difference| <=\n"
"allowance, Holm-adjusted over every metric and kernel compared, and the verdict:\n"
"DISAGREE when that p is at most 0.05 (the whole run's chance of a false\n"
"DISAGREE at most 5%), else agree.  Also the cost of one reading on each path\n"
"(the empty bracket, TSC ticks).\n"
"\n"
"exit status: 0 every metric agrees, 1 some metric DISAGREEs (as cmp), 64 usage,\n"
"  65 bad data (also: BARETMA_MSR's state file or profile), 66 a dump or\n"
"  BARETMA_MSR's file not found, 69 a side cannot measure here (the reason is\n"
"  said) or a metric could not be compared (or --plot: built without cairo),\n"
"  73 -o FILE or the --plot file cannot be created, 74 one cannot be\n"
"  written (a full disk: ENOSPC), 75 busy (another run; counters\n"
"  in use), 77 no permission\n", f);
}

static int compare_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct compare_cmd *cc = opts;
	int rc;

	cc->o = (struct compare_options){ .cpu = -1, .pairs = COMPARE_DEFAULT_PAIRS,
					  .reps = COMPARE_DEFAULT_REPS,
					  .perf_backend = BENCH_BACKEND_PERF };
	cc->plot = NULL;
	rc = cli_opts_parse(&compare_optset, NULL, argc, argv, cc, ctx);
	cc->o.force = ctx->run.force;
	for (const char *t = cc->o.kernels; !rc && t && *t; ) {
		char name[64];
		size_t n = strcspn(t, ",");

		snprintf(name, sizeof(name), "%.*s", (int)(n < 63 ? n : 63), t);
		if (!n || !bench_kernel_find(name)) {
			cli_err("unknown kernel '%s' in --kernel (try: baretma bench --help for "
				"the list)", name);
			rc = EX_USAGE;
		}
		t += n + (t[n] == ',');
	}
	if (!rc)
		rc = cli_plot_check("compare", cc->plot); /* before anything runs */
	return rc ? rc : cli_output_check("compare", &cc->out, &output_view_compare);
}

/* Inside the guard: perf's side (its probe), then the blocks. */
static int measure(struct compare_cmd *cc, struct compare_result *res)
{
	int rc = compare_decide_perf(&cc->o, res);

	if (rc) {
		cli_err("cannot compare: %s", res->reason ? res->reason : strerror(-rc));
		return rc == -ENODEV ? EX_UNAVAILABLE : rc == -EINVAL ? EX_USAGE
							: cli_exit_for_errno(rc);
	}
	if ((rc = compare_measure(&cc->o, res))) {
		int st = cli_journal_space(cc->o.dev, rc);

		if (st)
			return st;
		cli_err("compare: %s", res->reason ? res->reason : strerror(-rc));
		return rc == -EBUSY ? EX_TEMPFAIL : cli_exit_for_errno(rc);
	}
	return 0;
}

/* The raw blocks write MSRs, and perf_event's make the kernel write them:
 * the whole comparison runs inside one guard (locks, journal with the
 * counters saved first, settings), through a session of the raw path. */
static int run_guarded(struct compare_cmd *cc, struct cli_ctx *ctx, struct compare_result *res)
{
	struct bench_options bo = { .cpu = (int)res->cpu_used, .backend = res->raw_backend,
				    .reps = 1, .level = res->level, .force = cc->o.force,
				    .user_only = cc->o.user_only, .machine = cc->o.machine };
	struct bench_session *s = NULL;
	struct bench_result r;
	int st, rc = bench_open(&bo, &r, &s);

	if (rc) {
		cli_err("compare on cpu %u: %s", res->cpu_used,
			r.avail.reason ? r.avail.reason : strerror(-rc));
		st = cli_exit_for_errno(rc);
	} else if (!(st = cli_refuse_dump_device("compare", cc->o.machine, bench_session_dev(s)))) {
		ctx->run.save_counters = true;
		st = cli_run_start(&ctx->run, bench_session_dev(s), &r.cpu, &res->cpu_used, 1, true,
				   JOURNAL_RUN, cc->o.user_only);
		cc->o.dev = bench_session_dev(s);
		cc->o.journal = ctx->run.j;
		if (!st)
			st = measure(cc, res);
		st = cli_run_finish(&ctx->run, st, false);
	}
	bench_close(s);
	bench_result_free(&r);
	return st;
}

static int compare_run_cmd(void *opts, struct cli_ctx *ctx)
{
	struct compare_cmd *cc = opts;
	struct compare_result res;
	char note[1024]; /* fixed: bench_perf_changed_text of at most
			  * BENCH_PERF_CHANGED_MAX (8) registers, 71 + 8 * 106 + 98 bytes
			  * with 63-byte labels and 16-digit values: 1017, NUL included */
	int rc, st;

	cc->o.machine = ctx->machine;
	rc = compare_prepare(&cc->o, &res);
	if (rc) {
		cli_err("cannot compare: %s", res.reason ? res.reason : strerror(-rc));
		st = rc == -ENODEV ? EX_UNAVAILABLE : rc == -EINVAL ? EX_USAGE
							    : cli_exit_for_errno(rc);
	} else if (!(st = run_guarded(cc, ctx, &res))) {
		if (res.nperf_changed) /* every run with a perf side: JSON's perf_changed */
			cli_detail(ctx->run.verbose, "%s",
				   compare_perf_changed_text(&res, note, sizeof(note)));
		st = cli_output("compare", &cc->out, &output_view_compare, &res, NULL);
		if (!st && res.na && !res.disagree)
			cli_err("%u metric%s could not be compared: fewer than %u pairs of blocks "
				"with numbers (see raw_invalid / perf_invalid)", res.na,
				res.na == 1 ? "" : "s", COMPARE_MIN_PAIRS);
		if (!st)
			st = res.disagree ? 1 : res.na ? EX_UNAVAILABLE : 0;
		if (cc->plot) { /* a picture not written is never a success */
			int pst = cli_plot_done("compare", cc->plot,
						plot_compare_write(cc->plot, &res, cli_plot_run(), NULL));

			st = pst ? pst : st;
		}
	}
	compare_result_free(&res);
	return st;
}

const struct cli_cmd_ops cmd_compare = {
	.parse = compare_parse, .run = compare_run_cmd, .usage = compare_usage,
	.opts_size = sizeof(struct compare_cmd), .optset = &compare_optset,
};
