/*
 * t/0842-subtract-counts - the empty bracket subtracted per event
 * (bench/measure_int.h bench_subtract_bracket on struct counts), for
 * every read set: any counter by name, PERF_METRICS's topdown-* counts
 * with their quantisation error, perf's counts with theirs.  Vectors worked
 * by hand below.
 */
#include <errno.h>

#include "bench/measure_int.h"
#include "t/tap.h"

/*
 * Three general-purpose events (a recipe's, by name), region minus empty
 * bracket event by event: 90000 - 1200 = 88800, 350000 - 4000 = 346000,
 * 300000 - 3300 = 296700; the errors add (0 + 0), the region's flags
 * stay.  Not a Top-down set: counts_to_tma finds no TOPDOWN.SLOTS
 * (-ENOENT), and the subtraction says so.
 */
static void events(void)
{
	static const char *const ev[] = { "CPU_CLK_UNHALTED.THREAD", "UOPS_ISSUED.ANY",
					  "UOPS_RETIRED.RETIRE_SLOTS" };
	struct read_set rs;
	struct counts reg = { .c = { 90000, 350000, 300000 }, .flags = TD_FLAG_NORMALISED },
		      empty = { .c = { 1200, 4000, 3300 } }, net;
	struct td_result r;

	read_set_init(&rs, "three events");
	for (unsigned i = 0; i < 3; i++)
		read_set_add(&rs, ev[i], READ_COUNTER, 48, i);
	counts_sub(&reg, &empty, rs.ncounts, &net);
	ok(net.c[0] == 88800 && net.c[1] == 346000 && net.c[2] == 296700,
	   "88800, 346000, 296700: event by event");
	check_dbl(net.err, 0, 0, "exact counts: no error");
	check_u64(net.flags, ==, TD_FLAG_NORMALISED, "the region's flags stay");
	check_int(bench_subtract_bracket(&rs, &reg, &empty, 1, &r), ==, -ENOENT,
		  "no Top-down events: no fractions (-ENOENT)");
}

/*
 * PERF_METRICS at level 2: region TOPDOWN.SLOTS 10000, topdown-retiring
 * 6000, -bad-spec 500, -fe-bound 1500, -be-bound 2000, -heavy-ops 1000,
 * -br-mispredict 400, -fetch-lat 1200, -mem-bound 500, err 40; empty
 * bracket 100, 10, 0, 60, 30, 5, 0, 50, 20, err 4.  Net: 9900 slots;
 * 5990, 500, 1440, 1970 (sum 9900), 995, 400, 1150, 480; err 44.
 * tma_retiring 5990/9900 = 0.605050505, tma_light_operations (5990 -
 * 995)/9900 = 0.504545455, tma_machine_clears 100/9900, tma_core_bound
 * 1490/9900 = 0.150505051; bound 44/9900 = 0.444 points.  (t/0415's
 * vector, with errors.)
 */
static void perf_metrics(void)
{
	struct read_set rs;
	struct counts reg = { .c = { 10000, 6000, 500, 1500, 2000, 1000, 400, 1200, 500 },
			      .err = 40 },
		      empty = { .c = { 100, 10, 0, 60, 30, 5, 0, 50, 20 }, .err = 4 };
	struct td_result r;

	read_set_perf_metrics(&rs);
	check_int(bench_subtract_bracket(&rs, &reg, &empty, 2, &r), ==, 0, "PERF_METRICS, level 2");
	check_dbl(r.slots, 9900, 0, "net slots 10000 - 100");
	check_dbl(r.frac[TMA_RETIRING], 5990.0 / 9900, 1e-15, "tma_retiring 5990/9900");
	check_dbl(r.frac[TMA_LIGHT_OPERATIONS], 4995.0 / 9900, 1e-15,
		  "tma_light_operations 4995/9900");
	check_dbl(r.frac[TMA_MACHINE_CLEARS], 100.0 / 9900, 1e-15, "tma_machine_clears 100/9900");
	check_dbl(r.frac[TMA_CORE_BOUND], 1490.0 / 9900, 1e-15, "tma_core_bound 1490/9900");
	check_dbl(r.err_slots, 44, 0, "errors add: 40 + 4 slots");
	check_dbl(r.bound, 44.0 / 9900, 1e-15, "bound 44/9900");
	check_u64(r.flags, ==, 0, "no flag");
}

/*
 * perf's counts at level 1, their level-1 sum not the slots (the
 * kernel's floors): region slots 10200, members 6000, 500, 1500, 2000 (sum
 * 10000), err 10200/255 + 1 = 41 slots (one read interval,
 * bench/source/reading.h); empty bracket slots 102, members 10, 0, 60, 30
 * (sum 100), err 102/255 + 1 = 1.4.  Net: slots 10098; 5990, 500, 1440,
 * 1970, sum 9900: perf's formula divides by the sum, tma_retiring
 * 5990/9900 = 0.605050505 (by the slots it would be 5990/10098 =
 * 0.593186770); the errors add, 42.4, and the bound is (42.4 + |9900 -
 * 10098|) / 9900 = 240.4/9900 = 0.0242828283 (bench/tma.h).  A bracket as
 * large as the region: zero slots.
 */
static void perf_counts(void)
{
	struct read_set rs;
	struct counts reg = { .c = { 10200, 6000, 500, 1500, 2000 }, .err = 41 },
		      empty = { .c = { 102, 10, 0, 60, 30 }, .err = 1.4 };
	struct td_result r;

	read_set_perf_counts(&rs, 4);
	check_int(bench_subtract_bracket(&rs, &reg, &empty, 1, &r), ==, 0, "perf, level 1");
	check_dbl(r.frac[TMA_RETIRING], 5990.0 / 9900, 1e-15, "tma_retiring 5990/9900 (the sum)");
	check_dbl(r.frac[TMA_BACKEND_BOUND], 1970.0 / 9900, 1e-15, "tma_backend_bound 1970/9900");
	check_dbl(r.slots, 10098, 0, "net slots 10098");
	check_dbl(r.err_slots, 42.4, 1e-12, "errors add: 41 + 1.4 slots");
	check_dbl(r.bound, 240.4 / 9900, 1e-15, "bound (42.4 + 198) / 9900");
	empty.c[0] = 10200;
	bench_subtract_bracket(&rs, &reg, &empty, 1, &r);
	ok(r.flags & TD_FLAG_ZERO_SLOTS, "a bracket of all the region's slots: zero slots");
	/* the empty bracket's own repetitions: nothing subtracted */
	static const struct counts none;
	check_int(bench_subtract_bracket(&rs, &reg, &none, 1, &r), ==, 0, "nothing subtracted");
	check_dbl(r.frac[TMA_RETIRING], 0.6, 1e-15, "tma_retiring 6000/10000");
}

int main(void)
{
	events();
	perf_metrics();
	perf_counts();
	return done_testing();
}
