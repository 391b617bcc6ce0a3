/*
 * bench/cli/cmd_calibrate.c - "baretma calibrate": each backend's bracket cost,
 * noise floor and resolution (bench/study/calibrate.h), parsed, guarded as bench
 * is, saved and printed; the progress the library reports, on stderr.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu/text.h"
#include "bench/output/output.h"
#include "bench/study/calibrate.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"

struct calibrate_cmd {
	struct calib_options o;
	const char *out;         /* -o FILE, NULL: the state directory */
	struct cli_output fmt;   /* --json */
};

static void calibrate_usage(FILE *f);

static int set_backends(const struct cli_opt_call *c)
{
	struct calib_options *o = &((struct calibrate_cmd *)c->opts)->o;
	char bad[256];

	if (calib_parse_backends(c->arg, o->want, bad, sizeof(bad))) {
		cli_err("bad --backend '%s': expected all or a comma-separated list of "
			"rdpmc, msr, perf, perf-rdpmc, tsc", bad);
		return EX_USAGE;
	}
	o->explicit_list = strcmp(c->arg, "all") != 0;
	return 0;
}

#define F(m) offsetof(struct calibrate_cmd, m)
static const struct cli_opt calibrate_opts[] = {
	{ CLI_OPT_CPU, .arg = "N", .set = cli_opt_cpu_one, .field = F(o.cpu),
	  .help = "OS CPU (default: chosen as bench does)" },
	{ CLI_OPT_BACKEND, .arg = "LIST", .set = set_backends,
	  .help = "all (default) or a comma-separated list of rdpmc, msr, perf, perf-rdpmc, "
		  "tsc; one that cannot measure here is skipped with its reason" },
	{ CLI_OPT_REPS, .field = F(o.reps), .lo = CALIB_MIN_VALID, .hi = 100000,
	  .nums = { CALIB_DEFAULT_REPS },
	  .help = "repetitions per loop length and of the bracket (default %u)" },
	{ CLI_OPT_OUTPUT, .set = cli_opt_str, .field = F(out),
	  .help = "write FILE instead (a regular file or a new one: never through a "
		  "symbolic link, never over a FIFO or a device)" },
	{ CLI_OPT_WAIT, .help = "wait for another baretma run on the CPU instead of refusing" },
	{ CLI_OPT_FORCE, .help = "take over fixed counter 3 / PERF_METRICS found in use" },
	{ CLI_OPT_CPUID_DUMP,
	  .help = "the CPUs of a CPUID dump (a dry run: BARETMA_MSR=sim:PROFILE)" },
	{ CLI_OPT_VERBOSE, .help = CLI_HELP_VERBOSE },
	{ CLI_OPT_JSON, .help = "print the document instead of the summary" },
	{ CLI_OPT_SEP, .help = CLI_HELP_SEP },
	{ CLI_OPT_OPENMETRICS, .help = CLI_HELP_OPENMETRICS },
	{ .name = NULL },
};
#undef F

static const struct cli_optset calibrate_optset = {
	.cmd = "calibrate", .opts = calibrate_opts, .out = offsetof(struct calibrate_cmd, fmt),
	.usage = calibrate_usage,
};

static void calibrate_usage(FILE *f)
{
	cli_opts_synopsis(f, &calibrate_optset);
	fprintf(f,
"Measures, for each backend that can measure here, the empty bracket's cost\n"
"(TSC ticks; slots and slots per PERF_METRICS field), and the errors of each\n"
"level-1 tma_* metric over a calibrated loop of 1k, 10k, 100k and 1M dependent\n"
"register ADDs (1 cycle each), in points of the region's slots: its 95%%\n"
"spread (half the distance between the 2.5th and 97.5th percentiles of the\n"
"per-repetition values), the readings' 8-bit quantisation bound and the\n"
"subtracted bracket's error.  The resolution is the shortest length from which\n"
"on every level-1 spread + quantisation + bracket error is within %.0f\n"
"percentage point: regions shorter are below this machine's resolution.\n"
"The result (schema %s) is written to the state directory as\n"
"calibration-VENDOR-FAMILY-0xMODEL-STEPPING.json (0600, atomically); bench then\n"
"subtracts its bracket cost and marks kernels below the resolution, while the\n"
"CPU, microcode, kernel, governor, turbo and SMT match and it is at most %d days old.\n",
		CALIB_RESOLUTION_PP, CALIB_SCHEMA, CALIB_MAX_AGE_DAYS);
	cli_opts_list(f, &calibrate_optset);
	fputs(
"\n"
"exit status: 0 every backend named in --backend measured (default list: at\n"
"  least one Top-down backend measured), 64 usage, 65 bad data (also:\n"
"  BARETMA_MSR's state file or profile), 66 a dump or BARETMA_MSR's file not\n"
"  found, 69 a backend named (or, by default, every Top-down backend) cannot\n"
"  measure here: the reasons are said, after what could be measured is\n"
"  reported and written, 73 the file or state directory cannot be created\n"
"  (also: FILE or --openmetrics's is a symbolic link, or not a regular file,\n"
"  or under sudo not one you could have written, refused before measuring;\n"
"  the state directory full), 74 FILE cannot be written (a full disk:\n"
"  ENOSPC), 75 busy, 77 no permission (also: a\n"
"  BARETMA_MSR other than the device's under sudo)\n", f);
}

static int calibrate_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct calibrate_cmd *cc = opts;
	int rc;

	cc->o = (struct calib_options){ .cpu = -1, .reps = CALIB_DEFAULT_REPS };
	calib_parse_backends("all", cc->o.want, NULL, 0);
	rc = cli_opts_parse(&calibrate_optset, NULL, argc, argv, cc, ctx);
	ctx->msr_unused = true; /* unless a backend asked for programs through it */
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++)
		if (cc->o.want[i] && bench_backend_uses_msr(calib_backend_at(i)))
			ctx->msr_unused = false;
	if (!rc)
		rc = cli_output_check("calibrate", &cc->fmt, &output_view_calibrate);
	/* refused before anything is measured, as -o of every command */
	return !rc && cc->out ? cli_output_file_check("calibrate", cc->out) : rc;
}

/* ------------------------------------------------------------ progress */

struct progress {
	struct timespec start;
	double last;             /* seconds at the last line (not a terminal) */
	bool tty, drawn;
};

static double elapsed(const struct progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - p->start.tv_sec) + (now.tv_nsec - p->start.tv_nsec) * 1e-9;
}

/* After two seconds: a bar on a terminal, else a line every five seconds. */
static void on_progress(void *arg, const char *backend, const char *kernel, unsigned step,
			unsigned total)
{
	struct progress *p = arg;
	double t = elapsed(p);
	unsigned w = 30, fill = total ? step * w / total : w;

	if (t < 2)
		return;
	if (p->tty) {
		fprintf(stderr, "\rbaretma: calibrate [%.*s%*s] %u/%u %s %-10s", (int)fill,
			"##############################", (int)(w - fill), "", step, total, backend,
			kernel);
		p->drawn = true;
	} else if (t - p->last >= 5 || step == total) {
		fprintf(stderr, "baretma: calibrate: %u of %u steps (%s %s), %.0f s\n", step,
			total, backend, kernel, t);
		p->last = t;
	}
}

static void progress_end(struct progress *p)
{
	if (p->drawn)
		fputc('\n', stderr);
}

/* ------------------------------------------------------------------ run */

/* A backend refused for the command line's sake (--cpu): usage, as bench. */
static int refused_cpu(const struct calibration *c, int cpu)
{
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++)
		if (c->b[i].asked && (c->b[i].err == -ENXIO || c->b[i].err == -EOPNOTSUPP)) {
			cli_err("calibrate: cannot measure on cpu %d: %s", cpu,
				text_or_empty(c->b[i].reason));
			return EX_USAGE;
		}
	return 0;
}

/* The exit status of what could and could not measure (README). */
static int verdict(const struct calibrate_cmd *cc, const struct calibration *c)
{
	bool td_asked = false, td_ok = false, named_failed = false, busy = false, any = false;
	/* the text report on stdout says each backend's reason: said once,
	 * stderr names them (JSON: stderr says the reasons for a reader) */
	bool text = !cc->fmt.fmt || cc->fmt.fmt->for_people;
	char names[128] = "";
	unsigned nfail = 0, cpu = 0;

	for (unsigned i = 0; i < CALIB_NBACKENDS; i++) {
		const struct calib_backend *b = &c->b[i];
		bool td = !bench_backend_timing_only(b->id);

		if (!b->asked)
			continue;
		any |= b->measured;
		td_asked |= td;
		td_ok |= td && b->measured;
		named_failed |= cc->o.explicit_list && !b->measured;
		busy |= b->err == -EBUSY;
		if (!b->measured && text) {
			size_t len = strlen(names);

			snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "",
				 bench_backend_name(b->id));
			nfail++;
			cpu = b->cpu;
		} else if (!b->measured) {
			cli_err("calibrate: backend %s cannot measure on cpu %u: %s",
				bench_backend_name(b->id), b->cpu,
				text_or_empty(b->reason));
		}
	}
	if (nfail)
		cli_err("calibrate: backend%s %s cannot measure on cpu %u (why: the report on stdout, "
			"'NAME: cannot measure: ...')", nfail > 1 ? "s" : "", names, cpu);
	if (busy)
		return EX_TEMPFAIL;
	return !any || named_failed || (td_asked && !td_ok) ? EX_UNAVAILABLE : 0;
}

static int save(const struct calibrate_cmd *cc, const json_t *doc, const struct calibration *c,
		char *path, size_t n)
{
	int rc;

	if (cc->out) { /* a file the user names: the rule of every such file */
		snprintf(path, n, "%s", cc->out);
		return cli_output_json_file("calibrate", cc->out, doc);
	}
	if (!(rc = calib_save(doc, &c->cpu, path, n)))
		return 0;
	if (rc == -ELOOP) {
		cli_err("refusing to write '%s': it is a symbolic link (give the path of a "
			"regular file)", path);
		return EX_CANTCREAT;
	}
	if (rc == -EINVAL || rc == -EISDIR) {
		cli_err("refusing to write '%s': %s, not a regular file (writing replaces the "
			"file at that name; give the path of a regular file or of a new one)", path,
			rc == -EISDIR ? "a directory" : "a FIFO, a device or a socket");
		return EX_CANTCREAT;
	}
	return cli_state_dir_fail("write the calibration", rc);
}

/* Does any wanted backend touch the counters (all but tsc, timing only)? */
static bool wants_pmu(const struct calib_options *o)
{
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++)
		if (o->want[i] && !bench_backend_timing_only(calib_backend_at(i)))
			return true;
	return false;
}

/* Probe, refuse a --cpu the backends cannot use, measure. */
static int probe_measure(struct calibrate_cmd *cc, struct calibration *c)
{
	int st;

	calib_probe(&cc->o, c);
	if ((st = refused_cpu(c, cc->o.cpu)))
		return st;
	return calib_measure(&cc->o, c) ? EX_SOFTWARE : 0;
}

/*
 * The whole calibration inside one guard, as bench's run, when a wanted
 * backend touches the counters (rdpmc and msr program them; perf's make
 * the kernel write them) and the MSR backend reaches the CPU: locks,
 * ownership, the journal with the counters saved first, every backend a
 * block put back through it.  The CPU is chosen as bench chooses it
 * (reads only: a tsc session).  Without MSR access there is nothing to
 * journal: the perf backends are then the kernel's alone, which puts its
 * counters back itself when a group closes.
 */
static int measure(struct calibrate_cmd *cc, struct cli_ctx *ctx, struct calibration *c)
{
	struct bench_options bo = { .cpu = cc->o.cpu, .backend = BENCH_BACKEND_TSC, .reps = 1,
				    .machine = cc->o.machine, .calibration = BENCH_CALIB_OFF };
	struct bench_session *s = NULL;
	struct bench_result r = { 0 };
	struct msr_dev *dev;
	unsigned cpu;
	int st;

	if (!wants_pmu(&cc->o) || bench_open(&bo, &r, &s) ||
	    !bench_msr_reaches(cc->o.machine, dev = bench_session_dev(s)) ||
	    msr_open_cpu(dev, r.cpu_used)) {
		bench_close(s);
		bench_result_free(&r); /* its reason (bench_avail_copy) */
		return probe_measure(cc, c);
	}
	cpu = r.cpu_used;
	ctx->run.save_counters = true;
	st = cli_run_start(&ctx->run, dev, &r.cpu, &cpu, 1, true, JOURNAL_RUN, false);
	if (!st) {
		cc->o.dev = dev;
		cc->o.journal = ctx->run.j;
		cc->o.cpu = (int)cpu;
		st = probe_measure(cc, c);
	}
	st = cli_run_finish(&ctx->run, st, false);
	bench_close(s);
	bench_result_free(&r);
	return st;
}

static int calibrate_run_cmd(void *opts, struct cli_ctx *ctx)
{
	struct calibrate_cmd *cc = opts;
	struct calibration *c = calloc(1, sizeof(*c));
	struct progress p = { .tty = isatty(STDERR_FILENO) };
	char path[PATH_MAX + 64] = "";
	json_t *doc = NULL;
	int st;

	if (!c)
		return EX_OSERR;
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	cc->o.machine = ctx->machine;
	cc->o.progress = on_progress;
	cc->o.progress_arg = &p;
	st = measure(cc, ctx, c);
	progress_end(&p);
	if (st)
		goto out;
	if (!(doc = calib_to_json(c))) {
		st = EX_SOFTWARE;
		goto out;
	}
	if (calib_any_measured(c) && (st = save(cc, doc, c, path, sizeof(path))))
		goto out;
	if ((st = cli_output("calibrate", &cc->fmt, &output_view_calibrate,
			     &(struct calib_output){ c, path[0] ? path : NULL, doc }, NULL)))
		goto out;
	fflush(stdout);
	st = verdict(cc, c);
out:
	json_decref(doc);
	calib_release(c);
	free(c);
	return st;
}

const struct cli_cmd_ops cmd_calibrate = {
	.parse = calibrate_parse, .run = calibrate_run_cmd, .usage = calibrate_usage,
	.opts_size = sizeof(struct calibrate_cmd), .optset = &calibrate_optset,
};
