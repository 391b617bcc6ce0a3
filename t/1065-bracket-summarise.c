/*
 * t/1065-bracket-summarise.c - the bracket subtraction every harness
 * depends on, as the harness does it (bench/measure_int.h): the empty
 * bracket's cost from its repetitions (bench_bracket_cost), then each
 * kernel repetition's counts less that cost, event by event, and the
 * statistics of what is left (bench_summarise).  t/0415 tests
 * bench_subtract_bracket, which bench_summarise does not call; the
 * whole-program tests (t/0454, t/0952) see the subtraction only through
 * the simulator.  Here a PERF_METRICS read set (TOPDOWN.SLOTS and the
 * eight topdown-* counts in slots, bench/source/reading.h) and vectors
 * worked by hand:
 *
 * Empty bracket, six repetitions (slots; fields retiring, bad spec, FE,
 * BE, heavy, br mispredict, fetch lat, mem bound; err; TSC ticks):
 *   e0-e3  100; 40 10 30 20 5 5 20 10; err 2; TSC 100, 104, 98, 102
 *   e4     150; 60 15 45 30 8 8 30 15; err 7; TSC 140 (an outlier)
 *   e5     tampered: 10000 slots, every field x100, err 100; TSC 96
 * The TSC over every repetition (bench_bracket_cost): sorted 96 98 100
 * 102 104 140, type-7 median (100 + 102) / 2 = 101.  The counts over the
 * five valid ones only: the median of 100 100 100 100 150 slots is 100
 * (their mean, 110, is not the bracket's cost), each field's median the
 * e0 value, the error's median 2 (mean 3).
 *
 * Kernel, three repetitions, raw = net + the bracket (100 slots, the
 * fields above, 101 ticks); err is each repetition's own readings':
 *   k0  net 1000 slots; 600 100 200 100 100 50 100 50; err 10; TSC 1101
 *   k1  net 2000 slots; 1000 200 400 400 300 100 300 200; err 20; TSC 2101
 *   k2  net 500 slots; 200 50 150 100 50 25 75 50; err 4; TSC 601
 * Net fractions (level 2; a derived node = its parent less the measured
 * child): retiring .6 .5 .4 -> median .5; bad speculation .1 .1 .1 -> .1;
 * frontend .2 .2 .3 -> .2; backend .1 .2 .2 -> .2; heavy .1 .15 .1 -> .1;
 * light .5 .35 .3 -> .35; fetch latency .1 .15 .15 -> .15; fetch
 * bandwidth .1 .05 .15 -> .1; memory .05 .1 .1 -> .1; core .05 .1 .1 ->
 * .1.  Slots median 1000, TSC ticks 1000 2000 500 -> 1000.  Bounds: the
 * net error is the repetition's plus the bracket's (12, 22, 6), over the
 * net slots: .012 .011 .012 -> .012; the readings' part 10/1000 20/2000
 * 4/500 -> .01; the bracket's part 2/1000 2/2000 2/500 -> .002.
 * Unsubtracted, k0's retiring would be 640/1100 = .582, its TSC 1101.
 */
#include <string.h>

#include "bench/measure_int.h"
#include "t/tap.h"

static const double bracket_fs[TD_NFIELDS] = { 40, 10, 30, 20, 5, 5, 20, 10 };

/* A repetition of @rs: @slots TOPDOWN.SLOTS, fields @fs (+ @plus each), err, TSC. */
static struct rep_sample rep(const struct read_set *rs, double slots, const double fs[TD_NFIELDS],
			     const double *plus, double scale, double err, double tsc)
{
	struct rep_sample v;

	memset(&v, 0, sizeof(v));
	v.tsc = tsc;
	v.slots = slots;
	v.c.err = err;
	v.c.c[read_set_count_index(rs, "TOPDOWN.SLOTS")] = slots;
	for (unsigned f = 0; f < TD_NFIELDS; f++)
		v.c.c[read_set_count_index(rs, read_td_events[1 + f])] =
			fs[f] * scale + (plus ? plus[f] : 0);
	return v;
}

static void test_bracket_cost(const struct read_set *rs, const struct rep_sample *e,
			      struct bracket_cost *bc)
{
	static struct bench_result res;
	int ks = read_set_count_index(rs, "TOPDOWN.SLOTS");
	unsigned same = 0;

	bench_bracket_cost(rs, e, 6, &res, bc);
	check_dbl(bc->tsc, 101, 1e-12, "bracket TSC: the median of all six repetitions, 101");
	check_dbl(res.bracket_tsc.median, 101, 1e-12, "and so in the result");
	check_dbl(bc->c.c[ks], 100, 1e-12,
		  "bracket slots: the median of the five valid ones, 100 (not the mean 110)");
	check_dbl(res.bracket_slots.median, 100, 1e-12, "the result's bracket_slots, 100");
	for (unsigned f = 0; f < TD_NFIELDS; f++)
		same += bc->c.c[read_set_count_index(rs, read_td_events[1 + f])] == bracket_fs[f] &&
			res.bracket_fs[f].median == bracket_fs[f];
	check_int((int)same, ==, TD_NFIELDS, "each field's bracket its median over the valid ones");
	check_dbl(bc->c.err, 2, 1e-12, "the bracket's error: the median 2 (not the mean 3)");
	check_dbl(res.bracket_err_slots, 2, 1e-12, "and so in the result");
}

static void test_kernel(const struct read_set *rs, const struct bracket_cost *bc)
{
	static const double n0[TD_NFIELDS] = { 600, 100, 200, 100, 100, 50, 100, 50 };
	static const double n1[TD_NFIELDS] = { 1000, 200, 400, 400, 300, 100, 300, 200 };
	static const double n2[TD_NFIELDS] = { 200, 50, 150, 100, 50, 25, 75, 50 };
	static const struct { enum td_metric m; double want; const char *name; } med[] = {
		{ TMA_RETIRING, .5, "net retiring .6 .5 .4: median .5" },
		{ TMA_BAD_SPECULATION, .1, "net bad speculation .1 each" },
		{ TMA_FRONTEND_BOUND, .2, "net frontend .2 .2 .3: median .2" },
		{ TMA_BACKEND_BOUND, .2, "net backend .1 .2 .2: median .2" },
		{ TMA_HEAVY_OPERATIONS, .1, "net heavy .1 .15 .1: median .1" },
		{ TMA_LIGHT_OPERATIONS, .35, "net light .5 .35 .3: median .35" },
		{ TMA_FETCH_LATENCY, .15, "net fetch latency .1 .15 .15: median .15" },
		{ TMA_FETCH_BANDWIDTH, .1, "net fetch bandwidth .1 .05 .15: median .1" },
		{ TMA_MEMORY_BOUND, .1, "net memory .05 .1 .1: median .1" },
		{ TMA_CORE_BOUND, .1, "net core .05 .1 .1: median .1" },
	};
	struct rep_sample k[3] = {
		rep(rs, 1100, n0, bracket_fs, 1, 10, 1101),
		rep(rs, 2100, n1, bracket_fs, 1, 20, 2101),
		rep(rs, 600, n2, bracket_fs, 1, 4, 601),
	};
	struct bench_kernel_result kr;

	memset(&kr, 0, sizeof(kr));
	kr.topdown = true;
	check_int(bench_summarise(rs, 2, k, 3, bc, &kr), ==, 0, "summarise the kernel at level 2");
	check_int((int)(kr.reps * 10 + kr.invalid), ==, 30, "3 repetitions, none invalid");
	check_dbl(kr.tsc.median, 1000, 1e-9, "TSC ticks less the bracket's 101: median 1000");
	check_dbl(kr.slots.median, 1000, 1e-9, "net slots 1000 2000 500: median 1000");
	for (unsigned i = 0; i < sizeof(med) / sizeof(med[0]); i++)
		check_dbl(kr.tma[med[i].m].median, med[i].want, 1e-12, med[i].name);
	check_dbl(kr.bound, .012, 1e-12, "bound: (own + bracket error) / net slots, median .012");
	check_dbl(kr.read_bound, .01, 1e-12, "its readings' part: median .01");
	check_dbl(kr.bracket_bound, .002, 1e-12, "its bracket's part 2 / net slots: median .002");
	check_u64(kr.flags, ==, 0, "no flag");
}

/* The empty kernel itself (no bracket to subtract): its raw numbers. */
static void test_empty_raw(const struct read_set *rs, const struct rep_sample *e)
{
	struct bench_kernel_result kr;

	memset(&kr, 0, sizeof(kr));
	kr.topdown = true;
	check_int(bench_summarise(rs, 1, e, 6, NULL, &kr), ==, 0, "summarise the empty kernel raw");
	check_dbl(kr.tsc.median, 101, 1e-12, "its TSC unsubtracted: median 101");
	check_int((int)(kr.invalid * 10 + kr.tampered), ==, 11, "the tampered one invalid");
	check_dbl(kr.tma[TMA_RETIRING].median, .4, 1e-12,
		  "retiring 40/100 (e4: 60/150 too): .4, nothing subtracted");
	check_dbl(kr.bracket_bound, 0, 0, "no bracket, no bracket bound");
}

int main(void)
{
	struct read_set rs;
	struct bracket_cost bc;
	struct rep_sample e[6];

	plan(30);
	read_set_perf_metrics(&rs);
	e[0] = rep(&rs, 100, bracket_fs, NULL, 1, 2, 100);
	e[1] = rep(&rs, 100, bracket_fs, NULL, 1, 2, 104);
	e[2] = rep(&rs, 100, bracket_fs, NULL, 1, 2, 98);
	e[3] = rep(&rs, 100, bracket_fs, NULL, 1, 2, 102);
	e[4] = rep(&rs, 150, bracket_fs, NULL, 1.5, 7, 140);
	e[5] = rep(&rs, 10000, bracket_fs, NULL, 100, 100, 96);
	e[5].tampered = true;
	test_bracket_cost(&rs, e, &bc);
	test_kernel(&rs, &bc);
	test_empty_raw(&rs, e);
	return done_testing();
}
