/*
 * t/0415-bench-subtract - the empty bracket is subtracted in slots per
 * field, never from percentages (issue: main job; linux topdown.txt method):
 * per event of the read set of PERF_METRICS (bench/source/reading.h), whose
 * counts are TOPDOWN.SLOTS and the topdown-* events in slots.
 * Vectors worked by hand below.
 */
#include "bench/measure_int.h"
#include "t/tap.h"

/* @fs and @slots as the counts of the PERF_METRICS read set @rs. */
static struct counts counts_of(const struct read_set *rs, const double fs[TD_NFIELDS],
			       double slots)
{
	struct counts c = { .err = 0 };

	c.c[read_set_count_index(rs, "TOPDOWN.SLOTS")] = slots;
	for (unsigned f = 0; f < TD_NFIELDS; f++)
		c.c[read_set_count_index(rs, read_td_events[1 + f])] = fs[f];
	return c;
}

static int bench_subtract(const struct read_set *rs, const double fs[TD_NFIELDS], double slots,
			  const double efs[TD_NFIELDS], double eslots, int level,
			  struct td_result *r)
{
	struct counts a = counts_of(rs, fs, slots), e = counts_of(rs, efs, eslots);

	return bench_subtract_bracket(rs, &a, &e, level, r);
}

int main(void)
{
	struct td_result r = { 0 };
	struct read_set rs;
	/*
	 * Kernel region: 10000 slots; Retiring 6000, Bad Spec 500, FE 1500, BE 2000;
	 *   level 2: Heavy 1000, Br Misp 400, Fetch Lat 1200, Mem Bound 500.
	 * Empty bracket: 100 slots; Retiring 10, Bad Spec 0, FE 60, BE 30;
	 *   level 2: Heavy 5, Br Misp 0, Fetch Lat 50, Mem Bound 20.
	 * Net: 9900 slots; Retiring 5990 -> 0.605050505; FE 1440 -> 0.145454545;
	 *   BE 1970 -> 0.198989899; Bad Spec 500 -> 0.050505051.
	 *   Heavy 995 -> 0.100505051, Light 5990-995 = 4995 -> 0.504545455;
	 *   Fetch Lat 1150 -> 0.116161616, Fetch BW 1440-1150 = 290 -> 0.029292929;
	 *   Mem 480 -> 0.048484848, Core 1970-480 = 1490 -> 0.150505051.
	 * Subtracting percentages instead would give Retiring 0.6 - 0.1 = 0.5: wrong.
	 */
	const double fs[TD_NFIELDS] = { 6000, 500, 1500, 2000, 1000, 400, 1200, 500 };
	const double efs[TD_NFIELDS] = { 10, 0, 60, 30, 5, 0, 50, 20 };

	plan(13);
	read_set_perf_metrics(&rs);
	ok(bench_subtract(&rs, fs, 10000, efs, 100, 2, &r) == 0, "subtract at level 2");
	check_dbl(r.slots, 9900, 0, "net slots 10000 - 100");
	check_dbl(r.frac[TMA_RETIRING], 5990.0 / 9900, 1e-12, "tma_retiring 5990/9900");
	check_dbl(r.frac[TMA_BAD_SPECULATION], 500.0 / 9900, 1e-12, "tma_bad_speculation 500/9900");
	check_dbl(r.frac[TMA_FRONTEND_BOUND], 1440.0 / 9900, 1e-12, "tma_frontend_bound 1440/9900");
	check_dbl(r.frac[TMA_BACKEND_BOUND], 1970.0 / 9900, 1e-12, "tma_backend_bound 1970/9900");
	check_dbl(r.frac[TMA_LIGHT_OPERATIONS], 4995.0 / 9900, 1e-12, "tma_light_operations 4995/9900");
	check_dbl(r.frac[TMA_FETCH_BANDWIDTH], 290.0 / 9900, 1e-12, "tma_fetch_bandwidth 290/9900");
	check_dbl(r.frac[TMA_CORE_BOUND], 1490.0 / 9900, 1e-12, "tma_core_bound 1490/9900");
	check_u64(r.flags, ==, 0, "no flags");

	/* An empty bracket bigger than the region in one field: negative, flagged. */
	const double big[TD_NFIELDS] = { 7000, 0, 0, 0, 0, 0, 0, 0 };
	bench_subtract(&rs, fs, 10000, big, 100, 1, &r);
	check_u64(r.flags & TD_FLAG_NEGATIVE, ==, TD_FLAG_NEGATIVE, "negative net field is flagged");
	/* An empty bracket as large as the region: zero slots, flagged. */
	bench_subtract(&rs, fs, 100, efs, 100, 1, &r);
	check_u64(r.flags & TD_FLAG_ZERO_SLOTS, ==, TD_FLAG_ZERO_SLOTS, "zero net slots is flagged");
	check_int(bench_subtract(&rs, fs, 1, efs, 0, 3, &r), ==, -22, "level 3 is -EINVAL");
	return done_testing();
}
