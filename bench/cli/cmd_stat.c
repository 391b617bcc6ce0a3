/*
 * bench/cli/cmd_stat.c - "baretma stat": Top-down of CPUs while a command
 * runs, or over intervals (bench/stat.h), parsed and printed; one guarded
 * run over every CPU counted.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/cli/cli_plot.h"
#include "bench/output/output.h"
#include "bench/output/plot.h"
#include "bench/run.h"
#include "bench/stat.h"
#include "cpu/machine.h"

#define STAT_MIN_INTERVAL_MS 10u
#define STAT_MAX_INTERVAL_MS 86400000u

struct stat_cmd {
	unsigned cpus[CPU_MAX_CPUS];
	int ncpus;               /* -C LIST; 0: default */
	bool all;                /* -a */
	unsigned interval_ms, count;
	bool per_cpu, user_only, rdpmc;
	int level;
	char *const *argv;       /* the command after the options, or NULL */
	struct cli_output out;
	const char *plot;        /* --plot FILE (with -I: the timeline), or NULL */
	/* while -I counts: where the intervals go (stdout, or -o's file, put in
	 * place at the end), the timeline, the first failure to write */
	struct output_stream ist;
	FILE *f;
	struct output_file *of;
	struct plot_timeline series;
	const struct cpu_info *ci;     /* the timeline's title: the machine and */
	const unsigned *cpus_counted;  /* the CPUs counted (plot_stat_title) */
	unsigned ncounted;
	int plot_err, om_status;
};

static void stat_usage(FILE *f);

static int set_cpus(const struct cli_opt_call *c)
{
	struct stat_cmd *sc = c->opts;

	sc->ncpus = cli_parse_cpu_list(c->arg, sc->cpus, CPU_MAX_CPUS);
	if (sc->ncpus <= 0)
		return cli_usage_err("stat", "bad -C '%s': a CPU list like 0,2-3%s%s", c->arg,
				     sc->ncpus == -EDOM ? "; " : "",
				     sc->ncpus == -EDOM ? CLI_CPU_HEX_HINT : "");
	return 0;
}

static int set_backend(const struct cli_opt_call *c)
{
	struct stat_cmd *sc = c->opts;
	enum bench_backend_id id;
	bool known = !bench_backend_parse(c->arg, &id);

	/* a raw source: msr, or rdpmc (by RDPMC, the CPU it runs on only) */
	if (known && bench_backend_raw(id)) {
		sc->rdpmc = bench_backend_rdpmc(id);
		return 0;
	}
	if (known && bench_backend_perf_event(id))
		return cli_usage_err("stat", "--backend %s is refused: stat programs the "
				     "counters itself through MSRs (use msr, or perf stat "
				     "--topdown)", c->arg);
	return cli_usage_err("stat", "bad --backend '%s': expected msr", c->arg);
}

#define F(m) offsetof(struct stat_cmd, m)
static const struct cli_opt stat_opts[] = {
	{ CLI_OPT_CPU, .arg = "LIST", .set = set_cpus, .flags = CLI_SYN_SHORT,
	  .help = "CPUs to count (default: every CPU with a Top-down recipe; on hybrid "
		  "parts each core kind with its own recipe)" },
	{ .name = "all-cpus", .letter = 'a', .set = cli_opt_true, .field = F(all),
	  .flags = CLI_SYN_SHORT | CLI_SYN_ALT,
	  .help = "the default CPUs, explicitly (needed without COMMAND)" },
	{ .name = "interval", .letter = 'I', .arg = "MS", .set = cli_opt_count,
	  .field = F(interval_ms), .lo = STAT_MIN_INTERVAL_MS, .hi = STAT_MAX_INTERVAL_MS,
	  .flags = CLI_SYN_SHORT, .nums = { STAT_MIN_INTERVAL_MS, STAT_MAX_INTERVAL_MS },
	  .help = "count in intervals of MS milliseconds (%u to %u), each core kind's "
		  "CPUs summed: a row per node at each interval's end, as perf stat -I, the "
		  "time column the seconds since the start; deadlines are absolute (no "
		  "drift)" },
	{ .name = "count", .arg = "N", .set = cli_opt_count, .field = F(count), .lo = 1,
	  .hi = 1000000000u, .flags = CLI_SYN_IN, .help = "stop after N intervals (needs -I)" },
	{ .name = "per-cpu", .set = cli_opt_true, .field = F(per_cpu),
	  .help = "each CPU apart instead of each core kind's summed" },
	{ CLI_OPT_LEVEL, .set = cli_opt_level, .field = F(level),
	  .help = "Top-down level (default: the highest a kind's recipe counts in one pass; "
		  "a level in passes counts them in turn, each in its part of every "
		  "interval)" },
	{ CLI_OPT_USER_ONLY, .field = F(user_only),
	  .help = "count user mode only (CPL > 0: the OS bits clear)" },
	{ CLI_OPT_BACKEND, .arg = "msr|rdpmc", .set = set_backend,
	  .help = "how the counters are read: msr (default: pread of each CPU's registers), "
		  "or rdpmc with one CPU (-C N: baretma then runs on it, RDPMC reading the "
		  "CPU that executes it); perf is refused (perf stat --topdown is that)" },
	{ CLI_OPT_FORCE, .help = "take over counters found in use" },
	{ CLI_OPT_WAIT, .help = "wait for another baretma run on the CPUs instead of refusing" },
	{ CLI_OPT_CPUID_DUMP,
	  .help = "the CPUs of a CPUID dump (with BARETMA_MSR=sim:PROFILE or state:FILE: a "
		  "dry run; the command is then not pinned)" },
	{ CLI_OPT_VERBOSE,
	  .help = CLI_HELP_VERBOSE "; and that a dry run's COMMAND was not pinned (the "
		  "CPUs counted are the dump's)" },
	{ CLI_OPT_JSON,
	  .help = "one JSON document (schema baretma-stat/1); with -I one JSON object per "
		  "line (JSON Lines), the last one the end" },
	{ CLI_OPT_CSV, .help = "-x , : one line per node and quantity (doc/csv.md)" },
	{ CLI_OPT_SEP, .help = CLI_HELP_SEP },
	{ CLI_OPT_OUTPUT, .set = cli_opt_output, .help = CLI_HELP_OUTPUT },
	{ CLI_OPT_OPENMETRICS,
	  .help = "also write the metrics to FILE in OpenMetrics 1.0 (node_exporter's "
		  "textfile collector reads it), with -I rewritten at each "
		  "interval's end with that interval's numbers (whole or not at all; "
		  "doc/openmetrics.md)" },
	{ CLI_OPT_PLOT, .field = F(plot),
	  .help = "with -I: the level-1 shares of all the CPUs counted over time (stacked "
		  "areas) into FILE: SVG, PNG or PDF by its extension (needs cairo; "
		  "doc/plots.md)" },
	{ .name = NULL },
};
#undef F

static const struct cli_form stat_forms[] = { { .post = "[-- COMMAND [ARGS...]]" } };

/* "in order": the options end at the command's name, whose own options are its */
static const struct cli_optset stat_optset = {
	.cmd = "stat", .opts = stat_opts, .forms = stat_forms, .nforms = 1,
	.out = offsetof(struct stat_cmd, out), .in_order = true, .operands = true,
	.usage = stat_usage,
};

static void stat_usage(FILE *f)
{
	cli_opts_synopsis(f, &stat_optset);
	fputs(
"Top-down (perf's tma_* metrics) of a set of CPUs, as perf stat --topdown:\n"
"while COMMAND runs (pinned to those CPUs), or until SIGINT, or for N intervals.\n"
"Each CPU is programmed inside one guarded run (locks, ownership checks, the\n"
"journal) and put back byte for byte at the end: fixed counter 3 and\n"
"PERF_METRICS where the core kind has them, else its event recipe.\n"
"MSR counting is per CPU, not per task: everything that runs on those CPUs is\n"
"counted, not only COMMAND.\n", f);
	cli_opts_list(f, &stat_optset);
	fprintf(f,
"\n"
"Each node as a percentage of the slots with its bound (PERF_METRICS's 8-bit\n"
"quantisation; an event recipe's counts are exact) and its absolute slots.\n"
"The counters are read and reset at each interval's end (every %u ms without\n"
"-I), so that PERF_METRICS keeps its precision.  SIGINT, SIGTERM and SIGHUP\n"
"end the count, or are forwarded to COMMAND, from the first instruction (one\n"
"during the set-up ends the count once it has begun, or kills COMMAND before\n"
"it runs; during --wait it ends the wait: 75); the registers are put back.\n"
"\n"
"exit status: COMMAND's (128+N when it died of signal N; 127 not found, 126\n"
"  not executable), else 0; 64 usage, 65 bad data, 66 a dump or BARETMA_MSR's\n"
"  file not found, 69 no Top-down on a CPU asked for (or --plot: built without\n"
"  cairo), 73 -o, --openmetrics or --plot FILE cannot be created, 74 nor\n"
"  written, 75 busy (another run; counters in use; a signal ended --wait),\n"
"  77 no permission\n", STAT_TICK_MS);
}

static int stat_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct stat_cmd *sc = opts;
	int rc = cli_opts_parse(&stat_optset, NULL, argc, argv, sc, ctx);

	if (rc)
		return rc;
	if (optind < argc)
		sc->argv = argv + optind;
	if (sc->all && sc->ncpus)
		return cli_refuse_together("stat", "-a", "-C");
	if (sc->rdpmc && sc->ncpus != 1)
		return cli_usage_err("stat", "--backend rdpmc reads the counters of the CPU baretma "
				     "runs on: give -C with one CPU (or use --backend msr)");
	if (sc->count && !sc->interval_ms)
		return cli_usage_err("stat", "--count N counts intervals: give -I MS too");
	if (!sc->argv && !sc->all && !sc->ncpus)
		return cli_usage_err("stat", "nothing to count: give a COMMAND (after --), -a or "
				     "-C LIST");
	if (sc->plot && !sc->interval_ms)
		return cli_usage_err("stat", "--plot draws the intervals over time: give -I MS too");
	if ((rc = cli_output_check("stat", &sc->out, &output_view_stat)))
		return rc;
	return cli_plot_check("stat", sc->plot); /* before anything runs */
}

/* Each interval's samples, as they come. */
static void on_interval(void *arg, const struct stat_sample *s, unsigned n, int64_t drift_ns)
{
	struct stat_cmd *sc = arg;
	struct output_params p = { .separator = sc->out.separator };
	struct stat_interval_report ir = { .s = s, .n = n, .drift_ns = drift_ns };

	output_stream_record(&sc->ist, &ir);
	if (sc->out.openmetrics && !sc->om_status) /* the latest interval's, the file whole */
		sc->om_status = cli_output_write_file("stat", sc->out.openmetrics,
						      &output_format_openmetrics,
						      &output_view_stat_interval, &ir, &p);
	if (sc->plot && !sc->plot_err)
		sc->plot_err = plot_stat_add(&sc->series, s, n);
}

/* -I: the intervals' stream, stdout or -o's file (in place at the end). */
static int intervals_open(struct stat_cmd *sc)
{
	struct output_params p = { .separator = sc->out.separator };
	const char *why = NULL;
	int rc;

	sc->f = stdout;
	if (sc->interval_ms && sc->out.file) {
		if ((rc = output_file_open_atomic(sc->out.file, &sc->of, &why)))
			return cli_output_file_fail("stat", sc->out.file, rc, why);
		sc->f = output_file_stream(sc->of);
	}
	/* cli_output_check took only a format that writes the intervals */
	if (sc->interval_ms && output_stream_open(&sc->ist, sc->f, cli_output_format(&sc->out),
						  &output_view_stat_interval, &p)) {
		cli_err("stat: the %s format writes no intervals (a bug)",
			cli_output_format(&sc->out)->name);
		return EX_SOFTWARE;
	}
	return 0;
}

/* -I: the end written (@st: the status so far), -o's file put in place,
 * the timeline drawn; the status to exit with. */
static int intervals_close(struct stat_cmd *sc, int st)
{
	const char *why = NULL;
	int rc;

	if (sc->of) {
		if ((rc = output_file_commit(sc->of, &why)))
			st = cli_output_file_fail("stat", sc->out.file, rc, why);
		sc->of = NULL;
	}
	if (sc->plot && sc->series.npanels) {
		char *title = NULL, *sub = NULL;

		rc = plot_stat_title(&title, &sub, &sc->series, sc->ci, sc->cpus_counted,
				     sc->ncounted);
		sc->series.title = title;
		sc->series.subtitle = sub;
		sc->series.run = cli_plot_run();
		if (!rc)
			rc = plot_timeline_write(sc->plot, &sc->series, NULL);
		sc->series.title = sc->series.subtitle = NULL;
		free(title);
		free(sub);
		if (rc)
			st = cli_plot_done("stat", sc->plot, rc);
	} else if (sc->plot) {
		st = cli_plot_done("stat", sc->plot, -EDOM);
	}
	plot_timeline_free(&sc->series);
	if (sc->plot_err && sc->plot_err != -EDOM)
		st = cli_plot_done("stat", sc->plot, sc->plot_err);
	return st ? st : sc->om_status;
}

/* The exit status of a command that ended with wait status @ws (a shell's). */
static int status_of(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return EX_SOFTWARE;
}

static int open_fail(struct cpu_machine *m, int rc, const char *why)
{
	if (rc == -EINVAL && !why)
		return cli_identify_failed(m, rc);
	cli_err("stat: %s", why ? why : strerror(-rc));
	return rc == -ENXIO || rc == -EINVAL ? EX_USAGE
	     : rc == -EOPNOTSUPP || rc == -ENODEV ? EX_UNAVAILABLE : cli_exit_for_errno(rc);
}

/* "SIGINT" for SIGINT, "SIGTERM", "SIGHUP"; else "signal N". */
static const char *sig_name(int sig)
{
	static char other[24];

	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	}
	snprintf(other, sizeof(other), "signal %d", sig);
	return other;
}

/* --wait was ended by a held signal (left pending): said, nothing counted. */
static void wait_ended(const struct stat_cmd *sc)
{
	int sig = cli_stop_pending();

	cli_note("%s ended the wait (--wait): nothing was counted%s, no register was "
		 "written", sig ? sig_name(sig) : "a signal",
		 sc->argv ? " and the command was not started" : "");
}

/* Inside the guard: program, count; @end, and the status to exit with. */
static int count(struct stat_cmd *sc, struct cli_ctx *ctx, struct stat_run *r,
		 struct stat_end *end)
{
	char *why = NULL;
	int rc = stat_program(r, ctx->run.j, &why), st = 0;

	if (rc) {
		st = cli_journal_space(ctx->dev, rc);
		if (!st) {
			cli_err("stat: %s", why ? why : strerror(-rc));
			st = rc == -EBUSY ? EX_TEMPFAIL : cli_exit_for_errno(rc);
		}
		goto out;
	}
	cli_point("program");
	rc = stat_loop(r, end, &why);
	cli_point("end");
	if (rc == -ENOEXEC) {
		cli_err("stat: %s", why ? why : strerror(-rc));
		st = status_of(end->status);
	} else if (rc) {
		cli_err("stat: %s", why ? why : strerror(-rc));
		st = rc == -EBUSY ? EX_TEMPFAIL : cli_exit_for_errno(rc);
	} else {
		end->counted = true;
	}
out:
	free(why);
	return st;
}

static int stat_run_cmd(void *opts, struct cli_ctx *ctx)
{
	struct stat_cmd *sc = opts;
	struct stat_options o = { .machine = ctx->machine, .cpus = sc->ncpus ? sc->cpus : NULL,
		.ncpus = sc->ncpus, .level = sc->level, .user_only = sc->user_only,
		.force = ctx->run.force, .rdpmc = sc->rdpmc, .per_cpu = sc->per_cpu,
		.interval_ms = sc->interval_ms, .count = sc->count, .argv = sc->argv,
		.on_interval = on_interval, .arg = sc,
		/* held since main's first instruction (CLI_STOP_SIGNALS) */
		.count_mask = cli_stop_mask() };
	struct stat_sample total[CPU_MAX_KINDS];
	struct stat_sample *tot = total;
	struct stat_run *r = NULL;
	struct stat_end end = { 0 };
	const unsigned *cpus;
	char *why = NULL;
	int st = cli_ctx_msr(ctx), rc, n = 0;

	cli_point("setup");
	if (st)
		return st;
	o.dev = ctx->dev;
	if (sc->ncpus && (rc = run_cpus_check(ctx->machine, sc->cpus, sc->ncpus, &n))) {
		char subject[64];

		snprintf(subject, sizeof(subject), "stat: cpu %u", sc->cpus[n]);
		return cli_bad_cpu(subject, ctx->machine, rc, false);
	}
	if ((rc = stat_open(&o, &r, &why))) {
		st = open_fail(ctx->machine, rc, why);
		goto out;
	}
	cli_point("open");
	n = stat_cpus(r, &cpus);
	if ((st = cli_msr_open_cpus(ctx->dev, cpus, n)) ||
	    (st = cli_refuse_dump_device("stat", ctx->machine, ctx->dev)))
		goto out;
	if ((st = intervals_open(sc)))
		goto out;
	sc->ci = stat_info(r);
	sc->cpus_counted = cpus;
	sc->ncounted = (unsigned)n;
	ctx->run.stop = cli_stop_set(); /* --wait: a held signal ends the wait */
	cli_point("lock");
	st = cli_run_start(&ctx->run, ctx->dev, stat_info(r), cpus, n, true, JOURNAL_RUN,
			   sc->user_only);
	if (st && ctx->run.interrupted)
		wait_ended(sc);
	if (!st) {
		cli_point("journal");
		st = count(sc, ctx, r, &end);
	}
	/* the registers back before anything is said of the count */
	st = cli_run_finish(&ctx->run, st, false);
	cli_point("print");
	if (end.counted && end.child && !end.pinned)
		cli_detail(ctx->run.verbose, "the command was not pinned: the CPUs counted are "
			   "the CPUID dump's, not this machine's (a dry run)");
	if (end.counted && end.signal_first)
		cli_note("%s came before the command was started: its process died of it before "
			 "executing the command", sig_name(end.signal));
	if (!st && end.counted) {
		struct stat_report rep = { .end = &end, .cpus = cpus, .ncpus = n,
			.argv = sc->argv, .per_cpu = sc->per_cpu, .interval_ms = sc->interval_ms,
			.exit_status = end.child ? status_of(end.status) : 0 };
		unsigned max = sizeof(total) / sizeof(total[0]);

		if (sc->per_cpu && (tot = calloc((size_t)n, sizeof(*tot))))
			max = (unsigned)n;
		if (!tot) {
			st = EX_OSERR;
			goto out;
		}
		rep.s = tot;
		rep.n = stat_total(r, tot, max);
		if (!sc->interval_ms)
			rc = cli_output("stat", &sc->out, &output_view_stat, &rep, NULL);
		else
			rc = output_stream_end(&sc->ist, &output_view_stat, &rep) ? EX_IOERR : 0;
		if (sc->interval_ms && !output_stream_has_end(cli_output_format(&sc->out)))
			cli_note("%u intervals read; timer drift median %.1f us, max %.1f us",
				 end.intervals, (double)end.drift_median_ns / 1e3,
				 (double)end.drift_max_ns / 1e3);
		if (tot != total)
			free(tot);
		st = rc ? rc : rep.exit_status;
		if (sc->interval_ms)
			st = intervals_close(sc, st);
	}
out:
	if (sc->of) /* counted nothing, or failed: the file as it was */
		output_file_abort(sc->of);
	plot_timeline_free(&sc->series);
	stat_close(r);
	free(why);
	return st;
}

const struct cli_cmd_ops cmd_stat = {
	.parse = stat_parse, .run = stat_run_cmd, .usage = stat_usage,
	.opts_size = sizeof(struct stat_cmd), .optset = &stat_optset,
};
