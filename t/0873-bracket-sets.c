/*
 * t/0873-bracket-sets - the RDPMC read set `make benchmark` times for each
 * recipe's level 1 (bench/benchmarks/bracket_sets.h), worked by hand from
 * the recipes' tables (msr/recipe/recipes_intel*.c, msr/recipe/recipes_amd.c) and the
 * RDPMC encodings (linux perf_event.h INTEL_PMC_FIXED_RDPMC_*: fixed counter i
 * (1<<30)|i, PERF_METRICS 1<<29, general-purpose counter x: x; AMD counter x:
 * x, arch/x86/events/core.c x86_pmu_rdpmc_index):
 *   intel-perf-metrics golden-cove: TOPDOWN.SLOTS then PERF_METRICS:
 *     0x40000003, 0x20000000 - baretma_read's pair;
 *   intel-perf-metrics sunny-cove (the default): the pair, then level 1's
 *     INT_MISC.UOP_DROPPING and INT_MISC.CLEARS_COUNT (msr/recipe/recipes_intel_pm.c)
 *     on counters 0 and 1: 0x40000003, 0x20000000, 0, 1;
 *   intel-icl-events sunny-cove: level 1 uses TOPDOWN.SLOTS (fixed 3),
 *     IDQ_UOPS_NOT_DELIVERED.CORE, INT_MISC.UOP_DROPPING,
 *     TOPDOWN.BACKEND_BOUND_SLOTS, INT_MISC.CLEARS_COUNT,
 *     UOPS_RETIRED.SLOTS, first fit in table order: 0x40000003, 0, 1, 2,
 *     3, 4 (six RDPMCs);
 *   amd-zen4: ls_not_halted_cyc, de_src_op_disp.all, ex_ret_ops,
 *     no_ops_from_frontend, backend_stalls, smt_contention on counters 0-5;
 *     with 4 counters (Zen 3's legacy count) level 1 takes two passes, the
 *     first holding four.
 */
#include <string.h>

#include "bench/benchmarks/bracket_sets.h"
#include "t/tap.h"

static int set_of(const char *name, const char *variant, struct read_set *rs, int *np)
{
	const struct recipe *r = recipe_find_variant(name, variant);
	uint32_t gp, fixed;

	if (!r)
		return -1;
	bracket_counters(r, &gp, &fixed);
	return bracket_read_set(r, gp, fixed, rs, np);
}

static bool ecx_are(const struct read_set *rs, const uint32_t *want, unsigned n)
{
	if (rs->n != n)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (rs->ecx[i] != want[i])
			return false;
	return true;
}

int main(void)
{
	static const uint32_t pm[] = { 0x40000003, 0x20000000 },
			      pm_icl[] = { 0x40000003, 0x20000000, 0, 1 },
			      icl[] = { 0x40000003, 0, 1, 2, 3, 4 }, zen4[] = { 0, 1, 2, 3, 4, 5 };
	struct read_set rs;
	int np = 0;
	uint32_t gp, fixed;

	check_int(set_of("intel-perf-metrics", "golden-cove", &rs, &np), ==, 0,
		  "intel-perf-metrics:golden-cove");
	ok(ecx_are(&rs, pm, 2), "TOPDOWN.SLOTS then PERF_METRICS: baretma_read's pair");
	ok(rs.val[1].kind == READ_PERF_METRICS && !strcmp(rs.val[0].name, "TOPDOWN.SLOTS"),
	   "PERF_METRICS after its slots");
	check_int(np, ==, 1, "one pass");
	check_int(set_of("intel-perf-metrics", NULL, &rs, &np), ==, 0,
		  "intel-perf-metrics (sunny-cove)");
	ok(ecx_are(&rs, pm_icl, 4), "the pair, then general-purpose counters 0 and 1");
	ok(rs.val[1].kind == READ_PERF_METRICS && !strcmp(rs.val[2].name, "INT_MISC.UOP_DROPPING") &&
	   !strcmp(rs.val[3].name, "INT_MISC.CLEARS_COUNT"), "  UOP_DROPPING, CLEARS_COUNT after it");
	check_int(np, ==, 1, "  one pass");
	check_int(set_of("intel-icl-events", "sunny-cove", &rs, &np), ==, 0, "intel-icl-events");
	ok(ecx_are(&rs, icl, 6), "fixed counter 3 and five general-purpose counters 0-4");
	ok(!strcmp(rs.val[1].name, "IDQ_UOPS_NOT_DELIVERED.CORE") &&
	   !strcmp(rs.val[5].name, "UOPS_RETIRED.SLOTS"), "in table order");
	check_int(set_of("amd-zen4", NULL, &rs, &np), ==, 0, "amd-zen4");
	ok(ecx_are(&rs, zen4, 6), "six counters 0-5");
	ok(!strcmp(rs.val[0].name, "ls_not_halted_cyc") &&
	   !strcmp(rs.val[5].name, "de_no_dispatch_per_slot.smt_contention"), "in table order");
	bracket_counters(recipe_find_variant("amd-zen4", NULL), &gp, &fixed);
	ok(gp == 0x3f && fixed == 0, "Zen 4: 6 counters, no fixed one");
	check_int(bracket_read_set(recipe_find_variant("amd-zen4", NULL), 0xf, 0, &rs, &np), ==, 0,
		  "amd-zen4 on four counters");
	check_int(np, ==, 2, "level 1 in two passes");
	check_int(rs.n, ==, 4, "the first pass: four RDPMCs");
	return done_testing();
}
