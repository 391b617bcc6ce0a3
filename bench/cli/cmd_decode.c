/*
 * bench/cli/cmd_decode.c - "baretma decode": IA32_PERF_METRICS by hand, or a
 * Top-down recipe from raw counts (bench/cli/cmd_decode_recipe.c).
 *   baretma decode METRICS [--slots N] [--level 1|2] [--json]
 *   baretma decode --from SLOTS:METRICS --to SLOTS:METRICS [--level 1|2] [--json]
 *   baretma decode --recipe NAME[:VARIANT] --counts EVENT=N,... [--smt] [--level 1|2] [--json]
 *   baretma decode --recipes [--json]
 * METRICS is hex (0x optional); SLOTS is decimal or 0x hex.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/output/output.h"
#include "bench/bench.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/cli/cmd_decode.h"
#include "msr/recipe/topdown.h"

static void decode_usage(FILE *f);

static int set_slots(const struct cli_opt_call *c)
{
	struct decode_args *a = c->opts;

	if (cli_parse_u64(c->arg, &a->slots)) {
		cli_err("bad --slots '%s': expected a count of slots (decimal or 0x hex)", c->arg);
		return EX_USAGE;
	}
	a->have_slots = true;
	return 0;
}

static int set_level(const struct cli_opt_call *c)
{
	struct decode_args *a = c->opts;

	if (strcmp(c->arg, "1") && strcmp(c->arg, "2")) {
		cli_err("bad --level '%s': PERF_METRICS has level 1 or 2", c->arg);
		return EX_USAGE;
	}
	a->level = c->arg[0] - '0';
	return 0;
}

static int set_recipe(const struct cli_opt_call *c)
{
	struct decode_args *a = c->opts;

	a->recipe = c->arg;
	a->list = a->list || strcmp(c->arg, "list") == 0;
	return 0;
}

static int set_counts(const struct cli_opt_call *c)
{
	struct decode_args *a = c->opts;

	if (a->ncounts == DECODE_COUNTS_MAX)
		return cli_usage_err("decode", "more than %d --counts: give the pairs "
				     "comma-separated in fewer", DECODE_COUNTS_MAX);
	a->counts[a->ncounts++] = c->arg;
	return 0;
}

/* The forms of the usage lines: a value, a region, a recipe, the recipes. */
#define VALUE 1u
#define REGION 2u
#define RECIPE 4u
#define RECIPES 8u

#define F(m) offsetof(struct decode_args, m)
static const struct cli_opt decode_opts[] = {
	{ .name = "from", .arg = "SLOTS:METRICS", .set = cli_opt_str, .field = F(from),
	  .flags = CLI_SYN_REQ, .forms = REGION,
	  .help = "the first reading of a region: TOPDOWN.SLOTS and IA32_PERF_METRICS at one "
		  "instant" },
	{ .name = "to", .arg = "SLOTS:METRICS", .set = cli_opt_str, .field = F(to),
	  .flags = CLI_SYN_REQ, .forms = REGION, .help = "its last reading" },
	{ .name = "recipe", .arg = "NAME[:VARIANT]", .set = set_recipe, .flags = CLI_SYN_REQ,
	  .forms = RECIPE,
	  .help = "a Top-down recipe (--recipes lists them: Skylake and older, E-cores, Zen "
		  "4/5, PERF_METRICS as perf's topdown-* counts) computed from raw counts, "
		  "e.g. perf's or toplev's; VARIANT: the uarch variant (default: the first "
		  "listed)" },
	{ .name = "counts", .arg = "EVENT=N[,EVENT=N...]", .set = set_counts,
	  .flags = CLI_SYN_REQ, .forms = RECIPE,
	  .help = "EVENT=N pairs, comma-separated, repeatable; EVENT as --recipes lists it "
		  "(any case), N a whole number (decimal or 0x hex)" },
	{ .name = "recipes", .set = cli_opt_true, .field = F(list), .flags = CLI_SYN_REQ,
	  .forms = RECIPES, .help = "list the recipes (also: --recipe list)" },
	{ .name = "slots", .arg = "N", .set = set_slots, .forms = VALUE,
	  .help = "the slots that go with one METRICS value (0 is flagged: zero slots)" },
	{ .name = "smt", .set = cli_opt_true, .field = F(smt), .forms = RECIPE,
	  .help = "SMT was on: pre-Ice Lake recipes take the AnyThread counts halved" },
	{ CLI_OPT_LEVEL, .set = set_level, .forms = VALUE | REGION | RECIPE,
	  .help = "1 (Ice Lake, Tiger Lake) or 2 (Sapphire Rapids, Alder Lake P-cores and "
		  "later); default: 2 when bytes 4-7 (the level-2 fields) hold anything, "
		  "else 1; of a recipe: 2 when every count level 2 needs is given" },
	{ CLI_OPT_JSON, .help = "one JSON document" },
	{ .name = NULL },
};
#undef F

static const struct cli_form decode_forms[] = {
	[0] = { .pre = "METRICS" }, [1] = { .pre = NULL }, [2] = { .pre = NULL }, [3] = { .pre = NULL },
};

static const struct cli_optset decode_optset = {
	.cmd = "decode", .opts = decode_opts, .forms = decode_forms, .nforms = 4,
	.out = offsetof(struct decode_args, out), .operands = true, .usage = decode_usage,
};

static void decode_usage(FILE *f)
{
	cli_opts_synopsis(f, &decode_optset);
	fputs(
"  METRICS  IA32_PERF_METRICS value in hex (0x optional, at most 16 digits)\n"
"  SLOTS    TOPDOWN.SLOTS (fixed counter 3) at the same instant, decimal or 0x hex\n", f);
	cli_opts_list(f, &decode_optset);
	fputs(
"\n"
"The numbers: each tma_* is a share of TOPDOWN.SLOTS from the 8-bit fields\n"
"(field/255 of one value; slot-weighted deltas between two readings, linux\n"
"topdown.txt); level 1 divided by the sum of its four fields, as perf and PCM\n"
"do; a level-2 sibling is its parent minus the measured child, not clamped at\n"
"0 as perf's metrics are.  See doc/numbers.md, \"What the numbers are\".\n"
"\n"
"exit status: 0 ok (flags do not change it), 64 usage (also an unknown recipe,\n"
"  variant or event, a count missing or given twice), 65 a malformed value,\n"
"  reading or count, or a region with zero or backward slots (a recipe's zero\n"
"  slots), 70 internal error\n", f);
}

/* Strict hex: optional 0x, 1..16 hex digits, nothing else. */
static int parse_metrics(const char *s, uint64_t *v)
{
	const char *p = s;
	size_t n;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	n = strlen(p);
	if (n == 0 || n > 16)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return -EINVAL;
	*v = strtoull(p, NULL, 16);
	return 0;
}

/* "SLOTS:METRICS" */
static int parse_reading(const char *s, uint64_t *slots, uint64_t *metrics)
{
	char buf[64];
	char *colon;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (cli_parse_u64(buf, slots) || parse_metrics(colon + 1, metrics))
		return -EINVAL;
	return 0;
}

/* A decode, and how it was asked for. */
struct decode_out {
	struct td_result r;
	bool show_slots;  /* print the slot count (given, or a region) */
	bool level_auto;  /* the level was chosen from the value, not --level */
	char flags[320];  /* "" or the flag sentences, "; "-joined */
};

/*
 * The flags of @d->r as text.  TD_FLAG_ZERO_SLOTS on a single value means
 * --slots 0: the library's sentence speaks of a region, so say it here.
 */
static void decode_flags(struct decode_out *d, bool value)
{
	unsigned rest = d->r.flags;
	size_t used = 0;

	d->flags[0] = '\0';
	if (value && (rest & TD_FLAG_ZERO_SLOTS)) {
		used = (size_t)snprintf(d->flags, sizeof(d->flags), "zero slots (--slots 0: "
					"TOPDOWN.SLOTS counted nothing; the fractions describe no slots)");
		rest &= ~TD_FLAG_ZERO_SLOTS;
	}
	if (rest && used + 2 < sizeof(d->flags)) {
		if (used)
			used += (size_t)snprintf(d->flags + used, sizeof(d->flags) - used, "; ");
		td_flag_text(rest, d->flags + used, (unsigned)(sizeof(d->flags) - used));
	}
}

static void print_text(FILE *f, const struct decode_out *d, const char *what)
{
	const struct td_result *r = &d->r;

	fprintf(f, "%s\n", what);
	if (d->show_slots)
		fprintf(f, "slots: %.0f\n", r->slots);
	for (int m = 0; m < TMA_NMETRICS; m++) {
		if (td_metric_level((enum td_metric)m) > r->level)
			continue;
		bool l2 = td_metric_level((enum td_metric)m) == 2;
		fprintf(f, "%s%-*s %7.2f %%", l2 ? "  " : "", l2 ? 24 : 26,
			td_metric_name((enum td_metric)m), 100.0 * r->frac[m]);
		if (m < TMA_NLEVEL1 && r->slots > 0)
			fprintf(f, "  (%.1f slots)", r->field_slots[m]);
		fprintf(f, "\n");
	}
	fprintf(f, "bound: +/-%.2f percentage points (8-bit PERF_METRICS quantisation)\n",
		100.0 * r->bound);
	fprintf(f, "flags: %s\n", d->flags[0] ? d->flags : "none");
}

/* The document; @input taken (NULL: none). */
static json_t *decode_json(const struct decode_out *d, json_t *input)
{
	const struct td_result *r = &d->r;
	json_t *o = json_pack("{s:o,s:i,s:s,s:o,s:f,s:o}", "input", input, "level", r->level,
			      "unit", "percent", "slots",
			      d->show_slots ? json_real(r->slots) : json_null(),
			      "bound_pp", 100.0 * r->bound, "flags", bench_flags_json(r->flags));

	for (int m = 0; o && m < TMA_NMETRICS; m++)
		if (td_metric_level((enum td_metric)m) <= r->level)
			json_object_set_new(o, td_metric_name((enum td_metric)m),
					    json_real(100.0 * r->frac[m]));
	return o;
}

/* The recipe options: none may come with a METRICS value or a region. */
static int recipe_checks(const struct decode_args *a)
{
	if ((a->recipe || a->list) && (a->value || a->from || a->to || a->have_slots))
		return cli_refuse_together("decode", a->list ? "--recipes" : "--recipe",
					   "a METRICS value, --from/--to or --slots");
	if (!a->recipe && (a->ncounts || a->smt))
		return cli_usage_err("decode", "%s goes with --recipe NAME",
				     a->ncounts ? "--counts" : "--smt");
	if (a->recipe && !a->list && !a->ncounts)
		return cli_usage_err("decode", "--recipe %s needs --counts EVENT=N,... (its events: "
				     "baretma decode --recipes)", a->recipe);
	return 0;
}

/* A decode for its view: the result, its title, what was asked. */
struct decode_result {
	const struct decode_out *d;
	const char *what;
	const struct decode_args *a;
};

static int decode_text(FILE *f, const void *result)
{
	const struct decode_result *r = result;

	print_text(f, r->d, r->what);
	return 0;
}

/* "input": the value and --slots, or the two readings. */
static json_t *decode_doc(const void *result)
{
	const struct decode_result *r = result;
	const struct decode_args *a = r->a;

	if (a->value)
		return decode_json(r->d, json_pack("{s:s,s:o}", "perf_metrics", a->value, "slots",
						   a->have_slots ? json_integer((json_int_t)a->slots)
								 : json_null()));
	return decode_json(r->d, json_pack("{s:s,s:s}", "from", a->from, "to", a->to));
}

static const struct output_view decode_view = { .text = decode_text, .json = decode_doc };

static int decode_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct decode_args *a = opts;
	int rc = cli_opts_parse(&decode_optset, NULL, argc, argv, a, ctx);

	if (rc)
		return rc;
	if (optind < argc)
		a->value = argv[optind++];
	if (optind < argc)
		return cli_usage_err("decode", "unexpected argument '%s'", argv[optind]);
	if ((rc = recipe_checks(a)))
		return rc;
	if (a->recipe || a->list)
		return 0;
	if (a->value && (a->from || a->to))
		return cli_refuse_together("decode", "a METRICS value", "--from/--to");
	if (a->have_slots && (a->from || a->to))
		return cli_usage_err("decode", "--slots goes with a single METRICS value: each "
				     "--from/--to reading carries its own slots");
	if (!a->value && !a->from != !a->to)
		return cli_usage_err("decode", "%s needs %s", a->from ? "--from" : "--to",
				     a->from ? "--to" : "--from");
	if (!a->value && !a->from)
		return cli_usage_err("decode", "give one METRICS value, or --from and --to");
	return cli_output_check("decode", &a->out, &decode_view);
}

/*
 * The level to decode at: --level, else 2 when bytes 4-7 (the level-2
 * fields, linux perf_event.h INTEL_PMC_IDX_TD_*) of @metrics hold anything, else 1.  An Ice
 * Lake value has zero there: it has no level 2, and showing four derived
 * nodes equal to their parents and four measured ones at 0 % would invent
 * a breakdown the register never gave.
 */
static int pick_level(const struct decode_args *a, uint64_t metrics, struct decode_out *d)
{
	d->level_auto = !a->level;
	if (a->level)
		return a->level;
	return metrics >> 32 ? 2 : 1;
}

static const char *level_note(const struct decode_out *d)
{
	if (!d->level_auto)
		return "";
	return d->r.level == 1 ? " (bytes 4-7 are zero: no level-2 fields; --level 2 shows them)"
			       : " (bytes 4-7 hold the level-2 fields)";
}

static int decode_value(const struct decode_args *a)
{
	struct decode_out d = { .show_slots = a->have_slots };
	char what[200];
	uint64_t v;

	if (parse_metrics(a->value, &v)) {
		cli_err("bad IA32_PERF_METRICS value '%s': expected hex, at most 16 digits "
			"(e.g. 0x302014224c331a66)", a->value);
		return EX_DATAERR;
	}
	td_decode_value(v, a->slots, pick_level(a, v, &d), &d.r);
	if (a->have_slots && !a->slots)
		d.r.flags |= TD_FLAG_ZERO_SLOTS;
	decode_flags(&d, true);
	snprintf(what, sizeof(what), "IA32_PERF_METRICS 0x%016llx, level %d%s",
		 (unsigned long long)v, d.r.level, level_note(&d));
	return cli_output("decode", &a->out, &decode_view, &(struct decode_result){ &d, what, a },
			  NULL);
}

static int decode_region(const struct decode_args *a)
{
	struct decode_out d = { .show_slots = true };
	uint64_t sa, ma, sb, mb;
	char what[200];

	if (parse_reading(a->from, &sa, &ma) || parse_reading(a->to, &sb, &mb)) {
		cli_err("bad reading '%s': expected SLOTS:METRICS, e.g. 1000:0x1f402080",
			parse_reading(a->from, &sa, &ma) ? a->from : a->to);
		return EX_DATAERR;
	}
	td_decode_region(sa, ma, sb, mb, pick_level(a, ma | mb, &d), &d.r);
	decode_flags(&d, false);
	if (d.r.flags & (TD_FLAG_ZERO_SLOTS | TD_FLAG_SLOTS_BACK)) {
		cli_err("cannot decode the region '%s' -> '%s': %s (the second reading must "
			"have more slots than the first)", a->from, a->to, d.flags);
		return EX_DATAERR;
	}
	snprintf(what, sizeof(what), "region: slots %llu -> %llu, level %d%s",
		 (unsigned long long)sa, (unsigned long long)sb, d.r.level, level_note(&d));
	return cli_output("decode", &a->out, &decode_view, &(struct decode_result){ &d, what, a },
			  NULL);
}

static int decode_run(void *opts, struct cli_ctx *ctx)
{
	const struct decode_args *a = opts;

	if (a->list)
		return decode_recipe_list(a);
	if (a->recipe)
		return decode_recipe(a);
	return a->value ? decode_value(a) : decode_region(a);
}

const struct cli_cmd_ops cmd_decode = {
	.parse = decode_parse, .run = decode_run, .usage = decode_usage,
	.opts_size = sizeof(struct decode_args), .optset = &decode_optset,
};
