/*
 * t/1140-region-lazy - a region pair's end evaluates no formula of the
 * recipe and allocates nothing; the formulas run when the region is read
 * (issue 30 of the project, "The region table"; bench/region.h,
 * bench/tma.h tma_quick_valid).
 *
 * Linked with ld's --wrap (Makefile.am): every call of the recipe
 * evaluator (msr/recipe/recipe.h recipe_eval, recipe_expr_eval) and of
 * malloc, calloc and realloc from the library's objects is counted here.
 *
 * (a) Pairs of PERF_METRICS readings that are numbers (the four level-1
 *     bytes 0x66 0x33 0x33 0x33 summing to 255, level-2 bytes below their
 *     parents, slots growing): with the delta method and metrics-clear
 *     segments, alone and nested three deep, at levels 1 and 2, no
 *     evaluation and no allocation at any begin or end; reading the
 *     region's statistics evaluates each pair kept (one evaluation a pair
 *     at least).  Before issue 30 every pair's end ran recipe_eval.
 * (b) A pair that is no number (equal slots: zero slots) is still
 *     counted invalid for zero slots (the recipe decides why).
 * (c) Which read sets the test without formulas serves: the
 *     intel-perf-metrics recipe of PERF_METRICS alone and perf's counts
 *     (linux tools/perf/pmu-events/arch/x86/sapphirerapids/
 *     spr-metrics.json: each level-1 node its topdown-* count over the sum
 *     of the four), never Sunny Cove's variant (its level-1 nodes subtract
 *     INT_MISC.UOP_DROPPING / SLOTS: icelake_metrics.json), an event
 *     recipe, or one pass of several; and vectors worked by hand at its
 *     edges: zero slots, a level-1 sum of exactly 0, a negative sum for
 *     perf's counts, TD_FLAG_L1_SUM, TD_FLAG_SLOTS_BACK.
 * (d) The public library on the simulated Lunar Lake P-core (rdpmc,
 *     metrics-clear and delta regions, $SHARED_CPUID): no evaluation and
 *     no allocation between baretma_open and the first read.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/region.h"
#include "bench/tma.h"
#include "include/baretma.h"
#include "msr/recipe/recipe.h"
#include "t/tap.h"

/* ------------------------------------------------------------ counters */

static unsigned long evals, allocs;

int __real_recipe_eval(const struct recipe *r, const double *counts,
		       const struct recipe_env *env, int level, struct recipe_result *out,
		       struct recipe_error *err);
int __wrap_recipe_eval(const struct recipe *r, const double *counts,
		       const struct recipe_env *env, int level, struct recipe_result *out,
		       struct recipe_error *err);
int __real_recipe_expr_eval(const char *expr, const struct recipe *r, const double *counts,
			    const struct recipe_env *env, double *out, struct recipe_error *err);
int __wrap_recipe_expr_eval(const char *expr, const struct recipe *r, const double *counts,
			    const struct recipe_env *env, double *out, struct recipe_error *err);
void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__wrap_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

int __wrap_recipe_eval(const struct recipe *r, const double *counts,
		       const struct recipe_env *env, int level, struct recipe_result *out,
		       struct recipe_error *err)
{
	evals++;
	return __real_recipe_eval(r, counts, env, level, out, err);
}

int __wrap_recipe_expr_eval(const char *expr, const struct recipe *r, const double *counts,
			    const struct recipe_env *env, double *out, struct recipe_error *err)
{
	evals++;
	return __real_recipe_expr_eval(expr, r, counts, env, out, err);
}

void *__wrap_malloc(size_t n)
{
	allocs++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
	allocs++;
	return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
	allocs++;
	return __real_realloc(p, n);
}

/* ------------------------------------------------------------ (a), (b) */

#define PM_NUMBER 0x1a1a1a3333333366ull /* 0x66 0x33 0x33 0x33 | 0x33 0x1a 0x1a 0x1a */

static void pm_read(struct reading *r, uint64_t slots)
{
	memset(r, 0, sizeof(*r));
	r->tsc = slots;
	r->v[0] = slots;
	r->v[1] = PM_NUMBER;
}

/* 200 pairs of "r" inside @depth - 1 open regions; the evaluations and
 * allocations between the first begin and the last end into @ev, @al. */
static void pairs(struct region_table *t, unsigned depth, int level, unsigned long *ev,
		  unsigned long *al)
{
	struct region *r = region_add(t, "r");
	struct reading b;
	uint64_t s = 1000;

	evals = allocs = 0;
	for (unsigned k = 0; k + 1 < depth; k++)
		pm_read(region_open(t, region_add(t, k ? "o1" : "o0")), s += 1000);
	for (unsigned i = 0; i < 200; i++) {
		pm_read(region_open(t, r), s += 1000);
		pm_read(&b, s += 1000);
		region_end(t, r, &b, level);
		if (depth == 1)
			region_epoch_end(t, &(struct region_verdict){ 0 });
	}
	for (unsigned k = depth - 1; k-- > 0;) {
		pm_read(&b, s += 1000);
		region_end(t, region_find(t, k ? "o1" : "o0"), &b, level);
	}
	if (depth > 1)
		region_epoch_end(t, &(struct region_verdict){ 0 });
	*ev = evals;
	*al = allocs;
}

static void table_pairs(bool clear, unsigned depth, int level)
{
	static struct region_table t;
	struct read_set rs;
	struct baretma_region_stats st;
	unsigned long ev, al;
	const char *how = clear ? "metrics-clear" : "delta";

	memset(&t, 0, sizeof(t));
	read_set_perf_metrics(&rs);
	rs.metrics_clear = clear;
	t.rs = &rs;
	if (region_store_new(&t)) {
		skip(4, "no memory for the store");
		return;
	}
	region_prepare(&t, level); /* as a session's open does */
	pairs(&t, depth, level, &ev, &al);
	ok(ev == 0, "%s, depth %u, level %d: 200 pairs, no formula evaluated at their ends "
	   "(%lu evaluations)", how, depth, level, ev);
	ok(al == 0, "%s, depth %u, level %d: ... nothing allocated (%lu)", how, depth, level, al);
	evals = 0;
	region_stats(&t, region_find(&t, "r"), level, &st);
	ok(st.pairs == 200 && st.slots.n == 200 && st.total.invalid == 0,
	   "%s, depth %u, level %d: 200 pairs, all numbers (%llu kept, %llu valid)", how, depth,
	   level, (unsigned long long)st.pairs, (unsigned long long)st.slots.n);
	ok(evals >= 200, "%s, depth %u, level %d: read-out evaluates every pair kept (%lu)", how,
	   depth, level, evals);
	region_store_free(&t);
}

/* (b): a pair of equal slots is no number, counted for zero slots. */
static void zero_slots(void)
{
	static struct region_table t;
	struct read_set rs;
	struct baretma_result res;
	struct region *r;
	struct reading a, b;

	memset(&t, 0, sizeof(t));
	read_set_perf_metrics(&rs);
	t.rs = &rs;
	r = region_add(&t, "z");
	pm_read(&a, 5000);
	pm_read(&b, 5000);
	region_begin(&t, r, &a);
	region_end(&t, r, &b, 2);
	region_epoch_end(&t, &(struct region_verdict){ 0 });
	pm_read(&b, 5000 + 2550);
	region_begin(&t, r, &a);
	region_end(&t, r, &b, 2);
	region_epoch_end(&t, &(struct region_verdict){ 0 });
	region_result(&t, r, 2, &res);
	ok(res.count == 2 && res.invalid == 1 && res.invalid_why.zero_slots == 1 &&
	   res.invalid_why.l1_sum == 0 && res.invalid_why.slots_back == 0,
	   "equal slots: invalid for zero slots, beside a valid pair (count %llu invalid %llu "
	   "zero_slots %llu)", (unsigned long long)res.count, (unsigned long long)res.invalid,
	   (unsigned long long)res.invalid_why.zero_slots);
	/* the valid pair: 2550 slots at 0x66/255 retiring = 40 % */
	check_dbl(res.slots, 2550, 1e-9, "... its totals the valid pair's 2550 slots");
	check_dbl(res.tma[BARETMA_TMA_RETIRING], 40, 1e-9, "... retiring 0x66/255 = 40 %");
}

/* ------------------------------------------------------------------ (c) */

/* Counts of PERF_METRICS's set: slots, then the eight topdown-* in byte order. */
static struct counts pm_counts(double slots, double ret, double bad, double fe, double be,
			       unsigned flags)
{
	struct counts c = { .c = { slots, ret, bad, fe, be }, .flags = flags };

	return c;
}

/* Whether counts_to_tma finds @c a number. */
static bool number(const struct read_set *rs, const struct counts *c, int level)
{
	struct td_result d;

	return !counts_to_tma(rs, c, level, &d) && !(d.flags & TD_FLAGS_INVALID);
}

static void edges(void)
{
	struct read_set pm, perf4, perf8, icl, pass, ecore;
	struct tma_quick q;
	const struct recipe *gm = recipe_find_variant("intel-ecore-l1", "gracemont");
	struct counts c;

	read_set_perf_metrics(&pm);
	read_set_perf_counts(&perf4, 4);
	read_set_perf_counts(&perf8, 8);
	tma_quick_init(&q, &pm, 1);
	ok(q.on, "PERF_METRICS, level 1: decided without the formulas");
	tma_quick_init(&q, &pm, 2);
	ok(q.on, "PERF_METRICS, level 2: decided without the formulas");
	tma_quick_init(&q, &perf4, 1);
	ok(q.on, "perf's slots and four topdown-* counts, level 1: too");
	tma_quick_init(&q, &perf8, 2);
	ok(q.on, "perf's slots and eight topdown-* counts, level 2: too");
	tma_quick_init(&q, &perf4, 2);
	ok(!q.on, "perf's four counts at level 2 (level-2 counts missing): not");

	/* Sunny Cove: PERF_METRICS beside its general-purpose events */
	read_set_perf_metrics(&icl);
	icl.recipe = recipe_find_variant("intel-perf-metrics", "sunny-cove");
	read_set_add_count(&icl, "INT_MISC.UOP_DROPPING");
	read_set_add_count(&icl, "INT_MISC.CLEARS_COUNT");
	tma_quick_init(&q, &icl, 1);
	ok(icl.recipe && !q.on, "intel-perf-metrics:sunny-cove (other level-1 formulas): not");
	pass = pm;
	pass.npasses = 2;
	tma_quick_init(&q, &pass, 1);
	ok(!q.on, "one pass of two: not");
	read_set_init(&ecore, "gracemont");
	ecore.recipe = gm;
	for (unsigned e = 0; gm && e < gm->nevents; e++)
		read_set_add(&ecore, gm->events[e].name, READ_COUNTER, 48, 0);
	tma_quick_init(&q, &ecore, 1);
	ok(gm && !q.on, "an event recipe (intel-ecore-l1): not");

	/* the edges, on PERF_METRICS's set at level 2 */
	tma_quick_init(&q, &pm, 2);
	c = pm_counts(255, 102, 51, 51, 51, 0);
	ok(tma_quick_valid(&q, &c) && number(&pm, &c, 2),
	   "255 slots, 102 51 51 51: a number, said so without the formulas");
	c = pm_counts(0, 102, 51, 51, 51, 0);
	ok(!tma_quick_valid(&q, &c) && !number(&pm, &c, 2), "zero slots: not said a number");
	c = pm_counts(-255, 102, 51, 51, 51, TD_FLAG_SLOTS_BACK);
	ok(!tma_quick_valid(&q, &c) && !number(&pm, &c, 2), "slots back: not said a number");
	c = pm_counts(255, 102, 51, 51, 51, TD_FLAG_L1_SUM);
	ok(!tma_quick_valid(&q, &c) && !number(&pm, &c, 2), "TD_FLAG_L1_SUM: not said a number");
	c = pm_counts(255, 5, -5, 0, 0, 0);
	ok(!tma_quick_valid(&q, &c) && !number(&pm, &c, 2),
	   "level-1 counts summing to exactly 0 (5 - 5): a division by 0, not said a number");
	c = pm_counts(255, 1e15, -1e15, 1, 0, 0);
	ok(!tma_quick_valid(&q, &c) && number(&pm, &c, 2),
	   "a sum of 1 beside counts of 1e15: left to the formulas (a number there)");
	c = pm_counts(255, 10, 10, 10, -40, 0);
	ok(!tma_quick_valid(&q, &c) && number(&pm, &c, 2),
	   "PERF_METRICS, a negative level-1 sum: left to the formulas (a number: it divides "
	   "by the slots)");
	tma_quick_init(&q, &perf8, 2);
	c = pm_counts(255, 10, 10, 10, -40, 0);
	ok(!tma_quick_valid(&q, &c) && !number(&perf8, &c, 2),
	   "perf's counts, a negative level-1 sum: no number, not said one");
	c = pm_counts(255, 102, 51, 51, 51, 0);
	ok(tma_quick_valid(&q, &c) && number(&perf8, &c, 2), "perf's counts, 102 51 51 51: a "
	   "number, said so");
}

/* ------------------------------------------------------------------ (d) */

static void public_lnl(const char *method)
{
	static const char text[] = "ghz 0\naccess_cycles 1000\nretiring 40\n"
		"bad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n";
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	const char *shared = getenv("SHARED_CPUID");
	char dump[4096], prof[] = "/tmp/baretma-1140.XXXXXX", spec[sizeof(prof) + 8];
	struct baretma_region_stats st;
	struct baretma *bm;
	unsigned long ev, al;
	int fd;

	snprintf(dump, sizeof(dump), "%s/libcpuid/master-history/intel/x86-64/lion-cove/"
		 "intel-core-ultra-9-288v.test", shared ? shared : "");
	if (!shared || access(dump, R_OK)) {
		skip(2, "no CPUID dumps ($SHARED_CPUID)");
		return;
	}
	fd = mkostemp(prof, O_CLOEXEC);
	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1)) {
		skip(2, "cannot write the profile");
		return;
	}
	close(fd);
	snprintf(spec, sizeof(spec), "sim:%s", prof);
	setenv("BARETMA_MSR", spec, 1);
	o.cpuid_dump = dump;
	o.backend = "rdpmc";
	o.cpu = 0;
	o.level = 2;
	o.region_method = method;
	if (baretma_open(&bm, &o)) {
		printf("# %s\n", baretma_last_error());
		skip(2, "cannot open the simulated Lunar Lake session");
		unlink(prof);
		return;
	}
	evals = allocs = 0;
	for (int i = 0; i < 50; i++) {
		baretma_region_begin(bm, "outer");
		baretma_region_begin(bm, "inner");
		baretma_region_end(bm, "inner");
		baretma_region_end(bm, "outer");
	}
	ev = evals;
	al = allocs;
	ok(ev == 0 && al == 0, "Lunar Lake, rdpmc, %s regions: 50 nested pairs, no evaluation "
	   "(%lu), no allocation (%lu) at their begins and ends", method, ev, al);
	ok(baretma_region_stats(bm, "inner", &st) == 0 && st.pairs == 50 && st.slots.n == 50 &&
	   st.tma[BARETMA_TMA_RETIRING].n == 50 && st.total.level == 2,
	   "... read out: 50 pairs, all numbers, each pair's shares, level 2");
	baretma_close(bm);
	unlink(prof);
	unsetenv("BARETMA_MSR");
}

int main(void)
{
	for (int clear = 0; clear < 2; clear++)
		for (unsigned depth = 1; depth <= 3; depth += 2)
			for (int level = 1; level <= 2; level++)
				table_pairs(clear, depth, level);
	zero_slots();
	edges();
	public_lnl("metrics-clear");
	public_lnl("delta");
	return done_testing();
}
