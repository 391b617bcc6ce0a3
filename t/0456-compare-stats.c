/*
 * t/0456-compare-stats.c - the statistics of `baretma compare`
 * (bench/compare.h) against vectors worked by hand: the sign-test
 * interval's order statistic k from the binomial distribution (Conover,
 * Practical Nonparametric Statistics, table A3: n = 10 -> (2, 9),
 * n = 20 -> (6, 15)), and the verdicts of three block series.
 */
#include <math.h>

#include "bench/compare.h"
#include "t/tap.h"

static void test_k(void)
{
	/* P(B(5) <= 0) = 1/32 = 0.031 > 0.025: no 95 % interval with 5 pairs */
	check_int((int)compare_sign_k(5), ==, 0, "5 pairs: no 95% interval");
	/* P(B(6) <= 0) = 1/64 = 0.016, P(B(6) <= 1) = 7/64 = 0.109: k = 1 */
	check_int((int)compare_sign_k(6), ==, 1, "6 pairs: k = 1");
	/* P(B(10) <= 1) = 11/1024 = 0.0107, P(<= 2) = 56/1024 = 0.0547: k = 2 */
	check_int((int)compare_sign_k(10), ==, 2, "10 pairs: k = 2 (d(2), d(9))");
	/* P(B(20) <= 5) = 21700/2^20 = 0.0207, P(<= 6) = 0.0577: k = 6 */
	check_int((int)compare_sign_k(20), ==, 6, "20 pairs: k = 6 (d(6), d(15))");
}

static void test_agree(void)
{
	static const double raw[10] = { 40, 41, 39, 40, 42, 38, 40, 41, 39, 40 };
	static const double perf[10] = { 40, 40, 40, 40, 40, 40, 40, 40, 40, 40 };
	struct compare_metric m;

	/* d sorted -2 -1 -1 0 0 0 0 1 1 2: median 0, [d(2), d(9)] = [-1, 1];
	 * raw sorted 38 39 39 40 40 40 40 41 41 42: [39, 41], noise 1; perf
	 * noise 0; tol = 0.4 + 0.3 + 1 + 0 = 1.7 */
	compare_metric_stats(raw, perf, 10, 0.4, 0.3, &m);
	check_int((int)m.n, ==, 10, "agree: 10 pairs");
	check_dbl(m.raw, 40, 1e-12, "agree: raw median");
	check_dbl(m.perf, 40, 1e-12, "agree: perf median");
	check_dbl(m.diff, 0, 1e-12, "agree: difference");
	check_dbl(m.lo, -1, 1e-12, "agree: interval low d(2)");
	check_dbl(m.hi, 1, 1e-12, "agree: interval high d(9)");
	check_dbl(m.raw_noise, 1, 1e-12, "agree: raw noise (41 - 39) / 2");
	check_dbl(m.perf_noise, 0, 1e-12, "agree: perf noise");
	check_dbl(m.tol, 1.7, 1e-12, "agree: tolerance");
	check_int(m.verdict, ==, COMPARE_AGREE, "agree: verdict");
}

static void test_disagree(void)
{
	static const double raw[6] = { 30, 30.5, 29.5, 30, 30, 30 };
	double perf[6];
	struct compare_metric m;

	/* perf = raw + 5 (fault perf_offset tma_backend_bound 5): d = -5 each,
	 * interval [-5, -5]; noises: raw sorted 29.5 30 30 30 30 30.5, k = 1:
	 * (30.5 - 29.5) / 2 = 0.5, perf the same; tol = 0.4 + 0.4 + 1 = 1.8;
	 * hi = -5 < -1.8: DISAGREE */
	for (int i = 0; i < 6; i++)
		perf[i] = raw[i] + 5;
	compare_metric_stats(raw, perf, 6, 0.4, 0.4, &m);
	check_dbl(m.diff, -5, 1e-12, "offset: difference");
	check_dbl(m.hi, -5, 1e-12, "offset: interval high");
	check_dbl(m.tol, 1.8, 1e-12, "offset: tolerance");
	check_int(m.verdict, ==, COMPARE_DISAGREE, "offset: DISAGREE");
	/* the same offset, within a tolerance of 6: agree */
	compare_metric_stats(raw, perf, 6, 2.5, 2.5, &m);
	check_int(m.verdict, ==, COMPARE_AGREE, "offset within a wide tolerance: agree");
}

static void test_na(void)
{
	double raw[6] = { 40, 40, 40, 40, 40, NAN }, perf[6] = { 40, 40, 40, 40, 40, 40 };
	struct compare_metric m;

	/* one block without a median leaves 5 pairs: no 95 % interval */
	compare_metric_stats(raw, perf, 6, 0.4, 0.4, &m);
	check_int((int)m.n, ==, 5, "n/a: 5 pairs with numbers");
	check_int(m.verdict, ==, COMPARE_NA, "n/a: not compared (a check not made is no pass)");
}

int main(void)
{
	plan(21);
	test_k();
	test_agree();
	test_disagree();
	test_na();
	return done_testing();
}
