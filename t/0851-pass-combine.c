/*
 * t/0851-pass-combine.c - an event recipe measured in passes: one
 * repetition's passes combined into the recipe's counts
 * (bench/measure_int.h bench_pass_combine): each pass's counts net of its
 * own empty bracket, scaled to pass 0's slots by S_0 / S_p, the base from
 * pass 0; then the recipe's formulas on them (bench/tma.h).  The vectors
 * are worked by hand below with the Gracemont recipe (intel/perfmon
 * E-core_TMA_Metrics.csv GRT: SLOTS = 5 x CPU_CLK_UNHALTED.CORE, each
 * level-1 node its TOPDOWN_*.ALL over SLOTS, bad speculation the rest;
 * level 2 each event over SLOTS, resource bound = backend - core bound),
 * split as an Alder Lake E-core's 6 counters split it: pass 0 the cycles
 * and six GP events, pass 1 the cycles and the other two.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/measure_int.h"
#include "bench/tma.h"
#include "t/tap.h"

static const char *const p0_events[] = {
	"CPU_CLK_UNHALTED.CORE", "TOPDOWN_FE_BOUND.ALL", "TOPDOWN_BE_BOUND.ALL",
	"TOPDOWN_RETIRING.ALL", "TOPDOWN_FE_BOUND.FRONTEND_LATENCY",
	"TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", "TOPDOWN_BAD_SPECULATION.MISPREDICT",
};
static const char *const p1_events[] = {
	"CPU_CLK_UNHALTED.CORE", "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS",
	"TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS",
};

static void set_of(struct read_set *rs, const struct recipe *r, unsigned pass,
		   const char *const *ev, unsigned n)
{
	read_set_init(rs, "test");
	for (unsigned i = 0; i < n; i++)
		read_set_add(rs, ev[i], READ_COUNTER, 48, i);
	rs->recipe = r;
	rs->pass = pass;
	rs->npasses = 2;
}

static struct rep_sample sample(const double *c, unsigned n, double tsc)
{
	struct rep_sample s = { .tsc = tsc };

	for (unsigned i = 0; i < n; i++)
		s.c.c[i] = c[i];
	return s;
}

/* The count named @name of @all in @s, NAN when it has none. */
static double count_of(const struct read_set *all, const struct rep_sample *s, const char *name)
{
	int k = read_set_count_index(all, name);

	return k < 0 ? NAN : s->c.c[k];
}

int main(void)
{
	const struct recipe *r = recipe_find_variant("intel-ecore-l1", "gracemont");
	struct read_set rs[2], all;
	struct bracket_cost e[2] = { { 0 } };
	struct rep_sample v0[1], v1[1], out, *v[2] = { v0, v1 };
	struct td_result d;
	struct tma_extra x;

	plan(31);
	if (!ok(r != NULL, "the recipe intel-ecore-l1:gracemont"))
		return done_testing();
	set_of(&rs[0], r, 0, p0_events, 7);
	set_of(&rs[1], r, 1, p1_events, 3);
	check_int(bench_pass_union(rs, 2, &all), ==, 0, "the union of two passes");
	check_int((int)all.ncounts, ==, 9, "the union: 7 + 3 counts, the cycles once");
	check_int((int)all.npasses, ==, 1, "  one read set of every event");

	/*
	 * Pass 0: the region counted CORE 10000, FE 10000, BE 15000, RET 20000,
	 * FL 6000, FBW 4000, MISP 3000; its empty bracket 100, 100, 150, 200,
	 * 60, 40, 30.  Net: CORE 9900 (S_0 = 5 x 9900 = 49500), FE 9900, BE
	 * 14850, RET 19800, FL 5940, FBW 3960, MISP 2970.
	 * Pass 1, over a region twice as long: CORE 20200, MC 4040, ALLOC
	 * 12120; its bracket 200, 40, 120.  Net: CORE 20000 (S_1 = 100000),
	 * MC 4000, ALLOC 12000, scaled by S_0 / S_1 = 49500 / 100000 = 0.495:
	 * MC 1980, ALLOC 5940.
	 */
	const double c0[] = { 10000, 10000, 15000, 20000, 6000, 4000, 3000 };
	const double b0[] = { 100, 100, 150, 200, 60, 40, 30 };
	const double c1[] = { 20200, 4040, 12120 };
	const double b1[] = { 200, 40, 120 };

	v0[0] = sample(c0, 7, 5000);
	v1[0] = sample(c1, 3, 9000);
	for (unsigned i = 0; i < 7; i++)
		e[0].c.c[i] = b0[i];
	for (unsigned i = 0; i < 3; i++)
		e[1].c.c[i] = b1[i];
	bench_pass_combine(rs, 2, &all, v, e, false, 0, &out);
	check_dbl(count_of(&all, &out, "CPU_CLK_UNHALTED.CORE"), 9900, 0, "the base: pass 0's net cycles");
	check_dbl(count_of(&all, &out, "TOPDOWN_RETIRING.ALL"), 19800, 0, "a pass-0 count: net, unscaled");
	check_dbl(count_of(&all, &out, "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS"), 1980, 1e-9,
		  "a pass-1 count: net 4000 x 49500/100000 = 1980");
	check_dbl(count_of(&all, &out, "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS"), 5940, 1e-9,
		  "  and 12000 x 0.495 = 5940");
	check_dbl(out.tsc, 5000, 0, "TSC ticks: pass 0's");
	check_u64(out.flags, ==, 0, "no flag");

	/*
	 * The formulas on them, level 2, in % of S_0 = 49500: FE 9900 -> 20,
	 * BE 14850 -> 30, RET 19800 -> 40, bad = 100 - 90 = 10; FL 5940 -> 12,
	 * FBW 3960 -> 8, MISP 2970 -> 6, MC 1980 -> 4, core (ALLOC) 5940 -> 12,
	 * resource = 30 - 12 = 18.  Unscaled, MC would read 4000/49500 = 8.08.
	 */
	check_int(counts_to_tma_extra(&all, &out.c, 2, &d, &x), ==, 0, "the recipe on the combined counts");
	check_dbl(d.slots, 49500, 1e-9, "slots: S_0");
	check_dbl(d.frac[TMA_FRONTEND_BOUND], 0.20, 1e-12, "tma_frontend_bound 9900/49500");
	check_dbl(d.frac[TMA_BACKEND_BOUND], 0.30, 1e-12, "tma_backend_bound 14850/49500");
	check_dbl(d.frac[TMA_RETIRING], 0.40, 1e-12, "tma_retiring 19800/49500");
	check_dbl(d.frac[TMA_BAD_SPECULATION], 0.10, 1e-12, "tma_bad_speculation the rest");
	check_dbl(d.frac[TMA_FETCH_LATENCY], 0.12, 1e-12, "tma_fetch_latency 5940/49500");
	check_dbl(d.frac[TMA_BRANCH_MISPREDICTS], 0.06, 1e-12, "tma_branch_mispredicts 2970/49500");
	check_dbl(d.frac[TMA_MACHINE_CLEARS], 0.04, 1e-12, "tma_machine_clears 1980/49500 (pass 1, scaled)");
	check_dbl(d.frac[TMA_CORE_BOUND], 0.12, 1e-12, "tma_core_bound 5940/49500 (pass 1, scaled)");
	ok(x.n == 1 && !strcmp(x.x[0].metric, "tma_resource_bound") &&
	   fabs(x.x[0].frac - 0.18) < 1e-12, "tma_resource_bound 30 - 12 = 18");

	/* The empty kernel itself: raw counts, nothing subtracted; pass 1's
	 * 40 clears over 5 x 200 slots scaled to pass 0's 5 x 100: 20. */
	v0[0] = sample(b0, 7, 700);
	v1[0] = sample(b1, 3, 900);
	bench_pass_combine(rs, 2, &all, v, e, true, 0, &out);
	check_dbl(count_of(&all, &out, "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS"), 20, 1e-9,
		  "the empty kernel: raw, 40 x 500/1000 = 20");

	/* A pass tampered with, or a pass that counted no cycles: the
	 * repetition is no number (the flag of zero slots; its tamper). */
	v0[0] = sample(c0, 7, 5000);
	v1[0] = sample(c1, 3, 9000);
	v1[0].tampered = true;
	bench_pass_combine(rs, 2, &all, v, e, false, 0, &out);
	ok(out.tampered && !out.overflow, "a tampered pass makes the repetition tampered");
	v1[0] = sample(b1, 3, 9000); /* pass 1's region no longer than its bracket */
	bench_pass_combine(rs, 2, &all, v, e, false, 0, &out);
	check_u64(out.flags & TD_FLAG_ZERO_SLOTS, ==, TD_FLAG_ZERO_SLOTS,
		  "a pass whose net cycles are 0: zero slots");
	ok(!bench_rep_valid(&out), "  and not valid");

	/* One pass of several alone gives no fractions: its base's slots only. */
	struct counts p0 = v0[0].c;
	check_int(counts_to_tma(&rs[0], &p0, 2, &d), ==, 0, "a pass alone: counted");
	ok(d.slots == 50000 && d.frac[TMA_RETIRING] == 0 && !(d.flags & TD_FLAG_ZERO_SLOTS),
	   "  its slots 5 x 10000, no fractions");

	/*
	 * A recipe in four passes (Cascade Lake level 2 with SMT: 4 GP
	 * counters a pass, the base's 1 + 3 events in each): 1 + 4 x 3 = 13
	 * events in all, more than one reading's READING_MAX (12) values; the
	 * union counts each (it failed silently at the 13th: every repetition
	 * then had no base and read as below the bracket).
	 */
	static const char *const four[4][4] = {
		{ "CLK", "A0", "A1", "A2" }, { "CLK", "B0", "B1", "B2" },
		{ "CLK", "C0", "C1", "C2" }, { "CLK", "D0", "D1", "D2" },
	};
	struct read_set rs4[4];
	for (unsigned p = 0; p < 4; p++)
		set_of(&rs4[p], r, p, four[p], 4);
	check_int(bench_pass_union(rs4, 4, &all), ==, 0, "the union of four passes");
	check_int((int)all.ncounts, ==, 13, "  13 events: the base once, 3 of each pass");
	ok(read_set_count_index(&all, "D2") == 12 && read_set_count_index(&all, "CLK") == 0,
	   "  in pass order, the base first");
	/* More events than a read set counts: refused, not cut. */
	static char names[COUNTS_MAX + 1][8];
	struct read_set big[2];
	read_set_init(&big[0], "test");
	read_set_init(&big[1], "test");
	for (unsigned i = 0; i <= COUNTS_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "E%u", i);
		read_set_add_count(&big[i % 2], names[i]);
	}
	check_int(bench_pass_union(big, 2, &all), ==, -ENOSPC,
		  "COUNTS_MAX + 1 events in all: -ENOSPC");
	return done_testing();
}
