/*
 * msr/recipe/recipe.c - look-up of the recipe tables and the formula evaluator
 * (recursive descent over the grammar of msr/recipe/recipe.h); the split into
 * passes is msr/recipe/recipe_passes.c.  A formula is read as tokens
 * (msr/recipe/recipe_tokens.c: those of a table recipe cut once and kept, any
 * other formula cut on the stack at each use); a node referenced by
 * another is evaluated once per recipe_eval (memo on the stack).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msr/recipe/recipe.h"
#include "msr/recipe/recipe_int.h"

/* ------------------------------------------------------------ look-up */

/*
 * The registered recipe tables, in recipe_at's order: Sunny Cove's
 * PERF_METRICS with events first (intel-perf-metrics is found by name and
 * uarch in this order: recipe_find), then Intel's other P-core recipes,
 * their Ice Lake and later event forms, the E-cores', then AMD's (the
 * order the Intel recipes had when they were one table).
 */
static const struct recipe_table *const recipe_tables[] = {
	&recipes_intel_pm_table,
	&recipes_intel_table,
	&recipes_intel_icl_table,
	&recipes_intel_ecore_table,
	&recipes_amd_table,
};

#define NTABLES (sizeof(recipe_tables) / sizeof(recipe_tables[0]))

size_t recipe_count(void)
{
	size_t n = 0;

	for (size_t k = 0; k < NTABLES; k++)
		n += recipe_tables[k]->n;
	return n;
}

const struct recipe *recipe_at(size_t i)
{
	for (size_t k = 0; k < NTABLES; i -= recipe_tables[k]->n, k++)
		if (i < recipe_tables[k]->n)
			return &recipe_tables[k]->recipes[i];
	return NULL;
}

static bool serves(const struct recipe *r, const char *uarch, bool nocase)
{
	for (const char *const *u = r->uarchs; u && *u; u++)
		if (nocase ? strcasecmp(*u, uarch) == 0 : strcmp(*u, uarch) == 0)
			return true;
	return false;
}

/* The first recipe called @name for which @match(r, @key) holds; errno set. */
static const struct recipe *find(const char *name, const char *key,
				 bool (*match)(const struct recipe *, const char *))
{
	bool named = false;

	for (size_t i = 0; name && i < recipe_count(); i++) {
		const struct recipe *r = recipe_at(i);

		if (strcmp(r->name, name) != 0)
			continue;
		named = true;
		if (!key || match(r, key))
			return r;
	}
	errno = named ? ENODEV : ENOENT;
	return NULL;
}

static bool match_uarch(const struct recipe *r, const char *uarch)
{
	return serves(r, uarch, false);
}

static bool match_variant(const struct recipe *r, const char *v)
{
	return strcasecmp(r->variant, v) == 0 || serves(r, v, true);
}

const struct recipe *recipe_find(const char *name, const char *uarch)
{
	return find(name, uarch, match_uarch);
}

const struct recipe *recipe_find_variant(const char *name, const char *variant)
{
	return find(name, variant, match_variant);
}

int recipe_event_index(const struct recipe *r, const char *name)
{
	for (unsigned i = 0; r && name && i < r->nevents; i++)
		if (strcasecmp(r->events[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

int recipe_node_index(const struct recipe *r, const char *metric)
{
	for (unsigned i = 0; r && metric && i < r->nnodes; i++)
		if (strcmp(r->nodes[i].metric, metric) == 0)
			return (int)i;
	return -ENOENT;
}

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
	const struct rtok_recipe *tk; /* the table recipe's tokens, or NULL */
};

/* The reader of one formula: its tokens (msr/recipe/recipe_tokens.c). */
struct rd {
	struct ctx *c;
	const char *expr, *metric;
	const struct rtok *t;   /* the next token */
	size_t prev_end;        /* the offset just after the last token read */
};

#define DEPTH_MAX 64
#define STACK_TOKENS 64 /* tokens of a formula outside the tables read without malloc */

static struct val v_num(double v)
{
	return (struct val){ .v = v };
}

/* A hard error at byte @pos: the first one is kept; every reader then unwinds. */
static struct val fail(struct rd *d, size_t pos, const char *what)
{
	if (!d->c->failed) {
		d->c->failed = true;
		d->c->herr = (struct recipe_error){ .metric = d->metric, .expr = d->expr,
						    .pos = pos, .what = what };
	}
	return v_num(0);
}

/* A deferred error at byte @pos. */
static struct val v_err(struct rd *d, size_t pos, int err, const char *what, const char *event)
{
	return (struct val){ .err = err, .what = what, .expr = d->expr, .metric = d->metric,
			     .pos = pos, .event = event };
}

/* @a op @b = @v: the union of what both depend on, the first error. */
static struct val join(struct val a, struct val b, double v)
{
	struct val r = a.err ? a : b;

	r.v = v;
	r.used = a.used | b.used;
	return r;
}

/* Step past the next token (never past the end). */
static void next(struct rd *d)
{
	d->prev_end = d->t->end;
	if (d->t->kind != RT_END)
		d->t++;
}

/* The next token is the character @ch. */
static bool is(const struct rd *d, char ch)
{
	return d->t->kind == RT_CHAR && d->t->aux == (uint8_t)ch;
}

/* The keyword (RT_IF, RT_ELSE) next, consumed if so. */
static bool keyword(struct rd *d, uint8_t kw)
{
	if (d->t->flags != kw)
		return false;
	next(d);
	return true;
}

static struct val expr(struct rd *d);
static struct val eval_node(struct ctx *c, unsigned i);

/* min(a, b), max(a, b), d_ratio(a, b): the name was read, the next token "(". */
static struct val call(struct rd *d, int fn)
{
	struct val a, b;
	double v;

	next(d);
	a = expr(d);
	if (!is(d, ','))
		return fail(d, d->t->off, "expected ','");
	next(d);
	b = expr(d);
	if (!is(d, ')'))
		return fail(d, d->t->off, "expected ')'");
	next(d);
	if (fn == RT_DRATIO)
		v = b.v == 0 ? 0 : a.v / b.v;
	else
		v = (fn == RT_MIN) == (a.v < b.v) ? a.v : b.v;
	return join(a, b, v);
}

/* An event's count, or in collect mode 1 (and the event marked used). */
static struct val count(struct rd *d, unsigned i, size_t at)
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
	const struct rtok *t = d->t;

	next(d);
	switch (t->kind) {
	case RT_MIN: case RT_MAX: case RT_DRATIO:
		return call(d, t->kind);
	case RT_WIDTH:
		return v_num(d->c->r ? d->c->r->width : 0);
	case RT_SMT:
		return v_num(d->c->env.smt_on ? 1 : 0);
	case RT_NODE:
		if (d->c->state[t->aux] == 1)
			return fail(d, t->off, "circular reference");
		return eval_node(d->c, t->aux);
	case RT_EVENT:
		return count(d, t->aux, t->off);
	default:
		return fail(d, t->off, "unknown name");
	}
}

static struct val primary(struct rd *d)
{
	struct val v;

	if (is(d, '(')) {
		next(d);
		v = expr(d);
		if (!is(d, ')'))
			return fail(d, d->t->off, "expected ')'");
		next(d);
		return v;
	}
	if (d->t->kind == RT_NUM) {
		v = v_num(d->t->num);
		next(d);
		return v;
	}
	if (d->t->kind == RT_BADNUM)
		return fail(d, d->t->off, "malformed number");
	if (d->t->kind >= RT_MIN)
		return name(d);
	return fail(d, d->t->off, "expected a number, a name or '('");
}

static struct val unary(struct rd *d)
{
	struct val v;

	if (!is(d, '-'))
		return primary(d);
	next(d);
	if (++d->c->depth > DEPTH_MAX)
		return fail(d, d->prev_end, "formula nested too deeply");
	v = unary(d);
	d->c->depth--;
	v.v = -v.v;
	return v;
}

static struct val product(struct rd *d)
{
	struct val a = unary(d), b;

	for (;;) {
		size_t at = d->t->off;
		bool mul = is(d, '*');

		if (d->c->failed || (!mul && !is(d, '/')))
			return a;
		next(d);
		b = unary(d);
		if (mul) {
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
		bool plus = is(d, '+');

		if (d->c->failed || (!plus && !is(d, '-')))
			return a;
		next(d);
		b = product(d);
		a = join(a, b, plus ? a.v + b.v : a.v - b.v);
	}
}

/* sum [ ("<" | ">") sum ]: 1 or 0, perf's comparison (binds less than "+"). */
static struct val cmp(struct rd *d)
{
	struct val a = sum(d), b;
	bool less = is(d, '<');

	if (d->c->failed || (!less && !is(d, '>')))
		return a;
	next(d);
	b = sum(d);
	return join(a, b, less ? a.v < b.v : a.v > b.v);
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
		return fail(d, d->prev_end, "formula nested too deeply");
	a = cmp(d);
	if (d->c->failed || !keyword(d, RT_IF)) {
		d->c->depth--;
		return a;
	}
	cond = cmp(d);
	if (!d->c->failed && !keyword(d, RT_ELSE))
		return fail(d, d->t->off, "expected 'else'");
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

/* Read the formula @text of node @metric (NULL: a formula alone), tokens @t. */
static struct val read_tokens(struct ctx *c, const struct rtok *t, const char *text,
			      const char *metric)
{
	struct rd d = { .c = c, .expr = text, .metric = metric, .t = t };
	struct val v = expr(&d);

	if (!c->failed && d.t->kind != RT_END)
		return fail(&d, d.t->off, "unexpected character");
	return v;
}

/* Read @text, tokenised here: a formula outside the tables (or too many of them). */
static struct val formula(struct ctx *c, const char *text, const char *metric)
{
	struct rtok buf[STACK_TOKENS], *t = buf;
	struct rd d = { .c = c, .expr = text, .metric = metric };
	struct val v;
	size_t n;

	if (!text)
		return fail(&d, (size_t)(uintptr_t)"", "no formula");
	n = recipe_tokenise(c->r, text, buf, STACK_TOKENS);
	if (n > STACK_TOKENS) {
		if (!(t = malloc(n * sizeof(*t))))
			return fail(&d, 0, "out of memory");
		recipe_tokenise(c->r, text, t, n);
	}
	v = read_tokens(c, t, text, metric);
	if (t != buf)
		free(t);
	return v;
}

static struct val eval_node(struct ctx *c, unsigned i)
{
	if (c->state[i] != 2) {
		c->state[i] = 1;
		const struct recipe_node *n = &c->r->nodes[i];

		c->memo[i] = c->tk && c->tk->node[i] ? read_tokens(c, c->tk->node[i], n->expr, n->metric)
						     : formula(c, n->expr, n->metric);
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
	c->tk = r ? recipe_tokens(r) : NULL;
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

int recipe_expr_eval(const char *text, const struct recipe *r, const double *counts,
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

/* Store node @i's value @v into @out (@tk: the cached metric of each node). */
static void put(const struct recipe *r, const struct rtok_recipe *tk, unsigned i, double v,
		struct recipe_result *out)
{
	const struct recipe_node *n = &r->nodes[i];

	if (tk && tk->frac[i] >= 0) {
		out->frac[tk->frac[i]] = v;
		return;
	}
	for (int m = 0; !tk && m < TMA_NMETRICS; m++)
		if (strcmp(td_metric_name((enum td_metric)m), n->metric) == 0) {
			out->frac[m] = v;
			return;
		}
	if (out->nextra < RECIPE_EXTRA_MAX)
		out->extra[out->nextra++] = (struct recipe_extra){ .metric = n->metric,
			.parent = n->parent, .level = n->level, .frac = v };
}

int recipe_eval(const struct recipe *r, const double *counts, const struct recipe_env *env,
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
	ctx_init(&c, r, counts, env);
	slots = c.tk ? c.tk->slots : recipe_node_index(r, "SLOTS");
	if (slots < 0) {
		if (err)
			*err = (struct recipe_error){ .what = "the recipe has no SLOTS node" };
		return -EINVAL;
	}
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
		put(r, c.tk, i, v.v, out);
	}
	return 0;
}

int recipe_needed(const struct recipe *r, const struct recipe_env *env, int level, uint32_t *mask)
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

int recipe_expr_needed(const struct recipe *r, const struct recipe_env *env, const char *expr,
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

bool recipe_smt_matters(const struct recipe *r)
{
	for (unsigned i = 0; r && i < r->nevents; i++)
		if (r->events[i].counters != r->events[i].counters_ht_off)
			return true;
	for (unsigned i = 0; r && i < r->nnodes; i++)
		if (r->nodes[i].expr && strstr(r->nodes[i].expr, "smt_on"))
			return true;
	return false;
}
