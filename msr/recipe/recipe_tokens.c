/*
 * msr/recipe/recipe_tokens.c - a formula of msr/recipe/recipe.h cut into tokens once:
 * numbers parsed, names resolved against their recipe (node, event,
 * min/max/d_ratio, width, smt_on, unknown), each token with the byte
 * offsets the errors of msr/recipe/recipe.c name.  The tokens of a table recipe
 * (msr/recipe/recipes_*.c) are built at its first evaluation and kept: the
 * formulas stay text in the tables, the evaluator reads them once.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "msr/recipe/recipe_int.h"

static bool name_start(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_' || ch == '\\';
}

static bool name_char(char ch)
{
	return name_start(ch) || (ch >= '0' && ch <= '9') || ch == '.' || ch == ':';
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return p;
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

/* The number at @s: its end, or NULL if malformed (the value into *@v). */
static const char *number(const char *s, double *v)
{
	const char *p = s;
	char buf[64];
	size_t n;

	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if ((*p == 'e' || *p == 'E') &&
	    ((p[1] >= '0' && p[1] <= '9') || ((p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9')))
		for (p += 2; *p >= '0' && *p <= '9'; p++)
			;
	n = (size_t)(p - s);
	if (n >= sizeof(buf) || name_char(*p))
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, NULL);
	return p;
}

/* What the name [s, e), followed by @next, stands for in @r: kind, index. */
static void resolve(const struct recipe *r, const char *s, const char *e, const char *next,
		    struct rtok *t)
{
	static const char *const fns[] = { "min", "max", "d_ratio" };

	for (unsigned i = 0; i < 3; i++)
		if (name_eq(s, e, fns[i]) && *next == '(') {
			t->kind = (uint8_t)(RT_MIN + i);
			return;
		}
	t->kind = RT_UNKNOWN;
	if (name_eq(s, e, "width"))
		t->kind = RT_WIDTH;
	else if (name_eq(s, e, "smt_on"))
		t->kind = RT_SMT;
	for (unsigned i = 0; t->kind == RT_UNKNOWN && r && i < r->nnodes; i++)
		if (name_eq(s, e, r->nodes[i].metric))
			*t = (struct rtok){ .kind = RT_NODE, .aux = (uint8_t)i };
	for (unsigned i = 0; t->kind == RT_UNKNOWN && r && i < r->nevents; i++)
		if (name_eq(s, e, r->events[i].name))
			*t = (struct rtok){ .kind = RT_EVENT, .aux = (uint8_t)i };
	if (e - s == 2 && memcmp(s, "if", 2) == 0)
		t->flags = RT_IF;
	else if (e - s == 4 && memcmp(s, "else", 4) == 0)
		t->flags = RT_ELSE;
}

size_t recipe_tokenise(const struct recipe *r, const char *text, struct rtok *out, size_t cap)
{
	const char *p = text;
	size_t n = 0;

	for (;;) {
		struct rtok t = { 0 };
		const char *s = p = skip_space(p);

		if ((*p >= '0' && *p <= '9') || *p == '.') {
			p = number(s, &t.num);
			t.kind = p ? RT_NUM : RT_BADNUM;
		} else if (name_start(*p)) {
			while (name_char(*p)) {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			resolve(r, s, p, skip_space(p), &t);
		} else {
			t.kind = *p ? RT_CHAR : RT_END;
			t.aux = (uint8_t)*p;
			p += *p ? 1 : 0;
		}
		t.off = (uint32_t)(s - text);
		t.end = p ? (uint32_t)(p - text) : t.off;
		if (n < cap)
			out[n] = t;
		n++;
		if (t.kind == RT_BADNUM) { /* the evaluator fails there: nothing after it counts */
			t = (struct rtok){ .kind = RT_END, .off = t.off, .end = t.off };
			if (n < cap)
				out[n] = t;
			n++;
		}
		if (t.kind == RT_END)
			return n;
	}
}

/* ------------------------------------------------------------ the cache */

#define CACHE_MAX 64 /* table recipes cached; one beyond is tokenised at each use */

static _Atomic(struct rtok_recipe *) cache[CACHE_MAX];

/* The index of @r in recipe_at() if it is a table recipe (the very
 * entry, not a copy of it), else -1. */
static long table_index(const struct recipe *r)
{
	size_t n = recipe_count();

	for (size_t i = 0; i < n; i++)
		if (recipe_at(i) == r)
			return (long)i;
	return -1;
}

static struct rtok_recipe *build(const struct recipe *r)
{
	struct rtok_recipe *k;
	size_t total = 0, at = 0;

	for (unsigned i = 0; i < r->nnodes; i++)
		if (r->nodes[i].expr)
			total += recipe_tokenise(r, r->nodes[i].expr, NULL, 0);
	k = malloc(sizeof(*k) + total * sizeof(k->toks[0]));
	if (!k)
		return NULL;
	memset(k->node, 0, sizeof(k->node));
	for (unsigned i = 0; i < r->nnodes; i++) {
		if (!r->nodes[i].expr)
			continue;
		k->node[i] = &k->toks[at];
		at += recipe_tokenise(r, r->nodes[i].expr, &k->toks[at], total - at);
	}
	k->slots = recipe_node_index(r, "SLOTS");
	for (unsigned i = 0; i < r->nnodes; i++) {
		k->frac[i] = -1;
		for (int m = 0; m < TMA_NMETRICS; m++)
			if (strcmp(td_metric_name((enum td_metric)m), r->nodes[i].metric) == 0) {
				k->frac[i] = (int8_t)m;
				break;
			}
	}
	return k;
}

const struct rtok_recipe *recipe_tokens(const struct recipe *r)
{
	long i = r ? table_index(r) : -1;
	struct rtok_recipe *k, *none = NULL;

	if (i < 0 || i >= CACHE_MAX || !recipe_ok(r))
		return NULL;
	k = atomic_load_explicit(&cache[i], memory_order_acquire);
	if (k)
		return k;
	k = build(r);
	if (!k)
		return NULL;
	/* the first thread to build installs its tokens; the others use them */
	if (!atomic_compare_exchange_strong_explicit(&cache[i], &none, k, memory_order_acq_rel,
						     memory_order_acquire)) {
		free(k);
		k = none;
	}
	return k;
}

int recipe_prepare(const struct recipe *r)
{
	long i = r ? table_index(r) : -1;

	if (i < 0 || i >= CACHE_MAX || !recipe_ok(r))
		return 0;
	return recipe_tokens(r) ? 0 : -ENOMEM;
}
