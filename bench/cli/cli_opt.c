/*
 * bench/cli/cli_opt.c - the option tables at work (bench/cli/cli_opt.h):
 * getopt_long's arguments made from a command's table, each option's
 * handler, the one-line message for every mistake, and the table printed
 * as --help's usage lines and option list and as `help --options`.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/cli.h"
#include "bench/cli/cli_opt.h"
#include "bench/output/output.h"

/* getopt_long's value for row i: above every letter */
#define VAL0 0x100

static int help_set(const struct cli_opt_call *c)
{
	c->set->usage(stdout);
	return CLI_HELP_SHOWN;
}

/* Every command's last row, never listed in its table. */
static const struct cli_opt help_row = {
	.name = "help", .letter = 'h', .help = "this text", .set = help_set,
};

/* Row @i of @set, -h/--help after the table's own; NULL past the end. */
static const struct cli_opt *row(const struct cli_optset *set, int i)
{
	int n = 0;

	while (set->opts[n].name)
		n++;
	return i < n ? &set->opts[i] : i == n ? &help_row : NULL;
}

/* ------------------------------------------------------------ handlers */

void *cli_opt_field(const struct cli_opt_call *c)
{
	char *base = c->opt->flags & CLI_OPT_CTX ? (char *)c->ctx : (char *)c->opts;

	return base + c->opt->field;
}

int cli_opt_true(const struct cli_opt_call *c)
{
	*(bool *)cli_opt_field(c) = true;
	return 0;
}

int cli_opt_false(const struct cli_opt_call *c)
{
	*(bool *)cli_opt_field(c) = false;
	return 0;
}

int cli_opt_str(const struct cli_opt_call *c)
{
	*(const char **)cli_opt_field(c) = c->arg;
	return 0;
}

int cli_opt_count(const struct cli_opt_call *c)
{
	char name[40];

	if ((c->opt->flags & CLI_SYN_SHORT) && c->opt->letter)
		snprintf(name, sizeof(name), "-%c", c->opt->letter);
	else
		snprintf(name, sizeof(name), "--%s", c->opt->name);
	return cli_parse_count(name, c->arg, c->opt->lo, c->opt->hi, cli_opt_field(c));
}

int cli_opt_cpu_one(const struct cli_opt_call *c)
{
	unsigned v;
	int rc = cli_parse_cpu_opt(c->arg, &v);

	if (!rc)
		*(int *)cli_opt_field(c) = (int)v;
	return rc;
}

int cli_opt_level(const struct cli_opt_call *c)
{
	return cli_parse_level(c->arg, cli_opt_field(c));
}

static struct cli_output *output_of(const struct cli_opt_call *c)
{
	return (struct cli_output *)((char *)c->opts + c->set->out);
}

int cli_opt_json(const struct cli_opt_call *c)
{
	cli_output_opt(output_of(c), "json");
	return 0;
}

int cli_opt_csv(const struct cli_opt_call *c)
{
	cli_output_opt(output_of(c), "csv");
	return 0;
}

int cli_opt_sep(const struct cli_opt_call *c)
{
	struct cli_output *o = output_of(c);

	o->separator = c->arg;
	cli_output_opt(o, output_format_sv.option);
	return 0;
}

int cli_opt_output(const struct cli_opt_call *c)
{
	output_of(c)->file = c->arg;
	return 0;
}

int cli_opt_openmetrics(const struct cli_opt_call *c)
{
	output_of(c)->openmetrics = c->arg;
	return 0;
}

/* ------------------------------------------------------------- parsing */

/*
 * The long options that "--NAME" (the first @len bytes of @name) names:
 * an exact match, else every option it abbreviates (getopt_long's rule).
 * Returns how many; *@one is the option when there is exactly one.
 */
static int long_matches(const struct option *lo, const char *name, size_t len,
			const struct option **one)
{
	int n = 0;

	*one = NULL;
	for (; lo->name; lo++) {
		if (strncmp(lo->name, name, len))
			continue;
		if (strlen(lo->name) == len) {
			*one = lo;
			return 1;
		}
		*one = n ? NULL : lo;
		n++;
	}
	return n;
}

/* "--warmup, --wait": the options an ambiguous "--NAME" abbreviates. */
static void list_matches(char *buf, size_t n, const struct option *lo, const char *name,
			 size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; lo->name && used + 1 < n; lo++)
		if (!strncmp(lo->name, name, len)) {
			int w = snprintf(buf + used, n - used, "%s--%s", used ? ", " : "", lo->name);
			used += w > 0 ? (size_t)w : 0;
		}
}

/*
 * The message for getopt_long's '?' or ':' (@c).  A long option's error
 * leaves it in argv[optind - 1] (getopt_long consumed it); a short one's
 * is optopt (it may sit inside a cluster such as "-jx").  optopt is 0 for
 * an unknown or ambiguous long option, else the value of the option that
 * lacks (':') or must not have ('?') an argument.
 */
static int opt_error(const char *cmd, int c, char **argv, const struct option *longopts)
{
	const char *arg = argv[optind - 1];

	if (!strncmp(arg, "--", 2) && arg[2]) {
		const char *name = arg + 2;
		size_t len = strcspn(name, "=");
		const struct option *o;
		int n = long_matches(longopts, name, len, &o);
		char list[256];

		if (!optopt && !n)
			return cli_usage_err(cmd, "unknown option '--%.*s'", (int)len, name);
		if (!optopt && n > 1) {
			list_matches(list, sizeof(list), longopts, name, len);
			return cli_usage_err(cmd, "option '--%.*s' is ambiguous: %s", (int)len,
					     name, list);
		}
		if (o && optopt == o->val && c == ':')
			return cli_usage_err(cmd, "option '--%s' needs an argument", o->name);
		if (o && optopt == o->val && name[len] == '=')
			return cli_usage_err(cmd, "option '--%s' takes no argument (got '%s')",
					     o->name, arg);
	}
	if (optopt <= 0 || optopt > 0x7f || !isprint(optopt))
		return cli_usage_err(cmd, "unknown option '%s'", arg);
	if (c == ':')
		return cli_usage_err(cmd, "option '-%c' needs an argument", optopt);
	return cli_usage_err(cmd, "unknown option '-%c'", optopt);
}

/* getopt_long's arguments from the table: "+:C:aI:..." and the options.
 * Returns the rows (help included), or -1 when the table is too long. */
static int getopt_args(const struct cli_optset *set, char *shorts, struct option *longs)
{
	const struct cli_opt *o;
	size_t k = 0;
	int i;

	if (set->in_order)
		shorts[k++] = '+';
	shorts[k++] = ':'; /* a missing argument is ':', not '?' */
	for (i = 0; (o = row(set, i)); i++) {
		if (i >= CLI_OPTS_MAX)
			return -1;
		longs[i] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					    NULL, VAL0 + i };
		if (o->letter) {
			shorts[k++] = o->letter;
			if (o->arg)
				shorts[k++] = ':';
		}
	}
	shorts[k] = '\0';
	longs[i] = (struct option){ NULL, 0, NULL, 0 };
	return i;
}

/* The row getopt_long's @c stands for (a letter or VAL0 + row). */
static const struct cli_opt *row_of(const struct cli_optset *set, int c)
{
	const struct cli_opt *o;

	if (c >= VAL0)
		return row(set, c - VAL0);
	for (int i = 0; (o = row(set, i)); i++)
		if (o->letter == c)
			return o;
	return NULL;
}

/* The form of subcommand @sub; -1 for none (every option applies). */
static int form_of(const struct cli_optset *set, const char *sub)
{
	for (unsigned i = 0; sub && i < set->nforms; i++)
		if (set->forms[i].sub && !strcmp(set->forms[i].sub, sub))
			return (int)i;
	return -1;
}

int cli_opts_parse(const struct cli_optset *set, const char *sub, int argc, char **argv,
		   void *opts, struct cli_ctx *ctx)
{
	struct option longs[CLI_OPTS_MAX + 1];
	char shorts[2 + 2 * CLI_OPTS_MAX + 1], cmd[48];
	int form = form_of(set, sub), c, rc;

	snprintf(cmd, sizeof(cmd), "%s%s%s", set->cmd, form >= 0 ? " " : "", form >= 0 ? sub : "");
	if (getopt_args(set, shorts, longs) < 0) {
		cli_err("%s: more than %d options in its table", cmd, CLI_OPTS_MAX);
		return EX_SOFTWARE;
	}
	optind = 0; /* glibc: full re-initialisation (getopt(3)), for a second parse */
	opterr = 0; /* the messages are opt_error's, one line */
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct cli_opt *o = row_of(set, c);
		struct cli_opt_call call = { .opt = o, .arg = optarg, .opts = opts, .ctx = ctx,
					     .set = set, .cmd = cmd };

		if (c == '?' || c == ':' || !o)
			return opt_error(cmd, c, argv, longs);
		if (form >= 0 && o->forms && !(o->forms & (1u << form)))
			return cli_usage_err(cmd, "option '--%s' does not apply to '%s'", o->name, cmd);
		if ((rc = o->set(&call)))
			return rc;
	}
	if (!set->operands && optind < argc)
		return cli_usage_err(cmd, "unexpected argument '%s'", argv[optind]);
	return 0;
}

bool cli_opts_takes_arg(const struct cli_optset *set, const char *word)
{
	const struct cli_opt *o;

	for (int i = 0; (o = row(set, i)); i++)
		if (o->arg && !strncmp(word, "--", 2) && !strcmp(word + 2, o->name))
			return true;
	return false;
}

/* ------------------------------------------------------------ printing */

#define WIDTH 80  /* the lines are at most WIDTH - 1 characters */
#define COLUMN 21 /* where an option's help starts */

/* @o's help with "%u" the next of its numbers, "%%" one "%". */
static void help_text(const struct cli_opt *o, char *buf, size_t n)
{
	size_t k = 0;
	int next = 0;

	for (const char *p = o->help ? o->help : ""; *p && k + 12 < n; p++) {
		if (p[0] == '%' && p[1] == 'u' && next < 3) {
			k += (size_t)snprintf(buf + k, n - k, "%u", o->nums[next++]);
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			buf[k++] = *p++;
		} else {
			buf[k++] = *p;
		}
	}
	buf[k] = '\0';
}

/*
 * The words of @text after @col columns already on the line, wrapped at
 * WIDTH, the next lines indented to @indent.  Returns the column after.
 */
static size_t wrap(FILE *f, const char *text, size_t col, size_t indent)
{
	bool first = true;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (n && !first && col + 1 + n >= WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (n && !first) {
			fputc(' ', f);
			col++;
		}
		if (n) {
			fprintf(f, "%.*s", (int)n, text);
			col += n;
			first = false;
		}
		text += n + (text[n] == ' ');
	}
	return col;
}

/* Does @o belong to form @i (of @nforms)? */
static bool in_form(const struct cli_opt *o, unsigned i, unsigned nforms)
{
	return !nforms || !o->forms || (o->forms & (1u << i));
}

/* The usage line's words so far: "baretma CMD", then each group. */
struct words {
	char buf[1024];
	size_t used;
	const char *at[CLI_OPTS_MAX + 4];
	int n;
};

static void word_add(struct words *w, const char *text)
{
	size_t len = strlen(text) + 1;

	if (w->n >= CLI_OPTS_MAX + 4 || w->used + len > sizeof(w->buf))
		return; /* cannot happen with CLI_OPTS_MAX rows of short names */
	memcpy(w->buf + w->used, text, len);
	w->at[w->n++] = w->buf + w->used;
	w->used += len;
}

/* "-I MS" or "--level 1|2": @o as its usage line shows it. */
static void usage_word(char *buf, size_t n, const struct cli_opt *o)
{
	if ((o->flags & CLI_SYN_SHORT) && o->letter)
		snprintf(buf, n, "-%c%s%s", o->letter, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(buf, n, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* Form @i's options as groups: "[--json | --csv | -x SEP]", "[-I MS [--count N]]". */
static void usage_groups(struct words *w, const struct cli_optset *set, unsigned i)
{
	char group[256], word[96];
	size_t g = 0;
	int close = 0;
	const struct cli_opt *o;

	for (int r = 0; (o = row(set, r)) && o != &help_row; r++) {
		if (!in_form(o, i, set->nforms))
			continue;
		usage_word(word, sizeof(word), o);
		if (g && (o->flags & (CLI_SYN_ALT | CLI_SYN_IN))) {
			g += (size_t)snprintf(group + g, sizeof(group) - g, "%s%s",
					      o->flags & CLI_SYN_ALT ? " | " : " [", word);
			g = g < sizeof(group) ? g : sizeof(group) - 1; /* cut, never past it */
			close += !(o->flags & CLI_SYN_ALT);
			continue;
		}
		if (g) {
			snprintf(group + g, sizeof(group) - g, "%.*s", close, "]]]]]]]]");
			word_add(w, group);
		}
		close = !(o->flags & CLI_SYN_REQ);
		g = (size_t)snprintf(group, sizeof(group), "%s%s", close ? "[" : "", word);
	}
	if (g) {
		snprintf(group + g, sizeof(group) - g, "%.*s", close, "]]]]]]]]");
		word_add(w, group);
	}
}

/* Form @i's usage line, wrapped between its groups. */
static void synopsis_form(FILE *f, const struct cli_optset *set, unsigned i)
{
	const struct cli_form *fm = set->nforms ? &set->forms[i] : NULL;
	struct words w = { .n = 0 };
	char head[96];
	size_t col, indent;

	snprintf(head, sizeof(head), "baretma %s%s%s", set->cmd, fm && fm->sub ? " " : "",
		 fm && fm->sub ? fm->sub : "");
	if (fm && fm->pre)
		word_add(&w, fm->pre);
	usage_groups(&w, set, i);
	if (fm && fm->post)
		word_add(&w, fm->post);
	col = (size_t)fprintf(f, "%s%s", i ? "       " : "usage: ", head);
	indent = col + 1;
	for (int k = 0; k < w.n; k++) {
		size_t n = strlen(w.at[k]);

		if (col + 1 + n >= WIDTH && col > indent) {
			fprintf(f, "\n%*s%s", (int)indent, "", w.at[k]);
			col = indent + n;
		} else {
			col += (size_t)fprintf(f, " %s", w.at[k]);
		}
	}
	fputc('\n', f);
}

void cli_opts_synopsis(FILE *f, const struct cli_optset *set)
{
	for (unsigned i = 0; i < (set->nforms ? set->nforms : 1); i++)
		synopsis_form(f, set, i);
}

void cli_opts_list(FILE *f, const struct cli_optset *set)
{
	const struct cli_opt *o;
	char text[2048];

	for (int r = 0; (o = row(set, r)); r++) {
		char letter[8] = "";
		int col;

		if (o->letter)
			snprintf(letter, sizeof(letter), "-%c, ", o->letter);
		col = fprintf(f, "  %s--%s%s%s", letter, o->name, o->arg ? " " : "",
			      o->arg ? o->arg : "");

		help_text(o, text, sizeof(text));
		if (col + 2 > COLUMN) {
			fputs("  ", f);
			col += 2;
		} else {
			col += fprintf(f, "%*s", COLUMN - col, "");
		}
		wrap(f, text, (size_t)col, COLUMN);
		fputc('\n', f);
	}
}

/* "enable,restore": the subcommands @o applies to; "-" for all. */
static void subs_of(char *buf, size_t n, const struct cli_optset *set, const struct cli_opt *o)
{
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; o->forms && i < set->nforms && k + 1 < n; i++)
		if (set->forms[i].sub && (o->forms & (1u << i)))
			k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "," : "", set->forms[i].sub);
	if (!buf[0])
		snprintf(buf, n, "-");
}

void cli_opts_dump(FILE *f, const struct cli_optset *set)
{
	const struct cli_opt *o;
	char subs[256];

	for (int r = 0; (o = row(set, r)); r++) {
		subs_of(subs, sizeof(subs), set, o);
		fprintf(f, "%s%c --%s %s %s\n", o->letter ? "-" : "", o->letter ? o->letter : '-',
			o->name, o->arg ? o->arg : "-", subs);
	}
}
