/*
 * bench/cli/cmd_decode_recipe.c - "baretma decode --recipe NAME[:VARIANT]
 * --counts EVENT=N,...": a Top-down recipe of msr/recipe/recipe.h computed from
 * raw counts (perf's, toplev's, a hand-worked vector), and "--recipes",
 * the list.  Parses the counts, picks the level, prints through
 * bench/output/output_recipe.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "bench/cli/cli.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cmd_decode.h"
#include "bench/output/output.h"
#include "msr/recipe/recipe.h"

/* The variants of recipe @name, ", "-joined, into @buf. */
static const char *variants(const char *name, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < recipe_count() && used < n; i++)
		if (strcmp(recipe_at(i)->name, name) == 0)
			used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
						 recipe_at(i)->variant);
	return buf;
}

/* --recipe NAME[:VARIANT] -> the recipe, or an exit status after saying why. */
static int find(const char *spec, const struct recipe **out)
{
	const char *colon = strchr(spec, ':'), *name = NULL;
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	char buf[256];

	for (size_t i = 0; i < recipe_count() && !name; i++)
		if (strlen(recipe_at(i)->name) == n && strncmp(recipe_at(i)->name, spec, n) == 0)
			name = recipe_at(i)->name;
	if (!name) {
		cli_err("bad --recipe '%s': no such recipe (list them: baretma decode --recipes)", spec);
		return EX_USAGE;
	}
	*out = recipe_find_variant(name, colon ? colon + 1 : NULL);
	if (!*out) {
		cli_err("bad --recipe '%s': %s has no variant '%s' (its variants: %s)", spec, name,
			colon + 1, variants(name, buf, sizeof(buf)));
		return EX_USAGE;
	}
	return 0;
}

/* One EVENT=N of --counts @arg, at [p, p + len), into @c. */
static int pair(const struct recipe *r, const char *arg, const char *p, size_t len, double *c)
{
	const char *eq = memchr(p, '=', len);
	size_t nlen = eq ? (size_t)(eq - p) : len, vlen = eq ? len - nlen - 1 : 0;
	char num[32];
	uint64_t v;
	int i;

	if (!eq || !nlen) {
		cli_err("bad --counts '%s': expected EVENT=N pairs, comma-separated, e.g. "
			"UOPS_ISSUED.ANY=2400,INT_MISC.RECOVERY_CYCLES=50", arg);
		return EX_USAGE;
	}
	for (i = 0; i < (int)r->nevents; i++)
		if (strlen(r->events[i].name) == nlen && strncasecmp(r->events[i].name, p, nlen) == 0)
			break;
	if (i == (int)r->nevents) {
		cli_err("bad --counts '%s': '%.*s' is no event of %s:%s (its events: baretma decode "
			"--recipes)", arg, (int)nlen, p, r->name, r->variant);
		return EX_USAGE;
	}
	if (vlen > 0 && vlen < sizeof(num)) {
		memcpy(num, eq + 1, vlen);
		num[vlen] = '\0';
	}
	if (vlen == 0 || vlen >= sizeof(num) || cli_parse_u64(num, &v)) {
		cli_err("bad --counts '%s': the count of %s, '%.*s', is no whole number (decimal "
			"or 0x hex, at most 2^64-1)", arg, r->events[i].name, (int)vlen, eq + 1);
		return EX_DATAERR;
	}
	if (!isnan(c[i])) {
		cli_err("bad --counts '%s': %s given twice (give each event once)", arg,
			r->events[i].name);
		return EX_USAGE;
	}
	c[i] = (double)v;
	return 0;
}

/* Every --counts into @c (r->nevents values, NAN where not given). */
static int parse_counts(const struct recipe *r, const struct decode_args *a, double *c)
{
	int rc;

	for (unsigned i = 0; i < r->nevents; i++)
		c[i] = NAN;
	for (unsigned k = 0; k < a->ncounts; k++) {
		const char *p = a->counts[k];

		do {
			size_t len = strcspn(p, ",");

			if ((rc = pair(r, a->counts[k], p, len, c)))
				return rc;
			p += len;
		} while (*p++ == ',');
	}
	return 0;
}

/*
 * The level: --level, else 2 when the recipe has level 2 and every count
 * it needs under @env was given, else 1 (saying which count level 2 lacks).
 */
static int pick_level(const struct recipe *r, const struct decode_args *a,
		      const struct recipe_env *env, const double *c, char *note, size_t n)
{
	uint32_t need = 0;
	bool l2 = false;

	note[0] = '\0';
	if (a->level)
		return a->level;
	for (unsigned k = 0; k < r->nnodes; k++)
		l2 |= r->nodes[k].level == 2;
	if (!l2 || recipe_needed(r, env, 2, &need))
		return 1;
	for (unsigned i = 0; i < r->nevents; i++)
		if ((need & (1u << i)) && isnan(c[i])) {
			snprintf(note, n, " (level 2 needs %s too; --level 2 names each missing count)",
				 r->events[i].name);
			return 1;
		}
	snprintf(note, n, " (every count level 2 needs was given)");
	return 2;
}

/* recipe_eval's error as the user's: an exit status. */
static int eval_error(const struct recipe *r, const struct recipe_env *env, int rc,
		      const struct recipe_error *e)
{
	if (rc == -ENODATA) {
		int i = recipe_event_index(r, e->event);
		bool any = i >= 0 && r->events[i].any;

		cli_err("missing count for '%s': %s:%s needs it for %s (add --counts %s=N%s)", e->event,
			r->name, r->variant, e->metric ? e->metric : "a node", e->event,
			any && env->smt_on ? "; with --smt the recipe takes the AnyThread counts" : "");
		return EX_USAGE;
	}
	if (rc == -EDOM) {
		cli_err("cannot decode recipe '%s:%s': %s (SLOTS = %s is 0: give the counts of a "
			"region that ran)", r->name, r->variant, e->what ? e->what : "zero slots",
			e->expr ? e->expr : "?");
		return EX_DATAERR;
	}
	cli_err("recipe '%s:%s': the formula of %s does not evaluate at byte %zu: %s (a bug in "
		"baretma's recipe table)", r->name, r->variant, e->metric ? e->metric : "?", e->pos,
		e->what ? e->what : "?");
	return EX_SOFTWARE;
}

/* The views of a recipe's decode and of the list (bench/output/output.h). */
static int recipe_text(FILE *f, const void *result)
{
	recipe_print(f, result);
	return 0;
}

static json_t *recipe_doc(const void *result)
{
	return recipe_to_json(result);
}

static const struct output_view recipe_view = { .text = recipe_text, .json = recipe_doc };

static int list_text(FILE *f, const void *result)
{
	(void)result;
	recipe_list_print(f);
	return 0;
}

static json_t *list_doc(const void *result)
{
	(void)result;
	return recipe_list_to_json();
}

static const struct output_view list_view = { .text = list_text, .json = list_doc };

int decode_recipe(const struct decode_args *a)
{
	struct recipe_decode d = { .env = { .smt_on = a->smt } };
	double c[RECIPE_EVENTS_MAX];
	struct recipe_error e = { 0 };
	char note[160];
	int rc, level;

	if ((rc = find(a->recipe, &d.r)) || (rc = parse_counts(d.r, a, c)))
		return rc;
	d.counts = c;
	level = pick_level(d.r, a, &d.env, c, note, sizeof(note));
	d.level_note = note;
	rc = recipe_eval(d.r, c, &d.env, level, &d.res, &e);
	if (rc)
		return eval_error(d.r, &d.env, rc, &e);
	return cli_output("decode", &a->out, &recipe_view, &d, NULL);
}

int decode_recipe_list(const struct decode_args *a)
{
	return cli_output("decode", &a->out, &list_view, NULL, NULL);
}
