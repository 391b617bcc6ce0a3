/*
 * t/recipe-reference.c - the formula evaluator of msr/recipe/recipe.c as it was
 * before the formulas were tokenised once (a character-by-character
 * recursive descent), kept here only so that t/0877 can prove the
 * tokenised evaluator gives the same results, errors, positions and
 * masks.  Public entry points carry a ref_ prefix; everything else is
 * static.  Do not change it: it is the reference.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msr/recipe/recipe.h"
#include "msr/recipe/recipe_int.h"

int ref_recipe_expr_eval(const char *text, const struct recipe *r, const double *counts,
			 const struct recipe_env *env, double *out, struct recipe_error *err);
int ref_recipe_eval(const struct recipe *r, const double *counts, const struct recipe_env *env,
		    int level, struct recipe_result *out, struct recipe_error *err);
int ref_recipe_needed(const struct recipe *r, const struct recipe_env *env, int level,
		      uint32_t *mask);
int ref_recipe_expr_needed(const struct recipe *r, const struct recipe_env *env,
			   const char *expr, uint32_t *mask);

/* ---------------------------------------------------------- evaluator */

/*
 * A value while a formula is read: the number, the events it depends on,
 * and an error that only counts if the value is used (a missing count or
 * a division by zero in the branch an "if" does not take is no error).
 */
struct val {
	double v;
	uint32_t used;       /* bit i: r->events[i] */
	int err;             /* 0, -ENODATA or -EDOM */
	const char *what, *expr, *metric, *event;
	size_t pos;
};

/* The state of one recipe_eval / recipe_needed / recipe_expr_eval. */
struct ctx {
	const struct recipe *r;
	const double *counts;         /* NULL: collect the events used, every count 1 */
	struct recipe_env env;
	uint8_t state[RECIPE_NODES_MAX];  /* 0 not yet, 1 being read, 2 done */
	struct val memo[RECIPE_NODES_MAX];
	int depth;
	bool failed;                  /* a hard error: the formula is wrong */
	struct recipe_error herr;
};

/* The reader of one formula. */
struct rd {
	struct ctx *c;
	const char *expr, *metric, *p;
};

#define DEPTH_MAX 64

static struct val v_num(double v)
{
	return (struct val){ .v = v };
}

/* A hard error at @at: the first one is kept; every reader then unwinds. */
static struct val fail(struct rd *d, const char *at, const char *what)
{
	if (!d->c->failed) {
		d->c->failed = true;
		d->c->herr = (struct recipe_error){ .metric = d->metric, .expr = d->expr,
						    .pos = (size_t)(at - d->expr), .what = what };
	}
	return v_num(0);
}

/* A deferred error at @at. */
static struct val v_err(struct rd *d, const char *at, int err, const char *what,
			const char *event)
{
	return (struct val){ .err = err, .what = what, .expr = d->expr, .metric = d->metric,
			     .pos = (size_t)(at - d->expr), .event = event };
}

/* @a op @b = @v: the union of what both depend on, the first error. */
static struct val join(struct val a, struct val b, double v)
{
	struct val r = a.err ? a : b;

	r.v = v;
	r.used = a.used | b.used;
	return r;
}

static void skip_space(struct rd *d)
{
	while (*d->p == ' ' || *d->p == '\t' || *d->p == '\n')
		d->p++;
}

static bool name_start(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_' || ch == '\\';
}

static bool name_char(char ch)
{
	return name_start(ch) || (ch >= '0' && ch <= '9') || ch == '.' || ch == ':';
}

/* The name at d->p: [*s, *e), escapes included; d->p after it. */
static void read_name(struct rd *d, const char **s, const char **e)
{
	*s = d->p;
	while (name_char(*d->p)) {
		if (*d->p == '\\' && d->p[1])
			d->p++;
		d->p++;
	}
	*e = d->p;
}

/* The name [s, e) of a formula (backslashes escape) equals @name. */
static bool name_eq(const char *s, const char *e, const char *name)
{
	for (; s < e; s++, name++) {
		if (*s == '\\' && s + 1 < e)
			s++;
		if (*s != *name)
			return false;
	}
	return *name == '\0';
}

/* The keyword @kw next in the formula (not a longer name), consumed if so. */
static bool keyword(struct rd *d, const char *kw)
{
	size_t n = strlen(kw);

	skip_space(d);
	if (strncmp(d->p, kw, n) != 0 || name_char(d->p[n]))
		return false;
	d->p += n;
	return true;
}

static struct val expr(struct rd *d);
static struct val eval_node(struct ctx *c, unsigned i);

static struct val number(struct rd *d)
{
	const char *s = d->p;
	char buf[64];
	size_t n;

	while (*d->p >= '0' && *d->p <= '9')
		d->p++;
	if (*d->p == '.')
		for (d->p++; *d->p >= '0' && *d->p <= '9'; d->p++)
			;
	if ((*d->p == 'e' || *d->p == 'E') &&
	    ((d->p[1] >= '0' && d->p[1] <= '9') ||
	     ((d->p[1] == '+' || d->p[1] == '-') && d->p[2] >= '0' && d->p[2] <= '9')))
		for (d->p += 2; *d->p >= '0' && *d->p <= '9'; d->p++)
			;
	n = (size_t)(d->p - s);
	if (n >= sizeof(buf) || name_char(*d->p))
		return fail(d, s, "malformed number");
	memcpy(buf, s, n);
	buf[n] = '\0';
	return v_num(strtod(buf, NULL));
}

/* min(a, b), max(a, b), d_ratio(a, b): the name was read, d->p at "(". */
static struct val call(struct rd *d, const char *fn)
{
	struct val a, b;
	double v;

	d->p++;
	a = expr(d);
	skip_space(d);
	if (*d->p != ',')
		return fail(d, d->p, "expected ','");
	d->p++;
	b = expr(d);
	skip_space(d);
	if (*d->p != ')')
		return fail(d, d->p, "expected ')'");
	d->p++;
	if (fn[0] == 'd')
		v = b.v == 0 ? 0 : a.v / b.v;
	else
		v = (fn[1] == 'i') == (a.v < b.v) ? a.v : b.v;
	return join(a, b, v);
}

/* An event's count, or in collect mode 1 (and the event marked used). */
static struct val count(struct rd *d, unsigned i, const char *at)
{
	const struct ctx *c = d->c;
	struct val v = v_num(1);

	v.used = 1u << i;
	if (!c->counts)
		return v;
	if (isnan(c->counts[i])) {
		v = v_err(d, at, -ENODATA, "missing count", c->r->events[i].name);
		v.used = 1u << i;
		return v;
	}
	v.v = c->counts[i];
	return v;
}

static struct val name(struct rd *d)
{
	static const char *const fns[] = { "min", "max", "d_ratio" };
	const struct recipe *r = d->c->r;
	const char *s, *e;

	read_name(d, &s, &e);
	skip_space(d);
	for (unsigned i = 0; i < 3; i++)
		if (name_eq(s, e, fns[i]) && *d->p == '(')
			return call(d, fns[i]);
	if (name_eq(s, e, "width"))
		return v_num(r ? r->width : 0);
	if (name_eq(s, e, "smt_on"))
		return v_num(d->c->env.smt_on ? 1 : 0);
	for (unsigned i = 0; r && i < r->nnodes; i++)
		if (name_eq(s, e, r->nodes[i].metric)) {
			if (d->c->state[i] == 1)
				return fail(d, s, "circular reference");
			return eval_node(d->c, i);
		}
	for (unsigned i = 0; r && i < r->nevents; i++)
		if (name_eq(s, e, r->events[i].name))
			return count(d, i, s);
	return fail(d, s, "unknown name");
}

static struct val primary(struct rd *d)
{
	struct val v;

	skip_space(d);
	if (*d->p == '(') {
		d->p++;
		v = expr(d);
		skip_space(d);
		if (*d->p != ')')
			return fail(d, d->p, "expected ')'");
		d->p++;
		return v;
	}
	if ((*d->p >= '0' && *d->p <= '9') || *d->p == '.')
		return number(d);
	if (name_start(*d->p))
		return name(d);
	return fail(d, d->p, "expected a number, a name or '('");
}

static struct val unary(struct rd *d)
{
	struct val v;

	skip_space(d);
	if (*d->p != '-')
		return primary(d);
	d->p++;
	if (++d->c->depth > DEPTH_MAX)
		return fail(d, d->p, "formula nested too deeply");
	v = unary(d);
	d->c->depth--;
	v.v = -v.v;
	return v;
}

static struct val product(struct rd *d)
{
	struct val a = unary(d), b;

	for (;;) {
		skip_space(d);
		char op = *d->p;
		const char *at = d->p;

		if (d->c->failed || (op != '*' && op != '/'))
			return a;
		d->p++;
		b = unary(d);
		if (op == '*') {
			a = join(a, b, a.v * b.v);
		} else if (b.v == 0 && !a.err && !b.err) {
			struct val z = v_err(d, at, -EDOM, "division by zero", NULL);

			z.used = a.used | b.used;
			a = z;
		} else {
			a = join(a, b, a.v / b.v);
		}
	}
}

static struct val sum(struct rd *d)
{
	struct val a = product(d), b;

	for (;;) {
		skip_space(d);
		char op = *d->p;

		if (d->c->failed || (op != '+' && op != '-'))
			return a;
		d->p++;
		b = product(d);
		a = join(a, b, op == '+' ? a.v + b.v : a.v - b.v);
	}
}

/* sum [ ("<" | ">") sum ]: 1 or 0, perf's comparison (binds less than "+"). */
static struct val cmp(struct rd *d)
{
	struct val a = sum(d), b;
	char op;

	skip_space(d);
	op = *d->p;
	if (d->c->failed || (op != '<' && op != '>'))
		return a;
	d->p++;
	b = sum(d);
	return join(a, b, op == '<' ? a.v < b.v : a.v > b.v);
}

/*
 * cmp [ "if" cmp "else" expr ]: only the branch taken counts.  In collect
 * mode (no counts) a condition on events has no value yet: both branches'
 * events are needed, as the counts will choose.
 */
static struct val expr(struct rd *d)
{
	struct val a, cond, b, r;

	if (++d->c->depth > DEPTH_MAX)
		return fail(d, d->p, "formula nested too deeply");
	a = cmp(d);
	if (d->c->failed || !keyword(d, "if")) {
		d->c->depth--;
		return a;
	}
	cond = cmp(d);
	if (!d->c->failed && !keyword(d, "else"))
		return fail(d, d->p, "expected 'else'");
	b = expr(d);
	d->c->depth--;
	if (cond.err)
		return cond;
	if (!d->c->counts && cond.used) {
		r = a;
		r.used |= b.used | cond.used;
		return r;
	}
	r = cond.v != 0 ? a : b;
	r.used |= cond.used;
	return r;
}

/* Read the whole formula @text of node @metric (NULL: a formula alone). */
static struct val formula(struct ctx *c, const char *text, const char *metric)
{
	struct rd d = { .c = c, .expr = text, .metric = metric, .p = text };
	struct val v;

	if (!text)
		return fail(&d, "", "no formula");
	v = expr(&d);
	skip_space(&d);
	if (!c->failed && *d.p)
		return fail(&d, d.p, "unexpected character");
	return v;
}

static struct val eval_node(struct ctx *c, unsigned i)
{
	if (c->state[i] != 2) {
		c->state[i] = 1;
		c->memo[i] = formula(c, c->r->nodes[i].expr, c->r->nodes[i].metric);
		c->state[i] = 2;
	}
	return c->memo[i];
}

static void ctx_init(struct ctx *c, const struct recipe *r, const double *counts,
		     const struct recipe_env *env)
{
	memset(c, 0, sizeof(*c));
	c->r = r;
	c->counts = counts;
	if (env)
		c->env = *env;
}

/* 0, or the error of @v (hard or deferred) into @err. */
static int outcome(const struct ctx *c, const struct val *v, struct recipe_error *err)
{
	if (c->failed) {
		if (err)
			*err = c->herr;
		return -EINVAL;
	}
	if (!v->err)
		return 0;
	if (err)
		*err = (struct recipe_error){ .metric = v->metric, .expr = v->expr, .pos = v->pos,
					      .what = v->what, .event = v->event };
	return v->err;
}

int ref_recipe_expr_eval(const char *text, const struct recipe *r, const double *counts,
		     const struct recipe_env *env, double *out, struct recipe_error *err)
{
	struct ctx c;
	struct val v;
	int rc;

	if (!text || !out || (r && (!counts || !recipe_ok(r))))
		return -EINVAL;
	ctx_init(&c, r, counts, env);
	v = formula(&c, text, NULL);
	rc = outcome(&c, &v, err);
	if (!rc)
		*out = v.v;
	return rc;
}

/* Store node @i's value @v into @out. */
static void put(const struct recipe *r, unsigned i, double v, struct recipe_result *out)
{
	const struct recipe_node *n = &r->nodes[i];

	for (int m = 0; m < TMA_NMETRICS; m++)
		if (strcmp(td_metric_name((enum td_metric)m), n->metric) == 0) {
			out->frac[m] = v;
			return;
		}
	if (out->nextra < RECIPE_EXTRA_MAX)
		out->extra[out->nextra++] = (struct recipe_extra){ .metric = n->metric,
			.parent = n->parent, .level = n->level, .frac = v };
}

int ref_recipe_eval(const struct recipe *r, const double *counts, const struct recipe_env *env,
		int level, struct recipe_result *out, struct recipe_error *err)
{
	struct ctx c;
	struct val v;
	int slots, rc;

	if (!recipe_ok(r) || !counts || !out || level < 1 || level > 2)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->level = level;
	for (int m = 0; m < TMA_NMETRICS; m++)
		out->frac[m] = NAN;
	slots = recipe_node_index(r, "SLOTS");
	if (slots < 0) {
		if (err)
			*err = (struct recipe_error){ .what = "the recipe has no SLOTS node" };
		return -EINVAL;
	}
	ctx_init(&c, r, counts, env);
	v = eval_node(&c, (unsigned)slots);
	if ((rc = outcome(&c, &v, err)))
		return rc;
	if (!(v.v > 0)) {
		if (err)
			*err = (struct recipe_error){ .metric = "SLOTS", .expr = r->nodes[slots].expr,
						      .what = "zero slots: nothing counted" };
		return -EDOM;
	}
	out->slots = v.v;
	for (unsigned i = 0; i < r->nnodes; i++) {
		if (r->nodes[i].level < 1 || r->nodes[i].level > level)
			continue;
		v = eval_node(&c, i);
		rc = outcome(&c, &v, err);
		if (rc == -EDOM) {
			if (!out->undefined.what)
				outcome(&c, &v, &out->undefined);
			v.v = NAN;
		} else if (rc) {
			return rc;
		}
		put(r, i, v.v, out);
	}
	return 0;
}

int ref_recipe_needed(const struct recipe *r, const struct recipe_env *env, int level, uint32_t *mask)
{
	struct ctx c;
	struct val v;
	uint32_t used = 0;

	if (!recipe_ok(r) || !mask || level < 1 || level > 2)
		return -EINVAL;
	ctx_init(&c, r, NULL, env);
	for (unsigned i = 0; i < r->nnodes; i++) {
		/* the reported nodes and SLOTS; an auxiliary node counts where they use it */
		if (r->nodes[i].level > level ||
		    (r->nodes[i].level == 0 && strcmp(r->nodes[i].metric, "SLOTS") != 0))
			continue;
		v = eval_node(&c, i);
		if (c.failed)
			return -EINVAL;
		used |= v.used;
	}
	*mask = used;
	return 0;
}

int ref_recipe_expr_needed(const struct recipe *r, const struct recipe_env *env, const char *expr,
		       uint32_t *mask)
{
	struct ctx c;
	struct val v;

	if (!recipe_ok(r) || !expr || !mask)
		return -EINVAL;
	ctx_init(&c, r, NULL, env);
	v = formula(&c, expr, NULL);
	if (c.failed)
		return -EINVAL;
	*mask = v.used;
	return 0;
}
