/*
 * t/0801-recipe-eval - the formula evaluator of msr/recipe/recipe.h: precedence
 * and associativity as in C and perf's MetricExpr (tools/perf/util/expr.y:
 * "*" and "/" bind tighter than "+" and "-", all left-associative, "if
 * ... else" loosest), perf's d_ratio/min/max, the "if" that only counts the
 * branch it takes, and every error with the position it names.  Each
 * expected value is worked by hand in the comment beside it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "t/tap.h"

#define EPS 1e-12

static const struct recipe_env smt_off = { .smt_on = false }, smt_on = { .smt_on = true };

static void value(const char *expr, const struct recipe_env *env, double want)
{
	struct recipe_error e = { 0 };
	double v = NAN;
	int rc = recipe_expr_eval(expr, NULL, NULL, env, &v, &e);

	if (rc)
		printf("#   rc %d: %s at %zu\n", rc, e.what ? e.what : "?", e.pos);
	check_dbl(rc == 0 ? v : NAN, want, EPS, expr);
}

static void error(const char *expr, int want_rc, const char *what, size_t pos)
{
	struct recipe_error e = { 0 };
	double v = 0;
	int rc = recipe_expr_eval(expr, NULL, NULL, &smt_off, &v, &e);

	check_int(rc, ==, want_rc, expr);
	check_str(e.what, what, "  the error says why");
	check_u64(e.pos, ==, pos, "  and where (byte offset)");
	ok(e.expr && strcmp(e.expr, expr) == 0, "  and in which formula");
}

static void precedence(void)
{
	value("1 + 2 * 3", &smt_off, 7);          /* 2*3 first: 1 + 6 */
	value("(1 + 2) * 3", &smt_off, 9);        /* parentheses: 3 * 3 */
	value("2 - 3 - 4", &smt_off, -5);         /* left-assoc: (2-3)-4 */
	value("8 / 4 / 2", &smt_off, 1);          /* left-assoc: (8/4)/2 */
	value("2 * 3 / 4", &smt_off, 1.5);        /* (2*3)/4 */
	value("-2 * 3", &smt_off, -6);            /* unary minus binds tightest */
	value("2 * -3", &smt_off, -6);
	value("- -2", &smt_off, 2);
	value("10 - 2 * 3 + 4 / 2", &smt_off, 6); /* 10 - 6 + 2 */
	value("1e3 / 4", &smt_off, 250);          /* exponent: 1000/4 */
	value(".5 + 0.25", &smt_off, 0.75);
	value("  3\t*\n2  ", &smt_off, 6);        /* blanks anywhere between tokens */
	value("min(3, 2) + max(3, 2)", &smt_off, 5); /* 2 + 3 */
	value("d_ratio(1, 4)", &smt_off, 0.25);
	value("d_ratio(1, 0)", &smt_off, 0);      /* perf's d_ratio: 0 when b = 0 */
	value("max(1 - 1.5, 0)", &smt_off, 0);
	value("width + smt_on", &smt_off, 0);      /* no recipe: width 0; SMT off: 0 */
	value("smt_on", &smt_on, 1);
	value("1 if smt_on else 2", &smt_on, 1);
	value("1 if smt_on else 2", &smt_off, 2);
	value("1 + 2 if 0 else 3 + 4", &smt_off, 7);  /* "if" loosest: (1+2) if 0 else (3+4) */
	value("1 if 0 else 2 if 1 else 3", &smt_off, 2); /* right-nested: 1 if 0 else (2 if 1 else 3) */
	value("(1 if 1 else 2) * 10", &smt_off, 10);
	value("1 if 1 else 1 / 0", &smt_off, 1);   /* the branch not taken may divide by 0 */
	value("1 / 0 if 0 else 5", &smt_off, 5);
	/* comparisons (perf's expr.y: "<" and ">" bind less than "+" and "-",
	 * more than "if"): 1 or 0 */
	value("2 > 1", &smt_off, 1);
	value("2 < 1", &smt_off, 0);
	value("1 > 1", &smt_off, 0);              /* strict */
	value("1 + 2 > 2 + 0.5", &smt_off, 1);    /* (1+2) > (2+0.5): 3 > 2.5 */
	value("3 if 1.9 > 1.8 else 2", &smt_off, 3); /* perf's "A if IPC > 1.8 else B" */
	value("3 if 1.8 > 1.8 else 2", &smt_off, 2);
	value("10 - (4 if 0.05 > 0.1 else 0)", &smt_off, 10); /* perf's "- (X if fl > 0.1 else 0)" */
	value("10 - (4 if 0.12 > 0.1 else 0)", &smt_off, 6);
}

/* The events a formula needs: a condition on counts takes both branches. */
static void needed(void)
{
	static const struct recipe_event ev[] = {
		{ .name = "A", .ctr = RECIPE_CTR_GP, .event = 1 },
		{ .name = "B", .ctr = RECIPE_CTR_GP, .event = 2 },
		{ .name = "C", .ctr = RECIPE_CTR_GP, .event = 3 },
		{ .name = "D", .ctr = RECIPE_CTR_GP, .event = 4 },
	};
	static const struct recipe_node nd[] = { { .metric = "SLOTS", .level = 0, .expr = "A" } };
	struct recipe r = { .name = "t", .variant = "t", .width = 4, .events = ev, .nevents = 4,
			    .nodes = nd, .nnodes = 1 };
	double c[4] = { 1, 2, 30, 40 };
	uint32_t m = 0;
	double v = 0;

	/* on a count: the condition's A and both branches' C and D (bits 0, 2, 3 = 0xd) */
	check_int(recipe_expr_needed(&r, &smt_off, "C if A > 1.8 else D", &m), ==, 0, "needed: parses");
	check_u64(m, ==, 0xd, "a condition on counts needs both branches' events (A, C, D)");
	/* on a variable: only the branch taken (SMT off: D, bit 3) */
	check_int(recipe_expr_needed(&r, &smt_off, "C if smt_on else D", &m), ==, 0, "needed: parses");
	check_u64(m, ==, 0x8, "a condition on smt_on needs the branch taken only (D)");
	/* the counts choose: A = 1 is not > 1.8: D = 40; B = 2 is: C = 30 */
	check_int(recipe_expr_eval("C if A > 1.8 else D", &r, c, &smt_off, &v, NULL), ==, 0, "eval");
	check_dbl(v, 40, EPS, "A = 1, not > 1.8: D = 40");
	check_int(recipe_expr_eval("C if B > 1.8 else D", &r, c, &smt_off, &v, NULL), ==, 0, "eval");
	check_dbl(v, 30, EPS, "B = 2 > 1.8: C = 30");
}

static void errors(void)
{
	error("1 +", -EINVAL, "expected a number, a name or '('", 3);
	error("(1 + 2", -EINVAL, "expected ')'", 6);
	error("foo + 1", -EINVAL, "unknown name", 0);
	error("2 * bar.baz", -EINVAL, "unknown name", 4);
	error("1 2", -EINVAL, "unexpected character", 2);
	error("0x10", -EINVAL, "malformed number", 0);
	error("min(1 2)", -EINVAL, "expected ','", 6);
	error("max(1, 2", -EINVAL, "expected ')'", 8);
	error("1 if 1", -EINVAL, "expected 'else'", 6);
	error("1 > ", -EINVAL, "expected a number, a name or '('", 4);
	error("", -EINVAL, "expected a number, a name or '('", 0);
	error("4 / (2 - 2)", -EDOM, "division by zero", 2);
	error("1 + 1 / 0 if 1 else 0", -EDOM, "division by zero", 6);
	error("1 if 1 / 0 else 2", -EDOM, "division by zero", 7); /* the condition is always used */

	char deep[300];
	memset(deep, '(', 100);
	strcpy(deep + 100, "1");
	memset(deep + 101, ')', 100);
	deep[201] = '\0';
	error(deep, -EINVAL, "formula nested too deeply", 64); /* depth 65 at the 64th "(" (offset 63): its inside starts at 64 */
}

/* Names: events of a recipe, escapes, missing counts. */
static void names(void)
{
	const struct recipe *pm = recipe_find_variant("intel-perf-metrics", "golden-cove");
	const struct recipe *skl = recipe_find_variant("intel-pre-icl-l1", "skylake");
	double c[RECIPE_EVENTS_MAX], v = 0;
	struct recipe_error e = { 0 };
	int rc;

	ok(pm && skl, "recipes found");
	if (!pm || !skl)
		return;
	for (int i = 0; i < RECIPE_EVENTS_MAX; i++)
		c[i] = NAN;
	c[recipe_event_index(pm, "topdown-retiring")] = 300;
	c[recipe_event_index(pm, "TOPDOWN.SLOTS")] = 1000;
	/* perf's escape: topdown\-retiring is the event topdown-retiring: 300 / 1000 */
	rc = recipe_expr_eval("topdown\\-retiring / TOPDOWN.SLOTS", pm, c, &smt_off, &v, &e);
	check_int(rc, ==, 0, "an escaped name is an event");
	check_dbl(v, 0.3, EPS, "topdown\\-retiring / TOPDOWN.SLOTS = 300/1000");
	/* without the escape it is topdown minus retiring: neither is a name */
	rc = recipe_expr_eval("topdown-retiring", pm, c, &smt_off, &v, &e);
	check_int(rc, ==, -EINVAL, "topdown-retiring unescaped is a subtraction");
	check_str(e.what, "unknown name", "  of unknown names");
	/* a missing count names the event and where the formula uses it */
	rc = recipe_expr_eval("1 + topdown\\-bad\\-spec", pm, c, &smt_off, &v, &e);
	check_int(rc, ==, -ENODATA, "a NAN count is missing");
	check_str(e.event, "topdown-bad-spec", "  the table's name of the event");
	check_u64(e.pos, ==, 4, "  at its place in the formula");
	/* a node of the recipe: PERF_METRICS_SUM needs all four level-1 fields */
	rc = recipe_expr_eval("PERF_METRICS_SUM", pm, c, &smt_off, &v, &e);
	check_int(rc, ==, -ENODATA, "a node's missing count");
	check_str(e.metric, "PERF_METRICS_SUM", "  names the node's formula");
	check_str(e.event, "topdown-fe-bound", "  and the first event it lacks");
	/* a count below 0 is a count (net of the empty bracket's): -50 / 1000 */
	c[recipe_event_index(pm, "topdown-bad-spec")] = -50;
	rc = recipe_expr_eval("topdown\\-bad\\-spec / TOPDOWN.SLOTS", pm, c, &smt_off, &v, &e);
	check_int(rc, ==, 0, "a count below 0 is a value");
	check_dbl(v, -0.05, EPS, "  topdown-bad-spec / TOPDOWN.SLOTS = -50/1000");
	/* the branch not taken: THREAD_ANY is not needed with SMT off */
	c[recipe_event_index(skl, "CPU_CLK_UNHALTED.THREAD")] = 1000;
	for (int i = 0; i < RECIPE_EVENTS_MAX; i++)
		if (i != recipe_event_index(skl, "CPU_CLK_UNHALTED.THREAD"))
			c[i] = NAN;
	rc = recipe_expr_eval("CORE_CLKS", skl, c, &smt_off, &v, &e);
	check_int(rc, ==, 0, "CORE_CLKS with SMT off needs THREAD only");
	check_dbl(v, 1000, EPS, "CORE_CLKS = CPU_CLK_UNHALTED.THREAD = 1000");
	rc = recipe_expr_eval("CORE_CLKS", skl, c, &smt_on, &v, &e);
	check_int(rc, ==, -ENODATA, "CORE_CLKS with SMT on needs THREAD_ANY");
	check_str(e.event, "CPU_CLK_UNHALTED.THREAD_ANY", "  named");
	check_int(recipe_event_index(skl, "uops_issued.any"), ==,
		  recipe_event_index(skl, "UOPS_ISSUED.ANY"), "event look-up is case-insensitive");
	check_int(recipe_event_index(skl, "UOPS_ISSUED.NONE"), ==, -ENOENT, "unknown event: -ENOENT");
}

/* A recipe built here: a cycle, a node without SLOTS. */
static void structure(void)
{
	static const struct recipe_event ev[] = { { .name = "E", .ctr = RECIPE_CTR_GP, .event = 1 } };
	static const struct recipe_node cyc[] = {
		{ .metric = "SLOTS", .level = 0, .expr = "E" },
		{ .metric = "tma_retiring", .level = 1, .expr = "tma_frontend_bound / SLOTS" },
		{ .metric = "tma_frontend_bound", .level = 1, .expr = "tma_retiring * SLOTS" },
	};
	static const struct recipe_node noslots[] = {
		{ .metric = "tma_retiring", .level = 1, .expr = "E" },
	};
	struct recipe r = { .name = "t", .variant = "t", .width = 4, .events = ev, .nevents = 1,
			    .nodes = cyc, .nnodes = 3 };
	struct recipe_result res;
	struct recipe_error e = { 0 };
	double c[1] = { 10 };

	check_int(recipe_eval(&r, c, NULL, 1, &res, &e), ==, -EINVAL, "a circular reference");
	check_str(e.what, "circular reference", "  said");
	check_str(e.metric, "tma_frontend_bound", "  in the formula that closes the circle");
	r.nodes = noslots;
	r.nnodes = 1;
	check_int(recipe_eval(&r, c, NULL, 1, &res, &e), ==, -EINVAL, "a recipe without SLOTS");
	check_int(recipe_eval(&r, c, NULL, 3, &res, &e), ==, -EINVAL, "level 3");
	check_int(recipe_eval(NULL, c, NULL, 1, &res, &e), ==, -EINVAL, "no recipe");
}

static void lookup(void)
{
	const struct recipe *r;

	r = recipe_find("intel-pre-icl-l1", "Skylake");
	check_str(r ? r->variant : NULL, "skylake", "intel-pre-icl-l1 for uarch Skylake");
	r = recipe_find("intel-pre-icl-l1", "Haswell");
	check_str(r ? r->variant : NULL, "haswell", "intel-pre-icl-l1 for uarch Haswell");
	r = recipe_find("intel-ecore-l1", "Darkmont");
	check_str(r ? r->variant : NULL, "skymont", "Darkmont: the Skymont variant (CWF JSON)");
	r = recipe_find("amd-zen5", NULL);
	check_str(r ? r->variant : NULL, "zen5", "the default variant");
	r = recipe_find_variant("intel-pre-icl-l1", "CASCADE");
	ok(!r && errno == ENODEV, "an unknown variant: NULL, ENODEV");
	r = recipe_find_variant("intel-ecore-l1", "GRACEMONT");
	check_str(r ? r->variant : NULL, "gracemont", "a variant case-insensitively");
	r = recipe_find_variant("intel-ecore-l1", "crestmont");
	check_str(r ? r->variant : NULL, "crestmont", "a uarch as the variant");
	r = recipe_find("intel-post-icl", NULL);
	ok(!r && errno == ENOENT, "an unknown recipe: NULL, ENOENT");
	r = recipe_find("amd-zen4", "Zen 5");
	ok(!r && errno == ENODEV, "amd-zen4 serves no Zen 5: ENODEV");
}

int main(void)
{
	precedence();
	needed();
	errors();
	names();
	structure();
	lookup();
	return done_testing();
}
