/*
 * t/1170-report-stats.c - the robust limit of `baretma report`
 * (bench/study/report.h report_robust; doc/report.md "The robust limit"):
 * |x - median| > max(k * 1.4826 * MAD, floor), judged from 3 values on.
 * Every expected number is worked here by hand from the definitions -
 * the median and MAD of R's type 7 (the mean of the two middle values of
 * an even count), 1.4826 = 1 / 0.6745 (Iglewicz and Hoaglin, 1993), k 3.5 -
 * never taken from the code: the vectors of doc/report.md's table, a MAD
 * of 0, an even count, fewer than 3 values, and the arguments refused.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/study/report.h"
#include "t/tap.h"

static void judge(const char *name, const double *v, size_t n, double k, double floor,
		  double median, double mad, double limit, double cut, const signed char *want)
{
	struct report_robust r;
	signed char dir[16];
	char what[160];
	int rc = report_robust(v, n, k, floor, &r, dir);

	snprintf(what, sizeof(what), "%s: report_robust returns 0", name);
	check_int(rc, ==, 0, what);
	snprintf(what, sizeof(what), "%s: median %g", name, median);
	check_dbl(r.st.median, median, 1e-9, what);
	snprintf(what, sizeof(what), "%s: MAD %g", name, mad);
	check_dbl(r.st.mad, mad, 1e-9, what);
	snprintf(what, sizeof(what), "%s: scale 1.4826 x MAD = %.6g", name, 1.4826 * mad);
	check_dbl(r.scale, 1.4826 * mad, 1e-9, what);
	if (isnan(limit)) {
		snprintf(what, sizeof(what), "%s: not judged, no limit, no cut", name);
		ok(!r.judged && isnan(r.limit) && isnan(r.cut), "%s", what);
	} else {
		snprintf(what, sizeof(what), "%s: judged, limit %.6g, cut %.6g", name, limit, cut);
		ok(r.judged && fabs(r.limit - limit) < 1e-9 && fabs(r.cut - cut) < 1e-9, "%s", what);
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s: %g is %s", name, v[i],
			 want[i] > 0 ? "above" : want[i] < 0 ? "below" : "not an outlier");
		check_int(dir[i], ==, want[i], what);
	}
}

int main(void)
{
	struct report_robust r;
	const double one[] = { 5 };

	/* doc/report.md's first row: sorted 3874 3874 3900 3926 6552, median
	 * 3900; |x - 3900| = 26 0 26 26 2652, sorted 0 26 26 26 2652, MAD 26;
	 * 3.5 x 1.4826 x 26 = 134.9166; floor 1 % of 3900 = 39; 6552 - 3900 =
	 * 2652 > 134.9166: above; 3926 - 3900 = 26 is not. */
	judge("bracket ticks", (const double[]){ 3874, 3900, 3874, 3926, 6552 }, 5, 3.5, 39,
	      3900, 26, 134.9166, 134.9166, (const signed char[]){ 0, 0, 0, 0, 1 });
	/* MAD 0: four of five alike.  median 24000, deviations 0 0 0 120
	 * 24000, MAD 0, limit 0; the floor 240 is the cut: 120 is within it,
	 * 24000 beyond. */
	judge("MAD 0", (const double[]){ 24000, 24000, 24000, 24120, 48000 }, 5, 3.5, 240,
	      24000, 0, 0, 240, (const signed char[]){ 0, 0, 0, 0, 1 });
	/* MAD 0 and every host alike: nothing beyond the floor. */
	judge("all alike", (const double[]){ 7, 7, 7 }, 3, 3.5, 1, 7, 0, 0, 1,
	      (const signed char[]){ 0, 0, 0 });
	/* Even n: 10 12 14 40, median (12 + 14) / 2 = 13; deviations 3 1 1
	 * 27, sorted 1 1 3 27, MAD (1 + 3) / 2 = 2; limit 3.5 x 1.4826 x 2 =
	 * 10.3782 > floor 1: 40 - 13 = 27 above, 10 (3 below) within. */
	judge("even n", (const double[]){ 10, 12, 14, 40 }, 4, 3.5, 1, 13, 2, 10.3782, 10.3782,
	      (const signed char[]){ 0, 0, 0, 1 });
	/* Below: 100 101 102 103 20, median 101, deviations 1 0 1 2 81,
	 * sorted 0 1 1 2 81, MAD 1; limit 5.1891: 20 is 81 below. */
	judge("below", (const double[]){ 100, 101, 102, 103, 20 }, 5, 3.5, 0.01, 101, 1, 5.1891,
	      5.1891, (const signed char[]){ 0, 0, 0, 0, -1 });
	/* k: the same vector with k = 1: limit 1.4826; 103 (2 above) is
	 * now beyond, 100 (1 below) is not. */
	judge("k 1", (const double[]){ 100, 101, 102, 103, 20 }, 5, 1, 0.01, 101, 1, 1.4826,
	      1.4826, (const signed char[]){ 0, 0, 0, 1, -1 });
	/* Exactly at the cut is not beyond it: 0 0 0 2 2.5, median 0, MAD
	 * 0, the floor 2 the cut; 2 is not above, 2.5 is. */
	judge("at the cut", (const double[]){ 0, 0, 0, 2, 2.5 }, 5, 3.5, 2, 0, 0, 0, 2,
	      (const signed char[]){ 0, 0, 0, 0, 1 });
	/* n < 3: two hosts, 30.08 and 39.84: median 34.96, MAD 4.88, not
	 * judged (with two values each is as far from the median as the other). */
	judge("n 2", (const double[]){ 30.08, 39.84 }, 2, 3.5, 0.5, 34.96, 4.88, NAN, NAN,
	      (const signed char[]){ 0, 0 });
	judge("n 1", one, 1, 3.5, 0.5, 5, 0, NAN, NAN, (const signed char[]){ 0 });
	/* A cut past DBL_MAX: 0 0 1.5e308 1.5e308, median 0 + 0.5 x 1.5e308 =
	 * 7.5e307, every deviation 7.5e307, MAD 7.5e307, scale 1.4826 x 7.5e307
	 * = 1.112e308; k 3.5 x 1.112e308 = 3.89e308 > DBL_MAX (1.797e308): no
	 * cut, so not judged, never "judged" with a cut NaN (found by
	 * fuzz/fuzz-report). */
	{
		const double huge[] = { 0, 0, 1.5e308, 1.5e308 };
		struct report_robust h;
		signed char d[4] = { 9, 9, 9, 9 };

		check_int(report_robust(huge, 4, 3.5, 1, &h, d), ==, 0, "cut past DBL_MAX: 0");
		ok(fabs(h.st.median / 7.5e307 - 1) < 1e-12, "cut past DBL_MAX: median 7.5e307");
		ok(fabs(h.st.mad / 7.5e307 - 1) < 1e-12, "cut past DBL_MAX: MAD 7.5e307");
		ok(fabs(h.scale / 1.11195e308 - 1) < 1e-5, "cut past DBL_MAX: scale 1.112e308");
		ok(!h.judged && isnan(h.limit) && isnan(h.cut),
		   "cut past DBL_MAX: not judged, no limit, no cut");
		ok(!d[0] && !d[1] && !d[2] && !d[3], "cut past DBL_MAX: no host an outlier");
	}

	check_int(report_robust(one, 0, 3.5, 1, &r, NULL), ==, -EINVAL, "no value: -EINVAL");
	check_int(report_robust(one, 1, 0, 1, &r, NULL), ==, -EINVAL, "k 0: -EINVAL");
	check_int(report_robust(one, 1, 3.5, -1, &r, NULL), ==, -EINVAL, "a negative floor: -EINVAL");
	check_int(report_robust(one, 1, 3.5, NAN, &r, NULL), ==, -EINVAL, "a floor NaN: -EINVAL");
	check_dbl(REPORT_K_DEFAULT, 3.5, 0, "the default k is Iglewicz and Hoaglin's 3.5");
	check_int(REPORT_MIN_HOSTS, ==, 3, "fewer than 3 hosts are not judged (doc/report.md)");
	return done_testing();
}
