/*
 * bench/cli/cli_opt.h - each command's options, declared once, as data: a
 * table per command (struct cli_optset) whose rows (struct cli_opt) give
 * the long name, the letter, the argument's name, the help text and what
 * the option sets.  From the table, at run time: getopt_long's short
 * string and struct option array (bench/cli/cli_opt.c, the one caller of
 * getopt_long), the usage lines and the option list of --help, and the
 * dump `baretma help --options CMD` that the bash completion and the
 * tests read (t/1085-option-table.sh checks the man page and the
 * completion against it, t/1086 the letters across commands).
 *
 * The options many commands take are declared here, once (CLI_OPT_JSON,
 * CLI_OPT_CPU, ...): a command's row starts with one of them and adds its
 * own help text (and, where the option's value is the command's, what it
 * sets).  One letter means one option in every command, perf stat's where
 * perf has it: -C/--cpu, -a/--all-cpus, -I/--interval, -x/--field-separator,
 * -o/--output, -r/--reps (perf's --repeat), -j/--json (perf stat -j),
 * -v/--verbose, and -h/--help, which every table has without listing it.
 * Command-line layer: includes bench/cli/cli_cmd.h.
 */
#ifndef BARETMA_CLI_OPT_H
#define BARETMA_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/cli/cli_cmd.h"

struct cli_opt;
struct cli_optset;

/* What an option's handler is given. */
struct cli_opt_call {
	const struct cli_opt *opt;
	const char *arg;              /* its argument; NULL for an option that takes none */
	void *opts;                   /* the command's options (its parse's @opts) */
	struct cli_ctx *ctx;          /* what the setup needs (--cpuid-dump, the guard's flags) */
	const struct cli_optset *set; /* the command's table */
	const char *cmd;              /* "bench", "pmu enable": for the messages */
};

/* An option's flags. */
#define CLI_OPT_CTX   0x01u /* its field is in struct cli_ctx, not the command's options */
#define CLI_SYN_SHORT 0x02u /* the usage line shows it by its letter (-I MS, not --interval MS) */
#define CLI_SYN_ALT   0x04u /* an alternative to the option before it: [--json | --csv] */
#define CLI_SYN_IN    0x08u /* inside the brackets of the option before it: [-I MS [--count N]] */
#define CLI_SYN_REQ   0x10u /* not optional in its usage line: no brackets (--from SLOTS:METRICS) */

/* One option of a command. */
struct cli_opt {
	const char *name;   /* the long name: "cpu" is --cpu */
	char letter;        /* the short one: 'C' is -C; 0 for none */
	const char *arg;    /* the argument as --help names it ("LIST", "1|2"); NULL: none */
	/* --help's text, one paragraph that the printer wraps; each "%u" is
	 * the next of @nums (a default, a range), "%%" a percent sign */
	const char *help;
	unsigned nums[3];
	/*
	 * set - the option was given (@c->arg its argument): set what it
	 * sets.  Returns 0, or the exit status after the message
	 * (CLI_HELP_SHOWN after the usage).  The handlers below set @field.
	 */
	int (*set)(const struct cli_opt_call *c);
	size_t field;       /* offsetof the field set, in the command's options or (CLI_OPT_CTX) ctx */
	unsigned lo, hi;    /* cli_opt_count's range */
	unsigned flags;     /* CLI_OPT_CTX, CLI_SYN_* */
	unsigned forms;     /* the forms (subcommands) it belongs to, bit i for forms[i]; 0: all */
};

/*
 * One usage line of a command: a subcommand ("pmu enable": only the
 * options whose @forms name it apply to it, any other is refused), or one
 * way to call the command ("decode --recipe ...": @sub NULL, every option
 * applies, the line shows those of @forms).
 */
struct cli_form {
	const char *sub;    /* "enable", or NULL */
	const char *pre;    /* the operands before the options in the line ("METRICS"), or NULL */
	const char *post;   /* after them ("CPU MSR", "[-- COMMAND [ARGS...]]"), or NULL */
};

/* A command's options. */
struct cli_optset {
	const char *cmd;               /* "bench", "pmu" */
	const struct cli_opt *opts;    /* ended by a row without a name */
	const struct cli_form *forms;  /* the usage lines; NULL: one, "baretma CMD [options]" */
	unsigned nforms;
	size_t out;                    /* offsetof the command's struct cli_output (the output options') */
	bool in_order;                 /* options end at the first operand (stat: COMMAND's own follow) */
	bool operands;                 /* the command reads operands from optind; else one is refused */
	void (*usage)(FILE *f);        /* --help's text (which prints the lines below) */
};

/* --- the options many commands take: a row starts with one of these --- */

/* -C, --cpu: one CPU (N) or a list (LIST); the command says which, and sets it. */
#define CLI_OPT_CPU .name = "cpu", .letter = 'C'
#define CLI_OPT_CPUID_DUMP .name = "cpuid-dump", .arg = "FILE", .set = cli_opt_str, \
	.field = offsetof(struct cli_ctx, dump), .flags = CLI_OPT_CTX
#define CLI_OPT_LEVEL .name = "level", .arg = "1|2"
#define CLI_OPT_BACKEND .name = "backend"
#define CLI_OPT_KERNEL .name = "kernel", .arg = "LIST", .set = cli_opt_str
#define CLI_OPT_REPS .name = "reps", .letter = 'r', .arg = "N", .set = cli_opt_count
#define CLI_OPT_USER_ONLY .name = "user-only", .set = cli_opt_true
#define CLI_OPT_FORCE .name = "force", .set = cli_opt_true, \
	.field = offsetof(struct cli_ctx, run.force), .flags = CLI_OPT_CTX
#define CLI_OPT_WAIT .name = "wait", .set = cli_opt_true, \
	.field = offsetof(struct cli_ctx, run.wait), .flags = CLI_OPT_CTX
#define CLI_OPT_RDPMC_ALWAYS .name = "rdpmc-always", .set = cli_opt_true, \
	.field = offsetof(struct cli_ctx, run.set.rdpmc_always), .flags = CLI_OPT_CTX
#define CLI_OPT_STOP_NMI_WATCHDOG .name = "stop-nmi-watchdog", .set = cli_opt_true, \
	.field = offsetof(struct cli_ctx, run.set.stop_nmi_watchdog), .flags = CLI_OPT_CTX
#define CLI_OPT_ALLOW_MSR_WRITES .name = "allow-msr-writes", .set = cli_opt_true, \
	.field = offsetof(struct cli_ctx, run.set.allow_msr_writes), .flags = CLI_OPT_CTX
#define CLI_OPT_UNSAFE_MSR .name = "unsafe-msr", .set = cli_opt_true
/* -v, --verbose (perf's letter): the notes every run of its kind would say
 * (bench/cli/cli_run.h cli_detail), said once each */
#define CLI_OPT_VERBOSE .name = "verbose", .letter = 'v', .set = cli_opt_true, \
	.field = offsetof(struct cli_ctx, run.verbose), .flags = CLI_OPT_CTX | CLI_SYN_SHORT
/* the output options (bench/cli/cli.h struct cli_output, at the set's @out) */
#define CLI_OPT_JSON .name = "json", .letter = 'j', .set = cli_opt_json
#define CLI_OPT_CSV .name = "csv", .set = cli_opt_csv, .flags = CLI_SYN_ALT
#define CLI_OPT_SEP .name = "field-separator", .letter = 'x', .arg = "SEP", .set = cli_opt_sep, \
	.flags = CLI_SYN_SHORT | CLI_SYN_ALT
/* -o, --output FILE: cli_opt_output (the result there), or the command's file */
#define CLI_OPT_OUTPUT .name = "output", .letter = 'o', .arg = "FILE", .flags = CLI_SYN_SHORT
#define CLI_OPT_OPENMETRICS .name = "openmetrics", .arg = "FILE", .set = cli_opt_openmetrics
#define CLI_OPT_PLOT .name = "plot", .arg = "FILE", .set = cli_opt_str

/* Their help where it is the same in every command. */
#define CLI_HELP_OUTPUT "write the output to FILE instead of stdout (whole or not at all; " \
	"never through a symbolic link: refused, exit 73)"
#define CLI_HELP_SEP "separated values with SEP, as perf stat -x: a header naming the " \
	"columns (cpu, kind, recipe, backend first), a field holding SEP or a quote in " \
	"double quotes"
#define CLI_HELP_OPENMETRICS "also write the metrics to FILE in OpenMetrics 1.0, which " \
	"node_exporter's textfile collector reads (whole or not at all; never through a " \
	"symbolic link; doc/openmetrics.md)"
#define CLI_HELP_VERBOSE "also say, once, what every dry run would repeat: where its " \
	"locks and journals go (a directory of its own, which pmu status and pmu restore " \
	"of a dry run read)"
#define CLI_HELP_PLOT "also draw the result into FILE: SVG, PNG or PDF by its extension " \
	"(needs cairo; see doc/plots.md)"

/* --- handlers: what an option sets (@field, a field of that type) --- */
int cli_opt_true(const struct cli_opt_call *c);   /* bool := true */
int cli_opt_false(const struct cli_opt_call *c);  /* bool := false */
int cli_opt_str(const struct cli_opt_call *c);    /* const char * := the argument */
/* unsigned := the argument, a whole number from @lo to @hi (cli_parse_count,
 * the option named -L with CLI_SYN_SHORT, else --NAME) */
int cli_opt_count(const struct cli_opt_call *c);
int cli_opt_cpu_one(const struct cli_opt_call *c); /* int := one CPU (cli_parse_cpu_opt) */
int cli_opt_level(const struct cli_opt_call *c);  /* int := 1 or 2 (cli_parse_level) */
/* the set's struct cli_output: --json, --csv, -x SEP (cli_output_opt),
 * -o FILE, --openmetrics FILE (the last one given counts) */
int cli_opt_json(const struct cli_opt_call *c);
int cli_opt_csv(const struct cli_opt_call *c);
int cli_opt_sep(const struct cli_opt_call *c);
int cli_opt_output(const struct cli_opt_call *c);
int cli_opt_openmetrics(const struct cli_opt_call *c);

/* cli_opt_field - the field @c's option sets (see @field, CLI_OPT_CTX). */
void *cli_opt_field(const struct cli_opt_call *c);

/* The most rows a table may have (-h/--help added). */
#define CLI_OPTS_MAX 40

/*
 * cli_opts_parse - getopt_long over @argv (argv[0] the command's last
 * word) with @set's table, each option's handler called in the order
 * given, into @opts and @ctx; @sub, the subcommand ("enable"; NULL for a
 * command without), picks the form whose options apply.  Every mistake is
 * one line, "baretma: CMD: unknown option '--frob' (try: baretma CMD
 * --help)": an unknown, ambiguous or incomplete option, an argument to
 * one that takes none, an option of another subcommand ("option '--force'
 * does not apply to 'pmu status'"), an operand where the command takes
 * none ("unexpected argument 'X'").  Returns 0 with optind at the first
 * operand, CLI_HELP_SHOWN after the usage (-h, --help), or an exit status
 * after the message (a handler's, EX_USAGE).
 */
int cli_opts_parse(const struct cli_optset *set, const char *sub, int argc, char **argv,
		   void *opts, struct cli_ctx *ctx);

/*
 * cli_opts_synopsis - the usage lines of @set, one per form ("usage:
 * baretma CMD [--opt ARG] ..." wrapped at 80 columns), from the table:
 * every option in its order, grouped by its CLI_SYN_* flags.
 * cli_opts_list - the option list of --help: "  -L, --NAME ARG  help",
 * the help wrapped, -h/--help last.
 */
void cli_opts_synopsis(FILE *f, const struct cli_optset *set);
void cli_opts_list(FILE *f, const struct cli_optset *set);

/*
 * cli_opts_dump - the table as `baretma help --options CMD` prints it, one
 * option a line, four words: its letter ("-C", or "-"), its long name
 * ("--cpu"), its argument ("LIST", or "-"), and the subcommands it
 * applies to ("enable,restore", or "-" for every one).
 */
void cli_opts_dump(FILE *f, const struct cli_optset *set);

/* cli_opts_takes_arg - is @word ("--cpuid-dump") exactly an option of
 * @set that takes an argument? */
bool cli_opts_takes_arg(const struct cli_optset *set, const char *word);

#endif
