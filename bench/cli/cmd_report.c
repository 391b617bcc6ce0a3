/*
 * bench/cli/cmd_report.c - "baretma report PATH...": one view of a lab's
 * fleet from the files its hosts wrote (bench/study/report.h), parsed and
 * printed: each file skipped said on stderr, the view in the chosen format.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/cli/cli_plot.h"
#include "bench/output/output.h"
#include "bench/output/plot.h"
#include "bench/study/report.h"
#include "cpu/escape.h"

struct report_cmd {
	struct cli_output out;
	const char *plot;     /* --plot FILE, or NULL */
	bool strict;
	double k;
	char **paths;
	int npaths;
};

static void report_usage(FILE *f);

static int set_k(const struct cli_opt_call *c)
{
	struct report_cmd *rc = c->opts;
	char *end;
	double k = strtod(c->arg, &end);

	if (end == c->arg || *end || !(k > 0) || k > 100)
		return cli_usage_err("report", "bad --mad-k '%s': expected a number above 0, at "
				     "most 100", c->arg);
	rc->k = k;
	return 0;
}

#define F(m) offsetof(struct report_cmd, m)
static const struct cli_opt report_opts[] = {
	{ .name = "mad-k", .letter = 'k', .arg = "K", .set = set_k,
	  .help = "the robust limit's k: a host whose figure lies more than K x 1.4826 x MAD "
		  "from its group's median (and more than the figure's floor) is an outlier "
		  "(default 3.5, Iglewicz and Hoaglin's cutoff)" },
	{ .name = "strict", .set = cli_opt_true, .field = F(strict),
	  .help = "refuse every file that cannot be used (exit 65, nothing else printed) "
		  "instead of naming it and reading the others" },
	{ CLI_OPT_VERBOSE,
	  .help = "also name the files left out that are no host's document (not JSON, a "
		  "report's own)" },
	{ CLI_OPT_JSON, .help = "one JSON document (schema baretma-report/1, doc/report.md)" },
	{ CLI_OPT_CSV, .help = "-x , : one line per group, row and host (doc/report.md)" },
	{ CLI_OPT_SEP, .help = "separated values with SEP, as perf stat -x: a header naming "
		  "the columns (the group's CPU and the host first), a field holding SEP or a "
		  "quote in double quotes" },
	{ CLI_OPT_OUTPUT, .set = cli_opt_output, .help = CLI_HELP_OUTPUT },
	{ CLI_OPT_PLOT, .field = F(plot),
	  .help = CLI_HELP_PLOT " (one point per host per figure, its distance from the "
		  "group's median in cuts; outliers marked)" },
	{ .name = NULL },
};
#undef F

static const struct cli_form report_forms[] = { { NULL, NULL, "PATH..." } };

static const struct cli_optset report_optset = {
	.cmd = "report", .opts = report_opts, .forms = report_forms, .nforms = 1,
	.out = offsetof(struct report_cmd, out), .operands = true, .usage = report_usage,
};

static void report_usage(FILE *f)
{
	cli_opts_synopsis(f, &report_optset);
	fputs(
"Reads what many hosts wrote - validate bundles, calibration files, bench,\n"
"compare, stat and validate documents; a directory recursively, regular files\n"
"only, no symbolic link inside it followed - and prints one view of the fleet:\n"
"the hosts by CPU (vendor, family, model, stepping), every setting that differs\n"
"in a group with the hosts on each side, each check's PASS / FAIL / SKIP counts\n"
"with the failing hosts' messages, the calibration's figures and Top-down level 1\n"
"per kernel as median, quartiles and range, and the hosts beyond the robust limit.\n"
"Hosts are told apart by the host each file names, never by its name.  A file\n"
"that cannot be used (another or a newer schema, truncated, not JSON, over 32\n"
"MiB, naming no host, one of two files of a kind claiming one host, or a\n"
"NAME.part a writer stopped before it renamed it) is named and skipped.\n", f);
	cli_opts_list(f, &report_optset);
	fputs(
"\n"
"exit status: 0 every check passed and no host is an outlier, 1 a check failed,\n"
"  a host is an outlier, a host's every check is SKIP (not checked) or a file\n"
"  was skipped (the view is incomplete), 64 usage,\n"
"  65 --strict and a file that cannot be used, 66 a PATH does not exist (or\n"
"  cannot be read) or no host's document was found, 69 --plot: built without\n"
"  cairo, or no figure to draw, 73 -o or the --plot file cannot be created,\n"
"  74 one cannot be written\n", f);
}

static int report_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct report_cmd *rc = opts;
	int st;

	rc->k = REPORT_K_DEFAULT;
	st = cli_opts_parse(&report_optset, NULL, argc, argv, rc, ctx);
	if (st)
		return st;
	if (optind >= argc)
		return cli_usage_err("report", "no PATH given: name the files or directories the "
				     "hosts wrote into");
	rc->paths = argv + optind;
	rc->npaths = argc - optind;
	if ((st = cli_plot_check("report", rc->plot)))
		return st;
	return cli_output_check("report", &rc->out, &output_view_report);
}

/* Each file skipped, one line: an error with --strict, a warning without;
 * the files left out as no host's, with -v only. */
static void say_skips(const struct report *r, bool strict, bool verbose)
{
	for (size_t i = 0; i < r->nskips; i++) {
		const struct report_skip *s = &r->skips[i];
		const char *open = s->remedy ? " (" : "", *close = s->remedy ? ")" : "";

		if (s->quiet) {
			if (verbose) {
				fputs("baretma: note: ", stderr);
				esc_fprintf(stderr, "'%s': %s: left out\n", s->path, s->cause);
			}
		} else if (strict)
			cli_err("'%s': %s%s%s%s", s->path, s->cause, open, s->remedy ? s->remedy : "",
				close);
		else
			cli_warn("'%s': %s: skipped%s%s%s", s->path, s->cause, open,
				 s->remedy ? s->remedy : "", close);
	}
}

static int read_paths(struct report_cmd *rc, struct report *r)
{
	int missing = 0;

	for (int i = 0; i < rc->npaths; i++) {
		int err = report_add_path(r, rc->paths[i]);

		if (err == -ENOMEM) {
			cli_err("report: out of memory reading '%s'", rc->paths[i]);
			return EX_OSERR;
		}
		if (err) {
			cli_err("cannot read '%s': %s (give a file or a directory the hosts wrote "
				"into)", rc->paths[i], strerror(-err));
			missing = EX_NOINPUT; /* the view would lack it: none printed */
		}
	}
	if (report_finish(r)) {
		cli_err("report: out of memory");
		return EX_OSERR;
	}
	return missing;
}

/* --plot FILE: the picture, or why not (a fleet without a figure: 69). */
static int draw(const char *path, const struct report *r)
{
	int err = plot_report_write(path, r, cli_plot_run(), NULL);

	if (err == -EDOM) {
		cli_err("report: --plot '%s': nothing to draw: no host has a calibration or a "
			"Top-down figure (give their calibration files or bench documents)", path);
		return EX_UNAVAILABLE;
	}
	return cli_plot_done("report", path, err);
}

static int report_run(void *opts, struct cli_ctx *ctx)
{
	struct report_cmd *rc = opts;
	struct report *r = report_new(rc->k);
	int st;

	if (!r) {
		cli_err("report: out of memory");
		return EX_OSERR;
	}
	st = read_paths(rc, r);
	if (st != EX_OSERR)
		say_skips(r, rc->strict, ctx->run.verbose);
	if (!st && rc->strict && r->nbad)
		st = EX_DATAERR;
	if (!st && !r->nhosts) {
		cli_err("report: no host's document in %s%s%s (give the directories of the hosts' "
			"bundles, calibration files, bench, compare, stat or validate documents)",
			rc->npaths == 1 ? "'" : "the paths given", rc->npaths == 1 ? rc->paths[0] : "",
			rc->npaths == 1 ? "'" : "");
		st = EX_NOINPUT;
	}
	if (!st)
		st = cli_output("report", &rc->out, &output_view_report, r, NULL);
	if (!st && rc->plot)
		st = draw(rc->plot, r);
	if (!st)
		st = report_exit_status(r);
	report_free(r);
	return st;
}

const struct cli_cmd_ops cmd_report = {
	.parse = report_parse, .run = report_run, .usage = report_usage,
	.opts_size = sizeof(struct report_cmd), .optset = &report_optset,
};
