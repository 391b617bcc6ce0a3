/*
 * t/0400-bench-stats.c - bench_stats_compute / bench_median against vectors
 * worked by hand.  Quantiles are R's type 7 (Hyndman & Fan 1996):
 * h = (n - 1) p, Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h])
 * on the sorted data; MAD = median |x - median|, unscaled.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/stats.h"
#include "t/tap.h"

#define TOL 1e-12

struct vec {
	const char *name;
	double v[8];
	size_t n;
	double min, q1, median, q3, max, mean, mad;
};

static const struct vec vecs[] = {
	/* n = 1: every statistic is the value, MAD 0 */
	{ "n=1", { 7 }, 1, 7, 7, 7, 7, 7, 7, 0 },
	/* sorted 1 2 3 4 5.  q1: h = 4(.25) = 1 -> 2; median h = 2 -> 3;
	 * q3: h = 3 -> 4; mean 15/5 = 3; |x-3| = 2 1 0 1 2 -> 0 1 1 2 2 -> 1 */
	{ "odd n, unsorted", { 5, 1, 4, 2, 3 }, 5, 1, 2, 3, 4, 5, 3, 1 },
	/* sorted 2 4 8 10.  q1: h = .75 -> 2 + .75(4-2) = 3.5;
	 * median h = 1.5 -> 4 + .5(8-4) = 6; q3: h = 2.25 -> 8 + .25(10-8) = 8.5;
	 * mean 24/4 = 6; |x-6| = 4 2 2 4 -> 2 2 4 4 -> h = 1.5 -> 3 */
	{ "even n", { 10, 2, 8, 4 }, 4, 2, 3.5, 6, 8.5, 10, 6, 3 },
	/* sorted 1 3 3 3 3 9.  q1: h = 1.25 -> 3; median h = 2.5 -> 3;
	 * q3: h = 3.75 -> 3; mean 22/6; |x-3| = 2 0 0 0 0 6 -> 0 0 0 0 2 6 -> 0 */
	{ "duplicates", { 3, 3, 3, 1, 9, 3 }, 6, 1, 3, 3, 3, 9, 22.0 / 6, 0 },
	/* sorted 1 2 4 8 16 32 64 (type 6 would give q1 = 2, type 7 gives 3).
	 * q1: h = 1.5 -> 2 + .5(4-2) = 3; median h = 3 -> 8;
	 * q3: h = 4.5 -> 16 + .5(32-16) = 24; mean 127/7;
	 * |x-8| = 7 6 4 0 8 24 56 -> 0 4 6 7 8 24 56 -> 7 */
	{ "type 7 quartiles", { 64, 1, 32, 2, 16, 4, 8 }, 7, 1, 3, 8, 24, 64, 127.0 / 7, 7 },
	/* sorted -1.5 .5 2.5.  q1: h = .5 -> -1.5 + .5(2) = -.5; median .5;
	 * q3: h = 1.5 -> .5 + .5(2) = 1.5; mean 1.5/3 = .5; |x-.5| = 2 0 2 -> 2 */
	{ "negative, fractional", { 2.5, -1.5, 0.5 }, 3, -1.5, -0.5, 0.5, 1.5, 2.5, 0.5, 2 },
	/* sorted 1 2 3 4 5 6 7 100: the outlier moves the mean, not the median.
	 * q1: h = 1.75 -> 2.75; median h = 3.5 -> 4.5; q3: h = 5.25 -> 6.25;
	 * mean 128/8 = 16; |x-4.5| = 3.5 2.5 1.5 .5 .5 1.5 2.5 95.5
	 * -> .5 .5 1.5 1.5 2.5 2.5 3.5 95.5 -> h = 3.5 -> 2 */
	{ "outlier", { 100, 7, 1, 6, 2, 5, 3, 4 }, 8, 1, 2.75, 4.5, 6.25, 100, 16, 2 },
};

static void check_vec(const struct vec *t)
{
	double copy[8];
	struct bench_stats s;
	char name[128];
	int rc;

	memcpy(copy, t->v, sizeof(copy));
	rc = bench_stats_compute(copy, t->n, &s);
	snprintf(name, sizeof(name), "%s: returns 0", t->name);
	check_int(rc, ==, 0, name);
#define CHECK(field) do {                                                   \
	snprintf(name, sizeof(name), "%s: " #field " = %g", t->name, t->field); \
	check_dbl(s.field, t->field, TOL, name);                            \
} while (0)
	CHECK(min);
	CHECK(q1);
	CHECK(median);
	CHECK(q3);
	CHECK(max);
	CHECK(mean);
	CHECK(mad);
#undef CHECK
	snprintf(name, sizeof(name), "%s: n", t->name);
	check_u64(s.n, ==, t->n, name);
	snprintf(name, sizeof(name), "%s: input left as it was", t->name);
	ok(memcmp(copy, t->v, sizeof(copy)) == 0, "%s", name);
	snprintf(name, sizeof(name), "%s: bench_median agrees", t->name);
	check_dbl(bench_median(copy, t->n), t->median, TOL, name);
}

int main(void)
{
	struct bench_stats s;
	double one = 1;

	for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++)
		check_vec(&vecs[i]);

	/* n = 0: -EINVAL, the output zeroed with n = 0 */
	memset(&s, 0x5a, sizeof(s));
	check_int(bench_stats_compute(&one, 0, &s), ==, -EINVAL, "n = 0 gives -EINVAL");
	check_u64(s.n, ==, 0, "n = 0 leaves out->n = 0");
	ok(s.median == 0 && s.min == 0 && s.max == 0 && s.mad == 0 && s.mean == 0,
	   "n = 0 zeroes the statistics");
	ok(isnan(bench_median(&one, 0)), "bench_median of nothing is NAN");
	return done_testing();
}
