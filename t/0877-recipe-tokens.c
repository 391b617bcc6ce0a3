/*
 * t/0877-recipe-tokens - the evaluator reads formulas as tokens cut once
 * (msr/recipe/recipe_tokens.c); the results must be those of the character-by-
 * character reader it replaced, kept unchanged in t/recipe-reference.c.
 * For every recipe of the tables, at levels 1 and 2, SMT on and off, and a
 * set of count vectors (all ones, all zeros, each event missing, each event
 * zero or dominant, pseudo-random counts), recipe_eval must give the same
 * rc, the same bits in every value and the same error (what, where, which
 * formula); recipe_needed the same mask; each formula read alone
 * (recipe_expr_eval, recipe_expr_needed) the same.  Then malformed and
 * edge-case formulas, and recipes outside the tables (read without the
 * cache), one with a circular reference.  The vectors are checked to take
 * both branches of the tables' "if ... else" formulas (the reference says
 * which branch each condition picks).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "msr/recipe/recipe_int.h"
#include "t/tap.h"

int ref_recipe_expr_eval(const char *text, const struct recipe *r, const double *counts,
			 const struct recipe_env *env, double *out, struct recipe_error *err);
int ref_recipe_eval(const struct recipe *r, const double *counts, const struct recipe_env *env,
		    int level, struct recipe_result *out, struct recipe_error *err);
int ref_recipe_needed(const struct recipe *r, const struct recipe_env *env, int level,
		      uint32_t *mask);
int ref_recipe_expr_needed(const struct recipe *r, const struct recipe_env *env,
			   const char *expr, uint32_t *mask);

static unsigned mismatches, compared;

/* Two texts the same: equal pointers, or both non-NULL and equal strings. */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/*
 * The error fields equal; .what and .metric may be static text of either
 * evaluator ("SLOTS" of the zero-slots error): compared as text.
 */
static bool same_err(const struct recipe_error *a, const struct recipe_error *b)
{
	return same_str(a->metric, b->metric) && a->expr == b->expr && a->pos == b->pos &&
	       same_str(a->what, b->what) && a->name == b->name && a->event == b->event;
}

static bool same_res(const struct recipe_result *a, const struct recipe_result *b)
{
	if (a->level != b->level || memcmp(&a->slots, &b->slots, sizeof(a->slots)) ||
	    memcmp(a->frac, b->frac, sizeof(a->frac)) || a->nextra != b->nextra ||
	    !same_err(&a->undefined, &b->undefined))
		return false;
	for (unsigned i = 0; i < a->nextra && i < RECIPE_EXTRA_MAX; i++)
		if (a->extra[i].metric != b->extra[i].metric || a->extra[i].parent != b->extra[i].parent ||
		    a->extra[i].level != b->extra[i].level ||
		    memcmp(&a->extra[i].frac, &b->extra[i].frac, sizeof(double)))
			return false;
	return true;
}

/* Count one comparison; @detail (new memory or NULL) printed if they differ, then freed. */
static void note(bool same, const char *what, const struct recipe *r, char *detail)
{
	compared++;
	if (!same && mismatches++ < 20)
		printf("# differs: %s, recipe %s/%s: %s\n", what, r ? r->name : "-",
		       r ? r->variant : "-", detail ? detail : "");
	free(detail);
}

static void eval_both(const struct recipe *r, const double *counts, const struct recipe_env *env,
		      int level)
{
	struct recipe_result a, b;
	struct recipe_error ea, eb;
	int ra, rb;

	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	memset(&ea, 0, sizeof(ea));
	memset(&eb, 0, sizeof(eb));
	ra = recipe_eval(r, counts, env, level, &a, &ea);
	rb = ref_recipe_eval(r, counts, env, level, &b, &eb);
	bool same = ra == rb && same_err(&ea, &eb) && (ra || same_res(&a, &b));

	note(same, "recipe_eval", r, same ? NULL : t_strf("level %d smt %d rc %d/%d what %s/%s pos %zu/%zu", level, env->smt_on, ra, rb,
		    ea.what ? ea.what : "-", eb.what ? eb.what : "-", ea.pos, eb.pos));
}

static void expr_both(const char *text, const struct recipe *r, const double *counts,
		      const struct recipe_env *env)
{
	struct recipe_error ea = { 0 }, eb = { 0 };
	double va = 0, vb = 0;
	uint32_t ma = 0, mb = 0;
	int ra = recipe_expr_eval(text, r, counts, env, &va, &ea);
	int rb = ref_recipe_expr_eval(text, r, counts, env, &vb, &eb);

	bool same = ra == rb && same_err(&ea, &eb) && !memcmp(&va, &vb, sizeof(va));

	note(same, "recipe_expr_eval", r, same ? NULL : t_strf("\"%s\": rc %d/%d what %s/%s pos %zu/%zu", text, ra, rb,
		       ea.what ? ea.what : "-", eb.what ? eb.what : "-", ea.pos, eb.pos));
	if (!r)
		return;
	ra = recipe_expr_needed(r, env, text, &ma);
	rb = ref_recipe_expr_needed(r, env, text, &mb);
	note(ra == rb && ma == mb, "recipe_expr_needed", r, NULL);
}

static void needed_both(const struct recipe *r, const struct recipe_env *env, int level)
{
	uint32_t ma = 0, mb = 0;
	int ra = recipe_needed(r, env, level, &ma), rb = ref_recipe_needed(r, env, level, &mb);

	note(ra == rb && ma == mb, "recipe_needed", r, NULL);
}

/* A reproducible pseudo-random count in [0, 2^30). */
static double lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*s >> 34);
}

/* The branch of an "if" each condition of the tables took: bit 0 false, bit 1 true. */
static unsigned seen_ipc, seen_fetch;

static void branches(const struct recipe *r, const double *counts, const struct recipe_env *env)
{
	double v;

	if (recipe_node_index(r, "IPC") >= 0 &&
	    ref_recipe_expr_eval("IPC > 1.8", r, counts, env, &v, NULL) == 0)
		seen_ipc |= v != 0 ? 2u : 1u;
	if (recipe_node_index(r, "tma_fetch_latency") >= 0 &&
	    ref_recipe_expr_eval("tma_fetch_latency > 0.1", r, counts, env, &v, NULL) == 0)
		seen_fetch |= v != 0 ? 2u : 1u;
}

static void vector(const struct recipe *r, const double *counts)
{
	static const struct recipe_env envs[2] = { { .smt_on = false }, { .smt_on = true } };

	for (int e = 0; e < 2; e++) {
		for (int level = 1; level <= 2; level++)
			eval_both(r, counts, &envs[e], level);
		for (unsigned i = 0; i < r->nnodes; i++)
			if (r->nodes[i].expr)
				expr_both(r->nodes[i].expr, r, counts, &envs[e]);
		branches(r, counts, &envs[e]);
	}
}

/* Every vector on recipe @r. */
static void recipe_all(const struct recipe *r)
{
	static const struct recipe_env envs[2] = { { .smt_on = false }, { .smt_on = true } };
	double c[RECIPE_EVENTS_MAX];
	uint64_t seed = 0x0877;
	unsigned n = r->nevents;

	for (int e = 0; e < 2; e++)
		for (int level = 0; level <= 3; level++)
			needed_both(r, &envs[e], level);
	for (unsigned i = 0; i < n; i++)
		c[i] = 1;
	vector(r, c);                       /* all ones */
	for (unsigned i = 0; i < n; i++)
		c[i] = 0;
	vector(r, c);                       /* all zeros: SLOTS zero, every divisor zero */
	for (unsigned k = 0; k < n; k++) {
		for (unsigned i = 0; i < n; i++)
			c[i] = 1000 + 7 * i;
		c[k] = NAN;                 /* one count missing */
		vector(r, c);
		c[k] = 0;                   /* one divisor zero */
		vector(r, c);
		c[k] = 1e7;                 /* one event dominant: conditions flip */
		vector(r, c);
	}
	for (int v = 0; v < 16; v++) {
		for (unsigned i = 0; i < n; i++)
			c[i] = lcg(&seed);
		vector(r, c);
	}
}

/* Formulas alone, malformed and edge cases, on no recipe and on @r. */
static void texts(const struct recipe *r)
{
	static const char *const bad[] = {
		"", "   ", "1 +", "(1", "(1))", "min(1 2)", "max(1,2", "max(1,2,3)", "2if 1 else 3",
		"1 if 2", "1 if 2 else", "a b", "1.5.3", "@", "1 @", "1e", "1e+", "1e+5", ".5e-3x",
		".", "x\\", "\\", "if", "else", "1 if smt_on else 2", "1 if smt_on > 0 else 2 if 1 else 3",
		"min (1, 2)", "min", "d_ratio(1, 0)", "d_ratio(4, 2)", "1/0", "1/0 if 0 else 2",
		"(1/0) * 0", "width * 2", "smt_on", " 1 ", "1 < 2 < 3", "1 > 2", "2 - -3", "- - -1",
		"tma\\_retiring", "SLOTS / 2", "SLOTS +", "tma_retiring + unknown_name",
		"UOPS_ISSUED.ANY", "uops_issued.any", "min(SLOTS, 1) if SLOTS < 0 else max(1, 2)",
		"0123456789012345678901234567890123456789012345678901234567890123",
		"1 \t\n+ \n2", "1\x80", "(((1)))", "1 ifx else 2", "1 if0 else 2", "else 1",
	};
	static const struct recipe_env env = { .smt_on = true };
	double c[RECIPE_EVENTS_MAX];
	char *deep = malloc(300), *minus = malloc(300), *wide = malloc(2000);

	for (unsigned i = 0; i < RECIPE_EVENTS_MAX; i++)
		c[i] = 3 + i;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		expr_both(bad[i], NULL, NULL, &env);
		if (r)
			expr_both(bad[i], r, c, &env);
	}
	/* nested past DEPTH_MAX (64) both ways; a formula of more than 64 tokens */
	for (int d = 60; d < 70; d++) {
		memset(deep, '(', (size_t)d);
		strcpy(deep + d, "1");
		memset(deep + d + 1, ')', (size_t)d);
		deep[2 * d + 1] = '\0';
		expr_both(deep, NULL, NULL, &env);
		memset(minus, '-', (size_t)d);
		strcpy(minus + d, " 1");
		expr_both(minus, NULL, NULL, &env);
		for (int i = 0; i < d; i++)
			memcpy(deep + 2 * i, "( ", 2);
		strcpy(deep + 2 * d, "1");
		expr_both(deep, NULL, NULL, &env);  /* the error's position: before the blank */
		for (int i = 0; i < d; i++)
			memcpy(minus + 2 * i, "- ", 2);
		strcpy(minus + 2 * d, "1");
		expr_both(minus, NULL, NULL, &env);
	}
	strcpy(wide, "0");
	for (int i = 1; i < 200; i++)
		strcat(wide, i % 3 ? " + 1" : " * 2");
	expr_both(wide, NULL, NULL, &env);
	strcat(wide, " +");
	expr_both(wide, NULL, NULL, &env);
	free(deep);
	free(minus);
	free(wide);
}

/* Recipes outside the tables: not cached, one circular, some malformed. */
static void custom(void)
{
	static const struct recipe_event ev[2] = { { .name = "E0" }, { .name = "E1" } };
	static const struct recipe_node loop[] = {
		{ "SLOTS", 0, NULL, "4 * E0", "t" },
		{ "tma_retiring", 1, NULL, "tma_bad_speculation + E1 / SLOTS", "t" },
		{ "tma_bad_speculation", 1, NULL, "tma_retiring", "t" },
	};
	static const struct recipe_node bad[] = {
		{ "SLOTS", 0, NULL, "4 * E0", "t" },
		{ "tma_retiring", 1, NULL, "E1 / SLOTS", "t" },
		{ "tma_frontend_bound", 1, NULL, "E1 / (SLOTS", "t" },
		{ "tma_backend_bound", 1, NULL, "E1 / 0 if E0 > 1 else 2x", "t" },
	};
	static const struct recipe_node ok_[] = {
		{ "SLOTS", 0, NULL, "width * E0", "t" },
		{ "tma_retiring", 1, NULL, "E1 / SLOTS if smt_on else d_ratio(E1, SLOTS)", "t" },
		{ "tma_frontend_bound", 1, NULL, "1 - tma_retiring", "t" },
		{ "smt_contention", 1, NULL, "max(0, min(1, E1 / E0))", "t" },
		{ "tma_heavy_operations", 2, "tma_retiring", "tma_retiring / 0", "t" },
	};
	static const struct recipe rs[] = {
		{ .name = "t-loop", .variant = "t", .width = 4, .events = ev, .nevents = 2,
		  .nodes = loop, .nnodes = 3 },
		{ .name = "t-bad", .variant = "t", .width = 4, .events = ev, .nevents = 2,
		  .nodes = bad, .nnodes = 4 },
		{ .name = "t-ok", .variant = "t", .width = 4, .events = ev, .nevents = 2,
		  .nodes = ok_, .nnodes = 5 },
	};
	static const double cs[][2] = { { 1, 1 }, { 10, 3 }, { 0, 0 }, { NAN, 2 }, { 2, NAN } };

	for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
		for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); k++)
			vector(&rs[i], cs[k]);
	for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
		for (int level = 1; level <= 2; level++)
			needed_both(&rs[i], &(struct recipe_env){ 0 }, level);
}

int main(void)
{
	size_t n = recipe_count();

	ok(n > 0, "the tables hold %zu recipes", n);
	for (size_t i = 0; i < n; i++) {
		const struct recipe *r = recipe_at(i);
		struct recipe copy = *r; /* the same recipe outside the table: no cache */

		recipe_all(r);
		texts(r);
		recipe_all(&copy);
	}
	texts(NULL);
	custom();
	ok(seen_ipc == 3, "the vectors take both branches of \"IPC > 1.8\" (seen %u)", seen_ipc);
	ok(seen_fetch == 3, "and of \"tma_fetch_latency > 0.1\" (seen %u)", seen_fetch);
	ok(compared > 10000, "%u comparisons made", compared);
	ok(mismatches == 0, "the tokenised evaluator agrees with the reference in all of them "
	   "(%u differ)", mismatches);
	/* recipe_prepare: a table recipe's tokens kept (the same ones its
	 * evaluations use), nothing to keep for a recipe outside the tables */
	{
		const struct recipe *r = recipe_at(0);
		struct recipe copy = *r;

		ok(recipe_prepare(r) == 0, "recipe_prepare of the table's %s:%s", r->name,
		   r->variant);
		ok(recipe_tokens(r) != NULL && recipe_tokens(r) == recipe_tokens(r),
		   "its tokens are kept, one set");
		ok(recipe_prepare(&copy) == 0 && recipe_tokens(&copy) == NULL,
		   "a recipe outside the tables: 0, nothing kept");
		ok(recipe_prepare(NULL) == 0, "recipe_prepare(NULL): 0");
	}
	return done_testing();
}
